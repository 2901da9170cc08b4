/*
 * onnx_nn.c - converters of the ONNX neural-network operators: Conv,
 * ConvTranspose and the pools (2-D and 3-D, and 1-D through a unit height;
 * auto_pad, pads, strides, dilations, groups, output_padding and
 * output_shape, ceil_mode, count_include_pad), Gemm and MatMul,
 * BatchNormalization and LayerNormalization in inference, the global
 * pools, PRelu, and Resize/Upsample in nearest mode as a gather of
 * computed source indices along each resized axis.
 */
#include <math.h>
#include <string.h>

#include "onnx_int.h"

#define OUT(v) (im->outs[0] = (v)) != NULL

static IrAttr *
str_attr(OxImp *im, const char *s)
{
  return ir_attr_str(im->ctx, ir_sym(im->ctx, s));
}

/* The window of a conv or pool over the spatial dims of x as the Relax op
 * sees them: nsp axes, 2 for a rank-4 x and for a rank-3 one (seen as
 * height 1, so 1-D takes conv2d's paths), 3 for rank 5.  kernel k,
 * strides, dilations, pads (before each axis, then after each) after
 * auto_pad.  False after reporting. */
typedef struct {
  int nsp;
  int64_t k[3], stride[3], dilation[3], pad[6];
} Window;

/* The spatial axes of x's rank as the Relax op sees them (0: unsupported). */
static int
window_axes(int rank)
{
  return rank == 3 || rank == 4 ? 2 : rank == 5 ? 3 : 0;
}

/* Reads attribute name (nin values per side, sides 1 or 2) into out:
 * w->nsp entries a side; a 1-D window has height 1 (def). */
static bool
window_ints(OxImp *im, const Window *w, const char *name, int nin, int64_t def, int64_t *out,
            int sides)
{
  int n;
  const int64_t *v = fe_ox_attr_is(im->node, name, &n);
  for (int i = 0; i < w->nsp * sides; i++)
    out[i] = def;
  if (!v)
    return true;
  if (n != nin * sides)
    return fe_ox_unsupported(im, "attribute '%s' has %d values for %d spatial dims", name, n, nin);
  for (int side = 0; side < sides; side++)
    for (int a = 0; a < nin; a++)
      out[side * w->nsp + a + (w->nsp - nin)] = v[side * nin + a];
  return true;
}

/* The extent of window axis a of x (1 for the unit height of 1-D);
 * false when symbolic. */
static bool
window_dim(const Window *w, const OxVal *x, int a, int64_t *in)
{
  int lead = w->nsp - (fe_ox_rank(x) - 2);
  *in = 1;
  return a < lead || fe_ox_dim(x, 2 + a - lead, in);
}

/* pads from auto_pad SAME_*: total padding split in halves, the odd one
 * after (SAME_UPPER) or before (SAME_LOWER). */
static void
same_pads(Window *w, int a, int64_t total, bool lower)
{
  total = total < 0 ? 0 : total;
  w->pad[a] = lower ? total - total / 2 : total / 2;
  w->pad[w->nsp + a] = total - w->pad[a];
}

static bool
read_window(OxImp *im, const OxVal *x, const int64_t *kernel, Window *w)
{
  int nin = fe_ox_rank(x) - 2;
  w->nsp = window_axes(fe_ox_rank(x));
  if (!window_ints(im, w, "strides", nin, 1, w->stride, 1) ||
      !window_ints(im, w, "dilations", nin, 1, w->dilation, 1) ||
      !window_ints(im, w, "pads", nin, 0, w->pad, 2))
    return false;
  memcpy(w->k, kernel, sizeof w->k);
  const char *ap = fe_ox_attr_s(im, im->node, "auto_pad", "NOTSET");
  if (strcmp(ap, "NOTSET") == 0)
    return true;
  bool valid = strcmp(ap, "VALID") == 0, lower = strcmp(ap, "SAME_LOWER") == 0;
  if (!valid && !lower && strcmp(ap, "SAME_UPPER") != 0)
    return fe_ox_unsupported(im, "auto_pad '%s' is not supported", ap);
  for (int a = 0; a < w->nsp; a++) {
    int64_t in;
    if (!window_dim(w, x, a, &in))
      return fe_ox_unsupported(im, "auto_pad needs static spatial dims");
    int64_t out = (in + w->stride[a] - 1) / w->stride[a];
    int64_t total = (out - 1) * w->stride[a] + (w->k[a] - 1) * w->dilation[a] + 1 - in;
    same_pads(w, a, valid ? 0 : total, lower);
  }
  return true;
}

/* x with a unit height inserted (1-D to 2-D), or x itself otherwise. */
static OxVal *
to_2d(OxImp *im, OxVal *x)
{
  if (fe_ox_rank(x) != 3)
    return x;
  int64_t axis = 2;
  return fe_ox_call1(im, IR_OP_EXPAND_DIMS, x,
                     fe_ox_attrs(im->ctx, "axis", fe_ox_attr_ints(im->ctx, &axis, 1), NULL));
}

static OxVal *
from_2d(OxImp *im, OxVal *y, int rank)
{
  if (rank != 3 || !y)
    return y;
  int64_t axis = 2;
  return fe_ox_call1(im, IR_OP_SQUEEZE, y,
                     fe_ox_attrs(im->ctx, "axis", fe_ox_attr_ints(im->ctx, &axis, 1), NULL));
}

static bool
check_spatial(OxImp *im, const OxVal *x)
{
  if (!window_axes(fe_ox_rank(x)))
    return fe_ox_unsupported(im, "only 1-D, 2-D and 3-D inputs are supported (rank %d)",
                             fe_ox_rank(x));
  return true;
}

/* The kernel's spatial extents of weight wt (rank r), as read_window
 * takes them; false after reporting. */
static bool
kernel_dims(OxImp *im, const OxVal *wt, int r, int64_t *k)
{
  int nsp = window_axes(r), lead = nsp - (r - 2);
  if (fe_ox_rank(wt) != r)
    return fe_ox_unsupported(im, "weight rank differs from input rank");
  for (int a = 0; a < nsp; a++) {
    k[a] = 1;
    if (a >= lead && !fe_ox_dim(wt, 2 + a - lead, &k[a]))
      return fe_ox_unsupported(im, "the kernel shape must be static");
  }
  return true;
}

/* y + b with b (one value per channel) along axis 1 of rank-r y. */
static OxVal *
add_channel_bias(OxImp *im, OxVal *y, OxVal *b, int r)
{
  if (!y || !b)
    return y;
  IrPrimExpr **dims = ir_alloc(im->ctx, (size_t)r * sizeof *dims);
  for (int i = 0; i < r; i++)
    dims[i] = ir_prim_int(im->ctx, IR_I64, i == 1 ? -1 : 1);
  return fe_ox_call2(im, IR_OP_ADD, y, fe_ox_reshape(im, b, dims, r));
}

/* A layout attribute of a Relax window op: l2 for 2 axes, l3 for 3. */
static IrAttr *
layout_attr(OxImp *im, const Window *w, const char *l2, const char *l3)
{
  return str_attr(im, w->nsp == 3 ? l3 : l2);
}

/* The call of a convolution over w: conv (out_pad NULL) or transposed
 * (the output_padding out_pad), the bias in[2] added per channel. */
static bool
emit_conv(OxImp *im, OxVal **in, int nin, const Window *w, const int64_t *out_pad)
{
  bool t = out_pad != NULL;
  int r = fe_ox_rank(in[0]);
  IrAttr *attrs = fe_ox_attrs(
      im->ctx, "strides", fe_ox_attr_ints(im->ctx, w->stride, w->nsp), "padding",
      fe_ox_attr_ints(im->ctx, w->pad, 2 * w->nsp), "dilation",
      fe_ox_attr_ints(im->ctx, w->dilation, w->nsp), "groups",
      ir_attr_int(im->ctx, fe_ox_attr_i(im->node, "group", 1)), "data_layout",
      layout_attr(im, w, "NCHW", "NCDHW"), "kernel_layout",
      t ? layout_attr(im, w, "IOHW", "IODHW") : layout_attr(im, w, "OIHW", "OIDHW"), "out_layout",
      ir_attr_none(im->ctx), "out_dtype", str_attr(im, "void"), t ? "output_padding" : NULL,
      t ? fe_ox_attr_ints(im->ctx, out_pad, w->nsp) : NULL, NULL);
  OxVal *args[2] = {to_2d(im, in[0]), to_2d(im, in[1])};
  IrOpId op = w->nsp == 3 ? (t ? IR_OP_CONV3D_TRANSPOSE : IR_OP_CONV3D)
                          : (t ? IR_OP_CONV2D_TRANSPOSE : IR_OP_CONV2D);
  OxVal *y = args[0] && args[1] ? fe_ox_call(im, op, args, 2, attrs) : NULL;
  return OUT(from_2d(im, add_channel_bias(im, y, nin > 2 ? in[2] : NULL, w->nsp + 2), r));
}

/* Conv: groups, dilations, pads, auto_pad; the bias added per channel. */
bool
fe_ox_conv(OxImp *im, OxVal **in, int nin)
{
  int64_t k[3];
  Window w;
  if (!check_spatial(im, in[0]) || !kernel_dims(im, in[1], fe_ox_rank(in[0]), k) ||
      !read_window(im, in[0], k, &w))
    return false;
  return emit_conv(im, in, nin, &w, NULL);
}

/* ConvTranspose: as Conv, with output_padding, and output_shape turned
 * into pads as ONNX defines it (total = stride * (in - 1) +
 * output_padding + (k - 1) * dilation + 1 - output_shape, the odd one
 * before unless SAME_UPPER; a negative total is more output_padding);
 * auto_pad SAME_* asks for in * stride. */
static bool
cv_conv_transpose(OxImp *im, OxVal **in, int nin)
{
  OxVal *x = in[0], *wt = in[1];
  int r = fe_ox_rank(x), n;
  int64_t k[3], out_pad[3], shape[3];
  Window w;
  if (!check_spatial(im, x) || !kernel_dims(im, wt, r, k))
    return false;
  w.nsp = window_axes(r);
  if (!window_ints(im, &w, "strides", r - 2, 1, w.stride, 1) ||
      !window_ints(im, &w, "dilations", r - 2, 1, w.dilation, 1) ||
      !window_ints(im, &w, "pads", r - 2, 0, w.pad, 2) ||
      !window_ints(im, &w, "output_padding", r - 2, 0, out_pad, 1))
    return false;
  const char *ap = fe_ox_attr_s(im, im->node, "auto_pad", "NOTSET");
  bool same = strncmp(ap, "SAME_", 5) == 0, upper = strcmp(ap, "SAME_UPPER") == 0;
  if (!same && strcmp(ap, "NOTSET") != 0 && strcmp(ap, "VALID") != 0)
    return fe_ox_unsupported(im, "auto_pad '%s' is not supported", ap);
  const int64_t *os = fe_ox_attr_is(im->node, "output_shape", &n);
  if (os && n != r - 2)
    return fe_ox_unsupported(im, "output_shape must give one size per spatial dim");
  for (int a = 0; a < w.nsp && (os || same); a++) {
    int64_t extent, lead = w.nsp - (r - 2);
    if (!window_dim(&w, x, a, &extent))
      return fe_ox_unsupported(im, "output_shape and auto_pad need static spatial dims");
    shape[a] = a < lead ? 1 : os ? os[a - lead] : extent * w.stride[a];
    int64_t total =
        w.stride[a] * (extent - 1) + out_pad[a] + (k[a] - 1) * w.dilation[a] + 1 - shape[a];
    if (total < 0) { /* a larger output_shape: zeros after, as output_padding */
      out_pad[a] -= total;
      total = 0;
    }
    w.pad[a] = upper ? total / 2 : total - total / 2;
    w.pad[w.nsp + a] = total - w.pad[a];
  }
  return emit_conv(im, in, nin, &w, out_pad);
}

/* MaxPool and AveragePool: kernel_shape, ceil_mode, count_include_pad. */
static bool
cv_pool(OxImp *im, OxVal **in, int nin)
{
  bool is_max = strcmp(im->node->op_type, "MaxPool") == 0;
  OxVal *x = in[0];
  int r = fe_ox_rank(x), n;
  Window w;
  if (!check_spatial(im, x))
    return false;
  if (im->node->n_output > 1 && im->node->output[1][0])
    return fe_ox_unsupported(im, "the Indices output is not supported");
  if (fe_ox_attr_i(im->node, "storage_order", 0))
    return fe_ox_unsupported(im, "storage_order=1 is not supported");
  const int64_t *ks = fe_ox_attr_is(im->node, "kernel_shape", &n);
  if (!ks || n != r - 2)
    return fe_ox_unsupported(im, "kernel_shape must give one size per spatial dim");
  int64_t k[3] = {1, 1, 1};
  int lead = window_axes(r) - n;
  for (int a = 0; a < n; a++)
    k[lead + a] = ks[a];
  if (!read_window(im, x, k, &w))
    return false;
  IrAttr *attrs = fe_ox_attrs(
      im->ctx, "pool_size", fe_ox_attr_ints(im->ctx, w.k, w.nsp), "strides",
      fe_ox_attr_ints(im->ctx, w.stride, w.nsp), "padding",
      fe_ox_attr_ints(im->ctx, w.pad, 2 * w.nsp), "dilation",
      fe_ox_attr_ints(im->ctx, w.dilation, w.nsp), "ceil_mode",
      ir_attr_bool(im->ctx, fe_ox_attr_i(im->node, "ceil_mode", 0) != 0), "count_include_pad",
      ir_attr_bool(im->ctx, fe_ox_attr_i(im->node, "count_include_pad", 0) != 0), "layout",
      layout_attr(im, &w, "NCHW", "NCDHW"), "out_layout", ir_attr_none(im->ctx), NULL);
  IrOpId op = w.nsp == 3 ? (is_max ? IR_OP_MAX_POOL3D : IR_OP_AVG_POOL3D)
                         : (is_max ? IR_OP_MAX_POOL2D : IR_OP_AVG_POOL2D);
  OxVal *y = fe_ox_call1(im, op, to_2d(im, x), attrs);
  return OUT(from_2d(im, y, r));
}

/* GlobalAveragePool, GlobalMaxPool: mean or max over the spatial dims. */
static bool
cv_global_pool(OxImp *im, OxVal **in, int nin)
{
  int r = fe_ox_rank(in[0]);
  if (r < 3)
    return fe_ox_unsupported(im, "needs a rank of at least 3");
  int64_t axes[16];
  for (int i = 2; i < r && i < 18; i++)
    axes[i - 2] = i;
  IrOpId op = strcmp(im->node->op_type, "GlobalMaxPool") == 0 ? IR_OP_MAX : IR_OP_MEAN;
  return OUT(fe_ox_call1(im, op, in[0],
                         fe_ox_attrs(im->ctx, "axis", fe_ox_attr_ints(im->ctx, axes, r - 2),
                                     "keepdims", ir_attr_bool(im->ctx, true), NULL)));
}

static OxVal *
transpose_2d(OxImp *im, OxVal *x)
{
  return fe_ox_call1(im, IR_OP_PERMUTE_DIMS, x,
                     fe_ox_attrs(im->ctx, "axes", ir_attr_none(im->ctx), NULL));
}

/* Gemm: alpha * A' B' + beta * C, with ' the optional transposes. */
static bool
cv_gemm(OxImp *im, OxVal **in, int nin)
{
  OxVal *a = in[0], *b = in[1];
  if (fe_ox_attr_i(im->node, "transA", 0))
    a = transpose_2d(im, a);
  if (fe_ox_attr_i(im->node, "transB", 0))
    b = transpose_2d(im, b);
  double alpha = fe_ox_attr_f(im->node, "alpha", 1), beta = fe_ox_attr_f(im->node, "beta", 1);
  OxVal *y = fe_ox_matmul(im, a, b);
  IrDType t = fe_ox_dtype(in[0]);
  if (y && alpha != 1)
    y = fe_ox_call2(im, IR_OP_MULTIPLY, y, fe_ox_scalar(im, t, alpha));
  if (y && nin > 2 && in[2] && beta != 0) {
    OxVal *c =
        beta == 1 ? in[2] : fe_ox_call2(im, IR_OP_MULTIPLY, in[2], fe_ox_scalar(im, t, beta));
    y = fe_ox_call2(im, IR_OP_ADD, y, c);
  }
  return OUT(y);
}

static bool
cv_matmul(OxImp *im, OxVal **in, int nin)
{
  return OUT(fe_ox_matmul(im, in[0], in[1]));
}

/* BatchNormalization in inference (training_mode 0, one output). */
static bool
cv_batch_norm(OxImp *im, OxVal **in, int nin)
{
  if (fe_ox_attr_i(im->node, "training_mode", 0) || im->node->n_output > 1)
    return fe_ox_unsupported(im, "training mode is not supported");
  if (fe_ox_attr(im->node, "spatial") && !fe_ox_attr_i(im->node, "spatial", 1))
    return fe_ox_unsupported(im, "spatial=0 is not supported");
  IrAttr *attrs =
      fe_ox_attrs(im->ctx, "axis", ir_attr_int(im->ctx, 1), "epsilon",
                  ir_attr_float(im->ctx, fe_ox_attr_f(im->node, "epsilon", 1e-5)), "center",
                  ir_attr_bool(im->ctx, true), "scale", ir_attr_bool(im->ctx, true), "momentum",
                  ir_attr_float(im->ctx, 0.1), "training", ir_attr_bool(im->ctx, false), NULL);
  OxVal *t = nin == 5 ? fe_ox_call(im, IR_OP_BATCH_NORM, in, 5, attrs) : NULL;
  return t && OUT(fe_ox_tuple_get(im, t, 0));
}

/* LayerNormalization with its Mean and InvStdDev outputs, spelled out:
 * d = x - mean(x), inv = rsqrt(mean(d * d) + epsilon), y = d * inv *
 * scale (+ B), the reductions keeping dims as ONNX's outputs do. */
static bool
layer_norm_stats(OxImp *im, OxVal **in, int nin, IrAttr *axes)
{
  IrAttr *attrs = fe_ox_attrs(im->ctx, "axis", axes, "keepdims", ir_attr_bool(im->ctx, true), NULL);
  IrDType t = fe_ox_dtype(in[0]);
  OxVal *mean = fe_ox_call1(im, IR_OP_MEAN, in[0], attrs);
  OxVal *d = fe_ox_call2(im, IR_OP_SUBTRACT, in[0], mean);
  OxVal *var = d ? fe_ox_call1(im, IR_OP_MEAN, fe_ox_call2(im, IR_OP_MULTIPLY, d, d), attrs) : NULL;
  OxVal *eps = fe_ox_scalar(im, t, fe_ox_attr_f(im->node, "epsilon", 1e-5));
  OxVal *inv =
      var ? fe_ox_call1(im, IR_OP_RSQRT, fe_ox_call2(im, IR_OP_ADD, var, eps), NULL) : NULL;
  OxVal *y =
      inv ? fe_ox_call2(im, IR_OP_MULTIPLY, fe_ox_call2(im, IR_OP_MULTIPLY, d, inv), in[1]) : NULL;
  if (y && nin > 2 && in[2])
    y = fe_ox_call2(im, IR_OP_ADD, y, in[2]);
  im->outs[1] = mean;
  if (im->node->n_output > 2)
    im->outs[2] = inv;
  return OUT(y);
}

/* LayerNormalization over the dims from axis; B defaults to zeros. */
static bool
cv_layer_norm(OxImp *im, OxVal **in, int nin)
{
  int r = fe_ox_rank(in[0]);
  int64_t axis = fe_ox_attr_i(im->node, "axis", -1), axes[16];
  if (axis < 0)
    axis += r;
  if (axis < 0 || axis >= r || r - axis > 16)
    return fe_ox_unsupported(im, "axis out of range");
  for (int64_t i = axis; i < r; i++)
    axes[i - axis] = i;
  IrAttr *ax = fe_ox_attr_ints(im->ctx, axes, (int)(r - axis));
  if (im->node->n_output > 1)
    return layer_norm_stats(im, in, nin, ax);
  OxVal *beta = nin > 2 ? in[2] : NULL;
  if (!beta)
    beta = fe_ox_call2(im, IR_OP_MULTIPLY, in[1], fe_ox_scalar(im, fe_ox_dtype(in[1]), 0));
  OxVal *args[3] = {in[0], in[1], beta};
  IrAttr *attrs =
      fe_ox_attrs(im->ctx, "axes", ax, "epsilon",
                  ir_attr_float(im->ctx, fe_ox_attr_f(im->node, "epsilon", 1e-5)), "center",
                  ir_attr_bool(im->ctx, true), "scale", ir_attr_bool(im->ctx, true), NULL);
  return beta && OUT(fe_ox_call(im, IR_OP_LAYER_NORM, args, 3, attrs));
}

/* InstanceNormalization: R.nn.instance_norm over the dims after the
 * channel (axis 1), per (sample, channel). */
static bool
cv_instance_norm(OxImp *im, OxVal **in, int nin)
{
  int r = fe_ox_rank(in[0]);
  int64_t axes[16];
  if (r < 3 || r > 17 || nin < 3)
    return fe_ox_unsupported(im, "needs an input of rank 3 to 17, scale and B");
  for (int i = 2; i < r; i++)
    axes[i - 2] = i;
  IrAttr *attrs =
      fe_ox_attrs(im->ctx, "channel_axis", ir_attr_int(im->ctx, 1), "axes",
                  fe_ox_attr_ints(im->ctx, axes, r - 2), "epsilon",
                  ir_attr_float(im->ctx, fe_ox_attr_f(im->node, "epsilon", 1e-5)), "center",
                  ir_attr_bool(im->ctx, true), "scale", ir_attr_bool(im->ctx, true), NULL);
  return OUT(fe_ox_call(im, IR_OP_INSTANCE_NORM, in, 3, attrs));
}

/* NegativeLogLikelihoodLoss: R.nn.nll_loss; without ignore_index no
 * target is ignored, which R.nn.nll_loss's -100 (never a class) gives. */
static bool
cv_nll_loss(OxImp *im, OxVal **in, int nin)
{
  const char *reduction = fe_ox_attr_s(im, im->node, "reduction", "mean");
  IrAttr *attrs =
      fe_ox_attrs(im->ctx, "reduction", str_attr(im, reduction), "ignore_index",
                  ir_attr_int(im->ctx, fe_ox_attr_i(im->node, "ignore_index", -100)), NULL);
  return OUT(fe_ox_call(im, IR_OP_NLL_LOSS, in, nin > 2 && in[2] ? 3 : 2, attrs));
}

/* PRelu: x where x >= 0, slope * x elsewhere. */
static bool
cv_prelu(OxImp *im, OxVal **in, int nin)
{
  OxVal *slope = in[1];
  int r = fe_ox_rank(in[0]);
  if (im->opset < 7 && fe_ox_rank(slope) == 1 && r > 2) { /* slope per channel */
    IrPrimExpr **dims = ir_alloc(im->ctx, sizeof *dims * (size_t)(r - 1));
    for (int i = 0; i < r - 1; i++)
      dims[i] = ir_prim_int(im->ctx, IR_I64, i ? 1 : -1);
    slope = fe_ox_reshape(im, slope, dims, r - 1);
  }
  OxVal *neg = fe_ox_call2(im, IR_OP_LESS, in[0], fe_ox_scalar(im, fe_ox_dtype(in[0]), 0));
  OxVal *scaled = slope ? fe_ox_call2(im, IR_OP_MULTIPLY, in[0], slope) : NULL;
  OxVal *args[3] = {neg, scaled, in[0]};
  return neg && scaled && OUT(fe_ox_call(im, IR_OP_WHERE, args, 3, NULL));
}

/* ---- Resize, Upsample: nearest ------------------------------------------ */

/* The source coordinate of output index o along an axis resized from n to
 * m by scale, per coordinate_transformation_mode; NAN when unknown. */
static double
source_coord(const char *mode, int64_t o, int64_t n, int64_t m, double scale)
{
  if (strcmp(mode, "half_pixel") == 0)
    return (o + 0.5) / scale - 0.5;
  if (strcmp(mode, "pytorch_half_pixel") == 0)
    return m > 1 ? (o + 0.5) / scale - 0.5 : 0;
  if (strcmp(mode, "asymmetric") == 0)
    return o / scale;
  if (strcmp(mode, "tf_half_pixel_for_nn") == 0)
    return (o + 0.5) / scale;
  if (strcmp(mode, "align_corners") == 0)
    return m > 1 ? o * (double)(n - 1) / (double)(m - 1) : 0;
  return NAN;
}

/* The nearest index of coordinate x per nearest_mode; INT64_MIN unknown. */
static int64_t
nearest(const char *mode, double x)
{
  double f = floor(x);
  if (strcmp(mode, "floor") == 0)
    return (int64_t)f;
  if (strcmp(mode, "ceil") == 0)
    return (int64_t)ceil(x);
  if (strcmp(mode, "round_prefer_floor") == 0)
    return (int64_t)(x - f == 0.5 ? f : floor(x + 0.5));
  if (strcmp(mode, "round_prefer_ceil") == 0)
    return (int64_t)(x - f == 0.5 ? f + 1 : floor(x + 0.5));
  return INT64_MIN;
}

/* Gathers x along axis at the source indices of an n -> m resize. */
static OxVal *
resize_axis(OxImp *im, OxVal *x, int axis, int64_t n, int64_t m, double scale, const char *ctm,
            const char *nmode)
{
  int64_t *idx = ir_alloc(im->ctx, sizeof *idx * (size_t)(m ? m : 1));
  for (int64_t o = 0; o < m; o++) {
    double c = source_coord(ctm, o, n, m, scale);
    int64_t k = nearest(nmode, c);
    if (isnan(c) || k == INT64_MIN) {
      fe_ox_unsupported(im, "coordinate mode '%s' with nearest mode '%s' is not supported", ctm,
                        nmode);
      return NULL;
    }
    idx[o] = k < 0 ? 0 : k >= n ? n - 1 : k;
  }
  OxVal *args[2] = {x, fe_ox_ints(im, idx, (int)m)};
  return fe_ox_call(
      im, IR_OP_TAKE, args, 2,
      fe_ox_attrs(im->ctx, "axis", ir_attr_int(im->ctx, axis), "mode", str_attr(im, "fast"), NULL));
}

/* Resize of a 4-D NCHW x in mode linear or cubic to m[0] x m[1]:
 * R.image.resize2d.  ONNX's coordinates use the given scale where TVM's
 * use out / in, so a scale that does not give a whole size is refused. */
static bool
resize_interp(OxImp *im, OxVal *x, const OxVal *roi, const char *mode, const char *ctm,
              const int64_t *m)
{
  IrCtx *ctx = im->ctx;
  static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric",
                                      "pytorch_half_pixel", "tf_crop_and_resize"};
  bool known = false;
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
    known = known || strcmp(ctm, modes[i]) == 0;
  if (!known)
    return fe_ox_unsupported(im, "coordinate_transformation_mode '%s' is not supported", ctm);
  IrAttr *r[4];
  for (int i = 0; i < 4; i++) { /* ONNX roi [s0..s3, e0..e3] -> [y0, x0, y1, x1] */
    int at = (i < 2 ? 2 : 6) + i % 2;
    double v = roi && roi->data && op_numel(roi->data) == 8 ? op_get_f(roi->data, at) : 0.0;
    if (strcmp(ctm, "tf_crop_and_resize") == 0 && !(roi && roi->data && op_numel(roi->data) == 8))
      return fe_ox_unsupported(im, "tf_crop_and_resize needs a constant roi of 8 values");
    r[i] = ir_attr_float(ctx, v);
  }
  IrExpr *size = ir_expr_new(ctx, IR_EX_SHAPE, im->loc);
  size->u.shape.values = ir_alloc(ctx, sizeof(IrPrimExpr *) * 2);
  size->u.shape.n = 2;
  for (int i = 0; i < 2; i++)
    size->u.shape.values[i] = ir_prim_int(ctx, IR_I64, m[i]);
  size->sinfo = ir_sinfo_shape(ctx, size->u.shape.values, 2);
  IrAttr *attrs = fe_ox_attrs(
      ctx, "roi", ir_attr_list(ctx, r, 4), "method", str_attr(im, mode),
      "coordinate_transformation_mode", str_attr(im, ctm), "cubic_alpha",
      ir_attr_float(ctx, fe_ox_attr_f(im->node, "cubic_coeff_a", -0.75)), "cubic_exclude",
      ir_attr_int(ctx, fe_ox_attr_i(im->node, "exclude_outside", 0)), "extrapolation_value",
      ir_attr_float(ctx, fe_ox_attr_f(im->node, "extrapolation_value", 0.0)), NULL);
  IrExpr *args[2] = {fe_ox_use(im, x), size};
  return OUT(fe_ox_emit(im, im->node->output[0], IR_OP_IMAGE_RESIZE2D, args, 2, attrs));
}

/* Resize (opset 10: X, scales; 11+: X, roi, scales, sizes) and Upsample
 * (scales as attribute in opset 7, input from 9), nearest mode only. */
static bool
cv_resize(OxImp *im, OxVal **in, int nin)
{
  bool upsample = strcmp(im->node->op_type, "Upsample") == 0;
  const char *mode = fe_ox_attr_s(im, im->node, "mode", "nearest");
  bool interp = strcmp(mode, "linear") == 0 || strcmp(mode, "cubic") == 0;
  if (strcmp(mode, "nearest") != 0 && (!interp || upsample || im->opset < 11))
    return fe_ox_unsupported(im, "mode '%s' is not supported", mode);
  const char *ctm =
      upsample || im->opset < 11
          ? "asymmetric"
          : fe_ox_attr_s(im, im->node, "coordinate_transformation_mode", "half_pixel");
  const char *nmode = upsample || im->opset < 11
                          ? "floor"
                          : fe_ox_attr_s(im, im->node, "nearest_mode", "round_prefer_floor");
  if (fe_ox_attr(im->node, "axes") || fe_ox_attr_i(im->node, "antialias", 0))
    return fe_ox_unsupported(im, "axes and antialias are not supported");
  OxVal *x = in[0];
  int r = fe_ox_rank(x);
  const OxVal *sc = upsample         ? (nin > 1 ? in[1] : NULL)
                    : im->opset < 11 ? in[1]
                    : nin > 2        ? in[2]
                                     : NULL;
  const OxVal *sz = !upsample && im->opset >= 11 && nin > 3 ? in[3] : NULL;
  if (sc && sc->data && op_numel(sc->data) == 0)
    sc = NULL;
  double scales[16];
  int64_t out[16];
  int nattr = 0;
  const Onnx__AttributeProto *sa = upsample ? fe_ox_attr(im->node, "scales") : NULL;
  for (int i = 0; i < r && i < 16; i++) {
    int64_t n, m;
    if (!fe_ox_dim(x, i, &n))
      return fe_ox_unsupported(im, "needs static input dims");
    if (sa && (nattr = (int)sa->n_floats) == r)
      scales[i] = sa->floats[i];
    else if (sc && sc->data && op_numel(sc->data) == r)
      scales[i] = op_get_f(sc->data, i);
    else if (sz && sz->data && op_numel(sz->data) == r)
      scales[i] = (double)op_get_i(sz->data, i) / (double)n;
    else
      return fe_ox_unsupported(im, "needs constant scales or sizes, one per dim");
    m = sz ? op_get_i(sz->data, i) : (int64_t)floor(n * scales[i]);
    if (interp) { /* NCHW, N and C kept, a whole size from a scale */
      if (r != 4 || (i < 2 && m != n) || (!sz && (double)m != n * scales[i]))
        return fe_ox_unsupported(im,
                                 "mode '%s' is not supported here: it needs a 4-D input "
                                 "resized over H and W by sizes or scales giving whole sizes",
                                 mode);
      out[i] = m;
      continue;
    }
    if (m != n && !(x = resize_axis(im, x, i, n, m, scales[i], ctm, nmode)))
      return false;
  }
  if (interp)
    return resize_interp(im, x, nin > 1 ? in[1] : NULL,
                         strcmp(mode, "linear") == 0 ? "linear" : "cubic", ctm, out + 2);
  return OUT(x);
}

/* RoiAlign(X, rois [R, 4], batch_indices [R]): R.vision.roi_align over
 * rois with the batch index as column 0.  half_pixel (opset 16's
 * default) shifts the scaled corners by -0.5 and leaves small rois as
 * they are: the corners less 0.5 / spatial_scale, aligned=True;
 * output_half_pixel (opset 10) is aligned=False.  Mode max is refused:
 * ONNX's max of weighted corners is not TVM's max of samples. */
static bool
cv_roi_align(OxImp *im, OxVal **in, int nin)
{
  const char *mode = fe_ox_attr_s(im, im->node, "mode", "avg");
  const char *ctm = im->opset >= 16
                        ? fe_ox_attr_s(im, im->node, "coordinate_transformation_mode", "half_pixel")
                        : "output_half_pixel";
  bool half = strcmp(ctm, "half_pixel") == 0;
  if (strcmp(mode, "avg") != 0)
    return fe_ox_unsupported(im, "mode '%s' is not supported (only avg)", mode);
  if (!half && strcmp(ctm, "output_half_pixel") != 0)
    return fe_ox_unsupported(im, "coordinate_transformation_mode '%s' is not supported", ctm);
  if (nin < 3 || !in[1] || !in[2])
    return fe_ox_unsupported(im, "needs rois and batch_indices");
  IrCtx *ctx = im->ctx;
  double scale = fe_ox_attr_f(im->node, "spatial_scale", 1.0);
  int64_t size[2] = {fe_ox_attr_i(im->node, "output_height", 1),
                     fe_ox_attr_i(im->node, "output_width", 1)};
  int64_t ratio = fe_ox_attr_i(im->node, "sampling_ratio", 0), one = 1;
  IrDType rt = fe_ox_dtype(in[1]);
  char buf[16];
  OxVal *rois = in[1];
  if (half && !(rois = fe_ox_call2(im, IR_OP_SUBTRACT, rois, fe_ox_scalar(im, rt, 0.5 / scale))))
    return false;
  OxVal *b = fe_ox_call1(
      im, IR_OP_ASTYPE, in[2],
      fe_ox_attrs(ctx, "dtype", ir_attr_str(ctx, ir_sym(ctx, ir_dtype_str(rt, buf))), NULL));
  b = b ? fe_ox_call1(im, IR_OP_EXPAND_DIMS, b,
                      fe_ox_attrs(ctx, "axis", fe_ox_attr_ints(ctx, &one, 1), NULL))
        : NULL;
  if (!b)
    return false;
  IrExpr *tuple = ir_expr_new(ctx, IR_EX_TUPLE, im->loc);
  IrExpr **items = ir_alloc(ctx, sizeof *items * 2);
  IrSInfo **fields = ir_alloc(ctx, sizeof *fields * 2);
  items[0] = fe_ox_use(im, b), items[1] = fe_ox_use(im, rois);
  fields[0] = b->sinfo, fields[1] = rois->sinfo;
  tuple->u.tuple.items = items, tuple->u.tuple.n = 2;
  tuple->sinfo = ir_sinfo_tuple(ctx, fields, 2);
  OxVal *r = fe_ox_emit(im, "rois", IR_OP_CONCAT, &tuple, 1,
                        fe_ox_attrs(ctx, "axis", ir_attr_int(ctx, 1), NULL));
  if (!r)
    return false;
  IrAttr *attrs = fe_ox_attrs(ctx, "pooled_size", fe_ox_attr_ints(ctx, size, 2), "spatial_scale",
                              ir_attr_float(ctx, scale), "sample_ratio",
                              ir_attr_int(ctx, ratio > 0 ? ratio : -1), "aligned",
                              ir_attr_bool(ctx, half), NULL);
  OxVal *args[2] = {in[0], r};
  return OUT(fe_ox_call(im, IR_OP_VISION_ROI_ALIGN, args, 2, attrs));
}

/* GridSample(X, grid [N, Ho, Wo, 2]): R.image.grid_sample with the grid
 * moved to [N, 2, Ho, Wo]; modes bilinear/linear, nearest, bicubic/cubic
 * of 4-D inputs. */
static bool
cv_grid_sample(OxImp *im, OxVal **in, int nin)
{
  static const char *const names[][2] = {{"bilinear", "bilinear"},
                                         {"linear", "bilinear"},
                                         {"nearest", "nearest"},
                                         {"bicubic", "bicubic"},
                                         {"cubic", "bicubic"}};
  IrCtx *ctx = im->ctx;
  const char *mode = fe_ox_attr_s(im, im->node, "mode", im->opset >= 20 ? "linear" : "bilinear");
  const char *padding = fe_ox_attr_s(im, im->node, "padding_mode", "zeros");
  const char *method = NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(mode, names[i][0]) == 0)
      method = names[i][1];
  if (!method)
    return fe_ox_unsupported(im, "mode '%s' is not supported", mode);
  if (nin < 2 || fe_ox_rank(in[0]) != 4 || fe_ox_rank(in[1]) != 4)
    return fe_ox_unsupported(im, "only 4-D inputs are supported");
  int64_t perm[4] = {0, 3, 1, 2};
  OxVal *grid = fe_ox_call1(im, IR_OP_PERMUTE_DIMS, in[1],
                            fe_ox_attrs(ctx, "axes", fe_ox_attr_ints(ctx, perm, 4), NULL));
  if (!grid)
    return false;
  IrAttr *attrs =
      fe_ox_attrs(ctx, "method", ir_attr_str(ctx, ir_sym(ctx, method)), "padding_mode",
                  ir_attr_str(ctx, ir_sym(ctx, padding)), "align_corners",
                  ir_attr_bool(ctx, fe_ox_attr_i(im->node, "align_corners", 0) != 0), NULL);
  OxVal *args[2] = {in[0], grid};
  return OUT(fe_ox_call(im, IR_OP_IMAGE_GRID_SAMPLE, args, 2, attrs));
}

static const OxOp nn_ops[] = {
    {"Conv", fe_ox_conv, "auto_pad,dilations,group,kernel_shape,pads,strides"},
    {"ConvTranspose", cv_conv_transpose,
     "auto_pad,dilations,group,kernel_shape,output_padding,output_shape,pads,strides"},
    {"MaxPool", cv_pool, "auto_pad,ceil_mode,dilations,kernel_shape,pads,storage_order,strides"},
    {"AveragePool", cv_pool, "auto_pad,ceil_mode,count_include_pad,kernel_shape,pads,strides"},
    {"GlobalAveragePool", cv_global_pool, ""},
    {"GlobalMaxPool", cv_global_pool, ""},
    {"Gemm", cv_gemm, "alpha,beta,transA,transB,broadcast"},
    {"MatMul", cv_matmul, ""},
    {"BatchNormalization", cv_batch_norm, "epsilon,momentum,spatial,training_mode,is_test"},
    {"LayerNormalization", cv_layer_norm, "axis,epsilon,stash_type"},
    {"PRelu", cv_prelu, ""},
    {"InstanceNormalization", cv_instance_norm, "epsilon"},
    {"NegativeLogLikelihoodLoss", cv_nll_loss, "reduction,ignore_index"},
    {"Resize", cv_resize,
     "mode,coordinate_transformation_mode,nearest_mode,cubic_coeff_a,exclude_outside,"
     "extrapolation_value"},
    {"Upsample", cv_resize, "mode,scales"},
    {"GridSample", cv_grid_sample, "align_corners,mode,padding_mode"},
    {"RoiAlign", cv_roi_align,
     "mode,coordinate_transformation_mode,output_height,output_width,sampling_ratio,"
     "spatial_scale"},
    {NULL, NULL, NULL},
};

const OxOp *
fe_ox_nn_ops(void)
{
  return nn_ops;
}
