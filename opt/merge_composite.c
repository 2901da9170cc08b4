/*
 * merge_composite.c - MergeCompositeFunctions: calls of Composite functions
 * that go to the same backend are grouped, and each group becomes one
 * public function with the "Codegen" attribute that the callers call.
 *
 * Key ideas:
 *  - The backend of a Composite function is its pattern name up to the
 *    first dot ("rxc.conv2d_relu" -> "rxc").
 *  - Every Relax function is processed except Composite and Codegen ones
 *    (TVM processed only `main`).  All state (groups, use counts, the
 *    binding of each var) is built afresh for each function and keyed by
 *    the vars that function binds, never by a node that several functions
 *    may share (TVM keyed expression nodes across functions and crashed on
 *    a shape node used by two of them).
 *  - Groups form inside one dataflow block, in binding order: a call joins
 *    the group of one of its producers with the same backend unless that
 *    would make a cycle between groups (some other input of the call
 *    depends on the group).  Contracting a group to one call keeps the
 *    dependencies acyclic, so the bindings can be re-emitted in order with
 *    the group's call at its last member, delaying the few bindings that
 *    read a group result before it exists (pure bindings of a dataflow
 *    block, so moving them changes nothing).  In plain blocks, where order
 *    may be visible, every composite call is a group of its own.
 *  - The Codegen function's body binds each Composite function it uses as a
 *    local function (as TVM inlines them) and calls those; Composite
 *    globals no function calls any longer are dropped.  Its parameters are
 *    the group's inputs; its result, the members read outside the group
 *    (one value, or a tuple taken apart by the caller).
 *  - The function is public: in this IR a public function's global_symbol
 *    is its name (the reader drops an explicit one equal to the name), so
 *    the attrs hold only "Codegen".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "opt_int.h"

typedef struct {
  IrCtx *ctx;
  const IrModule *mod; /* the normalized input */
  IrVec new_globals;   /* IrGlobal*: the Codegen functions made */
  IrMap uses;          /* var -> uses in the current function */
} Merger;

/* One block's grouping. */
typedef struct {
  const IrBindingBlock *blk;
  IrMap def;      /* var bound in the block -> index + 1 */
  int *group;     /* per binding: its group, -1 none */
  IrSym *backend; /* per group */
  int *last;      /* per group: index of its last member */
  int ngroups;
} Groups;

/* --- var uses ----------------------------------------------------------------- */

typedef void (*VarFn)(void *user, const IrExpr *var);

static void walk_seq(const IrExpr *seq, VarFn fn, void *user);

/* Calls fn for every var use in e, nested seqs and functions included. */
static void
walk_expr(const IrExpr *e, VarFn fn, void *user)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_EX_VAR:
    fn(user, e);
    break;
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      walk_expr(e->u.tuple.items[i], fn, user);
    break;
  case IR_EX_GET:
    walk_expr(e->u.get.tuple, fn, user);
    break;
  case IR_EX_CALL:
    walk_expr(e->u.call.callee, fn, user);
    for (int i = 0; i < e->u.call.nargs; i++)
      walk_expr(e->u.call.args[i], fn, user);
    break;
  case IR_EX_SEQ:
    walk_seq(e, fn, user);
    break;
  case IR_EX_IF:
    walk_expr(e->u.branch.cond, fn, user);
    walk_seq(e->u.branch.then_, fn, user);
    walk_seq(e->u.branch.else_, fn, user);
    break;
  case IR_EX_FUNC:
    walk_seq(e->u.func->body, fn, user);
    break;
  default:
    break;
  }
}

static void
walk_seq(const IrExpr *seq, VarFn fn, void *user)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++)
      walk_expr(seq->u.seq.blocks[i].bindings[j].value, fn, user);
  walk_expr(seq->u.seq.result, fn, user);
}

static void
count_use(void *user, const IrExpr *var)
{
  IrMap *uses = user;
  ir_map_put(uses, var, (void *)((uintptr_t)ir_map_get(uses, var) + 1));
}

/* --- composite calls ------------------------------------------------------------ */

/* The Composite function a binding calls, or NULL. */
static const IrFunction *
composite_callee(const Merger *M, const IrBinding *b, IrSym *name)
{
  const IrExpr *v = b->value;
  if (b->cast || !b->var || !v || v->kind != IR_EX_CALL || v->u.call.kind != IR_CALL_GLOBAL)
    return NULL;
  const IrGlobal *g = ir_module_find(M->mod, v->u.call.callee->u.global);
  if (!g || g->kind != IR_GLOBAL_RELAX)
    return NULL;
  const IrAttr *c = ir_attr_get(g->u.relax->attrs, "Composite");
  if (!c || c->kind != IR_AT_STR)
    return NULL;
  if (name)
    *name = g->name;
  return g->u.relax;
}

/* "rxc.conv2d_relu" -> "rxc". */
static IrSym
backend_of(IrCtx *ctx, const IrFunction *f)
{
  const char *s = ir_attr_get(f->attrs, "Composite")->u.s;
  const char *dot = strchr(s, '.');
  return dot ? ir_sym_n(ctx, s, (size_t)(dot - s)) : ir_sym(ctx, s);
}

/* --- grouping --------------------------------------------------------------------- */

typedef struct {
  const Groups *G;
  IrVec *stack; /* binding indices to visit */
} DepWalk;

static void
push_dep(void *user, const IrExpr *var)
{
  DepWalk *w = user;
  uintptr_t d = (uintptr_t)ir_map_get(&w->G->def, var);
  if (d)
    ir_vec_push(w->stack, (void *)(d - 1));
}

/* Would binding i joining group g make a cycle?  Yes when an input of i
 * outside g depends on g, where depending on any member of another group
 * means depending on all that group's inputs (it becomes one call). */
static bool
makes_cycle(const Groups *G, int g, int i)
{
  int n = G->blk->n;
  char *seen = ir_xcalloc((size_t)n, 1);
  IrVec first = {0}, stack = {0};
  DepWalk w = {G, &first};
  walk_expr(G->blk->bindings[i].value, push_dep, &w);
  for (int k = 0; k < first.len; k++)
    if (G->group[(uintptr_t)first.items[k]] != g)
      ir_vec_push(&stack, first.items[k]);
  w.stack = &stack;
  bool cycle = false;
  while (stack.len && !cycle) {
    int j = (int)(uintptr_t)stack.items[--stack.len];
    if (seen[j])
      continue;
    seen[j] = 1;
    cycle = G->group[j] == g;
    for (int k = 0; k < n && !cycle; k++)
      if (k == j || (G->group[j] >= 0 && G->group[k] == G->group[j]))
        walk_expr(G->blk->bindings[k].value, push_dep, &w);
  }
  ir_vec_free(&first);
  ir_vec_free(&stack);
  free(seen);
  return cycle;
}

/* The group binding i joins: a producer's of the same backend when that
 * makes no cycle, else a new one. */
static int
choose_group(Groups *G, const IrBinding *b, IrSym backend, int i, bool dataflow)
{
  const IrExpr *call = b->value;
  for (int a = 0; dataflow && a < call->u.call.nargs; a++) {
    uintptr_t d = (uintptr_t)ir_map_get(&G->def, call->u.call.args[a]);
    int g = d ? G->group[d - 1] : -1;
    if (g >= 0 && G->backend[g] == backend && !makes_cycle(G, g, i))
      return g;
  }
  G->backend[G->ngroups] = backend;
  return G->ngroups++;
}

static void
groups_build(Merger *M, Groups *G, const IrBindingBlock *blk)
{
  memset(G, 0, sizeof *G);
  G->blk = blk;
  G->group = ir_xmalloc(((size_t)blk->n + 1) * sizeof *G->group);
  G->backend = ir_xcalloc((size_t)blk->n + 1, sizeof *G->backend);
  G->last = ir_xcalloc((size_t)blk->n + 1, sizeof *G->last);
  for (int i = 0; i < blk->n; i++) {
    const IrBinding *b = &blk->bindings[i];
    G->group[i] = -1;
    if (b->var)
      ir_map_put(&G->def, b->var, (void *)(uintptr_t)(i + 1));
    const IrFunction *f = composite_callee(M, b, NULL);
    if (!f)
      continue;
    G->group[i] = choose_group(G, b, backend_of(M->ctx, f), i, blk->dataflow);
    G->last[G->group[i]] = i;
  }
}

static void
groups_free(Groups *G)
{
  ir_map_free(&G->def);
  free(G->group);
  free(G->backend);
  free(G->last);
}

/* --- the Codegen function of a group -------------------------------------------------- */

typedef struct {
  IrVec outer;   /* caller vars passed, in parameter order */
  IrVec outputs; /* member vars the caller reads, in result order */
} GroupIface;

typedef struct {
  Merger *M;
  const Groups *G;
  int g;
  IrMap inner_uses; /* var -> uses by the group's members */
  GroupIface *io;
  IrMap seen; /* inputs already listed */
} IfaceWalk;

static void
note_input(void *user, const IrExpr *var)
{
  IfaceWalk *w = user;
  count_use(&w->inner_uses, var);
  uintptr_t d = (uintptr_t)ir_map_get(&w->G->def, var);
  if ((d && w->G->group[d - 1] == w->g) || ir_map_get(&w->seen, var))
    return;
  ir_map_put(&w->seen, var, (void *)var);
  ir_vec_push(&w->io->outer, (void *)var);
}

/* The group's inputs (vars its members read from outside it) and outputs
 * (members read outside it or bound as non-dataflow vars; at least one). */
static void
group_iface(Merger *M, const Groups *G, int g, GroupIface *io)
{
  IfaceWalk w = {M, G, g, {0}, io, {0}};
  const IrBindingBlock *blk = G->blk;
  for (int i = 0; i < blk->n; i++)
    if (G->group[i] == g)
      walk_expr(blk->bindings[i].value, note_input, &w);
  for (int i = 0; i < blk->n; i++) {
    const IrExpr *v = blk->bindings[i].var;
    if (G->group[i] != g)
      continue;
    if (ir_map_get(&M->uses, v) != ir_map_get(&w.inner_uses, v) || !v->u.var.dataflow ||
        (i == G->last[g] && io->outputs.len == 0))
      ir_vec_push(&io->outputs, (void *)v);
  }
  ir_map_free(&w.inner_uses);
  ir_map_free(&w.seen);
}

static IrSInfo *
func_sinfo(IrCtx *ctx, const IrFunction *f)
{
  IrSInfo **params = ir_alloc(ctx, (size_t)(f->nparams ? f->nparams : 1) * sizeof *params);
  for (int i = 0; i < f->nparams; i++)
    params[i] = f->params[i]->sinfo;
  return ir_sinfo_func(ctx, params, f->nparams, f->ret, f->pure);
}

/* The local function var standing for the Composite global `name` in the
 * body being built; binds it on first use. */
static IrExpr *
local_callee(Merger *M, IrVec *body, IrMap *locals, IrSym name, const IrFunction *f, IrLoc loc)
{
  IrExpr *v = ir_map_get(locals, name);
  if (v)
    return v;
  IrSInfo *s = func_sinfo(M->ctx, f);
  v = ir_var_new(M->ctx, name, s, false, loc);
  IrFunction *local = ir_alloc(M->ctx, sizeof *local);
  *local = *f;
  local->is_private = false; /* a local function has no visibility */
  IrExpr *fn = ir_expr_new(M->ctx, IR_EX_FUNC, loc);
  fn->u.func = local;
  fn->sinfo = s;
  IrBinding *b = ir_alloc(M->ctx, sizeof *b);
  *b = (IrBinding){v, fn, NULL, loc};
  ir_vec_push(body, b);
  ir_map_put(locals, name, v);
  return v;
}

/* The member's call, of the local function, with inner vars. */
static IrExpr *
member_call(Merger *M, const IrBinding *b, IrExpr *callee, IrMap *sub)
{
  IrExpr *call = opt_rw_expr_copy(M->ctx, b->value);
  call->u.call.kind = IR_CALL_VAR;
  call->u.call.callee = callee;
  call->u.call.args = ir_alloc(M->ctx, (size_t)(call->u.call.nargs + 1) * sizeof(IrExpr *));
  for (int a = 0; a < call->u.call.nargs; a++) {
    IrExpr *arg = b->value->u.call.args[a];
    IrExpr *inner = arg->kind == IR_EX_VAR ? ir_map_get(sub, arg) : NULL;
    call->u.call.args[a] = inner ? inner : arg;
  }
  return call;
}

/* The seq of a Codegen function: local functions, member calls, result. */
static IrExpr *
group_body(Merger *M, const Groups *G, int g, const GroupIface *io, IrMap *sub)
{
  IrVec body = {0};
  IrMap locals = {0};
  IrVec calls = {0};
  for (int i = 0; i < G->blk->n; i++) {
    const IrBinding *b = &G->blk->bindings[i];
    IrSym name;
    if (G->group[i] != g)
      continue;
    const IrFunction *f = composite_callee(M, b, &name);
    IrExpr *callee = local_callee(M, &body, &locals, name, f, b->loc);
    IrExpr *var = ir_var_new(M->ctx, b->var->u.var.name, b->var->sinfo, false, b->loc);
    IrBinding *nb = ir_alloc(M->ctx, sizeof *nb);
    *nb = (IrBinding){var, member_call(M, b, callee, sub), NULL, b->loc};
    ir_vec_push(&calls, nb);
    ir_map_put(sub, b->var, var);
  }
  for (int i = 0; i < calls.len; i++)
    ir_vec_push(&body, calls.items[i]);
  ir_vec_free(&calls);
  ir_map_free(&locals);
  IrBindingBlock *blk = ir_alloc(M->ctx, sizeof *blk);
  blk->n = body.len;
  blk->bindings = ir_alloc(M->ctx, (size_t)body.len * sizeof *blk->bindings);
  for (int i = 0; i < body.len; i++)
    blk->bindings[i] = *(IrBinding *)body.items[i];
  ir_vec_free(&body);
  IrExpr *seq = ir_expr_new(M->ctx, IR_EX_SEQ, G->blk->loc);
  seq->u.seq.blocks = blk;
  seq->u.seq.nblocks = 1;
  if (io->outputs.len == 1) {
    seq->u.seq.result = ir_map_get(sub, io->outputs.items[0]);
  } else {
    IrExpr *t = ir_expr_new(M->ctx, IR_EX_TUPLE, G->blk->loc);
    IrSInfo **fields = ir_alloc(M->ctx, (size_t)io->outputs.len * sizeof *fields);
    t->u.tuple.n = io->outputs.len;
    t->u.tuple.items = ir_alloc(M->ctx, (size_t)io->outputs.len * sizeof(IrExpr *));
    for (int i = 0; i < io->outputs.len; i++) {
      t->u.tuple.items[i] = ir_map_get(sub, io->outputs.items[i]);
      fields[i] = t->u.tuple.items[i]->sinfo;
    }
    t->sinfo = ir_sinfo_tuple(M->ctx, fields, io->outputs.len);
    seq->u.seq.result = t;
  }
  seq->sinfo = seq->u.seq.result->sinfo;
  return seq;
}

/* A global name not yet used: "<backend>_<caller>" with a number. */
static IrSym
codegen_name(Merger *M, IrSym backend, const char *caller)
{
  for (int k = 0;; k++) {
    IrSym s = ir_sym(M->ctx, ir_printf(M->ctx, "%s_%s_%d", backend, caller, k));
    bool taken = ir_module_find(M->mod, s) != NULL;
    for (int i = 0; i < M->new_globals.len && !taken; i++)
      taken = ((IrGlobal *)M->new_globals.items[i])->name == s;
    if (!taken)
      return s;
  }
}

/* Makes the Codegen function of group g and returns its call. */
static IrExpr *
group_function(Merger *M, const Groups *G, int g, const GroupIface *io, const char *caller)
{
  IrMap sub = {0};
  IrFunction *f = ir_alloc(M->ctx, sizeof *f);
  f->nparams = io->outer.len;
  f->params = ir_alloc(M->ctx, (size_t)(io->outer.len + 1) * sizeof *f->params);
  for (int i = 0; i < io->outer.len; i++) {
    const IrExpr *v = io->outer.items[i];
    f->params[i] = ir_var_new(M->ctx, v->u.var.name, v->sinfo, false, v->loc);
    ir_map_put(&sub, v, f->params[i]);
  }
  f->body = group_body(M, G, g, io, &sub);
  f->ret = f->body->sinfo;
  IrSym key = ir_sym(M->ctx, "Codegen");
  IrAttr *value = ir_attr_str(M->ctx, G->backend[g]);
  f->attrs = ir_attr_dict(M->ctx, &key, &value, 1);
  f->pure = true;
  f->loc = G->blk->bindings[G->last[g]].loc;
  ir_map_free(&sub);
  IrGlobal *glob = ir_alloc(M->ctx, sizeof *glob);
  glob->name = codegen_name(M, G->backend[g], caller);
  glob->kind = IR_GLOBAL_RELAX;
  glob->u.relax = f;
  ir_vec_push(&M->new_globals, glob);
  IrExpr *callee = ir_expr_new(M->ctx, IR_EX_GLOBAL, f->loc);
  callee->u.global = glob->name;
  callee->sinfo = func_sinfo(M->ctx, f);
  IrExpr *call = ir_expr_new(M->ctx, IR_EX_CALL, f->loc);
  call->u.call.kind = IR_CALL_GLOBAL;
  call->u.call.callee = callee;
  call->u.call.nargs = io->outer.len;
  call->u.call.args = ir_alloc(M->ctx, (size_t)(io->outer.len + 1) * sizeof(IrExpr *));
  memcpy(call->u.call.args, io->outer.items, (size_t)io->outer.len * sizeof(IrExpr *));
  call->sinfo = f->ret;
  return call;
}

/* --- re-emitting a block ------------------------------------------------------------- */

typedef struct {
  Merger *M;
  const Groups *G;
  const IrBinding *rebuilt; /* the block's bindings, nested seqs merged */
  IrVec out;                /* IrBinding* emitted */
  IrMap ready;              /* block vars bound in out */
  const char *caller;
} Emitter;

typedef struct {
  const Emitter *E;
  int group; /* vars of this group's members count as ready; -1 none */
  bool ok;
} ReadyWalk;

static void
check_ready(void *user, const IrExpr *var)
{
  ReadyWalk *w = user;
  uintptr_t d = (uintptr_t)ir_map_get(&w->E->G->def, var);
  if (d && !ir_map_get(&w->E->ready, var) && (w->group < 0 || w->E->G->group[d - 1] != w->group))
    w->ok = false;
}

/* Can item i be emitted now?  Item i is binding i, or, for the last member
 * of a group, the whole group (ready when its inputs are). */
static bool
item_ready(const Emitter *E, int i)
{
  const Groups *G = E->G;
  ReadyWalk w = {E, G->group[i], true};
  if (G->group[i] < 0) {
    walk_expr(E->rebuilt[i].value, check_ready, &w);
    return w.ok;
  }
  for (int j = 0; j < G->blk->n && w.ok; j++)
    if (G->group[j] == G->group[i])
      walk_expr(G->blk->bindings[j].value, check_ready, &w);
  return w.ok;
}

static void
emit(Emitter *E, IrExpr *var, IrExpr *value, IrSInfo *cast, IrLoc loc)
{
  IrBinding *b = ir_alloc(E->M->ctx, sizeof *b);
  *b = (IrBinding){var, value, cast, loc};
  ir_vec_push(&E->out, b);
  if (var)
    ir_map_put(&E->ready, var, var);
}

/* The call of group g's Codegen function, and the gets of its outputs
 * (which keep the members' vars, so no later use changes). */
static void
emit_group(Emitter *E, int g)
{
  GroupIface io = {{0}, {0}};
  group_iface(E->M, E->G, g, &io);
  IrExpr *call = group_function(E->M, E->G, g, &io, E->caller);
  const IrBindingBlock *blk = E->G->blk;
  IrLoc loc = blk->bindings[E->G->last[g]].loc;
  if (io.outputs.len == 1) {
    emit(E, io.outputs.items[0], call, NULL, loc);
  } else {
    const IrExpr *first = io.outputs.items[0];
    IrSym name = ir_sym(E->M->ctx, ir_printf(E->M->ctx, "%s_group", first->u.var.name));
    IrExpr *t = ir_var_new(E->M->ctx, name, call->sinfo, blk->dataflow, loc);
    emit(E, t, call, NULL, loc);
    for (int i = 0; i < io.outputs.len; i++) {
      IrExpr *get = ir_expr_new(E->M->ctx, IR_EX_GET, loc);
      get->u.get.tuple = t;
      get->u.get.index = i;
      get->sinfo = ((IrExpr *)io.outputs.items[i])->sinfo;
      emit(E, io.outputs.items[i], get, NULL, loc);
    }
  }
  ir_vec_free(&io.outer);
  ir_vec_free(&io.outputs);
}

static void
emit_item(Emitter *E, int i)
{
  if (E->G->group[i] >= 0)
    emit_group(E, E->G->group[i]);
  else
    emit(E, E->rebuilt[i].var, E->rebuilt[i].value, E->rebuilt[i].cast, E->rebuilt[i].loc);
}

/* Emits the delayed items that have become ready, keeping their order. */
static void
flush(Emitter *E, IrVec *pending)
{
  for (bool progress = true; progress;) {
    progress = false;
    int n = 0;
    for (int k = 0; k < pending->len; k++) {
      int i = (int)(intptr_t)pending->items[k];
      if (item_ready(E, i)) {
        emit_item(E, i);
        progress = true;
      } else {
        pending->items[n++] = pending->items[k];
      }
    }
    pending->len = n;
  }
}

/* blk with its groups merged (NULL when it has no composite call).  Items
 * go out in order; one that reads what is not bound yet (a group result, a
 * delayed binding) waits, and so does everything after it until it can go. */
static IrBindingBlock *
merge_block(Merger *M, const IrBindingBlock *blk, const char *caller, IrBinding *rebuilt)
{
  Groups G;
  groups_build(M, &G, blk);
  IrBindingBlock *nb = NULL;
  if (G.ngroups > 0) {
    Emitter E = {M, &G, rebuilt, {0}, {0}, caller};
    IrVec pending = {0};
    for (int i = 0; i < blk->n; i++) {
      if (G.group[i] >= 0 && G.last[G.group[i]] != i)
        continue; /* emitted with its group */
      if (pending.len == 0 && item_ready(&E, i))
        emit_item(&E, i);
      else
        ir_vec_push(&pending, (void *)(intptr_t)i);
      flush(&E, &pending);
    }
    if (pending.len)
      UNREACHABLE(); /* groups are acyclic, so every item becomes ready */
    nb = ir_alloc(M->ctx, sizeof *nb);
    *nb = *blk;
    nb->n = E.out.len;
    nb->bindings = ir_alloc(M->ctx, (size_t)(E.out.len + 1) * sizeof *nb->bindings);
    for (int i = 0; i < E.out.len; i++)
      nb->bindings[i] = *(IrBinding *)E.out.items[i];
    ir_vec_free(&E.out);
    ir_vec_free(&pending);
    ir_map_free(&E.ready);
  }
  groups_free(&G);
  return nb;
}

/* --- seqs and functions ------------------------------------------------------------ */

static IrExpr *merge_seq(Merger *M, IrExpr *seq, const char *caller);

/* A binding with its if branches and local functions merged. */
static IrBinding
merge_nested(Merger *M, const IrBinding *b, const char *caller)
{
  IrBinding out = *b;
  IrExpr *v = b->value;
  if (v && v->kind == IR_EX_IF) {
    IrExpr *t = merge_seq(M, v->u.branch.then_, caller);
    IrExpr *e = merge_seq(M, v->u.branch.else_, caller);
    if (t != v->u.branch.then_ || e != v->u.branch.else_) {
      out.value = opt_rw_expr_copy(M->ctx, v);
      out.value->u.branch.then_ = t;
      out.value->u.branch.else_ = e;
    }
  } else if (v && v->kind == IR_EX_FUNC) {
    IrExpr *body = merge_seq(M, v->u.func->body, caller);
    if (body != v->u.func->body) {
      IrFunction *f = ir_alloc(M->ctx, sizeof *f);
      *f = *v->u.func;
      f->body = body;
      out.value = opt_rw_expr_copy(M->ctx, v);
      out.value->u.func = f;
    }
  }
  return out;
}

/* A seq result that calls a Composite function (an if branch's last
 * assignment) becomes the call of a Codegen function of its own: it goes
 * through merge_block as a block of one binding. */
static IrExpr *
merge_result(Merger *M, IrExpr *result, const char *caller)
{
  if (!result || result->kind != IR_EX_CALL)
    return result;
  IrSym tmp = ir_sym(M->ctx, "result");
  IrBinding b = {ir_var_new(M->ctx, tmp, result->sinfo, false, result->loc), result, NULL,
                 result->loc};
  IrBindingBlock one = {&b, 1, false, result->loc};
  if (!composite_callee(M, &b, NULL) || !result->sinfo)
    return result;
  IrBindingBlock *nb = merge_block(M, &one, caller, &b);
  return nb->bindings[0].value;
}

static IrExpr *
merge_seq(Merger *M, IrExpr *seq, const char *caller)
{
  int nblocks = seq->u.seq.nblocks;
  IrBindingBlock *blocks = ir_alloc(M->ctx, (size_t)(nblocks ? nblocks : 1) * sizeof *blocks);
  bool changed = false;
  for (int i = 0; i < nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    IrBinding *rebuilt = ir_alloc(M->ctx, (size_t)(blk->n ? blk->n : 1) * sizeof *rebuilt);
    bool nested = false;
    for (int j = 0; j < blk->n; j++) {
      rebuilt[j] = merge_nested(M, &blk->bindings[j], caller);
      nested |= rebuilt[j].value != blk->bindings[j].value;
    }
    IrBindingBlock *nb = merge_block(M, blk, caller, rebuilt);
    blocks[i] = *blk;
    if (nb)
      blocks[i] = *nb;
    else if (nested)
      blocks[i].bindings = rebuilt;
    changed |= nb || nested;
  }
  IrExpr *result = merge_result(M, seq->u.seq.result, caller);
  if (!changed && result == seq->u.seq.result)
    return seq;
  IrExpr *copy = opt_rw_expr_copy(M->ctx, seq);
  copy->u.seq.blocks = blocks;
  copy->u.seq.result = result;
  return copy;
}

/* --- dropping Composite globals no one calls ------------------------------------------ */

static void collect_globals(IrMap *refs, const IrExpr *e);

static void
collect_seq_globals(IrMap *refs, const IrExpr *seq)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++)
      collect_globals(refs, seq->u.seq.blocks[i].bindings[j].value);
  collect_globals(refs, seq->u.seq.result);
}

/* Records in refs every global name e refers to. */
static void
collect_globals(IrMap *refs, const IrExpr *e)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_EX_GLOBAL:
    ir_map_put(refs, e->u.global, (void *)e->u.global);
    break;
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      collect_globals(refs, e->u.tuple.items[i]);
    break;
  case IR_EX_CALL:
    collect_globals(refs, e->u.call.callee);
    for (int i = 0; i < e->u.call.nargs; i++)
      collect_globals(refs, e->u.call.args[i]);
    break;
  case IR_EX_IF:
    collect_seq_globals(refs, e->u.branch.then_);
    collect_seq_globals(refs, e->u.branch.else_);
    break;
  case IR_EX_FUNC:
    collect_seq_globals(refs, e->u.func->body);
    break;
  default:
    break;
  }
}

/* out without the Composite globals that were called before the pass and
 * that no function refers to after it. */
static IrModule *
drop_merged(const IrModule *before, IrModule *out)
{
  IrMap refs = {0};
  for (int i = 0; i < out->nglobals; i++)
    if (out->globals[i].kind == IR_GLOBAL_RELAX)
      collect_seq_globals(&refs, out->globals[i].u.relax->body);
  IrMap was = {0};
  for (int i = 0; i < before->nglobals; i++)
    if (before->globals[i].kind == IR_GLOBAL_RELAX)
      collect_seq_globals(&was, before->globals[i].u.relax->body);
  int n = 0;
  for (int i = 0; i < out->nglobals; i++) {
    const IrGlobal *g = &out->globals[i];
    bool composite = g->kind == IR_GLOBAL_RELAX && ir_attr_get(g->u.relax->attrs, "Composite");
    if (composite && ir_map_get(&was, g->name) && !ir_map_get(&refs, g->name))
      continue;
    out->globals[n++] = *g;
  }
  out->nglobals = n;
  ir_map_free(&refs);
  ir_map_free(&was);
  return out;
}

/* --- the pass -------------------------------------------------------------------------- */

IrModule *
opt_merge_composite_functions(const OptContext *oc, const IrModule *m)
{
  IrModule *norm = opt_normalize(oc->ctx, m);
  if (!norm)
    return NULL;
  Merger M = {oc->ctx, norm, {0}, {0}};
  IrFunction **funcs = ir_alloc(oc->ctx, (size_t)(norm->nglobals + 1) * sizeof *funcs);
  for (int i = 0; i < norm->nglobals; i++) {
    const IrGlobal *g = &norm->globals[i];
    if (g->kind != IR_GLOBAL_RELAX || ir_attr_get(g->u.relax->attrs, "Composite") ||
        ir_attr_get(g->u.relax->attrs, "Codegen"))
      continue;
    ir_map_free(&M.uses); /* state is per function */
    walk_seq(g->u.relax->body, count_use, &M.uses);
    IrExpr *body = merge_seq(&M, g->u.relax->body, g->name);
    if (body != g->u.relax->body) {
      funcs[i] = ir_alloc(oc->ctx, sizeof *funcs[i]);
      *funcs[i] = *g->u.relax;
      funcs[i]->body = body;
    }
  }
  ir_map_free(&M.uses);
  IrModule *out = opt_rw_module_copy(oc->ctx, norm, M.new_globals.len);
  for (int i = 0; i < norm->nglobals; i++)
    if (funcs[i])
      out->globals[i].u.relax = funcs[i];
  for (int i = 0; i < M.new_globals.len; i++)
    out->globals[out->nglobals++] = *(IrGlobal *)M.new_globals.items[i];
  ir_vec_free(&M.new_globals);
  return drop_merged(norm, out);
}
