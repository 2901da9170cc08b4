/*
 * conv_dw.c - the fast path of a depthwise conv2d (groups equal to
 * the input channels, one filter per channel, each channel's filter used
 * by mult output channels: out channel c * mult + j reads input channel
 * c), float32 or integer (int8 x int8 -> int32: op_nn_tile_type).
 *
 * Key idea: no guard and no accumulator in the loop that matters.  Each
 * input plane is first copied into a zeroed scratch plane that holds the
 * padding, split into the strides' phases: phase (rp, cp) holds padded
 * rows rp, rp + sh, rp + 2 sh, ... and of them columns cp, cp + sw, ...
 * A window tap (ky, kx) of output element (y, z) reads padded row
 * y * sh + ky * dh, column z * sw + kx * dw: in phase ((ky * dh) % sh,
 * (kx * dw) % sw) that is row y + (ky * dh) / sh, column z + (kx * dw) / sw,
 * unit stride in z for any stride and dilation.  Each output element is
 * one expression, the sum of the KH * KW taps (float32, as TVM's
 * legalized conv sums), stored into the output by one perfect nest over
 * (y, z) a plane, where a fused bias and activation join the store
 * (opt/fuse_tir_inline.c): nothing but loads, FMAs, the epilogue and a
 * store, so gcc -O3 vectorizes the row (the NaN-propagating clip too),
 * and under libtcc the row kernel runs the whole plane, sums and
 * epilogue, as one call (codegen/gen_row.c) rather than two a row.
 * Short rows go flat: as the rows of a phase lie cols apart, one loop
 * over y * cols + z computes all rows of a plane into a row buffer
 * (compute_plane), then a nest stores them: a vector loop over rows of
 * 7 or 14 would be mostly remainder, and the row kernel runs a long
 * contiguous row faster than a nest of short ones (measured).  In the C
 * for gcc and clang the row buffer's sums are then packed row after row
 * (Dw.dense) before that nest, whose reads and writes then run in order:
 * gen_row.c writes it as one loop over the plane, and the fused
 * epilogue (efficientnet_b0's SiLU: an exp an element) runs in whole
 * vectors instead of a row of 14 split into 8 + 4 + 2 lanes, the last
 * ones scalar (efficientnet_b0 15.0 -> 12.5 ms).
 * Without padding, with column stride 1 and long rows, the taps read the
 * input itself and there is no copy.
 *
 * The plane is zeroed once per call; the copies of later channels write
 * only its interior, so its padding stays zero.
 */
#include "conv_int.h"

enum {
  DW_MAX_TAPS = 64,  /* larger windows take the generic lowering */
  DW_FLAT_WIDTH = 32, /* output rows shorter than this go flat */
  DW_DENSE_LANES = 16 /* flat rows not a multiple of this are packed (Dw.dense) */
};

typedef struct {
  const Window *w;
  BufView x, k, out;
  int64_t h, wd;        /* input rows, columns */
  int64_t oh, ow;       /* output rows, columns */
  int64_t kh, kw, mult; /* window; output channels per input channel */
  int64_t rows, cols;   /* rows and columns of one phase of the plane */
  IrBuffer *plane;      /* the padded, phase-split scratch plane, or NULL */
  IrBuffer *row;        /* flat: the sums of all rows; else NULL */
  IrBuffer *dense;      /* flat, in the C for gcc: row's sums oh x ow; else NULL */
  bool flat;            /* rows computed as one run over the plane */
  IrDType sum;          /* the sums' dtype (op_nn_tile_type), row's */
} Dw;

/* The flat index of element (i, j) of phase (rp, cp) of the plane: padded
 * row i * sh + rp, column j * sw + cp.  Phases are the outer dims, so a
 * phase is a plane of its own, rows cols apart. */
static IrPrimExpr *
plane_at(IrCtx *ctx, const Dw *d, int64_t rp, int64_t cp, IrPrimExpr *i, IrPrimExpr *j)
{
  int64_t phase = (rp * d->w->stride[1] + cp) * d->rows;
  IrPrimExpr *line = op_nn_add(ctx, op_nn_index(ctx, phase), i);
  return op_nn_add(ctx, op_nn_mul(ctx, line, op_nn_index(ctx, d->cols)), j);
}

static IrStmt *
store_plane(OpPrim *p, const Dw *d, IrPrimExpr *at, IrPrimExpr *v)
{
  return op_prim_store_at(p, d->plane, at, v);
}

/* "for i in range(size): plane[i] = 0", appended to the body. */
static void
zero_plane(OpPrim *p, const Dw *d, int64_t size)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *ext = op_nn_index(ctx, size), **i;
  IrStmt **slot = op_prim_loops(p, &ext, 1, &i);
  *slot = store_plane(p, d, i[0], op_nn_lit(ctx, d->plane->dtype, 0.0));
}

/* The indices k of a phase r of stride s whose padded position k * s + r
 * falls inside an input of n (padding pad before it): [*lo, *hi). */
static void
phase_range(int64_t n, int64_t pad, int64_t s, int64_t r, int64_t *lo, int64_t *hi)
{
  *lo = pad - r > 0 ? (pad - r + s - 1) / s : 0;
  *hi = r - pad > n - 1 ? 0 : (n - 1 + pad - r) / s + 1;
}

/* The copy of input plane (n, c) into the interior of the scratch plane:
 * one loop nest per phase over its rows and columns that fall inside the
 * input.  NULL when no phase holds any. */
static IrStmt *
copy_plane(OpPrim *p, const Dw *d, IrPrimExpr *n, IrPrimExpr *c)
{
  IrCtx *ctx = p->lz->ctx;
  const Window *w = d->w;
  int64_t sh = w->stride[0], sw = w->stride[1];
  IrStmt **st = ir_alloc(ctx, sizeof *st * (size_t)(sh * sw));
  int nst = 0;
  for (int64_t rp = 0; rp < sh; rp++)
    for (int64_t cp = 0; cp < sw; cp++) {
      int64_t ilo, ihi, jlo, jhi;
      phase_range(d->h, w->pad[0], sh, rp, &ilo, &ihi);
      phase_range(d->wd, w->pad[1], sw, cp, &jlo, &jhi);
      if (ihi <= ilo || jhi <= jlo)
        continue;
      IrPrimExpr *ext[2] = {op_nn_index(ctx, ihi - ilo), op_nn_index(ctx, jhi - jlo)}, **v;
      IrStmt **slot = op_prim_loop_nest(p, ext, 2, &v, &st[nst++]);
      IrPrimExpr *i = op_nn_add(ctx, v[0], op_nn_index(ctx, ilo));
      IrPrimExpr *j = op_nn_add(ctx, v[1], op_nn_index(ctx, jlo));
      IrPrimExpr *iy =
          op_nn_add(ctx, op_nn_mul(ctx, i, op_nn_index(ctx, sh)), op_nn_index(ctx, rp - w->pad[0]));
      IrPrimExpr *ix =
          op_nn_add(ctx, op_nn_mul(ctx, j, op_nn_index(ctx, sw)), op_nn_index(ctx, cp - w->pad[1]));
      *slot = store_plane(p, d, plane_at(ctx, d, rp, cp, i, j),
                          op_conv_load_raw(p, &d->x, n, c, iy, ix));
    }
  return nst ? op_nn_seq(p, st, nst) : NULL;
}

/* Tap (ky, kx) of output element (y, z) of input plane (n, c): the
 * scratch plane's phase, or the input itself when there is no plane. */
static IrPrimExpr *
tap(OpPrim *p, const Dw *d, IrPrimExpr *n, IrPrimExpr *c, IrPrimExpr *y, IrPrimExpr *z, int64_t ky,
    int64_t kx)
{
  IrCtx *ctx = p->lz->ctx;
  const Window *w = d->w;
  int64_t dy = ky * w->dilation[0], dx = kx * w->dilation[1];
  if (!d->plane) {
    IrPrimExpr *row =
        op_nn_add(ctx, op_nn_mul(ctx, y, op_nn_index(ctx, w->stride[0])), op_nn_index(ctx, dy));
    return op_conv_load_raw(p, &d->x, n, c, row, op_nn_add(ctx, z, op_nn_index(ctx, dx)));
  }
  return op_prim_load_at(p, d->plane,
                         plane_at(ctx, d, dy % w->stride[0], dx % w->stride[1],
                                  op_nn_add(ctx, y, op_nn_index(ctx, dy / w->stride[0])),
                                  op_nn_add(ctx, z, op_nn_index(ctx, dx / w->stride[1]))));
}

/* The sum over the window of tap * weight (in d->sum) for output element
 * (y, z) of output channel o from input plane (n, c). */
static IrPrimExpr *
window_sum(OpPrim *p, const Dw *d, IrPrimExpr *n, IrPrimExpr *c, IrPrimExpr *o, IrPrimExpr *y,
           IrPrimExpr *z)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *sum = NULL, *zero = op_nn_index(ctx, 0);
  for (int64_t ky = 0; ky < d->kh; ky++)
    for (int64_t kx = 0; kx < d->kw; kx++) {
      IrPrimExpr *weight =
          op_conv_load_raw(p, &d->k, o, zero, op_nn_index(ctx, ky), op_nn_index(ctx, kx));
      IrPrimExpr *term = op_nn_product(ctx, d->sum, tap(p, d, n, c, y, z, ky, kx), weight);
      sum = sum ? op_nn_sum_add(ctx, d->sum, sum, term) : term;
    }
  return sum;
}

/* "out[n, o, y, z] = v", the store a fused epilogue joins. */
static IrStmt *
store_out(OpPrim *p, const Dw *d, IrPrimExpr *n, IrPrimExpr *o, IrPrimExpr *const *yz,
          IrPrimExpr *v)
{
  IrPrimExpr *at[4] = {n, o, yz[0], yz[1]};
  return op_prim_store(p, d->out.b, op_conv_index(p, &d->out, at),
                       op_nn_to(p->lz->ctx, d->out.b->dtype, v));
}

/* The output of channel o from input plane (n, c).  Long rows: one
 * perfect nest over (y, z) storing each element's sum into the output,
 * where the fused epilogue joins, so that the row kernel runs the whole
 * plane, sums and epilogue, as one call.  Flat (short rows): a phase's
 * rows are cols wide, so element (y, z) of the output reads the plane at
 * y * cols + z plus the tap's offset; one loop over that flat index
 * computes every row at once into the row buffer (the cols - ow sums
 * between rows are never stored), then a nest stores the rows. */
static IrStmt *
compute_plane(OpPrim *p, const Dw *d, IrPrimExpr *n, IrPrimExpr *c, IrPrimExpr *o)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *ext[2] = {op_nn_index(ctx, d->oh), op_nn_index(ctx, d->ow)}, **v, **z;
  IrStmt *st[2], **body;
  if (!d->flat) {
    body = op_prim_loop_nest(p, ext, 2, &v, &st[0]);
    *body = store_out(p, d, n, o, v, window_sum(p, d, n, c, o, v[0], v[1]));
    return st[0];
  }
  IrPrimExpr *span = op_nn_index(ctx, (d->oh - 1) * d->cols + d->ow);
  body = op_prim_loop_nest(p, &span, 1, &z, &st[0]);
  *body = op_prim_store(p, d->row, z, window_sum(p, d, n, c, o, op_nn_index(ctx, 0), z[0]));
  body = op_prim_loop_nest(p, ext, 2, &v, &st[1]);
  IrPrimExpr *base = op_nn_mul(ctx, v[0], op_nn_index(ctx, d->cols));
  IrPrimExpr *sum = op_prim_load_at(p, d->row, op_nn_add(ctx, base, v[1]));
  if (!d->dense) {
    *body = store_out(p, d, n, o, v, sum);
    return op_nn_seq(p, st, 2);
  }
  /* the sums packed row after row, then the store reads them in order:
   * a nest gen_row.c writes as one loop over the plane, the epilogue
   * included */
  IrStmt *three[3] = {st[0], st[1], NULL};
  IrPrimExpr *at = op_nn_add(ctx, op_nn_mul(ctx, v[0], op_nn_index(ctx, d->ow)), v[1]);
  *body = op_prim_store_at(p, d->dense, at, sum);
  body = op_prim_loop_nest(p, ext, 2, &v, &three[2]);
  at = op_nn_add(ctx, op_nn_mul(ctx, v[0], op_nn_index(ctx, d->ow)), v[1]);
  *body = store_out(p, d, n, o, v, op_prim_load_at(p, d->dense, at));
  return op_nn_seq(p, three, 3);
}

/* For each image n and input channel c: the copy (when there is a plane),
 * then the mult output channels it feeds. */
static void
emit_channels(OpPrim *p, const Dw *d, IrPrimExpr *channels)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *ext[2] = {op_conv_dim(&d->x, 0), channels}, **v;
  IrStmt **slot = op_prim_loops(p, ext, 2, &v);
  IrStmt *st[2];
  int nst = 0;
  if (d->plane && (st[nst] = copy_plane(p, d, v[0], v[1])))
    nst++;
  IrPrimExpr *o = v[1];
  IrStmt **inner = &st[nst++];
  if (d->mult > 1) {
    IrPrimExpr *mext = op_nn_index(ctx, d->mult), **j;
    inner = op_prim_loop_nest(p, &mext, 1, &j, inner);
    o = op_nn_add(ctx, op_nn_mul(ctx, v[1], mext), j[0]);
  }
  *inner = compute_plane(p, d, v[0], v[1], o);
  *slot = op_nn_seq(p, st, nst);
}

static bool
is_nchw(const Layout *l)
{
  for (int k = 0; k < 4; k++)
    if (l->pos[k] != k)
      return false;
  return true;
}

/* Static extents of the call, or false when one is symbolic or the call
 * is not a float32 or integer NCHW depthwise conv2d this path takes. */
static bool
dw_fits(const Window *w, BufView *x, BufView *k, BufView *out, Dw *d, int64_t *c)
{
  int64_t ci, o;
  d->sum = op_nn_tile_type(x->b->dtype, k->b->dtype, out->b->dtype);
  if (d->sum.code == IR_DT_VOID || !is_nchw(x->l) ||
      !is_nchw(out->l) || w->groups < 1 || !ir_prim_is_int(op_conv_dim(x, 1), c) ||
      *c != w->groups || !ir_prim_is_int(op_conv_dim(k, 1), &ci) || ci != 1 ||
      !ir_prim_is_int(op_conv_dim(k, 0), &o) || !ir_prim_is_int(op_conv_dim(x, 2), &d->h) ||
      !ir_prim_is_int(op_conv_dim(x, 3), &d->wd) || !ir_prim_is_int(op_conv_dim(out, 2), &d->oh) ||
      !ir_prim_is_int(op_conv_dim(out, 3), &d->ow) || !ir_prim_is_int(op_conv_dim(k, 2), &d->kh) ||
      !ir_prim_is_int(op_conv_dim(k, 3), &d->kw))
    return false;
  d->mult = o / *c;
  return o % *c == 0 && d->mult >= 1 && d->oh >= 1 && d->ow >= 1 && d->kh >= 1 && d->kw >= 1 &&
         d->kh * d->kw <= DW_MAX_TAPS && w->stride[0] >= 1 && w->stride[1] >= 1;
}

/* n elements of dtype t rounded up to whole 64-byte units. */
static int64_t
whole_units(int64_t n, IrDType t)
{
  int64_t per = t.bits < 8 ? 64 : 64 / (t.bits / 8);
  return (n + per - 1) / per * per;
}

/* Emits the fast path and returns true, or returns false (nothing
 * emitted) when the call does not fit it: float32 or integer, NCHW data
 * and output, groups equal to the input channels, static channels,
 * spatial extents and window, at most DW_MAX_TAPS taps. */
bool
op_conv_depthwise(OpPrim *p, const Window *w, BufView *x, BufView *k, BufView *out)
{
  Dw d = {.w = w, .x = *x, .k = *k, .out = *out};
  int64_t c;
  if (!dw_fits(w, x, k, out, &d, &c))
    return false;
  IrCtx *ctx = p->lz->ctx;
  bool padded = w->pad[0] || w->pad[1] || w->pad[2] || w->pad[3];
  d.flat = d.oh > 1 && d.ow < DW_FLAT_WIDTH;
  if (padded || w->stride[1] > 1 || d.flat) {
    int64_t sh = w->stride[0], sw = w->stride[1];
    d.rows = (d.h + w->pad[0] + w->pad[2] + sh - 1) / sh;
    d.cols = (d.wd + w->pad[1] + w->pad[3] + sw - 1) / sw;
    /* whole 64-byte units, as the arena places buffers: so the arena
     * stays at the planner's lower bound */
    IrPrimExpr *size = op_nn_index(ctx, whole_units(sh * sw * d.rows * d.cols, x->b->dtype));
    d.plane = op_prim_alloc(p, x->b->dtype, &size, 1, "plane");
    zero_plane(p, &d, sh * sw * d.rows * d.cols);
  }
  if (d.flat) {
    IrPrimExpr *sums = op_nn_index(ctx, whole_units((d.oh - 1) * d.cols + d.ow, d.sum));
    d.row = op_prim_alloc(p, d.sum, &sums, 1, "row");
    if (p->lz->kernels != OP_KERNELS_TCC && d.ow % DW_DENSE_LANES != 0) {
      IrPrimExpr *dense = op_nn_index(ctx, whole_units(d.oh * d.ow, d.sum));
      d.dense = op_prim_alloc(p, d.sum, &dense, 1, "dense");
    }
  }
  emit_channels(p, &d, op_nn_index(ctx, c));
  return true;
}
