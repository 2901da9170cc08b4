/*
 * onnx_act.c - converters of ONNX operators that Relax spells as a few
 * of its own calls: the piecewise activations (Elu, Celu, HardSigmoid,
 * HardSwish, Shrink, ThresholdedRelu, Softsign), Hardmax, SpaceToDepth,
 * LRN, MeanVarianceNormalization, SoftmaxCrossEntropyLoss and the window
 * functions.
 *
 * Key ideas:
 *  - Each converter writes out ONNX's definition (the operator's function
 *    body, or the formula of its reference in the ONNX backend tests) with
 *    elementwise calls; FuseOps puts them back into one kernel.
 *  - The window functions take their length as an input: it must be known
 *    at import (rxc plans memory ahead of time), and the window is then a
 *    constant, computed in double and rounded once to its type.
 */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "onnx_int.h"

#define OUT(v) ((im->outs[0] = (v)) != NULL)

static const double PI = 3.14159265358979323846;

static OxVal *
where(OxImp *im, OxVal *cond, OxVal *a, OxVal *b)
{
  OxVal *args[3] = {cond, a, b};
  return cond && a && b ? fe_ox_call(im, IR_OP_WHERE, args, 3, NULL) : NULL;
}

/* min(max(v, 0), 1) */
static OxVal *
clamp01(OxImp *im, OxVal *v)
{
  v = fe_ox_call2(im, IR_OP_MAXIMUM, v, fe_ox_like(im, v, 0));
  return fe_ox_call2(im, IR_OP_MINIMUM, v, fe_ox_like(im, v, 1));
}

/* a * x + b */
static OxVal *
affine(OxImp *im, OxVal *x, double a, double b)
{
  return fe_ox_call2(im, IR_OP_ADD, fe_ox_call2(im, IR_OP_MULTIPLY, x, fe_ox_like(im, x, a)),
                     fe_ox_like(im, x, b));
}

/* ---- activations -------------------------------------------------------- */

/* The activations by ONNX name, with the defaults of their alpha and beta
 * (those of the ONNX operator of the name; the recurrent operators take
 * these names in their activations attribute, Affine and ScaledTanh only
 * there). */
static const struct {
  const char *name;
  int nparams; /* how many of alpha, beta it reads */
  double alpha, beta;
} acts[] = {
    {"Relu", 0, 0, 0},         {"Tanh", 0, 0, 0},
    {"Sigmoid", 0, 0, 0},      {"Affine", 2, 1, 0},
    {"LeakyRelu", 1, 0.01, 0}, {"ThresholdedRelu", 1, 1, 0},
    {"ScaledTanh", 2, 1, 1},   {"HardSigmoid", 2, 0.2, 0.5},
    {"Elu", 1, 1, 0},          {"Softsign", 0, 0, 0},
    {"Softplus", 0, 0, 0},     {"HardSwish", 0, 0, 0},
    {"Celu", 1, 1, 0},
};

int
fe_ox_act_find(const char *name, double *alpha, double *beta)
{
  for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++)
    if (strcasecmp(acts[i].name, name) == 0) {
      *alpha = acts[i].alpha;
      *beta = acts[i].beta;
      return acts[i].nparams;
    }
  return -1;
}

OxVal *
fe_ox_act(OxImp *im, const char *name, double alpha, double beta, OxVal *x)
{
  static const struct {
    const char *name;
    IrOpId op;
  } unary[] = {{"Relu", IR_OP_RELU},
               {"Tanh", IR_OP_TANH},
               {"Sigmoid", IR_OP_SIGMOID},
               {"Softplus", IR_OP_SOFTPLUS}};
  for (size_t i = 0; i < sizeof unary / sizeof unary[0]; i++)
    if (strcasecmp(unary[i].name, name) == 0)
      return fe_ox_call1(im, unary[i].op, x, NULL);
  if (strcasecmp(name, "Affine") == 0)
    return affine(im, x, alpha, beta);
  if (strcasecmp(name, "LeakyRelu") == 0)
    return fe_ox_call1(im, IR_OP_LEAKYRELU, x,
                       fe_ox_attrs(im->ctx, "alpha", ir_attr_float(im->ctx, alpha), NULL));
  if (strcasecmp(name, "ThresholdedRelu") == 0) /* x where x > alpha, else 0 */
    return where(im, fe_ox_call2(im, IR_OP_GREATER, x, fe_ox_like(im, x, alpha)), x,
                 fe_ox_like(im, x, 0));
  if (strcasecmp(name, "ScaledTanh") == 0) /* alpha * tanh(beta * x) */
    return fe_ox_call2(im, IR_OP_MULTIPLY,
                       fe_ox_call1(im, IR_OP_TANH, affine(im, x, beta, 0), NULL),
                       fe_ox_like(im, x, alpha));
  if (strcasecmp(name, "HardSigmoid") == 0) /* max(0, min(1, alpha * x + beta)) */
    return clamp01(im, affine(im, x, alpha, beta));
  if (strcasecmp(name, "HardSwish") == 0) /* x * HardSigmoid(alpha 1/6, beta 1/2) */
    return fe_ox_call2(im, IR_OP_MULTIPLY, x, clamp01(im, affine(im, x, 1.0 / 6, 0.5)));
  if (strcasecmp(name, "Elu") == 0 || strcasecmp(name, "Celu") == 0) {
    /* Elu: x where x >= 0, alpha * (exp(x) - 1) elsewhere; Celu: max(0, x)
     * + min(0, alpha * (exp(x / alpha) - 1)), the same function */
    bool celu = strcasecmp(name, "Celu") == 0;
    if (celu && alpha == 0)
      return fe_ox_unsupported(im, "alpha must not be 0"), NULL;
    OxVal *in = celu ? affine(im, x, 1 / alpha, 0) : x;
    OxVal *e =
        fe_ox_call2(im, IR_OP_SUBTRACT, fe_ox_call1(im, IR_OP_EXP, in, NULL), fe_ox_like(im, x, 1));
    OxVal *neg = fe_ox_call2(im, IR_OP_MULTIPLY, e, fe_ox_like(im, x, alpha));
    return where(im, fe_ox_call2(im, IR_OP_LESS, x, fe_ox_like(im, x, 0)), neg, x);
  }
  if (strcasecmp(name, "Softsign") == 0) { /* x / (1 + |x|) */
    OxVal *d =
        fe_ox_call2(im, IR_OP_ADD, fe_ox_call1(im, IR_OP_ABS, x, NULL), fe_ox_like(im, x, 1));
    return fe_ox_call2(im, IR_OP_DIVIDE, x, d);
  }
  fe_ox_unsupported(im, "activation '%s' is not supported", name);
  return NULL;
}

/* Elu, Celu, HardSigmoid, HardSwish, ThresholdedRelu, Softsign: the
 * activation of the operator's name, alpha and beta from its attributes. */
static bool
cv_activation(OxImp *im, OxVal **in, int nin)
{
  double alpha = 0, beta = 0;
  fe_ox_act_find(im->node->op_type, &alpha, &beta);
  alpha = fe_ox_attr_f(im->node, "alpha", alpha);
  beta = fe_ox_attr_f(im->node, "beta", beta);
  return OUT(fe_ox_act(im, im->node->op_type, alpha, beta, in[0]));
}

/* Shrink: x - bias where x > lambd, x + bias where x < -lambd, else 0. */
static bool
cv_shrink(OxImp *im, OxVal **in, int nin)
{
  OxVal *x = in[0];
  double lambd = fe_ox_attr_f(im->node, "lambd", 0.5), bias = fe_ox_attr_f(im->node, "bias", 0);
  OxVal *below =
      where(im, fe_ox_call2(im, IR_OP_LESS, x, fe_ox_like(im, x, -lambd)),
            fe_ox_call2(im, IR_OP_ADD, x, fe_ox_like(im, x, bias)), fe_ox_like(im, x, 0));
  return OUT(where(im, fe_ox_call2(im, IR_OP_GREATER, x, fe_ox_like(im, x, lambd)),
                   fe_ox_call2(im, IR_OP_SUBTRACT, x, fe_ox_like(im, x, bias)), below));
}

/* ---- Hardmax, SpaceToDepth ---------------------------------------------- */

/* Hardmax: 1 at the first largest element along axis, 0 elsewhere
 * (opset < 13: along the last axis of the 2-D view at axis). */
static bool
cv_hardmax(OxImp *im, OxVal **in, int nin)
{
  OxVal *x = in[0];
  int r = fe_ox_rank(x);
  int64_t axis = fe_ox_attr_i(im->node, "axis", im->opset >= 13 ? -1 : 1), n;
  if (r < 1 || axis < -r || axis >= r)
    return fe_ox_unsupported(im, "axis %lld is out of range", (long long)axis);
  axis = axis < 0 ? axis + r : axis;
  if (im->opset < 13) {
    x = fe_ox_flatten_2d(im, x, axis);
    axis = 1;
  }
  if (!x || !fe_ox_dim(x, (int)axis, &n))
    return fe_ox_unsupported(im, "needs a static size of the axis");
  int rx = fe_ox_rank(x);
  OxVal *arg = fe_ox_call1(im, IR_OP_ARGMAX, x,
                           fe_ox_attrs(im->ctx, "axis", ir_attr_int(im->ctx, axis), "keepdims",
                                       ir_attr_bool(im->ctx, true), NULL));
  /* 0 .. n-1 laid along axis */
  int64_t *iota = ir_alloc(im->ctx, sizeof *iota * (size_t)(n ? n : 1));
  for (int64_t i = 0; i < n; i++)
    iota[i] = i;
  IrPrimExpr **dims = ir_alloc(im->ctx, sizeof *dims * (size_t)rx);
  for (int i = 0; i < rx; i++)
    dims[i] = ir_prim_int(im->ctx, IR_I64, i == axis ? n : 1);
  OxVal *at = fe_ox_reshape(im, fe_ox_ints(im, iota, (int)n), dims, rx);
  OxVal *y = fe_ox_call2(im, IR_OP_EQUAL, arg, at);
  char buf[16];
  y = fe_ox_call1(
      im, IR_OP_ASTYPE, y,
      fe_ox_attrs(im->ctx, "dtype",
                  ir_attr_str(im->ctx, ir_sym(im->ctx, ir_dtype_str(fe_ox_dtype(x), buf))), NULL));
  if (y && im->opset < 13)
    y = fe_ox_reshape(im, y, in[0]->sinfo->u.tensor.shape, r);
  return OUT(y);
}

/* SpaceToDepth: (N, C, H, W) -> (N, C*b*b, H/b, W/b), the block offsets
 * outermost: reshape to (N, C, H/b, b, W/b, b), move the two b's ahead of
 * C, reshape back. */
static bool
cv_space_to_depth(OxImp *im, OxVal **in, int nin)
{
  OxVal *x = in[0];
  int64_t b = fe_ox_attr_i(im->node, "blocksize", 0), h, w;
  if (b <= 0 || fe_ox_rank(x) != 4)
    return fe_ox_unsupported(im, "needs a positive blocksize and a rank-4 input");
  if (!fe_ox_dim(x, 2, &h) || !fe_ox_dim(x, 3, &w) || h % b || w % b)
    return fe_ox_unsupported(im, "needs static H and W divisible by blocksize");
  IrCtx *ctx = im->ctx;
  IrPrimExpr *bb = ir_prim_int(ctx, IR_I64, b), *n = fe_ox_dim_expr(x, 0),
             *c = fe_ox_dim_expr(x, 1);
  if (!n || !c)
    return fe_ox_unsupported(im, "needs known N and C");
  IrPrimExpr *hb = ir_prim_int(ctx, IR_I64, h / b), *wb = ir_prim_int(ctx, IR_I64, w / b);
  IrPrimExpr *split[6] = {n, c, hb, bb, wb, bb};
  IrPrimExpr *joined[4] = {n, ir_prim_bin(ctx, IR_PE_MUL, c, ir_prim_int(ctx, IR_I64, b * b)), hb,
                           wb};
  static const int64_t perm[6] = {0, 3, 5, 1, 2, 4};
  return OUT(fe_ox_regroup(im, x, split, perm, joined));
}

/* ---- normalizations ----------------------------------------------------- */

/* LRN over channels: x / (bias + alpha / size * s)^beta, s the sum of x^2
 * over channels c - floor((size-1)/2) .. c + ceil((size-1)/2), clipped
 * to the tensor: the squares padded with zeros on the channel axis, then
 * size shifted slices added. */
static bool
cv_lrn(OxImp *im, OxVal **in, int nin)
{
  OxVal *x = in[0];
  int r = fe_ox_rank(x);
  int64_t size = fe_ox_attr_i(im->node, "size", 0), c;
  double alpha = fe_ox_attr_f(im->node, "alpha", 1e-4), beta = fe_ox_attr_f(im->node, "beta", 0.75);
  double bias = fe_ox_attr_f(im->node, "bias", 1.0);
  if (size <= 0 || size > 64 || r < 3 || !fe_ox_dim(x, 1, &c))
    return fe_ox_unsupported(im, "needs a size in 1..64, rank >= 3 and a static channel count");
  IrCtx *ctx = im->ctx;
  int64_t before = (size - 1) / 2, after = size - 1 - before;
  int64_t *pads = ir_alloc(ctx, sizeof *pads * (size_t)(2 * r));
  for (int i = 0; i < 2 * r; i++)
    pads[i] = 0;
  pads[2] = before; /* TVM's pad_width: (before, after) per axis */
  pads[3] = after;
  OxVal *sq = fe_ox_call2(im, IR_OP_MULTIPLY, x, x);
  OxVal *padded = fe_ox_call1(im, IR_OP_PAD, sq,
                              fe_ox_attrs(ctx, "pad_width", fe_ox_attr_ints(ctx, pads, 2 * r),
                                          "pad_mode", ir_attr_str(ctx, ir_sym(ctx, "constant")),
                                          "pad_value", ir_attr_float(ctx, 0), NULL));
  OxVal *sum = NULL;
  for (int64_t k = 0; k < size && padded; k++) {
    OxVal *part = fe_ox_slice(im, padded, 1, k, k + c, 1);
    sum = sum ? fe_ox_call2(im, IR_OP_ADD, sum, part) : part;
  }
  OxVal *d = affine(im, sum, alpha / (double)size, bias);
  d = fe_ox_call2(im, IR_OP_POWER, d, fe_ox_like(im, x, beta));
  return OUT(fe_ox_call2(im, IR_OP_DIVIDE, x, d));
}

/* MeanVarianceNormalization: (x - mean) / (sqrt(mean(x^2) - mean^2) +
 * 1e-9) over axes (default 0, 2, 3), ONNX's function body. */
static bool
cv_mvn(OxImp *im, OxVal **in, int nin)
{
  OxVal *x = in[0];
  int n;
  const int64_t *axes = fe_ox_attr_is(im->node, "axes", &n);
  static const int64_t dflt[3] = {0, 2, 3};
  if (n < 0) {
    axes = dflt;
    n = 3;
  }
  IrAttr *attrs = fe_ox_attrs(im->ctx, "axis", fe_ox_attr_ints(im->ctx, axes, n), "keepdims",
                              ir_attr_bool(im->ctx, true), NULL);
  OxVal *mean = fe_ox_call1(im, IR_OP_MEAN, x, attrs);
  OxVal *sq_mean = fe_ox_call1(im, IR_OP_MEAN, fe_ox_call2(im, IR_OP_MULTIPLY, x, x), attrs);
  OxVal *var =
      fe_ox_call2(im, IR_OP_SUBTRACT, sq_mean, fe_ox_call2(im, IR_OP_MULTIPLY, mean, mean));
  OxVal *std =
      fe_ox_call2(im, IR_OP_ADD, fe_ox_call1(im, IR_OP_SQRT, var, NULL), fe_ox_like(im, x, 1e-9));
  return OUT(fe_ox_call2(im, IR_OP_DIVIDE, fe_ox_call2(im, IR_OP_SUBTRACT, x, mean), std));
}

/* ---- losses ------------------------------------------------------------- */

/* SoftmaxCrossEntropyLoss: NegativeLogLikelihoodLoss of log_softmax(scores)
 * over the class axis 1; the second output is that log_softmax. */
static bool
cv_sce_loss(OxImp *im, OxVal **in, int nin)
{
  IrCtx *ctx = im->ctx;
  const char *reduction = fe_ox_attr_s(im, im->node, "reduction", "mean");
  OxVal *logp = fe_ox_call1(im, IR_OP_LOG_SOFTMAX, in[0],
                            fe_ox_attrs(ctx, "axis", ir_attr_int(ctx, 1), NULL));
  if (!logp)
    return false;
  IrAttr *attrs =
      fe_ox_attrs(ctx, "reduction", ir_attr_str(ctx, ir_sym(ctx, reduction)), "ignore_index",
                  ir_attr_int(ctx, fe_ox_attr_i(im->node, "ignore_index", -100)), NULL);
  OxVal *args[3] = {logp, in[1], nin > 2 ? in[2] : NULL};
  if (!OUT(fe_ox_call(im, IR_OP_NLL_LOSS, args, args[2] ? 3 : 2, attrs)))
    return false;
  if (im->node->n_output > 1)
    im->outs[1] = logp;
  return true;
}

/* ---- window functions --------------------------------------------------- */

/* HannWindow, HammingWindow, BlackmanWindow: a0 - a1 cos(2 pi n / N) + a2
 * cos(4 pi n / N), n = 0 .. size-1, N = size (periodic) or size - 1. */
static bool
cv_window(OxImp *im, OxVal **in, int nin)
{
  const char *t = im->node->op_type;
  double a0 = 0.5, a1 = 0.5, a2 = 0;
  if (strcmp(t, "HammingWindow") == 0) {
    a0 = 25.0 / 46;
    a1 = 1 - a0;
  } else if (strcmp(t, "BlackmanWindow") == 0) {
    a0 = 0.42;
    a2 = 0.08;
  }
  int64_t *size;
  int n;
  if (!fe_ox_known_ints(im, in[0], "the size", &size, &n))
    return false;
  if (n != 1 || size[0] < 0 || size[0] > ((int64_t)1 << 24))
    return fe_ox_unsupported(im, "the size must be one value in 0..2^24");
  IrDType dt;
  if (!fe_ox_dtype_of((int32_t)fe_ox_attr_i(im->node, "output_datatype", 1), &dt) ||
      (dt.code != IR_DT_FLOAT && dt.code != IR_DT_BFLOAT))
    return fe_ox_unsupported(im, "output_datatype must be a floating-point type");
  int64_t len = size[0];
  double den = fe_ox_attr_i(im->node, "periodic", 1) ? (double)len : (double)(len - 1);
  IrTensorData *d = ir_alloc(im->ctx, sizeof *d);
  d->dtype = dt;
  d->ndim = 1;
  d->shape = ir_alloc(im->ctx, sizeof(int64_t));
  d->shape[0] = len;
  d->nbytes = (size_t)ir_dtype_bytes(dt) * (size_t)len;
  d->data = ir_alloc(im->ctx, d->nbytes ? d->nbytes : 1);
  for (int64_t i = 0; i < len; i++) {
    double w = den > 0 ? 2 * PI * (double)i / den : 0;
    op_set_f(d, i, a0 - a1 * cos(w) + a2 * cos(2 * w));
  }
  return OUT(fe_ox_known(im, NULL, d));
}

static const OxOp act_ops[] = {
    {"Elu", cv_activation, "alpha"},
    {"Celu", cv_activation, "alpha"},
    {"HardSigmoid", cv_activation, "alpha,beta"},
    {"HardSwish", cv_activation, ""},
    {"Shrink", cv_shrink, "bias,lambd"},
    {"ThresholdedRelu", cv_activation, "alpha"},
    {"Softsign", cv_activation, ""},
    {"Hardmax", cv_hardmax, "axis"},
    {"SpaceToDepth", cv_space_to_depth, "blocksize"},
    {"LRN", cv_lrn, "alpha,beta,bias,size"},
    {"MeanVarianceNormalization", cv_mvn, "axes"},
    {"SoftmaxCrossEntropyLoss", cv_sce_loss, "reduction,ignore_index"},
    {"HannWindow", cv_window, "periodic,output_datatype"},
    {"HammingWindow", cv_window, "periodic,output_datatype"},
    {"BlackmanWindow", cv_window, "periodic,output_datatype"},
    {NULL, NULL, NULL},
};

const OxOp *
fe_ox_act_ops(void)
{
  return act_ops;
}
