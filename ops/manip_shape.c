/*
 * manip_shape.c - the manipulation ops that give their one input a new shape or order:
 * permute_dims, reshape, flatten, batch_flatten, expand_dims, squeeze,
 * broadcast_to.
 * Each op's inference, reference kernel and lowering sit together here;
 * their entries are in manip.c's table, the helpers they share with the
 * other manipulation families in manip.c (manip_int.h).
 */
#include <string.h>

#include "manip_int.h"
#include "nn_int.h"
#include "tir_build.h"

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

/* The permutation of R.permute_dims: axes None reverses the dims. */
bool
op_manip_permutation(const OpSite *s, int ndim, int **perm)
{
  int64_t *axes;
  int n;
  if (!op_manip_attr_ints(s, "axes", true, &axes, &n))
    return false;
  if (n < 0) {
    *perm = ir_alloc(s->ctx, sizeof(int) * (size_t)(ndim ? ndim : 1));
    for (int i = 0; i < ndim; i++)
      (*perm)[i] = ndim - 1 - i;
    return true;
  }
  if (n != ndim)
    return op_fail(s, "axes has %d entries for a tensor of %d dimensions", n, ndim);
  return op_manip_norm_axes(s, axes, n, ndim, perm);
}

/* "(2, n)", "(4,)", "()" */
static const char *
shape_text(IrCtx *ctx, IrPrimExpr **d, int n)
{
  IrBuf b = {0};
  ir_buf_puts(&b, "(");
  for (int i = 0; i < n; i++) {
    if (i)
      ir_buf_puts(&b, ", ");
    ir_prim_expr_print(d[i], &b);
  }
  ir_buf_puts(&b, n == 1 ? ",)" : ")");
  char *s = ir_strdup(ctx, b.data, b.len);
  ir_buf_free(&b);
  return s;
}

/* The values of a shape argument: from an R.shape literal, else from its
 * struct info (values NULL when unknown, *n -1 when even the length is). */
static bool
shape_arg(const OpSite *s, int i, IrSInfo **args, IrPrimExpr ***values, int *n)
{
  const IrExpr *e = s->call->u.call.args[i];
  IrSInfo *si = args[i];
  *values = NULL;
  *n = -1;
  if (e->kind == IR_EX_SHAPE) {
    *values = e->u.shape.values;
    *n = e->u.shape.n;
  } else if (si && si->kind == IR_SI_SHAPE) {
    *n = si->u.shape.ndim;
    if (*n >= 0 && ir_sinfo_shape_len(si) == *n)
      *values = si->u.shape.values;
  } else if (si && si->kind != IR_SI_OBJECT) {
    return op_fail(s, "shape must be a shape, but it is %s", op_sinfo_text(s->ctx, si));
  }
  return true;
}

IrSInfo *
op_manip_infer_permute_dims(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "x");
  int *perm;
  if (!x)
    return NULL;
  int ndim = x->u.tensor.ndim;
  if (ndim < 0) { /* the axes, when given, still tell the rank */
    int64_t *axes;
    int n;
    return op_manip_attr_ints(s, "axes", true, &axes, &n) ? op_manip_like(in, x, NULL, n) : NULL;
  }
  if (!op_manip_permutation(s, ndim, &perm))
    return NULL;
  if (!x->u.tensor.shape)
    return x;
  IrPrimExpr **out = op_manip_dims(in->ctx, ndim);
  for (int i = 0; i < ndim; i++)
    out[i] = x->u.tensor.shape[perm[i]];
  return op_manip_like(in, x, out, ndim);
}

/* Checks the literal entries of a new shape: at most one -1 (its index in
 * *infer_at, else -1), no other negative value. */
static bool
check_new_shape(const OpSite *s, IrPrimExpr **v, int n, int *infer_at)
{
  *infer_at = -1;
  for (int i = 0; i < n; i++) {
    int64_t c;
    if (!ir_prim_is_int(v[i], &c) || c >= 0)
      continue;
    if (c != -1)
      return op_fail(s, "dimension %d of the new shape is negative (%lld)", i, (long long)c);
    if (*infer_at >= 0)
      return op_fail(s, "the new shape has more than one -1");
    *infer_at = i;
  }
  return true;
}

IrSInfo *
op_manip_infer_reshape(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "x");
  IrPrimExpr **nv;
  int nn, at;
  if (!x || !shape_arg(s, 1, args, &nv, &nn))
    return NULL;
  if (!nv)
    return op_manip_like(in, x, NULL, nn);
  if (!check_new_shape(s, nv, nn, &at))
    return NULL;
  IrPrimExpr **xd = x->u.tensor.shape;
  if (!xd)
    return op_manip_like(in, x, at >= 0 ? NULL : nv, nn);
  int xn = x->u.tensor.ndim;
  IrPrimExpr *old = op_manip_product(in, xd, xn, -1);
  IrPrimExpr **out = op_manip_dims(in->ctx, nn);
  memcpy(out, nv, sizeof(IrPrimExpr *) * (size_t)nn);
  if (at >= 0) {
    IrPrimExpr *rest = op_manip_product(in, nv, nn, at);
    int64_t r;
    if (ir_prim_is_int(rest, &r) && r == 0)
      return op_fail_null(s, "cannot infer the -1 of %s: the other dimensions hold no element",
                          shape_text(in->ctx, nv, nn));
    op_assume(in, op_manip_bin(in, IR_PE_NE, rest,
                               op_manip_lit(in->ctx, 0))); /* the kernel refuses 0 too */
    out[at] = op_manip_simp(in, op_manip_bin(in, IR_PE_FLOORDIV, old, rest));
  }
  IrPrimExpr *new_count = op_manip_product(in, out, nn, -1);
  if (op_assume_equal(in, old, new_count) != IR_PROVE_FALSE)
    return op_manip_like(in, x, out, nn);
  const char *from = shape_text(in->ctx, xd, xn), *to = shape_text(in->ctx, nv, nn);
  if (at >= 0)
    op_report(s, "cannot reshape %s into %s: %s elements are not a multiple of %s", from, to,
              op_nn_expr_str(in->ctx, old),
              op_nn_expr_str(in->ctx, op_manip_product(in, nv, nn, at)));
  else
    op_report(s, "cannot reshape %s (%s elements) into %s (%s elements)", from,
              op_nn_expr_str(in->ctx, old), to, op_nn_expr_str(in->ctx, new_count));
  return NULL;
}

/* How many leading dims R.flatten (0) or R.nn.batch_flatten (1: N)
 * keeps of an input of rank ndim (-1: unknown); -1 after an error when
 * batch_flatten's has fewer than 2. */
static int
flatten_keep(const OpSite *s, int ndim)
{
  if (s->call->u.call.op->id != IR_OP_BATCH_FLATTEN)
    return 0;
  if (ndim >= 0 && ndim < 2) {
    op_report(s, "data must have at least 2 dimensions, not %d", ndim);
    return -1;
  }
  return 1;
}

/* flatten: (product of the dims); batch_flatten: (N, product of the
 * other dims), a rank 2 staying as it is, as in TVM. */
IrSInfo *
op_manip_infer_flatten(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], s->call->u.call.op->params[0].name);
  int keep = x ? flatten_keep(s, x->u.tensor.ndim) : -1;
  if (keep < 0)
    return NULL;
  int ndim = x->u.tensor.ndim;
  if (keep && ndim == 2)
    return x;
  if (!x->u.tensor.shape)
    return op_manip_like(in, x, NULL, keep + 1);
  IrPrimExpr **out = op_manip_dims(in->ctx, keep + 1);
  memcpy(out, x->u.tensor.shape, sizeof *out * (size_t)keep);
  out[keep] = op_manip_product(in, x->u.tensor.shape + keep, ndim - keep, -1);
  return op_manip_like(in, x, out, keep + 1);
}

/* Marks the new axes of expand_dims in a rank-out_ndim mask (arena). */
bool
op_manip_expand_mask(const OpSite *s, int ndim, int *out_ndim, bool **mask)
{
  int64_t *axes;
  int n, *norm;
  if (!op_manip_attr_ints(s, "axis", false, &axes, &n))
    return false;
  *out_ndim = ndim + n;
  if (!op_manip_norm_axes(s, axes, n, *out_ndim, &norm))
    return false;
  *mask = ir_alloc(s->ctx, (size_t)(*out_ndim ? *out_ndim : 1));
  for (int i = 0; i < n; i++)
    (*mask)[norm[i]] = true;
  return true;
}

IrSInfo *
op_manip_infer_expand_dims(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "x");
  int out_ndim;
  bool *mask;
  if (!x)
    return NULL;
  if (x->u.tensor.ndim < 0) {
    int64_t *axes;
    int n;
    return op_manip_attr_ints(s, "axis", false, &axes, &n) ? op_manip_like(in, x, NULL, -1) : NULL;
  }
  if (!op_manip_expand_mask(s, x->u.tensor.ndim, &out_ndim, &mask))
    return NULL;
  if (!x->u.tensor.shape)
    return op_manip_like(in, x, NULL, out_ndim);
  IrPrimExpr **out = op_manip_dims(in->ctx, out_ndim);
  for (int i = 0, j = 0; i < out_ndim; i++)
    out[i] = mask[i] ? op_manip_lit(in->ctx, 1) : x->u.tensor.shape[j++];
  return op_manip_like(in, x, out, out_ndim);
}

/* squeeze with axis=None: every dim proven to be 1 goes; a dim that may or
 * may not be 1 leaves the rank unknown. */
static IrSInfo *
squeeze_all(OpInfer *in, IrSInfo *x)
{
  int ndim = x->u.tensor.ndim, n = 0;
  IrPrimExpr **out = op_manip_dims(in->ctx, ndim);
  if (!x->u.tensor.shape)
    return op_manip_like(in, x, NULL, -1);
  for (int i = 0; i < ndim; i++) {
    IrProof one = op_prove_equal(in, x->u.tensor.shape[i], op_manip_lit(in->ctx, 1));
    if (one == IR_PROVE_UNKNOWN)
      return op_manip_like(in, x, NULL, -1);
    if (one == IR_PROVE_FALSE)
      out[n++] = x->u.tensor.shape[i];
  }
  return op_manip_like(in, x, out, n);
}

IrSInfo *
op_manip_infer_squeeze(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "x");
  int64_t *axes;
  int n, *norm;
  if (!x || !op_manip_attr_ints(s, "axis", true, &axes, &n))
    return NULL;
  int ndim = x->u.tensor.ndim;
  if (ndim < 0)
    return op_manip_like(in, x, NULL, -1);
  if (n < 0)
    return squeeze_all(in, x);
  if (!op_manip_norm_axes(s, axes, n, ndim, &norm))
    return NULL;
  IrPrimExpr **xd = x->u.tensor.shape;
  if (!xd)
    return op_manip_like(in, x, NULL, ndim - n);
  bool *drop = ir_alloc(in->ctx, (size_t)(ndim ? ndim : 1));
  for (int i = 0; i < n; i++) {
    if (op_assume_equal(in, xd[norm[i]], op_manip_lit(in->ctx, 1)) == IR_PROVE_FALSE)
      return op_fail_null(s, "cannot squeeze axis %d of size %s", norm[i],
                          op_nn_expr_str(in->ctx, xd[norm[i]]));
    drop[norm[i]] = true;
  }
  IrPrimExpr **out = op_manip_dims(in->ctx, ndim);
  int k = 0;
  for (int i = 0; i < ndim; i++)
    if (!drop[i])
      out[k++] = xd[i];
  return op_manip_like(in, x, out, k);
}

IrSInfo *
op_manip_infer_broadcast_to(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "x");
  IrPrimExpr **tv;
  int tn;
  if (!x || !shape_arg(s, 1, args, &tv, &tn))
    return NULL;
  int xn = x->u.tensor.ndim;
  if (xn >= 0 && tn >= 0 && tn < xn)
    return op_fail_null(s, "cannot broadcast a tensor of %d dimensions to %d dimensions", xn, tn);
  if (!tv || !x->u.tensor.shape)
    return op_manip_like(in, x, tv, tn);
  for (int i = 1; i <= xn; i++) {
    IrPrimExpr *xd = x->u.tensor.shape[xn - i], *td = tv[tn - i];
    IrProof one = op_prove_equal(in, xd, op_manip_lit(in->ctx, 1));
    if (one == IR_PROVE_TRUE)
      continue;
    IrProof eq = op_prove_equal(in, xd, td);
    if (eq != IR_PROVE_TRUE && (eq == IR_PROVE_UNKNOWN || one == IR_PROVE_UNKNOWN))
      /* x's dim is 1 or the target's: decided at run time */
      op_assume(in, op_manip_bin(in, IR_PE_OR, op_manip_bin(in, IR_PE_EQ, xd, td),
                                 op_manip_bin(in, IR_PE_EQ, xd, op_manip_lit(in->ctx, 1))));
    if (eq == IR_PROVE_FALSE && one == IR_PROVE_FALSE)
      return op_fail_null(s, "cannot broadcast %s to %s: dimension %d is %s, not 1 or %s",
                          shape_text(in->ctx, x->u.tensor.shape, xn), shape_text(in->ctx, tv, tn),
                          xn - i, op_nn_expr_str(in->ctx, xd), op_nn_expr_str(in->ctx, td));
  }
  return op_manip_like(in, x, tv, tn);
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

/* An output holding x's data unchanged under a new shape. */
static Value *
same_data(const OpSite *s, const IrTensorData *x, int ndim, const int64_t *shape)
{
  IrTensorData *out = op_manip_new_tensor(s, x->dtype, ndim, shape);
  if (out && out->nbytes != x->nbytes)
    return op_fail_null(s, "internal: element counts differ");
  if (out)
    memcpy(out->data, x->data, x->nbytes);
  return op_manip_as_value(s, out);
}

static void
map_permute(const void *env, int ndim, const int64_t *o, int64_t *i)
{
  const int *perm = env;
  for (int d = 0; d < ndim; d++)
    i[perm[d]] = o[d];
}

Value *
op_manip_eval_permute_dims(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "x");
  int *perm;
  int64_t shape[MAX_DIMS];
  if (!x || !op_manip_permutation(s, x->ndim, &perm))
    return NULL;
  for (int d = 0; d < x->ndim; d++)
    shape[d] = x->shape[perm[d]];
  return op_manip_gather_new(s, x, x->ndim, shape, map_permute, perm);
}

Value *
op_manip_eval_reshape(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "x");
  if (!x)
    return NULL;
  if (!args[1] || args[1]->kind != VAL_SHAPE)
    return op_fail_null(s, "shape must be a shape");
  int n = args[1]->u.shape.n, at = -1;
  int64_t *dims = ir_alloc(s->ctx, sizeof(int64_t) * (size_t)(n ? n : 1)), rest = 1;
  memcpy(dims, args[1]->u.shape.dims, sizeof(int64_t) * (size_t)n);
  for (int i = 0; i < n; i++) {
    if (dims[i] == -1 && at < 0)
      at = i;
    else if (dims[i] < 0) {
      return op_fail_null(s, "dimension %d of the new shape is %lld", i, (long long)dims[i]);
    } else if (dims[i] > 0 && rest > INT64_MAX / dims[i])
      rest = INT64_MAX; /* cannot match any real count */
    else
      rest *= dims[i];
  }
  int64_t count = op_numel(x);
  if (at >= 0)
    dims[at] = rest ? count / rest : 0;
  if (at >= 0 ? (rest == 0 || count % rest != 0) : rest != count)
    return op_fail_null(s, "cannot reshape %lld elements into a shape of %lld%s", (long long)count,
                        (long long)rest, at >= 0 ? " times -1 elements" : " elements");
  return same_data(s, x, n, dims);
}

/* flatten and batch_flatten, as their inference. */
Value *
op_manip_eval_flatten(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], s->call->u.call.op->params[0].name);
  int keep = x ? flatten_keep(s, x->ndim) : -1;
  if (keep < 0)
    return NULL;
  int64_t shape[2] = {1, 1};
  for (int d = 0; d < x->ndim; d++)
    shape[d < keep ? d : keep] *= x->shape[d];
  return same_data(s, x, keep + 1, shape);
}

Value *
op_manip_eval_expand_dims(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "x");
  int out_ndim;
  bool *mask;
  if (!x || !op_manip_expand_mask(s, x->ndim, &out_ndim, &mask))
    return NULL;
  int64_t *shape = ir_alloc(s->ctx, sizeof(int64_t) * (size_t)(out_ndim ? out_ndim : 1));
  for (int i = 0, j = 0; i < out_ndim; i++)
    shape[i] = mask[i] ? 1 : x->shape[j++];
  return same_data(s, x, out_ndim, shape);
}

Value *
op_manip_eval_squeeze(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "x");
  int64_t *axes, shape[MAX_DIMS];
  int n, *norm, k = 0;
  bool drop[MAX_DIMS] = {false};
  if (!x || !op_manip_attr_ints(s, "axis", true, &axes, &n))
    return NULL;
  if (n >= 0 && !op_manip_norm_axes(s, axes, n, x->ndim, &norm))
    return NULL;
  for (int i = 0; i < (n < 0 ? x->ndim : n); i++) {
    int a = n < 0 ? i : norm[i];
    if (x->shape[a] != 1 && n >= 0)
      return op_fail_null(s, "cannot squeeze axis %d of size %lld", a, (long long)x->shape[a]);
    drop[a] = x->shape[a] == 1;
  }
  for (int i = 0; i < x->ndim; i++)
    if (!drop[i])
      shape[k++] = x->shape[i];
  return same_data(s, x, k, shape);
}

static void
map_broadcast(const void *env, int ndim, const int64_t *o, int64_t *i)
{
  const BroadcastMap *b = env;
  for (int d = 0; d < ndim; d++)
    i[d] = b->x->shape[d] == 1 ? 0 : o[d + b->off];
}

Value *
op_manip_eval_broadcast_to(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "x");
  if (!x)
    return NULL;
  if (!args[1] || args[1]->kind != VAL_SHAPE || args[1]->u.shape.n > MAX_DIMS)
    return op_fail_null(s, "shape must be a shape of at most %d dimensions", MAX_DIMS);
  int tn = args[1]->u.shape.n;
  const int64_t *td = args[1]->u.shape.dims;
  if (tn < x->ndim)
    return op_fail_null(s, "cannot broadcast a tensor of %d dimensions to %d dimensions", x->ndim,
                        tn);
  for (int d = 0; d < x->ndim; d++) {
    int64_t xd = x->shape[d], t = td[d + tn - x->ndim];
    if (xd != 1 && xd != t)
      return op_fail_null(s, "cannot broadcast dimension %d of size %lld to %lld", d, (long long)xd,
                          (long long)t);
  }
  BroadcastMap b = {x, tn - x->ndim};
  return op_manip_gather_new(s, x, tn, td, map_broadcast, &b);
}

/* ------------------------------------------------------------------ */
/* Lowerings                                                           */
/* ------------------------------------------------------------------ */

/* The row-major flat position of index o in a shape. */
static IrPrimExpr *
flatten_index(IrCtx *ctx, IrPrimExpr **o, IrPrimExpr **dims, int n)
{
  IrPrimExpr *flat = op_manip_lit(ctx, 0);
  for (int d = 0; d < n; d++)
    flat = op_manip_arith(ctx, IR_PE_ADD, op_manip_arith(ctx, IR_PE_MUL, flat, dims[d]), o[d]);
  return flat;
}

/* out[o] = x[perm^-1(o)]: output dim d is input dim perm[d]. */
static IrPrimExpr **
index_permute(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  const int *perm = env;
  IrPrimExpr **xi = op_manip_dims(p->lz->ctx, x->ndim);
  if (out->ndim != x->ndim)
    return NULL;
  for (int d = 0; d < x->ndim; d++)
    xi[perm[d]] = o[d];
  return xi;
}

IrExpr *
op_manip_legalize_permute_dims(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  int ndim = op_manip_arg_rank(s);
  int *perm;
  if (ndim < 0 || !op_manip_permutation(s, ndim, &perm))
    return NULL;
  return op_manip_lower_gather(lz, s, result, "transpose", index_permute, perm);
}

/* Reshape-like ops keep the row-major data: the output's flat position
 * is the input's.  Each index is simplified knowing the loop vars' ranges,
 * so a reshape that splits or joins dims (attention's [64, 256] to
 * [64, 4, 64] and back) reads x[i, 64 j + k] rather than through a
 * floordiv and a floormod of the flat position per element. */
static IrPrimExpr **
index_relayout(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  (void)env;
  IrCtx *ctx = p->lz->ctx;
  IrArith *a = ir_arith_new(ctx);
  for (int d = 0; d < out->ndim; d++) {
    int64_t v;
    ir_arith_bound(a, o[d], 0, ir_prim_is_int(out->shape[d], &v) ? v - 1 : INT64_MAX);
  }
  IrPrimExpr **idx = op_manip_unflatten_index(ctx, flatten_index(ctx, o, out->shape, out->ndim),
                                              x->shape, x->ndim);
  for (int d = 0; d < x->ndim; d++)
    idx[d] = ir_arith_simplify(a, idx[d]);
  return idx;
}

/* reshape, flatten and batch_flatten; a -1 of the new shape is already
 * resolved in the result's struct info. */
IrExpr *
op_manip_legalize_reshape(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  return op_manip_lower_gather(lz, s, result, "reshape", index_relayout, NULL);
}

/* expand_dims and squeeze: x's dims and the output's pair up in order
 * but for the unit dims marked in Units: new ones of the output
 * (expand_dims' mask) or x's dropped ones, read at index 0 (squeeze). */
typedef struct {
  const bool *unit;
  bool of_out; /* unit marks the output's dims, not x's */
} Units;

static IrPrimExpr **
index_units(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  const Units *u = env;
  IrPrimExpr **xi = op_manip_dims(p->lz->ctx, x->ndim);
  int i = 0, j = 0; /* x's dim, the output's */
  while (i < x->ndim || j < out->ndim) {
    if (u->of_out && j < out->ndim && u->unit[j])
      j++;
    else if (!u->of_out && i < x->ndim && u->unit[i])
      xi[i++] = op_manip_lit(p->lz->ctx, 0);
    else if (i < x->ndim && j < out->ndim)
      xi[i++] = o[j++];
    else
      return NULL;
  }
  return xi;
}

IrExpr *
op_manip_legalize_expand_dims(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  int ndim = op_manip_arg_rank(s);
  int out_ndim;
  bool *mask;
  if (ndim < 0 || !op_manip_expand_mask(s, ndim, &out_ndim, &mask))
    return NULL;
  Units u = {mask, true};
  return op_manip_lower_gather(lz, s, result, "expand_dims", index_units, &u);
}

/* The axes squeeze drops: those named, or with axis=None the dims that
 * are the literal 1.  When that does not match the result's rank (a
 * symbolic dim inference proved to be 1), the data is relaid instead. */
IrExpr *
op_manip_legalize_squeeze(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  const IrSInfo *x = s->call->u.call.args[0]->sinfo;
  int64_t *axes;
  int n, *norm;
  if (!x || x->kind != IR_SI_TENSOR || !x->u.tensor.shape || x->u.tensor.ndim < 0 ||
      result->kind != IR_SI_TENSOR || !op_manip_attr_ints(s, "axis", true, &axes, &n))
    return NULL;
  int ndim = x->u.tensor.ndim, kept = ndim;
  bool *drop = ir_alloc(lz->ctx, (size_t)(ndim ? ndim : 1));
  if (n >= 0 && !op_manip_norm_axes(s, axes, n, ndim, &norm))
    return NULL;
  for (int i = 0; i < (n < 0 ? ndim : n); i++) {
    int a = n < 0 ? i : norm[i];
    drop[a] = n >= 0 || op_manip_is_lit(x->u.tensor.shape[a], 1);
    kept -= drop[a];
  }
  if (kept != result->u.tensor.ndim)
    return op_manip_lower_gather(lz, s, result, "squeeze", index_relayout, NULL);
  Units u = {drop, false};
  return op_manip_lower_gather(lz, s, result, "squeeze", index_units, &u);
}

/* broadcast_to: x's dims align with the output's last ones; a dim of
 * size 1 reads index 0.  A symbolic dim of x that may be 1 or the
 * output's dim decides at run time, as the kernel does. */
static IrPrimExpr **
index_broadcast(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  (void)env;
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim);
  int lead = out->ndim - x->ndim;
  if (lead < 0)
    return NULL;
  for (int d = 0; d < x->ndim; d++) {
    IrPrimExpr *xd = x->shape[d], *od = out->shape[lead + d];
    if (op_manip_is_lit(xd, 1))
      xi[d] = op_manip_lit(ctx, 0);
    else if (ir_prim_is_int(xd, NULL) || ir_prim_expr_equal(xd, od))
      xi[d] = o[lead + d]; /* x's dim is not 1, so it is the output's */
    else
      xi[d] = ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_EQ, xd, op_manip_lit(ctx, 1)),
                             op_manip_lit(ctx, 0), o[lead + d]);
  }
  return xi;
}

IrExpr *
op_manip_legalize_broadcast_to(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  return op_manip_lower_gather(lz, s, result, "broadcast_to", index_broadcast, NULL);
}
