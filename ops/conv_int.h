/*
 * conv_int.h - what the window ops share inside ops/: conv.c (attributes,
 * inference, kernels, the generic lowering of the convolutions, plain and
 * transposed, over 1, 2 or 3 spatial axes), conv_gemm.c (conv2d with
 * groups 1, or several input channels a group, as register-tiled
 * products), conv_dw.c (depthwise conv2d) and
 * pool.c (the pools' inference, kernels and lowering).
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

/* conv.c: what the pools' inference and kernels (pool.c) share with the
 * convolutions'. */
/* A tensor argument of l's rank: false after an error; *dims its dims in
 * logical order, or NULL when unknown. */
bool op_conv_window_arg(OpInfer *in, const OpSite *s, IrSInfo **args, int i, const char *what,
                        const Layout *l, IrSInfo **t, IrPrimExpr ***dims);
/* The output extent along spatial axis a of an input of extent x and a
 * window of extent k, simplified. */
IrPrimExpr *op_conv_out_extent(OpInfer *in, const Window *w, int a, IrPrimExpr *x, IrPrimExpr *k);
/* A tensor of the given logical dims in layout l. */
IrSInfo *op_conv_tensor_in_layout(OpInfer *in, IrPrimExpr **logical, const Layout *l, IrDType t,
                                  int vdevice);

/* A tensor value seen in logical order: dims and element strides. */
typedef struct {
  const IrTensorData *t;
  int rank;
  int64_t dim[CONV_RANK];
  int64_t stride[CONV_RANK];
} View;

/* Every output element of a window op: out[i] = point(i).  With ints the
 * point computes in integers, exactly, into *exact (which is stored), not
 * in double: a conv2d of integers (op_nn_sum_type) and max_pool of
 * integers, whose int64 values double cannot all hold. */
typedef double (*PointFn)(const Window *w, const View *x, const View *k, const int64_t *i,
                          bool ints, int64_t *exact);

/* t seen through layout l as *v; false after an error (t not of l's rank). */
bool op_conv_view_of(const OpSite *s, const IrTensorData *t, const Layout *l, const char *what,
                     View *v);
/* The element offset of logical index i. */
int64_t op_conv_at(const View *v, const int64_t *i);
/* Steps the index i over extents ext (n of them) in row-major order;
 * false after the last. */
bool op_conv_next_index(int64_t *i, const int64_t *ext, int n);
/* The concrete output extent (op_conv_out_extent's); false after an error
 * when it would be negative. */
bool op_conv_extent_value(const OpSite *s, const Window *w, int a, int64_t x, int64_t k,
                          int64_t *out);
/* The output of dims o (logical), its element i point(w, x, k, i). */
Value *op_conv_fill_output(const OpSite *s, const Window *w, IrDType t, const int64_t *o,
                           const View *x, const View *k, PointFn point, bool ints);

/* A buffer seen in logical order (as View for values). */
typedef struct {
  IrBuffer *b;
  const Layout *l;
} BufView;

IrPrimExpr *op_conv_dim(const BufView *v, int k);
/* v[a, b, c, d] of a 4-D buffer in logical order, in v's dtype. */
IrPrimExpr *op_conv_load_raw(OpPrim *p, const BufView *v, IrPrimExpr *a, IrPrimExpr *b,
                             IrPrimExpr *c, IrPrimExpr *d);
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
/* Is v's layout NCHW itself (its axes in their logical order)? */
bool op_conv_is_nchw(const BufView *v);

/* One call of rt/'s im2col kernel for elements of dtype t (conv_gemm.c;
 * NULL when rt/ has none for t):
 *   rxc_k_im2col(dst, src, channels, in_h, in_w, y0, x0, rows, cols,
 *                kh, kw, sh, sw, dh, dw, width)
 * src the first channel's plane of an NCHW input, (y0, x0) the input
 * position of output (0, 0)'s first tap. */
typedef struct {
  IrPrimExpr *dst, *src, *y0, *x0;
  int64_t channels, in_h, in_w, rows, cols, kh, kw, sh, sw, dh, dw, width;
} Im2col;
IrStmt *op_conv_im2col(OpPrim *p, IrDType t, const Im2col *c);

/* conv_gemm.c: emits conv2d with groups 1 as products of matrices (a
 * grouped one as a product a group) and returns true, or returns false
 * (nothing emitted) when the call does not fit: float32 throughout (or
 * integer operands: op_nn_tile_type), static dims but the batch, groups
 * 1 or several input channels a group.  weight is the
 * call's weight argument (a constant one is handed over as a matrix). */
bool op_conv_gemm(OpPrim *p, const Window *w, const IrExpr *weight, BufView *x, BufView *k,
                  BufView *out);
/* conv_direct.c: the same in the C for libtcc for a float32 conv2d of
 * stride 1, any groups, NCHW, with a window of more than one tap (its
 * products read the padded input in place: rxc_k_conv_f32). */
bool op_conv_direct(OpPrim *p, const Window *w, BufView *x, BufView *k, BufView *out);
/* conv_dw.c: the same for a depthwise conv2d (groups = channels). */
bool op_conv_depthwise(OpPrim *p, const Window *w, BufView *x, BufView *k, BufView *out);

#endif
