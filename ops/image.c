/*
 * image.c - image ops: R.image.resize2d, R.image.resize3d,
 * R.image.grid_sample, R.image.affine_grid (the last two's hooks are in
 * image_grid.c).
 *
 * Semantics are TVM's (src/relax/op/image/resize.cc for struct info,
 * python/tvm/topi/image/resize.py for the computation).  A resize maps
 * each output position along a spatial axis to an input coordinate
 * (coordinate_transformation_mode), then reads the input there: the
 * nearest pixel (rounding_method), or a weighted sum of 2 (linear) or 4
 * (cubic) pixels per axis, the taps' indices clamped into the image.  The
 * weighted sums nest from the outermost spatial axis in, each one
 * sum_k v_k * w_k in tap order, as TOPI's lerps and cubic kernels do.
 *
 * Where rxc differs from TOPI, on purpose:
 *  - the computation is in double (TOPI: float32) and is cast to the
 *    result's dtype (TOPI's legalization forgets out_dtype);
 *  - align_corners with an output extent of 1 maps to coordinate 0 (TOPI
 *    divides by zero);
 *  - TOPI's 3-d cubic exclude takes z's weights from x, and its 3-d
 *    tf_crop_and_resize ignores z; rxc treats every axis alike;
 *  - an input of a zero spatial extent gives zeros (TOPI reads out of
 *    bounds), so no data makes the generated C read outside the input;
 *  - nearest with asymmetric and floor rounding is always the float
 *    formula (TOPI takes an integer division when the output is a
 *    multiple of the input, which gives the same index).
 *
 * The kernel computes each output element in double and rounds once at
 * the store; the lowering binds the same quantities (coordinate, taps,
 * weights) with lets in the same order, so the two agree.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "image_int.h"

enum { RS_MAX_SP = 3, RS_MAX_TAPS = 4 };

typedef enum { RS_NEAREST, RS_LINEAR, RS_CUBIC } ResizeMethod;

typedef enum {
  CT_HALF_PIXEL,
  CT_ALIGN_CORNERS,
  CT_ASYMMETRIC,
  CT_PYTORCH_HALF_PIXEL,
  CT_TF_HALF_PIXEL_FOR_NN,
  CT_TF_CROP_AND_RESIZE,
} CoordMode;

typedef enum {
  RD_ROUND,              /* half to even (tir.round) */
  RD_ROUND_PREFER_FLOOR, /* ceil(c - 0.5) */
  RD_ROUND_PREFER_CEIL,  /* floor(c + 0.5) */
  RD_FLOOR,              /* floor(c + 1e-5) */
  RD_CEIL,               /* ceil(c - 1e-5) */
} Rounding;

/* A resize call's attributes, checked. */
typedef struct {
  int nsp;               /* spatial axes: 2 or 3 */
  int ndim;              /* nsp + 2 */
  int pos_n, pos_c;      /* where N and C are in the layout */
  int pos_sp[RS_MAX_SP]; /* where (D,) H, W are, outermost first */
  ResizeMethod method;
  CoordMode mode;
  Rounding rounding;
  double start[RS_MAX_SP]; /* roi per spatial axis (tf_crop_and_resize) */
  double end[RS_MAX_SP];
  double alpha;         /* cubic_alpha */
  bool exclude;         /* cubic_exclude */
  double extrapolation; /* tf_crop_and_resize outside the roi */
  IrDType out_dtype;    /* IR_VOID: data's */
} Resize;

/* The layout: a permutation of "NCHW" (2-d) or "NCDHW" (3-d). */
static bool
parse_layout(const OpSite *s, Resize *r, const char *layout)
{
  const char *letters = r->nsp == 2 ? "NCHW" : "NCDHW";
  bool seen[5] = {false};
  if ((int)strlen(layout) != r->ndim)
    goto bad;
  for (int i = 0; i < r->ndim; i++) {
    const char *at = strchr(letters, layout[i]);
    if (!layout[i] || !at || seen[at - letters])
      goto bad;
    int k = (int)(at - letters);
    seen[k] = true;
    if (k == 0)
      r->pos_n = i;
    else if (k == 1)
      r->pos_c = i;
    else
      r->pos_sp[k - 2] = i;
  }
  return true;
bad:
  return op_fail(s, "unsupported layout \"%s\" (a permutation of %s)", layout, letters);
}

/* roi: 2 * nsp numbers (TOPI's order: 2-d [y0, x0, y1, x1], 3-d
 * [x0, y0, z0, x1, y1, z1]). */
static bool
parse_roi(const OpSite *s, Resize *r)
{
  const IrAttr *a = op_attr(s->call, "roi");
  for (int k = 0; k < r->nsp; k++)
    r->start[k] = r->end[k] = 0;
  if (!a || a->kind == IR_AT_NONE)
    return true;
  if (a->kind != IR_AT_LIST || a->u.list.n != 2 * r->nsp)
    return op_fail(s, "roi must be a list of %d numbers", 2 * r->nsp);
  for (int i = 0; i < 2 * r->nsp; i++) {
    const IrAttr *v = a->u.list.items[i];
    if (v->kind != IR_AT_FLOAT && v->kind != IR_AT_INT)
      return op_fail(s, "roi must be a list of %d numbers", 2 * r->nsp);
    double f = v->kind == IR_AT_FLOAT ? v->u.f : (double)v->u.i;
    int axis = r->nsp == 2 ? i % 2 : 2 - i % 3;
    if (i < r->nsp)
      r->start[axis] = f;
    else
      r->end[axis] = f;
  }
  return true;
}

static bool
parse_resize(const OpSite *s, Resize *r)
{
  static const char *const methods[] = {"nearest_neighbor", "linear", "cubic"};
  static const char *const modes[] = {"half_pixel",           "align_corners",
                                      "asymmetric",           "pytorch_half_pixel",
                                      "tf_half_pixel_for_nn", "tf_crop_and_resize"};
  static const char *const roundings[] = {"round", "round_prefer_floor", "round_prefer_ceil",
                                          "floor", "ceil"};
  const char *layout, *method, *mode, *rounding;
  int64_t exclude;
  r->nsp = s->call->u.call.op->id == IR_OP_IMAGE_RESIZE3D ? 3 : 2;
  r->ndim = r->nsp + 2;
  if (!op_nn_attr_str(s, "layout", r->nsp == 2 ? "NCHW" : "NCDHW", &layout) ||
      !op_nn_attr_str(s, "method", "linear", &method) ||
      !op_nn_attr_str(s, "coordinate_transformation_mode", "half_pixel", &mode) ||
      !op_nn_attr_str(s, "rounding_method", "", &rounding) ||
      !op_nn_attr_float(s, "cubic_alpha", -0.75, &r->alpha) ||
      !op_nn_attr_int(s, "cubic_exclude", 0, &exclude) ||
      !op_nn_attr_float(s, "extrapolation_value", 0.0, &r->extrapolation) ||
      !op_nn_attr_dtype(s, "out_dtype", &r->out_dtype) || !parse_layout(s, r, layout) ||
      !parse_roi(s, r))
    return false;
  int m = op_img_find_str(method, methods, 3), c = op_img_find_str(mode, modes, 6);
  int d = rounding[0] ? op_img_find_str(rounding, roundings, 5) : c == CT_ALIGN_CORNERS ? 0 : 3;
  if (m < 0 || c < 0 || d < 0)
    return op_fail(s, "unsupported %s \"%s\"",
                   m < 0   ? "method"
                   : c < 0 ? "coordinate_transformation_mode"
                           : "rounding_method",
                   m < 0   ? method
                   : c < 0 ? mode
                           : rounding);
  r->method = (ResizeMethod)m, r->mode = (CoordMode)c, r->rounding = (Rounding)d;
  r->exclude = exclude != 0;
  return true;
}

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

/* data's shape with the spatial dims from size (a shape of nsp values),
 * out_dtype or data's dtype. */
static IrSInfo *
infer_resize(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  Resize r;
  IrSInfo *x;
  if (!parse_resize(s, &r) || !op_nn_tensor_arg(in, s, args, 0, "data", &x))
    return NULL;
  IrSInfo *size = s->call->u.call.nargs > 1 ? args[1] : NULL;
  if (!size || size->kind != IR_SI_SHAPE)
    return op_fail_null(s, "size must be a shape, not %s",
                        size ? op_sinfo_text(in->ctx, size) : "missing");
  if (size->u.shape.ndim >= 0 && size->u.shape.ndim != r.nsp)
    return op_fail_null(s, "size must have %d values, not %d", r.nsp, size->u.shape.ndim);
  if (x && x->u.tensor.ndim >= 0 && x->u.tensor.ndim != r.ndim)
    return op_fail_null(s, "data must have %d dims for its layout, not %d", r.ndim,
                        x->u.tensor.ndim);
  IrDType t = r.out_dtype.code != IR_DT_VOID ? r.out_dtype : op_nn_dtype(x);
  IrPrimExpr **dims = op_nn_shape(x);
  if (!dims || !size->u.shape.values)
    return ir_sinfo_tensor(in->ctx, NULL, r.ndim, t, op_nn_vdevice(x));
  IrPrimExpr **out = ir_alloc(in->ctx, sizeof *out * (size_t)r.ndim);
  memcpy(out, dims, sizeof *out * (size_t)r.ndim);
  for (int k = 0; k < r.nsp; k++)
    out[r.pos_sp[k]] = size->u.shape.values[k];
  return ir_sinfo_tensor(in->ctx, out, r.ndim, t, op_nn_vdevice(x));
}

/* ------------------------------------------------------------------ */
/* Kernel                                                              */
/* ------------------------------------------------------------------ */

/* The input coordinate of output position o along an axis of input
 * extent n and output extent m (file comment). */
static double
coordinate(const Resize *r, int axis, double o, double n, double m)
{
  double scale = n / m;
  switch (r->mode) {
  case CT_HALF_PIXEL:
    return (o + 0.5) * scale - 0.5;
  case CT_ALIGN_CORNERS:
    return m > 1 ? (n - 1) / (m - 1) * o : 0.0;
  case CT_ASYMMETRIC:
    return scale * o;
  case CT_PYTORCH_HALF_PIXEL:
    return m > 1 ? (o + 0.5) * scale - 0.5 : 0.0;
  case CT_TF_HALF_PIXEL_FOR_NN:
    return (o + 0.5) * scale;
  case CT_TF_CROP_AND_RESIZE: {
    double a = r->start[axis], b = r->end[axis];
    return m > 1 ? a * (n - 1) + o * (b - a) * (n - 1) / (m - 1) : 0.5 * (a + b) * (n - 1);
  }
  }
  return 0;
}

static double
round_index(Rounding rd, double c)
{
  switch (rd) {
  case RD_ROUND:
    return nearbyint(c);
  case RD_ROUND_PREFER_FLOOR:
    return ceil(c - 0.5);
  case RD_ROUND_PREFER_CEIL:
    return floor(c + 0.5);
  case RD_FLOOR:
    return floor(c + 1e-5);
  case RD_CEIL:
    return ceil(c - 1e-5);
  }
  return c;
}

/* TOPI's cubic spline weights of the 4 taps at fraction t. */
static void
cubic_weights(double t, double a, double *w)
{
  double t2 = t * t, t3 = t * t * t;
  w[0] = a * (t3 - 2 * t2 + t);
  w[1] = (a + 2) * t3 - (3 + a) * t2 + 1;
  w[2] = -(a + 2) * t3 + (3 + 2 * a) * t2 - a * t;
  w[3] = -a * t3 + a * t2;
}

static int64_t
clamp_index(int64_t i, int64_t n)
{
  return i > n - 1 ? (n - 1 < 0 ? 0 : n - 1) : i < 0 ? 0 : i;
}

/* One axis's taps: their (clamped) indices and weights; returns how many. */
static int
axis_taps(const Resize *r, double c, int64_t n, int64_t *idx, double *w)
{
  if (r->method == RS_NEAREST) {
    idx[0] = clamp_index((int64_t)round_index(r->rounding, c), n);
    w[0] = 1;
    return 1;
  }
  double f = floor(c);
  int64_t i0 = (int64_t)f;
  if (r->method == RS_LINEAR) {
    idx[0] = clamp_index(i0, n), idx[1] = clamp_index(i0 + 1, n);
    w[0] = 1.0 - (c - f), w[1] = c - f;
    return 2;
  }
  cubic_weights(c - f, r->alpha, w);
  double sum = 0;
  for (int k = 0; k < 4; k++) {
    int64_t i = i0 - 1 + k;
    if (r->exclude && (i < 0 || i >= n))
      w[k] = 0;
    sum += w[k];
  }
  for (int k = 0; k < 4; k++) {
    if (r->exclude)
      w[k] = w[k] / sum;
    idx[k] = clamp_index(i0 - 1 + k, n);
  }
  return 4;
}

/* What the nested sum reads. */
typedef struct {
  const IrTensorData *x;
  const int64_t *strides;
  int nsp;
  int64_t base; /* offset of (n, c) */
  const int *pos_sp;
  int ntaps[RS_MAX_SP];
  int64_t idx[RS_MAX_SP][RS_MAX_TAPS];
  double w[RS_MAX_SP][RS_MAX_TAPS];
} Taps;

/* sum over the taps of axis a of v_k * w_k, v_k the sum of the inner axes
 * (the pixel itself past the last axis; a single tap is its pixel). */
static double
nested_sum(const Taps *t, int a, int64_t off)
{
  if (a == t->nsp)
    return op_get_f(t->x, off);
  if (t->ntaps[a] == 1)
    return nested_sum(t, a + 1, off + t->idx[a][0] * t->strides[t->pos_sp[a]]);
  double acc = 0;
  for (int k = 0; k < t->ntaps[a]; k++) {
    double v = nested_sum(t, a + 1, off + t->idx[a][k] * t->strides[t->pos_sp[a]]) * t->w[a][k];
    acc = k ? acc + v : v;
  }
  return acc;
}

static Value *
eval_resize(OpEval *ev, const OpSite *s, Value **args)
{
  Resize r;
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "data");
  if (!x || !parse_resize(s, &r))
    return NULL;
  if (x->ndim != r.ndim || args[1]->kind != VAL_SHAPE || args[1]->u.shape.n != r.nsp)
    return op_fail_null(s, "data must have %d dims and size %d values", r.ndim, r.nsp);
  int64_t shape[5], strides[5], o[5];
  memcpy(shape, x->shape, sizeof shape[0] * (size_t)r.ndim);
  for (int k = 0; k < r.nsp; k++)
    shape[r.pos_sp[k]] = args[1]->u.shape.dims[k];
  Value *out =
      op_nn_tensor_new(s, r.out_dtype.code != IR_DT_VOID ? r.out_dtype : x->dtype, r.ndim, shape);
  if (!out)
    return NULL;
  op_nn_strides(x, strides);
  Taps t = {x, strides, r.nsp, 0, r.pos_sp, {0}, {{0}}, {{0}}};
  bool empty = false;
  for (int k = 0; k < r.nsp; k++)
    empty = empty || x->shape[r.pos_sp[k]] == 0;
  for (int64_t i = 0, n = op_numel(&out->u.tensor.t); i < n; i++) {
    int64_t q = i; /* i as an index of the output */
    for (int d = r.ndim - 1; d >= 0; d--) {
      o[d] = q % shape[d];
      q /= shape[d];
    }
    bool outside = false;
    for (int k = 0; k < r.nsp; k++) {
      int64_t in_n = x->shape[r.pos_sp[k]], in_m = shape[r.pos_sp[k]];
      double c = coordinate(&r, k, (double)o[r.pos_sp[k]], (double)in_n, (double)in_m);
      t.ntaps[k] = axis_taps(&r, c, in_n, t.idx[k], t.w[k]);
      outside = outside || c < 0 || c > (double)(in_n - 1);
    }
    t.base = o[r.pos_n] * strides[r.pos_n] + o[r.pos_c] * strides[r.pos_c];
    double v = empty ? 0.0 : nested_sum(&t, 0, t.base);
    if (r.mode == CT_TF_CROP_AND_RESIZE && outside)
      v = r.extrapolation;
    op_set_f(&out->u.tensor.t, i, v);
  }
  return out;
}

/* ------------------------------------------------------------------ */
/* Legalization                                                        */
/* ------------------------------------------------------------------ */

/* coordinate() in TIR: o, n, m float64. */
static IrPrimExpr *
coordinate_tir(IrCtx *ctx, const Resize *r, int axis, IrPrimExpr *o, IrPrimExpr *n, IrPrimExpr *m)
{
  IrPrimExpr *scale = op_img_bin(ctx, IR_PE_DIV, n, m), *one = op_img_f64(ctx, 1.0);
  IrPrimExpr *half = op_img_bin(ctx, IR_PE_ADD, o, op_img_f64(ctx, 0.5));
  IrPrimExpr *zero = op_img_f64(ctx, 0.0), *wide = op_img_bin(ctx, IR_PE_GT, m, one);
  IrPrimExpr *n1 = op_img_bin(ctx, IR_PE_SUB, n, one), *m1 = op_img_bin(ctx, IR_PE_SUB, m, one);
  switch (r->mode) {
  case CT_HALF_PIXEL:
    return op_img_bin(ctx, IR_PE_SUB, op_img_bin(ctx, IR_PE_MUL, half, scale),
                      op_img_f64(ctx, 0.5));
  case CT_ALIGN_CORNERS:
    return ir_prim_select(ctx, wide,
                          op_img_bin(ctx, IR_PE_MUL, op_img_bin(ctx, IR_PE_DIV, n1, m1), o), zero);
  case CT_ASYMMETRIC:
    return op_img_bin(ctx, IR_PE_MUL, scale, o);
  case CT_PYTORCH_HALF_PIXEL:
    return ir_prim_select(
        ctx, wide,
        op_img_bin(ctx, IR_PE_SUB, op_img_bin(ctx, IR_PE_MUL, half, scale), op_img_f64(ctx, 0.5)),
        zero);
  case CT_TF_HALF_PIXEL_FOR_NN:
    return op_img_bin(ctx, IR_PE_MUL, half, scale);
  case CT_TF_CROP_AND_RESIZE: {
    double a = r->start[axis], b = r->end[axis];
    IrPrimExpr *span =
        op_img_bin(ctx, IR_PE_MUL, op_img_bin(ctx, IR_PE_MUL, o, op_img_f64(ctx, b - a)), n1);
    IrPrimExpr *v = op_img_bin(ctx, IR_PE_ADD, op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, a), n1),
                               op_img_bin(ctx, IR_PE_DIV, span, m1));
    return ir_prim_select(ctx, wide, v,
                          op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, 0.5 * (a + b)), n1));
  }
  }
  return zero;
}

/* round_index() in TIR. */
static IrPrimExpr *
round_tir(IrCtx *ctx, Rounding rd, IrPrimExpr *c)
{
  switch (rd) {
  case RD_ROUND:
    return op_img_intrin(ctx, "tir.round", c);
  case RD_ROUND_PREFER_FLOOR:
    return op_img_intrin(ctx, "tir.ceil", op_img_bin(ctx, IR_PE_SUB, c, op_img_f64(ctx, 0.5)));
  case RD_ROUND_PREFER_CEIL:
    return op_img_intrin(ctx, "tir.floor", op_img_bin(ctx, IR_PE_ADD, c, op_img_f64(ctx, 0.5)));
  case RD_FLOOR:
    return op_img_intrin(ctx, "tir.floor", op_img_bin(ctx, IR_PE_ADD, c, op_img_f64(ctx, 1e-5)));
  case RD_CEIL:
    return op_img_intrin(ctx, "tir.ceil", op_img_bin(ctx, IR_PE_SUB, c, op_img_f64(ctx, 1e-5)));
  }
  return c;
}

/* clamp_index() in TIR: max(min(i, n - 1), 0). */
static IrPrimExpr *
clamp_tir(IrCtx *ctx, IrPrimExpr *i, IrPrimExpr *n)
{
  IrPrimExpr *hi = op_img_bin(ctx, IR_PE_MIN, i, op_nn_sub(ctx, n, op_nn_index(ctx, 1)));
  return op_img_bin(ctx, IR_PE_MAX, hi, op_nn_index(ctx, 0));
}

/* axis_taps() in TIR: the taps' indices and weights, let-bound. */
static int
axis_taps_tir(OpLets *l, const Resize *r, char axis, IrPrimExpr *c, IrPrimExpr *n, IrPrimExpr **idx,
              IrPrimExpr **w)
{
  IrCtx *ctx = l->ctx;
  if (r->method == RS_NEAREST) {
    idx[0] = op_let_axis(l, "i", axis, 0,
                         clamp_tir(ctx, op_nn_to(ctx, IR_I64, round_tir(ctx, r->rounding, c)), n));
    w[0] = NULL;
    return 1;
  }
  IrPrimExpr *f = op_let_axis(l, "f", axis, -1, op_img_intrin(ctx, "tir.floor", c));
  IrPrimExpr *i0 = op_nn_to(ctx, IR_I64, f), *t = op_img_bin(ctx, IR_PE_SUB, c, f);
  if (r->method == RS_LINEAR) {
    for (int k = 0; k < 2; k++)
      idx[k] =
          op_let_axis(l, "i", axis, k, clamp_tir(ctx, op_nn_add(ctx, i0, op_nn_index(ctx, k)), n));
    w[0] = op_let_axis(l, "w", axis, 0, op_img_bin(ctx, IR_PE_SUB, op_img_f64(ctx, 1.0), t));
    w[1] = op_let_axis(l, "w", axis, 1, t);
    return 2;
  }
  double a = r->alpha;
  t = op_let_axis(l, "t", axis, -1, t);
  IrPrimExpr *t2 = op_img_bin(ctx, IR_PE_MUL, t, t), *t3 = op_img_bin(ctx, IR_PE_MUL, t2, t);
  IrPrimExpr *v[4];
  v[0] = op_img_bin(
      ctx, IR_PE_MUL, op_img_f64(ctx, a),
      op_img_bin(ctx, IR_PE_ADD,
                 op_img_bin(ctx, IR_PE_SUB, t3, op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, 2), t2)),
                 t));
  v[1] =
      op_img_bin(ctx, IR_PE_ADD,
                 op_img_bin(ctx, IR_PE_SUB, op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, a + 2), t3),
                            op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, 3 + a), t2)),
                 op_img_f64(ctx, 1));
  v[2] = op_img_bin(ctx, IR_PE_SUB,
                    op_img_bin(ctx, IR_PE_ADD,
                               op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, -(a + 2)), t3),
                               op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, 3 + 2 * a), t2)),
                    op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, a), t));
  v[3] = op_img_bin(ctx, IR_PE_ADD, op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, -a), t3),
                    op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, a), t2));
  IrPrimExpr *sum = NULL;
  for (int k = 0; k < 4; k++) {
    IrPrimExpr *i = op_nn_add(ctx, i0, op_nn_index(ctx, k - 1));
    if (r->exclude) {
      IrPrimExpr *out = op_img_bin(ctx, IR_PE_OR, op_img_bin(ctx, IR_PE_LT, i, op_nn_index(ctx, 0)),
                                   op_img_bin(ctx, IR_PE_GE, i, n));
      v[k] = op_let_axis(l, "u", axis, k, ir_prim_select(ctx, out, op_img_f64(ctx, 0.0), v[k]));
      sum = sum ? op_img_bin(ctx, IR_PE_ADD, sum, v[k]) : v[k];
    }
    idx[k] = op_let_axis(l, "i", axis, k, clamp_tir(ctx, i, n));
  }
  if (r->exclude)
    sum = op_let_axis(l, "s", axis, -1, sum);
  for (int k = 0; k < 4; k++)
    w[k] = op_let_axis(l, "w", axis, k, r->exclude ? op_img_bin(ctx, IR_PE_DIV, v[k], sum) : v[k]);
  return 4;
}

/* nested_sum() in TIR. */
typedef struct {
  OpPrim *p;
  IrBuffer *x;
  const Resize *r;
  IrPrimExpr **at; /* the input index being built (N and C set) */
  int ntaps[RS_MAX_SP];
  IrPrimExpr *idx[RS_MAX_SP][RS_MAX_TAPS], *w[RS_MAX_SP][RS_MAX_TAPS];
} TapsTir;

static IrPrimExpr *
nested_sum_tir(TapsTir *t, int a)
{
  IrCtx *ctx = t->p->lz->ctx;
  if (a == t->r->nsp)
    return op_nn_f64(ctx, op_prim_load(t->p, t->x, op_nn_index_copy(ctx, t->at, t->r->ndim)));
  IrPrimExpr *acc = NULL;
  for (int k = 0; k < t->ntaps[a]; k++) {
    t->at[t->r->pos_sp[a]] = t->idx[a][k];
    IrPrimExpr *v = nested_sum_tir(t, a + 1);
    if (t->ntaps[a] == 1)
      return v;
    v = op_img_bin(ctx, IR_PE_MUL, v, t->w[a][k]);
    acc = acc ? op_img_bin(ctx, IR_PE_ADD, acc, v) : v;
  }
  return acc;
}

static IrExpr *
legalize_resize(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  Resize r;
  OpPrim p;
  IrBuffer *x, *out;
  if (!parse_resize(s, &r) ||
      !op_prim_open(lz, &p, r.nsp == 2 ? "resize2d" : "resize3d", s->call, result,
                    (OpPrimParam[]){{"data", &x}, {"resize", &out}}, 2))
    return NULL;
  if (x->ndim != r.ndim || out->ndim != r.ndim)
    return op_prim_give_up(&p);
  IrPrimExpr **o;
  IrStmt **slot = op_prim_loops(&p, out->shape, out->ndim, &o);
  OpLets l = {ctx, {0}, {0}, 0};
  TapsTir t = {&p, x, &r, ir_alloc(ctx, sizeof(IrPrimExpr *) * (size_t)r.ndim), {0}, {{0}}, {{0}}};
  t.at[r.pos_n] = o[r.pos_n], t.at[r.pos_c] = o[r.pos_c];
  IrPrimExpr *outside = NULL, *inside = NULL;
  for (int k = 0; k < r.nsp; k++) {
    char axis = (r.nsp == 2 ? "hw" : "dhw")[k];
    IrPrimExpr *n = x->shape[r.pos_sp[k]];
    IrPrimExpr *c =
        op_let_axis(&l, "c", axis, -1,
                    coordinate_tir(ctx, &r, k, op_nn_f64(ctx, o[r.pos_sp[k]]), op_nn_f64(ctx, n),
                                   op_nn_f64(ctx, out->shape[r.pos_sp[k]])));
    t.ntaps[k] = axis_taps_tir(&l, &r, axis, c, n, t.idx[k], t.w[k]);
    IrPrimExpr *off = op_img_bin(
        ctx, IR_PE_OR, op_img_bin(ctx, IR_PE_LT, c, op_img_f64(ctx, 0.0)),
        op_img_bin(ctx, IR_PE_GT, c, op_nn_f64(ctx, op_nn_sub(ctx, n, op_nn_index(ctx, 1)))));
    outside = outside ? op_img_bin(ctx, IR_PE_OR, outside, off) : off;
    int64_t v;
    if (!ir_prim_is_int(n, &v) || v <= 0)
      inside = op_nn_and(ctx, inside, op_img_bin(ctx, IR_PE_GT, n, op_nn_index(ctx, 0)));
  }
  IrPrimExpr *v = nested_sum_tir(&t, 0);
  if (inside) { /* an empty image reads nothing: zeros */
    IrPrimExpr *a[3] = {inside, v, op_img_f64(ctx, 0.0)};
    v = ir_prim_intrin(ctx, op_nn_f64_type(), "tir.if_then_else", op_nn_index_copy(ctx, a, 3), 3);
  }
  if (r.mode == CT_TF_CROP_AND_RESIZE)
    v = ir_prim_select(ctx, outside, op_img_f64(ctx, r.extrapolation), v);
  IrStmt *body = op_prim_store(&p, out, o, op_nn_to(ctx, out->dtype, v));
  *slot = op_lets_wrap(&l, body, lz->loc);
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* image_int.h: lets                                                   */
/* ------------------------------------------------------------------ */

IrPrimExpr *
op_let(OpLets *l, const char *name, IrPrimExpr *value)
{
  IrPrimExpr *v = ir_prim_var(l->ctx, ir_sym(l->ctx, name), value->dtype);
  assert(l->n < OP_LETS_MAX);
  l->vars[l->n] = v, l->values[l->n] = value, l->n++;
  return v;
}

IrPrimExpr *
op_let_axis(OpLets *l, const char *name, char axis, int tap, IrPrimExpr *value)
{
  char buf[32];
  if (tap >= 0)
    snprintf(buf, sizeof buf, "%s_%c%d", name, axis, tap);
  else
    snprintf(buf, sizeof buf, "%s_%c", name, axis);
  return op_let(l, buf, value);
}

IrStmt *
op_lets_wrap(OpLets *l, IrStmt *body, IrLoc loc)
{
  for (int i = l->n - 1; i >= 0; i--) {
    IrStmt *st = ir_stmt_new(l->ctx, IR_ST_LET, loc);
    st->u.let.var = l->vars[i], st->u.let.value = l->values[i], st->u.let.body = body;
    body = st;
  }
  l->n = 0;
  return body;
}

/* ------------------------------------------------------------------ */
/* Table                                                               */
/* ------------------------------------------------------------------ */

#define E OP_ARG
#define A OP_ATTR
#define RESIZE_PARAMS(roi, layout, rounding)                                                       \
  .syn.params = {E("data"),                                                                        \
                 {"size", IR_PARAM_SHAPE, NULL}, /* (20, 20) reads as a shape */                   \
                 A("roi", roi),                                                                    \
                 A("layout", layout),                                                              \
                 A("method", "\"linear\""),                                                        \
                 A("coordinate_transformation_mode", "\"half_pixel\""),                            \
                 A("rounding_method", rounding),                                                   \
                 A("cubic_alpha", "-0.75"),                                                        \
                 A("cubic_exclude", "0"),                                                          \
                 A("extrapolation_value", "0.0"),                                                  \
                 A("out_dtype", "None")},                                                          \
  .syn.nparams = 11

static const OpDef defs[] = {
    OP(IR_OP_IMAGE_RESIZE2D, "relax.image.resize2d",
       RESIZE_PARAMS("[0.0, 0.0, 0.0, 0.0]", "\"NCHW\"", "\"round\""),
       .impl = {infer_resize, eval_resize, legalize_resize}),
    OP(IR_OP_IMAGE_RESIZE3D, "relax.image.resize3d",
       RESIZE_PARAMS("[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]", "\"NCDHW\"", "\"\""),
       .impl = {infer_resize, eval_resize, legalize_resize}),
    OP(IR_OP_IMAGE_GRID_SAMPLE, "relax.image.grid_sample",
       .syn.params = {E("data"), E("grid"), A("method", "\"bilinear\""), A("layout", "\"NCHW\""),
                      A("padding_mode", "\"zeros\""), A("align_corners", "False")},
       .syn.nparams = 6,
       .impl = {op_img_infer_grid_sample, op_img_eval_grid_sample, op_img_legalize_grid_sample}),
    OP(IR_OP_IMAGE_AFFINE_GRID, "relax.image.affine_grid",
       .syn.params = {E("data"), {"size", IR_PARAM_SHAPE, NULL}, A("align_corners", "True")},
       .syn.nparams = 3,
       .impl = {op_img_infer_affine_grid, op_img_eval_affine_grid, op_img_legalize_affine_grid}),
};

const OpTable op_image_table = {defs, sizeof defs / sizeof defs[0]};
