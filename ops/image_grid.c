/*
 * image_grid.c - the hooks of R.image.affine_grid and R.image.grid_sample,
 * whose entries are image.c's (declared in image_int.h).
 *
 * Semantics are TOPI's (python/tvm/topi/image/grid_sample.py); as in
 * image.c, kernels compute in double and the lowerings bind the same
 * quantities with lets, so the interpreter and the generated C agree.
 */
#include <math.h>
#include <string.h>

#include "image_int.h"

/* ------------------------------------------------------------------ */
/* affine_grid                                                         */
/* ------------------------------------------------------------------ */

/* R.image.affine_grid(theta, size): theta (N, k, k + 1) for k = 2 or 3
 * spatial axes, the result (N, k, *size): at output position p, row d of
 * theta applied to normalized coordinates, the translation first, then
 * the axes from the outermost in (theta's columns run x, y, z):
 *   out[n, d, p] = theta[n, d, k] + sum_r theta[n, d, k-1-r] * coord_r,
 *   coord_r = start_r + p_r * step_r, as TOPI's affine_grid. */
static void
affine_steps(bool align, double s, double *start, double *step)
{
  *start = align ? -1.0 : -1.0 + 1.0 / s;
  *step = align ? (2.0 - 1e-7) / (s - 1) : 2.0 / s;
}

IrSInfo *
op_img_infer_affine_grid(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x, *size = s->call->u.call.nargs > 1 ? args[1] : NULL;
  bool align;
  if (!op_nn_attr_bool(s, "align_corners", true, &align) ||
      !op_nn_tensor_arg(in, s, args, 0, "data", &x))
    return NULL;
  if (!size || size->kind != IR_SI_SHAPE || (size->u.shape.ndim != 2 && size->u.shape.ndim != 3))
    return op_fail_null(s, "size must be a shape of 2 or 3 values");
  int k = size->u.shape.ndim;
  if (op_nn_ndim(x) >= 0 && op_nn_ndim(x) != 3)
    return op_fail_null(s, "data must be 3-D (batch, %d, %d), not %d-D", k, k + 1, op_nn_ndim(x));
  IrPrimExpr **xd = op_nn_shape(x), **sz = size->u.shape.values;
  if (xd && (op_assume_equal(in, xd[1], op_nn_int(in->ctx, k)) == IR_PROVE_FALSE ||
             op_assume_equal(in, xd[2], op_nn_int(in->ctx, k + 1)) == IR_PROVE_FALSE)) {
    return op_fail_null(s, "data must have shape (batch, %d, %d), not %s", k, k + 1,
                        op_sinfo_text(in->ctx, x));
  }
  for (int r = 0; align && sz && r < k; r++) {
    int64_t v;
    if (ir_prim_is_int(sz[r], &v) && v <= 1)
      return op_fail_null(s, "with align_corners every target dim must be greater than 1");
  }
  if (!xd || !sz)
    return ir_sinfo_tensor(in->ctx, NULL, k + 2, op_nn_dtype(x), op_nn_vdevice(x));
  IrPrimExpr **out = ir_alloc(in->ctx, sizeof *out * (size_t)(k + 2));
  out[0] = xd[0], out[1] = op_nn_int(in->ctx, k);
  memcpy(out + 2, sz, sizeof *out * (size_t)k);
  return ir_sinfo_tensor(in->ctx, out, k + 2, op_nn_dtype(x), op_nn_vdevice(x));
}

Value *
op_img_eval_affine_grid(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "data");
  bool align;
  if (!x || !op_nn_attr_bool(s, "align_corners", true, &align))
    return NULL;
  int k = args[1]->kind == VAL_SHAPE ? args[1]->u.shape.n : 0;
  if ((k != 2 && k != 3) || x->ndim != 3 || x->shape[1] != k || x->shape[2] != k + 1)
    return op_fail_null(s, "data must be (batch, k, k + 1) and size k values, k 2 or 3");
  int64_t shape[5] = {x->shape[0], k}, o[5];
  double start[3], step[3];
  for (int r = 0; r < k; r++) {
    shape[2 + r] = args[1]->u.shape.dims[r];
    affine_steps(align, (double)shape[2 + r], &start[r], &step[r]);
  }
  Value *out = op_nn_tensor_new(s, x->dtype, k + 2, shape);
  if (!out)
    return NULL;
  for (int64_t i = 0, n = op_numel(&out->u.tensor.t); i < n; i++) {
    int64_t q = i;
    for (int d = k + 1; d >= 0; d--)
      o[d] = q % shape[d], q /= shape[d];
    int64_t row = (o[0] * k + o[1]) * (k + 1);
    double v = op_get_f(x, row + k);
    for (int r = 0; r < k; r++)
      v = v + op_get_f(x, row + k - 1 - r) * (start[r] + (double)o[2 + r] * step[r]);
    op_set_f(&out->u.tensor.t, i, v);
  }
  return out;
}

IrExpr *
op_img_legalize_affine_grid(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  bool align;
  OpPrim p;
  IrBuffer *x, *out;
  if (!op_nn_attr_bool(s, "align_corners", true, &align) ||
      !op_prim_open(lz, &p, "affine_grid", s->call, result,
                    (OpPrimParam[]){{"data", &x}, {"affine_grid", &out}}, 2))
    return NULL;
  if (x->ndim != 3 || out->ndim < 4)
    return op_prim_give_up(&p);
  int k = out->ndim - 2;
  IrPrimExpr **o;
  IrStmt **slot = op_prim_loops(&p, out->shape, out->ndim, &o);
  IrPrimExpr *at[3] = {o[0], o[1], op_nn_index(ctx, k)};
  IrPrimExpr *v = op_nn_f64(ctx, op_prim_load(&p, x, op_nn_index_copy(ctx, at, 3)));
  for (int r = 0; r < k; r++) {
    IrPrimExpr *sz = op_nn_f64(ctx, out->shape[2 + r]), *one = op_img_f64(ctx, 1.0);
    IrPrimExpr *start = align ? op_img_f64(ctx, -1.0)
                              : op_img_bin(ctx, IR_PE_ADD, op_img_f64(ctx, -1.0),
                                           op_img_bin(ctx, IR_PE_DIV, one, sz));
    IrPrimExpr *step = align ? op_img_bin(ctx, IR_PE_DIV, op_img_f64(ctx, 2.0 - 1e-7),
                                          op_img_bin(ctx, IR_PE_SUB, sz, one))
                             : op_img_bin(ctx, IR_PE_DIV, op_img_f64(ctx, 2.0), sz);
    IrPrimExpr *coord = op_img_bin(ctx, IR_PE_ADD, start,
                                   op_img_bin(ctx, IR_PE_MUL, op_nn_f64(ctx, o[2 + r]), step));
    at[2] = op_nn_index(ctx, k - 1 - r);
    IrPrimExpr *theta = op_nn_f64(ctx, op_prim_load(&p, x, op_nn_index_copy(ctx, at, 3)));
    v = op_img_bin(ctx, IR_PE_ADD, v, op_img_bin(ctx, IR_PE_MUL, theta, coord));
  }
  *slot = op_prim_store(&p, out, o, op_nn_to(ctx, out->dtype, v));
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* grid_sample                                                         */
/* ------------------------------------------------------------------ */

/* R.image.grid_sample(data, grid): data NCHW, grid (N, 2, Ho, Wo) of
 * normalized (x, y) in [-1, 1]; the result (N, C, Ho, Wo) samples data
 * at each grid point as TOPI's grid_sample: unnormalize (align_corners:
 * -1 and 1 are the corner pixels' centres, else their outer edges), then
 * padding_mode "border" clips the point into the image, "reflection"
 * reflects it off the edges (then clips), "zeros" reads 0 outside; then
 * bilinear, nearest (half to even) or bicubic (A = -0.75, the taps
 * clipped or reflected one by one).  A reflection off an image of extent
 * 1 with align_corners stays at 0 (TOPI divides by zero).  Layout NCDHW
 * with a grid (N, 3, Do, Ho, Wo) of (x, y, z) samples a volume: nearest,
 * or trilinear over the 8 corners in TOPI's order of terms. */
typedef enum { GS_BILINEAR, GS_NEAREST, GS_BICUBIC } GsMethod;
typedef enum { GS_ZEROS, GS_BORDER, GS_REFLECTION } GsPadding;

typedef struct {
  GsMethod method;
  GsPadding padding;
  bool align;
  int nsp; /* spatial axes: 2 (NCHW) or 3 (NCDHW) */
} GridSample;

static bool
parse_grid_sample(const OpSite *s, GridSample *g)
{
  static const char *const methods[] = {"bilinear", "nearest", "bicubic"};
  static const char *const paddings[] = {"zeros", "border", "reflection"};
  const char *method, *padding, *layout;
  if (!op_nn_attr_str(s, "method", "bilinear", &method) ||
      !op_nn_attr_str(s, "layout", "NCHW", &layout) ||
      !op_nn_attr_str(s, "padding_mode", "zeros", &padding) ||
      !op_nn_attr_bool(s, "align_corners", false, &g->align))
    return false;
  int m = op_img_find_str(method, methods, 3), pm = op_img_find_str(padding, paddings, 3);
  g->nsp = strcmp(layout, "NCDHW") == 0 ? 3 : 2;
  if (m < 0 || pm < 0 || (g->nsp == 2 && strcmp(layout, "NCHW") != 0))
    return op_fail(s, "unsupported %s \"%s\"%s",
                   m < 0    ? "method"
                   : pm < 0 ? "padding_mode"
                            : "layout",
                   m < 0    ? method
                   : pm < 0 ? padding
                            : layout,
                   m < 0 || pm < 0 ? "" : " (NCHW or NCDHW)");
  if (g->nsp == 3 && m == GS_BICUBIC)
    return op_fail(s, "method \"bicubic\" is 2-D only (NCHW)");
  g->method = (GsMethod)m, g->padding = (GsPadding)pm;
  return true;
}

IrSInfo *
op_img_infer_grid_sample(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  GridSample g;
  IrSInfo *x, *grid;
  if (!parse_grid_sample(s, &g) || !op_nn_tensor_arg(in, s, args, 0, "data", &x) ||
      !op_nn_tensor_arg(in, s, args, 1, "grid", &grid))
    return NULL;
  int rank = g.nsp + 2;
  if ((op_nn_ndim(x) >= 0 && op_nn_ndim(x) != rank) ||
      (op_nn_ndim(grid) >= 0 && op_nn_ndim(grid) != rank)) {
    return op_fail_null(s, "data and grid must be %d-D for the layout", rank);
  }
  IrPrimExpr **xd = op_nn_shape(x), **gd = op_nn_shape(grid);
  if (gd && op_assume_equal(in, gd[1], op_nn_int(in->ctx, g.nsp)) == IR_PROVE_FALSE)
    return op_fail_null(s, "grid must have shape (batch, %d, ...), not %s", g.nsp,
                        op_sinfo_text(in->ctx, grid));
  if (xd && gd && op_assume_equal(in, gd[0], xd[0]) == IR_PROVE_FALSE)
    return op_fail_null(s, "grid's batch %s differs from data's %s",
                        op_nn_expr_str(in->ctx, gd[0]), op_nn_expr_str(in->ctx, xd[0]));
  if (!xd || !gd)
    return ir_sinfo_tensor(in->ctx, NULL, rank, op_nn_dtype(x), op_nn_vdevice(x));
  IrPrimExpr **out = ir_alloc(in->ctx, sizeof *out * (size_t)rank);
  out[0] = xd[0], out[1] = xd[1];
  for (int d = 2; d < rank; d++)
    out[d] = gd[d];
  return ir_sinfo_tensor(in->ctx, out, rank, op_nn_dtype(x), op_nn_vdevice(x));
}

static double
gs_unnormalize(const GridSample *g, double v, double size)
{
  return g->align ? (v + 1) * (size - 1) / 2 : -0.5 + (v + 1) * size / 2;
}

static double
gs_clip(double v, double size)
{
  return fmin(fmax(v, 0.0), size - 1);
}

static double
gs_reflect(const GridSample *g, double v, double size)
{
  double span = g->align ? size - 1 : size, corner = g->align ? 0.0 : -0.5;
  if (v >= corner && v <= span + corner)
    return v;
  if (span <= 0)
    return corner;
  double dist = fabs(corner - v);
  double times = floor(floor(dist) / span);
  double extra = dist - times * span;
  return times - 2 * floor(times * 0.5) == 0 ? extra + corner : span - extra + corner;
}

/* A coordinate after the padding mode (bilinear and nearest). */
static double
gs_source(const GridSample *g, double v, double size)
{
  if (g->padding == GS_REFLECTION)
    return gs_clip(gs_reflect(g, v, size), size);
  return g->padding == GS_BORDER ? gs_clip(v, size) : v;
}

/* A bicubic tap's index after the padding mode. */
static double
gs_tap(const GridSample *g, double i, double size)
{
  if (g->padding == GS_REFLECTION)
    return trunc(gs_clip(gs_reflect(g, i, size), size));
  return g->padding == GS_BORDER ? trunc(gs_clip(i, size)) : i;
}

/* data[n, c, pos...] (whole numbers), 0 outside the image. */
static double
gs_pixel_at(const IrTensorData *x, int64_t n, int64_t c, const double *pos)
{
  int64_t off = n * x->shape[1] + c;
  for (int a = 0; a < x->ndim - 2; a++) {
    int64_t i = (int64_t)pos[a];
    if (i < 0 || i >= x->shape[2 + a])
      return 0.0;
    off = off * x->shape[2 + a] + i;
  }
  return op_get_f(x, off);
}

static double
gs_pixel(const IrTensorData *x, int64_t n, int64_t c, double y, double xx)
{
  double pos[2] = {y, xx};
  return gs_pixel_at(x, n, c, pos);
}

/* TOPI's trilinear terms: corner (dz, dy, dx) of each, in its order. */
static const int gs_corners[8][3] = {{0, 0, 0}, {0, 0, 1}, {1, 1, 0}, {1, 1, 1},
                                     {0, 1, 0}, {1, 0, 1}, {1, 0, 0}, {0, 1, 1}};

/* A 3-D sample at grid values g3 (z, y, x). */
static double
gs_point3(const GridSample *g, const IrTensorData *x, int64_t n, int64_t c, const double *g3)
{
  double p[3], f[3], d[3];
  for (int a = 0; a < 3; a++) {
    double size = (double)x->shape[2 + a];
    p[a] = gs_source(g, gs_unnormalize(g, g3[a], size), size);
  }
  if (g->method == GS_NEAREST) {
    for (int a = 0; a < 3; a++)
      p[a] = nearbyint(p[a]);
    return gs_pixel_at(x, n, c, p);
  }
  for (int a = 0; a < 3; a++)
    f[a] = floor(p[a]), d[a] = p[a] - f[a];
  double v = 0;
  for (int k = 0; k < 8; k++) {
    double at[3], w[3];
    for (int a = 0; a < 3; a++) {
      at[a] = f[a] + gs_corners[k][a];
      w[a] = gs_corners[k][a] ? d[a] : 1 - d[a];
    }
    double term = gs_pixel_at(x, n, c, at) * w[2] * w[1] * w[0];
    v = k ? v + term : term;
  }
  return v;
}

static void
gs_cubic_weights(double f, double *w)
{
  const double A = -0.75;
  double t[4] = {f + 1, f, 1 - f, 2 - f};
  for (int k = 0; k < 4; k++)
    w[k] = k == 1 || k == 2 ? ((A + 2) * t[k] - (A + 3)) * t[k] * t[k] + 1
                            : ((A * t[k] - 5 * A) * t[k] + 8 * A) * t[k] - 4 * A;
}

static double
gs_point(const GridSample *g, const IrTensorData *x, int64_t n, int64_t c, double gy, double gx)
{
  double H = (double)x->shape[2], W = (double)x->shape[3];
  double y = gs_unnormalize(g, gy, H), xx = gs_unnormalize(g, gx, W);
  if (g->method == GS_NEAREST)
    return gs_pixel(x, n, c, nearbyint(gs_source(g, y, H)), nearbyint(gs_source(g, xx, W)));
  if (g->method == GS_BILINEAR) {
    y = gs_source(g, y, H), xx = gs_source(g, xx, W);
    double y0 = floor(y), x0 = floor(xx), dy = y - y0, dx = xx - x0;
    return gs_pixel(x, n, c, y0, x0) * (1.0 - dy) * (1.0 - dx) +
           gs_pixel(x, n, c, y0, x0 + 1) * (1.0 - dy) * dx +
           gs_pixel(x, n, c, y0 + 1, x0) * dy * (1.0 - dx) +
           gs_pixel(x, n, c, y0 + 1, x0 + 1) * dy * dx;
  }
  double yf = floor(y), xf = floor(xx), wy[4], wx[4], col[4];
  gs_cubic_weights(y - yf, wy);
  gs_cubic_weights(xx - xf, wx);
  for (int i = 0; i < 4; i++) {
    double yi = gs_tap(g, yf - 1 + i, H), v = 0;
    for (int k = 0; k < 4; k++) {
      double term = gs_pixel(x, n, c, yi, gs_tap(g, xf - 1 + k, W)) * wx[k];
      v = k ? v + term : term;
    }
    col[i] = v;
  }
  return col[0] * wy[0] + col[1] * wy[1] + col[2] * wy[2] + col[3] * wy[3];
}

Value *
op_img_eval_grid_sample(OpEval *ev, const OpSite *s, Value **args)
{
  GridSample g;
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "data");
  const IrTensorData *grid = op_nn_tensor_value(s, args, 1, "grid");
  if (!x || !grid || !parse_grid_sample(s, &g))
    return NULL;
  int rank = g.nsp + 2;
  if (x->ndim != rank || grid->ndim != rank || grid->shape[1] != g.nsp ||
      grid->shape[0] != x->shape[0]) {
    return op_fail_null(s, "data must be (N, C, spatial...) and grid (N, %d, spatial...)", g.nsp);
  }
  int64_t shape[5] = {x->shape[0], x->shape[1]}, o[5], plane = 1;
  for (int d = 2; d < rank; d++)
    shape[d] = grid->shape[d], plane *= shape[d];
  Value *out = op_nn_tensor_new(s, x->dtype, rank, shape);
  if (!out)
    return NULL;
  for (int64_t i = 0, total = op_numel(&out->u.tensor.t); i < total; i++) {
    int64_t q = i, pos = 0;
    for (int d = rank - 1; d >= 0; d--)
      o[d] = q % shape[d], q /= shape[d];
    for (int d = 2; d < rank; d++)
      pos = pos * shape[d] + o[d];
    int64_t at = o[0] * g.nsp * plane + pos;
    double v, g3[3];
    if (g.nsp == 2) {
      v = gs_point(&g, x, o[0], o[1], op_get_f(grid, at + plane), op_get_f(grid, at));
    } else {
      for (int a = 0; a < 3; a++) /* the grid holds x, y, z */
        g3[a] = op_get_f(grid, at + (2 - a) * plane);
      v = gs_point3(&g, x, o[0], o[1], g3);
    }
    op_set_f(&out->u.tensor.t, i, v);
  }
  return out;
}

/* The lowering of grid_sample: gs_point() in TIR. */
typedef struct {
  OpPrim *p;
  IrCtx *ctx;
  const GridSample *g;
  IrBuffer *x;
  IrPrimExpr *n, *c;
  OpLets *l;
} GsTir;

static IrPrimExpr *
gs_clip_tir(IrCtx *ctx, IrPrimExpr *v, IrPrimExpr *size)
{
  return op_img_bin(ctx, IR_PE_MIN, op_img_bin(ctx, IR_PE_MAX, v, op_img_f64(ctx, 0.0)),
                    op_img_bin(ctx, IR_PE_SUB, size, op_img_f64(ctx, 1.0)));
}

static IrPrimExpr *
gs_reflect_tir(IrCtx *ctx, const GridSample *g, IrPrimExpr *v, IrPrimExpr *size)
{
  IrPrimExpr *span = g->align ? op_img_bin(ctx, IR_PE_SUB, size, op_img_f64(ctx, 1.0)) : size;
  IrPrimExpr *corner = op_img_f64(ctx, g->align ? 0.0 : -0.5);
  IrPrimExpr *inside =
      op_img_bin(ctx, IR_PE_AND, op_img_bin(ctx, IR_PE_GE, v, corner),
                 op_img_bin(ctx, IR_PE_LE, v, op_img_bin(ctx, IR_PE_ADD, span, corner)));
  IrPrimExpr *dist = op_img_intrin(ctx, "tir.fabs", op_img_bin(ctx, IR_PE_SUB, corner, v));
  IrPrimExpr *times = op_img_intrin(
      ctx, "tir.floor", op_img_bin(ctx, IR_PE_DIV, op_img_intrin(ctx, "tir.floor", dist), span));
  IrPrimExpr *extra = op_img_bin(ctx, IR_PE_SUB, dist, op_img_bin(ctx, IR_PE_MUL, times, span));
  IrPrimExpr *half =
      op_img_intrin(ctx, "tir.floor", op_img_bin(ctx, IR_PE_MUL, times, op_img_f64(ctx, 0.5)));
  IrPrimExpr *even = op_img_bin(
      ctx, IR_PE_EQ,
      op_img_bin(ctx, IR_PE_SUB, times, op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, 2.0), half)),
      op_img_f64(ctx, 0.0));
  IrPrimExpr *r =
      ir_prim_select(ctx, even, op_img_bin(ctx, IR_PE_ADD, extra, corner),
                     op_img_bin(ctx, IR_PE_ADD, op_img_bin(ctx, IR_PE_SUB, span, extra), corner));
  r = ir_prim_select(ctx, op_img_bin(ctx, IR_PE_LE, span, op_img_f64(ctx, 0.0)), corner, r);
  return ir_prim_select(ctx, inside, v, r);
}

static IrPrimExpr *
gs_source_tir(IrCtx *ctx, const GridSample *g, IrPrimExpr *v, IrPrimExpr *size)
{
  if (g->padding == GS_REFLECTION)
    return gs_clip_tir(ctx, gs_reflect_tir(ctx, g, v, size), size);
  return g->padding == GS_BORDER ? gs_clip_tir(ctx, v, size) : v;
}

static IrPrimExpr *
gs_tap_tir(IrCtx *ctx, const GridSample *g, IrPrimExpr *i, IrPrimExpr *size)
{
  if (g->padding == GS_REFLECTION)
    return op_img_intrin(ctx, "tir.trunc", gs_clip_tir(ctx, gs_reflect_tir(ctx, g, i, size), size));
  return g->padding == GS_BORDER ? op_img_intrin(ctx, "tir.trunc", gs_clip_tir(ctx, i, size)) : i;
}

/* gs_pixel_at() in TIR: pos float64 whole numbers; the load's indices
 * are clamped too, so it never leaves the buffer. */
static IrPrimExpr *
gs_pixel_at_tir(const GsTir *t, IrPrimExpr **pos)
{
  IrCtx *ctx = t->ctx;
  int nsp = t->x->ndim - 2;
  IrPrimExpr *zero = op_nn_index(ctx, 0), *one = op_nn_index(ctx, 1), *in = NULL, *at[5];
  at[0] = t->n, at[1] = t->c;
  for (int a = 0; a < nsp; a++) {
    IrPrimExpr *size = t->x->shape[2 + a], *i = op_nn_to(ctx, IR_I64, pos[a]);
    in = op_nn_and(
        ctx, in,
        op_nn_and(ctx, op_img_bin(ctx, IR_PE_GE, i, zero), op_img_bin(ctx, IR_PE_LT, i, size)));
    at[2 + a] =
        op_img_bin(ctx, IR_PE_MAX, op_img_bin(ctx, IR_PE_MIN, i, op_nn_sub(ctx, size, one)), zero);
  }
  IrPrimExpr *v = op_nn_f64(ctx, op_prim_load(t->p, t->x, op_nn_index_copy(ctx, at, nsp + 2)));
  IrPrimExpr *a[3] = {in, v, op_img_f64(ctx, 0.0)};
  return ir_prim_intrin(ctx, op_nn_f64_type(), "tir.if_then_else", op_nn_index_copy(ctx, a, 3), 3);
}

static IrPrimExpr *
gs_pixel_tir(const GsTir *t, IrPrimExpr *y, IrPrimExpr *x)
{
  IrPrimExpr *pos[2] = {y, x};
  return gs_pixel_at_tir(t, pos);
}

static void
gs_cubic_weights_tir(const GsTir *t, char axis, IrPrimExpr *f, IrPrimExpr **w)
{
  IrCtx *ctx = t->ctx;
  const double A = -0.75;
  IrPrimExpr *one = op_img_f64(ctx, 1.0);
  IrPrimExpr *tt[4] = {op_img_bin(ctx, IR_PE_ADD, f, one), f, op_img_bin(ctx, IR_PE_SUB, one, f),
                       op_img_bin(ctx, IR_PE_SUB, op_img_f64(ctx, 2.0), f)};
  for (int k = 0; k < 4; k++) {
    IrPrimExpr *v = tt[k], *e;
    if (k == 1 || k == 2) {
      e = op_img_bin(ctx, IR_PE_SUB, op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, A + 2), v),
                     op_img_f64(ctx, A + 3));
      e = op_img_bin(ctx, IR_PE_ADD,
                     op_img_bin(ctx, IR_PE_MUL, op_img_bin(ctx, IR_PE_MUL, e, v), v), one);
    } else {
      e = op_img_bin(ctx, IR_PE_SUB, op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, A), v),
                     op_img_f64(ctx, 5 * A));
      e = op_img_bin(ctx, IR_PE_ADD, op_img_bin(ctx, IR_PE_MUL, e, v), op_img_f64(ctx, 8 * A));
      e = op_img_bin(ctx, IR_PE_SUB, op_img_bin(ctx, IR_PE_MUL, e, v), op_img_f64(ctx, 4 * A));
    }
    w[k] = op_let_axis(t->l, "w", axis, k, e);
  }
}

static IrPrimExpr *
gs_point_tir(const GsTir *t, IrPrimExpr *gy, IrPrimExpr *gx)
{
  IrCtx *ctx = t->ctx;
  const GridSample *g = t->g;
  IrPrimExpr *H = op_nn_f64(ctx, t->x->shape[2]), *W = op_nn_f64(ctx, t->x->shape[3]);
  IrPrimExpr *pos[2] = {gy, gx}, *size[2] = {H, W}, *one = op_img_f64(ctx, 1.0);
  for (int a = 0; a < 2; a++) {
    IrPrimExpr *v1 = op_img_bin(ctx, IR_PE_ADD, pos[a], one);
    IrPrimExpr *u =
        g->align
            ? op_img_bin(ctx, IR_PE_DIV,
                         op_img_bin(ctx, IR_PE_MUL, v1, op_img_bin(ctx, IR_PE_SUB, size[a], one)),
                         op_img_f64(ctx, 2.0))
            : op_img_bin(ctx, IR_PE_ADD, op_img_f64(ctx, -0.5),
                         op_img_bin(ctx, IR_PE_DIV, op_img_bin(ctx, IR_PE_MUL, v1, size[a]),
                                    op_img_f64(ctx, 2.0)));
    if (g->method != GS_BICUBIC)
      u = gs_source_tir(ctx, g, u, size[a]);
    pos[a] = op_let_axis(t->l, "c", "yx"[a], -1, u);
  }
  if (g->method == GS_NEAREST)
    return gs_pixel_tir(t, op_img_intrin(ctx, "tir.nearbyint", pos[0]),
                        op_img_intrin(ctx, "tir.nearbyint", pos[1]));
  IrPrimExpr *fl[2], *fr[2];
  for (int a = 0; a < 2; a++) {
    fl[a] = op_let_axis(t->l, "f", "yx"[a], -1, op_img_intrin(ctx, "tir.floor", pos[a]));
    fr[a] = op_let_axis(t->l, "d", "yx"[a], -1, op_img_bin(ctx, IR_PE_SUB, pos[a], fl[a]));
  }
  if (g->method == GS_BILINEAR) {
    IrPrimExpr *y1 = op_img_bin(ctx, IR_PE_ADD, fl[0], one),
               *x1 = op_img_bin(ctx, IR_PE_ADD, fl[1], one);
    IrPrimExpr *ny = op_img_bin(ctx, IR_PE_SUB, one, fr[0]),
               *nx = op_img_bin(ctx, IR_PE_SUB, one, fr[1]);
    IrPrimExpr *ys[4] = {fl[0], fl[0], y1, y1}, *xs[4] = {fl[1], x1, fl[1], x1};
    IrPrimExpr *wy[4] = {ny, ny, fr[0], fr[0]}, *wx[4] = {nx, fr[1], nx, fr[1]}, *v = NULL;
    for (int k = 0; k < 4; k++) {
      IrPrimExpr *term = op_img_bin(
          ctx, IR_PE_MUL, op_img_bin(ctx, IR_PE_MUL, gs_pixel_tir(t, ys[k], xs[k]), wy[k]), wx[k]);
      v = v ? op_img_bin(ctx, IR_PE_ADD, v, term) : term;
    }
    return v;
  }
  IrPrimExpr *wy[4], *wx[4], *xs[4], *v = NULL;
  gs_cubic_weights_tir(t, 'y', fr[0], wy);
  gs_cubic_weights_tir(t, 'x', fr[1], wx);
  for (int k = 0; k < 4; k++)
    xs[k] = op_let_axis(
        t->l, "i", 'x', k,
        gs_tap_tir(ctx, g, op_img_bin(ctx, IR_PE_ADD, fl[1], op_img_f64(ctx, k - 1)), W));
  for (int i = 0; i < 4; i++) {
    IrPrimExpr *yi = op_let_axis(
        t->l, "i", 'y', i,
        gs_tap_tir(ctx, g, op_img_bin(ctx, IR_PE_ADD, fl[0], op_img_f64(ctx, i - 1)), H));
    IrPrimExpr *col = NULL;
    for (int k = 0; k < 4; k++) {
      IrPrimExpr *term = op_img_bin(ctx, IR_PE_MUL, gs_pixel_tir(t, yi, xs[k]), wx[k]);
      col = col ? op_img_bin(ctx, IR_PE_ADD, col, term) : term;
    }
    IrPrimExpr *term = op_img_bin(ctx, IR_PE_MUL, col, wy[i]);
    v = v ? op_img_bin(ctx, IR_PE_ADD, v, term) : term;
  }
  return v;
}

/* gs_point3() in TIR; g3 the grid's (z, y, x). */
static IrPrimExpr *
gs_point3_tir(const GsTir *t, IrPrimExpr **g3)
{
  IrCtx *ctx = t->ctx;
  const GridSample *g = t->g;
  IrPrimExpr *p[3], *f[3], *d[3], *nd[3], *one = op_img_f64(ctx, 1.0), *two = op_img_f64(ctx, 2.0);
  for (int a = 0; a < 3; a++) {
    IrPrimExpr *size = op_nn_f64(ctx, t->x->shape[2 + a]);
    IrPrimExpr *v1 = op_img_bin(ctx, IR_PE_ADD, g3[a], one);
    IrPrimExpr *u =
        g->align
            ? op_img_bin(ctx, IR_PE_DIV,
                         op_img_bin(ctx, IR_PE_MUL, v1, op_img_bin(ctx, IR_PE_SUB, size, one)), two)
            : op_img_bin(ctx, IR_PE_ADD, op_img_f64(ctx, -0.5),
                         op_img_bin(ctx, IR_PE_DIV, op_img_bin(ctx, IR_PE_MUL, v1, size), two));
    p[a] = op_let_axis(t->l, "c", "zyx"[a], -1, gs_source_tir(ctx, g, u, size));
  }
  if (g->method == GS_NEAREST) {
    IrPrimExpr *r[3];
    for (int a = 0; a < 3; a++)
      r[a] = op_img_intrin(ctx, "tir.nearbyint", p[a]);
    return gs_pixel_at_tir(t, r);
  }
  for (int a = 0; a < 3; a++) {
    f[a] = op_let_axis(t->l, "f", "zyx"[a], -1, op_img_intrin(ctx, "tir.floor", p[a]));
    d[a] = op_let_axis(t->l, "d", "zyx"[a], -1, op_img_bin(ctx, IR_PE_SUB, p[a], f[a]));
    nd[a] = op_img_bin(ctx, IR_PE_SUB, one, d[a]);
  }
  IrPrimExpr *v = NULL;
  for (int k = 0; k < 8; k++) {
    IrPrimExpr *at[3], *w[3];
    for (int a = 0; a < 3; a++) {
      at[a] = gs_corners[k][a] ? op_img_bin(ctx, IR_PE_ADD, f[a], one) : f[a];
      w[a] = gs_corners[k][a] ? d[a] : nd[a];
    }
    IrPrimExpr *term = op_img_bin(
        ctx, IR_PE_MUL,
        op_img_bin(ctx, IR_PE_MUL, op_img_bin(ctx, IR_PE_MUL, gs_pixel_at_tir(t, at), w[2]), w[1]),
        w[0]);
    v = v ? op_img_bin(ctx, IR_PE_ADD, v, term) : term;
  }
  return v;
}

IrExpr *
op_img_legalize_grid_sample(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  GridSample g;
  OpPrim p;
  IrBuffer *x, *grid, *out;
  if (!parse_grid_sample(s, &g) ||
      !op_prim_open(lz, &p, "grid_sample", s->call, result,
                    (OpPrimParam[]){{"data", &x}, {"grid", &grid}, {"grid_sample", &out}}, 3))
    return NULL;
  int rank = g.nsp + 2;
  if (x->ndim != rank || grid->ndim != rank || out->ndim != rank)
    return op_prim_give_up(&p);
  IrPrimExpr **o;
  IrStmt **slot = op_prim_loops(&p, out->shape, rank, &o);
  OpLets l = {ctx, {0}, {0}, 0};
  GsTir t = {&p, ctx, &g, x, o[0], o[1], &l};
  IrPrimExpr *gv[3], *at[5];
  for (int d = 0; d < rank; d++)
    at[d] = o[d];
  for (int a = 0; a < g.nsp; a++) { /* the grid holds x, y(, z): gv is outermost first */
    at[1] = op_nn_index(ctx, g.nsp - 1 - a);
    gv[a] = op_nn_f64(ctx, op_prim_load(&p, grid, op_nn_index_copy(ctx, at, rank)));
  }
  IrPrimExpr *v = g.nsp == 2 ? gs_point_tir(&t, gv[0], gv[1]) : gs_point3_tir(&t, gv);
  *slot = op_lets_wrap(&l, op_prim_store(&p, out, o, op_nn_to(ctx, out->dtype, v)), lz->loc);
  return op_prim_finish(&p, s->call, result);
}
