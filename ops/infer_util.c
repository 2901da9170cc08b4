/*
 * infer_util.c - helpers shared by the inference functions of every op
 * category: attribute lookup, numpy broadcasting of symbolic shapes, axis
 * normalization.
 *
 * Key idea: a symbolic dim is only as known as the arithmetic can prove.
 * Broadcasting decides each pair of dims as "equal", "one of them is 1" or
 * "provably incompatible" (an error); anything else leaves the result dim
 * unknown, and then the whole result shape is unknown (its rank is still
 * known), which is what TVM does for dims it cannot match.
 */
#include "op.h"

const IrAttr *
op_attr(const IrExpr *call, const char *name)
{
  if (!call || call->kind != IR_EX_CALL)
    return NULL;
  return ir_attr_get(call->u.call.attrs, name);
}

/* The proof of a == b (or a != b when negate): syntactic equality decides
 * "equal" without arithmetic; with no arithmetic anything else is unknown,
 * except two different literals. */
static IrProof
prove_equal(OpInfer *in, IrPrimExpr *a, IrPrimExpr *b)
{
  int64_t x, y;
  if (ir_prim_expr_equal(a, b))
    return IR_PROVE_TRUE;
  if (ir_prim_is_int(a, &x) && ir_prim_is_int(b, &y))
    return x == y ? IR_PROVE_TRUE : IR_PROVE_FALSE;
  if (!in->arith)
    return IR_PROVE_UNKNOWN;
  return ir_arith_prove(in->arith, ir_prim_bin(in->ctx, IR_PE_EQ, a, b));
}

static bool
is_one(IrPrimExpr *e)
{
  int64_t v;
  return ir_prim_is_int(e, &v) && v == 1;
}

/* Whether e is provably not 1 (a literal other than 1, or proved). */
static bool
provably_not_one(OpInfer *in, IrPrimExpr *e)
{
  IrPrimExpr *one = ir_prim_int(in->ctx, e->dtype.code ? e->dtype : IR_I64, 1);
  return prove_equal(in, e, one) == IR_PROVE_FALSE;
}

/* Broadcasts one pair of dims.  Returns 1 with *out set, 0 when the result
 * is unknown, -1 when provably incompatible. */
static int
broadcast_dim(OpInfer *in, IrPrimExpr *a, IrPrimExpr *b, IrPrimExpr **out)
{
  if (is_one(a)) {
    *out = b;
    return 1;
  }
  if (is_one(b)) {
    *out = a;
    return 1;
  }
  IrProof eq = prove_equal(in, a, b);
  if (eq == IR_PROVE_TRUE) {
    *out = a;
    return 1;
  }
  if (eq == IR_PROVE_FALSE && provably_not_one(in, a) && provably_not_one(in, b))
    return -1;
  return 0;
}

/* Contract: on success *out holds max(na, nb) dims (arena), or is NULL when
 * some pair of dims cannot be decided; *nout is max(na, nb) either way.
 * Returns false after an error naming both dims when a pair is provably
 * incompatible. */
bool
op_broadcast_shapes(OpInfer *in, const IrExpr *call, IrPrimExpr **a, int na, IrPrimExpr **b, int nb,
                    IrPrimExpr ***out, int *nout)
{
  int n = na > nb ? na : nb;
  IrPrimExpr **dims = ir_alloc(in->ctx, sizeof *dims * (size_t)(n ? n : 1));
  bool known = true;
  for (int i = 0; i < n; i++) {
    int ia = i - (n - na), ib = i - (n - nb);
    if (ia < 0 || ib < 0) {
      dims[i] = ia < 0 ? b[ib] : a[ia];
      continue;
    }
    int r = broadcast_dim(in, a[ia], b[ib], &dims[i]);
    if (r < 0) {
      IrBuf da = {0}, db = {0};
      ir_prim_expr_print(a[ia], &da);
      ir_prim_expr_print(b[ib], &db);
      op_error(in->ctx, in->loc, in->binding, call->u.call.op,
               "cannot broadcast dimension %s with %s (dimension %d of the result)",
               da.len ? da.data : "?", db.len ? db.data : "?", i);
      ir_buf_free(&da);
      ir_buf_free(&db);
      return false;
    }
    if (r == 0)
      known = false;
  }
  *out = known ? dims : NULL;
  *nout = n;
  return true;
}

bool
op_axis(OpInfer *in, const IrExpr *call, int64_t axis, int ndim, int *out)
{
  if (axis < -(int64_t)ndim || axis >= ndim) {
    op_error(in->ctx, in->loc, in->binding, call->u.call.op,
             "axis %lld is out of range for a tensor of rank %d", (long long)axis, ndim);
    return false;
  }
  *out = (int)(axis < 0 ? axis + ndim : axis);
  return true;
}
