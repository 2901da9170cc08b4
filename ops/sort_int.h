/*
 * sort_int.h - what sort.c shares with data_dims.c, the file of its
 * entries R.unique and R.nonzero: the order of values and the merge sort
 * of the kernels, the one-tensor argument, and those two ops' hooks.
 */
#ifndef RXC_SORT_INT_H
#define RXC_SORT_INT_H

#include "nn_int.h"

/* A row of x: element r is x[base + step[r]]. */
typedef struct {
  const IrTensorData *x;
  int64_t base;
  const int64_t *step; /* inner offsets (op_nn_split_offsets) */
  bool descending;
} Row;

/* Whether value a comes strictly before value b (positions aside). */
bool op_sort_value_before(const Row *w, int64_t a, int64_t b);
/* Whether item a goes strictly before item b. */
typedef bool (*Before)(const void *env, int64_t a, int64_t b);
/* Sorts idx[0..n) (positions of a row, or items) by before; tmp has n
 * entries.  A top-down merge sort: stable, n log n. */
void op_sort_merge(Before before, const void *env, int64_t *idx, int64_t *tmp, int64_t n);
/* The call's one argument as a tensor into *x; false after an error. */
bool op_sort_tensor_arg(OpInfer *in, const OpSite *s, IrSInfo **args, IrSInfo **x);

/* data_dims.c */
IrSInfo *op_sort_infer_unique(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_sort_eval_unique(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_sort_legalize_unique(OpLegalize *lz, const OpSite *s, IrSInfo *result);
IrSInfo *op_sort_infer_nonzero(OpInfer *in, const OpSite *s, IrSInfo **args);
Value *op_sort_eval_nonzero(OpEval *ev, const OpSite *s, Value **args);
IrExpr *op_sort_legalize_nonzero(OpLegalize *lz, const OpSite *s, IrSInfo *result);

#endif
