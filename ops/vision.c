/*
 * vision.c - detection ops: R.vision.roi_align, R.vision.roi_pool, and the
 * table entries of the box ops and the suppressions, whose hooks are in
 * vision_box.c and vision_nms.c.
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
 * [0, batch) (truncated; NaN too), the lowering asserts the same in a
 * check loop before it writes (tir_build.h's checks of data) and still
 * clamps it into the batch (R.take's policy), so the generated C never
 * reads outside the input.  An empty sampling
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
parse_roi_attrs(const OpSite *s, Roi *r)
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
  if (n == 0 || r->pooled[0] <= 0 || r->pooled[1] <= 0)
    return op_fail(s, "pooled_size must be one or two positive integers");
  r->nhwc = strcmp(layout, "NHWC") == 0;
  if ((!r->nhwc && strcmp(layout, "NCHW") != 0) || (r->nhwc && !r->align))
    return op_fail(s, "unsupported layout \"%s\" (%s)", layout, r->align ? "NCHW or NHWC" : "NCHW");
  r->max = !r->align;
  if (!r->align)
    return true;
  if (!op_nn_attr_int(s, "sample_ratio", -1, &r->sample_ratio) ||
      !op_nn_attr_bool(s, "aligned", false, &r->aligned) ||
      !op_nn_attr_str(s, "mode", "avg", &mode))
    return false;
  if (strcmp(mode, "avg") != 0 && strcmp(mode, "max") != 0)
    return op_fail(s, "unsupported mode \"%s\" (avg or max)", mode);
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
infer_roi(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  Roi r;
  IrSInfo *x, *rois;
  if (!parse_roi_attrs(s, &r) || !op_nn_tensor_arg(in, s, args, 0, "data", &x) ||
      !op_nn_tensor_arg(in, s, args, 1, "rois", &rois))
    return NULL;
  if (op_nn_ndim(x) >= 0 && op_nn_ndim(x) != 4)
    return op_fail_null(s, "data must be 4-D, not %d-D", op_nn_ndim(x));
  if (op_nn_ndim(rois) >= 0 && op_nn_ndim(rois) != 2)
    return op_fail_null(s, "rois must be 2-D (num_roi, 5), not %d-D", op_nn_ndim(rois));
  IrDType rt = op_nn_dtype(rois);
  if (rt.code != IR_DT_VOID && rt.code != IR_DT_FLOAT)
    return op_fail_null(s, "rois must be a float tensor, not %s", op_nn_dtype_str(in->ctx, rt));
  IrPrimExpr **xd = op_nn_shape(x), **rd = op_nn_shape(rois);
  if (rd && op_assume_equal(in, rd[1], op_nn_int(in->ctx, 5)) == IR_PROVE_FALSE)
    return op_fail_null(s, "rois must have shape (num_roi, 5), not last dim %s",
                        op_nn_expr_str(in->ctx, rd[1]));
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
eval_roi(OpEval *ev, const OpSite *s, Value **args)
{
  Roi r;
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "data");
  const IrTensorData *rois = op_nn_tensor_value(s, args, 1, "rois");
  if (!x || !rois || !parse_roi_attrs(s, &r))
    return NULL;
  if (x->ndim != 4 || rois->ndim != 2 || rois->shape[1] != 5)
    return op_fail_null(s, "data must be 4-D and rois (num_roi, 5)");
  int n, c, h, w;
  roi_axes(&r, &n, &c, &h, &w);
  int64_t shape[4];
  shape[n] = rois->shape[0], shape[c] = x->shape[c];
  shape[h] = r.pooled[0], shape[w] = r.pooled[1];
  Value *out = op_nn_tensor_new(s, x->dtype, 4, shape);
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
    if (!(bf >= 0 && bf < (double)x->shape[n]))
      return op_fail_null(s, "roi %lld has batch index %g outside [0, %lld)", (long long)o[n],
                          roi[0], (long long)x->shape[n]);
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

/* The kernel's refusal, before anything is written: each roi's batch
 * index truncated in [0, batch), when the output has an element (then the
 * kernel reads every roi). */
static void
roi_check(OpPrim *p, IrBuffer *x, IrBuffer *rois, IrBuffer *out, int n)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **i;
  IrStmt **slot =
      op_prim_check_loops(p, rois->shape, 1, &i, op_prim_nonempty(ctx, out->shape, out->ndim));
  IrPrimExpr *at[2] = {i[0], op_nn_index(ctx, 0)};
  IrPrimExpr *b = op_nn_f64(ctx, op_prim_load(p, rois, op_nn_index_copy(ctx, at, 2)));
  b = op_img_intrin(ctx, "tir.trunc", b);
  IrPrimExpr *ok = ir_prim_bin(
      ctx, IR_PE_AND, ir_prim_bin(ctx, IR_PE_GE, b, op_img_f64(ctx, 0.0)),
      ir_prim_bin(ctx, IR_PE_LT, b, op_nn_f64(ctx, op_nn_to(ctx, IR_I64, x->shape[n]))));
  *slot = op_prim_assert(p, ok, "roi batch index out of range");
}

static IrExpr *
legalize_roi(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  Roi r;
  OpPrim p;
  const char *name = strrchr(s->call->u.call.op->name, '.') + 1; /* roi_align, roi_pool */
  IrBuffer *x, *rois, *out;
  if (!parse_roi_attrs(s, &r) ||
      !op_prim_open(lz, &p, name, s->call, result,
                    (OpPrimParam[]){{"data", &x}, {"rois", &rois}, {name, &out}}, 3))
    return NULL;
  if (x->ndim != 4 || rois->ndim != 2 || out->ndim != 4)
    return op_prim_give_up(&p);
  int n, c, h, w;
  roi_axes(&r, &n, &c, &h, &w);
  roi_check(&p, x, rois, out, n);
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
  return op_prim_finish(&p, s->call, result);
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
       .syn.nparams = 8, .impl = {infer_roi, eval_roi, legalize_roi}, .flags = OP_CHECKS_DATA),
    OP(IR_OP_VISION_ROI_POOL, "relax.vision.roi_pool",
       .syn.params = {E("data"), E("rois"), A("pooled_size", NULL), A("spatial_scale", NULL),
                      A("layout", "\"NCHW\"")},
       .syn.nparams = 5, .impl = {infer_roi, eval_roi, legalize_roi}, .flags = OP_CHECKS_DATA),
    OP(IR_OP_VISION_GET_VALID_COUNTS, "relax.vision.get_valid_counts",
       .syn.params = {E("data"), A("score_threshold", "0.0"), A("id_index", "0"),
                      A("score_index", "1")},
       .syn.nparams = 4,
       .impl = {op_vis_infer_valid_counts, op_vis_eval_valid_counts, op_vis_legalize_valid_counts}),
    OP(IR_OP_VISION_ALL_CLASS_NON_MAX_SUPPRESSION, "relax.vision.all_class_non_max_suppression",
       .syn.params = {E("boxes"), E("scores"), E("max_output_boxes_per_class"), E("iou_threshold"),
                      E("score_threshold"), A("output_format", "\"onnx\"")},
       .syn.nparams = 6, .impl = {op_vis_infer_all_class_nms, op_vis_eval_all_class_nms,
                op_vis_legalize_all_class_nms}),
    OP(IR_OP_VISION_NON_MAX_SUPPRESSION, "relax.vision.non_max_suppression",
       .syn.params = {E("data"), E("valid_count"), E("indices"), A("max_output_size", "-1"),
                      A("iou_threshold", "0.5"), A("force_suppress", "False"), A("top_k", "-1"),
                      A("coord_start", "2"), A("score_index", "1"), A("id_index", "0"),
                      A("return_indices", "True"), A("invalid_to_bottom", "False"),
                      A("soft_nms_sigma", "0.0"), A("score_threshold", "0.0")},
       .syn.nparams = 14, .impl = {op_vis_infer_nms, op_vis_eval_nms, op_vis_legalize_nms},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_VISION_MULTIBOX_TRANSFORM_LOC, "relax.vision.multibox_transform_loc",
       .syn.params = {E("cls_pred"), E("loc_pred"), E("anchor"), A("clip", "False"),
                      A("threshold", "0.0"), A("variances", "[1.0, 1.0, 1.0, 1.0]"),
                      A("keep_background", "True")},
       .syn.nparams = 7,
       .impl = {op_vis_infer_multibox, op_vis_eval_multibox, op_vis_legalize_multibox}),
};

const OpTable op_vision_table = {defs, sizeof defs / sizeof defs[0]};
