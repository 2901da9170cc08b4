/*
 * image_int.h - helpers shared by image.c, image_grid.c, vision.c,
 * vision_box.c and vision_nms.c (inside ops/ only), and the hooks they
 * lend each other.
 *
 * Their lowerings compute an output element from a chain of scalars
 * (coordinates, taps, weights, box bounds); each is bound once by a let
 * around the element's statement, so the generated C reads as the kernel
 * does, one named quantity a line.
 */
#ifndef RXC_IMAGE_INT_H
#define RXC_IMAGE_INT_H

#include <string.h>

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

/* The index of s among names, or -1. */
static inline int
op_img_find_str(const char *s, const char *const *names, int n)
{
  for (int i = 0; i < n; i++)
    if (strcmp(s, names[i]) == 0)
      return i;
  return -1;
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

/* image_grid.c: the hooks of affine_grid and grid_sample (image.c's entries). */
IrSInfo *op_img_infer_affine_grid(OpInfer *in, const IrExpr *call, IrSInfo **args);
Value *op_img_eval_affine_grid(OpEval *ev, const IrExpr *call, Value **args);
IrExpr *op_img_legalize_affine_grid(OpLegalize *lz, const IrExpr *call, IrSInfo *result);
IrSInfo *op_img_infer_grid_sample(OpInfer *in, const IrExpr *call, IrSInfo **args);
Value *op_img_eval_grid_sample(OpEval *ev, const IrExpr *call, Value **args);
IrExpr *op_img_legalize_grid_sample(OpLegalize *lz, const IrExpr *call, IrSInfo *result);

/* vision_box.c: the hooks of vision.c's box ops. */
IrSInfo *op_vis_infer_multibox(OpInfer *in, const IrExpr *call, IrSInfo **args);
Value *op_vis_eval_multibox(OpEval *ev, const IrExpr *call, Value **args);
IrExpr *op_vis_legalize_multibox(OpLegalize *lz, const IrExpr *call, IrSInfo *result);
IrSInfo *op_vis_infer_valid_counts(OpInfer *in, const IrExpr *call, IrSInfo **args);
Value *op_vis_eval_valid_counts(OpEval *ev, const IrExpr *call, Value **args);
IrExpr *op_vis_legalize_valid_counts(OpLegalize *lz, const IrExpr *call, IrSInfo *result);

/* vision_nms.c: the hooks of vision.c's non-maximum suppressions. */
IrSInfo *op_vis_infer_all_class_nms(OpInfer *in, const IrExpr *call, IrSInfo **args);
Value *op_vis_eval_all_class_nms(OpEval *ev, const IrExpr *call, Value **args);
IrExpr *op_vis_legalize_all_class_nms(OpLegalize *lz, const IrExpr *call, IrSInfo *result);
IrSInfo *op_vis_infer_nms(OpInfer *in, const IrExpr *call, IrSInfo **args);
Value *op_vis_eval_nms(OpEval *ev, const IrExpr *call, Value **args);
IrExpr *op_vis_legalize_nms(OpLegalize *lz, const IrExpr *call, IrSInfo *result);

#endif
