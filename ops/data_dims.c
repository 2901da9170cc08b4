/*
 * data_dims.c - the lowerings of the operators whose result shape is
 * tensor data: R.dynamic_strided_slice, R.nonzero, R.unique.
 *
 * Key ideas (TVM's legalization of dynamic_strided_slice, in
 * python/tvm/relax/transform/legalize_ops/index.py, for all three):
 *  - A first prim_func of fixed shape computes the result's dims into a
 *    small int64 tensor; op_data_dims (tir_build.c) binds them to fresh
 *    symbolic vars (R.tensor_to_shape, then R.match_cast); a second
 *    prim_func writes the result of exactly that shape, the vars passed
 *    as tir_vars.  The interpreter runs the bindings as they are; the
 *    generated C reads the vars where the match_cast binds them
 *    (codegen/gen_check.c).
 *  - Each var needs an upper bound for the arena (the rule of each op
 *    below, a constant: a symbolic input dim needs its own bound); it goes
 *    to the function's tir_var_upper_bound unless the function states one.
 *  - Whatever the data, the second kernel stays inside its buffers: it
 *    recomputes what the first did from the same data, and its indices
 *    are clamped or guarded as well (ops/manip_legalize.c's policy for
 *    data the generated code depends on).
 */
#include <string.h>

#include "tir_build.h"

static IrPrimExpr *
lit(IrCtx *ctx, int64_t v)
{
  return ir_prim_int(ctx, IR_I64, v);
}

static IrPrimExpr *
bin(IrCtx *ctx, IrPrimKind k, IrPrimExpr *a, IrPrimExpr *b)
{
  return ir_prim_bin(ctx, k, a, b);
}

static IrStmt *
seq(OpPrim *p, IrStmt **stmts, int n)
{
  IrStmt *s = ir_stmt_new(p->lz->ctx, IR_ST_SEQ, p->lz->loc);
  s->u.seq.stmts = ir_alloc(p->lz->ctx, (size_t)(n ? n : 1) * sizeof *stmts);
  memcpy(s->u.seq.stmts, stmts, (size_t)n * sizeof *stmts);
  s->u.seq.n = n;
  return s;
}

static IrStmt *
if_then(OpPrim *p, IrPrimExpr *cond, IrStmt *then_)
{
  IrStmt *s = ir_stmt_new(p->lz->ctx, IR_ST_IF, p->lz->loc);
  s->u.branch.cond = cond;
  s->u.branch.then_ = then_;
  return s;
}

/* A tensor of known rank and shape. */
static const IrSInfo *
known_tensor(const IrExpr *e)
{
  const IrSInfo *s = e->sinfo;
  return s && s->kind == IR_SI_TENSOR && s->u.tensor.ndim >= 0 &&
                 (s->u.tensor.shape || s->u.tensor.ndim == 0) && s->u.tensor.dtype.code != IR_DT_VOID
             ? s
             : NULL;
}

static IrSInfo *
i64_vector(IrCtx *ctx, int64_t n, int vdevice)
{
  IrPrimExpr **d = ir_alloc(ctx, sizeof *d);
  d[0] = lit(ctx, n);
  return ir_sinfo_tensor(ctx, d, 1, IR_I64, vdevice);
}

/* x != 0 as the interpreter tests it (NaN is nonzero). */
static IrPrimExpr *
nonzero_test(IrCtx *ctx, IrPrimExpr *x)
{
  IrDType t = x->dtype;
  IrPrimExpr *zero = t.code == IR_DT_FLOAT || t.code == IR_DT_BFLOAT ? ir_prim_float(ctx, t, 0.0)
                                                                     : ir_prim_int(ctx, t, 0);
  return bin(ctx, IR_PE_NE, x, zero);
}

/* ------------------------------------------------------------------ */
/* R.dynamic_strided_slice                                             */
/* ------------------------------------------------------------------ */

/* Axis d's slice as the interpreter takes it (op_manip_slice_axis):
 * begin and end count from the end when negative and are clamped to
 * [0, n] (stride > 0) or [-1, n - 1] (stride < 0).  A zero stride, which
 * the interpreter refuses, is taken as 1.  *start and *len get TIR
 * expressions. */
static void
slice_axis(IrCtx *ctx, IrPrimExpr *n, IrPrimExpr *b, IrPrimExpr *e, IrPrimExpr *s,
           IrPrimExpr **start, IrPrimExpr **len, IrPrimExpr **step)
{
  IrPrimExpr *neg = bin(ctx, IR_PE_LT, s, lit(ctx, 0));
  IrPrimExpr *lo = ir_prim_select(ctx, neg, lit(ctx, -1), lit(ctx, 0));
  IrPrimExpr *hi = ir_prim_select(ctx, neg, bin(ctx, IR_PE_SUB, n, lit(ctx, 1)), n);
  IrPrimExpr *idx[2] = {b, e};
  for (int i = 0; i < 2; i++) {
    IrPrimExpr *v = ir_prim_select(ctx, bin(ctx, IR_PE_LT, idx[i], lit(ctx, 0)),
                                   bin(ctx, IR_PE_ADD, idx[i], n), idx[i]);
    idx[i] = bin(ctx, IR_PE_MIN, bin(ctx, IR_PE_MAX, v, lo), hi);
  }
  IrPrimExpr *diff = ir_prim_select(ctx, neg, bin(ctx, IR_PE_SUB, idx[0], idx[1]),
                                    bin(ctx, IR_PE_SUB, idx[1], idx[0]));
  IrPrimExpr *mag = ir_prim_select(ctx, neg, bin(ctx, IR_PE_SUB, lit(ctx, 0), s), s);
  *step = bin(ctx, IR_PE_MAX, mag, lit(ctx, 1));
  *start = idx[0];
  *len = ir_prim_select(ctx, bin(ctx, IR_PE_LE, diff, lit(ctx, 0)), lit(ctx, 0),
                        bin(ctx, IR_PE_ADD,
                            bin(ctx, IR_PE_FLOORDIV, bin(ctx, IR_PE_SUB, diff, lit(ctx, 1)), *step),
                            lit(ctx, 1)));
}

/* Result dim d is at most data's dim d: a slice never grows an axis. */
IrExpr *
op_legalize_dynamic_strided_slice(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  (void)result;
  IrCtx *ctx = lz->ctx;
  const IrSInfo *xs = known_tensor(call->u.call.args[0]);
  if (!xs || xs->u.tensor.ndim == 0)
    return NULL;
  for (int i = 1; i < 4; i++)
    if (!known_tensor(call->u.call.args[i]))
      return NULL;
  int nd = xs->u.tensor.ndim, vdev = xs->u.tensor.vdevice;
  /* the dims: shape[d] = len of axis d */
  OpPrim p;
  op_prim_begin(lz, &p, "dynamic_strided_slice_shape");
  IrBuffer *x = op_prim_input(&p, call->u.call.args[0], "A");
  IrBuffer *v[3];
  static const char *names[3] = {"begin", "end", "strides"};
  for (int i = 0; i < 3; i++)
    v[i] = op_prim_input(&p, call->u.call.args[1 + i], names[i]);
  IrSInfo *dims_s = i64_vector(ctx, nd, vdev);
  IrBuffer *out = op_prim_output(&p, dims_s, "T_shape");
  if (!x || !v[0] || !v[1] || !v[2] || !out) {
    op_prim_abort(&p);
    return NULL;
  }
  IrStmt **st = ir_alloc(ctx, sizeof *st * (size_t)nd);
  for (int d = 0; d < nd; d++) {
    IrPrimExpr *start, *len, *step;
    slice_axis(ctx, x->shape[d], op_prim_load_at(&p, v[0], lit(ctx, d)),
               op_prim_load_at(&p, v[1], lit(ctx, d)), op_prim_load_at(&p, v[2], lit(ctx, d)),
               &start, &len, &step);
    st[d] = op_prim_store_at(&p, out, lit(ctx, d), len);
  }
  op_prim_emit(&p, seq(&p, st, nd));
  IrExpr *shape_call = op_prim_finish(&p, call, dims_s);
  IrPrimExpr **vars = op_data_dims(lz, shape_call, nd, xs->u.tensor.shape);
  if (!vars)
    return NULL;
  /* the values: out[i...] = x[start_d + i_d * stride_d ...], each index
   * clamped to x's axis */
  IrSInfo *res = ir_sinfo_tensor(ctx, vars, nd, xs->u.tensor.dtype, vdev);
  op_prim_begin(lz, &p, "dynamic_strided_slice");
  x = op_prim_input(&p, call->u.call.args[0], "A");
  for (int i = 0; i < 3; i++)
    v[i] = op_prim_input(&p, call->u.call.args[1 + i], names[i]);
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
    IrPrimExpr *s = op_prim_load_at(&p, v[2], lit(ctx, d));
    slice_axis(ctx, x->shape[d], op_prim_load_at(&p, v[0], lit(ctx, d)),
               op_prim_load_at(&p, v[1], lit(ctx, d)), s, &start, &len, &step);
    IrPrimExpr *off = bin(ctx, IR_PE_MUL, i[d], step);
    IrPrimExpr *at = ir_prim_select(ctx, bin(ctx, IR_PE_LT, s, lit(ctx, 0)),
                                    bin(ctx, IR_PE_SUB, start, off), bin(ctx, IR_PE_ADD, start, off));
    src[d] = bin(ctx, IR_PE_MIN, bin(ctx, IR_PE_MAX, at, lit(ctx, 0)),
                 bin(ctx, IR_PE_SUB, x->shape[d], lit(ctx, 1)));
  }
  *body = op_prim_store(&p, out, i, op_prim_load(&p, x, src));
  return op_prim_finish(&p, call, res);
}

/* ------------------------------------------------------------------ */
/* R.nonzero                                                           */
/* ------------------------------------------------------------------ */

/* The count of nonzero elements is at most numel(x): the result is
 * (max(ndim, 1), count) with count <= numel(x). */
IrExpr *
op_legalize_nonzero(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  (void)result;
  IrCtx *ctx = lz->ctx;
  const IrSInfo *xs = known_tensor(call->u.call.args[0]);
  if (!xs)
    return NULL;
  int nd = xs->u.tensor.ndim, vdev = xs->u.tensor.vdevice, rows = nd ? nd : 1;
  IrPrimExpr *numel = lit(ctx, 1);
  for (int d = 0; d < nd; d++)
    numel = bin(ctx, IR_PE_MUL, numel, op_prim_i64(ctx, xs->u.tensor.shape[d]));
  if (lz->arith)
    numel = ir_arith_simplify(lz->arith, numel);
  /* the count: out[0] = 0; for i...: out[0] += x[i...] != 0 */
  OpPrim p;
  op_prim_begin(lz, &p, "nonzero_count");
  IrBuffer *x = op_prim_input(&p, call->u.call.args[0], "A");
  IrSInfo *count_s = i64_vector(ctx, 1, vdev);
  IrBuffer *out = op_prim_output(&p, count_s, "T_count");
  if (!x || !out) {
    op_prim_abort(&p);
    return NULL;
  }
  op_prim_emit(&p, op_prim_store_at(&p, out, lit(ctx, 0), lit(ctx, 0)));
  IrPrimExpr **i;
  IrStmt **body = op_prim_loops(&p, x->shape, nd, &i);
  IrPrimExpr *one = ir_prim_select(ctx, nonzero_test(ctx, op_prim_load(&p, x, i)), lit(ctx, 1),
                                   lit(ctx, 0));
  *body = op_prim_store_at(&p, out, lit(ctx, 0),
                           bin(ctx, IR_PE_ADD, op_prim_load_at(&p, out, lit(ctx, 0)), one));
  IrExpr *count_call = op_prim_finish(&p, call, count_s);
  IrPrimExpr *bound[1] = {numel};
  IrPrimExpr **vars = op_data_dims(lz, count_call, 1, bound);
  if (!vars)
    return NULL;
  /* the coordinates: c = 0; for i...: if x[i...] != 0 and c < count:
   * out[d, c] = i_d ...; c += 1 */
  IrPrimExpr **rd = ir_alloc(ctx, sizeof *rd * 2);
  rd[0] = lit(ctx, rows);
  rd[1] = vars[0];
  IrSInfo *res = ir_sinfo_tensor(ctx, rd, 2, IR_I64, vdev);
  op_prim_begin(lz, &p, "nonzero");
  x = op_prim_input(&p, call->u.call.args[0], "A");
  out = op_prim_output(&p, res, "T_nonzero");
  if (!x || !out) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **one_dim = ir_alloc(ctx, sizeof *one_dim);
  one_dim[0] = lit(ctx, 1);
  IrBuffer *c = op_prim_alloc(&p, IR_I64, one_dim, 1, "c");
  op_prim_emit(&p, op_prim_store_at(&p, c, lit(ctx, 0), lit(ctx, 0)));
  body = op_prim_loops(&p, x->shape, nd, &i);
  IrPrimExpr *at = op_prim_load_at(&p, c, lit(ctx, 0));
  IrStmt **st = ir_alloc(ctx, sizeof *st * (size_t)(rows + 1));
  for (int d = 0; d < rows; d++) {
    IrPrimExpr **idx = ir_alloc(ctx, sizeof *idx * 2);
    idx[0] = lit(ctx, d);
    idx[1] = at;
    st[d] = op_prim_store(&p, out, idx, nd ? i[d] : lit(ctx, 0));
  }
  st[rows] = op_prim_store_at(&p, c, lit(ctx, 0), bin(ctx, IR_PE_ADD, at, lit(ctx, 1)));
  IrPrimExpr *cond = bin(ctx, IR_PE_AND, nonzero_test(ctx, op_prim_load(&p, x, i)),
                         bin(ctx, IR_PE_LT, at, out->shape[1]));
  *body = if_then(&p, cond, seq(&p, st, rows + 1));
  return op_prim_finish(&p, call, res);
}
