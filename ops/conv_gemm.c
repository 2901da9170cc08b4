/*
 * conv_gemm.c - the float32 fast path of conv2d with groups 1: a product
 * of matrices through gemm.c's register tiles.
 */
#include "conv_int.h"

/* The float32 fast path of conv2d with groups 1 (gemm.c): for each image
 * n and output row y, the product of the weights seen as a matrix
 * [O, I*KH*KW] and the window columns [I*KH*KW, OW] of the input:
 *   out[n, o, y, z] = sum over t of weight[o, t] * data[n, t, y, z]
 * with t = (ci, ky, kx), data at the window's position (read only inside
 * the input: gemm's guard).  A 1x1 conv of stride 1 reads rows of the
 * input as they lie, so the tile's inner loop is unit stride. */
typedef struct {
  const Window *w;
  BufView x, k, out;
  IrPrimExpr *n, *y; /* loop vars: image, output row */
  int64_t kh, kw;    /* window extents */
} ConvGemm;

/* Term t as (ci, ky, kx). */
static void
conv_term(IrCtx *ctx, const ConvGemm *e, IrPrimExpr *t, IrPrimExpr **r)
{
  IrPrimExpr *area = op_nn_index(ctx, e->kh * e->kw), *kw = op_nn_index(ctx, e->kw);
  IrPrimExpr *zero = op_nn_index(ctx, 0);
  r[0] = op_nn_floordiv(ctx, t, area);
  IrPrimExpr *in_window = e->kh * e->kw == 1 ? zero : ir_prim_bin(ctx, IR_PE_FLOORMOD, t, area);
  r[1] = op_nn_floordiv(ctx, in_window, kw);
  r[2] = e->kw == 1 ? zero : ir_prim_bin(ctx, IR_PE_FLOORMOD, in_window, kw);
}

static IrPrimExpr *
conv_load_a(OpPrim *p, void *env, IrPrimExpr *row, IrPrimExpr *t)
{
  ConvGemm *e = env;
  IrPrimExpr *r[3];
  conv_term(p->lz->ctx, e, t, r);
  return op_conv_load_raw(p, &e->k, row, r[0], r[1], r[2]);
}

/* The input position (row, column) of term t for output column z. */
static void
conv_pos(IrCtx *ctx, const ConvGemm *e, IrPrimExpr *t, IrPrimExpr *z, IrPrimExpr **ci,
         IrPrimExpr **pos)
{
  IrPrimExpr *r[3];
  conv_term(ctx, e, t, r);
  *ci = r[0];
  pos[0] = op_conv_input_pos(ctx, e->w, 0, e->y, r[1]);
  pos[1] = op_conv_input_pos(ctx, e->w, 1, z, r[2]);
}

static IrPrimExpr *
conv_load_b(OpPrim *p, void *env, IrPrimExpr *t, IrPrimExpr *col)
{
  ConvGemm *e = env;
  IrPrimExpr *ci, *pos[2];
  conv_pos(p->lz->ctx, e, t, col, &ci, pos);
  return op_conv_load_raw(p, &e->x, e->n, ci, pos[0], pos[1]);
}

static IrPrimExpr *
conv_guard(OpPrim *p, void *env, IrPrimExpr *t, IrPrimExpr *col)
{
  ConvGemm *e = env;
  IrPrimExpr *ci, *pos[2], *ext[2] = {op_conv_dim(&e->x, 2), op_conv_dim(&e->x, 3)};
  conv_pos(p->lz->ctx, e, t, col, &ci, pos);
  return op_conv_inside(p->lz->ctx, e->w, pos, ext);
}

static IrStmt *
conv_store_c(OpPrim *p, void *env, IrPrimExpr *row, IrPrimExpr *col, IrPrimExpr *v)
{
  ConvGemm *e = env;
  IrPrimExpr *o[4] = {e->n, row, e->y, col};
  return op_prim_store(p, e->out.b, op_conv_index(p, &e->out, o), v);
}

/* Emits the fast path and returns true, or returns false (nothing
 * emitted) when the call does not fit it: float32 throughout, groups 1,
 * static input channels, window and output width. */
bool
op_conv_gemm(OpPrim *p, const Window *w, BufView *x, BufView *k, BufView *out)
{
  int64_t ci, kh, kw, ow;
  if (!op_conv_is_f32(x->b) || !op_conv_is_f32(k->b) || !op_conv_is_f32(out->b) || w->groups != 1 ||
      !ir_prim_is_int(op_conv_dim(k, 1), &ci) || !ir_prim_is_int(op_conv_dim(k, 2), &kh) ||
      !ir_prim_is_int(op_conv_dim(k, 3), &kw) || !ir_prim_is_int(op_conv_dim(out, 3), &ow) || ci < 1 ||
      kh < 1 || kw < 1 || ow < 1)
    return false;
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *ext[2] = {op_conv_dim(out, 0), op_conv_dim(out, 2)}, **v;
  IrStmt **slot = op_prim_loops(p, ext, 2, &v);
  ConvGemm *e = ir_alloc(ctx, sizeof *e);
  *e = (ConvGemm){w, *x, *k, *out, v[0], v[1], kh, kw};
  bool padded = w->pad[0] || w->pad[1] || w->pad[2] || w->pad[3];
  Gemm g = {op_conv_dim(out, 1), ow, ci * kh * kw, e, conv_load_a, conv_load_b, conv_store_c,
            padded ? conv_guard : NULL, NULL};
  IrStmt *body = op_nn_gemm(p, &g);
  *slot = body ? body : ir_stmt_new(ctx, IR_ST_SEQ, p->lz->loc);
  return true;
}
