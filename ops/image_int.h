/*
 * image_int.h - helpers shared by image.c, image_grid.c, vision.c,
 * vision_box.c, vision_nms.c and vision_classic_nms.c (inside ops/ only),
 * and the hooks they lend each other.
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
IrSInfo *op_img_infer_affine_grid(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_img_eval_affine_grid(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_img_legalize_affine_grid(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_img_infer_grid_sample(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_img_eval_grid_sample(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_img_legalize_grid_sample(OpLegalize *lz, const OpSite *s, IrSInfo *result);

/* vision_box.c: the openings the vision hooks share.  Inference:
 * arguments 0 .. n-1 as tensors into t, each of rank ranks[i] when its
 * rank is known; false after an error naming names[i]. */
bool op_vis_tensor_args(OpInfer *in, const OpSite *s, IrSInfo **args, int n,
                        const char *const *names, const int *ranks, IrSInfo **t);
/* The tuple (a, b, c) of struct infos; (a, b) when c is NULL. */
IrSInfo *op_vis_tuple(IrCtx *ctx, IrSInfo *a, IrSInfo *b, IrSInfo *c);
/* Kernels: arguments 0 .. n-1 as tensor values into t; false after an
 * error naming names[i] for each that is not one. */
bool op_vis_tensor_values(const OpSite *s, Value **args, int n, const char *const *names,
                          const IrTensorData **t);
/* Lowerings: op_prim_open for a result that is a tuple of nout tensors:
 * the call's args 0 .. nin-1 as the inputs named in params[0 .. nin-1],
 * the tuple's fields as the outputs named in the nout params after them.
 * False, p discarded, when result is not such a tuple or a buffer is not
 * a tensor of known shape and dtype. */
bool op_vis_prim_open(OpLegalize *lz, OpPrim *p, const char *name_hint, const IrExpr *call,
                      const IrSInfo *result, const OpPrimParam *params, int nin, int nout);

/* vision_box.c: the hooks of vision.c's box ops. */
IrSInfo *op_vis_infer_multibox(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_vis_eval_multibox(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_vis_legalize_multibox(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_vis_infer_valid_counts(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_vis_eval_valid_counts(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_vis_legalize_valid_counts(OpLegalize *lz, const OpSite *s, IrSInfo *result);

/* vision_nms.c: the hooks of vision.c's non-maximum suppressions. */
IrSInfo *op_vis_infer_all_class_nms(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_vis_eval_all_class_nms(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_vis_legalize_all_class_nms(OpLegalize *lz, const OpSite *s, IrSInfo *result);

/* vision_nms.c: pieces of the suppressions shared with
 * vision_classic_nms.c.  Kernels: */
/* TOPI's calculate_overlap of boxes a and b (4 coordinates each). */
double op_vis_box_iou(const double *a, const double *b);
/* order[0..n) = the positions of s[0..n) sorted descending, stably, a
 * NaN first. */
void op_vis_sort_scores(const double *s, int64_t n, int64_t *order);
/* Lowerings: the scratch of one row of scores at a time. */
typedef struct {
  OpPrim *p;
  IrCtx *ctx;
  IrBuffer *order;  /* int64 [N]: the positions by rank */
  IrBuffer *sorted; /* float64 [N]: their scores (-1 once suppressed) */
  IrBuffer *st;     /* int64 [VIS_NMS_ST]: the counters */
} VisNmsTir;
enum {              /* the counters of VisNmsTir.st */
       VIS_ST_RANK, /* a rank being counted */
       VIS_ST_LO,   /* the binary search's bounds; lo: the candidates */
       VIS_ST_HI,
       VIS_ST_NV,    /* the boxes selected */
       VIS_ST_OFF,   /* rows written before this class / rows moved up */
       VIS_ST_VALID, /* valid_count clamped */
       VIS_ST_KEEP,  /* the rows kept (top_k) */
       VIS_ST_BEST,  /* soft NMS's best row */
       VIS_NMS_ST
};
/* relax_n: the row length as a Relax dim. */
VisNmsTir op_vis_nms_tir_new(OpPrim *p, IrPrimExpr *relax_n);
IrPrimExpr *op_vis_st_get(const VisNmsTir *t, int k);
IrStmt *op_vis_st_set(const VisNmsTir *t, int k, IrPrimExpr *v);
IrStmt *op_vis_st_add(const VisNmsTir *t, int k, IrPrimExpr *v);
/* if cond: then_ else: else_ */
IrStmt *op_vis_if_else(OpPrim *p, IrPrimExpr *cond, IrStmt *then_, IrStmt *else_);
/* A row's score at a position (float64); a box's corners there. */
typedef IrPrimExpr *(*VisScoreAt)(const VisNmsTir *t, void *env, IrPrimExpr *i);
typedef void (*VisBoxAt)(const VisNmsTir *t, void *env, IrPrimExpr *i, IrPrimExpr **corner);
/* order and sorted from the row's first `limit` scores (all n when
 * limit is NULL) by rank, op_vis_sort_scores' order; a position at or
 * past limit keeps its place.  Returns the loop nest. */
IrStmt *op_vis_rank_tir(const VisNmsTir *t, IrPrimExpr *n, IrPrimExpr *limit, VisScoreAt score,
                        void *env);
/* op_vis_box_iou() of the boxes at positions i and j, its quantities
 * let-bound in l. */
IrPrimExpr *op_vis_iou_tir(const VisNmsTir *t, OpLets *l, VisBoxAt box, void *env, IrPrimExpr *i,
                           IrPrimExpr *j);

/* vision_classic_nms.c: the hooks of non_max_suppression. */
IrSInfo *op_vis_infer_nms(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_vis_eval_nms(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_vis_legalize_nms(OpLegalize *lz, const OpSite *s, IrSInfo *result);

#endif
