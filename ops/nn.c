/*
 * nn.c - neural-network ops without a spatial window: the activations
 * (relu, leakyrelu, gelu, gelu_tanh, silu, selu, softplus), prelu,
 * softmax, log_softmax, dropout, each with its inference, kernel and
 * lowering.  This file's table also holds the entries of the norms (hooks
 * in norm.c), the convolutions and the pools (conv.c, pool.c), the
 * attention ops (attention.c) and the losses (loss.c).
 *
 * Inference follows TVM's (src/relax/op/nn/nn.cc): activations keep their
 * input's struct info; dropout gives (out, mask), as TVM does.
 * Kernels accumulate in double; softmax subtracts the row's max first.
 * The lowerings build a T.prim_func with tir_build.h that computes what the
 * kernel computes, in the same order: every load converted to float64,
 * maxima and sums in a float64 T.alloc_buffer ("acc"), a conversion to the
 * output dtype at the store (float32 softmax rows: in float32 lanes).
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
infer_activation(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  const IrOpDef *op = s->call->u.call.op;
  IrSInfo *x;
  double v;
  if (!op_nn_tensor_arg(in, s, args, 0, "data", &x))
    return NULL;
  for (int k = 1; k < op->nparams; k++)
    if (!op_nn_attr_float(s, op->params[k].name, 0, &v))
      return NULL;
  if (!activation_of(s->call)->kernel_int && !op_nn_require_float(in, s, op_nn_dtype(x)))
    return NULL;
  return x ? x : ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
}

static Value *
eval_activation(OpEval *ev, const OpSite *s, Value **args)
{
  const NnActivation *act = activation_of(s->call);
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "data");
  if (!x)
    return NULL;
  Value *out = op_nn_tensor_new(s, x->dtype, x->ndim, x->shape);
  if (!out)
    return NULL;
  IrTensorData *o = &out->u.tensor.t;
  bool is_float = ir_dtype_is_float(x->dtype);
  double params[OP_NN_ACT_PARAMS];
  op_nn_activation_params(s->call, params);
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

static IrExpr *
legalize_activation(OpLegalize *lz, const OpSite *site, IrSInfo *result)
{
  const NnActivation *act = op_of(site->call->u.call.op)->data;
  const char *name = act->name;
  OpPrim p;
  IrBuffer *x, *out;
  if (!op_prim_open(lz, &p, name, site->call, result,
                    (OpPrimParam[]){{"A", &x}, {ir_printf(lz->ctx, "T_%s", name), &out}}, 2))
    return NULL;
  if (x->ndim != out->ndim)
    return op_prim_give_up(&p);
  IrPrimExpr **i;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &i);
  double params[OP_NN_ACT_PARAMS];
  op_nn_activation_params(site->call, params);
  IrPrimExpr *v = act->lower(lz->ctx, out->dtype, op_prim_load(&p, x, i), params);
  *body = op_prim_store(&p, out, i, v);
  return op_prim_finish(&p, site->call, result);
}

/* ------------------------------------------------------------------ */
/* softmax, log_softmax                                                */
/* ------------------------------------------------------------------ */

static IrSInfo *
infer_softmax(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x;
  int64_t axis;
  int norm;
  if (!op_nn_tensor_arg(in, s, args, 0, "data", &x) || !op_nn_attr_int(s, "axis", -1, &axis))
    return NULL;
  if (!op_nn_require_float(in, s, op_nn_dtype(x)))
    return NULL;
  if (!x)
    return ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
  if (x->u.tensor.ndim >= 0 && !op_nn_axis(s, "axis", axis, x->u.tensor.ndim, &norm))
    return NULL;
  return x;
}

/* Softmax (or log-softmax) along one axis: each row has its max
 * subtracted before exp so that large inputs do not overflow. */
static Value *
eval_softmax(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "data");
  int ax;
  bool reduce[64] = {false};
  if (!x || !op_nn_attr_axis(s, -1, x->ndim, &ax))
    return NULL;
  if (x->ndim > 64)
    return op_fail_null(s, "tensors of more than 64 dimensions are not supported");
  Value *out = op_nn_tensor_new(s, x->dtype, x->ndim, x->shape);
  int64_t *outer, *inner, nouter, ninner;
  reduce[ax] = true;
  if (!out || !op_nn_split_offsets(s, x, reduce, &outer, &nouter, &inner, &ninner))
    return NULL;
  bool log_form = s->call->u.call.op->id == IR_OP_LOG_SOFTMAX;
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

typedef struct {
  IrBuffer *x, *out, *acc;
  int ax;
  bool along[64]; /* ax alone */
  bool log_form;
} Softmax;

/* One pass over the softmax axis: a loop over it (*loop) whose var is put
 * at (*at)[ax] of a copy of the row's index.  Returns the slot of its
 * body. */
static IrStmt **
axis_loop(OpPrim *p, const Softmax *s, IrPrimExpr **outer, IrPrimExpr ***at, IrStmt **loop)
{
  *at = op_nn_index_copy(p->lz->ctx, outer, s->x->ndim);
  return op_nn_nest_dims(p, s->x->shape, s->x->ndim, s->along, true, *at, loop);
}

/* The row's statements: max, sum of exp(x - max), then the outputs. */
static IrStmt *
softmax_row(OpPrim *p, const Softmax *s, IrPrimExpr **outer)
{
  IrCtx *ctx = p->lz->ctx;
  IrDType f64 = op_nn_f64_type();
  IrPrimExpr **at;
  IrStmt *st[5], **body;
  st[0] = op_nn_acc_set(p, s->acc, 0, op_nn_lit(ctx, f64, -INFINITY));
  body = axis_loop(p, s, outer, &at, &st[1]);
  *body = op_nn_acc_fold(p, s->acc, 0, IR_PE_MAX, op_nn_load64(p, s->x, at));
  st[2] = op_nn_acc_set(p, s->acc, 1, op_nn_lit(ctx, f64, 0.0));
  body = axis_loop(p, s, outer, &at, &st[3]);
  IrPrimExpr *shifted =
      ir_prim_bin(ctx, IR_PE_SUB, op_nn_load64(p, s->x, at), op_nn_acc(p, s->acc, 0));
  IrPrimExpr *e = op_nn_intrinsic(ctx, f64, "tir.exp", shifted);
  *body = op_nn_acc_fold(p, s->acc, 1, IR_PE_ADD, e);
  body = axis_loop(p, s, outer, &at, &st[4]);
  shifted = ir_prim_bin(ctx, IR_PE_SUB, op_nn_load64(p, s->x, at), op_nn_acc(p, s->acc, 0));
  IrPrimExpr *v;
  if (s->log_form)
    v = ir_prim_bin(ctx, IR_PE_SUB, shifted,
                    op_nn_intrinsic(ctx, f64, "tir.log", op_nn_acc(p, s->acc, 1)));
  else
    v = ir_prim_bin(ctx, IR_PE_DIV, op_nn_intrinsic(ctx, f64, "tir.exp", shifted),
                    op_nn_acc(p, s->acc, 1));
  *body = op_prim_store(p, s->out, at, op_nn_to(ctx, s->out->dtype, v));
  return op_nn_seq(p, st, 5);
}

/* The float32 row, as TVM's legalized softmax computes it (max, exp and
 * sum in float32), each pass over the axis in lanes (op_nn_lanes_reduce)
 * so that it vectorizes: max, sum of exp(x - max), then each output
 * exp(x - max) / sum (log form: x - max - log(sum)). */
typedef struct {
  const Softmax *s;
  IrPrimExpr **outer; /* the row's index (the axis entry is replaced) */
  OpNnLanes *max;     /* the row's max, once computed */
} SoftmaxRow;

static IrPrimExpr *
row_load(OpPrim *p, void *env, IrPrimExpr *i)
{
  SoftmaxRow *r = env;
  IrPrimExpr **at = op_nn_index_copy(p->lz->ctx, r->outer, r->s->x->ndim);
  at[r->s->ax] = i;
  return op_prim_load(p, r->s->x, at);
}

static IrPrimExpr *
row_shifted(OpPrim *p, void *env, IrPrimExpr *i)
{
  SoftmaxRow *r = env;
  return ir_prim_bin(p->lz->ctx, IR_PE_SUB, row_load(p, env, i), op_nn_lanes_result(p, r->max));
}

static IrPrimExpr *
row_exp(OpPrim *p, void *env, IrPrimExpr *i)
{
  return op_nn_intrinsic(p->lz->ctx, IR_F32, "tir.exp", row_shifted(p, env, i));
}

static IrStmt *
softmax_row_f32(OpPrim *p, const Softmax *s, IrPrimExpr **outer, IrBuffer *lanes, IrBuffer *acc)
{
  IrCtx *ctx = p->lz->ctx;
  OpNnLanes max = {IR_PE_MAX, lanes, acc, 0, NULL, row_load};
  OpNnLanes sum = {IR_PE_ADD, lanes, acc, 1, NULL, row_exp};
  SoftmaxRow r = {s, outer, &max};
  max.env = sum.env = &r;
  IrPrimExpr *n = s->x->shape[s->ax], **at;
  IrStmt *st[3], **body;
  st[0] = op_nn_lanes_reduce(p, &max, n);
  st[1] = op_nn_lanes_reduce(p, &sum, n);
  body = axis_loop(p, s, outer, &at, &st[2]);
  IrPrimExpr *v, *total = op_nn_lanes_result(p, &sum);
  if (s->log_form)
    v = ir_prim_bin(ctx, IR_PE_SUB, row_shifted(p, &r, at[s->ax]),
                    op_nn_intrinsic(ctx, IR_F32, "tir.log", total));
  else
    v = ir_prim_bin(ctx, IR_PE_DIV, row_exp(p, &r, at[s->ax]), total);
  *body = op_prim_store(p, s->out, at, v);
  return op_nn_seq(p, st, 3);
}

static bool
is_f32(const IrBuffer *b)
{
  return ir_dtype_eq(b->dtype, IR_F32);
}

static IrExpr *
legalize_softmax(OpLegalize *lz, const OpSite *site, IrSInfo *result)
{
  Softmax s = {0};
  s.log_form = site->call->u.call.op->id == IR_OP_LOG_SOFTMAX;
  OpPrim p;
  if (!op_prim_open(
          lz, &p, s.log_form ? "log_softmax" : "softmax", site->call, result,
          (OpPrimParam[]){{"A", &s.x}, {s.log_form ? "T_log_softmax" : "T_softmax", &s.out}}, 2))
    return NULL;
  if (s.x->ndim != s.out->ndim || s.x->ndim > 64 || !op_nn_attr_axis(site, -1, s.x->ndim, &s.ax))
    return op_prim_give_up(&p);
  bool f32 = is_f32(s.x) && is_f32(s.out);
  IrBuffer *lanes = f32 ? op_nn_lanes_new(&p, "lanes", OP_NN_LANES) : NULL;
  s.acc = f32 ? op_nn_lanes_new(&p, "acc", 2) : op_nn_acc_new(&p, 2); /* max, sum */
  IrPrimExpr *outer[64] = {NULL};
  s.along[s.ax] = true;
  IrStmt *nest;
  IrStmt **slot = op_nn_nest_dims(&p, s.x->shape, s.x->ndim, s.along, false, outer, &nest);
  *slot = f32 ? softmax_row_f32(&p, &s, outer, lanes, s.acc) : softmax_row(&p, &s, outer);
  op_prim_emit(&p, nest);
  return op_prim_finish(&p, site->call, result);
}

/* ------------------------------------------------------------------ */
/* prelu                                                               */
/* ------------------------------------------------------------------ */

/* prelu: x where x > 0, alpha[c] * x elsewhere, c the index on axis
 * (TVM's topi.nn.prelu); alpha has one value per channel or a single one
 * for all.  Floats only, alpha of data's dtype. */
static IrSInfo *
infer_prelu(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x, *alpha;
  int64_t axis;
  int ax = -1;
  if (!op_nn_tensor_arg(in, s, args, 0, "data", &x) ||
      !op_nn_tensor_arg(in, s, args, 1, "alpha", &alpha) ||
      !op_nn_attr_int(s, "axis", 1, &axis) || !op_nn_require_float(in, s, op_nn_dtype(x)))
    return NULL;
  if (op_nn_ndim(x) >= 0 && !op_nn_axis(s, "axis", axis, op_nn_ndim(x), &ax))
    return NULL;
  IrDType dt = op_nn_dtype(x), at = op_nn_dtype(alpha);
  if (dt.code != IR_DT_VOID && at.code != IR_DT_VOID && !ir_dtype_eq(dt, at))
    return op_fail_null(s, "alpha has dtype %s, but data has dtype %s",
                        op_nn_dtype_str(in->ctx, at), op_nn_dtype_str(in->ctx, dt));
  if (op_nn_ndim(alpha) >= 0 && op_nn_ndim(alpha) != 1)
    return op_fail_null(s, "alpha must have rank 1, not %d", op_nn_ndim(alpha));
  IrPrimExpr **xs = op_nn_shape(x), **as = op_nn_shape(alpha);
  if (xs && as && ax >= 0) {
    IrProof per_channel = op_prove_equal(in, as[0], xs[ax]);
    IrProof single = op_prove_equal(in, as[0], op_nn_int(in->ctx, 1));
    if (per_channel == IR_PROVE_FALSE && single == IR_PROVE_FALSE)
      return op_fail_null(
          s, "alpha has length %s, but data has %s channels on axis %d (or give one value)",
          op_nn_expr_str(in->ctx, as[0]), op_nn_expr_str(in->ctx, xs[ax]), ax);
    if (per_channel != IR_PROVE_TRUE && single != IR_PROVE_TRUE) /* checked at run time */
      op_assume(in, ir_prim_bin(in->ctx, IR_PE_OR,
                                ir_prim_bin(in->ctx, IR_PE_EQ, as[0], xs[ax]),
                                ir_prim_bin(in->ctx, IR_PE_EQ, as[0], op_nn_int(in->ctx, 1))));
  }
  return x ? x : ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
}

static Value *
eval_prelu(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "data");
  const IrTensorData *alpha = op_nn_tensor_value(s, args, 1, "alpha");
  int64_t strides[64];
  int ax;
  if (!x || !alpha || !op_nn_attr_axis(s, 1, x->ndim, &ax))
    return NULL;
  if (x->ndim > 64)
    return op_fail_null(s, "tensors of more than 64 dimensions are not supported");
  if (alpha->ndim != 1 || (alpha->shape[0] != 1 && alpha->shape[0] != x->shape[ax]))
    return op_fail_null(s, "alpha must have one value or one per channel (%lld)",
                        (long long)x->shape[ax]);
  Value *out = op_nn_tensor_new(s, x->dtype, x->ndim, x->shape);
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

/* As the kernel: x where x > 0, else alpha[c] * x in float64.  alpha is
 * read at min(c, len - 1): c when it has a value per channel, 0 when it
 * has one, and never past its end whatever length it has at run time. */
static IrExpr *
legalize_prelu(OpLegalize *lz, const OpSite *site, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  int ax;
  OpPrim p;
  IrBuffer *x, *alpha, *out;
  if (!op_prim_open(lz, &p, "prelu", site->call, result,
                    (OpPrimParam[]){{"A", &x}, {"alpha", &alpha}, {"T_prelu", &out}}, 3))
    return NULL;
  if (x->ndim != out->ndim || alpha->ndim != 1 || !op_nn_attr_axis(site, 1, x->ndim, &ax))
    return op_prim_give_up(&p);
  IrPrimExpr **i;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &i);
  IrPrimExpr *last = op_nn_sub(ctx, alpha->shape[0], op_nn_index(ctx, 1));
  IrPrimExpr *c = op_prim_load_at(&p, alpha, ir_prim_bin(ctx, IR_PE_MIN, i[ax], last));
  IrPrimExpr *v = op_prim_load(&p, x, i);
  IrPrimExpr *neg = ir_prim_bin(ctx, IR_PE_MUL, op_nn_f64(ctx, c), op_nn_f64(ctx, v));
  *body = op_prim_store(
      &p, out, i,
      ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_GT, v, op_nn_lit(ctx, x->dtype, 0)), v,
                     op_nn_to(ctx, out->dtype, neg)));
  return op_prim_finish(&p, site->call, result);
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
infer_gradient(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *grad, *wrt;
  if (!op_nn_tensor_arg(in, s, args, 0, "output_grad", &grad) ||
      !op_nn_tensor_arg(in, s, args, 1, "the input", &wrt))
    return NULL;
  return wrt ? wrt : ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
}

static IrSInfo *
infer_dropout(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x;
  if (!op_nn_tensor_arg(in, s, args, 0, "data", &x))
    return NULL;
  if (!x)
    x = ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
  IrSInfo **fields = ir_alloc(in->ctx, sizeof(IrSInfo *) * 2); /* the tuple keeps the array */
  fields[0] = fields[1] = x;
  return ir_sinfo_tuple(in->ctx, fields, 2);
}

/* Identity at inference: (data, mask) with every element kept (mask 1). */
static Value *
eval_dropout(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "data");
  if (!x)
    return NULL;
  Value *mask = op_nn_tensor_new(s, x->dtype, x->ndim, x->shape);
  if (!mask)
    return NULL;
  for (int64_t i = 0, n = op_numel(x); i < n; i++)
    op_set_f(&mask->u.tensor.t, i, 1.0);
  Value *items[2] = {args[0], mask};
  return op_tuple_new(ev->ctx, items, 2);
}

/* Identity at inference, as the kernel: (a copy of data, ones). */
static IrExpr *
legalize_dropout(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  OpPrim p;
  op_prim_begin(lz, &p, "dropout");
  IrBuffer *x = op_nn_input(&p, s->call, 0, "A");
  bool tuple = result->kind == IR_SI_TUPLE && result->u.tuple.n == 2;
  IrBuffer *out = tuple ? op_prim_output(&p, result->u.tuple.fields[0], "T_dropout") : NULL;
  IrBuffer *mask = tuple ? op_prim_output(&p, result->u.tuple.fields[1], "T_mask") : NULL;
  if (!x || !out || !mask || x->ndim != out->ndim || x->ndim != mask->ndim)
    return op_prim_give_up(&p);
  IrPrimExpr **i;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &i);
  IrStmt *st[2] = {op_prim_store(&p, out, i, op_prim_load(&p, x, i)),
                   op_prim_store(&p, mask, i, op_nn_lit(lz->ctx, mask->dtype, 1.0))};
  *body = op_nn_seq(&p, st, 2);
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* Table                                                               */
/* ------------------------------------------------------------------ */

/* The norms' hooks are in norm.c, the convolutions' in conv.c, the
 * pools' in pool.c. */
#define E OP_ARG
#define A OP_ATTR
#define ACTIVATION                                                                                 \
  .syn.params = {E("data")}, .syn.nparams = 1,                                                     \
  .impl = {infer_activation, eval_activation, legalize_activation}
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
  .impl = {op_nn_infer_pool, op_nn_eval_adaptive_pool, op_nn_legalize_adaptive_pool}
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
       .syn.nparams = 2, .impl = {infer_activation, eval_activation, legalize_activation},
       ROW("leakyrelu", leakyrelu, NULL, leakyrelu_lower)),
    OP(IR_OP_GELU, "relax.nn.gelu", ACTIVATION, ROW("gelu", gelu, NULL, gelu_lower)),
    OP(IR_OP_GELU_TANH, "relax.nn.gelu_tanh", ACTIVATION,
       ROW("gelu_tanh", gelu_tanh, NULL, gelu_tanh_lower)),
    OP(IR_OP_SILU, "relax.nn.silu", ACTIVATION, ROW("silu", silu, NULL, silu_lower)),
    OP(IR_OP_SELU, "relax.nn.selu", ACTIVATION, ROW("selu", selu, NULL, selu_lower)),
    OP(IR_OP_SOFTPLUS, "relax.nn.softplus",
       .syn.params = {E("data"), A("beta", "1.0"), A("threshold", "20.0")}, .syn.nparams = 3,
       .impl = {infer_activation, eval_activation, legalize_activation},
       ROW("softplus", softplus, NULL, softplus_lower)),
    OP(IR_OP_PRELU, "relax.nn.prelu", .syn.params = {E("data"), E("alpha"), A("axis", "1")},
       .syn.nparams = 3, .impl = {infer_prelu, eval_prelu, legalize_prelu}),
    OP(IR_OP_SOFTMAX, "relax.nn.softmax", .syn.params = {E("data"), A("axis", "-1")},
       .syn.nparams = 2, .impl = {infer_softmax, eval_softmax, legalize_softmax}),
    OP(IR_OP_LOG_SOFTMAX, "relax.nn.log_softmax", .syn.params = {E("data"), A("axis", "-1")},
       .syn.nparams = 2, .impl = {infer_softmax, eval_softmax, legalize_softmax}),
    OP(IR_OP_LAYER_NORM, "relax.nn.layer_norm",
       .syn.params = {E("data"), E("gamma"), E("beta"), A("axes", NULL), A("epsilon", "1e-05"),
                      A("center", "True"), A("scale", "True")},
       .syn.nparams = 7, .impl = {op_nn_infer_layer_norm, op_nn_eval_layer_norm, op_nn_legalize_layer_norm}),
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
       .syn.nparams = 4, .impl = {op_nn_infer_layer_norm, op_nn_eval_norm, op_nn_legalize_norm}),
    OP(IR_OP_BATCH_NORM, "relax.nn.batch_norm",
       .syn.params = {E("data"), E("gamma"), E("beta"), E("moving_mean"), E("moving_var"),
                      A("axis", NULL), A("epsilon", "1e-05"), A("center", "True"),
                      A("scale", "True"), A("momentum", "0.10000000000000001"),
                      A("training", "True")},
       .syn.nparams = 11, .impl = {op_nn_infer_batch_norm, op_nn_eval_batch_norm, op_nn_legalize_batch_norm}),
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
       .syn.nparams = 2, .impl = {infer_dropout, eval_dropout, legalize_dropout}),
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
