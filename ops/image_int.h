/*
 * image_int.h - helpers shared by image.c and vision.c (inside ops/ only).
 *
 * Their lowerings compute an output element from a chain of scalars
 * (coordinates, taps, weights, box bounds); each is bound once by a let
 * around the element's statement, so the generated C reads as the kernel
 * does, one named quantity a line.
 */
#ifndef RXC_IMAGE_INT_H
#define RXC_IMAGE_INT_H

#include "nn_int.h"

enum { OP_LETS_MAX = 96 };

/* Float64 scalars, in which the kernels compute: a literal, an
 * intrinsic of one argument ("tir.floor"), and any binary node. */
static inline IrPrimExpr *
op_img_f64(IrCtx *ctx, double v)
{
  return op_nn_lit(ctx, op_nn_f64_type(), v);
}

static inline IrPrimExpr *
op_img_intrin(IrCtx *ctx, const char *name, IrPrimExpr *a)
{
  return op_nn_intrinsic(ctx, op_nn_f64_type(), name, a);
}

static inline IrPrimExpr *
op_img_bin(IrCtx *ctx, IrPrimKind k, IrPrimExpr *a, IrPrimExpr *b)
{
  return ir_prim_bin(ctx, k, a, b);
}

/* Lets to wrap around a statement, outermost first. */
typedef struct {
  IrCtx *ctx;
  IrPrimExpr *vars[OP_LETS_MAX], *values[OP_LETS_MAX];
  int n;
} OpLets;

/* A new var bound to value, named name. */
IrPrimExpr *op_let(OpLets *l, const char *name, IrPrimExpr *value);
/* The same named name_<axis><tap> (tap >= 0) or name_<axis>. */
IrPrimExpr *op_let_axis(OpLets *l, const char *name, char axis, int tap, IrPrimExpr *value);
/* body inside every let of l; l is emptied. */
IrStmt *op_lets_wrap(OpLets *l, IrStmt *body, IrLoc loc);

#endif
