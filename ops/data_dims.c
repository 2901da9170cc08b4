/*
 * data_dims.c - R.unique and R.nonzero (entries in sort.c), whole: the
 * operators whose result shape is tensor data, with
 * R.dynamic_strided_slice (manip_extra.c).
 *
 * Key ideas (TVM's legalization of dynamic_strided_slice, in
 * python/tvm/relax/transform/legalize_ops/index.py, for all three
 * lowerings):
 *  - A first prim_func of fixed shape computes the result's dims into a
 *    small int64 tensor; op_data_dims (tir_build.c) binds them to fresh
 *    symbolic vars (R.tensor_to_shape, then R.match_cast); a second
 *    prim_func writes the result of exactly that shape, the vars passed
 *    as tir_vars.  The interpreter runs the bindings as they are; the
 *    generated C reads the vars where the match_cast binds them
 *    (codegen/gen_check.c).
 *  - Each var needs an upper bound for the arena (the rule of each op
 *    below, a constant: a symbolic input dim needs its own bound); it goes
 *    to the function's tir_var_upper_bound unless the function states one.
 *  - Whatever the data, the second kernel stays inside its buffers: it
 *    recomputes what the first did from the same data, and its indices
 *    are clamped or guarded as well (ops/manip_join.c's policy for
 *    data the generated code depends on).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sort_int.h"
#include "tir_build.h"

static IrPrimExpr *
lit(IrCtx *ctx, int64_t v)
{
  return ir_prim_int(ctx, IR_I64, v);
}

static IrPrimExpr *
bin(IrCtx *ctx, IrPrimKind k, IrPrimExpr *a, IrPrimExpr *b)
{
  return ir_prim_bin(ctx, k, a, b);
}

/* op_nn_seq and op_nn_if, shorter */
static IrStmt *
seq(OpPrim *p, IrStmt **stmts, int n)
{
  return op_nn_seq(p, stmts, n);
}

static IrStmt *
if_then(OpPrim *p, IrPrimExpr *cond, IrStmt *then_)
{
  return op_nn_if(p, cond, then_);
}

/* x != 0 as the interpreter tests it (NaN is nonzero). */
static IrPrimExpr *
nonzero_test(IrCtx *ctx, IrPrimExpr *x)
{
  IrDType t = x->dtype;
  IrPrimExpr *zero = ir_dtype_is_float(t) ? ir_prim_float(ctx, t, 0.0) : ir_prim_int(ctx, t, 0);
  return bin(ctx, IR_PE_NE, x, zero);
}

/* ------------------------------------------------------------------ */
/* R.unique, R.nonzero: data-dependent shapes                          */
/* ------------------------------------------------------------------ */

/* Their result shapes depend on the data, so their struct info gives the
 * rank only (TVM's rule) and the interpreter the exact shape.  Their
 * lowerings (below) count in a first kernel, bind the count to a
 * fresh var (R.tensor_to_shape + R.match_cast) and write the result in a
 * second.  The arena's bound is the input's: unique gives at most
 * numel(x) items (x.shape[axis] slices along an axis) and so at most that
 * many indices and counts, nonzero at most (max(ndim, 1), numel(x))
 * indices. */

/* unique's flags: R.prim_value arguments 1..4 (sorted, return_index,
 * return_inverse, return_counts) and the optional axis (argument 5).
 * From struct info when inferring (vals NULL), from values when running. */
typedef struct {
  bool sorted, index, inverse, counts;
  bool has_axis;
  int64_t axis;
} UniqueAsk;

static bool
unique_flag(const OpSite *s, IrSInfo **args, Value **vals, int i, int64_t *out)
{
  if (vals) {
    if (vals[i]->kind == VAL_PRIM) {
      *out = vals[i]->u.prim.i;
      return true;
    }
  } else if (args[i]->kind == IR_SI_PRIM && args[i]->u.prim.value &&
             ir_prim_is_int(args[i]->u.prim.value, out)) {
    return true;
  }
  return op_fail(s, "argument %d must be a literal R.prim_value", i);
}

static bool
unique_ask(const OpSite *s, const IrExpr *call, IrSInfo **args, Value **vals, UniqueAsk *u)
{
  int64_t f[4];
  int n = call->u.call.nargs;
  if (n != 5 && n != 6)
    return op_fail(s, "expects 5 or 6 arguments, got %d", n);
  for (int i = 0; i < 4; i++)
    if (!unique_flag(s, args, vals, i + 1, &f[i]))
      return false;
  u->sorted = f[0], u->index = f[1], u->inverse = f[2], u->counts = f[3];
  u->has_axis = n == 6;
  return !u->has_axis || unique_flag(s, args, vals, 5, &u->axis);
}

IrSInfo *
op_sort_infer_unique(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x;
  UniqueAsk u;
  if (s->call->u.call.nargs < 1 || !op_nn_tensor_arg(in, s, args, 0, "x", &x) ||
      !unique_ask(s, s->call, args, NULL, &u))
    return NULL;
  int ndim = op_nn_ndim(x), vdev = op_nn_vdevice(x), d;
  if (u.has_axis && ndim >= 0 && !op_axis(in, s->call, u.axis, ndim, &d))
    return NULL;
  IrSInfo **f = ir_alloc(in->ctx, sizeof *f * 4);
  int n = 0;
  IrPrimExpr **one = NULL;
  if (ndim == 0) {
    one = ir_alloc(in->ctx, sizeof *one);
    one[0] = op_nn_int(in->ctx, 1);
  }
  f[n++] = ir_sinfo_tensor(in->ctx, one,
                           ndim == 0    ? 1
                           : u.has_axis ? ndim
                                        : 1,
                           op_nn_dtype(x), vdev);
  for (int k = 0; k < 3; k++)
    if ((k == 0 && u.index) || (k == 1 && u.inverse) || (k == 2 && u.counts))
      f[n++] = ir_sinfo_tensor(in->ctx, one, 1, IR_I64, vdev);
  return n == 1 ? f[0] : ir_sinfo_tuple(in->ctx, f, n);
}

/* x's items: slices along the axis (or its elements), each of len values
 * item i's value j at x[base(i) + off[j]]. */
typedef struct {
  const IrTensorData *x;
  int64_t *outer, *inner; /* op_nn_split_offsets with the axis as "outer" */
  int64_t len;
} Items;

/* -1, 0, 1: item a against item b, value by value (the sort order:
 * NaN after numbers and equal to NaN). */
static int
item_compare(const Items *it, int64_t a, int64_t b)
{
  for (int64_t j = 0; j < it->len; j++) {
    int64_t pa = it->outer[a] + it->inner[j], pb = it->outer[b] + it->inner[j];
    Row w = {it->x, 0, NULL, false};
    int64_t step[2] = {pa, pb};
    w.step = step;
    if (op_sort_value_before(&w, 0, 1))
      return -1;
    if (op_sort_value_before(&w, 1, 0))
      return 1;
  }
  return 0;
}

/* Item order for merge_sort (env an Items). */
static bool
item_before(const void *env, int64_t a, int64_t b)
{
  return item_compare(env, a, b) < 0;
}

static Value *
int64_vector(const OpSite *s, const int64_t *v, int64_t n)
{
  Value *t = op_nn_tensor_new(s, IR_I64, 1, &n);
  for (int64_t i = 0; t && i < n; i++)
    op_set_i(&t->u.tensor.t, i, v[i]);
  return t;
}

/* The unique items' values, in order, as a tensor of x's shape with the
 * axis (or the flattened x) holding k items. */
static Value *
unique_values(const OpSite *s, const Items *it, const UniqueAsk *u, int axis, const int64_t *first,
              int64_t k)
{
  const IrTensorData *x = it->x;
  int64_t dims[64];
  int nd = u->has_axis ? x->ndim : 1;
  for (int d = 0; d < nd; d++)
    dims[d] = !u->has_axis ? k : d == axis ? k : x->shape[d];
  Value *v = op_nn_tensor_new(s, x->dtype, nd, dims);
  if (!v)
    return NULL;
  IrTensorData *o = &v->u.tensor.t;
  int64_t after = 1; /* the out offset of (item g, value j): as x's layout with k items */
  for (int d = axis + 1; u->has_axis && d < x->ndim; d++)
    after *= x->shape[d];
  for (int64_t g = 0; g < k; g++)
    for (int64_t j = 0; j < it->len; j++) {
      int64_t at = u->has_axis ? (j / after * k + g) * after + j % after : g;
      int64_t from = it->outer[first[g]] + it->inner[j];
      if (ir_dtype_is_float(x->dtype))
        op_set_f(o, at, op_get_f(x, from));
      else
        op_set_i(o, at, op_get_i(x, from));
    }
  return v;
}

Value *
op_sort_eval_unique(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "x");
  UniqueAsk u;
  if (!x || !unique_ask(s, s->call, NULL, args, &u))
    return NULL;
  if (u.has_axis && (u.axis < -x->ndim || u.axis >= x->ndim))
    return op_fail_null(s, "axis %lld is out of range for a tensor of rank %d", (long long)u.axis,
                        x->ndim);
  int axis = u.has_axis ? (int)(u.axis < 0 ? u.axis + x->ndim : u.axis) : -1;
  bool pick[64] = {false};
  for (int d = 0; d < x->ndim; d++)
    pick[d] = u.has_axis ? d != axis : true;
  Items it = {x, NULL, NULL, 0};
  int64_t m, zero = 0;
  if (u.has_axis) {
    if (!op_nn_split_offsets(s, x, pick, &it.outer, &m, &it.inner, &it.len))
      return NULL;
  } else { /* every element an item */
    m = op_numel(x);
    it.len = 1;
    it.outer = malloc(sizeof *it.outer * (size_t)(m ? m : 1));
    it.inner = malloc(sizeof *it.inner);
    for (int64_t i = 0; it.outer && i < m; i++)
      it.outer[i] = i;
    if (it.inner)
      it.inner[0] = zero;
  }
  size_t bytes = sizeof(int64_t) * (size_t)(m ? m : 1);
  int64_t *order = malloc(bytes), *tmp = malloc(bytes), *first = malloc(bytes);
  int64_t *count = malloc(bytes), *group = malloc(bytes), *rank = malloc(bytes);
  Value *out[4] = {NULL};
  int n = 0;
  if (!it.outer || !it.inner || !order || !tmp || !first || !count || !group || !rank) {
    op_report(s, "out of memory");
    goto done;
  }
  for (int64_t i = 0; i < m; i++)
    order[i] = i;
  op_sort_merge(item_before, &it, order, tmp, m);
  int64_t k = 0; /* groups of equal items, in sorted order */
  for (int64_t i = 0; i < m; i++) {
    if (i == 0 || item_compare(&it, order[i - 1], order[i]) != 0) {
      first[k] = order[i]; /* the stable sort puts the first occurrence first */
      count[k++] = 0;
    }
    count[k - 1]++;
    group[order[i]] = k - 1;
  }
  for (int64_t g = 0; g < k; g++) /* where group g goes: sorted, or by first occurrence */
    rank[g] = g;
  if (!u.sorted) {
    for (int64_t g = 0; g < k; g++)
      tmp[g] = g;
    for (int64_t g = 1; g < k; g++) /* insertion sort of groups by first index */
      for (int64_t h = g; h > 0 && first[tmp[h - 1]] > first[tmp[h]]; h--) {
        int64_t t = tmp[h];
        tmp[h] = tmp[h - 1];
        tmp[h - 1] = t;
      }
    for (int64_t g = 0; g < k; g++)
      rank[tmp[g]] = g;
  }
  int64_t *first_at = malloc(bytes), *count_at = malloc(bytes), *inverse = malloc(bytes);
  if (first_at && count_at && inverse) {
    for (int64_t g = 0; g < k; g++) {
      first_at[rank[g]] = first[g];
      count_at[rank[g]] = count[g];
    }
    for (int64_t i = 0; i < m; i++)
      inverse[i] = rank[group[i]];
    out[n++] = unique_values(s, &it, &u, axis, first_at, k);
    if (u.index)
      out[n++] = int64_vector(s, first_at, k);
    if (u.inverse)
      out[n++] = int64_vector(s, inverse, m);
    if (u.counts)
      out[n++] = int64_vector(s, count_at, k);
  } else {
    op_report(s, "out of memory");
  }
  free(first_at);
  free(count_at);
  free(inverse);
done:
  free(it.outer);
  free(it.inner);
  free(order);
  free(tmp);
  free(first);
  free(count);
  free(group);
  free(rank);
  for (int i = 0; i < n; i++)
    if (!out[i])
      return NULL;
  if (n == 0)
    return NULL;
  return n == 1 ? out[0] : op_tuple_new(ev->ctx, out, n);
}

IrSInfo *
op_sort_infer_nonzero(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x;
  if (!op_sort_tensor_arg(in, s, args, &x))
    return NULL;
  return ir_sinfo_tensor(in->ctx, NULL, 2, IR_I64, op_nn_vdevice(x));
}

/* (max(ndim, 1), count): the coordinates of each nonzero element, in
 * row-major order (a 0-d x is taken as 1-d, as numpy does). */
Value *
op_sort_eval_nonzero(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "x");
  if (!x)
    return NULL;
  int64_t n = op_numel(x), count = 0, rows = x->ndim ? x->ndim : 1;
  for (int64_t i = 0; i < n; i++)
    count += ir_dtype_is_float(x->dtype) ? op_get_f(x, i) != 0 : op_get_i(x, i) != 0;
  int64_t dims[2] = {rows, count};
  Value *v = op_nn_tensor_new(s, IR_I64, 2, dims);
  if (!v)
    return NULL;
  for (int64_t i = 0, c = 0; i < n; i++) {
    if (ir_dtype_is_float(x->dtype) ? op_get_f(x, i) == 0 : op_get_i(x, i) == 0)
      continue;
    int64_t rest = i;
    for (int d = x->ndim - 1; d >= 0; d--) {
      op_set_i(&v->u.tensor.t, d * count + c, rest % x->shape[d]);
      rest /= x->shape[d];
    }
    if (x->ndim == 0)
      op_set_i(&v->u.tensor.t, c, 0);
    c++;
  }
  return v;
}

/* ------------------------------------------------------------------ */
/* R.nonzero                                                           */
/* ------------------------------------------------------------------ */

/* The count of nonzero elements is at most numel(x): the result is
 * (max(ndim, 1), count) with count <= numel(x). */
IrExpr *
op_sort_legalize_nonzero(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  (void)result;
  IrCtx *ctx = lz->ctx;
  const IrSInfo *xs = op_data_known_tensor(s->call->u.call.args[0]);
  if (!xs)
    return NULL;
  int nd = xs->u.tensor.ndim, vdev = xs->u.tensor.vdevice, rows = nd ? nd : 1;
  IrPrimExpr *numel = lit(ctx, 1);
  for (int d = 0; d < nd; d++)
    numel = bin(ctx, IR_PE_MUL, numel, op_prim_i64(ctx, xs->u.tensor.shape[d]));
  if (lz->arith)
    numel = ir_arith_simplify(lz->arith, numel);
  /* the count: out[0] = 0; for i...: out[0] += x[i...] != 0 */
  OpPrim p;
  op_prim_begin(lz, &p, "nonzero_count");
  IrBuffer *x = op_prim_input(&p, s->call->u.call.args[0], "A");
  IrSInfo *count_s = op_data_i64_vector(ctx, 1, vdev);
  IrBuffer *out = op_prim_output(&p, count_s, "T_count");
  if (!x || !out) {
    op_prim_abort(&p);
    return NULL;
  }
  op_prim_emit(&p, op_prim_store_at(&p, out, lit(ctx, 0), lit(ctx, 0)));
  IrPrimExpr **i;
  IrStmt **body = op_prim_loops(&p, x->shape, nd, &i);
  IrPrimExpr *one =
      ir_prim_select(ctx, nonzero_test(ctx, op_prim_load(&p, x, i)), lit(ctx, 1), lit(ctx, 0));
  *body = op_prim_store_at(&p, out, lit(ctx, 0),
                           bin(ctx, IR_PE_ADD, op_prim_load_at(&p, out, lit(ctx, 0)), one));
  IrExpr *count_call = op_prim_finish(&p, s->call, count_s);
  IrPrimExpr *bound[1] = {numel};
  IrPrimExpr **vars = op_data_dims(lz, count_call, 1, bound);
  if (!vars)
    return NULL;
  /* the coordinates: c = 0; for i...: if x[i...] != 0 and c < count:
   * out[d, c] = i_d ...; c += 1 */
  IrPrimExpr **rd = ir_alloc(ctx, sizeof *rd * 2);
  rd[0] = lit(ctx, rows);
  rd[1] = vars[0];
  IrSInfo *res = ir_sinfo_tensor(ctx, rd, 2, IR_I64, vdev);
  op_prim_begin(lz, &p, "nonzero");
  x = op_prim_input(&p, s->call->u.call.args[0], "A");
  out = op_prim_output(&p, res, "T_nonzero");
  if (!x || !out) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **one_dim = ir_alloc(ctx, sizeof *one_dim);
  one_dim[0] = lit(ctx, 1);
  IrBuffer *c = op_prim_alloc(&p, IR_I64, one_dim, 1, "c");
  op_prim_emit(&p, op_prim_store_at(&p, c, lit(ctx, 0), lit(ctx, 0)));
  body = op_prim_loops(&p, x->shape, nd, &i);
  IrPrimExpr *at = op_prim_load_at(&p, c, lit(ctx, 0));
  IrStmt **st = ir_alloc(ctx, sizeof *st * (size_t)(rows + 1));
  for (int d = 0; d < rows; d++) {
    IrPrimExpr **idx = ir_alloc(ctx, sizeof *idx * 2);
    idx[0] = lit(ctx, d);
    idx[1] = at;
    st[d] = op_prim_store(&p, out, idx, nd ? i[d] : lit(ctx, 0));
  }
  st[rows] = op_prim_store_at(&p, c, lit(ctx, 0), bin(ctx, IR_PE_ADD, at, lit(ctx, 1)));
  IrPrimExpr *cond = bin(ctx, IR_PE_AND, nonzero_test(ctx, op_prim_load(&p, x, i)),
                         bin(ctx, IR_PE_LT, at, out->shape[1]));
  *body = if_then(&p, cond, seq(&p, st, rows + 1));
  return op_prim_finish(&p, s->call, res);
}

/* ------------------------------------------------------------------ */
/* R.unique                                                            */
/* ------------------------------------------------------------------ */

/* The items are x's elements (no axis) or its slices along the axis: m
 * items of len values, value v of item i at flat offset
 * (v / post * m + i) * post + v % post (post: the elements after the
 * axis; no axis: m = numel, len = post = 1).  The lowering compares items
 * pairwise instead of sorting (O(m^2 len)): the first occurrence of each
 * item, a group's rank among the first occurrences (by value when sorted,
 * as the interpreter's stable sort orders them, else by position), its
 * count.  The count of groups is at most m (numel(x), or x.shape[axis]). */
typedef struct {
  IrBuffer *x;
  IrPrimExpr *m, *len, *post;
  IrPrimExpr *m_relax; /* m in the Relax dims, for scratch buffers */
  int nd;
  bool is_float;
} ItemBufs;

/* x at flat offset off (unravelled over x's dims). */
static IrPrimExpr *
load_flat(OpPrim *p, const ItemBufs *it, IrPrimExpr *off)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **idx = ir_alloc(ctx, sizeof *idx * (size_t)(it->nd ? it->nd : 1));
  IrPrimExpr *rest = off;
  for (int d = it->nd - 1; d >= 0; d--) {
    IrPrimExpr *n = op_prim_i64(ctx, it->x->shape[d]);
    idx[d] = d ? bin(ctx, IR_PE_FLOORMOD, rest, n) : rest;
    rest = bin(ctx, IR_PE_FLOORDIV, rest, n);
  }
  IrPrimExpr *v = op_prim_load(p, it->x, idx);
  return ir_prim_cast(ctx, it->is_float ? (IrDType){IR_DT_FLOAT, 64, 1} : IR_I64, v);
}

static IrPrimExpr *
item_offset(IrCtx *ctx, const ItemBufs *it, IrPrimExpr *i, IrPrimExpr *v)
{
  return bin(
      ctx, IR_PE_ADD,
      bin(ctx, IR_PE_MUL,
          bin(ctx, IR_PE_ADD, bin(ctx, IR_PE_MUL, bin(ctx, IR_PE_FLOORDIV, v, it->post), it->m), i),
          it->post),
      bin(ctx, IR_PE_FLOORMOD, v, it->post));
}

/* u strictly before w in the sort order (NaN after every number). */
static IrPrimExpr *
before(IrCtx *ctx, const ItemBufs *it, IrPrimExpr *u, IrPrimExpr *w)
{
  if (!it->is_float)
    return bin(ctx, IR_PE_LT, u, w);
  IrPrimExpr *wnan = bin(ctx, IR_PE_NE, w, w), *unum = bin(ctx, IR_PE_EQ, u, u);
  return bin(ctx, IR_PE_AND, unum, bin(ctx, IR_PE_OR, wnan, bin(ctx, IR_PE_LT, u, w)));
}

/* st[0] = -1, 0 or 1: item a against item b, value by value:
 * st[0] = 0; for v: if st[0] == 0: st[0] = a_v before b_v ? -1 : b_v before a_v ? 1 : 0 */
static IrStmt *
compare_items(OpPrim *p, const ItemBufs *it, IrBuffer *st, IrPrimExpr *a, IrPrimExpr *b)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **v;
  IrStmt *nest;
  IrPrimExpr *ext[1] = {it->len};
  IrStmt **slot = op_prim_loop_nest(p, ext, 1, &v, &nest);
  IrPrimExpr *ua = load_flat(p, it, item_offset(ctx, it, a, v[0]));
  IrPrimExpr *ub = load_flat(p, it, item_offset(ctx, it, b, v[0]));
  IrPrimExpr *r =
      ir_prim_select(ctx, before(ctx, it, ua, ub), lit(ctx, -1),
                     ir_prim_select(ctx, before(ctx, it, ub, ua), lit(ctx, 1), lit(ctx, 0)));
  IrPrimExpr *cur = op_prim_load_at(p, st, lit(ctx, 0));
  *slot = if_then(p, bin(ctx, IR_PE_EQ, cur, lit(ctx, 0)), op_prim_store_at(p, st, lit(ctx, 0), r));
  IrStmt *s[2] = {op_prim_store_at(p, st, lit(ctx, 0), lit(ctx, 0)), nest};
  return seq(p, s, 2);
}

static IrBuffer *
scratch(OpPrim *p, IrPrimExpr *n, const char *name)
{
  IrPrimExpr **d = ir_alloc(p->lz->ctx, sizeof *d);
  d[0] = n;
  return op_prim_alloc(p, IR_I64, d, 1, name);
}

/* first[i] = the first j <= i whose item equals item i:
 * for i: first[i] = i; for j < i: if first[i] == i: compare; if equal: first[i] = j */
static void
emit_firsts(OpPrim *p, const ItemBufs *it, IrBuffer *first, IrBuffer *st)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **i, **j;
  IrPrimExpr *ext[1] = {it->m};
  IrStmt **body = op_prim_loops(p, ext, 1, &i);
  IrStmt *inner;
  IrPrimExpr *jext[1] = {i[0]};
  IrStmt **jb = op_prim_loop_nest(p, jext, 1, &j, &inner);
  IrPrimExpr *fi = op_prim_load_at(p, first, i[0]);
  IrStmt *set[2] = {compare_items(p, it, st, j[0], i[0]),
                    if_then(p, bin(ctx, IR_PE_EQ, op_prim_load_at(p, st, lit(ctx, 0)), lit(ctx, 0)),
                            op_prim_store_at(p, first, i[0], j[0]))};
  *jb = if_then(p, bin(ctx, IR_PE_EQ, fi, i[0]), seq(p, set, 2));
  IrStmt *s[2] = {op_prim_store_at(p, first, i[0], i[0]), inner};
  *body = seq(p, s, 2);
}

static bool
unique_items(OpPrim *p, const IrExpr *call, bool has_axis, int64_t axis, ItemBufs *it)
{
  IrCtx *ctx = p->lz->ctx;
  it->x = op_prim_input(p, call->u.call.args[0], "A");
  if (!it->x)
    return false;
  it->nd = it->x->ndim;
  it->is_float = ir_dtype_is_float(it->x->dtype);
  IrPrimExpr *pre = lit(ctx, 1), *post = lit(ctx, 1), *m = lit(ctx, 1);
  const IrSInfo *xs = call->u.call.args[0]->sinfo;
  it->m_relax = lit(ctx, 1);
  for (int d = 0; d < it->nd; d++)
    if (!has_axis || d == axis)
      it->m_relax = bin(ctx, IR_PE_MUL, it->m_relax, op_prim_i64(ctx, xs->u.tensor.shape[d]));
  for (int d = 0; d < it->nd; d++) {
    IrPrimExpr *n = op_prim_i64(ctx, it->x->shape[d]);
    if (!has_axis)
      m = bin(ctx, IR_PE_MUL, m, n);
    else if (d < axis)
      pre = bin(ctx, IR_PE_MUL, pre, n);
    else if (d == axis)
      m = n;
    else
      post = bin(ctx, IR_PE_MUL, post, n);
  }
  it->m = m;
  it->post = post;
  it->len = bin(ctx, IR_PE_MUL, pre, post);
  return true;
}

static bool
flag_of(const IrExpr *a, int64_t *v)
{
  return a->kind == IR_EX_PRIM && ir_prim_is_int(a->u.prim, v);
}

IrExpr *
op_sort_legalize_unique(OpLegalize *lz, const OpSite *site, IrSInfo *result)
{
  (void)result;
  IrCtx *ctx = lz->ctx;
  const IrSInfo *xs = op_data_known_tensor(site->call->u.call.args[0]);
  int64_t f[4], axis = 0;
  int n = site->call->u.call.nargs;
  if (!xs || (n != 5 && n != 6))
    return NULL;
  for (int k = 0; k < 4; k++)
    if (!flag_of(site->call->u.call.args[1 + k], &f[k]))
      return NULL;
  bool has_axis = n == 6;
  int nd = xs->u.tensor.ndim, vdev = xs->u.tensor.vdevice;
  if (has_axis && (!flag_of(site->call->u.call.args[5], &axis) || axis < -nd || axis >= nd))
    return NULL;
  if (axis < 0)
    axis += nd;
  IrPrimExpr *items = lit(ctx, 1); /* the bound: m */
  for (int d = 0; d < nd; d++)
    if (!has_axis || d == axis)
      items = bin(ctx, IR_PE_MUL, items, op_prim_i64(ctx, xs->u.tensor.shape[d]));
  if (lz->arith)
    items = ir_arith_simplify(lz->arith, items);
  /* the count: firsts, then out[0] = how many items are their own first */
  OpPrim p;
  ItemBufs it;
  op_prim_begin(lz, &p, "unique_count");
  IrSInfo *count_s = op_data_i64_vector(ctx, 1, vdev);
  if (!unique_items(&p, site->call, has_axis, axis, &it)) {
    op_prim_abort(&p);
    return NULL;
  }
  IrBuffer *out = op_prim_output(&p, count_s, "T_count");
  IrBuffer *first = scratch(&p, it.m_relax, "first"), *st = scratch(&p, lit(ctx, 1), "cmp");
  emit_firsts(&p, &it, first, st);
  op_prim_emit(&p, op_prim_store_at(&p, out, lit(ctx, 0), lit(ctx, 0)));
  IrPrimExpr **i;
  IrPrimExpr *ext[1] = {it.m};
  IrStmt **body = op_prim_loops(&p, ext, 1, &i);
  IrPrimExpr *c0 = op_prim_load_at(&p, out, lit(ctx, 0));
  *body = if_then(&p, bin(ctx, IR_PE_EQ, op_prim_load_at(&p, first, i[0]), i[0]),
                  op_prim_store_at(&p, out, lit(ctx, 0), bin(ctx, IR_PE_ADD, c0, lit(ctx, 1))));
  IrExpr *count_call = op_prim_finish(&p, site->call, count_s);
  IrPrimExpr *bound[1] = {items};
  IrPrimExpr **vars = op_data_dims(lz, count_call, 1, bound);
  if (!vars)
    return NULL;
  IrPrimExpr *k = vars[0];
  /* the outputs: values, then index, inverse, counts as asked */
  IrSInfo **fields = ir_alloc(ctx, sizeof *fields * 4); /* the tuple keeps them */
  int nf = 0;
  IrPrimExpr **vd = ir_alloc(ctx, sizeof *vd * (size_t)(nd ? nd : 1));
  int vnd = has_axis ? nd : 1;
  for (int d = 0; d < vnd; d++)
    vd[d] = !has_axis || d == axis ? k : xs->u.tensor.shape[d];
  fields[nf++] = ir_sinfo_tensor(ctx, vd, vnd, xs->u.tensor.dtype, vdev);
  IrPrimExpr **kd = ir_alloc(ctx, sizeof *kd);
  kd[0] = k;
  IrPrimExpr **md = ir_alloc(ctx, sizeof *md);
  md[0] = has_axis ? xs->u.tensor.shape[axis] : items;
  IrSInfo *ks = ir_sinfo_tensor(ctx, kd, 1, IR_I64, vdev);
  if (f[1])
    fields[nf++] = ks;
  if (f[2])
    fields[nf++] = ir_sinfo_tensor(ctx, md, 1, IR_I64, vdev);
  if (f[3])
    fields[nf++] = ks;
  IrSInfo *res = nf == 1 ? fields[0] : ir_sinfo_tuple(ctx, fields, nf);
  op_prim_begin(lz, &p, "unique");
  if (!unique_items(&p, site->call, has_axis, axis, &it)) {
    op_prim_abort(&p);
    return NULL;
  }
  IrBuffer *outs[4] = {NULL};
  static const char *names[4] = {"T_unique", "T_index", "T_inverse", "T_counts"};
  for (int q = 0, at = 0; q < 4; q++)
    if (q == 0 || f[q]) {
      outs[q] = op_prim_output(&p, fields[at++], names[q]);
      if (!outs[q]) {
        op_prim_abort(&p);
        return NULL;
      }
    }
  ext[0] = it.m; /* this function's */
  first = scratch(&p, it.m_relax, "first");
  st = scratch(&p, lit(ctx, 1), "cmp");
  IrBuffer *rank = scratch(&p, it.m_relax, "rank"), *cnt = scratch(&p, it.m_relax, "cnt");
  IrPrimExpr *K = outs[0]->shape[has_axis ? axis : 0];
  emit_firsts(&p, &it, first, st);
  /* rank[i] of each first: the firsts before it (by value, or position) */
  IrPrimExpr **j;
  body = op_prim_loops(&p, ext, 1, &i);
  IrStmt *inner;
  IrPrimExpr *jext[1] = {it.m};
  IrStmt **jb = op_prim_loop_nest(&p, jext, 1, &j, &inner);
  IrPrimExpr *ri = op_prim_load_at(&p, rank, i[0]);
  IrStmt *inc = op_prim_store_at(&p, rank, i[0], bin(ctx, IR_PE_ADD, ri, lit(ctx, 1)));
  IrPrimExpr *jfirst = bin(ctx, IR_PE_EQ, op_prim_load_at(&p, first, j[0]), j[0]);
  if (f[0]) {
    IrStmt *cmp[2] = {
        compare_items(&p, &it, st, j[0], i[0]),
        if_then(&p, bin(ctx, IR_PE_LT, op_prim_load_at(&p, st, lit(ctx, 0)), lit(ctx, 0)), inc)};
    *jb = if_then(&p, jfirst, seq(&p, cmp, 2));
  } else {
    *jb = if_then(&p, bin(ctx, IR_PE_AND, jfirst, bin(ctx, IR_PE_LT, j[0], i[0])), inc);
  }
  IrStmt *rs[3] = {op_prim_store_at(&p, rank, i[0], lit(ctx, 0)),
                   op_prim_store_at(&p, cnt, i[0], lit(ctx, 0)), inner};
  *body = if_then(&p, bin(ctx, IR_PE_EQ, op_prim_load_at(&p, first, i[0]), i[0]), seq(&p, rs, 3));
  /* counts: cnt[first[i]] += 1 */
  body = op_prim_loops(&p, ext, 1, &i);
  IrPrimExpr *fi = op_prim_load_at(&p, first, i[0]);
  *body =
      op_prim_store_at(&p, cnt, fi, bin(ctx, IR_PE_ADD, op_prim_load_at(&p, cnt, fi), lit(ctx, 1)));
  /* the outputs, each group g = rank[first[i]] guarded by g < k */
  body = op_prim_loops(&p, ext, 1, &i);
  fi = op_prim_load_at(&p, first, i[0]);
  IrPrimExpr *g = op_prim_load_at(&p, rank, fi);
  IrStmt *st_out[4];
  int ns = 0;
  if (outs[2])
    st_out[ns++] = op_prim_store_at(&p, outs[2], i[0], g);
  IrStmt *firsts[4];
  int nfs = 0;
  if (outs[1])
    firsts[nfs++] = op_prim_store_at(&p, outs[1], g, i[0]);
  if (outs[3])
    firsts[nfs++] = op_prim_store_at(&p, outs[3], g, op_prim_load_at(&p, cnt, i[0]));
  /* values: for v: out[(v / post * k + g) * post + v % post] = item i's value v */
  IrPrimExpr **v;
  IrStmt *vnest;
  IrPrimExpr *vext[1] = {it.len};
  IrStmt **vb = op_prim_loop_nest(&p, vext, 1, &v, &vnest);
  IrPrimExpr *oo = bin(
      ctx, IR_PE_ADD,
      bin(ctx, IR_PE_MUL,
          bin(ctx, IR_PE_ADD, bin(ctx, IR_PE_MUL, bin(ctx, IR_PE_FLOORDIV, v[0], it.post), K), g),
          it.post),
      bin(ctx, IR_PE_FLOORMOD, v[0], it.post));
  IrPrimExpr **oi = ir_alloc(ctx, sizeof *oi * (size_t)vnd);
  IrPrimExpr *rest = oo;
  for (int d = vnd - 1; d >= 0; d--) {
    IrPrimExpr *dn = outs[0]->shape[d];
    oi[d] = d ? bin(ctx, IR_PE_FLOORMOD, rest, dn) : rest;
    rest = bin(ctx, IR_PE_FLOORDIV, rest, dn);
  }
  IrPrimExpr *src = item_offset(ctx, &it, i[0], v[0]);
  IrPrimExpr **xi = ir_alloc(ctx, sizeof *xi * (size_t)(nd ? nd : 1));
  rest = src;
  for (int d = nd - 1; d >= 0; d--) {
    IrPrimExpr *dn = op_prim_i64(ctx, it.x->shape[d]);
    xi[d] = d ? bin(ctx, IR_PE_FLOORMOD, rest, dn) : rest;
    rest = bin(ctx, IR_PE_FLOORDIV, rest, dn);
  }
  *vb = op_prim_store(&p, outs[0], oi, op_prim_load(&p, it.x, xi));
  firsts[nfs++] = vnest;
  st_out[ns++] = if_then(&p, bin(ctx, IR_PE_EQ, fi, i[0]), seq(&p, firsts, nfs));
  *body = if_then(&p, bin(ctx, IR_PE_LT, g, K), seq(&p, st_out, ns));
  return op_prim_finish(&p, site->call, res);
}
