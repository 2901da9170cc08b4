/*
 * infer_util.c - helpers shared by the inference functions of every op
 * category: attribute lookup, numpy broadcasting of symbolic shapes, axis
 * normalization.
 *
 * Key idea: a symbolic dim is only as known as the arithmetic can prove.
 * Broadcasting decides each pair of dims as "equal", "one of them is 1" or
 * "provably incompatible" (an error); anything else leaves the result dim
 * unknown, and then the whole result shape is unknown (its rank is still
 * known), which is what TVM does for dims it cannot match.  When LegalizeOps
 * asks (op_infer_assuming), such a dim becomes the run-time choice
 * "a == 1 ? b : a" and the relation "a == b or a == 1 or b == 1" a check.
 *
 * It also holds the one way an op reports an error: an OpSite names the
 * call and its binding, op_report (and op_fail, op_fail_null) formats "in binding 'y': R.op:
 * message".
 */
#include <stdarg.h>

#include "op.h"

/* ------------------------------------------------------------------ */
/* Diagnostics                                                         */
/* ------------------------------------------------------------------ */

static void
report(IrCtx *ctx, IrLoc loc, IrSym binding, const IrOpDef *op, const char *fmt, va_list ap)
{
  IrBuf b = {0};
  if (binding)
    ir_buf_printf(&b, "in binding '%s': ", binding);
  if (op)
    ir_buf_printf(&b, "R.%s: ", op->name + 6);
  ir_buf_vprintf(&b, fmt, ap);
  ir_error(ctx, loc, "%s", b.data);
  ir_buf_free(&b);
}

void
op_error(IrCtx *ctx, IrLoc loc, IrSym binding, const IrOpDef *op, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  report(ctx, loc, binding, op, fmt, ap);
  va_end(ap);
}

OpSite
op_site_infer(const OpInfer *in, const IrExpr *call)
{
  return (OpSite){in->ctx, in->loc, in->binding, call};
}

OpSite
op_site_eval(const OpEval *ev, const IrExpr *call)
{
  return (OpSite){ev->ctx, ev->loc, ev->binding, call};
}

OpSite
op_site_legalize(const OpLegalize *lz, const IrExpr *call)
{
  return (OpSite){lz->ctx, lz->loc, lz->binding, call};
}

void
op_report(const OpSite *s, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  report(s->ctx, s->loc, s->binding, s->call->u.call.op, fmt, ap);
  va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Attributes, shapes, axes                                            */
/* ------------------------------------------------------------------ */

const IrAttr *
op_attr(const IrExpr *call, const char *name)
{
  if (!call || call->kind != IR_EX_CALL)
    return NULL;
  return ir_attr_get(call->u.call.attrs, name);
}

IrProof
op_prove_equal(OpInfer *in, IrPrimExpr *a, IrPrimExpr *b)
{
  int64_t x, y;
  if (ir_prim_expr_equal(a, b))
    return IR_PROVE_TRUE;
  if (ir_prim_is_int(a, &x) && ir_prim_is_int(b, &y))
    return x == y ? IR_PROVE_TRUE : IR_PROVE_FALSE;
  if (!in->arith)
    return IR_PROVE_UNKNOWN;
  if (ir_prim_expr_equal(ir_arith_simplify(in->arith, a), ir_arith_simplify(in->arith, b)))
    return IR_PROVE_TRUE;
  return ir_arith_prove(in->arith, ir_prim_bin(in->ctx, IR_PE_EQ, a, b));
}

void
op_assume(OpInfer *in, IrPrimExpr *cond)
{
  if (!in->assume)
    return;
  if (in->arith && ir_arith_prove(in->arith, cond) == IR_PROVE_TRUE)
    return;
  for (int i = 0; i < in->assume->len; i++) /* a relation stated twice is checked once */
    if (ir_prim_expr_equal(in->assume->items[i], cond))
      return;
  ir_vec_push(in->assume, cond);
}

IrProof
op_assume_equal(OpInfer *in, IrPrimExpr *a, IrPrimExpr *b)
{
  IrProof p = op_prove_equal(in, a, b);
  if (p == IR_PROVE_UNKNOWN)
    op_assume(in, ir_prim_bin(in->ctx, IR_PE_EQ, a, b));
  return p == IR_PROVE_FALSE ? p : IR_PROVE_TRUE;
}

/* The interpreter refuses a tensor of a negative dim: each dim of s (a
 * tensor or a tuple of them) is assumed not negative. */
static void
assume_not_negative(OpInfer *in, const IrSInfo *s)
{
  if (s && s->kind == IR_SI_TUPLE)
    for (int i = 0; i < s->u.tuple.n; i++)
      assume_not_negative(in, s->u.tuple.fields[i]);
  for (int d = 0; s && s->kind == IR_SI_TENSOR && s->u.tensor.shape && d < s->u.tensor.ndim; d++) {
    IrPrimExpr *x = s->u.tensor.shape[d];
    op_assume(in, ir_prim_bin(in->ctx, IR_PE_GE, x, ir_prim_int(in->ctx, x->dtype, 0)));
  }
}

IrSInfo *
op_infer_assuming(OpInfer *in, const IrExpr *call, IrVec *assume)
{
  const OpImpl *impl = op_impl(call->u.call.op->id);
  if (!impl->infer)
    return NULL;
  int n = call->u.call.nargs;
  IrSInfo **args = ir_alloc(in->ctx, (size_t)(n ? n : 1) * sizeof *args);
  for (int i = 0; i < n; i++)
    args[i] = call->u.call.args[i]->sinfo ? call->u.call.args[i]->sinfo : ir_sinfo_object(in->ctx);
  in->assume = assume;
  IrSInfo *s = op_call_infer(in, call, args);
  assume_not_negative(in, s);
  in->assume = NULL;
  return s;
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
  return op_prove_equal(in, e, one) == IR_PROVE_FALSE;
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
  IrProof eq = op_prove_equal(in, a, b);
  if (eq == IR_PROVE_TRUE) {
    *out = a;
    return 1;
  }
  if (eq == IR_PROVE_FALSE && provably_not_one(in, a) && provably_not_one(in, b))
    return -1;
  if (!in->assume)
    return 0;
  /* decided at run time, as TVM lowers it: a == b, or one of them is 1 */
  IrCtx *c = in->ctx;
  IrDType t = a->dtype.code ? a->dtype : IR_I64;
  IrPrimExpr *one = ir_prim_int(c, t, 1);
  IrPrimExpr *a1 = ir_prim_bin(c, IR_PE_EQ, a, one), *b1 = ir_prim_bin(c, IR_PE_EQ, b, one);
  op_assume(in, ir_prim_bin(c, IR_PE_OR, ir_prim_bin(c, IR_PE_OR, ir_prim_bin(c, IR_PE_EQ, a, b), a1), b1));
  *out = ir_prim_select(c, a1, b, a);
  return 1;
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

const char *
op_sinfo_text(IrCtx *ctx, const IrSInfo *si)
{
  IrBuf b = {0};
  ir_sinfo_print(si, &b);
  char *s = ir_strdup(ctx, b.data ? b.data : "", b.len);
  ir_buf_free(&b);
  return s;
}
