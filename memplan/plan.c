/*
 * plan.c - the plan of a module: for every public Relax function, its
 * storages (lifetime.c), the size checks (checks.c), and their offsets in
 * one arena (the core, core.c).
 *
 * A storage's size is its bytes expression at the upper bounds of the
 * symbolic dims.  Storages with a bounded size are placed by mp_solve with
 * the configured algorithm.  When some size has no bound, the plan is
 * symbolic: the bounded storages keep their solved offsets at the start of
 * the arena, and the unbounded ones follow one after another, their offsets
 * and the arena size being expressions of the dims (arena_expr) that the
 * generated code evaluates at run time.  Storages flowing into the result
 * are outputs, kept apart: the caller provides their bytes.  A storage
 * reused in place (inplace.c) is placed together with the input storage
 * whose bytes it takes: one buffer of the core spanning both lifetimes, so
 * the lower bound and the arena are those after in-place reuse; the naive
 * sum and TVM's rule count every storage apart.
 *
 * Everything the plan returns lives in the context's arena.
 */
#include <stdlib.h>
#include <string.h>

#include "mp_int.h"

MpAlgorithm
mp_algorithm_of(CfgPlanAlgorithm a)
{
  switch (a) {
  case CFG_PLAN_GREEDY_SIZE:
    return MP_ALGO_GREEDY_SIZE;
  case CFG_PLAN_GREEDY_BREADTH:
    return MP_ALGO_GREEDY_BREADTH;
  case CFG_PLAN_EXACT:
    return MP_ALGO_EXACT;
  case CFG_PLAN_POOLED:
    return MP_ALGO_POOLED;
  case CFG_PLAN_GREEDY_LENGTH:
    return MP_ALGO_GREEDY_LENGTH;
  case CFG_PLAN_GREEDY_AREA:
    return MP_ALGO_GREEDY_AREA;
  case CFG_PLAN_GREEDY_GLOW:
    return MP_ALGO_GREEDY_GLOW;
  case CFG_PLAN_BEST_FIT:
    return MP_ALGO_BEST_FIT;
  case CFG_PLAN_LOCAL:
    return MP_ALGO_LOCAL;
  case CFG_PLAN_BEST:
  default:
    return MP_ALGO_BEST;
  }
}

static int64_t
align_up(int64_t v, int64_t a)
{
  return (v + a - 1) / a * a;
}

/* Each storage's size at the upper bounds (-1 when unbounded). */
static void
sizes_at_bounds(MpFunc *F)
{
  for (int i = 0; i < F->nstorages; i++) {
    MpStorage *s = &F->storages[i];
    int64_t lo, hi;
    s->bytes_max = -1;
    if (ir_arith_range(F->arith, s->bytes, &lo, &hi) && hi < INT64_MAX / 2)
      s->bytes_max = hi < 0 ? 0 : hi;
  }
}

/* The arena storages with a bounded size, as buffers of the core.  With
 * merged, a storage reused in place (inplace.c) is not a buffer of its own:
 * it widens the buffer of its group's root (the storage whose bytes the
 * group first held) to span both lifetimes; members have one size.
 * Without, every storage is a buffer. */
static MpBuffer *
buffers_of(const MpFunc *F, int64_t align, bool merged, int *n)
{
  MpBuffer *b = ir_xcalloc((size_t)F->nstorages + 1, sizeof *b);
  int *at = ir_xcalloc((size_t)F->nstorages + 1, sizeof *at); /* storage -> buffer */
  *n = 0;
  for (int i = 0; i < F->nstorages; i++) {
    const MpStorage *s = &F->storages[i];
    if (s->output || s->bytes_max < 0 || (merged && F->group[i] != i))
      continue;
    at[i] = *n;
    b[(*n)++] = (MpBuffer){.id = i,
                           .start = s->start,
                           .end = s->end > s->start ? s->end : s->start + 1,
                           .size = s->bytes_max > 0 ? s->bytes_max : 1,
                           .align = align,
                           .kind = F->kinds[i]};
  }
  for (int i = 0; merged && i < F->nstorages; i++) {
    const MpStorage *s = &F->storages[i];
    if (F->group[i] == i)
      continue;
    MpBuffer *r = &b[at[F->group[i]]]; /* the group's root: a buffer */
    int64_t end = s->end > s->start ? s->end : s->start + 1;
    r->start = s->start < r->start ? s->start : r->start;
    r->end = end > r->end ? end : r->end;
  }
  free(at);
  return b;
}

/* MpNames the step where the most bytes are live and what lives there. */
static void
note_peak(MpFunc *F, const MpBuffer *b, int n)
{
  int64_t best = -1, at = 0;
  for (int i = 0; i < n; i++) {
    int64_t live = 0;
    for (int j = 0; j < n; j++)
      if (b[j].start <= b[i].start && b[i].start < b[j].end)
        live += b[j].size;
    if (live > best) {
      best = live;
      at = b[i].start;
    }
  }
  IrBuf list = {0};
  MpNames nm = mp_storage_names(F->storages, F->nstorages); /* as rxc opt prints them */
  for (int j = 0; j < n; j++)
    if (b[j].start <= at && at < b[j].end)
      ir_buf_printf(&list, "%s'%s' (%lld bytes)", list.len ? ", " : "", nm.names[b[j].id],
                    (long long)b[j].size);
  mp_storage_names_free(&nm);
  const char *where = at < F->nsteps ? mp_binding_name(F->steps[at]) : "return";
  IrLoc loc = at < F->nsteps ? F->steps[at]->loc : F->f->loc;
  ir_note(F->ctx, loc, "the largest live point is step %lld (binding '%s'): %lld bytes live in %s",
          (long long)at, where, (long long)best, list.data ? list.data : "nothing");
  ir_buf_free(&list);
}

/* Places the bounded storages; fills offsets and the plan's figures.
 * Returns false after an arena_limit error. */
static bool
place_bounded(MpFunc *F, MpFunctionPlan *p, int64_t align)
{
  int n, nsep;
  MpBuffer *b = buffers_of(F, align, true, &n);
  MpOptions o = {.algorithm = mp_algorithm_of(F->cfg->memplan.algorithm),
                 .budget_ms = F->cfg->memplan.budget_ms};
  int64_t arena = n ? mp_solve(b, n, &o) : 0;
  for (int i = 0; i < n; i++)
    F->storages[b[i].id].offset = b[i].offset;
  p->problem = ir_alloc(F->ctx, sizeof *b * (size_t)(n + 1));
  memcpy(p->problem, b, sizeof *b * (size_t)n);
  p->nproblem = n;
  for (int i = 0; i < F->nstorages; i++) /* members of a group: its offset */
    if (F->group[i] != i)
      F->storages[i].offset = F->storages[F->group[i]].offset;
  p->arena_bytes = align_up(arena, align);
  p->lower_bound = mp_lower_bound(b, n);
  p->ninplace = F->ninplace;
  /* the naive sum and TVM's rule know no in-place reuse: every storage */
  MpBuffer *sep = buffers_of(F, align, false, &nsep);
  p->naive_sum = mp_naive_sum(sep, nsep);
  MpOptions po = {.algorithm = MP_ALGO_POOLED};
  p->pooled_bytes = nsep ? mp_solve(sep, nsep, &po) : 0;
  free(sep);
  int64_t limit = F->cfg->memplan.arena_limit;
  bool ok = true;
  if (limit > 0 && p->arena_bytes > limit) {
    ir_error(F->ctx, F->f->loc,
             "in function '%s': the arena needs %lld bytes, above arena_limit of %lld bytes",
             F->fname, (long long)p->arena_bytes, (long long)limit);
    note_peak(F, b, n);
    ok = false;
  }
  free(b);
  return ok;
}

/* Unbounded storages one after another past the bounded part; the arena
 * size as an expression (and, with an arena_limit, a runtime check). */
static void
place_unbounded(MpFunc *F, MpFunctionPlan *p, int64_t align)
{
  IrCtx *ctx = F->ctx;
  IrPrimExpr *end = ir_prim_int(ctx, IR_I64, p->arena_bytes);
  IrPrimExpr *a = ir_prim_int(ctx, IR_I64, align);
  bool any = false;
  for (int i = 0; i < F->nstorages; i++) {
    MpStorage *s = &F->storages[i];
    if (s->output || s->bytes_max >= 0)
      continue;
    any = true;
    s->offset = -1;
    s->offset_expr = ir_arith_simplify(F->arith, end);
    IrPrimExpr *next = ir_prim_bin(ctx, IR_PE_ADD, end, s->bytes);
    /* round up to the alignment: (x + a - 1) // a * a */
    next = ir_prim_bin(ctx, IR_PE_ADD, next, ir_prim_int(ctx, IR_I64, align - 1));
    end = ir_prim_bin(ctx, IR_PE_MUL, ir_prim_bin(ctx, IR_PE_FLOORDIV, next, a), a);
  }
  if (!any)
    return;
  p->arena_expr = ir_arith_simplify(F->arith, end);
  p->arena_bytes = -1;
  int64_t limit = F->cfg->memplan.arena_limit;
  if (limit > 0) {
    MpCheck *c = ir_alloc(ctx, sizeof *c);
    *c = (MpCheck){ir_prim_bin(ctx, IR_PE_LE, p->arena_expr, ir_prim_int(ctx, IR_I64, limit)),
                   ir_printf(ctx, "in function '%s': the arena fits arena_limit (%lld bytes)",
                             F->fname, (long long)limit),
                   F->f->loc};
    ir_vec_push(&F->checks, c);
  }
}

/* The names of vars (IrPrimExpr *), each once, into *names (the ctx's). */
static int
var_names(IrCtx *ctx, const IrVec *vars, bool unbounded_only, IrArith *arith, IrSym **names)
{
  *names = ir_alloc(ctx, sizeof **names * (size_t)(vars->len + 1));
  int n = 0;
  for (int i = 0; i < vars->len; i++) {
    const IrPrimExpr *v = vars->items[i];
    int64_t lo, hi;
    if (unbounded_only && ir_arith_range(arith, v, &lo, &hi) && hi != INT64_MAX)
      continue;
    bool seen = false;
    for (int k = 0; k < n; k++)
      seen = seen || (*names)[k] == v->u.var;
    if (!seen)
      (*names)[n++] = v->u.var;
  }
  return n;
}

/* The dims of the function, and those the arena grows with that have no
 * bound; under require_static the latter are an error naming the key that
 * bounds each.  False after that error. */
static bool
note_dims(MpFunc *F, MpFunctionPlan *p)
{
  p->ndims = var_names(F->ctx, &F->vars, false, F->arith, &p->dims);
  if (!p->arena_expr)
    return true;
  IrVec in_arena = {0};
  ir_prim_expr_vars(p->arena_expr, &in_arena);
  p->nunbounded = var_names(F->ctx, &in_arena, true, F->arith, &p->unbounded);
  ir_vec_free(&in_arena);
  if (!F->cfg->memplan.require_static)
    return true;
  for (int i = 0; i < p->nunbounded; i++)
    ir_error(F->ctx, F->f->loc,
             "in function '%s': the arena grows with dim '%s', which has no upper bound, and "
             "[memplan] require_static asks for a static arena: bound it with --set "
             "memplan.upper_bound.%s=N (or tir_var_upper_bound)",
             F->fname, p->unbounded[i], p->unbounded[i]);
  return p->nunbounded == 0;
}

/* The arena storages and the outputs into p, copied to the context. */
static void
split_outputs(MpFunc *F, MpFunctionPlan *p)
{
  int nout = 0;
  for (int i = 0; i < F->nstorages; i++)
    nout += F->storages[i].output;
  p->nstorages = F->nstorages - nout;
  p->noutputs = nout;
  p->storages = ir_alloc(F->ctx, sizeof *p->storages * (size_t)(p->nstorages + 1));
  p->outputs = ir_alloc(F->ctx, sizeof *p->outputs * (size_t)(nout + 1));
  int a = 0, o = 0;
  for (int i = 0; i < F->nstorages; i++) {
    MpStorage s = F->storages[i];
    if (s.output) {
      s.offset = -1;
      p->outputs[o++] = s;
    } else {
      p->storages[a++] = s;
    }
  }
  p->nchecks = F->checks.len;
  p->checks = ir_alloc(F->ctx, sizeof *p->checks * (size_t)(p->nchecks + 1));
  for (int i = 0; i < p->nchecks; i++)
    p->checks[i] = *(MpCheck *)F->checks.items[i];
}

/* Plans one function into p; false after reporting errors. */
static bool
plan_function(IrCtx *ctx, const IrModule *m, const IrMap *globals, const IrGlobal *g,
              const CfgOptions *cfg, MpFunctionPlan *p)
{
  MpFunc F = {.ctx = ctx, .cfg = cfg, .arith = ir_arith_new(ctx), .fname = g->name,
              .f = g->u.relax, .globals = globals};
  int64_t align = cfg->target.alignment > 0 ? cfg->target.alignment : 1;
  p->name = g->name;
  mp_func_bounds(&F);
  bool ok = F.f->body && F.f->body->kind == IR_EX_SEQ && mp_func_lifetimes(&F, m);
  if (ok) {
    sizes_at_bounds(&F);
    mp_func_inplace(&F, m);
    ok = place_bounded(&F, p, align);
    place_unbounded(&F, p, align);
    ok = note_dims(&F, p) && ok;
    split_outputs(&F, p);
  }
  mp_func_free(&F);
  return ok;
}

/* Whether some planned function has a dim named name. */
static bool
has_dim(const MpPlan *plan, const char *name)
{
  for (int i = 0; i < plan->nfuncs; i++)
    for (int k = 0; k < plan->funcs[i].ndims; k++)
      if (strcmp(plan->funcs[i].dims[k], name) == 0)
        return true;
  return false;
}

/* The planned functions' dims, each once, as "'n', 'm'" (heap text). */
static void
list_dims(const MpPlan *plan, IrBuf *list)
{
  for (int i = 0; i < plan->nfuncs; i++)
    for (int k = 0; k < plan->funcs[i].ndims; k++) {
      bool seen = false;
      for (int j = 0; j <= i && !seen; j++)
        for (int l = 0; l < (j < i ? plan->funcs[j].ndims : k) && !seen; l++)
          seen = plan->funcs[j].dims[l] == plan->funcs[i].dims[k];
      if (!seen)
        ir_buf_printf(list, "%s'%s'", list->len ? ", " : "", plan->funcs[i].dims[k]);
    }
}

/* Every upper_bound.NAME of cfg names a dim of the planned functions (a
 * misspelt bound would silently leave the dim unbounded); false after an
 * error at the model's file listing the dims there are. */
static bool
check_bound_names(IrCtx *ctx, const IrModule *m, const MpPlan *plan, const CfgOptions *cfg)
{
  IrLoc at = {0};
  for (int i = 0; i < m->nglobals && !at.src; i++)
    if (m->globals[i].kind == IR_GLOBAL_RELAX)
      at.src = m->globals[i].u.relax->loc.src;
  bool ok = true;
  for (int b = 0; b < cfg->memplan.nupper_bounds; b++) {
    const char *name = cfg->memplan.upper_bounds[b].name;
    if (has_dim(plan, name))
      continue;
    IrBuf list = {0};
    list_dims(plan, &list);
    ir_error(ctx, at, "[memplan] upper_bound.%s names no dim of the model; its dims are: %s",
             name, list.data ? list.data : "none (every shape is static)");
    ir_buf_free(&list);
    ok = false;
  }
  return ok;
}

/* Adds the bytes of every constant under e not counted yet (seen: the
 * nodes counted) to *bytes.  The code generator emits each constant node
 * once (gen_weights.c), so this is what the generated C holds. */
static void
count_consts(const IrExpr *e, IrMap *seen, int64_t *bytes)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_EX_CONST:
    if (!ir_map_get(seen, e)) {
      ir_map_put(seen, e, (void *)e);
      *bytes += (int64_t)e->u.constant.nbytes;
    }
    break;
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      count_consts(e->u.tuple.items[i], seen, bytes);
    break;
  case IR_EX_GET:
    count_consts(e->u.get.tuple, seen, bytes);
    break;
  case IR_EX_CALL:
    count_consts(e->u.call.callee, seen, bytes);
    for (int i = 0; i < e->u.call.nargs; i++)
      count_consts(e->u.call.args[i], seen, bytes);
    break;
  case IR_EX_SEQ:
    for (int i = 0; i < e->u.seq.nblocks; i++)
      for (int j = 0; j < e->u.seq.blocks[i].n; j++)
        count_consts(e->u.seq.blocks[i].bindings[j].value, seen, bytes);
    count_consts(e->u.seq.result, seen, bytes);
    break;
  case IR_EX_IF:
    count_consts(e->u.branch.cond, seen, bytes);
    count_consts(e->u.branch.then_, seen, bytes);
    count_consts(e->u.branch.else_, seen, bytes);
    break;
  case IR_EX_FUNC:
    count_consts(e->u.func->body, seen, bytes);
    break;
  default:
    break;
  }
}

/* The bytes of the constants of m's Relax functions, each node once. */
static int64_t
weights_bytes(const IrModule *m)
{
  IrMap seen = {0};
  int64_t bytes = 0;
  for (int i = 0; i < m->nglobals; i++)
    if (m->globals[i].kind == IR_GLOBAL_RELAX)
      count_consts(m->globals[i].u.relax->body, &seen, &bytes);
  ir_map_free(&seen);
  return bytes;
}

MpPlan *
mp_plan_module(IrCtx *ctx, const IrModule *m, const CfgOptions *cfg)
{
  MpPlan *plan = ir_alloc(ctx, sizeof *plan);
  plan->funcs = ir_alloc(ctx, sizeof *plan->funcs * (size_t)(m->nglobals + 1));
  plan->align = cfg->target.alignment > 0 ? cfg->target.alignment : 1;
  bool ok = true;
  IrMap globals = {0};
  ir_module_index(m, &globals);
  for (int i = 0; i < m->nglobals; i++) {
    const IrGlobal *g = &m->globals[i];
    if (g->kind != IR_GLOBAL_RELAX || g->u.relax->is_private)
      continue;
    MpFunctionPlan *p = &plan->funcs[plan->nfuncs++];
    ok &= plan_function(ctx, m, &globals, g, cfg, p);
    if (p->arena_bytes < 0 || plan->arena_bytes < 0)
      plan->arena_bytes = -1;
    else if (p->arena_bytes > plan->arena_bytes)
      plan->arena_bytes = p->arena_bytes;
  }
  ir_map_free(&globals);
  plan->weights_bytes = weights_bytes(m);
  ok = ok && check_bound_names(ctx, m, plan, cfg);
  return ok ? plan : NULL;
}
