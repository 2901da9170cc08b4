/*
 * data_dims.c - the lowerings of the operators whose result shape is
 * tensor data: R.dynamic_strided_slice, R.nonzero, R.unique.
 *
 * Key ideas (TVM's legalization of dynamic_strided_slice, in
 * python/tvm/relax/transform/legalize_ops/index.py, for all three):
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
#include <string.h>

#include "nn_int.h"

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

/* A tensor of known rank and shape. */
static const IrSInfo *
known_tensor(const IrExpr *e)
{
  const IrSInfo *s = e->sinfo;
  return s && s->kind == IR_SI_TENSOR && s->u.tensor.ndim >= 0 &&
                 (s->u.tensor.shape || s->u.tensor.ndim == 0) && s->u.tensor.dtype.code != IR_DT_VOID
             ? s
             : NULL;
}

static IrSInfo *
i64_vector(IrCtx *ctx, int64_t n, int vdevice)
{
  IrPrimExpr **d = ir_alloc(ctx, sizeof *d);
  d[0] = lit(ctx, n);
  return ir_sinfo_tensor(ctx, d, 1, IR_I64, vdevice);
}

/* x != 0 as the interpreter tests it (NaN is nonzero). */
static IrPrimExpr *
nonzero_test(IrCtx *ctx, IrPrimExpr *x)
{
  IrDType t = x->dtype;
  IrPrimExpr *zero = ir_dtype_is_float(t) ? ir_prim_float(ctx, t, 0.0)
                                                                     : ir_prim_int(ctx, t, 0);
  return bin(ctx, IR_PE_NE, x, zero);
}

/* ------------------------------------------------------------------ */
/* R.dynamic_strided_slice                                             */
/* ------------------------------------------------------------------ */

/* Axis d's slice as the interpreter takes it (op_manip_slice_axis):
 * begin and end count from the end when negative and are clamped to
 * [0, n] (stride > 0) or [-1, n - 1] (stride < 0).  A zero stride, which
 * the interpreter refuses, is taken as 1.  *start and *len get TIR
 * expressions. */
static void
slice_axis(IrCtx *ctx, IrPrimExpr *n, IrPrimExpr *b, IrPrimExpr *e, IrPrimExpr *s,
           IrPrimExpr **start, IrPrimExpr **len, IrPrimExpr **step)
{
  IrPrimExpr *neg = bin(ctx, IR_PE_LT, s, lit(ctx, 0));
  IrPrimExpr *lo = ir_prim_select(ctx, neg, lit(ctx, -1), lit(ctx, 0));
  IrPrimExpr *hi = ir_prim_select(ctx, neg, bin(ctx, IR_PE_SUB, n, lit(ctx, 1)), n);
  IrPrimExpr *idx[2] = {b, e};
  for (int i = 0; i < 2; i++) {
    IrPrimExpr *v = ir_prim_select(ctx, bin(ctx, IR_PE_LT, idx[i], lit(ctx, 0)),
                                   bin(ctx, IR_PE_ADD, idx[i], n), idx[i]);
    idx[i] = bin(ctx, IR_PE_MIN, bin(ctx, IR_PE_MAX, v, lo), hi);
  }
  IrPrimExpr *diff = ir_prim_select(ctx, neg, bin(ctx, IR_PE_SUB, idx[0], idx[1]),
                                    bin(ctx, IR_PE_SUB, idx[1], idx[0]));
  IrPrimExpr *mag = ir_prim_select(ctx, neg, bin(ctx, IR_PE_SUB, lit(ctx, 0), s), s);
  *step = bin(ctx, IR_PE_MAX, mag, lit(ctx, 1));
  *start = idx[0];
  *len = ir_prim_select(ctx, bin(ctx, IR_PE_LE, diff, lit(ctx, 0)), lit(ctx, 0),
                        bin(ctx, IR_PE_ADD,
                            bin(ctx, IR_PE_FLOORDIV, bin(ctx, IR_PE_SUB, diff, lit(ctx, 1)), *step),
                            lit(ctx, 1)));
}

/* Result dim d is at most data's dim d: a slice never grows an axis. */
IrExpr *
op_legalize_dynamic_strided_slice(OpLegalize *lz, const OpSite *site, IrSInfo *result)
{
  (void)result;
  IrCtx *ctx = lz->ctx;
  const IrSInfo *xs = known_tensor(site->call->u.call.args[0]);
  if (!xs || xs->u.tensor.ndim == 0)
    return NULL;
  for (int i = 1; i < 4; i++)
    if (!known_tensor(site->call->u.call.args[i]))
      return NULL;
  int nd = xs->u.tensor.ndim, vdev = xs->u.tensor.vdevice;
  /* the dims: shape[d] = len of axis d */
  OpPrim p;
  op_prim_begin(lz, &p, "dynamic_strided_slice_shape");
  IrBuffer *x = op_prim_input(&p, site->call->u.call.args[0], "A");
  IrBuffer *v[3];
  static const char *names[3] = {"begin", "end", "strides"};
  for (int i = 0; i < 3; i++)
    v[i] = op_prim_input(&p, site->call->u.call.args[1 + i], names[i]);
  IrSInfo *dims_s = i64_vector(ctx, nd, vdev);
  IrBuffer *out = op_prim_output(&p, dims_s, "T_shape");
  if (!x || !v[0] || !v[1] || !v[2] || !out) {
    op_prim_abort(&p);
    return NULL;
  }
  IrStmt **st = ir_alloc(ctx, sizeof *st * (size_t)nd);
  for (int d = 0; d < nd; d++) {
    IrPrimExpr *start, *len, *step;
    slice_axis(ctx, x->shape[d], op_prim_load_at(&p, v[0], lit(ctx, d)),
               op_prim_load_at(&p, v[1], lit(ctx, d)), op_prim_load_at(&p, v[2], lit(ctx, d)),
               &start, &len, &step);
    st[d] = op_prim_store_at(&p, out, lit(ctx, d), len);
  }
  op_prim_emit(&p, seq(&p, st, nd));
  IrExpr *shape_call = op_prim_finish(&p, site->call, dims_s);
  IrPrimExpr **vars = op_data_dims(lz, shape_call, nd, xs->u.tensor.shape);
  if (!vars)
    return NULL;
  /* the values: out[i...] = x[start_d + i_d * stride_d ...], each index
   * clamped to x's axis */
  IrSInfo *res = ir_sinfo_tensor(ctx, vars, nd, xs->u.tensor.dtype, vdev);
  op_prim_begin(lz, &p, "dynamic_strided_slice");
  x = op_prim_input(&p, site->call->u.call.args[0], "A");
  for (int i = 0; i < 3; i++)
    v[i] = op_prim_input(&p, site->call->u.call.args[1 + i], names[i]);
  out = op_prim_output(&p, res, "T_dynamic_strided_slice");
  if (!x || !v[0] || !v[1] || !v[2] || !out) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **i;
  IrStmt **body = op_prim_loops(&p, out->shape, nd, &i);
  IrPrimExpr **src = ir_alloc(ctx, sizeof *src * (size_t)nd);
  for (int d = 0; d < nd; d++) {
    IrPrimExpr *start, *len, *step;
    IrPrimExpr *s = op_prim_load_at(&p, v[2], lit(ctx, d));
    slice_axis(ctx, x->shape[d], op_prim_load_at(&p, v[0], lit(ctx, d)),
               op_prim_load_at(&p, v[1], lit(ctx, d)), s, &start, &len, &step);
    IrPrimExpr *off = bin(ctx, IR_PE_MUL, i[d], step);
    IrPrimExpr *at = ir_prim_select(ctx, bin(ctx, IR_PE_LT, s, lit(ctx, 0)),
                                    bin(ctx, IR_PE_SUB, start, off), bin(ctx, IR_PE_ADD, start, off));
    src[d] = bin(ctx, IR_PE_MIN, bin(ctx, IR_PE_MAX, at, lit(ctx, 0)),
                 bin(ctx, IR_PE_SUB, x->shape[d], lit(ctx, 1)));
  }
  *body = op_prim_store(&p, out, i, op_prim_load(&p, x, src));
  return op_prim_finish(&p, site->call, res);
}

/* ------------------------------------------------------------------ */
/* R.nonzero                                                           */
/* ------------------------------------------------------------------ */

/* The count of nonzero elements is at most numel(x): the result is
 * (max(ndim, 1), count) with count <= numel(x). */
IrExpr *
op_legalize_nonzero(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  (void)result;
  IrCtx *ctx = lz->ctx;
  const IrSInfo *xs = known_tensor(s->call->u.call.args[0]);
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
  IrSInfo *count_s = i64_vector(ctx, 1, vdev);
  IrBuffer *out = op_prim_output(&p, count_s, "T_count");
  if (!x || !out) {
    op_prim_abort(&p);
    return NULL;
  }
  op_prim_emit(&p, op_prim_store_at(&p, out, lit(ctx, 0), lit(ctx, 0)));
  IrPrimExpr **i;
  IrStmt **body = op_prim_loops(&p, x->shape, nd, &i);
  IrPrimExpr *one = ir_prim_select(ctx, nonzero_test(ctx, op_prim_load(&p, x, i)), lit(ctx, 1),
                                   lit(ctx, 0));
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
} Items;

/* x at flat offset off (unravelled over x's dims). */
static IrPrimExpr *
load_flat(OpPrim *p, const Items *it, IrPrimExpr *off)
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
item_offset(IrCtx *ctx, const Items *it, IrPrimExpr *i, IrPrimExpr *v)
{
  return bin(ctx, IR_PE_ADD,
             bin(ctx, IR_PE_MUL,
                 bin(ctx, IR_PE_ADD, bin(ctx, IR_PE_MUL, bin(ctx, IR_PE_FLOORDIV, v, it->post), it->m), i),
                 it->post),
             bin(ctx, IR_PE_FLOORMOD, v, it->post));
}

/* u strictly before w in the sort order (NaN after every number). */
static IrPrimExpr *
before(IrCtx *ctx, const Items *it, IrPrimExpr *u, IrPrimExpr *w)
{
  if (!it->is_float)
    return bin(ctx, IR_PE_LT, u, w);
  IrPrimExpr *wnan = bin(ctx, IR_PE_NE, w, w), *unum = bin(ctx, IR_PE_EQ, u, u);
  return bin(ctx, IR_PE_AND, unum, bin(ctx, IR_PE_OR, wnan, bin(ctx, IR_PE_LT, u, w)));
}

/* st[0] = -1, 0 or 1: item a against item b, value by value:
 * st[0] = 0; for v: if st[0] == 0: st[0] = a_v before b_v ? -1 : b_v before a_v ? 1 : 0 */
static IrStmt *
compare_items(OpPrim *p, const Items *it, IrBuffer *st, IrPrimExpr *a, IrPrimExpr *b)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **v;
  IrStmt *nest;
  IrPrimExpr *ext[1] = {it->len};
  IrStmt **slot = op_prim_loop_nest(p, ext, 1, &v, &nest);
  IrPrimExpr *ua = load_flat(p, it, item_offset(ctx, it, a, v[0]));
  IrPrimExpr *ub = load_flat(p, it, item_offset(ctx, it, b, v[0]));
  IrPrimExpr *r = ir_prim_select(ctx, before(ctx, it, ua, ub), lit(ctx, -1),
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
emit_firsts(OpPrim *p, const Items *it, IrBuffer *first, IrBuffer *st)
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
unique_items(OpPrim *p, const IrExpr *call, bool has_axis, int64_t axis, Items *it)
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
op_legalize_unique(OpLegalize *lz, const OpSite *site, IrSInfo *result)
{
  (void)result;
  IrCtx *ctx = lz->ctx;
  const IrSInfo *xs = known_tensor(site->call->u.call.args[0]);
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
  Items it;
  op_prim_begin(lz, &p, "unique_count");
  IrSInfo *count_s = i64_vector(ctx, 1, vdev);
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
    IrStmt *cmp[2] = {compare_items(&p, &it, st, j[0], i[0]),
                      if_then(&p, bin(ctx, IR_PE_LT, op_prim_load_at(&p, st, lit(ctx, 0)), lit(ctx, 0)),
                              inc)};
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
  *body = op_prim_store_at(&p, cnt, fi, bin(ctx, IR_PE_ADD, op_prim_load_at(&p, cnt, fi), lit(ctx, 1)));
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
  IrPrimExpr *oo = bin(ctx, IR_PE_ADD,
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
