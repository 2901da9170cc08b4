/*
 * lift_workspaces.c - LiftWorkspaces: the scratch buffers of kernels
 * become allocations of their callers, so the memory planner puts them in
 * the arena.
 *
 * After CallTIRRewrite every kernel is called directly, cls.f(x, alloc).
 * A T.alloc_buffer of f whose shape depends only on f's parameters (whole
 * dims of its buffer parameters, scalar parameters) becomes a new trailing
 * buffer parameter of f, and every call gets an allocation for it:
 *
 *   storage = R.memory.alloc_storage(R.shape([n * 128]), ...)
 *   alloc = R.memory.alloc_tensor(storage, 0, R.shape([n, 32]), ...)
 *   cls.f(x, alloc0, alloc)
 *
 * KillAfterLastUse then ends it at the call: the planner places it in the
 * arena, live for that call only, like any tensor.  So the generated code
 * keeps no static array outside the arena and stays reentrant.
 *
 * Key idea: the shape of a lifted buffer is rewritten in the caller's
 * terms by matching f's parameter shapes against the struct info of the
 * call's arguments.  A kernel stays as it is when one of its calls does not
 * give every dim its buffers need, and small buffers of constant size (at
 * most IR_LOCAL_SCRATCH_BYTES: accumulators) stay local arrays of the kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/tir_build.h"
#include "opt.h"
#include "opt_int.h"

typedef struct {
  IrVec bufs;          /* IrBuffer*: the lifted buffers, in order */
  IrPrimFunc *lifted;  /* the kernel with them as trailing parameters */
  bool refused;        /* a call cannot size them */
} Kernel;

typedef struct {
  IrModule *m;
  Kernel *kernels; /* one per global */
  bool dry;        /* the first walk only decides which kernels are refused */
} Lift;

/* --- which buffers ------------------------------------------------------- */

/* Is v a scalar parameter of f, or a whole dim of a buffer parameter? */
static bool
param_var(const IrPrimFunc *f, const IrPrimExpr *v)
{
  for (int i = 0; i < f->nparams; i++) {
    const IrPrimParam *p = &f->params[i];
    if (!p->buffer && p->var == v)
      return true;
    for (int d = 0; p->buffer && d < p->buffer->ndim; d++)
      if (p->buffer->shape[d] == v)
        return true;
  }
  return false;
}

static bool
liftable(const IrPrimFunc *f, const IrBuffer *b)
{
  int64_t elems = 1, v;
  bool constant = true;
  for (int d = 0; d < b->ndim; d++) {
    if (ir_prim_is_int(b->shape[d], &v))
      elems = v > 0 && elems <= INT64_MAX / v ? elems * v : 0;
    else
      constant = false;
  }
  if (constant && elems * ir_dtype_bytes(b->dtype) <= IR_LOCAL_SCRATCH_BYTES)
    return false;
  IrVec vars = {0};
  for (int d = 0; d < b->ndim; d++)
    ir_prim_expr_vars(b->shape[d], &vars);
  bool ok = true;
  for (int i = 0; i < vars.len && ok; i++)
    ok = param_var(f, vars.items[i]);
  ir_vec_free(&vars);
  return ok;
}

typedef struct {
  const IrPrimFunc *f;
  IrVec *out;
} Collect;

/* Pushes the liftable buffers s allocates. */
static IrWalkAction
collect(const IrStmt *s, void *user)
{
  Collect *c = user;
  if (s->kind == IR_ST_BLOCK) {
    for (int i = 0; i < s->u.block->nallocs; i++)
      if (liftable(c->f, s->u.block->allocs[i]))
        ir_vec_push(c->out, s->u.block->allocs[i]);
  } else if (s->kind == IR_ST_ALLOC && liftable(c->f, s->u.alloc.buffer)) {
    ir_vec_push(c->out, s->u.alloc.buffer);
  }
  return IR_WALK_CONTINUE;
}

static bool
in_vec(const IrVec *v, const void *x)
{
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == x)
      return true;
  return false;
}

/* --- the kernel without them ------------------------------------------------ */

static IrStmt *strip(IrCtx *ctx, IrStmt *s, const IrVec *lifted);

static IrStmt *
copy_stmt(IrCtx *ctx, const IrStmt *s)
{
  IrStmt *c = ir_stmt_new(ctx, s->kind, s->loc);
  *c = *s;
  return c;
}

static IrStmt *
strip_block(IrCtx *ctx, IrStmt *s, const IrVec *lifted)
{
  const IrTirBlock *b = s->u.block;
  IrTirBlock *nb = ir_alloc(ctx, sizeof *nb);
  *nb = *b;
  nb->allocs = ir_alloc(ctx, sizeof *nb->allocs * (size_t)(b->nallocs + 1));
  nb->nallocs = 0;
  for (int i = 0; i < b->nallocs; i++)
    if (!in_vec(lifted, b->allocs[i]))
      nb->allocs[nb->nallocs++] = b->allocs[i];
  nb->init = b->init ? strip(ctx, b->init, lifted) : NULL;
  nb->body = strip(ctx, b->body, lifted);
  if (nb->nallocs == b->nallocs && nb->init == b->init && nb->body == b->body)
    return s;
  IrStmt *c = copy_stmt(ctx, s);
  c->u.block = nb;
  return c;
}

/* s without the T.alloc_buffers of lifted (s itself when none is in it). */
static IrStmt *
strip(IrCtx *ctx, IrStmt *s, const IrVec *lifted)
{
  IrStmt *c, *a, *b;
  switch (s->kind) {
  case IR_ST_SEQ: {
    IrStmt **items = ir_alloc(ctx, sizeof *items * (size_t)(s->u.seq.n + 1));
    bool changed = false;
    for (int i = 0; i < s->u.seq.n; i++) {
      items[i] = strip(ctx, s->u.seq.stmts[i], lifted);
      changed |= items[i] != s->u.seq.stmts[i];
    }
    if (!changed)
      return s;
    c = copy_stmt(ctx, s);
    c->u.seq.stmts = items;
    return c;
  }
  case IR_ST_FOR:
    if ((a = strip(ctx, s->u.loop.body, lifted)) == s->u.loop.body)
      return s;
    c = copy_stmt(ctx, s);
    c->u.loop.body = a;
    return c;
  case IR_ST_BLOCK:
    return strip_block(ctx, s, lifted);
  case IR_ST_LET:
    if ((a = strip(ctx, s->u.let.body, lifted)) == s->u.let.body)
      return s;
    c = copy_stmt(ctx, s);
    c->u.let.body = a;
    return c;
  case IR_ST_IF:
    a = strip(ctx, s->u.branch.then_, lifted);
    b = s->u.branch.else_ ? strip(ctx, s->u.branch.else_, lifted) : NULL;
    if (a == s->u.branch.then_ && b == s->u.branch.else_)
      return s;
    c = copy_stmt(ctx, s);
    c->u.branch.then_ = a;
    c->u.branch.else_ = b;
    return c;
  case IR_ST_ALLOC:
    a = strip(ctx, s->u.alloc.body, lifted);
    if (in_vec(lifted, s->u.alloc.buffer))
      return a;
    if (a == s->u.alloc.body)
      return s;
    c = copy_stmt(ctx, s);
    c->u.alloc.body = a;
    return c;
  case IR_ST_DECL:
    if ((a = strip(ctx, s->u.decl.body, lifted)) == s->u.decl.body)
      return s;
    c = copy_stmt(ctx, s);
    c->u.decl.body = a;
    return c;
  case IR_ST_STORE:
  case IR_ST_EVALUATE:
  case IR_ST_ASSERT:
    return s;
  }
  return s;
}

/* f with the buffers of k as trailing handle parameters. */
static IrPrimFunc *
lifted_kernel(IrCtx *ctx, const IrPrimFunc *f, const Kernel *k)
{
  IrPrimFunc *nf = ir_alloc(ctx, sizeof *nf);
  *nf = *f;
  nf->nparams = f->nparams + k->bufs.len;
  nf->params = ir_alloc(ctx, sizeof *nf->params * (size_t)nf->nparams);
  memcpy(nf->params, f->params, sizeof *f->params * (size_t)f->nparams);
  for (int i = 0; i < k->bufs.len; i++) {
    IrBuffer *b = k->bufs.items[i];
    char name[128];
    snprintf(name, sizeof name, "var_%s", b->name);
    nf->params[f->nparams + i].var = ir_prim_var(ctx, ir_sym(ctx, name), IR_HANDLE);
    nf->params[f->nparams + i].buffer = b;
  }
  nf->body = strip(ctx, f->body, &k->bufs);
  return nf;
}

/* --- the calls ------------------------------------------------------------------ */

static Kernel *
kernel_of(Lift *L, const IrExpr *e)
{
  if (!e || e->kind != IR_EX_CALL || e->u.call.kind != IR_CALL_GLOBAL)
    return NULL;
  const IrGlobal *g = ir_module_find(L->m, e->u.call.callee->u.global);
  Kernel *k = g && g->kind == IR_GLOBAL_PRIM ? &L->kernels[g - L->m->globals] : NULL;
  return k && k->bufs.len && !k->refused ? k : NULL;
}

static bool
is_kernel_call(RwExpander *x, const IrExpr *e)
{
  return kernel_of(x->user, e) != NULL;
}

/* map: every dim of f's parameters that the call's arguments give. */
static void
bind_dims(const IrPrimFunc *f, const IrExpr *call, OpVarMap *map)
{
  for (int i = 0; i < f->nparams && i < call->u.call.nargs; i++) {
    const IrPrimParam *p = &f->params[i];
    const IrExpr *a = call->u.call.args[i];
    if (!p->buffer) {
      if (a->kind == IR_EX_PRIM && !op_var_map_get(map, p->var))
        op_var_map_put(map, p->var, a->u.prim);
      continue;
    }
    const IrSInfo *s = a->sinfo;
    if (!s || s->kind != IR_SI_TENSOR || !s->u.tensor.shape || s->u.tensor.ndim != p->buffer->ndim)
      continue;
    for (int d = 0; d < p->buffer->ndim; d++) {
      const IrPrimExpr *v = p->buffer->shape[d];
      if (v->kind == IR_PE_VAR && !op_var_map_get(map, v))
        op_var_map_put(map, v, s->u.tensor.shape[d]);
    }
  }
}

/* The call with an allocation for each lifted buffer appended; on a dry
 * walk, the call itself, marking its kernel refused when a shape cannot be
 * told. */
static IrExpr *
expand_call(RwExpander *x, const IrExpr *call, IrVec *out)
{
  Lift *L = x->user;
  Kernel *k = kernel_of(L, call);
  const IrPrimFunc *f = k->lifted;
  int nold = f->nparams - k->bufs.len;
  OpVarMap map = {0};
  bind_dims(f, call, &map);
  bool ok = call->u.call.nargs == nold;
  for (int i = 0; i < k->bufs.len && ok; i++) {
    const IrBuffer *b = k->bufs.items[i];
    for (int d = 0; d < b->ndim && ok; d++)
      ok = op_prim_vars_mapped(b->shape[d], &map);
  }
  if (!ok || L->dry) {
    k->refused |= !ok;
    op_var_map_free(&map);
    return (IrExpr *)call;
  }
  IrExpr *nc = opt_rw_expr_copy(x->ctx, call);
  nc->u.call.nargs = f->nparams;
  nc->u.call.args = ir_alloc(x->ctx, sizeof *nc->u.call.args * (size_t)f->nparams);
  memcpy(nc->u.call.args, call->u.call.args, sizeof *call->u.call.args * (size_t)nold);
  for (int i = 0; i < k->bufs.len; i++) {
    const IrBuffer *b = k->bufs.items[i];
    IrPrimExpr **shape = ir_alloc(x->ctx, sizeof *shape * (size_t)(b->ndim + 1));
    for (int d = 0; d < b->ndim; d++)
      shape[d] = ir_arith_simplify(x->arith, op_prim_subst(x->ctx, b->shape[d], &map, false));
    IrSInfo *s = ir_sinfo_tensor(x->ctx, shape, b->ndim, b->dtype, -1);
    nc->u.call.args[nold + i] = opt_rw_emit_alloc(x, s, out, call->loc);
  }
  op_var_map_free(&map);
  return nc;
}

IrModule *
opt_lift_workspaces(const OptContext *oc, const IrModule *m)
{
  IrCtx *ctx = oc->ctx;
  IrModule *out = opt_rw_module_copy(ctx, m, 0);
  Lift L = {out, ir_xcalloc((size_t)m->nglobals + 1, sizeof(Kernel)), true};
  bool any = false;
  for (int i = 0; i < m->nglobals; i++) {
    if (m->globals[i].kind != IR_GLOBAL_PRIM || !m->globals[i].u.prim)
      continue;
    Collect c = {m->globals[i].u.prim, &L.kernels[i].bufs};
    IrTirVisitor v = {.enter = collect, .user = &c};
    ir_tir_walk(c.f->body, &v);
    if (L.kernels[i].bufs.len)
      L.kernels[i].lifted = lifted_kernel(ctx, m->globals[i].u.prim, &L.kernels[i]);
    any |= L.kernels[i].bufs.len > 0;
  }
  IrModule *res = out;
  if (any) {
    RwExpander dry = {.ctx = ctx, .pass = "LiftWorkspaces", .match = is_kernel_call,
                      .expand = expand_call, .user = &L};
    opt_rw_expand_module(&dry, opt_rw_module_copy(ctx, m, 0));
    L.dry = false;
    for (int i = 0; i < m->nglobals; i++)
      if (L.kernels[i].bufs.len && !L.kernels[i].refused)
        out->globals[i].u.prim = L.kernels[i].lifted;
    RwExpander x = dry;
    x.funcs = (IrVec){0};
    x.nerrors = 0;
    res = opt_rw_expand_module(&x, out);
  }
  for (int i = 0; i < m->nglobals; i++)
    ir_vec_free(&L.kernels[i].bufs);
  free(L.kernels);
  return res;
}
