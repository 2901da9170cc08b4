/*
 * tir_walk.c - one traversal of TIR statements and expressions, for the
 * code that only looks (collects, counts, searches): which children and
 * which expressions each kind of statement has is written here once.
 *
 * Order: a statement is entered, then its expressions are visited in source
 * order, then its child statements (a block's init before its body, then
 * before else), then it is left.  Code that rebuilds nodes (FuseTIR's copy,
 * LiftWorkspaces' strip), runs them (the interpreter), writes them (the
 * printer, the code generator) or compares two at once (equality) keeps
 * its own switch: what it does differs per kind, not just where it goes.
 */
#include "ir.h"

/* The expressions s evaluates when it runs, in order; whether one visit
 * stopped the walk. */
static bool
walk_exprs(const IrStmt *s, const IrTirVisitor *v)
{
  if (!v->expr)
    return false;
  switch (s->kind) {
  case IR_ST_FOR:
    return v->expr(s->u.loop.min, s, v->user) || v->expr(s->u.loop.extent, s, v->user);
  case IR_ST_BLOCK:
    for (int i = 0; s->u.block && i < s->u.block->niters; i++) {
      const IrIterVar *it = &s->u.block->iters[i];
      if (v->expr(it->dom.min, s, v->user) || v->expr(it->dom.extent, s, v->user) ||
          v->expr(it->binding, s, v->user))
        return true;
    }
    return false;
  case IR_ST_STORE:
    for (int i = 0; i < s->u.store.n; i++)
      if (v->expr(s->u.store.indices[i], s, v->user))
        return true;
    return v->expr(s->u.store.value, s, v->user);
  case IR_ST_LET:
    return v->expr(s->u.let.value, s, v->user);
  case IR_ST_IF:
    return v->expr(s->u.branch.cond, s, v->user);
  case IR_ST_EVALUATE:
    return v->expr(s->u.eval, s, v->user);
  case IR_ST_ASSERT:
    return v->expr(s->u.check.cond, s, v->user);
  case IR_ST_SEQ:
  case IR_ST_ALLOC:
  case IR_ST_DECL:
    return false;
  }
  return false;
}

/* s's child statements, in order; whether the walk stopped in one. */
static bool
walk_children(const IrStmt *s, const IrTirVisitor *v)
{
  switch (s->kind) {
  case IR_ST_SEQ:
    for (int i = 0; i < s->u.seq.n; i++)
      if (ir_tir_walk(s->u.seq.stmts[i], v))
        return true;
    return false;
  case IR_ST_FOR:
    return ir_tir_walk(s->u.loop.body, v);
  case IR_ST_BLOCK:
    return s->u.block && (ir_tir_walk(s->u.block->init, v) || ir_tir_walk(s->u.block->body, v));
  case IR_ST_LET:
    return ir_tir_walk(s->u.let.body, v);
  case IR_ST_IF:
    return ir_tir_walk(s->u.branch.then_, v) || ir_tir_walk(s->u.branch.else_, v);
  case IR_ST_ALLOC:
    return ir_tir_walk(s->u.alloc.body, v);
  case IR_ST_DECL:
    return ir_tir_walk(s->u.decl.body, v);
  case IR_ST_STORE:
  case IR_ST_EVALUATE:
  case IR_ST_ASSERT:
    return false;
  }
  return false;
}

bool
ir_tir_walk(const IrStmt *s, const IrTirVisitor *v)
{
  if (!s)
    return false;
  IrWalkAction a = v->enter ? v->enter(s, v->user) : IR_WALK_CONTINUE;
  if (a != IR_WALK_CONTINUE)
    return a == IR_WALK_STOP;
  if (walk_exprs(s, v) || walk_children(s, v))
    return true;
  if (v->leave)
    v->leave(s, v->user);
  return false;
}

bool
ir_prim_walk(const IrPrimExpr *e, bool (*visit)(const IrPrimExpr *e, void *user), void *user)
{
  if (!e)
    return false;
  if (visit(e, user))
    return true;
  switch (e->kind) {
  case IR_PE_INT:
  case IR_PE_FLOAT:
  case IR_PE_STR:
  case IR_PE_VAR:
    return false;
  case IR_PE_LOAD:
    for (int i = 0; i < e->u.load.n; i++)
      if (ir_prim_walk(e->u.load.indices[i], visit, user))
        return true;
    return false;
  case IR_PE_CALL:
    for (int i = 0; i < e->u.call.n; i++)
      if (ir_prim_walk(e->u.call.args[i], visit, user))
        return true;
    return false;
  case IR_PE_SELECT:
    return ir_prim_walk(e->u.select.cond, visit, user) ||
           ir_prim_walk(e->u.select.a, visit, user) || ir_prim_walk(e->u.select.b, visit, user);
  default: /* binary, NOT and CAST (b is NULL for the last two) */
    return ir_prim_walk(e->u.bin.a, visit, user) || ir_prim_walk(e->u.bin.b, visit, user);
  }
}

/* --- walks ir.h offers -------------------------------------------------- */

static bool
add_var(const IrPrimExpr *e, void *user)
{
  IrVec *out = user;
  if (e->kind != IR_PE_VAR)
    return false;
  for (int i = 0; i < out->len; i++)
    if (out->items[i] == e)
      return false;
  ir_vec_push(out, (void *)e);
  return false;
}

void
ir_prim_expr_vars(const IrPrimExpr *e, IrVec *out)
{
  ir_prim_walk(e, add_var, out);
}

/* b and the buffers declared over its data (T.decl_buffer, .view), which
 * the walk meets before their uses. */
static bool
is_view_of(const IrVec *views, const IrBuffer *b)
{
  for (int i = 0; i < views->len; i++)
    if (views->items[i] == b)
      return true;
  return false;
}

/* Does kernel call e (anywhere in e) write one of views? */
static bool
kernel_writes(const IrPrimExpr *e, void *user)
{
  const IrTirKernel *k = ir_tir_kernel_of(e);
  for (int i = 0; k && i < k->nargs; i++)
    if (k->args[i] == IR_KARG_INOUT && is_view_of(user, ir_tir_kernel_pointee(e, i)->u.load.buffer))
      return true;
  return false;
}

static IrWalkAction
store_to(const IrStmt *s, void *user)
{
  IrVec *views = user;
  if (s->kind == IR_ST_DECL && is_view_of(views, s->u.decl.source))
    ir_vec_push(views, s->u.decl.buffer);
  if (s->kind == IR_ST_EVALUATE && ir_prim_walk(s->u.eval, kernel_writes, views))
    return IR_WALK_STOP;
  return s->kind == IR_ST_STORE && is_view_of(views, s->u.store.buffer) ? IR_WALK_STOP
                                                                      : IR_WALK_CONTINUE;
}

bool
ir_stmt_stores_into(const IrStmt *s, const IrBuffer *b)
{
  IrVec views = {0};
  ir_vec_push(&views, (void *)b);
  IrTirVisitor v = {.enter = store_to, .user = &views};
  bool stores = ir_tir_walk(s, &v);
  ir_vec_free(&views);
  return stores;
}
