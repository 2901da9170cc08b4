/*
 * manip.c - tensor manipulation ops: permute_dims, reshape, flatten,
 * expand_dims, squeeze, concat, split, strided_slice, take, broadcast_to,
 * stack, repeat, tile, flip, one_hot, and the data-movement ops of nn:
 * batch_flatten, pad, pixel_shuffle; the entries of the index ops
 * (gather_elements, gather_nd, index_tensor, index_put, scatter_elements,
 * scatter_nd, slice_scatter), whose hooks are in manip_index.c, and of
 * dynamic_strided_slice, memory.view, reverse_sequence, meshgrid and the
 * collapse_sums (manip_extra.c), and of layout_transform (manip_layout.c).
 *
 * Inference works on symbolic dims: results are built with ir_prim_bin and
 * put in canonical form by ir_arith_simplify, and a check fails only when
 * ir/arith proves it false (an unknown outcome is allowed, as in TVM; the
 * kernel then checks the concrete values).  Unknown input struct info gives
 * the most precise result still possible: a tensor of known ndim without a
 * shape, or of unknown ndim.
 *
 * This file holds inference, the ops' entries and the attribute helpers that
 * the kernels (manip_eval.c) and the lowerings (manip_legalize.c) share
 * through manip_int.h.
 */
#include <string.h>

#include "manip_int.h"
#include "tir_build.h"

/* ------------------------------------------------------------------ */
/* Attributes and axes (shared by inference and kernels)               */
/* ------------------------------------------------------------------ */

static bool
attr_int_item(const IrAttr *a, int64_t *out)
{
  if (a->kind == IR_AT_INT) {
    *out = a->u.i;
    return true;
  }
  return a->kind == IR_AT_PRIM && ir_prim_is_int(a->u.prim, out);
}

/* Reads an attribute holding an int or a list of ints into *out (arena),
 * *n entries.  None (or absent) gives *n = -1 when allow_none; otherwise it
 * is an error, as is any other value.  False after an error. */
bool
op_manip_attr_ints(const OpSite *s, const IrExpr *call, const char *name, bool allow_none,
                   int64_t **out, int *n)
{
  const IrAttr *a = op_attr(call, name);
  *out = NULL;
  *n = -1;
  if (!a || a->kind == IR_AT_NONE) {
    if (!allow_none)
      op_report(s, "attribute '%s' is required", name);
    return allow_none;
  }
  int count = a->kind == IR_AT_LIST ? a->u.list.n : 1;
  *out = ir_alloc(s->ctx, sizeof(int64_t) * (size_t)(count ? count : 1));
  for (int i = 0; i < count; i++) {
    const IrAttr *item = a->kind == IR_AT_LIST ? a->u.list.items[i] : a;
    if (!attr_int_item(item, &(*out)[i]))
      return op_fail(s, "attribute '%s' must be an integer or a list of integers", name);
  }
  *n = count;
  return true;
}

/* One axis in [0, ndim) from a possibly negative one (op_axis's rule and
 * message, for kernels too). */
bool
op_manip_norm_axis(const OpSite *s, int64_t axis, int ndim, int *out)
{
  if (axis < -(int64_t)ndim || axis >= ndim)
    return op_fail(s, "axis %lld is out of range for a tensor of rank %d", (long long)axis, ndim);
  *out = (int)(axis < 0 ? axis + ndim : axis);
  return true;
}

/* Normalizes n axes into out (arena); a repeated axis is an error. */
bool
op_manip_norm_axes(const OpSite *s, const int64_t *axes, int n, int ndim, int **out)
{
  *out = ir_alloc(s->ctx, sizeof(int) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    if (!op_manip_norm_axis(s, axes[i], ndim, &(*out)[i]))
      return false;
    for (int j = 0; j < i; j++)
      if ((*out)[j] == (*out)[i])
        return op_fail(s, "axis %d is repeated", (*out)[i]);
  }
  return true;
}

/* The "axis" attribute of concat, split and take: one integer, or None
 * (*none set) when allow_none.  With ndim < 0 the axis is left unchecked
 * (*axis -1). */
bool
op_manip_axis_attr(const OpSite *s, const IrExpr *call, bool allow_none, int ndim, int *axis,
                   bool *none)
{
  int64_t *ax;
  int n;
  *axis = -1;
  *none = false;
  if (!op_manip_attr_ints(s, call, "axis", allow_none, &ax, &n))
    return false;
  if (n < 0) {
    *none = true;
    return true;
  }
  if (n != 1)
    return op_fail(s, "axis must be one integer");
  return ndim < 0 || op_manip_norm_axis(s, ax[0], ndim, axis);
}

/* The permutation of R.permute_dims: axes None reverses the dims. */
bool
op_manip_permutation(const OpSite *s, const IrExpr *call, int ndim, int **perm)
{
  int64_t *axes;
  int n;
  if (!op_manip_attr_ints(s, call, "axes", true, &axes, &n))
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

/* The mode attribute of R.take: 0 fast, 1 clip, 2 wrap; -1 after an error. */
int
op_manip_take_mode(const OpSite *s, const IrExpr *call)
{
  const IrAttr *a = op_attr(call, "mode");
  const char *names[] = {"fast", "clip", "wrap"};
  if (!a)
    return 0;
  for (int i = 0; a->kind == IR_AT_STR && i < 3; i++)
    if (strcmp(a->u.s, names[i]) == 0)
      return i;
  op_report(s, "mode must be \"fast\", \"clip\" or \"wrap\"");
  return -1;
}

bool
op_manip_slice_attrs(const OpSite *s, const IrExpr *call, int ndim, SliceAttrs *sa)
{
  int64_t *axes;
  int nb, ne, ns;
  if (!op_manip_attr_ints(s, call, "axes", false, &axes, &sa->n) ||
      !op_manip_attr_ints(s, call, "begin", false, &sa->begin, &nb) ||
      !op_manip_attr_ints(s, call, "end", false, &sa->end, &ne) ||
      !op_manip_attr_ints(s, call, "strides", true, &sa->strides, &ns))
    return false;
  if (nb != sa->n || ne != sa->n || (ns >= 0 && ns != sa->n))
    return op_fail(s, "axes, begin, end and strides must have the same length");
  if (ns < 0) {
    sa->strides = ir_alloc(s->ctx, sizeof(int64_t) * (size_t)(sa->n ? sa->n : 1));
    for (int i = 0; i < sa->n; i++)
      sa->strides[i] = 1;
  }
  for (int i = 0; i < sa->n; i++)
    if (sa->strides[i] == 0)
      return op_fail(s, "stride of axis %lld is zero", (long long)axes[i]);
  const IrAttr *ib = op_attr(call, "assume_inbound");
  sa->inbound = ib && ib->kind == IR_AT_BOOL && ib->u.b;
  if (ndim < 0) { /* rank unknown: only the attributes' own consistency */
    sa->axes = NULL;
    return true;
  }
  return op_manip_norm_axes(s, axes, sa->n, ndim, &sa->axes);
}

/* |stride| as an unsigned value (INT64_MIN included). */
uint64_t
op_manip_stride_step(int64_t stride)
{
  return stride > 0 ? (uint64_t)stride : (uint64_t)(-(stride + 1)) + 1;
}

/* numpy's slicing of an axis of n elements: a negative index counts from
 * the end, then it is clamped to [0, n] (stride > 0) or [-1, n - 1]
 * (stride < 0).  Sets the first index and the length; false when inbound
 * was promised and clamping would change begin or end. */
bool
op_manip_slice_axis(int64_t n, int64_t begin, int64_t end, int64_t stride, bool inbound,
                    int64_t *start, int64_t *len)
{
  int64_t lo = stride < 0 ? -1 : 0, hi = stride < 0 ? n - 1 : n;
  int64_t idx[2] = {begin, end};
  for (int i = 0; i < 2; i++) {
    int64_t v = idx[i] < 0 ? idx[i] + n : idx[i];
    idx[i] = v < lo ? lo : v > hi ? hi : v;
    if (inbound && idx[i] != v)
      return false;
  }
  int64_t diff = stride > 0 ? idx[1] - idx[0] : idx[0] - idx[1];
  *start = idx[0];
  *len = diff <= 0 ? 0 : (int64_t)(((uint64_t)diff - 1) / op_manip_stride_step(stride) + 1);
  return true;
}

/* ------------------------------------------------------------------ */
/* Inference helpers                                                   */
/* ------------------------------------------------------------------ */

static IrPrimExpr *
lit(IrCtx *ctx, int64_t v)
{
  return ir_prim_int(ctx, IR_I64, v);
}

static IrPrimExpr *
simp(OpInfer *in, IrPrimExpr *e)
{
  return in->arith ? ir_arith_simplify(in->arith, e) : e;
}

static IrPrimExpr *
bin(OpInfer *in, IrPrimKind kind, IrPrimExpr *a, IrPrimExpr *b)
{
  return ir_prim_bin(in->ctx, kind, a, b);
}

/* The simplified product of n dims, leaving out index skip (-1: none). */
static IrPrimExpr *
product(OpInfer *in, IrPrimExpr **d, int n, int skip)
{
  IrPrimExpr *p = lit(in->ctx, 1);
  for (int i = 0; i < n; i++)
    if (i != skip)
      p = bin(in, IR_PE_MUL, p, d[i]);
  return simp(in, p);
}

static const char *
expr_text(IrCtx *ctx, const IrPrimExpr *e)
{
  IrBuf b = {0};
  ir_prim_expr_print(e, &b);
  char *s = ir_strdup(ctx, b.data ? b.data : "", b.len);
  ir_buf_free(&b);
  return s;
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

static IrPrimExpr **
dims_new(IrCtx *ctx, int n)
{
  return ir_alloc(ctx, sizeof(IrPrimExpr *) * (size_t)(n ? n : 1));
}

/* A tensor of the same dtype and vdevice as x. */
static IrSInfo *
like(OpInfer *in, const IrSInfo *x, IrPrimExpr **shape, int ndim)
{
  return ir_sinfo_tensor(in->ctx, shape, ndim, x->u.tensor.dtype, x->u.tensor.vdevice);
}

/* The struct info of a tensor argument: R.Object counts as a tensor of
 * unknown ndim and dtype; a shape that contradicts ndim counts as unknown.
 * NULL after an error for any other kind. */
static IrSInfo *
tensor_arg(const OpSite *s, IrSInfo *si, const char *what)
{
  if (si && si->kind == IR_SI_TENSOR) {
    if (si->u.tensor.ndim >= 0 && ir_sinfo_shape_len(si) == si->u.tensor.ndim)
      return si;
    return ir_sinfo_tensor(s->ctx, NULL, si->u.tensor.ndim, si->u.tensor.dtype,
                           si->u.tensor.vdevice);
  }
  if (!si || si->kind == IR_SI_OBJECT)
    return ir_sinfo_tensor(s->ctx, NULL, -1, IR_VOID, -1);
  return op_fail_null(s, "%s must be a tensor, but it is %s", what, op_sinfo_text(s->ctx, si));
}

/* tensor_arg and expr_text for the ops of manip_index.c. */
IrSInfo *
op_manip_tensor_arg(const OpSite *s, IrSInfo *si, const char *what)
{
  return tensor_arg(s, si, what);
}

const char *
op_manip_expr_text(IrCtx *ctx, const IrPrimExpr *e)
{
  return expr_text(ctx, e);
}

/* The values of a shape argument: from an R.shape literal, else from its
 * struct info (values NULL when unknown, *n -1 when even the length is). */
static bool
shape_arg(const OpSite *s, const IrExpr *call, int i, IrSInfo **args, IrPrimExpr ***values, int *n)
{
  const IrExpr *e = call->u.call.args[i];
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

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

static IrSInfo *
infer_permute_dims(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "x");
  int *perm;
  if (!x)
    return NULL;
  int ndim = x->u.tensor.ndim;
  if (ndim < 0) { /* the axes, when given, still tell the rank */
    int64_t *axes;
    int n;
    return op_manip_attr_ints(&s, call, "axes", true, &axes, &n) ? like(in, x, NULL, n) : NULL;
  }
  if (!op_manip_permutation(&s, call, ndim, &perm))
    return NULL;
  if (!x->u.tensor.shape)
    return x;
  IrPrimExpr **out = dims_new(in->ctx, ndim);
  for (int i = 0; i < ndim; i++)
    out[i] = x->u.tensor.shape[perm[i]];
  return like(in, x, out, ndim);
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

static IrSInfo *
infer_reshape(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "x");
  IrPrimExpr **nv;
  int nn, at;
  if (!x || !shape_arg(&s, call, 1, args, &nv, &nn))
    return NULL;
  if (!nv)
    return like(in, x, NULL, nn);
  if (!check_new_shape(&s, nv, nn, &at))
    return NULL;
  IrPrimExpr **xd = x->u.tensor.shape;
  if (!xd)
    return like(in, x, at >= 0 ? NULL : nv, nn);
  int xn = x->u.tensor.ndim;
  IrPrimExpr *old = product(in, xd, xn, -1);
  IrPrimExpr **out = dims_new(in->ctx, nn);
  memcpy(out, nv, sizeof(IrPrimExpr *) * (size_t)nn);
  if (at >= 0) {
    IrPrimExpr *rest = product(in, nv, nn, at);
    int64_t r;
    if (ir_prim_is_int(rest, &r) && r == 0)
      return op_fail_null(&s, "cannot infer the -1 of %s: the other dimensions hold no element",
                          shape_text(in->ctx, nv, nn));
    op_assume(in, bin(in, IR_PE_NE, rest, lit(in->ctx, 0))); /* the kernel refuses 0 too */
    out[at] = simp(in, bin(in, IR_PE_FLOORDIV, old, rest));
  }
  IrPrimExpr *new_count = product(in, out, nn, -1);
  if (op_assume_equal(in, old, new_count) != IR_PROVE_FALSE)
    return like(in, x, out, nn);
  const char *from = shape_text(in->ctx, xd, xn), *to = shape_text(in->ctx, nv, nn);
  if (at >= 0)
    op_report(&s, "cannot reshape %s into %s: %s elements are not a multiple of %s", from, to,
              expr_text(in->ctx, old), expr_text(in->ctx, product(in, nv, nn, at)));
  else
    op_report(&s, "cannot reshape %s (%s elements) into %s (%s elements)", from,
              expr_text(in->ctx, old), to, expr_text(in->ctx, new_count));
  return NULL;
}

static IrSInfo *
infer_flatten(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "x");
  if (!x)
    return NULL;
  if (!x->u.tensor.shape)
    return like(in, x, NULL, 1);
  IrPrimExpr **out = dims_new(in->ctx, 1);
  out[0] = product(in, x->u.tensor.shape, x->u.tensor.ndim, -1);
  return like(in, x, out, 1);
}

/* Marks the new axes of expand_dims in a rank-out_ndim mask (arena). */
bool
op_manip_expand_mask(const OpSite *s, const IrExpr *call, int ndim, int *out_ndim, bool **mask)
{
  int64_t *axes;
  int n, *norm;
  if (!op_manip_attr_ints(s, call, "axis", false, &axes, &n))
    return false;
  *out_ndim = ndim + n;
  if (!op_manip_norm_axes(s, axes, n, *out_ndim, &norm))
    return false;
  *mask = ir_alloc(s->ctx, (size_t)(*out_ndim ? *out_ndim : 1));
  for (int i = 0; i < n; i++)
    (*mask)[norm[i]] = true;
  return true;
}

static IrSInfo *
infer_expand_dims(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "x");
  int out_ndim;
  bool *mask;
  if (!x)
    return NULL;
  if (x->u.tensor.ndim < 0) {
    int64_t *axes;
    int n;
    return op_manip_attr_ints(&s, call, "axis", false, &axes, &n) ? like(in, x, NULL, -1) : NULL;
  }
  if (!op_manip_expand_mask(&s, call, x->u.tensor.ndim, &out_ndim, &mask))
    return NULL;
  if (!x->u.tensor.shape)
    return like(in, x, NULL, out_ndim);
  IrPrimExpr **out = dims_new(in->ctx, out_ndim);
  for (int i = 0, j = 0; i < out_ndim; i++)
    out[i] = mask[i] ? lit(in->ctx, 1) : x->u.tensor.shape[j++];
  return like(in, x, out, out_ndim);
}

/* squeeze with axis=None: every dim proven to be 1 goes; a dim that may or
 * may not be 1 leaves the rank unknown. */
static IrSInfo *
squeeze_all(OpInfer *in, IrSInfo *x)
{
  int ndim = x->u.tensor.ndim, n = 0;
  IrPrimExpr **out = dims_new(in->ctx, ndim);
  if (!x->u.tensor.shape)
    return like(in, x, NULL, -1);
  for (int i = 0; i < ndim; i++) {
    IrProof one = op_prove_equal(in, x->u.tensor.shape[i], lit(in->ctx, 1));
    if (one == IR_PROVE_UNKNOWN)
      return like(in, x, NULL, -1);
    if (one == IR_PROVE_FALSE)
      out[n++] = x->u.tensor.shape[i];
  }
  return like(in, x, out, n);
}

static IrSInfo *
infer_squeeze(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "x");
  int64_t *axes;
  int n, *norm;
  if (!x || !op_manip_attr_ints(&s, call, "axis", true, &axes, &n))
    return NULL;
  int ndim = x->u.tensor.ndim;
  if (ndim < 0)
    return like(in, x, NULL, -1);
  if (n < 0)
    return squeeze_all(in, x);
  if (!op_manip_norm_axes(&s, axes, n, ndim, &norm))
    return NULL;
  IrPrimExpr **xd = x->u.tensor.shape;
  if (!xd)
    return like(in, x, NULL, ndim - n);
  bool *drop = ir_alloc(in->ctx, (size_t)(ndim ? ndim : 1));
  for (int i = 0; i < n; i++) {
    if (op_assume_equal(in, xd[norm[i]], lit(in->ctx, 1)) == IR_PROVE_FALSE)
      return op_fail_null(&s, "cannot squeeze axis %d of size %s", norm[i],
                          expr_text(in->ctx, xd[norm[i]]));
    drop[norm[i]] = true;
  }
  IrPrimExpr **out = dims_new(in->ctx, ndim);
  int k = 0;
  for (int i = 0; i < ndim; i++)
    if (!drop[i])
      out[k++] = xd[i];
  return like(in, x, out, k);
}

/* The struct info of field i of a tuple argument (from its struct info, or
 * from the tuple literal's items). */
static IrSInfo *
tuple_field(const IrExpr *call, IrSInfo *si, int i)
{
  const IrExpr *e = call->u.call.args[0];
  if (si && si->kind == IR_SI_TUPLE)
    return si->u.tuple.fields[i];
  return e->kind == IR_EX_TUPLE ? e->u.tuple.items[i]->sinfo : NULL;
}

static int
tuple_len(const IrExpr *call, IrSInfo *si)
{
  const IrExpr *e = call->u.call.args[0];
  if (si && si->kind == IR_SI_TUPLE)
    return si->u.tuple.n;
  return e->kind == IR_EX_TUPLE ? e->u.tuple.n : -1;
}

/* Dtype and rank common to concat's inputs (void / -1 when unknown). */
static bool
concat_common(const OpSite *s, IrSInfo **xs, int n, IrDType *dtype, int *ndim)
{
  bool void_seen = false;
  *dtype = IR_VOID;
  *ndim = -1;
  for (int i = 0; i < n; i++) {
    IrDType t = xs[i]->u.tensor.dtype;
    int r = xs[i]->u.tensor.ndim;
    char a[16], b[16];
    if (t.code == IR_DT_VOID)
      void_seen = true;
    else if (dtype->code == IR_DT_VOID)
      *dtype = t;
    else if (!ir_dtype_eq(*dtype, t)) {
      return op_fail(s, "inputs have different dtypes, %s and %s", ir_dtype_str(*dtype, a),
                     ir_dtype_str(t, b));
    }
    if (r >= 0 && *ndim >= 0 && r != *ndim)
      return op_fail(s, "inputs have different ranks, %d and %d", *ndim, r);
    if (r >= 0)
      *ndim = r;
  }
  if (void_seen)
    *dtype = IR_VOID;
  return true;
}

/* The shape of a concat of n inputs of known shape along axis; NULL with
 * *ok true when a dim may differ, *ok false after an error. */
static IrPrimExpr **
concat_shape(OpInfer *in, const OpSite *s, IrSInfo **xs, int n, int ndim, int axis, bool *ok)
{
  IrPrimExpr **out = dims_new(in->ctx, ndim);
  bool known = true;
  *ok = true;
  for (int d = 0; d < ndim; d++) {
    IrPrimExpr *d0 = xs[0]->u.tensor.shape[d], *sum = lit(in->ctx, 0);
    for (int i = 0; i < n; i++) {
      IrPrimExpr *di = xs[i]->u.tensor.shape[d];
      sum = bin(in, IR_PE_ADD, sum, di);
      IrProof eq = d == axis     ? IR_PROVE_TRUE
                   : in->assume ? op_assume_equal(in, d0, di)
                                : op_prove_equal(in, d0, di);
      if (eq == IR_PROVE_FALSE) {
        op_report(s, "inputs 0 and %d differ in dimension %d: %s and %s", i, d,
                  expr_text(in->ctx, d0), expr_text(in->ctx, di));
        *ok = false;
        return NULL;
      }
      known = known && eq == IR_PROVE_TRUE;
    }
    out[d] = d == axis ? simp(in, sum) : d0;
  }
  return known ? out : NULL;
}

/* The tensors of concat's and stack's tuple argument: *n of them in *xs,
 * *n -1 (and true) when the tuple is an R.Object; false after an error. */
static bool
tuple_tensors(OpInfer *in, const OpSite *s, const IrExpr *call, IrSInfo **args, IrSInfo ***xs,
              int *n)
{
  *n = tuple_len(call, args[0]);
  if (*n < 0 && args[0]->kind == IR_SI_OBJECT)
    return true;
  if (*n < 0)
    return op_fail(s, "tensors must be a tuple, but it is %s", op_sinfo_text(in->ctx, args[0]));
  if (*n == 0)
    return op_fail(s, "tensors is an empty tuple");
  *xs = ir_alloc(in->ctx, sizeof(IrSInfo *) * (size_t)*n);
  for (int i = 0; i < *n; i++)
    if (!((*xs)[i] = tensor_arg(s, tuple_field(call, args[0], i), "every item of tensors")))
      return false;
  return true;
}

/* R.concat.  axis=None takes 1-D inputs (TVM's rule) and joins them. */
static IrSInfo *
infer_concat(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  int n, ndim, axis;
  IrSInfo **xs = NULL;
  IrDType dtype;
  bool none;
  if (!tuple_tensors(in, &s, call, args, &xs, &n))
    return NULL;
  if (n < 0)
    return ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
  if (!concat_common(&s, xs, n, &dtype, &ndim) ||
      !op_manip_axis_attr(&s, call, true, ndim, &axis, &none))
    return NULL;
  if (none && ndim >= 0 && ndim != 1)
    return op_fail_null(&s, "axis=None needs 1-D inputs, but they have %d dimensions", ndim);
  if (none) {
    ndim = 1;
    axis = 0;
  }
  if (ndim < 0)
    return ir_sinfo_tensor(in->ctx, NULL, -1, dtype, xs[0]->u.tensor.vdevice);
  for (int i = 0; i < n; i++)
    if (!xs[i]->u.tensor.shape || xs[i]->u.tensor.ndim != ndim)
      return ir_sinfo_tensor(in->ctx, NULL, ndim, dtype, xs[0]->u.tensor.vdevice);
  bool ok;
  IrPrimExpr **out = concat_shape(in, &s, xs, n, ndim, axis, &ok);
  return ok ? ir_sinfo_tensor(in->ctx, out, ndim, dtype, xs[0]->u.tensor.vdevice) : NULL;
}

/* The split points of R.split along a dim: TVM's InferStructInfoSplit.
 * indices [i0, i1, ...]: piece k is [i(k-1), ik) with both ends clamped to
 * [0, dim] and a negative length taken as 0 (negative indices are clamped,
 * not counted from the end).  n sections: every piece but the last has
 * ceildiv(dim, n) elements and the last the rest, so 5 in 3 is 2, 2, 1;
 * where the rest would be negative (5 in 4) TVM infers a negative dim and
 * rxc reports an error instead. */
static IrPrimExpr *
clamp_expr(OpInfer *in, IrPrimExpr *v, IrPrimExpr *lo, IrPrimExpr *hi)
{
  return bin(in, IR_PE_MIN, bin(in, IR_PE_MAX, v, lo), hi);
}

static IrPrimExpr *
split_piece(OpInfer *in, IrPrimExpr *dim, const int64_t *idx, int nidx, int k)
{
  IrCtx *ctx = in->ctx;
  IrPrimExpr *zero = lit(ctx, 0);
  IrPrimExpr *left = k == 0 ? zero : clamp_expr(in, lit(ctx, idx[k - 1]), zero, dim);
  IrPrimExpr *right = k == nidx ? dim : clamp_expr(in, lit(ctx, idx[k]), zero, dim);
  return simp(in, bin(in, IR_PE_MAX, bin(in, IR_PE_SUB, right, left), zero));
}

static IrSInfo *
split_sections(OpInfer *in, const OpSite *s, IrSInfo *x, int axis, int64_t n)
{
  IrPrimExpr **xd = x->u.tensor.shape, *dim = xd[axis];
  int ndim = x->u.tensor.ndim;
  IrPrimExpr *len = simp(
      in, bin(in, IR_PE_FLOORDIV, bin(in, IR_PE_ADD, dim, lit(in->ctx, n - 1)), lit(in->ctx, n)));
  IrPrimExpr *last =
      simp(in, bin(in, IR_PE_SUB, dim, bin(in, IR_PE_MUL, len, lit(in->ctx, n - 1))));
  int64_t c;
  if (ir_prim_is_int(last, &c) && c < 0)
    return op_fail_null(s, "cannot split axis %d of size %s into %lld sections", axis,
                        expr_text(in->ctx, dim), (long long)n);
  IrSInfo **fields = ir_alloc(in->ctx, sizeof(IrSInfo *) * (size_t)n);
  for (int64_t k = 0; k < n; k++) {
    IrPrimExpr **out = dims_new(in->ctx, ndim);
    memcpy(out, xd, sizeof(IrPrimExpr *) * (size_t)ndim);
    out[axis] = k == n - 1 ? last : len;
    fields[k] = like(in, x, out, ndim);
  }
  return ir_sinfo_tuple(in->ctx, fields, (int)n);
}

/* indices_or_sections: sets the indices (or the count in idx[0]), whether
 * it is a count, and the number of pieces. */
bool
op_manip_split_attrs(const OpSite *s, const IrExpr *call, int64_t **idx, int *nidx, bool *sections,
                     int64_t *pieces)
{
  if (!op_manip_attr_ints(s, call, "indices_or_sections", false, idx, nidx))
    return false;
  *sections = op_attr(call, "indices_or_sections")->kind != IR_AT_LIST;
  if (*sections && (*idx)[0] <= 0)
    return op_fail(s, "the number of sections must be positive, not %lld", (long long)(*idx)[0]);
  *pieces = *sections ? (*idx)[0] : *nidx + 1;
  if (*pieces > 1 << 20)
    return op_fail(s, "too many sections (%lld)", (long long)*pieces);
  return true;
}

static IrSInfo *
infer_split(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "x");
  int64_t *idx, pieces;
  int nidx, axis;
  bool sections, none;
  if (!x || !op_manip_split_attrs(&s, call, &idx, &nidx, &sections, &pieces) ||
      !op_manip_axis_attr(&s, call, false, x->u.tensor.ndim, &axis, &none))
    return NULL;
  if (pieces == 1) /* TVM: one piece is the input itself, not a tuple */
    return x;
  if (!x->u.tensor.shape) {
    IrSInfo **fields = ir_alloc(in->ctx, sizeof(IrSInfo *) * (size_t)pieces);
    for (int64_t k = 0; k < pieces; k++)
      fields[k] = like(in, x, NULL, x->u.tensor.ndim);
    return ir_sinfo_tuple(in->ctx, fields, (int)pieces);
  }
  if (sections)
    return split_sections(in, &s, x, axis, pieces);
  IrSInfo **fields = ir_alloc(in->ctx, sizeof(IrSInfo *) * (size_t)pieces);
  int ndim = x->u.tensor.ndim;
  for (int k = 0; k < pieces; k++) {
    IrPrimExpr **out = dims_new(in->ctx, ndim);
    memcpy(out, x->u.tensor.shape, sizeof(IrPrimExpr *) * (size_t)ndim);
    out[axis] = split_piece(in, out[axis], idx, nidx, k);
    fields[k] = like(in, x, out, ndim);
  }
  return ir_sinfo_tuple(in->ctx, fields, (int)pieces);
}

/* A begin or end index of a slice over a symbolic dim n, made
 * non-negative and (unless inbound) clamped, as slice_axis does.  An index
 * of magnitude MANIP_HUGE_INDEX or more (frontends write INT64_MAX for "to the
 * end") is past the end of any dim a tensor can have, so it clamps without
 * a min/max the arithmetic could not fold for an unbounded n. */
static IrPrimExpr *
slice_index(OpInfer *in, IrPrimExpr *n, int64_t idx, int64_t stride, bool inbound)
{
  IrCtx *ctx = in->ctx;
  if (!inbound && (idx >= MANIP_HUGE_INDEX || idx <= -MANIP_HUGE_INDEX)) { /* past an end */
    bool high = idx > 0;
    if (stride > 0)
      return high ? n : lit(ctx, 0);
    return high ? bin(in, IR_PE_SUB, n, lit(ctx, 1)) : lit(ctx, -1);
  }
  IrPrimExpr *v = idx < 0 ? bin(in, IR_PE_ADD, n, lit(ctx, idx)) : lit(ctx, idx);
  if (inbound)
    return v;
  if (stride < 0)
    return clamp_expr(in, v, lit(ctx, -1), bin(in, IR_PE_SUB, n, lit(ctx, 1)));
  return clamp_expr(in, v, lit(ctx, 0), n);
}

/* The length of a slice of a dim; NULL after an error. */
static IrPrimExpr *
slice_len(OpInfer *in, const OpSite *s, IrPrimExpr *n, int64_t b, int64_t e, int64_t stride,
          bool inbound)
{
  int64_t c, start, len;
  if (ir_prim_is_int(n, &c)) {
    if (!op_manip_slice_axis(c, b, e, stride, inbound, &start, &len))
      return op_fail_null(
          s, "begin %lld or end %lld is out of bounds for size %lld with assume_inbound",
          (long long)b, (long long)e, (long long)c);
    return lit(in->ctx, len);
  }
  IrPrimExpr *lo = slice_index(in, n, b, stride, inbound);
  IrPrimExpr *hi = slice_index(in, n, e, stride, inbound);
  IrPrimExpr *diff = stride > 0 ? bin(in, IR_PE_SUB, hi, lo) : bin(in, IR_PE_SUB, lo, hi);
  uint64_t step = op_manip_stride_step(stride);
  int64_t st = step > INT64_MAX ? INT64_MAX : (int64_t)step;
  if (st != 1)
    diff =
        bin(in, IR_PE_FLOORDIV, bin(in, IR_PE_ADD, diff, lit(in->ctx, st - 1)), lit(in->ctx, st));
  if (!inbound)
    diff = bin(in, IR_PE_MAX, diff, lit(in->ctx, 0));
  return simp(in, diff);
}

static IrSInfo *
infer_strided_slice(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "x");
  SliceAttrs sa;
  if (x && op_manip_slice_is_symbolic(call))
    return op_manip_infer_symbolic_slice(in, &s, call, x);
  if (!x || !op_manip_slice_attrs(&s, call, x->u.tensor.ndim, &sa))
    return NULL;
  int ndim = x->u.tensor.ndim;
  if (!x->u.tensor.shape)
    return like(in, x, NULL, ndim);
  IrPrimExpr **out = dims_new(in->ctx, ndim);
  memcpy(out, x->u.tensor.shape, sizeof(IrPrimExpr *) * (size_t)ndim);
  for (int i = 0; i < sa.n; i++) {
    int a = sa.axes[i];
    out[a] = slice_len(in, &s, out[a], sa.begin[i], sa.end[i], sa.strides[i], sa.inbound);
    if (!out[a])
      return NULL;
  }
  return like(in, x, out, ndim);
}

/* The lowering of R.take reads x at a clamped position for each output
 * element, which needs x to hold an element when the output does: assumed
 * (LegalizeOps checks it at run time) unless provable.  The kernel
 * refuses any index into an empty axis. */
static void
assume_take_room(OpInfer *in, const IrSInfo *x, IrPrimExpr **out, int on)
{
  if (!x->u.tensor.shape || !out || on < 0)
    return;
  IrPrimExpr *have = product(in, x->u.tensor.shape, x->u.tensor.ndim, -1);
  IrPrimExpr *count = product(in, out, on, -1), *zero = lit(in->ctx, 0);
  op_assume(in, bin(in, IR_PE_OR, bin(in, IR_PE_GT, have, zero), bin(in, IR_PE_EQ, count, zero)));
}

/* R.take: axis=None takes from the flattened x, giving indices' shape;
 * otherwise x.shape[:axis] + indices.shape + x.shape[axis + 1:]. */
static IrSInfo *
infer_take(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "x"), *ix = tensor_arg(&s, args[1], "indices");
  int axis;
  bool none;
  if (!x || !ix || op_manip_take_mode(&s, call) < 0 ||
      !op_manip_axis_attr(&s, call, true, x->u.tensor.ndim, &axis, &none))
    return NULL;
  IrDType it = ix->u.tensor.dtype;
  if (it.code != IR_DT_VOID && it.code != IR_DT_INT && it.code != IR_DT_UINT) {
    char b[16];
    return op_fail_null(&s, "indices must have an integer dtype, not %s", ir_dtype_str(it, b));
  }
  int xn = x->u.tensor.ndim, in_ = ix->u.tensor.ndim;
  if (none) {
    assume_take_room(in, x, ix->u.tensor.shape, in_);
    return like(in, x, ix->u.tensor.shape, in_);
  }
  if (xn < 0)
    return like(in, x, NULL, -1);
  int on = in_ < 0 ? -1 : xn - 1 + in_;
  if (!x->u.tensor.shape || !ix->u.tensor.shape)
    return like(in, x, NULL, on);
  IrPrimExpr **out = dims_new(in->ctx, on);
  int k = 0;
  for (int i = 0; i < xn; i++) {
    if (i != axis) {
      out[k++] = x->u.tensor.shape[i];
      continue;
    }
    for (int j = 0; j < in_; j++)
      out[k++] = ix->u.tensor.shape[j];
  }
  assume_take_room(in, x, out, on);
  return like(in, x, out, on);
}

static IrSInfo *
infer_broadcast_to(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "x");
  IrPrimExpr **tv;
  int tn;
  if (!x || !shape_arg(&s, call, 1, args, &tv, &tn))
    return NULL;
  int xn = x->u.tensor.ndim;
  if (xn >= 0 && tn >= 0 && tn < xn)
    return op_fail_null(&s, "cannot broadcast a tensor of %d dimensions to %d dimensions", xn, tn);
  if (!tv || !x->u.tensor.shape)
    return like(in, x, tv, tn);
  for (int i = 1; i <= xn; i++) {
    IrPrimExpr *xd = x->u.tensor.shape[xn - i], *td = tv[tn - i];
    IrProof one = op_prove_equal(in, xd, lit(in->ctx, 1));
    if (one == IR_PROVE_TRUE)
      continue;
    IrProof eq = op_prove_equal(in, xd, td);
    if (eq != IR_PROVE_TRUE && (eq == IR_PROVE_UNKNOWN || one == IR_PROVE_UNKNOWN))
      /* x's dim is 1 or the target's: decided at run time */
      op_assume(in, bin(in, IR_PE_OR, bin(in, IR_PE_EQ, xd, td), bin(in, IR_PE_EQ, xd, lit(in->ctx, 1))));
    if (eq == IR_PROVE_FALSE && one == IR_PROVE_FALSE)
      return op_fail_null(&s, "cannot broadcast %s to %s: dimension %d is %s, not 1 or %s",
                          shape_text(in->ctx, x->u.tensor.shape, xn), shape_text(in->ctx, tv, tn),
                          xn - i, expr_text(in->ctx, xd), expr_text(in->ctx, td));
  }
  return like(in, x, tv, tn);
}

/* R.flip: the shape is x's; only the axis is checked. */
static IrSInfo *
infer_flip(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "data");
  int axis;
  bool none;
  if (!x || !op_manip_axis_attr(&s, call, false, x->u.tensor.ndim, &axis, &none))
    return NULL;
  return x;
}

/* The repeats of R.tile: a list (or one int) of non-negative counts.
 * TVM does not check the sign; a negative count is refused here, as numpy
 * refuses it. */
bool
op_manip_tile_repeats(const OpSite *s, const IrExpr *call, int64_t **reps, int *n)
{
  if (!op_manip_attr_ints(s, call, "repeats", false, reps, n))
    return false;
  for (int i = 0; i < *n; i++)
    if ((*reps)[i] < 0)
      return op_fail(s, "repeats must be non-negative, but entry %d is %lld", i,
                     (long long)(*reps)[i]);
  if (*n > MAX_DIMS)
    return op_fail(s, "repeats has %d entries, more than the %d supported", *n, MAX_DIMS);
  return true;
}

/* R.tile (TVM's InferStructInfoTile): the rank is max(ndim, len(repeats));
 * the shorter of x's shape and repeats is padded with leading 1s, and each
 * dim is x's times its count. */
static IrSInfo *
infer_tile(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "data");
  int64_t *reps;
  int l;
  if (!x || !op_manip_tile_repeats(&s, call, &reps, &l))
    return NULL;
  int ndim = x->u.tensor.ndim;
  if (ndim < 0)
    return like(in, x, NULL, -1);
  int on = ndim > l ? ndim : l;
  if (!x->u.tensor.shape) {
    bool ones = true;
    for (int i = 0; i < l; i++)
      ones = ones && reps[i] == 1;
    return l <= ndim && ones ? x : like(in, x, NULL, on);
  }
  IrPrimExpr **out = dims_new(in->ctx, on);
  for (int i = 0; i < on; i++) {
    int xi = i - (on - ndim), ri = i - (on - l);
    IrPrimExpr *r = lit(in->ctx, ri < 0 ? 1 : reps[ri]);
    out[i] = xi < 0 ? r : simp(in, bin(in, IR_PE_MUL, x->u.tensor.shape[xi], r));
  }
  return like(in, x, out, on);
}

/* The repeats of R.repeat: one non-negative int (TVM takes any int; a
 * negative count is refused here, as numpy refuses it). */
bool
op_manip_repeat_count(const OpSite *s, const IrExpr *call, int64_t *count)
{
  int64_t *v;
  int n;
  if (!op_manip_attr_ints(s, call, "repeats", false, &v, &n))
    return false;
  if (n != 1 || op_attr(call, "repeats")->kind == IR_AT_LIST)
    return op_fail(s, "repeats must be one integer");
  if (v[0] < 0)
    return op_fail(s, "repeats must be non-negative, not %lld", (long long)v[0]);
  *count = v[0];
  return true;
}

/* R.repeat (TVM's InferStructInfoRepeat): axis=None repeats the elements
 * of the flattened x (a 1-D result of numel * repeats); otherwise the axis
 * grows repeats times. */
static IrSInfo *
infer_repeat(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "data");
  int64_t r;
  int axis;
  bool none;
  if (!x || !op_manip_repeat_count(&s, call, &r) ||
      !op_manip_axis_attr(&s, call, true, x->u.tensor.ndim, &axis, &none))
    return NULL;
  int ndim = x->u.tensor.ndim;
  IrPrimExpr **xd = x->u.tensor.shape;
  if (!xd) {
    if (none)
      return like(in, x, NULL, 1);
    return r == 1 ? x : like(in, x, NULL, ndim);
  }
  if (none) {
    IrPrimExpr **out = dims_new(in->ctx, 1);
    out[0] = simp(in, bin(in, IR_PE_MUL, product(in, xd, ndim, -1), lit(in->ctx, r)));
    return like(in, x, out, 1);
  }
  IrPrimExpr **out = dims_new(in->ctx, ndim);
  memcpy(out, xd, sizeof(IrPrimExpr *) * (size_t)ndim);
  out[axis] = simp(in, bin(in, IR_PE_MUL, xd[axis], lit(in->ctx, r)));
  return like(in, x, out, ndim);
}

/* R.stack (TVM's InferStructInfoStack): inputs of one dtype, rank and
 * shape; the result has a new axis of len(tensors) at axis, which counts
 * in the result's rank (ndim + 1).  A dim that may differ between inputs
 * leaves the shape unknown (the kernel checks it). */
static IrSInfo *
infer_stack(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  int n, ndim, axis;
  IrSInfo **xs = NULL;
  IrDType dtype;
  bool none;
  if (!tuple_tensors(in, &s, call, args, &xs, &n))
    return NULL;
  if (n < 0)
    return ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
  if (!concat_common(&s, xs, n, &dtype, &ndim) ||
      !op_manip_axis_attr(&s, call, false, ndim < 0 ? -1 : ndim + 1, &axis, &none))
    return NULL;
  int vdev = xs[0]->u.tensor.vdevice;
  if (ndim < 0)
    return ir_sinfo_tensor(in->ctx, NULL, -1, dtype, vdev);
  for (int i = 0; i < n; i++)
    if (!xs[i]->u.tensor.shape || xs[i]->u.tensor.ndim != ndim)
      return ir_sinfo_tensor(in->ctx, NULL, ndim + 1, dtype, vdev);
  bool ok;
  /* concat along a new axis: every dim must agree (axis -1 is none) */
  IrPrimExpr **same = concat_shape(in, &s, xs, n, ndim, -1, &ok);
  if (!ok)
    return NULL;
  if (!same)
    return ir_sinfo_tensor(in->ctx, NULL, ndim + 1, dtype, vdev);
  IrPrimExpr **out = dims_new(in->ctx, ndim + 1);
  for (int d = 0, k = 0; d <= ndim; d++)
    out[d] = d == axis ? lit(in->ctx, n) : same[k++];
  return ir_sinfo_tensor(in->ctx, out, ndim + 1, dtype, vdev);
}

/* The attributes of R.one_hot: depth > 0 (TVM's check) and the axis of
 * the new dim in a result of rank ndim + 1 (ndim < 0: left unchecked,
 * *axis -1). */
bool
op_manip_one_hot_attrs(const OpSite *s, const IrExpr *call, int ndim, int64_t *depth, int *axis)
{
  int64_t *v;
  int n;
  bool none;
  if (!op_manip_attr_ints(s, call, "depth", false, &v, &n))
    return false;
  if (n != 1 || v[0] <= 0)
    return op_fail(s, "depth must be one positive integer");
  *depth = v[0];
  return op_manip_axis_attr(s, call, false, ndim < 0 ? -1 : ndim + 1, axis, &none);
}

/* R.one_hot: indices of an integer dtype; on_value and off_value are prim
 * values of one dtype, which is the result's; the new dim (depth) goes
 * at axis. */
static IrSInfo *
infer_one_hot(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *ix = tensor_arg(&s, args[0], "indices");
  int64_t depth;
  int axis;
  if (!ix || !op_manip_one_hot_attrs(&s, call, ix->u.tensor.ndim, &depth, &axis))
    return NULL;
  IrDType it = ix->u.tensor.dtype;
  char a[16], b[16];
  if (it.code != IR_DT_VOID && it.code != IR_DT_INT && it.code != IR_DT_UINT)
    return op_fail_null(&s, "indices must have an integer dtype, not %s", ir_dtype_str(it, a));
  if (!args[1] || args[1]->kind != IR_SI_PRIM || !args[2] || args[2]->kind != IR_SI_PRIM)
    return op_fail_null(&s, "on_value and off_value must be prim values");
  IrDType on = args[1]->u.prim.dtype, off = args[2]->u.prim.dtype;
  if (!ir_dtype_eq(on, off))
    return op_fail_null(&s, "on_value and off_value must have the same dtype, not %s and %s",
                        ir_dtype_str(on, a), ir_dtype_str(off, b));
  int ndim = ix->u.tensor.ndim;
  if (ndim < 0 || !ix->u.tensor.shape)
    return ir_sinfo_tensor(in->ctx, NULL, ndim < 0 ? -1 : ndim + 1, on, ix->u.tensor.vdevice);
  IrPrimExpr **out = dims_new(in->ctx, ndim + 1);
  for (int d = 0, k = 0; d <= ndim; d++)
    out[d] = d == axis ? lit(in->ctx, depth) : ix->u.tensor.shape[k++];
  return ir_sinfo_tensor(in->ctx, out, ndim + 1, on, ix->u.tensor.vdevice);
}

/* R.nn.batch_flatten: (N, product of the other dims); rank 2 stays as it
 * is, as in TVM. */
static IrSInfo *
infer_batch_flatten(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "data");
  if (!x)
    return NULL;
  int ndim = x->u.tensor.ndim;
  if (ndim >= 0 && ndim < 2)
    return op_fail_null(&s, "data must have at least 2 dimensions, not %d", ndim);
  if (ndim == 2)
    return x;
  if (!x->u.tensor.shape)
    return like(in, x, NULL, 2);
  IrPrimExpr **out = dims_new(in->ctx, 2);
  out[0] = x->u.tensor.shape[0];
  out[1] = product(in, x->u.tensor.shape + 1, ndim - 1, -1);
  return like(in, x, out, 2);
}

/* R.nn.pad: pad_width is [before_0, after_0, before_1, ...], 2 values per
 * axis, never negative (TVM does not check the sign; a negative width
 * would crop, which topi.nn.pad does not define); pad_mode is "constant",
 * "reflect", "replicate" or "circular". */
bool
op_manip_pad_attrs(const OpSite *s, const IrExpr *call, int ndim, PadAttrs *pa)
{
  static const char *const modes[] = {"constant", "reflect", "replicate", "circular"};
  int n;
  if (!op_manip_attr_ints(s, call, "pad_width", false, &pa->width, &n))
    return false;
  if (ndim >= 0 ? n != 2 * ndim : n % 2 != 0)
    return op_fail(s, "pad_width has %d values, not 2 per axis of the data (rank %d)", n, ndim);
  pa->n = n / 2;
  for (int i = 0; i < n; i++) {
    if (pa->width[i] < 0)
      return op_fail(s, "pad_width must not be negative, got %lld", (long long)pa->width[i]);
  }
  const IrAttr *m = op_attr(call, "pad_mode");
  pa->mode = (PadMode)-1;
  for (int i = 0; i < 4; i++)
    if (!m || m->kind == IR_AT_NONE || (m->kind == IR_AT_STR && strcmp(m->u.s, modes[i]) == 0)) {
      pa->mode = (PadMode)i;
      break;
    }
  if ((int)pa->mode < 0)
    return op_fail(s, "pad_mode must be \"constant\", \"reflect\", \"replicate\" or \"circular\"");
  const IrAttr *v = op_attr(call, "pad_value");
  pa->value = 0;
  if (v && v->kind == IR_AT_INT)
    pa->value = (double)v->u.i;
  else if (v && v->kind == IR_AT_FLOAT)
    pa->value = v->u.f;
  else if (v && v->kind != IR_AT_NONE) {
    return op_fail(s, "pad_value must be a number");
  }
  return true;
}

/* reflect mirrors without repeating the edge, so it reads at most size -
 * 1 positions past either end; replicate and circular read the input, so
 * a padded axis needs one. */
bool
op_manip_pad_fits(const OpSite *s, PadMode mode, int axis, int64_t size, int64_t before,
                  int64_t after)
{
  if (mode == PAD_CONSTANT || (before == 0 && after == 0))
    return true;
  if (mode == PAD_REFLECT && (before >= size || after >= size))
    return op_fail(s, "reflect padding of axis %d (%lld, %lld) must be less than its extent %lld",
                   axis, (long long)before, (long long)after, (long long)size);
  if (size == 0)
    return op_fail(s, "axis %d is empty: %s padding has nothing to read", axis,
                   mode == PAD_REPLICATE ? "replicate" : "circular");
  return true;
}

int64_t
op_manip_pad_source(PadMode mode, int64_t i, int64_t size)
{
  if (i >= 0 && i < size)
    return i;
  switch (mode) {
  case PAD_REFLECT:
    return i < 0 ? -i : 2 * size - 2 - i;
  case PAD_REPLICATE:
    return i < 0 ? 0 : size - 1;
  case PAD_CIRCULAR:
    return ((i % size) + size) % size;
  default:
    return -1;
  }
}

static IrSInfo *
infer_pad(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "data");
  PadAttrs pa;
  if (!x || !op_manip_pad_attrs(&s, call, x->u.tensor.ndim, &pa))
    return NULL;
  if (!x->u.tensor.shape)
    return like(in, x, NULL, pa.n);
  IrPrimExpr **out = dims_new(in->ctx, pa.n);
  for (int d = 0; d < pa.n; d++) {
    IrPrimExpr *dim = x->u.tensor.shape[d];
    int64_t before = pa.width[2 * d], after = pa.width[2 * d + 1], size;
    if (ir_prim_is_int(dim, &size) && !op_manip_pad_fits(&s, pa.mode, d, size, before, after))
      return NULL;
    out[d] = simp(in, bin(in, IR_PE_ADD, dim, lit(in->ctx, before + after)));
  }
  return like(in, x, out, pa.n);
}

bool
op_manip_upscale_factor(const OpSite *s, const IrExpr *call, int64_t *r)
{
  const IrAttr *a = op_attr(call, "upscale_factor");
  if (!a || a->kind != IR_AT_INT || a->u.i <= 0)
    return op_fail(s, "upscale_factor must be a positive integer");
  *r = a->u.i;
  return true;
}

/* R.nn.pixel_shuffle: the last three dims (C, H, W) become (C / r^2, H *
 * r, W * r); C must be a multiple of r^2 (an error when provably not). */
static IrSInfo *
infer_pixel_shuffle(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x = tensor_arg(&s, args[0], "data");
  int64_t r;
  if (!x || !op_manip_upscale_factor(&s, call, &r))
    return NULL;
  int ndim = x->u.tensor.ndim;
  if (ndim >= 0 && ndim < 3)
    return op_fail_null(&s, "data must have at least 3 dimensions, not %d", ndim);
  if (!x->u.tensor.shape)
    return x->u.tensor.ndim < 0 ? x : like(in, x, NULL, ndim);
  IrPrimExpr **out = dims_new(in->ctx, ndim), **d = x->u.tensor.shape;
  memcpy(out, d, sizeof *out * (size_t)ndim);
  IrPrimExpr *c = d[ndim - 3], *rem = simp(in, bin(in, IR_PE_FLOORMOD, c, lit(in->ctx, r * r)));
  int64_t v;
  if (ir_prim_is_int(rem, &v) && v != 0)
    return op_fail_null(&s, "data has %s channels, not a multiple of upscale_factor^2 = %lld",
                        expr_text(in->ctx, c), (long long)(r * r));
  out[ndim - 3] = simp(in, bin(in, IR_PE_FLOORDIV, c, lit(in->ctx, r * r)));
  out[ndim - 2] = simp(in, bin(in, IR_PE_MUL, d[ndim - 2], lit(in->ctx, r)));
  out[ndim - 1] = simp(in, bin(in, IR_PE_MUL, d[ndim - 1], lit(in->ctx, r)));
  return like(in, x, out, ndim);
}

/* ------------------------------------------------------------------ */
/* Table                                                               */
/* ------------------------------------------------------------------ */

/* The kernels are in manip_eval.c, the legalize hooks in manip_legalize.c. */
#define E OP_ARG
#define A OP_ATTR

static const OpDef defs[] = {
    OP(IR_OP_PERMUTE_DIMS, "relax.permute_dims", .syn.params = {E("x"), A("axes", "None")},
       .syn.nparams = 2,
       .impl = {infer_permute_dims, op_manip_eval_permute_dims, op_manip_legalize_permute_dims}),
    OP(IR_OP_LAYOUT_TRANSFORM, "relax.layout_transform",
       .syn.params = {E("x"), A("index_map", NULL), A("pad_value", "None")}, .syn.nparams = 3,
       .impl = {op_manip_infer_layout_transform, op_manip_eval_layout_transform,
                op_manip_legalize_layout_transform}),
    OP(IR_OP_RESHAPE, "relax.reshape", .syn.params = {E("x"), {"shape", IR_PARAM_SHAPE, NULL}},
       .syn.nparams = 2, .impl = {infer_reshape, op_manip_eval_reshape, op_manip_legalize_reshape}),
    OP(IR_OP_FLATTEN, "relax.flatten", .syn.params = {E("x")}, .syn.nparams = 1,
       .impl = {infer_flatten, op_manip_eval_flatten, op_manip_legalize_flatten}),
    OP(IR_OP_BATCH_FLATTEN, "relax.nn.batch_flatten", .syn.params = {E("data")}, .syn.nparams = 1,
       .impl = {infer_batch_flatten, op_manip_eval_batch_flatten, op_manip_legalize_flatten}),
    OP(IR_OP_EXPAND_DIMS, "relax.expand_dims", .syn.params = {E("x"), A("axis", NULL)},
       .syn.nparams = 2,
       .impl = {infer_expand_dims, op_manip_eval_expand_dims, op_manip_legalize_expand_dims}),
    OP(IR_OP_SQUEEZE, "relax.squeeze", .syn.params = {E("x"), A("axis", "None")}, .syn.nparams = 2,
       .impl = {infer_squeeze, op_manip_eval_squeeze, op_manip_legalize_squeeze}),
    OP(IR_OP_CONCAT, "relax.concat",
       .syn.params = {{"tensors", IR_PARAM_TUPLE, NULL}, A("axis", "0")}, .syn.nparams = 2,
       .impl = {infer_concat, op_manip_eval_concat, op_manip_legalize_concat}),
    OP(IR_OP_SPLIT, "relax.split",
       .syn.params = {E("x"), A("indices_or_sections", NULL), A("axis", "0")}, .syn.nparams = 3,
       .impl = {infer_split, op_manip_eval_split, op_manip_legalize_split}),
    OP(IR_OP_STRIDED_SLICE, "relax.strided_slice",
       .syn.params = {E("x"), A("axes", NULL), A("begin", NULL), A("end", NULL),
                      A("strides", "None"), A("assume_inbound", "False")},
       .syn.nparams = 6,
       .impl = {infer_strided_slice, op_manip_eval_strided_slice, op_manip_legalize_strided_slice}),
    OP(IR_OP_TAKE, "relax.take",
       .syn.params = {E("x"), E("indices"), A("axis", "None"), A("mode", "\"fast\"")},
       .syn.nparams = 4, .impl = {infer_take, op_manip_eval_take, op_manip_legalize_take},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_BROADCAST_TO, "relax.broadcast_to",
       .syn.params = {E("x"), {"shape", IR_PARAM_SHAPE, NULL}}, .syn.nparams = 2,
       .impl = {infer_broadcast_to, op_manip_eval_broadcast_to, op_manip_legalize_broadcast_to}),
    OP(IR_OP_STACK, "relax.stack",
       .syn.params = {{"tensors", IR_PARAM_TUPLE, NULL}, A("axis", "0")}, .syn.nparams = 2,
       .impl = {infer_stack, op_manip_eval_stack, op_manip_legalize_stack}),
    OP(IR_OP_REPEAT, "relax.repeat",
       .syn.params = {E("data"), A("repeats", NULL), A("axis", "None")}, .syn.nparams = 3,
       .impl = {infer_repeat, op_manip_eval_repeat, op_manip_legalize_repeat}),
    OP(IR_OP_TILE, "relax.tile", .syn.params = {E("data"), A("repeats", NULL)}, .syn.nparams = 2,
       .impl = {infer_tile, op_manip_eval_tile, op_manip_legalize_tile}),
    OP(IR_OP_FLIP, "relax.flip", .syn.params = {E("data"), A("axis", NULL)}, .syn.nparams = 2,
       .impl = {infer_flip, op_manip_eval_flip, op_manip_legalize_flip}),
    OP(IR_OP_ONE_HOT, "relax.one_hot",
       .syn.params = {E("indices"), {"on_value", IR_PARAM_PRIM, NULL},
                      {"off_value", IR_PARAM_PRIM, NULL}, A("depth", NULL), A("axis", "-1")},
       .syn.nparams = 5, .impl = {infer_one_hot, op_manip_eval_one_hot, op_manip_legalize_one_hot}),
    OP(IR_OP_PAD, "relax.nn.pad",
       .syn.params = {E("data"), A("pad_width", NULL), A("pad_mode", "\"constant\""),
                      A("pad_value", "0.0")},
       .syn.nparams = 4, .impl = {infer_pad, op_manip_eval_pad, op_manip_legalize_pad}),
    OP(IR_OP_PIXEL_SHUFFLE, "relax.nn.pixel_shuffle",
       .syn.params = {E("data"), A("upscale_factor", NULL)}, .syn.nparams = 2,
       .impl = {infer_pixel_shuffle, op_manip_eval_pixel_shuffle, op_manip_legalize_pixel_shuffle}),
    OP(IR_OP_DYNAMIC_STRIDED_SLICE, "relax.dynamic_strided_slice",
       .syn.params = {E("x"), E("begin"), E("end"), E("strides")}, .syn.nparams = 4,
       .impl = {op_manip_infer_dynamic_strided_slice, op_manip_eval_dynamic_strided_slice,
                op_legalize_dynamic_strided_slice}),
    OP(IR_OP_MEMORY_VIEW, "relax.memory.view",
       .syn.params = {E("data"), {"shape", IR_PARAM_EXPR, "R.tuple()"},
                      {"dtype", IR_PARAM_EXPR, "R.tuple()"},
                      {"relative_byte_offset", IR_PARAM_EXPR, "R.tuple()"}},
       .syn.nparams = 4,
       .impl = {op_manip_infer_view, op_manip_eval_view, op_manip_legalize_view}),
    OP(IR_OP_REVERSE_SEQUENCE, "relax.reverse_sequence",
       .syn.params = {E("data"), E("seq_lengths"), A("seq_axis", "1"), A("batch_axis", "0")},
       .syn.nparams = 4,
       .impl = {op_manip_infer_reverse_sequence, op_manip_eval_reverse_sequence,
                op_manip_legalize_reverse_sequence}),
    OP(IR_OP_MESHGRID, "relax.meshgrid",
       .syn.params = {{"tensors", IR_PARAM_TUPLE, NULL}, A("indexing", "\"ij\"")},
       .syn.nparams = 2,
       .impl = {op_manip_infer_meshgrid, op_manip_eval_meshgrid, op_manip_legalize_meshgrid}),
    OP(IR_OP_COLLAPSE_SUM_LIKE, "relax.collapse_sum_like",
       .syn.params = {E("data"), E("collapse_target")}, .syn.nparams = 2,
       .impl = {op_manip_infer_collapse_sum_like, op_manip_eval_collapse_sum,
                op_manip_legalize_collapse_sum}),
    OP(IR_OP_COLLAPSE_SUM_TO, "relax.collapse_sum_to",
       .syn.params = {E("data"), {"shape", IR_PARAM_SHAPE, NULL}}, .syn.nparams = 2,
       .impl = {op_manip_infer_collapse_sum_to, op_manip_eval_collapse_sum,
                op_manip_legalize_collapse_sum}),
    OP(IR_OP_GATHER_ELEMENTS, "relax.gather_elements",
       .syn.params = {E("data"), E("indices"), A("axis", "0")}, .syn.nparams = 3,
       .impl = {op_manip_infer_gather_elements, op_manip_eval_gather_elements,
                op_manip_legalize_gather_elements},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_GATHER_ND, "relax.gather_nd",
       .syn.params = {E("data"), E("indices"), A("batch_dims", "0")}, .syn.nparams = 3,
       .impl = {op_manip_infer_gather_nd, op_manip_eval_gather_nd, op_manip_legalize_gather_nd},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_INDEX_TENSOR, "relax.index_tensor",
       .syn.params = {E("data"), {"indices", IR_PARAM_TUPLE, NULL}}, .syn.nparams = 2,
       .impl = {op_manip_infer_index_tensor, op_manip_eval_index_tensor,
                op_manip_legalize_index_tensor},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_INDEX_PUT, "relax.index_put",
       .syn.params = {E("data"), {"indices", IR_PARAM_TUPLE, NULL}, E("values"),
                      A("accumulate", "False")},
       .syn.nparams = 4,
       .impl = {op_manip_infer_index_put, op_manip_eval_index_put, op_manip_legalize_index_put},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_SCATTER_ELEMENTS, "relax.scatter_elements",
       .syn.params = {E("data"), E("indices"), E("updates"), A("axis", "0"),
                      A("reduction", "\"update\"")},
       .syn.nparams = 5,
       .impl = {op_manip_infer_scatter_elements, op_manip_eval_scatter_elements,
                op_manip_legalize_scatter_elements},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_SCATTER_ND, "relax.scatter_nd",
       .syn.params = {E("data"), E("indices"), E("updates"), A("reduction", "\"update\"")},
       .syn.nparams = 4,
       .impl = {op_manip_infer_scatter_nd, op_manip_eval_scatter_nd, op_manip_legalize_scatter_nd},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_SLICE_SCATTER, "relax.slice_scatter",
       .syn.params = {E("input_tensor"), E("src"), {"start", IR_PARAM_PRIM, NULL},
                      {"end", IR_PARAM_PRIM, NULL}, {"step", IR_PARAM_PRIM, NULL}, A("axis", "0")},
       .syn.nparams = 6,
       .impl = {op_manip_infer_slice_scatter, op_manip_eval_slice_scatter,
                op_manip_legalize_slice_scatter}),
};

const OpTable op_manip_table = {defs, sizeof defs / sizeof defs[0]};
