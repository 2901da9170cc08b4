/*
 * conv_gemm.c - the fast path of conv2d (float32, or integer operands:
 * int8 x int8 -> int32) with groups 1, or grouped with several input
 * channels a group: products of matrices through gemm.c's register
 * tiles, over a packed panel of the input.
 *
 * Key idea: a convolution is the product
 *   out[n, o, p] = sum over t of weight[o, t] * cols[t, p]
 * of the weights seen as a matrix [O, K] (K = I * KH * KW, t = (ci, ky, kx))
 * and the input's window columns cols[K, P] (P = OH * OW output positions,
 * each a column).  gemm.c's tiles want the columns contiguous and many, so
 * the output plane is cut into bands of R whole output rows, and for each
 * band the columns are first copied into a panel [K, R * OW] (arena scratch,
 * zero where the window reads padding):
 *
 *   for n, band:
 *     panel[t, r * OW + z] = data[n, ci, iy, ix]  (0 outside the input)
 *     out[n, o, band * R + r, z] = sum over t of weight[o, t] * panel[t, r * OW + z]
 *
 * In the C for libtcc (OP_KERNELS_TCC) a float32 conv of stride 1 takes
 * conv_direct.c's products instead, which read the padded input in place,
 * and the others' band panel is one call of rt/'s im2col kernel
 * (rxc_k_im2col_f32 and its integer twins: panel_im2col), which writes
 * the padding's zeros itself; elsewhere the copy is loops (pack_panel),
 * which gcc specializes.
 * So the tile's inner loop is unit stride over R * OW columns whatever the
 * stride, padding or window, and a short output row (7, 14, 28) no longer
 * leaves a tile's lanes empty.  Copying costs K * P against O * K * P
 * multiply-adds.  R divides OH (no band is partial, no store guarded) and
 * is chosen to need the fewest tiles (16 columns of float32, 64 of int8), the panel staying within
 * PANEL_BYTES when it can.  When a band's panel of all of K would pass
 * PANEL_BYTES, K is cut by input channels into chunks, whose sums go
 * through a scratch part [O, R * OW]: chunk 0's tiles store part, each
 * later chunk adds into all of part in place (one call of the kernel
 * with [opt] kernels: op_nn_gemm_into), and the last stores the output
 * from part.  Where narrower bands would hold all of K, panel_rows
 * weighs the weights they read again against part's traffic, and takes
 * them when that moves fewer elements.  A constant OIHW weight is handed to the kernel
 * as the matrix [O, K] it is (the same bytes), so a term reads
 * weight[o, t] without splitting t.
 *
 * Groups: a conv of G groups is G convs of groups 1, group g reading the
 * input channels g * I .. of the data (I = the weight's input channels,
 * those of a group) and writing output channels g * O/G .., whose weights
 * are rows g * O/G .. of the same matrix [O, K] (K = I * KH * KW counts a
 * group's terms).  So a group loop inside each band offsets the channels
 * the panel copies, the weight rows and the output channels, and
 * everything else (bands, panels, chunks, tiles) is the schedule above,
 * over a product of O/G rows.  Depthwise convs (one input channel a
 * group) stay conv_dw.c's.
 */
#include "conv_int.h"

enum {
  PANEL_BYTES = 512 * 1024,  /* a panel (or a band of input) kept in cache */
  SMALL_WEIGHTS = 256 * 1024 /* weights read again per band at little cost */
};

typedef struct {
  BufView x, out;
  IrBuffer *panel, *weight; /* weight: [O, K], or NULL: read through k */
  BufView k;
  IrBuffer *part;           /* [O/G, width] sums of the chunks so far, or NULL */
  IrPrimExpr *n, *band;     /* loop vars: image, band of output rows */
  IrPrimExpr *group;        /* the group (loop var; literal 0 for groups 1) */
  int64_t ci, og;           /* input, output channels of a group */
  IrPrimExpr *chunk;        /* the chunk of input channels (var or literal) */
  bool last;                /* the last chunk: stores the output */
  int64_t kh, kw, ow, rows; /* rows: output rows of a band (R) */
  int64_t cc;               /* input channels of a chunk */
  int64_t cols, width;      /* R * OW; that rounded up to whole tiles */
  IrDType sum;              /* the tiles' sums (op_nn_tile_type), part's dtype */
  int64_t tile;             /* gemm.c's tile width (op_nn_gemm_cols) */
} ConvGemm;

/* Term t of the chunk as a term of the whole sum: chunk * cc * KH * KW + t. */
static IrPrimExpr *
whole_term(IrCtx *ctx, const ConvGemm *e, IrPrimExpr *t)
{
  return op_nn_add(ctx, op_nn_mul(ctx, e->chunk, op_nn_index(ctx, e->cc * e->kh * e->kw)), t);
}

/* Input channel c of the chunk as a channel of the input. */
static IrPrimExpr *
whole_channel(IrCtx *ctx, const ConvGemm *e, IrPrimExpr *c)
{
  return op_nn_add(ctx, op_nn_mul(ctx, e->group, op_nn_index(ctx, e->ci)),
                   op_nn_add(ctx, op_nn_mul(ctx, e->chunk, op_nn_index(ctx, e->cc)), c));
}

/* Row o of the group's product as an output channel (a weight row). */
static IrPrimExpr *
whole_row(IrCtx *ctx, const ConvGemm *e, IrPrimExpr *o)
{
  return op_nn_add(ctx, op_nn_mul(ctx, e->group, op_nn_index(ctx, e->og)), o);
}

static bool
is_zero(const IrPrimExpr *e)
{
  int64_t v;
  return ir_prim_is_int(e, &v) && v == 0;
}

static IrPrimExpr **
pair(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b)
{
  IrPrimExpr **idx = ir_alloc(ctx, sizeof *idx * 2);
  idx[0] = a;
  idx[1] = b;
  return idx;
}

/* Term t as (ci, ky, kx) in r. */
static void
conv_term(IrCtx *ctx, const ConvGemm *e, IrPrimExpr *t, IrPrimExpr **r)
{
  IrPrimExpr *area = op_nn_index(ctx, e->kh * e->kw), *kw = op_nn_index(ctx, e->kw);
  IrPrimExpr *zero = op_nn_index(ctx, 0);
  r[0] = e->kh * e->kw == 1 ? t : op_nn_floordiv(ctx, t, area);
  IrPrimExpr *in_window = e->kh * e->kw == 1 ? zero : ir_prim_bin(ctx, IR_PE_FLOORMOD, t, area);
  r[1] = e->kw == 1 ? in_window : op_nn_floordiv(ctx, in_window, kw);
  r[2] = e->kw == 1 ? zero : ir_prim_bin(ctx, IR_PE_FLOORMOD, in_window, kw);
}

static IrPrimExpr *
conv_load_a(OpPrim *p, void *env, IrPrimExpr *row, IrPrimExpr *t)
{
  ConvGemm *e = env;
  t = whole_term(p->lz->ctx, e, t);
  row = whole_row(p->lz->ctx, e, row);
  if (e->weight)
    return op_prim_load(p, e->weight, pair(p->lz->ctx, row, t));
  IrPrimExpr *r[3];
  conv_term(p->lz->ctx, e, t, r);
  return op_conv_load_raw(p, &e->k, row, r[0], r[1], r[2]);
}

/* Output row and column of panel column col. */
static void conv_place(IrCtx *ctx, const ConvGemm *e, IrPrimExpr *col, IrPrimExpr **y,
                       IrPrimExpr **z);

static IrPrimExpr *
conv_load_b(OpPrim *p, void *env, IrPrimExpr *t, IrPrimExpr *col)
{
  ConvGemm *e = env;
  if (!e->panel) {
    /* a pointwise conv reads the input's rows where they lie */
    IrPrimExpr *y, *z;
    conv_place(p->lz->ctx, e, col, &y, &z);
    return op_conv_load_raw(p, &e->x, e->n, whole_channel(p->lz->ctx, e, t), y, z);
  }
  return op_prim_load(p, e->panel, pair(p->lz->ctx, t, col));
}

/* Where a chunk's sums start (a chunk after the first): the sums so far. */
static IrPrimExpr *
conv_load_c(OpPrim *p, void *env, IrPrimExpr *row, IrPrimExpr *col)
{
  ConvGemm *e = env;
  return op_prim_load(p, e->part, pair(p->lz->ctx, row, col));
}

static void
conv_place(IrCtx *ctx, const ConvGemm *e, IrPrimExpr *col, IrPrimExpr **y, IrPrimExpr **z)
{
  IrPrimExpr *ow = op_nn_index(ctx, e->ow);
  IrPrimExpr *r = e->rows == 1 ? op_nn_index(ctx, 0) : op_nn_floordiv(ctx, col, ow);
  *y = op_nn_add(ctx, op_nn_mul(ctx, e->band, op_nn_index(ctx, e->rows)), r);
  *z = e->rows == 1 ? col : ir_prim_bin(ctx, IR_PE_FLOORMOD, col, ow);
}

/* out[n, o, y, z] = v for row o of the group's product and panel column
 * col (guarded: only when col < R * OW, the panel's padded columns
 * computed but not stored). */
static IrStmt *
store_out(OpPrim *p, const ConvGemm *e, IrPrimExpr *row, IrPrimExpr *col, IrPrimExpr *v,
          bool guarded)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *o[4] = {e->n, whole_row(ctx, e, row), NULL, NULL};
  conv_place(ctx, e, col, &o[2], &o[3]);
  IrStmt *store =
      op_prim_store(p, e->out.b, op_conv_index(p, &e->out, o), op_nn_to(ctx, e->out.b->dtype, v));
  if (!guarded || e->width == e->cols)
    return store;
  return op_nn_if(p, ir_prim_bin(ctx, IR_PE_LT, col, op_nn_index(ctx, e->cols)), store);
}

static IrStmt *
conv_store_c(OpPrim *p, void *env, IrPrimExpr *row, IrPrimExpr *col, IrPrimExpr *v)
{
  ConvGemm *e = env;
  if (!e->last)
    return op_prim_store(p, e->part, pair(p->lz->ctx, row, col), v);
  return store_out(p, e, row, col, v, true);
}

/* panel[t, col] = v for col in col0 + [0, count), as a loop over z (its var
 * to *z); NULL when count is 0. */
static IrStmt *
panel_run(OpPrim *p, const ConvGemm *e, IrPrimExpr *t, IrPrimExpr *col0, int64_t count,
          IrPrimExpr **z, IrStmt ***body)
{
  IrCtx *ctx = p->lz->ctx;
  if (count <= 0)
    return NULL;
  IrPrimExpr *ext = op_nn_index(ctx, count), **v;
  IrStmt *nest;
  IrStmt **slot = op_prim_loop_nest(p, &ext, 1, &v, &nest);
  *z = v[0];
  *body = slot;
  *slot = op_prim_store(p, e->panel, pair(ctx, t, op_nn_add(ctx, col0, v[0])),
                        op_nn_lit(ctx, e->panel->dtype, 0.0));
  return nest;
}

/* rt/rt_kern_copy.h's im2col kernel for elements of dtype t, or NULL. */
static const char *
im2col_kernel(IrDType t)
{
  static const struct {
    IrDType t;
    const char *name;
  } rows[] = {{{IR_DT_FLOAT, 32, 1}, "rxc_k_im2col_f32"},
              {{IR_DT_INT, 8, 1}, "rxc_k_im2col_i8"},
              {{IR_DT_UINT, 8, 1}, "rxc_k_im2col_u8"},
              {{IR_DT_INT, 32, 1}, "rxc_k_im2col_i32"}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    if (ir_dtype_eq(rows[i].t, t))
      return rows[i].name;
  return NULL;
}

IrStmt *
op_conv_im2col(OpPrim *p, IrDType t, const Im2col *c)
{
  IrCtx *ctx = p->lz->ctx;
  const char *name = im2col_kernel(t);
  if (!name)
    return NULL;
  IrPrimExpr *args[16] = {c->dst,
                          c->src,
                          op_nn_index(ctx, c->channels),
                          op_nn_index(ctx, c->in_h),
                          op_nn_index(ctx, c->in_w),
                          p->lz->arith ? ir_arith_simplify(p->lz->arith, c->y0) : c->y0,
                          c->x0,
                          op_nn_index(ctx, c->rows),
                          op_nn_index(ctx, c->cols),
                          op_nn_index(ctx, c->kh),
                          op_nn_index(ctx, c->kw),
                          op_nn_index(ctx, c->sh),
                          op_nn_index(ctx, c->sw),
                          op_nn_index(ctx, c->dh),
                          op_nn_index(ctx, c->dw),
                          op_nn_index(ctx, c->width)};
  return op_prim_kernel_stmt(p, name, args, 16);
}

/* In the C for libtcc, the whole panel of the band and chunk as one call
 * of rt/'s im2col kernel (pack_panel's copies, padding and padded
 * columns in one: under tcc the loops around a call a row cost as much
 * as the copies), over the chunk's channels of an NCHW input of the
 * panel's dtype:
 *   rxc_k_im2col(&panel[0, 0], &data[n, c0, 0, 0], cc, in_h, in_w,
 *                band * R * sh - pt, -pl, R, OW, kh, kw, sh, sw, dh, dw, width)
 * NULL for other C or when it does not fit. */
static IrStmt *
panel_im2col(OpPrim *p, const Window *w, const ConvGemm *e, int64_t in_h, int64_t in_w)
{
  IrCtx *ctx = p->lz->ctx;
  if (p->lz->kernels != OP_KERNELS_TCC || !op_conv_is_nchw(&e->x) ||
      !ir_dtype_eq(e->x.b->dtype, e->panel->dtype))
    return NULL;
  IrPrimExpr *zero = op_nn_index(ctx, 0);
  IrPrimExpr *y = op_nn_mul(ctx, e->band, op_nn_index(ctx, e->rows));
  Im2col c = {.dst = ir_prim_address_of(ctx, op_prim_load(p, e->panel, pair(ctx, zero, zero))),
              .src = ir_prim_address_of(
                  ctx, op_conv_load_raw(p, &e->x, e->n, whole_channel(ctx, e, zero), zero, zero)),
              .y0 = op_conv_input_pos(ctx, w, 0, y, zero),
              .x0 = op_conv_input_pos(ctx, w, 1, zero, zero),
              .channels = e->cc,
              .in_h = in_h,
              .in_w = in_w,
              .rows = e->rows,
              .cols = e->ow,
              .kh = e->kh,
              .kw = e->kw,
              .sh = w->stride[0],
              .sw = w->stride[1],
              .dh = w->dilation[0],
              .dw = w->dilation[1],
              .width = e->width};
  return op_conv_im2col(p, e->panel->dtype, &c);
}

/* Output columns [lo, hi) of the window's column kx read inside the input
 * (of width in_w): lo * sw - pl + kx * dw >= 0, hi the first past it. */
static void
inside_cols(const Window *w, int64_t kx, int64_t ow, int64_t in_w, int64_t *lo, int64_t *hi)
{
  int64_t s = w->stride[1], off = kx * w->dilation[1] - w->pad[1];
  *lo = 0;
  while (*lo < ow && *lo * s + off < 0)
    (*lo)++;
  *hi = *lo;
  while (*hi < ow && *hi * s + off < in_w)
    (*hi)++;
}

/* The copy of the band's window columns into the panel, for each (ci, ky,
 * r) and, unrolled here, each kx: the input row iy = y * sh - pt + ky * dh
 * of output row y = band * R + r; when it lies in the input,
 *   panel[t, r * OW + z] = 0 for z < lo, data[n, ci, iy, z * sw - pl + kx * dw]
 *   for lo <= z < hi, 0 for z >= hi
 * and 0 for all z otherwise.  No test is left in the loops over z, so the
 * copy is unit stride where the conv is. */
static IrStmt *
pack_panel(OpPrim *p, const Window *w, const ConvGemm *e, int64_t in_h, int64_t in_w)
{
  IrCtx *ctx = p->lz->ctx;
  IrStmt *call = panel_im2col(p, w, e, in_h, in_w);
  if (call)
    return call;
  IrPrimExpr *ext[3] = {op_nn_index(ctx, e->cc), op_nn_index(ctx, e->kh),
                        op_nn_index(ctx, e->rows)};
  IrPrimExpr **v;
  IrStmt *nest, **body = op_prim_loop_nest(p, ext, 3, &v, &nest);
  IrPrimExpr *y = op_nn_add(ctx, op_nn_mul(ctx, e->band, op_nn_index(ctx, e->rows)), v[2]);
  IrPrimExpr *iy = op_conv_input_pos(ctx, w, 0, y, v[1]);
  IrPrimExpr *row0 = op_nn_mul(ctx, v[2], op_nn_index(ctx, e->ow));
  IrStmt **inside = ir_alloc(ctx, sizeof *inside * (size_t)(3 * e->kw + 1));
  IrStmt **outside = ir_alloc(ctx, sizeof *outside * (size_t)(e->kw + 1));
  int n_in = 0;
  for (int64_t kx = 0; kx < e->kw; kx++) {
    IrPrimExpr *t = op_nn_add(
        ctx,
        op_nn_mul(ctx, op_nn_add(ctx, op_nn_mul(ctx, v[0], ext[1]), v[1]), op_nn_index(ctx, e->kw)),
        op_nn_index(ctx, kx));
    int64_t lo, hi;
    inside_cols(w, kx, e->ow, in_w, &lo, &hi);
    IrPrimExpr *z;
    IrStmt **slot;
    IrStmt *s = panel_run(p, e, t, row0, lo, &z, &slot);
    if (s)
      inside[n_in++] = s;
    IrPrimExpr *at_lo = op_nn_add(ctx, row0, op_nn_index(ctx, lo));
    if ((s = panel_run(p, e, t, at_lo, hi - lo, &z, &slot))) {
      IrPrimExpr *ix = op_conv_input_pos(ctx, w, 1, op_nn_add(ctx, op_nn_index(ctx, lo), z),
                                         op_nn_index(ctx, kx));
      IrStmt *store = *slot;
      store->u.store.value = op_conv_load_raw(p, &e->x, e->n, whole_channel(ctx, e, v[0]), iy, ix);
      inside[n_in++] = s;
    }
    s = panel_run(p, e, t, op_nn_add(ctx, row0, op_nn_index(ctx, hi)), e->ow - hi, &z, &slot);
    if (s)
      inside[n_in++] = s;
    outside[kx] = panel_run(p, e, t, row0, e->ow, &z, &slot);
  }
  IrStmt *copy = op_nn_seq(p, inside, n_in);
  bool above = w->pad[0] > 0, below = w->pad[2] > 0;
  if (!above && !below) {
    /* every row a band reads lies in the input (the output's extent
     * says so without padding) */
    *body = copy;
  } else {
    IrPrimExpr *cond = NULL;
    if (above)
      cond = op_nn_and(ctx, cond, ir_prim_bin(ctx, IR_PE_GE, iy, op_nn_index(ctx, 0)));
    if (below)
      cond = op_nn_and(ctx, cond, ir_prim_bin(ctx, IR_PE_LT, iy, op_nn_index(ctx, in_h)));
    IrStmt *branch = op_nn_if(p, cond, copy);
    branch->u.branch.else_ = op_nn_seq(p, outside, (int)e->kw);
    *body = branch;
  }
  if (e->width == e->cols)
    return nest;
  /* the columns past R * OW read 0: their sums are computed, not stored */
  IrPrimExpr *pad_ext[2] = {op_nn_index(ctx, e->cc * e->kh * e->kw),
                            op_nn_index(ctx, e->width - e->cols)};
  IrStmt *pad, **pad_body = op_prim_loop_nest(p, pad_ext, 2, &v, &pad);
  IrPrimExpr **pad_idx = ir_alloc(ctx, sizeof *pad_idx * 2);
  pad_idx[0] = v[0];
  pad_idx[1] = op_nn_add(ctx, op_nn_index(ctx, e->cols), v[1]);
  *pad_body = op_prim_store(p, e->panel, pad_idx, op_nn_lit(ctx, e->panel->dtype, 0.0));
  IrStmt *st[2] = {nest, pad};
  return op_nn_seq(p, st, 2);
}

static int64_t
tiles_of(int64_t cols, int64_t tile)
{
  return (cols + tile - 1) / tile;
}

/* The cost of a band of cols columns in tiles: a panel pads them to whole
 * tiles; without one the last tile is narrower, and a narrow tile costs
 * about two (its columns fill few vector lanes, or masked ones). */
static int64_t
band_cost(int64_t cols, int64_t tile, bool padded)
{
  if (padded)
    return tiles_of(cols, tile);
  return cols / tile + (cols % tile ? 2 : 0);
}

/* R: a divisor of oh whose bands need the fewest tiles in all, area * R * OW
 * floats within PANEL_BYTES (or R = 1): area is one input channel's rows of
 * a panel, or all of a band of input a pointwise conv reads in place (so it
 * needs no chunks, whose partial sums would be scratch of O * R * OW).  Among the counts within a
 * quarter of the fewest, small weights take the smallest panel (memory in
 * the arena; reading the weights again per band costs little), large ones
 * the fewest bands (each band reads all the weights). */
static int64_t
band_rows(int64_t oh, int64_t ow, int64_t tile, int64_t area, bool panel, bool small_weights)
{
  int64_t fewest = INT64_MAX, best = 1;
  for (int64_t r = 1; r <= oh; r++)
    if (oh % r == 0 && (r == 1 || area * r * ow * 4 <= PANEL_BYTES) &&
        oh / r * band_cost(r * ow, tile, panel) <= fewest) {
      fewest = oh / r * band_cost(r * ow, tile, panel);
      best = r;
    }
  for (int64_t r = 1; panel && small_weights && r <= oh; r++)
    if (oh % r == 0 && (r == 1 || area * r * ow * 4 <= PANEL_BYTES) &&
        4 * (oh / r * band_cost(r * ow, tile, true)) <= 5 * fewest)
      return r;
  return best;
}

/* Input channels of a chunk: the most, dividing ci, whose panel of width
 * columns fits PANEL_BYTES (at least 1). */
static int64_t
chunk_channels(int64_t ci, int64_t area, int64_t width)
{
  for (int64_t c = ci; c > 1; c--)
    if (ci % c == 0 && c * area * width * 4 <= PANEL_BYTES)
      return c;
  return 1;
}

/* R for a conv with a panel, and in *cc the input channels of a chunk:
 * band_rows's bands over panels of one input channel's rows (area of
 * them), which chunk K when ci channels do not fit PANEL_BYTES, unless
 * (narrower) bands whose panel holds all of K move fewer elements: those
 * read all the weights (co rows of ci * area terms) once a band, and
 * there are more bands; chunks write and read back part (co rows of the
 * band's width) once per chunk after the first, and each chunk's tile
 * starts from and ends in part.  googlenet's 3x3 conv of 64 channels on
 * 56 x 56 (192 out): 16 chunks of the whole plane move 18 M elements,
 * bands of 4 rows 0.7 M; under libtcc the model took 48 ms against 71,
 * under gcc -O3 18.2 against 20.3 (a limit of 1 MB for the unchunked
 * panel measured no better than PANEL_BYTES). */
static int64_t
panel_rows(int64_t oh, int64_t ow, int64_t tile, int64_t ci, int64_t area, int64_t co, bool small,
           int64_t *cc)
{
  int64_t rows = band_rows(oh, ow, tile, area, true, small);
  int64_t width = tiles_of(rows * ow, tile) * tile;
  *cc = chunk_channels(ci, area, width);
  int64_t chunks = ci / *cc;
  if (chunks == 1)
    return rows;
  int64_t whole = band_rows(oh, ow, tile, ci * area, true, small);
  if (ci * area * tiles_of(whole * ow, tile) * tile * 4 > PANEL_BYTES)
    return rows;
  /* elements moved beyond what both read */
  int64_t weights = (oh / whole - oh / rows) * co * ci * area;
  int64_t part = oh / rows * (chunks - 1) * 2 * co * width;
  if (weights >= part)
    return rows;
  *cc = ci;
  return whole;
}

/* A constant OIHW weight as the matrix [O, K] it is: the kernel's weight
 * argument becomes that constant (sharing the bytes), its buffer [O, K]. */
static IrBuffer *
weight_matrix(OpPrim *p, const IrExpr *arg, BufView *k, int64_t o, int64_t kk)
{
  IrCtx *ctx = p->lz->ctx;
  if (!arg || arg->kind != IR_EX_CONST)
    return NULL;
  for (int a = 0; a < 4; a++)
    if (k->l->pos[a] != a)
      return NULL;
  int slot = -1;
  for (int i = 0; i < p->inputs.len; i++)
    if (p->inputs.items[i] == k->b)
      slot = i;
  if (slot < 0)
    return NULL;
  IrExpr *c = ir_expr_new(ctx, IR_EX_CONST, arg->loc);
  c->u.constant = arg->u.constant;
  c->u.constant.ndim = 2;
  c->u.constant.shape = ir_alloc(ctx, sizeof(int64_t) * 2);
  c->u.constant.shape[0] = o;
  c->u.constant.shape[1] = kk;
  IrPrimExpr **dims = ir_alloc(ctx, sizeof *dims * 2);
  dims[0] = ir_prim_int(ctx, IR_I64, o);
  dims[1] = ir_prim_int(ctx, IR_I64, kk);
  c->sinfo = ir_sinfo_tensor(ctx, dims, 2, k->b->dtype, -1);
  p->args.items[slot] = c;
  k->b->shape = dims;
  k->b->ndim = 2;
  return k->b;
}

/* The product of a chunk after the first as one kernel call adding into
 * part (op_nn_gemm_into), the last chunk's then stored from part:
 *   for o < O/G, col < R * OW: out[n, o, y, z] = part[o, col]
 * NULL when the kernel does not take it. */
static IrStmt *
chunk_into_part(OpPrim *p, ConvGemm *e, const Gemm *g)
{
  IrCtx *ctx = p->lz->ctx;
  IrStmt *sums = op_nn_gemm_into(p, g, e->part);
  if (!sums || !e->last)
    return sums;
  IrPrimExpr *ext[2] = {op_nn_index(ctx, e->og), op_nn_index(ctx, e->cols)}, **v;
  IrStmt *st[2] = {sums, NULL};
  IrStmt **body = op_prim_loop_nest(p, ext, 2, &v, &st[1]);
  *body = store_out(p, e, v[0], v[1], op_prim_load(p, e->part, pair(ctx, v[0], v[1])), false);
  return op_nn_seq(p, st, 2);
}

/* One chunk of a band: its panel, then its product (the group's rows).
 * The first chunk's tiles start from 0 and store part; the others add
 * into part in place (chunk_into_part), or, where the kernel does not
 * fit, load their tiles from part. */
static IrStmt *
chunk_product(OpPrim *p, const Window *w, ConvGemm *e, int64_t kc, int64_t in_h, int64_t in_w)
{
  IrCtx *ctx = p->lz->ctx;
  bool later = e->part && !is_zero(e->chunk);
  Gemm g = {op_nn_index(ctx, e->og),
            e->width,
            kc,
            e,
            conv_load_a,
            conv_load_b,
            conv_store_c,
            NULL,
            NULL,
            later ? conv_load_c : NULL,
            e->sum,
            e->tile,
            NULL};
  IrStmt *gemm = later ? chunk_into_part(p, e, &g) : NULL;
  if (!gemm)
    gemm = op_nn_gemm(p, &g);
  if (!e->panel)
    return gemm;
  IrStmt *st[2] = {pack_panel(p, w, e, in_h, in_w), gemm};
  return op_nn_seq(p, st, 2);
}

/* The static dims the schedule needs, in *co (output channels), *ci (a
 * group's input channels), *kh, *kw, *oh, *ow, *in_h, *in_w; false when
 * one is not static or not positive, or the groups do not fit: groups 1,
 * or several input channels a group (one is a depthwise conv,
 * conv_dw.c's) with the data's channels static, I * G of them, and the
 * output channels a multiple of G (inference checks both only where
 * they are known; the generic lowering takes the rest). */
static bool
gemm_fits(const Window *w, BufView *x, BufView *k, BufView *out, int64_t *co, int64_t *ci,
          int64_t *kh, int64_t *kw, int64_t *oh, int64_t *ow, int64_t *in_h, int64_t *in_w)
{
  int64_t c;
  if (!ir_prim_is_int(op_conv_dim(k, 0), co) || !ir_prim_is_int(op_conv_dim(k, 1), ci) ||
      !ir_prim_is_int(op_conv_dim(k, 2), kh) || !ir_prim_is_int(op_conv_dim(k, 3), kw) ||
      !ir_prim_is_int(op_conv_dim(out, 2), oh) || !ir_prim_is_int(op_conv_dim(out, 3), ow) ||
      !ir_prim_is_int(op_conv_dim(x, 2), in_h) || !ir_prim_is_int(op_conv_dim(x, 3), in_w) ||
      *co < 1 || *ci < 1 || *kh < 1 || *kw < 1 || *oh < 1 || *ow < 1 || w->groups < 1)
    return false;
  if (w->groups == 1)
    return true;
  return *ci > 1 && *co % w->groups == 0 && ir_prim_is_int(op_conv_dim(x, 1), &c) &&
         c == *ci * w->groups;
}

bool
op_conv_gemm(OpPrim *p, const Window *w, const IrExpr *weight, BufView *x, BufView *k, BufView *out)
{
  int64_t co, ci, kh, kw, oh, ow, in_h, in_w;
  IrDType sum = op_nn_tile_type(x->b->dtype, k->b->dtype, out->b->dtype);
  if (sum.code == IR_DT_VOID ||
      !gemm_fits(w, x, k, out, &co, &ci, &kh, &kw, &oh, &ow, &in_h, &in_w))
    return false;
  IrCtx *ctx = p->lz->ctx;
  bool pointwise = kh == 1 && kw == 1 && w->stride[0] == 1 && w->stride[1] == 1 && !w->pad[0] &&
                   !w->pad[1] && !w->pad[2] && !w->pad[3];
  for (int a = 0; a < 4; a++)
    pointwise = pointwise && x->l->pos[a] == a;
  int64_t kk = ci * kh * kw;
  bool small = co * kk * 4 <= SMALL_WEIGHTS;
  int64_t tile = op_nn_gemm_cols(p->lz, x->b->dtype);
  int64_t cc = ci;
  int64_t rows = pointwise ? band_rows(oh, ow, tile, kk, false, small)
                           : panel_rows(oh, ow, tile, ci, kh * kw, co, small, &cc);
  if (pointwise && !small && rows * ow % tile) {
    /* large weights: a narrow last tile costs more than copying the
     * input into a panel of whole tiles */
    pointwise = false;
    rows = panel_rows(oh, ow, tile, ci, kh * kw, co, small, &cc);
  }
  ConvGemm *e = ir_alloc(ctx, sizeof *e);
  *e = (ConvGemm){.x = *x,
                  .out = *out,
                  .k = *k,
                  .group = op_nn_index(ctx, 0),
                  .ci = ci,
                  .og = co / w->groups,
                  .kh = kh,
                  .kw = kw,
                  .ow = ow,
                  .rows = rows,
                  .cols = rows * ow,
                  .width = tiles_of(rows * ow, tile) * tile,
                  .last = true,
                  .sum = sum,
                  .tile = tile};
  if (pointwise)
    e->width = e->cols; /* no panel: the gemm's last tile is narrower */
  e->cc = pointwise ? chunk_channels(ci, kh * kw, e->width) : cc;
  int64_t chunks = ci / e->cc, kc = e->cc * kh * kw;
  if (!pointwise) {
    IrPrimExpr *shape[2] = {op_nn_index(ctx, kc), op_nn_index(ctx, e->width)};
    e->panel = op_prim_alloc(p, x->b->dtype, shape, 2, "panel");
  }
  if (chunks > 1) {
    IrPrimExpr *shape[2] = {op_nn_index(ctx, e->og), op_nn_index(ctx, e->width)};
    e->part = op_prim_alloc(p, sum, shape, 2, "part");
  }
  e->weight = weight_matrix(p, weight, k, co, kk);
  /* for each image, band and group */
  IrPrimExpr *ext[3] = {op_conv_dim(out, 0), op_nn_index(ctx, oh / rows),
                        op_nn_index(ctx, w->groups)},
             **v;
  IrStmt **slot = op_prim_loops(p, ext, w->groups > 1 ? 3 : 2, &v);
  e->n = v[0];
  e->band = v[1];
  if (w->groups > 1)
    e->group = v[2];
  /* chunk 0 stores part, chunks 1 .. chunks - 2 add into it, the last
   * one stores the output */
  IrStmt *st[3];
  int n = 0;
  if (chunks > 1) {
    ConvGemm *first = ir_alloc(ctx, sizeof *first);
    *first = *e;
    first->last = false;
    first->chunk = op_nn_index(ctx, 0);
    st[n++] = chunk_product(p, w, first, kc, in_h, in_w);
  }
  if (chunks > 2) {
    ConvGemm *middle = ir_alloc(ctx, sizeof *middle);
    *middle = *e;
    middle->last = false;
    IrPrimExpr *count = op_nn_index(ctx, chunks - 2), **c;
    IrStmt **body = op_prim_loop_nest(p, &count, 1, &c, &st[n++]);
    middle->chunk = op_nn_add(ctx, c[0], op_nn_index(ctx, 1));
    *body = chunk_product(p, w, middle, kc, in_h, in_w);
  }
  e->chunk = op_nn_index(ctx, chunks - 1);
  st[n++] = chunk_product(p, w, e, kc, in_h, in_w);
  *slot = op_nn_seq(p, st, n);
  return true;
}
