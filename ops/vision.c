/*
 * vision.c - detection ops: R.vision.roi_align, R.vision.roi_pool (and
 * the box ops after them).
 *
 * Semantics are TVM's (src/relax/op/vision/ sources for struct info,
 * python/tvm/topi/vision/ for the computation).  A roi is a row
 * [batch_index, x1, y1, x2, y2] of rois, in image coordinates scaled by
 * spatial_scale.
 *   roi_align  each output bin averages (or takes the max of) a grid of
 *              bilinear samples, sample_ratio per axis or ceil(bin size);
 *              a sample more than one pixel outside the image is 0;
 *   roi_pool   each output bin is the max over the input pixels it
 *              covers (bounds rounded half away from zero), 0 when empty.
 * The batch index comes from the data: the kernel refuses one outside
 * [0, batch), the lowering clamps it into the batch (R.take's policy), so
 * the generated C never reads outside the input.  An empty sampling
 * grid of roi_align's max gives the dtype's lowest value (TOPI's max
 * identity).  Kernels compute in double; lowerings bind the same
 * quantities with lets in the same order, so both agree.
 */
#include <math.h>
#include <string.h>

#include "conv_int.h"
#include "image_int.h"

/* A roi op's attributes, checked. */
typedef struct {
  bool align;        /* roi_align (else roi_pool) */
  bool nhwc;         /* layout NHWC (else NCHW) */
  bool max;          /* mode "max" (roi_pool always) */
  bool aligned;      /* roi_align's aligned */
  int64_t pooled[2]; /* output bins: H, W */
  double spatial_scale;
  int64_t sample_ratio; /* > 0: samples per bin and axis; else ceil(bin) */
} Roi;

static bool
parse_roi_attrs(const NnSite *s, Roi *r)
{
  const char *layout, *mode;
  int n;
  memset(r, 0, sizeof *r);
  r->align = s->call->u.call.op->id == IR_OP_VISION_ROI_ALIGN;
  if (!op_nn_attr_ints(s, "pooled_size", r->pooled, 2, &n) ||
      !op_nn_attr_float(s, "spatial_scale", 1.0, &r->spatial_scale) ||
      !op_nn_attr_str(s, "layout", "NCHW", &layout))
    return false;
  if (n == 1)
    r->pooled[1] = r->pooled[0];
  if (n == 0 || r->pooled[0] <= 0 || r->pooled[1] <= 0) {
    op_nn_error(s, "pooled_size must be one or two positive integers");
    return false;
  }
  r->nhwc = strcmp(layout, "NHWC") == 0;
  if ((!r->nhwc && strcmp(layout, "NCHW") != 0) || (r->nhwc && !r->align)) {
    op_nn_error(s, "unsupported layout \"%s\" (%s)", layout, r->align ? "NCHW or NHWC" : "NCHW");
    return false;
  }
  r->max = !r->align;
  if (!r->align)
    return true;
  if (!op_nn_attr_int(s, "sample_ratio", -1, &r->sample_ratio) ||
      !op_nn_attr_bool(s, "aligned", false, &r->aligned) ||
      !op_nn_attr_str(s, "mode", "avg", &mode))
    return false;
  if (strcmp(mode, "avg") != 0 && strcmp(mode, "max") != 0) {
    op_nn_error(s, "unsupported mode \"%s\" (avg or max)", mode);
    return false;
  }
  r->max = strcmp(mode, "max") == 0;
  return true;
}

/* Positions of N, C, H, W in the layout. */
static void
roi_axes(const Roi *r, int *n, int *c, int *h, int *w)
{
  *n = 0;
  *c = r->nhwc ? 3 : 1;
  *h = r->nhwc ? 1 : 2;
  *w = r->nhwc ? 2 : 3;
}

/* (num_roi, C, PH, PW), or (num_roi, PH, PW, C) for NHWC; data's dtype. */
static IrSInfo *
infer_roi(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  NnSite s = op_nn_site_infer(in, call);
  Roi r;
  IrSInfo *x, *rois;
  if (!parse_roi_attrs(&s, &r) || !op_nn_tensor_arg(in, call, args, 0, "data", &x) ||
      !op_nn_tensor_arg(in, call, args, 1, "rois", &rois))
    return NULL;
  if (op_nn_ndim(x) >= 0 && op_nn_ndim(x) != 4) {
    op_nn_error(&s, "data must be 4-D, not %d-D", op_nn_ndim(x));
    return NULL;
  }
  if (op_nn_ndim(rois) >= 0 && op_nn_ndim(rois) != 2) {
    op_nn_error(&s, "rois must be 2-D (num_roi, 5), not %d-D", op_nn_ndim(rois));
    return NULL;
  }
  IrDType rt = op_nn_dtype(rois);
  if (rt.code != IR_DT_VOID && rt.code != IR_DT_FLOAT) {
    op_nn_error(&s, "rois must be a float tensor, not %s", op_nn_dtype_str(in->ctx, rt));
    return NULL;
  }
  IrPrimExpr **xd = op_nn_shape(x), **rd = op_nn_shape(rois);
  if (rd && op_assume_equal(in, rd[1], op_nn_int(in->ctx, 5)) == IR_PROVE_FALSE) {
    op_nn_error(&s, "rois must have shape (num_roi, 5), not last dim %s",
                op_nn_expr_str(in->ctx, rd[1]));
    return NULL;
  }
  if (!xd || !rd)
    return ir_sinfo_tensor(in->ctx, NULL, 4, op_nn_dtype(x), op_nn_vdevice(x));
  int n, c, h, w;
  roi_axes(&r, &n, &c, &h, &w);
  IrPrimExpr **out = ir_alloc(in->ctx, sizeof *out * 4);
  out[n] = rd[0], out[c] = xd[c];
  out[h] = op_nn_int(in->ctx, r.pooled[0]), out[w] = op_nn_int(in->ctx, r.pooled[1]);
  return ir_sinfo_tensor(in->ctx, out, 4, op_nn_dtype(x), op_nn_vdevice(x));
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

/* A 4-D input read at (n, c, y, x) whatever its layout. */
typedef struct {
  const IrTensorData *t;
  int64_t stride[4]; /* of n, c, y, x */
  int64_t H, W;
} Image;

static Image
image_of(const Roi *r, const IrTensorData *t)
{
  int64_t st[4];
  int n, c, h, w;
  roi_axes(r, &n, &c, &h, &w);
  op_nn_strides(t, st);
  Image im = {t, {st[n], st[c], st[h], st[w]}, t->shape[h], t->shape[w]};
  return im;
}

static double
pixel(const Image *im, int64_t n, int64_t c, int64_t y, int64_t x)
{
  return op_get_f(im->t,
                  n * im->stride[0] + c * im->stride[1] + y * im->stride[2] + x * im->stride[3]);
}

/* TOPI's bilinear sample at (y, x): 0 beyond one pixel outside the
 * image, else the clamped point's four neighbours inside the image,
 * x-major, each weight wx * wy. */
static double
bilinear(const Image *im, int64_t n, int64_t c, double y, double x)
{
  double H = (double)im->H, W = (double)im->W;
  if (y < -1.0 || x < -1.0 || y > H || x > W)
    return 0.0;
  y = fmin(fmax(y, 0.0), H - 1), x = fmin(fmax(x, 0.0), W - 1);
  double fy = floor(y), fx = floor(x);
  int64_t yl = (int64_t)fy, xl = (int64_t)fx;
  double wy[2] = {1.0 - (y - fy), y - fy}, wx[2] = {1.0 - (x - fx), x - fx};
  double v = 0.0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      int64_t yp = yl + j, xp = xl + i;
      if (yp >= 0 && yp <= im->H - 1 && xp >= 0 && xp <= im->W - 1)
        v = v + wx[i] * wy[j] * pixel(im, n, c, yp, xp);
    }
  return v;
}

/* The geometry of a roi along one axis (0: y, 1: x): its start in the
 * input, its bin size and its samples per bin (roi_align). */
typedef struct {
  double start[2], bin[2];
  int64_t grid[2];
} Bins;

static Bins
align_bins(const Roi *r, const double *roi)
{
  Bins b;
  for (int a = 0; a < 2; a++) { /* roi: x1, y1, x2, y2 */
    double lo = roi[2 - a] * r->spatial_scale, hi = roi[4 - a] * r->spatial_scale;
    double size = r->aligned ? hi - lo : fmax(hi - lo, 1.0);
    b.start[a] = lo;
    b.bin[a] = size / (double)r->pooled[a];
    b.grid[a] = r->sample_ratio > 0 ? r->sample_ratio : (int64_t)ceil(size / (double)r->pooled[a]);
    if (b.grid[a] < 0)
      b.grid[a] = 0;
  }
  return b;
}

static double
align_point(const Roi *r, const Image *im, const double *roi, int64_t n, int64_t c,
            const int64_t *p)
{
  Bins b = align_bins(r, roi);
  double y0 = b.start[0] + (double)p[0] * b.bin[0], x0 = b.start[1] + (double)p[1] * b.bin[1];
  double count = (double)(b.grid[0] * b.grid[1]);
  double acc = r->max ? op_conv_lowest(im->t->dtype) : 0.0;
  for (int64_t i = 0; i < b.grid[0]; i++)
    for (int64_t j = 0; j < b.grid[1]; j++) {
      double y = y0 + ((double)i + 0.5) * b.bin[0] / (double)b.grid[0];
      double x = x0 + ((double)j + 0.5) * b.bin[1] / (double)b.grid[1];
      double v = bilinear(im, n, c, y, x);
      acc = r->max ? fmax(acc, v) : acc + v / count;
    }
  return acc;
}

/* roi_pool's bin of output p along each axis: [lo, hi) clamped into the
 * image. */
static void
pool_bounds(const Roi *r, const Image *im, const double *roi, const int64_t *p, int64_t *lo,
            int64_t *hi)
{
  for (int a = 0; a < 2; a++) {
    int64_t start = (int64_t)floor(roi[2 - a] * r->spatial_scale + 0.5);
    int64_t end = (int64_t)floor(roi[4 - a] * r->spatial_scale + 0.5);
    int64_t size = end - start + 1 > 1 ? end - start + 1 : 1;
    double bin = (double)size / (double)r->pooled[a];
    int64_t extent = a == 0 ? im->H : im->W;
    int64_t l = (int64_t)floor((double)p[a] * bin) + start;
    int64_t h = (int64_t)ceil((double)(p[a] + 1) * bin) + start;
    lo[a] = l < 0 ? 0 : l > extent ? extent : l;
    hi[a] = h < 0 ? 0 : h > extent ? extent : h;
  }
}

static double
pool_point(const Roi *r, const Image *im, const double *roi, int64_t n, int64_t c, const int64_t *p)
{
  int64_t lo[2], hi[2];
  pool_bounds(r, im, roi, p, lo, hi);
  if (hi[0] <= lo[0] || hi[1] <= lo[1])
    return 0.0;
  double acc = op_conv_lowest(im->t->dtype);
  for (int64_t y = lo[0]; y < hi[0]; y++)
    for (int64_t x = lo[1]; x < hi[1]; x++)
      acc = fmax(acc, pixel(im, n, c, y, x));
  return acc;
}

static Value *
eval_roi(OpEval *ev, const IrExpr *call, Value **args)
{
  NnSite s = op_nn_site_eval(ev, call);
  Roi r;
  const IrTensorData *x = op_nn_tensor_value(&s, args, 0, "data");
  const IrTensorData *rois = op_nn_tensor_value(&s, args, 1, "rois");
  if (!x || !rois || !parse_roi_attrs(&s, &r))
    return NULL;
  if (x->ndim != 4 || rois->ndim != 2 || rois->shape[1] != 5) {
    op_nn_error(&s, "data must be 4-D and rois (num_roi, 5)");
    return NULL;
  }
  int n, c, h, w;
  roi_axes(&r, &n, &c, &h, &w);
  int64_t shape[4];
  shape[n] = rois->shape[0], shape[c] = x->shape[c];
  shape[h] = r.pooled[0], shape[w] = r.pooled[1];
  Value *out = op_nn_tensor_new(&s, x->dtype, 4, shape);
  if (!out)
    return NULL;
  Image im = image_of(&r, x);
  int64_t o[4];
  for (int64_t i = 0, total = op_numel(&out->u.tensor.t); i < total; i++) {
    int64_t q = i;
    for (int d = 3; d >= 0; d--)
      o[d] = q % shape[d], q /= shape[d];
    double roi[5];
    for (int k = 0; k < 5; k++)
      roi[k] = op_get_f(rois, o[n] * 5 + k);
    double bf = trunc(roi[0]);
    if (!(bf >= 0 && bf < (double)x->shape[n])) {
      op_nn_error(&s, "roi %lld has batch index %g outside [0, %lld)", (long long)o[n], roi[0],
                  (long long)x->shape[n]);
      return NULL;
    }
    int64_t p[2] = {o[h], o[w]};
    double v = r.align ? align_point(&r, &im, roi, (int64_t)bf, o[c], p)
                       : pool_point(&r, &im, roi, (int64_t)bf, o[c], p);
    op_set_f(&out->u.tensor.t, i, v);
  }
  return out;
}

/* ------------------------------------------------------------------ */
/* Legalization                                                        */
/* ------------------------------------------------------------------ */

/* max(min(i, hi), lo) on int64. */
static IrPrimExpr *
clamp_i64(IrCtx *ctx, IrPrimExpr *i, IrPrimExpr *lo, IrPrimExpr *hi)
{
  return op_img_bin(ctx, IR_PE_MAX, op_img_bin(ctx, IR_PE_MIN, i, hi), lo);
}

/* What a roi lowering builds with. */
typedef struct {
  OpPrim *p;
  IrCtx *ctx;
  const Roi *r;
  IrBuffer *x, *rois;
  IrPrimExpr *n, *c; /* output roi and channel (loop vars) */
  IrPrimExpr *b;     /* the batch index, clamped */
  IrPrimExpr *H, *W; /* input extents (int64) */
} RoiTir;

/* data[b, c, y, x] in its layout, as float64; y and x clamped into the
 * image (they are inside wherever the value is used). */
static IrPrimExpr *
load_pixel(const RoiTir *t, IrPrimExpr *y, IrPrimExpr *x)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *zero = op_nn_index(ctx, 0), *one = op_nn_index(ctx, 1);
  y = clamp_i64(ctx, y, zero, op_nn_sub(ctx, t->H, one));
  x = clamp_i64(ctx, x, zero, op_nn_sub(ctx, t->W, one));
  IrPrimExpr *at[4];
  int n, c, h, w;
  roi_axes(t->r, &n, &c, &h, &w);
  at[n] = t->b, at[c] = t->c, at[h] = y, at[w] = x;
  return op_nn_f64(ctx, op_prim_load(t->p, t->x, op_nn_index_copy(ctx, at, 4)));
}

/* rois[n, k] as float64. */
static IrPrimExpr *
roi_field(const RoiTir *t, int k)
{
  IrPrimExpr *at[2] = {t->n, op_nn_index(t->ctx, k)};
  return op_nn_f64(t->ctx, op_prim_load(t->p, t->rois, op_nn_index_copy(t->ctx, at, 2)));
}

/* bilinear() in TIR, its quantities let-bound in l. */
static IrPrimExpr *
bilinear_tir(const RoiTir *t, OpLets *l, IrPrimExpr *y, IrPrimExpr *x)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *Hf = op_nn_f64(ctx, t->H), *Wf = op_nn_f64(ctx, t->W), *one = op_img_f64(ctx, 1.0);
  IrPrimExpr *outside =
      op_img_bin(ctx, IR_PE_OR,
                 op_img_bin(ctx, IR_PE_OR, op_img_bin(ctx, IR_PE_LT, y, op_img_f64(ctx, -1.0)),
                            op_img_bin(ctx, IR_PE_LT, x, op_img_f64(ctx, -1.0))),
                 op_img_bin(ctx, IR_PE_OR, op_img_bin(ctx, IR_PE_GT, y, Hf),
                            op_img_bin(ctx, IR_PE_GT, x, Wf)));
  IrPrimExpr *pos[2] = {y, x}, *ext[2] = {Hf, Wf}, *low[2], *wt[2][2];
  for (int a = 0; a < 2; a++) {
    char axis = "yx"[a];
    IrPrimExpr *v =
        op_img_bin(ctx, IR_PE_MIN, op_img_bin(ctx, IR_PE_MAX, pos[a], op_img_f64(ctx, 0.0)),
                   op_img_bin(ctx, IR_PE_SUB, ext[a], one));
    v = op_let_axis(l, "p", axis, -1, v);
    IrPrimExpr *f = op_let_axis(l, "f", axis, -1, op_img_intrin(ctx, "tir.floor", v));
    low[a] = op_nn_to(ctx, IR_I64, f);
    wt[a][1] = op_let_axis(l, "w", axis, 1, op_img_bin(ctx, IR_PE_SUB, v, f));
    wt[a][0] = op_let_axis(l, "w", axis, 0, op_img_bin(ctx, IR_PE_SUB, one, wt[a][1]));
  }
  IrPrimExpr *sum = NULL, *zero = op_nn_index(ctx, 0), *one_i = op_nn_index(ctx, 1);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      IrPrimExpr *yp = op_nn_add(ctx, low[0], op_nn_index(ctx, j));
      IrPrimExpr *xp = op_nn_add(ctx, low[1], op_nn_index(ctx, i));
      IrPrimExpr *in =
          op_nn_and(ctx,
                    op_nn_and(ctx, op_img_bin(ctx, IR_PE_GE, yp, zero),
                              op_img_bin(ctx, IR_PE_LE, yp, op_nn_sub(ctx, t->H, one_i))),
                    op_nn_and(ctx, op_img_bin(ctx, IR_PE_GE, xp, zero),
                              op_img_bin(ctx, IR_PE_LE, xp, op_nn_sub(ctx, t->W, one_i))));
      IrPrimExpr *term = op_img_bin(ctx, IR_PE_MUL, op_img_bin(ctx, IR_PE_MUL, wt[1][i], wt[0][j]),
                                    load_pixel(t, yp, xp));
      IrPrimExpr *a[3] = {in, term, op_img_f64(ctx, 0.0)};
      term =
          ir_prim_intrin(ctx, op_nn_f64_type(), "tir.if_then_else", op_nn_index_copy(ctx, a, 3), 3);
      sum = sum ? op_img_bin(ctx, IR_PE_ADD, sum, term) : term;
    }
  IrPrimExpr *a[3] = {outside, op_img_f64(ctx, 0.0), sum};
  return ir_prim_intrin(ctx, op_nn_f64_type(), "tir.if_then_else", op_nn_index_copy(ctx, a, 3), 3);
}

/* One output element of roi_align into acc[0] (align_point() in TIR):
 * outer lets in l, the statements returned. */
static IrStmt *
align_tir(const RoiTir *t, OpLets *l, IrPrimExpr **p, IrBuffer *acc)
{
  IrCtx *ctx = t->ctx;
  const Roi *r = t->r;
  IrPrimExpr *y0x0[2], *bins[2], *grid[2];
  for (int a = 0; a < 2; a++) {
    char axis = "yx"[a];
    IrPrimExpr *scale = op_img_f64(ctx, r->spatial_scale);
    IrPrimExpr *lo =
        op_let_axis(l, "lo", axis, -1, op_img_bin(ctx, IR_PE_MUL, roi_field(t, 2 - a), scale));
    IrPrimExpr *hi = op_img_bin(ctx, IR_PE_MUL, roi_field(t, 4 - a), scale);
    IrPrimExpr *size = op_img_bin(ctx, IR_PE_SUB, hi, lo);
    if (!r->aligned)
      size = op_img_bin(ctx, IR_PE_MAX, size, op_img_f64(ctx, 1.0));
    size = op_let_axis(l, "size", axis, -1, size);
    IrPrimExpr *pooled = op_img_f64(ctx, (double)r->pooled[a]);
    bins[a] = op_let_axis(l, "bin", axis, -1, op_img_bin(ctx, IR_PE_DIV, size, pooled));
    IrPrimExpr *g =
        r->sample_ratio > 0
            ? op_nn_index(ctx, r->sample_ratio)
            : op_img_bin(ctx, IR_PE_MAX,
                         op_nn_to(ctx, IR_I64,
                                  op_img_intrin(ctx, "tir.ceil",
                                                op_img_bin(ctx, IR_PE_DIV, size, pooled))),
                         op_nn_index(ctx, 0));
    grid[a] = op_let_axis(l, "grid", axis, -1, g);
    y0x0[a] = op_let_axis(
        l, "start", axis, -1,
        op_img_bin(ctx, IR_PE_ADD, lo, op_img_bin(ctx, IR_PE_MUL, op_nn_f64(ctx, p[a]), bins[a])));
  }
  IrPrimExpr *count =
      op_let(l, "count", op_nn_f64(ctx, op_img_bin(ctx, IR_PE_MUL, grid[0], grid[1])));
  IrPrimExpr **s;
  IrStmt *loops, **slot = op_prim_loop_nest(t->p, grid, 2, &s, &loops);
  OpLets inner = {ctx, {0}, {0}, 0};
  IrPrimExpr *pos[2];
  for (int a = 0; a < 2; a++) {
    IrPrimExpr *off = op_img_bin(
        ctx, IR_PE_DIV,
        op_img_bin(ctx, IR_PE_MUL,
                   op_img_bin(ctx, IR_PE_ADD, op_nn_f64(ctx, s[a]), op_img_f64(ctx, 0.5)), bins[a]),
        op_nn_f64(ctx, grid[a]));
    pos[a] = op_let_axis(&inner, "s", "yx"[a], -1, op_img_bin(ctx, IR_PE_ADD, y0x0[a], off));
  }
  IrPrimExpr *v = bilinear_tir(t, &inner, pos[0], pos[1]);
  IrPrimExpr *old = op_nn_acc(t->p, acc, 0);
  IrPrimExpr *next = r->max ? op_img_bin(ctx, IR_PE_MAX, old, v)
                            : op_img_bin(ctx, IR_PE_ADD, old, op_img_bin(ctx, IR_PE_DIV, v, count));
  *slot = op_lets_wrap(&inner, op_nn_acc_set(t->p, acc, 0, next), t->p->lz->loc);
  IrStmt *st[2] = {
      op_nn_acc_set(t->p, acc, 0, op_img_f64(ctx, r->max ? op_conv_lowest(t->x->dtype) : 0.0)),
      loops};
  return op_nn_seq(t->p, st, 2);
}

/* One output element of roi_pool into acc[0] (pool_point() in TIR),
 * *empty set to the test of an empty bin. */
static IrStmt *
pool_tir(const RoiTir *t, OpLets *l, IrPrimExpr **p, IrBuffer *acc, IrPrimExpr **empty)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *lo[2], *hi[2], *ext[2], *zero = op_nn_index(ctx, 0);
  for (int a = 0; a < 2; a++) {
    char axis = "yx"[a];
    IrPrimExpr *scale = op_img_f64(ctx, t->r->spatial_scale), *half = op_img_f64(ctx, 0.5);
    IrPrimExpr *start = op_let_axis(
        l, "start", axis, -1,
        op_nn_to(ctx, IR_I64,
                 op_img_intrin(ctx, "tir.floor",
                               op_img_bin(ctx, IR_PE_ADD,
                                          op_img_bin(ctx, IR_PE_MUL, roi_field(t, 2 - a), scale),
                                          half))));
    IrPrimExpr *end = op_nn_to(
        ctx, IR_I64,
        op_img_intrin(ctx, "tir.floor",
                      op_img_bin(ctx, IR_PE_ADD,
                                 op_img_bin(ctx, IR_PE_MUL, roi_field(t, 4 - a), scale), half)));
    IrPrimExpr *size =
        op_img_bin(ctx, IR_PE_MAX, op_nn_add(ctx, op_nn_sub(ctx, end, start), op_nn_index(ctx, 1)),
                   op_nn_index(ctx, 1));
    IrPrimExpr *b = op_let_axis(
        l, "bin", axis, -1,
        op_img_bin(ctx, IR_PE_DIV, op_nn_f64(ctx, size), op_img_f64(ctx, (double)t->r->pooled[a])));
    IrPrimExpr *extent = a == 0 ? t->H : t->W;
    IrPrimExpr *l0 =
        op_nn_add(ctx,
                  op_nn_to(ctx, IR_I64,
                           op_img_intrin(ctx, "tir.floor",
                                         op_img_bin(ctx, IR_PE_MUL, op_nn_f64(ctx, p[a]), b))),
                  start);
    IrPrimExpr *h0 = op_nn_add(
        ctx,
        op_nn_to(ctx, IR_I64,
                 op_img_intrin(ctx, "tir.ceil",
                               op_img_bin(ctx, IR_PE_MUL,
                                          op_nn_f64(ctx, op_nn_add(ctx, p[a], op_nn_index(ctx, 1))),
                                          b))),
        start);
    lo[a] = op_let_axis(l, "lo", axis, -1, clamp_i64(ctx, l0, zero, extent));
    hi[a] = op_let_axis(l, "hi", axis, -1, clamp_i64(ctx, h0, zero, extent));
    ext[a] = op_img_bin(ctx, IR_PE_MAX, op_nn_sub(ctx, hi[a], lo[a]), zero);
  }
  *empty = op_img_bin(ctx, IR_PE_OR, op_img_bin(ctx, IR_PE_LE, hi[0], lo[0]),
                      op_img_bin(ctx, IR_PE_LE, hi[1], lo[1]));
  IrPrimExpr **s;
  IrStmt *loops, **slot = op_prim_loop_nest(t->p, ext, 2, &s, &loops);
  IrPrimExpr *v = load_pixel(t, op_nn_add(ctx, lo[0], s[0]), op_nn_add(ctx, lo[1], s[1]));
  *slot = op_nn_acc_set(t->p, acc, 0, op_img_bin(ctx, IR_PE_MAX, op_nn_acc(t->p, acc, 0), v));
  IrStmt *st[2] = {op_nn_acc_set(t->p, acc, 0, op_img_f64(ctx, op_conv_lowest(t->x->dtype))),
                   loops};
  return op_nn_seq(t->p, st, 2);
}

static IrExpr *
legalize_roi(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  NnSite s = op_nn_site_legalize(lz, call);
  IrCtx *ctx = lz->ctx;
  Roi r;
  OpPrim p;
  if (!parse_roi_attrs(&s, &r))
    return NULL;
  op_prim_begin(lz, &p, r.align ? "roi_align" : "roi_pool");
  IrBuffer *x = op_prim_input(&p, call->u.call.args[0], "data");
  IrBuffer *rois = op_prim_input(&p, call->u.call.args[1], "rois");
  IrBuffer *out = op_prim_output(&p, result, r.align ? "roi_align" : "roi_pool");
  if (!x || !rois || !out || x->ndim != 4 || rois->ndim != 2 || out->ndim != 4) {
    op_prim_abort(&p);
    return NULL;
  }
  int n, c, h, w;
  roi_axes(&r, &n, &c, &h, &w);
  IrBuffer *acc = op_nn_acc_new(&p, 1);
  IrPrimExpr **o;
  IrStmt **slot = op_prim_loops(&p, out->shape, 4, &o);
  RoiTir t = {&p, ctx, &r, x, rois, o[n], o[c], NULL, x->shape[h], x->shape[w]};
  OpLets l = {ctx, {0}, {0}, 0};
  IrPrimExpr *b = op_nn_to(ctx, IR_I64, roi_field(&t, 0));
  t.b = op_let(
      &l, "b",
      clamp_i64(ctx, b, op_nn_index(ctx, 0), op_nn_sub(ctx, x->shape[n], op_nn_index(ctx, 1))));
  IrPrimExpr *pos[2] = {o[h], o[w]};
  IrPrimExpr *value = op_nn_acc(&p, acc, 0), *empty = NULL;
  IrStmt *st[2];
  st[0] = r.align ? align_tir(&t, &l, pos, acc) : pool_tir(&t, &l, pos, acc, &empty);
  if (empty) /* an empty bin of roi_pool is 0 */
    value = ir_prim_select(ctx, empty, op_img_f64(ctx, 0.0), value);
  st[1] = op_prim_store(&p, out, o, op_nn_to(ctx, out->dtype, value));
  IrStmt *body = op_nn_seq(&p, st, 2);
  *slot = op_lets_wrap(&l, body, lz->loc);
  return op_prim_finish(&p, call, result);
}

/* ------------------------------------------------------------------ */
/* multibox_transform_loc                                              */
/* ------------------------------------------------------------------ */

/* R.vision.multibox_transform_loc(cls_pred [B, C, N], loc_pred [B, 4N],
 * anchor [1, N, 4]) -> (boxes [B, N, 4], scores [B, C, N]) as TOPI: each
 * anchor (l, t, r, b) decodes its (x, y, w, h) offsets scaled by
 * variances into (ymin, xmin, ymax, xmax), clipped into [0, 1] with
 * clip; scores are the softmax over classes, zeroed below threshold, and
 * class 0 zeroed unless keep_background. */
typedef struct {
  bool clip, keep_background;
  double threshold;
  double var[4]; /* x, y, w, h */
} Multibox;

static bool
parse_multibox(const NnSite *s, Multibox *m)
{
  const IrAttr *a = op_attr(s->call, "variances");
  if (!op_nn_attr_bool(s, "clip", false, &m->clip) ||
      !op_nn_attr_bool(s, "keep_background", true, &m->keep_background) ||
      !op_nn_attr_float(s, "threshold", 0.0, &m->threshold))
    return false;
  for (int k = 0; k < 4; k++)
    m->var[k] = 1.0;
  if (!a || a->kind == IR_AT_NONE)
    return true;
  if (a->kind != IR_AT_LIST || a->u.list.n != 4) {
    op_nn_error(s, "variances must be 4 numbers (x, y, w, h)");
    return false;
  }
  for (int k = 0; k < 4; k++) {
    const IrAttr *v = a->u.list.items[k];
    if (v->kind != IR_AT_FLOAT && v->kind != IR_AT_INT) {
      op_nn_error(s, "variances must be 4 numbers (x, y, w, h)");
      return false;
    }
    m->var[k] = v->kind == IR_AT_FLOAT ? v->u.f : (double)v->u.i;
  }
  return true;
}

static IrSInfo *
infer_multibox(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  NnSite s = op_nn_site_infer(in, call);
  Multibox m;
  IrSInfo *t[3];
  static const char *const names[3] = {"cls_pred", "loc_pred", "anchor"};
  static const int ranks[3] = {3, 2, 3};
  if (!parse_multibox(&s, &m))
    return NULL;
  for (int i = 0; i < 3; i++) {
    if (!op_nn_tensor_arg(in, call, args, i, names[i], &t[i]))
      return NULL;
    if (op_nn_ndim(t[i]) >= 0 && op_nn_ndim(t[i]) != ranks[i]) {
      op_nn_error(&s, "%s must be %d-D, not %d-D", names[i], ranks[i], op_nn_ndim(t[i]));
      return NULL;
    }
    IrDType a = op_nn_dtype(t[0]), b = op_nn_dtype(t[i]);
    if (a.code != IR_DT_VOID && b.code != IR_DT_VOID && !ir_dtype_eq(a, b)) {
      op_nn_error(&s, "cls_pred and %s dtypes differ: %s vs %s", names[i],
                  op_nn_dtype_str(in->ctx, a), op_nn_dtype_str(in->ctx, b));
      return NULL;
    }
  }
  if (!op_nn_require_float(in, call, op_nn_dtype(t[0])))
    return NULL;
  IrPrimExpr **c = op_nn_shape(t[0]), **l = op_nn_shape(t[1]), **a = op_nn_shape(t[2]);
  IrCtx *ctx = in->ctx;
  const char *bad = NULL;
  if (a && (op_assume_equal(in, a[0], op_nn_int(ctx, 1)) == IR_PROVE_FALSE ||
            op_assume_equal(in, a[2], op_nn_int(ctx, 4)) == IR_PROVE_FALSE))
    bad = "anchor must have shape (1, N, 4)";
  else if (c && l && op_assume_equal(in, l[0], c[0]) == IR_PROVE_FALSE)
    bad = "cls_pred and loc_pred batches differ";
  else if (c && l &&
           op_assume_equal(in, l[1],
                           op_nn_simplify(in, ir_prim_bin(ctx, IR_PE_MUL, op_nn_int(ctx, 4),
                                                          c[2]))) == IR_PROVE_FALSE)
    bad = "loc_pred.shape[1] must be 4 * N (N = cls_pred.shape[2])";
  else if (c && a && op_assume_equal(in, a[1], c[2]) == IR_PROVE_FALSE)
    bad = "anchor.shape[1] must be N = cls_pred.shape[2]";
  if (bad) {
    op_nn_error(&s, "%s", bad);
    return NULL;
  }
  IrDType dt = op_nn_dtype(t[0]);
  int vd = op_nn_vdevice(t[0]);
  IrSInfo **fields = ir_alloc(ctx, sizeof *fields * 2);
  if (!c) {
    fields[0] = ir_sinfo_tensor(ctx, NULL, 3, dt, vd);
    fields[1] = ir_sinfo_tensor(ctx, NULL, 3, dt, vd);
  } else {
    IrPrimExpr **bs = ir_alloc(ctx, sizeof *bs * 3);
    bs[0] = c[0], bs[1] = c[2], bs[2] = op_nn_int(ctx, 4);
    fields[0] = ir_sinfo_tensor(ctx, bs, 3, dt, vd);
    fields[1] = ir_sinfo_tensor(ctx, c, 3, dt, vd);
  }
  return ir_sinfo_tuple(ctx, fields, 2);
}

/* Box k (ymin, xmin, ymax, xmax) of anchor (l, t, r, b) and offsets
 * e (x, y, w, h). */
static void
decode_box(const Multibox *m, const double *anc, const double *e, double *box)
{
  double ay = (anc[1] + anc[3]) * 0.5, ax = (anc[0] + anc[2]) * 0.5;
  double ah = anc[3] - anc[1], aw = anc[2] - anc[0];
  double yc = e[1] * m->var[1] * ah + ay, xc = e[0] * m->var[0] * aw + ax;
  double hh = 0.5 * exp(e[3] * m->var[3]) * ah, hw = 0.5 * exp(e[2] * m->var[2]) * aw;
  box[0] = yc - hh, box[1] = xc - hw, box[2] = yc + hh, box[3] = xc + hw;
  for (int k = 0; m->clip && k < 4; k++)
    box[k] = fmax(0.0, fmin(1.0, box[k]));
}

static Value *
eval_multibox(OpEval *ev, const IrExpr *call, Value **args)
{
  NnSite s = op_nn_site_eval(ev, call);
  Multibox m;
  const IrTensorData *cls = op_nn_tensor_value(&s, args, 0, "cls_pred");
  const IrTensorData *loc = op_nn_tensor_value(&s, args, 1, "loc_pred");
  const IrTensorData *anchor = op_nn_tensor_value(&s, args, 2, "anchor");
  if (!cls || !loc || !anchor || !parse_multibox(&s, &m))
    return NULL;
  if (cls->ndim != 3 || loc->ndim != 2 || anchor->ndim != 3 || loc->shape[0] != cls->shape[0] ||
      loc->shape[1] != 4 * cls->shape[2] || anchor->shape[0] != 1 ||
      anchor->shape[1] != cls->shape[2] || anchor->shape[2] != 4) {
    op_nn_error(&s, "expected cls_pred [B, C, N], loc_pred [B, 4N], anchor [1, N, 4]");
    return NULL;
  }
  int64_t B = cls->shape[0], C = cls->shape[1], N = cls->shape[2];
  int64_t bshape[3] = {B, N, 4};
  Value *boxes = op_nn_tensor_new(&s, cls->dtype, 3, bshape);
  Value *scores = op_nn_tensor_new(&s, cls->dtype, 3, cls->shape);
  if (!boxes || !scores)
    return NULL;
  for (int64_t b = 0; b < B; b++)
    for (int64_t a = 0; a < N; a++) {
      double anc[4], e[4], box[4];
      for (int k = 0; k < 4; k++)
        anc[k] = op_get_f(anchor, a * 4 + k), e[k] = op_get_f(loc, (b * N + a) * 4 + k);
      decode_box(&m, anc, e, box);
      for (int k = 0; k < 4; k++)
        op_set_f(&boxes->u.tensor.t, (b * N + a) * 4 + k, box[k]);
      double mx = -INFINITY, sum = 0.0;
      for (int64_t c = 0; c < C; c++)
        mx = fmax(mx, op_get_f(cls, (b * C + c) * N + a));
      for (int64_t c = 0; c < C; c++)
        sum = sum + exp(op_get_f(cls, (b * C + c) * N + a) - mx);
      for (int64_t c = 0; c < C; c++) {
        double v = exp(op_get_f(cls, (b * C + c) * N + a) - mx) / sum;
        if (!(v >= m.threshold) || (c == 0 && !m.keep_background))
          v = 0.0;
        op_set_f(&scores->u.tensor.t, (b * C + c) * N + a, v);
      }
    }
  Value *items[2] = {boxes, scores};
  return op_tuple_new(ev->ctx, items, 2);
}

static IrExpr *
legalize_multibox(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  NnSite s = op_nn_site_legalize(lz, call);
  IrCtx *ctx = lz->ctx;
  Multibox m;
  OpPrim p;
  if (!parse_multibox(&s, &m) || result->kind != IR_SI_TUPLE || result->u.tuple.n != 2)
    return NULL;
  op_prim_begin(lz, &p, "multibox_transform_loc");
  IrBuffer *cls = op_prim_input(&p, call->u.call.args[0], "cls_pred");
  IrBuffer *loc = op_prim_input(&p, call->u.call.args[1], "loc_pred");
  IrBuffer *anchor = op_prim_input(&p, call->u.call.args[2], "anchor");
  IrBuffer *boxes = op_prim_output(&p, result->u.tuple.fields[0], "multibox_boxes");
  IrBuffer *scores = op_prim_output(&p, result->u.tuple.fields[1], "multibox_scores");
  if (!cls || !loc || !anchor || !boxes || !scores || cls->ndim != 3) {
    op_prim_abort(&p);
    return NULL;
  }
  IrBuffer *acc = op_nn_acc_new(&p, 2);
  IrPrimExpr *ext[2] = {cls->shape[0], cls->shape[2]}, **o;
  IrStmt **slot = op_prim_loops(&p, ext, 2, &o);
  IrPrimExpr *b = o[0], *a = o[1], *zero = op_nn_index(ctx, 0);
  OpLets l = {ctx, {0}, {0}, 0};
  IrPrimExpr *anc[4], *e[4], *box[4];
  for (int k = 0; k < 4; k++) {
    IrPrimExpr *at[3] = {zero, a, op_nn_index(ctx, k)};
    anc[k] = op_nn_f64(ctx, op_prim_load(&p, anchor, op_nn_index_copy(ctx, at, 3)));
    IrPrimExpr *lat[2] = {
        b, op_nn_add(ctx, op_nn_mul(ctx, a, op_nn_index(ctx, 4)), op_nn_index(ctx, k))};
    e[k] = op_nn_f64(ctx, op_prim_load(&p, loc, op_nn_index_copy(ctx, lat, 2)));
  }
  IrPrimExpr *half = op_img_f64(ctx, 0.5);
  IrPrimExpr *ay = op_let(
      &l, "ay", op_img_bin(ctx, IR_PE_MUL, op_img_bin(ctx, IR_PE_ADD, anc[1], anc[3]), half));
  IrPrimExpr *ax = op_let(
      &l, "ax", op_img_bin(ctx, IR_PE_MUL, op_img_bin(ctx, IR_PE_ADD, anc[0], anc[2]), half));
  IrPrimExpr *ah = op_let(&l, "ah", op_img_bin(ctx, IR_PE_SUB, anc[3], anc[1]));
  IrPrimExpr *aw = op_let(&l, "aw", op_img_bin(ctx, IR_PE_SUB, anc[2], anc[0]));
  IrPrimExpr *yc =
      op_let(&l, "yc",
             op_img_bin(ctx, IR_PE_ADD,
                        op_img_bin(ctx, IR_PE_MUL,
                                   op_img_bin(ctx, IR_PE_MUL, e[1], op_img_f64(ctx, m.var[1])), ah),
                        ay));
  IrPrimExpr *xc =
      op_let(&l, "xc",
             op_img_bin(ctx, IR_PE_ADD,
                        op_img_bin(ctx, IR_PE_MUL,
                                   op_img_bin(ctx, IR_PE_MUL, e[0], op_img_f64(ctx, m.var[0])), aw),
                        ax));
  IrPrimExpr *hh = op_let(
      &l, "hh",
      op_img_bin(
          ctx, IR_PE_MUL,
          op_img_bin(ctx, IR_PE_MUL, half,
                     op_img_intrin(ctx, "tir.exp",
                                   op_img_bin(ctx, IR_PE_MUL, e[3], op_img_f64(ctx, m.var[3])))),
          ah));
  IrPrimExpr *hw = op_let(
      &l, "hw",
      op_img_bin(
          ctx, IR_PE_MUL,
          op_img_bin(ctx, IR_PE_MUL, half,
                     op_img_intrin(ctx, "tir.exp",
                                   op_img_bin(ctx, IR_PE_MUL, e[2], op_img_f64(ctx, m.var[2])))),
          aw));
  box[0] = op_img_bin(ctx, IR_PE_SUB, yc, hh), box[1] = op_img_bin(ctx, IR_PE_SUB, xc, hw);
  box[2] = op_img_bin(ctx, IR_PE_ADD, yc, hh), box[3] = op_img_bin(ctx, IR_PE_ADD, xc, hw);
  IrStmt *st[10];
  int n = 0;
  for (int k = 0; k < 4; k++) {
    IrPrimExpr *v = box[k];
    if (m.clip)
      v = op_img_bin(ctx, IR_PE_MAX, op_img_f64(ctx, 0.0),
                     op_img_bin(ctx, IR_PE_MIN, op_img_f64(ctx, 1.0), v));
    IrPrimExpr *at[3] = {b, a, op_nn_index(ctx, k)};
    st[n++] =
        op_prim_store(&p, boxes, op_nn_index_copy(ctx, at, 3), op_nn_to(ctx, boxes->dtype, v));
  }
  /* the softmax over classes: max, sum of exp, then each score */
  IrPrimExpr *mx = op_nn_acc(&p, acc, 0), *sum = op_nn_acc(&p, acc, 1);
  st[n++] = op_nn_acc_set(&p, acc, 0, op_img_f64(ctx, -INFINITY));
  st[n++] = op_nn_acc_set(&p, acc, 1, op_img_f64(ctx, 0.0));
  for (int pass = 0; pass < 3; pass++) {
    IrPrimExpr **c;
    IrStmt *loop, **body = op_prim_loop_nest(&p, &cls->shape[1], 1, &c, &loop);
    IrPrimExpr *at[3] = {b, c[0], a};
    IrPrimExpr *x = op_nn_f64(ctx, op_prim_load(&p, cls, op_nn_index_copy(ctx, at, 3)));
    IrPrimExpr *ex = op_img_intrin(ctx, "tir.exp", op_img_bin(ctx, IR_PE_SUB, x, mx));
    if (pass == 0) {
      *body = op_nn_acc_set(&p, acc, 0, op_img_bin(ctx, IR_PE_MAX, mx, x));
    } else if (pass == 1) {
      *body = op_nn_acc_set(&p, acc, 1, op_img_bin(ctx, IR_PE_ADD, sum, ex));
    } else {
      IrPrimExpr *v = op_img_bin(ctx, IR_PE_DIV, ex, sum);
      IrPrimExpr *drop = ir_prim_bin(
          ctx, IR_PE_NOT, op_img_bin(ctx, IR_PE_GE, v, op_img_f64(ctx, m.threshold)), NULL);
      if (!m.keep_background)
        drop = op_img_bin(ctx, IR_PE_OR, drop, op_img_bin(ctx, IR_PE_EQ, c[0], zero));
      v = ir_prim_select(ctx, drop, op_img_f64(ctx, 0.0), v);
      *body =
          op_prim_store(&p, scores, op_nn_index_copy(ctx, at, 3), op_nn_to(ctx, scores->dtype, v));
    }
    st[n++] = loop;
  }
  *slot = op_lets_wrap(&l, op_nn_seq(&p, st, n), lz->loc);
  return op_prim_finish(&p, call, result);
}

/* ------------------------------------------------------------------ */
/* get_valid_counts                                                    */
/* ------------------------------------------------------------------ */

/* R.vision.get_valid_counts(data [B, N, L]) -> (valid_count [B] int32,
 * out [B, N, L], out_indices [B, N] int32) as TOPI: per batch, the rows
 * whose score (column score_index) exceeds score_threshold (and, with
 * id_index >= 0, whose class id is not negative) move to the top in
 * order, with their row index; the rest is filled with -1.  The outputs
 * have fixed sizes (N rows), so the arena bound is the input's. */
typedef struct {
  double threshold;
  int64_t id_index, score_index;
} ValidCounts;

static bool
parse_valid_counts(const NnSite *s, ValidCounts *v)
{
  return op_nn_attr_float(s, "score_threshold", 0.0, &v->threshold) &&
         op_nn_attr_int(s, "id_index", 0, &v->id_index) &&
         op_nn_attr_int(s, "score_index", 1, &v->score_index);
}

static IrSInfo *
infer_valid_counts(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  NnSite s = op_nn_site_infer(in, call);
  ValidCounts v;
  IrSInfo *x;
  IrCtx *ctx = in->ctx;
  if (!parse_valid_counts(&s, &v) || !op_nn_tensor_arg(in, call, args, 0, "data", &x))
    return NULL;
  if (op_nn_ndim(x) >= 0 && op_nn_ndim(x) != 3) {
    op_nn_error(&s, "data must be 3-D [batch, num_anchors, elem_length], not %d-D", op_nn_ndim(x));
    return NULL;
  }
  IrPrimExpr **d = op_nn_shape(x);
  int64_t len;
  bool known = d && ir_prim_is_int(d[2], &len);
  if (v.score_index < 0 || (known && v.score_index >= len)) {
    op_nn_error(&s, "score_index %lld is out of range [0, elem_length)", (long long)v.score_index);
    return NULL;
  }
  if (v.id_index < -1 || (known && v.id_index >= len)) {
    op_nn_error(&s, "id_index %lld is out of range [-1, elem_length)", (long long)v.id_index);
    return NULL;
  }
  if (d) { /* a symbolic elem_length must hold both columns (checked at run time) */
    int64_t need = (v.score_index > v.id_index ? v.score_index : v.id_index) + 1;
    op_assume(in, ir_prim_bin(ctx, IR_PE_GE, d[2], op_nn_int(ctx, need)));
  }
  IrDType dt = op_nn_dtype(x);
  int vd = op_nn_vdevice(x);
  IrSInfo **f = ir_alloc(ctx, sizeof *f * 3);
  if (!d) {
    f[0] = ir_sinfo_tensor(ctx, NULL, 1, IR_I32, vd);
    f[1] = ir_sinfo_tensor(ctx, NULL, 3, dt, vd);
    f[2] = ir_sinfo_tensor(ctx, NULL, 2, IR_I32, vd);
  } else {
    f[0] = ir_sinfo_tensor(ctx, d, 1, IR_I32, vd);
    f[1] = ir_sinfo_tensor(ctx, d, 3, dt, vd);
    f[2] = ir_sinfo_tensor(ctx, d, 2, IR_I32, vd);
  }
  return ir_sinfo_tuple(ctx, f, 3);
}

static Value *
eval_valid_counts(OpEval *ev, const IrExpr *call, Value **args)
{
  NnSite s = op_nn_site_eval(ev, call);
  ValidCounts v;
  const IrTensorData *x = op_nn_tensor_value(&s, args, 0, "data");
  if (!x || !parse_valid_counts(&s, &v))
    return NULL;
  if (x->ndim != 3 || v.score_index >= x->shape[2] || v.id_index >= x->shape[2]) {
    op_nn_error(&s, "data must be 3-D with score_index and id_index inside elem_length");
    return NULL;
  }
  int64_t B = x->shape[0], N = x->shape[1], L = x->shape[2];
  Value *count = op_nn_tensor_new(&s, IR_I32, 1, x->shape);
  Value *out = op_nn_tensor_new(&s, x->dtype, 3, x->shape);
  Value *idx = op_nn_tensor_new(&s, IR_I32, 2, x->shape);
  if (!count || !out || !idx)
    return NULL;
  for (int64_t i = 0; i < B; i++) {
    int64_t cur = 0;
    for (int64_t j = 0; j < N; j++) {
      const int64_t row = (i * N + j) * L;
      bool valid = op_get_f(x, row + v.score_index) > v.threshold &&
                   (v.id_index < 0 || op_get_f(x, row + v.id_index) >= 0);
      if (!valid)
        continue;
      for (int64_t k = 0; k < L; k++)
        op_set_f(&out->u.tensor.t, (i * N + cur) * L + k, op_get_f(x, row + k));
      op_set_i(&idx->u.tensor.t, i * N + cur, j);
      cur++;
    }
    op_set_i(&count->u.tensor.t, i, cur);
    for (int64_t j = cur; j < N; j++) {
      for (int64_t k = 0; k < L; k++)
        op_set_f(&out->u.tensor.t, (i * N + j) * L + k, -1.0);
      op_set_i(&idx->u.tensor.t, i * N + j, -1);
    }
  }
  Value *items[3] = {count, out, idx};
  return op_tuple_new(ev->ctx, items, 3);
}

static IrExpr *
legalize_valid_counts(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  NnSite s = op_nn_site_legalize(lz, call);
  IrCtx *ctx = lz->ctx;
  ValidCounts v;
  OpPrim p;
  if (!parse_valid_counts(&s, &v) || result->kind != IR_SI_TUPLE || result->u.tuple.n != 3)
    return NULL;
  op_prim_begin(lz, &p, "get_valid_counts");
  IrBuffer *x = op_prim_input(&p, call->u.call.args[0], "data");
  IrBuffer *count = op_prim_output(&p, result->u.tuple.fields[0], "valid_count");
  IrBuffer *out = op_prim_output(&p, result->u.tuple.fields[1], "out_tensor");
  IrBuffer *idx = op_prim_output(&p, result->u.tuple.fields[2], "out_indices");
  if (!x || !count || !out || !idx || x->ndim != 3) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **i, **j, **k, *at[3];
  IrStmt **slot = op_prim_loops(&p, x->shape, 1, &i);
  IrPrimExpr *counted = op_prim_load_at(&p, count, i[0]);
  IrStmt *st[3], *scan, *fill;
  st[0] = op_prim_store_at(&p, count, i[0], ir_prim_int(ctx, IR_I32, 0));
  /* the scan: a valid row goes to row valid_count[i] (at most j) */
  IrStmt **row = op_prim_loop_nest(&p, &x->shape[1], 1, &j, &scan);
  at[0] = i[0], at[1] = j[0], at[2] = op_nn_index(ctx, v.score_index);
  IrPrimExpr *valid =
      op_img_bin(ctx, IR_PE_GT, op_nn_f64(ctx, op_prim_load(&p, x, op_nn_index_copy(ctx, at, 3))),
                 op_img_f64(ctx, v.threshold));
  if (v.id_index >= 0) {
    at[2] = op_nn_index(ctx, v.id_index);
    valid = op_img_bin(ctx, IR_PE_AND, valid,
                       op_img_bin(ctx, IR_PE_GE,
                                  op_nn_f64(ctx, op_prim_load(&p, x, op_nn_index_copy(ctx, at, 3))),
                                  op_img_f64(ctx, 0.0)));
  }
  OpLets l = {ctx, {0}, {0}, 0};
  IrPrimExpr *cur = op_let(&l, "cur", op_nn_to(ctx, IR_I64, counted));
  IrStmt *copy, **elem = op_prim_loop_nest(&p, &x->shape[2], 1, &k, &copy);
  IrPrimExpr *src[3] = {i[0], j[0], k[0]}, *dst[3] = {i[0], cur, k[0]};
  *elem = op_prim_store(&p, out, op_nn_index_copy(ctx, dst, 3),
                        op_prim_load(&p, x, op_nn_index_copy(ctx, src, 3)));
  IrPrimExpr *ipos[2] = {i[0], cur};
  IrStmt *moved[3] = {
      copy, op_prim_store(&p, idx, op_nn_index_copy(ctx, ipos, 2), op_nn_to(ctx, IR_I32, j[0])),
      op_prim_store_at(&p, count, i[0],
                       op_nn_to(ctx, IR_I32, op_nn_add(ctx, cur, op_nn_index(ctx, 1))))};
  *row = op_nn_if(&p, valid, op_lets_wrap(&l, op_nn_seq(&p, moved, 3), lz->loc));
  st[1] = scan;
  /* the rest: -1 */
  IrStmt **rest = op_prim_loop_nest(&p, &x->shape[1], 1, &j, &fill);
  IrStmt *pad, **pad_elem = op_prim_loop_nest(&p, &x->shape[2], 1, &k, &pad);
  IrPrimExpr *o[3] = {i[0], j[0], k[0]}, *oi[2] = {i[0], j[0]};
  *pad_elem = op_prim_store(&p, out, op_nn_index_copy(ctx, o, 3),
                            op_nn_to(ctx, out->dtype, op_img_f64(ctx, -1.0)));
  IrStmt *padded[2] = {
      pad, op_prim_store(&p, idx, op_nn_index_copy(ctx, oi, 2), ir_prim_int(ctx, IR_I32, -1))};
  *rest = op_nn_if(&p, op_img_bin(ctx, IR_PE_GE, j[0], op_nn_to(ctx, IR_I64, counted)),
                   op_nn_seq(&p, padded, 2));
  st[2] = fill;
  *slot = op_nn_seq(&p, st, 3);
  return op_prim_finish(&p, call, result);
}

/* ------------------------------------------------------------------ */
/* all_class_non_max_suppression (struct info only)                    */
/* ------------------------------------------------------------------ */

/* R.vision.all_class_non_max_suppression(boxes [B, N, 4], scores
 * [B, C, N], max_output_boxes_per_class, iou_threshold, score_threshold)
 * as TVM's struct info: fixed-size outputs, whose valid rows a count
 * says.  "onnx": (selected [B * C * N, 3] int64, count [1] int64);
 * "tensorflow": (indices [B, C * N, 2] int64, scores [B, C * N] float32,
 * counts [B] int64).  The outputs' sizes bound the arena whatever the
 * data selects.  rxc has no kernel nor lowering for it yet. */
static IrSInfo *
infer_all_class_nms(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  NnSite s = op_nn_site_infer(in, call);
  IrCtx *ctx = in->ctx;
  IrSInfo *boxes, *scores;
  const char *format;
  if (!op_nn_attr_str(&s, "output_format", "onnx", &format) ||
      !op_nn_tensor_arg(in, call, args, 0, "boxes", &boxes) ||
      !op_nn_tensor_arg(in, call, args, 1, "scores", &scores))
    return NULL;
  bool onnx = strcmp(format, "onnx") == 0;
  if (!onnx && strcmp(format, "tensorflow") != 0) {
    op_nn_error(&s, "unsupported output_format \"%s\" (onnx or tensorflow)", format);
    return NULL;
  }
  if (op_nn_ndim(boxes) != 3 || op_nn_ndim(scores) != 3) {
    op_nn_error(&s, "boxes and scores must be 3-D tensors of known rank");
    return NULL;
  }
  IrPrimExpr **b = op_nn_shape(boxes), **sc = op_nn_shape(scores);
  int vd = op_nn_vdevice(boxes);
  IrSInfo **f = ir_alloc(ctx, sizeof *f * 3);
  if (!b || !sc) { /* TVM needs the shapes; without them only ranks */
    f[0] = ir_sinfo_tensor(ctx, NULL, onnx ? 2 : 3, IR_I64, vd);
    f[1] = onnx ? ir_sinfo_tensor(ctx, NULL, 1, IR_I64, vd)
                : ir_sinfo_tensor(ctx, NULL, 2, IR_F32, vd);
    f[2] = ir_sinfo_tensor(ctx, NULL, 1, IR_I64, vd);
    return ir_sinfo_tuple(ctx, f, onnx ? 2 : 3);
  }
  IrPrimExpr *per_batch = op_nn_simplify(in, ir_prim_bin(ctx, IR_PE_MUL, sc[1], b[1]));
  if (onnx) {
    IrPrimExpr **sel = ir_alloc(ctx, sizeof *sel * 2), **one = ir_alloc(ctx, sizeof *one);
    sel[0] = op_nn_simplify(in, ir_prim_bin(ctx, IR_PE_MUL, b[0], per_batch));
    sel[1] = op_nn_int(ctx, 3), one[0] = op_nn_int(ctx, 1);
    f[0] = ir_sinfo_tensor(ctx, sel, 2, IR_I64, vd);
    f[1] = ir_sinfo_tensor(ctx, one, 1, IR_I64, vd);
    return ir_sinfo_tuple(ctx, f, 2);
  }
  IrPrimExpr **idx = ir_alloc(ctx, sizeof *idx * 3), **scs = ir_alloc(ctx, sizeof *scs * 2);
  idx[0] = b[0], idx[1] = per_batch, idx[2] = op_nn_int(ctx, 2);
  scs[0] = b[0], scs[1] = per_batch;
  f[0] = ir_sinfo_tensor(ctx, idx, 3, IR_I64, vd);
  f[1] = ir_sinfo_tensor(ctx, scs, 2, IR_F32, vd);
  f[2] = ir_sinfo_tensor(ctx, b, 1, IR_I64, vd);
  return ir_sinfo_tuple(ctx, f, 3);
}

/* ------------------------------------------------------------------ */
/* Table                                                               */
/* ------------------------------------------------------------------ */

#define E OP_ARG
#define A OP_ATTR

static const OpDef defs[] = {
    OP(IR_OP_VISION_ROI_ALIGN, "relax.vision.roi_align",
       .syn.params = {E("data"), E("rois"), A("pooled_size", NULL), A("spatial_scale", NULL),
                      A("sample_ratio", "-1"), A("aligned", "False"), A("layout", "\"NCHW\""),
                      A("mode", "\"avg\"")},
       .syn.nparams = 8, .impl = {infer_roi, eval_roi, legalize_roi}),
    OP(IR_OP_VISION_ROI_POOL, "relax.vision.roi_pool",
       .syn.params = {E("data"), E("rois"), A("pooled_size", NULL), A("spatial_scale", NULL),
                      A("layout", "\"NCHW\"")},
       .syn.nparams = 5, .impl = {infer_roi, eval_roi, legalize_roi}),
    OP(IR_OP_VISION_GET_VALID_COUNTS, "relax.vision.get_valid_counts",
       .syn.params = {E("data"), A("score_threshold", "0.0"), A("id_index", "0"),
                      A("score_index", "1")},
       .syn.nparams = 4, .impl = {infer_valid_counts, eval_valid_counts, legalize_valid_counts}),
    OP(IR_OP_VISION_ALL_CLASS_NON_MAX_SUPPRESSION, "relax.vision.all_class_non_max_suppression",
       .syn.params = {E("boxes"), E("scores"), E("max_output_boxes_per_class"), E("iou_threshold"),
                      E("score_threshold"), A("output_format", "\"onnx\"")},
       .syn.nparams = 6, .impl = {infer_all_class_nms, NULL, NULL}),
    OP(IR_OP_VISION_MULTIBOX_TRANSFORM_LOC, "relax.vision.multibox_transform_loc",
       .syn.params = {E("cls_pred"), E("loc_pred"), E("anchor"), A("clip", "False"),
                      A("threshold", "0.0"), A("variances", "[1.0, 1.0, 1.0, 1.0]"),
                      A("keep_background", "True")},
       .syn.nparams = 7, .impl = {infer_multibox, eval_multibox, legalize_multibox}),
};

const OpTable op_vision_table = {defs, sizeof defs / sizeof defs[0]};
