/*
 * norm.c - the norms: layer_norm, batch_norm, group_norm, instance_norm
 * and rms_norm (their entries are in nn.c's table), each with its
 * inference, reference kernel and lowering to a T.prim_func.  rms_norm's
 * inference is layer_norm's; group_norm, instance_norm and rms_norm share
 * one kernel (below); layer_norm and batch_norm share theirs (after them:
 * the checks of TVM's NormCheckDtypeAndShape, the kernels); all five share
 * one lowering (last).
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
 * gamma and beta are indexed by channel (group_norm, instance_norm, and
 * batch_norm, whose groups are the channels of its axis) or by the member
 * dims in dim order (rms_norm's weight, as layer_norm's gamma).
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
  if (!n->rms && !op_nn_axis(s, "channel_axis", channel, ndim, &n->channel))
    return false;
  for (int i = 0; i < naxes; i++) {
    int a;
    if (!op_nn_axis(s, "axis", axes[i], ndim, &a))
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
check_channel_param(OpInfer *in, const OpSite *s, IrSInfo *data, IrSInfo *p, int i,
                    const NormSpec *n)
{
  const char *name = s->call->u.call.op->params[i].name;
  if (!p)
    return true;
  IrDType dt = op_nn_dtype(data), pt = op_nn_dtype(p);
  if (dt.code != IR_DT_VOID && pt.code != IR_DT_VOID && !ir_dtype_eq(dt, pt))
    return op_fail(s, "%s has dtype %s, but data has dtype %s", name, op_nn_dtype_str(in->ctx, pt),
                   op_nn_dtype_str(in->ctx, dt));
  if (p->u.tensor.ndim >= 0 && p->u.tensor.ndim != 1)
    return op_fail(s, "%s must have rank 1 (one value per channel), not %d", name,
                   p->u.tensor.ndim);
  IrPrimExpr **ds = op_nn_shape(data), **ps = op_nn_shape(p);
  if (!ds || !ps || n->channel < 0)
    return true;
  IrPrimExpr *c = ds[n->channel];
  IrProof eq = in->assume ? op_assume_equal(in, c, ps[0]) : op_prove_equal(in, c, ps[0]);
  if (eq == IR_PROVE_FALSE)
    return op_fail(s, "%s has length %s, but data has %s channels", name,
                   op_nn_expr_str(in->ctx, ps[0]), op_nn_expr_str(in->ctx, c));
  return true;
}

/* group_norm's channel count must be a multiple of num_groups: an error
 * when provably not, a run-time check when undecided. */
static bool
check_groups(OpInfer *in, const OpSite *s, IrSInfo *data, const NormSpec *n)
{
  IrPrimExpr **ds = op_nn_shape(data);
  if (!n->split || !ds)
    return true;
  IrPrimExpr *c = ds[n->channel];
  IrPrimExpr *rem = ir_prim_bin(in->ctx, IR_PE_FLOORMOD, c, op_nn_int(in->ctx, n->groups));
  IrProof zero = op_prove_equal(in, op_nn_simplify(in, rem), op_nn_int(in->ctx, 0));
  if (zero == IR_PROVE_FALSE) {
    return op_fail(s, "the channel count %s is not divisible by num_groups %lld",
                   op_nn_expr_str(in->ctx, c), (long long)n->groups);
  }
  if (zero == IR_PROVE_UNKNOWN)
    op_assume(in, ir_prim_bin(in->ctx, IR_PE_EQ, rem, op_nn_int(in->ctx, 0)));
  return true;
}

IrSInfo *
op_nn_infer_channel_norm(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *t[3];
  NormSpec n;
  for (int i = 0; i < 3; i++)
    if (!op_nn_tensor_arg(in, s, args, i, s->call->u.call.op->params[i].name, &t[i]))
      return NULL;
  if (!op_nn_require_float(in, s, op_nn_dtype(t[0])))
    return NULL;
  int ndim = op_nn_ndim(t[0]);
  if (ndim >= 0 && !norm_spec(s, ndim, &n))
    return NULL;
  if (ndim < 0) {
    memset(&n, 0, sizeof n);
    n.channel = -1;
  }
  for (int i = 1; i < 3; i++)
    if (!check_channel_param(in, s, t[0], t[i], i, &n))
      return NULL;
  if (!check_groups(in, s, t[0], &n))
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
op_nn_eval_norm(OpEval *ev, const OpSite *s, Value **args)
{
  int nargs = s->call->u.call.op->id == IR_OP_RMS_NORM ? 2 : 3;
  const IrTensorData *t[3];
  NormSpec n;
  for (int i = 0; i < nargs; i++)
    if (!(t[i] = op_nn_tensor_value(s, args, i, s->call->u.call.op->params[i].name)))
      return NULL;
  if (!norm_spec(s, t[0]->ndim, &n) || !check_param_values(s, t[0], t, nargs, &n))
    return NULL;
  Value *out = op_nn_tensor_new(s, t[0]->dtype, t[0]->ndim, t[0]->shape);
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
    return op_fail_null(s, "out of memory");
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
/* layer_norm, batch_norm: shared checks                               */
/* ------------------------------------------------------------------ */

/* Reads the normalized axes: layer_norm's "axes" list, batch_norm's
 * "axis"; at most 64. */
static bool
norm_axes(const OpSite *s, int64_t *axes, int *n)
{
  if (s->call->u.call.op->id == IR_OP_BATCH_NORM) {
    const IrAttr *a = op_attr(s->call, "axis");
    if (!a || a->kind == IR_AT_NONE)
      return op_fail(s, "attribute 'axis' is required");
    *n = 1;
    return op_nn_attr_int(s, "axis", 1, &axes[0]);
  }
  const IrAttr *a = op_attr(s->call, "axes");
  if (!a || a->kind == IR_AT_NONE)
    return op_fail(s, "attribute 'axes' is required");
  return op_nn_attr_ints(s, "axes", axes, 64, n);
}

/* Normalizes every axis and rejects repeats. */
static bool
normalize_axes(const OpSite *s, const int64_t *axes, int n, int ndim, int *out)
{
  for (int i = 0; i < n; i++) {
    if (!op_nn_axis(s, "axis", axes[i], ndim, &out[i]))
      return false;
    for (int j = 0; j < i; j++) {
      if (out[j] == out[i])
        return op_fail(s, "axis %d is repeated", out[i]);
    }
  }
  return true;
}

/* The name of a norm's argument i (data, gamma, beta, ...: its parameter's). */
static const char *
norm_arg_name(const IrExpr *call, int i)
{
  return call->u.call.op->params[i].name;
}

/* Compares one parameter tensor (gamma, beta, ...) with the data's dims at
 * the normalized axes.  Returns -1 after an error, 0 when some length is
 * undecided, 1 when all are proven equal or the shapes are unknown. */
static int
check_norm_param(OpInfer *in, const OpSite *s, IrSInfo *data, IrSInfo *p, int i, const int *axes,
                 int n)
{
  if (!p)
    return 1;
  if (p->u.tensor.dtype.code != IR_DT_VOID && op_nn_dtype(data).code != IR_DT_VOID &&
      !ir_dtype_eq(p->u.tensor.dtype, op_nn_dtype(data))) {
    op_report(s, "%s has dtype %s, but data has dtype %s", norm_arg_name(s->call, i),
              op_nn_dtype_str(in->ctx, p->u.tensor.dtype),
              op_nn_dtype_str(in->ctx, op_nn_dtype(data)));
    return -1;
  }
  if (p->u.tensor.ndim >= 0 && p->u.tensor.ndim != n) {
    op_report(s, "%s must have rank %d (one dim per normalized axis), not %d",
              norm_arg_name(s->call, i), n, p->u.tensor.ndim);
    return -1;
  }
  IrPrimExpr **ds = op_nn_shape(data), **ps = op_nn_shape(p);
  if (!ds || !ps || !axes)
    return 1;
  int result = 1;
  for (int d = 0; d < n; d++) {
    IrProof eq = in->assume ? op_assume_equal(in, ds[axes[d]], ps[d])
                             : op_prove_equal(in, ds[axes[d]], ps[d]);
    if (eq == IR_PROVE_FALSE) {
      op_report(s, "%s has length %s at dim %d, but data has %s on axis %d",
                norm_arg_name(s->call, i), op_nn_expr_str(in->ctx, ps[d]), d,
                op_nn_expr_str(in->ctx, ds[axes[d]]), axes[d]);
      return -1;
    }
    if (eq == IR_PROVE_UNKNOWN)
      result = 0;
  }
  return result;
}

/* The checks of TVM's NormCheckDtypeAndShape for nargs inputs; *decided
 * false when some length could not be proven equal. */
static bool
check_norm(OpInfer *in, const OpSite *s, IrSInfo **t, int nargs, bool *decided)
{
  int64_t axes[64];
  int naxes, norm[64];
  bool known_axes = t[0] && t[0]->u.tensor.ndim >= 0;
  *decided = true;
  if (!norm_axes(s, axes, &naxes))
    return false;
  if (known_axes && !normalize_axes(s, axes, naxes, t[0]->u.tensor.ndim, norm))
    return false;
  if (!op_nn_require_float(in, s, op_nn_dtype(t[0])))
    return false;
  for (int i = 1; i < nargs; i++) {
    int r = check_norm_param(in, s, t[0], t[i], i, known_axes ? norm : NULL, naxes);
    if (r < 0)
      return false;
    if (r == 0)
      *decided = false;
  }
  return true;
}

static bool
norm_tensor_args(OpInfer *in, const OpSite *s, IrSInfo **args, int nargs, IrSInfo **t)
{
  for (int i = 0; i < nargs; i++)
    if (!op_nn_tensor_arg(in, s, args, i, norm_arg_name(s->call, i), &t[i]))
      return false;
  return true;
}

/* layer_norm (data, gamma, beta) and rms_norm (data, weight): TVM's
 * NormCheckDtypeAndShape, data's struct info when every length is decided. */
IrSInfo *
op_nn_infer_layer_norm(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *t[3];
  bool decided;
  int nargs = s->call->u.call.op->id == IR_OP_RMS_NORM ? 2 : 3;
  if (!norm_tensor_args(in, s, args, nargs, t) || !check_norm(in, s, t, nargs, &decided))
    return NULL;
  if (t[0] && decided)
    return t[0];
  return ir_sinfo_tensor(in->ctx, NULL, op_nn_ndim(t[0]), op_nn_dtype(t[0]), op_nn_vdevice(t[0]));
}

IrSInfo *
op_nn_infer_batch_norm(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *t[5], **fields = ir_alloc(in->ctx, sizeof(IrSInfo *) * 3);
  bool decided;
  if (!norm_tensor_args(in, s, args, 5, t) || !check_norm(in, s, t, 5, &decided))
    return NULL;
  if (t[0] && t[3] && t[4] && decided) {
    fields[0] = t[0];
    fields[1] = t[3];
    fields[2] = t[4];
  } else {
    IrDType dt = op_nn_dtype(t[0]);
    int vdev = op_nn_vdevice(t[0]);
    fields[0] = ir_sinfo_tensor(in->ctx, NULL, op_nn_ndim(t[0]), dt, vdev);
    fields[1] = ir_sinfo_tensor(in->ctx, NULL, 1, dt, vdev);
    fields[2] = ir_sinfo_tensor(in->ctx, NULL, 1, dt, vdev);
  }
  return ir_sinfo_tuple(in->ctx, fields, 3);
}

/* ------------------------------------------------------------------ */
/* layer_norm, batch_norm: kernels                                     */
/* ------------------------------------------------------------------ */

typedef struct {
  double epsilon;
  bool center, scale;
} NormFlags;

static bool
norm_flags(const OpSite *s, NormFlags *f)
{
  return op_nn_attr_float(s, "epsilon", 1e-5, &f->epsilon) &&
         op_nn_attr_bool(s, "center", true, &f->center) &&
         op_nn_attr_bool(s, "scale", true, &f->scale);
}

/* Checks a parameter value against the data's dims at the sorted
 * normalized axes (its element r pairs with inner position r). */
static bool
check_param_value(const OpSite *s, const IrTensorData *x, const IrTensorData *p, const bool *reduce,
                  const char *what)
{
  int k = 0;
  for (int d = 0; d < x->ndim; d++) {
    if (!reduce[d])
      continue;
    if (k >= p->ndim || p->shape[k] != x->shape[d])
      return op_fail(s, "%s does not match the data's normalized dims", what);
    k++;
  }
  if (k != p->ndim)
    return op_fail(s, "%s does not match the data's normalized dims", what);
  return true;
}

/* Reads the data and parameter tensors of a norm and marks the normalized
 * dims in reduce (layer_norm: the axes; batch_norm: the axis). */
static bool
norm_values(const OpSite *s, Value **args, int nargs, const IrTensorData **t, bool *reduce)
{
  int64_t axes[64];
  int naxes, norm[64];
  for (int i = 0; i < nargs; i++)
    if (!(t[i] = op_nn_tensor_value(s, args, i, norm_arg_name(s->call, i))))
      return false;
  if (t[0]->ndim > 64)
    return op_fail(s, "tensors of more than 64 dimensions are not supported");
  if (!norm_axes(s, axes, &naxes) || !normalize_axes(s, axes, naxes, t[0]->ndim, norm))
    return false;
  memset(reduce, 0, sizeof(bool) * 64);
  for (int i = 0; i < naxes; i++)
    reduce[norm[i]] = true;
  for (int i = 1; i < nargs; i++)
    if (!check_param_value(s, t[0], t[i], reduce, norm_arg_name(s->call, i)))
      return false;
  return true;
}

/* Population mean and variance of x over the positions base + inner[r]. */
static void
moments(const IrTensorData *x, int64_t base, const int64_t *inner, int64_t n, double *mean,
        double *var)
{
  double sum = 0, sq = 0;
  for (int64_t r = 0; r < n; r++)
    sum += op_get_f(x, base + inner[r]);
  *mean = n ? sum / (double)n : 0;
  for (int64_t r = 0; r < n; r++) {
    double d = op_get_f(x, base + inner[r]) - *mean;
    sq += d * d;
  }
  *var = n ? sq / (double)n : 0;
}

/* Stores the normalized x[base + at[r]] for r < n into out: (x - mean) *
 * (1 / sqrt(var + epsilon)), times gamma, plus beta, both read at param
 * (at r when param is -1: layer_norm's one value per member). */
static void
normalize_run(const IrTensorData **t, const NormFlags *f, IrTensorData *out, int64_t base,
              const int64_t *at, int64_t n, double mean, double var, int64_t param)
{
  double inv = 1.0 / sqrt(var + f->epsilon);
  for (int64_t r = 0; r < n; r++) {
    int64_t pi = param < 0 ? r : param;
    double v = (op_get_f(t[0], base + at[r]) - mean) * inv;
    if (f->scale)
      v *= op_get_f(t[1], pi);
    if (f->center)
      v += op_get_f(t[2], pi);
    op_set_f(out, base + at[r], v);
  }
}

Value *
op_nn_eval_layer_norm(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *t[3];
  bool reduce[64];
  NormFlags f;
  int64_t *outer, *inner, nouter, ninner;
  if (!norm_values(s, args, 3, t, reduce) || !norm_flags(s, &f))
    return NULL;
  Value *out = op_nn_tensor_new(s, t[0]->dtype, t[0]->ndim, t[0]->shape);
  if (!out || !op_nn_split_offsets(s, t[0], reduce, &outer, &nouter, &inner, &ninner))
    return NULL;
  for (int64_t o = 0; o < nouter; o++) {
    double mean, var;
    moments(t[0], outer[o], inner, ninner, &mean, &var);
    normalize_run(t, &f, &out->u.tensor.t, outer[o], inner, ninner, mean, var, -1);
  }
  free(outer);
  free(inner);
  return out;
}

/* The statistics batch_norm normalizes channel c with: the moving ones at
 * inference; with training, the batch's own (all dims but the axis), and
 * the moving ones updated by momentum, as TVM's topi.nn.batch_norm. */
static void
channel_stats(const IrTensorData **t, int64_t c, int64_t channel_offset, const int64_t *outer,
              int64_t nouter, bool training, double *mean, double *var)
{
  if (!training) {
    *mean = op_get_f(t[3], c);
    *var = op_get_f(t[4], c);
    return;
  }
  /* outer enumerates every position but the channel's: the batch moments */
  moments(t[0], channel_offset, outer, nouter, mean, var);
}

Value *
op_nn_eval_batch_norm(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *t[5];
  bool reduce[64], training;
  NormFlags f;
  double momentum;
  int64_t *outer, *inner, nouter, ninner;
  if (!norm_values(s, args, 5, t, reduce) || !norm_flags(s, &f) ||
      !op_nn_attr_bool(s, "training", true, &training) ||
      !op_nn_attr_float(s, "momentum", 0.1, &momentum))
    return NULL;
  Value *out = op_nn_tensor_new(s, t[0]->dtype, t[0]->ndim, t[0]->shape);
  Value *mm = op_nn_tensor_new(s, t[3]->dtype, t[3]->ndim, t[3]->shape);
  Value *mv = op_nn_tensor_new(s, t[4]->dtype, t[4]->ndim, t[4]->shape);
  if (!out || !mm || !mv ||
      !op_nn_split_offsets(s, t[0], reduce, &outer, &nouter, &inner, &ninner))
    return NULL;
  /* inner enumerates the channel axis, outer everything else */
  for (int64_t c = 0; c < ninner; c++) {
    double mean, var;
    channel_stats(t, c, inner[c], outer, nouter, training, &mean, &var);
    normalize_run(t, &f, &out->u.tensor.t, inner[c], outer, nouter, mean, var, c);
    double m0 = op_get_f(t[3], c), v0 = op_get_f(t[4], c);
    op_set_f(&mm->u.tensor.t, c, training ? (1 - momentum) * m0 + momentum * mean : m0);
    op_set_f(&mv->u.tensor.t, c, training ? (1 - momentum) * v0 + momentum * var : v0);
  }
  free(outer);
  free(inner);
  Value *items[3] = {out, mm, mv};
  return op_tuple_new(ev->ctx, items, 3);
}

/* ------------------------------------------------------------------ */
/* Lowering (every norm)                                               */
/* ------------------------------------------------------------------ */

/* A norm as its lowering sees it: the groups and members of NormSpec
 * (layer_norm: the axes are the members, the channel -1; batch_norm: all
 * dims but its axis, which is the channel), and batch_norm's moving
 * statistics. */
typedef struct {
  NormSpec n;
  IrBuffer *x, *gamma, *beta, *out, *acc; /* acc: mean (rms: mean square), var */
  IrPrimExpr *per;                        /* group_norm: channels per group */
  bool batch, training;                   /* batch_norm, and its training attribute */
  double momentum;                        /* batch_norm */
  IrBuffer *mean_in, *var_in, *mean_out, *var_out; /* batch_norm */
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

/* The count of a group's members as float64, at least 1 (the kernels'
 * moments are 0 for an empty group). */
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

/* The index of gamma/beta/weight at x's index at: its channel (batch_norm,
 * group_norm, instance_norm), else its member dims in dim order
 * (layer_norm, rms_norm). */
static IrPrimExpr **
param_at(OpPrim *p, const NormLower *l, IrPrimExpr **at)
{
  IrPrimExpr **idx = ir_alloc(p->lz->ctx, sizeof *idx * 64);
  int k = 0;
  if (l->n.channel >= 0) {
    idx[0] = at[l->n.channel];
    return idx;
  }
  for (int d = 0; d < l->n.ndim; d++)
    if (l->n.member[d])
      idx[k++] = at[d];
  return idx;
}

/* The output pass of a group: out = (x - mean) * (1 / sqrt(var + eps)) *
 * gamma + beta (rms_norm: x * (1 / sqrt(mean square + eps)) * weight). */
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

/* batch_norm's moving statistic k (0 mean, 1 var) of channel c: kept at
 * inference, moved toward the batch's with training. */
static IrStmt *
moving_stat(OpPrim *p, const NormLower *l, IrPrimExpr **c, int k)
{
  IrCtx *ctx = p->lz->ctx;
  IrDType f64 = op_nn_f64_type();
  IrBuffer *in = k ? l->var_in : l->mean_in, *out = k ? l->var_out : l->mean_out;
  IrPrimExpr *old = op_nn_load64(p, in, c), *v = old;
  if (l->training)
    v = ir_prim_bin(
        ctx, IR_PE_ADD, ir_prim_bin(ctx, IR_PE_MUL, op_nn_lit(ctx, f64, 1 - l->momentum), old),
        ir_prim_bin(ctx, IR_PE_MUL, op_nn_lit(ctx, f64, l->momentum), op_nn_acc(p, l->acc, k)));
  return op_prim_store(p, out, c, op_nn_to(ctx, out->dtype, v));
}

/* The statements of one group: its statistics (batch_norm at inference:
 * the moving ones), the output pass, and batch_norm's moving statistics. */
static IrStmt *
norm_group(OpPrim *p, const NormLower *l, IrPrimExpr **group)
{
  IrStmt *st[9];
  int k = 0;
  IrPrimExpr **c = l->batch ? param_at(p, l, group) : NULL;
  if (l->batch && !l->training) {
    st[k++] = op_nn_acc_set(p, l->acc, 0, op_nn_load64(p, l->mean_in, c));
    st[k++] = op_nn_acc_set(p, l->acc, 1, op_nn_load64(p, l->var_in, c));
  } else {
    group_mean(p, l, group, 0, &st[k]);
    k += 3;
    if (!l->n.rms) {
      group_mean(p, l, group, 1, &st[k]);
      k += 3;
    }
  }
  st[k++] = normalize_group(p, l, group);
  if (l->batch) {
    st[k++] = moving_stat(p, l, c, 0);
    st[k++] = moving_stat(p, l, c, 1);
  }
  return op_nn_seq(p, st, k);
}

/* The rest of every norm's lowering once its buffers and NormSpec are
 * read: the group loops (the kept dims, group_norm's channel dim over
 * num_groups) around each group's statements. */
static IrExpr *
lower_groups(OpPrim *p, NormLower *l, const OpSite *site, IrSInfo *result)
{
  IrCtx *ctx = p->lz->ctx;
  if (l->n.split)
    l->per = op_nn_floordiv(ctx, l->x->shape[l->n.channel], op_nn_index(ctx, l->n.groups));
  l->acc = op_nn_acc_new(p, 2);
  IrPrimExpr *ext[64], **vars, *group[64] = {NULL};
  int k = 0;
  for (int d = 0; d < l->n.ndim; d++)
    if (!l->n.member[d])
      ext[k++] = d == l->n.channel && l->n.split ? op_nn_index(ctx, l->n.groups) : l->x->shape[d];
  IrStmt *nest;
  IrStmt **slot = op_prim_loop_nest(p, ext, k, &vars, &nest);
  for (int d = 0, j = 0; d < l->n.ndim; d++)
    if (!l->n.member[d])
      group[d] = vars[j++];
  *slot = norm_group(p, l, group);
  op_prim_emit(p, nest);
  return op_prim_finish(p, site->call, result);
}

/* group_norm, instance_norm, rms_norm */
IrExpr *
op_nn_legalize_norm(OpLegalize *lz, const OpSite *site, IrSInfo *result)
{
  IrOpId id = site->call->u.call.op->id;
  const char *name = id == IR_OP_RMS_NORM    ? "rms_norm"
                     : id == IR_OP_GROUP_NORM ? "group_norm"
                                              : "instance_norm";
  NormLower l = {0};
  OpPrim p;
  op_prim_begin(lz, &p, name);
  l.x = op_prim_input(&p, site->call->u.call.args[0], "data");
  l.gamma = op_prim_input(&p, site->call->u.call.args[1], id == IR_OP_RMS_NORM ? "weight" : "gamma");
  l.beta = id == IR_OP_RMS_NORM ? NULL : op_prim_input(&p, site->call->u.call.args[2], "beta");
  l.out = op_prim_output(&p, result, ir_printf(lz->ctx, "T_%s", name));
  if (!l.x || !l.gamma || (id != IR_OP_RMS_NORM && !l.beta) || !l.out ||
      !norm_spec(site, l.x->ndim, &l.n)) {
    op_prim_abort(&p);
    return NULL;
  }
  return lower_groups(&p, &l, site, result);
}

/* Reads layer_norm's or batch_norm's attributes into l (the members:
 * layer_norm's axes, or every dim but batch_norm's axis, its channel);
 * false when the call is not one the kernel accepts (inference has
 * reported why). */
static bool
norm_attrs(const OpSite *s, NormLower *l)
{
  int64_t axes[64];
  int naxes = 1, ndim = l->x->ndim;
  NormSpec *n = &l->n;
  bool ok = op_nn_attr_float(s, "epsilon", 1e-5, &n->epsilon) &&
            op_nn_attr_bool(s, "center", true, &n->center) &&
            op_nn_attr_bool(s, "scale", true, &n->scale) &&
            op_nn_attr_bool(s, "training", true, &l->training) &&
            op_nn_attr_float(s, "momentum", 0.1, &l->momentum) &&
            (l->batch ? op_nn_attr_int(s, "axis", 1, &axes[0])
                      : op_nn_attr_ints(s, "axes", axes, 64, &naxes));
  if (!ok || ndim > 64)
    return false;
  n->ndim = ndim;
  n->groups = 1;
  for (int d = 0; d < 64; d++)
    n->member[d] = l->batch;
  for (int i = 0; i < naxes; i++) {
    int a = op_nn_axis_of(axes[i], ndim);
    if (a < 0 || n->member[a] != l->batch)
      return false;
    n->member[a] = !l->batch;
  }
  n->channel = l->batch ? op_nn_axis_of(axes[0], ndim) : -1;
  return true;
}

/* layer_norm, batch_norm */
static IrExpr *
legalize_norm(OpLegalize *lz, const OpSite *site, IrSInfo *result, bool batch)
{
  NormLower l = {0};
  l.batch = batch;
  OpPrim p;
  op_prim_begin(lz, &p, batch ? "batch_norm" : "layer_norm");
  l.x = op_nn_input(&p, site->call, 0, "data");
  l.gamma = op_nn_input(&p, site->call, 1, "gamma");
  l.beta = op_nn_input(&p, site->call, 2, "beta");
  if (batch) {
    l.mean_in = op_nn_input(&p, site->call, 3, "moving_mean");
    l.var_in = op_nn_input(&p, site->call, 4, "moving_var");
    bool tuple = result->kind == IR_SI_TUPLE && result->u.tuple.n == 3;
    l.out = tuple ? op_prim_output(&p, result->u.tuple.fields[0], "T_batch_norm") : NULL;
    l.mean_out = tuple ? op_prim_output(&p, result->u.tuple.fields[1], "T_moving_mean") : NULL;
    l.var_out = tuple ? op_prim_output(&p, result->u.tuple.fields[2], "T_moving_var") : NULL;
    if (!l.mean_in || !l.var_in || !l.mean_out || !l.var_out)
      return op_prim_give_up(&p);
  } else {
    l.out = op_prim_output(&p, result, "T_layer_norm");
  }
  if (!l.x || !l.gamma || !l.beta || !l.out || !norm_attrs(site, &l))
    return op_prim_give_up(&p);
  return lower_groups(&p, &l, site, result);
}

IrExpr *
op_nn_legalize_layer_norm(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  return legalize_norm(lz, s, result, false);
}

IrExpr *
op_nn_legalize_batch_norm(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  return legalize_norm(lz, s, result, true);
}
