/*
 * manip_int.h - internals shared by manip.c (the table, the attribute
 * readers and the helpers of every family) and the family files, each
 * with its ops' inference, kernels and lowerings: manip_shape.c,
 * manip_join.c, manip_copy.c, manip_index.c, manip_layout.c and
 * manip_extra.c; no other file includes it.  Attribute reading and validation live here
 * once, so inference, the kernels and the lowerings read every call the
 * same way.
 */
#ifndef RXC_MANIP_INT_H
#define RXC_MANIP_INT_H

#include "op.h"
#include "tir_build.h"

enum {
  MAX_DIMS = 64, /* rank limit of the kernels' index arrays */
};

/* No dim of a tensor that fits in memory reaches this: a slice index of
 * this magnitude (frontends write INT64_MAX for "to the end") is past an
 * end of any axis. */
#define MANIP_HUGE_INDEX (INT64_C(1) << 62)

/* Small helpers of manip_index.c and manip_extra.c: an int64 literal, an
 * array of n dims (arena, never of size 0). */
static inline IrPrimExpr *
op_manip_lit(IrCtx *ctx, int64_t v)
{
  return ir_prim_int(ctx, IR_I64, v);
}

static inline IrPrimExpr **
op_manip_dims(IrCtx *ctx, int n)
{
  return ir_alloc(ctx, sizeof(IrPrimExpr *) * (size_t)(n ? n : 1));
}

/* The attributes of R.strided_slice, validated against a rank. */
typedef struct {
  int n;          /* sliced axes */
  int *axes;      /* normalized, distinct */
  int64_t *begin; /* as written (negative counts from the end) */
  int64_t *end;
  int64_t *strides; /* never 0 */
  bool inbound;     /* assume_inbound=True: begin/end need no clamping */
} SliceAttrs;

/* R.nn.pad's modes (TVM's pad_mode strings). */
typedef enum { PAD_CONSTANT, PAD_REFLECT, PAD_REPLICATE, PAD_CIRCULAR } PadMode;

/* The attributes of R.nn.pad, validated against a rank (-1: unknown). */
typedef struct {
  int n;          /* axes: pad_width holds 2 * n values */
  int64_t *width; /* before, after of each axis; never negative */
  PadMode mode;
  double value; /* constant mode's pad_value */
} PadAttrs;

/* manip.c: attributes and axes (each false after an error at the site) */
bool op_manip_attr_ints(const OpSite *s, const char *name, bool allow_none, int64_t **out, int *n);
bool op_manip_norm_axis(const OpSite *s, int64_t axis, int ndim, int *out);
bool op_manip_norm_axes(const OpSite *s, const int64_t *axes, int n, int ndim, int **out);
bool op_manip_axis_attr(const OpSite *s, int ndim, int *axis, bool *none);
bool op_manip_permutation(const OpSite *s, int ndim, int **perm);
int op_manip_take_mode(const OpSite *s);
bool op_manip_slice_attrs(const OpSite *s, int ndim, SliceAttrs *sa);
uint64_t op_manip_stride_step(int64_t stride);
bool op_manip_slice_axis(int64_t n, int64_t begin, int64_t end, int64_t stride, bool inbound,
                         int64_t *start, int64_t *len);
bool op_manip_expand_mask(const OpSite *s, int ndim, int *out_ndim, bool **mask);
bool op_manip_tile_repeats(const OpSite *s, int64_t **reps, int *n);
bool op_manip_repeat_count(const OpSite *s, int64_t *count);
bool op_manip_one_hot_attrs(const OpSite *s, int ndim, int64_t *depth, int *axis);
bool op_manip_pad_attrs(const OpSite *s, int ndim, PadAttrs *pa);
/* Whether an axis of extent size can be padded by before and after in
 * mode (an error at s when not). */
bool op_manip_pad_fits(const OpSite *s, PadMode mode, int axis, int64_t size, int64_t before,
                       int64_t after);
/* The input index that padded position i (counted from the input's
 * start, so negative before it) reads along an axis of extent size, or -1
 * for constant mode's value; size > 0 and the pads fit. */
int64_t op_manip_pad_source(PadMode mode, int64_t i, int64_t size);
/* R.nn.pixel_shuffle's upscale_factor (positive). */
bool op_manip_upscale_factor(const OpSite *s, int64_t *r);
/* A tensor argument's struct info: R.Object counts as a tensor of unknown
 * ndim and dtype, a shape that contradicts ndim as unknown; NULL after an
 * error for any other kind. */
IrSInfo *op_manip_tensor_arg(const OpSite *s, IrSInfo *si, const char *what);
/* The rank of the call's first argument (-1: not a tensor of known rank). */
int op_manip_arg_rank(const OpSite *s);

/* manip_index.c: the index ops' three facets */
IrSInfo *op_manip_infer_gather_elements(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_gather_elements(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_gather_elements(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_gather_nd(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_gather_nd(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_gather_nd(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_scatter_elements(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_scatter_elements(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_scatter_elements(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_scatter_nd(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_scatter_nd(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_scatter_nd(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_index_tensor(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_index_tensor(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_index_tensor(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_index_put(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_index_put(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_index_put(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_slice_scatter(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_slice_scatter(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_slice_scatter(OpLegalize *lz, const OpSite *s, IrSInfo *result);

/* manip_copy.c: a guarded store, for pad and layout_transform */
IrStmt *op_manip_store_or_fill(OpPrim *p, IrPrimExpr *cond, IrStmt *store, IrBuffer *out,
                               IrPrimExpr **o, const double *fill);

/* manip_layout.c: layout_transform */
IrSInfo *op_manip_infer_layout_transform(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_layout_transform(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_layout_transform(OpLegalize *lz, const OpSite *s, IrSInfo *result);

/* manip_extra.c: reverse_sequence, meshgrid, the collapse_sums,
 * dynamic_strided_slice, memory.view */
IrSInfo *op_manip_infer_reverse_sequence(OpInfer *in, const OpSite *s, IrSInfo **args);
IrSInfo *op_manip_infer_meshgrid(OpInfer *in, const OpSite *s, IrSInfo **args);
IrSInfo *op_manip_infer_collapse_sum_like(OpInfer *in, const OpSite *s, IrSInfo **args);
IrSInfo *op_manip_infer_collapse_sum_to(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_reverse_sequence(OpEval *ev, const OpSite *s, Value **args);
Value *op_manip_eval_meshgrid(OpEval *ev, const OpSite *s, Value **args);
Value *op_manip_eval_collapse_sum(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_reverse_sequence(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrExpr *op_manip_legalize_meshgrid(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrExpr *op_manip_legalize_collapse_sum(OpLegalize *lz, const OpSite *s, IrSInfo *result);
/* R.strided_slice with a symbolic begin or end (struct info only) */
bool op_manip_slice_is_symbolic(const IrExpr *call);
IrSInfo *op_manip_infer_symbolic_slice(OpInfer *in, const OpSite *s, const IrSInfo *x);
IrSInfo *op_manip_infer_dynamic_strided_slice(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_dynamic_strided_slice(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_dynamic_strided_slice(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_view(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_view(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_view(OpLegalize *lz, const OpSite *s, IrSInfo *result);

/* manip.c: the kernels' helpers.  A value's tensor (NULL after an error
 * when it is not one, or has more than MAX_DIMS dims); a new tensor (NULL
 * after an error). */
IrTensorData *op_manip_tensor_val(const OpSite *s, Value *v, const char *what);
IrTensorData *op_manip_new_tensor(const OpSite *s, IrDType t, int ndim, const int64_t *shape);
void op_manip_copy_elem(IrTensorData *dst, int64_t di, const IrTensorData *src, int64_t si);

/* manip.c: what the families of manip_shape.c, manip_join.c and
 * manip_copy.c share: inference's arithmetic, the kernels' gather through
 * an index map, the lowerings' folded index arithmetic and gather. */
typedef struct {
  const IrTensorData *x;
  int off;      /* output rank minus x's */
} BroadcastMap; /* broadcast_to's and tile's map: x's index from the output's */
/* For each output index, map() names the input index it copies (of ndim
 * dims, the input's rank). */
typedef void (*IndexMap)(const void *env, int ndim, const int64_t *out_idx, int64_t *in_idx);
/* The input index read for output index o; NULL to give up. */
typedef IrPrimExpr **(*IndexFn)(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o,
                                const void *env);
/* a op b, with literals folded and the identities x+0, x-0, x*1, x//1,
 * x%1 and x*0 applied. */
IrPrimExpr *op_manip_arith(IrCtx *ctx, IrPrimKind k, IrPrimExpr *a, IrPrimExpr *b);
/* t as a tensor value (NULL stays NULL). */
Value *op_manip_as_value(const OpSite *s, IrTensorData *t);
/* a kind b, unsimplified. */
IrPrimExpr *op_manip_bin(OpInfer *in, IrPrimKind kind, IrPrimExpr *a, IrPrimExpr *b);
/* A new tensor of x's dtype and the given shape holding x[map(i)] at
 * every index i; NULL after an error. */
Value *op_manip_gather_new(const OpSite *s, const IrTensorData *x, int ndim, const int64_t *shape,
                           IndexMap map, const void *env);
/* Is e the literal v? */
bool op_manip_is_lit(const IrPrimExpr *e, int64_t v);
/* A tensor of the same dtype and vdevice as x. */
IrSInfo *op_manip_like(OpInfer *in, const IrSInfo *x, IrPrimExpr **shape, int ndim);
/* op_prim_open with inputs A (the call's first argument) and, when b is
 * not NULL, B (its second), and the output T_<name>. */
bool op_manip_prim_open(OpLegalize *lz, OpPrim *p, const OpSite *s, IrSInfo *result,
                        const char *name, IrBuffer **a, IrBuffer **b, IrBuffer **out);
/* The prim_func "name" with input x = the call's first argument and one
 * output T_<name> of struct info result, copying x[map(o)] to out[o];
 * NULL (nothing made) when x's or the result's shape is not known. */
IrExpr *op_manip_lower_gather(OpLegalize *lz, const OpSite *s, IrSInfo *result, const char *name,
                              IndexFn map, const void *env);
/* The simplified product of n dims, leaving out index skip (-1: none). */
IrPrimExpr *op_manip_product(OpInfer *in, IrPrimExpr **d, int n, int skip);
/* e simplified (as it is without an analyzer). */
IrPrimExpr *op_manip_simp(OpInfer *in, IrPrimExpr *e);
/* The index in a shape of row-major flat position flat (which must be
 * below the shape's element count: dim 0 takes no modulo). */
IrPrimExpr **op_manip_unflatten_index(IrCtx *ctx, IrPrimExpr *flat, IrPrimExpr **dims, int n);

/* The hooks of the manipulation families (legalize NULL: the call stays as
 * it is); their entries are manip.c's. */
/* manip_shape.c */
IrSInfo *op_manip_infer_permute_dims(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_permute_dims(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_permute_dims(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_reshape(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_reshape(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_reshape(OpLegalize *lz, const OpSite *s, IrSInfo *result);
/* flatten and batch_flatten (lowered by reshape's hook) */
IrSInfo *op_manip_infer_flatten(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_flatten(OpEval *ev, const OpSite *s, Value **args);
IrSInfo *op_manip_infer_expand_dims(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_expand_dims(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_expand_dims(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_squeeze(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_squeeze(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_squeeze(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_broadcast_to(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_broadcast_to(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_broadcast_to(OpLegalize *lz, const OpSite *s, IrSInfo *result);
/* manip_join.c */
IrSInfo *op_manip_infer_concat(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_concat(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_concat(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_split(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_split(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_split(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_stack(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_stack(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_stack(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_strided_slice(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_strided_slice(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_strided_slice(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_take(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_take(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_take(OpLegalize *lz, const OpSite *s, IrSInfo *result);
/* manip_copy.c */
IrSInfo *op_manip_infer_repeat(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_repeat(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_repeat(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_tile(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_tile(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_tile(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_flip(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_flip(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_flip(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_one_hot(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_one_hot(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_one_hot(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_pad(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_pad(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_pad(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_manip_infer_pixel_shuffle(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_manip_eval_pixel_shuffle(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_manip_legalize_pixel_shuffle(OpLegalize *lz, const OpSite *s, IrSInfo *result);

#endif
