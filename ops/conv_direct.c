/*
 * conv_direct.c - conv2d of stride 1 in the C for libtcc (OP_KERNELS_TCC):
 * float32, NCHW, any groups (depthwise ones too), every product read in
 * place from a padded band of the input by rt/'s rxc_k_conv_f32, with no
 * im2col panel.
 *
 * Key idea: conv_gemm.c's panel row of term t = (ci, ky, kx) holds the
 * input at rows y + ky * dh, columns z + kx * dw of the output positions
 * (y, z).  With stride 1 that is one run of a padded plane shifted by
 * ky * dh rows and kx * dw columns, if the output positions are laid out
 * as the plane's own: "wide" columns r * WP + z for band row r and
 * column z, WP the padded width (z >= OW are sums of nothing useful,
 * computed and never stored).  So a band of R output rows needs only its
 * input rows, padded once, for all the window's taps:
 *
 *   for n, band, group:
 *     padded[ci, i * WP + j] = data[n, ci, band * R - pt + i, j - pl]  (0 outside)
 *     for each block of DIRECT_ROWS output channels o0 of the group:
 *       acc[o, col] = sum from 0 of weight[o0 + o, t] * padded[ci, ky * dh * WP + kx * dw + col]
 *       out[n, o0 + o, band * R + r, z] = acc[o, r * WP + z]  (z < OW)
 *
 * The padded band is one call of rt/'s im2col kernel (a window of 1 x 1
 * over the padded rectangle: its zeros are the padding), the sums one call
 * of rxc_k_conv_f32, which adds the terms in t's order from 0 as the
 * panel's product does, so the bits are conv_gemm.c's.  Under libtcc the
 * panels' copies, kh * kw times the input, took as long as the products
 * where the channels are many (densenet121, regnet_y_400mf); a depthwise
 * conv's taps ran as a register program of the row kernel (conv_dw.c),
 * a vector load, multiply and add through memory a tap, where the kernel
 * keeps 64 sums in registers over all taps.  A band is as many output
 * rows as keep the sums within DIRECT_ACC_BYTES (a depthwise channel's
 * whole plane, mostly), so the glue around the calls costs little: at
 * 16 KB, bands of one row of 55 or 56 made squeezenet1_1 and googlenet
 * 40% slower under libtcc than the panels (12.5 against 8.9 ms); at 64
 * KB they are level with them, and 128 KB measured the same again.  gcc's
 * C keeps conv_gemm.c's and conv_dw.c's loops (it specializes them faster
 * than the kernel runs).
 */
#include "conv_int.h"

enum {
  DIRECT_ROWS = 32,             /* output channels a call sums */
  DIRECT_ACC_BYTES = 64 * 1024, /* a block's sums, where one output row fits */
  DIRECT_VECTOR = 16,           /* the band's columns: whole vectors of float32 */
  DIRECT_BAND_BYTES = 1 << 20,  /* the padded band of all input channels, at most */
};

static int64_t
whole_vectors(int64_t n)
{
  return (n + DIRECT_VECTOR - 1) / DIRECT_VECTOR * DIRECT_VECTOR;
}

typedef struct {
  BufView x, k, out;
  IrBuffer *band, *acc;
  int64_t ci, kh, kw, dh, dw; /* input channels (of a group), window, dilation */
  int64_t og;                 /* output channels of a group */
  int64_t in_h, in_w, ow;
  int64_t rows;          /* output rows of a band (R) */
  int64_t wp;            /* padded row: in_w + pl + pr */
  int64_t width;         /* wide columns of a band's sums: R * WP in whole vectors */
  int64_t plane;         /* a channel of the padded band: every tap's run of width */
  IrPrimExpr *n, *b, *g; /* image, band, group */
} Direct;

/* R: the most output rows, dividing oh, whose wide columns for a block of
 * block_rows output channels fit DIRECT_ACC_BYTES (1 when one row does
 * not). */
static int64_t
direct_rows(int64_t oh, int64_t wp, int64_t block_rows)
{
  int64_t best = 1;
  for (int64_t r = 1; r <= oh; r++)
    if (oh % r == 0 && block_rows * whole_vectors(r * wp) * 4 <= DIRECT_ACC_BYTES)
      best = r;
  return best;
}

static IrPrimExpr **
at4(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b, IrPrimExpr *c, IrPrimExpr *d)
{
  IrPrimExpr **idx = ir_alloc(ctx, sizeof *idx * 4);
  idx[0] = a;
  idx[1] = b;
  idx[2] = c;
  idx[3] = d;
  return idx;
}

/* A band of all the output rows: group g's input planes copied into the
 * interior of the band, whose padding (zeroed once before the loops:
 * zero_band) no copy writes.  A loop nest, which the row kernel runs as
 * a move a channel: a depthwise conv's channel is one call, where the
 * im2col kernel's rows of a few elements cost more than their copy. */
static IrStmt *
copy_planes(OpPrim *p, const Window *w, const Direct *d)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *ext[3] = {op_nn_index(ctx, d->ci), op_nn_index(ctx, d->in_h),
                        op_nn_index(ctx, d->in_w)},
             **v;
  IrStmt *nest, **body = op_prim_loop_nest(p, ext, 3, &v, &nest);
  IrPrimExpr *c = op_nn_add(ctx, op_nn_mul(ctx, d->g, op_nn_index(ctx, d->ci)), v[0]);
  IrPrimExpr *row = op_nn_add(ctx, v[1], op_nn_index(ctx, w->pad[0]));
  IrPrimExpr *at = op_nn_add(ctx, op_nn_mul(ctx, v[0], op_nn_index(ctx, d->plane)),
                             op_nn_add(ctx, op_nn_mul(ctx, row, op_nn_index(ctx, d->wp)),
                                       op_nn_add(ctx, v[2], op_nn_index(ctx, w->pad[1]))));
  *body = op_prim_store_at(p, d->band, at, op_conv_load_raw(p, &d->x, d->n, c, v[1], v[2]));
  return nest;
}

/* The band's input rows of group g's channels, padded, channel after
 * channel, plane elements apart: one im2col call of a 1 x 1 window over
 * the padded rectangle, or with a single band copy_planes. */
static IrStmt *
pad_band(OpPrim *p, const Window *w, const Direct *d, int64_t oh)
{
  IrCtx *ctx = p->lz->ctx;
  if (d->rows == oh)
    return copy_planes(p, w, d);
  IrPrimExpr *zero = op_nn_index(ctx, 0);
  IrPrimExpr *first = op_nn_mul(ctx, d->g, op_nn_index(ctx, d->ci));
  Im2col c = {.dst = ir_prim_address_of(ctx, op_prim_load_at(p, d->band, zero)),
              .src = ir_prim_address_of(ctx, op_conv_load_raw(p, &d->x, d->n, first, zero, zero)),
              .y0 = op_nn_sub(ctx, op_nn_mul(ctx, d->b, op_nn_index(ctx, d->rows)),
                              op_nn_index(ctx, w->pad[0])),
              .x0 = op_nn_index(ctx, -w->pad[1]),
              .channels = d->ci,
              .in_h = d->in_h,
              .in_w = d->in_w,
              .rows = d->rows + (d->kh - 1) * d->dh,
              .cols = d->wp,
              .kh = 1,
              .kw = 1,
              .sh = 1,
              .sw = 1,
              .dh = 1,
              .dw = 1,
              .width = d->plane};
  return op_conv_im2col(p, IR_F32, &c);
}

/* Output channels o0 + [0, rows) of group g: summed into acc from 0
 * (the kernel's fresh sums: no pass zeroing acc first), stored. */
static IrStmt *
block(OpPrim *p, const Direct *d, IrPrimExpr *o0, int64_t rows)
{
  IrCtx *ctx = p->lz->ctx;
  o0 = op_nn_add(ctx, op_nn_mul(ctx, d->g, op_nn_index(ctx, d->og)), o0);
  IrPrimExpr *zero = op_nn_index(ctx, 0), **v;
  IrStmt *st[2];
  IrPrimExpr *args[14] = {ir_prim_address_of(ctx, op_prim_load_at(p, d->acc, zero)),
                          ir_prim_address_of(ctx, op_conv_load_raw(p, &d->k, o0, zero, zero, zero)),
                          op_nn_index(ctx, d->ci * d->kh * d->kw),
                          op_nn_index(ctx, 1),
                          ir_prim_address_of(ctx, op_prim_load_at(p, d->band, zero)),
                          op_nn_index(ctx, d->plane),
                          op_nn_index(ctx, d->ci),
                          op_nn_index(ctx, d->kh),
                          op_nn_index(ctx, d->kw),
                          op_nn_index(ctx, d->dh * d->wp),
                          op_nn_index(ctx, d->dw),
                          op_nn_index(ctx, rows),
                          op_nn_index(ctx, d->width),
                          op_nn_index(ctx, 1)};
  st[0] = op_prim_kernel_stmt(p, "rxc_k_conv_f32", args, 14);
  IrPrimExpr *ext[3] = {op_nn_index(ctx, rows), op_nn_index(ctx, d->rows), op_nn_index(ctx, d->ow)};
  IrStmt **body = op_prim_loop_nest(p, ext, 3, &v, &st[1]);
  IrPrimExpr *col = op_nn_add(ctx, op_nn_mul(ctx, v[1], op_nn_index(ctx, d->wp)), v[2]);
  IrPrimExpr *sum = op_prim_load_at(
      p, d->acc, op_nn_add(ctx, op_nn_mul(ctx, v[0], op_nn_index(ctx, d->width)), col));
  IrPrimExpr *y = op_nn_add(ctx, op_nn_mul(ctx, d->b, op_nn_index(ctx, d->rows)), v[1]);
  *body = op_prim_store(
      p, d->out.b, op_conv_index(p, &d->out, at4(ctx, d->n, op_nn_add(ctx, o0, v[0]), y, v[2])),
      sum);
  return op_nn_seq(p, st, 2);
}

bool
op_conv_direct(OpPrim *p, const Window *w, BufView *x, BufView *k, BufView *out)
{
  IrCtx *ctx = p->lz->ctx;
  int64_t co, ci, c, kh, kw, oh, ow, in_h, in_w;
  if (p->lz->kernels != OP_KERNELS_TCC || w->groups < 1 || w->stride[0] != 1 || w->stride[1] != 1 ||
      !op_conv_is_f32(x->b) || !op_conv_is_f32(k->b) || !op_conv_is_f32(out->b) ||
      !op_conv_is_nchw(x) || !op_conv_is_nchw(k) || !op_conv_is_nchw(out) ||
      !ir_prim_is_int(op_conv_dim(k, 0), &co) || !ir_prim_is_int(op_conv_dim(k, 1), &ci) ||
      !ir_prim_is_int(op_conv_dim(x, 1), &c) || !ir_prim_is_int(op_conv_dim(k, 2), &kh) ||
      !ir_prim_is_int(op_conv_dim(k, 3), &kw) || !ir_prim_is_int(op_conv_dim(out, 2), &oh) ||
      !ir_prim_is_int(op_conv_dim(out, 3), &ow) || !ir_prim_is_int(op_conv_dim(x, 2), &in_h) ||
      !ir_prim_is_int(op_conv_dim(x, 3), &in_w) || c != ci * w->groups || co % w->groups ||
      co < 1 || ci < 1 || kh < 1 || kw < 1 || oh < 1 || ow < 1 || kh * kw == 1)
    return false; /* a pointwise conv reads its input in place already */
  Direct d = {.x = *x,
              .k = *k,
              .out = *out,
              .ci = ci,
              .kh = kh,
              .kw = kw,
              .dh = w->dilation[0],
              .dw = w->dilation[1],
              .in_h = in_h,
              .in_w = in_w,
              .ow = ow,
              .og = co / w->groups};
  d.wp = in_w + w->pad[1] + w->pad[3];
  if (d.wp != ow + (kw - 1) * d.dw || oh != in_h + w->pad[0] + w->pad[2] - (kh - 1) * d.dh)
    return false;
  int64_t og = d.og, block_rows = og < DIRECT_ROWS ? og : DIRECT_ROWS;
  d.rows = direct_rows(oh, d.wp, block_rows);
  d.width = whole_vectors(d.rows * d.wp);
  d.plane = whole_vectors((kh - 1) * d.dh * d.wp + (kw - 1) * d.dw + d.width);
  if (ci * d.plane * 4 > DIRECT_BAND_BYTES)
    return false;
  IrPrimExpr *size = op_nn_index(ctx, ci * d.plane);
  d.band = op_prim_alloc(p, IR_F32, &size, 1, "band");
  if (d.rows == oh) { /* zero_band: the padding copy_planes leaves */
    IrPrimExpr **i;
    IrStmt **zero = op_prim_loops(p, &size, 1, &i);
    *zero = op_prim_store_at(p, d.band, i[0], op_nn_lit(ctx, IR_F32, 0.0));
  }
  size = op_nn_index(ctx, block_rows * d.width);
  d.acc = op_prim_alloc(p, IR_F32, &size, 1, "acc");
  /* for each image, band and group: its padded input, then its blocks
   * of output channels */
  IrPrimExpr *ext[3] = {op_conv_dim(out, 0), op_nn_index(ctx, oh / d.rows),
                        op_nn_index(ctx, w->groups)},
             **v;
  IrStmt **slot = op_prim_loops(p, ext, w->groups > 1 ? 3 : 2, &v);
  d.n = v[0];
  d.b = v[1];
  d.g = w->groups > 1 ? v[2] : op_nn_index(ctx, 0);
  IrStmt *st[4];
  int n = 0;
  st[n++] = pad_band(p, w, &d, oh);
  if (og / block_rows > 1) {
    IrPrimExpr *count = op_nn_index(ctx, og / block_rows), **o;
    IrStmt **body = op_prim_loop_nest(p, &count, 1, &o, &st[n++]);
    *body = block(p, &d, op_nn_mul(ctx, o[0], op_nn_index(ctx, block_rows)), block_rows);
  } else {
    st[n++] = block(p, &d, op_nn_index(ctx, 0), block_rows);
  }
  if (og % block_rows)
    st[n++] = block(p, &d, op_nn_index(ctx, og / block_rows * block_rows), og % block_rows);
  *slot = op_nn_seq(p, st, n);
  return true;
}
