/*
 * conv_int.h - what the window ops share inside ops/: conv.c (attributes,
 * inference, kernels, the generic lowering of the convolutions, plain and
 * transposed, over 1, 2 or 3 spatial axes), conv_gemm.c (conv2d with
 * groups 1 as register-tiled products), conv_dw.c (depthwise conv2d) and
 * pool.c (the pools' lowering).
 */
#ifndef RXC_CONV_INT_H
#define RXC_CONV_INT_H

#include "nn_int.h"

enum { CONV_RANK = 5, CONV_SP = 3 }; /* at most: dims, spatial axes */

/* A layout of rank dims: pos[k] is the physical dim of logical axis k
 * (N, C, then the spatial axes; kernels O, I or I, O, then the same). */
typedef struct {
  int rank;
  int pos[CONV_RANK];
} Layout;

typedef struct {
  NnWindowKind kind;
  int nsp;               /* spatial axes: 1, 2 or 3 (rank - 2) */
  int64_t size[CONV_SP]; /* pools: window; convolutions: unused */
  int64_t stride[CONV_SP];
  /* before each spatial axis, then after each: pad[a], pad[nsp + a]
   * (2-D: top, left, bottom, right) */
  int64_t pad[2 * CONV_SP];
  int64_t dilation[CONV_SP];
  int64_t output_padding[CONV_SP]; /* transposed convolutions */
  int64_t groups;                  /* convolutions */
  bool ceil_mode;                  /* pools */
  bool count_include_pad;
  Layout data, kernel, out;
  IrDType out_dtype; /* convolutions; IR_VOID: from the inputs */
} Window;

/* Parses the attributes of a window op (a convolution, a pool). */
bool op_conv_parse_window(const OpSite *s, Window *w);

/* The lowest value of dtype t (max_pool2d's start), as a double. */
double op_conv_lowest(IrDType t);

/* A buffer seen in logical order (as View for values). */
typedef struct {
  IrBuffer *b;
  const Layout *l;
} BufView;

IrPrimExpr *op_conv_dim(const BufView *v, int k);
/* v[a, b, c, d] of a 4-D buffer in logical order, in v's dtype. */
IrPrimExpr *op_conv_load_raw(OpPrim *p, const BufView *v, IrPrimExpr *a, IrPrimExpr *b, IrPrimExpr *c,
                     IrPrimExpr *d);
/* v at the logical index idx (v's rank entries), in v's dtype / as float64. */
IrPrimExpr *op_conv_load_at(OpPrim *p, const BufView *v, IrPrimExpr **idx);
IrPrimExpr *op_conv_load(OpPrim *p, const BufView *v, IrPrimExpr **idx);
/* o * stride - pad_before + k * dilation along spatial axis a. */
IrPrimExpr *op_conv_input_pos(IrCtx *ctx, const Window *w, int a, IrPrimExpr *o, IrPrimExpr *k);
/* pos (one per spatial axis) inside extent, or NULL when no window can
 * leave them. */
IrPrimExpr *op_conv_inside(IrCtx *ctx, const Window *w, IrPrimExpr **pos, IrPrimExpr **extent);
/* init; loops; store. */
IrStmt *op_conv_element(OpPrim *p, IrStmt *init, IrStmt *loops, IrStmt *store);
bool op_conv_buffers(OpPrim *p, const Window *w, const IrExpr *call, IrSInfo *result,
                    const char *name, BufView *x, BufView *out);
IrStmt **op_conv_loops(OpPrim *p, const Window *w, const BufView *out, IrPrimExpr **o);
IrStmt **op_conv_begin(OpPrim *p, const Window *w, const IrExpr *call, IrSInfo *result,
                      const char *name, BufView *x, BufView *out, IrPrimExpr **o);
/* The physical index of logical index o. */
IrPrimExpr **op_conv_index(OpPrim *p, const BufView *v, IrPrimExpr **o);
/* out = to_dtype(v) at logical index o. */
IrStmt *op_conv_store(OpPrim *p, const BufView *out, IrPrimExpr **o, IrPrimExpr *v);
bool op_conv_is_f32(const IrBuffer *b);

/* conv_gemm.c: emits conv2d with groups 1 as products of matrices and
 * returns true, or returns false (nothing emitted) when the call does not
 * fit: float32 throughout, static dims but the batch.  weight is the
 * call's weight argument (a constant one is handed over as a matrix). */
bool op_conv_gemm(OpPrim *p, const Window *w, const IrExpr *weight, BufView *x, BufView *k,
                  BufView *out);
/* conv_dw.c: the same for a depthwise conv2d (groups = channels). */
bool op_conv_depthwise(OpPrim *p, const Window *w, BufView *x, BufView *k, BufView *out);

#endif
