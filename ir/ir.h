/*
 * ir.h - the rxc intermediate representation, and the base utilities under it.
 *
 * Two levels, as in Relax.  The graph level (IrExpr, IrFunction) holds Relax
 * functions in A-normal form; the loop level (IrPrimExpr, IrStmt, IrPrimFunc)
 * holds T.prim_func bodies.  Symbolic shape dimensions are IrPrimExprs too, so
 * the arithmetic in arith.c serves both levels.
 *
 * Key ideas:
 *  - Every node lives in the arena of one IrCtx and is freed with it.  Nodes
 *    are never changed after construction: a pass reads a const IrModule and
 *    builds a new one that shares untouched nodes.
 *  - Identity is by pointer.  A Relax var is an IrExpr of kind IR_EX_VAR; each
 *    use points at the defining node.  A TIR var (loop var, shape var, let
 *    var, handle) is an IrPrimExpr of kind IR_PE_VAR, likewise.
 *  - Names are interned (IrSym): equal names are equal pointers.
 *  - Errors in user input go to the context's diagnostics and are returned;
 *    library code never exits.
 */
#ifndef RXC_IR_H
#define RXC_IR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RXC_VERSION "0.1.0"

typedef struct IrCtx IrCtx;
typedef const char *IrSym; /* interned string: compare with == */

/* ------------------------------------------------------------------ */
/* base.c: arena, growable vectors, interning                          */
/* ------------------------------------------------------------------ */

IrCtx *ir_ctx_new(void);
void ir_ctx_free(IrCtx *ctx);
void *ir_alloc(IrCtx *ctx, size_t size); /* zeroed, 16-aligned, lives with ctx */
size_t ir_arena_bytes(const IrCtx *ctx); /* what ir_alloc has given so far */
/* A point in the arena to give back to: ir_arena_rewind frees what was
 * allocated since the mark, when nothing else can hold it (see base.c),
 * and says whether it did.  For a pass that builds a function only to
 * find it equal to one it has. */
typedef struct {
  const void *chunk, *next;
  size_t used, syms;
  int diags, sources;
} IrArenaMark;
IrArenaMark ir_arena_mark(const IrCtx *ctx);
bool ir_arena_rewind(IrCtx *ctx, IrArenaMark m);
/* Takes a heap block (ir_xmalloc's) the caller is done with as arena
 * space, zeroed, drawn from next and freed with ctx: a large scratch
 * array's pages, already in memory, serve the arena instead of fresh
 * pages the kernel must zero.  A small block is just freed. */
void ir_arena_adopt(IrCtx *ctx, void *block, size_t bytes);
/* Asks for huge pages in the 2 MiB-aligned part of a large heap block:
 * touching 100 MB of fresh 4 KiB pages costs 25,000 page faults. */
void ir_advise_huge(void *p, size_t bytes);
char *ir_strdup(IrCtx *ctx, const char *s, size_t len);
char *ir_printf(IrCtx *ctx, const char *fmt, ...);
IrSym ir_sym(IrCtx *ctx, const char *s);
IrSym ir_sym_n(IrCtx *ctx, const char *s, size_t len);

/* A growable array of pointers on the heap, used while building a node;
 * ir_vec_freeze copies it into the arena and empties the vector. */
typedef struct {
  void **items; /* heap, owned by the vector */
  int len;      /* used entries */
  int cap;      /* allocated entries */
} IrVec;

void ir_vec_push(IrVec *v, void *item);
void **ir_vec_freeze(IrCtx *ctx, IrVec *v); /* NULL when empty */
void ir_vec_free(IrVec *v);

/* A growable byte buffer (text output, constant data). */
typedef struct {
  char *data; /* heap, NUL-terminated when len > 0 */
  size_t len; /* bytes used, excluding the NUL */
  size_t cap; /* bytes allocated */
} IrBuf;

void ir_buf_put(IrBuf *b, const void *data, size_t len);
void ir_buf_puts(IrBuf *b, const char *s);
void ir_buf_printf(IrBuf *b, const char *fmt, ...);
void ir_buf_vprintf(IrBuf *b, const char *fmt, va_list ap);
void ir_buf_free(IrBuf *b);
/* Frees what b holds and gives it data instead: a heap block of cap
 * bytes (cap > len; free() frees it) holding len bytes, which the caller
 * filled in place rather than copying them in (a model's weights). */
void ir_buf_adopt(IrBuf *b, char *data, size_t len, size_t cap);

/* ------------------------------------------------------------------ */
/* map.c: checked heap allocation, the pointer-keyed hash map          */
/* ------------------------------------------------------------------ */

/* malloc, calloc and realloc that never return NULL (a zero size gets one
 * byte): out of memory prints a line and aborts, as ir_alloc does.  Every
 * heap block the compiler allocates for itself comes from these; only a
 * block whose size the user's model or dims ask for (the arena `rxc run
 * --via` allocates) may fail with an error instead. */
void *ir_xmalloc(size_t size);
void *ir_xcalloc(size_t count, size_t size);
void *ir_xrealloc(void *p, size_t size);
/* aligned_alloc of size rounded up to a multiple of align (a power of
 * two; a zero size gets align bytes), checked alike; free() frees it. */
void *ir_xaligned_alloc(size_t align, size_t size);

/* A hash map from non-NULL pointers (nodes, interned symbols) to pointers.
 * Zero it for a map on the heap (ir_map_free frees it), or make it with
 * ir_map_init_arena to keep its slots in ctx's arena.  Only lookups are
 * offered, no iteration: the slot order depends on addresses, and output
 * must not. */
typedef struct {
  const void **keys; /* cap slots; NULL marks an empty one */
  void **values;     /* parallel to keys */
  size_t cap;        /* power of two, or 0 before the first put */
  size_t len;        /* keys present */
  IrCtx *ctx;        /* the arena holding the slots, or NULL: the heap */
} IrMap;

void ir_map_init_arena(IrMap *m, IrCtx *ctx);
void *ir_map_get(const IrMap *m, const void *key); /* NULL when absent */
bool ir_map_has(const IrMap *m, const void *key);
void ir_map_put(IrMap *m, const void *key, void *value); /* adds or replaces */
/* key's value slot, added holding NULL when absent; valid until the next
 * put or slot. */
void **ir_map_slot(IrMap *m, const void *key);
void ir_map_clear(IrMap *m); /* removes every key, keeps the slots */
void ir_map_free(IrMap *m);

/* Internal invariants: never the path for user errors. */
#define UNREACHABLE() ir_unreachable(__FILE__, __LINE__)
void ir_unreachable(const char *file, int line);

/* ------------------------------------------------------------------ */
/* diag.c: source files and diagnostics                                */
/* ------------------------------------------------------------------ */

typedef struct {
  const char *name; /* path as given by the user */
  const char *text; /* whole file, NUL-terminated, owned by the ctx */
  size_t len;       /* bytes of text */
} IrSource;

typedef struct {
  const IrSource *src; /* NULL when the node was not read from text */
  int line;            /* 1-based; 0 when unknown */
  int col;             /* 1-based, in bytes */
} IrLoc;

typedef enum {
  IR_DIAG_ERROR,
  IR_DIAG_WARNING,
  IR_DIAG_NOTE, /* attached to the error before it */
} IrDiagLevel;

typedef struct {
  IrDiagLevel level;
  IrLoc loc;
  const char *msg; /* arena string, no trailing newline */
} IrDiag;

/* Registers text under a name; the ctx keeps its own copy. */
const IrSource *ir_source_add(IrCtx *ctx, const char *name, const char *text, size_t len);
/* Reads a file into a source; on failure records an error and returns NULL. */
const IrSource *ir_source_read(IrCtx *ctx, const char *path);
void ir_error(IrCtx *ctx, IrLoc loc, const char *fmt, ...);
void ir_warning(IrCtx *ctx, IrLoc loc, const char *fmt, ...);
void ir_note(IrCtx *ctx, IrLoc loc, const char *fmt, ...);
void ir_diag_v(IrCtx *ctx, IrDiagLevel level, IrLoc loc, const char *fmt, va_list ap);
int ir_error_count(const IrCtx *ctx);
int ir_diag_count(const IrCtx *ctx);
const IrDiag *ir_diag_get(const IrCtx *ctx, int i);
/* Prints every diagnostic as "file:line:col: error: msg", the source line
 * and a caret under the column. */
void ir_diag_print(const IrCtx *ctx, FILE *out);
void ir_diag_clear(IrCtx *ctx);

/* ------------------------------------------------------------------ */
/* dtype.c: data types                                                  */
/* ------------------------------------------------------------------ */

typedef enum {
  IR_DT_VOID,   /* unknown or none: printed "void" (R.Tensor without dtype) */
  IR_DT_INT,    /* int8..int64 */
  IR_DT_UINT,   /* uint8..uint64 */
  IR_DT_FLOAT,  /* float16/32/64 */
  IR_DT_BFLOAT, /* bfloat16 */
  IR_DT_BOOL,   /* bool (bits = 1) */
  IR_DT_HANDLE, /* opaque pointer (T.handle) */
} IrDTypeCode;

typedef struct {
  uint8_t code;   /* IrDTypeCode */
  uint8_t bits;   /* 1, 8, 16, 32, 64 */
  uint16_t lanes; /* 1 for scalars */
} IrDType;

extern const IrDType IR_VOID, IR_BOOL, IR_I32, IR_I64, IR_F32, IR_HANDLE;

/* Parses "float32", "int64", "bool", "void", "handle", "float32x4", ...
 * Returns false on an unknown name. */
bool ir_dtype_parse(const char *s, size_t len, IrDType *out);
/* Writes the canonical name into buf (at least 16 bytes); returns buf. */
const char *ir_dtype_str(IrDType t, char *buf);
bool ir_dtype_eq(IrDType a, IrDType b);
/* The code only, any width and lanes: float16/32/64 or bfloat16; int or
 * uint (not bool). */
bool ir_dtype_is_float(IrDType t);
bool ir_dtype_is_int(IrDType t);
int ir_dtype_bytes(IrDType t); /* bytes per element: bool is 1 */
/* A kernel's T.alloc_buffer of at most this many bytes and a constant
 * shape stays a local array of its C function (codegen/gen_tir.c);
 * LiftWorkspaces moves any other into its caller's allocations, so into
 * the arena. */
enum { IR_LOCAL_SCRATCH_BYTES = 256 };
uint16_t ir_half_from_double(double d); /* IEEE binary16, ties to even */
double ir_half_to_double(uint16_t h);   /* exact */
/* v rounded to the precision of float type t (float32, float16, bfloat16). */
double ir_float_round(IrDType t, double v);

/* ------------------------------------------------------------------ */
/* Attribute values: function attrs, op attrs, annotations             */
/* ------------------------------------------------------------------ */

typedef struct IrPrimExpr IrPrimExpr;

typedef enum {
  IR_AT_NONE,  /* Python None */
  IR_AT_BOOL,  /* b */
  IR_AT_INT,   /* i */
  IR_AT_FLOAT, /* f */
  IR_AT_STR,   /* s */
  IR_AT_LIST,  /* list: items */
  IR_AT_DICT,  /* dict: keys (sorted, distinct) and values */
  IR_AT_PRIM,  /* prim: a symbolic expression (e.g. padding=[n, 0]) */
  IR_AT_INDEX_MAP, /* index_map: T.index_map(lambda i, j: (i // 4, j, i % 4)) */
} IrAttrKind;

typedef struct IrAttr IrAttr;
struct IrAttr {
  IrAttrKind kind;
  union {
    bool b;             /* IR_AT_BOOL */
    int64_t i;          /* IR_AT_INT */
    double f;           /* IR_AT_FLOAT */
    IrSym s;            /* IR_AT_STR */
    IrPrimExpr *prim;   /* IR_AT_PRIM */
    struct {
      IrPrimExpr **params;  /* the lambda's parameters: distinct IR_PE_VARs */
      IrPrimExpr **results; /* the mapped index, over the parameters only */
      int nparams, nresults;
    } index_map;        /* IR_AT_INDEX_MAP: an index (TIR's IndexMap) */
    struct {
      IrAttr **items;   /* IR_AT_LIST: values; IR_AT_DICT: values by key */
      IrSym *keys;      /* IR_AT_DICT only: sorted by strcmp, distinct */
      int n;
    } list;
  } u;
};

IrAttr *ir_attr_none(IrCtx *ctx);
IrAttr *ir_attr_bool(IrCtx *ctx, bool b);
IrAttr *ir_attr_int(IrCtx *ctx, int64_t i);
IrAttr *ir_attr_float(IrCtx *ctx, double f);
IrAttr *ir_attr_str(IrCtx *ctx, IrSym s);
IrAttr *ir_attr_prim(IrCtx *ctx, IrPrimExpr *e);
IrAttr *ir_attr_list(IrCtx *ctx, IrAttr **items, int n);
/* A map from nparams indices to nresults; the arrays are copied. */
IrAttr *ir_attr_index_map(IrCtx *ctx, IrPrimExpr **params, int nparams, IrPrimExpr **results,
                          int nresults);
/* Sorts the pairs by key; a repeated key keeps the last value. */
IrAttr *ir_attr_dict(IrCtx *ctx, IrSym *keys, IrAttr **values, int n);
/* Looks a key up in a dict attr (NULL-safe); NULL when absent. */
const IrAttr *ir_attr_get(const IrAttr *dict, const char *key);
/* A copy of dict with key set to value (added or replaced). */
IrAttr *ir_attr_dict_set(IrCtx *ctx, const IrAttr *dict, IrSym key, IrAttr *value);
/* A copy of dict without key; NULL when nothing is left. */
IrAttr *ir_attr_dict_remove(IrCtx *ctx, const IrAttr *dict, const char *key);

/* ------------------------------------------------------------------ */
/* Loop level: scalar expressions                                      */
/* ------------------------------------------------------------------ */

typedef struct IrBuffer IrBuffer;

typedef enum {
  IR_PE_INT,   /* int_value (dtype int/uint/bool) */
  IR_PE_FLOAT, /* float_value */
  IR_PE_STR,   /* str: a string argument of an intrinsic call */
  IR_PE_VAR,   /* var: a TIR variable; identity by pointer */
  IR_PE_LOAD,  /* load: buffer[indices] */
  /* binary: bin.a, bin.b */
  IR_PE_ADD,
  IR_PE_SUB,
  IR_PE_MUL,
  IR_PE_DIV,      /* true division (T.Div; "/" on floats) */
  IR_PE_MOD,      /* truncated remainder (T.truncmod) */
  IR_PE_FLOORDIV, /* "//" */
  IR_PE_FLOORMOD, /* "%" */
  IR_PE_MIN,
  IR_PE_MAX,
  IR_PE_EQ,
  IR_PE_NE,
  IR_PE_LT,
  IR_PE_LE,
  IR_PE_GT,
  IR_PE_GE,
  IR_PE_AND,
  IR_PE_OR,
  IR_PE_NOT,    /* bin.a */
  IR_PE_SELECT, /* select: cond, a, b (T.Select, both sides evaluated) */
  IR_PE_CAST,   /* bin.a converted to dtype (T.Cast) */
  IR_PE_CALL,   /* call: intrinsic such as "tir.exp", "tir.if_then_else" */
} IrPrimKind;

struct IrPrimExpr {
  IrPrimKind kind;
  IrDType dtype; /* result type */
  union {
    int64_t int_value;   /* IR_PE_INT */
    double float_value;  /* IR_PE_FLOAT */
    IrSym str;           /* IR_PE_STR */
    IrSym var;           /* IR_PE_VAR: the name (not unique) */
    struct {
      IrBuffer *buffer;
      IrPrimExpr **indices;
      int n;
    } load;              /* IR_PE_LOAD */
    struct {
      IrPrimExpr *a, *b; /* b is NULL for NOT and CAST */
    } bin;               /* binary kinds, NOT, CAST */
    struct {
      IrPrimExpr *cond, *a, *b;
    } select;            /* IR_PE_SELECT */
    struct {
      IrSym op;          /* "tir.exp", "tir.if_then_else", ... */
      IrPrimExpr **args;
      int n;
    } call;              /* IR_PE_CALL */
  } u;
};

IrPrimExpr *ir_prim_int(IrCtx *ctx, IrDType t, int64_t v);
IrPrimExpr *ir_prim_float(IrCtx *ctx, IrDType t, double v); /* v rounded to t */
IrPrimExpr *ir_prim_str(IrCtx *ctx, IrSym s);
IrPrimExpr *ir_prim_var(IrCtx *ctx, IrSym name, IrDType t); /* a new variable */
/* Binary and NOT: dtype is bool for comparisons and logic, else a's. */
IrPrimExpr *ir_prim_bin(IrCtx *ctx, IrPrimKind kind, IrPrimExpr *a, IrPrimExpr *b);
IrPrimExpr *ir_prim_cast(IrCtx *ctx, IrDType t, IrPrimExpr *a);
IrPrimExpr *ir_prim_select(IrCtx *ctx, IrPrimExpr *c, IrPrimExpr *a, IrPrimExpr *b);
IrPrimExpr *ir_prim_call(IrCtx *ctx, IrDType t, IrSym op, IrPrimExpr **args, int n);
IrPrimExpr *ir_prim_load(IrCtx *ctx, IrBuffer *buf, IrPrimExpr **idx, int n);
bool ir_prim_is_int(const IrPrimExpr *e, int64_t *value); /* an IR_PE_INT? */

/* ------------------------------------------------------------------ */
/* Loop level: buffers and statements                                  */
/* ------------------------------------------------------------------ */

struct IrBuffer {
  IrSym name;
  IrDType dtype;
  IrPrimExpr **shape; /* ndim entries */
  int ndim;
  IrSym scope;        /* "global" unless given */
  int align;          /* 0 = default */
  int offset_factor;  /* 0 = default */
  IrLoc loc;
};

typedef struct {
  IrPrimExpr *min;
  IrPrimExpr *extent;
} IrRange;

typedef struct {
  IrBuffer *buffer;
  IrRange *ranges; /* one per dimension; extent 1 prints as a point */
  int n;
} IrBufferRegion;

typedef enum {
  IR_ITER_SPATIAL,   /* T.axis.spatial, "S" */
  IR_ITER_REDUCE,    /* T.axis.reduce, "R" */
  IR_ITER_SCAN,      /* T.axis.scan */
  IR_ITER_OPAQUE,    /* T.axis.opaque */
} IrIterKind;

typedef struct {
  IrPrimExpr *var;     /* IR_PE_VAR */
  IrRange dom;         /* domain of the block iterator */
  IrIterKind kind;
  IrPrimExpr *binding; /* value in terms of enclosing loop vars */
} IrIterVar;

typedef enum {
  IR_FOR_SERIAL,
  IR_FOR_PARALLEL,
  IR_FOR_UNROLL,
  IR_FOR_VECTORIZED,
  IR_FOR_THREAD_BINDING, /* T.thread_binding: loop.thread names the GPU thread axis */
} IrForKind;

typedef struct IrStmt IrStmt;

typedef struct {
  IrSym name;
  IrIterVar *iters;
  int niters;
  IrBufferRegion *reads;  /* NULL with has_access false: not written */
  int nreads;
  IrBufferRegion *writes;
  int nwrites;
  bool has_access;        /* T.reads/T.writes were given */
  IrBuffer **allocs;      /* T.alloc_buffer inside the block */
  int nallocs;
  IrStmt *init;           /* with T.init(): may be NULL */
  IrStmt *body;
  IrAttr *attrs;          /* T.block_attr dict, or NULL */
} IrTirBlock;

typedef enum {
  IR_ST_SEQ,      /* seq: statements in order */
  IR_ST_FOR,      /* loop */
  IR_ST_BLOCK,    /* block */
  IR_ST_STORE,    /* store: buffer[indices] = value */
  IR_ST_LET,      /* let: var = value, in scope over body */
  IR_ST_IF,       /* branch: else_ may be NULL */
  IR_ST_EVALUATE, /* eval: T.evaluate(expr) */
  IR_ST_ALLOC,    /* alloc: T.alloc_buffer outside a block, over body */
  IR_ST_ASSERT,   /* check: the function fails with the message when cond is false */
  IR_ST_DECL,     /* decl: buffer over source's data (T.decl_buffer(data=), .view), over body */
} IrStmtKind;

struct IrStmt {
  IrStmtKind kind;
  IrLoc loc;
  union {
    struct {
      IrStmt **stmts;
      int n;
    } seq;
    struct {
      IrPrimExpr *var;
      IrPrimExpr *min, *extent;
      IrForKind kind;
      IrSym thread;        /* IR_FOR_THREAD_BINDING: "threadIdx.x", ...; else NULL */
      IrStmt *body;
      IrAttr *annotations; /* dict or NULL */
    } loop;
    IrTirBlock *block;
    struct {
      IrBuffer *buffer;
      IrPrimExpr **indices;
      int n;
      IrPrimExpr *value;
    } store;
    struct {
      IrPrimExpr *var;
      IrPrimExpr *value;
      IrStmt *body;
    } let;
    struct {
      IrPrimExpr *cond;
      IrStmt *then_, *else_;
    } branch;
    IrPrimExpr *eval;
    struct {
      IrBuffer *buffer;
      IrStmt *body;
    } alloc;
    struct {
      IrPrimExpr *cond;  /* bool */
      IrSym kind;        /* the error kind, "RuntimeError" */
      IrSym *parts;      /* the message, concatenated */
      int nparts;
    } check;
    struct {
      IrBuffer *buffer; /* its own shape and dtype, from byte 0 of source's data */
      IrBuffer *source; /* in scope; the declared buffer covers no more bytes */
      IrStmt *body;
    } decl;
  } u;
};

IrStmt *ir_stmt_new(IrCtx *ctx, IrStmtKind kind, IrLoc loc); /* zeroed */
/* names.c: a set of distinct names that hands out fresh ones; zero it to
 * start, ir_names_free to end.  Each name keeps the last suffix handed out
 * after it, so naming N things alike costs O(N) tries. */
typedef struct {
  char **names; /* heap copies, in order of adding */
  int *next;    /* per name: its suffixes up to next are taken */
  int n, cap;
  int *slots;   /* hash of names: index + 1 */
  int slot_cap;
} IrNames;
bool ir_names_has(const IrNames *s, const char *name);
void ir_names_add(IrNames *s, const char *name);
/* base when free, else base, sep and the smallest suffix 1, 2, ... free
 * (resuming after the last one handed out for base); added.  Returns the
 * set's copy, valid until ir_names_free. */
const char *ir_names_unique(IrNames *s, const char *base, const char *sep);
void ir_names_free(IrNames *s);

/* A prim_func parameter: a scalar or handle var, and for tensors its buffer
 * (from a T.Buffer annotation or T.match_buffer on a T.handle). */
typedef struct {
  IrPrimExpr *var;  /* IR_PE_VAR; handle dtype for buffers */
  IrBuffer *buffer; /* NULL for scalar parameters */
} IrPrimParam;

typedef struct {
  IrPrimParam *params;
  int nparams;
  IrStmt *body;
  IrAttr *attrs;  /* T.func_attr dict or NULL */
  bool is_private;
  IrLoc loc;
} IrPrimFunc;

/* ------------------------------------------------------------------ */
/* tir_intrin.c: the TIR intrinsics, one table                         */
/* ------------------------------------------------------------------ */

/* How an intrinsic computes, and the dtype of its value. */
typedef enum {
  IR_INTRIN_MATH,         /* math1 / math2 on doubles; the call's dtype */
  IR_INTRIN_ABS,          /* floats: math1 (fabs); integers: |x|, wrapping; the call's dtype */
  IR_INTRIN_POW,          /* float call: math2 (pow); else by squaring, wrapping */
  IR_INTRIN_ISNAN,        /* bool */
  IR_INTRIN_ISINF,        /* bool */
  IR_INTRIN_ISFINITE,     /* bool */
  IR_INTRIN_LIKELY,       /* its argument as it is (a branch hint) */
  IR_INTRIN_IF_THEN_ELSE, /* args[1] or args[2] by args[0]; only the one taken is evaluated */
  IR_INTRIN_MAX_VALUE,    /* the largest finite value of the call's dtype */
  IR_INTRIN_MIN_VALUE,    /* the smallest, likewise */
  IR_INTRIN_BITS,         /* integers and bool: bits on int64, wrapped to the call's dtype */
} IrIntrinKind;

typedef struct {
  const char *names[2]; /* IR names, "tir.pow"; an alias ("tir.power") or NULL */
  IrIntrinKind kind;
  int arity;                       /* arguments; -1: any */
  double (*math1)(double);         /* MATH of one argument, ABS on floats */
  double (*math2)(double, double); /* MATH of two, POW on floats */
  /* The C expression, for float results only when c_float_only (ABS and
   * POW on integers, ISINF, ISFINITE and the limits are the code
   * generator's): @0, @1, @2 the arguments, $f the float suffix of the
   * call's dtype ("f" up to 32 bits: rxc_exp$f is rxc_expf or rxc_exp). */
  const char *c_form;
  bool c_float_only;
  /* BITS (bitwise_and ... shift_right) on values of dtype t, the second
   * argument 0 for bitwise_not; defined for every shift amount as numpy
   * defines it (past the width: 0, or -1 for a negative right operand),
   * where the C form is only called within the width (ops/ selects). */
  int64_t (*bits)(IrDType t, int64_t a, int64_t b);
} IrTirIntrin;

/* The row of intrinsic op ("tir.exp", the IR name) called with nargs
 * arguments; NULL when op is no intrinsic or takes another number. */
const IrTirIntrin *ir_tir_intrin_find(const char *op, int nargs);
/* A call of intrinsic op for code that builds TIR (legalization): op must
 * have a row taking n arguments. */
IrPrimExpr *ir_prim_intrin(IrCtx *ctx, IrDType t, const char *op, IrPrimExpr **args, int n);

/* ------------------------------------------------------------------ */
/* tir_kernel.c: the kernels a prim_func may call, one table           */
/* ------------------------------------------------------------------ */

/* A kernel call is T.call_extern("void", "NAME", args...) (IR: a
 * "tir.call_extern" of dtype void whose args[0] is the IR_PE_STR NAME),
 * each pointer argument T.address_of(buf[indices]) ("tir.address_of" of
 * dtype handle around one IR_PE_LOAD).  How each argument is passed: */
typedef enum {
  IR_KARG_INOUT, /* T.address_of of an element of the kernel's dtype: read and written */
  IR_KARG_IN,    /* likewise, only read */
  IR_KARG_INT,   /* an integer, passed as int64 */
} IrKernelArg;

enum { IR_KERNEL_MAX_ARGS = 16 }; /* arguments after the name */

typedef struct {
  const char *name; /* the C function, "rxc_k_gemm_f32" */
  IrDType elem;     /* dtype of the pointers' elements (ir_tir_kernel_elem) */
  int nargs;        /* arguments after the name */
  IrKernelArg args[IR_KERNEL_MAX_ARGS];
  /* The element offsets, from its address, that pointer argument i
   * touches given the integer arguments (ints[j] is argument j's value;
   * pointer slots hold 0): [*lo, *hi], or *lo > *hi for none.  False
   * when the integers are out of the kernel's domain (a negative count). */
  bool (*span)(const int64_t *ints, int i, int64_t *lo, int64_t *hi);
  /* Its INOUT pointer gains sums of products of its IN pointers' elements
   * (acc = acc + a * b, as a product's loops: FuseOps's pattern). */
  bool sums_products;
} IrTirKernel;

/* The kernel a call names (a tir.call_extern of a row's name with its
 * number of arguments, each pointer an address_of of a load), or NULL. */
const IrTirKernel *ir_tir_kernel_of(const IrPrimExpr *e);
/* The row named name, or NULL. */
const IrTirKernel *ir_tir_kernel_find(const char *name);
/* The dtype of the elements pointer argument i addresses: the row's elem
 * but where the kernel's pointers differ (an int8 operand of an int32 sum). */
IrDType ir_tir_kernel_elem(const IrTirKernel *k, int i);
/* Is e a tir.call_extern (of any name)? */
bool ir_prim_is_call_extern(const IrPrimExpr *e);
/* The load inside argument i of kernel call e (T.address_of(load)). */
const IrPrimExpr *ir_tir_kernel_pointee(const IrPrimExpr *e, int i);
/* A kernel call for code that builds TIR (legalization): name must have a
 * row taking n arguments (pointer arguments as ir_prim_address_of). */
IrPrimExpr *ir_prim_kernel_call(IrCtx *ctx, const char *name, IrPrimExpr **args, int n);
/* T.address_of(load). */
IrPrimExpr *ir_prim_address_of(IrCtx *ctx, IrPrimExpr *load);

/* ------------------------------------------------------------------ */
/* tir_walk.c: one traversal of TIR, for code that only looks          */
/* ------------------------------------------------------------------ */

typedef enum {
  IR_WALK_CONTINUE, /* into the statement's expressions and children */
  IR_WALK_SKIP,     /* past them (and no leave) */
  IR_WALK_STOP,     /* the walk ends at once (no leave of anything open) */
} IrWalkAction;

/* Any hook may be NULL. */
typedef struct {
  IrWalkAction (*enter)(const IrStmt *s, void *user);
  /* Each expression s evaluates (not its subexpressions: ir_prim_walk
   * them): loop min and extent, block iterator domains and bindings, store
   * indices and value, let value, if condition, T.evaluate's argument
   * (NULL where the statement has none); true stops the walk. */
  bool (*expr)(const IrPrimExpr *e, const IrStmt *s, void *user);
  void (*leave)(const IrStmt *s, void *user); /* after s's children */
  void *user;
} IrTirVisitor;

/* Walks s and the statements under it: enter, expressions, children in
 * order (a block's init before its body), leave.  True when a hook
 * stopped the walk. */
bool ir_tir_walk(const IrStmt *s, const IrTirVisitor *v);
/* Calls visit on e and every expression under it, parents first, operands
 * left to right, until visit returns true; whether it did. */
bool ir_prim_walk(const IrPrimExpr *e, bool (*visit)(const IrPrimExpr *e, void *user), void *user);
/* Appends to out each var of e not already in it (by identity), in order
 * of first appearance. */
void ir_prim_expr_vars(const IrPrimExpr *e, IrVec *out);
/* Does s (anywhere in it) store into buffer b, or a buffer declared over its
 * data, or pass one to a kernel that writes it (tir_kernel.c)? */
bool ir_stmt_stores_into(const IrStmt *s, const IrBuffer *b);

/* ------------------------------------------------------------------ */
/* Graph level: struct info                                            */
/* ------------------------------------------------------------------ */

typedef enum {
  IR_SI_OBJECT, /* R.Object (R.Any) */
  IR_SI_PRIM,   /* prim */
  IR_SI_SHAPE,  /* shape */
  IR_SI_TENSOR, /* tensor */
  IR_SI_TUPLE,  /* tuple */
  IR_SI_FUNC,   /* func */
} IrSInfoKind;

typedef struct IrSInfo IrSInfo;
struct IrSInfo {
  IrSInfoKind kind;
  union {
    struct {
      IrDType dtype;
      IrPrimExpr *value; /* R.Prim(value=...) or NULL */
    } prim;
    struct {
      IrPrimExpr **values; /* NULL when unknown */
      int ndim;            /* -1 when unknown */
    } shape;
    struct {
      IrPrimExpr **shape;  /* NULL when unknown */
      int ndim;            /* -1 when unknown; equals the shape's length */
      IrDType dtype;       /* IR_VOID when unknown */
      int vdevice;         /* index into the module's vdevices, -1 none */
    } tensor;
    struct {
      IrSInfo **fields;
      int n;
    } tuple;
    struct {
      IrSInfo **params;    /* NULL with nparams -1: opaque (R.Callable) */
      int nparams;
      IrSInfo *ret;        /* NULL when unknown */
      bool pure;
      bool packed;         /* R.PackedFunc */
      IrSym derive_func;   /* opaque R.Callable(derive_func="f"): the global function
                              TVM calls for a call's struct info; rxc knows none of
                              them, so such a call is R.Object.  Else NULL */
    } func;
  } u;
  int shape_len; /* tensor, shape: entries in u.tensor.shape / u.shape.values
                    when that differs from ndim (a rank mismatch as written,
                    R.Tensor((2, 3), ndim=3), kept for the checker to
                    report); 0 when the entries are ndim */
};

IrSInfo *ir_sinfo_object(IrCtx *ctx);
IrSInfo *ir_sinfo_prim(IrCtx *ctx, IrDType t, IrPrimExpr *value);
IrSInfo *ir_sinfo_shape(IrCtx *ctx, IrPrimExpr **values, int ndim);
IrSInfo *ir_sinfo_tensor(IrCtx *ctx, IrPrimExpr **shape, int ndim, IrDType t, int vdevice);
IrSInfo *ir_sinfo_tuple(IrCtx *ctx, IrSInfo **fields, int n);
IrSInfo *ir_sinfo_func(IrCtx *ctx, IrSInfo **params, int nparams, IrSInfo *ret, bool pure);
bool ir_sinfo_is_void(const IrSInfo *s); /* the empty tuple */
/* The script name of a kind of struct info: "R.Tensor", "R.Callable", ... */
const char *ir_sinfo_kind_name(IrSInfoKind k);
/* Entries in a tensor's shape or a shape's values (shape_len or ndim). */
int ir_sinfo_shape_len(const IrSInfo *s);

/* ------------------------------------------------------------------ */
/* Graph level: expressions and functions                              */
/* ------------------------------------------------------------------ */

typedef struct IrExpr IrExpr;
typedef struct IrFunction IrFunction;
typedef struct IrOpDef IrOpDef;

typedef struct {
  IrDType dtype;
  int ndim;
  int64_t *shape;  /* ndim entries */
  void *data;      /* nbytes of little-endian elements, row-major */
  size_t nbytes;
} IrTensorData;

/* A tensor with a name: an entry of a .npz, a weight for BindParams. */
typedef struct {
  IrSym name;
  IrTensorData t;
} IrNamedTensor;

typedef struct {
  IrExpr *var;        /* IR_EX_VAR being defined */
  IrExpr *value;      /* leaf or call, IR_EX_IF, IR_EX_FUNC, ... */
  IrSInfo *cast;      /* non-NULL: var = R.match_cast(value, cast) */
  IrLoc loc;
} IrBinding;

typedef struct {
  IrBinding *bindings;
  int n;
  bool dataflow;      /* with R.dataflow(): ... */
  IrLoc loc;
} IrBindingBlock;

typedef enum {
  IR_CALL_OP,      /* op: a registered operator (R.add, R.call_tir, ...) */
  IR_CALL_GLOBAL,  /* callee is an IR_EX_GLOBAL */
  IR_CALL_EXTERN,  /* callee is an IR_EX_EXTERN (R.call_packed) */
  IR_CALL_VAR,     /* callee is a Relax var of function type */
} IrCallKind;

typedef enum {
  IR_EX_VAR,    /* var: Var or DataflowVar; sinfo is its annotation */
  IR_EX_CONST,  /* constant */
  IR_EX_TUPLE,  /* tuple */
  IR_EX_GET,    /* get: tuple[index] */
  IR_EX_CALL,   /* call */
  IR_EX_SHAPE,  /* shape: R.shape([...]) */
  IR_EX_PRIM,   /* prim: R.prim_value(...) */
  IR_EX_STR,    /* str: R.str("...") */
  IR_EX_DTYPE,  /* dtype: R.dtype("...") */
  IR_EX_GLOBAL, /* global: a function of the module, by name */
  IR_EX_EXTERN, /* global: R.ExternFunc("symbol") */
  IR_EX_SEQ,    /* seq: binding blocks then a result */
  IR_EX_IF,     /* branch: condition and two IR_EX_SEQ */
  IR_EX_FUNC,   /* func: a local function */
} IrExprKind;

struct IrExpr {
  IrExprKind kind;
  IrLoc loc;
  IrSInfo *sinfo; /* NULL until known; for vars, the annotation */
  union {
    struct {
      IrSym name;
      bool dataflow;
    } var;
    IrTensorData constant; /* R.const(...) */
    struct {
      IrExpr **items;
      int n;
    } tuple;
    struct {
      IrExpr *tuple;
      int index;
    } get;
    struct {
      IrCallKind kind;
      const IrOpDef *op;   /* IR_CALL_OP */
      IrExpr *callee;      /* the other kinds */
      IrExpr **args;
      int nargs;
      IrAttr *attrs;       /* op attributes (dict) or NULL */
      IrSInfo **sinfo_args; /* out_sinfo / sinfo_args */
      int nsinfo_args;
    } call;
    struct {
      IrPrimExpr **values;
      int n;
    } shape;
    IrPrimExpr *prim;
    IrSym str;
    IrDType dtype;
    IrSym global;          /* IR_EX_GLOBAL, IR_EX_EXTERN */
    struct {
      IrBindingBlock *blocks;
      int nblocks;
      IrExpr *result;
    } seq;
    struct {
      IrExpr *cond;
      IrExpr *then_, *else_; /* IR_EX_SEQ */
    } branch;
    IrFunction *func;
  } u;
};

struct IrFunction {
  IrExpr **params;    /* IR_EX_VAR, with their struct info */
  int nparams;
  IrSInfo *ret;       /* the "->" annotation, or NULL */
  IrExpr *body;       /* IR_EX_SEQ */
  IrAttr *attrs;      /* R.func_attr dict, or NULL */
  bool pure;          /* false with @R.function(pure=False) */
  bool is_private;    /* @R.function(private=True) */
  IrLoc loc;
};

IrExpr *ir_expr_new(IrCtx *ctx, IrExprKind kind, IrLoc loc); /* zeroed */
IrExpr *ir_var_new(IrCtx *ctx, IrSym name, IrSInfo *sinfo, bool dataflow, IrLoc loc);
IrExpr *ir_call_op(IrCtx *ctx, const IrOpDef *op, IrExpr **args, int nargs, IrAttr *attrs, IrLoc loc);
IrExpr *ir_shape_expr(IrCtx *ctx, IrPrimExpr **values, int n, IrLoc loc);
IrExpr *ir_prim_value(IrCtx *ctx, IrPrimExpr *v, IrLoc loc);
/* R.const of the tensor t, with struct info R.Tensor(t's shape, t's dtype).
 * The node holds t's shape and data as they are, not copies: they must
 * live as long as ctx's nodes (in its arena, or a weight ctx owns). */
IrExpr *ir_const_new(IrCtx *ctx, const IrTensorData *t, IrLoc loc);
/* A check of a shape relation, the binding
 *   name = R.match_cast(R.prim_value(cond), R.Prim(value=T.bool(True)))
 * that LegalizeOps puts before a call (arena-allocated); and the cond of
 * such a binding, or NULL for any other. */
IrBinding *ir_relation_check_new(IrCtx *ctx, IrSym name, IrPrimExpr *cond, bool dataflow, IrLoc loc);
const IrPrimExpr *ir_binding_relation(const IrBinding *b);
IrExpr *ir_str_imm(IrCtx *ctx, IrSym s, IrLoc loc);
IrExpr *ir_dtype_imm(IrCtx *ctx, IrDType t, IrLoc loc);
/* Is e a leaf (allowed as a call argument in normal form)? */
bool ir_expr_is_leaf(const IrExpr *e);

/* ------------------------------------------------------------------ */
/* Module                                                              */
/* ------------------------------------------------------------------ */

typedef enum {
  IR_GLOBAL_RELAX,  /* relax: @R.function */
  IR_GLOBAL_PRIM,   /* prim: @T.prim_func */
  IR_GLOBAL_EXTERN, /* extern_sym: name = R.ExternFunc("sym") */
} IrGlobalKind;

typedef struct {
  IrSym name;
  IrGlobalKind kind;
  union {
    IrFunction *relax;
    IrPrimFunc *prim;
    IrSym extern_sym;
  } u;
} IrGlobal;

typedef struct {
  IrAttr *target;    /* a string ("llvm") or a target config dict */
  IrSym kind;        /* the target kind: "llvm", "cuda", ... */
  int vdevice_id;
  IrSym memory_scope;
} IrVDevice;

typedef struct {
  IrSym name;         /* class name: "Module" */
  IrGlobal *globals;  /* in the order read or built */
  int nglobals;
  IrAttr *attrs;      /* I.module_attrs dict or NULL */
  IrVDevice *vdevices;
  int nvdevices;
} IrModule;

const IrGlobal *ir_module_find(const IrModule *m, IrSym name); /* a scan: O(globals) */
/* index gets each global of m by name (IrSym -> IrGlobal*, the first of a
 * name, as ir_module_find): lookups in constant time while m's globals do
 * not change, for a walk that looks up a global per binding. */
void ir_module_index(const IrModule *m, IrMap *index);
/* The index of the first vdevice of m with that DLPack device type ("llvm"
 * is 1, "cuda" 2, ...) and vdevice_id (what R.device(dev_type, index)
 * names), or -1. */
int ir_module_find_vdevice(const IrModule *m, int64_t dev_type, int64_t vdevice_id);
/* Appends the script name of vdevice index i of m: "kind:n" with n its
 * position among the vdevices of that kind, or "vdevice:i". */
void ir_vdevice_name(const IrModule *m, int i, IrBuf *out);

/* ------------------------------------------------------------------ */
/* Operators: what the reader and printer need                        */
/* ------------------------------------------------------------------ */

/* How a call's parameter is read and stored.  Raw Python literals given for
 * an argument are wrapped by its kind: int -> R.prim_value, str -> R.str or
 * R.dtype, list -> R.shape. */
typedef enum {
  IR_PARAM_EXPR,    /* argument: any Relax leaf */
  IR_PARAM_PRIM,    /* argument: R.prim_value (raw int/float accepted) */
  IR_PARAM_STR,     /* argument: R.str (raw string accepted) */
  IR_PARAM_DTYPE,   /* argument: R.dtype (raw string accepted) */
  IR_PARAM_SHAPE,   /* argument: R.shape (raw list accepted) */
  IR_PARAM_TUPLE,   /* argument: a tuple of leaves (R.concat's input) */
  IR_PARAM_VARARGS, /* the remaining positional arguments */
  IR_PARAM_ATTR,    /* attribute: stored in call.attrs under its name */
  IR_PARAM_SINFO,   /* struct info: stored in call.sinfo_args (out_sinfo) */
} IrParamKind;

typedef struct {
  const char *name;     /* Python keyword name */
  IrParamKind kind;
  const char *fallback; /* default as TVMScript text; NULL = required */
} IrOpParam;

#define IR_OP_MAX_PARAMS 16

/* IrOpId, generated by ops/op_ids.awk from the operator table (ops/op.h):
 * IR_OP_ADD ... IR_OP_COUNT. */
#include "op_ids.h"

struct IrOpDef {
  IrOpId id;
  const char *name;     /* "relax.nn.conv2d": the script name is "R.nn.conv2d" */
  bool impure;          /* has a visible effect (kills, print, assert) */
  IrOpParam params[IR_OP_MAX_PARAMS];
  int nparams;
};
/* The ops themselves, and their lookup by id and name, are ops/'s
 * (op_def, op_find): each IrOpDef is the syn of its OpDef entry. */

/* ------------------------------------------------------------------ */
/* printer.c                                                           */
/* ------------------------------------------------------------------ */

/* The TVM release whose TVMScript the printer writes (docs/text-format.md,
 * "Output dialects"); the reader reads both. */
typedef enum {
  IR_DIALECT_V0_23, /* "v0.23": out_sinfo=, tir_vars=, T.block, T.handle + T.match_buffer */
  IR_DIALECT_V0_26, /* "v0.26": out_ty=, scalars in call_tir's tuple, T.sblock, T.let */
} IrDialect;
#define IR_DIALECT_DEFAULT IR_DIALECT_V0_26 /* the newer */

/* Prints in TVM's style (mod.script()) in dialect v0.23; the reader reads it
 * back to a structurally equal module. */
void ir_module_print(const IrModule *m, IrBuf *out);
/* Prints m in dialect d.  Returns true when the text reads back to a
 * structurally equal module; false when it says m in another form that
 * computes the same (v0.26 has no tir_vars: they move into call_tir's
 * argument tuple and the prim_func's scalar parameters before its outputs;
 * and no R.Prim(value=...): a binding's annotation keeps the dtype only). */
bool ir_module_print_dialect(const IrModule *m, IrDialect d, IrBuf *out);
void ir_prim_expr_print(const IrPrimExpr *e, IrBuf *out);
void ir_sinfo_print(const IrSInfo *s, IrBuf *out);

/* ------------------------------------------------------------------ */
/* equal.c: structural equality and hash                               */
/* ------------------------------------------------------------------ */

/* Equal up to renaming of bound variables; NaN equals NaN.  When not equal
 * and why is non-NULL, writes the first differing path and the two sides. */
bool ir_module_equal(const IrModule *a, const IrModule *b, IrBuf *why);
uint64_t ir_module_hash(const IrModule *m);
/* One global's function, its name aside (deduplication); callees by name. */
bool ir_global_value_equal(const IrGlobal *a, const IrGlobal *b);
uint64_t ir_global_value_hash(const IrGlobal *g);
bool ir_prim_expr_equal(const IrPrimExpr *a, const IrPrimExpr *b); /* free vars by identity */

/* Two calls of one op alike in all an op's lowering reads when the
 * arguments are vars: attributes, sinfo_args, the arguments' struct info
 * and the results' (free vars by identity). */
bool ir_call_signature_equal(const IrExpr *a, const IrSInfo *ra, const IrExpr *b, const IrSInfo *rb);
uint64_t ir_call_signature_hash(const IrExpr *call, const IrSInfo *result);

/* A set of globals, one per function up to ir_global_value_equal: find
 * gives the member equal to g (or NULL) and g's hash, for add.  Zero it
 * to start. */
typedef struct {
  IrMap buckets; /* hash -> chain */
  IrVec nodes;   /* every chain node, to free */
} IrFuncSet;
const IrGlobal *ir_func_set_find(IrFuncSet *s, const IrGlobal *g, uint64_t *hash);
void ir_func_set_add(IrFuncSet *s, const IrGlobal *g, uint64_t hash);
void ir_func_set_free(IrFuncSet *s);
bool ir_sinfo_equal(const IrSInfo *a, const IrSInfo *b);

/* ------------------------------------------------------------------ */
/* wellformed.c                                                        */
/* ------------------------------------------------------------------ */

/* Reports every violation as an error in ctx (naming function and binding);
 * returns the number found. */
int ir_module_check(IrCtx *ctx, const IrModule *m);
/* wf_sinfo.c: what is wrong with the literal dims of a tensor (or of a
 * field of a tuple): "a negative dim", "more bytes than int64 can count",
 * or NULL.  The checker rejects such struct info, and Normalize when an op
 * infers it. */
const char *ir_sinfo_dims_problem(const IrSInfo *s);

/* ------------------------------------------------------------------ */
/* arith.c: symbolic integer arithmetic                                */
/* ------------------------------------------------------------------ */

typedef enum {
  IR_PROVE_UNKNOWN,
  IR_PROVE_TRUE,
  IR_PROVE_FALSE,
} IrProof;

typedef struct IrArith IrArith;

IrArith *ir_arith_new(IrCtx *ctx);
/* Records lo <= var <= hi (INT64_MIN / INT64_MAX for no bound). */
void ir_arith_bound(IrArith *a, const IrPrimExpr *var, int64_t lo, int64_t hi);
/* Reads tir_var_upper_bound and tir_non_negative_var from a Relax function's
 * attributes, and takes every dim of a tensor/shape param to be >= 0. */
void ir_arith_bound_function(IrArith *a, const IrFunction *f);
/* Canonical form: constants folded, like terms collected, sums of products
 * in a fixed order; equal expressions simplify to structurally equal ones. */
IrPrimExpr *ir_arith_simplify(IrArith *a, const IrPrimExpr *e);
/* Decides a boolean expression (comparisons, and, or, not). */
IrProof ir_arith_prove(IrArith *a, const IrPrimExpr *cond);
/* Interval of an integer expression; false when unbounded on either side. */
bool ir_arith_range(IrArith *a, const IrPrimExpr *e, int64_t *lo, int64_t *hi);

/* ------------------------------------------------------------------ */
/* eval.c: the value of a symbolic integer expression                  */
/* ------------------------------------------------------------------ */

/* The value of the variable named name; false when it has none. */
typedef bool (*IrDimLookup)(void *user, IrSym name, int64_t *value);
/* Evaluates e (literals, variables through lookup, integer arithmetic,
 * comparisons, and/or/not, select, integer casts) with the generated C's
 * semantics: int64 wraps, floordiv and floormod round towards minus
 * infinity.  False for an unknown variable, a division by zero or a kind
 * without an integer value (float, load, call). */
bool ir_prim_eval(const IrPrimExpr *e, IrDimLookup lookup, void *user, int64_t *out);
/* One binary operation of kind ADD..OR on integers, as ir_prim_eval does
 * it; false for a division by zero or another kind. */
bool ir_int_binary(IrPrimKind k, int64_t a, int64_t b, int64_t *r);
/* The same on uint64 operands (held in int64's bits): division, remainder,
 * min, max and the orderings unsigned, as C does them on uint64_t. */
bool ir_uint64_binary(IrPrimKind k, int64_t a, int64_t b, int64_t *r);

#endif
