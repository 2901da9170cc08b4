/*
 * fuse_tir_copy.c - copying a prim_func body for inlining into another.
 *
 * Key idea: every binder is made anew.  Loop, let and block vars and
 * allocated buffers get new nodes (identity is by pointer, and one
 * prim_func may be inlined twice into the same function), entered in the
 * map as they are met, so every use below them follows; free vars (shape
 * vars, scalar params) and parameter buffers must already be in the map,
 * where the caller put what they become in the fused function.  A free
 * name without an entry sets c->unmapped instead of failing, so the caller
 * can give up on the group without an error.
 */
#include <string.h>

#include "fuse_int.h"

IrSym
opt_fuse_unique_name(IrCtx *ctx, IrVec *names, const char *base)
{
  IrSym name = ir_sym(ctx, base);
  for (int k = 1;; k++) {
    bool taken = false;
    for (int i = 0; i < names->len && !taken; i++)
      taken = names->items[i] == name;
    if (!taken)
      break;
    name = ir_sym(ctx, ir_printf(ctx, "%s_%d", base, k));
  }
  ir_vec_push(names, (void *)name);
  return name;
}

static IrPrimExpr **
copy_list(FuseCopy *c, IrPrimExpr *const *items, int n)
{
  IrPrimExpr **out = ir_alloc(c->ctx, (size_t)(n ? n : 1) * sizeof *out);
  for (int i = 0; i < n; i++)
    out[i] = opt_fuse_copy_expr(c, items[i]);
  return out;
}

static IrBuffer *
mapped_buffer(FuseCopy *c, IrBuffer *b)
{
  IrBuffer *to = ir_map_get(&c->map, b);
  if (!to)
    c->unmapped = true;
  return to ? to : b;
}

IrPrimExpr *
opt_fuse_copy_expr(FuseCopy *c, const IrPrimExpr *e)
{
  if (!e)
    return NULL;
  IrPrimExpr *copy;
  switch (e->kind) {
  case IR_PE_INT:
  case IR_PE_FLOAT:
  case IR_PE_STR:
    return (IrPrimExpr *)e; /* immutable leaves are shared */
  case IR_PE_VAR:
    copy = ir_map_get(&c->map, e);
    if (!copy)
      c->unmapped = true;
    return copy ? copy : (IrPrimExpr *)e;
  default:
    break;
  }
  copy = ir_alloc(c->ctx, sizeof *copy);
  *copy = *e;
  switch (e->kind) {
  case IR_PE_LOAD:
    copy->u.load.buffer = mapped_buffer(c, e->u.load.buffer);
    copy->u.load.indices = copy_list(c, e->u.load.indices, e->u.load.n);
    break;
  case IR_PE_CALL:
    copy->u.call.args = copy_list(c, e->u.call.args, e->u.call.n);
    break;
  case IR_PE_SELECT:
    copy->u.select.cond = opt_fuse_copy_expr(c, e->u.select.cond);
    copy->u.select.a = opt_fuse_copy_expr(c, e->u.select.a);
    copy->u.select.b = opt_fuse_copy_expr(c, e->u.select.b);
    break;
  default:
    copy->u.bin.a = opt_fuse_copy_expr(c, e->u.bin.a);
    copy->u.bin.b = opt_fuse_copy_expr(c, e->u.bin.b);
    break;
  }
  return copy;
}

/* A new var of the same name and dtype, mapped from v. */
static IrPrimExpr *
fresh_var(FuseCopy *c, const IrPrimExpr *v)
{
  IrPrimExpr *to = ir_prim_var(c->ctx, v->u.var, v->dtype);
  ir_map_put(&c->map, v, to);
  return to;
}

IrBuffer *
opt_fuse_copy_buffer(FuseCopy *c, const IrBuffer *b)
{
  IrBuffer *to = ir_alloc(c->ctx, sizeof *to);
  *to = *b;
  to->name = opt_fuse_unique_name(c->ctx, c->names, b->name ? b->name : "buf");
  to->shape = copy_list(c, b->shape, b->ndim);
  ir_map_put(&c->map, b, to);
  return to;
}

static IrBufferRegion *
copy_regions(FuseCopy *c, const IrBufferRegion *rs, int n)
{
  if (!rs)
    return NULL;
  IrBufferRegion *out = ir_alloc(c->ctx, (size_t)(n ? n : 1) * sizeof *out);
  for (int i = 0; i < n; i++) {
    out[i].buffer = mapped_buffer(c, rs[i].buffer);
    out[i].n = rs[i].n;
    out[i].ranges = ir_alloc(c->ctx, (size_t)(rs[i].n ? rs[i].n : 1) * sizeof(IrRange));
    for (int k = 0; k < rs[i].n; k++) {
      out[i].ranges[k].min = opt_fuse_copy_expr(c, rs[i].ranges[k].min);
      out[i].ranges[k].extent = opt_fuse_copy_expr(c, rs[i].ranges[k].extent);
    }
  }
  return out;
}

/* A block: iterator domains and bindings are read outside it, so they are
 * copied before the iterators are mapped. */
static IrTirBlock *
copy_block(FuseCopy *c, const IrTirBlock *b)
{
  IrTirBlock *to = ir_alloc(c->ctx, sizeof *to);
  *to = *b;
  if (b->name) /* TVM's schedules want block names unique in a function */
    to->name = opt_fuse_unique_name(c->ctx, c->blocks, b->name);
  to->iters = ir_alloc(c->ctx, (size_t)(b->niters ? b->niters : 1) * sizeof *to->iters);
  for (int i = 0; i < b->niters; i++) {
    to->iters[i] = b->iters[i];
    to->iters[i].dom.min = opt_fuse_copy_expr(c, b->iters[i].dom.min);
    to->iters[i].dom.extent = opt_fuse_copy_expr(c, b->iters[i].dom.extent);
    to->iters[i].binding = opt_fuse_copy_expr(c, b->iters[i].binding);
  }
  for (int i = 0; i < b->niters; i++)
    to->iters[i].var = fresh_var(c, b->iters[i].var);
  to->allocs = ir_alloc(c->ctx, (size_t)(b->nallocs ? b->nallocs : 1) * sizeof *to->allocs);
  for (int i = 0; i < b->nallocs; i++)
    to->allocs[i] = opt_fuse_copy_buffer(c, b->allocs[i]);
  to->reads = copy_regions(c, b->reads, b->nreads);
  to->writes = copy_regions(c, b->writes, b->nwrites);
  to->init = b->init ? opt_fuse_copy_stmt(c, b->init) : NULL;
  to->body = opt_fuse_copy_stmt(c, b->body);
  return to;
}

IrStmt *
opt_fuse_copy_stmt(FuseCopy *c, const IrStmt *s)
{
  if (!s)
    return NULL;
  IrStmt *to = ir_alloc(c->ctx, sizeof *to);
  *to = *s;
  switch (s->kind) {
  case IR_ST_SEQ:
    to->u.seq.stmts = ir_alloc(c->ctx, (size_t)(s->u.seq.n ? s->u.seq.n : 1) * sizeof(IrStmt *));
    for (int i = 0; i < s->u.seq.n; i++)
      to->u.seq.stmts[i] = opt_fuse_copy_stmt(c, s->u.seq.stmts[i]);
    break;
  case IR_ST_FOR:
    to->u.loop.min = opt_fuse_copy_expr(c, s->u.loop.min);
    to->u.loop.extent = opt_fuse_copy_expr(c, s->u.loop.extent);
    to->u.loop.var = fresh_var(c, s->u.loop.var);
    to->u.loop.body = opt_fuse_copy_stmt(c, s->u.loop.body);
    break;
  case IR_ST_BLOCK:
    to->u.block = copy_block(c, s->u.block);
    break;
  case IR_ST_STORE:
    to->u.store.buffer = mapped_buffer(c, s->u.store.buffer);
    to->u.store.indices = copy_list(c, s->u.store.indices, s->u.store.n);
    to->u.store.value = opt_fuse_copy_expr(c, s->u.store.value);
    break;
  case IR_ST_LET:
    to->u.let.value = opt_fuse_copy_expr(c, s->u.let.value);
    to->u.let.var = fresh_var(c, s->u.let.var);
    to->u.let.body = opt_fuse_copy_stmt(c, s->u.let.body);
    break;
  case IR_ST_IF:
    to->u.branch.cond = opt_fuse_copy_expr(c, s->u.branch.cond);
    to->u.branch.then_ = opt_fuse_copy_stmt(c, s->u.branch.then_);
    to->u.branch.else_ = opt_fuse_copy_stmt(c, s->u.branch.else_);
    break;
  case IR_ST_EVALUATE:
    to->u.eval = opt_fuse_copy_expr(c, s->u.eval);
    break;
  case IR_ST_ALLOC:
    to->u.alloc.buffer = opt_fuse_copy_buffer(c, s->u.alloc.buffer);
    to->u.alloc.body = opt_fuse_copy_stmt(c, s->u.alloc.body);
    break;
  case IR_ST_ASSERT:
    to->u.check.cond = opt_fuse_copy_expr(c, s->u.check.cond);
    break;
  case IR_ST_DECL:
    to->u.decl.source = mapped_buffer(c, s->u.decl.source);
    to->u.decl.buffer = opt_fuse_copy_buffer(c, s->u.decl.buffer);
    to->u.decl.body = opt_fuse_copy_stmt(c, s->u.decl.body);
    break;
  }
  return to;
}

/* --- statement lists as the reader builds them --------------------------------- */

void
opt_fuse_flatten(IrVec *items, IrStmt *s)
{
  if (!s)
    return;
  if (s->kind == IR_ST_SEQ) {
    for (int i = 0; i < s->u.seq.n; i++)
      opt_fuse_flatten(items, s->u.seq.stmts[i]);
    return;
  }
  ir_vec_push(items, s);
  if (s->kind == IR_ST_LET)
    opt_fuse_flatten(items, s->u.let.body);
  else if (s->kind == IR_ST_ALLOC)
    opt_fuse_flatten(items, s->u.alloc.body);
}

static IrStmt *
make_seq(IrCtx *ctx, IrStmt **stmts, int n)
{
  if (n == 1)
    return stmts[0];
  IrStmt *s = ir_stmt_new(ctx, IR_ST_SEQ, n ? stmts[0]->loc : (IrLoc){0});
  s->u.seq.stmts = ir_alloc(ctx, (size_t)(n ? n : 1) * sizeof(IrStmt *));
  if (n)
    memcpy(s->u.seq.stmts, stmts, (size_t)n * sizeof(IrStmt *));
  s->u.seq.n = n;
  return s;
}

IrStmt *
opt_fuse_build_list(IrCtx *ctx, IrStmt **items, int n)
{
  IrStmt **tail = ir_alloc(ctx, (size_t)(n ? n : 1) * sizeof *tail);
  int start = n; /* tail[start..n) is the list after the current item */
  for (int i = n - 1; i >= 0; i--) {
    IrStmt *s = items[i];
    if (s->kind == IR_ST_LET || s->kind == IR_ST_ALLOC) {
      IrStmt *rest = make_seq(ctx, tail + start, n - start);
      if (s->kind == IR_ST_LET)
        s->u.let.body = rest;
      else
        s->u.alloc.body = rest;
      start = n;
    }
    tail[--start] = s;
  }
  return make_seq(ctx, tail + start, n - start);
}
