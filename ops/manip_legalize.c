/*
 * manip_legalize.c - LegalizeOps for the manipulation ops: each call
 * becomes R.call_tir of a T.prim_func that computes what its kernel in
 * manip_eval.c computes.
 *
 * Key idea: every lowering is a copy.  A loop nest runs over an output's
 * shape (from the call's inferred struct info, so symbolic dims stay
 * symbolic) and stores into each element the input element the kernel
 * would copy there; only the index arithmetic differs between ops.
 * concat and split make one loop nest per input or per output piece.
 * Index expressions are int64 and folded where their operands are
 * literals, so static shapes give plain constants.
 *
 * one_hot is the one lowering that stores values not loaded from an
 * input: its prim values, selected by comparing each index with the
 * output's index along the new axis.
 *
 * What R.take's kernel refuses (an index outside [-n, n) in mode "fast",
 * any index into an empty axis) is checked by TIR asserts before the loop
 * that writes (op_prim_check_loops), so the generated C refuses it too,
 * and the gather that follows reads a checked index without a clamp;
 * valid indices (negative ones counted from the end, as the kernel does)
 * give exactly the kernel's result.
 */
#include <string.h>

#include "manip_int.h"
#include "tir_build.h"

/* ------------------------------------------------------------------ */
/* Index arithmetic (int64, folded on literals)                        */
/* ------------------------------------------------------------------ */

static IrPrimExpr *
lit(IrCtx *ctx, int64_t v)
{
  return ir_prim_int(ctx, IR_I64, v);
}

static bool
is_lit(const IrPrimExpr *e, int64_t v)
{
  int64_t x;
  return ir_prim_is_int(e, &x) && x == v;
}

static int64_t
floor_div(int64_t a, int64_t b)
{
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Folds a op b when both are literals (no overflow or division by zero
 * possible for the values that reach here: dims and indices of tensors
 * that exist); false otherwise. */
static bool
fold(IrPrimKind k, int64_t a, int64_t b, int64_t *r)
{
  switch (k) {
  case IR_PE_ADD:
    *r = a + b;
    return true;
  case IR_PE_SUB:
    *r = a - b;
    return true;
  case IR_PE_MUL:
    *r = a * b;
    return true;
  case IR_PE_FLOORDIV:
    if (b == 0 || (a == INT64_MIN && b == -1))
      return false;
    *r = floor_div(a, b);
    return true;
  case IR_PE_FLOORMOD:
    if (b == 0 || b == -1)
      return false;
    *r = a - floor_div(a, b) * b;
    return true;
  case IR_PE_MIN:
    *r = a < b ? a : b;
    return true;
  case IR_PE_MAX:
    *r = a > b ? a : b;
    return true;
  default:
    return false;
  }
}

/* a op b, with literals folded and the identities x+0, x-0, x*1, x//1,
 * x%1 and x*0 applied. */
static IrPrimExpr *
arith(IrCtx *ctx, IrPrimKind k, IrPrimExpr *a, IrPrimExpr *b)
{
  int64_t x, y, r;
  if (ir_prim_is_int(a, &x) && ir_prim_is_int(b, &y) && fold(k, x, y, &r))
    return lit(ctx, r);
  if ((k == IR_PE_ADD || k == IR_PE_SUB) && is_lit(b, 0))
    return a;
  if (k == IR_PE_ADD && is_lit(a, 0))
    return b;
  if ((k == IR_PE_MUL || k == IR_PE_FLOORDIV) && is_lit(b, 1))
    return a;
  if (k == IR_PE_MUL && is_lit(a, 1))
    return b;
  if ((k == IR_PE_MUL && (is_lit(a, 0) || is_lit(b, 0))) || (k == IR_PE_FLOORMOD && is_lit(b, 1)))
    return lit(ctx, 0);
  return ir_prim_bin(ctx, k, a, b);
}

/* min(max(v, lo), hi) */
static IrPrimExpr *
clamp(IrCtx *ctx, IrPrimExpr *v, IrPrimExpr *lo, IrPrimExpr *hi)
{
  return arith(ctx, IR_PE_MIN, arith(ctx, IR_PE_MAX, v, lo), hi);
}

static IrPrimExpr **
index_new(IrCtx *ctx, int n)
{
  return ir_alloc(ctx, sizeof(IrPrimExpr *) * (size_t)(n ? n : 1));
}

/* The product of dims[from..n). */
static IrPrimExpr *
product(IrCtx *ctx, IrPrimExpr **dims, int from, int n)
{
  IrPrimExpr *p = lit(ctx, 1);
  for (int i = from; i < n; i++)
    p = arith(ctx, IR_PE_MUL, p, dims[i]);
  return p;
}

/* The row-major flat position of index o in a shape. */
static IrPrimExpr *
flatten_index(IrCtx *ctx, IrPrimExpr **o, IrPrimExpr **dims, int n)
{
  IrPrimExpr *flat = lit(ctx, 0);
  for (int d = 0; d < n; d++)
    flat = arith(ctx, IR_PE_ADD, arith(ctx, IR_PE_MUL, flat, dims[d]), o[d]);
  return flat;
}

/* The index in a shape of row-major flat position flat (which must be
 * below the shape's element count: dim 0 takes no modulo). */
static IrPrimExpr **
unflatten_index(IrCtx *ctx, IrPrimExpr *flat, IrPrimExpr **dims, int n)
{
  IrPrimExpr **idx = index_new(ctx, n);
  for (int k = n - 1; k >= 0; k--) {
    idx[k] = k == 0 ? flat : arith(ctx, IR_PE_FLOORMOD, flat, dims[k]);
    flat = arith(ctx, IR_PE_FLOORDIV, flat, dims[k]);
  }
  return idx;
}

/* ------------------------------------------------------------------ */
/* One input, one output: out[o] = x[map(o)]                           */
/* ------------------------------------------------------------------ */

/* The input index read for output index o; NULL to give up. */
typedef IrPrimExpr **(*IndexFn)(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o,
                                const void *env);

/* The prim_func "name" with input x = the call's first argument and one
 * output T_<name> of struct info result, copying x[map(o)] to out[o];
 * NULL (nothing made) when x's or the result's shape is not known. */
static IrExpr *
lower_gather(OpLegalize *lz, const IrExpr *call, IrSInfo *result, const char *name, IndexFn map,
             const void *env)
{
  OpPrim p;
  IrBuffer *x, *out;
  if (!op_prim_open(lz, &p, name, call, result,
                    (OpPrimParam[]){{"A", &x}, {ir_printf(lz->ctx, "T_%s", name), &out}}, 2))
    return NULL;
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  IrPrimExpr **xi = map(&p, x, out, o, env);
  if (!xi)
    return op_prim_give_up(&p);
  *body = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  return op_prim_finish(&p, call, result);
}

/* out[o] = x[perm^-1(o)]: output dim d is input dim perm[d]. */
static IrPrimExpr **
index_permute(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  const int *perm = env;
  IrPrimExpr **xi = index_new(p->lz->ctx, x->ndim);
  if (out->ndim != x->ndim)
    return NULL;
  for (int d = 0; d < x->ndim; d++)
    xi[perm[d]] = o[d];
  return xi;
}

IrExpr *
op_manip_legalize_permute_dims(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  const IrSInfo *x = call->u.call.args[0]->sinfo;
  int *perm;
  if (!x || x->kind != IR_SI_TENSOR || x->u.tensor.ndim < 0 ||
      !op_manip_permutation(&s, call, x->u.tensor.ndim, &perm))
    return NULL;
  return lower_gather(lz, call, result, "transpose", index_permute, perm);
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
  IrPrimExpr **idx =
      unflatten_index(ctx, flatten_index(ctx, o, out->shape, out->ndim), x->shape, x->ndim);
  for (int d = 0; d < x->ndim; d++)
    idx[d] = ir_arith_simplify(a, idx[d]);
  return idx;
}

/* A -1 of the new shape is already resolved in the result's struct info. */
IrExpr *
op_manip_legalize_reshape(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  return lower_gather(lz, call, result, "reshape", index_relayout, NULL);
}

IrExpr *
op_manip_legalize_flatten(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  return lower_gather(lz, call, result, "reshape", index_relayout, NULL);
}

/* expand_dims: output dims marked in the mask are new (size 1), the
 * others are x's in order. */
static IrPrimExpr **
index_expand(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  const bool *mask = env;
  IrPrimExpr **xi = index_new(p->lz->ctx, x->ndim);
  int j = 0;
  for (int d = 0; d < out->ndim; d++)
    if (!mask[d]) {
      if (j == x->ndim)
        return NULL;
      xi[j++] = o[d];
    }
  return j == x->ndim ? xi : NULL;
}

IrExpr *
op_manip_legalize_expand_dims(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  const IrSInfo *x = call->u.call.args[0]->sinfo;
  int out_ndim;
  bool *mask;
  if (!x || x->kind != IR_SI_TENSOR || x->u.tensor.ndim < 0 ||
      !op_manip_expand_mask(&s, call, x->u.tensor.ndim, &out_ndim, &mask))
    return NULL;
  return lower_gather(lz, call, result, "expand_dims", index_expand, mask);
}

/* squeeze: input dims marked in drop (of size 1) read index 0, the others
 * are the output's in order. */
static IrPrimExpr **
index_squeeze(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  const bool *drop = env;
  IrPrimExpr **xi = index_new(p->lz->ctx, x->ndim);
  int j = 0;
  for (int d = 0; d < x->ndim; d++) {
    if (drop[d])
      xi[d] = lit(p->lz->ctx, 0);
    else if (j < out->ndim)
      xi[d] = o[j++];
    else
      return NULL;
  }
  return j == out->ndim ? xi : NULL;
}

/* The axes squeeze drops: those named, or with axis=None the dims that
 * are the literal 1.  When that does not match the result's rank (a
 * symbolic dim inference proved to be 1), the data is relaid instead. */
IrExpr *
op_manip_legalize_squeeze(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  const IrSInfo *x = call->u.call.args[0]->sinfo;
  int64_t *axes;
  int n, *norm;
  if (!x || x->kind != IR_SI_TENSOR || !x->u.tensor.shape || x->u.tensor.ndim < 0 ||
      result->kind != IR_SI_TENSOR || !op_manip_attr_ints(&s, call, "axis", true, &axes, &n))
    return NULL;
  int ndim = x->u.tensor.ndim, kept = ndim;
  bool *drop = ir_alloc(lz->ctx, (size_t)(ndim ? ndim : 1));
  if (n >= 0 && !op_manip_norm_axes(&s, axes, n, ndim, &norm))
    return NULL;
  for (int i = 0; i < (n < 0 ? ndim : n); i++) {
    int a = n < 0 ? i : norm[i];
    drop[a] = n >= 0 || is_lit(x->u.tensor.shape[a], 1);
    kept -= drop[a];
  }
  if (kept != result->u.tensor.ndim)
    return lower_gather(lz, call, result, "squeeze", index_relayout, NULL);
  return lower_gather(lz, call, result, "squeeze", index_squeeze, drop);
}

/* broadcast_to: x's dims align with the output's last ones; a dim of
 * size 1 reads index 0.  A symbolic dim of x that may be 1 or the
 * output's dim decides at run time, as the kernel does. */
static IrPrimExpr **
index_broadcast(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  (void)env;
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **xi = index_new(ctx, x->ndim);
  int lead = out->ndim - x->ndim;
  if (lead < 0)
    return NULL;
  for (int d = 0; d < x->ndim; d++) {
    IrPrimExpr *xd = x->shape[d], *od = out->shape[lead + d];
    if (is_lit(xd, 1))
      xi[d] = lit(ctx, 0);
    else if (ir_prim_is_int(xd, NULL) || ir_prim_expr_equal(xd, od))
      xi[d] = o[lead + d]; /* x's dim is not 1, so it is the output's */
    else
      xi[d] = ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_EQ, xd, lit(ctx, 1)), lit(ctx, 0),
                             o[lead + d]);
  }
  return xi;
}

IrExpr *
op_manip_legalize_broadcast_to(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  return lower_gather(lz, call, result, "broadcast_to", index_broadcast, NULL);
}

/* The first index of a slice of an axis of n elements, as
 * op_manip_slice_axis and inference's slice_index compute it: a negative
 * begin counts from the end, then (unless inbound) it is clamped to
 * [0, n] or, for a negative stride, [-1, n - 1].  NULL when inbound was
 * promised and a static n breaks it (inference reported that). */
static IrPrimExpr *
slice_start(IrCtx *ctx, IrPrimExpr *n, int64_t begin, int64_t end, int64_t stride, bool inbound)
{
  int64_t c, start, len;
  if (ir_prim_is_int(n, &c))
    return op_manip_slice_axis(c, begin, end, stride, inbound, &start, &len) ? lit(ctx, start)
                                                                             : NULL;
  if (!inbound && (begin >= MANIP_HUGE_INDEX || begin <= -MANIP_HUGE_INDEX)) {
    if (stride > 0)
      return begin > 0 ? n : lit(ctx, 0);
    return begin > 0 ? arith(ctx, IR_PE_SUB, n, lit(ctx, 1)) : lit(ctx, -1);
  }
  IrPrimExpr *v = begin < 0 ? arith(ctx, IR_PE_SUB, n, lit(ctx, -begin)) : lit(ctx, begin);
  if (inbound)
    return v;
  if (stride < 0)
    return clamp(ctx, v, lit(ctx, -1), arith(ctx, IR_PE_SUB, n, lit(ctx, 1)));
  return clamp(ctx, v, lit(ctx, 0), n);
}

/* strided_slice: a sliced axis reads start + o * stride. */
static IrPrimExpr **
index_slice(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  const SliceAttrs *sa = env;
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **xi = index_new(ctx, x->ndim);
  if (out->ndim != x->ndim)
    return NULL;
  memcpy(xi, o, sizeof(IrPrimExpr *) * (size_t)x->ndim);
  for (int i = 0; i < sa->n; i++) {
    int a = sa->axes[i];
    IrPrimExpr *start =
        slice_start(ctx, x->shape[a], sa->begin[i], sa->end[i], sa->strides[i], sa->inbound);
    if (!start)
      return NULL;
    xi[a] = arith(ctx, IR_PE_ADD, start, arith(ctx, IR_PE_MUL, o[a], lit(ctx, sa->strides[i])));
  }
  return xi;
}

IrExpr *
op_manip_legalize_strided_slice(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  const IrSInfo *x = call->u.call.args[0]->sinfo;
  static const char *const bounds[] = {"begin", "end", "strides"};
  for (int b = 0; b < 3; b++) {
    const IrAttr *a = op_attr(call, bounds[b]);
    for (int i = 0; a && a->kind == IR_AT_LIST && i < a->u.list.n; i++)
      if (a->u.list.items[i]->kind == IR_AT_PRIM) {
        /* inference takes them (TVM's rule); a kernel does not yet */
        return op_fail_null(&s, "a symbolic %s: the lowering is not implemented yet", bounds[b]);
      }
  }
  SliceAttrs sa;
  if (!x || x->kind != IR_SI_TENSOR || x->u.tensor.ndim < 0 ||
      !op_manip_slice_attrs(&s, call, x->u.tensor.ndim, &sa))
    return NULL;
  return lower_gather(lz, call, result, "strided_slice", index_slice, &sa);
}

/* ------------------------------------------------------------------ */
/* take                                                                */
/* ------------------------------------------------------------------ */

/* Index i (int64) into an axis of n elements, resolved by mode as
 * take_indices in the kernel does: clip clamps, wrap is i mod n, fast
 * counts a negative i from the end (take_checks has refused what is
 * still out of range, before this read runs, so no clamp is needed and
 * no read leaves the axis). */
static IrPrimExpr *
take_resolve(IrCtx *ctx, IrPrimExpr *i, IrPrimExpr *n, int mode)
{
  IrPrimExpr *last = arith(ctx, IR_PE_SUB, n, lit(ctx, 1));
  if (mode == 2)
    return arith(ctx, IR_PE_FLOORMOD, i, n);
  if (mode == 0)
    return ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_LT, i, lit(ctx, 0)),
                          arith(ctx, IR_PE_ADD, i, n), i);
  return clamp(ctx, i, lit(ctx, 0), last);
}

/* Is arg a constant whose every element i has -n <= i < n? */
static bool
const_within(const IrExpr *arg, int64_t n)
{
  if (arg->kind != IR_EX_CONST)
    return false;
  for (int64_t k = 0, count = op_numel(&arg->u.constant); k < count; k++) {
    int64_t i = op_get_i(&arg->u.constant, k);
    if (i < -n || i >= n)
      return false;
  }
  return true;
}

/* take_indices' refusals, checked before the loop that writes: in mode
 * fast each index outside [-n, n), in every mode an index into an axis of
 * n = 0 elements (all of them, even when the output is empty, as the
 * kernel resolves every index first). */
static void
take_checks(OpPrim *p, const IrExpr *indices, IrBuffer *x, IrBuffer *ix, int axis, bool flat,
            int mode)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *n = flat ? product(ctx, x->shape, 0, x->ndim) : x->shape[axis], **ii;
  int64_t v;
  IrStmt **slot;
  if (ir_prim_is_int(n, &v) && v > 0 && const_within(indices, mode == 0 ? v : INT64_MAX))
    return; /* constant indices (ONNX's Gather of a shape) checked now */
  if (mode == 0) {
    slot = op_prim_check_loops(p, ix->shape, ix->ndim, &ii, NULL);
    *slot = op_prim_assert_index(p, op_prim_load(p, ix, ii), n);
    return;
  }
  if (ir_prim_is_int(n, &v) && v > 0)
    return;
  slot = op_prim_check_loops(p, NULL, 0, &ii, op_prim_nonempty(ctx, ix->shape, ix->ndim));
  *slot = op_prim_assert(p, ir_prim_bin(ctx, IR_PE_GT, n, lit(ctx, 0)), "index out of range");
}

/* The index read from x for output index o: the output's dims are x's
 * before axis, indices', then x's after axis; with axis=None (flat) x is
 * read at the resolved flat position. */
static IrPrimExpr **
take_index(OpPrim *p, IrBuffer *x, IrBuffer *ix, IrPrimExpr **o, int axis, bool flat, int mode)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **ii = index_new(ctx, ix->ndim);
  for (int d = 0; d < ix->ndim; d++)
    ii[d] = o[(flat ? 0 : axis) + d];
  IrPrimExpr *i = op_prim_load(p, ix, ii);
  if (!ir_dtype_eq(i->dtype, IR_I64))
    i = ir_prim_cast(ctx, IR_I64, i);
  if (flat)
    return unflatten_index(ctx, take_resolve(ctx, i, product(ctx, x->shape, 0, x->ndim), mode),
                           x->shape, x->ndim);
  IrPrimExpr **xi = index_new(ctx, x->ndim);
  for (int d = 0; d < x->ndim; d++)
    xi[d] = d < axis   ? o[d]
            : d > axis ? o[d - 1 + ix->ndim]
                       : take_resolve(ctx, i, x->shape[axis], mode);
  return xi;
}

IrExpr *
op_manip_legalize_take(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  const IrSInfo *xs = call->u.call.args[0]->sinfo;
  int mode = op_manip_take_mode(&s, call), axis;
  bool none;
  if (mode < 0 || call->u.call.nargs < 2 || !xs || xs->kind != IR_SI_TENSOR ||
      xs->u.tensor.ndim < 0 || !op_manip_axis_attr(&s, call, true, xs->u.tensor.ndim, &axis, &none))
    return NULL;
  OpPrim p;
  IrBuffer *x, *ix, *out;
  if (!op_prim_open(lz, &p, "take", call, result,
                    (OpPrimParam[]){{"A", &x}, {"B", &ix}, {"T_take", &out}}, 3))
    return NULL;
  int want = none ? ix->ndim : x->ndim - 1 + ix->ndim;
  if (out->ndim != want || (ix->dtype.code != IR_DT_INT && ix->dtype.code != IR_DT_UINT))
    return op_prim_give_up(&p);
  take_checks(&p, call->u.call.args[1], x, ix, axis, none, mode);
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  IrPrimExpr **xi = take_index(&p, x, ix, o, axis, none, mode);
  *body = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  return op_prim_finish(&p, call, result);
}

/* ------------------------------------------------------------------ */
/* concat and split: one loop nest per piece                           */
/* ------------------------------------------------------------------ */

/* A loop nest over the shape of `over` storing dst[o'] = src[o''], where
 * o' and o'' are o with dst_off (resp. src_off) added along axis. */
static void
copy_window(OpPrim *p, IrBuffer *dst, IrBuffer *src, IrBuffer *over, int axis, IrPrimExpr *dst_off,
            IrPrimExpr *src_off)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(p, over->shape, over->ndim, &o);
  IrPrimExpr **di = index_new(ctx, over->ndim), **si = index_new(ctx, over->ndim);
  memcpy(di, o, sizeof(IrPrimExpr *) * (size_t)over->ndim);
  memcpy(si, o, sizeof(IrPrimExpr *) * (size_t)over->ndim);
  di[axis] = arith(ctx, IR_PE_ADD, o[axis], dst_off);
  si[axis] = arith(ctx, IR_PE_ADD, o[axis], src_off);
  *body = op_prim_store(p, dst, di, op_prim_load(p, src, si));
}

/* concat of a tuple literal (each field an input buffer): input k is
 * copied at the sum of the earlier inputs' dims along axis.  A tuple held
 * in a var is left to the interpreter (its fields are no leaves that
 * call_tir could take). */
IrExpr *
op_manip_legalize_concat(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  const IrExpr *tuple = call->u.call.args[0];
  int axis;
  bool none;
  if (tuple->kind != IR_EX_TUPLE || tuple->u.tuple.n == 0 || result->kind != IR_SI_TENSOR ||
      !op_manip_axis_attr(&s, call, true, result->u.tensor.ndim, &axis, &none))
    return NULL;
  axis = none ? 0 : axis;
  OpPrim p;
  op_prim_begin(lz, &p, "concatenate");
  IrBuffer *out = op_prim_output(&p, result, "T_concat");
  IrBuffer **xs = ir_alloc(lz->ctx, sizeof(IrBuffer *) * (size_t)tuple->u.tuple.n);
  for (int k = 0; out && k < tuple->u.tuple.n; k++) {
    xs[k] = op_prim_input(&p, tuple->u.tuple.items[k], ir_printf(lz->ctx, "A%d", k));
    if (!xs[k] || xs[k]->ndim != out->ndim)
      out = NULL;
  }
  if (!out || out->ndim == 0) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr *off = lit(lz->ctx, 0);
  for (int k = 0; k < tuple->u.tuple.n; k++) {
    copy_window(&p, out, xs[k], xs[k], axis, off, lit(lz->ctx, 0));
    off = arith(lz->ctx, IR_PE_ADD, off, xs[k]->shape[axis]);
  }
  return op_prim_finish(&p, call, result);
}

/* The first index of piece k of a split along a dim of dim elements (the
 * kernel's split_bounds): k * ceildiv(dim, n) for n sections, else the
 * previous index clamped to [0, dim]. */
static IrPrimExpr *
split_start(IrCtx *ctx, IrPrimExpr *dim, const int64_t *idx, bool sections, int k)
{
  if (sections) {
    IrPrimExpr *n = lit(ctx, idx[0]);
    IrPrimExpr *piece =
        arith(ctx, IR_PE_FLOORDIV, arith(ctx, IR_PE_ADD, dim, lit(ctx, idx[0] - 1)), n);
    return arith(ctx, IR_PE_MUL, lit(ctx, k), piece);
  }
  if (k == 0 || idx[k - 1] <= 0)
    return lit(ctx, 0);
  return arith(ctx, IR_PE_MIN, lit(ctx, idx[k - 1]), dim);
}

/* split: one output per piece (result is their tuple; one piece is a
 * tensor, a copy of x), each a window of x along axis. */
IrExpr *
op_manip_legalize_split(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  const IrSInfo *xs = call->u.call.args[0]->sinfo;
  int64_t *idx, pieces;
  int nidx, axis;
  bool sections, none;
  if (!xs || xs->kind != IR_SI_TENSOR || xs->u.tensor.ndim < 1 ||
      !op_manip_split_attrs(&s, call, &idx, &nidx, &sections, &pieces) ||
      !op_manip_axis_attr(&s, call, false, xs->u.tensor.ndim, &axis, &none))
    return NULL;
  bool multi = result->kind == IR_SI_TUPLE;
  if (multi ? result->u.tuple.n != pieces : pieces != 1)
    return NULL;
  OpPrim p;
  op_prim_begin(lz, &p, "split");
  IrBuffer *x = op_prim_input(&p, call->u.call.args[0], "A");
  IrBuffer **outs = ir_alloc(lz->ctx, sizeof(IrBuffer *) * (size_t)pieces);
  for (int k = 0; x && k < pieces; k++) {
    const IrSInfo *field = multi ? result->u.tuple.fields[k] : result;
    outs[k] = op_prim_output(&p, field, k ? ir_printf(lz->ctx, "T_split_%d", k) : "T_split");
    if (!outs[k] || outs[k]->ndim != x->ndim)
      x = NULL;
  }
  if (!x) {
    op_prim_abort(&p);
    return NULL;
  }
  for (int k = 0; k < pieces; k++)
    copy_window(&p, outs[k], x, outs[k], axis, lit(lz->ctx, 0),
                split_start(lz->ctx, x->shape[axis], idx, sections, k));
  return op_prim_finish(&p, call, result);
}

/* ------------------------------------------------------------------ */
/* stack, repeat, tile, flip, one_hot                                  */
/* ------------------------------------------------------------------ */

/* stack of a tuple literal, as concat: one loop nest per input k storing
 * it at index k of the new axis. */
IrExpr *
op_manip_legalize_stack(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  const IrExpr *tuple = call->u.call.args[0];
  int axis;
  bool none;
  if (tuple->kind != IR_EX_TUPLE || tuple->u.tuple.n == 0 || result->kind != IR_SI_TENSOR ||
      result->u.tensor.ndim < 1 ||
      !op_manip_axis_attr(&s, call, false, result->u.tensor.ndim, &axis, &none))
    return NULL;
  OpPrim p;
  op_prim_begin(lz, &p, "stack");
  IrBuffer *out = op_prim_output(&p, result, "T_stack");
  IrBuffer **xs = ir_alloc(lz->ctx, sizeof(IrBuffer *) * (size_t)tuple->u.tuple.n);
  for (int k = 0; out && k < tuple->u.tuple.n; k++) {
    xs[k] = op_prim_input(&p, tuple->u.tuple.items[k], ir_printf(lz->ctx, "A%d", k));
    if (!xs[k] || xs[k]->ndim + 1 != out->ndim)
      out = NULL;
  }
  if (!out) {
    op_prim_abort(&p);
    return NULL;
  }
  for (int k = 0; k < tuple->u.tuple.n; k++) {
    IrPrimExpr **o;
    IrStmt **body = op_prim_loops(&p, xs[k]->shape, xs[k]->ndim, &o);
    IrPrimExpr **oi = index_new(lz->ctx, out->ndim);
    for (int d = 0, j = 0; d < out->ndim; d++)
      oi[d] = d == axis ? lit(lz->ctx, k) : o[j++];
    *body = op_prim_store(&p, out, oi, op_prim_load(&p, xs[k], o));
  }
  return op_prim_finish(&p, call, result);
}

typedef struct {
  int axis;      /* the repeated axis, or -1 for axis=None (flat) */
  int64_t count; /* repeats */
} RepeatIndex;

/* repeat: output index j along the axis (or of the flat output) reads
 * j // repeats.  With repeats 0 the output is empty and no index is read. */
static IrPrimExpr **
index_repeat(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  const RepeatIndex *r = env;
  IrCtx *ctx = p->lz->ctx;
  int axis = r->axis < 0 ? 0 : r->axis;
  if (r->axis < 0 ? out->ndim != 1 : out->ndim != x->ndim)
    return NULL;
  IrPrimExpr *j = r->count ? arith(ctx, IR_PE_FLOORDIV, o[axis], lit(ctx, r->count)) : lit(ctx, 0);
  if (r->axis < 0)
    return unflatten_index(ctx, j, x->shape, x->ndim);
  IrPrimExpr **xi = index_new(ctx, x->ndim);
  memcpy(xi, o, sizeof(IrPrimExpr *) * (size_t)x->ndim);
  xi[axis] = j;
  return xi;
}

IrExpr *
op_manip_legalize_repeat(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  const IrSInfo *x = call->u.call.args[0]->sinfo;
  RepeatIndex r;
  bool none;
  if (!x || x->kind != IR_SI_TENSOR || x->u.tensor.ndim < 0 ||
      !op_manip_repeat_count(&s, call, &r.count) ||
      !op_manip_axis_attr(&s, call, true, x->u.tensor.ndim, &r.axis, &none))
    return NULL;
  r.axis = none ? -1 : r.axis;
  return lower_gather(lz, call, result, "repeat", index_repeat, &r);
}

typedef struct {
  const int64_t *reps;
  int n;
} TileIndex;

/* tile: x's dims align with the output's last ones; index j of a dim
 * reads j mod x's dim (j itself where the count is 1, 0 where x's dim is
 * 1; an x dim of 0 gives an empty output, nothing read). */
static IrPrimExpr **
index_tile(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  const TileIndex *t = env;
  IrCtx *ctx = p->lz->ctx;
  int off = out->ndim - x->ndim;
  if (off < 0 || out->ndim != (x->ndim > t->n ? x->ndim : t->n))
    return NULL;
  IrPrimExpr **xi = index_new(ctx, x->ndim);
  for (int d = 0; d < x->ndim; d++) {
    int ri = d + off - (out->ndim - t->n);
    int64_t rep = ri < 0 ? 1 : t->reps[ri];
    IrPrimExpr *j = o[d + off];
    if (is_lit(x->shape[d], 1))
      xi[d] = lit(ctx, 0);
    else if (rep == 1 || is_lit(x->shape[d], 0))
      xi[d] = j;
    else
      xi[d] = arith(ctx, IR_PE_FLOORMOD, j, x->shape[d]);
  }
  return xi;
}

IrExpr *
op_manip_legalize_tile(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  TileIndex t;
  int64_t *reps;
  if (!op_manip_tile_repeats(&s, call, &reps, &t.n))
    return NULL;
  t.reps = reps;
  return lower_gather(lz, call, result, "tile", index_tile, &t);
}

/* flip: index j of the axis reads dim - 1 - j. */
static IrPrimExpr **
index_flip(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  int axis = *(const int *)env;
  IrCtx *ctx = p->lz->ctx;
  if (out->ndim != x->ndim || axis >= x->ndim)
    return NULL;
  IrPrimExpr **xi = index_new(ctx, x->ndim);
  memcpy(xi, o, sizeof(IrPrimExpr *) * (size_t)x->ndim);
  xi[axis] = arith(ctx, IR_PE_SUB, arith(ctx, IR_PE_SUB, x->shape[axis], lit(ctx, 1)), o[axis]);
  return xi;
}

IrExpr *
op_manip_legalize_flip(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  const IrSInfo *x = call->u.call.args[0]->sinfo;
  int axis;
  bool none;
  if (!x || x->kind != IR_SI_TENSOR || x->u.tensor.ndim < 0 ||
      !op_manip_axis_attr(&s, call, false, x->u.tensor.ndim, &axis, &none))
    return NULL;
  return lower_gather(lz, call, result, "flip", index_flip, &axis);
}

/* A prim value argument (on_value, off_value) as a TIR expression of
 * dtype t; NULL when it is not an R.prim_value literal. */
static IrPrimExpr *
prim_arg(OpPrim *p, const IrExpr *arg, IrDType t)
{
  if (arg->kind != IR_EX_PRIM)
    return NULL;
  IrPrimExpr *v = op_prim_dim(p, arg->u.prim);
  return v && !ir_dtype_eq(v->dtype, t) ? ir_prim_cast(p->lz->ctx, t, v) : v;
}

/* one_hot: out[o] = indices[o without axis] == o[axis] ? on : off, the
 * index compared as int64 (so a negative or too large one matches no j,
 * as in the kernel). */
IrExpr *
op_manip_legalize_one_hot(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  const IrSInfo *is = call->u.call.args[0]->sinfo;
  int64_t depth;
  int axis;
  if (call->u.call.nargs < 3 || !is || is->kind != IR_SI_TENSOR || is->u.tensor.ndim < 0 ||
      result->kind != IR_SI_TENSOR ||
      !op_manip_one_hot_attrs(&s, call, is->u.tensor.ndim, &depth, &axis))
    return NULL;
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  IrBuffer *ix, *out;
  if (!op_prim_open(lz, &p, "one_hot", call, result,
                    (OpPrimParam[]){{"A", &ix}, {"T_one_hot", &out}}, 2))
    return NULL;
  IrPrimExpr *on = prim_arg(&p, call->u.call.args[1], out->dtype);
  IrPrimExpr *off = on ? prim_arg(&p, call->u.call.args[2], out->dtype) : NULL;
  if (!off || out->ndim != ix->ndim + 1 ||
      (ix->dtype.code != IR_DT_INT && ix->dtype.code != IR_DT_UINT)) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  IrPrimExpr **ii = index_new(ctx, ix->ndim);
  for (int d = 0, k = 0; d < out->ndim; d++)
    if (d != axis)
      ii[k++] = o[d];
  IrPrimExpr *v = op_prim_load(&p, ix, ii);
  if (!ir_dtype_eq(v->dtype, IR_I64))
    v = ir_prim_cast(ctx, IR_I64, v);
  IrPrimExpr *hit = ir_prim_bin(ctx, IR_PE_EQ, v, o[axis]);
  *body = op_prim_store(&p, out, o, ir_prim_select(ctx, hit, on, off));
  return op_prim_finish(&p, call, result);
}

/* ------------------------------------------------------------------ */
/* pad, pixel_shuffle (batch_flatten is flatten's relayout)            */
/* ------------------------------------------------------------------ */

/* pixel_shuffle: out[..., c, h, w] = x[..., c*r*r + (h % r)*r + w % r,
 * h // r, w // r]. */
static IrPrimExpr **
index_pixel_shuffle(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  IrCtx *ctx = p->lz->ctx;
  int64_t r = *(const int64_t *)env;
  int n = x->ndim;
  if (out->ndim != n || n < 3)
    return NULL;
  IrPrimExpr **xi = index_new(ctx, n), *rr = lit(ctx, r);
  for (int d = 0; d < n - 3; d++)
    xi[d] = o[d];
  IrPrimExpr *row = arith(ctx, IR_PE_MUL, arith(ctx, IR_PE_FLOORMOD, o[n - 2], rr), rr);
  IrPrimExpr *sub = arith(ctx, IR_PE_ADD, row, arith(ctx, IR_PE_FLOORMOD, o[n - 1], rr));
  xi[n - 3] = arith(ctx, IR_PE_ADD, arith(ctx, IR_PE_MUL, o[n - 3], lit(ctx, r * r)), sub);
  xi[n - 2] = arith(ctx, IR_PE_FLOORDIV, o[n - 2], rr);
  xi[n - 1] = arith(ctx, IR_PE_FLOORDIV, o[n - 1], rr);
  return xi;
}

IrExpr *
op_manip_legalize_pixel_shuffle(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  int64_t r;
  if (!op_manip_upscale_factor(&s, call, &r))
    return NULL;
  return lower_gather(lz, call, result, "pixel_shuffle", index_pixel_shuffle, &r);
}

static IrPrimExpr *
cond_and(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b)
{
  return !a ? b : !b ? a : ir_prim_bin(ctx, IR_PE_AND, a, b);
}

/* v clamped to [0, last]. */
static IrPrimExpr *
clamp_index(IrCtx *ctx, IrPrimExpr *v, IrPrimExpr *last)
{
  return ir_prim_bin(ctx, IR_PE_MAX, ir_prim_bin(ctx, IR_PE_MIN, v, last), lit(ctx, 0));
}

/* The index of axis d of x read for padded position i (= o - before),
 * as op_manip_pad_source computes it: reflect as last - |last - |i||,
 * replicate as i clamped, circular as i mod size.  reflect is clamped
 * too, so pads wider than the input (refused by inference and the
 * kernel) still read inside it; constant mode adds "inside the axis" to
 * *inside. */
static IrPrimExpr *
pad_index(IrCtx *ctx, PadMode mode, IrPrimExpr *i, IrPrimExpr *size, bool before, bool after,
          IrPrimExpr **inside)
{
  IrPrimExpr *last = arith(ctx, IR_PE_SUB, size, lit(ctx, 1));
  IrPrimExpr *mag = ir_prim_bin(ctx, IR_PE_MAX, i, arith(ctx, IR_PE_SUB, lit(ctx, 0), i));
  switch (mode) {
  case PAD_REFLECT: {
    IrPrimExpr *d = arith(ctx, IR_PE_SUB, last, mag);
    d = ir_prim_bin(ctx, IR_PE_MAX, d, arith(ctx, IR_PE_SUB, lit(ctx, 0), d));
    return clamp_index(ctx, arith(ctx, IR_PE_SUB, last, d), last);
  }
  case PAD_REPLICATE:
    return clamp_index(ctx, i, last);
  case PAD_CIRCULAR:
    return arith(ctx, IR_PE_FLOORMOD, i, ir_prim_bin(ctx, IR_PE_MAX, size, lit(ctx, 1)));
  default:
    if (before)
      *inside = cond_and(ctx, *inside, ir_prim_bin(ctx, IR_PE_GE, i, lit(ctx, 0)));
    if (after)
      *inside = cond_and(ctx, *inside, ir_prim_bin(ctx, IR_PE_LT, i, size));
    return i;
  }
}

/* store where cond holds; elsewhere out[o] = *fill in out's dtype, or
 * nothing when fill is NULL. */
IrStmt *
op_manip_store_or_fill(OpPrim *p, IrPrimExpr *cond, IrStmt *store, IrBuffer *out, IrPrimExpr **o,
                       const double *fill)
{
  IrCtx *ctx = p->lz->ctx;
  IrDType t = out->dtype;
  IrStmt *branch = ir_stmt_new(ctx, IR_ST_IF, p->lz->loc);
  branch->u.branch.cond = cond;
  branch->u.branch.then_ = store;
  if (fill) {
    IrPrimExpr *v = ir_dtype_is_float(t) ? ir_prim_float(ctx, t, *fill)
                    : t.code == IR_DT_BOOL ? ir_prim_int(ctx, t, *fill != 0)
                                           : ir_prim_int(ctx, t, (int64_t)*fill);
    branch->u.branch.else_ = op_prim_store(p, out, o, v);
  }
  return branch;
}

/* pad: out[o] = x[pad_index(o - before)] per axis; constant mode stores
 * the pad value where a position is outside the input; the other modes
 * store only when every padded axis of symbolic extent is non-empty (an
 * empty one has nothing to read: the kernel refuses it). */
IrExpr *
op_manip_legalize_pad(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite s = op_site_legalize(lz, call);
  IrCtx *ctx = lz->ctx;
  const IrSInfo *xs = call->u.call.args[0]->sinfo;
  PadAttrs pa;
  OpPrim p;
  if (!xs || xs->kind != IR_SI_TENSOR || xs->u.tensor.ndim < 0 ||
      !op_manip_pad_attrs(&s, call, xs->u.tensor.ndim, &pa))
    return NULL;
  IrBuffer *x, *out;
  if (!op_prim_open(lz, &p, "pad", call, result, (OpPrimParam[]){{"A", &x}, {"T_pad", &out}}, 2))
    return NULL;
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  if (x->ndim != pa.n || out->ndim != pa.n)
    return op_prim_give_up(&p);
  IrPrimExpr **xi = index_new(ctx, x->ndim), *cond = NULL;
  for (int d = 0; d < x->ndim; d++) {
    int64_t before = pa.width[2 * d], after = pa.width[2 * d + 1], size;
    xi[d] = o[d];
    if (!before && !after)
      continue;
    xi[d] = pad_index(ctx, pa.mode, arith(ctx, IR_PE_SUB, o[d], lit(ctx, before)), x->shape[d],
                      before > 0, after > 0, &cond);
    if (pa.mode != PAD_CONSTANT && !ir_prim_is_int(x->shape[d], &size))
      cond = cond_and(ctx, cond, ir_prim_bin(ctx, IR_PE_GT, x->shape[d], lit(ctx, 0)));
  }
  IrStmt *store = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  if (cond)
    store = op_manip_store_or_fill(&p, cond, store, out, o, pa.mode == PAD_CONSTANT ? &pa.value : NULL);
  *body = store;
  return op_prim_finish(&p, call, result);
}
