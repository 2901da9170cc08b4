/*
 * inplace.c - in-place reuse: the output of an elementwise prim_func call
 * takes the arena bytes of an input that dies at that call.
 *
 * For a call `cls.f(args...)` outside any if (lifetime.c records them),
 * where f is elementwise (below) and writes the argument `out`, an
 * argument `in` gives its storage S to out's storage T when
 *   - in views exactly S, an arena storage (not flowing into the result;
 *     params and constants view none) whose live steps end at this call:
 *     no tensor viewing S, aliases included, is used later;
 *   - out views exactly T, not flowing into the result, whose bytes are
 *     first used by this call (before, tensors were only carved from it),
 *     and no other argument views T;
 *   - every argument viewing S is the var in itself, S and T have the same
 *     size at the bounds, in and out are tensors carved at offset 0, and
 *     f's buffers for in and out have one dtype and one shape.
 * T then joins S's group: the core places the group as one buffer spanning
 * the members' lifetimes, so T gets S's offset (plan.c).
 *
 * Elementwise, for this purpose: the analysis of opt/fuse_pattern.c (the
 * "op_pattern" attribute ignored: it is a claim, not a proof) finds the
 * function elementwise or broadcast, that is one store, to one parameter
 * buffer, at distinct loop vars covering every enclosing loop, no local
 * buffer (so no FuseTIR'd group with intermediates), no if around the
 * store, no let; no parameter buffer is loaded outside the store's value
 * (loop bounds, block iterators, conditions, indices); and every load of
 * in's buffer is at the element the store writes (the store's indices, or
 * 0 in a dimension of extent 1).  So in[i] is read only in the iteration
 * that writes out[i], before the store: writing out over in is safe in any
 * loop order, and the code generator needs nothing special.  Other inputs
 * may be broadcast (a bias add): they view other storages, live at the
 * call, which the planner keeps apart from in's bytes.
 *
 * Groups are one level deep: a storage joins a group at its own first
 * use (as the output), so a storage heading a group (used before, as an
 * input) never joins another; chains join the first storage's group.
 */
#include <stdlib.h>

#include "../opt/opt.h"
#include "mp_int.h"

/* --- the prim_func ---------------------------------------------------- */

static bool
is_load(const IrPrimExpr *e, void *user)
{
  return e->kind == IR_PE_LOAD;
}

static bool
loads_in(const IrPrimExpr *e, const IrStmt *s, void *user)
{
  return ir_prim_walk(e, is_load, NULL);
}

/* A store's indices are outside its value; T.evaluate and assert are all
 * outside. */
static IrWalkAction
outside_store(const IrStmt *st, void *user)
{
  const IrStmt **store = user;
  if (st->kind == IR_ST_EVALUATE || st->kind == IR_ST_ASSERT)
    return IR_WALK_STOP;
  if (st->kind != IR_ST_STORE)
    return IR_WALK_CONTINUE;
  *store = st;
  for (int i = 0; i < st->u.store.n; i++)
    if (loads_in(st->u.store.indices[i], st, NULL))
      return IR_WALK_STOP;
  return IR_WALK_SKIP;
}

/* True when some load stands outside a store's value.  *store gets the
 * (last) store met. */
static bool
loads_outside_values(const IrStmt *st, const IrStmt **store)
{
  IrTirVisitor v = {.enter = outside_store, .expr = loads_in, .user = store};
  return ir_tir_walk(st, &v);
}

/* The index of the one parameter f writes, and in *store its one store,
 * when f is pointwise in the sense of the file comment; else -1. */
static int
pointwise_output(const IrPrimFunc *f, const IrStmt **store)
{
  IrPrimFunc bare = *f;
  bare.attrs = NULL; /* analyse the body, whatever op_pattern claims */
  int p = opt_prim_pattern(&bare);
  if (p != 0 && p != 1) /* elementwise or broadcast */
    return -1;
  *store = NULL;
  if (loads_outside_values(f->body, store) || !*store)
    return -1;
  for (int i = 0; i < f->nparams; i++)
    if (f->params[i].buffer && f->params[i].buffer == (*store)->u.store.buffer)
      return i;
  return -1;
}

/* Whether index i of a load of buf addresses the element the store
 * writes: the store's index itself, or literal 0 in a dimension of extent
 * 1 (where every index in bounds is 0; LegalizeOps writes A[0, i1] for a
 * leading 1). */
static bool
same_index(const IrBuffer *buf, const IrPrimExpr *load, const IrStmt *store, int i)
{
  int64_t v, extent;
  if (ir_prim_expr_equal(load, store->u.store.indices[i]))
    return true;
  return ir_prim_is_int(load, &v) && v == 0 && ir_prim_is_int(buf->shape[i], &extent) &&
         extent == 1;
}

typedef struct {
  const IrBuffer *buf;
  const IrStmt *store;
} At;

/* A load of at->buf elsewhere than the element at->store writes? */
static bool
loaded_elsewhere(const IrPrimExpr *e, void *user)
{
  const At *at = user;
  if (e->kind != IR_PE_LOAD || e->u.load.buffer != at->buf)
    return false;
  if (e->u.load.n != at->store->u.store.n || at->buf->ndim != e->u.load.n)
    return true;
  for (int i = 0; i < e->u.load.n; i++)
    if (!same_index(at->buf, e->u.load.indices[i], at->store, i))
      return true;
  return false;
}

/* Every load of buf in e is at the element the store writes. */
static bool
loaded_at(const IrPrimExpr *e, const IrBuffer *buf, const IrStmt *store)
{
  At at = {buf, store};
  return !ir_prim_walk(e, loaded_elsewhere, &at);
}

/* One dtype, one shape: element i lies at the same byte in both. */
static bool
same_layout(const IrBuffer *a, const IrBuffer *b)
{
  if (!a || !b || !ir_dtype_eq(a->dtype, b->dtype) || a->ndim != b->ndim)
    return false;
  for (int i = 0; i < a->ndim; i++)
    if (!ir_prim_expr_equal(a->shape[i], b->shape[i]))
      return false;
  return true;
}

/* --- pure copies: reshape, flatten, squeeze, expand_dims ------------- */

/* Bounds in a the vars of the loops (constant ranges, no blocks, lets or
 * ifs) around the one store of st, which goes to *store; false when st is
 * not such a nest. */
static bool
loops_to_store(IrArith *a, const IrStmt *st, const IrStmt **store)
{
  while (st && st->kind == IR_ST_SEQ && st->u.seq.n == 1)
    st = st->u.seq.stmts[0];
  if (st && st->kind == IR_ST_STORE) {
    *store = st;
    return true;
  }
  int64_t min, extent;
  if (!st || st->kind != IR_ST_FOR || !ir_prim_is_int(st->u.loop.min, &min) ||
      !ir_prim_is_int(st->u.loop.extent, &extent) || extent < 1)
    return false;
  ir_arith_bound(a, st->u.loop.var, min, min + extent - 1);
  return loops_to_store(a, st->u.loop.body, store);
}

/* The row-major element number of indices idx (n of them) in buf. */
static IrPrimExpr *
flat_index(IrCtx *ctx, const IrBuffer *buf, IrPrimExpr *const *idx, int n)
{
  IrPrimExpr *flat = ir_prim_int(ctx, IR_I64, 0);
  for (int i = 0; i < n; i++)
    flat = ir_prim_bin(ctx, IR_PE_ADD, ir_prim_bin(ctx, IR_PE_MUL, flat, buf->shape[i]), idx[i]);
  return flat;
}

/* The index of the parameter f writes when f is a pure copy of its other
 * buffer parameter: loops around one store whose value is a load of that
 * parameter, of the same dtype and element count, at the same row-major
 * element number (proved by ir/arith over the loop ranges).  That is a
 * reshape, flatten, squeeze or expand_dims after LegalizeOps: the output's
 * bytes are the input's, so writing the output over the input copies each
 * element onto itself.  Else -1. */
static int
copy_output(IrCtx *ctx, const IrPrimFunc *f, const IrStmt **store)
{
  IrArith *a = ir_arith_new(ctx);
  if (f->nparams != 2 || !f->params[0].buffer || !f->params[1].buffer ||
      !loops_to_store(a, f->body, store))
    return -1;
  const IrStmt *st = *store;
  const IrPrimExpr *v = st->u.store.value;
  int out = f->params[0].buffer == st->u.store.buffer ? 0 : 1;
  const IrBuffer *ob = f->params[out].buffer, *ib = f->params[1 - out].buffer;
  if (ob != st->u.store.buffer || v->kind != IR_PE_LOAD || v->u.load.buffer != ib ||
      !ir_dtype_eq(ib->dtype, ob->dtype) || ib->ndim != v->u.load.n || ob->ndim != st->u.store.n)
    return -1;
  IrPrimExpr *numel_in = flat_index(ctx, ib, ib->shape, 0), *numel_out = numel_in;
  for (int i = 0; i < ib->ndim; i++)
    numel_in = ir_prim_bin(ctx, IR_PE_MUL, i ? numel_in : ir_prim_int(ctx, IR_I64, 1), ib->shape[i]);
  for (int i = 0; i < ob->ndim; i++)
    numel_out = ir_prim_bin(ctx, IR_PE_MUL, i ? numel_out : ir_prim_int(ctx, IR_I64, 1), ob->shape[i]);
  IrPrimExpr *same = ir_prim_bin(ctx, IR_PE_EQ, flat_index(ctx, ib, v->u.load.indices, ib->ndim),
                                 flat_index(ctx, ob, st->u.store.indices, ob->ndim));
  IrPrimExpr *count = ir_prim_bin(ctx, IR_PE_EQ, numel_in, numel_out);
  if (ir_arith_prove(a, same) != IR_PROVE_TRUE || ir_arith_prove(a, count) != IR_PROVE_TRUE)
    return -1;
  return out;
}

/* --- the call --------------------------------------------------------- */

/* The alias entry of an argument (NULL: it views no storage), or *bad set
 * when the argument is not a var and might view one. */
static const MpAlias *
arg_alias(const MpFunc *F, const IrExpr *arg, bool *bad)
{
  if (arg->kind == IR_EX_VAR)
    return mp_alias_of(F, arg);
  if (arg->kind == IR_EX_TUPLE || arg->kind == IR_EX_GET || arg->kind == IR_EX_CALL)
    *bad = true;
  return NULL;
}

static bool
views(const MpAlias *a, int s)
{
  for (int i = 0; a && i < a->n; i++)
    if (a->set[i] == s)
      return true;
  return false;
}

/* The only storage of a tensor carved at offset 0, else -1. */
static int
carved_at_zero(const MpAlias *a)
{
  if (!a || a->n != 1 || !a->alloc)
    return -1;
  const IrExpr *call = a->alloc;
  if (call->u.call.op->id == IR_OP_MEMORY_ALLOC_TENSOR) {
    int64_t off;
    const IrExpr *o = call->u.call.nargs > 1 ? call->u.call.args[1] : NULL;
    if (!o || o->kind != IR_EX_PRIM || !ir_prim_is_int(o->u.prim, &off) || off != 0)
      return -1;
  }
  return a->set[0];
}

static int
root_of(const MpFunc *F, int s)
{
  while (F->group[s] != s)
    s = F->group[s];
  return s;
}

/* Whether argument i may give its storage to the output storage t of a
 * call of f at step k (see the file comment). */
static bool
may_give(const MpFunc *F, const IrPrimFunc *f, const IrStmt *store, const IrExpr *call, int i,
         int out, int t, int64_t k, bool copy)
{
  const IrExpr *in = call->u.call.args[i];
  bool bad = false;
  int s = carved_at_zero(arg_alias(F, in, &bad));
  if (s < 0 || s == t)
    return false;
  const MpStorage *S = &F->storages[s], *T = &F->storages[t];
  if (S->output || S->bytes_max < 0 || S->bytes_max != T->bytes_max || S->end != k + 1)
    return false;
  const IrBuffer *ob = f->params[out].buffer;
  for (int j = 0; j < call->u.call.nargs; j++) {
    const IrExpr *a = call->u.call.args[j];
    if (j != out && views(arg_alias(F, a, &bad), s) &&
        (a != in || (!copy && (!same_layout(f->params[j].buffer, ob) ||
                               !loaded_at(store->u.store.value, f->params[j].buffer, store)))))
      return false;
  }
  return !bad;
}

/* Tries the call c: joins its output's storage to a dying input's group. */
static void
try_call(MpFunc *F, const IrModule *m, const MpCall *c)
{
  const IrExpr *call = c->call;
  const IrGlobal *g = ir_map_get(F->globals, call->u.call.callee->u.global);
  const IrPrimFunc *f = g->u.prim;
  if (call->u.call.nargs != f->nparams)
    return;
  const IrStmt *store;
  int out = pointwise_output(f, &store);
  bool copy = out < 0 && (out = copy_output(F->ctx, f, &store)) >= 0;
  bool bad = false;
  int t = out < 0 ? -1 : carved_at_zero(arg_alias(F, call->u.call.args[out], &bad));
  if (t < 0 || bad)
    return;
  const MpStorage *T = &F->storages[t];
  if (T->output || T->bytes_max < 0 || F->first_use[t] != c->step || F->group[t] != t)
    return;
  for (int j = 0; j < call->u.call.nargs; j++)
    if (j != out && views(arg_alias(F, call->u.call.args[j], &bad), t))
      return;
  if (bad)
    return;
  for (int i = 0; i < call->u.call.nargs; i++)
    if (i != out && may_give(F, f, store, call, i, out, t, c->step, copy)) {
      int s = carved_at_zero(mp_alias_of(F, call->u.call.args[i]));
      F->group[t] = root_of(F, s);
      F->storages[t].inplace = true;
      F->ninplace++;
      return;
    }
}

void
mp_func_inplace(MpFunc *F, const IrModule *m)
{
  F->group = ir_xrealloc(F->group, sizeof *F->group * (size_t)(F->nstorages + 1));
  for (int i = 0; i < F->nstorages; i++)
    F->group[i] = i;
  F->ninplace = 0;
  for (int i = 0; i < F->calls.len; i++)
    try_call(F, m, F->calls.items[i]);
}
