/*
 * onnx_ops.c - converters of the ONNX elementwise, reduction and tensor
 * manipulation operators to Relax calls, with ONNX's semantics per opset
 * (axes as attribute or input, Reshape's 0 and -1, Flatten and opset<13
 * Softmax over a 2-D view).  Shape computations over known values fold
 * at import (onnx_build.c), so Shape, Gather, Unsqueeze and Concat over
 * static shapes never reach the module.
 */
#include <math.h>
#include <string.h>

#include "onnx_int.h"

#define OUT(v) (im->outs[0] = (v)) != NULL

/* ---- elementwise ------------------------------------------------------ */

static IrOpId
binary_op(const char *t)
{
  static const struct {
    const char *name;
    IrOpId op;
  } map[] = {{"Add", IR_OP_ADD},
             {"Sub", IR_OP_SUBTRACT},
             {"Mul", IR_OP_MULTIPLY},
             {"Div", IR_OP_DIVIDE},
             {"Equal", IR_OP_EQUAL},
             {"Less", IR_OP_LESS},
             {"Greater", IR_OP_GREATER},
             {"LessOrEqual", IR_OP_LESS_EQUAL},
             {"GreaterOrEqual", IR_OP_GREATER_EQUAL},
             {"Max", IR_OP_MAXIMUM},
             {"Min", IR_OP_MINIMUM},
             {"Sum", IR_OP_ADD},
             {"Mean", IR_OP_ADD},
             {"And", IR_OP_LOGICAL_AND},
             {"Or", IR_OP_LOGICAL_OR},
             {"Xor", IR_OP_LOGICAL_XOR},
             {"BitwiseAnd", IR_OP_BITWISE_AND},
             {"BitwiseOr", IR_OP_BITWISE_OR},
             {"BitwiseXor", IR_OP_BITWISE_XOR}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(map[i].name, t) == 0)
      return map[i].op;
  return IR_OP_COUNT;
}

/* b reshaped so that its dims line up with a's from axis on (the
 * broadcast attribute of opset < 7); b itself when axis is absent (numpy
 * alignment from the right says the same). */
OxVal *
fe_ox_legacy_broadcast(OxImp *im, OxVal *a, OxVal *b)
{
  const Onnx__AttributeProto *axis = fe_ox_attr(im->node, "axis");
  int ra = fe_ox_rank(a), rb = fe_ox_rank(b);
  if (!axis || !fe_ox_attr_i(im->node, "broadcast", 0) || rb < 0 || ra < 0)
    return b;
  int64_t at = axis->i < 0 ? axis->i + ra : axis->i;
  int trailing = ra - (int)at - rb;
  if (trailing <= 0)
    return b;
  IrPrimExpr **dims = ir_alloc(im->ctx, sizeof *dims * (size_t)(rb + trailing));
  for (int i = 0; i < rb + trailing; i++)
    dims[i] = i < rb ? fe_ox_dim_expr(b, i) : ir_prim_int(im->ctx, IR_I64, 1);
  for (int i = 0; i < rb; i++)
    if (!dims[i])
      return NULL;
  return fe_ox_reshape(im, b, dims, rb + trailing);
}

/* Add, Sub, Mul, Div, the comparisons, And, Or, Xor and the bitwise ops:
 * numpy broadcasting (opset >= 7; before, the broadcast and axis
 * attributes); Max, Min, Sum, Mean fold over any number of inputs. */
static bool
cv_binary(OxImp *im, OxVal **in, int nin)
{
  const char *t = im->node->op_type;
  if (nin < 1 || !in[0])
    return fe_ox_unsupported(im, "needs an input");
  OxVal *acc = in[0];
  for (int i = 1; i < nin && acc; i++)
    acc = fe_ox_call2(im, binary_op(t), acc, fe_ox_legacy_broadcast(im, acc, in[i]));
  if (acc && strcmp(t, "Mean") == 0 && nin > 1)
    acc = fe_ox_call2(im, IR_OP_DIVIDE, acc, fe_ox_scalar(im, fe_ox_dtype(acc), nin));
  return OUT(acc);
}

/* Pow: the exponent is cast to the base's type. */
static bool
cv_pow(OxImp *im, OxVal **in, int nin)
{
  OxVal *e = in[1];
  if (!ir_dtype_eq(fe_ox_dtype(e), fe_ox_dtype(in[0]))) {
    char buf[16];
    e = fe_ox_call1(
        im, IR_OP_ASTYPE, e,
        fe_ox_attrs(im->ctx, "dtype",
                    ir_attr_str(im->ctx, ir_sym(im->ctx, ir_dtype_str(fe_ox_dtype(in[0]), buf))),
                    NULL));
  }
  return OUT(fe_ox_call2(im, IR_OP_POWER, in[0], e));
}

/* Mod: fmod = 1 is C's fmod (R.mod), fmod = 0 the integer remainder with
 * the divisor's sign (R.floor_mod), as TVM's importer maps them. */
static bool
cv_mod(OxImp *im, OxVal **in, int nin)
{
  IrOpId op = fe_ox_attr_i(im->node, "fmod", 0) ? IR_OP_MOD : IR_OP_FLOOR_MOD;
  return OUT(fe_ox_call2(im, op, in[0], in[1]));
}

/* BitShift: direction "LEFT" or "RIGHT" (unsigned inputs in ONNX). */
static bool
cv_bit_shift(OxImp *im, OxVal **in, int nin)
{
  const char *d = fe_ox_attr_s(im, im->node, "direction", "");
  if (strcmp(d, "LEFT") != 0 && strcmp(d, "RIGHT") != 0)
    return fe_ox_unsupported(im, "direction '%s' is not LEFT or RIGHT", d);
  IrOpId op = d[0] == 'L' ? IR_OP_LEFT_SHIFT : IR_OP_RIGHT_SHIFT;
  return OUT(fe_ox_call2(im, op, in[0], in[1]));
}

/* IsInf: isinf(x), and x > 0 or x < 0 when only one of detect_positive,
 * detect_negative is set (TVM's importer ignores them); neither: x < x,
 * false everywhere, NaN included. */
static bool
cv_is_inf(OxImp *im, OxVal **in, int nin)
{
  bool pos = fe_ox_attr_i(im->node, "detect_positive", 1) != 0;
  bool neg = fe_ox_attr_i(im->node, "detect_negative", 1) != 0;
  if (!pos && !neg)
    return OUT(fe_ox_call2(im, IR_OP_LESS, in[0], in[0]));
  OxVal *inf = fe_ox_call1(im, IR_OP_ISINF, in[0], NULL);
  if (pos && neg)
    return OUT(inf);
  OxVal *zero = fe_ox_scalar(im, fe_ox_dtype(in[0]), 0);
  OxVal *side = fe_ox_call2(im, pos ? IR_OP_GREATER : IR_OP_LESS, in[0], zero);
  return OUT(fe_ox_call2(im, IR_OP_LOGICAL_AND, inf, side));
}

static bool
cv_unary(OxImp *im, OxVal **in, int nin)
{
  static const struct {
    const char *name;
    IrOpId op;
  } map[] = {{"Relu", IR_OP_RELU},   {"Sigmoid", IR_OP_SIGMOID}, {"Tanh", IR_OP_TANH},
             {"Erf", IR_OP_ERF},     {"Exp", IR_OP_EXP},         {"Log", IR_OP_LOG},
             {"Sqrt", IR_OP_SQRT},   {"Neg", IR_OP_NEGATIVE},    {"Abs", IR_OP_ABS},
             {"Sin", IR_OP_SIN},     {"Cos", IR_OP_COS},         {"Tan", IR_OP_TAN},
             {"Asin", IR_OP_ASIN},   {"Acos", IR_OP_ACOS},       {"Atan", IR_OP_ATAN},
             {"Sinh", IR_OP_SINH},   {"Cosh", IR_OP_COSH},       {"Asinh", IR_OP_ASINH},
             {"Acosh", IR_OP_ACOSH}, {"Atanh", IR_OP_ATANH},     {"Ceil", IR_OP_CEIL},
             {"Floor", IR_OP_FLOOR}, {"Round", IR_OP_ROUND},     {"Sign", IR_OP_SIGN},
             {"IsNaN", IR_OP_ISNAN}, {"Not", IR_OP_LOGICAL_NOT}, {"BitwiseNot", IR_OP_BITWISE_NOT}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(map[i].name, im->node->op_type) == 0)
      return OUT(fe_ox_call1(im, map[i].op, in[0], NULL));
  return fe_ox_unsupported(im, "operator not supported");
}

static bool
cv_reciprocal(OxImp *im, OxVal **in, int nin)
{
  return OUT(fe_ox_call2(im, IR_OP_DIVIDE, fe_ox_scalar(im, fe_ox_dtype(in[0]), 1), in[0]));
}

static bool
cv_gelu(OxImp *im, OxVal **in, int nin)
{
  const char *approx = fe_ox_attr_s(im, im->node, "approximate", "none");
  if (strcmp(approx, "none") != 0)
    return fe_ox_unsupported(im, "approximate='%s' is not supported", approx);
  return OUT(fe_ox_call1(im, IR_OP_GELU, in[0], NULL));
}

/* LeakyRelu: R.nn.leakyrelu, x where x >= 0, alpha * x elsewhere. */
static bool
cv_leaky_relu(OxImp *im, OxVal **in, int nin)
{
  double alpha = fe_ox_attr_f(im->node, "alpha", 0.01);
  return OUT(fe_ox_call1(im, IR_OP_LEAKYRELU, in[0],
                         fe_ox_attrs(im->ctx, "alpha", ir_attr_float(im->ctx, alpha), NULL)));
}

/* Selu: R.nn.selu with ONNX's default alpha and gamma (TVM's constants,
 * which ONNX's are rounded to float32); other values spelled out as
 * gamma * where(x > 0, x, alpha * (exp(x) - 1)). */
static bool
cv_selu(OxImp *im, OxVal **in, int nin)
{
  double alpha = fe_ox_attr_f(im->node, "alpha", 1.67326319217681884765625);
  double gamma = fe_ox_attr_f(im->node, "gamma", 1.05070102214813232421875);
  if (fabs(alpha - 1.6732632423543772) < 1e-6 && fabs(gamma - 1.0507009873554805) < 1e-6)
    return OUT(fe_ox_call1(im, IR_OP_SELU, in[0], NULL));
  IrDType t = fe_ox_dtype(in[0]);
  OxVal *pos = fe_ox_call2(im, IR_OP_GREATER, in[0], fe_ox_scalar(im, t, 0));
  OxVal *e = fe_ox_call2(im, IR_OP_SUBTRACT, fe_ox_call1(im, IR_OP_EXP, in[0], NULL),
                         fe_ox_scalar(im, t, 1));
  OxVal *neg = fe_ox_call2(im, IR_OP_MULTIPLY, e, fe_ox_scalar(im, t, alpha));
  OxVal *args[3] = {pos, in[0], neg};
  OxVal *y = pos && neg ? fe_ox_call(im, IR_OP_WHERE, args, 3, NULL) : NULL;
  return OUT(fe_ox_call2(im, IR_OP_MULTIPLY, y, fe_ox_scalar(im, t, gamma)));
}

/* Softplus: log(exp(x) + 1), R.nn.softplus with beta 1 (its threshold 20
 * returns x where log1p(exp(x)) differs from x by less than exp(-20)). */
static bool
cv_softplus(OxImp *im, OxVal **in, int nin)
{
  return OUT(fe_ox_call1(im, IR_OP_SOFTPLUS, in[0], NULL));
}

static bool
cv_where(OxImp *im, OxVal **in, int nin)
{
  return OUT(fe_ox_call(im, IR_OP_WHERE, in, 3, NULL));
}

static IrAttr *
dtype_attr(OxImp *im, IrDType t)
{
  char buf[16];
  return fe_ox_attrs(im->ctx, "dtype", ir_attr_str(im->ctx, ir_sym(im->ctx, ir_dtype_str(t, buf))),
                     NULL);
}

static bool
cv_cast(OxImp *im, OxVal **in, int nin)
{
  IrDType t = nin > 1 ? fe_ox_dtype(in[1]) : IR_VOID; /* CastLike */
  if (nin < 2 && !fe_ox_dtype_of((int32_t)fe_ox_attr_i(im->node, "to", 0), &t))
    return fe_ox_unsupported(im, "cast to data type %lld is not supported",
                             (long long)fe_ox_attr_i(im->node, "to", 0));
  if (ir_dtype_eq(t, fe_ox_dtype(in[0])))
    return OUT(in[0]);
  return OUT(fe_ox_astype(im, in[0], t));
}

/* Clip: min and max as attributes (opset < 11) or optional inputs. */
static bool
cv_clip(OxImp *im, OxVal **in, int nin)
{
  OxVal *x = in[0], *lo = NULL, *hi = NULL;
  IrDType t = fe_ox_dtype(x);
  if (im->opset < 11) {
    if (fe_ox_attr(im->node, "min"))
      lo = fe_ox_scalar(im, t, fe_ox_attr_f(im->node, "min", 0));
    if (fe_ox_attr(im->node, "max"))
      hi = fe_ox_scalar(im, t, fe_ox_attr_f(im->node, "max", 0));
  } else {
    lo = nin > 1 ? in[1] : NULL;
    hi = nin > 2 ? in[2] : NULL;
  }
  if (lo)
    x = fe_ox_call2(im, IR_OP_MAXIMUM, x, lo);
  if (hi)
    x = fe_ox_call2(im, IR_OP_MINIMUM, x, hi);
  return OUT(x);
}

static bool
cv_identity(OxImp *im, OxVal **in, int nin)
{
  return OUT(in[0]);
}

/* Dropout in inference: the identity; its mask is all true. */
static bool
cv_dropout(OxImp *im, OxVal **in, int nin)
{
  if (nin > 2 && in[2] && (!in[2]->data || op_get_i(in[2]->data, 0)))
    return fe_ox_unsupported(im, "training_mode is not supported");
  int r = fe_ox_rank(in[0]);
  if (im->node->n_output > 1 && im->node->output[1][0]) {
    if (r < 0 || !in[0]->sinfo->u.tensor.shape)
      return fe_ox_unsupported(im, "the mask of an input of unknown shape");
    IrExpr *args[2] = {fe_ox_use(im, fe_ox_scalar(im, IR_BOOL, 1)),
                       ir_shape_expr(im->ctx, in[0]->sinfo->u.tensor.shape, r, im->loc)};
    if (!(im->outs[1] = fe_ox_emit(im, im->node->output[1], IR_OP_BROADCAST_TO, args, 2, NULL)))
      return false;
  }
  return OUT(in[0]);
}

/* ---- constants and shapes ------------------------------------------------ */

/* A known 0-d int64. */
static OxVal *
int_scalar(OxImp *im, int64_t v)
{
  OxVal *s = fe_ox_scalar(im, IR_I64, 0);
  op_set_i((IrTensorData *)s->data, 0, v);
  return s;
}

static bool
cv_constant(OxImp *im, OxVal **in, int nin)
{
  const Onnx__AttributeProto *a = im->node->n_attribute == 1 ? im->node->attribute[0] : NULL;
  const char *name = a ? a->name : "";
  if (strcmp(name, "value") == 0 && a->t) {
    IrTensorData *d = ir_alloc(im->ctx, sizeof *d);
    return fe_ox_tensor_read(im, a->t, d) && OUT(fe_ox_known(im, NULL, d));
  }
  if (strcmp(name, "value_float") == 0)
    return OUT(fe_ox_scalar(im, IR_F32, a->f));
  if (strcmp(name, "value_int") == 0)
    return OUT(int_scalar(im, a->i));
  if (strcmp(name, "value_ints") == 0)
    return OUT(fe_ox_ints(im, a->ints, (int)a->n_ints));
  if (strcmp(name, "value_floats") == 0) {
    OxVal *v = fe_ox_ints(im, NULL, 0);
    IrTensorData *d = (IrTensorData *)v->data;
    d->dtype = IR_F32;
    d->shape[0] = (int64_t)a->n_floats;
    d->nbytes = 4 * a->n_floats;
    d->data = ir_alloc(im->ctx, d->nbytes + 1);
    memcpy(d->data, a->floats, d->nbytes);
    return OUT(fe_ox_known(im, NULL, d));
  }
  return fe_ox_unsupported(im, "a constant given as '%s' is not supported", name);
}

/* Whether every dim of v is static; *numel gets their product. */
static bool
static_shape(const OxVal *v, int64_t *dims, int64_t *numel)
{
  *numel = 1;
  for (int i = 0; i < fe_ox_rank(v); i++) {
    if (!fe_ox_dim(v, i, &dims[i]))
      return false;
    *numel *= dims[i];
  }
  return fe_ox_rank(v) >= 0;
}

/* Shape: known ints when every dim is static (later shape arithmetic
 * folds), else R.shape_to_tensor of the dims [start, end) as expressions
 * of the graph's symbolic dims. */
static bool
cv_shape(OxImp *im, OxVal **in, int nin)
{
  int64_t dims[64], numel;
  int r = fe_ox_rank(in[0]);
  if (r < 0 || r > 64)
    return fe_ox_unsupported(im, "the rank of its input is not known");
  int64_t start = fe_ox_attr_i(im->node, "start", 0), end = fe_ox_attr_i(im->node, "end", r);
  start = start < 0 ? start + r : start;
  end = end < 0 ? end + r : end;
  start = start < 0 ? 0 : start > r ? r : start;
  end = end < start ? start : end > r ? r : end;
  if (static_shape(in[0], dims, &numel))
    return OUT(fe_ox_ints(im, dims + start, (int)(end - start)));
  int n = (int)(end - start);
  IrPrimExpr **values = ir_alloc(im->ctx, sizeof *values * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    if (!(values[i] = fe_ox_dim_expr(in[0], (int)start + i)))
      return fe_ox_unsupported(im, "the shape of its input is not known");
  IrExpr *shape = ir_shape_expr(im->ctx, values, n, im->loc);
  shape->sinfo = ir_sinfo_shape(im->ctx, values, n);
  const char *hint =
      im->node->n_output > 0 && im->node->output[0][0] ? im->node->output[0] : "shape";
  return OUT(fe_ox_emit(im, hint, IR_OP_SHAPE_TO_TENSOR, &shape, 1, NULL));
}

/* Size: a known int when every dim is static, else R.size. */
static bool
cv_size(OxImp *im, OxVal **in, int nin)
{
  int64_t dims[64], numel;
  if (fe_ox_rank(in[0]) <= 64 && static_shape(in[0], dims, &numel))
    return OUT(int_scalar(im, numel));
  return OUT(fe_ox_call1(im, IR_OP_SIZE, in[0], NULL));
}

/* ConstantOfShape: a known tensor of the shape, filled with value. */
static bool
cv_constant_of_shape(OxImp *im, OxVal **in, int nin)
{
  int64_t *shape;
  int n;
  if (!fe_ox_known_ints(im, in[0], "the shape", &shape, &n))
    return false;
  IrTensorData fill = {IR_F32, 0, NULL, NULL, 4};
  float zero = 0;
  fill.data = &zero;
  const Onnx__AttributeProto *a = fe_ox_attr(im->node, "value");
  if (a && (!a->t || !fe_ox_tensor_read(im, a->t, &fill)))
    return false;
  IrTensorData *d = ir_alloc(im->ctx, sizeof *d);
  int64_t numel = 1;
  for (int i = 0; i < n; i++)
    if (shape[i] < 0)
      return fe_ox_unsupported(im, "dimension %d of the shape is %lld", i, (long long)shape[i]);
  if (!fe_ox_fold_reserve(im, fill.dtype, shape, n))
    return fe_ox_unsupported(im, "its result is larger than import may fold (%lld bytes left)",
                             (long long)im->fold_budget);
  for (int i = 0; i < n; i++)
    numel *= shape[i];
  *d = (IrTensorData){fill.dtype, n, shape, NULL,
                      (size_t)numel * (size_t)ir_dtype_bytes(fill.dtype)};
  d->data = ir_alloc(im->ctx, d->nbytes ? d->nbytes : 1);
  for (int64_t i = 0; i < numel; i++)
    memcpy((char *)d->data + i * ir_dtype_bytes(fill.dtype), fill.data,
           (size_t)ir_dtype_bytes(fill.dtype));
  return OUT(fe_ox_known(im, NULL, d));
}

/* ---- creation: Range, EyeLike, Trilu ------------------------------------ */

/* Element i of a known tensor as an R.prim_value of its dtype. */
static IrExpr *
element_prim(OxImp *im, const IrTensorData *d, int64_t i)
{
  IrDType t = d->dtype;
  IrPrimExpr *v = t.code == IR_DT_FLOAT || t.code == IR_DT_BFLOAT
                      ? ir_prim_float(im->ctx, t, op_get_f(d, i))
                      : ir_prim_int(im->ctx, t, op_get_i(d, i));
  return ir_prim_value(im->ctx, v, im->loc);
}

/* A known scalar input as an R.prim_value of its dtype; NULL after
 * reporting when it is not known. */
static IrExpr *
known_prim(OxImp *im, const OxVal *v, const char *what)
{
  if (!v || !v->data || op_numel(v->data) != 1 || v->data->ndim > 1) {
    fe_ox_unsupported(im, "%s must be a constant scalar", what);
    return NULL;
  }
  return element_prim(im, v->data, 0);
}

/* Range(start, limit, delta): R.arange of the inputs' dtype, whose
 * length rule, max(ceil((limit - start) / delta), 0), is ONNX's. */
static bool
cv_range(OxImp *im, OxVal **in, int nin)
{
  IrExpr *args[3];
  const char *what[3] = {"start", "limit", "delta"};
  for (int i = 0; i < 3; i++)
    if (!(args[i] = known_prim(im, nin > i ? in[i] : NULL, what[i])))
      return false;
  return OUT(fe_ox_emit(im, im->node->output[0], IR_OP_ARANGE, args, 3,
                        dtype_attr(im, fe_ox_dtype(in[0]))));
}

/* EyeLike: R.eye_like(x, k) in x's dtype or the dtype attribute's. */
static bool
cv_eye_like(OxImp *im, OxVal **in, int nin)
{
  IrDType t = fe_ox_dtype(in[0]);
  const Onnx__AttributeProto *dt = fe_ox_attr(im->node, "dtype");
  if (dt && !fe_ox_dtype_of((int32_t)dt->i, &t))
    return fe_ox_unsupported(im, "data type %lld is not supported", (long long)dt->i);
  IrExpr *args[2] = {fe_ox_use(im, in[0]),
                     ir_prim_value(im->ctx,
                                   ir_prim_int(im->ctx, IR_I64, fe_ox_attr_i(im->node, "k", 0)),
                                   im->loc)};
  return OUT(fe_ox_emit(im, im->node->output[0], IR_OP_EYE_LIKE, args, 2, dtype_attr(im, t)));
}

/* Trilu(x, k = 0) with upper = 1: R.triu, else R.tril; k must be known. */
static bool
cv_trilu(OxImp *im, OxVal **in, int nin)
{
  IrExpr *args[2] = {fe_ox_use(im, in[0]), NULL};
  if (nin > 1 && in[1])
    args[1] = known_prim(im, in[1], "k");
  else
    args[1] = ir_prim_value(im->ctx, ir_prim_int(im->ctx, IR_I64, 0), im->loc);
  if (!args[1])
    return false;
  IrOpId op = fe_ox_attr_i(im->node, "upper", 1) ? IR_OP_TRIU : IR_OP_TRIL;
  return OUT(fe_ox_emit(im, im->node->output[0], op, args, 2, NULL));
}

/* The axes of a node: an attribute before opset since, an input after. */
static bool
node_axes(OxImp *im, OxVal **in, int nin, int input, int64_t since, int64_t **axes, int *n)
{
  if (im->opset < since) {
    const int64_t *a = fe_ox_attr_is(im->node, "axes", n);
    *axes = (int64_t *)a;
    return true;
  }
  *axes = NULL;
  *n = -1;
  if (nin <= input || !in[input])
    return true;
  return fe_ox_known_ints(im, in[input], "axes", axes, n);
}

static bool
cv_unsqueeze(OxImp *im, OxVal **in, int nin)
{
  int64_t *axes;
  int n;
  if (!node_axes(im, in, nin, 1, 13, &axes, &n))
    return false;
  if (n < 0)
    return fe_ox_unsupported(im, "axes are required");
  return OUT(fe_ox_call1(im, IR_OP_EXPAND_DIMS, in[0],
                         fe_ox_attrs(im->ctx, "axis", fe_ox_attr_ints(im->ctx, axes, n), NULL)));
}

static bool
cv_squeeze(OxImp *im, OxVal **in, int nin)
{
  int64_t *axes;
  int n;
  if (!node_axes(im, in, nin, 1, 13, &axes, &n))
    return false;
  IrAttr *a = n < 0 ? ir_attr_none(im->ctx) : fe_ox_attr_ints(im->ctx, axes, n);
  return OUT(fe_ox_call1(im, IR_OP_SQUEEZE, in[0], fe_ox_attrs(im->ctx, "axis", a, NULL)));
}

/* The node's inputs as a Relax tuple (R.concat's and R.einsum's
 * operands): constants when every input is known (so the call folds),
 * else their vars; NULL after reporting an omitted input. */
IrExpr *
fe_ox_tuple(OxImp *im, OxVal **in, int nin)
{
  IrExpr *tuple = ir_expr_new(im->ctx, IR_EX_TUPLE, im->loc);
  IrExpr **items = ir_alloc(im->ctx, sizeof *items * (size_t)(nin ? nin : 1));
  IrSInfo **fields = ir_alloc(im->ctx, sizeof *fields * (size_t)(nin ? nin : 1));
  bool known = true;
  for (int i = 0; i < nin; i++)
    known = known && in[i] && in[i]->data;
  for (int i = 0; i < nin; i++) {
    if (!in[i]) {
      fe_ox_unsupported(im, "an omitted input");
      return NULL;
    }
    if (known) { /* fold: constants in the tuple */
      items[i] = ir_expr_new(im->ctx, IR_EX_CONST, im->loc);
      items[i]->u.constant = *in[i]->data;
      items[i]->sinfo = in[i]->sinfo;
    } else {
      items[i] = fe_ox_use(im, in[i]);
    }
    fields[i] = in[i]->sinfo;
  }
  tuple->u.tuple.items = items;
  tuple->u.tuple.n = nin;
  tuple->sinfo = ir_sinfo_tuple(im->ctx, fields, nin);
  return tuple;
}

static bool
cv_concat(OxImp *im, OxVal **in, int nin)
{
  IrExpr *tuple = fe_ox_tuple(im, in, nin);
  if (!tuple)
    return false;
  IrAttr *axis = ir_attr_int(im->ctx, fe_ox_attr_i(im->node, "axis", 0));
  return OUT(fe_ox_emit(im, im->node->output[0], IR_OP_CONCAT, &tuple, 1,
                        fe_ox_attrs(im->ctx, "axis", axis, NULL)));
}

/* Split: sizes as attribute (opset < 13) or input, else equal parts. */
static bool
cv_split(OxImp *im, OxVal **in, int nin)
{
  int64_t *sizes;
  int n;
  int nout = (int)im->node->n_output;
  if (!node_axes(im, in, nin, 1, 13, &sizes, &n))
    return false;
  if (im->opset < 13)
    sizes = (int64_t *)fe_ox_attr_is(im->node, "split", &n);
  IrAttr *sections = ir_attr_int(im->ctx, nout);
  if (n >= 0) {
    if (n != nout)
      return fe_ox_unsupported(im, "split has %d sizes for %d outputs", n, nout);
    int64_t *at = ir_alloc(im->ctx, sizeof *at * (size_t)(n ? n : 1));
    for (int i = 0; i + 1 < n; i++)
      at[i] = (i ? at[i - 1] : 0) + sizes[i];
    sections = fe_ox_attr_ints(im->ctx, at, n - 1);
  }
  IrAttr *axis = ir_attr_int(im->ctx, fe_ox_attr_i(im->node, "axis", 0));
  OxVal *t = fe_ox_call1(im, IR_OP_SPLIT, in[0],
                         fe_ox_attrs(im->ctx, "indices_or_sections", sections, "axis", axis, NULL));
  if (!t)
    return false;
  for (int i = 0; i < nout; i++)
    if (!(im->outs[i] = fe_ox_tuple_get(im, t, i)))
      return false;
  return true;
}

static bool
cv_transpose(OxImp *im, OxVal **in, int nin)
{
  int n;
  const int64_t *perm = fe_ox_attr_is(im->node, "perm", &n);
  IrAttr *axes = perm ? fe_ox_attr_ints(im->ctx, perm, n) : ir_attr_none(im->ctx);
  return OUT(fe_ox_call1(im, IR_OP_PERMUTE_DIMS, in[0], fe_ox_attrs(im->ctx, "axes", axes, NULL)));
}

OxVal *
fe_ox_reshape(OxImp *im, OxVal *x, IrPrimExpr **dims, int n)
{
  IrExpr *args[2] = {fe_ox_use(im, x), ir_shape_expr(im->ctx, dims, n, im->loc)};
  if (x->data)
    args[0] = NULL;
  if (x->data) { /* fold a reshape of a known value */
    IrExpr *c = ir_expr_new(im->ctx, IR_EX_CONST, im->loc);
    c->u.constant = *x->data;
    c->sinfo = x->sinfo;
    args[0] = c;
  }
  return fe_ox_emit(im, im->node->output[0], IR_OP_RESHAPE, args, 2, NULL);
}

/* Reshape: 0 copies the input's dim (unless allowzero), -1 is inferred. */
static bool
cv_reshape(OxImp *im, OxVal **in, int nin)
{
  int64_t *shape;
  int n;
  if (im->opset < 5) {
    shape = (int64_t *)fe_ox_attr_is(im->node, "shape", &n);
    if (!shape)
      return fe_ox_unsupported(im, "needs a shape");
  } else if (!fe_ox_known_ints(im, nin > 1 ? in[1] : NULL, "the shape", &shape, &n)) {
    return false;
  }
  bool allowzero = fe_ox_attr_i(im->node, "allowzero", 0) != 0;
  IrPrimExpr **dims = ir_alloc(im->ctx, sizeof *dims * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    dims[i] = shape[i] == 0 && !allowzero ? fe_ox_dim_expr(in[0], i)
                                          : ir_prim_int(im->ctx, IR_I64, shape[i]);
    if (!dims[i])
      return fe_ox_unsupported(im, "0 in the shape copies a dim the input lacks");
  }
  return OUT(fe_ox_reshape(im, in[0], dims, n));
}

/* The product of dims [from, to) of x (1 when empty). */
static IrPrimExpr *
dims_product(OxImp *im, const OxVal *x, int from, int to)
{
  IrPrimExpr *p = ir_prim_int(im->ctx, IR_I64, 1);
  for (int i = from; i < to; i++) {
    IrPrimExpr *d = fe_ox_dim_expr(x, i);
    if (!d)
      return NULL;
    p = ir_arith_simplify(im->arith, ir_prim_bin(im->ctx, IR_PE_MUL, p, d));
  }
  return p;
}

/* x viewed as 2-D: dims before axis times dims from axis. */
OxVal *
fe_ox_flatten_2d(OxImp *im, OxVal *x, int64_t axis)
{
  int r = fe_ox_rank(x);
  if (r < 0)
    return NULL;
  if (axis < 0)
    axis += r;
  if (axis < 0 || axis > r) {
    fe_ox_unsupported(im, "axis %lld is out of range for rank %d", (long long)axis, r);
    return NULL;
  }
  IrPrimExpr **dims = ir_alloc(im->ctx, 2 * sizeof *dims);
  dims[0] = dims_product(im, x, 0, (int)axis);
  dims[1] = dims_product(im, x, (int)axis, r);
  if (!dims[0] || !dims[1]) {
    fe_ox_unsupported(im, "the input's shape is unknown");
    return NULL;
  }
  return fe_ox_reshape(im, x, dims, 2);
}

static bool
cv_flatten(OxImp *im, OxVal **in, int nin)
{
  return OUT(fe_ox_flatten_2d(im, in[0], fe_ox_attr_i(im->node, "axis", 1)));
}

/* Softmax and LogSoftmax: over one axis from opset 13; before, over the
 * dims from axis of the input seen as 2-D. */
static bool
cv_softmax(OxImp *im, OxVal **in, int nin)
{
  IrOpId op = strcmp(im->node->op_type, "Softmax") == 0 ? IR_OP_SOFTMAX : IR_OP_LOG_SOFTMAX;
  int64_t axis = fe_ox_attr_i(im->node, "axis", im->opset >= 13 ? -1 : 1);
  if (im->opset >= 13)
    return OUT(
        fe_ox_call1(im, op, in[0], fe_ox_attrs(im->ctx, "axis", ir_attr_int(im->ctx, axis), NULL)));
  OxVal *flat = fe_ox_flatten_2d(im, in[0], axis);
  OxVal *s =
      fe_ox_call1(im, op, flat, fe_ox_attrs(im->ctx, "axis", ir_attr_int(im->ctx, -1), NULL));
  int r = fe_ox_rank(in[0]);
  return s && OUT(fe_ox_reshape(im, s, in[0]->sinfo->u.tensor.shape, r));
}

/* Expand: broadcast to the shape and the input's dims together. */
static bool
cv_expand(OxImp *im, OxVal **in, int nin)
{
  int64_t *shape;
  int n, r = fe_ox_rank(in[0]);
  if (!fe_ox_known_ints(im, in[1], "the shape", &shape, &n) || r < 0)
    return false;
  int out = n > r ? n : r;
  IrPrimExpr **dims = ir_alloc(im->ctx, sizeof *dims * (size_t)(out ? out : 1));
  for (int i = 0; i < out; i++) {
    int si = i - (out - n), xi = i - (out - r);
    IrPrimExpr *xd = xi >= 0 ? fe_ox_dim_expr(in[0], xi) : NULL;
    if (si >= 0 && (shape[si] != 1 || !xd))
      dims[i] = ir_prim_int(im->ctx, IR_I64, shape[si]);
    else
      dims[i] = xd;
  }
  IrExpr *args[2] = {fe_ox_use(im, in[0]), ir_shape_expr(im->ctx, dims, out, im->loc)};
  return OUT(fe_ox_emit(im, im->node->output[0], IR_OP_BROADCAST_TO, args, 2, NULL));
}

/* Gather: take along axis; known negative indices are made positive. */
static bool
cv_gather(OxImp *im, OxVal **in, int nin)
{
  int64_t axis = fe_ox_attr_i(im->node, "axis", 0), dim;
  int r = fe_ox_rank(in[0]);
  OxVal *idx = in[1];
  if (axis < 0)
    axis += r;
  if (idx->data && fe_ox_dim(in[0], (int)axis, &dim)) {
    IrTensorData *d = ir_alloc(im->ctx, sizeof *d);
    *d = *idx->data;
    d->dtype = IR_I64;
    d->nbytes = (size_t)op_numel(d) * 8;
    d->data = ir_alloc(im->ctx, d->nbytes ? d->nbytes : 1);
    for (int64_t i = 0; i < op_numel(d); i++) {
      int64_t k = op_get_i(idx->data, i);
      op_set_i(d, i, k < 0 ? k + dim : k);
    }
    idx = fe_ox_known(im, NULL, d);
  }
  const char *mode = idx->data ? "fast" : "wrap";
  OxVal *args[2] = {in[0], idx};
  return OUT(fe_ox_call(im, IR_OP_TAKE, args, 2,
                        fe_ox_attrs(im->ctx, "axis", ir_attr_int(im->ctx, axis), "mode",
                                    ir_attr_str(im->ctx, ir_sym(im->ctx, mode)), NULL)));
}

/* GatherElements and GatherND map onto R.gather_elements and
 * R.gather_nd, whose kernels count a negative index from the end as ONNX
 * does. */
static bool
cv_gather_elements(OxImp *im, OxVal **in, int nin)
{
  return OUT(fe_ox_call(
      im, IR_OP_GATHER_ELEMENTS, in, 2,
      fe_ox_attrs(im->ctx, "axis", ir_attr_int(im->ctx, fe_ox_attr_i(im->node, "axis", 0)), NULL)));
}

static bool
cv_gather_nd(OxImp *im, OxVal **in, int nin)
{
  int64_t b = fe_ox_attr_i(im->node, "batch_dims", 0);
  return OUT(fe_ox_call(im, IR_OP_GATHER_ND, in, 2,
                        fe_ox_attrs(im->ctx, "batch_dims", ir_attr_int(im->ctx, b), NULL)));
}

/* ONNX's reduction attribute as R.scatter_*'s ("none" is "update"). */
static IrAttr *
scatter_reduction(OxImp *im)
{
  const char *r = fe_ox_attr_s(im, im->node, "reduction", "none");
  return ir_attr_str(im->ctx, ir_sym(im->ctx, strcmp(r, "none") == 0 ? "update" : r));
}

/* ScatterElements (and the older Scatter): duplicate indices apply in
 * index order, the last update winning (ONNX leaves that undefined). */
static bool
cv_scatter_elements(OxImp *im, OxVal **in, int nin)
{
  IrAttr *axis = ir_attr_int(im->ctx, fe_ox_attr_i(im->node, "axis", 0));
  return OUT(
      fe_ox_call(im, IR_OP_SCATTER_ELEMENTS, in, 3,
                 fe_ox_attrs(im->ctx, "axis", axis, "reduction", scatter_reduction(im), NULL)));
}

static bool
cv_scatter_nd(OxImp *im, OxVal **in, int nin)
{
  return OUT(fe_ox_call(im, IR_OP_SCATTER_ND, in, 3,
                        fe_ox_attrs(im->ctx, "reduction", scatter_reduction(im), NULL)));
}

/* ReverseSequence: ONNX's time_axis is R.reverse_sequence's seq_axis;
 * the defaults differ (time_axis 0, batch_axis 1). */
static bool
cv_reverse_sequence(OxImp *im, OxVal **in, int nin)
{
  IrAttr *seq = ir_attr_int(im->ctx, fe_ox_attr_i(im->node, "time_axis", 0));
  IrAttr *batch = ir_attr_int(im->ctx, fe_ox_attr_i(im->node, "batch_axis", 1));
  return OUT(fe_ox_call(im, IR_OP_REVERSE_SEQUENCE, in, 2,
                        fe_ox_attrs(im->ctx, "seq_axis", seq, "batch_axis", batch, NULL)));
}

/* Tile: repeats must be known (one count per dim, as R.tile takes). */
static bool
cv_tile(OxImp *im, OxVal **in, int nin)
{
  int64_t *reps;
  int n;
  if (!fe_ox_known_ints(im, in[1], "repeats", &reps, &n))
    return false;
  return OUT(fe_ox_call1(im, IR_OP_TILE, in[0],
                         fe_ox_attrs(im->ctx, "repeats", fe_ox_attr_ints(im->ctx, reps, n), NULL)));
}

/* Pad: pads [x1_begin, x2_begin, ..., x1_end, ...] (an attribute before
 * opset 11, then a known input, over the given axes from opset 18), the
 * constant value known; modes constant, reflect, edge (R.nn.pad's
 * replicate) and wrap (circular).  Negative pads (cropping) are not
 * supported. */
static bool
cv_pad(OxImp *im, OxVal **in, int nin)
{
  static const char *const modes[][2] = {{"constant", "constant"},
                                         {"reflect", "reflect"},
                                         {"edge", "replicate"},
                                         {"wrap", "circular"}};
  int r = fe_ox_rank(in[0]), n, naxes = -1;
  int64_t *pads, *axes = NULL;
  double value = fe_ox_attr_f(im->node, "value", 0);
  if (r < 0)
    return fe_ox_unsupported(im, "needs a known rank");
  if (im->opset < 11) {
    const int64_t *p = fe_ox_attr_is(im->node, "pads", &n);
    if (!p)
      return fe_ox_unsupported(im, "pads is required");
    pads = (int64_t *)p;
  } else if (!fe_ox_known_ints(im, in[1], "pads", &pads, &n)) {
    return false;
  }
  if (im->opset >= 11 && nin > 2 && in[2]) {
    if (!in[2]->data || op_numel(in[2]->data) != 1)
      return fe_ox_unsupported(im, "constant_value must be a known scalar");
    value = op_get_f(in[2]->data, 0);
  }
  if (nin > 3 && in[3] && !fe_ox_known_ints(im, in[3], "axes", &axes, &naxes))
    return false;
  int count = axes ? naxes : r;
  if (n != 2 * count)
    return fe_ox_unsupported(im, "pads has %d values for %d axes", n, count);
  int64_t *width = ir_alloc(im->ctx, sizeof(int64_t) * (size_t)(2 * r + 1));
  memset(width, 0, sizeof(int64_t) * (size_t)(2 * r + 1));
  for (int i = 0; i < count; i++) {
    int64_t axis = axes ? (axes[i] < 0 ? axes[i] + r : axes[i]) : i;
    if (axis < 0 || axis >= r)
      return fe_ox_unsupported(im, "axis %lld is out of range", (long long)axes[i]);
    if (pads[i] < 0 || pads[count + i] < 0)
      return fe_ox_unsupported(im, "negative pads (cropping) are not supported");
    width[2 * axis] = pads[i];
    width[2 * axis + 1] = pads[count + i];
  }
  const char *mode = fe_ox_attr_s(im, im->node, "mode", "constant");
  for (int i = 0; i < 4; i++)
    if (strcmp(mode, modes[i][0]) == 0)
      return OUT(
          fe_ox_call1(im, IR_OP_PAD, in[0],
                      fe_ox_attrs(im->ctx, "pad_width", fe_ox_attr_ints(im->ctx, width, 2 * r),
                                  "pad_mode", ir_attr_str(im->ctx, ir_sym(im->ctx, modes[i][1])),
                                  "pad_value", ir_attr_float(im->ctx, value), NULL)));
  return fe_ox_unsupported(im, "mode '%s' is not supported", mode);
}

/* DepthToSpace: CRD mode is R.nn.pixel_shuffle; DCR (the default) reads
 * the channels as (b, b, C / b^2): reshape, permute, reshape. */
static bool
cv_depth_to_space(OxImp *im, OxVal **in, int nin)
{
  int64_t b = fe_ox_attr_i(im->node, "blocksize", 0), c;
  const char *mode = fe_ox_attr_s(im, im->node, "mode", "DCR");
  OxVal *x = in[0];
  if (b <= 0 || fe_ox_rank(x) != 4)
    return fe_ox_unsupported(im, "needs a positive blocksize and a rank-4 input");
  if (strcmp(mode, "CRD") == 0)
    return OUT(fe_ox_call1(im, IR_OP_PIXEL_SHUFFLE, x,
                           fe_ox_attrs(im->ctx, "upscale_factor", ir_attr_int(im->ctx, b), NULL)));
  if (strcmp(mode, "DCR") != 0)
    return fe_ox_unsupported(im, "mode '%s' is not supported", mode);
  if (!fe_ox_dim(x, 1, &c) || c % (b * b) != 0)
    return fe_ox_unsupported(im, "DCR mode needs a static channel count divisible by blocksize^2");
  IrCtx *ctx = im->ctx;
  IrPrimExpr *bb = ir_prim_int(ctx, IR_I64, b), *n = fe_ox_dim_expr(x, 0);
  IrPrimExpr *h = fe_ox_dim_expr(x, 2), *w = fe_ox_dim_expr(x, 3);
  IrPrimExpr *split[6] = {n, bb, bb, ir_prim_int(ctx, IR_I64, c / (b * b)), h, w};
  IrPrimExpr *joined[4] = {n, split[3], ir_prim_bin(ctx, IR_PE_MUL, h, bb),
                           ir_prim_bin(ctx, IR_PE_MUL, w, bb)};
  static const int64_t perm[6] = {0, 3, 4, 1, 5, 2};
  return OUT(fe_ox_regroup(im, x, split, perm, joined));
}

OxVal *
fe_ox_regroup(OxImp *im, OxVal *x, IrPrimExpr *const split[6], const int64_t perm[6],
              IrPrimExpr *const joined[4])
{
  IrCtx *ctx = im->ctx;
  IrPrimExpr **d6 = ir_alloc(ctx, sizeof *d6 * 6), **d4 = ir_alloc(ctx, sizeof *d4 * 4);
  memcpy(d6, split, sizeof *d6 * 6);
  memcpy(d4, joined, sizeof *d4 * 4);
  OxVal *t = fe_ox_call1(im, IR_OP_PERMUTE_DIMS, fe_ox_reshape(im, x, d6, 6),
                         fe_ox_attrs(ctx, "axes", fe_ox_attr_ints(ctx, perm, 6), NULL));
  return t ? fe_ox_reshape(im, t, d4, 4) : NULL;
}

/* OneHot: depth and values ([off, on]) must be known.  ONNX counts a
 * negative index from the end and R.one_hot does not, so signed indices
 * go through where(i < 0, i + depth, i) first. */
static bool
cv_one_hot(OxImp *im, OxVal **in, int nin)
{
  const IrTensorData *depth = in[1] ? in[1]->data : NULL, *values = in[2] ? in[2]->data : NULL;
  if (!depth || op_numel(depth) != 1 || !values || op_numel(values) != 2)
    return fe_ox_unsupported(im, "depth and values must be constants");
  int64_t dep = (depth->dtype.code == IR_DT_FLOAT || depth->dtype.code == IR_DT_BFLOAT)
                    ? (int64_t)op_get_f(depth, 0)
                    : op_get_i(depth, 0);
  if (dep <= 0)
    return fe_ox_unsupported(im, "depth must be positive");
  OxVal *idx = in[0];
  if (fe_ox_dtype(idx).code == IR_DT_FLOAT || fe_ox_dtype(idx).code == IR_DT_BFLOAT)
    idx = fe_ox_astype(im, idx, IR_I64); /* ONNX casts them */
  IrDType it = fe_ox_dtype(idx);
  if (it.code == IR_DT_INT) {
    OxVal *neg = fe_ox_call2(im, IR_OP_LESS, idx, fe_ox_scalar(im, it, 0));
    OxVal *shifted = fe_ox_call2(im, IR_OP_ADD, idx, fe_ox_scalar(im, it, (double)dep));
    OxVal *w[3] = {neg, shifted, idx};
    idx = neg && shifted ? fe_ox_call(im, IR_OP_WHERE, w, 3, NULL) : NULL;
    if (!idx)
      return false;
  }
  IrExpr *args[3] = {fe_ox_use(im, idx), element_prim(im, values, 1), element_prim(im, values, 0)};
  return OUT(
      fe_ox_emit(im, im->node->output[0], IR_OP_ONE_HOT, args, 3,
                 fe_ox_attrs(im->ctx, "depth", ir_attr_int(im->ctx, dep), "axis",
                             ir_attr_int(im->ctx, fe_ox_attr_i(im->node, "axis", -1)), NULL)));
}

/* Slice: starts, ends, axes, steps as attributes (opset < 10) or inputs. */
static bool
cv_slice(OxImp *im, OxVal **in, int nin)
{
  int64_t *starts, *ends, *axes = NULL, *steps = NULL;
  int ns, ne, na = -1, nst = -1;
  if (im->opset < 10) {
    starts = (int64_t *)fe_ox_attr_is(im->node, "starts", &ns);
    ends = (int64_t *)fe_ox_attr_is(im->node, "ends", &ne);
    axes = (int64_t *)fe_ox_attr_is(im->node, "axes", &na);
  } else if (!fe_ox_known_ints(im, in[1], "starts", &starts, &ns) ||
             !fe_ox_known_ints(im, in[2], "ends", &ends, &ne) ||
             (nin > 3 && in[3] && !fe_ox_known_ints(im, in[3], "axes", &axes, &na)) ||
             (nin > 4 && in[4] && !fe_ox_known_ints(im, in[4], "steps", &steps, &nst))) {
    return false;
  }
  if (!starts || !ends || ns != ne || (axes && na != ns) || (steps && nst != ns))
    return fe_ox_unsupported(im, "starts, ends, axes and steps must have the same length");
  IrAttr *ax = NULL;
  if (axes) {
    ax = fe_ox_attr_ints(im->ctx, axes, na);
  } else {
    int64_t *seq = ir_alloc(im->ctx, sizeof *seq * (size_t)(ns ? ns : 1));
    for (int i = 0; i < ns; i++)
      seq[i] = i;
    ax = fe_ox_attr_ints(im->ctx, seq, ns);
  }
  IrAttr *st = steps ? fe_ox_attr_ints(im->ctx, steps, nst) : ir_attr_none(im->ctx);
  return OUT(
      fe_ox_call1(im, IR_OP_STRIDED_SLICE, in[0],
                  fe_ox_attrs(im->ctx, "axes", ax, "begin", fe_ox_attr_ints(im->ctx, starts, ns),
                              "end", fe_ox_attr_ints(im->ctx, ends, ne), "strides", st,
                              "assume_inbound", ir_attr_bool(im->ctx, false), NULL)));
}

/* ---- reductions --------------------------------------------------------- */

/* ReduceSum/Mean/Max/Min/Prod, and the ones made of them: L1 (sum of |x|), L2
 * (root of the sum of squares), SumSquare, LogSum, LogSumExp. */
static bool
cv_reduce(OxImp *im, OxVal **in, int nin)
{
  const char *t = im->node->op_type + strlen("Reduce");
  static const struct {
    const char *name;
    IrOpId pre, op, post; /* pre: IR_OP_COUNT none, IR_OP_MULTIPLY x * x */
  } forms[] = {
      {"Sum", IR_OP_COUNT, IR_OP_SUM, IR_OP_COUNT},
      {"Mean", IR_OP_COUNT, IR_OP_MEAN, IR_OP_COUNT},
      {"Max", IR_OP_COUNT, IR_OP_MAX, IR_OP_COUNT},
      {"Min", IR_OP_COUNT, IR_OP_MIN, IR_OP_COUNT},
      {"Prod", IR_OP_COUNT, IR_OP_PROD, IR_OP_COUNT},
      {"L1", IR_OP_ABS, IR_OP_SUM, IR_OP_COUNT},
      {"L2", IR_OP_MULTIPLY, IR_OP_SUM, IR_OP_SQRT},
      {"SumSquare", IR_OP_MULTIPLY, IR_OP_SUM, IR_OP_COUNT},
      {"LogSum", IR_OP_COUNT, IR_OP_SUM, IR_OP_LOG},
      {"LogSumExp", IR_OP_EXP, IR_OP_SUM, IR_OP_LOG},
  };
  size_t f = 0;
  while (strcmp(forms[f].name, t) != 0)
    f++;
  int64_t *axes;
  int n;
  if (!node_axes(im, in, nin, 1, forms[f].op == IR_OP_SUM && f == 0 ? 13 : 18, &axes, &n))
    return false;
  bool keep = fe_ox_attr_i(im->node, "keepdims", 1) != 0;
  if (n <= 0 && fe_ox_attr_i(im->node, "noop_with_empty_axes", 0))
    return OUT(in[0]);
  OxVal *x = in[0];
  if (forms[f].pre == IR_OP_MULTIPLY)
    x = fe_ox_call2(im, IR_OP_MULTIPLY, x, x);
  else if (forms[f].pre != IR_OP_COUNT)
    x = fe_ox_call1(im, forms[f].pre, x, NULL);
  IrAttr *axis = n <= 0 ? ir_attr_none(im->ctx) : fe_ox_attr_ints(im->ctx, axes, n);
  x = fe_ox_call1(
      im, forms[f].op, x,
      fe_ox_attrs(im->ctx, "axis", axis, "keepdims", ir_attr_bool(im->ctx, keep), NULL));
  if (x && forms[f].post != IR_OP_COUNT)
    x = fe_ox_call1(im, forms[f].post, x, NULL);
  return OUT(x);
}

/* ArgMax and ArgMin; select_last_index takes the arg over x reversed
 * along axis and maps it back (n - 1 - i). */
static bool
cv_argmax(OxImp *im, OxVal **in, int nin)
{
  OxVal *x = in[0];
  int64_t axis = fe_ox_attr_i(im->node, "axis", 0);
  bool keep = fe_ox_attr_i(im->node, "keepdims", 1) != 0;
  bool last = fe_ox_attr_i(im->node, "select_last_index", 0) != 0;
  IrOpId op = strcmp(im->node->op_type, "ArgMin") == 0 ? IR_OP_ARGMIN : IR_OP_ARGMAX;
  if (last && x) {
    x = fe_ox_slice(im, x, axis, -1, INT64_MIN, -1);
  }
  OxVal *i = fe_ox_call1(im, op, x,
                         fe_ox_attrs(im->ctx, "axis", ir_attr_int(im->ctx, axis), "keepdims",
                                     ir_attr_bool(im->ctx, keep), NULL));
  int64_t n;
  if (i && last) {
    if (!fe_ox_dim(in[0], (int)(axis < 0 ? axis + fe_ox_rank(in[0]) : axis), &n))
      return fe_ox_unsupported(im, "select_last_index needs a static dim");
    i = fe_ox_call2(im, IR_OP_SUBTRACT, fe_ox_scalar(im, fe_ox_dtype(i), (double)(n - 1)), i);
  }
  return OUT(i);
}

/* CumSum: the axis input must be known; reverse scans x flipped along
 * the axis and flips the result back. */
static bool
cv_cumsum(OxImp *im, OxVal **in, int nin)
{
  int64_t *axis;
  int n;
  if (!fe_ox_known_ints(im, in[1], "axis", &axis, &n))
    return false;
  if (n != 1)
    return fe_ox_unsupported(im, "axis must hold one value");
  IrAttr *ax = ir_attr_int(im->ctx, axis[0]);
  bool reverse = fe_ox_attr_i(im->node, "reverse", 0) != 0;
  OxVal *x = in[0];
  if (reverse)
    x = fe_ox_call1(im, IR_OP_FLIP, x, fe_ox_attrs(im->ctx, "axis", ax, NULL));
  x = x ? fe_ox_call1(
              im, IR_OP_CUMSUM, x,
              fe_ox_attrs(im->ctx, "axis", ax, "dtype", ir_attr_none(im->ctx), "exclusive",
                          ir_attr_bool(im->ctx, fe_ox_attr_i(im->node, "exclusive", 0) != 0), NULL))
        : NULL;
  if (reverse && x)
    x = fe_ox_call1(im, IR_OP_FLIP, x, fe_ox_attrs(im->ctx, "axis", ax, NULL));
  return OUT(x);
}

/* TopK: k (opset >= 10 an input) must be known; indices are int64.  The
 * values come sorted whatever "sorted" says, which ONNX allows. */
static bool
cv_topk(OxImp *im, OxVal **in, int nin)
{
  int64_t *k, one;
  int n = 1;
  if (im->opset < 10) {
    one = fe_ox_attr_i(im->node, "k", 1);
    k = &one;
  } else if (nin < 2 || !fe_ox_known_ints(im, in[1], "k", &k, &n)) {
    return nin < 2 ? fe_ox_unsupported(im, "k is missing") : false;
  }
  if (n != 1 || k[0] < 1)
    return fe_ox_unsupported(im, "k must be one positive value");
  OxVal *t =
      fe_ox_call1(im, IR_OP_TOPK, in[0],
                  fe_ox_attrs(im->ctx, "k", ir_attr_int(im->ctx, k[0]), "axis",
                              ir_attr_int(im->ctx, fe_ox_attr_i(im->node, "axis", -1)), "ret_type",
                              ir_attr_str(im->ctx, ir_sym(im->ctx, "both")), "largest",
                              ir_attr_bool(im->ctx, fe_ox_attr_i(im->node, "largest", 1) != 0),
                              "dtype", ir_attr_str(im->ctx, ir_sym(im->ctx, "int64")), NULL));
  return t && (im->outs[0] = fe_ox_tuple_get(im, t, 0)) &&
         (im->node->n_output < 2 || (im->outs[1] = fe_ox_tuple_get(im, t, 1)));
}

/* Einsum: the equation is R.einsum's subscripts. */
static bool
cv_einsum(OxImp *im, OxVal **in, int nin)
{
  const char *eq = fe_ox_attr_s(im, im->node, "equation", NULL);
  if (!eq)
    return fe_ox_unsupported(im, "equation is missing");
  IrExpr *tuple = fe_ox_tuple(im, in, nin);
  return tuple && OUT(fe_ox_emit(im, im->node->output[0], IR_OP_EINSUM, &tuple, 1,
                                 fe_ox_attrs(im->ctx, "subscripts",
                                             ir_attr_str(im->ctx, ir_sym(im->ctx, eq)), NULL)));
}

static const OxOp tensor_ops[] = {
    {"Add", cv_binary, "broadcast,axis"},
    {"Sub", cv_binary, "broadcast,axis"},
    {"Mul", cv_binary, "broadcast,axis"},
    {"Div", cv_binary, "broadcast,axis"},
    {"Equal", cv_binary, ""},
    {"Less", cv_binary, ""},
    {"Greater", cv_binary, ""},
    {"LessOrEqual", cv_binary, ""},
    {"GreaterOrEqual", cv_binary, ""},
    {"Max", cv_binary, ""},
    {"Min", cv_binary, ""},
    {"Sum", cv_binary, ""},
    {"Mean", cv_binary, ""},
    {"Pow", cv_pow, ""},
    {"Where", cv_where, ""},
    {"Relu", cv_unary, ""},
    {"Sigmoid", cv_unary, ""},
    {"Tanh", cv_unary, ""},
    {"Erf", cv_unary, ""},
    {"And", cv_binary, "broadcast,axis"},
    {"Or", cv_binary, "broadcast,axis"},
    {"Xor", cv_binary, "broadcast,axis"},
    {"BitwiseAnd", cv_binary, ""},
    {"BitwiseOr", cv_binary, ""},
    {"BitwiseXor", cv_binary, ""},
    {"Mod", cv_mod, "fmod"},
    {"BitShift", cv_bit_shift, "direction"},
    {"Exp", cv_unary, ""},
    {"Log", cv_unary, ""},
    {"Sqrt", cv_unary, ""},
    {"Neg", cv_unary, ""},
    {"Abs", cv_unary, ""},
    {"Reciprocal", cv_reciprocal, ""},
    {"Gelu", cv_gelu, "approximate"},
    {"LeakyRelu", cv_leaky_relu, "alpha"},
    {"Selu", cv_selu, "alpha,gamma"},
    {"Softplus", cv_softplus, ""},
    {"Cast", cv_cast, "to,saturate"},
    {"CastLike", cv_cast, "saturate"},
    {"Clip", cv_clip, "min,max"},
    {"Sin", cv_unary, ""},
    {"Cos", cv_unary, ""},
    {"Tan", cv_unary, ""},
    {"Asin", cv_unary, ""},
    {"Acos", cv_unary, ""},
    {"Atan", cv_unary, ""},
    {"Sinh", cv_unary, ""},
    {"Cosh", cv_unary, ""},
    {"Asinh", cv_unary, ""},
    {"Acosh", cv_unary, ""},
    {"Atanh", cv_unary, ""},
    {"Ceil", cv_unary, ""},
    {"Floor", cv_unary, ""},
    {"Round", cv_unary, ""},
    {"Sign", cv_unary, ""},
    {"IsNaN", cv_unary, ""},
    {"IsInf", cv_is_inf, "detect_negative,detect_positive"},
    {"Not", cv_unary, ""},
    {"BitwiseNot", cv_unary, ""},
    {"Identity", cv_identity, ""},
    {"Dropout", cv_dropout, "ratio,seed,is_test"},
    {"Constant", cv_constant, "value,value_float,value_floats,value_int,value_ints"},
    {"Shape", cv_shape, "start,end"},
    {"Size", cv_size, ""},
    {"ConstantOfShape", cv_constant_of_shape, "value"},
    {"Range", cv_range, ""},
    {"EyeLike", cv_eye_like, "dtype,k"},
    {"Trilu", cv_trilu, "upper"},
    {"Unsqueeze", cv_unsqueeze, "axes"},
    {"Squeeze", cv_squeeze, "axes"},
    {"Concat", cv_concat, "axis"},
    {"Split", cv_split, "axis,split"},
    {"Transpose", cv_transpose, "perm"},
    {"Reshape", cv_reshape, "shape,allowzero"},
    {"Flatten", cv_flatten, "axis"},
    {"Softmax", cv_softmax, "axis"},
    {"LogSoftmax", cv_softmax, "axis"},
    {"Expand", cv_expand, ""},
    {"Gather", cv_gather, "axis"},
    {"GatherElements", cv_gather_elements, "axis"},
    {"GatherND", cv_gather_nd, "batch_dims"},
    {"ScatterElements", cv_scatter_elements, "axis,reduction"},
    {"Scatter", cv_scatter_elements, "axis"},
    {"ScatterND", cv_scatter_nd, "reduction"},
    {"ReverseSequence", cv_reverse_sequence, "batch_axis,time_axis"},
    {"Slice", cv_slice, "starts,ends,axes"},
    {"Tile", cv_tile, ""},
    {"Pad", cv_pad, "mode,pads,value"},
    {"DepthToSpace", cv_depth_to_space, "blocksize,mode"},
    {"OneHot", cv_one_hot, "axis"},
    {"ReduceSum", cv_reduce, "axes,keepdims,noop_with_empty_axes"},
    {"ReduceMean", cv_reduce, "axes,keepdims"},
    {"ReduceMax", cv_reduce, "axes,keepdims"},
    {"ReduceMin", cv_reduce, "axes,keepdims"},
    {"ReduceProd", cv_reduce, "axes,keepdims,noop_with_empty_axes"},
    {"ReduceL1", cv_reduce, "axes,keepdims"},
    {"ReduceL2", cv_reduce, "axes,keepdims"},
    {"ReduceSumSquare", cv_reduce, "axes,keepdims"},
    {"ReduceLogSum", cv_reduce, "axes,keepdims"},
    {"ReduceLogSumExp", cv_reduce, "axes,keepdims"},
    {"ArgMax", cv_argmax, "axis,keepdims,select_last_index"},
    {"ArgMin", cv_argmax, "axis,keepdims,select_last_index"},
    {"CumSum", cv_cumsum, "exclusive,reverse"},
    {"TopK", cv_topk, "axis,largest,sorted,k"},
    {"Einsum", cv_einsum, "equation"},
    {NULL, NULL, NULL},
};

const OxOp *
fe_ox_tensor_ops(void)
{
  return tensor_ops;
}

/* Every table of converters, in the order `rxc list onnx` prints them. */
static const OxOp *
table(int k)
{
  switch (k) {
  case 0:
    return fe_ox_tensor_ops();
  case 1:
    return fe_ox_nn_ops();
  case 2:
    return fe_ox_act_ops();
  case 3:
    return fe_ox_rnn_ops();
  case 4:
    return fe_ox_quant_ops();
  default:
    return NULL;
  }
}

const OxOp *
fe_ox_find_op(const char *op_type)
{
  for (int k = 0; table(k); k++)
    for (const OxOp *o = table(k); o->op_type; o++)
      if (strcmp(o->op_type, op_type) == 0)
        return o;
  return NULL;
}

const char *
fe_onnx_op_at(int i, const char **attrs)
{
  for (int k = 0; table(k); k++)
    for (const OxOp *o = table(k); o->op_type; o++)
      if (i-- == 0) {
        *attrs = o->attrs;
        return o->op_type;
      }
  return NULL;
}
