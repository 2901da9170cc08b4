/*
 * cg_int.h - internals shared by the files of codegen/ (no other folder
 * includes it).
 *
 * Generation runs in three steps (gen.c drives them):
 *   gen_entry.c  each public Relax function becomes an entry (with
 *                gen_outputs.c: where the result lives, gen_sig.c: the
 *                signature, checks and packed form); while it is emitted,
 *                every call site tells the callee's CgPrim what it needs
 *                (called at all, the upper bounds of its implicit dims,
 *                whether two of its arguments may share bytes);
 *   gen_tir.c    each called prim_func becomes a static C function;
 *   gen_header.c NAME.h, NAME_strerror, and the constants (inline or in
 *                NAME_weights.c).
 * Helpers (min, max, floor division, ...) are emitted only when used, so
 * that -Wunused-function stays quiet: CgGen.helpers records the uses.
 */
#ifndef RXC_CG_INT_H
#define RXC_CG_INT_H

#include "cg.h"

/* What cg_jit_cc and the libtcc JIT return (cc.c and jit.c). */
struct CgCompiled {
  void *dl;      /* dlopen handle (cc.c), or NULL */
  void *tcc;     /* TCCState (jit.c), or NULL */
  char *dir;     /* temporary directory to remove (cc.c), or NULL; heap */
  void *weights; /* weights = blob: the aligned copy NAME_set_weights took
                    when out's blob was not aligned, or NULL; heap */
};

/* cc.c: after compiling out into c, hands a blob's weights to the code
 * (NAME_set_weights); false after an error in ctx.  A blob at a 64-byte
 * aligned address, as cg_generate makes it, is handed over as it is, not
 * copied: the code then reads out's memory, so out must be freed after
 * c (cg_output_free after cg_compiled_free), and not changed meanwhile.
 * Any other blob is copied to aligned memory that c keeps. */
bool cg_compiled_bind(IrCtx *ctx, CgCompiled *c, const CgOutput *out);

/* jit.c: the libtcc side of cg_compiled_entry and cg_compiled_free (cc.c),
 * so that only jit.c includes <libtcc.h>. */
/* jit.c: cg_jit_tcc with tcc's library path set (a wrong one fails at
 * relocation: tested). */
CgCompiled *cg_jit_tcc_at(IrCtx *ctx, const CgOutput *out, const char *lib_path);
void *cg_tcc_symbol(void *tcc, const char *name);
void cg_tcc_free(void *tcc);

/* kern.c: the kernels of rt/ precompiled into librxc (kern_copy.c, built
 * once per x86 level), which the libtcc JIT binds instead of compiling
 * their text.  A copy is the kernel's C function under another name. */
typedef void (*CgKernFn)(void); /* a copy, cast to its kernel's type to call */
typedef struct {
  const char *kernel; /* the C name the generated code calls, "rxc_k_gemm_f32" */
  const char *level;  /* "x86-64-v4+vnni", "x86-64-v4", "x86-64-v3", "x86-64", or "host" */
  CgKernFn fn;        /* the copy */
} CgKernCopy;
/* Every copy built, each kernel's best level first; *n gets the count. */
const CgKernCopy *cg_kern_copies(int *n);
/* Whether this CPU (and its OS) runs the copy's instructions. */
bool cg_kern_usable(const CgKernCopy *copy);
/* The copy the JIT binds for kernel: its first usable one; NULL when
 * none (not a kernel of rt/). */
CgKernFn cg_kern_chosen(const char *kernel);

/* kern_copy.c, once per level: rxc_k_gemm_f32 (rt/rt_kern_gemm.h) */
#define CG_KERN_GEMM_F32_PARAMS                                                                    \
  float *acc, const float *a, int64_t a_row, int64_t a_k, const float *b, int64_t b_k, int64_t k,  \
      int64_t rows, int64_t cols
void cg_kern_gemm_f32_base(CG_KERN_GEMM_F32_PARAMS);
void cg_kern_gemm_f32_v3(CG_KERN_GEMM_F32_PARAMS);
void cg_kern_gemm_f32_v4(CG_KERN_GEMM_F32_PARAMS);
void cg_kern_gemm_f32_host(CG_KERN_GEMM_F32_PARAMS);
typedef void (*CgKernGemmF32)(CG_KERN_GEMM_F32_PARAMS);
/* and rxc_k_conv_f32, of the same header */
#define CG_KERN_CONV_F32_PARAMS                                                                    \
  float *acc, const float *a, int64_t a_row, int64_t a_k, const float *b, int64_t b_c,             \
      int64_t channels, int64_t kh, int64_t kw, int64_t y_step, int64_t x_step, int64_t rows,      \
      int64_t cols, int64_t fresh
void cg_kern_conv_f32_base(CG_KERN_CONV_F32_PARAMS);
void cg_kern_conv_f32_v3(CG_KERN_CONV_F32_PARAMS);
void cg_kern_conv_f32_v4(CG_KERN_CONV_F32_PARAMS);
void cg_kern_conv_f32_host(CG_KERN_CONV_F32_PARAMS);
typedef void (*CgKernConvF32)(CG_KERN_CONV_F32_PARAMS);
/* kern_copy.c, once per level: rxc_k_gemm_i8i8_i32, _u8i8_i32, _i8u8_i32
 * (rt/rt_kern_gemm_int.h), also at v4 with VNNI */
#define CG_KERN_GEMM_I8I8_I32_PARAMS                                                               \
  int32_t *acc, const int8_t *a, int64_t a_row, int64_t a_k, const int8_t *b, int64_t b_k,         \
      int64_t k, int64_t rows, int64_t cols
void cg_kern_gemm_i8i8_i32_base(CG_KERN_GEMM_I8I8_I32_PARAMS);
void cg_kern_gemm_i8i8_i32_v3(CG_KERN_GEMM_I8I8_I32_PARAMS);
void cg_kern_gemm_i8i8_i32_v4(CG_KERN_GEMM_I8I8_I32_PARAMS);
void cg_kern_gemm_i8i8_i32_vnni(CG_KERN_GEMM_I8I8_I32_PARAMS);
void cg_kern_gemm_i8i8_i32_host(CG_KERN_GEMM_I8I8_I32_PARAMS);
typedef void (*CgKernGemmI8I8I32)(CG_KERN_GEMM_I8I8_I32_PARAMS);
#define CG_KERN_GEMM_U8I8_I32_PARAMS                                                               \
  int32_t *acc, const uint8_t *a, int64_t a_row, int64_t a_k, const int8_t *b, int64_t b_k,        \
      int64_t k, int64_t rows, int64_t cols
void cg_kern_gemm_u8i8_i32_base(CG_KERN_GEMM_U8I8_I32_PARAMS);
void cg_kern_gemm_u8i8_i32_v3(CG_KERN_GEMM_U8I8_I32_PARAMS);
void cg_kern_gemm_u8i8_i32_v4(CG_KERN_GEMM_U8I8_I32_PARAMS);
void cg_kern_gemm_u8i8_i32_vnni(CG_KERN_GEMM_U8I8_I32_PARAMS);
void cg_kern_gemm_u8i8_i32_host(CG_KERN_GEMM_U8I8_I32_PARAMS);
typedef void (*CgKernGemmU8I8I32)(CG_KERN_GEMM_U8I8_I32_PARAMS);
#define CG_KERN_GEMM_I8U8_I32_PARAMS                                                               \
  int32_t *acc, const int8_t *a, int64_t a_row, int64_t a_k, const uint8_t *b, int64_t b_k,        \
      int64_t k, int64_t rows, int64_t cols
void cg_kern_gemm_i8u8_i32_base(CG_KERN_GEMM_I8U8_I32_PARAMS);
void cg_kern_gemm_i8u8_i32_v3(CG_KERN_GEMM_I8U8_I32_PARAMS);
void cg_kern_gemm_i8u8_i32_v4(CG_KERN_GEMM_I8U8_I32_PARAMS);
void cg_kern_gemm_i8u8_i32_vnni(CG_KERN_GEMM_I8U8_I32_PARAMS);
void cg_kern_gemm_i8u8_i32_host(CG_KERN_GEMM_I8U8_I32_PARAMS);
typedef void (*CgKernGemmI8U8I32)(CG_KERN_GEMM_I8U8_I32_PARAMS);
/* rxc_k_gemm_i32i32_i32: no vnni copy */
#define CG_KERN_GEMM_I32I32_I32_PARAMS                                                             \
  int32_t *acc, const int32_t *a, int64_t a_row, int64_t a_k, const int32_t *b, int64_t b_k,       \
      int64_t k, int64_t rows, int64_t cols
void cg_kern_gemm_i32i32_i32_base(CG_KERN_GEMM_I32I32_I32_PARAMS);
void cg_kern_gemm_i32i32_i32_v3(CG_KERN_GEMM_I32I32_I32_PARAMS);
void cg_kern_gemm_i32i32_i32_v4(CG_KERN_GEMM_I32I32_I32_PARAMS);
void cg_kern_gemm_i32i32_i32_host(CG_KERN_GEMM_I32I32_I32_PARAMS);
typedef void (*CgKernGemmI32I32I32)(CG_KERN_GEMM_I32I32_I32_PARAMS);
/* kern_copy.c at the baseline (and host) only: rt/rt_kern_copy.h */
/* and the im2col kernels of the same header, as the copies */
#define CG_KERN_IM2COL_PARAMS(T)                                                                   \
  T *dst, const T *src, int64_t channels, int64_t in_h, int64_t in_w, int64_t y0, int64_t x0,      \
      int64_t rows, int64_t ow, int64_t kh, int64_t kw, int64_t sh, int64_t sw, int64_t dh,        \
      int64_t dw, int64_t width
void cg_kern_im2col_f32_base(CG_KERN_IM2COL_PARAMS(float));
void cg_kern_im2col_f32_host(CG_KERN_IM2COL_PARAMS(float));
void cg_kern_im2col_i8_base(CG_KERN_IM2COL_PARAMS(int8_t));
void cg_kern_im2col_i8_host(CG_KERN_IM2COL_PARAMS(int8_t));
void cg_kern_im2col_u8_base(CG_KERN_IM2COL_PARAMS(uint8_t));
void cg_kern_im2col_u8_host(CG_KERN_IM2COL_PARAMS(uint8_t));
void cg_kern_im2col_i32_base(CG_KERN_IM2COL_PARAMS(int32_t));
void cg_kern_im2col_i32_host(CG_KERN_IM2COL_PARAMS(int32_t));
typedef void (*CgKernIm2colI8)(CG_KERN_IM2COL_PARAMS(int8_t));

/* kern_copy.c, once per level: rxc_k_row_f32 (rt/rt_kern_row.h) */
#define CG_KERN_ROW_F32_PARAMS                                                                     \
  int64_t rows, int64_t n, const unsigned char *prog, float *dst, int64_t dst_row,                 \
      int64_t dst_stride, const float *const *ptrs, const int64_t *strides, const float *scalars
void cg_kern_row_f32_base(CG_KERN_ROW_F32_PARAMS);
void cg_kern_row_f32_v3(CG_KERN_ROW_F32_PARAMS);
void cg_kern_row_f32_v4(CG_KERN_ROW_F32_PARAMS);
void cg_kern_row_f32_host(CG_KERN_ROW_F32_PARAMS);
typedef void (*CgKernRowF32)(CG_KERN_ROW_F32_PARAMS);

/* The C types of the generated code, one per supported dtype. */
typedef enum {
  CG_CT_BOOL, /* unsigned char, 0 or 1 */
  CG_CT_I8,
  CG_CT_I16,
  CG_CT_I32,
  CG_CT_I64,
  CG_CT_U8,
  CG_CT_U16,
  CG_CT_U32,
  CG_CT_U64,
  CG_CT_F32,
  CG_CT_F64,
  CG_CT_F16,  /* float16: rxc_u16 bits in memory, rxc_f32 as a value (rt_half.h) */
  CG_CT_BF16, /* bfloat16: likewise */
  CG_CT_COUNT
} CgCType;

/* Helper functions emitted on demand, one per C type. */
typedef enum {
  CG_H_MIN,       /* NaN-propagating as the interpreter: a < b ? a : b */
  CG_H_MAX,       /* a > b ? a : b */
  CG_H_FLOORDIV,  /* rounds toward minus infinity */
  CG_H_FLOORMOD,  /* sign of the divisor */
  CG_H_ABS,       /* integers */
  CG_H_ISINF,     /* floats */
  CG_H_ISFINITE,  /* floats */
  CG_H_FROM_BITS, /* floats: a value from its bit pattern (inf, nan) */
  CG_H_IPOW,      /* integers: power by squaring, as the interpreter */
  CG_H_DIV,       /* integers: C's a / b, but 0 for b == 0 and wrapping for -1 */
  CG_H_MOD,       /* integers: C's a % b, but 0 for b == 0 or -1 */
  CG_H_COUNT
} CgHelper;

/* A name table: one C identifier per IR object (var, buffer), unique in
 * one C function (or in the file, for globals). Heap; cg_names_free. */
typedef struct {
  const char **names; /* arena strings, in the order given */
  int n, cap;
  IrMap bykey;   /* key -> its (first) name */
  IrNames taken; /* the names given */
} CgNames;

/* What the entries found out about one prim_func of the module. */
typedef struct {
  bool known;        /* dims and written are filled */
  bool called;       /* some entry calls it: emit it */
  bool aliased;      /* two arguments may share bytes at some call: no restrict */
  IrPrimExpr **dims; /* implicit dims (vars of param buffer shapes that are
                        not params), in order of first appearance */
  int64_t *dims_max; /* upper bound of each over every call site */
  int ndims;
  bool *written; /* per param: the body stores into its buffer */
  bool can_fail; /* the body has an assert: the function returns int, nonzero when one fails */
} CgPrim;

/* One constant of the module (gen_weights.c). */
typedef struct {
  const IrExpr *e; /* the IR_EX_CONST node */
  CgCType t;
  int64_t off;     /* bytes: in its type's string; blob: in the blob */
  const char *ref; /* the C expression of a pointer to its first element */
} CgConst;

typedef struct {
  IrCtx *ctx;
  const IrModule *m;
  const MpPlan *plan;
  const CfgOptions *cfg;
  const char *name; /* C prefix: "mlp" */
  CgPrim *prims;    /* one per module global (unused for non-prims) */
  IrMap globals;    /* m's globals by name (ir_module_index) */
  CgConst *consts;  /* the constants, in order of first use (gen_weights.c) */
  int nconsts, capconsts;
  IrMap const_index;               /* IR_EX_CONST node -> its CgConst */
  int64_t string_end[CG_CT_COUNT]; /* weights = bytes: each type's string so far */
  int64_t blob_end;                /* weights = blob: the blob so far */
  bool helpers[CG_H_COUNT][CG_CT_COUNT];
  bool copy_used;        /* rxc_copy (results that are not in place) */
  bool poison_used;      /* some entry is poisoned ([codegen] poison): rxc_poison */
  bool assert_used;      /* some entry has an R.assert_op or calls a prim_func that can fail:
                            NAME_ERR_ASSERT */
  bool print_used;       /* some entry has an R.print: rt_print.h, NAME_PRINT */
  unsigned kernels_used; /* bit i: kernel i of cg_runtime_kernel is called (its rt/ text) */
  int64_t weights_bytes; /* bytes of every constant; blob: NAME.weights.bin's */
  int errors;            /* errors reported so far */
  IrLoc loc;             /* where the node being emitted comes from */
  /* the prim_func being emitted: its loads of read-only scalars hoisted
   * into locals (gen_tir.c), or NULL */
  const struct CgHoist *hoist;
} CgGen;

/* gen.c */
void cg_fail(CgGen *g, const char *fmt, ...);
bool cg_ctype(IrDType t, CgCType *out);
const char *cg_ctype_name(CgCType t);
const char *cg_ctype_suffix(CgCType t);          /* of helper names: "f32" in rxc_max_f32 */
const char *cg_dtype_cname(CgGen *g, IrDType t); /* NULL after an error */
/* The C type of a value of dtype t in an expression: as cg_dtype_cname, but
 * rxc_f32 for float16 and bfloat16, which only memory holds as bits. */
const char *cg_value_cname(CgGen *g, IrDType t);
bool cg_ctype_is_half(CgCType t);                 /* float16 or bfloat16 */
const char *cg_ident(CgGen *g, const char *hint); /* a C identifier from any name */
const char *cg_names_add(CgGen *g, CgNames *t, const void *key, const char *hint);
const char *cg_names_find(const CgNames *t, const void *key);
void cg_names_free(CgNames *t);
int cg_global_index(const CgGen *g, IrSym name);
/* Occurrences of the identifier name in text as a whole token. */
int cg_text_count(const IrBuf *text, const char *name);
void cg_text_counts(const IrBuf *text, const char *const *names, int n, int *counts);
bool cg_text_uses(const IrBuf *text, const char *name);
void cg_emit_helpers(CgGen *g, IrBuf *out);

/* gen_tir.c */
/* The prim_func's implicit dims and written params (filled once). */
CgPrim *cg_prim_info(CgGen *g, int global);
/* Writes the C of expression e; vars are looked up in names. */
void cg_emit_expr(CgGen *g, const CgNames *names, const IrPrimExpr *e, IrBuf *out);
void cg_emit_float(CgGen *g, IrDType t, double v, IrBuf *out);
void cg_emit_int(IrDType t, int64_t v, IrBuf *out);
void cg_emit_prim_func(CgGen *g, int global, IrBuf *out);
/* Whether indices d - 1 and d of b are A + X // c (or X // c) and X % c,
 * c dim d's literal extent: then they add up to A * c + X in the flat
 * offset (*a gets A, NULL: none; *x gets X). */
bool cg_flat_pair(const IrBuffer *b, IrPrimExpr *const *idx, int d, const IrPrimExpr **a,
                  const IrPrimExpr **x);

/* gen_row.c: [codegen] rows.  When loop (of prim_func f, CgPrim p) is an
 * innermost float32 loop the row kernel can run (the file comment says
 * which), writes its call into o at indent ind (the loop var already
 * named in names) and returns true; otherwise writes nothing.  With
 * flat, also writes there, for other C compilers, a nest that the call
 * runs as one row as a plain loop over the row (nothing when the nest's
 * own loops are as good). */
bool cg_row_emit(CgGen *g, CgNames *names, IrArith *arith, const IrPrimFunc *f, const CgPrim *p,
                 const IrStmt *loop, int ind, IrBuf *o, IrBuf *flat);
/* Is b one of f's buffer parameters? */
bool cg_buffer_is_param(const IrPrimFunc *f, const IrBuffer *b);
/* The buffer whose memory b is in f: b, or what its T.decl_buffer views
 * (NULL: a chain too long). */
const IrBuffer *cg_buffer_root(const IrPrimFunc *f, const IrBuffer *b);

/* gen_reduce.c: [codegen] rows.  When loop is a loop of independent
 * reductions of the form its file comment gives, writes it with several
 * reductions at a time into o (as cg_row_emit) and returns true;
 * otherwise writes nothing. */
bool cg_reduce_emit(CgGen *g, CgNames *names, IrArith *arith, const IrPrimFunc *f, const CgPrim *p,
                    const IrStmt *loop, int ind, IrBuf *o);
/* e rebuilt with fn's expression for each node fn maps (non-NULL; the
 * node's subtree is then not visited), the others rebuilt around theirs. */
IrPrimExpr *cg_prim_map(IrCtx *ctx, IrPrimExpr *e, IrPrimExpr *(*fn)(IrPrimExpr *e, void *user),
                        void *user);

/* ------------------------------------------------------------------ */
/* gen_entry.c, gen_outputs.c, gen_sig.c: a Relax function as an entry */
/* ------------------------------------------------------------------ */

/* What a Relax var is in the generated C. */
typedef enum {
  CG_V_OTHER,   /* no C value: shapes, prim values, strings, dtypes */
  CG_V_TENSOR,  /* cname: a typed pointer */
  CG_V_STORAGE, /* cname: char * */
  CG_V_TUPLE,   /* items: leaves, at compile time */
} CgVarKind;

typedef struct {
  const IrExpr *var; /* the Relax var */
  CgVarKind kind;
  const char *cname;
  bool is_const;             /* tensor: points to const data (input, constant) */
  const MpStorage *storage;  /* storage var: its plan; tensor: the storage it views */
  const IrExpr *storage_var; /* tensor: the storage var it views, or NULL */
  int64_t offset;            /* tensor: byte offset in its storage (-1 unknown) */
  IrExpr **items;            /* tuple */
  int nitems;
  const char *shape_src; /* R.tensor_to_shape(t): t's C expression, whose
                            elements a later R.match_cast reads */
} CgVar;

/* Pre-pass: which storages a var may view. */
typedef struct {
  const IrExpr *var;
  IrVec storages; /* storage vars */
  IrExpr **items; /* tuple items */
  int nitems;
} CgOrigin;

/* One Relax function being emitted as an entry. */
typedef struct {
  CgGen *g;
  const IrFunction *f;
  const MpFunctionPlan *fp;
  CgNames names;
  IrArith *arith;
  CgVar **vars; /* heap array of arena CgVars */
  int nvars, capvars;
  IrMap var_index; /* IrExpr* -> its latest CgVar* */
  CgOrigin *origins;
  int norigins, caporigins;
  const IrExpr **out_storage; /* storage var -> output index */
  int *out_index;
  int nout_storage;
  IrSInfo **outs; /* output struct infos */
  const char **out_names;
  int nouts;
  bool tuple_result;     /* the result is a tuple (of nouts tensors) */
  const IrExpr **extra;  /* output storages that no output takes (a tuple of
                            which only some items are returned) */
  int64_t *extra_offset; /* their place: after the plan's arena */
  int nextra;
  int64_t arena_bytes; /* the plan's arena and the extra storages */
  int64_t dim_cap;     /* with an arena formula: the largest value of a dim
                          without a bound at which the formula fits in int64
                          (cg_arena_cap); -1 when no such dim is in it */
  IrVec *scope;        /* names declared in the scope being emitted */
  int indent;
  IrBuf defs;                   /* the prologue's dims that R.match_cast defines (gen_check.c) */
  IrBuf checks;                 /* the prologue's checks of match_casts and call arguments */
  const char *result_dims_name; /* the parameter the result dims go to, or NULL */
  IrVec late;                   /* IrPrimExpr* vars defined in the body from tensor data
                                   (R.tensor_to_shape + R.match_cast): checks using them
                                   stay where they are, after the definition */
  IrVec late_nested;            /* the late vars defined inside an if branch */
  bool *plan_done;              /* per plan check (MpFunctionPlan.checks): emitted at a
                                   late var's definition */
  bool asserts; /* the body has an R.assert_op (gen_effect.c) or calls a prim_func that can fail */
  bool poison;  /* [codegen] poison applies (a constant arena): gen_poison.c */
  int64_t canary_at, canary_bytes; /* with poison: the canary after the arena */
  int64_t step; /* with poison: memplan's step of the top-level binding being emitted */
} CgFunc;

/* gen_entry.c: the entry of plan function fp; its declarations go to decls,
 * its comment for the header to docs, the code to out. */
void cg_emit_entry(CgGen *g, const MpFunctionPlan *fp, CgEntry *entry, IrBuf *decls, IrBuf *docs,
                   IrBuf *out);
CgVar *cg_var_add(CgFunc *E, const IrExpr *var, CgVarKind kind);
CgVar *cg_var_find(CgFunc *E, const IrExpr *var);
/* The C expression of a tensor leaf (var or constant); NULL after an error.
 * *info gets the var (NULL for constants), *is_const whether it is const. */
const char *cg_tensor_leaf(CgFunc *E, const IrExpr *e, CgVar **info, bool *is_const);
IrDType cg_tensor_dtype(const IrExpr *e);
IrPrimExpr *cg_leaf_dim(CgFunc *E, const IrExpr *e, int d); /* NULL when unknown */
void cg_emit_bytes(CgFunc *E, const IrExpr *e, IrBuf *o);   /* bytes of a tensor leaf */

/* gen_outputs.c */
/* Maps the storages that flow into the result to the outputs (and places
 * the ones no output takes after the arena: E->arena_bytes). */
void cg_map_outputs(CgFunc *E);
int cg_result_leaves(CgFunc *E, const IrExpr *res, IrExpr ***items);
void cg_emit_result(CgFunc *E, IrBuf *o);

/* gen_sig.c */
void cg_entry_bounds(CgFunc *E);
void cg_arena_cap(CgFunc *E);
void cg_emit_cap_test(CgFunc *E, bool negative, IrBuf *o);
bool cg_signature(CgFunc *E, CgEntry *ent, IrBuf *decl, IrBuf *doc);
bool cg_outputs(CgFunc *E, CgEntry *ent, IrBuf *decl, IrBuf *doc);
void cg_emit_checks(CgFunc *E, const CgEntry *ent, IrBuf *o);
void cg_emit_packed(CgFunc *E, const CgEntry *ent, IrBuf *o);

/* gen_effect.c: R.assert_op and R.print, emitted where they sit (into o). */
void cg_emit_assert(CgFunc *E, const IrBinding *b, IrBuf *o);
void cg_emit_print(CgFunc *E, const IrBinding *b, IrBuf *o);
void cg_comment_text(const char *s, IrBuf *o); /* s inside a C comment, printable ASCII */

/* gen_check.c: the checks of "var = R.match_cast(value, cast)" and the
 * definitions of the dims it binds; of the arguments of a call of prim_func
 * f against its buffers' shapes, with its implicit dims vars[i] taking
 * vals[i].  Into the prologue (E->defs, E->checks), or into o inside an if
 * branch.  An error (cg_fail) when a relation is proved never to hold. */
void cg_emit_match_cast(CgFunc *E, const IrBinding *b, IrBuf *o);
/* Does e use a var of E->late (all of them defined when all is given)? */
bool cg_uses_late(const CgFunc *E, const IrPrimExpr *e);
/* The binding whose R.match_cast defines var from tensor data, or NULL. */
const char *cg_data_dim_binding(CgFunc *E, const IrPrimExpr *var);
/* Output struct info s with the dims that the function's top-level
 * R.match_casts define written in the signature's dims (the caller sizes
 * its buffers from the signature). */
IrSInfo *cg_output_in_signature_dims(CgFunc *E, IrSInfo *s);
void cg_emit_call_checks(CgFunc *E, const IrPrimFunc *f, const IrExpr *call,
                         IrPrimExpr *const *vars, IrPrimExpr *const *vals, int n, IrBuf *o);

/* gen_weights.c */
/* The C expression of a pointer to constant c's first element, placed in
 * the weights at its first use; NULL after an error (a dtype C lacks). */
const char *cg_const_ref(CgGen *g, const IrExpr *c);
/* The definitions of the constants (or the blob and NAME_set_weights)
 * into out; separate: their definitions into weights; blob: the blob's
 * bytes into blob.  Returns NAME_WEIGHTS_BYTES. */
int64_t cg_emit_consts(CgGen *g, IrBuf *out, IrBuf *weights, IrBuf *blob);
int64_t cg_blob_bytes(const CgGen *g); /* NAME.weights.bin's size */
int cg_blob_align(const CgGen *g);     /* the alignment it needs in memory */

/* gen_poison.c: [codegen] poison.  Setup grows E->arena_bytes by the
 * canary; begin poisons the arena (at the start of the body); before and
 * after a top-level binding, the checks of the storages it starts and the
 * poison of those it ends; end, the final checks (before return 0). */
void cg_poison_setup(CgFunc *E);
void cg_poison_begin(CgFunc *E, IrBuf *o);
void cg_poison_before(CgFunc *E, const IrBinding *b, IrBuf *o);
void cg_poison_after(CgFunc *E, const IrBinding *b, IrBuf *o);
void cg_poison_end(CgFunc *E, IrBuf *o);
void cg_emit_poison_helpers(const CgGen *g, IrBuf *out);

/* gen_header.c */
void cg_emit_header(CgGen *g, const CgOutput *res, const IrBuf *decls, const IrBuf *docs,
                    IrBuf *out);
bool cg_weights_blob(const CgGen *g);      /* [codegen] weights = blob */
bool cg_err_used(const CgGen *g, int err); /* NAME_ERR_WEIGHTS with a blob, _ASSERT with asserts */
/* NAME_strerror's definition. */
void cg_emit_strerror(CgGen *g, IrBuf *out);

/* Error codes of the entries: NAME_ERR_<name> = -(index + 1). */
enum {
  CG_ERR_NULL,        /* a NULL pointer argument */
  CG_ERR_ARENA_SIZE,  /* arena_bytes below what the entry needs */
  CG_ERR_ARENA_ALIGN, /* the arena is not aligned to NAME_ARENA_ALIGN */
  CG_ERR_DIM,         /* a symbolic dim outside its bounds */
  CG_ERR_SHAPE,       /* dims inconsistent: a shape of an argument is negative */
  CG_ERR_CHECK,       /* a runtime precondition of the memory plan is false */
  CG_ERR_MATCH,       /* an R.match_cast or an operator's shape relation is false */
  CG_ERR_WEIGHTS,     /* weights = blob: NAME_set_weights has not taken the blob */
  CG_ERR_ASSERT,      /* an R.assert_op's or a TIR assert's condition is false (where it sits) */
  CG_ERR_POISON,      /* [codegen] poison: a canary or a dead storage was written */
  CG_ERR_COUNT
};
extern const char *const CG_ERR_NAMES[CG_ERR_COUNT];    /* "NULL", ... */
extern const char *const CG_ERR_MESSAGES[CG_ERR_COUNT]; /* for NAME_strerror */

#endif
