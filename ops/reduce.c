/*
 * reduce.c - reductions: R.sum, R.mean, R.prod, R.variance, R.std, R.max,
 * R.min over a set of axes (axis=None is every axis), and R.argmax and
 * R.argmin over one axis or the flattened tensor; keepdims keeps each
 * reduced axis as a dim of 1.  The scans R.cumsum and R.cumprod are here
 * too (the end of the file): running sums and products along one axis.
 *
 * Key ideas:
 *  - Inference and kernels share one notion, the reduced-axis mask: a bit
 *    per input dim, from the axis attribute (negative axes count from the
 *    end, a repeated axis is an error).
 *  - The kernel walks the input once and sends each element to its output
 *    slot (its coordinates with the reduced ones dropped): float sums in
 *    double, int sums in int64 (wrapping like numpy's int64 sum).
 *  - Semantics chosen: reducing over an empty axis is an error ("empty
 *    reduction") for max, min, argmax, argmin and also mean, variance and
 *    std (numpy gives NaN with a warning, TVM divides by zero); sum of
 *    nothing is 0, prod of nothing 1.  max/min propagate NaN and
 *    argmax/argmin pick the first NaN, as numpy does.  The mean of an int
 *    tensor is its int64 sum truncating-divided by the count (TVM keeps the
 *    int dtype and divides with tir.Div); prod of ints wraps in int64.
 *  - variance is the population variance (numpy's ddof=0), std its square
 *    root, both as TVM computes them: the mean first, then the mean of the
 *    squared deviations from it (two passes, not the one-pass E[x^2] -
 *    E[x]^2 that loses precision).  They are computed in double for every
 *    dtype; an int result truncates toward zero.
 *  - Legalization computes each output slot as the kernel does: it loops
 *    over the kept dims, sets a one-element accumulator (float64 for float
 *    inputs, int64 else: the kernel's double and int64), runs the reduced
 *    dims in row-major order, and stores the accumulator once, cast to the
 *    result dtype.  Floats therefore agree bit for bit with the kernel.
 *    It assumes a non-empty reduction (inference rejects a literal 0
 *    extent; a symbolic one that is 0 at run time makes max/min/argmax
 *    read out of bounds, which the interpreter reports, and mean divide
 *    by zero), where the kernel reports "empty reduction".
 */
#include <math.h>
#include <string.h>

#include "nn_int.h"

#define MAX_RANK 64 /* reduced-axis masks are one uint64_t */

/* argmax and argmin give a position (int64), not a value. */
static bool
is_arg(IrOpId id)
{
  return id == IR_OP_ARGMAX || id == IR_OP_ARGMIN;
}

/* min and argmin keep the smallest element, max and argmax the largest. */
static bool
wants_least(IrOpId id)
{
  return id == IR_OP_MIN || id == IR_OP_ARGMIN;
}

/* variance and std: the mean first, then the squared deviations. */
static bool
is_spread(IrOpId id)
{
  return id == IR_OP_VARIANCE || id == IR_OP_STD;
}

/* ------------------------------------------------------------------ */
/* The axis attribute                                                  */
/* ------------------------------------------------------------------ */

static bool
add_axis(const OpSite *w, const IrAttr *a, int ndim, uint64_t *mask)
{
  if (a->kind != IR_AT_INT)
    return op_fail(w, "axis must be an integer");
  int64_t v = a->u.i;
  if (v < -(int64_t)ndim || v >= ndim)
    return op_fail(w, "axis %lld is out of range for a tensor of rank %d", (long long)v, ndim);
  int d = (int)(v < 0 ? v + ndim : v);
  if (*mask & ((uint64_t)1 << d))
    return op_fail(w, "axis %d is repeated", d);
  *mask |= (uint64_t)1 << d;
  return true;
}

/* Reads axis into *mask (bits of reduced dims) for a tensor of rank ndim.
 * axis None sets every bit.  argmax takes one int; the others a list (a
 * lone int is accepted too).  False after an error: an axis out of range,
 * repeated, or not an integer. */
static bool
axis_mask(const OpSite *w, const IrAttr *axis, int ndim, uint64_t *mask)
{
  *mask = 0;
  if (ndim > MAX_RANK)
    return op_fail(w, "tensors of rank %d are not supported (at most %d)", ndim, MAX_RANK);
  if (!axis || axis->kind == IR_AT_NONE) {
    *mask = ndim == MAX_RANK ? ~(uint64_t)0 : ((uint64_t)1 << ndim) - 1;
    return true;
  }
  if (axis->kind == IR_AT_LIST) {
    if (is_arg(w->call->u.call.op->id))
      return op_fail(w, "axis must be one integer or None");
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

/* Only sum (0) and prod (1) have a value over no elements. */
static bool
needs_elements(IrOpId id)
{
  return id != IR_OP_SUM && id != IR_OP_PROD;
}

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

/* The result dims: reduced dims dropped, or 1 with keepdims; an error
 * when a reduced dim is the literal 0 and the op needs elements. */
static IrPrimExpr **
reduced_shape(OpInfer *in, const OpSite *w, IrPrimExpr **shape, int ndim, uint64_t mask, bool keep,
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
    if (needs_elements(w->call->u.call.op->id) && ir_prim_is_int(shape[d], &v) && v == 0)
      return op_fail_null(w, "empty reduction: axis %d has size 0", d);
    if (needs_elements(w->call->u.call.op->id)) /* the kernel refuses an empty axis */
      op_assume(in, ir_prim_bin(in->ctx, IR_PE_GE, shape[d], ir_prim_int(in->ctx, shape[d]->dtype, 1)));
    if (keep)
      out[n++] = ir_prim_int(in->ctx, shape[d]->dtype.code ? shape[d]->dtype : IR_I64, 1);
  }
  *nout = n;
  return out;
}

static IrSInfo *
infer_reduce(OpInfer *in, const OpSite *w, IrSInfo **args)
{
  bool keep = keepdims(w->call);
  if (w->call->u.call.nargs != 1)
    return op_fail_null(w, "expects 1 argument, got %d", w->call->u.call.nargs);
  const IrSInfo *x = args[0];
  if (x->kind != IR_SI_TENSOR && x->kind != IR_SI_OBJECT)
    return op_fail_null(w, "the argument must be a tensor");
  IrDType t = is_arg(w->call->u.call.op->id) ? IR_I64
              : x->kind == IR_SI_TENSOR           ? x->u.tensor.dtype
                                                  : IR_VOID;
  int vdev = x->kind == IR_SI_TENSOR ? x->u.tensor.vdevice : -1;
  int ndim = x->kind == IR_SI_TENSOR ? x->u.tensor.ndim : -1;
  if (ndim < 0) { /* unknown rank: only a full reduction's rank is known */
    bool scalar = axis_is_all(w->call) && !keep;
    return ir_sinfo_tensor(in->ctx, scalar ? ir_alloc(in->ctx, sizeof(IrPrimExpr *)) : NULL,
                           scalar ? 0 : -1, t, vdev);
  }
  uint64_t mask;
  if (!axis_mask(w, op_attr(w->call, "axis"), ndim, &mask))
    return NULL;
  int nout = 0;
  for (int d = 0; d < ndim; d++)
    nout += keep || !(mask >> d & 1);
  IrPrimExpr **shape = x->shape_len ? NULL : x->u.tensor.shape;
  if (!shape)
    return ir_sinfo_tensor(in->ctx, NULL, nout, t, vdev);
  IrPrimExpr **out = reduced_shape(in, w, shape, ndim, mask, keep, &nout);
  return out ? ir_sinfo_tensor(in->ctx, out, nout, t, vdev) : NULL;
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

/* The position of input element i over the dims in dims (a bit mask),
 * row-major over them: over the kept dims (~mask) the output slot it
 * reduces into, over the reduced ones (mask) its place in the reduction
 * (argmax's answer for the element). */
static int64_t
position_over(const IrTensorData *x, uint64_t dims, int64_t i)
{
  int64_t pos = 0, stride = 1;
  for (int d = x->ndim - 1; d >= 0; d--) {
    int64_t coord = i % x->shape[d];
    i /= x->shape[d];
    if (!(dims >> d & 1))
      continue;
    pos += coord * stride;
    stride *= x->shape[d];
  }
  return pos;
}

/* Per output slot: the running value (double or int64) and, for argmax
 * and argmin, the position of the best element; count of elements seen;
 * variance's sum of squared deviations (second pass). */
typedef struct {
  double f;
  int64_t i;
  int64_t pos;
  int64_t count;
  double squares;
} Acc;

/* Whether v (or iv for ints) replaces the accumulator's best for max/min
 * and argmax/argmin: NaN wins and stays; ties keep the first. */
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
    return wants_least(id) ? v < a->f : v > a->f;
  }
  return wants_least(id) ? iv < a->i : iv > a->i;
}

static void
accumulate(IrOpId id, bool fl, Acc *a, const IrTensorData *x, int64_t i, int64_t pos)
{
  double v = op_get_f(x, i);
  int64_t iv = fl ? 0 : op_get_i(x, i);
  if (id == IR_OP_SUM || id == IR_OP_MEAN || is_spread(id)) {
    a->f += v;
    a->i = (int64_t)((uint64_t)a->i + (uint64_t)iv);
  } else if (id == IR_OP_PROD) {
    a->f = a->count ? a->f * v : v;
    a->i = a->count ? (int64_t)((uint64_t)a->i * (uint64_t)iv) : iv;
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
  if (is_arg(id))
    op_set_i(out, o, a->pos);
  else if (id == IR_OP_PROD && a->count == 0)
    op_set_i(out, o, 1);
  else if (is_spread(id)) {
    double var = a->squares / (double)a->count;
    op_set_f(out, o, id == IR_OP_STD ? sqrt(var) : var);
  }
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
eval_reduce(OpEval *ev, const OpSite *w, Value **args)
{
  IrOpId id = w->call->u.call.op->id;
  if (args[0]->kind != VAL_TENSOR)
    return op_fail_null(w, "the argument must be a tensor");
  const IrTensorData *x = &args[0]->u.tensor.t;
  uint64_t mask;
  int64_t dims[MAX_RANK];
  if (!axis_mask(w, op_attr(w->call, "axis"), x->ndim, &mask))
    return NULL;
  int64_t n = op_numel(x);
  for (int d = 0; d < x->ndim; d++)
    if ((mask >> d & 1) && x->shape[d] == 0 && needs_elements(id))
      return op_fail_null(w, "empty reduction: axis %d has size 0", d);
  int nd = result_dims(x, mask, keepdims(w->call), dims);
  IrDType t = is_arg(id) ? IR_I64 : x->dtype;
  Value *v = op_tensor_new(ev->ctx, t, nd, dims, ev->loc);
  if (!v)
    return NULL;
  IrTensorData *out = &v->u.tensor.t;
  int64_t m = op_numel(out);
  Acc *acc = ir_alloc(ev->ctx, sizeof *acc * (size_t)(m ? m : 1));
  bool fl = ir_dtype_is_float(x->dtype);
  for (int64_t i = 0; i < n; i++)
    accumulate(id, fl, &acc[position_over(x, ~mask, i)], x, i, position_over(x, mask, i));
  for (int64_t i = 0; is_spread(id) && i < n; i++) { /* deviations from the finished means */
    Acc *a = &acc[position_over(x, ~mask, i)];
    double d = op_get_f(x, i) - a->f / (double)a->count;
    a->squares += d * d;
  }
  for (int64_t o = 0; o < m; o++)
    finish(id, fl, &acc[o], out, o);
  return v;
}

/* ------------------------------------------------------------------ */
/* Legalization                                                        */
/* ------------------------------------------------------------------ */

/* What one reduction's prim_func is made of.  Loop vars index x: the kept
 * dims' vars are the outer nest, the reduced dims' the inner one. */
typedef struct {
  OpPrim *p;
  IrCtx *ctx;
  IrOpId id;
  IrBuffer *x;       /* the input A */
  IrBuffer *out;     /* the result */
  IrBuffer *acc;     /* (1,): the running value, float64 or int64 */
  IrBuffer *pos;     /* (1,) int64: argmax's/argmin's position of acc, or NULL */
  IrBuffer *mean;    /* (1,) float64: variance's and std's mean, or NULL */
  uint64_t mask;     /* reduced dims of x */
  IrDType acc_type;  /* float64 for float inputs, else int64 */
  IrPrimExpr **at;   /* x's index in the inner nest */
  IrPrimExpr **head; /* x's index of a slot's first element (reduced dims 0) */
  IrPrimExpr **slot; /* out's index (a kept reduced dim is 0) */
  IrBuffer *lanes;   /* float32 sum or mean over one dim: op_nn_lanes_reduce's lanes, else NULL */
  int lanes_dim;     /* that dim */
} Reduction;

static IrPrimExpr *
i64(IrCtx *ctx, int64_t v)
{
  return ir_prim_int(ctx, IR_I64, v);
}

static IrPrimExpr *
cast(IrCtx *ctx, IrDType t, IrPrimExpr *x)
{
  return ir_dtype_eq(x->dtype, t) ? x : ir_prim_cast(ctx, t, x);
}

/* a * b in int64, folded when both are literals. */
static IrPrimExpr *
mul(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b)
{
  int64_t x, y;
  if (ir_prim_is_int(a, &x) && ir_prim_is_int(b, &y))
    return i64(ctx, x * y);
  if (ir_prim_is_int(a, &x) && x == 1)
    return cast(ctx, IR_I64, b);
  return ir_prim_bin(ctx, IR_PE_MUL, cast(ctx, IR_I64, a), cast(ctx, IR_I64, b));
}

/* acc[0], pos[0] */
static IrPrimExpr *
cell(const Reduction *r, IrBuffer *b)
{
  IrPrimExpr **zero = ir_alloc(r->ctx, sizeof *zero);
  zero[0] = i64(r->ctx, 0);
  return op_prim_load(r->p, b, zero);
}

static IrStmt *
set_cell(const Reduction *r, IrBuffer *b, IrPrimExpr *value)
{
  IrPrimExpr **zero = ir_alloc(r->ctx, sizeof *zero);
  zero[0] = i64(r->ctx, 0);
  return op_prim_store(r->p, b, zero, value);
}

static IrStmt *
seq(const Reduction *r, IrStmt **stmts, int n)
{
  IrStmt *s = ir_stmt_new(r->ctx, IR_ST_SEQ, r->p->lz->loc);
  s->u.seq.n = n;
  s->u.seq.stmts = ir_alloc(r->ctx, sizeof *stmts * (size_t)n);
  memcpy(s->u.seq.stmts, stmts, sizeof *stmts * (size_t)n);
  return s;
}

/* The element count of a slot (the product of the reduced extents) and
 * an element's position among them (row-major, as the kernel's
 * position_over the reduced dims), both int64. */
static IrPrimExpr *
reduced_count(const Reduction *r, IrPrimExpr **position)
{
  IrPrimExpr *count = i64(r->ctx, 1), *pos = i64(r->ctx, 0);
  bool first = true;
  for (int d = 0; d < r->x->ndim; d++) {
    if (!(r->mask >> d & 1))
      continue;
    IrPrimExpr *i = cast(r->ctx, IR_I64, r->at[d]);
    pos = first ? i : ir_prim_bin(r->ctx, IR_PE_ADD, mul(r->ctx, pos, r->x->shape[d]), i);
    count = mul(r->ctx, count, r->x->shape[d]);
    first = false;
  }
  if (position)
    *position = pos;
  return count;
}

/* Whether element v replaces the running best of max, min and argmax (the
 * kernel's better(): a NaN best stays, a NaN element wins, ties keep the
 * first).  x != x is IEEE's NaN test. */
static IrPrimExpr *
takes(const Reduction *r, IrPrimExpr *v)
{
  IrPrimExpr *best = cell(r, r->acc);
  IrPrimExpr *beats = ir_prim_bin(r->ctx, wants_least(r->id) ? IR_PE_LT : IR_PE_GT, v, best);
  if (!ir_dtype_is_float(r->x->dtype))
    return beats;
  IrPrimExpr *best_ok = ir_prim_bin(r->ctx, IR_PE_EQ, best, best);
  IrPrimExpr *v_nan = ir_prim_bin(r->ctx, IR_PE_NE, v, v);
  return ir_prim_bin(r->ctx, IR_PE_AND, best_ok, ir_prim_bin(r->ctx, IR_PE_OR, v_nan, beats));
}

/* The inner body: sum and mean add, prod multiplies, the others replace
 * when takes(); argmax and argmin move pos before acc, so that both test
 * the old best.  The element, widened to the accumulator's dtype, is bound
 * to v once. */
static IrStmt *
update(const Reduction *r)
{
  IrStmt *let = ir_stmt_new(r->ctx, IR_ST_LET, r->p->lz->loc);
  IrPrimExpr *v = ir_prim_var(r->ctx, ir_sym(r->ctx, "v"), r->acc_type);
  let->u.let.var = v;
  let->u.let.value = cast(r->ctx, r->acc_type, op_prim_load(r->p, r->x, r->at));
  if (r->id == IR_OP_SUM || r->id == IR_OP_MEAN || is_spread(r->id)) {
    let->u.let.body = set_cell(r, r->acc, ir_prim_bin(r->ctx, IR_PE_ADD, cell(r, r->acc), v));
    return let;
  }
  if (r->id == IR_OP_PROD) {
    let->u.let.body = set_cell(r, r->acc, ir_prim_bin(r->ctx, IR_PE_MUL, cell(r, r->acc), v));
    return let;
  }
  IrStmt *best = set_cell(r, r->acc, ir_prim_select(r->ctx, takes(r, v), v, cell(r, r->acc)));
  let->u.let.body = best;
  if (!is_arg(r->id))
    return let;
  IrPrimExpr *position;
  reduced_count(r, &position);
  IrPrimExpr *moved = ir_prim_select(r->ctx, takes(r, v), position, cell(r, r->pos));
  IrStmt *s[2] = {set_cell(r, r->pos, moved), best};
  let->u.let.body = seq(r, s, 2);
  return let;
}

/* The count of a slot's elements as a float64 expression. */
static IrPrimExpr *
count_f64(const Reduction *r)
{
  IrPrimExpr *count = reduced_count(r, NULL);
  int64_t c;
  return ir_prim_is_int(count, &c) ? ir_prim_float(r->ctx, op_nn_f64_type(), (double)c)
                                   : ir_prim_cast(r->ctx, op_nn_f64_type(), count);
}

/* The slot's result from the accumulator: mean divides by the count (ints
 * truncating, as the kernel's int64 division), argmax and argmin give the
 * position, variance the mean square (std its root). */
static IrPrimExpr *
result_value(const Reduction *r)
{
  IrPrimExpr *acc = cell(r, r->acc);
  if (is_arg(r->id))
    return cell(r, r->pos);
  if (is_spread(r->id)) {
    IrPrimExpr *var = ir_prim_bin(r->ctx, IR_PE_DIV, acc, count_f64(r));
    if (r->id == IR_OP_STD)
      var = op_nn_intrinsic(r->ctx, op_nn_f64_type(), "tir.sqrt", var);
    return cast(r->ctx, r->out->dtype, var);
  }
  if (r->id != IR_OP_MEAN)
    return cast(r->ctx, r->out->dtype, acc);
  IrPrimExpr *count = reduced_count(r, NULL);
  int64_t c;
  if (ir_dtype_is_float(r->acc_type))
    count = ir_prim_is_int(count, &c) ? ir_prim_float(r->ctx, r->acc_type, (double)c)
                                      : ir_prim_cast(r->ctx, r->acc_type, count);
  acc = ir_prim_bin(r->ctx, IR_PE_DIV, acc, count);
  return cast(r->ctx, r->out->dtype, acc);
}

/* Element i of the one reduced dim of a float32 sum or mean. */
static IrPrimExpr *
lanes_load(OpPrim *p, void *env, IrPrimExpr *i)
{
  Reduction *r = env;
  IrPrimExpr **at = op_nn_index_copy(p->lz->ctx, r->at, r->x->ndim);
  at[r->lanes_dim] = i;
  return op_prim_load(p, r->x, at);
}

/* The float32 slot: the sum in float32, as TVM's legalized sum and mean
 * compute it, in lanes so that it vectorizes (op_nn_lanes_reduce), the
 * mean divided in float32. */
static IrStmt *
slot_body_lanes(Reduction *r)
{
  OpNnLanes l = {IR_PE_ADD, r->lanes, r->acc, 0, r, lanes_load};
  IrStmt *s[2];
  s[0] = op_nn_lanes_reduce(r->p, &l, r->x->shape[r->lanes_dim]);
  IrPrimExpr *v = op_nn_lanes_result(r->p, &l);
  if (r->id == IR_OP_MEAN) {
    IrPrimExpr *count = r->x->shape[r->lanes_dim];
    int64_t c;
    count = ir_prim_is_int(count, &c) ? ir_prim_float(r->ctx, IR_F32, (double)c)
                                      : ir_prim_cast(r->ctx, IR_F32, count);
    v = ir_prim_bin(r->ctx, IR_PE_DIV, v, count);
  }
  s[1] = op_prim_store(r->p, r->out, r->slot, v);
  return op_nn_seq(r->p, s, 2);
}

/* A nest over the reduced dims (r->at indexing its element) around the
 * body update() makes. */
static IrStmt *
reduced_nest(Reduction *r, IrPrimExpr **reduced, int nreduced)
{
  IrStmt *nest;
  IrPrimExpr **vars;
  IrStmt **inner = op_prim_loop_nest(r->p, reduced, nreduced, &vars, &nest);
  for (int d = 0, k = 0; d < r->x->ndim; d++)
    if (r->mask >> d & 1)
      r->at[d] = vars[k++];
  *inner = update(r);
  return nest;
}

/* variance's and std's second pass: acc = 0, then acc += (v - mean)^2
 * over the reduced dims, mean being the first pass's acc / count. */
static IrStmt *
spread_pass(Reduction *r, IrPrimExpr **reduced, int nreduced)
{
  IrStmt *nest, *s[3];
  IrPrimExpr **vars;
  IrStmt **inner = op_prim_loop_nest(r->p, reduced, nreduced, &vars, &nest);
  r->at = op_nn_index_copy(r->ctx, r->at, r->x->ndim); /* the first pass's loads keep theirs */
  for (int d = 0, k = 0; d < r->x->ndim; d++)
    if (r->mask >> d & 1)
      r->at[d] = vars[k++];
  IrStmt *let = ir_stmt_new(r->ctx, IR_ST_LET, r->p->lz->loc);
  IrPrimExpr *dev = ir_prim_var(r->ctx, ir_sym(r->ctx, "d"), r->acc_type);
  let->u.let.var = dev;
  let->u.let.value = ir_prim_bin(r->ctx, IR_PE_SUB, cast(r->ctx, r->acc_type, op_prim_load(r->p, r->x, r->at)),
                                 cell(r, r->mean));
  let->u.let.body = set_cell(r, r->acc, ir_prim_bin(r->ctx, IR_PE_ADD, cell(r, r->acc),
                                                    ir_prim_bin(r->ctx, IR_PE_MUL, dev, dev)));
  *inner = let;
  s[0] = set_cell(r, r->mean, ir_prim_bin(r->ctx, IR_PE_DIV, cell(r, r->acc), count_f64(r)));
  s[1] = set_cell(r, r->acc, ir_prim_float(r->ctx, r->acc_type, 0.0));
  s[2] = nest;
  return seq(r, s, 3);
}

/* One slot: initialize (0 for sums, 1 for products, the slot's first
 * element for the others, which assumes a non-empty reduction),
 * accumulate over the reduced dims (twice for variance and std), store. */
static IrStmt *
slot_body(Reduction *r, IrPrimExpr **reduced, int nreduced)
{
  if (r->lanes)
    return slot_body_lanes(r);
  IrStmt *s[5];
  int n = 0;
  IrStmt *nest = reduced_nest(r, reduced, nreduced);
  IrPrimExpr *init;
  int identity = r->id == IR_OP_PROD ? 1 : 0;
  if (r->id != IR_OP_SUM && r->id != IR_OP_MEAN && r->id != IR_OP_PROD && !is_spread(r->id))
    init = cast(r->ctx, r->acc_type, op_prim_load(r->p, r->x, r->head));
  else
    init = ir_dtype_is_float(r->acc_type) ? ir_prim_float(r->ctx, r->acc_type, identity)
                                 : i64(r->ctx, identity);
  s[n++] = set_cell(r, r->acc, init);
  if (r->pos)
    s[n++] = set_cell(r, r->pos, i64(r->ctx, 0));
  s[n++] = nest;
  if (r->mean)
    s[n++] = spread_pass(r, reduced, nreduced);
  s[n++] = op_prim_store(r->p, r->out, r->slot, result_value(r));
  return seq(r, s, n);
}

/* The outer nest over the kept dims of x; fills at, head and slot. */
static void
emit_reduction(Reduction *r, bool keep)
{
  int ndim = r->x->ndim;
  IrPrimExpr **kept = ir_alloc(r->ctx, sizeof *kept * (size_t)(ndim ? ndim : 1));
  IrPrimExpr **reduced = ir_alloc(r->ctx, sizeof *reduced * (size_t)(ndim ? ndim : 1));
  int nkept = 0, nreduced = 0, nslot = 0;
  for (int d = 0; d < ndim; d++) {
    if (r->mask >> d & 1)
      reduced[nreduced++] = r->x->shape[d];
    else
      kept[nkept++] = r->x->shape[d];
  }
  IrPrimExpr **vars;
  IrStmt **body = op_prim_loops(r->p, kept, nkept, &vars);
  for (int d = 0, k = 0; d < ndim; d++) {
    bool reduces = r->mask >> d & 1;
    IrPrimExpr *v = reduces ? i64(r->ctx, 0) : vars[k++];
    r->head[d] = r->at[d] = v;
    if (!reduces || keep)
      r->slot[nslot++] = v;
  }
  *body = slot_body(r, reduced, nreduced);
}

/* The legalize hook of the reductions; NULL (the call kept) when the
 * input's or the result's shape is not known. */
static IrExpr *
legalize_reduce(OpLegalize *lz, const OpSite *w, IrSInfo *result)
{
  const char *name = strrchr(w->call->u.call.op->name, '.') + 1; /* "relax.sum" -> "sum" */
  OpPrim p;
  op_prim_begin(lz, &p, name);
  Reduction r = {.p = &p, .ctx = lz->ctx, .id = w->call->u.call.op->id, .acc_type = IR_I64};
  r.x = w->call->u.call.nargs == 1 ? op_prim_input(&p, w->call->u.call.args[0], "A") : NULL;
  r.out = r.x ? op_prim_output(&p, result, ir_printf(lz->ctx, "T_%s", name)) : NULL;
  if (!r.out || !axis_mask(w, op_attr(w->call, "axis"), r.x->ndim, &r.mask)) {
    op_prim_abort(&p);
    return NULL;
  }
  if (ir_dtype_is_float(r.x->dtype) || is_spread(r.id))
    r.acc_type = op_nn_f64_type();
  bool f32 = ir_dtype_eq(r.x->dtype, IR_F32) && ir_dtype_eq(r.out->dtype, IR_F32);
  if (f32 && (r.id == IR_OP_SUM || r.id == IR_OP_MEAN) && r.mask && !(r.mask & (r.mask - 1))) {
    r.acc_type = IR_F32;
    r.lanes = op_nn_lanes_new(&p, "lanes", OP_NN_LANES);
    r.lanes_dim = __builtin_ctzll(r.mask);
  }
  IrPrimExpr *one = i64(lz->ctx, 1);
  r.acc = op_prim_alloc(&p, r.acc_type, &one, 1, "acc");
  if (is_arg(r.id))
    r.pos = op_prim_alloc(&p, IR_I64, &one, 1, "pos");
  if (is_spread(r.id))
    r.mean = op_prim_alloc(&p, r.acc_type, &one, 1, "mean");
  size_t n = sizeof(IrPrimExpr *) * (size_t)(r.x->ndim ? r.x->ndim : 1);
  r.at = ir_alloc(lz->ctx, n);
  r.head = ir_alloc(lz->ctx, n);
  r.slot = ir_alloc(lz->ctx, n);
  emit_reduction(&r, keepdims(w->call));
  return op_prim_finish(&p, w->call, result);
}


/* ------------------------------------------------------------------ */
/* Scans: R.cumsum, R.cumprod                                          */
/* ------------------------------------------------------------------ */

/* A scan runs along one axis of x: out[o, k, i] = x[o, 0, i] op ... op
 * x[o, k, i] (exclusive: up to k - 1, the identity at k = 0).  axis None
 * scans the flattened x (a 1-D result).  The result dtype is the dtype
 * attribute, x's when None.  As the reductions, the running value is a
 * double when x or the result is a float, else an int64 that wraps; each
 * prefix is rounded once at its store. */

static bool
is_sum_scan(IrOpId id)
{
  return id == IR_OP_CUMSUM;
}

/* The scan's result dtype: the dtype attribute, or x's; false after an
 * error. */
static bool
scan_dtype(const OpSite *s, IrDType x, IrDType *out)
{
  if (!op_nn_attr_dtype(s, "dtype", out))
    return false;
  if (out->code == IR_DT_VOID)
    *out = x;
  return true;
}

static IrSInfo *
infer_scan(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x;
  IrDType t;
  int64_t axis;
  if (s->call->u.call.nargs != 1)
    return op_fail_null(s, "expects 1 argument, got %d", s->call->u.call.nargs);
  if (!op_nn_tensor_arg(in, s, args, 0, "data", &x) || !scan_dtype(s, op_nn_dtype(x), &t) ||
      !op_nn_attr_int(s, "axis", INT64_MIN, &axis))
    return NULL;
  int ndim = op_nn_ndim(x), vdev = op_nn_vdevice(x), d;
  IrPrimExpr **shape = op_nn_shape(x);
  if (axis == INT64_MIN) { /* flattened */
    if (!shape)
      return ir_sinfo_tensor(in->ctx, NULL, 1, t, vdev);
    IrPrimExpr **out = ir_alloc(in->ctx, sizeof *out);
    out[0] = op_nn_int(in->ctx, 1);
    for (int i = 0; i < ndim; i++)
      out[0] = op_nn_mul(in->ctx, out[0], shape[i]);
    out[0] = op_nn_simplify(in, out[0]);
    return ir_sinfo_tensor(in->ctx, out, 1, t, vdev);
  }
  if (ndim >= 0 && !op_axis(in, s->call, axis, ndim, &d))
    return NULL;
  return ir_sinfo_tensor(in->ctx, shape, ndim, t, vdev);
}

/* x as (outer, len, inner) around the scanned axis (flattened: 1, n, 1). */
static void
scan_split(const IrTensorData *x, int axis, int64_t *outer, int64_t *len, int64_t *inner)
{
  *outer = *inner = 1;
  *len = axis < 0 ? op_numel(x) : x->shape[axis];
  for (int d = 0; axis >= 0 && d < x->ndim; d++) {
    if (d < axis)
      *outer *= x->shape[d];
    else if (d > axis)
      *inner *= x->shape[d];
  }
}

static Value *
eval_scan(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "data");
  IrDType t;
  int64_t axis;
  bool exclusive;
  if (!x || !scan_dtype(s, x->dtype, &t) || !op_nn_attr_int(s, "axis", INT64_MIN, &axis) ||
      !op_nn_attr_bool(s, "exclusive", false, &exclusive))
    return NULL;
  if (axis != INT64_MIN && (axis < -x->ndim || axis >= x->ndim))
    return op_fail_null(s, "axis %lld is out of range for a tensor of rank %d", (long long)axis,
                        x->ndim);
  int ax = axis == INT64_MIN ? -1 : (int)(axis < 0 ? axis + x->ndim : axis);
  int64_t n = op_numel(x);
  Value *v = ax < 0 ? op_nn_tensor_new(s, t, 1, &n) : op_nn_tensor_new(s, t, x->ndim, x->shape);
  if (!v)
    return NULL;
  IrTensorData *out = &v->u.tensor.t;
  bool fl = ir_dtype_is_float(x->dtype) || ir_dtype_is_float(t), sum = is_sum_scan(s->call->u.call.op->id);
  int64_t outer, len, inner;
  scan_split(x, ax, &outer, &len, &inner);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      double f = sum ? 0 : 1;
      int64_t w = sum ? 0 : 1;
      for (int64_t k = 0; k < len; k++) {
        int64_t at = (o * len + k) * inner + i;
        if (exclusive)
          fl ? op_set_f(out, at, f) : op_set_i(out, at, w);
        if (fl)
          f = sum ? f + op_get_f(x, at) : f * op_get_f(x, at);
        else
          w = (int64_t)(sum ? (uint64_t)w + (uint64_t)op_get_i(x, at)
                            : (uint64_t)w * (uint64_t)op_get_i(x, at));
        if (!exclusive)
          fl ? op_set_f(out, at, f) : op_set_i(out, at, w);
      }
    }
  return v;
}

/* The index of x at position k of the flattened tensor (row-major). */
static IrPrimExpr **
unflatten(IrCtx *ctx, const IrBuffer *x, IrPrimExpr *k)
{
  IrPrimExpr **at = ir_alloc(ctx, sizeof *at * (size_t)(x->ndim ? x->ndim : 1));
  for (int d = x->ndim - 1; d >= 0; d--) {
    at[d] = d ? ir_prim_bin(ctx, IR_PE_FLOORMOD, k, x->shape[d]) : k;
    if (d)
      k = op_nn_floordiv(ctx, k, x->shape[d]);
  }
  return at;
}

/* The scan's prim_func: a nest over every dim but the axis, in it the
 * running value (a (1,) buffer of float64 or int64) set to the identity,
 * and a loop along the axis storing each prefix, as the kernel does. */
static IrExpr *
legalize_scan(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  bool sum = is_sum_scan(s->call->u.call.op->id), exclusive;
  int64_t axis;
  OpPrim p;
  IrBuffer *x, *out;
  if (!op_prim_open(lz, &p, sum ? "cumsum" : "cumprod", s->call, result,
                    (OpPrimParam[]){{"A", &x}, {sum ? "T_cumsum" : "T_cumprod", &out}}, 2))
    return NULL;
  if (!op_nn_attr_int(s, "axis", INT64_MIN, &axis) ||
      !op_nn_attr_bool(s, "exclusive", false, &exclusive)) {
    op_prim_abort(&p);
    return NULL;
  }
  int ax = axis == INT64_MIN ? -1 : (int)(axis < 0 ? axis + x->ndim : axis);
  IrDType acc_t = ir_dtype_is_float(x->dtype) || ir_dtype_is_float(out->dtype) ? op_nn_f64_type() : IR_I64;
  IrPrimExpr *one = i64(lz->ctx, 1);
  IrBuffer *acc = op_prim_alloc(&p, acc_t, &one, 1, "acc");
  bool *pick = ir_alloc(lz->ctx, sizeof *pick * (size_t)(x->ndim ? x->ndim : 1));
  IrPrimExpr **at = ir_alloc(lz->ctx, sizeof *at * (size_t)(x->ndim ? x->ndim : 1));
  for (int d = 0; d < x->ndim; d++)
    pick[d] = ax >= 0 && d != ax;
  IrStmt *nest, *along, *st[2];
  IrStmt **body = op_nn_nest_dims(&p, x->shape, x->ndim, pick, true, at, &nest);
  IrPrimExpr **k;
  IrPrimExpr *len = ax >= 0 ? x->shape[ax] : out->shape[0];
  IrStmt **step = op_prim_loop_nest(&p, &len, 1, &k, &along);
  IrPrimExpr **xi = at, **oi = at;
  if (ax >= 0)
    at[ax] = k[0];
  else {
    xi = unflatten(lz->ctx, x, k[0]);
    oi = k;
  }
  IrPrimExpr *zero = i64(lz->ctx, 0), *run = op_prim_load_at(&p, acc, zero);
  IrPrimExpr *v = op_nn_to(lz->ctx, acc_t, op_prim_load(&p, x, xi));
  IrStmt *keep = op_prim_store_at(&p, acc, zero, ir_prim_bin(lz->ctx, sum ? IR_PE_ADD : IR_PE_MUL, run, v));
  IrStmt *put = op_prim_store(&p, out, oi, op_nn_to(lz->ctx, out->dtype, run));
  st[0] = exclusive ? put : keep;
  st[1] = exclusive ? keep : put;
  *step = op_nn_seq(&p, st, 2);
  st[0] = op_prim_store_at(&p, acc, zero, ir_dtype_is_float(acc_t) ? op_nn_lit(lz->ctx, acc_t, sum ? 0 : 1)
                                                          : i64(lz->ctx, sum ? 0 : 1));
  st[1] = along;
  *body = op_nn_seq(&p, st, 2);
  op_prim_emit(&p, nest);
  return op_prim_finish(&p, s->call, result);
}

#define SCAN                                                                                       \
  .syn.params = {OP_ARG("data"), OP_ATTR("axis", "None"), OP_ATTR("dtype", "None"),                \
                 OP_ATTR("exclusive", "False")},                                                   \
  .syn.nparams = 4, .impl = {infer_scan, eval_scan, legalize_scan}

#define REDUCE                                                                                     \
  .syn.params = {OP_ARG("x"), OP_ATTR("axis", "None"), OP_ATTR("keepdims", "False")},              \
  .syn.nparams = 3, .impl = {infer_reduce, eval_reduce, legalize_reduce}

static const OpDef defs[] = {
    OP(IR_OP_SUM, "relax.sum", REDUCE),       /* of nothing: 0 */
    OP(IR_OP_MEAN, "relax.mean", REDUCE),         /* ints: the int64 sum truncating-divided */
    OP(IR_OP_PROD, "relax.prod", REDUCE),         /* of nothing: 1; ints wrap in int64 */
    OP(IR_OP_VARIANCE, "relax.variance", REDUCE), /* population (ddof 0), two passes in double */
    OP(IR_OP_STD, "relax.std", REDUCE),           /* the root of variance */
    OP(IR_OP_MAX, "relax.max", REDUCE),           /* NaN propagates */
    OP(IR_OP_MIN, "relax.min", REDUCE),           /* NaN propagates */
    OP(IR_OP_ARGMAX, "relax.argmax", REDUCE),     /* int64: the first maximum, or the first NaN */
    OP(IR_OP_ARGMIN, "relax.argmin", REDUCE),     /* int64: the first minimum, or the first NaN */
    OP(IR_OP_CUMSUM, "relax.cumsum", SCAN),       /* ints wrap in int64 */
    OP(IR_OP_CUMPROD, "relax.cumprod", SCAN),     /* ints wrap in int64 */
};

const OpTable op_reduce_table = {defs, sizeof defs / sizeof defs[0]};
