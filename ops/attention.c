/*
 * attention.c - R.nn.attention and R.nn.attention_bias (entries in nn.c's
 * table): inference as TVM's (src/relax/op/nn/attention.cc), the
 * reference kernel and the lowering.
 *
 * query (B, Sq, H, D), key (B, Skv, Hk, D), value (B, Skv, Hv, Dv) give
 * out (B, Sq, H, Dv): for each batch b, head h and query i,
 *   s_j = (q[b, i, h, :] . k[b, j, hk, :]) * scale (+ bias[b, h, i, j])
 *   out[b, i, h, :] = sum_j softmax(s)_j v[b, j, hv, :]
 * over the keys j the mask allows.  scale defaults to 1 / sqrt(D) (TVM
 * divides by sqrt(D)).  Hk and Hv may divide H (grouped-query attention):
 * query head h reads key head h / (H / Hk), value head h / (H / Hv).
 * bias is 4-d, each of its first three dims B, H, Sq or 1 (broadcast).
 * causal_mask "TopLeft" allows j <= i, "BottomRight" j <= i + |Sq - Skv|
 * (TVM's legalization: np.tril with k = abs(seq_len - seq_len_kv)).
 * window_size w (sliding window, which TVM leaves to flash attention,
 * with a bottom-right causal mask only) also requires
 * j >= i + |Sq - Skv| - w + 1.  A query that no key is allowed for gives
 * zeros.
 *
 * Key idea: the kernel and the lowering do the same passes per query in
 * double: the scores (kept, in TIR in a float64 scratch row of Skv),
 * their max, the sum of exp(s - max) (the row then holds these
 * exponentials), and each output value as sum_j e_j v_j / sum.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

/* The attributes: scale (NaN when None: 1 / sqrt(D)), the mask. */
typedef struct {
  double scale;
  bool causal, bottom_right;
  int64_t window; /* 0: none */
} AttnAttrs;

static bool
attn_attrs(const OpSite *s, AttnAttrs *a)
{
  const char *mask;
  memset(a, 0, sizeof *a);
  if (!op_nn_attr_float(s, "scale", NAN, &a->scale) ||
      !op_nn_attr_str(s, "causal_mask", NULL, &mask) ||
      !op_nn_attr_int(s, "window_size", 0, &a->window))
    return false;
  if (mask && strcmp(mask, "TopLeft") != 0 && strcmp(mask, "BottomRight") != 0)
    return op_fail(s, "causal_mask must be \"TopLeft\" or \"BottomRight\", not \"%s\"", mask);
  a->causal = mask != NULL;
  a->bottom_right = mask && strcmp(mask, "BottomRight") == 0;
  if (op_attr(s->call, "window_size") && op_attr(s->call, "window_size")->kind != IR_AT_NONE &&
      (a->window <= 0 || !a->bottom_right)) {
    return op_fail(s, "window_size must be positive and comes with causal_mask \"BottomRight\"");
  }
  return true;
}

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

static const char *const attn_names[] = {"query", "key", "value", "bias"};
static const char *const var_len_names[] = {"queries", "keys", "values"};

typedef struct {
  OpInfer *in;
  OpSite s;
} Check;

/* a == b, an error when provably not, a run-time check when undecided. */
static bool
check_equal(Check *c, IrPrimExpr *a, IrPrimExpr *b, const char *what)
{
  OpInfer *in = c->in;
  IrProof eq = in->assume ? op_assume_equal(in, a, b) : op_prove_equal(in, a, b);
  if (eq != IR_PROVE_FALSE)
    return true;
  return op_fail(&c->s, "%s differ: %s and %s", what, op_nn_expr_str(in->ctx, a),
                 op_nn_expr_str(in->ctx, b));
}

/* cond is false only when broken; when it is not proven, a run-time check. */
static bool
check_cond(Check *c, IrPrimExpr *cond, const char *fmt, IrPrimExpr *a, IrPrimExpr *b)
{
  OpInfer *in = c->in;
  IrPrimExpr *simple = op_nn_simplify(in, cond);
  int64_t v;
  IrProof p = ir_prim_is_int(simple, &v) ? (v ? IR_PROVE_TRUE : IR_PROVE_FALSE)
              : in->arith                 ? ir_arith_prove(in->arith, simple)
                                          : IR_PROVE_UNKNOWN;
  if (p == IR_PROVE_FALSE)
    return op_fail(&c->s, fmt, op_nn_expr_str(in->ctx, a), op_nn_expr_str(in->ctx, b));
  if (p == IR_PROVE_UNKNOWN)
    op_assume(in, cond);
  return true;
}

static IrPrimExpr *
cmp(IrCtx *ctx, IrPrimKind k, IrPrimExpr *a, IrPrimExpr *b)
{
  return ir_prim_bin(ctx, k, a, b);
}

/* The shape relations of TVM's InferTypeAttention (bias broadcasting). */
static bool
check_shapes(Check *c, IrPrimExpr **q, IrPrimExpr **k, IrPrimExpr **v, IrPrimExpr **b)
{
  IrCtx *ctx = c->in->ctx;
  IrPrimExpr *zero = op_nn_int(ctx, 0), *one = op_nn_int(ctx, 1);
  if (!check_equal(c, q[0], k[0], "the batch sizes of query and key") ||
      !check_equal(c, q[0], v[0], "the batch sizes of query and value") ||
      !check_equal(c, k[1], v[1], "the sequence lengths of key and value") ||
      !check_equal(c, q[3], k[3], "the head dims of query and key"))
    return false;
  for (int i = 1; i < 3; i++) {
    IrPrimExpr *h = i == 1 ? k[2] : v[2];
    IrPrimExpr *ok = cmp(ctx, IR_PE_AND, cmp(ctx, IR_PE_GT, h, zero),
                         cmp(ctx, IR_PE_EQ, ir_prim_bin(ctx, IR_PE_FLOORMOD, q[2], h), zero));
    if (!check_cond(c, ok, i == 1 ? "the query heads (%s) are not a multiple of the key heads (%s)"
                                  : "the query heads (%s) are not a multiple of the value heads (%s)",
                    q[2], h))
      return false;
  }
  if (!b)
    return true;
  IrPrimExpr *full[3] = {q[0], q[2], q[1]};
  for (int d = 0; d < 3; d++) {
    IrPrimExpr *ok = cmp(ctx, IR_PE_OR, cmp(ctx, IR_PE_EQ, b[d], full[d]), cmp(ctx, IR_PE_EQ, b[d], one));
    if (!check_cond(c, ok, "bias has %s where query has %s (or 1 to broadcast)", b[d], full[d]))
      return false;
  }
  return check_equal(c, b[3], k[1], "the sequence lengths of key and bias");
}

/* query, key, value (and bias): the first nargs arguments, named by
 * names; the result (B, Sq, H, Dv). */
static IrSInfo *
infer_qkv(OpInfer *in, const OpSite *s, IrSInfo **args, int nargs, const char *const *names)
{
  Check c = {in, *s};
  IrSInfo *t[4] = {NULL};
  AttnAttrs a;
  for (int i = 0; i < nargs; i++) {
    if (!op_nn_tensor_arg(in, s, args, i, names[i], &t[i]))
      return NULL;
    if (op_nn_ndim(t[i]) >= 0 && op_nn_ndim(t[i]) != 4)
      return op_fail_null(&c.s, "%s must have rank 4, not %d", names[i], op_nn_ndim(t[i]));
  }
  if (!attn_attrs(&c.s, &a) || !op_nn_require_float(in, s, op_nn_dtype(t[0])))
    return NULL;
  IrDType dt = op_nn_dtype(t[0]);
  for (int i = 1; i < nargs; i++) {
    IrDType ti = op_nn_dtype(t[i]);
    if (dt.code != IR_DT_VOID && ti.code != IR_DT_VOID && !ir_dtype_eq(dt, ti))
      return op_fail_null(&c.s, "%s has dtype %s, but %s has dtype %s", names[i],
                          op_nn_dtype_str(in->ctx, ti), names[0], op_nn_dtype_str(in->ctx, dt));
  }
  IrPrimExpr **q = op_nn_shape(t[0]), **k = op_nn_shape(t[1]), **v = op_nn_shape(t[2]);
  IrPrimExpr **b = nargs > 3 ? op_nn_shape(t[3]) : NULL;
  int vdev = op_nn_vdevice(t[0]);
  if (!q || !k || !v || (nargs > 3 && !b))
    return ir_sinfo_tensor(in->ctx, NULL, 4, dt, vdev);
  if (!check_shapes(&c, q, k, v, b))
    return NULL;
  IrPrimExpr **shape = ir_alloc(in->ctx, sizeof *shape * 4);
  shape[0] = q[0], shape[1] = q[1], shape[2] = q[2], shape[3] = v[3];
  return ir_sinfo_tensor(in->ctx, shape, 4, dt, vdev);
}

IrSInfo *
op_nn_infer_attention(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  int nargs = s->call->u.call.nargs < 4 ? s->call->u.call.nargs : 4;
  if (s->call->u.call.op->id == IR_OP_ATTENTION_BIAS && nargs < 4) {
    return op_fail_null(s, "bias is required");
  }
  return infer_qkv(in, s, args, nargs, attn_names);
}

/* The argument index of attention_var_len's seqstart_k, or -1 when absent
 * (seqstart_q serves).  The reader leaves out an absent optional argument,
 * so with six arguments the sixth is seqstart_k or max_seqlen_k: it is
 * seqstart_k when it is not a scalar (max_seqlen is one number). */
static int
seqstart_k_index(const IrExpr *call)
{
  if (call->u.call.nargs >= 7)
    return 5;
  if (call->u.call.nargs < 6)
    return -1;
  const IrSInfo *si = call->u.call.args[5]->sinfo;
  bool scalar = !si || si->kind == IR_SI_PRIM || (si->kind == IR_SI_TENSOR && si->u.tensor.ndim == 0);
  return scalar ? -1 : 5;
}

/* attention_var_len: attention's rules for queries, keys and values;
 * seqstart_q and seqstart_k integer vectors of one length (the
 * max_seqlen arguments are hints, not read). */
IrSInfo *
op_nn_infer_attention_var_len(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *st[2] = {NULL};
  for (int k = 0; k < 2; k++) {
    int i = k ? seqstart_k_index(s->call) : 3;
    if (i < 0 || i >= s->call->u.call.nargs || !op_nn_tensor_arg(in, s, args, i, k ? "seqstart_k" : "seqstart_q", &st[k]))
      continue;
    IrDType dt = op_nn_dtype(st[k]);
    if ((dt.code != IR_DT_VOID && dt.code != IR_DT_INT && dt.code != IR_DT_UINT) ||
        (op_nn_ndim(st[k]) >= 0 && op_nn_ndim(st[k]) != 1)) {
      return op_fail_null(s, "%s must be a vector of integers", k ? "seqstart_k" : "seqstart_q");
    }
  }
  IrPrimExpr **a = op_nn_shape(st[0]), **b = op_nn_shape(st[1]);
  if (a && b && (in->assume ? op_assume_equal(in, a[0], b[0]) : op_prove_equal(in, a[0], b[0])) ==
                    IR_PROVE_FALSE) {
    return op_fail_null(s, "seqstart_q and seqstart_k have different lengths");
  }
  return infer_qkv(in, s, args, 3, var_len_names);
}

/* ------------------------------------------------------------------ */
/* Kernel                                                              */
/* ------------------------------------------------------------------ */

/* Offset of element (a, b, c, d) of a 4-d tensor. */
static int64_t
at4(const IrTensorData *t, int64_t a, int64_t b, int64_t c, int64_t d)
{
  return ((a * t->shape[1] + b) * t->shape[2] + c) * t->shape[3] + d;
}

/* Is key j allowed for query i (sq queries, skv keys)? */
static bool
allowed(const AttnAttrs *a, int64_t i, int64_t j, int64_t sq, int64_t skv)
{
  int64_t off = a->bottom_right ? llabs(sq - skv) : 0;
  if (a->causal && j > i + off)
    return false;
  return !a->window || j >= i + off - a->window + 1;
}

static bool
check_values(const OpSite *s, const IrTensorData **t, int n)
{
  for (int i = 0; i < n; i++) {
    if (t[i]->ndim != 4)
      return op_fail(s, "%s must have rank 4", attn_names[i]);
  }
  const IrTensorData *q = t[0], *k = t[1], *v = t[2];
  bool ok = q->shape[0] == k->shape[0] && q->shape[0] == v->shape[0] &&
            k->shape[1] == v->shape[1] && q->shape[3] == k->shape[3] && k->shape[2] > 0 &&
            v->shape[2] > 0 && q->shape[2] % k->shape[2] == 0 && q->shape[2] % v->shape[2] == 0;
  if (ok && n > 3) {
    const IrTensorData *b = t[3];
    int64_t full[3] = {q->shape[0], q->shape[2], q->shape[1]};
    for (int d = 0; d < 3; d++)
      ok = ok && (b->shape[d] == full[d] || b->shape[d] == 1);
    ok = ok && b->shape[3] == k->shape[1];
  }
  if (!ok)
    op_report(s, "the shapes of query, key, value and bias do not match");
  return ok;
}

/* The queries and keys one attention runs over: rows q0 .. q0 + lq - 1
 * of query and k0 .. k0 + lk - 1 of key and value (attention_var_len's
 * sequences; all of them for attention). */
typedef struct {
  int64_t q0, lq, k0, lk;
} Span;

/* One query's output: scores into row, then softmax and the values. */
static void
attend(const IrTensorData **t, const AttnAttrs *a, const Span *sp, int64_t bt, int64_t i,
       int64_t h, double *row, IrTensorData *out)
{
  const IrTensorData *q = t[0], *k = t[1], *v = t[2], *b = t[3];
  int64_t dim = q->shape[3], qi = sp->q0 + i;
  int64_t hk = h / (q->shape[2] / k->shape[2]), hv = h / (q->shape[2] / v->shape[2]);
  double max = -INFINITY, sum = 0;
  for (int64_t j = 0; j < sp->lk; j++) {
    if (!allowed(a, i, j, sp->lq, sp->lk))
      continue;
    double dot = 0;
    for (int64_t d = 0; d < dim; d++)
      dot += op_get_f(q, at4(q, bt, qi, h, d)) * op_get_f(k, at4(k, bt, sp->k0 + j, hk, d));
    row[j] = isnan(a->scale) ? dot / sqrt((double)dim) : dot * a->scale;
    if (b)
      row[j] += op_get_f(b, at4(b, b->shape[0] == 1 ? 0 : bt, b->shape[1] == 1 ? 0 : h,
                                b->shape[2] == 1 ? 0 : i, j));
    max = fmax(max, row[j]);
  }
  for (int64_t j = 0; j < sp->lk; j++) {
    if (!allowed(a, i, j, sp->lq, sp->lk))
      continue;
    row[j] = exp(row[j] - max);
    sum += row[j];
  }
  for (int64_t e = 0; e < v->shape[3]; e++) {
    double acc = 0;
    for (int64_t j = 0; j < sp->lk; j++)
      if (allowed(a, i, j, sp->lq, sp->lk))
        acc += row[j] * op_get_f(v, at4(v, bt, sp->k0 + j, hv, e));
    op_set_f(out, at4(out, bt, qi, h, e), sum > 0 ? acc / sum : 0.0);
  }
}

/* Every query of the spans (one span per sequence); rows no span covers
 * stay 0. */
static Value *
attend_all(const OpSite *s, const IrTensorData **t, const AttnAttrs *a, const Span *spans,
           int64_t n)
{
  int64_t shape[4] = {t[0]->shape[0], t[0]->shape[1], t[0]->shape[2], t[2]->shape[3]};
  Value *out = op_nn_tensor_new(s, t[0]->dtype, 4, shape);
  double *row = out ? malloc(sizeof *row * (size_t)(t[1]->shape[1] ? t[1]->shape[1] : 1)) : NULL;
  if (!row) {
    if (out)
      op_report(s, "out of memory");
    return NULL;
  }
  for (int64_t k = 0; k < n; k++)
    for (int64_t bt = 0; bt < shape[0]; bt++)
      for (int64_t i = 0; i < spans[k].lq; i++)
        for (int64_t h = 0; h < shape[2]; h++)
          attend(t, a, &spans[k], bt, i, h, row, &out->u.tensor.t);
  free(row);
  return out;
}

Value *
op_nn_eval_attention(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *t[4] = {NULL};
  AttnAttrs a;
  int nargs = s->call->u.call.nargs < 4 ? s->call->u.call.nargs : 4;
  for (int i = 0; i < nargs; i++)
    if (!(t[i] = op_nn_tensor_value(s, args, i, attn_names[i])))
      return NULL;
  if (nargs < 3 || !attn_attrs(s, &a) || !check_values(s, t, nargs))
    return NULL;
  Span all = {0, t[0]->shape[1], 0, t[1]->shape[1]};
  return attend_all(s, t, &a, &all, 1);
}

/* attention_var_len's sequences from seqstart_q and seqstart_k: each
 * non-decreasing from 0 within its tensor's length, of the same count. */
static Span *
var_len_spans(const OpSite *s, const IrTensorData **t, const IrTensorData *sq,
              const IrTensorData *sk, int64_t *n)
{
  bool ok = sq->ndim == 1 && sk->ndim == 1 && sq->shape[0] == sk->shape[0] && sq->shape[0] >= 1;
  *n = ok ? sq->shape[0] - 1 : 0;
  Span *spans = ok ? malloc(sizeof *spans * (size_t)(*n ? *n : 1)) : NULL;
  for (int64_t k = 0; spans && k < *n; k++) {
    int64_t q0 = op_get_i(sq, k), q1 = op_get_i(sq, k + 1);
    int64_t k0 = op_get_i(sk, k), k1 = op_get_i(sk, k + 1);
    if (op_get_i(sq, 0) != 0 || op_get_i(sk, 0) != 0 || q1 < q0 || k1 < k0 ||
        q1 > t[0]->shape[1] || k1 > t[1]->shape[1]) {
      free(spans);
      spans = NULL;
      break;
    }
    spans[k] = (Span){q0, q1 - q0, k0, k1 - k0};
  }
  if (!spans)
    op_report(s, "seqstart_q and seqstart_k must be cumulative sequence lengths from 0 within "
                 "the queries and keys, of the same length");
  return spans;
}

Value *
op_nn_eval_attention_var_len(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *t[4] = {NULL}, *sq, *sk;
  AttnAttrs a;
  int64_t n;
  for (int i = 0; i < 3; i++)
    if (!(t[i] = op_nn_tensor_value(s, args, i, var_len_names[i])))
      return NULL;
  sq = op_nn_tensor_value(s, args, 3, "seqstart_q");
  int ki = seqstart_k_index(s->call);
  sk = ki > 0 ? op_nn_tensor_value(s, args, ki, "seqstart_k") : sq;
  if (!sq || !sk || !attn_attrs(s, &a) || !check_values(s, t, 3))
    return NULL;
  Span *spans = var_len_spans(s, t, sq, sk, &n);
  if (!spans)
    return NULL;
  Value *out = attend_all(s, t, &a, spans, n);
  free(spans);
  return out;
}

/* ------------------------------------------------------------------ */
/* Lowering                                                            */
/* ------------------------------------------------------------------ */

typedef struct {
  IrBuffer *q, *k, *v, *bias, *out;
  IrBuffer *row; /* float64 [Skv]: scores, then their exponentials */
  IrBuffer *acc; /* float64: max, sum, output sum */
  AttnAttrs a;
  IrPrimExpr *bt, *i, *h, *hk, *hv; /* the query's batch, position, heads */
  IrPrimExpr *q0, *k0, *lq, *lk;    /* the span (Span): first rows, lengths */
  bool var_len;                     /* keys past lk are masked */
} Attn;

static IrPrimExpr **
index4(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b, IrPrimExpr *c, IrPrimExpr *d)
{
  IrPrimExpr **idx = ir_alloc(ctx, sizeof *idx * 4);
  idx[0] = a, idx[1] = b, idx[2] = c, idx[3] = d;
  return idx;
}

/* The mask's condition for key j, NULL when every key is allowed. */
static IrPrimExpr *
allowed_cond(OpPrim *p, const Attn *l, IrPrimExpr *j)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *cond = l->var_len ? ir_prim_bin(ctx, IR_PE_LT, j, l->lk) : NULL;
  if (!l->a.causal)
    return cond;
  IrPrimExpr *off = l->a.bottom_right ? ir_prim_bin(ctx, IR_PE_MAX, op_nn_sub(ctx, l->lq, l->lk),
                                                   op_nn_sub(ctx, l->lk, l->lq))
                                      : op_nn_index(ctx, 0);
  IrPrimExpr *last = op_nn_add(ctx, l->i, off);
  cond = op_nn_and(ctx, cond, ir_prim_bin(ctx, IR_PE_LE, j, last));
  if (l->a.window)
    cond = op_nn_and(ctx, cond,
                     ir_prim_bin(ctx, IR_PE_GE, j,
                                 op_nn_sub(ctx, last, op_nn_index(ctx, l->a.window - 1))));
  return cond;
}

/* bias at (b, h, i, j), each broadcast dim read at min(index, len - 1). */
static IrPrimExpr *
bias_at(OpPrim *p, const Attn *l, IrPrimExpr *j)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *at[3] = {l->bt, l->h, l->i};
  for (int d = 0; d < 3; d++) {
    int64_t n;
    IrPrimExpr *last = op_nn_sub(ctx, l->bias->shape[d], op_nn_index(ctx, 1));
    at[d] = ir_prim_is_int(last, &n) && n == 0 ? last : ir_prim_bin(ctx, IR_PE_MIN, at[d], last);
  }
  return op_nn_f64(ctx, op_prim_load(p, l->bias, index4(ctx, at[0], at[1], at[2], j)));
}

/* A loop over the keys whose body (returned slot) runs under the mask. */
static IrStmt *
key_loop(OpPrim *p, const Attn *l, IrPrimExpr **j, IrStmt ***body)
{
  IrStmt *loop;
  IrPrimExpr **vars;
  IrStmt **slot = op_prim_loop_nest(p, &l->k->shape[1], 1, &vars, &loop);
  *j = vars[0];
  IrPrimExpr *cond = allowed_cond(p, l, *j);
  if (cond) {
    IrStmt *branch = op_nn_if(p, cond, NULL);
    *slot = branch;
    *body = &branch->u.branch.then_;
  } else {
    *body = slot;
  }
  return loop;
}

/* Pass 1: row[j] = score, acc[0] = their max. */
static IrStmt *
score_pass(OpPrim *p, const Attn *l)
{
  IrCtx *ctx = p->lz->ctx;
  IrDType f64 = op_nn_f64_type();
  IrPrimExpr *j, **dv;
  IrStmt **body, *dloop;
  IrStmt *loop = key_loop(p, l, &j, &body);
  IrStmt **dslot = op_prim_loop_nest(p, &l->q->shape[3], 1, &dv, &dloop);
  IrPrimExpr *qi = op_nn_add(ctx, l->q0, l->i), *kj = op_nn_add(ctx, l->k0, j);
  IrPrimExpr *qv = op_nn_f64(ctx, op_prim_load(p, l->q, index4(ctx, l->bt, qi, l->h, dv[0])));
  IrPrimExpr *kv = op_nn_f64(ctx, op_prim_load(p, l->k, index4(ctx, l->bt, kj, l->hk, dv[0])));
  *dslot = op_prim_store_at(p, l->row, j,
                            ir_prim_bin(ctx, IR_PE_ADD, op_prim_load_at(p, l->row, j),
                                        ir_prim_bin(ctx, IR_PE_MUL, qv, kv)));
  IrPrimExpr *s = op_prim_load_at(p, l->row, j);
  if (isnan(l->a.scale))
    s = ir_prim_bin(ctx, IR_PE_DIV, s,
                    op_nn_intrinsic(ctx, f64, "tir.sqrt", op_nn_f64(ctx, l->q->shape[3])));
  else
    s = ir_prim_bin(ctx, IR_PE_MUL, s, op_nn_lit(ctx, f64, l->a.scale));
  if (l->bias)
    s = ir_prim_bin(ctx, IR_PE_ADD, s, bias_at(p, l, j));
  IrStmt *st[4] = {op_prim_store_at(p, l->row, j, op_nn_lit(ctx, f64, 0.0)), dloop,
                   op_prim_store_at(p, l->row, j, s),
                   op_nn_acc_fold(p, l->acc, 0, IR_PE_MAX, op_prim_load_at(p, l->row, j))};
  *body = op_nn_seq(p, st, 4);
  IrStmt *pass[2] = {op_nn_acc_set(p, l->acc, 0, op_nn_lit(ctx, f64, -INFINITY)), loop};
  return op_nn_seq(p, pass, 2);
}

/* Pass 2: row[j] = exp(row[j] - max), acc[1] = their sum. */
static IrStmt *
exp_pass(OpPrim *p, const Attn *l)
{
  IrCtx *ctx = p->lz->ctx;
  IrDType f64 = op_nn_f64_type();
  IrPrimExpr *j;
  IrStmt **body;
  IrStmt *loop = key_loop(p, l, &j, &body);
  IrPrimExpr *e = op_nn_intrinsic(
      ctx, f64, "tir.exp",
      ir_prim_bin(ctx, IR_PE_SUB, op_prim_load_at(p, l->row, j), op_nn_acc(p, l->acc, 0)));
  IrStmt *st[2] = {op_prim_store_at(p, l->row, j, e),
                   op_nn_acc_fold(p, l->acc, 1, IR_PE_ADD, op_prim_load_at(p, l->row, j))};
  *body = op_nn_seq(p, st, 2);
  IrStmt *pass[2] = {op_nn_acc_set(p, l->acc, 1, op_nn_lit(ctx, f64, 0.0)), loop};
  return op_nn_seq(p, pass, 2);
}

/* Pass 3: each output value sum_j row[j] v[j] / sum (0 when nothing is
 * allowed). */
static IrStmt *
value_pass(OpPrim *p, const Attn *l)
{
  IrCtx *ctx = p->lz->ctx;
  IrDType f64 = op_nn_f64_type();
  IrPrimExpr **e, *j;
  IrStmt *eloop, **body;
  IrStmt **eslot = op_prim_loop_nest(p, &l->v->shape[3], 1, &e, &eloop);
  IrStmt *loop = key_loop(p, l, &j, &body);
  IrPrimExpr *kj = op_nn_add(ctx, l->k0, j), *qi = op_nn_add(ctx, l->q0, l->i);
  IrPrimExpr *vv = op_nn_f64(ctx, op_prim_load(p, l->v, index4(ctx, l->bt, kj, l->hv, e[0])));
  *body = op_nn_acc_fold(p, l->acc, 2, IR_PE_ADD,
                         ir_prim_bin(ctx, IR_PE_MUL, op_prim_load_at(p, l->row, j), vv));
  IrPrimExpr *sum = op_nn_acc(p, l->acc, 1);
  IrPrimExpr *r = ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_GT, sum, op_nn_lit(ctx, f64, 0.0)),
                                 ir_prim_bin(ctx, IR_PE_DIV, op_nn_acc(p, l->acc, 2), sum),
                                 op_nn_lit(ctx, f64, 0.0));
  IrStmt *st[3] = {op_nn_acc_set(p, l->acc, 2, op_nn_lit(ctx, f64, 0.0)), loop,
                   op_prim_store(p, l->out, index4(ctx, l->bt, qi, l->h, e[0]),
                                 op_nn_to(ctx, l->out->dtype, r))};
  *eslot = op_nn_seq(p, st, 3);
  return eloop;
}

/* h / hk, at least 1 (so that a head count of 0 divides nothing). */
static IrPrimExpr *
heads_per(IrCtx *ctx, IrPrimExpr *h, IrPrimExpr *hk)
{
  int64_t a, b;
  if (ir_prim_is_int(h, &a) && ir_prim_is_int(hk, &b))
    return op_nn_index(ctx, b > 0 && a / b > 1 ? a / b : 1);
  return ir_prim_bin(ctx, IR_PE_MAX, op_nn_floordiv(ctx, h, hk), op_nn_index(ctx, 1));
}

/* Begins the prim_func: q, k, v (and bias) buffers, the output, the
 * scratch row and accumulators; false (aborted) when the call has no
 * known shapes or bad attributes. */
static bool
attn_begin(OpPrim *p, const OpSite *site, IrSInfo *result, Attn *l, bool biased, const char *name)
{
  l->q = op_prim_input(p, site->call->u.call.args[0], "q");
  l->k = op_prim_input(p, site->call->u.call.args[1], "k");
  l->v = op_prim_input(p, site->call->u.call.args[2], "v");
  l->bias = biased ? op_prim_input(p, site->call->u.call.args[3], "bias") : NULL;
  l->out = op_prim_output(p, result, ir_printf(p->lz->ctx, "T_%s", name));
  if (!l->q || !l->k || !l->v || (biased && !l->bias) || !l->out || l->q->ndim != 4 ||
      l->k->ndim != 4 || l->v->ndim != 4 || (l->bias && l->bias->ndim != 4) || l->out->ndim != 4 ||
      !attn_attrs(site, &l->a)) {
    op_prim_abort(p);
    return false;
  }
  /* op_prim_alloc maps its shape from Relax dims (op_prim_dim), whatever
   * tir_build.h says: give it key's Relax sequence length */
  l->row = op_prim_alloc(p, op_nn_f64_type(), &site->call->u.call.args[1]->sinfo->u.tensor.shape[1], 1,
                         "row");
  l->acc = op_nn_acc_new(p, 3);
  l->q0 = l->k0 = op_nn_index(p->lz->ctx, 0);
  l->lq = l->q->shape[1];
  l->lk = l->k->shape[1];
  return true;
}

/* The loops over batch, query and head (query extent: all the queries)
 * with the statements of one query in the returned slot; the key/value
 * heads of the query head are set in l. */
static IrStmt **
query_loops(OpPrim *p, Attn *l, IrStmt **nest)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **vars;
  IrPrimExpr *ext[3] = {l->q->shape[0], l->q->shape[1], l->q->shape[2]};
  IrStmt **slot = op_prim_loop_nest(p, ext, 3, &vars, nest);
  l->bt = vars[0], l->i = vars[1], l->h = vars[2];
  l->hk = op_nn_floordiv(ctx, l->h, heads_per(ctx, l->q->shape[2], l->k->shape[2]));
  l->hv = op_nn_floordiv(ctx, l->h, heads_per(ctx, l->q->shape[2], l->v->shape[2]));
  return slot;
}

/* The statements of one query: max and scores, sum and exponentials,
 * the output values. */
static IrStmt *
query_body(OpPrim *p, const Attn *l)
{
  IrStmt *st[3] = {score_pass(p, l), exp_pass(p, l), value_pass(p, l)};
  return op_nn_seq(p, st, 3);
}

IrExpr *
op_nn_legalize_attention(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  bool biased = s->call->u.call.nargs > 3;
  const char *name = biased ? "attention_bias" : "attention";
  Attn l = {0};
  OpPrim p;
  op_prim_begin(lz, &p, name);
  if (!attn_begin(&p, s, result, &l, biased, name))
    return NULL;
  IrStmt *nest;
  IrStmt **slot = query_loops(&p, &l, &nest);
  *slot = query_body(&p, &l);
  op_prim_emit(&p, nest);
  return op_prim_finish(&p, s->call, result);
}

/* seqstart[k] clamped into [lo, hi], as int64. */
static IrPrimExpr *
seqstart_at(OpPrim *p, IrBuffer *b, IrPrimExpr *k, IrPrimExpr *lo, IrPrimExpr *hi)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *v = op_nn_to(ctx, IR_I64, op_prim_load_at(p, b, k));
  return ir_prim_bin(ctx, IR_PE_MAX, ir_prim_bin(ctx, IR_PE_MIN, v, hi), lo);
}

/* attention_var_len: the output zeroed, then per sequence s the queries
 * i < lq of rows q0 + i, attending to keys k0 .. k0 + lk - 1, the bounds
 * read from seqstart_q/seqstart_k clamped into the tensors (invalid
 * starts, which the kernel refuses, never read or write out of bounds). */
IrExpr *
op_nn_legalize_attention_var_len(OpLegalize *lz, const OpSite *site, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  Attn l = {0};
  l.var_len = true;
  OpPrim p;
  op_prim_begin(lz, &p, "attention_var_len");
  if (!attn_begin(&p, site, result, &l, false, "attention_var_len"))
    return NULL;
  IrBuffer *sq = op_prim_input(&p, site->call->u.call.args[3], "seqstart_q");
  int ki = seqstart_k_index(site->call);
  IrBuffer *sk = ki > 0 ? op_prim_input(&p, site->call->u.call.args[ki], "seqstart_k") : sq;
  if (!sq || !sk || sq->ndim != 1 || sk->ndim != 1) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **zi, **sv, *zero = op_nn_index(ctx, 0), *one = op_nn_index(ctx, 1);
  IrStmt **zslot = op_prim_loops(&p, l.out->shape, 4, &zi);
  *zslot = op_prim_store(&p, l.out, zi, op_nn_lit(ctx, l.out->dtype, 0.0));
  IrPrimExpr *nseq[1] = {op_nn_sub(
      ctx, sk == sq ? sq->shape[0] : ir_prim_bin(ctx, IR_PE_MIN, sq->shape[0], sk->shape[0]), one)};
  IrStmt *seq_loop, *nest;
  IrStmt **seq_slot = op_prim_loop_nest(&p, nseq, 1, &sv, &seq_loop);
  IrPrimExpr *s = sv[0], *next = op_nn_add(ctx, s, one);
  l.q0 = seqstart_at(&p, sq, s, zero, l.q->shape[1]);
  l.k0 = seqstart_at(&p, sk, s, zero, l.k->shape[1]);
  l.lq = op_nn_sub(ctx, seqstart_at(&p, sq, next, l.q0, l.q->shape[1]), l.q0);
  l.lk = op_nn_sub(ctx, seqstart_at(&p, sk, next, l.k0, l.k->shape[1]), l.k0);
  IrStmt **slot = query_loops(&p, &l, &nest);
  *slot = op_nn_if(&p, ir_prim_bin(ctx, IR_PE_LT, l.i, l.lq), query_body(&p, &l));
  *seq_slot = nest;
  op_prim_emit(&p, seq_loop);
  return op_prim_finish(&p, site->call, result);
}
