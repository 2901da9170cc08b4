/*
 * onnx_quant.c - converters of ONNX's quantization operators:
 * QuantizeLinear and DequantizeLinear (R.quantize, R.dequantize),
 * DynamicQuantizeLinear, and the integer linear operators MatMulInteger,
 * ConvInteger, QLinearMatMul and QLinearConv.
 *
 * Key ideas:
 *  - The integer operators compute as ONNX defines them: operands widened
 *    to int32 less their zero points, an int32 matmul or convolution (the
 *    Conv converter's, with its attributes), and for the QLinear ones the
 *    int32 result scaled by a_scale * b_scale / y_scale in float32,
 *    rounded half to even, offset by y's zero point and saturated to its
 *    type: the reference ONNX Runtime's tests were made with.
 *  - A weight zero point or scale per output channel (a vector) is laid
 *    along the weight's or the result's channel axis.
 */
#include <string.h>

#include "onnx_int.h"

#define OUT(v) ((im->outs[0] = (v)) != NULL)

/* v (a scalar, or a vector of one value per channel) shaped to broadcast
 * along axis of a rank-r tensor. */
static OxVal *
along(OxImp *im, OxVal *v, int axis, int r)
{
  if (!v || fe_ox_rank(v) == 0)
    return v;
  int64_t n;
  if (fe_ox_rank(v) == 1 && fe_ox_dim(v, 0, &n) && n == 1)
    return v; /* broadcasts as it is */
  IrPrimExpr **dims = ir_alloc(im->ctx, sizeof *dims * (size_t)r);
  for (int i = 0; i < r; i++)
    dims[i] = ir_prim_int(im->ctx, IR_I64, i == axis ? -1 : 1);
  return fe_ox_reshape(im, v, dims, r);
}

/* int32(x) - int32(zero point), the zero point along axis. */
static OxVal *
centered(OxImp *im, OxVal *x, OxVal *zp, int axis)
{
  OxVal *wide = fe_ox_astype(im, x, IR_I32);
  if (!zp)
    return wide;
  return fe_ox_call2(im, IR_OP_SUBTRACT, wide,
                     along(im, fe_ox_astype(im, zp, IR_I32), axis, fe_ox_rank(x)));
}

/* The int32 convolution of x - x_zp and w - w_zp (w_zp per output
 * channel), plus bias; the Conv converter reads the node's attributes. */
static OxVal *
int_conv(OxImp *im, OxVal *x, OxVal *xzp, OxVal *w, OxVal *wzp, OxVal *bias)
{
  OxVal *args[3] = {centered(im, x, xzp, 1), centered(im, w, wzp, 0), bias};
  if (!args[0] || !args[1] || !fe_ox_conv(im, args, bias ? 3 : 2))
    return NULL;
  return im->outs[0];
}

/* round(acc * scale) + zp saturated to zp's type, scale = a_scale *
 * b_scale / y_scale (b_scale along the channel axis of acc). */
static OxVal *
requantize(OxImp *im, OxVal *acc, OxVal *as, OxVal *bs, int axis, OxVal *ys, OxVal *yzp)
{
  int r = fe_ox_rank(acc);
  IrDType t = yzp ? fe_ox_dtype(yzp) : (IrDType){IR_DT_UINT, 8, 1};
  OxVal *scale =
      fe_ox_call2(im, IR_OP_DIVIDE,
                  fe_ox_call2(im, IR_OP_MULTIPLY, along(im, as, axis, r), along(im, bs, axis, r)),
                  along(im, ys, axis, r));
  OxVal *y = fe_ox_call2(im, IR_OP_MULTIPLY, fe_ox_astype(im, acc, fe_ox_dtype(ys)), scale);
  y = fe_ox_call1(im, IR_OP_ROUND, y, NULL);
  if (yzp)
    y = fe_ox_call2(im, IR_OP_ADD, y, fe_ox_astype(im, yzp, fe_ox_dtype(ys)));
  bool sign = t.code == IR_DT_INT;
  double lo = sign ? -(double)(1ll << (t.bits - 1)) : 0;
  double hi = sign ? (double)((1ll << (t.bits - 1)) - 1) : (double)((1ll << t.bits) - 1);
  y = fe_ox_call2(im, IR_OP_MAXIMUM, y, fe_ox_like(im, y, lo));
  y = fe_ox_call2(im, IR_OP_MINIMUM, y, fe_ox_like(im, y, hi));
  return fe_ox_astype(im, y, t);
}

/* MatMulInteger: (a - a_zp) @ (b - b_zp) in int32, b_zp per column. */
static bool
cv_matmul_integer(OxImp *im, OxVal **in, int nin)
{
  OxVal *a = centered(im, in[0], nin > 2 ? in[2] : NULL, 0);
  OxVal *b = centered(im, in[1], nin > 3 ? in[3] : NULL, fe_ox_rank(in[1]) - 1);
  return OUT(fe_ox_matmul(im, a, b));
}

/* ConvInteger: x, w, x_zero_point, w_zero_point. */
static bool
cv_conv_integer(OxImp *im, OxVal **in, int nin)
{
  return int_conv(im, in[0], nin > 2 ? in[2] : NULL, in[1], nin > 3 ? in[3] : NULL, NULL) != NULL;
}

/* QLinearMatMul: a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp. */
static bool
cv_qlinear_matmul(OxImp *im, OxVal **in, int nin)
{
  if (nin < 8)
    return fe_ox_unsupported(im, "needs all eight inputs");
  int rb = fe_ox_rank(in[3]);
  OxVal *acc = fe_ox_matmul(im, centered(im, in[0], in[2], 0), centered(im, in[3], in[5], rb - 1));
  int r = acc ? fe_ox_rank(acc) : 0;
  return OUT(acc ? requantize(im, acc, in[1], in[4], r - 1, in[6], in[7]) : NULL);
}

/* QLinearConv: x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, bias. */
static bool
cv_qlinear_conv(OxImp *im, OxVal **in, int nin)
{
  if (nin < 8)
    return fe_ox_unsupported(im, "needs the first eight inputs");
  OxVal *acc = int_conv(im, in[0], in[2], in[3], in[5], nin > 8 ? in[8] : NULL);
  return OUT(acc ? requantize(im, acc, in[1], in[4], 1, in[6], in[7]) : NULL);
}

/* QuantizeLinear, DequantizeLinear: R.quantize(x, scale, zero_point) and
 * R.dequantize, per tensor or along axis (default 1); a missing zero
 * point is 0 of uint8 (quantize: the output's type) or of x's type.  The
 * output type is the zero point's (quantize) or the scale's (dequantize). */
static bool
cv_qdq(OxImp *im, OxVal **in, int nin)
{
  bool quant = strcmp(im->node->op_type, "QuantizeLinear") == 0;
  if (fe_ox_attr_i(im->node, "block_size", 0) != 0)
    return fe_ox_unsupported(im, "blocked quantization (block_size) is not supported");
  if (fe_ox_attr(im->node, "output_dtype"))
    return fe_ox_unsupported(im, "output_dtype is not supported");
  const IrDType u8 = {IR_DT_UINT, 8, 1};
  OxVal *zp = nin > 2 ? in[2] : NULL;
  IrDType zt = zp ? fe_ox_dtype(zp) : quant ? u8 : fe_ox_dtype(in[0]);
  if (!zp && !(zp = fe_ox_scalar(im, zt, 0)))
    return false;
  /* a per-tensor scale ignores axis, which may not fit x's rank */
  int64_t axis = fe_ox_rank(in[1]) == 0 ? 0 : fe_ox_attr_i(im->node, "axis", 1);
  IrDType out = quant ? zt : fe_ox_dtype(in[1]);
  char buf[16];
  IrAttr *attrs = fe_ox_attrs(im->ctx, "axis", ir_attr_int(im->ctx, axis), "out_dtype",
                              ir_attr_str(im->ctx, ir_sym(im->ctx, ir_dtype_str(out, buf))), NULL);
  OxVal *args[3] = {in[0], in[1], zp};
  return OUT(fe_ox_call(im, quant ? IR_OP_QUANTIZE : IR_OP_DEQUANTIZE, args, 3, attrs));
}

/* DynamicQuantizeLinear: scale = (max(x, 0) - min(x, 0)) / 255, zero point
 * clip(round(-min / scale), 0, 255) as uint8, y = R.quantize(x, scale,
 * zero point) to uint8. */
static bool
cv_dynamic_quantize(OxImp *im, OxVal **in, int nin)
{
  IrCtx *ctx = im->ctx;
  OxVal *x = in[0];
  IrAttr *all =
      fe_ox_attrs(ctx, "axis", ir_attr_none(ctx), "keepdims", ir_attr_bool(ctx, false), NULL);
  OxVal *lo =
      fe_ox_call2(im, IR_OP_MINIMUM, fe_ox_call1(im, IR_OP_MIN, x, all), fe_ox_like(im, x, 0));
  OxVal *hi =
      fe_ox_call2(im, IR_OP_MAXIMUM, fe_ox_call1(im, IR_OP_MAX, x, all), fe_ox_like(im, x, 0));
  OxVal *scale = fe_ox_call2(im, IR_OP_DIVIDE, fe_ox_call2(im, IR_OP_SUBTRACT, hi, lo),
                             fe_ox_like(im, x, 255));
  OxVal *zp = fe_ox_call1(
      im, IR_OP_ROUND,
      fe_ox_call2(im, IR_OP_DIVIDE, fe_ox_call1(im, IR_OP_NEGATIVE, lo, NULL), scale), NULL);
  zp = fe_ox_call2(im, IR_OP_MINIMUM, fe_ox_call2(im, IR_OP_MAXIMUM, zp, fe_ox_like(im, x, 0)),
                   fe_ox_like(im, x, 255));
  zp = fe_ox_call1(im, IR_OP_ASTYPE, zp,
                   fe_ox_attrs(ctx, "dtype", ir_attr_str(ctx, ir_sym(ctx, "uint8")), NULL));
  if (!scale || !zp)
    return false;
  OxVal *args[3] = {x, scale, zp};
  IrAttr *attrs = fe_ox_attrs(ctx, "axis", ir_attr_int(ctx, 0), "out_dtype",
                              ir_attr_str(ctx, ir_sym(ctx, "uint8")), NULL);
  if (!OUT(fe_ox_call(im, IR_OP_QUANTIZE, args, 3, attrs)))
    return false;
  if (im->node->n_output > 1)
    im->outs[1] = scale;
  if (im->node->n_output > 2)
    im->outs[2] = zp;
  return true;
}

static const OxOp quant_ops[] = {
    {"QuantizeLinear", cv_qdq, "axis,saturate,block_size,output_dtype"},
    {"DequantizeLinear", cv_qdq, "axis,block_size"},
    {"DynamicQuantizeLinear", cv_dynamic_quantize, ""},
    {"MatMulInteger", cv_matmul_integer, ""},
    {"ConvInteger", cv_conv_integer, "auto_pad,dilations,group,kernel_shape,pads,strides"},
    {"QLinearMatMul", cv_qlinear_matmul, ""},
    {"QLinearConv", cv_qlinear_conv, "auto_pad,dilations,group,kernel_shape,pads,strides"},
    {NULL, NULL, NULL},
};

const OxOp *
fe_ox_quant_ops(void)
{
  return quant_ops;
}
