/*
 * manip_extra.c - manipulation ops that are neither plain copies nor index
 * ops: reverse_sequence, meshgrid, collapse_sum_like, collapse_sum_to,
 * dynamic_strided_slice (its shape comes from data: lowered through op_data_dims)
 * and R.memory.view.
 * Each op's inference, reference kernel and lowering sit together here;
 * their entries are in manip.c's table.
 *
 * reverse_sequence follows TVM's topi: a length of 0 or 1 leaves its
 * sequence alone and a length past the axis reverses the whole axis, so
 * no length value is out of range.  collapse_sum sums in double (int64 for
 * integers) and rounds once at the store, in the kernel and in the
 * lowering alike.
 */
#include <string.h>

#include "manip_int.h"
#include "nn_int.h"
#include "tir_build.h"

static bool
is_lit(const IrPrimExpr *e, int64_t v)
{
  int64_t x;
  return ir_prim_is_int(e, &x) && x == v;
}

static Value *
as_value(const OpSite *s, IrTensorData *t)
{
  return t ? op_tensor_from_data(s->ctx, t) : NULL;
}

/* ------------------------------------------------------------------ */
/* reverse_sequence                                                    */
/* ------------------------------------------------------------------ */

/* seq_axis and batch_axis normalized against rank ndim. */
static bool
sequence_axes(const OpSite *s, int ndim, int *seq, int *batch)
{
  int64_t *v, *w;
  int n, m;
  if (!op_manip_attr_ints(s, "seq_axis", false, &v, &n) ||
      !op_manip_attr_ints(s, "batch_axis", false, &w, &m))
    return false;
  if (n != 1 || m != 1)
    return op_fail(s, "seq_axis and batch_axis must be integers");
  return op_manip_norm_axis(s, v[0], ndim, seq) && op_manip_norm_axis(s, w[0], ndim, batch);
}

/* R.reverse_sequence (TVM's rule): seq_lengths is 1-D, int32 or int64,
 * with data.shape[batch_axis] elements; the result is data's. */
IrSInfo *
op_manip_infer_reverse_sequence(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "data");
  IrSInfo *l = x ? op_manip_tensor_arg(s, args[1], "seq_lengths") : NULL;
  int seq, batch;
  if (!l)
    return NULL;
  IrDType t = l->u.tensor.dtype;
  char b[16];
  if (t.code != IR_DT_VOID && !ir_dtype_eq(t, IR_I32) && !ir_dtype_eq(t, IR_I64))
    return op_fail_null(s, "seq_lengths must be int32 or int64, not %s", ir_dtype_str(t, b));
  if (l->u.tensor.ndim >= 0 && l->u.tensor.ndim != 1)
    return op_fail_null(s, "seq_lengths must be 1-D, not of rank %d", l->u.tensor.ndim);
  if (x->u.tensor.ndim < 0)
    return x;
  if (!sequence_axes(s, x->u.tensor.ndim, &seq, &batch))
    return NULL;
  if (x->u.tensor.shape && l->u.tensor.shape &&
      op_assume_equal(in, l->u.tensor.shape[0], x->u.tensor.shape[batch]) == IR_PROVE_FALSE) {
    return op_fail_null(s, "seq_lengths has %s elements, but data's batch axis %d has %s",
                        op_nn_expr_str(in->ctx, l->u.tensor.shape[0]), batch,
                        op_nn_expr_str(in->ctx, x->u.tensor.shape[batch]));
  }
  return x;
}

/* Position i of a sequence of len elements along an axis of n: reversed
 * within the first min(len, n) elements when len > 1 (TVM's topi). */
static int64_t
reversed_position(int64_t i, int64_t len, int64_t n)
{
  if (len <= 1 || len <= i)
    return i;
  return len > n ? n - 1 - i : len - 1 - i;
}

Value *
op_manip_eval_reverse_sequence(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data");
  IrTensorData *l = x ? op_manip_tensor_val(s, args[1], "seq_lengths") : NULL;
  int seq, batch;
  if (!l || !sequence_axes(s, x->ndim, &seq, &batch))
    return NULL;
  if (l->ndim != 1 || l->dtype.code != IR_DT_INT || l->shape[0] != x->shape[batch])
    return op_fail_null(s, "seq_lengths must be 1-D of an int dtype with data.shape[%d] elements",
                        batch);
  IrTensorData *out = op_manip_new_tensor(s, x->dtype, x->ndim, x->shape);
  int64_t o[MAX_DIMS] = {0}, count = out ? op_numel(out) : 0;
  for (int64_t k = 0; k < count; k++) {
    int64_t keep = o[seq], src = 0;
    o[seq] = reversed_position(keep, op_get_i(l, o[batch]), x->shape[seq]);
    for (int d = 0; d < x->ndim; d++)
      src = src * x->shape[d] + o[d];
    o[seq] = keep;
    op_manip_copy_elem(out, k, x, src);
    for (int d = x->ndim - 1; d >= 0 && ++o[d] == x->shape[d]; d--)
      o[d] = 0;
  }
  return as_value(s, out);
}

IrExpr *
op_manip_legalize_reverse_sequence(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  int seq, batch;
  IrBuffer *x, *l, *out;
  if (!op_manip_prim_open(lz, &p, s, result, "reverse_sequence", &x, &l, &out))
    return NULL;
  if (l->ndim != 1 || out->ndim != x->ndim || l->dtype.code != IR_DT_INT ||
      !sequence_axes(s, x->ndim, &seq, &batch)) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  /* seq_lengths[min(b, len(seq_lengths) - 1)]: the kernel refuses a
   * length that differs from the batch axis */
  IrPrimExpr **li = op_manip_dims(ctx, 1);
  li[0] = ir_prim_expr_equal(l->shape[0], x->shape[batch])
              ? o[batch]
              : ir_prim_bin(ctx, IR_PE_MIN, o[batch],
                            ir_prim_bin(ctx, IR_PE_SUB, l->shape[0], op_manip_lit(ctx, 1)));
  IrPrimExpr *len = op_prim_load(&p, l, li), *i = o[seq], *n = x->shape[seq];
  if (!ir_dtype_eq(len->dtype, IR_I64))
    len = ir_prim_cast(ctx, IR_I64, len);
  IrPrimExpr *keep =
      ir_prim_bin(ctx, IR_PE_OR, ir_prim_bin(ctx, IR_PE_LE, len, op_manip_lit(ctx, 1)),
                  ir_prim_bin(ctx, IR_PE_LE, len, i));
  IrPrimExpr *whole =
      ir_prim_bin(ctx, IR_PE_SUB, ir_prim_bin(ctx, IR_PE_SUB, n, op_manip_lit(ctx, 1)), i);
  IrPrimExpr *part =
      ir_prim_bin(ctx, IR_PE_SUB, ir_prim_bin(ctx, IR_PE_SUB, len, op_manip_lit(ctx, 1)), i);
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim);
  memcpy(xi, o, sizeof(IrPrimExpr *) * (size_t)x->ndim);
  xi[seq] = ir_prim_select(ctx, keep, i,
                           ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_GT, len, n), whole, part));
  *body = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* meshgrid                                                            */
/* ------------------------------------------------------------------ */

/* The indexing attribute: true for "xy" (the first two output dims
 * swapped), false for "ij" or None; -1 after an error. */
static int
indexing_xy(const OpSite *s)
{
  const IrAttr *a = op_attr(s->call, "indexing");
  if (!a || a->kind == IR_AT_NONE || (a->kind == IR_AT_STR && strcmp(a->u.s, "ij") == 0))
    return 0;
  if (a->kind == IR_AT_STR && strcmp(a->u.s, "xy") == 0)
    return 1;
  op_report(s, "indexing must be \"ij\" or \"xy\"");
  return -1;
}

/* R.meshgrid: n 1-D tensors of one dtype give n tensors of shape (len0,
 * len1, ...), or with "xy" (len1, len0, ...), as numpy and TVM's topi
 * (TVM's inference keeps "ij"'s order for "xy"; this follows the data). */
IrSInfo *
op_manip_infer_meshgrid(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *si = args[0];
  const IrExpr *e = s->call->u.call.args[0];
  int xy = indexing_xy(s);
  int n = si && si->kind == IR_SI_TUPLE ? si->u.tuple.n
          : e->kind == IR_EX_TUPLE      ? e->u.tuple.n
                                        : -1;
  if (xy < 0)
    return NULL;
  if (n <= 0)
    return op_fail_null(s, "tensors must be a non-empty tuple of 1-D tensors");
  IrPrimExpr **dims = op_manip_dims(in->ctx, n);
  IrDType dt = IR_VOID;
  bool known = true;
  for (int i = 0; i < n; i++) {
    IrSInfo *f = si && si->kind == IR_SI_TUPLE ? si->u.tuple.fields[i] : e->u.tuple.items[i]->sinfo;
    IrSInfo *t = op_manip_tensor_arg(s, f, "every item of tensors");
    char a[16], b[16];
    if (!t)
      return NULL;
    if (t->u.tensor.ndim >= 0 && t->u.tensor.ndim != 1)
      return op_fail_null(s, "every input must be 1-D, but input %d has rank %d", i,
                          t->u.tensor.ndim);
    IrDType ti = t->u.tensor.dtype;
    if (ti.code != IR_DT_VOID && dt.code != IR_DT_VOID && !ir_dtype_eq(ti, dt))
      return op_fail_null(s, "inputs have different dtypes, %s and %s", ir_dtype_str(dt, a),
                          ir_dtype_str(ti, b));
    dt = ti.code != IR_DT_VOID ? ti : dt;
    known = known && t->u.tensor.shape;
    dims[xy && n > 1 && i < 2 ? 1 - i : i] = t->u.tensor.shape ? t->u.tensor.shape[0] : NULL;
  }
  IrSInfo **fields = ir_alloc(in->ctx, sizeof(IrSInfo *) * (size_t)n);
  for (int i = 0; i < n; i++)
    fields[i] = ir_sinfo_tensor(in->ctx, known ? dims : NULL, n, dt, -1);
  return ir_sinfo_tuple(in->ctx, fields, n);
}

/* Output i's dim holding input i: i itself, or with "xy" 0 and 1 swapped. */
static int
grid_dim(int i, int n, bool xy)
{
  return xy && n > 1 && i < 2 ? 1 - i : i;
}

Value *
op_manip_eval_meshgrid(OpEval *ev, const OpSite *s, Value **args)
{
  int xy = indexing_xy(s);
  Value *t = args[0];
  if (xy < 0)
    return NULL;
  if (!t || t->kind != VAL_TUPLE || t->u.tuple.n == 0 || t->u.tuple.n > MAX_DIMS)
    return op_fail_null(s, "tensors must be a non-empty tuple of 1-D tensors");
  int n = t->u.tuple.n;
  int64_t shape[MAX_DIMS];
  IrTensorData **xs = ir_alloc(s->ctx, sizeof(IrTensorData *) * (size_t)n);
  for (int i = 0; i < n; i++) {
    xs[i] = op_manip_tensor_val(s, t->u.tuple.items[i], "every item of tensors");
    if (!xs[i] || xs[i]->ndim != 1 || !ir_dtype_eq(xs[i]->dtype, xs[0]->dtype))
      return op_fail_null(s, "the inputs must be 1-D tensors of one dtype");
    shape[grid_dim(i, n, xy)] = xs[i]->shape[0];
  }
  Value **items = ir_alloc(s->ctx, sizeof(Value *) * (size_t)n);
  for (int i = 0; i < n; i++) {
    IrTensorData *out = op_manip_new_tensor(s, xs[0]->dtype, n, shape);
    int g = grid_dim(i, n, xy);
    int64_t o[MAX_DIMS] = {0}, count = out ? op_numel(out) : 0;
    for (int64_t k = 0; k < count; k++) {
      op_manip_copy_elem(out, k, xs[i], o[g]);
      for (int d = n - 1; d >= 0 && ++o[d] == shape[d]; d--)
        o[d] = 0;
    }
    if (!(items[i] = as_value(s, out)))
      return NULL;
  }
  return op_tuple_new(s->ctx, items, n);
}

IrExpr *
op_manip_legalize_meshgrid(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  const IrExpr *tuple = s->call->u.call.args[0];
  int xy = indexing_xy(s);
  /* one input: R.call_tir cannot give a 1-tuple (out_sinfo of one tensor
   * is that tensor), so the call stays as it is */
  if (xy < 0 || tuple->kind != IR_EX_TUPLE || result->kind != IR_SI_TUPLE ||
      result->u.tuple.n != tuple->u.tuple.n || tuple->u.tuple.n < 2)
    return NULL;
  int n = tuple->u.tuple.n;
  OpPrim p;
  op_prim_begin(lz, &p, "meshgrid");
  IrBuffer **xs = ir_alloc(lz->ctx, sizeof(IrBuffer *) * (size_t)n);
  IrBuffer **outs = ir_alloc(lz->ctx, sizeof(IrBuffer *) * (size_t)n);
  bool ok = true;
  for (int i = 0; ok && i < n; i++) {
    xs[i] = op_prim_input(&p, tuple->u.tuple.items[i], ir_printf(lz->ctx, "A%d", i));
    ok = xs[i] && xs[i]->ndim == 1;
  }
  for (int i = 0; ok && i < n; i++) {
    outs[i] = op_prim_output(&p, result->u.tuple.fields[i], ir_printf(lz->ctx, "T_meshgrid_%d", i));
    ok = outs[i] && outs[i]->ndim == n;
  }
  if (!ok) {
    op_prim_abort(&p);
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    IrPrimExpr **o, **xi = op_manip_dims(lz->ctx, 1);
    IrStmt **body = op_prim_loops(&p, outs[i]->shape, n, &o);
    xi[0] = o[grid_dim(i, n, xy)];
    *body = op_prim_store(&p, outs[i], o, op_prim_load(&p, xs[i], xi));
  }
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* collapse_sum_like, collapse_sum_to                                  */
/* ------------------------------------------------------------------ */

/* The target must broadcast to data's shape: rank at most data's, each
 * dim (right-aligned) 1 or data's (assumed when not provable). */
static bool
check_collapse(OpInfer *in, const OpSite *s, const IrSInfo *x, IrPrimExpr **t, int tn)
{
  int xn = x->u.tensor.ndim;
  if (xn >= 0 && tn > xn)
    return op_fail(s, "cannot collapse a tensor of rank %d to rank %d", xn, tn);
  if (!x->u.tensor.shape || !t)
    return true;
  for (int i = 0; i < tn; i++) {
    IrPrimExpr *xd = x->u.tensor.shape[xn - tn + i];
    if (is_lit(t[i], 1))
      continue;
    if (op_assume_equal(in, t[i], xd) == IR_PROVE_FALSE)
      return op_fail(s, "cannot collapse dimension %d of size %s to %s", xn - tn + i,
                     op_nn_expr_str(in->ctx, xd), op_nn_expr_str(in->ctx, t[i]));
  }
  return true;
}

/* R.collapse_sum_like: the target's shape (or rank) and vdevice, data's
 * dtype. */
IrSInfo *
op_manip_infer_collapse_sum_like(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "data");
  IrSInfo *t = x ? op_manip_tensor_arg(s, args[1], "collapse_target") : NULL;
  if (!t || !check_collapse(in, s, x, t->u.tensor.shape, t->u.tensor.ndim))
    return NULL;
  return ir_sinfo_tensor(in->ctx, t->u.tensor.shape, t->u.tensor.ndim, x->u.tensor.dtype,
                         t->u.tensor.vdevice);
}

/* R.collapse_sum_to: the shape argument's values (or length). */
IrSInfo *
op_manip_infer_collapse_sum_to(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "data");
  const IrExpr *e = s->call->u.call.args[1];
  IrSInfo *si = args[1];
  IrPrimExpr **v = NULL;
  int n = -1;
  if (!x)
    return NULL;
  if (e->kind == IR_EX_SHAPE) {
    v = e->u.shape.values;
    n = e->u.shape.n;
  } else if (si && si->kind == IR_SI_SHAPE) {
    n = si->u.shape.ndim;
    v = si->u.shape.values;
  } else if (si && si->kind != IR_SI_OBJECT) {
    return op_fail_null(s, "shape must be a shape, but it is %s", op_sinfo_text(in->ctx, si));
  }
  if (!check_collapse(in, s, x, v, n))
    return NULL;
  return ir_sinfo_tensor(in->ctx, v, n, x->u.tensor.dtype, x->u.tensor.vdevice);
}

/* Both collapse_sums: the output's shape is the result's (from the shape
 * argument or the target tensor, which the kernel reads the same way). */
Value *
op_manip_eval_collapse_sum(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data");
  const int64_t *ts;
  int tn;
  Value *t = args[1];
  if (!x || !t)
    return NULL;
  if (t->kind == VAL_SHAPE) {
    ts = t->u.shape.dims;
    tn = t->u.shape.n;
  } else if (t->kind == VAL_TENSOR) {
    ts = t->u.tensor.t.shape;
    tn = t->u.tensor.t.ndim;
  } else {
    return op_fail_null(s, "the target must be a shape or a tensor");
  }
  bool ok = tn <= x->ndim;
  for (int i = 0; ok && i < tn; i++)
    ok = ts[i] == 1 || ts[i] == x->shape[x->ndim - tn + i];
  if (!ok)
    return op_fail_null(s, "the target shape does not broadcast to data's");
  IrTensorData *out = op_manip_new_tensor(s, x->dtype, tn, ts);
  if (!out)
    return NULL;
  int64_t count = op_numel(out), o[MAX_DIMS] = {0}, total = op_numel(x);
  double *f = ir_alloc(s->ctx, sizeof(double) * (size_t)(count ? count : 1));
  int64_t *i64 = ir_alloc(s->ctx, sizeof(int64_t) * (size_t)(count ? count : 1));
  memset(f, 0, sizeof(double) * (size_t)count);
  memset(i64, 0, sizeof(int64_t) * (size_t)count);
  for (int64_t k = 0; k < total; k++) {
    int64_t at = 0;
    for (int i = 0; i < tn; i++)
      at = at * ts[i] + (ts[i] == 1 ? 0 : o[x->ndim - tn + i]);
    if (ir_dtype_is_float(x->dtype))
      f[at] += op_get_f(x, k);
    else
      i64[at] = (int64_t)((uint64_t)i64[at] + (uint64_t)op_get_i(x, k));
    for (int d = x->ndim - 1; d >= 0 && ++o[d] == x->shape[d]; d--)
      o[d] = 0;
  }
  for (int64_t k = 0; k < count; k++)
    if (ir_dtype_is_float(x->dtype))
      op_set_f(out, k, f[k]);
    else
      op_set_i(out, k, i64[k]);
  return as_value(s, out);
}

static IrStmt *
seq2(OpPrim *p, IrStmt *a, IrStmt *b, IrStmt *c)
{
  IrStmt *s = ir_stmt_new(p->lz->ctx, IR_ST_SEQ, p->lz->loc);
  s->u.seq.n = 3;
  s->u.seq.stmts = ir_alloc(p->lz->ctx, sizeof(IrStmt *) * 3);
  s->u.seq.stmts[0] = a;
  s->u.seq.stmts[1] = b;
  s->u.seq.stmts[2] = c;
  return s;
}

/* For each output element: acc = 0, acc += data over the collapsed dims
 * (data's leading dims and those where the output has a literal 1), then
 * the output is acc cast to its dtype. */
IrExpr *
op_manip_legalize_collapse_sum(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  IrBuffer *x, *out;
  if (!op_manip_prim_open(lz, &p, s, result, "collapse_sum", &x, NULL, &out))
    return NULL;
  if (out->ndim > x->ndim)
    return op_prim_give_up(&p);
  int xn = x->ndim, lead = xn - out->ndim, nred = 0;
  IrPrimExpr **ext = op_manip_dims(ctx, xn), **o, **r, **xi = op_manip_dims(ctx, xn);
  for (int d = 0; d < xn; d++)
    if (d < lead || is_lit(out->shape[d - lead], 1))
      ext[nred++] = x->shape[d];
  IrDType at = ir_dtype_is_float(x->dtype) ? (IrDType){IR_DT_FLOAT, 64, 1} : IR_I64;
  IrPrimExpr *one = op_manip_lit(ctx, 1), *zero = op_manip_lit(ctx, 0);
  IrBuffer *acc = op_prim_alloc(&p, at, &one, 1, "acc");
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o), *nest;
  IrStmt **inner = op_prim_loop_nest(&p, ext, nred, &r, &nest);
  for (int d = 0, k = 0; d < xn; d++)
    xi[d] = d < lead || is_lit(out->shape[d - lead], 1) ? r[k++] : o[d - lead];
  IrPrimExpr *v = op_prim_load(&p, x, xi);
  if (!ir_dtype_eq(v->dtype, at))
    v = ir_prim_cast(ctx, at, v);
  *inner = op_prim_store_at(&p, acc, zero,
                            ir_prim_bin(ctx, IR_PE_ADD, op_prim_load_at(&p, acc, zero), v));
  IrPrimExpr *init = ir_dtype_is_float(at) ? ir_prim_float(ctx, at, 0.0) : zero;
  IrPrimExpr *sum = op_prim_load_at(&p, acc, zero);
  if (!ir_dtype_eq(out->dtype, at))
    sum = ir_prim_cast(ctx, out->dtype, sum);
  *body = seq2(&p, op_prim_store_at(&p, acc, zero, init), nest, op_prim_store(&p, out, o, sum));
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* strided_slice with symbolic begin or end                            */
/* ------------------------------------------------------------------ */

/* Item i of attribute a (an int, a symbolic expression, or a list of
 * them) as an int64 expression, or NULL. */
static IrPrimExpr *
index_item(IrCtx *ctx, const IrAttr *a, int i)
{
  const IrAttr *item = a && a->kind == IR_AT_LIST ? (i < a->u.list.n ? a->u.list.items[i] : NULL)
                                                  : (i == 0 ? a : NULL);
  if (!item)
    return NULL;
  if (item->kind == IR_AT_INT)
    return op_manip_lit(ctx, item->u.i);
  return item->kind == IR_AT_PRIM ? item->u.prim : NULL;
}

bool
op_manip_slice_is_symbolic(const IrExpr *call)
{
  static const char *const names[] = {"begin", "end"};
  for (int k = 0; k < 2; k++) {
    const IrAttr *a = op_attr(call, names[k]);
    int n = a && a->kind == IR_AT_LIST ? a->u.list.n : 1;
    for (int i = 0; a && i < n; i++) {
      const IrAttr *item = a->kind == IR_AT_LIST ? a->u.list.items[i] : a;
      if (item->kind == IR_AT_PRIM && !ir_prim_is_int(item->u.prim, NULL))
        return true;
    }
  }
  return false;
}

/* numpy's index of an axis of n elements, as TVM canonicalizes a symbolic
 * one: negative counts from the end, then clamped to [0, n] (stride > 0)
 * or [-1, n - 1]; with assume_inbound, the index itself. */
static IrPrimExpr *
canonical_index(OpInfer *in, IrPrimExpr *n, IrPrimExpr *v, int64_t stride, bool inbound)
{
  IrCtx *ctx = in->ctx;
  if (in->arith)
    v = ir_arith_simplify(in->arith, v);
  int64_t c;
  /* a dim is never negative: 0 and n itself are in [0, n] */
  if (inbound || (stride > 0 && ((ir_prim_is_int(v, &c) && c == 0) || ir_prim_expr_equal(v, n))))
    return v;
  IrPrimExpr *zero = op_manip_lit(ctx, 0), *one = op_manip_lit(ctx, 1);
  IrPrimExpr *neg = ir_prim_bin(ctx, IR_PE_LT, v, zero);
  IrProof p = in->arith ? ir_arith_prove(in->arith, neg) : IR_PROVE_UNKNOWN;
  IrPrimExpr *from_end = ir_prim_bin(ctx, IR_PE_ADD, v, n);
  v = p == IR_PROVE_FALSE  ? v
      : p == IR_PROVE_TRUE ? from_end
                           : ir_prim_select(ctx, neg, from_end, v);
  IrPrimExpr *lo = stride < 0 ? op_manip_lit(ctx, -1) : zero;
  IrPrimExpr *hi = stride < 0 ? ir_prim_bin(ctx, IR_PE_SUB, n, one) : n;
  if (!in->arith || ir_arith_prove(in->arith, ir_prim_bin(ctx, IR_PE_GE, v, lo)) != IR_PROVE_TRUE)
    v = ir_prim_bin(ctx, IR_PE_MAX, v, lo);
  if (!in->arith || ir_arith_prove(in->arith, ir_prim_bin(ctx, IR_PE_LE, v, hi)) != IR_PROVE_TRUE)
    v = ir_prim_bin(ctx, IR_PE_MIN, v, hi);
  return v;
}

/* R.strided_slice whose begin or end holds a symbolic expression (TVM's
 * rule, topi's GetLength): each sliced dim is ceildiv(end - begin, stride)
 * of the canonical indices, simplified under what the function's dims
 * tell.  Struct info only: the kernel and the lowering take integers. */
IrSInfo *
op_manip_infer_symbolic_slice(OpInfer *in, const OpSite *s, const IrSInfo *x)
{
  IrCtx *ctx = in->ctx;
  OpInfer local = *in; /* while reading there is no arithmetic yet: one that folds */
  if (!local.arith)
    local.arith = ir_arith_new(ctx);
  in = &local;
  int64_t *axes, *strides;
  int n, ns, ndim = x->u.tensor.ndim;
  const IrAttr *begin = op_attr(s->call, "begin"), *end = op_attr(s->call, "end");
  if (!op_manip_attr_ints(s, "axes", false, &axes, &n) ||
      !op_manip_attr_ints(s, "strides", true, &strides, &ns))
    return NULL;
  int *norm = NULL;
  if (ndim >= 0 && !op_manip_norm_axes(s, axes, n, ndim, &norm))
    return NULL;
  if (!x->u.tensor.shape)
    return ir_sinfo_tensor(ctx, NULL, ndim, x->u.tensor.dtype, x->u.tensor.vdevice);
  const IrAttr *ib = op_attr(s->call, "assume_inbound");
  bool inbound = ib && ib->kind == IR_AT_BOOL && ib->u.b;
  IrPrimExpr **out = ir_alloc(ctx, sizeof(IrPrimExpr *) * (size_t)(ndim ? ndim : 1));
  memcpy(out, x->u.tensor.shape, sizeof(IrPrimExpr *) * (size_t)ndim);
  for (int i = 0; i < n; i++) {
    int64_t stride = ns < 0 ? 1 : i < ns ? strides[i] : 0;
    IrPrimExpr *b = index_item(ctx, begin, i), *e = index_item(ctx, end, i);
    if (!b || !e || stride == 0)
      return op_fail_null(
          s, "axes, begin, end and strides must have the same length, strides nonzero");
    IrPrimExpr *dim = out[norm[i]];
    b = canonical_index(in, dim, b, stride, inbound);
    e = canonical_index(in, dim, e, stride, inbound);
    IrPrimExpr *diff =
        stride > 0 ? ir_prim_bin(ctx, IR_PE_SUB, e, b) : ir_prim_bin(ctx, IR_PE_SUB, b, e);
    int64_t step = stride > 0 ? stride : -stride;
    if (step != 1)
      diff = ir_prim_bin(ctx, IR_PE_FLOORDIV,
                         ir_prim_bin(ctx, IR_PE_ADD, diff, op_manip_lit(ctx, step - 1)),
                         op_manip_lit(ctx, step));
    out[norm[i]] = ir_arith_simplify(in->arith, diff);
  }
  return ir_sinfo_tensor(ctx, out, ndim, x->u.tensor.dtype, x->u.tensor.vdevice);
}

/* ------------------------------------------------------------------ */
/* dynamic_strided_slice                                               */
/* ------------------------------------------------------------------ */

/* R.dynamic_strided_slice (TVM's rule): begin, end and strides are 1-D
 * int64 tensors of data's rank elements; the result has data's rank and
 * dtype and a shape known only from the values.  Each result dim is at
 * most data's (a slice never grows an axis), the upper bound the arena
 * takes: the lowering (below) computes the dims in a kernel and
 * binds them with R.tensor_to_shape + R.match_cast, as TVM's does. */
IrSInfo *
op_manip_infer_dynamic_strided_slice(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "x");
  static const char *what[] = {"begin", "end", "strides"};
  if (!x)
    return NULL;
  int ndim = x->u.tensor.ndim;
  for (int i = 0; i < 3; i++) {
    IrSInfo *t = op_manip_tensor_arg(s, args[1 + i], what[i]);
    IrDType dt = t ? t->u.tensor.dtype : IR_VOID;
    int64_t n;
    if (!t)
      return NULL;
    if ((dt.code != IR_DT_VOID && !ir_dtype_eq(dt, IR_I64)) ||
        (t->u.tensor.ndim >= 0 && t->u.tensor.ndim != 1) ||
        (ndim >= 0 && t->u.tensor.shape && ir_prim_is_int(t->u.tensor.shape[0], &n) && n != ndim)) {
      return op_fail_null(s, "%s must be a 1-D int64 tensor of %d elements (x's rank)", what[i],
                          ndim);
    }
  }
  return ir_sinfo_tensor(in->ctx, NULL, ndim, x->u.tensor.dtype, x->u.tensor.vdevice);
}

/* numpy's slicing per axis (op_manip_slice_axis), with the values of
 * begin, end and strides. */
Value *
op_manip_eval_dynamic_strided_slice(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "x"), *v[3];
  int64_t start[MAX_DIMS], shape[MAX_DIMS], step[MAX_DIMS];
  if (!x)
    return NULL;
  for (int i = 0; i < 3; i++) {
    v[i] = op_manip_tensor_val(s, args[1 + i], "begin, end and strides");
    if (!v[i] || v[i]->ndim != 1 || v[i]->shape[0] != x->ndim || v[i]->dtype.code != IR_DT_INT)
      return op_fail_null(s, "begin, end and strides must be 1-D int tensors of x's rank elements");
  }
  for (int d = 0; d < x->ndim; d++) {
    step[d] = op_get_i(v[2], d);
    if (step[d] == 0)
      return op_fail_null(s, "stride of axis %d is zero", d);
    op_manip_slice_axis(x->shape[d], op_get_i(v[0], d), op_get_i(v[1], d), step[d], false,
                        &start[d], &shape[d]);
  }
  IrTensorData *out = op_manip_new_tensor(s, x->dtype, x->ndim, shape);
  int64_t o[MAX_DIMS] = {0}, count = out ? op_numel(out) : 0;
  for (int64_t k = 0; k < count; k++) {
    int64_t src = 0;
    for (int d = 0; d < x->ndim; d++)
      src = src * x->shape[d] + start[d] + o[d] * step[d];
    op_manip_copy_elem(out, k, x, src);
    for (int d = x->ndim - 1; d >= 0 && ++o[d] == shape[d]; d--)
      o[d] = 0;
  }
  return as_value(s, out);
}

/* Axis d's slice as the interpreter takes it (op_manip_slice_axis):
 * begin and end count from the end when negative and are clamped to
 * [0, n] (stride > 0) or [-1, n - 1] (stride < 0).  A zero stride, which
 * the interpreter refuses, is taken as 1.  *start and *len get TIR
 * expressions. */
static void
slice_axis(IrCtx *ctx, IrPrimExpr *n, IrPrimExpr *b, IrPrimExpr *e, IrPrimExpr *s,
           IrPrimExpr **start, IrPrimExpr **len, IrPrimExpr **step)
{
  IrPrimExpr *neg = ir_prim_bin(ctx, IR_PE_LT, s, op_nn_index(ctx, 0));
  IrPrimExpr *lo = ir_prim_select(ctx, neg, op_nn_index(ctx, -1), op_nn_index(ctx, 0));
  IrPrimExpr *hi = ir_prim_select(ctx, neg, ir_prim_bin(ctx, IR_PE_SUB, n, op_nn_index(ctx, 1)), n);
  IrPrimExpr *idx[2] = {b, e};
  for (int i = 0; i < 2; i++) {
    IrPrimExpr *v = ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_LT, idx[i], op_nn_index(ctx, 0)),
                                   ir_prim_bin(ctx, IR_PE_ADD, idx[i], n), idx[i]);
    idx[i] = ir_prim_bin(ctx, IR_PE_MIN, ir_prim_bin(ctx, IR_PE_MAX, v, lo), hi);
  }
  IrPrimExpr *diff = ir_prim_select(ctx, neg, ir_prim_bin(ctx, IR_PE_SUB, idx[0], idx[1]),
                                    ir_prim_bin(ctx, IR_PE_SUB, idx[1], idx[0]));
  IrPrimExpr *mag =
      ir_prim_select(ctx, neg, ir_prim_bin(ctx, IR_PE_SUB, op_nn_index(ctx, 0), s), s);
  *step = ir_prim_bin(ctx, IR_PE_MAX, mag, op_nn_index(ctx, 1));
  *start = idx[0];
  *len = ir_prim_select(
      ctx, ir_prim_bin(ctx, IR_PE_LE, diff, op_nn_index(ctx, 0)), op_nn_index(ctx, 0),
      ir_prim_bin(ctx, IR_PE_ADD,
                  ir_prim_bin(ctx, IR_PE_FLOORDIV,
                              ir_prim_bin(ctx, IR_PE_SUB, diff, op_nn_index(ctx, 1)), *step),
                  op_nn_index(ctx, 1)));
}

/* Lowered as TVM lowers it (op_data_dims, tir_build.h): a first kernel
 * computes the dims, a second writes the slice.  Result dim d is at most
 * data's dim d: a slice never grows an axis. */
IrExpr *
op_manip_legalize_dynamic_strided_slice(OpLegalize *lz, const OpSite *site, IrSInfo *result)
{
  (void)result;
  IrCtx *ctx = lz->ctx;
  const IrSInfo *xs = op_data_known_tensor(site->call->u.call.args[0]);
  if (!xs || xs->u.tensor.ndim == 0)
    return NULL;
  for (int i = 1; i < 4; i++)
    if (!op_data_known_tensor(site->call->u.call.args[i]))
      return NULL;
  int nd = xs->u.tensor.ndim, vdev = xs->u.tensor.vdevice;
  /* the dims: shape[d] = len of axis d */
  OpPrim p;
  op_prim_begin(lz, &p, "dynamic_strided_slice_shape");
  IrBuffer *x = op_prim_input(&p, site->call->u.call.args[0], "A");
  IrBuffer *v[3];
  static const char *names[3] = {"begin", "end", "strides"};
  for (int i = 0; i < 3; i++)
    v[i] = op_prim_input(&p, site->call->u.call.args[1 + i], names[i]);
  IrSInfo *dims_s = op_data_i64_vector(ctx, nd, vdev);
  IrBuffer *out = op_prim_output(&p, dims_s, "T_shape");
  if (!x || !v[0] || !v[1] || !v[2] || !out) {
    op_prim_abort(&p);
    return NULL;
  }
  IrStmt **st = ir_alloc(ctx, sizeof *st * (size_t)nd);
  for (int d = 0; d < nd; d++) {
    IrPrimExpr *start, *len, *step;
    slice_axis(ctx, x->shape[d], op_prim_load_at(&p, v[0], op_nn_index(ctx, d)),
               op_prim_load_at(&p, v[1], op_nn_index(ctx, d)),
               op_prim_load_at(&p, v[2], op_nn_index(ctx, d)), &start, &len, &step);
    st[d] = op_prim_store_at(&p, out, op_nn_index(ctx, d), len);
  }
  op_prim_emit(&p, op_nn_seq(&p, st, nd));
  IrExpr *shape_call = op_prim_finish(&p, site->call, dims_s);
  IrPrimExpr **vars = op_data_dims(lz, shape_call, nd, xs->u.tensor.shape);
  if (!vars)
    return NULL;
  /* the values: out[i...] = x[start_d + i_d * stride_d ...], each index
   * clamped to x's axis */
  IrSInfo *res = ir_sinfo_tensor(ctx, vars, nd, xs->u.tensor.dtype, vdev);
  op_prim_begin(lz, &p, "dynamic_strided_slice");
  x = op_prim_input(&p, site->call->u.call.args[0], "A");
  for (int i = 0; i < 3; i++)
    v[i] = op_prim_input(&p, site->call->u.call.args[1 + i], names[i]);
  out = op_prim_output(&p, res, "T_dynamic_strided_slice");
  if (!x || !v[0] || !v[1] || !v[2] || !out) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **i;
  IrStmt **body = op_prim_loops(&p, out->shape, nd, &i);
  IrPrimExpr **src = ir_alloc(ctx, sizeof *src * (size_t)nd);
  for (int d = 0; d < nd; d++) {
    IrPrimExpr *start, *len, *step;
    IrPrimExpr *s = op_prim_load_at(&p, v[2], op_nn_index(ctx, d));
    slice_axis(ctx, x->shape[d], op_prim_load_at(&p, v[0], op_nn_index(ctx, d)),
               op_prim_load_at(&p, v[1], op_nn_index(ctx, d)), s, &start, &len, &step);
    IrPrimExpr *off = ir_prim_bin(ctx, IR_PE_MUL, i[d], step);
    IrPrimExpr *at = ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_LT, s, op_nn_index(ctx, 0)),
                                    ir_prim_bin(ctx, IR_PE_SUB, start, off),
                                    ir_prim_bin(ctx, IR_PE_ADD, start, off));
    src[d] = ir_prim_bin(ctx, IR_PE_MIN, ir_prim_bin(ctx, IR_PE_MAX, at, op_nn_index(ctx, 0)),
                         ir_prim_bin(ctx, IR_PE_SUB, x->shape[d], op_nn_index(ctx, 1)));
  }
  *body = op_prim_store(&p, out, i, op_prim_load(&p, x, src));
  return op_prim_finish(&p, site->call, res);
}

/* ------------------------------------------------------------------ */
/* memory.view                                                         */
/* ------------------------------------------------------------------ */

/* Is argument e absent (the empty tuple TVM passes for None)? */
static bool
absent(const IrExpr *e)
{
  return !e || (e->kind == IR_EX_TUPLE && e->u.tuple.n == 0) ||
         (e->sinfo && e->sinfo->kind == IR_SI_TUPLE && e->sinfo->u.tuple.n == 0);
}

/* R.memory.view (TVM's rule): shape (a shape, or absent: data's), dtype
 * (R.dtype, a var holding one: unknown, or absent: data's) and relative_byte_offset (an int64 prim
 * value, or absent: 0); a view provably past data's bytes is refused. */
IrSInfo *
op_manip_infer_view(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "data");
  const IrExpr *shape = s->call->u.call.args[1], *dtype = s->call->u.call.args[2];
  const IrExpr *off = s->call->u.call.args[3];
  if (!x)
    return NULL;
  IrPrimExpr **dims = x->u.tensor.shape;
  int ndim = x->u.tensor.ndim;
  IrDType dt = x->u.tensor.dtype;
  IrPrimExpr *offset = op_manip_lit(in->ctx, 0);
  if (!absent(shape)) {
    if (!args[1] || args[1]->kind != IR_SI_SHAPE)
      return op_fail_null(s, "shape must be a shape");
    ndim = args[1]->u.shape.ndim;
    dims = shape->kind == IR_EX_SHAPE ? shape->u.shape.values : args[1]->u.shape.values;
  }
  if (!absent(dtype)) {
    bool opaque = dtype->kind == IR_EX_VAR && (!args[2] || args[2]->kind == IR_SI_OBJECT);
    if (!opaque && (dtype->kind != IR_EX_DTYPE || dtype->u.dtype.code == IR_DT_VOID))
      return op_fail_null(s, "dtype must be an R.dtype of a tensor dtype");
    dt = opaque ? IR_VOID : dtype->u.dtype; /* a var: a new dtype, unknown here */
  }
  if (!absent(off)) {
    if (!args[3] || args[3]->kind != IR_SI_PRIM || !ir_dtype_eq(args[3]->u.prim.dtype, IR_I64))
      return op_fail_null(s, "relative_byte_offset must be an int64 prim value");
    offset = args[3]->u.prim.value;
  }
  if (dims && x->u.tensor.shape && offset && dt.code != IR_DT_VOID &&
      x->u.tensor.dtype.code != IR_DT_VOID) {
    IrPrimExpr *need = op_manip_lit(in->ctx, ir_dtype_bytes(dt)), *have;
    have = op_manip_lit(in->ctx, ir_dtype_bytes(x->u.tensor.dtype));
    for (int i = 0; i < ndim; i++)
      need = ir_prim_bin(in->ctx, IR_PE_MUL, need, dims[i]);
    for (int i = 0; i < x->u.tensor.ndim; i++)
      have = ir_prim_bin(in->ctx, IR_PE_MUL, have, x->u.tensor.shape[i]);
    IrPrimExpr *fits =
        ir_prim_bin(in->ctx, IR_PE_LE, ir_prim_bin(in->ctx, IR_PE_ADD, need, offset), have);
    if (in->arith && ir_arith_prove(in->arith, fits) == IR_PROVE_FALSE)
      return op_fail_null(s, "the view (%s bytes at offset %s) exceeds data's %s bytes",
                          op_nn_expr_str(in->ctx, ir_arith_simplify(in->arith, need)),
                          op_nn_expr_str(in->ctx, offset),
                          op_nn_expr_str(in->ctx, ir_arith_simplify(in->arith, have)));
    op_assume(in, fits);
  }
  return ir_sinfo_tensor(in->ctx, dims, ndim, dt, x->u.tensor.vdevice);
}

/* The view's bytes, copied: Relax values are immutable, so a copy reads
 * as a view does. */
Value *
op_manip_eval_view(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data");
  if (!x)
    return NULL;
  const int64_t *shape = x->shape;
  int ndim = x->ndim;
  IrDType dt = x->dtype;
  int64_t offset = 0;
  Value *v = args[1];
  if (v && v->kind == VAL_SHAPE) {
    shape = v->u.shape.dims;
    ndim = v->u.shape.n;
  }
  if ((v = args[2]) && v->kind == VAL_DTYPE)
    dt = v->u.dtype;
  if ((v = args[3]) && v->kind == VAL_PRIM)
    offset = v->u.prim.i;
  IrTensorData *out = op_manip_new_tensor(s, dt, ndim, shape);
  if (!out)
    return NULL;
  if (offset < 0 || (uint64_t)offset > x->nbytes || out->nbytes > x->nbytes - (size_t)offset)
    return op_fail_null(s, "the view (%zu bytes at offset %lld) exceeds data's %zu bytes",
                        out->nbytes, (long long)offset, x->nbytes);
  memcpy(out->data, (const char *)x->data + offset, out->nbytes);
  return as_value(s, out);
}

/* A view of data's dtype at an offset of whole elements: out[o] =
 * data[flat(o) + offset / size], the position clamped into data (the
 * kernel refuses a view past its end).  A view of another dtype would
 * need a bit reinterpretation that TIR here does not have, so that call
 * stays as it is (interpreter only). */
IrExpr *
op_manip_legalize_view(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  const IrExpr *off = s->call->u.call.args[3];
  OpPrim p;
  op_prim_begin(lz, &p, "view");
  IrBuffer *x = op_prim_input(&p, s->call->u.call.args[0], "A");
  IrBuffer *out = x ? op_prim_output(&p, result, "T_view") : NULL;
  IrPrimExpr *start = op_manip_lit(ctx, 0);
  int64_t bytes;
  if (out && !absent(off)) {
    if (off->kind != IR_EX_PRIM || !ir_prim_is_int(off->u.prim, &bytes) ||
        bytes % ir_dtype_bytes(x->dtype) != 0)
      out = NULL;
    else
      start = op_manip_lit(ctx, bytes / ir_dtype_bytes(x->dtype));
  }
  if (!out || !ir_dtype_eq(out->dtype, x->dtype)) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **o, *flat = start, *count = op_manip_lit(ctx, 1);
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  for (int d = 0; d < out->ndim; d++) {
    IrPrimExpr *stride = op_manip_lit(ctx, 1);
    for (int e = d + 1; e < out->ndim; e++)
      stride = ir_prim_bin(ctx, IR_PE_MUL, stride, out->shape[e]);
    flat = ir_prim_bin(ctx, IR_PE_ADD, flat, ir_prim_bin(ctx, IR_PE_MUL, o[d], stride));
  }
  for (int d = 0; d < x->ndim; d++)
    count = ir_prim_bin(ctx, IR_PE_MUL, count, x->shape[d]);
  flat = ir_prim_bin(
      ctx, IR_PE_MAX,
      ir_prim_bin(ctx, IR_PE_MIN, flat, ir_prim_bin(ctx, IR_PE_SUB, count, op_manip_lit(ctx, 1))),
      op_manip_lit(ctx, 0));
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim);
  for (int d = x->ndim - 1; d >= 0; d--) {
    xi[d] = d == 0 ? flat : ir_prim_bin(ctx, IR_PE_FLOORMOD, flat, x->shape[d]);
    flat = ir_prim_bin(ctx, IR_PE_FLOORDIV, flat, x->shape[d]);
  }
  *body = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  return op_prim_finish(&p, s->call, result);
}
