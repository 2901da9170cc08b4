/*
 * loss.c - the losses: nll_loss and cross_entropy_with_logits (their
 * entries are in nn.c's table): inference as TVM's (src/relax/op/nn/nn.cc),
 * the reference kernels and the lowerings.
 *
 * nll_loss: out[n, d...] = -predictions[n, t, d...] * w[t] for the target
 * t = targets[n, d...], 0 (and weight 0) where t is ignore_index; "sum"
 * adds the outputs, "mean" divides that sum by the sum of the weights
 * used (NaN when every target is ignored, as TVM's 0 / 0).  Predictions
 * of rank 1 are one sample of C classes, with a target of rank 0.
 * A target outside [0, C) that is not ignore_index has no meaning: the
 * interpreter refuses it, the lowered code asserts it in a check loop
 * before anything is written (tir_build.h's checks of data), and its
 * reads still clamp into [0, C) (R.take's policy, manip_join.c).
 *
 * cross_entropy_with_logits: -sum(predictions * labels), divided by the
 * batch size (dim 0) when the rank is at least 2, as a scalar.
 *
 * Sums are kept in double (a float64 accumulator in TIR) and rounded once
 * at the store.
 */
#include <string.h>

#include "nn_int.h"

/* ------------------------------------------------------------------ */
/* nll_loss: inference                                                 */
/* ------------------------------------------------------------------ */

typedef enum { LOSS_NONE, LOSS_SUM, LOSS_MEAN } Reduction;

static bool
reduction_of(const OpSite *s, Reduction *r)
{
  const char *text;
  if (!op_nn_attr_str(s, "reduction", "mean", &text))
    return false;
  if (strcmp(text, "none") == 0)
    *r = LOSS_NONE;
  else if (strcmp(text, "sum") == 0)
    *r = LOSS_SUM;
  else if (strcmp(text, "mean") == 0)
    *r = LOSS_MEAN;
  else {
    return op_fail(s, "reduction must be \"none\", \"sum\" or \"mean\", not \"%s\"", text);
  }
  return true;
}

/* a == b for a shape relation: an error (naming what) when provably not,
 * a run-time check of the legalized module when undecided. */
static bool
same_dim(OpInfer *in, const OpSite *s, IrPrimExpr *a, IrPrimExpr *b, const char *what)
{
  IrProof eq = in->assume ? op_assume_equal(in, a, b) : op_prove_equal(in, a, b);
  if (eq != IR_PROVE_FALSE)
    return true;
  return op_fail(s, "%s differ: %s and %s", what, op_nn_expr_str(in->ctx, a),
                 op_nn_expr_str(in->ctx, b));
}

/* The ranks and dims of predictions (p), targets (t) and weights (w). */
static bool
check_nll_shapes(OpInfer *in, const OpSite *s, IrSInfo *p, IrSInfo *t, IrSInfo *w)
{
  int pn = op_nn_ndim(p), tn = op_nn_ndim(t), wn = op_nn_ndim(w);
  if (pn == 0)
    return op_fail(s, "predictions must have rank 1 (C) or at least 2 (N, C, d...), not 0");
  if (pn >= 1 && tn >= 0 && tn != (pn == 1 ? 0 : pn - 1))
    return op_fail(s, "targets must have rank %d for predictions of rank %d, not %d",
                   pn == 1 ? 0 : pn - 1, pn, tn);
  if (wn >= 0 && wn != 1)
    return op_fail(s, "weights must have rank 1 (C), not %d", wn);
  IrPrimExpr **ps = op_nn_shape(p), **ts = op_nn_shape(t), **ws = op_nn_shape(w);
  if (ps && ts && pn >= 2) {
    if (!same_dim(in, s, ps[0], ts[0], "the batch sizes of predictions and targets"))
      return false;
    for (int d = 2; d < pn; d++)
      if (!same_dim(in, s, ps[d], ts[d - 1], "the extra dims of predictions and targets"))
        return false;
  }
  if (ps && ws && !same_dim(in, s, ps[pn == 1 ? 0 : 1], ws[0], "the class counts of predictions and weights"))
    return false;
  return true;
}

IrSInfo *
op_nn_infer_nll_loss(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *p, *t, *w = NULL;
  Reduction r;
  int64_t ignore;
  bool weighted = s->call->u.call.nargs > 2;
  if (!op_nn_tensor_arg(in, s, args, 0, "predictions", &p) ||
      !op_nn_tensor_arg(in, s, args, 1, "targets", &t) ||
      (weighted && !op_nn_tensor_arg(in, s, args, 2, "weights", &w)) || !reduction_of(s, &r) ||
      !op_nn_attr_int(s, "ignore_index", -100, &ignore))
    return NULL;
  IrDType tt = op_nn_dtype(t), dt = op_nn_dtype(p);
  if (tt.code != IR_DT_VOID && tt.code != IR_DT_INT && tt.code != IR_DT_UINT)
    return op_fail_null(s, "targets must have an integer dtype, not %s",
                        op_nn_dtype_str(in->ctx, tt));
  if (w && !op_nn_common_dtype(in, s, op_nn_dtype(p), op_nn_dtype(w), &dt))
    return NULL;
  if (!check_nll_shapes(in, s, p, t, w))
    return NULL;
  int vdev = op_nn_vdevice(p);
  if (r != LOSS_NONE)
    return ir_sinfo_tensor(in->ctx, ir_alloc(in->ctx, sizeof(IrPrimExpr *)), 0, dt, vdev);
  IrPrimExpr **ps = op_nn_shape(p);
  int pn = op_nn_ndim(p), on = pn < 0 ? -1 : pn == 1 ? 0 : pn - 1;
  if (!ps)
    return ir_sinfo_tensor(in->ctx, NULL, on, dt, vdev);
  IrPrimExpr **shape = ir_alloc(in->ctx, sizeof *shape * (size_t)(on + 1));
  for (int d = 0, k = 0; d < pn; d++)
    if (d != (pn == 1 ? 0 : 1))
      shape[k++] = ps[d];
  return ir_sinfo_tensor(in->ctx, shape, on, dt, vdev);
}

/* ------------------------------------------------------------------ */
/* nll_loss: kernel                                                    */
/* ------------------------------------------------------------------ */

Value *
op_nn_eval_nll_loss(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *p = op_nn_tensor_value(s, args, 0, "predictions");
  const IrTensorData *t = op_nn_tensor_value(s, args, 1, "targets");
  const IrTensorData *w = s->call->u.call.nargs > 2 ? op_nn_tensor_value(s, args, 2, "weights") : NULL;
  Reduction r;
  int64_t ignore;
  if (!p || !t || (s->call->u.call.nargs > 2 && !w) || !reduction_of(s, &r) ||
      !op_nn_attr_int(s, "ignore_index", -100, &ignore))
    return NULL;
  bool ok = p->ndim >= 1 && t->ndim == (p->ndim == 1 ? 0 : p->ndim - 1);
  for (int d = 0; ok && d < t->ndim; d++)
    ok = t->shape[d] == p->shape[d == 0 ? 0 : d + 1];
  int64_t classes = ok ? p->shape[p->ndim == 1 ? 0 : 1] : 0, inner = 1;
  if (!ok || (w && (w->ndim != 1 || w->shape[0] != classes)))
    return op_fail_null(s, "the shapes of predictions, targets and weights do not match");
  for (int d = 2; d < p->ndim; d++)
    inner *= p->shape[d];
  IrDType dt = p->dtype;
  Value *out = r == LOSS_NONE ? op_nn_tensor_new(s, dt, t->ndim, t->shape)
                              : op_nn_tensor_new(s, dt, 0, NULL);
  if (!out)
    return NULL;
  double sum = 0, weights = 0;
  for (int64_t i = 0, n = op_numel(t); i < n; i++) {
    int64_t c = op_get_i(t, i);
    if (c == ignore)
      continue; /* out[i] stays 0 */
    if (c < 0 || c >= classes)
      return op_fail_null(s, "target %lld is out of range for %lld classes", (long long)c,
                          (long long)classes);
    /* element (n, c, d...) of predictions: n = i / inner, d... = i % inner */
    int64_t at = ((i / inner) * classes + c) * inner + i % inner;
    double wc = w ? op_get_f(w, c) : 1.0, v = -op_get_f(p, at) * wc;
    if (r == LOSS_NONE)
      op_set_f(&out->u.tensor.t, i, v);
    sum += v;
    weights += wc;
  }
  if (r != LOSS_NONE)
    op_set_f(&out->u.tensor.t, 0, r == LOSS_SUM ? sum : sum / weights);
  return out;
}

/* ------------------------------------------------------------------ */
/* nll_loss: lowering                                                  */
/* ------------------------------------------------------------------ */

typedef struct {
  IrBuffer *p, *t, *w, *out, *acc; /* w: NULL without weights; acc: sum, weights */
  Reduction r;
  int64_t ignore;
} Nll;

/* For the target at index i: whether it counts, its loss and its weight
 * (float64), reading at the target clamped into [0, C). */
static void
nll_term(OpPrim *p, const Nll *l, IrPrimExpr **i, IrPrimExpr **valid, IrPrimExpr **loss,
         IrPrimExpr **weight)
{
  IrCtx *ctx = p->lz->ctx;
  IrDType f64 = op_nn_f64_type();
  int pn = l->p->ndim, cax = pn == 1 ? 0 : 1;
  IrPrimExpr *t = op_nn_to(ctx, IR_I64, op_prim_load(p, l->t, i));
  IrPrimExpr *last = op_nn_sub(ctx, l->p->shape[cax], op_nn_index(ctx, 1));
  IrPrimExpr *c = ir_prim_bin(ctx, IR_PE_MAX, ir_prim_bin(ctx, IR_PE_MIN, t, last),
                              op_nn_index(ctx, 0));
  IrPrimExpr **at = ir_alloc(ctx, sizeof *at * (size_t)pn);
  for (int d = 0; d < pn; d++)
    at[d] = d == cax ? c : d < cax ? i[d] : i[d - 1];
  *valid = ir_prim_bin(ctx, IR_PE_NE, t, op_nn_index(ctx, l->ignore));
  *weight = l->w ? op_nn_f64(ctx, op_prim_load_at(p, l->w, c)) : op_nn_lit(ctx, f64, 1.0);
  IrPrimExpr *pv = op_nn_f64(ctx, op_prim_load(p, l->p, at));
  *loss = ir_prim_bin(ctx, IR_PE_SUB, op_nn_lit(ctx, f64, 0.0),
                      ir_prim_bin(ctx, IR_PE_MUL, pv, *weight));
}

/* The kernel's refusal, before anything is written: every target is
 * ignore_index or in [0, C). */
static void
nll_check(OpPrim *p, const Nll *l)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **i;
  IrStmt **slot = op_prim_check_loops(p, l->t->shape, l->t->ndim, &i, NULL);
  IrPrimExpr *t = op_nn_to(ctx, IR_I64, op_prim_load(p, l->t, i));
  IrPrimExpr *c = l->p->shape[l->p->ndim == 1 ? 0 : 1];
  IrPrimExpr *in = ir_prim_bin(ctx, IR_PE_AND, ir_prim_bin(ctx, IR_PE_LE, op_nn_index(ctx, 0), t),
                               ir_prim_bin(ctx, IR_PE_LT, t, op_nn_to(ctx, IR_I64, c)));
  *slot = op_prim_assert(
      p, ir_prim_bin(ctx, IR_PE_OR, ir_prim_bin(ctx, IR_PE_EQ, t, op_nn_index(ctx, l->ignore)), in),
      "target out of range");
}

IrExpr *
op_nn_legalize_nll_loss(OpLegalize *lz, const OpSite *site, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  IrDType f64 = op_nn_f64_type();
  Nll l = {0};
  OpPrim p;
  op_prim_begin(lz, &p, "nll_loss");
  l.p = op_prim_input(&p, site->call->u.call.args[0], "predictions");
  l.t = op_prim_input(&p, site->call->u.call.args[1], "targets");
  l.w = site->call->u.call.nargs > 2 ? op_prim_input(&p, site->call->u.call.args[2], "weights") : NULL;
  l.out = op_prim_output(&p, result, "T_nll_loss");
  if (!l.p || !l.t || (site->call->u.call.nargs > 2 && !l.w) || !l.out || l.p->ndim < 1 ||
      l.t->ndim != (l.p->ndim == 1 ? 0 : l.p->ndim - 1) || !reduction_of(site, &l.r) ||
      !op_nn_attr_int(site, "ignore_index", -100, &l.ignore)) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **i, *valid, *loss, *weight, *zero = op_nn_lit(ctx, f64, 0.0);
  nll_check(&p, &l);
  if (l.r == LOSS_NONE) {
    IrStmt **body = op_prim_loops(&p, l.t->shape, l.t->ndim, &i);
    nll_term(&p, &l, i, &valid, &loss, &weight);
    *body = op_prim_store(&p, l.out, i, op_nn_to(ctx, l.out->dtype, ir_prim_select(ctx, valid, loss, zero)));
    return op_prim_finish(&p, site->call, result);
  }
  l.acc = op_nn_acc_new(&p, 2);
  op_prim_emit(&p, op_nn_acc_set(&p, l.acc, 0, zero));
  op_prim_emit(&p, op_nn_acc_set(&p, l.acc, 1, zero));
  IrStmt **body = op_prim_loops(&p, l.t->shape, l.t->ndim, &i);
  nll_term(&p, &l, i, &valid, &loss, &weight);
  IrStmt *st[2] = {op_nn_acc_fold(&p, l.acc, 0, IR_PE_ADD, loss),
                   op_nn_acc_fold(&p, l.acc, 1, IR_PE_ADD, weight)};
  *body = op_nn_if(&p, valid, op_nn_seq(&p, st, 2));
  IrPrimExpr *v = op_nn_acc(&p, l.acc, 0);
  if (l.r == LOSS_MEAN)
    v = ir_prim_bin(ctx, IR_PE_DIV, v, op_nn_acc(&p, l.acc, 1));
  op_prim_emit(&p, op_prim_store(&p, l.out, NULL, op_nn_to(ctx, l.out->dtype, v)));
  return op_prim_finish(&p, site->call, result);
}

/* ------------------------------------------------------------------ */
/* cross_entropy_with_logits                                           */
/* ------------------------------------------------------------------ */

IrSInfo *
op_nn_infer_cross_entropy(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *p, *l;
  IrDType dt;
  if (!op_nn_tensor_arg(in, s, args, 0, "predictions", &p) ||
      !op_nn_tensor_arg(in, s, args, 1, "labels", &l) ||
      !op_nn_common_dtype(in, s, op_nn_dtype(p), op_nn_dtype(l), &dt) ||
      !op_nn_require_float(in, s, dt))
    return NULL;
  int pn = op_nn_ndim(p), ln = op_nn_ndim(l);
  if (pn >= 0 && ln >= 0 && pn != ln)
    return op_fail_null(s, "predictions and labels must have the same rank, not %d and %d", pn,
                        ln);
  IrPrimExpr **ps = op_nn_shape(p), **ls = op_nn_shape(l);
  for (int d = 0; ps && ls && d < pn; d++)
    if (!same_dim(in, s, ps[d], ls[d], "the dims of predictions and labels"))
      return NULL;
  int vdev = op_nn_vdevice(p) >= 0 ? op_nn_vdevice(p) : op_nn_vdevice(l);
  return ir_sinfo_tensor(in->ctx, ir_alloc(in->ctx, sizeof(IrPrimExpr *)), 0, dt, vdev);
}

Value *
op_nn_eval_cross_entropy(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *p = op_nn_tensor_value(s, args, 0, "predictions");
  const IrTensorData *l = op_nn_tensor_value(s, args, 1, "labels");
  if (!p || !l)
    return NULL;
  bool same = p->ndim == l->ndim;
  for (int d = 0; same && d < p->ndim; d++)
    same = p->shape[d] == l->shape[d];
  if (!same)
    return op_fail_null(s, "predictions and labels must have the same shape");
  Value *out = op_nn_tensor_new(s, p->dtype, 0, NULL);
  if (!out)
    return NULL;
  double sum = 0;
  for (int64_t i = 0, n = op_numel(p); i < n; i++)
    sum += op_get_f(p, i) * op_get_f(l, i);
  op_set_f(&out->u.tensor.t, 0, p->ndim >= 2 ? -sum / (double)p->shape[0] : -sum);
  return out;
}

IrExpr *
op_nn_legalize_cross_entropy(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  IrDType f64 = op_nn_f64_type();
  OpPrim p;
  IrBuffer *x, *y, *out;
  if (!op_prim_open(lz, &p, "cross_entropy_with_logits", s->call, result,
                    (OpPrimParam[]){{"predictions", &x}, {"labels", &y}, {"T_cross_entropy", &out}},
                    3))
    return NULL;
  if (x->ndim != y->ndim)
    return op_prim_give_up(&p);
  IrBuffer *acc = op_nn_acc_new(&p, 1);
  op_prim_emit(&p, op_nn_acc_set(&p, acc, 0, op_nn_lit(ctx, f64, 0.0)));
  IrPrimExpr **i;
  IrStmt **body = op_prim_loops(&p, x->shape, x->ndim, &i);
  IrPrimExpr *xy = ir_prim_bin(ctx, IR_PE_MUL, op_nn_f64(ctx, op_prim_load(&p, x, i)),
                               op_nn_f64(ctx, op_prim_load(&p, y, i)));
  *body = op_nn_acc_fold(&p, acc, 0, IR_PE_ADD, xy);
  IrPrimExpr *v = ir_prim_bin(ctx, IR_PE_SUB, op_nn_lit(ctx, f64, 0.0), op_nn_acc(&p, acc, 0));
  if (x->ndim >= 2)
    v = ir_prim_bin(ctx, IR_PE_DIV, v, op_nn_f64(ctx, x->shape[0]));
  op_prim_emit(&p, op_prim_store(&p, out, NULL, op_nn_to(ctx, out->dtype, v)));
  return op_prim_finish(&p, s->call, result);
}
