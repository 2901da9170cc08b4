/*
 * conv_int.h - what the window ops share inside ops/: conv.c (attributes,
 * inference, kernels, the generic lowering), conv_gemm.c (conv2d with
 * groups 1 as register-tiled products), conv_dw.c (depthwise conv2d) and
 * pool.c (the pools' lowering).
 */
#ifndef RXC_CONV_INT_H
#define RXC_CONV_INT_H

#include "nn_int.h"

/* A layout: pos[k] is the physical dim of logical axis k. */
typedef struct {
  int pos[4];
} Layout;

typedef struct {
  int64_t size[2]; /* pools: window; conv2d: unused */
  int64_t stride[2];
  int64_t pad[4]; /* top, left, bottom, right */
  int64_t dilation[2];
  int64_t groups; /* conv2d */
  bool ceil_mode; /* pools */
  bool count_include_pad;
  Layout data, kernel, out;
  IrDType out_dtype; /* conv2d; IR_VOID: from the inputs */
} Window;

/* Parses the attributes of a window op (conv2d, the pools). */
bool op_conv_parse_window(const NnSite *s, Window *w);

/* The lowest value of dtype t (max_pool2d's start), as a double. */
double op_conv_lowest(IrDType t);

/* A 4-D buffer seen in logical order (as View for values). */
typedef struct {
  IrBuffer *b;
  const Layout *l;
} BufView;

IrPrimExpr *op_conv_dim(const BufView *v, int k);
/* v[a, b, c, d] in logical order, in v's dtype / as float64. */
IrPrimExpr *op_conv_load_raw(OpPrim *p, const BufView *v, IrPrimExpr *a, IrPrimExpr *b, IrPrimExpr *c,
                     IrPrimExpr *d);
IrPrimExpr *op_conv_load(OpPrim *p, const BufView *v, IrPrimExpr *a, IrPrimExpr *b, IrPrimExpr *c,
                    IrPrimExpr *d);
/* o * stride - pad_before + k * dilation along spatial axis a (0: H, 1: W). */
IrPrimExpr *op_conv_input_pos(IrCtx *ctx, const Window *w, int a, IrPrimExpr *o, IrPrimExpr *k);
/* (iy, ix) inside extents (h, w), or NULL when no window can leave them. */
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
