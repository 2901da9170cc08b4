/*
 * nn.c - neural-network ops without a spatial window: the activations
 * (relu, leakyrelu, gelu, gelu_tanh, silu, selu, softplus), prelu,
 * softmax, log_softmax, layer_norm, rms_norm, batch_norm, dropout.  This
 * file's table also holds the entries of the convolutions and the pools
 * (hooks in conv.c), group_norm and instance_norm (norm.c, with rms_norm's
 * kernel and lowering), the attention ops (attention.c) and the losses
 * (loss.c).
 *
 * Inference follows TVM's (src/relax/op/nn/nn.cc): activations keep their
 * input's struct info; the norms check dtypes and that gamma/beta/... have
 * the lengths of the normalized axes (an error when provably not, a result
 * of known rank only when undecided); batch_norm gives (out, moving_mean,
 * moving_var) and dropout (out, mask), as TVM does.
 * Kernels accumulate in double; softmax subtracts the row's max first.
 * Their lowerings to T.prim_funcs (LegalizeOps) are in nn_legalize.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

/* ------------------------------------------------------------------ */
/* Activations                                                         */
/* ------------------------------------------------------------------ */

/* Each activation entry's NnActivation (op_nn_int.h) holds its kernel and its
 * f in TIR; these hooks serve them all.  An activation without an integer
 * kernel wants floats. */
static const NnActivation *
activation_of(const IrExpr *call)
{
  return op_of(call->u.call.op)->data;
}

/* The activation's numeric attributes: its parameters after data, in
 * order, each read as a number or its default text. */
void
op_nn_activation_params(const IrExpr *call, double *p)
{
  const IrOpDef *op = call->u.call.op;
  for (int k = 1, n = 0; k < op->nparams && n < OP_NN_ACT_PARAMS; k++, n++) {
    const IrAttr *a = op_attr(call, op->params[k].name);
    p[n] = a && a->kind == IR_AT_FLOAT ? a->u.f
           : a && a->kind == IR_AT_INT ? (double)a->u.i
                                       : strtod(op->params[k].fallback, NULL);
  }
}

static IrSInfo *
infer_activation(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  const IrOpDef *op = call->u.call.op;
  IrSInfo *x;
  double v;
  if (!op_nn_tensor_arg(in, call, args, 0, "data", &x))
    return NULL;
  for (int k = 1; k < op->nparams; k++)
    if (!op_nn_attr_float(&s, op->params[k].name, 0, &v))
      return NULL;
  if (!activation_of(call)->kernel_int && !op_nn_require_float(in, call, op_nn_dtype(x)))
    return NULL;
  return x ? x : ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
}

static Value *
eval_activation(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  const NnActivation *act = activation_of(call);
  const IrTensorData *x = op_nn_tensor_value(&s, args, 0, "data");
  if (!x)
    return NULL;
  Value *out = op_nn_tensor_new(&s, x->dtype, x->ndim, x->shape);
  if (!out)
    return NULL;
  IrTensorData *o = &out->u.tensor.t;
  bool is_float = ir_dtype_is_float(x->dtype);
  double params[OP_NN_ACT_PARAMS];
  op_nn_activation_params(call, params);
  for (int64_t i = 0, n = op_numel(x); i < n; i++) {
    if (act->kernel_int && !is_float)
      op_set_i(o, i, act->kernel_int(op_get_i(x, i)));
    else
      op_set_f(o, i, act->kernel(op_get_f(x, i), params));
  }
  return out;
}

/* relu keeps any dtype (as TVM): max(x, 0) in x's dtype. */
static double
relu(double x, const double *p)
{
  return x > 0 ? x : 0.0;
}

static int64_t
relu_int(int64_t x)
{
  return x > 0 ? x : 0;
}

static IrPrimExpr *
relu_lower(IrCtx *ctx, IrDType t, IrPrimExpr *x, const double *p)
{
  return ir_prim_bin(ctx, IR_PE_MAX, x, op_nn_lit(ctx, t, 0));
}

/* leakyrelu: x where x >= 0, alpha * x elsewhere (floats only, as TVM);
 * the product in float64 in TIR too, rounded once */
static double
leakyrelu(double x, const double *p)
{
  return x >= 0 ? x : p[0] * x;
}

static IrPrimExpr *
leakyrelu_lower(IrCtx *ctx, IrDType t, IrPrimExpr *x, const double *p)
{
  IrPrimExpr *scaled =
      ir_prim_bin(ctx, IR_PE_MUL, op_nn_lit(ctx, op_nn_f64_type(), p[0]), op_nn_f64(ctx, x));
  return ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_GE, x, op_nn_lit(ctx, t, 0)), x,
                        op_nn_to(ctx, t, scaled));
}

/* gelu: 0.5 x (1 + erf(x / sqrt 2)), in float64 in TIR too */
static double
gelu(double x, const double *p)
{
  return 0.5 * x * (1.0 + erf(x / sqrt(2.0)));
}

static IrPrimExpr *
gelu_lower(IrCtx *ctx, IrDType t, IrPrimExpr *x, const double *p)
{
  IrDType f64 = op_nn_f64_type();
  IrPrimExpr *v = op_nn_f64(ctx, x), *one = op_nn_lit(ctx, f64, 1.0);
  IrPrimExpr *scaled = ir_prim_bin(ctx, IR_PE_DIV, v, op_nn_lit(ctx, f64, sqrt(2.0)));
  IrPrimExpr *half_x = ir_prim_bin(ctx, IR_PE_MUL, op_nn_lit(ctx, f64, 0.5), v);
  IrPrimExpr *r =
      ir_prim_bin(ctx, IR_PE_MUL, half_x,
                  ir_prim_bin(ctx, IR_PE_ADD, one, op_nn_intrinsic(ctx, f64, "tir.erf", scaled)));
  return op_nn_to(ctx, t, r);
}

/* silu: x / (1 + exp(-x)), in float64 in TIR too */
static double
silu(double x, const double *p)
{
  return x / (1.0 + exp(-x));
}

static IrPrimExpr *
silu_lower(IrCtx *ctx, IrDType t, IrPrimExpr *x, const double *p)
{
  IrDType f64 = op_nn_f64_type();
  IrPrimExpr *v = op_nn_f64(ctx, x), *one = op_nn_lit(ctx, f64, 1.0);
  IrPrimExpr *neg = ir_prim_bin(ctx, IR_PE_SUB, op_nn_lit(ctx, f64, 0.0), v);
  IrPrimExpr *r =
      ir_prim_bin(ctx, IR_PE_DIV, v,
                  ir_prim_bin(ctx, IR_PE_ADD, one, op_nn_intrinsic(ctx, f64, "tir.exp", neg)));
  return op_nn_to(ctx, t, r);
}

#define SQRT_2_OVER_PI 0.79788456080286535588 /* sqrt(2 / pi) */

/* gelu_tanh: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), in
 * float64 in TIR too */
static double
gelu_tanh(double x, const double *p)
{
  return 0.5 * x * (1.0 + tanh(SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)));
}

static IrPrimExpr *
gelu_tanh_lower(IrCtx *ctx, IrDType t, IrPrimExpr *x, const double *p)
{
  IrDType f64 = op_nn_f64_type();
  IrPrimExpr *v = op_nn_f64(ctx, x);
  IrPrimExpr *cube = ir_prim_bin(ctx, IR_PE_MUL, ir_prim_bin(ctx, IR_PE_MUL, v, v), v);
  IrPrimExpr *inner = ir_prim_bin(ctx, IR_PE_ADD, v,
                                  ir_prim_bin(ctx, IR_PE_MUL, op_nn_lit(ctx, f64, 0.044715), cube));
  IrPrimExpr *th = op_nn_intrinsic(
      ctx, f64, "tir.tanh",
      ir_prim_bin(ctx, IR_PE_MUL, op_nn_lit(ctx, f64, SQRT_2_OVER_PI), inner));
  IrPrimExpr *half_x = ir_prim_bin(ctx, IR_PE_MUL, op_nn_lit(ctx, f64, 0.5), v);
  IrPrimExpr *r =
      ir_prim_bin(ctx, IR_PE_MUL, half_x, ir_prim_bin(ctx, IR_PE_ADD, op_nn_lit(ctx, f64, 1.0), th));
  return op_nn_to(ctx, t, r);
}

/* selu: scale x for x > 0, scale alpha (e^x - 1) elsewhere, with TVM's
 * constants; expm1 keeps e^x - 1 exact near 0.  In float64 in TIR too. */
#define SELU_ALPHA 1.6732632423543772848170429916717
#define SELU_SCALE 1.0507009873554804934193349852946

static double
selu(double x, const double *p)
{
  return SELU_SCALE * (x > 0 ? x : SELU_ALPHA * expm1(x));
}

static IrPrimExpr *
selu_lower(IrCtx *ctx, IrDType t, IrPrimExpr *x, const double *p)
{
  IrDType f64 = op_nn_f64_type();
  IrPrimExpr *v = op_nn_f64(ctx, x);
  IrPrimExpr *neg = ir_prim_bin(ctx, IR_PE_MUL, op_nn_lit(ctx, f64, SELU_ALPHA),
                                op_nn_intrinsic(ctx, f64, "tir.expm1", v));
  IrPrimExpr *r = ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_GT, v, op_nn_lit(ctx, f64, 0.0)), v, neg);
  return op_nn_to(ctx, t, ir_prim_bin(ctx, IR_PE_MUL, op_nn_lit(ctx, f64, SELU_SCALE), r));
}

/* softplus: log(1 + e^(beta x)) / beta, and x itself where beta x passes
 * threshold (as TVM's topi.nn.softplus); log1p keeps the small values of
 * very negative x, which 1 + e^(beta x) would round to 1.  In float64 in
 * TIR too. */
static double
softplus(double x, const double *p)
{
  double beta = p[0], threshold = p[1];
  return beta * x > threshold ? x : log1p(exp(beta * x)) / beta;
}

static IrPrimExpr *
softplus_lower(IrCtx *ctx, IrDType t, IrPrimExpr *x, const double *p)
{
  IrDType f64 = op_nn_f64_type();
  IrPrimExpr *v = op_nn_f64(ctx, x);
  IrPrimExpr *bx = ir_prim_bin(ctx, IR_PE_MUL, op_nn_lit(ctx, f64, p[0]), v);
  IrPrimExpr *smooth =
      ir_prim_bin(ctx, IR_PE_DIV,
                  op_nn_intrinsic(ctx, f64, "tir.log1p", op_nn_intrinsic(ctx, f64, "tir.exp", bx)),
                  op_nn_lit(ctx, f64, p[0]));
  IrPrimExpr *r =
      ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_GT, bx, op_nn_lit(ctx, f64, p[1])), v, smooth);
  return op_nn_to(ctx, t, r);
}

/* ------------------------------------------------------------------ */
/* softmax, log_softmax                                                */
/* ------------------------------------------------------------------ */

/* Normalizes axis for rank ndim; false after an error when out of range. */
static bool
normalize_axis(const OpSite *s, int64_t axis, int ndim, int *out)
{
  if (axis < -(int64_t)ndim || axis >= ndim)
    return op_fail(s, "axis %lld is out of range for a tensor of rank %d", (long long)axis, ndim);
  *out = (int)(axis < 0 ? axis + ndim : axis);
  return true;
}

static IrSInfo *
infer_softmax(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x;
  int64_t axis;
  int norm;
  if (!op_nn_tensor_arg(in, call, args, 0, "data", &x) || !op_nn_attr_int(&s, "axis", -1, &axis))
    return NULL;
  if (!op_nn_require_float(in, call, op_nn_dtype(x)))
    return NULL;
  if (!x)
    return ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
  if (x->u.tensor.ndim >= 0 && !normalize_axis(&s, axis, x->u.tensor.ndim, &norm))
    return NULL;
  return x;
}

/* Softmax (or log-softmax) along one axis: each row has its max
 * subtracted before exp so that large inputs do not overflow. */
static Value *
eval_softmax(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  const IrTensorData *x = op_nn_tensor_value(&s, args, 0, "data");
  int64_t axis;
  int ax;
  bool reduce[64] = {false};
  if (!x || !op_nn_attr_int(&s, "axis", -1, &axis) || !normalize_axis(&s, axis, x->ndim, &ax))
    return NULL;
  if (x->ndim > 64)
    return op_fail_null(&s, "tensors of more than 64 dimensions are not supported");
  Value *out = op_nn_tensor_new(&s, x->dtype, x->ndim, x->shape);
  int64_t *outer, *inner, nouter, ninner;
  reduce[ax] = true;
  if (!out || !op_nn_split_offsets(&s, x, reduce, &outer, &nouter, &inner, &ninner))
    return NULL;
  bool log_form = call->u.call.op->id == IR_OP_LOG_SOFTMAX;
  for (int64_t o = 0; o < nouter; o++) {
    double max = -INFINITY, sum = 0;
    for (int64_t r = 0; r < ninner; r++)
      max = fmax(max, op_get_f(x, outer[o] + inner[r]));
    for (int64_t r = 0; r < ninner; r++)
      sum += exp(op_get_f(x, outer[o] + inner[r]) - max);
    for (int64_t r = 0; r < ninner; r++) {
      double v = op_get_f(x, outer[o] + inner[r]) - max;
      op_set_f(&out->u.tensor.t, outer[o] + inner[r], log_form ? v - log(sum) : exp(v) / sum);
    }
  }
  free(outer);
  free(inner);
  return out;
}

/* ------------------------------------------------------------------ */
/* prelu                                                               */
/* ------------------------------------------------------------------ */

/* prelu: x where x > 0, alpha[c] * x elsewhere, c the index on axis
 * (TVM's topi.nn.prelu); alpha has one value per channel or a single one
 * for all.  Floats only, alpha of data's dtype. */
static IrSInfo *
infer_prelu(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  OpSite s = op_site_infer(in, call);
  IrSInfo *x, *alpha;
  int64_t axis;
  int ax = -1;
  if (!op_nn_tensor_arg(in, call, args, 0, "data", &x) ||
      !op_nn_tensor_arg(in, call, args, 1, "alpha", &alpha) ||
      !op_nn_attr_int(&s, "axis", 1, &axis) || !op_nn_require_float(in, call, op_nn_dtype(x)))
    return NULL;
  if (op_nn_ndim(x) >= 0 && !normalize_axis(&s, axis, op_nn_ndim(x), &ax))
    return NULL;
  IrDType dt = op_nn_dtype(x), at = op_nn_dtype(alpha);
  if (dt.code != IR_DT_VOID && at.code != IR_DT_VOID && !ir_dtype_eq(dt, at))
    return op_fail_null(&s, "alpha has dtype %s, but data has dtype %s",
                        op_nn_dtype_str(in->ctx, at), op_nn_dtype_str(in->ctx, dt));
  if (op_nn_ndim(alpha) >= 0 && op_nn_ndim(alpha) != 1)
    return op_fail_null(&s, "alpha must have rank 1, not %d", op_nn_ndim(alpha));
  IrPrimExpr **xs = op_nn_shape(x), **as = op_nn_shape(alpha);
  if (xs && as && ax >= 0) {
    IrProof per_channel = op_prove_equal(in, as[0], xs[ax]);
    IrProof single = op_prove_equal(in, as[0], op_nn_int(in->ctx, 1));
    if (per_channel == IR_PROVE_FALSE && single == IR_PROVE_FALSE)
      return op_fail_null(
          &s, "alpha has length %s, but data has %s channels on axis %d (or give one value)",
          op_nn_expr_str(in->ctx, as[0]), op_nn_expr_str(in->ctx, xs[ax]), ax);
    if (per_channel != IR_PROVE_TRUE && single != IR_PROVE_TRUE) /* checked at run time */
      op_assume(in, ir_prim_bin(in->ctx, IR_PE_OR,
                                ir_prim_bin(in->ctx, IR_PE_EQ, as[0], xs[ax]),
                                ir_prim_bin(in->ctx, IR_PE_EQ, as[0], op_nn_int(in->ctx, 1))));
  }
  return x ? x : ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
}

static Value *
eval_prelu(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  const IrTensorData *x = op_nn_tensor_value(&s, args, 0, "data");
  const IrTensorData *alpha = op_nn_tensor_value(&s, args, 1, "alpha");
  int64_t axis, strides[64];
  int ax;
  if (!x || !alpha || !op_nn_attr_int(&s, "axis", 1, &axis) ||
      !normalize_axis(&s, axis, x->ndim, &ax))
    return NULL;
  if (x->ndim > 64)
    return op_fail_null(&s, "tensors of more than 64 dimensions are not supported");
  if (alpha->ndim != 1 || (alpha->shape[0] != 1 && alpha->shape[0] != x->shape[ax]))
    return op_fail_null(&s, "alpha must have one value or one per channel (%lld)",
                        (long long)x->shape[ax]);
  Value *out = op_nn_tensor_new(&s, x->dtype, x->ndim, x->shape);
  if (!out)
    return NULL;
  op_nn_strides(x, strides);
  for (int64_t i = 0, n = op_numel(x); i < n; i++) {
    int64_t c = alpha->shape[0] == 1 ? 0 : i / strides[ax] % x->shape[ax];
    double v = op_get_f(x, i);
    op_set_f(&out->u.tensor.t, i, v > 0 ? v : op_get_f(alpha, c) * v);
  }
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
    if (!normalize_axis(s, axes[i], ndim, &out[i]))
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
check_norm_param(OpInfer *in, const IrExpr *call, IrSInfo *data, IrSInfo *p, int i, const int *axes,
                 int n)
{
  OpSite s = op_site_infer(in, call);
  if (!p)
    return 1;
  if (p->u.tensor.dtype.code != IR_DT_VOID && op_nn_dtype(data).code != IR_DT_VOID &&
      !ir_dtype_eq(p->u.tensor.dtype, op_nn_dtype(data))) {
    op_report(&s, "%s has dtype %s, but data has dtype %s", norm_arg_name(call, i),
              op_nn_dtype_str(in->ctx, p->u.tensor.dtype),
              op_nn_dtype_str(in->ctx, op_nn_dtype(data)));
    return -1;
  }
  if (p->u.tensor.ndim >= 0 && p->u.tensor.ndim != n) {
    op_report(&s, "%s must have rank %d (one dim per normalized axis), not %d",
              norm_arg_name(call, i), n, p->u.tensor.ndim);
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
      op_report(&s, "%s has length %s at dim %d, but data has %s on axis %d",
                norm_arg_name(call, i), op_nn_expr_str(in->ctx, ps[d]), d,
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
check_norm(OpInfer *in, const IrExpr *call, IrSInfo **t, int nargs, bool *decided)
{
  OpSite s = op_site_infer(in, call);
  int64_t axes[64];
  int naxes, norm[64];
  bool known_axes = t[0] && t[0]->u.tensor.ndim >= 0;
  *decided = true;
  if (!norm_axes(&s, axes, &naxes))
    return false;
  if (known_axes && !normalize_axes(&s, axes, naxes, t[0]->u.tensor.ndim, norm))
    return false;
  if (!op_nn_require_float(in, call, op_nn_dtype(t[0])))
    return false;
  for (int i = 1; i < nargs; i++) {
    int r = check_norm_param(in, call, t[0], t[i], i, known_axes ? norm : NULL, naxes);
    if (r < 0)
      return false;
    if (r == 0)
      *decided = false;
  }
  return true;
}

static bool
norm_tensor_args(OpInfer *in, const IrExpr *call, IrSInfo **args, int nargs, IrSInfo **t)
{
  for (int i = 0; i < nargs; i++)
    if (!op_nn_tensor_arg(in, call, args, i, norm_arg_name(call, i), &t[i]))
      return false;
  return true;
}

/* layer_norm (data, gamma, beta) and rms_norm (data, weight): TVM's
 * NormCheckDtypeAndShape, data's struct info when every length is decided. */
static IrSInfo *
infer_layer_norm(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  IrSInfo *t[3];
  bool decided;
  int nargs = call->u.call.op->id == IR_OP_RMS_NORM ? 2 : 3;
  if (!norm_tensor_args(in, call, args, nargs, t) || !check_norm(in, call, t, nargs, &decided))
    return NULL;
  if (t[0] && decided)
    return t[0];
  return ir_sinfo_tensor(in->ctx, NULL, op_nn_ndim(t[0]), op_nn_dtype(t[0]), op_nn_vdevice(t[0]));
}

static IrSInfo *
infer_batch_norm(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  IrSInfo *t[5], **fields = ir_alloc(in->ctx, sizeof(IrSInfo *) * 3);
  bool decided;
  if (!norm_tensor_args(in, call, args, 5, t) || !check_norm(in, call, t, 5, &decided))
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

static Value *
eval_layer_norm(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  const IrTensorData *t[3];
  bool reduce[64];
  NormFlags f;
  int64_t *outer, *inner, nouter, ninner;
  if (!norm_values(&s, args, 3, t, reduce) || !norm_flags(&s, &f))
    return NULL;
  Value *out = op_nn_tensor_new(&s, t[0]->dtype, t[0]->ndim, t[0]->shape);
  if (!out || !op_nn_split_offsets(&s, t[0], reduce, &outer, &nouter, &inner, &ninner))
    return NULL;
  for (int64_t o = 0; o < nouter; o++) {
    double mean, var;
    moments(t[0], outer[o], inner, ninner, &mean, &var);
    double inv = 1.0 / sqrt(var + f.epsilon);
    for (int64_t r = 0; r < ninner; r++) {
      double v = (op_get_f(t[0], outer[o] + inner[r]) - mean) * inv;
      if (f.scale)
        v *= op_get_f(t[1], r);
      if (f.center)
        v += op_get_f(t[2], r);
      op_set_f(&out->u.tensor.t, outer[o] + inner[r], v);
    }
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

static Value *
eval_batch_norm(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  const IrTensorData *t[5];
  bool reduce[64], training;
  NormFlags f;
  double momentum;
  int64_t *outer, *inner, nouter, ninner;
  if (!norm_values(&s, args, 5, t, reduce) || !norm_flags(&s, &f) ||
      !op_nn_attr_bool(&s, "training", true, &training) ||
      !op_nn_attr_float(&s, "momentum", 0.1, &momentum))
    return NULL;
  Value *out = op_nn_tensor_new(&s, t[0]->dtype, t[0]->ndim, t[0]->shape);
  Value *mm = op_nn_tensor_new(&s, t[3]->dtype, t[3]->ndim, t[3]->shape);
  Value *mv = op_nn_tensor_new(&s, t[4]->dtype, t[4]->ndim, t[4]->shape);
  if (!out || !mm || !mv ||
      !op_nn_split_offsets(&s, t[0], reduce, &outer, &nouter, &inner, &ninner))
    return NULL;
  /* inner enumerates the channel axis, outer everything else */
  for (int64_t c = 0; c < ninner; c++) {
    double mean, var;
    channel_stats(t, c, inner[c], outer, nouter, training, &mean, &var);
    double inv = 1.0 / sqrt(var + f.epsilon);
    for (int64_t o = 0; o < nouter; o++) {
      double v = (op_get_f(t[0], outer[o] + inner[c]) - mean) * inv;
      if (f.scale)
        v *= op_get_f(t[1], c);
      if (f.center)
        v += op_get_f(t[2], c);
      op_set_f(&out->u.tensor.t, outer[o] + inner[c], v);
    }
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
/* dropout                                                             */
/* ------------------------------------------------------------------ */

/* R.grad.*_backward: the gradient of a loss with respect to one input has
 * that input's struct info (argument 1: predictions, data, x), TVM's rule.
 * rxc reads and types these (TVM's training tests print them) but has no
 * kernel or lowering: it compiles inference, and TVM's Gradient pass, which
 * makes them, is not one of its passes. */
static IrSInfo *
infer_gradient(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  IrSInfo *grad, *wrt;
  if (!op_nn_tensor_arg(in, call, args, 0, "output_grad", &grad) ||
      !op_nn_tensor_arg(in, call, args, 1, "the input", &wrt))
    return NULL;
  return wrt ? wrt : ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
}

static IrSInfo *
infer_dropout(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  IrSInfo *x;
  if (!op_nn_tensor_arg(in, call, args, 0, "data", &x))
    return NULL;
  if (!x)
    x = ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
  IrSInfo **fields = ir_alloc(in->ctx, sizeof(IrSInfo *) * 2); /* the tuple keeps the array */
  fields[0] = fields[1] = x;
  return ir_sinfo_tuple(in->ctx, fields, 2);
}

/* Identity at inference: (data, mask) with every element kept (mask 1). */
static Value *
eval_dropout(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  const IrTensorData *x = op_nn_tensor_value(&s, args, 0, "data");
  if (!x)
    return NULL;
  Value *mask = op_nn_tensor_new(&s, x->dtype, x->ndim, x->shape);
  if (!mask)
    return NULL;
  for (int64_t i = 0, n = op_numel(x); i < n; i++)
    op_set_f(&mask->u.tensor.t, i, 1.0);
  Value *items[2] = {args[0], mask};
  return op_tuple_new(ev->ctx, items, 2);
}

/* ------------------------------------------------------------------ */
/* Table                                                               */
/* ------------------------------------------------------------------ */

/* The legalize hooks are in nn_legalize.c; the convolutions' and the pools'
 * hooks in conv.c (their lowerings in conv.c and pool.c). */
#define E OP_ARG
#define A OP_ATTR
#define ACTIVATION                                                                                 \
  .syn.params = {E("data")}, .syn.nparams = 1,                                                     \
  .impl = {infer_activation, eval_activation, op_nn_legalize_activation}
/* An activation entry's NnActivation: name, kernel, kernel_int, lower. */
/* clang-format off */
#define ROW(...) .data = &(const NnActivation){__VA_ARGS__}
/* clang-format on */
/* The convolutions: nsp spatial axes, s/p/d the default strides,
 * padding, dilation, then the layouts. */
#define CONV_PARAMS(s, p, d, data, kernel)                                                         \
  .syn.params = {E("data"), E("weight"), A("strides", s), A("padding", p), A("dilation", d),       \
                 A("groups", "1"), A("data_layout", data), A("kernel_layout", kernel),             \
                 A("out_layout", "None"), A("out_dtype", "\"void\"")},                             \
  .syn.nparams = 10, .impl = {op_nn_infer_conv, op_nn_eval_conv, op_nn_legalize_conv}
#define CONV_T_PARAMS(s, p, op, d, data, kernel)                                                   \
  .syn.params = {E("data"), E("weight"), A("strides", s), A("padding", p),                         \
                 A("output_padding", op), A("dilation", d), A("groups", "1"),                      \
                 A("data_layout", data), A("kernel_layout", kernel), A("out_layout", "None"),      \
                 A("out_dtype", "\"void\"")},                                                      \
  .syn.nparams = 11, .impl = {op_nn_infer_conv, op_nn_eval_conv, op_nn_legalize_conv}
#define POOL_PARAMS(k, p, incl, layout)                                                            \
  .syn.params = {E("data"),                                                                        \
                 A("pool_size", k),                                                                \
                 A("strides", k),                                                                  \
                 A("padding", p),                                                                  \
                 A("dilation", k),                                                                 \
                 A("ceil_mode", "False"),                                                          \
                 A("count_include_pad", incl),                                                     \
                 A("layout", layout),                                                              \
                 A("out_layout", "None")},                                                         \
  .syn.nparams = 9, .impl = {op_nn_infer_pool, op_nn_eval_pool, op_nn_legalize_pool}
#define ADAPTIVE_PARAMS(layout)                                                                    \
  .syn.params = {E("data"), A("output_size", "None"), A("layout", layout),                         \
                 A("out_layout", "None")},                                                         \
  .syn.nparams = 4,                                                                                \
  .impl = {op_nn_infer_adaptive_pool, op_nn_eval_adaptive_pool, op_nn_legalize_adaptive_pool}
/* R.grad.max_pool2d_backward and avg_pool2d_backward: the pool's
 * parameters after the gradient (TVM's defaults for both). */
#define POOL_BACKWARD_PARAMS                                                                       \
  .syn.params = {E("output_grad"),       E("data"),                                               \
                 A("pool_size", ONES2),  A("strides", ONES2),                                     \
                 A("padding", ZEROS4),   A("dilation", ONES2),                                    \
                 A("ceil_mode", "False"), A("count_include_pad", "False"),                        \
                 A("layout", "\"NCHW\""), A("out_layout", "None")},                               \
  .syn.nparams = 10, .impl = {infer_gradient, NULL, NULL}
/* A window op's NnWindow: kind, spatial axes, prim_func name. */
#define WIN(kind, nsp, name) .data = &(const NnWindow){NN_WIN_##kind, nsp, name}
#define ONES1 "[1]"
#define ONES2 "[1, 1]"
#define ONES3 "[1, 1, 1]"
#define ZEROS1 "[0]"
#define ZEROS2 "[0, 0]"
#define ZEROS3 "[0, 0, 0]"
#define ZEROS4 "[0, 0, 0, 0]"
#define ZEROS6 "[0, 0, 0, 0, 0, 0]"

static const OpDef defs[] = {
    OP(IR_OP_RELU, "relax.nn.relu", ACTIVATION, ROW("relu", relu, relu_int, relu_lower)),
    OP(IR_OP_LEAKYRELU, "relax.nn.leakyrelu", .syn.params = {E("data"), A("alpha", "0.01")},
       .syn.nparams = 2, .impl = {infer_activation, eval_activation, op_nn_legalize_activation},
       ROW("leakyrelu", leakyrelu, NULL, leakyrelu_lower)),
    OP(IR_OP_GELU, "relax.nn.gelu", ACTIVATION, ROW("gelu", gelu, NULL, gelu_lower)),
    OP(IR_OP_GELU_TANH, "relax.nn.gelu_tanh", ACTIVATION,
       ROW("gelu_tanh", gelu_tanh, NULL, gelu_tanh_lower)),
    OP(IR_OP_SILU, "relax.nn.silu", ACTIVATION, ROW("silu", silu, NULL, silu_lower)),
    OP(IR_OP_SELU, "relax.nn.selu", ACTIVATION, ROW("selu", selu, NULL, selu_lower)),
    OP(IR_OP_SOFTPLUS, "relax.nn.softplus",
       .syn.params = {E("data"), A("beta", "1.0"), A("threshold", "20.0")}, .syn.nparams = 3,
       .impl = {infer_activation, eval_activation, op_nn_legalize_activation},
       ROW("softplus", softplus, NULL, softplus_lower)),
    OP(IR_OP_PRELU, "relax.nn.prelu", .syn.params = {E("data"), E("alpha"), A("axis", "1")},
       .syn.nparams = 3, .impl = {infer_prelu, eval_prelu, op_nn_legalize_prelu}),
    OP(IR_OP_SOFTMAX, "relax.nn.softmax", .syn.params = {E("data"), A("axis", "-1")},
       .syn.nparams = 2, .impl = {infer_softmax, eval_softmax, op_nn_legalize_softmax}),
    OP(IR_OP_LOG_SOFTMAX, "relax.nn.log_softmax", .syn.params = {E("data"), A("axis", "-1")},
       .syn.nparams = 2, .impl = {infer_softmax, eval_softmax, op_nn_legalize_softmax}),
    OP(IR_OP_LAYER_NORM, "relax.nn.layer_norm",
       .syn.params = {E("data"), E("gamma"), E("beta"), A("axes", NULL), A("epsilon", "1e-05"),
                      A("center", "True"), A("scale", "True")},
       .syn.nparams = 7, .impl = {infer_layer_norm, eval_layer_norm, op_nn_legalize_layer_norm}),
    OP(IR_OP_GROUP_NORM, "relax.nn.group_norm",
       .syn.params = {E("data"), E("gamma"), E("beta"), A("num_groups", NULL),
                      A("channel_axis", NULL), A("axes", NULL), A("epsilon", "1e-05"),
                      A("center", "True"), A("scale", "True")},
       .syn.nparams = 9, .impl = {op_nn_infer_channel_norm, op_nn_eval_norm, op_nn_legalize_norm}),
    OP(IR_OP_INSTANCE_NORM, "relax.nn.instance_norm",
       .syn.params = {E("data"), E("gamma"), E("beta"), A("channel_axis", NULL), A("axes", NULL),
                      A("epsilon", "1e-05"), A("center", "True"), A("scale", "True")},
       .syn.nparams = 8, .impl = {op_nn_infer_channel_norm, op_nn_eval_norm, op_nn_legalize_norm}),
    OP(IR_OP_RMS_NORM, "relax.nn.rms_norm",
       .syn.params = {E("data"), E("weight"), A("axes", "[-1]"), A("epsilon", "1e-05")},
       .syn.nparams = 4, .impl = {infer_layer_norm, op_nn_eval_norm, op_nn_legalize_norm}),
    OP(IR_OP_BATCH_NORM, "relax.nn.batch_norm",
       .syn.params = {E("data"), E("gamma"), E("beta"), E("moving_mean"), E("moving_var"),
                      A("axis", NULL), A("epsilon", "1e-05"), A("center", "True"),
                      A("scale", "True"), A("momentum", "0.10000000000000001"),
                      A("training", "True")},
       .syn.nparams = 11, .impl = {infer_batch_norm, eval_batch_norm, op_nn_legalize_batch_norm}),
    OP(IR_OP_CONV1D, "relax.nn.conv1d", CONV_PARAMS(ONES1, ZEROS2, ONES1, "\"NCW\"", "\"OIW\""),
       WIN(CONV, 1, "conv1d")),
    OP(IR_OP_CONV2D, "relax.nn.conv2d",
       CONV_PARAMS(ONES2, ZEROS4, ONES2, "\"NCHW\"", "\"OIHW\""), WIN(CONV, 2, "conv2d")),
    OP(IR_OP_CONV3D, "relax.nn.conv3d",
       CONV_PARAMS(ONES3, ZEROS6, ONES3, "\"NCDHW\"", "\"OIDHW\""), WIN(CONV, 3, "conv3d")),
    OP(IR_OP_CONV1D_TRANSPOSE, "relax.nn.conv1d_transpose",
       CONV_T_PARAMS(ONES1, ZEROS2, ZEROS1, ONES1, "\"NCW\"", "\"IOW\""),
       WIN(CONV_T, 1, "conv1d_transpose")),
    OP(IR_OP_CONV2D_TRANSPOSE, "relax.nn.conv2d_transpose",
       CONV_T_PARAMS(ONES2, ZEROS4, ZEROS2, ONES2, "\"NCHW\"", "\"IOHW\""),
       WIN(CONV_T, 2, "conv2d_transpose")),
    OP(IR_OP_CONV3D_TRANSPOSE, "relax.nn.conv3d_transpose",
       CONV_T_PARAMS(ONES3, ZEROS6, ZEROS3, ONES3, "\"NCDHW\"", "\"IODHW\""),
       WIN(CONV_T, 3, "conv3d_transpose")),
    OP(IR_OP_MAX_POOL1D, "relax.nn.max_pool1d", POOL_PARAMS(ONES1, ZEROS2, "False", "\"NCW\""),
       WIN(MAX, 1, "max_pool1d")),
    OP(IR_OP_MAX_POOL2D, "relax.nn.max_pool2d", POOL_PARAMS(ONES2, ZEROS4, "False", "\"NCHW\""),
       WIN(MAX, 2, "max_pool2d")),
    OP(IR_OP_MAX_POOL3D, "relax.nn.max_pool3d", POOL_PARAMS(ONES3, ZEROS6, "False", "\"NCDHW\""),
       WIN(MAX, 3, "max_pool3d")),
    OP(IR_OP_AVG_POOL1D, "relax.nn.avg_pool1d", POOL_PARAMS(ONES1, ZEROS2, "True", "\"NCW\""),
       WIN(AVG, 1, "avg_pool1d")),
    OP(IR_OP_AVG_POOL2D, "relax.nn.avg_pool2d", POOL_PARAMS(ONES2, ZEROS4, "False", "\"NCHW\""),
       WIN(AVG, 2, "avg_pool2d")),
    OP(IR_OP_AVG_POOL3D, "relax.nn.avg_pool3d", POOL_PARAMS(ONES3, ZEROS6, "True", "\"NCDHW\""),
       WIN(AVG, 3, "avg_pool3d")),
    OP(IR_OP_ADAPTIVE_AVG_POOL1D, "relax.nn.adaptive_avg_pool1d", ADAPTIVE_PARAMS("\"NCW\""),
       WIN(ADAPTIVE, 1, "adaptive_avg_pool1d")),
    OP(IR_OP_ADAPTIVE_AVG_POOL2D, "relax.nn.adaptive_avg_pool2d", ADAPTIVE_PARAMS("\"NCHW\""),
       WIN(ADAPTIVE, 2, "adaptive_avg_pool2d")),
    OP(IR_OP_ADAPTIVE_AVG_POOL3D, "relax.nn.adaptive_avg_pool3d", ADAPTIVE_PARAMS("\"NCDHW\""),
       WIN(ADAPTIVE, 3, "adaptive_avg_pool3d")),
    OP(IR_OP_DROPOUT, "relax.nn.dropout", .syn.params = {E("data"), A("rate", "0.5")},
       .syn.nparams = 2, .impl = {infer_dropout, eval_dropout, op_nn_legalize_dropout}),
    OP(IR_OP_ATTENTION, "relax.nn.attention",
       .syn.params = {E("query"), E("key"), E("value"), {"bias", IR_PARAM_EXPR, "None"},
                      A("scale", "None"), A("causal_mask", "None"), A("window_size", "None")},
       .syn.nparams = 7,
       .impl = {op_nn_infer_attention, op_nn_eval_attention, op_nn_legalize_attention}),
    OP(IR_OP_ATTENTION_BIAS, "relax.nn.attention_bias",
       .syn.params = {E("query"), E("key"), E("value"), E("bias"), A("scale", "None"),
                      A("causal_mask", "None"), A("window_size", "None")},
       .syn.nparams = 7,
       .impl = {op_nn_infer_attention, op_nn_eval_attention, op_nn_legalize_attention}),
    OP(IR_OP_ATTENTION_VAR_LEN, "relax.nn.attention_var_len",
       .syn.params = {E("queries"), E("keys"), E("values"), E("seqstart_q"), E("max_seqlen_q"),
                      {"seqstart_k", IR_PARAM_EXPR, "None"},
                      {"max_seqlen_k", IR_PARAM_EXPR, "None"}, A("scale", "None"),
                      A("causal_mask", "None"), A("window_size", "None")},
       .syn.nparams = 10,
       .impl = {op_nn_infer_attention_var_len, op_nn_eval_attention_var_len,
                op_nn_legalize_attention_var_len}),
    OP(IR_OP_CROSS_ENTROPY_WITH_LOGITS, "relax.nn.cross_entropy_with_logits",
       .syn.params = {E("predictions"), E("labels")}, .syn.nparams = 2,
       .impl = {op_nn_infer_cross_entropy, op_nn_eval_cross_entropy,
                op_nn_legalize_cross_entropy}),
    OP(IR_OP_NLL_LOSS, "relax.nn.nll_loss",
       .syn.params = {E("predictions"), E("targets"), {"weights", IR_PARAM_EXPR, "None"},
                      A("reduction", "\"mean\""), A("ignore_index", "-100")},
       .syn.nparams = 5,
       .impl = {op_nn_infer_nll_loss, op_nn_eval_nll_loss, op_nn_legalize_nll_loss},
       .flags = OP_CHECKS_DATA),
    /* gradients (infer_gradient) */
    OP(IR_OP_GRAD_NLL_LOSS_BACKWARD, "relax.grad.nll_loss_backward",
       .syn.params = {E("output_grad"), E("predictions"), E("targets"),
                      {"weights", IR_PARAM_EXPR, "None"}, A("reduction", "\"mean\""),
                      A("ignore_index", "-100")},
       .syn.nparams = 6, .impl = {infer_gradient, NULL, NULL}),
    OP(IR_OP_GRAD_MAX_POOL2D_BACKWARD, "relax.grad.max_pool2d_backward", POOL_BACKWARD_PARAMS),
    OP(IR_OP_GRAD_AVG_POOL2D_BACKWARD, "relax.grad.avg_pool2d_backward", POOL_BACKWARD_PARAMS),
    OP(IR_OP_GRAD_TAKE_BACKWARD, "relax.grad.take_backward",
       .syn.params = {E("output_grad"), E("x"), E("indices"), A("axis", "None")},
       .syn.nparams = 4, .impl = {infer_gradient, NULL, NULL}),
};

const OpTable op_nn_table = {defs, sizeof defs / sizeof defs[0]};
