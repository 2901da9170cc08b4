/*
 * conv.c - ops with a spatial window over tensors of 1, 2 or 3 spatial
 * axes: conv1d/2d/3d, conv1d/2d/3d_transpose, and what the pools
 * (max_pool1d/2d/3d, avg_pool1d/2d/3d, adaptive_avg_pool1d/2d/3d, whose
 * hooks are in pool.c) share with them: the attributes, the output
 * extents, tensors seen in logical order, the kernels' output loop.
 *
 * Key idea: a layout is a permutation of the logical axes (N, C, then the
 * spatial axes D, H, W for data and outputs; O, I (transposed: I, O), then
 * the spatial axes for kernels), so "NCHW", "NHWC", "OIHW", "HWIO", "NCW",
 * "NCDHW" are one code path: inference maps dims to logical order and back,
 * kernels index through per-axis strides, and every loop runs over the
 * entry's number of spatial axes (its NnWindow).
 *
 * Output extents follow TVM (src/relax/op/nn/convolution.cc, pooling.cc):
 *   out = (in + pad_before + pad_after - dilation * (k - 1) - 1) // stride + 1
 * and with ceil_mode, stride - 1 added to the numerator, minus one when the
 * last window would start past the input and its leading padding; a
 * transposed convolution has
 *   out = (in - 1) * stride - pad_before - pad_after + dilation * (k - 1)
 *         + output_padding + 1
 * and out[o] sums data[i] * weight[k] over o = i * stride - pad_before +
 * k * dilation (the scatter of conv, read as a gather).
 * Padding is [before..., after...] per spatial axis; 1 value or one per
 * axis expand as in TVM.
 * Padded positions read 0 for the convolutions and avg_pool, -inf for
 * max_pool; avg_pool divides by the positions inside the padded input
 * (count_include_pad) or inside the input alone.
 *
 * Legalization writes the same loops as the kernels into a T.prim_func:
 * a nest over the output, a window nest inside, padding as an if-guard
 * around the accumulation (no load outside the input), sums in float64
 * (integers: int32 or int64, op_nn_sum_type, as the kernels' wrapping
 * int64 sums store them); a float32 or integer conv2d with groups 1 (or
 * several input channels a group) is a product of matrices for each band
 * of output rows (and group) instead (conv_gemm.c: gemm.c's
 * register tiles, float32 sums, as TVM's legalized conv2d sums in its
 * output dtype), a depthwise one conv_dw.c's rows.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "conv_int.h"

static const NnWindow *
window_op(const IrExpr *call)
{
  return op_of(call->u.call.op)->data;
}

/* The logical axis letters of a window op's tensors: "NC" or "OI" or
 * "IO", then "W", "HW" or "DHW". */
static const char *
axis_letters(char *buf, const char *lead, int nsp)
{
  static const char *const spatial[] = {"W", "HW", "DHW"};
  strcpy(buf, lead);
  strcat(buf, spatial[nsp - 1]);
  return buf;
}

/* Parses a layout attribute as a permutation of letters ("NCHW"). */
static bool
parse_layout(const OpSite *s, const char *name, const char *fallback, const char *letters,
             Layout *out)
{
  const char *text;
  int rank = (int)strlen(letters);
  if (!op_nn_attr_str(s, name, fallback, &text))
    return false;
  bool seen[CONV_RANK] = {false}, ok = (int)strlen(text) == rank;
  out->rank = rank;
  for (int i = 0; ok && i < rank; i++) {
    const char *p = strchr(letters, text[i]);
    ok = p && !seen[p - letters];
    if (ok) {
      seen[p - letters] = true;
      out->pos[p - letters] = i;
    }
  }
  if (!ok)
    return op_fail(s, "%s \"%s\" is not supported (a permutation of %s is)", name, text, letters);
  return true;
}

/* An attribute of 1 or nsp ints into v[nsp], each at least least. */
static bool
parse_axes(const OpSite *s, const char *name, int nsp, int64_t fallback, int64_t least, int64_t *v)
{
  int n;
  if (!op_nn_attr_ints(s, name, v, nsp, &n))
    return false;
  if (n == 0)
    v[0] = fallback;
  for (int a = 1; a < nsp; a++)
    if (n <= 1)
      v[a] = v[0];
  if (n > 1 && n != nsp)
    return op_fail(s, "%s must have 1 or %d values, not %d", name, nsp, n);
  for (int a = 0; a < nsp; a++) {
    if (v[a] < least) {
      char text[80];
      int len = snprintf(text, sizeof text, "[%lld", (long long)v[0]);
      for (int i = 1; i < nsp; i++)
        len += snprintf(text + len, sizeof text - (size_t)len, ", %lld", (long long)v[i]);
      return op_fail(s, "%s must be %s, got %s]", name, least ? "positive" : "non-negative", text);
    }
  }
  return true;
}

/* padding: 1 value for all sides, nsp as [before = after per axis], 2 *
 * nsp as [before..., after...]; never negative. */
static bool
parse_padding(const OpSite *s, int nsp, int64_t *pad)
{
  int n;
  if (!op_nn_attr_ints(s, "padding", pad, 2 * nsp, &n))
    return false;
  if (n <= 1) {
    int64_t p = n ? pad[0] : 0;
    for (int i = 0; i < 2 * nsp; i++)
      pad[i] = p;
  } else if (n == nsp) {
    for (int a = 0; a < nsp; a++)
      pad[nsp + a] = pad[a];
  } else if (n != 2 * nsp) {
    return op_fail(s, "padding must have 1, %d or %d values, not %d", nsp, 2 * nsp, n);
  }
  for (int i = 0; i < 2 * nsp; i++) {
    if (pad[i] < 0)
      return op_fail(s, "padding must not be negative");
  }
  return true;
}

/* The convolutions' own attributes: kernel layout, groups, out_dtype and
 * (transposed) output_padding, each below its stride as TVM requires. */
static bool
parse_conv(const OpSite *s, Window *w)
{
  char letters[CONV_RANK + 1];
  bool t = w->kind == NN_WIN_CONV_T;
  axis_letters(letters, t ? "IO" : "OI", w->nsp);
  if (!parse_layout(s, "kernel_layout", letters, letters, &w->kernel) ||
      !op_nn_attr_int(s, "groups", 1, &w->groups) ||
      !op_nn_attr_dtype(s, "out_dtype", &w->out_dtype))
    return false;
  if (w->groups <= 0)
    return op_fail(s, "groups must be positive, got %lld", (long long)w->groups);
  if (!t)
    return true;
  if (!parse_axes(s, "output_padding", w->nsp, 0, 0, w->output_padding))
    return false;
  for (int a = 0; a < w->nsp; a++) {
    if (w->output_padding[a] >= w->stride[a])
      return op_fail(s, "output_padding (%lld) must be less than strides (%lld)",
                     (long long)w->output_padding[a], (long long)w->stride[a]);
  }
  return true;
}

/* Reads every attribute of a convolution or pool call. */
bool
op_conv_parse_window(const OpSite *s, Window *w)
{
  const NnWindow *op = window_op(s->call);
  bool conv = op->kind == NN_WIN_CONV || op->kind == NN_WIN_CONV_T;
  const char *data_attr = conv ? "data_layout" : "layout";
  const char *data_text;
  char letters[CONV_RANK + 1];
  memset(w, 0, sizeof *w);
  w->kind = op->kind;
  w->nsp = op->nsp;
  axis_letters(letters, "NC", w->nsp);
  if (!op_nn_attr_str(s, data_attr, letters, &data_text) ||
      !parse_layout(s, data_attr, letters, letters, &w->data) ||
      !parse_layout(s, "out_layout", data_text, letters, &w->out))
    return false;
  if (op->kind == NN_WIN_ADAPTIVE)
    return true;
  if (!parse_axes(s, "strides", w->nsp, 1, 1, w->stride) ||
      !parse_axes(s, "dilation", w->nsp, 1, 1, w->dilation) || !parse_padding(s, w->nsp, w->pad))
    return false;
  if (conv)
    return parse_conv(s, w);
  return parse_axes(s, "pool_size", w->nsp, 1, 1, w->size) &&
         op_nn_attr_bool(s, "ceil_mode", false, &w->ceil_mode) &&
         op_nn_attr_bool(s, "count_include_pad", false, &w->count_include_pad);
}

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

/* A tensor argument of l's rank: false after an error; *dims its dims in
 * logical order, or NULL when unknown. */
bool
op_conv_window_arg(OpInfer *in, const OpSite *site, IrSInfo **args, int i, const char *what,
                   const Layout *l, IrSInfo **t, IrPrimExpr ***dims)
{
  *dims = NULL;
  if (!op_nn_tensor_arg(in, site, args, i, what, t))
    return false;
  if (*t && (*t)->u.tensor.ndim >= 0 && (*t)->u.tensor.ndim != l->rank)
    return op_fail(site, "%s must have rank %d, not %d", what, l->rank, (*t)->u.tensor.ndim);
  IrPrimExpr **shape = op_nn_shape(*t);
  if (!shape)
    return true;
  *dims = ir_alloc(in->ctx, sizeof(IrPrimExpr *) * (size_t)l->rank);
  for (int k = 0; k < l->rank; k++)
    (*dims)[k] = shape[l->pos[k]];
  return true;
}

static IrPrimExpr *
bin(OpInfer *in, IrPrimKind k, IrPrimExpr *a, IrPrimExpr *b)
{
  return ir_prim_bin(in->ctx, k, a, b);
}

/* The output extent along spatial axis a of an input of extent x and a
 * window of extent k, simplified. */
IrPrimExpr *
op_conv_out_extent(OpInfer *in, const Window *w, int a, IrPrimExpr *x, IrPrimExpr *k)
{
  IrCtx *c = in->ctx;
  int64_t pad = w->pad[a] + w->pad[w->nsp + a];
  IrPrimExpr *span =
      bin(in, IR_PE_MUL, op_nn_int(c, w->dilation[a]), bin(in, IR_PE_SUB, k, op_nn_int(c, 1)));
  if (w->kind == NN_WIN_CONV_T) {
    IrPrimExpr *grown =
        bin(in, IR_PE_MUL, bin(in, IR_PE_SUB, x, op_nn_int(c, 1)), op_nn_int(c, w->stride[a]));
    int64_t more = w->output_padding[a] + 1 - pad;
    return op_nn_simplify(in,
                          bin(in, IR_PE_ADD, bin(in, IR_PE_ADD, grown, span), op_nn_int(c, more)));
  }
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
IrSInfo *
op_conv_tensor_in_layout(OpInfer *in, IrPrimExpr **logical, const Layout *l, IrDType t, int vdevice)
{
  IrPrimExpr **shape = ir_alloc(in->ctx, sizeof(IrPrimExpr *) * (size_t)l->rank);
  for (int k = 0; k < l->rank; k++)
    shape[l->pos[k]] = logical[k];
  return ir_sinfo_tensor(in->ctx, shape, l->rank, t, vdevice);
}

/* TVM's channel checks, errors only when provably broken: conv: C == I *
 * groups and O % groups == 0; transposed: C == I and I % groups == 0. */
static bool
check_channels(OpInfer *in, const OpSite *s, const Window *w, IrPrimExpr **x, IrPrimExpr **k)
{
  bool t = w->kind == NN_WIN_CONV_T;
  IrPrimExpr *need =
      t ? k[0] : op_nn_simplify(in, bin(in, IR_PE_MUL, k[1], op_nn_int(in->ctx, w->groups)));
  if (op_assume_equal(in, x[1], need) == IR_PROVE_FALSE) {
    if (t)
      op_report(s, "data has %s channels, but weight has %s input channels",
                op_nn_expr_str(in->ctx, x[1]), op_nn_expr_str(in->ctx, k[0]));
    else
      op_report(s, "data has %s channels, but weight has %s input channels times %lld groups = %s",
                op_nn_expr_str(in->ctx, x[1]), op_nn_expr_str(in->ctx, k[1]), (long long)w->groups,
                op_nn_expr_str(in->ctx, need));
    return false;
  }
  IrPrimExpr *rem =
      op_nn_simplify(in, bin(in, IR_PE_FLOORMOD, k[0], op_nn_int(in->ctx, w->groups)));
  if (op_assume_equal(in, rem, op_nn_int(in->ctx, 0)) == IR_PROVE_FALSE)
    return op_fail(s, "weight has %s %s channels, not divisible by %lld groups",
                   op_nn_expr_str(in->ctx, k[0]), t ? "input" : "output", (long long)w->groups);
  return true;
}

IrSInfo *
op_nn_infer_conv(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  Window w;
  IrSInfo *xt, *kt;
  IrPrimExpr **x, **k;
  IrDType dtype;
  if (!op_conv_parse_window(s, &w) ||
      !op_conv_window_arg(in, s, args, 0, "data", &w.data, &xt, &x) ||
      !op_conv_window_arg(in, s, args, 1, "weight", &w.kernel, &kt, &k))
    return NULL;
  /* operands of different dtypes need an out_dtype (as TVM: uint8 data
   * and int8 weights of a quantized model into int32) */
  if (w.out_dtype.code != IR_DT_VOID)
    dtype = w.out_dtype;
  else if (!op_nn_common_dtype(in, s, op_nn_dtype(xt), op_nn_dtype(kt), &dtype))
    return NULL;
  if (!x || !k)
    return ir_sinfo_tensor(in->ctx, NULL, w.out.rank, dtype, op_nn_vdevice(xt));
  if (!check_channels(in, s, &w, x, k))
    return NULL;
  IrPrimExpr *o[CONV_RANK] = {x[0], k[0]};
  if (w.kind == NN_WIN_CONV_T)
    o[1] = op_nn_simplify(in, bin(in, IR_PE_MUL, k[1], op_nn_int(in->ctx, w.groups)));
  for (int a = 0; a < w.nsp; a++)
    o[2 + a] = op_conv_out_extent(in, &w, a, x[2 + a], k[2 + a]);
  return op_conv_tensor_in_layout(in, o, &w.out, dtype, op_nn_vdevice(xt));
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

bool
op_conv_view_of(const OpSite *s, const IrTensorData *t, const Layout *l, const char *what, View *v)
{
  int64_t phys[CONV_RANK];
  if (!t)
    return false;
  if (t->ndim != l->rank)
    return op_fail(s, "%s must have rank %d, not %d", what, l->rank, t->ndim);
  op_nn_strides(t, phys);
  v->t = t;
  v->rank = l->rank;
  for (int k = 0; k < l->rank; k++) {
    v->dim[k] = t->shape[l->pos[k]];
    v->stride[k] = phys[l->pos[k]];
  }
  return true;
}

/* The element offset of logical index i. */
int64_t
op_conv_at(const View *v, const int64_t *i)
{
  int64_t off = 0;
  for (int k = 0; k < v->rank; k++)
    off += i[k] * v->stride[k];
  return off;
}

/* Steps the index i over extents ext (n of them) in row-major order;
 * false after the last. */
bool
op_conv_next_index(int64_t *i, const int64_t *ext, int n)
{
  for (int k = n - 1; k >= 0; k--) {
    if (++i[k] < ext[k])
      return true;
    i[k] = 0;
  }
  return false;
}

/* Whether extents ext (n of them) hold any index. */
static bool
any_index(const int64_t *ext, int n)
{
  for (int k = 0; k < n; k++)
    if (ext[k] <= 0)
      return false;
  return true;
}

/* A new output of logical dims o in layout l, seen as a View. */
static Value *
new_output(const OpSite *s, IrDType t, const int64_t *o, const Layout *l, View *v)
{
  int64_t shape[CONV_RANK];
  for (int k = 0; k < l->rank; k++)
    shape[l->pos[k]] = o[k];
  Value *out = op_nn_tensor_new(s, t, l->rank, shape);
  if (out)
    op_conv_view_of(s, &out->u.tensor.t, l, "output", v);
  return out;
}

/* The concrete output extent (see out_extent); false after an error when
 * it would be negative. */
bool
op_conv_extent_value(const OpSite *s, const Window *w, int a, int64_t x, int64_t k, int64_t *out)
{
  int64_t st = w->stride[a], pad = w->pad[a] + w->pad[w->nsp + a];
  if (w->kind == NN_WIN_CONV_T) {
    *out = (x - 1) * st - pad + w->dilation[a] * (k - 1) + w->output_padding[a] + 1;
  } else {
    int64_t num = x + pad - w->dilation[a] * (k - 1) - 1;
    if (w->ceil_mode)
      num += st - 1;
    int64_t q = num >= 0 ? num / st : -((-num + st - 1) / st);
    *out = q + 1;
    if (w->ceil_mode && (*out - 1) * st >= x + w->pad[a])
      *out -= 1;
  }
  if (*out < 0)
    return op_fail(s, "the window (extent %lld) does not fit the padded input (extent %lld)",
                   (long long)(w->dilation[a] * (k - 1) + 1), (long long)(x + pad));
  return true;
}

Value *
op_conv_fill_output(const OpSite *s, const Window *w, IrDType t, const int64_t *o, const View *x,
                    const View *k, PointFn point, bool ints)
{
  View v;
  int64_t i[CONV_RANK] = {0}, exact = 0;
  Value *out = new_output(s, t, o, &w->out, &v);
  if (!out || !any_index(o, w->out.rank))
    return out;
  do {
    double f = point(w, x, k, i, ints, &exact);
    if (ints)
      op_set_i(&out->u.tensor.t, op_conv_at(&v, i), exact);
    else
      op_set_f(&out->u.tensor.t, op_conv_at(&v, i), f);
  } while (op_conv_next_index(i, o, w->out.rank));
  return out;
}

/* One output element i of a convolution: the sum over the group's input
 * channels and the kernel window; positions in the padding contribute 0.
 * conv reads data at o * stride - pad + k * dilation; a transposed one
 * reads data at i where o = i * stride - pad + k * dilation. */
static double
conv_point(const Window *w, const View *x, const View *k, const int64_t *o, bool ints,
           int64_t *exact)
{
  bool t = w->kind == NN_WIN_CONV_T;
  int64_t cin = t ? k->dim[0] / w->groups : k->dim[1];
  int64_t per_group = t ? k->dim[1] : k->dim[0] / w->groups;
  int64_t group = o[1] / per_group;
  int64_t xi[CONV_RANK] = {o[0]}, ki[CONV_RANK], win[CONV_SP];
  double acc = 0;
  uint64_t iacc = 0; /* wraps, as the integer sums of the lowering */
  *exact = 0;
  if (!any_index(k->dim + 2, w->nsp))
    return 0;
  for (int64_t ci = 0; ci < cin; ci++) {
    xi[1] = group * cin + ci;
    ki[0] = t ? xi[1] : o[1];
    ki[1] = t ? o[1] % per_group : ci;
    memset(win, 0, sizeof win);
    do {
      bool inside = true;
      for (int a = 0; a < w->nsp; a++) {
        int64_t p;
        if (t) {
          int64_t q = o[2 + a] + w->pad[a] - win[a] * w->dilation[a];
          p = q >= 0 && q % w->stride[a] == 0 ? q / w->stride[a] : -1;
        } else {
          p = o[2 + a] * w->stride[a] - w->pad[a] + win[a] * w->dilation[a];
        }
        inside = inside && p >= 0 && p < x->dim[2 + a];
        xi[2 + a] = p;
        ki[2 + a] = win[a];
      }
      if (inside && ints)
        iacc += (uint64_t)op_get_i(x->t, op_conv_at(x, xi)) *
                (uint64_t)op_get_i(k->t, op_conv_at(k, ki));
      else if (inside)
        acc += op_get_f(x->t, op_conv_at(x, xi)) * op_get_f(k->t, op_conv_at(k, ki));
    } while (op_conv_next_index(win, k->dim + 2, w->nsp));
  }
  *exact = (int64_t)iacc;
  return acc;
}

Value *
op_nn_eval_conv(OpEval *ev, const OpSite *s, Value **args)
{
  Window w;
  View x, k;
  int64_t o[CONV_RANK];
  if (!op_conv_parse_window(s, &w) ||
      !op_conv_view_of(s, op_nn_tensor_value(s, args, 0, "data"), &w.data, "data", &x) ||
      !op_conv_view_of(s, op_nn_tensor_value(s, args, 1, "weight"), &w.kernel, "weight", &k))
    return NULL;
  bool t = w.kind == NN_WIN_CONV_T;
  if (t ? x.dim[1] != k.dim[0] || k.dim[0] % w.groups != 0
        : x.dim[1] != k.dim[1] * w.groups || k.dim[0] % w.groups != 0) {
    return op_fail_null(
        s, "data has %lld channels; weight has %lld %s and %lld %s channels; %lld groups",
        (long long)x.dim[1], (long long)k.dim[0], t ? "input" : "output", (long long)k.dim[1],
        t ? "output" : "input", (long long)w.groups);
  }
  o[0] = x.dim[0];
  o[1] = t ? k.dim[1] * w.groups : k.dim[0];
  for (int a = 0; a < w.nsp; a++)
    if (!op_conv_extent_value(s, &w, a, x.dim[2 + a], k.dim[2 + a], &o[2 + a]))
      return NULL;
  IrDType dt = w.out_dtype.code != IR_DT_VOID ? w.out_dtype : x.t->dtype;
  bool ints = op_nn_sum_type(x.t->dtype, k.t->dtype, dt).code == IR_DT_INT;
  return op_conv_fill_output(s, &w, dt, o, &x, &k, conv_point, ints);
}

/* The smallest value of a dtype: what max_pool gives for a window that
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

/* Legalization                                                        */
/* ------------------------------------------------------------------ */

/* The logical dim k of a buffer. */
IrPrimExpr *
op_conv_dim(const BufView *v, int k)
{
  return v->b->shape[v->l->pos[k]];
}

/* v at logical index logical, in v's dtype. */
IrPrimExpr *
op_conv_load_at(OpPrim *p, const BufView *v, IrPrimExpr **logical)
{
  return op_prim_load(p, v->b, op_conv_index(p, v, logical));
}

/* v[a, b, c, d] of a 4-D buffer in logical order, in v's dtype. */
IrPrimExpr *
op_conv_load_raw(OpPrim *p, const BufView *v, IrPrimExpr *a, IrPrimExpr *b, IrPrimExpr *c,
                 IrPrimExpr *d)
{
  IrPrimExpr *logical[4] = {a, b, c, d};
  return op_conv_load_at(p, v, logical);
}

/* v at logical index logical, as float64. */
IrPrimExpr *
op_conv_load(OpPrim *p, const BufView *v, IrPrimExpr **logical)
{
  return op_nn_f64(p->lz->ctx, op_conv_load_at(p, v, logical));
}

/* The input position along spatial axis a of output index o and window
 * index k: o * stride - pad_before + k * dilation. */
IrPrimExpr *
op_conv_input_pos(IrCtx *ctx, const Window *w, int a, IrPrimExpr *o, IrPrimExpr *k)
{
  IrPrimExpr *start = op_nn_sub(ctx, op_nn_mul(ctx, o, op_nn_index(ctx, w->stride[a])),
                                op_nn_index(ctx, w->pad[a]));
  return op_nn_add(ctx, start, op_nn_mul(ctx, k, op_nn_index(ctx, w->dilation[a])));
}

/* The condition that input position pos (one per spatial axis) is inside
 * the input of extents extent, or NULL when no window can leave it: a
 * position can fall before the input only with padding before it, after
 * it only with padding after it or ceil_mode. */
IrPrimExpr *
op_conv_inside(IrCtx *ctx, const Window *w, IrPrimExpr **pos, IrPrimExpr **extent)
{
  IrPrimExpr *cond = NULL;
  for (int a = 0; a < w->nsp; a++) {
    if (w->pad[a] > 0)
      cond = op_nn_and(ctx, cond, ir_prim_bin(ctx, IR_PE_GE, pos[a], op_nn_index(ctx, 0)));
    if (w->pad[w->nsp + a] > 0 || w->ceil_mode)
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
  if (!x->b || !out->b || x->b->ndim != w->data.rank || out->b->ndim != w->out.rank) {
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
  IrStmt **slot = op_prim_loops(p, out->b->shape, w->out.rank, &i);
  for (int k = 0; k < w->out.rank; k++)
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
  IrPrimExpr **idx = ir_alloc(p->lz->ctx, sizeof *idx * (size_t)v->l->rank);
  for (int k = 0; k < v->l->rank; k++)
    idx[v->l->pos[k]] = o[k];
  return idx;
}

bool
op_conv_is_f32(const IrBuffer *b)
{
  return b->dtype.code == IR_DT_FLOAT && b->dtype.bits == 32 && b->dtype.lanes == 1;
}

bool
op_conv_is_nchw(const BufView *v)
{
  for (int a = 0; a < 4; a++)
    if (v->l->pos[a] != a)
      return false;
  return true;
}

/* out = to_dtype(v) at logical index o. */
IrStmt *
op_conv_store(OpPrim *p, const BufView *out, IrPrimExpr **o, IrPrimExpr *v)
{
  return op_prim_store(p, out->b, op_conv_index(p, out, o), op_nn_to(p->lz->ctx, out->b->dtype, v));
}

/* The data position of a transposed convolution along spatial axis a for
 * output index o and window index k: q = o + pad_before - k * dilation
 * must be a multiple of stride, i = q // stride inside the input.  *pos
 * gets i; returns the condition (the loads stay under it). */
static IrPrimExpr *
transposed_pos(IrCtx *ctx, const Window *w, int a, IrPrimExpr *o, IrPrimExpr *k, IrPrimExpr *extent,
               IrPrimExpr **pos)
{
  IrPrimExpr *q = op_nn_sub(ctx, op_nn_add(ctx, o, op_nn_index(ctx, w->pad[a])),
                            op_nn_mul(ctx, k, op_nn_index(ctx, w->dilation[a])));
  IrPrimExpr *stride = op_nn_index(ctx, w->stride[a]);
  IrPrimExpr *cond = ir_prim_bin(ctx, IR_PE_GE, q, op_nn_index(ctx, 0));
  if (w->stride[a] > 1)
    cond = op_nn_and(ctx, cond,
                     ir_prim_bin(ctx, IR_PE_EQ, ir_prim_bin(ctx, IR_PE_FLOORMOD, q, stride),
                                 op_nn_index(ctx, 0)));
  *pos = op_nn_floordiv(ctx, q, stride);
  return op_nn_and(ctx, cond, ir_prim_bin(ctx, IR_PE_LT, *pos, extent));
}

/* One term of a convolution's sum at output index o and reduction index
 * r (input channel of the group, then the window): data times weight as
 * float64, or for integers as int32 or int64 (op_nn_sum_type); *cond gets
 * the condition that the data position is read (NULL: always). */
static IrPrimExpr *
conv_term(OpPrim *p, const Window *w, const BufView *x, const BufView *k, IrDType out_dtype,
          IrPrimExpr **o, IrPrimExpr **r, IrPrimExpr **cond)
{
  IrCtx *ctx = p->lz->ctx;
  bool t = w->kind == NN_WIN_CONV_T;
  IrPrimExpr *groups = op_nn_index(ctx, w->groups);
  /* channels of a group: of the data (cin), of the output (per_group) */
  IrPrimExpr *cin = t ? op_nn_floordiv(ctx, op_conv_dim(k, 0), groups) : op_conv_dim(k, 1);
  IrPrimExpr *per_group = t ? op_conv_dim(k, 1) : op_nn_floordiv(ctx, op_conv_dim(k, 0), groups);
  IrPrimExpr *group = op_nn_floordiv(ctx, o[1], per_group);
  IrPrimExpr *c = w->groups == 1 ? r[0] : op_nn_add(ctx, op_nn_mul(ctx, group, cin), r[0]);
  IrPrimExpr *xi[CONV_RANK] = {o[0], c}, *ki[CONV_RANK] = {o[1], r[0]};
  IrPrimExpr *pos[CONV_SP], *ext[CONV_SP];
  if (t) {
    ki[0] = c;
    ki[1] = w->groups == 1 ? o[1] : ir_prim_bin(ctx, IR_PE_FLOORMOD, o[1], per_group);
  }
  *cond = NULL;
  for (int a = 0; a < w->nsp; a++) {
    ext[a] = op_conv_dim(x, 2 + a);
    if (t)
      *cond = op_nn_and(ctx, *cond, transposed_pos(ctx, w, a, o[2 + a], r[1 + a], ext[a], &pos[a]));
    else
      pos[a] = op_conv_input_pos(ctx, w, a, o[2 + a], r[1 + a]);
    xi[2 + a] = pos[a];
    ki[2 + a] = r[1 + a];
  }
  if (!t)
    *cond = op_conv_inside(ctx, w, pos, ext);
  IrDType sum = op_nn_sum_type(x->b->dtype, k->b->dtype, out_dtype);
  return op_nn_product(ctx, sum, op_conv_load_at(p, x, xi), op_conv_load_at(p, k, ki));
}

/* A convolution: for each output element o, the sum over the group's
 * input channels ci and the kernel window r of
 *   conv:       data[n, g * I + ci, o * s - p + r * d] * weight[o_c, ci, r]
 *               with g = o_c // (O / groups), positions in the padding
 *               skipped;
 *   transposed: data[n, g * I/groups + ci, i] * weight[c, o_c % O, r]
 *               with g = o_c // O, where o = i * s - p + r * d.
 * Sums are float64, or for integers int32 or int64 (op_nn_sum_type: exact,
 * no float).  A float32 or integer conv2d takes the tiled products of
 * conv_gemm.c or conv_dw.c when it fits them. */
IrExpr *
op_nn_legalize_conv(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  const char *name = window_op(s->call)->name;
  Window w;
  OpPrim p;
  BufView x, out;
  IrPrimExpr *o[CONV_RANK], **r, *cond;
  if (!op_conv_parse_window(s, &w) || s->call->u.call.nargs < 2)
    return NULL;
  op_prim_begin(lz, &p, name);
  if (!op_conv_buffers(&p, &w, s->call, result, name, &x, &out))
    return NULL;
  BufView k = {op_prim_input(&p, s->call->u.call.args[1], "weight"), &w.kernel};
  if (!k.b || k.b->ndim != w.kernel.rank) {
    op_prim_abort(&p);
    return NULL;
  }
  if (w.kind == NN_WIN_CONV && w.nsp == 2 &&
      (op_conv_direct(&p, &w, &x, &k, &out) ||
       op_conv_gemm(&p, &w, s->call->u.call.args[1], &x, &k, &out) ||
       op_conv_depthwise(&p, &w, &x, &k, &out)))
    return op_prim_finish(&p, s->call, result);
  IrStmt **slot = op_conv_loops(&p, &w, &out, o);
  IrDType sum = op_nn_sum_type(x.b->dtype, k.b->dtype, out.b->dtype);
  IrBuffer *acc = op_nn_acc_typed(&p, 1, sum);
  IrPrimExpr *extent[1 + CONV_SP] = {
      w.kind == NN_WIN_CONV_T ? op_nn_floordiv(ctx, op_conv_dim(&k, 0), op_nn_index(ctx, w.groups))
                              : op_conv_dim(&k, 1)};
  for (int a = 0; a < w.nsp; a++)
    extent[1 + a] = op_conv_dim(&k, 2 + a);
  IrStmt *loops, **body = op_prim_loop_nest(&p, extent, 1 + w.nsp, &r, &loops);
  IrPrimExpr *term = conv_term(&p, &w, &x, &k, out.b->dtype, o, r, &cond);
  *body = op_nn_if(&p, cond,
                   op_nn_acc_set(&p, acc, 0, op_nn_sum_add(ctx, sum, op_nn_acc(&p, acc, 0), term)));
  *slot = op_conv_element(&p, op_nn_acc_set(&p, acc, 0, op_nn_lit(ctx, sum, 0.0)), loops,
                          op_conv_store(&p, &out, o, op_nn_acc(&p, acc, 0)));
  return op_prim_finish(&p, s->call, result);
}
