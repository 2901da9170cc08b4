/*
 * manip_copy.c - the manipulation ops that copy their input into a larger or reordered
 * output: repeat, tile, flip, one_hot, pad, pixel_shuffle.
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

/* R.flip: the shape is x's; only the axis is checked. */
IrSInfo *
op_manip_infer_flip(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "data");
  int axis;
  if (!x || !op_manip_axis_attr(s, x->u.tensor.ndim, &axis, NULL))
    return NULL;
  return x;
}

/* The repeats of R.tile: a list (or one int) of non-negative counts.
 * TVM does not check the sign; a negative count is refused here, as numpy
 * refuses it. */
bool
op_manip_tile_repeats(const OpSite *s, int64_t **reps, int *n)
{
  if (!op_manip_attr_ints(s, "repeats", false, reps, n))
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
IrSInfo *
op_manip_infer_tile(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "data");
  int64_t *reps;
  int l;
  if (!x || !op_manip_tile_repeats(s, &reps, &l))
    return NULL;
  int ndim = x->u.tensor.ndim;
  if (ndim < 0)
    return op_manip_like(in, x, NULL, -1);
  int on = ndim > l ? ndim : l;
  if (!x->u.tensor.shape) {
    bool ones = true;
    for (int i = 0; i < l; i++)
      ones = ones && reps[i] == 1;
    return l <= ndim && ones ? x : op_manip_like(in, x, NULL, on);
  }
  IrPrimExpr **out = op_manip_dims(in->ctx, on);
  for (int i = 0; i < on; i++) {
    int xi = i - (on - ndim), ri = i - (on - l);
    IrPrimExpr *r = op_manip_lit(in->ctx, ri < 0 ? 1 : reps[ri]);
    out[i] = xi < 0 ? r : op_manip_simp(in, op_manip_bin(in, IR_PE_MUL, x->u.tensor.shape[xi], r));
  }
  return op_manip_like(in, x, out, on);
}

/* The repeats of R.repeat: one non-negative int (TVM takes any int; a
 * negative count is refused here, as numpy refuses it). */
bool
op_manip_repeat_count(const OpSite *s, int64_t *count)
{
  int64_t *v;
  int n;
  if (!op_manip_attr_ints(s, "repeats", false, &v, &n))
    return false;
  if (n != 1 || op_attr(s->call, "repeats")->kind == IR_AT_LIST)
    return op_fail(s, "repeats must be one integer");
  if (v[0] < 0)
    return op_fail(s, "repeats must be non-negative, not %lld", (long long)v[0]);
  *count = v[0];
  return true;
}

/* R.repeat (TVM's InferStructInfoRepeat): axis=None repeats the elements
 * of the flattened x (a 1-D result of numel * repeats); otherwise the axis
 * grows repeats times. */
IrSInfo *
op_manip_infer_repeat(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "data");
  int64_t r;
  int axis;
  bool none;
  if (!x || !op_manip_repeat_count(s, &r) || !op_manip_axis_attr(s, x->u.tensor.ndim, &axis, &none))
    return NULL;
  int ndim = x->u.tensor.ndim;
  IrPrimExpr **xd = x->u.tensor.shape;
  if (!xd) {
    if (none)
      return op_manip_like(in, x, NULL, 1);
    return r == 1 ? x : op_manip_like(in, x, NULL, ndim);
  }
  if (none) {
    IrPrimExpr **out = op_manip_dims(in->ctx, 1);
    out[0] = op_manip_simp(in, op_manip_bin(in, IR_PE_MUL, op_manip_product(in, xd, ndim, -1),
                                            op_manip_lit(in->ctx, r)));
    return op_manip_like(in, x, out, 1);
  }
  IrPrimExpr **out = op_manip_dims(in->ctx, ndim);
  memcpy(out, xd, sizeof(IrPrimExpr *) * (size_t)ndim);
  out[axis] = op_manip_simp(in, op_manip_bin(in, IR_PE_MUL, xd[axis], op_manip_lit(in->ctx, r)));
  return op_manip_like(in, x, out, ndim);
}

/* The attributes of R.one_hot: depth > 0 (TVM's check) and the axis of
 * the new dim in a result of rank ndim + 1 (ndim < 0: left unchecked,
 * *axis -1). */
bool
op_manip_one_hot_attrs(const OpSite *s, int ndim, int64_t *depth, int *axis)
{
  int64_t *v;
  int n;
  if (!op_manip_attr_ints(s, "depth", false, &v, &n))
    return false;
  if (n != 1 || v[0] <= 0)
    return op_fail(s, "depth must be one positive integer");
  *depth = v[0];
  return op_manip_axis_attr(s, ndim < 0 ? -1 : ndim + 1, axis, NULL);
}

/* R.one_hot: indices of an integer dtype; on_value and off_value are prim
 * values of one dtype, which is the result's; the new dim (depth) goes
 * at axis. */
IrSInfo *
op_manip_infer_one_hot(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *ix = op_manip_tensor_arg(s, args[0], "indices");
  int64_t depth;
  int axis;
  if (!ix || !op_manip_one_hot_attrs(s, ix->u.tensor.ndim, &depth, &axis))
    return NULL;
  IrDType it = ix->u.tensor.dtype;
  char a[16], b[16];
  if (it.code != IR_DT_VOID && it.code != IR_DT_INT && it.code != IR_DT_UINT)
    return op_fail_null(s, "indices must have an integer dtype, not %s", ir_dtype_str(it, a));
  if (!args[1] || args[1]->kind != IR_SI_PRIM || !args[2] || args[2]->kind != IR_SI_PRIM)
    return op_fail_null(s, "on_value and off_value must be prim values");
  IrDType on = args[1]->u.prim.dtype, off = args[2]->u.prim.dtype;
  if (!ir_dtype_eq(on, off))
    return op_fail_null(s, "on_value and off_value must have the same dtype, not %s and %s",
                        ir_dtype_str(on, a), ir_dtype_str(off, b));
  int ndim = ix->u.tensor.ndim;
  if (ndim < 0 || !ix->u.tensor.shape)
    return ir_sinfo_tensor(in->ctx, NULL, ndim < 0 ? -1 : ndim + 1, on, ix->u.tensor.vdevice);
  IrPrimExpr **out = op_manip_dims(in->ctx, ndim + 1);
  for (int d = 0, k = 0; d <= ndim; d++)
    out[d] = d == axis ? op_manip_lit(in->ctx, depth) : ix->u.tensor.shape[k++];
  return ir_sinfo_tensor(in->ctx, out, ndim + 1, on, ix->u.tensor.vdevice);
}

/* R.nn.pad: pad_width is [before_0, after_0, before_1, ...], 2 values per
 * axis, never negative (TVM does not check the sign; a negative width
 * would crop, which topi.nn.pad does not define); pad_mode is "constant",
 * "reflect", "replicate" or "circular". */
bool
op_manip_pad_attrs(const OpSite *s, int ndim, PadAttrs *pa)
{
  static const char *const modes[] = {"constant", "reflect", "replicate", "circular"};
  int n;
  if (!op_manip_attr_ints(s, "pad_width", false, &pa->width, &n))
    return false;
  if (ndim >= 0 ? n != 2 * ndim : n % 2 != 0)
    return op_fail(s, "pad_width has %d values, not 2 per axis of the data (rank %d)", n, ndim);
  pa->n = n / 2;
  for (int i = 0; i < n; i++) {
    if (pa->width[i] < 0)
      return op_fail(s, "pad_width must not be negative, got %lld", (long long)pa->width[i]);
  }
  const IrAttr *m = op_attr(s->call, "pad_mode");
  pa->mode = (PadMode)-1;
  for (int i = 0; i < 4; i++)
    if (!m || m->kind == IR_AT_NONE || (m->kind == IR_AT_STR && strcmp(m->u.s, modes[i]) == 0)) {
      pa->mode = (PadMode)i;
      break;
    }
  if ((int)pa->mode < 0)
    return op_fail(s, "pad_mode must be \"constant\", \"reflect\", \"replicate\" or \"circular\"");
  const IrAttr *v = op_attr(s->call, "pad_value");
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

IrSInfo *
op_manip_infer_pad(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "data");
  PadAttrs pa;
  if (!x || !op_manip_pad_attrs(s, x->u.tensor.ndim, &pa))
    return NULL;
  if (!x->u.tensor.shape)
    return op_manip_like(in, x, NULL, pa.n);
  IrPrimExpr **out = op_manip_dims(in->ctx, pa.n);
  for (int d = 0; d < pa.n; d++) {
    IrPrimExpr *dim = x->u.tensor.shape[d];
    int64_t before = pa.width[2 * d], after = pa.width[2 * d + 1], size;
    if (ir_prim_is_int(dim, &size) && !op_manip_pad_fits(s, pa.mode, d, size, before, after))
      return NULL;
    out[d] =
        op_manip_simp(in, op_manip_bin(in, IR_PE_ADD, dim, op_manip_lit(in->ctx, before + after)));
  }
  return op_manip_like(in, x, out, pa.n);
}

bool
op_manip_upscale_factor(const OpSite *s, int64_t *r)
{
  const IrAttr *a = op_attr(s->call, "upscale_factor");
  if (!a || a->kind != IR_AT_INT || a->u.i <= 0)
    return op_fail(s, "upscale_factor must be a positive integer");
  *r = a->u.i;
  return true;
}

/* R.nn.pixel_shuffle: the last three dims (C, H, W) become (C / r^2, H *
 * r, W * r); C must be a multiple of r^2 (an error when provably not). */
IrSInfo *
op_manip_infer_pixel_shuffle(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "data");
  int64_t r;
  if (!x || !op_manip_upscale_factor(s, &r))
    return NULL;
  int ndim = x->u.tensor.ndim;
  if (ndim >= 0 && ndim < 3)
    return op_fail_null(s, "data must have at least 3 dimensions, not %d", ndim);
  if (!x->u.tensor.shape)
    return x->u.tensor.ndim < 0 ? x : op_manip_like(in, x, NULL, ndim);
  IrPrimExpr **out = op_manip_dims(in->ctx, ndim), **d = x->u.tensor.shape;
  memcpy(out, d, sizeof *out * (size_t)ndim);
  IrPrimExpr *c = d[ndim - 3], *rem = op_manip_simp(in, op_manip_bin(in, IR_PE_FLOORMOD, c,
                                                                     op_manip_lit(in->ctx, r * r)));
  int64_t v;
  if (ir_prim_is_int(rem, &v) && v != 0)
    return op_fail_null(s, "data has %s channels, not a multiple of upscale_factor^2 = %lld",
                        op_nn_expr_str(in->ctx, c), (long long)(r * r));
  out[ndim - 3] =
      op_manip_simp(in, op_manip_bin(in, IR_PE_FLOORDIV, c, op_manip_lit(in->ctx, r * r)));
  out[ndim - 2] =
      op_manip_simp(in, op_manip_bin(in, IR_PE_MUL, d[ndim - 2], op_manip_lit(in->ctx, r)));
  out[ndim - 1] =
      op_manip_simp(in, op_manip_bin(in, IR_PE_MUL, d[ndim - 1], op_manip_lit(in->ctx, r)));
  return op_manip_like(in, x, out, ndim);
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

typedef struct {
  int axis;      /* the repeated axis (of the flat view with axis=None) */
  int64_t count; /* repeats, > 0 where the map runs */
} RepeatMap;

static void
map_repeat(const void *env, int ndim, const int64_t *o, int64_t *i)
{
  const RepeatMap *r = env;
  for (int d = 0; d < ndim; d++)
    i[d] = d == r->axis ? o[d] / r->count : o[d];
}

/* repeat: output index j along the axis reads input index j / repeats;
 * axis=None does that on the flattened x. */
Value *
op_manip_eval_repeat(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data");
  int64_t r, shape[MAX_DIMS];
  int axis;
  bool none;
  if (!x || !op_manip_repeat_count(s, &r) || !op_manip_axis_attr(s, x->ndim, &axis, &none))
    return NULL;
  IrTensorData flat = *x;
  int64_t count = op_numel(x);
  if (none) {
    flat.ndim = 1;
    flat.shape = &count;
    axis = 0;
  }
  memcpy(shape, flat.shape, sizeof(int64_t) * (size_t)flat.ndim);
  if (r > 0 && shape[axis] > INT64_MAX / r)
    return op_fail_null(s, "the result would be too large");
  shape[axis] *= r;
  RepeatMap m = {axis, r ? r : 1};
  return op_manip_gather_new(s, &flat, flat.ndim, shape, map_repeat, &m);
}

/* tile reads x's dims aligned to the output's last ones, as broadcast_to */
static void
map_tile(const void *env, int ndim, const int64_t *o, int64_t *i)
{
  const BroadcastMap *t = env;
  for (int d = 0; d < ndim; d++)
    i[d] = o[d + t->off] % t->x->shape[d];
}

/* tile: the output's dims align with x's last ones (see infer_tile);
 * output index j of a dim reads x at j mod x's dim. */
Value *
op_manip_eval_tile(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data");
  int64_t *reps, shape[MAX_DIMS];
  int l;
  if (!x || !op_manip_tile_repeats(s, &reps, &l))
    return NULL;
  int on = x->ndim > l ? x->ndim : l;
  for (int d = 0; d < on; d++) {
    int xi = d - (on - x->ndim), ri = d - (on - l);
    int64_t xd = xi < 0 ? 1 : x->shape[xi], rd = ri < 0 ? 1 : reps[ri];
    if (rd > 0 && xd > INT64_MAX / rd)
      return op_fail_null(s, "the result would be too large");
    shape[d] = xd * rd;
  }
  BroadcastMap t = {x, on - x->ndim};
  return op_manip_gather_new(s, x, on, shape, map_tile, &t);
}

typedef struct {
  const IrTensorData *x;
  int axis;
} FlipMap;

static void
map_flip(const void *env, int ndim, const int64_t *o, int64_t *i)
{
  const FlipMap *f = env;
  for (int d = 0; d < ndim; d++)
    i[d] = d == f->axis ? f->x->shape[d] - 1 - o[d] : o[d];
}

Value *
op_manip_eval_flip(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data");
  int axis;
  if (!x || !op_manip_axis_attr(s, x->ndim, &axis, NULL))
    return NULL;
  FlipMap f = {x, axis};
  return op_manip_gather_new(s, x, x->ndim, x->shape, map_flip, &f);
}

/* one_hot (topi's rule): out[..., j, ...] = on_value where the index
 * equals j, else off_value; an index outside [0, depth), negative ones
 * included, gives a row of off_value. */
Value *
op_manip_eval_one_hot(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *ix = op_manip_tensor_val(s, args[0], "indices");
  int64_t depth, shape[MAX_DIMS + 1];
  int axis;
  if (!ix || !op_manip_one_hot_attrs(s, ix->ndim, &depth, &axis))
    return NULL;
  if (ix->dtype.code != IR_DT_INT && ix->dtype.code != IR_DT_UINT)
    return op_fail_null(s, "indices must have an integer dtype");
  const Value *on = args[1], *off = args[2];
  if (!on || on->kind != VAL_PRIM || !off || off->kind != VAL_PRIM ||
      !ir_dtype_eq(on->u.prim.dtype, off->u.prim.dtype)) {
    return op_fail_null(s, "on_value and off_value must be prim values of one dtype");
  }
  if (ix->ndim >= MAX_DIMS)
    return op_fail_null(s, "the result would have more than %d dimensions", MAX_DIMS);
  for (int d = 0, k = 0; d <= ix->ndim; d++)
    shape[d] = d == axis ? depth : ix->shape[k++];
  IrDType t = on->u.prim.dtype;
  IrTensorData *out = op_manip_new_tensor(s, t, ix->ndim + 1, shape);
  if (!out)
    return NULL;
  bool fl = ir_dtype_is_float(t);
  int64_t inner = 1, count = op_numel(ix);
  for (int d = axis; d < ix->ndim; d++)
    inner *= ix->shape[d];
  for (int64_t e = 0; e < count; e++) {
    int64_t v = op_get_i(ix, e), o = e / inner, i = e % inner;
    for (int64_t j = 0; j < depth; j++) {
      const Value *pv = v == j ? on : off;
      int64_t at = (o * depth + j) * inner + i;
      if (fl)
        op_set_f(out, at, pv->u.prim.f);
      else
        op_set_i(out, at, pv->u.prim.i);
    }
  }
  return op_manip_as_value(s, out);
}

/* pad: output index o reads x at op_manip_pad_source(o - before) per
 * axis, or is the pad value (converted once to the dtype). */
Value *
op_manip_eval_pad(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data");
  PadAttrs pa;
  int64_t shape[MAX_DIMS], oi[MAX_DIMS] = {0};
  if (!x || !op_manip_pad_attrs(s, x->ndim, &pa))
    return NULL;
  for (int d = 0; d < x->ndim; d++) {
    int64_t before = pa.width[2 * d], after = pa.width[2 * d + 1];
    if (!op_manip_pad_fits(s, pa.mode, d, x->shape[d], before, after))
      return NULL;
    shape[d] = x->shape[d] + before + after;
  }
  IrTensorData *out = op_manip_new_tensor(s, x->dtype, x->ndim, shape);
  if (!out)
    return NULL;
  int64_t count = op_numel(out);
  for (int64_t flat = 0; flat < count; flat++) {
    int64_t si = 0;
    for (int d = 0; d < x->ndim && si >= 0; d++) {
      int64_t i = op_manip_pad_source(pa.mode, oi[d] - pa.width[2 * d], x->shape[d]);
      si = i < 0 ? -1 : si * x->shape[d] + i;
    }
    if (si < 0)
      op_set_f(out, flat, pa.value);
    else
      op_manip_copy_elem(out, flat, x, si);
    for (int d = x->ndim - 1; d >= 0 && ++oi[d] == out->shape[d]; d--)
      oi[d] = 0;
  }
  return op_manip_as_value(s, out);
}

/* pixel_shuffle: out[..., c, h, w] = x[..., c*r*r + (h % r)*r + w % r,
 * h // r, w // r]. */
static void
map_pixel_shuffle(const void *env, int n, const int64_t *o, int64_t *i)
{
  int64_t r = *(const int64_t *)env;
  for (int d = 0; d < n - 3; d++)
    i[d] = o[d];
  i[n - 3] = o[n - 3] * r * r + (o[n - 2] % r) * r + o[n - 1] % r;
  i[n - 2] = o[n - 2] / r;
  i[n - 1] = o[n - 1] / r;
}

Value *
op_manip_eval_pixel_shuffle(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data");
  int64_t r, shape[MAX_DIMS];
  if (!x || !op_manip_upscale_factor(s, &r))
    return NULL;
  int n = x->ndim;
  if (n < 3 || x->shape[n - 3] % (r * r) != 0)
    return op_fail_null(s, "data must have at least 3 dimensions and channels a multiple of %lld",
                        (long long)(r * r));
  memcpy(shape, x->shape, sizeof(int64_t) * (size_t)n);
  shape[n - 3] /= r * r;
  shape[n - 2] *= r;
  shape[n - 1] *= r;
  return op_manip_gather_new(s, x, n, shape, map_pixel_shuffle, &r);
}

/* ------------------------------------------------------------------ */
/* Lowerings                                                           */
/* ------------------------------------------------------------------ */

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
  IrPrimExpr *j = r->count
                      ? op_manip_arith(ctx, IR_PE_FLOORDIV, o[axis], op_manip_lit(ctx, r->count))
                      : op_manip_lit(ctx, 0);
  if (r->axis < 0)
    return op_manip_unflatten_index(ctx, j, x->shape, x->ndim);
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim);
  memcpy(xi, o, sizeof(IrPrimExpr *) * (size_t)x->ndim);
  xi[axis] = j;
  return xi;
}

IrExpr *
op_manip_legalize_repeat(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  int ndim = op_manip_arg_rank(s);
  RepeatIndex r;
  bool none;
  if (ndim < 0 || !op_manip_repeat_count(s, &r.count) ||
      !op_manip_axis_attr(s, ndim, &r.axis, &none))
    return NULL;
  r.axis = none ? -1 : r.axis;
  return op_manip_lower_gather(lz, s, result, "repeat", index_repeat, &r);
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
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim);
  for (int d = 0; d < x->ndim; d++) {
    int ri = d + off - (out->ndim - t->n);
    int64_t rep = ri < 0 ? 1 : t->reps[ri];
    IrPrimExpr *j = o[d + off];
    if (op_manip_is_lit(x->shape[d], 1))
      xi[d] = op_manip_lit(ctx, 0);
    else if (rep == 1 || op_manip_is_lit(x->shape[d], 0))
      xi[d] = j;
    else
      xi[d] = op_manip_arith(ctx, IR_PE_FLOORMOD, j, x->shape[d]);
  }
  return xi;
}

IrExpr *
op_manip_legalize_tile(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  TileIndex t;
  int64_t *reps;
  if (!op_manip_tile_repeats(s, &reps, &t.n))
    return NULL;
  t.reps = reps;
  return op_manip_lower_gather(lz, s, result, "tile", index_tile, &t);
}

/* flip: index j of the axis reads dim - 1 - j. */
static IrPrimExpr **
index_flip(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  int axis = *(const int *)env;
  IrCtx *ctx = p->lz->ctx;
  if (out->ndim != x->ndim || axis >= x->ndim)
    return NULL;
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim);
  memcpy(xi, o, sizeof(IrPrimExpr *) * (size_t)x->ndim);
  xi[axis] =
      op_manip_arith(ctx, IR_PE_SUB,
                     op_manip_arith(ctx, IR_PE_SUB, x->shape[axis], op_manip_lit(ctx, 1)), o[axis]);
  return xi;
}

IrExpr *
op_manip_legalize_flip(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  int ndim = op_manip_arg_rank(s);
  int axis;
  if (ndim < 0 || !op_manip_axis_attr(s, ndim, &axis, NULL))
    return NULL;
  return op_manip_lower_gather(lz, s, result, "flip", index_flip, &axis);
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
op_manip_legalize_one_hot(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  int ndim = op_manip_arg_rank(s);
  int64_t depth;
  int axis;
  if (s->call->u.call.nargs < 3 || ndim < 0 || result->kind != IR_SI_TENSOR ||
      !op_manip_one_hot_attrs(s, ndim, &depth, &axis))
    return NULL;
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  IrBuffer *ix, *out;
  if (!op_manip_prim_open(lz, &p, s, result, "one_hot", &ix, NULL, &out))
    return NULL;
  IrPrimExpr *on = prim_arg(&p, s->call->u.call.args[1], out->dtype);
  IrPrimExpr *off = on ? prim_arg(&p, s->call->u.call.args[2], out->dtype) : NULL;
  if (!off || out->ndim != ix->ndim + 1 ||
      (ix->dtype.code != IR_DT_INT && ix->dtype.code != IR_DT_UINT)) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  IrPrimExpr **ii = op_manip_dims(ctx, ix->ndim);
  for (int d = 0, k = 0; d < out->ndim; d++)
    if (d != axis)
      ii[k++] = o[d];
  IrPrimExpr *v = op_prim_load(&p, ix, ii);
  if (!ir_dtype_eq(v->dtype, IR_I64))
    v = ir_prim_cast(ctx, IR_I64, v);
  IrPrimExpr *hit = ir_prim_bin(ctx, IR_PE_EQ, v, o[axis]);
  *body = op_prim_store(&p, out, o, ir_prim_select(ctx, hit, on, off));
  return op_prim_finish(&p, s->call, result);
}

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
  IrPrimExpr **xi = op_manip_dims(ctx, n), *rr = op_manip_lit(ctx, r);
  for (int d = 0; d < n - 3; d++)
    xi[d] = o[d];
  IrPrimExpr *row =
      op_manip_arith(ctx, IR_PE_MUL, op_manip_arith(ctx, IR_PE_FLOORMOD, o[n - 2], rr), rr);
  IrPrimExpr *sub =
      op_manip_arith(ctx, IR_PE_ADD, row, op_manip_arith(ctx, IR_PE_FLOORMOD, o[n - 1], rr));
  xi[n - 3] = op_manip_arith(
      ctx, IR_PE_ADD, op_manip_arith(ctx, IR_PE_MUL, o[n - 3], op_manip_lit(ctx, r * r)), sub);
  xi[n - 2] = op_manip_arith(ctx, IR_PE_FLOORDIV, o[n - 2], rr);
  xi[n - 1] = op_manip_arith(ctx, IR_PE_FLOORDIV, o[n - 1], rr);
  return xi;
}

IrExpr *
op_manip_legalize_pixel_shuffle(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  int64_t r;
  if (!op_manip_upscale_factor(s, &r))
    return NULL;
  return op_manip_lower_gather(lz, s, result, "pixel_shuffle", index_pixel_shuffle, &r);
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
  return ir_prim_bin(ctx, IR_PE_MAX, ir_prim_bin(ctx, IR_PE_MIN, v, last), op_manip_lit(ctx, 0));
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
  IrPrimExpr *last = op_manip_arith(ctx, IR_PE_SUB, size, op_manip_lit(ctx, 1));
  IrPrimExpr *mag =
      ir_prim_bin(ctx, IR_PE_MAX, i, op_manip_arith(ctx, IR_PE_SUB, op_manip_lit(ctx, 0), i));
  switch (mode) {
  case PAD_REFLECT: {
    IrPrimExpr *d = op_manip_arith(ctx, IR_PE_SUB, last, mag);
    d = ir_prim_bin(ctx, IR_PE_MAX, d, op_manip_arith(ctx, IR_PE_SUB, op_manip_lit(ctx, 0), d));
    return clamp_index(ctx, op_manip_arith(ctx, IR_PE_SUB, last, d), last);
  }
  case PAD_REPLICATE:
    return clamp_index(ctx, i, last);
  case PAD_CIRCULAR:
    return op_manip_arith(ctx, IR_PE_FLOORMOD, i,
                          ir_prim_bin(ctx, IR_PE_MAX, size, op_manip_lit(ctx, 1)));
  default:
    if (before)
      *inside = cond_and(ctx, *inside, ir_prim_bin(ctx, IR_PE_GE, i, op_manip_lit(ctx, 0)));
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
    IrPrimExpr *v = ir_dtype_is_float(t)   ? ir_prim_float(ctx, t, *fill)
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
op_manip_legalize_pad(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  int ndim = op_manip_arg_rank(s);
  PadAttrs pa;
  OpPrim p;
  if (ndim < 0 || !op_manip_pad_attrs(s, ndim, &pa))
    return NULL;
  IrBuffer *x, *out;
  if (!op_manip_prim_open(lz, &p, s, result, "pad", &x, NULL, &out))
    return NULL;
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  if (x->ndim != pa.n || out->ndim != pa.n)
    return op_prim_give_up(&p);
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim), *cond = NULL;
  for (int d = 0; d < x->ndim; d++) {
    int64_t before = pa.width[2 * d], after = pa.width[2 * d + 1], size;
    xi[d] = o[d];
    if (!before && !after)
      continue;
    xi[d] = pad_index(ctx, pa.mode, op_manip_arith(ctx, IR_PE_SUB, o[d], op_manip_lit(ctx, before)),
                      x->shape[d], before > 0, after > 0, &cond);
    if (pa.mode != PAD_CONSTANT && !ir_prim_is_int(x->shape[d], &size))
      cond = cond_and(ctx, cond, ir_prim_bin(ctx, IR_PE_GT, x->shape[d], op_manip_lit(ctx, 0)));
  }
  IrStmt *store = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  if (cond)
    store =
        op_manip_store_or_fill(&p, cond, store, out, o, pa.mode == PAD_CONSTANT ? &pa.value : NULL);
  *body = store;
  return op_prim_finish(&p, s->call, result);
}
