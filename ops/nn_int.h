/*
 * op_nn_int.h - helpers shared by nn.c, conv.c, norm.c and linalg.c
 * (inside ops/ only).
 *
 * Inference and kernels both read a call's attributes and both report
 * errors that name the binding and the op; an OpSite carries what such an
 * error needs, so one attribute reader serves both facets.
 */
#ifndef RXC_NN_INT_H
#define RXC_NN_INT_H

#include "tir_build.h"

/* Attributes.  An absent attribute (or None where a default makes sense)
 * gives the default; a value of the wrong kind is an error (false).
 * They read through op_attr. */
bool op_nn_attr_int(const OpSite *s, const char *name, int64_t fallback, int64_t *out);
bool op_nn_attr_bool(const OpSite *s, const char *name, bool fallback, bool *out);
bool op_nn_attr_float(const OpSite *s, const char *name, double fallback, double *out);
/* A string attribute; fallback when absent or None. */
bool op_nn_attr_str(const OpSite *s, const char *name, const char *fallback, const char **out);
/* An int or a list of at most max ints into out; *n is how many (0 for
 * None or absent). */
bool op_nn_attr_ints(const OpSite *s, const char *name, int64_t *out, int max, int *n);
/* A dtype given as a string; "void" (or absent) is IR_VOID. */
bool op_nn_attr_dtype(const OpSite *s, const char *name, IrDType *out);
/* An axis in [0, ndim) from a possibly negative one; false after an error
 * naming it what ("axis", "channel_axis") when out of range. */
bool op_nn_axis(const OpSite *s, const char *what, int64_t axis, int ndim, int *out);
/* The "axis" attribute (fallback when absent or None) as op_nn_axis makes it. */
bool op_nn_attr_axis(const OpSite *s, int64_t fallback, int ndim, int *out);

/* Inference. */
/* Argument i as a tensor: *out is its struct info, or NULL when nothing is
 * known of it (R.Object).  Any other struct info is an error naming what. */
bool op_nn_tensor_arg(OpInfer *in, const OpSite *s, IrSInfo **args, int i, const char *what,
                      IrSInfo **out);
/* The dims of a tensor's shape when known (and of length ndim), else NULL. */
IrPrimExpr **op_nn_shape(const IrSInfo *t);
IrDType op_nn_dtype(const IrSInfo *t); /* IR_VOID for NULL */
int op_nn_ndim(const IrSInfo *t);      /* -1 for NULL */
int op_nn_vdevice(const IrSInfo *t);   /* -1 for NULL */
IrPrimExpr *op_nn_int(IrCtx *ctx, int64_t v);
IrPrimExpr *op_nn_simplify(OpInfer *in, IrPrimExpr *e);
/* e printed into an arena string (for messages). */
const char *op_nn_expr_str(IrCtx *ctx, const IrPrimExpr *e);
const char *op_nn_dtype_str(IrCtx *ctx, IrDType t);
/* The dtype that "void" out_dtype stands for: a's and b's when equal or
 * unknown (void); false after an error when both are known and differ. */
bool op_nn_common_dtype(OpInfer *in, const OpSite *s, IrDType a, IrDType b, IrDType *out);
/* An error unless dtype is a float type or unknown. */
bool op_nn_require_float(OpInfer *in, const OpSite *s, IrDType t);

/* Kernels. */
/* Argument i as a tensor value, or NULL after an error naming what. */
const IrTensorData *op_nn_tensor_value(const OpSite *s, Value **args, int i, const char *what);
/* A new zero tensor (NULL after an error). */
Value *op_nn_tensor_new(const OpSite *s, IrDType t, int ndim, const int64_t *shape);
/* Row-major element strides of a tensor (ndim entries). */
void op_nn_strides(const IrTensorData *t, int64_t *strides);
/* Offsets of a split of t's dims into kept (outer) and reduced (inner)
 * dims: outer[o] + inner[r] is the element of outer position o, inner
 * position r, each enumerated row-major in dim order.  Returns false after
 * an error (out of memory); the arrays are malloc'd, freed by the caller. */
bool op_nn_split_offsets(const OpSite *s, const IrTensorData *t, const bool *reduce,
                         int64_t **outer, int64_t *nouter, int64_t **inner, int64_t *ninner);

/* Legalization (nn_util.c): small TIR-building helpers.  Statistics and
 * sums are kept in float64 (a T.alloc_buffer of float64, "acc"), as the
 * kernels accumulate in double; values convert to the output dtype at the
 * store. */
IrDType op_nn_f64_type(void);
IrPrimExpr *op_nn_lit(IrCtx *ctx, IrDType t, double v);     /* a literal of dtype t */
IrPrimExpr *op_nn_index(IrCtx *ctx, int64_t v);             /* an int64 literal */
IrPrimExpr *op_nn_to(IrCtx *ctx, IrDType t, IrPrimExpr *e); /* e as t (no-op if it is) */
IrPrimExpr *op_nn_f64(IrCtx *ctx, IrPrimExpr *e);           /* e as float64 */
/* The input buffer of argument i, or NULL (the caller aborts) when its
 * struct info is not a tensor of known shape. */
IrBuffer *op_nn_input(OpPrim *p, const IrExpr *call, int i, const char *name);
int op_nn_axis_of(int64_t axis, int ndim); /* in [0, ndim) from a negative one, or -1 */
IrPrimExpr *op_nn_load64(OpPrim *p, IrBuffer *x, IrPrimExpr **idx); /* x[idx] as float64 */
/* A one-argument intrinsic ("tir.exp", ...) of dtype t. */
IrPrimExpr *op_nn_intrinsic(IrCtx *ctx, IrDType t, const char *name, IrPrimExpr *a);
/* Index arithmetic that folds literals (x + 0, x * 1, 2 * 3), so the
 * generated loops read as one would write them. */
IrPrimExpr *op_nn_add(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b);
IrPrimExpr *op_nn_sub(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b);
IrPrimExpr *op_nn_mul(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b);
IrPrimExpr *op_nn_floordiv(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b);
/* a && b, where a NULL condition is "true" (b alone). */
IrPrimExpr *op_nn_and(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b);
/* Statements: a sequence of n, nested sequences spliced in (the array
 * is copied; n == 1 gives the statement itself), "if cond: then_" (then_
 * alone when cond is NULL). */
IrStmt *op_nn_seq(OpPrim *p, IrStmt **stmts, int n);
IrStmt *op_nn_if(OpPrim *p, IrPrimExpr *cond, IrStmt *then_);
/* A buffer of n accumulators, float64 (op_nn_acc_new) or of dtype t, and
 * acc[k] read and written (converted to acc's dtype). */
IrBuffer *op_nn_acc_new(OpPrim *p, int n);
IrBuffer *op_nn_acc_typed(OpPrim *p, int n, IrDType t);
IrPrimExpr *op_nn_acc(OpPrim *p, IrBuffer *acc, int k);
IrStmt *op_nn_acc_set(OpPrim *p, IrBuffer *acc, int k, IrPrimExpr *v);
/* acc[k] = acc[k] kind v: a running sum (IR_PE_ADD), max (IR_PE_MAX), ... */
IrStmt *op_nn_acc_fold(OpPrim *p, IrBuffer *acc, int k, IrPrimKind kind, IrPrimExpr *v);
/* acc[k] = (the sum of term over a loop nest) / count, as three
 * statements into st: acc[k] = 0, the nest (whose body, at slot, it sets
 * to add term), the division. */
void op_nn_acc_mean(OpPrim *p, IrBuffer *acc, int k, IrStmt *nest, IrStmt **slot, IrPrimExpr *term,
                    IrPrimExpr *count, IrStmt **st);
/* The variance step of the norms (norm.c): op_nn_acc_mean
 * of (v - acc[0])^2, v the element read in the nest and acc[0] the mean
 * already computed. */
void op_nn_acc_variance(OpPrim *p, IrBuffer *acc, int k, IrStmt *nest, IrStmt **slot, IrPrimExpr *v,
                        IrPrimExpr *count, IrStmt **st);
/* A loop nest (not appended) over the dims d of shape with pick[d] ==
 * want, outermost first; full[d] gets the loop var of each such dim (the
 * other entries are left as they are).  Returns the slot of the innermost
 * body; *nest gets the outermost statement (the slot itself when no dim is
 * picked). */
IrStmt **op_nn_nest_dims(OpPrim *p, IrPrimExpr **shape, int ndim, const bool *pick, bool want,
                         IrPrimExpr **full, IrStmt **nest);
/* A copy of an index array of n entries (arena). */
IrPrimExpr **op_nn_index_copy(IrCtx *ctx, IrPrimExpr **idx, int n);

/* Sums of products (conv2d, matmul) of operands of dtypes a and b stored
 * as out.  op_nn_sum_type: what the generic lowering sums in: float64, or,
 * when a, b and out are all integers (not bool), int32 for an out of at
 * most 32 bits and int64 otherwise.  Integer sums wrap, and modulo 2^bits
 * of out every sum at least that wide stores the same value, so the
 * int32 sum of int8 products is exact where the result is (no float: an
 * int8 model runs on a core without an FPU).  op_nn_tile_type: what the
 * register tiles (gemm.c, conv_gemm.c, conv_dw.c) sum in: float32 when a,
 * b and out are float32, the integer sum type for integers, IR_VOID (no
 * tiles) otherwise. */
IrDType op_nn_sum_type(IrDType a, IrDType b, IrDType out);
bool op_nn_is_integer(IrDType t); /* int or uint (not bool), one lane */
/* A term a * b of such a sum, each factor converted to the sum's dtype t;
 * for integers the product wraps (op_prim_wrapping) unless it cannot
 * overflow t (int8 x int8 into int32: a plain product, which gcc turns
 * into widening vector multiplies). */
IrPrimExpr *op_nn_product(IrCtx *ctx, IrDType t, IrPrimExpr *a, IrPrimExpr *b);
/* acc + term in t, integers wrapping: a sum past int32 stores what the
 * kernels' int64 sum wraps to, with no undefined signed overflow in C. */
IrPrimExpr *op_nn_sum_add(IrCtx *ctx, IrDType t, IrPrimExpr *acc, IrPrimExpr *term);
IrDType op_nn_tile_type(IrDType a, IrDType b, IrDType out);

/* A float32 reduction (sum or max) of n values, n symbolic or not, that
 * a C compiler vectorizes: OP_NN_LANES running values, value i folded
 * into lane i % OP_NN_LANES for the whole chunks of n, then the lanes
 * folded in order into result[slot], then the values past the last
 * chunk.  A float32 sum is what TVM's legalized reductions compute; the
 * order differs from a row-major walk only within a sum's rounding
 * error (a max is exact in any order).  The C compiler cannot reorder a
 * float sum itself, so without the lanes the loop stays scalar. */
enum { OP_NN_LANES = 16 }; /* one AVX-512 vector of float32 */
typedef struct {
  IrPrimKind kind;   /* IR_PE_ADD or IR_PE_MAX */
  IrBuffer *lanes;   /* float32 [OP_NN_LANES] (op_nn_lanes_new) */
  IrBuffer *result;  /* float32, the reduction is stored at [slot] */
  int slot;
  void *env;         /* passed to load */
  /* value i of the reduction (converted to float32 as it is folded) */
  IrPrimExpr *(*load)(OpPrim *p, void *env, IrPrimExpr *i);
} OpNnLanes;
IrBuffer *op_nn_lanes_new(OpPrim *p, const char *name, int n); /* float32 [n] */
IrStmt *op_nn_lanes_reduce(OpPrim *p, const OpNnLanes *l, IrPrimExpr *n);
IrPrimExpr *op_nn_lanes_result(OpPrim *p, const OpNnLanes *l); /* result[slot] */

/* gemm.c: the register-tiled schedule of a product
 * C[i, j] = sum over k of A[i, k] * B[k, j] with m rows (symbolic or not)
 * and static n columns and k terms (both at least 1), summed in sum (the
 * op_nn_tile_type of the operands: float32, or int32 / int64 for
 * integers, each factor converted to it).  The callbacks read A and B and
 * store C (a value of dtype sum) at the caller's buffers and indices. */
typedef struct {
  IrPrimExpr *m; /* rows */
  int64_t n, k;  /* columns, terms of each sum */
  void *env;     /* passed to the callbacks */
  IrPrimExpr *(*load_a)(OpPrim *p, void *env, IrPrimExpr *row, IrPrimExpr *k);
  IrPrimExpr *(*load_b)(OpPrim *p, void *env, IrPrimExpr *k, IrPrimExpr *col);
  IrStmt *(*store_c)(OpPrim *p, void *env, IrPrimExpr *row, IrPrimExpr *col, IrPrimExpr *v);
  /* NULL, or the condition that term k of column col is read (a term
   * outside it counts 0: conv2d's padding); NULL from it: always */
  IrPrimExpr *(*guard)(OpPrim *p, void *env, IrPrimExpr *k, IrPrimExpr *col);
  IrBuffer *acc; /* set by op_nn_gemm: the tile of sums */
  /* NULL, or where the sums start: C[i, j] = load_c(i, j) + sum ... (a
   * product split along k); NULL: 0 */
  IrPrimExpr *(*load_c)(OpPrim *p, void *env, IrPrimExpr *row, IrPrimExpr *col);
  IrDType sum;  /* the dtype of the sums and of the tile */
  int64_t cols; /* columns of a tile: op_nn_gemm_cols of B's dtype */
  /* set by gemm.c, NULL before: the packed panel of B the tiles of a
   * column block read (gemm.c's pack_panel) */
  IrBuffer *panel;
} Gemm;
/* Columns of gemm.c's register tile over a B of dtype b (one 64-byte
 * vector: 16 float32, 64 int8). */
int64_t op_nn_gemm_cols(const OpLegalize *lz, IrDType b);
/* The statements computing all of C (NULL when m is literally 0). */
IrStmt *op_nn_gemm(OpPrim *p, Gemm *g);
/* sums[i, j] += sum over k of A[i, k] * B[k, j] for all of C as one
 * call of rt/'s kernel (sums: a buffer [m, n] of dtype sum, row-major),
 * which keeps its 8-row blocks over all the columns, so no tile
 * initializes or copies sums: conv_gemm.c's chunks after the first add
 * into their partial sums in place.  NULL when [opt] kernels is off or
 * the operands do not fit the kernel (gemm.c's kernel_sums); g->acc,
 * g->store_c and g->load_c are not used. */
IrStmt *op_nn_gemm_into(OpPrim *p, const Gemm *g, IrBuffer *sums);
/* The same with the column blocks outermost over the whole row blocks:
 * each panel of B (k x 16 floats) is read from cache by every row block,
 * rather than all of B streaming once per row block (a product whose B
 * outgrows the cache: a transformer's weights). */
IrStmt *op_nn_gemm_columns_outer(OpPrim *p, Gemm *g);
/* An activation entry's .data: y = f(x) elementwise, x's struct info.
 * p holds the op's numeric attributes in parameter order (leakyrelu's
 * alpha; softplus's beta, threshold), each its default when absent. */
enum { OP_NN_ACT_PARAMS = 2 };
typedef struct {
  const char *name;                             /* prim_func name hint; output T_<name> */
  double (*kernel)(double x, const double *p);  /* the reference, in double */
  int64_t (*kernel_int)(int64_t x);             /* on ints; NULL: floats only */
  /* f in TIR: x and the result of dtype t, computed as the kernel does */
  IrPrimExpr *(*lower)(IrCtx *ctx, IrDType t, IrPrimExpr *x, const double *p);
} NnActivation;
/* nn.c: an activation call's numeric attributes into p[OP_NN_ACT_PARAMS]
 * (inference has checked that each is a number). */
void op_nn_activation_params(const IrExpr *call, double *p);

/* norm.c: the norms' hooks.  layer_norm's inference is rms_norm's too;
 * group_norm and instance_norm share the channel norms' inference, and
 * those two and rms_norm share a kernel and a lowering (whose body the
 * five norms share). */
IrSInfo *op_nn_infer_layer_norm(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_nn_eval_layer_norm(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_nn_legalize_layer_norm(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_nn_infer_batch_norm(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_nn_eval_batch_norm(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_nn_legalize_batch_norm(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_nn_infer_channel_norm(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_nn_eval_norm(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_nn_legalize_norm(OpLegalize *lz, const OpSite *s, IrSInfo *result);

/* loss.c: the hooks of nll_loss and cross_entropy_with_logits. */
IrSInfo *op_nn_infer_nll_loss(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_nn_eval_nll_loss(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_nn_legalize_nll_loss(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_nn_infer_cross_entropy(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_nn_eval_cross_entropy(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_nn_legalize_cross_entropy(OpLegalize *lz, const OpSite *s, IrSInfo *result);

/* attention.c: the hooks of attention, attention_bias, attention_var_len. */
IrSInfo *op_nn_infer_attention(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_nn_eval_attention(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_nn_legalize_attention(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_nn_infer_attention_var_len(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_nn_eval_attention_var_len(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_nn_legalize_attention_var_len(OpLegalize *lz, const OpSite *s, IrSInfo *result);

/* A window op's entry .data (the convolutions and the pools): what it
 * computes over how many spatial axes, and its prim_func name. */
typedef enum { NN_WIN_CONV, NN_WIN_CONV_T, NN_WIN_MAX, NN_WIN_AVG, NN_WIN_ADAPTIVE } NnWindowKind;
typedef struct {
  NnWindowKind kind;
  int nsp; /* 1, 2 or 3 */
  const char *name;
} NnWindow;

/* conv.c: the hooks of the convolutions; pool.c: the pools'.  Their
 * entries are nn.c's. */
IrSInfo *op_nn_infer_conv(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_nn_eval_conv(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_nn_legalize_conv(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_nn_infer_pool(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_nn_eval_pool(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_nn_legalize_pool(OpLegalize *lz, const OpSite *s, IrSInfo *result);
Value *op_nn_eval_adaptive_pool(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_nn_legalize_adaptive_pool(OpLegalize *lz, const OpSite *s, IrSInfo *result);

#endif
