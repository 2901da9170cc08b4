/*
 * lifetime.c - the storages of a Relax function with explicit memory and
 * the steps at which each one is live.
 *
 * Bindings are numbered in order; the bindings of an if's branches get the
 * steps inside the if's range, and the if binding itself the last one.
 * Every Relax var carries an alias set: the storages whose bytes it may
 * view (an alloc_tensor views its storage; `y = x`, tuples and tuple-gets
 * pass sets on; an if's var views both branches' results).  A storage is
 * live from its first alloc_tensor to the last use of any var viewing it.
 * kill_storage only says that no new tensor is carved from the storage,
 * so it ends nothing; kill_tensor is never later than the last use, so the
 * last use is what counts.  A use inside a branch counts over the whole
 * outermost if: which branch runs is known only at run time.
 *
 * Each storage also gets the step of its first use (a tensor viewing it
 * read or written, not merely carved), and the prim_func calls outside any
 * if are recorded: inplace.c needs both.
 *
 * Key idea: aliasing is over-approximated (an unknown call's result may view
 * any of its arguments), which can only lengthen lifetimes, never shorten
 * them, so the plan stays correct.
 */
#include <stdlib.h>
#include <string.h>

#include "mp_int.h"

/* --- alias sets ------------------------------------------------------ */

const MpAlias *
mp_alias_of(const MpFunc *F, const IrExpr *var)
{
  uintptr_t i = (uintptr_t)ir_map_get(&F->alias_index, var);
  return i ? &F->aliases[i - 1] : NULL;
}

/* A set with the elements of a and b (either may be empty). */
static void
set_union(IrCtx *ctx, const int *a, int na, const int *b, int nb, int **out, int *n)
{
  int *u = ir_alloc(ctx, sizeof *u * (size_t)(na + nb + 1));
  int i = 0, j = 0, k = 0;
  while (i < na || j < nb) {
    int v = j >= nb || (i < na && a[i] <= b[j]) ? a[i] : b[j];
    if (i < na && a[i] == v)
      i++;
    if (j < nb && b[j] == v)
      j++;
    u[k++] = v;
  }
  *out = u;
  *n = k;
}

static void
alias_set(MpFunc *F, const IrExpr *var, int *set, int n, const IrExpr *alloc)
{
  if (n == 0)
    return;
  if (F->naliases == F->alias_cap) {
    F->alias_cap = F->alias_cap ? 2 * F->alias_cap : 32;
    F->aliases = ir_xrealloc(F->aliases, sizeof *F->aliases * (size_t)F->alias_cap);
  }
  F->aliases[F->naliases++] = (MpAlias){var, set, n, alloc};
  ir_map_put(&F->alias_index, var, (void *)(uintptr_t)F->naliases);
}

/* The storages an expression may view: the union over the vars in it. */
static void
expr_storages(MpFunc *F, const IrExpr *e, int **set, int *n)
{
  *set = NULL;
  *n = 0;
  if (!e)
    return;
  if (e->kind == IR_EX_VAR) {
    const MpAlias *a = mp_alias_of(F, e);
    if (a) {
      *set = a->set;
      *n = a->n;
    }
    return;
  }
  IrExpr **items = NULL;
  int nitems = 0;
  if (e->kind == IR_EX_TUPLE) {
    items = e->u.tuple.items;
    nitems = e->u.tuple.n;
  } else if (e->kind == IR_EX_CALL) {
    items = e->u.call.args;
    nitems = e->u.call.nargs;
  } else if (e->kind == IR_EX_GET) {
    expr_storages(F, e->u.get.tuple, set, n);
    return;
  }
  for (int i = 0; i < nitems; i++) {
    int *s, ns;
    expr_storages(F, items[i], &s, &ns);
    set_union(F->ctx, *set, *n, s, ns, set, n);
  }
}

/* --- storages and their live steps ----------------------------------- */

/* Storages of set are live at the current step (over the whole outermost
 * if inside a branch). */
static void
touch(MpFunc *F, const int *set, int n)
{
  int64_t lo = F->if_depth ? F->if_lo : F->step;
  int64_t hi = F->if_depth ? F->if_hi : F->step;
  for (int i = 0; i < n; i++) {
    MpStorage *s = &F->storages[set[i]];
    if (lo < s->start)
      s->start = lo;
    if (hi + 1 > s->end)
      s->end = hi + 1;
  }
}

/* Tensors viewing the storages of set are used (read or written) at the
 * current step, not merely carved: their bytes are live. */
static void
use(MpFunc *F, const int *set, int n)
{
  touch(F, set, n);
  int64_t lo = F->if_depth ? F->if_lo : F->step;
  for (int i = 0; i < n; i++)
    if (lo < F->first_use[set[i]])
      F->first_use[set[i]] = lo;
}

static void
use_expr(MpFunc *F, const IrExpr *e)
{
  int *set, n;
  expr_storages(F, e, &set, &n);
  use(F, set, n);
}

/* A new storage bound to b's var (which is the tensor of alloc, when
 * non-NULL: R.builtin.alloc_tensor). */
static int
storage_new(MpFunc *F, const IrBinding *b, IrPrimExpr *bytes, IrDType dtype, const IrExpr *alloc)
{
  if (F->nstorages == F->cap) {
    F->cap = F->cap ? 2 * F->cap : 16;
    F->storages = ir_xrealloc(F->storages, sizeof *F->storages * (size_t)F->cap);
    F->kinds = ir_xrealloc(F->kinds, sizeof *F->kinds * (size_t)F->cap);
    F->first_use = ir_xrealloc(F->first_use, sizeof *F->first_use * (size_t)F->cap);
  }
  int i = F->nstorages++;
  F->storages[i] = (MpStorage){
      .var = b->var, .tensor = alloc ? b->var : NULL, .bytes = bytes, .start = INT64_MAX, .end = 0};
  F->kinds[i] = dtype.code << 16 | dtype.bits << 8 | (dtype.lanes & 0xff);
  F->first_use[i] = INT64_MAX;
  int *set = ir_alloc(F->ctx, sizeof *set);
  *set = i;
  alias_set(F, b->var, set, 1, alloc);
  return i;
}

static IrDType
dtype_arg(const IrExpr *call, int i)
{
  if (call->u.call.nargs > i && call->u.call.args[i]->kind == IR_EX_DTYPE)
    return call->u.call.args[i]->u.dtype;
  return IR_VOID;
}

/* True when bytes has no upper bound although every dim in it has one:
 * the product overflowed int64 (the arithmetic folds only what fits), and
 * the generated C would compute it with signed overflow. */
static bool
overflows_at_bounds(MpFunc *F, IrPrimExpr *bytes)
{
  int64_t lo, hi;
  if (ir_arith_range(F->arith, bytes, &lo, &hi) && hi < INT64_MAX / 2)
    return false;
  IrVec vars = {0};
  ir_prim_expr_vars(bytes, &vars);
  bool bounded = true;
  for (int i = 0; i < vars.len && bounded; i++)
    bounded = ir_arith_range(F->arith, vars.items[i], &lo, &hi) && hi < INT64_MAX;
  ir_vec_free(&vars);
  return bounded;
}

/* R.memory.alloc_storage(R.shape([bytes]), ...) and R.builtin.alloc_tensor
 * (a storage of its own, exactly the tensor's bytes).  A size that is not a
 * literal R.shape cannot be planned: an error. */
static bool
alloc_storage(MpFunc *F, const IrBinding *b, const IrExpr *call, bool builtin)
{
  const IrExpr *shape = call->u.call.nargs > 0 ? call->u.call.args[0] : NULL;
  if (!shape || shape->kind != IR_EX_SHAPE) {
    ir_error(F->ctx, b->loc, "in function '%s', binding '%s': the size of the storage is not an R.shape",
             F->fname, mp_binding_name(b));
    return false;
  }
  IrDType dt = dtype_arg(call, builtin ? 1 : 3);
  int64_t elem = builtin ? ir_dtype_bytes(dt) : 1;
  IrPrimExpr *bytes = ir_arith_simplify(
      F->arith, mp_shape_bytes(F->ctx, shape->u.shape.values, shape->u.shape.n, elem));
  if (overflows_at_bounds(F, bytes)) {
    bool again = b->loc.line > 0 && F->overflow_at.src == b->loc.src &&
                 F->overflow_at.line == b->loc.line && F->overflow_at.col == b->loc.col;
    F->overflow_at = b->loc;
    if (again) /* a binding lowered to several storages (a kernel's scratch too): once */
      return false;
    IrBuf text = {0};
    ir_prim_expr_print(bytes, &text);
    ir_error(F->ctx, b->loc,
             "in function '%s', binding '%s': the storage of %s bytes does not fit in 64 bits "
             "at the upper bounds of its dims",
             F->fname, mp_binding_name(b), text.data);
    ir_buf_free(&text);
    return false;
  }
  int s = storage_new(F, b, bytes, dt, builtin ? call : NULL);
  if (builtin)
    touch(F, &s, 1);
  return true;
}

/* alloc_tensor(storage, offset, shape, dtype): a view of the storage. */
static void
alloc_tensor(MpFunc *F, const IrBinding *b, const IrExpr *call)
{
  int *set, n;
  expr_storages(F, call->u.call.args[0], &set, &n);
  touch(F, set, n);
  alias_set(F, b->var, set, n, call);
  if (n == 1 && !F->storages[set[0]].tensor)
    F->storages[set[0]].tensor = b->var;
  if (n == 1)
    mp_check_alloc(F, b, set[0], call);
}

/* A call: an allocation, a kill, a prim_func called in destination-passing
 * style (its result views nothing), or anything else (its result may view
 * any argument). */
static bool
binding_call(MpFunc *F, const IrModule *m, const IrBinding *b, const IrExpr *call)
{
  if (call->u.call.kind == IR_CALL_OP) {
    switch (call->u.call.op->id) {
    case IR_OP_MEMORY_ALLOC_STORAGE:
      return alloc_storage(F, b, call, false);
    case IR_OP_BUILTIN_ALLOC_TENSOR:
      return alloc_storage(F, b, call, true);
    case IR_OP_MEMORY_ALLOC_TENSOR:
      if (call->u.call.nargs >= 4)
        alloc_tensor(F, b, call);
      return true;
    case IR_OP_MEMORY_KILL_STORAGE:
    case IR_OP_MEMORY_KILL_TENSOR:
      return true;
    default:
      break;
    }
  }
  int *set, n;
  expr_storages(F, call, &set, &n);
  if (call->u.call.kind == IR_CALL_VAR)
    use_expr(F, call->u.call.callee);
  use(F, set, n);
  bool fresh = false;
  if (call->u.call.kind == IR_CALL_GLOBAL && call->u.call.callee->kind == IR_EX_GLOBAL) {
    const IrGlobal *g = ir_map_get(F->globals, call->u.call.callee->u.global);
    fresh = g != NULL; /* a prim_func writes into its arguments; a Relax
                          function returns its own tensors */
    if (g && g->kind == IR_GLOBAL_PRIM && F->if_depth == 0) {
      MpCall *c = ir_alloc(F->ctx, sizeof *c);
      *c = (MpCall){call, F->step};
      ir_vec_push(&F->calls, c);
    }
  }
  if (!fresh)
    alias_set(F, b->var, set, n, NULL);
  return true;
}

static bool walk_seq(MpFunc *F, const IrModule *m, const IrExpr *seq);

int64_t
mp_count_steps(const IrExpr *seq)
{
  int64_t n = 0;
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++) {
      const IrExpr *v = seq->u.seq.blocks[i].bindings[j].value;
      n++;
      if (v->kind == IR_EX_IF)
        n += mp_count_steps(v->u.branch.then_) + mp_count_steps(v->u.branch.else_);
    }
  return n;
}

/* var = if cond: ... else: ...: the branches' steps, then the if's own. */
static bool
binding_if(MpFunc *F, const IrModule *m, const IrBinding *b, const IrExpr *e)
{
  bool outermost = F->if_depth == 0;
  if (outermost) {
    F->if_lo = F->step;
    F->if_hi = F->step + mp_count_steps(e->u.branch.then_) + mp_count_steps(e->u.branch.else_);
  }
  F->if_depth++;
  use_expr(F, e->u.branch.cond);
  bool ok = walk_seq(F, m, e->u.branch.then_) && walk_seq(F, m, e->u.branch.else_);
  int *a, na, *c, nc, *set, n;
  expr_storages(F, e->u.branch.then_->u.seq.result, &a, &na);
  expr_storages(F, e->u.branch.else_->u.seq.result, &c, &nc);
  set_union(F->ctx, a, na, c, nc, &set, &n);
  use(F, set, n);
  alias_set(F, b->var, set, n, NULL);
  F->if_depth--;
  return ok;
}

static void
step_push(MpFunc *F, const IrBinding *b)
{
  if (F->nsteps == F->step_cap) {
    F->step_cap = F->step_cap ? 2 * F->step_cap : 64;
    F->steps = ir_xrealloc(F->steps, sizeof *F->steps * (size_t)F->step_cap);
  }
  F->steps[F->nsteps++] = b;
}

static bool
walk_binding(MpFunc *F, const IrModule *m, const IrBinding *b)
{
  const IrExpr *v = b->value;
  bool ok = true;
  if (v->kind == IR_EX_IF) {
    ok = binding_if(F, m, b, v); /* the branches took their steps */
  } else if (v->kind == IR_EX_CALL) {
    ok = binding_call(F, m, b, v);
  } else {
    int *set, n;
    expr_storages(F, v, &set, &n);
    use(F, set, n);
    const MpAlias *a = v->kind == IR_EX_VAR ? mp_alias_of(F, v) : NULL;
    const IrExpr *alloc = a ? a->alloc : NULL; /* alias_set may move F->aliases */
    alias_set(F, b->var, set, n, alloc); /* y = x is x's tensor */
    if (alloc && n == 1 && F->storages[set[0]].tensor == v)
      F->storages[set[0]].tensor = b->var; /* lv1 = alloc: the source's name */
  }
  step_push(F, b);
  F->step++;
  return ok;
}

static bool
walk_seq(MpFunc *F, const IrModule *m, const IrExpr *seq)
{
  bool ok = true;
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++)
      ok &= walk_binding(F, m, &seq->u.seq.blocks[i].bindings[j]);
  return ok;
}

/* Storages the function's result may view are outputs: live to the end. */
static void
mark_outputs(MpFunc *F, const IrExpr *result)
{
  int *set, n;
  expr_storages(F, result, &set, &n);
  use(F, set, n);
  for (int i = 0; i < n; i++)
    F->storages[set[i]].output = true;
}

bool
mp_func_lifetimes(MpFunc *F, const IrModule *m)
{
  const IrExpr *body = F->f->body;
  F->step = 0;
  bool ok = walk_seq(F, m, body);
  mark_outputs(F, body->u.seq.result);
  for (int i = 0; i < F->nstorages; i++) {
    MpStorage *s = &F->storages[i];
    if (s->start == INT64_MAX) { /* never viewed: live at its allocation */
      for (int64_t k = 0; k < F->nsteps; k++)
        if (F->steps[k]->var == s->var)
          s->start = k;
      s->end = s->start + 1;
    }
  }
  return ok && !F->failed;
}

void
mp_func_free(MpFunc *F)
{
  free(F->storages);
  free(F->kinds);
  free(F->first_use);
  free(F->group);
  free(F->aliases);
  ir_map_free(&F->alias_index);
  ir_vec_free(&F->calls);
  free(F->steps);
  ir_vec_free(&F->checks);
  ir_vec_free(&F->vars);
}
