/*
 * op.h - what each Relax operator means (prefix op_).
 *
 * The operator table: every op is one OpDef entry, written OP(IR_OP_X,
 * "relax.x", ...) in the file of its category (elementwise.c, nn.c,
 * linalg.c, manip.c, create.c, reduce.c, sort.c, builtin.c, core.c, qdq.c,
 * image.c, vision.c; README.md has the recipe).  An entry holds the op's
 * syntax (its Python parameters, what the reader and printer of ir/
 * need), its flags, and its meaning in three facets kept
 * side by side:
 *   infer     struct info of a call from the struct info of its arguments,
 *             with symbolic shapes (ir/arith decides what is provable);
 *   eval      the reference kernel: concrete tensors in, a tensor out,
 *             clear code over fast, accumulation in double;
 *   legalize  a T.prim_func computing the same, called by R.call_tir.
 * IrOpId is generated from the entries (ops/op_ids.awk writes
 * $(BUILD)/gen/op_ids.h, which ir/ir.h includes), so an op's id, name and
 * meaning are written once; table.c maps an id to its entry.
 *
 * Values are what the interpreter computes with.  They live in the ctx's
 * arena; a tensor's data is row-major, little-endian, in its dtype's own
 * format (float32 as float, bool as one byte 0/1, float16 as half bits).
 */
#ifndef RXC_OP_H
#define RXC_OP_H

#include "../ir/ir.h"

/* ------------------------------------------------------------------ */
/* value.c: interpreter values                                         */
/* ------------------------------------------------------------------ */

typedef struct Value Value;

typedef enum {
  VAL_TENSOR,  /* tensor */
  VAL_TUPLE,   /* tuple (the empty tuple is void) */
  VAL_SHAPE,   /* shape */
  VAL_PRIM,    /* prim */
  VAL_STR,     /* str */
  VAL_DTYPE,   /* dtype */
  VAL_STORAGE, /* storage: bytes from R.memory.alloc_storage */
  VAL_FUNC,    /* func: a function of the module or a local closure */
} ValueKind;

struct Value {
  ValueKind kind;
  union {
    struct {
      IrTensorData t;  /* dtype, ndim, shape, data, nbytes */
      Value *storage;  /* the storage it views, or NULL */
    } tensor;
    struct {
      Value **items;
      int n;
    } tuple;
    struct {
      int64_t *dims;
      int n;
    } shape;
    struct {
      IrDType dtype;
      int64_t i;       /* int, uint, bool */
      double f;        /* float */
    } prim;
    IrSym str;
    IrDType dtype;
    struct {
      unsigned char *bytes;
      size_t nbytes;
      IrDType dtype;   /* as given to alloc_storage */
      bool killed;     /* kill_storage: no new tensor may view it */
    } storage;
    struct {
      IrSym global;            /* a module function, or NULL */
      const IrFunction *local; /* a local function */
      void *env;               /* the interpreter's environment of a closure */
    } func;
  } u;
};

/* A zero-filled tensor; NULL (with an error at loc) when a dim is negative
 * or the byte count overflows. */
Value *op_tensor_new(IrCtx *ctx, IrDType t, int ndim, const int64_t *shape, IrLoc loc);
Value *op_tensor_from_data(IrCtx *ctx, const IrTensorData *d); /* shares d's data */
Value *op_tuple_new(IrCtx *ctx, Value **items, int n);
Value *op_shape_new(IrCtx *ctx, const int64_t *dims, int n);
Value *op_prim_int(IrCtx *ctx, IrDType t, int64_t v);
Value *op_prim_float(IrCtx *ctx, IrDType t, double v);
int64_t op_numel(const IrTensorData *t);
/* Element i (row-major) read as double / as int64, and written from them
 * (converted to the dtype: float32 rounds, ints truncate toward zero,
 * bool is v != 0). */
double op_get_f(const IrTensorData *t, int64_t i);
int64_t op_get_i(const IrTensorData *t, int64_t i);
void op_set_f(IrTensorData *t, int64_t i, double v);
void op_set_i(IrTensorData *t, int64_t i, int64_t v);
/* Prints a value in a short readable form (for R.print and messages). */
void op_value_print(const Value *v, IrBuf *out);

/* ------------------------------------------------------------------ */
/* The three facets                                                    */
/* ------------------------------------------------------------------ */

/* OpLegalize.kernels: off, on, on for libtcc's C (its comment). */
typedef enum { OP_KERNELS_OFF, OP_KERNELS_ON, OP_KERNELS_TCC } OpKernels;

/* What inference knows about the call being typed. */
typedef struct {
  IrCtx *ctx;
  IrArith *arith;       /* bounds of the function's symbolic vars */
  const IrModule *mod;
  IrSym binding;        /* the var being bound, for diagnostics, or NULL */
  IrLoc loc;            /* the call's location */
  /* NULL while typing.  Set by op_infer_assuming (LegalizeOps): inference
   * then appends to it (IrPrimExpr*, bool) every shape relation it takes
   * as true without proof (equal inner dims, equal element counts, ...),
   * and broadcasting gives dims it cannot decide as a run-time choice, so
   * that the result's shape is known whenever its rank is. */
  IrVec *assume;
} OpInfer;

/* What a kernel needs besides its arguments. */
typedef struct {
  IrCtx *ctx;
  IrSym binding;        /* the var being bound, for diagnostics, or NULL */
  IrLoc loc;
  IrBuf *print_out;     /* where R.print writes */
} OpEval;

/* The globals a legalization has named and made (tir_build.c): the names
 * taken, so that a fresh name costs constant time however many functions
 * share a hint, and the prim_funcs made, so that an equal one is reused. */
typedef struct OpGlobals OpGlobals;

/* Where legalization puts the prim_funcs it creates. */
typedef struct {
  IrCtx *ctx;
  IrArith *arith;
  const IrModule *mod;  /* the input module, for fresh global names */
  IrVec *new_globals;   /* IrGlobal* added by legalization */
  IrSym binding;
  IrLoc loc;
  OpGlobals *globals;   /* the globals named and made so far, or NULL: searched */
  /* For outputs whose shape is data (op_data_dims): IrBinding* the hook
   * puts before the call, whether they are dataflow bindings, and the
   * OpDimBound* upper bounds of the vars they bind (LegalizeOps adds them
   * to the function's tir_var_upper_bound unless it has one).  NULL
   * before: the hook cannot, and keeps the call. */
  IrVec *before;
  bool dataflow;
  IrVec *bounds;
  /* The target's vector width in bytes ([target] vector_bytes), which
   * sizes register tiles (gemm.c); 0: 64. */
  int vector_bytes;
  /* Call rt/'s kernels (ir/tir_kernel.c) for the inner loops that have
   * one ([opt] kernels): gemm.c's float32 tile.  OP_KERNELS_TCC: the C
   * is for libtcc, which optimizes nothing, so the glue around the calls
   * is cut too (gemm.c's tiles of 32 x 128 sums, conv_gemm.c's panel as
   * one im2col call); gcc -O3 runs those slower than the register tiles
   * and the panel loops it specializes (regnet_y_400mf 18 ms against
   * 8.6), so a .c for any other compiler keeps them. */
  int kernels; /* OpKernels */
} OpLegalize;

typedef struct {
  IrSym name;
  int64_t bound;
} OpDimBound;

/* tir_build.c: the globals of m, named, none made yet (heap). */
OpGlobals *op_globals_new(const IrModule *m);
void op_globals_free(OpGlobals *n);

/* The call a hook handles, and where an error about it is reported.
 * op_call_infer and its twins (table.c), the only callers of hooks, build
 * it (op_site_infer and its twins below); the hook hands it to the helpers
 * that read attributes or check arguments: return op_fail_null(s, ...). */
typedef struct {
  IrCtx *ctx;
  IrLoc loc;
  IrSym binding;      /* the var being bound, or NULL */
  const IrExpr *call; /* the op call (IR_CALL_OP) */
} OpSite;

typedef struct {
  /* Struct info of the call, or NULL after reporting an error with
   * op_fail_null.  args[i] is the struct info of call->u.call.args[i]
   * (never NULL: R.Object when unknown). */
  IrSInfo *(*infer)(OpInfer *in, const OpSite *s, IrSInfo **args);
  /* The result, or NULL after reporting an error.  args[i] is the value of
   * s->call->u.call.args[i]. */
  Value *(*eval)(OpEval *ev, const OpSite *s, Value **args);
  /* An R.call_tir replacing the call (its prim_func added to
   * lz->new_globals), or NULL to keep the call as it is. */
  IrExpr *(*legalize)(OpLegalize *lz, const OpSite *s, IrSInfo *result);
} OpImpl;

/* What the passes may do with a call of an op, besides what its purity
 * (syn.impure) says. */
enum {
  OP_NO_FOLD = 1u << 0,     /* FoldConstant keeps its calls: they allocate, move
                               data between devices or call outside the module */
  OP_KILL = 1u << 1,        /* ends its argument's lifetime (a kill) */
  OP_CHECKS_DATA = 1u << 2, /* the kernel refuses some tensor values (an index out
                               of range; an integer divisor 0, for the integer
                               forms only: op_checks_data), so an unused call
                               stays (DeadCodeElimination); its lowering asserts */
};

/* One operator.  syn comes first, so the const IrOpDef * a call carries
 * (e->u.call.op) converts back to its entry (op_of). */
typedef struct {
  IrOpDef syn;      /* id, name, purity, parameters: the reader's and printer's */
  OpImpl impl;      /* inference, reference kernel, legalization */
  unsigned flags;   /* OP_NO_FOLD, OP_KILL, OP_CHECKS_DATA */
  const void *data; /* the category file's own facts about the op (its
                       kernel function, TIR intrinsic, ...), or NULL */
} OpDef;

/* An entry of a category's table.  ops/op_ids.awk numbers the ops from the
 * text "OP(IR_OP_X,", so write it out (not through another macro), and a
 * category's entries are in id order; the remaining fields are designated:
 *   OP(IR_OP_EXP, "relax.exp", .syn.params = {OP_ARG("x")}, .syn.nparams = 1,
 *      .impl = {infer, eval, legalize}, .data = &row) */
#define OP(id_, name_, ...)                                                                        \
  {                                                                                                \
    .syn.id = id_, .syn.name = name_, __VA_ARGS__                                                  \
  }
/* Parameters of .syn.params (IrParamKind says how each is read and stored;
 * a default is TVMScript text, NULL when the parameter is required). */
#define OP_ARG(name)                                                                               \
  {                                                                                                \
    name, IR_PARAM_EXPR, NULL                                                                      \
  }
#define OP_ATTR(name, fallback)                                                                    \
  {                                                                                                \
    name, IR_PARAM_ATTR, fallback                                                                  \
  }

/* A category file's entries, in id order. */
typedef struct {
  const OpDef *defs;
  int n;
} OpTable;

/* The tables, in the order ops/op_ids.awk reads the files (the Makefile's
 * OP_TABLE_SRCS); table.c lists them in the same order. */
extern const OpTable op_elementwise_table;
extern const OpTable op_nn_table;
extern const OpTable op_linalg_table;
extern const OpTable op_manip_table;
extern const OpTable op_create_table;
extern const OpTable op_reduce_table;
extern const OpTable op_sort_table;
extern const OpTable op_builtin_table;
extern const OpTable op_core_table;
extern const OpTable op_qdq_table;
extern const OpTable op_image_table;
extern const OpTable op_vision_table;

/* table.c: the entry of an op; NULL when id is not an op. */
const OpDef *op_def(IrOpId id);
/* The entry named by IR name ("relax.add") or script name ("R.add"), or NULL. */
const OpDef *op_find(const char *name);
/* The entry of the op a call names. */
static inline const OpDef *
op_of(const IrOpDef *syn)
{
  return (const OpDef *)syn;
}
/* The implementation of an op (no hooks for an id that is not an op); its
 * hooks may be NULL (an op without a kernel yet is an error "not
 * implemented" where used). */
const OpImpl *op_impl(IrOpId id);
/* Run the call's hook with its site (op_site_infer and twins): NULL when
 * the op has none (callers that must say "not implemented" test the hook
 * first) or when the hook reported an error. */
IrSInfo *op_call_infer(OpInfer *in, const IrExpr *call, IrSInfo **args);
Value *op_call_eval(OpEval *ev, const IrExpr *call, Value **args);
IrExpr *op_call_legalize(OpLegalize *lz, const IrExpr *call, IrSInfo *result);
/* May the kernel refuse the call for its tensors' values (OP_CHECKS_DATA:
 * an index out of range, an integer divisor 0; a division of floats
 * refuses nothing)? */
bool op_checks_data(const IrExpr *call);

/* elementwise.c: integer power by squaring in wrapping int64; a negative
 * exponent gives 0 except for bases 1 and -1 (the truncation of the real
 * result, as C's cast of pow).  The reference kernel, the TIR interpreter
 * and the generated C (rxc_pow_i*) agree on it. */
int64_t op_power_int(int64_t a, int64_t b);

/* builtin.c: which argument R.call_tir_inplace's output k overwrites (its
 * inplace_indices attribute), or -1 when it is a fresh output. */
int64_t op_inplace_index(const IrExpr *call, int k);

/* infer_util.c: diagnostics, the one way an op reports an error.
 * "in binding 'lv': R.add: message" (without the binding part when there
 * is none), at the call's location.  op_error is for callers outside
 * the hooks (the interpreter, Normalize), which have no OpSite; inside
 * ops/ every report goes through an OpSite. */
void op_error(IrCtx *ctx, IrLoc loc, IrSym binding, const IrOpDef *op, const char *fmt, ...);
/* The site of a call from what the facet knows of it. */
OpSite op_site_infer(const OpInfer *in, const IrExpr *call);
OpSite op_site_eval(const OpEval *ev, const IrExpr *call);
OpSite op_site_legalize(const OpLegalize *lz, const IrExpr *call);
/* Reports the error at s: "in binding 'y': R.op: message". */
void op_report(const OpSite *s, const char *fmt, ...);
/* op_report, then false (op_fail_null: NULL), so that a failure is one
 * line: return op_fail_null(&s, "axis %d is repeated", d);
 * Macros rather than functions so that the compiler sees the constant: an
 * out-parameter set on every true return is then known set wherever the
 * caller reads it (gcc's -Wmaybe-uninitialized). */
#define op_fail(s, ...) (op_report((s), __VA_ARGS__), false)
#define op_fail_null(s, ...) (op_report((s), __VA_ARGS__), (void *)0)

/* infer_util.c: helpers shared by inference functions */
/* The attribute of a call by name (from the op's table, always present
 * after the reader filled the defaults); NULL when absent. */
const IrAttr *op_attr(const IrExpr *call, const char *name);
/* Broadcast two tensor shapes (numpy rules) with symbolic dims; returns
 * false (after an error) when provably incompatible.  When some dim cannot
 * be decided, returns true with *out NULL and *nout the rank: the result
 * is a tensor of known rank and unknown shape. */
bool op_broadcast_shapes(OpInfer *in, const IrExpr *call, IrPrimExpr **a, int na,
                         IrPrimExpr **b, int nb, IrPrimExpr ***out, int *nout);
/* The proof of a == b: syntactic or simplified equality, two literals, or
 * the arithmetic. */
IrProof op_prove_equal(OpInfer *in, IrPrimExpr *a, IrPrimExpr *b);
/* a == b as a shape relation of the op: FALSE when provably broken (the
 * caller reports it); otherwise TRUE, and when not proved the relation is
 * appended to in->assume. */
IrProof op_assume_equal(OpInfer *in, IrPrimExpr *a, IrPrimExpr *b);
/* Appends cond to in->assume (when assuming) unless it is provably true. */
void op_assume(OpInfer *in, IrPrimExpr *cond);
/* The call's struct info with every unproved shape relation appended to
 * assume (IrPrimExpr*, bool; the result's dims not negative among them): what LegalizeOps checks at run time.  in's
 * assume is set for the call; NULL after an error. */
IrSInfo *op_infer_assuming(OpInfer *in, const IrExpr *call, IrVec *assume);
/* A normalized axis in [0, ndim) from a possibly negative one; false after
 * an error when out of range. */
bool op_axis(OpInfer *in, const IrExpr *call, int64_t axis, int ndim, int *out);
/* Struct info as the script writes it ("R.Tensor((2, n), dtype=...)"), in
 * the arena: for messages. */
const char *op_sinfo_text(IrCtx *ctx, const IrSInfo *si);

#endif
