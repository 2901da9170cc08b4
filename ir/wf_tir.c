/*
 * wf_tir.c - well-formedness of prim_funcs: every buffer stored to or loaded
 * from is in scope, TIR binders are used only inside what they bind, and a
 * store or load has one index per dimension.
 *
 * Key idea: a pre-pass enters every binder of the function (loop vars, block
 * iterators, let vars) in the var map with its kind; the walk counts how
 * many binders of each enclose the current point.  A var with a binder and a
 * count of zero is used outside its scope; any other var (shape vars such
 * as n, parameters) is free in the function and fine.  Buffers in scope are
 * a stack: parameters' buffers, then allocations as the walk enters them.
 */
#include "wf_int.h"

enum {
  BIND_LOOP = 1, /* for loop var */
  BIND_ITER,     /* block iterator */
  BIND_LET,      /* let var */
};

static void check_prim_expr(WfChecker *c, const IrPrimExpr *e);

/* --- the pre-pass ---------------------------------------------------------- */

static void
collect_binder(WfChecker *c, const IrPrimExpr *var, int kind)
{
  if (!var)
    return;
  WfEntry *e = ir_wf_map_put(&c->vars, var);
  if (!e->state)
    e->state = kind;
}

static IrWalkAction
collect_binders(const IrStmt *s, void *user)
{
  WfChecker *c = user;
  if (s->kind == IR_ST_FOR)
    collect_binder(c, s->u.loop.var, BIND_LOOP);
  else if (s->kind == IR_ST_BLOCK && s->u.block)
    for (int i = 0; i < s->u.block->niters; i++)
      collect_binder(c, s->u.block->iters[i].var, BIND_ITER);
  else if (s->kind == IR_ST_LET)
    collect_binder(c, s->u.let.var, BIND_LET);
  return IR_WALK_CONTINUE;
}

/* --- scopes ------------------------------------------------------------------ */

static void
enter_var(WfChecker *c, const IrPrimExpr *var, int delta)
{
  WfEntry *e = var ? ir_wf_map_get(&c->vars, var) : NULL;
  if (e)
    e->depth += delta;
}

static bool
buffer_in_scope(const WfChecker *c, const IrBuffer *b)
{
  for (int i = c->scope.len - 1; i >= 0; i--)
    if (c->scope.items[i] == b)
      return true;
  return false;
}

/* An access (store, load, region) to b with n indices. */
static void
check_access(WfChecker *c, const char *what, const IrBuffer *b, int n, bool check_count)
{
  if (!b)
    return;
  if (!buffer_in_scope(c, b))
    ir_wf_error(c, c->loc, "%s buffer '%s' that is not a parameter or an allocation in scope", what,
                ir_wf_name(b->name));
  if (check_count && n != b->ndim)
    ir_wf_error(c, c->loc, "%s buffer '%s' with %d ind%s but the buffer has %d dimension%s", what,
                ir_wf_name(b->name), n, n == 1 ? "ex" : "ices", b->ndim, b->ndim == 1 ? "" : "s");
}

/* --- expressions ---------------------------------------------------------------- */

static void
check_prim_var(WfChecker *c, const IrPrimExpr *var)
{
  WfEntry *e = ir_wf_map_get(&c->vars, var);
  if (!e || e->depth > 0)
    return;
  const char *name = ir_wf_name(var->u.var);
  if (e->state == BIND_LOOP)
    ir_wf_error(c, c->loc, "loop var '%s' is used outside its loop", name);
  else if (e->state == BIND_ITER)
    ir_wf_error(c, c->loc, "block iter var '%s' is used outside its block", name);
  else if (e->state == BIND_LET)
    ir_wf_error(c, c->loc, "let var '%s' is used outside its let", name);
}

static bool
check_prim_node(const IrPrimExpr *e, void *user)
{
  WfChecker *c = user;
  if (e->kind == IR_PE_VAR)
    check_prim_var(c, e);
  else if (e->kind == IR_PE_LOAD)
    check_access(c, "load from", e->u.load.buffer, e->u.load.n, true);
  return false;
}

static void
check_prim_expr(WfChecker *c, const IrPrimExpr *e)
{
  ir_prim_walk(e, check_prim_node, c);
}

/* --- statements ------------------------------------------------------------------ */

static void check_stmt(WfChecker *c, const IrStmt *s);

static void
check_regions(WfChecker *c, const char *what, const IrBufferRegion *r, int n)
{
  for (int i = 0; i < n; i++) {
    check_access(c, what, r[i].buffer, r[i].n, false);
    for (int j = 0; j < r[i].n; j++) {
      check_prim_expr(c, r[i].ranges[j].min);
      check_prim_expr(c, r[i].ranges[j].extent);
    }
  }
}

/* A block: iterator domains and bindings are read outside it; its
 * allocations and iterators are in scope over regions, init and body. */
static void
check_block(WfChecker *c, const IrTirBlock *b)
{
  for (int i = 0; i < b->niters; i++) {
    check_prim_expr(c, b->iters[i].dom.min);
    check_prim_expr(c, b->iters[i].dom.extent);
    check_prim_expr(c, b->iters[i].binding);
  }
  WfWhere saved_where = c->where;
  const char *saved_name = c->where_name;
  c->where = WF_AT_BLOCK;
  c->where_name = b->name;
  int mark = c->scope.len;
  for (int i = 0; i < b->nallocs; i++)
    ir_vec_push(&c->scope, b->allocs[i]);
  for (int i = 0; i < b->niters; i++)
    enter_var(c, b->iters[i].var, 1);
  check_regions(c, "T.reads of", b->reads, b->nreads);
  check_regions(c, "T.writes of", b->writes, b->nwrites);
  check_stmt(c, b->init);
  check_stmt(c, b->body);
  for (int i = 0; i < b->niters; i++)
    enter_var(c, b->iters[i].var, -1);
  c->scope.len = mark;
  c->where = saved_where;
  c->where_name = saved_name;
}

/* The bytes of b when its shape is literal, else -1. */
static int64_t
literal_bytes(const IrBuffer *b)
{
  int64_t n = ir_dtype_bytes(b->dtype), v;
  for (int i = 0; i < b->ndim; i++) {
    if (!ir_prim_is_int(b->shape[i], &v) || v < 0)
      return -1;
    n *= v;
  }
  return n;
}

/* A declared buffer covers no more bytes than its source (known here when
 * both shapes are literal; the interpreter checks the others). */
static void
check_decl_fits(WfChecker *c, const IrBuffer *b, const IrBuffer *src)
{
  int64_t need = b && src ? literal_bytes(b) : -1, have = src ? literal_bytes(src) : -1;
  if (need >= 0 && have >= 0 && need > have)
    ir_wf_error(c, c->loc, "T.decl_buffer '%s' covers %lld bytes but '%s' holds %lld",
                ir_wf_name(b->name), (long long)need, ir_wf_name(src->name), (long long)have);
}

static void
check_stmt(WfChecker *c, const IrStmt *s)
{
  if (!s)
    return;
  IrLoc saved_loc = c->loc;
  if (ir_wf_loc_known(s->loc))
    c->loc = s->loc;
  int mark = c->scope.len;
  switch (s->kind) {
  case IR_ST_SEQ:
    for (int i = 0; i < s->u.seq.n; i++)
      check_stmt(c, s->u.seq.stmts[i]);
    break;
  case IR_ST_FOR:
    check_prim_expr(c, s->u.loop.min);
    check_prim_expr(c, s->u.loop.extent);
    enter_var(c, s->u.loop.var, 1);
    check_stmt(c, s->u.loop.body);
    enter_var(c, s->u.loop.var, -1);
    break;
  case IR_ST_BLOCK:
    if (s->u.block)
      check_block(c, s->u.block);
    break;
  case IR_ST_STORE:
    check_access(c, "store to", s->u.store.buffer, s->u.store.n, true);
    for (int i = 0; i < s->u.store.n; i++)
      check_prim_expr(c, s->u.store.indices[i]);
    check_prim_expr(c, s->u.store.value);
    break;
  case IR_ST_LET:
    check_prim_expr(c, s->u.let.value);
    enter_var(c, s->u.let.var, 1);
    check_stmt(c, s->u.let.body);
    enter_var(c, s->u.let.var, -1);
    break;
  case IR_ST_IF:
    check_prim_expr(c, s->u.branch.cond);
    check_stmt(c, s->u.branch.then_);
    check_stmt(c, s->u.branch.else_);
    break;
  case IR_ST_EVALUATE:
    check_prim_expr(c, s->u.eval);
    break;
  case IR_ST_ALLOC:
    if (s->u.alloc.buffer)
      ir_vec_push(&c->scope, s->u.alloc.buffer);
    check_stmt(c, s->u.alloc.body);
    break;
  case IR_ST_DECL:
    check_access(c, "T.decl_buffer over", s->u.decl.source, 0, false);
    check_decl_fits(c, s->u.decl.buffer, s->u.decl.source);
    if (s->u.decl.buffer)
      ir_vec_push(&c->scope, s->u.decl.buffer);
    check_stmt(c, s->u.decl.body);
    break;
  case IR_ST_ASSERT:
    check_prim_expr(c, s->u.check.cond);
    if (s->u.check.cond && s->u.check.cond->dtype.code != IR_DT_BOOL)
      ir_wf_error(c, c->loc, "assert needs a bool condition");
    break;
  }
  c->scope.len = mark;
  c->loc = saved_loc;
}

/* Checks one prim_func; c's var map and scope are empty on entry. */
void
ir_wf_check_prim_func(WfChecker *c, const char *name, const IrPrimFunc *f)
{
  WfChecker saved = *c;
  c->func = name;
  c->func_loc = f->loc;
  c->loc = f->loc;
  c->where = WF_AT_FUNCTION;
  IrTirVisitor binders = {.enter = collect_binders, .user = c};
  ir_tir_walk(f->body, &binders);
  for (int i = 0; i < f->nparams; i++)
    if (f->params[i].buffer)
      ir_vec_push(&c->scope, f->params[i].buffer);
  check_stmt(c, f->body);
  saved.nerrors = c->nerrors;
  saved.vars = c->vars;
  saved.scope = c->scope;
  saved.scope.len = 0;
  *c = saved;
}
