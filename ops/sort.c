/*
 * sort.c - order statistics: R.sort, R.argsort, R.topk along one axis,
 * R.median over a set of axes, R.bucketize (search), and the set ops
 * R.unique and R.nonzero, whose result shapes depend on the data.
 *
 * Key ideas:
 *  - One total order serves every op: by value (ascending, or descending
 *    for descending sorts and topk's largest), a NaN after every number
 *    ascending (numpy's sort) and so before them descending, and equal
 *    values by position, lowest first: the sorts are stable, as numpy's
 *    kind="stable" and TVM's CPU sorts (std::stable_sort) are, so the
 *    references are exact.
 *  - The kernel sorts each row's positions with a merge sort under that
 *    order.  The lowering computes each element's rank, the count of
 *    elements of its row that come before it (O(n^2) compares per row, but
 *    plain loops and exact), and stores the element at its rank: sort and
 *    argsort at every rank, topk below k, median at the middle rank
 *    (n - 1) // 2 (the lower median, as TVM's legalization takes it).
 *  - median over several axes takes the lower median of all the elements
 *    of those axes together (TVM's inference allows it; its legalization
 *    sorts along the first axis only).  Over one axis it returns (values,
 *    int64 indices along the axis), as TVM does.
 *  - bucketize counts the boundaries below x (right: at or below), which
 *    is the binary search's answer for the increasing boundaries TVM
 *    requires, and something well defined for others.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"
#include "sort_int.h"
#include "tir_build.h"

/* ------------------------------------------------------------------ */
/* The order in the kernels                                            */
/* ------------------------------------------------------------------ */

/* Whether value a comes strictly before value b (positions aside). */
bool
op_sort_value_before(const Row *w, int64_t a, int64_t b)
{
  const IrTensorData *x = w->x;
  if (ir_dtype_is_float(x->dtype)) {
    double u = op_get_f(x, w->base + w->step[a]), v = op_get_f(x, w->base + w->step[b]);
    if (isnan(u) || isnan(v))
      return w->descending ? isnan(u) && !isnan(v) : !isnan(u) && isnan(v);
    return w->descending ? u > v : u < v;
  }
  int64_t u = op_get_i(x, w->base + w->step[a]), v = op_get_i(x, w->base + w->step[b]);
  return w->descending ? u > v : u < v;
}

/* The total order of a row's elements (env a Row): by value, then by
 * position. */
static bool
comes_before(const void *env, int64_t a, int64_t b)
{
  const Row *w = env;
  return op_sort_value_before(w, a, b) || (!op_sort_value_before(w, b, a) && a < b);
}

/* Sorts idx[0..n) (positions of a row, or items) by before; tmp has n
 * entries.  A top-down merge sort: stable, n log n. */
void
op_sort_merge(Before before, const void *env, int64_t *idx, int64_t *tmp, int64_t n)
{
  if (n < 2)
    return;
  int64_t h = n / 2, i = 0, j = h, k = 0;
  op_sort_merge(before, env, idx, tmp, h);
  op_sort_merge(before, env, idx + h, tmp, n - h);
  while (i < h && j < n)
    tmp[k++] = before(env, idx[j], idx[i]) ? idx[j++] : idx[i++];
  while (i < h)
    tmp[k++] = idx[i++];
  while (j < n)
    tmp[k++] = idx[j++];
  memcpy(idx, tmp, sizeof *idx * (size_t)n);
}

/* ------------------------------------------------------------------ */
/* The ops' attributes                                                 */
/* ------------------------------------------------------------------ */

/* What a call asks: reduced dims (one for the sorts), the order, and the
 * outputs. */
typedef struct {
  IrOpId id;
  bool reduce[64]; /* dims a row runs along */
  int axis;        /* the sorts' axis; -1 for median */
  bool descending;
  int64_t k;       /* topk's k (<= 0: all) */
  bool values;     /* the call gives the values (sort, median, topk) */
  bool indices;    /* the call gives indices (argsort, topk, median over one axis) */
  bool keepdims;   /* median */
  bool all;        /* median over every axis */
  int naxes;       /* median: how many axes given */
  IrDType index_t; /* argsort's and topk's index dtype */
} Ask;

/* Reads the call's attributes for a tensor of rank ndim into a; false
 * after an error (an axis out of range or repeated, a bad ret_type). */
static bool
ask_of(const OpSite *s, int ndim, Ask *a)
{
  memset(a, 0, sizeof *a);
  a->id = s->call->u.call.op->id;
  a->axis = -1;
  a->index_t = IR_I64;
  if (ndim > 64)
    return op_fail(s, "tensors of more than 64 dimensions are not supported");
  if (a->id == IR_OP_MEDIAN) {
    int64_t axes[64];
    if (!op_nn_attr_ints(s, "axis", axes, 64, &a->naxes) ||
        !op_nn_attr_bool(s, "keepdims", false, &a->keepdims))
      return false;
    a->all = a->naxes == 0;
    a->values = true;
    a->indices = a->naxes == 1;
    for (int d = 0; a->all && d < ndim; d++)
      a->reduce[d] = true;
    for (int i = 0; i < a->naxes; i++) {
      if (axes[i] < -ndim || axes[i] >= ndim)
        return op_fail(s, "axis %lld is out of range for a tensor of rank %d", (long long)axes[i],
                       ndim);
      int d = (int)(axes[i] < 0 ? axes[i] + ndim : axes[i]);
      if (a->reduce[d])
        return op_fail(s, "axis %d is repeated", d);
      a->reduce[d] = true;
    }
    return true;
  }
  int64_t axis;
  const char *ret = "both";
  if (!op_nn_attr_int(s, "axis", -1, &axis) ||
      !op_nn_attr_bool(s, a->id == IR_OP_TOPK ? "largest" : "descending", a->id == IR_OP_TOPK,
                       &a->descending) ||
      (a->id == IR_OP_TOPK &&
       (!op_nn_attr_int(s, "k", 1, &a->k) || !op_nn_attr_str(s, "ret_type", "both", &ret))) ||
      (a->id != IR_OP_SORT && !op_nn_attr_dtype(s, "dtype", &a->index_t)))
    return false;
  if (a->index_t.code == IR_DT_VOID)
    a->index_t = IR_I32;
  if (a->index_t.code != IR_DT_INT && a->index_t.code != IR_DT_UINT)
    return op_fail(s, "dtype must be an integer type, not %s", op_nn_dtype_str(s->ctx, a->index_t));
  a->values = a->id != IR_OP_ARGSORT && strcmp(ret, "indices") != 0;
  a->indices = a->id != IR_OP_SORT && strcmp(ret, "values") != 0;
  if (strcmp(ret, "both") && strcmp(ret, "values") && strcmp(ret, "indices"))
    return op_fail(s, "ret_type must be \"both\", \"values\" or \"indices\", not \"%s\"", ret);
  if (ndim == 0 || axis < -ndim || axis >= ndim)
    return op_fail(s, "axis %lld is out of range for a tensor of rank %d", (long long)axis, ndim);
  a->axis = (int)(axis < 0 ? axis + ndim : axis);
  a->reduce[a->axis] = true;
  return true;
}

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

bool
op_sort_tensor_arg(OpInfer *in, const OpSite *s, IrSInfo **args, IrSInfo **x)
{
  if (s->call->u.call.nargs != 1)
    return op_fail(s, "expects 1 argument, got %d", s->call->u.call.nargs);
  return op_nn_tensor_arg(in, s, args, 0, "data", x);
}

/* The call's one argument as a tensor into *x and, with a, the call's
 * attributes for x's rank (ask_of), or for rank `unknown` when x's is
 * unknown (< 0: not read then); false after an error. */
static bool
one_tensor_arg(OpInfer *in, const OpSite *s, IrSInfo **args, int unknown, IrSInfo **x, Ask *a)
{
  if (!op_sort_tensor_arg(in, s, args, x))
    return false;
  int ndim = op_nn_ndim(*x) >= 0 ? op_nn_ndim(*x) : unknown;
  return !a || ndim < 0 || ask_of(s, ndim, a);
}

/* sort: x's struct info; argsort: x's shape with the index dtype. */
static IrSInfo *
infer_sort(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x;
  Ask a;
  if (!one_tensor_arg(in, s, args, -1, &x, &a))
    return NULL;
  int ndim = op_nn_ndim(x);
  IrDType t = op_nn_dtype(x);
  if (s->call->u.call.op->id == IR_OP_ARGSORT) {
    if (ndim < 0 && !op_nn_attr_dtype(s, "dtype", &t))
      return NULL;
    t = ndim < 0 ? (t.code == IR_DT_VOID ? IR_I32 : t) : a.index_t;
  }
  return ir_sinfo_tensor(in->ctx, op_nn_shape(x), ndim, t, op_nn_vdevice(x));
}

/* topk: the axis becomes k, unless k <= 0 or k is at least the literal
 * dim (TVM's rule); a symbolic dim is taken to be at least k. */
static IrSInfo *
infer_topk(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x;
  Ask a;
  if (!one_tensor_arg(in, s, args, 64, &x, &a)) /* an unknown rank: any axis may do */
    return NULL;
  int ndim = op_nn_ndim(x), vdev = op_nn_vdevice(x);
  IrPrimExpr **shape = op_nn_shape(x), **out = NULL;
  if (shape) {
    out = op_nn_index_copy(in->ctx, shape, ndim);
    int64_t dim;
    bool literal = ir_prim_is_int(shape[a.axis], &dim);
    if (a.k > 0 && (!literal || a.k < dim)) {
      out[a.axis] =
          ir_prim_int(in->ctx, shape[a.axis]->dtype.code ? shape[a.axis]->dtype : IR_I64, a.k);
      if (!literal)
        op_assume(in, ir_prim_bin(in->ctx, IR_PE_GE, shape[a.axis], out[a.axis]));
    }
  }
  IrSInfo **f = ir_alloc(in->ctx, sizeof *f * 2);
  f[0] = ir_sinfo_tensor(in->ctx, out, ndim, op_nn_dtype(x), vdev);
  f[1] = ir_sinfo_tensor(in->ctx, out, ndim, a.index_t, vdev);
  if (a.values && a.indices)
    return ir_sinfo_tuple(in->ctx, f, 2);
  return a.values ? f[0] : f[1];
}

/* median: the reduced shape (TVM's rule); over one axis a tuple of the
 * values and their int64 indices. */
static IrSInfo *
infer_median(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x;
  Ask a;
  if (!one_tensor_arg(in, s, args, -1, &x, &a))
    return NULL;
  int ndim = op_nn_ndim(x), vdev = op_nn_vdevice(x);
  IrDType t = op_nn_dtype(x);
  if (ndim < 0) { /* over one axis a pair, as with a known rank (TVM
                   * gives a pair for any axis list here, and for axis
                   * None with keepdims: not what its kernel returns) */
    bool keep, all = !op_attr(s->call, "axis") || op_attr(s->call, "axis")->kind == IR_AT_NONE;
    int64_t axes[64];
    int naxes;
    if (!op_nn_attr_bool(s, "keepdims", false, &keep) ||
        !op_nn_attr_ints(s, "axis", axes, 64, &naxes))
      return NULL;
    IrSInfo *values = ir_sinfo_tensor(in->ctx, ir_alloc(in->ctx, sizeof(IrPrimExpr *)),
                                      all && !keep ? 0 : -1, t, vdev);
    if (naxes != 1)
      return values;
    IrSInfo **f = ir_alloc(in->ctx, sizeof *f * 2);
    f[0] = values;
    f[1] = ir_sinfo_tensor(in->ctx, NULL, -1, IR_I64, vdev);
    return ir_sinfo_tuple(in->ctx, f, 2);
  }
  IrPrimExpr **shape = op_nn_shape(x);
  IrPrimExpr **out = ir_alloc(in->ctx, sizeof *out * (size_t)(ndim ? ndim : 1));
  int n = 0;
  for (int d = 0; d < ndim; d++) {
    if (!a.reduce[d]) {
      out[n++] = shape ? shape[d] : NULL;
      continue;
    }
    int64_t v;
    if (shape && ir_prim_is_int(shape[d], &v) && v == 0)
      return op_fail_null(s, "empty reduction: axis %d has size 0", d);
    if (shape)
      op_assume(in,
                ir_prim_bin(in->ctx, IR_PE_GE, shape[d], ir_prim_int(in->ctx, shape[d]->dtype, 1)));
    if (a.keepdims)
      out[n++] = op_nn_int(in->ctx, 1);
  }
  IrSInfo *values = ir_sinfo_tensor(in->ctx, shape ? out : NULL, n, t, vdev);
  if (a.naxes != 1)
    return values;
  IrSInfo **f = ir_alloc(in->ctx, sizeof *f * 2);
  f[0] = values;
  f[1] = ir_sinfo_tensor(in->ctx, shape ? out : NULL, n, IR_I64, vdev);
  return ir_sinfo_tuple(in->ctx, f, 2);
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

/* The result dims of x under a: the axis becomes kk (the sorts), or the
 * reduced dims go (median; 1 with keepdims).  Returns the rank. */
static int
result_dims(const IrTensorData *x, const Ask *a, int64_t kk, int64_t *dims)
{
  int n = 0;
  for (int d = 0; d < x->ndim; d++) {
    if (!a->reduce[d])
      dims[n++] = x->shape[d];
    else if (a->axis >= 0)
      dims[n++] = kk;
    else if (a->keepdims)
      dims[n++] = 1;
  }
  return n;
}

/* The outputs of a call: values and/or indices (NULL when not given). */
typedef struct {
  IrTensorData *values, *indices;
  int64_t *outer, *inner; /* the outputs' offsets (the sorts), or NULL */
} Outs;

/* Stores row o's sorted positions idx (n of them) as the op gives them. */
static void
store_row(const Ask *a, const Row *w, const int64_t *idx, int64_t n, int64_t kk, Outs *o,
          int64_t row)
{
  if (a->axis < 0) { /* median: one slot per row */
    int64_t m = idx[(n - 1) / 2];
    if (ir_dtype_is_float(w->x->dtype))
      op_set_f(o->values, row, op_get_f(w->x, w->base + w->step[m]));
    else
      op_set_i(o->values, row, op_get_i(w->x, w->base + w->step[m]));
    if (o->indices)
      op_set_i(o->indices, row, m);
    return;
  }
  for (int64_t r = 0; r < kk; r++) {
    int64_t at = o->outer[row] + o->inner[r];
    if (o->values && ir_dtype_is_float(w->x->dtype))
      op_set_f(o->values, at, op_get_f(w->x, w->base + w->step[idx[r]]));
    else if (o->values)
      op_set_i(o->values, at, op_get_i(w->x, w->base + w->step[idx[r]]));
    if (o->indices)
      op_set_i(o->indices, at, idx[r]);
  }
}

/* Sorts every row of x and stores it; false after an error. */
static bool
sort_rows(const OpSite *s, const Ask *a, const IrTensorData *x, int64_t kk, Outs *o)
{
  int64_t *outer, *inner, nouter, ninner;
  if (!op_nn_split_offsets(s, x, a->reduce, &outer, &nouter, &inner, &ninner))
    return false;
  int64_t *idx = malloc(sizeof *idx * (size_t)(ninner ? ninner : 1));
  int64_t *tmp = malloc(sizeof *tmp * (size_t)(ninner ? ninner : 1));
  bool ok = idx && tmp;
  for (int64_t r = 0; ok && r < nouter; r++) {
    Row w = {x, outer[r], inner, a->descending};
    for (int64_t i = 0; i < ninner; i++)
      idx[i] = i;
    op_sort_merge(comes_before, &w, idx, tmp, ninner);
    store_row(a, &w, idx, ninner, kk, o, r);
  }
  if (!ok)
    op_report(s, "out of memory");
  free(idx);
  free(tmp);
  free(outer);
  free(inner);
  return ok;
}

/* An output tensor of dims (and the sorts' offsets into it). */
static IrTensorData *
new_out(const OpSite *s, const Ask *a, IrDType t, int nd, const int64_t *dims, Outs *o, Value **v)
{
  *v = op_nn_tensor_new(s, t, nd, dims);
  if (!*v)
    return NULL;
  IrTensorData *d = &(*v)->u.tensor.t;
  if (a->axis >= 0 && !o->outer) {
    int64_t no, ni;
    if (!op_nn_split_offsets(s, d, a->reduce, &o->outer, &no, &o->inner, &ni))
      return NULL;
  }
  return d;
}

/* Whether topk's struct info gives its result k along the axis though
 * the dim is shorter: infer_topk takes a symbolic dim of the argument's
 * struct info to be at least k. */
static bool
topk_promised_k(const IrExpr *call, const Ask *a)
{
  const IrSInfo *x = call->u.call.nargs > 0 ? call->u.call.args[0]->sinfo : NULL;
  int64_t d;
  return x && x->kind == IR_SI_TENSOR && x->u.tensor.shape && a->axis >= 0 &&
         a->axis < x->u.tensor.ndim && !ir_prim_is_int(x->u.tensor.shape[a->axis], &d);
}

static Value *
eval_sort(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "data");
  Ask a;
  if (!x || !ask_of(s, x->ndim, &a))
    return NULL;
  int64_t dims[64], len = a.axis >= 0 ? x->shape[a.axis] : op_numel(x);
  for (int d = 0; a.axis < 0 && d < x->ndim; d++)
    len = a.reduce[d] ? len : len / (x->shape[d] ? x->shape[d] : 1);
  int64_t kk = a.axis < 0 ? 1 : len;
  if (a.id == IR_OP_TOPK && a.k > 0 && a.k < len)
    kk = a.k;
  if (a.id == IR_OP_TOPK && a.k > len && topk_promised_k(s->call, &a))
    return op_fail_null(
        s,
        "topk: k = %lld exceeds the dim %lld of axis %d, which the struct info takes "
        "to be at least k",
        (long long)a.k, (long long)len, a.axis);
  if (a.id == IR_OP_MEDIAN && op_numel(x) == 0)
    return op_fail_null(s, "empty reduction: median of no elements");
  int nd = result_dims(x, &a, kk, dims);
  Outs o = {0};
  Value *vv = NULL, *vi = NULL;
  bool ok = (!a.values || (o.values = new_out(s, &a, x->dtype, nd, dims, &o, &vv))) &&
            (!a.indices || (o.indices = new_out(s, &a, a.id == IR_OP_MEDIAN ? IR_I64 : a.index_t,
                                                nd, dims, &o, &vi))) &&
            sort_rows(s, &a, x, kk, &o);
  free(o.outer);
  free(o.inner);
  if (!ok)
    return NULL;
  if (vv && vi) {
    Value *pair[2] = {vv, vi};
    return op_tuple_new(ev->ctx, pair, 2);
  }
  return vv ? vv : vi;
}

/* ------------------------------------------------------------------ */
/* Legalization                                                        */
/* ------------------------------------------------------------------ */

/* One ranking prim_func: loops over the kept dims (a row each), over the
 * row's elements i, and inside over its elements j counting those before
 * i into rank; then i is stored at its rank. */
typedef struct {
  OpPrim *p;
  IrCtx *ctx;
  const Ask *a;
  IrBuffer *x;
  IrBuffer *values, *indices; /* outputs, either may be NULL */
  IrBuffer *rank;             /* (1,) int64 */
  IrPrimExpr **at_i, **at_j;  /* x's index of elements i and j */
  IrPrimExpr *kk;             /* topk's k, int64 */
} Ranking;

/* x at an index, widened for comparing: float64 or int64. */
static IrPrimExpr *
key(const Ranking *r, IrPrimExpr **at)
{
  return op_nn_to(r->ctx, ir_dtype_is_float(r->x->dtype) ? op_nn_f64_type() : IR_I64,
                  op_prim_load(r->p, r->x, at));
}

/* u strictly before v by value (the kernel's value_before); x != x is
 * IEEE's NaN test. */
static IrPrimExpr *
less(const Ranking *r, IrPrimExpr *u, IrPrimExpr *v)
{
  IrCtx *c = r->ctx;
  bool desc = r->a->descending;
  IrPrimExpr *by_value = ir_prim_bin(c, desc ? IR_PE_GT : IR_PE_LT, u, v);
  if (!ir_dtype_is_float(r->x->dtype))
    return by_value;
  IrPrimExpr *first = desc ? u : v, *second = desc ? v : u; /* the NaN goes ... */
  IrPrimExpr *nan_order = ir_prim_bin(c, IR_PE_AND, ir_prim_bin(c, IR_PE_EQ, second, second),
                                      ir_prim_bin(c, IR_PE_NE, first, first));
  return ir_prim_bin(c, IR_PE_OR, by_value, nan_order);
}

/* An element's position in its row: its reduced coordinates row-major. */
static IrPrimExpr *
position(const Ranking *r, IrPrimExpr **at)
{
  IrPrimExpr *pos = NULL;
  for (int d = 0; d < r->x->ndim; d++)
    if (r->a->reduce[d])
      pos =
          pos ? op_nn_add(r->ctx, op_nn_mul(r->ctx, pos, op_nn_to(r->ctx, IR_I64, r->x->shape[d])),
                          op_nn_to(r->ctx, IR_I64, at[d]))
              : op_nn_to(r->ctx, IR_I64, at[d]);
  return pos ? pos : op_nn_index(r->ctx, 0);
}

/* The row's length: the product of the reduced extents, int64. */
static IrPrimExpr *
row_length(const Ranking *r)
{
  IrPrimExpr *n = op_nn_index(r->ctx, 1);
  for (int d = 0; d < r->x->ndim; d++)
    if (r->a->reduce[d])
      n = op_nn_mul(r->ctx, n, op_nn_to(r->ctx, IR_I64, r->x->shape[d]));
  return n;
}

/* rank += 1 when element j comes before element i. */
static IrStmt *
count_before(const Ranking *r)
{
  IrCtx *c = r->ctx;
  IrPrimExpr *u = key(r, r->at_j), *v = key(r, r->at_i);
  IrPrimExpr *tie =
      ir_prim_bin(c, IR_PE_AND, ir_prim_bin(c, IR_PE_NOT, less(r, v, u), NULL),
                  ir_prim_bin(c, IR_PE_LT, position(r, r->at_j), position(r, r->at_i)));
  IrPrimExpr *before = ir_prim_bin(c, IR_PE_OR, less(r, u, v), tie);
  IrPrimExpr *zero = op_nn_index(c, 0);
  IrPrimExpr *next = op_nn_add(c, op_prim_load_at(r->p, r->rank, zero),
                               ir_prim_select(c, before, op_nn_index(c, 1), op_nn_index(c, 0)));
  return op_prim_store_at(r->p, r->rank, zero, next);
}

/* Element i stored at its rank: along the axis (the sorts; topk only
 * below k), or at its row's slot when it is the median. */
static IrStmt *
place(const Ranking *r, IrPrimExpr **kept)
{
  IrCtx *c = r->ctx;
  IrPrimExpr *rank = op_prim_load_at(r->p, r->rank, op_nn_index(c, 0));
  IrPrimExpr **to = kept, *cond = NULL;
  IrStmt *s[2];
  int n = 0;
  if (r->a->axis >= 0) {
    to = op_nn_index_copy(c, r->at_i, r->x->ndim);
    to[r->a->axis] = rank;
    if (r->a->id == IR_OP_TOPK)
      cond = ir_prim_bin(c, IR_PE_LT, rank, r->kk);
  } else {
    IrPrimExpr *last = op_nn_sub(c, row_length(r), op_nn_index(c, 1));
    cond = ir_prim_bin(c, IR_PE_EQ, rank, op_nn_floordiv(c, last, op_nn_index(c, 2)));
  }
  if (r->values)
    s[n++] = op_prim_store(r->p, r->values, to, op_prim_load(r->p, r->x, r->at_i));
  if (r->indices)
    s[n++] =
        op_prim_store(r->p, r->indices, to, op_nn_to(c, r->indices->dtype, position(r, r->at_i)));
  return op_nn_if(r->p, cond, op_nn_seq(r->p, s, n));
}

/* The loops: kept dims, then i over the row, rank = 0, j over the row,
 * place. */
static void
emit_ranking(Ranking *r)
{
  IrCtx *c = r->ctx;
  int nd = r->x->ndim;
  IrPrimExpr **kept = ir_alloc(c, sizeof *kept * (size_t)(nd ? nd : 1));
  IrPrimExpr **slot = ir_alloc(c, sizeof *slot * (size_t)(nd ? nd : 1));
  IrStmt *outer, *rows, *cols, *s[3];
  r->at_i = ir_alloc(c, sizeof *r->at_i * (size_t)(nd ? nd : 1));
  IrStmt **body = op_nn_nest_dims(r->p, r->x->shape, nd, r->a->reduce, false, r->at_i, &outer);
  r->at_j = op_nn_index_copy(c, r->at_i, nd);
  int nslot = 0;
  for (int d = 0; d < nd; d++) {
    if (!r->a->reduce[d])
      slot[nslot++] = r->at_i[d];
    else if (r->a->keepdims)
      slot[nslot++] = op_nn_index(c, 0);
  }
  memcpy(kept, slot, sizeof *kept * (size_t)nslot);
  IrStmt **each_i = op_nn_nest_dims(r->p, r->x->shape, nd, r->a->reduce, true, r->at_i, &rows);
  IrStmt **each_j = op_nn_nest_dims(r->p, r->x->shape, nd, r->a->reduce, true, r->at_j, &cols);
  *each_j = count_before(r);
  s[0] = op_prim_store_at(r->p, r->rank, op_nn_index(c, 0), op_nn_index(c, 0));
  s[1] = cols;
  s[2] = place(r, kept);
  *each_i = op_nn_seq(r->p, s, 3);
  *body = rows;
  op_prim_emit(r->p, outer);
}

static IrExpr *
legalize_sort(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  const char *name = strrchr(s->call->u.call.op->name, '.') + 1;
  OpPrim p;
  Ask a;
  op_prim_begin(lz, &p, name);
  Ranking r = {.p = &p, .ctx = lz->ctx, .a = &a};
  r.x = op_prim_input(&p, s->call->u.call.args[0], "A");
  bool tuple = result->kind == IR_SI_TUPLE;
  if (!r.x || !ask_of(s, r.x->ndim, &a) || tuple != (a.values && a.indices) ||
      (tuple && result->u.tuple.n != 2))
    return op_prim_give_up(&p);
  IrSInfo *vs = tuple ? result->u.tuple.fields[0] : result;
  IrSInfo *is = tuple ? result->u.tuple.fields[1] : result;
  const char *vname = ir_printf(lz->ctx, "T_%s", name);
  const char *iname = ir_printf(lz->ctx, "T_%s_indices", name);
  if ((a.values && !(r.values = op_prim_output(&p, vs, vname))) ||
      (a.indices && !(r.indices = op_prim_output(&p, is, iname))))
    return op_prim_give_up(&p);
  if (a.id == IR_OP_TOPK) {
    IrBuffer *o = r.values ? r.values : r.indices;
    r.kk = op_nn_to(lz->ctx, IR_I64, o->shape[a.axis]);
  }
  IrPrimExpr *one = op_nn_index(lz->ctx, 1);
  r.rank = op_prim_alloc(&p, IR_I64, &one, 1, "rank");
  emit_ranking(&r);
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* R.bucketize                                                         */
/* ------------------------------------------------------------------ */

/* The index dtype: int32 with out_int32, else int64. */
static bool
bucket_dtype(const OpSite *s, IrDType *t)
{
  bool small;
  if (!op_nn_attr_bool(s, "out_int32", false, &small))
    return false;
  *t = small ? IR_I32 : IR_I64;
  return true;
}

static IrSInfo *
infer_bucketize(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x, *b;
  IrDType t;
  if (s->call->u.call.nargs != 2)
    return op_fail_null(s, "expects 2 arguments, got %d", s->call->u.call.nargs);
  if (!op_nn_tensor_arg(in, s, args, 0, "input_tensor", &x) ||
      !op_nn_tensor_arg(in, s, args, 1, "boundaries", &b) || !bucket_dtype(s, &t))
    return NULL;
  if (op_nn_ndim(b) >= 0 && op_nn_ndim(b) != 1)
    return op_fail_null(s, "boundaries must be a 1-D tensor, not of rank %d", op_nn_ndim(b));
  return ir_sinfo_tensor(in->ctx, op_nn_shape(x), op_nn_ndim(x), t, op_nn_vdevice(x));
}

/* Whether boundary v counts below x: v < x, or v <= x with right.  Ints
 * of both compare as int64, else as doubles. */
static bool
bucket_below(const IrTensorData *x, int64_t i, const IrTensorData *b, int64_t j, bool right)
{
  if (!ir_dtype_is_float(x->dtype) && !ir_dtype_is_float(b->dtype)) {
    int64_t u = op_get_i(x, i), v = op_get_i(b, j);
    return right ? v <= u : v < u;
  }
  double u = op_get_f(x, i), v = op_get_f(b, j);
  return right ? v <= u : v < u;
}

static Value *
eval_bucketize(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "input_tensor");
  const IrTensorData *b = x ? op_nn_tensor_value(s, args, 1, "boundaries") : NULL;
  IrDType t;
  bool right;
  if (!b || !bucket_dtype(s, &t) || !op_nn_attr_bool(s, "right", false, &right))
    return NULL;
  if (b->ndim != 1)
    return op_fail_null(s, "boundaries must be a 1-D tensor, not of rank %d", b->ndim);
  Value *v = op_nn_tensor_new(s, t, x->ndim, x->shape);
  if (!v)
    return NULL;
  for (int64_t i = 0, n = op_numel(x); i < n; i++) {
    int64_t count = 0;
    for (int64_t j = 0; j < b->shape[0]; j++)
      count += bucket_below(x, i, b, j, right);
    op_set_i(&v->u.tensor.t, i, count);
  }
  return v;
}

/* Per element of x, a loop over the boundaries counting those below it. */
static IrExpr *
legalize_bucketize(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *c = lz->ctx;
  bool right;
  OpPrim p;
  IrBuffer *x, *b, *out;
  if (!op_prim_open(lz, &p, "bucketize", s->call, result,
                    (OpPrimParam[]){{"A", &x}, {"B", &b}, {"T_bucketize", &out}}, 3))
    return NULL;
  if (b->ndim != 1 || !op_nn_attr_bool(s, "right", false, &right))
    return op_prim_give_up(&p);
  IrDType t =
      ir_dtype_is_float(x->dtype) || ir_dtype_is_float(b->dtype) ? op_nn_f64_type() : IR_I64;
  IrPrimExpr *one = op_nn_index(c, 1), *zero = op_nn_index(c, 0), **at, **j;
  IrBuffer *count = op_prim_alloc(&p, IR_I64, &one, 1, "count");
  IrStmt **body = op_prim_loops(&p, x->shape, x->ndim, &at), *scan, *st[3];
  IrStmt **step = op_prim_loop_nest(&p, b->shape, 1, &j, &scan);
  IrPrimExpr *below =
      ir_prim_bin(c, right ? IR_PE_LE : IR_PE_LT, op_nn_to(c, t, op_prim_load(&p, b, j)),
                  op_nn_to(c, t, op_prim_load(&p, x, at)));
  IrPrimExpr *counted = ir_prim_select(c, below, op_nn_index(c, 1), op_nn_index(c, 0));
  *step =
      op_prim_store_at(&p, count, zero, op_nn_add(c, op_prim_load_at(&p, count, zero), counted));
  st[0] = op_prim_store_at(&p, count, zero, op_nn_index(c, 0));
  st[1] = scan;
  st[2] = op_prim_store(&p, out, at, op_nn_to(c, out->dtype, op_prim_load_at(&p, count, zero)));
  *body = op_nn_seq(&p, st, 3);
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

static const OpDef defs[] = {
    OP(IR_OP_SORT, "relax.sort",
       .syn.params = {OP_ARG("x"), OP_ATTR("axis", "-1"), OP_ATTR("descending", "False")},
       .syn.nparams = 3, .impl = {infer_sort, eval_sort, legalize_sort}),
    OP(IR_OP_ARGSORT, "relax.argsort",
       .syn.params = {OP_ARG("data"), OP_ATTR("axis", "-1"), OP_ATTR("descending", "False"),
                      OP_ATTR("dtype", "\"int32\"")},
       .syn.nparams = 4, .impl = {infer_sort, eval_sort, legalize_sort}),
    /* ties: the lowest index first */
    OP(IR_OP_TOPK, "relax.topk",
       .syn.params = {OP_ARG("data"), OP_ATTR("k", "1"), OP_ATTR("axis", "-1"),
                      OP_ATTR("ret_type", "\"both\""), OP_ATTR("largest", "True"),
                      OP_ATTR("dtype", "\"int32\"")},
       .syn.nparams = 6, .impl = {infer_topk, eval_sort, legalize_sort}),
    /* the lower median; over one axis (values, int64 indices) */
    OP(IR_OP_MEDIAN, "relax.median",
       .syn.params = {OP_ARG("x"), OP_ATTR("axis", "None"), OP_ATTR("keepdims", "False")},
       .syn.nparams = 3, .impl = {infer_median, eval_sort, legalize_sort}),
    OP(IR_OP_BUCKETIZE, "relax.bucketize",
       .syn.params = {OP_ARG("input_tensor"), OP_ARG("boundaries"), OP_ATTR("out_int32", "False"),
                      OP_ATTR("right", "False")},
       .syn.nparams = 4, .impl = {infer_bucketize, eval_bucketize, legalize_bucketize}),
    /* data-dependent shapes: their hooks are in data_dims.c */
    OP(IR_OP_UNIQUE, "relax.unique",
       .syn.params = {OP_ARG("x"),
                      {"sorted", IR_PARAM_PRIM, "True"},
                      {"return_index", IR_PARAM_PRIM, "False"},
                      {"return_inverse", IR_PARAM_PRIM, "False"},
                      {"return_counts", IR_PARAM_PRIM, "False"},
                      {"axis", IR_PARAM_PRIM, "None"}},
       .syn.nparams = 6,
       .impl = {op_sort_infer_unique, op_sort_eval_unique, op_sort_legalize_unique}),
    OP(IR_OP_NONZERO, "relax.nonzero", .syn.params = {OP_ARG("x")}, .syn.nparams = 1,
       .impl = {op_sort_infer_nonzero, op_sort_eval_nonzero, op_sort_legalize_nonzero}),
};

const OpTable op_sort_table = {defs, sizeof defs / sizeof defs[0]};
