/*
 * conv.c - ops with a spatial window over 4-D tensors: conv2d, max_pool2d,
 * avg_pool2d, adaptive_avg_pool2d.
 *
 * Key idea: a layout is a permutation of the logical axes (N, C, H, W for
 * data and outputs; O, I, H, W for kernels), so "NCHW", "NHWC", "OIHW",
 * "HWIO", "OHWI" are one code path: inference maps dims to logical order
 * and back, kernels index through per-axis strides.
 *
 * Output extents follow TVM (src/relax/op/nn/convolution.cc, pooling.cc):
 *   out = (in + pad_before + pad_after - dilation * (k - 1) - 1) // stride + 1
 * and with ceil_mode, stride - 1 added to the numerator, minus one when the
 * last window would start past the input and its leading padding.
 * Padding is [top, left, bottom, right]; 1 or 2 values expand as in TVM.
 * Padded positions read 0 for conv2d and avg_pool2d, -inf for max_pool2d;
 * avg_pool2d divides by the positions inside the padded input
 * (count_include_pad) or inside the input alone.
 *
 * Legalization writes the same loops as the kernels into a T.prim_func:
 * a nest over the output, a window nest inside, padding as an if-guard
 * around the accumulation (no load outside the input), sums in float64;
 * a float32 conv2d with groups 1 is a product of matrices for each output
 * row instead (conv2d_fast: gemm.c's register tiles, float32 sums, as
 * TVM's legalized conv2d sums in its output dtype).
 */
#include <math.h>
#include <string.h>

#include "conv_int.h"


/* Parses a layout attribute as a permutation of letters ("NCHW"). */
static bool
parse_layout(const NnSite *s, const char *name, const char *fallback, const char *letters,
             Layout *out)
{
  const char *text;
  if (!op_nn_attr_str(s, name, fallback, &text))
    return false;
  bool seen[4] = {false};
  if (strlen(text) == 4) {
    for (int i = 0; i < 4; i++) {
      const char *p = strchr(letters, text[i]);
      if (!p || !text[i] || seen[p - letters])
        break;
      seen[p - letters] = true;
      out->pos[p - letters] = i;
    }
  }
  if (!seen[0] || !seen[1] || !seen[2] || !seen[3]) {
    op_nn_error(s, "%s \"%s\" is not supported (a permutation of %s is)", name, text, letters);
    return false;
  }
  return true;
}

/* An attribute of 1 or 2 positive ints into v[2]. */
static bool
parse_pair(const NnSite *s, const char *name, int64_t fallback, int64_t *v)
{
  int n;
  if (!op_nn_attr_ints(s, name, v, 2, &n))
    return false;
  if (n == 0)
    v[0] = fallback;
  if (n <= 1)
    v[1] = v[0];
  if (v[0] <= 0 || v[1] <= 0) {
    op_nn_error(s, "%s must be positive, got [%lld, %lld]", name, (long long)v[0], (long long)v[1]);
    return false;
  }
  return true;
}

/* padding: 1 value for all sides, 2 as [top/bottom, left/right], 4 as
 * [top, left, bottom, right]; never negative. */
static bool
parse_padding(const NnSite *s, int64_t *pad)
{
  int n;
  if (!op_nn_attr_ints(s, "padding", pad, 4, &n))
    return false;
  if (n == 0 || n == 1) {
    int64_t p = n ? pad[0] : 0;
    pad[0] = pad[1] = pad[2] = pad[3] = p;
  } else if (n == 2) {
    pad[2] = pad[0];
    pad[3] = pad[1];
  } else if (n != 4) {
    op_nn_error(s, "padding must have 1, 2 or 4 values, not %d", n);
    return false;
  }
  for (int i = 0; i < 4; i++) {
    if (pad[i] < 0) {
      op_nn_error(s, "padding must not be negative");
      return false;
    }
  }
  return true;
}

/* Reads every attribute of a conv2d or pool call. */
bool
op_conv_parse_window(const NnSite *s, Window *w)
{
  IrOpId id = s->call->u.call.op->id;
  bool conv = id == IR_OP_CONV2D;
  const char *data_attr = conv ? "data_layout" : "layout";
  const char *data_text;
  memset(w, 0, sizeof *w);
  if (!op_nn_attr_str(s, data_attr, "NCHW", &data_text) ||
      !parse_layout(s, data_attr, "NCHW", "NCHW", &w->data) ||
      !parse_layout(s, "out_layout", data_text, "NCHW", &w->out))
    return false;
  if (id == IR_OP_ADAPTIVE_AVG_POOL2D)
    return true;
  if (!parse_pair(s, "strides", 1, w->stride) || !parse_pair(s, "dilation", 1, w->dilation) ||
      !parse_padding(s, w->pad))
    return false;
  if (conv) {
    if (!parse_layout(s, "kernel_layout", "OIHW", "OIHW", &w->kernel) ||
        !op_nn_attr_int(s, "groups", 1, &w->groups) ||
        !op_nn_attr_dtype(s, "out_dtype", &w->out_dtype))
      return false;
    if (w->groups <= 0) {
      op_nn_error(s, "groups must be positive, got %lld", (long long)w->groups);
      return false;
    }
    return true;
  }
  return parse_pair(s, "pool_size", 1, w->size) &&
         op_nn_attr_bool(s, "ceil_mode", false, &w->ceil_mode) &&
         op_nn_attr_bool(s, "count_include_pad", false, &w->count_include_pad);
}

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

/* A 4-D tensor argument: false after an error; *dims its dims in logical
 * order, or NULL when unknown. */
static bool
window_arg(OpInfer *in, const IrExpr *call, IrSInfo **args, int i, const char *what,
           const Layout *l, IrSInfo **t, IrPrimExpr ***dims)
{
  *dims = NULL;
  if (!op_nn_tensor_arg(in, call, args, i, what, t))
    return false;
  if (*t && (*t)->u.tensor.ndim >= 0 && (*t)->u.tensor.ndim != 4) {
    op_error(in->ctx, in->loc, in->binding, call->u.call.op, "%s must have rank 4, not %d", what,
             (*t)->u.tensor.ndim);
    return false;
  }
  IrPrimExpr **shape = op_nn_shape(*t);
  if (!shape)
    return true;
  *dims = ir_alloc(in->ctx, sizeof(IrPrimExpr *) * 4);
  for (int k = 0; k < 4; k++)
    (*dims)[k] = shape[l->pos[k]];
  return true;
}

static IrPrimExpr *
bin(OpInfer *in, IrPrimKind k, IrPrimExpr *a, IrPrimExpr *b)
{
  return ir_prim_bin(in->ctx, k, a, b);
}

/* The output extent along spatial axis a (0: H, 1: W) of an input of
 * extent x and a window of extent k, simplified. */
static IrPrimExpr *
out_extent(OpInfer *in, const Window *w, int a, IrPrimExpr *x, IrPrimExpr *k)
{
  IrCtx *c = in->ctx;
  int64_t pad = w->pad[a] + w->pad[a + 2];
  IrPrimExpr *span =
      bin(in, IR_PE_MUL, op_nn_int(c, w->dilation[a]), bin(in, IR_PE_SUB, k, op_nn_int(c, 1)));
  IrPrimExpr *num = bin(in, IR_PE_SUB, bin(in, IR_PE_ADD, x, op_nn_int(c, pad)), span);
  num = bin(in, IR_PE_SUB, num, op_nn_int(c, 1));
  if (w->ceil_mode)
    num = bin(in, IR_PE_ADD, num, op_nn_int(c, w->stride[a] - 1));
  IrPrimExpr *raw = op_nn_simplify(in, bin(in, IR_PE_ADD,
                                           bin(in, IR_PE_FLOORDIV, num, op_nn_int(c, w->stride[a])),
                                           op_nn_int(c, 1)));
  if (!w->ceil_mode)
    return raw;
  /* the last window must start inside the input or its leading padding */
  IrPrimExpr *less = op_nn_simplify(in, bin(in, IR_PE_SUB, raw, op_nn_int(c, 1)));
  IrPrimExpr *start = bin(in, IR_PE_MUL, less, op_nn_int(c, w->stride[a]));
  IrPrimExpr *past = bin(in, IR_PE_GE, start, bin(in, IR_PE_ADD, x, op_nn_int(c, w->pad[a])));
  IrProof p = in->arith ? ir_arith_prove(in->arith, past) : IR_PROVE_UNKNOWN;
  if (p == IR_PROVE_TRUE)
    return less;
  if (p == IR_PROVE_FALSE)
    return raw;
  IrPrimExpr *choice[3] = {past, less, raw}; /* TVM keeps if_then_else too */
  IrPrimExpr **items = ir_alloc(c, sizeof choice);
  memcpy(items, choice, sizeof choice);
  return ir_prim_intrin(c, raw->dtype, "tir.if_then_else", items, 3);
}

/* A tensor of the given logical dims in layout l. */
static IrSInfo *
tensor_in_layout(OpInfer *in, IrPrimExpr **logical, const Layout *l, IrDType t, int vdevice)
{
  IrPrimExpr **shape = ir_alloc(in->ctx, sizeof(IrPrimExpr *) * 4);
  for (int k = 0; k < 4; k++)
    shape[l->pos[k]] = logical[k];
  return ir_sinfo_tensor(in->ctx, shape, 4, t, vdevice);
}

/* TVM's channel checks: C == I * groups and O % groups == 0, errors only
 * when provably broken. */
static bool
check_channels(OpInfer *in, const IrExpr *call, const Window *w, IrPrimExpr **x, IrPrimExpr **k)
{
  NnSite s = op_nn_site_infer(in, call);
  IrPrimExpr *need = op_nn_simplify(in, bin(in, IR_PE_MUL, k[1], op_nn_int(in->ctx, w->groups)));
  if (op_assume_equal(in, x[1], need) == IR_PROVE_FALSE) {
    op_nn_error(&s, "data has %s channels, but weight has %s input channels times %lld groups = %s",
                op_nn_expr_str(in->ctx, x[1]), op_nn_expr_str(in->ctx, k[1]), (long long)w->groups,
                op_nn_expr_str(in->ctx, need));
    return false;
  }
  IrPrimExpr *rem =
      op_nn_simplify(in, bin(in, IR_PE_FLOORMOD, k[0], op_nn_int(in->ctx, w->groups)));
  if (op_assume_equal(in, rem, op_nn_int(in->ctx, 0)) == IR_PROVE_FALSE) {
    op_nn_error(&s, "weight has %s output channels, not divisible by %lld groups",
                op_nn_expr_str(in->ctx, k[0]), (long long)w->groups);
    return false;
  }
  return true;
}

IrSInfo *
op_nn_infer_conv2d(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  NnSite s = op_nn_site_infer(in, call);
  Window w;
  IrSInfo *xt, *kt;
  IrPrimExpr **x, **k;
  IrDType dtype;
  if (!op_conv_parse_window(&s, &w) || !window_arg(in, call, args, 0, "data", &w.data, &xt, &x) ||
      !window_arg(in, call, args, 1, "weight", &w.kernel, &kt, &k))
    return NULL;
  if (!op_nn_common_dtype(in, call, op_nn_dtype(xt), op_nn_dtype(kt), &dtype))
    return NULL;
  if (w.out_dtype.code != IR_DT_VOID)
    dtype = w.out_dtype;
  if (!x || !k)
    return ir_sinfo_tensor(in->ctx, NULL, 4, dtype, op_nn_vdevice(xt));
  if (!check_channels(in, call, &w, x, k))
    return NULL;
  IrPrimExpr *o[4] = {x[0], k[0], out_extent(in, &w, 0, x[2], k[2]),
                      out_extent(in, &w, 1, x[3], k[3])};
  return tensor_in_layout(in, o, &w.out, dtype, op_nn_vdevice(xt));
}

IrSInfo *
op_nn_infer_pool2d(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  NnSite s = op_nn_site_infer(in, call);
  Window w;
  IrSInfo *xt;
  IrPrimExpr **x;
  if (!op_conv_parse_window(&s, &w) || !window_arg(in, call, args, 0, "data", &w.data, &xt, &x))
    return NULL;
  if (!x)
    return ir_sinfo_tensor(in->ctx, NULL, 4, op_nn_dtype(xt), op_nn_vdevice(xt));
  IrPrimExpr *o[4] = {x[0], x[1], out_extent(in, &w, 0, x[2], op_nn_int(in->ctx, w.size[0])),
                      out_extent(in, &w, 1, x[3], op_nn_int(in->ctx, w.size[1]))};
  return tensor_in_layout(in, o, &w.out, op_nn_dtype(xt), op_nn_vdevice(xt));
}

/* output_size: None (the input's extents), one value for both, or two. */
static bool
parse_output_size(const NnSite *s, int64_t *size, int *n)
{
  if (!op_nn_attr_ints(s, "output_size", size, 2, n))
    return false;
  if (*n == 1)
    size[1] = size[0];
  for (int i = 0; i < *n; i++) {
    if (size[i] <= 0) {
      op_nn_error(s, "output_size must be positive, got %lld", (long long)size[i]);
      return false;
    }
  }
  return true;
}

IrSInfo *
op_nn_infer_adaptive_pool2d(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  NnSite s = op_nn_site_infer(in, call);
  Window w;
  IrSInfo *xt;
  IrPrimExpr **x;
  int64_t size[2];
  int n;
  if (!op_conv_parse_window(&s, &w) || !parse_output_size(&s, size, &n) ||
      !window_arg(in, call, args, 0, "data", &w.data, &xt, &x))
    return NULL;
  if (!x)
    return ir_sinfo_tensor(in->ctx, NULL, 4, op_nn_dtype(xt), op_nn_vdevice(xt));
  IrPrimExpr *o[4] = {x[0], x[1], n ? op_nn_int(in->ctx, size[0]) : x[2],
                      n ? op_nn_int(in->ctx, size[1]) : x[3]};
  return tensor_in_layout(in, o, &w.out, op_nn_dtype(xt), op_nn_vdevice(xt));
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

/* A 4-D tensor value seen in logical order: dims and element strides. */
typedef struct {
  const IrTensorData *t;
  int64_t dim[4];
  int64_t stride[4];
} View;

static bool
view_of(const NnSite *s, const IrTensorData *t, const Layout *l, const char *what, View *v)
{
  int64_t phys[4];
  if (!t)
    return false;
  if (t->ndim != 4) {
    op_nn_error(s, "%s must have rank 4, not %d", what, t->ndim);
    return false;
  }
  op_nn_strides(t, phys);
  v->t = t;
  for (int k = 0; k < 4; k++) {
    v->dim[k] = t->shape[l->pos[k]];
    v->stride[k] = phys[l->pos[k]];
  }
  return true;
}

static int64_t
at(const View *v, int64_t a, int64_t b, int64_t c, int64_t d)
{
  return a * v->stride[0] + b * v->stride[1] + c * v->stride[2] + d * v->stride[3];
}

/* A new output of logical dims o in layout l, seen as a View. */
static Value *
new_output(const NnSite *s, IrDType t, const int64_t *o, const Layout *l, View *v)
{
  int64_t shape[4];
  for (int k = 0; k < 4; k++)
    shape[l->pos[k]] = o[k];
  Value *out = op_nn_tensor_new(s, t, 4, shape);
  if (out)
    view_of(s, &out->u.tensor.t, l, "output", v);
  return out;
}

/* The concrete output extent (see out_extent); false after an error when
 * it would be negative. */
static bool
extent_value(const NnSite *s, const Window *w, int a, int64_t x, int64_t k, int64_t *out)
{
  int64_t st = w->stride[a];
  int64_t num = x + w->pad[a] + w->pad[a + 2] - w->dilation[a] * (k - 1) - 1;
  if (w->ceil_mode)
    num += st - 1;
  int64_t q = num >= 0 ? num / st : -((-num + st - 1) / st);
  *out = q + 1;
  if (w->ceil_mode && (*out - 1) * st >= x + w->pad[a])
    *out -= 1;
  if (*out < 0) {
    op_nn_error(s, "the window (extent %lld) does not fit the padded input (extent %lld)",
                (long long)(w->dilation[a] * (k - 1) + 1),
                (long long)(x + w->pad[a] + w->pad[a + 2]));
    return false;
  }
  return true;
}

/* One output element of conv2d: the sum over the group's input channels
 * and the kernel window; positions in the padding contribute 0. */
static double
conv_point(const Window *w, const View *x, const View *k, int64_t n, int64_t o, int64_t y,
           int64_t z)
{
  int64_t cin = k->dim[1], group = o / (k->dim[0] / w->groups);
  double acc = 0;
  for (int64_t ci = 0; ci < cin; ci++) {
    int64_t c = group * cin + ci;
    for (int64_t ky = 0; ky < k->dim[2]; ky++) {
      int64_t iy = y * w->stride[0] - w->pad[0] + ky * w->dilation[0];
      if (iy < 0 || iy >= x->dim[2])
        continue;
      for (int64_t kx = 0; kx < k->dim[3]; kx++) {
        int64_t ix = z * w->stride[1] - w->pad[1] + kx * w->dilation[1];
        if (ix < 0 || ix >= x->dim[3])
          continue;
        acc += op_get_f(x->t, at(x, n, c, iy, ix)) * op_get_f(k->t, at(k, o, ci, ky, kx));
      }
    }
  }
  return acc;
}

Value *
op_nn_eval_conv2d(OpEval *ev, const IrExpr *call, Value **args)
{
  NnSite s = op_nn_site_eval(ev, call);
  Window w;
  View x, k, v;
  int64_t o[4];
  if (!op_conv_parse_window(&s, &w) ||
      !view_of(&s, op_nn_tensor_value(&s, args, 0, "data"), &w.data, "data", &x) ||
      !view_of(&s, op_nn_tensor_value(&s, args, 1, "weight"), &w.kernel, "weight", &k))
    return NULL;
  if (x.dim[1] != k.dim[1] * w.groups || k.dim[0] % w.groups != 0) {
    op_nn_error(
        &s, "data has %lld channels; weight has %lld output and %lld input channels; %lld groups",
        (long long)x.dim[1], (long long)k.dim[0], (long long)k.dim[1], (long long)w.groups);
    return NULL;
  }
  o[0] = x.dim[0];
  o[1] = k.dim[0];
  if (!extent_value(&s, &w, 0, x.dim[2], k.dim[2], &o[2]) ||
      !extent_value(&s, &w, 1, x.dim[3], k.dim[3], &o[3]))
    return NULL;
  IrDType t = w.out_dtype.code != IR_DT_VOID ? w.out_dtype : x.t->dtype;
  Value *out = new_output(&s, t, o, &w.out, &v);
  if (!out)
    return NULL;
  for (int64_t n = 0; n < o[0]; n++)
    for (int64_t c = 0; c < o[1]; c++)
      for (int64_t y = 0; y < o[2]; y++)
        for (int64_t z = 0; z < o[3]; z++)
          op_set_f(&out->u.tensor.t, at(&v, n, c, y, z), conv_point(&w, &x, &k, n, c, y, z));
  return out;
}

/* The smallest value of a dtype: what max_pool2d gives for a window that
 * holds padding only. */
double
op_conv_lowest(IrDType t)
{
  if (t.code == IR_DT_INT)
    return -ldexp(1.0, t.bits - 1);
  if (t.code == IR_DT_UINT || t.code == IR_DT_BOOL)
    return 0;
  return -INFINITY;
}

/* One output element of a pool over channel c of batch n. */
static double
pool_point(const Window *w, bool max, const View *x, int64_t n, int64_t c, int64_t y, int64_t z)
{
  double acc = max ? op_conv_lowest(x->t->dtype) : 0;
  int64_t inside = 0, padded = 0;
  for (int64_t ky = 0; ky < w->size[0]; ky++) {
    int64_t iy = y * w->stride[0] - w->pad[0] + ky * w->dilation[0];
    bool in_pad_y = iy >= -w->pad[0] && iy < x->dim[2] + w->pad[2];
    for (int64_t kx = 0; kx < w->size[1]; kx++) {
      int64_t ix = z * w->stride[1] - w->pad[1] + kx * w->dilation[1];
      padded += in_pad_y && ix >= -w->pad[1] && ix < x->dim[3] + w->pad[3];
      if (iy < 0 || iy >= x->dim[2] || ix < 0 || ix >= x->dim[3])
        continue;
      double v = op_get_f(x->t, at(x, n, c, iy, ix));
      acc = max ? fmax(acc, v) : acc + v;
      inside++;
    }
  }
  if (max)
    return acc;
  int64_t div = w->count_include_pad ? padded : inside;
  return acc / (double)(div > 0 ? div : 1);
}

Value *
op_nn_eval_pool2d(OpEval *ev, const IrExpr *call, Value **args)
{
  NnSite s = op_nn_site_eval(ev, call);
  Window w;
  View x, v;
  int64_t o[4];
  if (!op_conv_parse_window(&s, &w) ||
      !view_of(&s, op_nn_tensor_value(&s, args, 0, "data"), &w.data, "data", &x))
    return NULL;
  o[0] = x.dim[0];
  o[1] = x.dim[1];
  if (!extent_value(&s, &w, 0, x.dim[2], w.size[0], &o[2]) ||
      !extent_value(&s, &w, 1, x.dim[3], w.size[1], &o[3]))
    return NULL;
  Value *out = new_output(&s, x.t->dtype, o, &w.out, &v);
  if (!out)
    return NULL;
  bool max = call->u.call.op->id == IR_OP_MAX_POOL2D;
  for (int64_t n = 0; n < o[0]; n++)
    for (int64_t c = 0; c < o[1]; c++)
      for (int64_t y = 0; y < o[2]; y++)
        for (int64_t z = 0; z < o[3]; z++)
          op_set_f(&out->u.tensor.t, at(&v, n, c, y, z), pool_point(&w, max, &x, n, c, y, z));
  return out;
}

/* The adaptive window of output index i: [floor(i*in/out), ceil((i+1)*in/out)). */
static void
adaptive_range(int64_t i, int64_t in, int64_t out, int64_t *start, int64_t *end)
{
  *start = i * in / out;
  *end = ((i + 1) * in + out - 1) / out;
}

static double
adaptive_point(const View *x, const int64_t *o, int64_t n, int64_t c, int64_t y, int64_t z)
{
  int64_t y0, y1, x0, x1;
  double acc = 0;
  adaptive_range(y, x->dim[2], o[2], &y0, &y1);
  adaptive_range(z, x->dim[3], o[3], &x0, &x1);
  for (int64_t iy = y0; iy < y1; iy++)
    for (int64_t ix = x0; ix < x1; ix++)
      acc += op_get_f(x->t, at(x, n, c, iy, ix));
  int64_t count = (y1 - y0) * (x1 - x0);
  return acc / (double)(count > 0 ? count : 1);
}

Value *
op_nn_eval_adaptive_pool2d(OpEval *ev, const IrExpr *call, Value **args)
{
  NnSite s = op_nn_site_eval(ev, call);
  Window w;
  View x, v;
  int64_t size[2], o[4];
  int n;
  if (!op_conv_parse_window(&s, &w) || !parse_output_size(&s, size, &n) ||
      !view_of(&s, op_nn_tensor_value(&s, args, 0, "data"), &w.data, "data", &x))
    return NULL;
  o[0] = x.dim[0];
  o[1] = x.dim[1];
  o[2] = n ? size[0] : x.dim[2];
  o[3] = n ? size[1] : x.dim[3];
  Value *out = new_output(&s, x.t->dtype, o, &w.out, &v);
  if (!out)
    return NULL;
  for (int64_t b = 0; b < o[0]; b++)
    for (int64_t c = 0; c < o[1]; c++)
      for (int64_t y = 0; y < o[2]; y++)
        for (int64_t z = 0; z < o[3]; z++)
          op_set_f(&out->u.tensor.t, at(&v, b, c, y, z), adaptive_point(&x, o, b, c, y, z));
  return out;
}
/* ------------------------------------------------------------------ */
/* Legalization                                                        */
/* ------------------------------------------------------------------ */


/* The logical dim k of a buffer. */
IrPrimExpr *
op_conv_dim(const BufView *v, int k)
{
  return v->b->shape[v->l->pos[k]];
}

/* v[a, b, c, d] in logical order, in v's dtype. */
IrPrimExpr *
op_conv_load_raw(OpPrim *p, const BufView *v, IrPrimExpr *a, IrPrimExpr *b, IrPrimExpr *c, IrPrimExpr *d)
{
  IrPrimExpr *logical[4] = {a, b, c, d};
  IrPrimExpr **idx = ir_alloc(p->lz->ctx, sizeof *idx * 4);
  for (int k = 0; k < 4; k++)
    idx[v->l->pos[k]] = logical[k];
  return op_prim_load(p, v->b, idx);
}

/* v[a, b, c, d] in logical order, as float64. */
IrPrimExpr *
op_conv_load(OpPrim *p, const BufView *v, IrPrimExpr *a, IrPrimExpr *b, IrPrimExpr *c, IrPrimExpr *d)
{
  return op_nn_f64(p->lz->ctx, op_conv_load_raw(p, v, a, b, c, d));
}

/* The input position along spatial axis a (0: H, 1: W) of output index o
 * and window index k: o * stride - pad_before + k * dilation. */
IrPrimExpr *
op_conv_input_pos(IrCtx *ctx, const Window *w, int a, IrPrimExpr *o, IrPrimExpr *k)
{
  IrPrimExpr *start = op_nn_sub(ctx, op_nn_mul(ctx, o, op_nn_index(ctx, w->stride[a])),
                                op_nn_index(ctx, w->pad[a]));
  return op_nn_add(ctx, start, op_nn_mul(ctx, k, op_nn_index(ctx, w->dilation[a])));
}

/* The condition that input position (iy, ix) is inside the input of
 * extents (h, w), or NULL when no window can leave it: a position can
 * fall before the input only with padding before it, after it only with
 * padding after it or ceil_mode. */
IrPrimExpr *
op_conv_inside(IrCtx *ctx, const Window *w, IrPrimExpr **pos, IrPrimExpr **extent)
{
  IrPrimExpr *cond = NULL;
  for (int a = 0; a < 2; a++) {
    if (w->pad[a] > 0)
      cond = op_nn_and(ctx, cond, ir_prim_bin(ctx, IR_PE_GE, pos[a], op_nn_index(ctx, 0)));
    if (w->pad[a + 2] > 0 || w->ceil_mode)
      cond = op_nn_and(ctx, cond, ir_prim_bin(ctx, IR_PE_LT, pos[a], extent[a]));
  }
  return cond;
}

/* The statements of one output element: acc = init; the window loops
 * (body from the caller); out = result. */
IrStmt *
op_conv_element(OpPrim *p, IrStmt *init, IrStmt *loops, IrStmt *store)
{
  IrStmt *st[3] = {init, loops, store};
  return op_nn_seq(p, st, 3);
}

/* The data input and the output of a window op; false (the builder
 * aborted) when their struct info is not known well enough. */
bool
op_conv_buffers(OpPrim *p, const Window *w, const IrExpr *call, IrSInfo *result, const char *name,
               BufView *x, BufView *out)
{
  *x = (BufView){op_prim_input(p, call->u.call.args[0], "data"), &w->data};
  *out = (BufView){op_prim_output(p, result, ir_printf(p->lz->ctx, "T_%s", name)), &w->out};
  if (!x->b || !out->b || x->b->ndim != 4 || out->b->ndim != 4) {
    op_prim_abort(p);
    return false;
  }
  return true;
}

/* The loops over the output of op_conv_buffers' out (appended). */
IrStmt **
op_conv_loops(OpPrim *p, const Window *w, const BufView *out, IrPrimExpr **o)
{
  IrPrimExpr **i;
  IrStmt **slot = op_prim_loops(p, out->b->shape, 4, &i);
  for (int k = 0; k < 4; k++)
    o[k] = i[w->out.pos[k]];
  return slot;
}

/* Begins a lowering of a window op: data input, output, the loops over
 * the output (appended; *o the output's logical index).  Returns the slot
 * of one output element, or NULL (the builder aborted) when the struct
 * info is not known well enough. */
IrStmt **
op_conv_begin(OpPrim *p, const Window *w, const IrExpr *call, IrSInfo *result, const char *name,
             BufView *x, BufView *out, IrPrimExpr **o)
{
  if (!op_conv_buffers(p, w, call, result, name, x, out))
    return NULL;
  return op_conv_loops(p, w, out, o);
}

IrPrimExpr **
op_conv_index(OpPrim *p, const BufView *v, IrPrimExpr **o)
{
  IrPrimExpr **idx = ir_alloc(p->lz->ctx, sizeof *idx * 4);
  for (int k = 0; k < 4; k++)
    idx[v->l->pos[k]] = o[k];
  return idx;
}

bool
op_conv_is_f32(const IrBuffer *b)
{
  return b->dtype.code == IR_DT_FLOAT && b->dtype.bits == 32 && b->dtype.lanes == 1;
}

/* out = to_dtype(v) at logical index o. */
IrStmt *
op_conv_store(OpPrim *p, const BufView *out, IrPrimExpr **o, IrPrimExpr *v)
{
  return op_prim_store(p, out->b, op_conv_index(p, out, o), op_nn_to(p->lz->ctx, out->b->dtype, v));
}
/* conv2d: for each output element (n, o, y, z), the sum over the group's
 * input channels ci and the kernel window (ky, kx) of
 *   data[n, g * I + ci, y*sh - pt + ky*dh, z*sw - pl + kx*dw] * weight[o, ci, ky, kx]
 * with g = o // (O / groups), positions in the padding skipped. */
IrExpr *
op_nn_legalize_conv2d(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  NnSite s = op_nn_site_legalize(lz, call);
  IrCtx *ctx = lz->ctx;
  Window w;
  OpPrim p;
  BufView x, out;
  IrPrimExpr *o[4], **r;
  if (!op_conv_parse_window(&s, &w) || call->u.call.nargs < 2)
    return NULL;
  op_prim_begin(lz, &p, "conv2d");
  if (!op_conv_buffers(&p, &w, call, result, "conv2d", &x, &out))
    return NULL;
  BufView k = {op_prim_input(&p, call->u.call.args[1], "weight"), &w.kernel};
  if (!k.b || k.b->ndim != 4) {
    op_prim_abort(&p);
    return NULL;
  }
  if (op_conv_gemm(&p, &w, call->u.call.args[1], &x, &k, &out) || op_conv_depthwise(&p, &w, &x, &k, &out))
    return op_prim_finish(&p, call, result);
  IrStmt **slot = op_conv_loops(&p, &w, &out, o);
  IrBuffer *acc = op_nn_acc_new(&p, 1);
  IrPrimExpr *extent[3] = {op_conv_dim(&k, 1), op_conv_dim(&k, 2), op_conv_dim(&k, 3)}, *nest_body;
  IrStmt *loops, **body = op_prim_loop_nest(&p, extent, 3, &r, &loops);
  IrPrimExpr *per_group = op_nn_floordiv(ctx, op_conv_dim(&k, 0), op_nn_index(ctx, w.groups));
  IrPrimExpr *c =
      w.groups == 1
          ? r[0]
          : op_nn_add(ctx, op_nn_mul(ctx, op_nn_floordiv(ctx, o[1], per_group), op_conv_dim(&k, 1)),
                      r[0]);
  IrPrimExpr *pos[2] = {op_conv_input_pos(ctx, &w, 0, o[2], r[1]), op_conv_input_pos(ctx, &w, 1, o[3], r[2])};
  IrPrimExpr *ext[2] = {op_conv_dim(&x, 2), op_conv_dim(&x, 3)};
  nest_body = ir_prim_bin(ctx, IR_PE_MUL, op_conv_load(&p, &x, o[0], c, pos[0], pos[1]),
                          op_conv_load(&p, &k, o[1], r[0], r[1], r[2]));
  *body = op_nn_if(
      &p, op_conv_inside(ctx, &w, pos, ext),
      op_nn_acc_set(&p, acc, 0, ir_prim_bin(ctx, IR_PE_ADD, op_nn_acc(&p, acc, 0), nest_body)));
  *slot = op_conv_element(&p, op_nn_acc_set(&p, acc, 0, op_nn_lit(ctx, op_nn_f64_type(), 0.0)), loops,
                  op_conv_store(&p, &out, o, op_nn_acc(&p, acc, 0)));
  return op_prim_finish(&p, call, result);
}
