/*
 * reduce.c - reductions: R.sum, R.mean, R.max, R.min over a set of axes
 * (axis=None is every axis), and R.argmax over one axis or the flattened
 * tensor; keepdims keeps each reduced axis as a dim of 1.
 *
 * Key ideas:
 *  - Inference and kernels share one notion, the reduced-axis mask: a bit
 *    per input dim, from the axis attribute (negative axes count from the
 *    end, a repeated axis is an error).
 *  - The kernel walks the input once and sends each element to its output
 *    slot (its coordinates with the reduced ones dropped): float sums in
 *    double, int sums in int64 (wrapping like numpy's int64 sum).
 *  - Semantics chosen: reducing over an empty axis is an error ("empty
 *    reduction") for max, min, argmax and also mean (numpy gives NaN with
 *    a warning, TVM divides by zero); sum of nothing is 0.  max/min
 *    propagate NaN and argmax picks the first NaN, as numpy does.  The mean
 *    of an int tensor is its int64 sum truncating-divided by the count (TVM
 *    keeps the int dtype and divides with tir.Div).
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "op.h"

#define MAX_RANK 64 /* reduced-axis masks are one uint64_t */

/* ------------------------------------------------------------------ */
/* The axis attribute                                                  */
/* ------------------------------------------------------------------ */

/* Where a diagnostic goes: inference and kernels both report through it. */
typedef struct {
  IrCtx *ctx;
  IrLoc loc;
  IrSym binding;
  const IrOpDef *op;
} Where;

/* Reports an error naming the binding and the op; returns false. */
static bool
fail(const Where *w, const char *fmt, ...)
{
  IrBuf b = {0};
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  op_error(w->ctx, w->loc, w->binding, w->op, "%s", b.data ? b.data : "");
  ir_buf_free(&b);
  return false;
}

static bool
add_axis(const Where *w, const IrAttr *a, int ndim, uint64_t *mask)
{
  if (a->kind != IR_AT_INT)
    return fail(w, "axis must be an integer");
  int64_t v = a->u.i;
  if (v < -(int64_t)ndim || v >= ndim)
    return fail(w, "axis %lld is out of range for a tensor of rank %d", (long long)v, ndim);
  int d = (int)(v < 0 ? v + ndim : v);
  if (*mask & ((uint64_t)1 << d))
    return fail(w, "axis %d is repeated", d);
  *mask |= (uint64_t)1 << d;
  return true;
}

/* Reads axis into *mask (bits of reduced dims) for a tensor of rank ndim.
 * axis None sets every bit.  argmax takes one int; the others a list (a
 * lone int is accepted too).  False after an error: an axis out of range,
 * repeated, or not an integer. */
static bool
axis_mask(const Where *w, const IrAttr *axis, int ndim, uint64_t *mask)
{
  *mask = 0;
  if (ndim > MAX_RANK)
    return fail(w, "tensors of rank %d are not supported (at most %d)", ndim, MAX_RANK);
  if (!axis || axis->kind == IR_AT_NONE) {
    *mask = ndim == MAX_RANK ? ~(uint64_t)0 : ((uint64_t)1 << ndim) - 1;
    return true;
  }
  if (axis->kind == IR_AT_LIST) {
    if (w->op->id == IR_OP_ARGMAX)
      return fail(w, "axis must be one integer or None");
    for (int i = 0; i < axis->u.list.n; i++)
      if (!add_axis(w, axis->u.list.items[i], ndim, mask))
        return false;
    return true;
  }
  return add_axis(w, axis, ndim, mask);
}

/* Whether the axis attribute is None (every axis). */
static bool
axis_is_all(const IrExpr *call)
{
  const IrAttr *a = op_attr(call, "axis");
  return !a || a->kind == IR_AT_NONE;
}

static bool
keepdims(const IrExpr *call)
{
  const IrAttr *a = op_attr(call, "keepdims");
  return a && ((a->kind == IR_AT_BOOL && a->u.b) || (a->kind == IR_AT_INT && a->u.i));
}

/* max, min, argmax and mean have no value over no elements. */
static bool
needs_elements(IrOpId id)
{
  return id != IR_OP_SUM;
}

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

/* The result dims: reduced dims dropped, or 1 with keepdims; an error
 * when a reduced dim is the literal 0 and the op needs elements. */
static IrPrimExpr **
reduced_shape(OpInfer *in, const Where *w, IrPrimExpr **shape, int ndim, uint64_t mask, bool keep,
              int *nout)
{
  IrPrimExpr **out = ir_alloc(in->ctx, sizeof *out * (size_t)(ndim ? ndim : 1));
  int n = 0;
  for (int d = 0; d < ndim; d++) {
    int64_t v;
    if (!(mask >> d & 1)) {
      out[n++] = shape[d];
      continue;
    }
    if (needs_elements(w->op->id) && ir_prim_is_int(shape[d], &v) && v == 0) {
      fail(w, "empty reduction: axis %d has size 0", d);
      return NULL;
    }
    if (keep)
      out[n++] = ir_prim_int(in->ctx, shape[d]->dtype.code ? shape[d]->dtype : IR_I64, 1);
  }
  *nout = n;
  return out;
}

static IrSInfo *
infer_reduce(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  Where w = {in->ctx, in->loc, in->binding, call->u.call.op};
  bool keep = keepdims(call);
  if (call->u.call.nargs != 1) {
    fail(&w, "expects 1 argument, got %d", call->u.call.nargs);
    return NULL;
  }
  const IrSInfo *x = args[0];
  if (x->kind != IR_SI_TENSOR && x->kind != IR_SI_OBJECT) {
    fail(&w, "the argument must be a tensor");
    return NULL;
  }
  IrDType t = call->u.call.op->id == IR_OP_ARGMAX ? IR_I64
              : x->kind == IR_SI_TENSOR           ? x->u.tensor.dtype
                                                  : IR_VOID;
  int vdev = x->kind == IR_SI_TENSOR ? x->u.tensor.vdevice : -1;
  int ndim = x->kind == IR_SI_TENSOR ? x->u.tensor.ndim : -1;
  if (ndim < 0) { /* unknown rank: only a full reduction's rank is known */
    bool scalar = axis_is_all(call) && !keep;
    return ir_sinfo_tensor(in->ctx, scalar ? ir_alloc(in->ctx, sizeof(IrPrimExpr *)) : NULL,
                           scalar ? 0 : -1, t, vdev);
  }
  uint64_t mask;
  if (!axis_mask(&w, op_attr(call, "axis"), ndim, &mask))
    return NULL;
  int nout = 0;
  for (int d = 0; d < ndim; d++)
    nout += keep || !(mask >> d & 1);
  IrPrimExpr **shape = x->shape_len ? NULL : x->u.tensor.shape;
  if (!shape)
    return ir_sinfo_tensor(in->ctx, NULL, nout, t, vdev);
  IrPrimExpr **out = reduced_shape(in, &w, shape, ndim, mask, keep, &nout);
  return out ? ir_sinfo_tensor(in->ctx, out, nout, t, vdev) : NULL;
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

static bool
is_float(IrDType t)
{
  return t.code == IR_DT_FLOAT || t.code == IR_DT_BFLOAT;
}

/* The output slot of input element i: its coordinates with the reduced
 * ones dropped, row-major over the kept dims. */
static int64_t
output_index(const IrTensorData *x, uint64_t mask, int64_t i)
{
  int64_t index = 0, stride = 1;
  for (int d = x->ndim - 1; d >= 0; d--) {
    int64_t coord = i % x->shape[d];
    i /= x->shape[d];
    if (mask >> d & 1)
      continue;
    index += coord * stride;
    stride *= x->shape[d];
  }
  return index;
}

/* The position of input element i along the reduced dims (row-major over
 * them): argmax's answer for the element. */
static int64_t
reduced_position(const IrTensorData *x, uint64_t mask, int64_t i)
{
  int64_t pos = 0, stride = 1;
  for (int d = x->ndim - 1; d >= 0; d--) {
    int64_t coord = i % x->shape[d];
    i /= x->shape[d];
    if (!(mask >> d & 1))
      continue;
    pos += coord * stride;
    stride *= x->shape[d];
  }
  return pos;
}

/* Per output slot: the running value (double or int64) and, for argmax,
 * the position of the best element; count of elements seen. */
typedef struct {
  double f;
  int64_t i;
  int64_t pos;
  int64_t count;
} Acc;

/* Whether v (or iv for ints) replaces the accumulator's best for max/min
 * and argmax: NaN wins and stays; ties keep the first. */
static bool
better(IrOpId id, bool fl, const Acc *a, double v, int64_t iv)
{
  if (a->count == 0)
    return true;
  if (fl) {
    if (isnan(a->f))
      return false;
    if (isnan(v))
      return true;
    return id == IR_OP_MIN ? v < a->f : v > a->f;
  }
  return id == IR_OP_MIN ? iv < a->i : iv > a->i;
}

static void
accumulate(IrOpId id, bool fl, Acc *a, const IrTensorData *x, int64_t i, int64_t pos)
{
  double v = fl ? op_get_f(x, i) : 0;
  int64_t iv = fl ? 0 : op_get_i(x, i);
  if (id == IR_OP_SUM || id == IR_OP_MEAN) {
    a->f += v;
    a->i = (int64_t)((uint64_t)a->i + (uint64_t)iv);
  } else if (better(id, fl, a, v, iv)) {
    a->f = v;
    a->i = iv;
    a->pos = pos;
  }
  a->count++;
}

/* Writes slot o of the result from its accumulator. */
static void
finish(IrOpId id, bool fl, const Acc *a, IrTensorData *out, int64_t o)
{
  if (id == IR_OP_ARGMAX)
    op_set_i(out, o, a->pos);
  else if (id == IR_OP_MEAN && fl)
    op_set_f(out, o, a->f / (double)a->count);
  else if (id == IR_OP_MEAN)
    op_set_i(out, o, a->i / a->count);
  else if (fl)
    op_set_f(out, o, a->f);
  else
    op_set_i(out, o, a->i);
}

/* The concrete result shape (kept dims, reduced ones as 1 with keepdims)
 * into dims; returns its rank. */
static int
result_dims(const IrTensorData *x, uint64_t mask, bool keep, int64_t *dims)
{
  int n = 0;
  for (int d = 0; d < x->ndim; d++) {
    if (!(mask >> d & 1))
      dims[n++] = x->shape[d];
    else if (keep)
      dims[n++] = 1;
  }
  return n;
}

static Value *
eval_reduce(OpEval *ev, const IrExpr *call, Value **args)
{
  Where w = {ev->ctx, ev->loc, ev->binding, call->u.call.op};
  IrOpId id = call->u.call.op->id;
  if (args[0]->kind != VAL_TENSOR) {
    fail(&w, "the argument must be a tensor");
    return NULL;
  }
  const IrTensorData *x = &args[0]->u.tensor.t;
  uint64_t mask;
  int64_t dims[MAX_RANK];
  if (!axis_mask(&w, op_attr(call, "axis"), x->ndim, &mask))
    return NULL;
  int64_t n = op_numel(x);
  for (int d = 0; d < x->ndim; d++)
    if ((mask >> d & 1) && x->shape[d] == 0 && needs_elements(id)) {
      fail(&w, "empty reduction: axis %d has size 0", d);
      return NULL;
    }
  int nd = result_dims(x, mask, keepdims(call), dims);
  IrDType t = id == IR_OP_ARGMAX ? IR_I64 : x->dtype;
  Value *v = op_tensor_new(ev->ctx, t, nd, dims, ev->loc);
  if (!v)
    return NULL;
  IrTensorData *out = &v->u.tensor.t;
  int64_t m = op_numel(out);
  Acc *acc = ir_alloc(ev->ctx, sizeof *acc * (size_t)(m ? m : 1));
  bool fl = is_float(x->dtype);
  for (int64_t i = 0; i < n; i++)
    accumulate(id, fl, &acc[output_index(x, mask, i)], x, i, reduced_position(x, mask, i));
  for (int64_t o = 0; o < m; o++)
    finish(id, fl, &acc[o], out, o);
  return v;
}

static const OpImpl reduce_impl = {infer_reduce, eval_reduce, NULL};

const OpImpl *
op_reduce_impl(IrOpId id)
{
  switch (id) {
  case IR_OP_SUM:
  case IR_OP_MEAN:
  case IR_OP_MAX:
  case IR_OP_MIN:
  case IR_OP_ARGMAX:
    return &reduce_impl;
  default:
    return NULL;
  }
}
