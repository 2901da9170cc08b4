/*
 * norm.c - group_norm, instance_norm and rms_norm (their entries are in
 * nn.c's table, beside layer_norm): the inference of the two channel norms
 * (rms_norm's is layer_norm's, in nn.c), and for all three the reference
 * kernel and the lowering to a T.prim_func.
 *
 * Key idea: each norm computes statistics per group of elements and then
 * maps every element through them.  A group is a position of the dims
 * that are not normalized (the "axes"): instance_norm and rms_norm as
 * layer_norm, while group_norm also splits the channel axis into
 * num_groups runs of C / num_groups channels, the run being part of the
 * group and the channel within it a member.  The kernel numbers each
 * element's group; the lowering loops over the groups (outer) and their
 * members (inner), the channel axis of group_norm as two loops g, c with
 * channel g * (C / G) + c.  Both compute in double: mean, then the
 * variance as the mean of squared deviations (rms_norm: the mean of
 * squares), then (x - mean) * (1 / sqrt(var + epsilon)) * gamma + beta.
 * gamma and beta are indexed by channel (group_norm, instance_norm) or by
 * the member dims in dim order (rms_norm's weight, as layer_norm's gamma).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

/* What a call normalizes, for a data tensor of rank ndim. */
typedef struct {
  bool rms;          /* rms_norm: no mean, weight over the members */
  int ndim;
  bool member[64];   /* dims in axes (group_norm's channel is split) */
  int channel;       /* group_norm, instance_norm: the channel axis; else -1 */
  int64_t groups;    /* group_norm: num_groups; else 1 */
  bool split;        /* group_norm: the channel axis is split into groups */
  double epsilon;
  bool center, scale;
} NormSpec;

/* An axis in [0, ndim), or an error. */
static bool
axis_in(const OpSite *s, const char *what, int64_t axis, int ndim, int *out)
{
  if (axis < -(int64_t)ndim || axis >= ndim)
    return op_fail(s, "%s %lld is out of range for a tensor of rank %d", what, (long long)axis,
                   ndim);
  *out = (int)(axis < 0 ? axis + ndim : axis);
  return true;
}

/* Reads the call's attributes for data of rank ndim; false after an error
 * (an axis out of range or repeated, the channel among the axes, a number
 * of groups not positive). */
static bool
norm_spec(const OpSite *s, int ndim, NormSpec *n)
{
  IrOpId id = s->call->u.call.op->id;
  int64_t axes[64], channel = -1;
  int naxes;
  memset(n, 0, sizeof *n);
  n->rms = id == IR_OP_RMS_NORM;
  n->split = id == IR_OP_GROUP_NORM;
  n->ndim = ndim;
  n->channel = -1;
  n->groups = 1;
  if (ndim > 64)
    return op_fail(s, "tensors of more than 64 dimensions are not supported");
  if (!op_nn_attr_ints(s, "axes", axes, 64, &naxes) ||
      !op_nn_attr_float(s, "epsilon", 1e-5, &n->epsilon) ||
      !op_nn_attr_bool(s, "center", !n->rms, &n->center) ||
      !op_nn_attr_bool(s, "scale", true, &n->scale))
    return false;
  if (!n->rms && !op_nn_attr_int(s, "channel_axis", 1, &channel))
    return false;
  if (n->split && !op_nn_attr_int(s, "num_groups", 1, &n->groups))
    return false;
  if (n->groups <= 0)
    return op_fail(s, "num_groups must be positive, not %lld", (long long)n->groups);
  if (!n->rms && !axis_in(s, "channel_axis", channel, ndim, &n->channel))
    return false;
  for (int i = 0; i < naxes; i++) {
    int a;
    if (!axis_in(s, "axis", axes[i], ndim, &a))
      return false;
    if (n->member[a])
      return op_fail(s, "axis %d is repeated", a);
    if (a == n->channel)
      return op_fail(s, "channel_axis %d must not be among the axes", a);
    n->member[a] = true;
  }
  return true;
}

/* ------------------------------------------------------------------ */
/* Inference of group_norm and instance_norm                           */
/* ------------------------------------------------------------------ */

/* gamma or beta (argument i): rank 1, data's dtype, length C. */
static bool
check_channel_param(OpInfer *in, const IrExpr *call, IrSInfo *data, IrSInfo *p, int i,
                    const NormSpec *n)
{
  OpSite s = op_site_infer(in, call);
  const char *name = call->u.call.op->params[i].name;
  if (!p)
    return true;
  IrDType dt = op_nn_dtype(data), pt = op_nn_dtype(p);
  if (dt.code != IR_DT_VOID && pt.code != IR_DT_VOID && !ir_dtype_eq(dt, pt))
    return op_fail(&s, "%s has dtype %s, but data has dtype %s", name, op_nn_dtype_str(in->ctx, pt),
                   op_nn_dtype_str(in->ctx, dt));
  if (p->u.tensor.ndim >= 0 && p->u.tensor.ndim != 1)
    return op_fail(&s, "%s must have rank 1 (one value per channel), not %d", name,
                   p->u.tensor.ndim);
  IrPrimExpr **ds = op_nn_shape(data), **ps = op_nn_shape(p);
  if (!ds || !ps || n->channel < 0)
    return true;
  IrPrimExpr *c = ds[n->channel];
  IrProof eq = in->assume ? op_assume_equal(in, c, ps[0]) : op_prove_equal(in, c, ps[0]);
  if (eq == IR_PROVE_FALSE)
    return op_fail(&s, "%s has length %s, but data has %s channels", name,
                   op_nn_expr_str(in->ctx, ps[0]), op_nn_expr_str(in->ctx, c));
  return true;
}

/* group_norm's channel count must be a multiple of num_groups: an error
 * when provably not, a run-time check when undecided. */
static bool
check_groups(OpInfer *in, const IrExpr *call, IrSInfo *data, const NormSpec *n)
{
  IrPrimExpr **ds = op_nn_shape(data);
  if (!n->split || !ds)
    return true;
  IrPrimExpr *c = ds[n->channel];
  IrPrimExpr *rem = ir_prim_bin(in->ctx, IR_PE_FLOORMOD, c, op_nn_int(in->ctx, n->groups));
  IrProof zero = op_prove_equal(in, op_nn_simplify(in, rem), op_nn_int(in->ctx, 0));
  if (zero == IR_PROVE_FALSE) {
    OpSite s = op_site_infer(in, call);
    return op_fail(&s, "the channel count %s is not divisible by num_groups %lld",
                   op_nn_expr_str(in->ctx, c), (long long)n->groups);
  }
  if (zero == IR_PROVE_UNKNOWN)
    op_assume(in, ir_prim_bin(in->ctx, IR_PE_EQ, rem, op_nn_int(in->ctx, 0)));
  return true;
}

IrSInfo *
op_nn_infer_channel_norm(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *t[3];
  NormSpec n;
  for (int i = 0; i < 3; i++)
    if (!op_nn_tensor_arg(in, call, args, i, call->u.call.op->params[i].name, &t[i]))
      return NULL;
  if (!op_nn_require_float(in, call, op_nn_dtype(t[0])))
    return NULL;
  int ndim = op_nn_ndim(t[0]);
  if (ndim >= 0 && !norm_spec(&s, ndim, &n))
    return NULL;
  if (ndim < 0) {
    memset(&n, 0, sizeof n);
    n.channel = -1;
  }
  for (int i = 1; i < 3; i++)
    if (!check_channel_param(in, call, t[0], t[i], i, &n))
      return NULL;
  if (!check_groups(in, call, t[0], &n))
    return NULL;
  return t[0] ? t[0] : ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

/* For every element of x (row-major): its group (key) and the index of
 * its gamma/beta/weight value (param).  *ngroups gets the group count.
 * The arrays are malloc'd (NULL on failure). */
static void
number_elements(const IrTensorData *x, const NormSpec *n, int64_t *key, int64_t *param,
                int64_t *ngroups)
{
  int64_t idx[64] = {0}, total = op_numel(x);
  int64_t per = n->split ? x->shape[n->channel] / n->groups : 1;
  *ngroups = 1;
  for (int d = 0; d < x->ndim; d++)
    *ngroups *= n->member[d] ? 1 : d == n->channel && n->split ? n->groups : x->shape[d];
  for (int64_t e = 0; e < total; e++) {
    int64_t k = 0, p = 0;
    for (int d = 0; d < x->ndim; d++) {
      if (n->member[d]) {
        p = n->rms ? p * x->shape[d] + idx[d] : p;
        continue;
      }
      if (d == n->channel && n->split)
        k = k * n->groups + idx[d] / per;
      else
        k = k * x->shape[d] + idx[d];
    }
    key[e] = k;
    param[e] = n->rms ? p : idx[n->channel];
    for (int d = x->ndim - 1; d >= 0; d--) { /* odometer */
      if (++idx[d] < x->shape[d])
        break;
      idx[d] = 0;
    }
  }
}

/* Checks the parameter tensors' shapes against the data at run time. */
static bool
check_param_values(const OpSite *s, const IrTensorData *x, const IrTensorData **t, int nargs,
                   const NormSpec *n)
{
  for (int i = 1; i < nargs; i++) {
    const char *name = s->call->u.call.op->params[i].name;
    bool ok = true;
    if (n->rms) {
      int k = 0;
      for (int d = 0; d < x->ndim && ok; d++)
        if (n->member[d])
          ok = k < t[i]->ndim && t[i]->shape[k++] == x->shape[d];
      ok = ok && k == t[i]->ndim;
    } else {
      ok = t[i]->ndim == 1 && t[i]->shape[0] == x->shape[n->channel];
    }
    if (!ok)
      return op_fail(s, "%s does not match the data's normalized dims", name);
  }
  if (n->split && x->shape[n->channel] % n->groups != 0)
    return op_fail(s, "the channel count %lld is not divisible by num_groups %lld",
                   (long long)x->shape[n->channel], (long long)n->groups);
  return true;
}

/* Per group: sum[g] the mean (rms: of squares), then var[g] the variance. */
static void
group_stats(const IrTensorData *x, const NormSpec *n, const int64_t *key, int64_t ngroups,
            double *mean, double *var)
{
  int64_t total = op_numel(x);
  double count = ngroups ? (double)(total / ngroups) : 0;
  if (count < 1)
    count = 1;
  for (int64_t e = 0; e < total; e++) {
    double v = op_get_f(x, e);
    mean[key[e]] += n->rms ? v * v : v;
  }
  for (int64_t g = 0; g < ngroups; g++)
    mean[g] /= count;
  if (n->rms)
    return;
  for (int64_t e = 0; e < total; e++) {
    double d = op_get_f(x, e) - mean[key[e]];
    var[key[e]] += d * d;
  }
  for (int64_t g = 0; g < ngroups; g++)
    var[g] /= count;
}

Value *
op_nn_eval_norm(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  int nargs = call->u.call.op->id == IR_OP_RMS_NORM ? 2 : 3;
  const IrTensorData *t[3];
  NormSpec n;
  for (int i = 0; i < nargs; i++)
    if (!(t[i] = op_nn_tensor_value(&s, args, i, call->u.call.op->params[i].name)))
      return NULL;
  if (!norm_spec(&s, t[0]->ndim, &n) || !check_param_values(&s, t[0], t, nargs, &n))
    return NULL;
  Value *out = op_nn_tensor_new(&s, t[0]->dtype, t[0]->ndim, t[0]->shape);
  if (!out)
    return NULL;
  int64_t total = op_numel(t[0]), ngroups;
  size_t cells = (size_t)(total ? total : 1);
  int64_t *key = malloc(sizeof *key * cells), *param = malloc(sizeof *param * cells);
  double *mean = NULL, *var = NULL;
  if (key && param)
    number_elements(t[0], &n, key, param, &ngroups);
  if (key && param) {
    mean = calloc((size_t)(ngroups ? ngroups : 1), sizeof *mean);
    var = calloc((size_t)(ngroups ? ngroups : 1), sizeof *var);
  }
  if (!mean || !var) {
    free(key), free(param), free(mean), free(var);
    return op_fail_null(&s, "out of memory");
  }
  group_stats(t[0], &n, key, ngroups, mean, var);
  for (int64_t e = 0; e < total; e++) {
    double x = op_get_f(t[0], e), v;
    if (n.rms)
      v = x * (1.0 / sqrt(mean[key[e]] + n.epsilon));
    else
      v = (x - mean[key[e]]) * (1.0 / sqrt(var[key[e]] + n.epsilon));
    if (n.scale)
      v *= op_get_f(t[1], param[e]);
    if (n.center && !n.rms)
      v += op_get_f(t[2], param[e]);
    op_set_f(&out->u.tensor.t, e, v);
  }
  free(key), free(param), free(mean), free(var);
  return out;
}

/* ------------------------------------------------------------------ */
/* Lowering                                                            */
/* ------------------------------------------------------------------ */

typedef struct {
  NormSpec n;
  IrBuffer *x, *gamma, *beta, *out, *acc; /* acc: mean (rms: mean square), var */
  IrPrimExpr *per;                        /* group_norm: channels per group */
} NormLower;

/* The member loop nest of a group and x's index in it: group[d] holds the
 * group's loop vars (group_norm's channel dim: the group g).  *nest gets
 * the outermost loop; returns the slot of the body. */
static IrStmt **
member_nest(OpPrim *p, const NormLower *l, IrPrimExpr **group, IrPrimExpr ***at, IrStmt **nest)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *ext[65], **vars;
  int k = 0, ndim = l->n.ndim;
  for (int d = 0; d < ndim; d++) {
    if (l->n.member[d])
      ext[k++] = l->x->shape[d];
    else if (d == l->n.channel && l->n.split)
      ext[k++] = l->per;
  }
  IrStmt **slot = op_prim_loop_nest(p, ext, k, &vars, nest);
  *at = op_nn_index_copy(ctx, group, ndim);
  for (int d = 0, j = 0; d < ndim; d++) {
    if (l->n.member[d])
      (*at)[d] = vars[j++];
    else if (d == l->n.channel && l->n.split)
      (*at)[d] = op_nn_add(ctx, op_nn_mul(ctx, group[d], l->per), vars[j++]);
  }
  return slot;
}

/* The count of a group's members as float64, at least 1. */
static IrPrimExpr *
member_count(OpPrim *p, const NormLower *l)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *count = op_nn_index(ctx, 1);
  for (int d = 0; d < l->n.ndim; d++) {
    if (l->n.member[d])
      count = op_nn_mul(ctx, count, l->x->shape[d]);
    else if (d == l->n.channel && l->n.split)
      count = op_nn_mul(ctx, count, l->per);
  }
  return ir_prim_bin(ctx, IR_PE_MAX, op_nn_f64(ctx, count), op_nn_lit(ctx, op_nn_f64_type(), 1.0));
}

/* acc[k] = (sum over the group of term) / count: three statements. */
static void
group_mean(OpPrim *p, const NormLower *l, IrPrimExpr **group, int k, IrStmt **st)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **at;
  IrStmt *nest;
  IrStmt **slot = member_nest(p, l, group, &at, &nest);
  IrPrimExpr *v = op_nn_f64(ctx, op_prim_load(p, l->x, at));
  if (k != 0)
    op_nn_acc_variance(p, l->acc, k, nest, slot, v, member_count(p, l), st);
  else
    op_nn_acc_mean(p, l->acc, k, nest, slot, l->n.rms ? ir_prim_bin(ctx, IR_PE_MUL, v, v) : v,
                   member_count(p, l), st);
}

/* The index of gamma/beta/weight at x's index at. */
static IrPrimExpr **
param_at(OpPrim *p, const NormLower *l, IrPrimExpr **at)
{
  IrPrimExpr **idx = ir_alloc(p->lz->ctx, sizeof *idx * 64);
  int k = 0;
  if (!l->n.rms) {
    idx[0] = at[l->n.channel];
    return idx;
  }
  for (int d = 0; d < l->n.ndim; d++)
    if (l->n.member[d])
      idx[k++] = at[d];
  return idx;
}

/* The output pass of a group. */
static IrStmt *
normalize_group(OpPrim *p, const NormLower *l, IrPrimExpr **group)
{
  IrCtx *ctx = p->lz->ctx;
  IrDType f64 = op_nn_f64_type();
  IrPrimExpr **at;
  IrStmt *nest;
  IrStmt **slot = member_nest(p, l, group, &at, &nest);
  IrPrimExpr *spread = op_nn_acc(p, l->acc, l->n.rms ? 0 : 1);
  IrPrimExpr *inv = ir_prim_bin(
      ctx, IR_PE_DIV, op_nn_lit(ctx, f64, 1.0),
      op_nn_intrinsic(ctx, f64, "tir.sqrt",
                      ir_prim_bin(ctx, IR_PE_ADD, spread, op_nn_lit(ctx, f64, l->n.epsilon))));
  IrPrimExpr *v = op_nn_f64(ctx, op_prim_load(p, l->x, at));
  if (!l->n.rms)
    v = ir_prim_bin(ctx, IR_PE_SUB, v, op_nn_acc(p, l->acc, 0));
  v = ir_prim_bin(ctx, IR_PE_MUL, v, inv);
  IrPrimExpr **pi = param_at(p, l, at);
  if (l->n.scale)
    v = ir_prim_bin(ctx, IR_PE_MUL, v, op_nn_f64(ctx, op_prim_load(p, l->gamma, pi)));
  if (l->n.center && !l->n.rms)
    v = ir_prim_bin(ctx, IR_PE_ADD, v, op_nn_f64(ctx, op_prim_load(p, l->beta, pi)));
  *slot = op_prim_store(p, l->out, at, op_nn_to(ctx, l->out->dtype, v));
  return nest;
}

IrExpr *
op_nn_legalize_norm(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite site = op_site_legalize(lz, call);
  IrOpId id = call->u.call.op->id;
  const char *name = id == IR_OP_RMS_NORM    ? "rms_norm"
                     : id == IR_OP_GROUP_NORM ? "group_norm"
                                              : "instance_norm";
  NormLower l = {0};
  OpPrim p;
  op_prim_begin(lz, &p, name);
  l.x = op_prim_input(&p, call->u.call.args[0], "data");
  l.gamma = op_prim_input(&p, call->u.call.args[1], id == IR_OP_RMS_NORM ? "weight" : "gamma");
  l.beta = id == IR_OP_RMS_NORM ? NULL : op_prim_input(&p, call->u.call.args[2], "beta");
  l.out = op_prim_output(&p, result, ir_printf(lz->ctx, "T_%s", name));
  if (!l.x || !l.gamma || (id != IR_OP_RMS_NORM && !l.beta) || !l.out ||
      !norm_spec(&site, l.x->ndim, &l.n)) {
    op_prim_abort(&p);
    return NULL;
  }
  if (l.n.split)
    l.per = op_nn_floordiv(lz->ctx, l.x->shape[l.n.channel], op_nn_index(lz->ctx, l.n.groups));
  l.acc = op_nn_acc_new(&p, 2);
  /* the group loops: the kept dims, group_norm's channel dim over G */
  IrPrimExpr *ext[64], **vars, *group[64] = {NULL};
  int k = 0;
  for (int d = 0; d < l.n.ndim; d++)
    if (!l.n.member[d])
      ext[k++] = d == l.n.channel && l.n.split ? op_nn_index(lz->ctx, l.n.groups) : l.x->shape[d];
  IrStmt *nest, *st[7];
  IrStmt **slot = op_prim_loop_nest(&p, ext, k, &vars, &nest);
  for (int d = 0, j = 0; d < l.n.ndim; d++)
    if (!l.n.member[d])
      group[d] = vars[j++];
  int ns = 0;
  group_mean(&p, &l, group, 0, &st[ns]);
  ns += 3;
  if (!l.n.rms) {
    group_mean(&p, &l, group, 1, &st[ns]);
    ns += 3;
  }
  st[ns++] = normalize_group(&p, &l, group);
  *slot = op_nn_seq(&p, st, ns);
  op_prim_emit(&p, nest);
  return op_prim_finish(&p, call, result);
}
