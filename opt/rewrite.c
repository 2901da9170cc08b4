/*
 * rewrite.c - rebuilding Relax functions for passes, without changing
 * their input.
 *
 * Key idea: copy on write.  The walk rebuilds a node only when one of its
 * children came back as a different pointer, so a pass that changes one
 * binding allocates the path from that binding up to the function, and
 * everything else is shared with the input.  A var whose struct info
 * changes is a new node (nodes are immutable); the map old -> new in the
 * rewriter replaces it in every use that follows, in nested seqs and in
 * closures too, since uses always follow the definition.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/op.h"
#include "opt_int.h"

/* --- expressions -------------------------------------------------------------- */

void
opt_rw_init(Rewriter *rw, IrCtx *ctx, void *user)
{
  memset(rw, 0, sizeof *rw);
  rw->ctx = ctx;
  rw->user = user;
}

void
opt_rw_free(Rewriter *rw)
{
  ir_map_free(&rw->vars);
  ir_vec_free(&rw->before);
  ir_vec_free(&rw->funcs);
  ir_vec_free(&rw->ariths);
}

IrArith *
opt_rw_arith(const Rewriter *rw)
{
  return rw->ariths.len ? rw->ariths.items[rw->ariths.len - 1] : NULL;
}

static void
enter(Rewriter *rw, const IrFunction *f)
{
  ir_vec_push(&rw->funcs, (void *)f);
  IrArith *a = ir_arith_new(rw->ctx);
  for (int i = 0; i < rw->funcs.len; i++)
    ir_arith_bound_function(a, rw->funcs.items[i]);
  ir_vec_push(&rw->ariths, a);
}

IrExpr *
opt_rw_expr_copy(IrCtx *ctx, const IrExpr *e)
{
  IrExpr *copy = ir_alloc(ctx, sizeof *copy);
  *copy = *e;
  return copy;
}

IrExpr *
opt_rw_bind_op(Rewriter *rw, const char *name, IrOpId id, IrExpr **args, int nargs, IrAttr *attrs,
               IrLoc loc)
{
  IrCtx *ctx = rw->ctx;
  IrExpr **a = ir_alloc(ctx, sizeof *a * (size_t)nargs);
  memcpy(a, args, sizeof *a * (size_t)nargs);
  IrExpr *call = ir_call_op(ctx, &op_def(id)->syn, a, nargs, attrs, loc);
  IrSInfo **s = ir_alloc(ctx, sizeof *s * (size_t)nargs);
  for (int i = 0; i < nargs; i++)
    s[i] = args[i]->sinfo ? args[i]->sinfo
           : args[i]->kind == IR_EX_PRIM
               ? ir_sinfo_prim(ctx, args[i]->u.prim->dtype, args[i]->u.prim)
               : ir_sinfo_object(ctx);
  OpInfer in = {ctx, opt_rw_arith(rw), NULL, ir_sym(ctx, name), loc, NULL};
  call->sinfo = op_call_infer(&in, call, s);
  IrExpr *var = ir_var_new(ctx, ir_sym(ctx, name), call->sinfo, rw->dataflow && !rw->at_result, loc);
  IrBinding *b = ir_alloc(ctx, sizeof *b);
  b->var = var;
  b->value = call;
  b->loc = loc;
  ir_vec_push(&rw->before, b);
  return var;
}

IrExpr *
opt_rw_var_recreate(Rewriter *rw, const IrExpr *var, IrSInfo *sinfo)
{
  IrExpr *v = ir_var_new(rw->ctx, var->u.var.name, sinfo, var->u.var.dataflow, var->loc);
  ir_map_put(&rw->vars, var, v);
  return v;
}

/* items substituted into a new arena array, or NULL when none changed. */
static IrExpr **
subst_list(Rewriter *rw, IrExpr **items, int n)
{
  IrExpr **out = NULL;
  for (int i = 0; i < n; i++) {
    IrExpr *x = opt_rw_subst(rw, items[i]);
    if (x != items[i] && !out) {
      out = ir_alloc(rw->ctx, (size_t)n * sizeof *out);
      memcpy(out, items, (size_t)n * sizeof *out);
    }
    if (out)
      out[i] = x;
  }
  return out;
}

/* A tuple's struct info from its items when all are known, else old. */
static IrSInfo *
tuple_sinfo(IrCtx *ctx, IrExpr **items, int n, IrSInfo *old)
{
  IrSInfo **fields = ir_alloc(ctx, (size_t)(n ? n : 1) * sizeof *fields);
  for (int i = 0; i < n; i++)
    if (!(fields[i] = items[i]->sinfo))
      return old;
  return ir_sinfo_tuple(ctx, fields, n);
}

IrExpr *
opt_rw_subst(Rewriter *rw, IrExpr *e)
{
  if (!e || rw->vars.len == 0)
    return e;
  IrExpr *copy;
  switch (e->kind) {
  case IR_EX_VAR: {
    IrExpr *v = ir_map_get(&rw->vars, e);
    return v ? v : e;
  }
  case IR_EX_TUPLE: {
    IrExpr **items = subst_list(rw, e->u.tuple.items, e->u.tuple.n);
    if (!items)
      return e;
    copy = opt_rw_expr_copy(rw->ctx, e);
    copy->u.tuple.items = items;
    copy->sinfo = tuple_sinfo(rw->ctx, items, e->u.tuple.n, e->sinfo);
    return copy;
  }
  case IR_EX_GET: {
    IrExpr *t = opt_rw_subst(rw, e->u.get.tuple);
    if (t == e->u.get.tuple)
      return e;
    copy = opt_rw_expr_copy(rw->ctx, e);
    copy->u.get.tuple = t;
    if (t->sinfo && t->sinfo->kind == IR_SI_TUPLE && e->u.get.index < t->sinfo->u.tuple.n)
      copy->sinfo = t->sinfo->u.tuple.fields[e->u.get.index];
    return copy;
  }
  case IR_EX_CALL: {
    IrExpr *callee = opt_rw_subst(rw, e->u.call.callee);
    IrExpr **args = subst_list(rw, e->u.call.args, e->u.call.nargs);
    if (callee == e->u.call.callee && !args)
      return e;
    copy = opt_rw_expr_copy(rw->ctx, e);
    copy->u.call.callee = callee;
    if (args)
      copy->u.call.args = args;
    return copy;
  }
  default:
    return e; /* leaves without vars; seqs, ifs and functions go by rw_value */
  }
}

/* --- seqs, bindings, functions ----------------------------------------------- */

static IrExpr *rw_seq(Rewriter *rw, IrExpr *seq, const IrBinding *owner);

static char *
local_name(Rewriter *rw, const IrBinding *b)
{
  const char *var = b->var && b->var->u.var.name ? b->var->u.var.name : "?";
  return ir_printf(rw->ctx, "%s.%s", rw->func_name ? rw->func_name : "?", var);
}

/* A binding's value with its vars substituted and its nested seqs and
 * functions rewritten; NULL after an error. */
static IrExpr *
rw_value(Rewriter *rw, const IrBinding *b)
{
  IrExpr *e = b->value;
  if (!e)
    return e;
  if (e->kind == IR_EX_IF) {
    IrExpr *cond = opt_rw_subst(rw, e->u.branch.cond);
    IrExpr *then_ = rw_seq(rw, e->u.branch.then_, b);
    IrExpr *else_ = then_ ? rw_seq(rw, e->u.branch.else_, b) : NULL;
    if (!then_ || !else_)
      return NULL;
    if (cond == e->u.branch.cond && then_ == e->u.branch.then_ && else_ == e->u.branch.else_)
      return e;
    IrExpr *copy = opt_rw_expr_copy(rw->ctx, e);
    copy->u.branch.cond = cond;
    copy->u.branch.then_ = then_;
    copy->u.branch.else_ = else_;
    return copy;
  }
  if (e->kind == IR_EX_FUNC && e->u.func) {
    const char *saved = rw->func_name;
    IrFunction *f = opt_rw_function(rw, e->u.func, local_name(rw, b));
    rw->func_name = saved;
    if (!f || f == e->u.func)
      return f ? e : NULL;
    IrExpr *copy = opt_rw_expr_copy(rw->ctx, e);
    copy->u.func = f;
    return copy;
  }
  return opt_rw_subst(rw, e);
}

/* The bindings the callback asked to put before the current one, moved
 * to out. */
static void
take_before(Rewriter *rw, IrVec *out)
{
  for (int k = 0; k < rw->before.len; k++)
    ir_vec_push(out, rw->before.items[k]);
  rw->before.len = 0;
}

/* Rewrites the bindings of one block into *out (*nout entries, arena);
 * returns whether any changed, -1 after an error. */
static int
rw_block(Rewriter *rw, const IrBindingBlock *blk, IrBinding **out, int *nout)
{
  int changed = 0;
  IrVec extra = {0}; /* IrBinding*: the new block, once something was inserted */
  IrBinding *cur = ir_alloc(rw->ctx, (size_t)(blk->n ? blk->n : 1) * sizeof(IrBinding));
  bool saved = rw->dataflow;
  rw->dataflow = blk->dataflow;
  for (int i = 0; i < blk->n; i++) {
    const IrBinding *old = &blk->bindings[i];
    cur[i] = *old;
    bool ok = (cur[i].value = rw_value(rw, old)) || !old->value;
    rw->prev = i ? &cur[i - 1] : NULL; /* after rw_value, which may rewrite nested seqs */
    if (!ok || (rw->binding && !rw->binding(rw, &cur[i]))) {
      rw->dataflow = saved;
      ir_vec_free(&extra);
      return -1;
    }
    if (cur[i].var != old->var || cur[i].value != old->value || cur[i].cast != old->cast)
      changed = 1;
    if (rw->before.len && !extra.len)
      for (int k = 0; k < i; k++)
        ir_vec_push(&extra, &cur[k]);
    take_before(rw, &extra);
    if (extra.len)
      ir_vec_push(&extra, &cur[i]);
  }
  rw->dataflow = saved;
  *out = cur;
  *nout = blk->n;
  if (extra.len) {
    *out = ir_alloc(rw->ctx, (size_t)extra.len * sizeof(IrBinding));
    for (int k = 0; k < extra.len; k++)
      (*out)[k] = *(IrBinding *)extra.items[k];
    *nout = extra.len;
    changed = 1;
  }
  ir_vec_free(&extra);
  return changed;
}

/* A seq's result: a call (an if branch's last assignment) goes through the
 * binding callback as a binding of the if's var, after last (the seq's last
 * binding, or NULL); NULL after an error. */
static IrExpr *
rw_result(Rewriter *rw, IrExpr *result, const IrBinding *owner, const IrBinding *last)
{
  IrExpr *e = opt_rw_subst(rw, result);
  if (!e || e->kind != IR_EX_CALL || !owner || !rw->binding)
    return e;
  IrBinding b = *owner;
  b.value = e;
  b.cast = NULL;
  rw->prev = last;
  rw->at_result = true;
  bool ok = rw->binding(rw, &b);
  rw->at_result = false;
  return ok ? b.value : NULL;
}

/* A seq (function body, or if branch of the binding owner) rewritten; NULL
 * after an error. */
static IrExpr *
rw_seq(Rewriter *rw, IrExpr *seq, const IrBinding *owner)
{
  int nblocks = seq->u.seq.nblocks;
  IrBindingBlock *blocks = ir_alloc(rw->ctx, (size_t)(nblocks ? nblocks : 1) * sizeof *blocks);
  bool changed = false;
  for (int i = 0; i < nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    blocks[i] = *blk;
    int c = rw_block(rw, blk, &blocks[i].bindings, &blocks[i].n);
    if (c < 0)
      return NULL;
    if (c)
      changed = true;
    else
      blocks[i].bindings = blk->bindings; /* share the unchanged block */
  }
  const IrBindingBlock *end = nblocks ? &blocks[nblocks - 1] : NULL;
  IrExpr *result =
      rw_result(rw, seq->u.seq.result, owner, end && end->n ? &end->bindings[end->n - 1] : NULL);
  if (!result && seq->u.seq.result)
    return NULL;
  if (rw->before.len) { /* for the result: a block of its own, last */
    IrVec extra = {0};
    take_before(rw, &extra);
    IrBindingBlock *grown = ir_alloc(rw->ctx, (size_t)(nblocks + 1) * sizeof *grown);
    memcpy(grown, blocks, (size_t)nblocks * sizeof *grown);
    IrBindingBlock *last = &grown[nblocks++];
    memset(last, 0, sizeof *last);
    last->n = extra.len;
    last->bindings = ir_alloc(rw->ctx, (size_t)extra.len * sizeof(IrBinding));
    for (int k = 0; k < extra.len; k++)
      last->bindings[k] = *(IrBinding *)extra.items[k];
    ir_vec_free(&extra);
    blocks = grown;
    changed = true;
  }
  if (!changed && result == seq->u.seq.result)
    return seq;
  IrExpr *copy = opt_rw_expr_copy(rw->ctx, seq);
  copy->u.seq.blocks = blocks;
  copy->u.seq.nblocks = nblocks;
  copy->u.seq.result = result;
  if (result && result->sinfo)
    copy->sinfo = result->sinfo;
  return copy;
}

IrFunction *
opt_rw_function(Rewriter *rw, const IrFunction *f, const char *name)
{
  rw->func_name = name;
  enter(rw, f);
  IrExpr *body = f->body ? rw_seq(rw, f->body, NULL) : NULL;
  rw->funcs.len--;
  rw->ariths.len--;
  if (f->body && !body)
    return NULL;
  if (body == f->body)
    return (IrFunction *)f;
  IrFunction *copy = ir_alloc(rw->ctx, sizeof *copy);
  *copy = *f;
  copy->body = body;
  return copy;
}

IrModule *
opt_rw_module_copy(IrCtx *ctx, const IrModule *m, int extra)
{
  IrModule *copy = ir_alloc(ctx, sizeof *copy);
  *copy = *m;
  int n = m->nglobals + extra;
  copy->globals = ir_alloc(ctx, (size_t)(n ? n : 1) * sizeof *copy->globals);
  if (m->nglobals)
    memcpy(copy->globals, m->globals, (size_t)m->nglobals * sizeof *copy->globals);
  return copy;
}

IrFunction *
opt_rw_function_with(IrCtx *ctx, const IrFunction *f, const char *name, RwBindingFn binding,
                     void *user)
{
  Rewriter rw;
  opt_rw_init(&rw, ctx, user);
  rw.binding = binding;
  IrFunction *out = opt_rw_function(&rw, f, name);
  opt_rw_free(&rw);
  return out;
}

IrModule *
opt_rw_module_functions(IrCtx *ctx, const IrModule *m, RwFunctionFn fn, void *user)
{
  IrModule *out = opt_rw_module_copy(ctx, m, 0);
  bool ok = true;
  for (int i = 0; i < m->nglobals; i++) {
    const IrGlobal *g = &m->globals[i];
    if (g->kind != IR_GLOBAL_RELAX || !g->u.relax)
      continue;
    IrFunction *f = fn(ctx, g->u.relax, g->name, user);
    if (f)
      out->globals[i].u.relax = f;
    ok &= f != NULL;
  }
  return ok ? out : NULL;
}

/* --- shared by the small passes: counting uses, dropping bindings ----------
 *
 * Both walk a function's body by hand (not through the Rewriter): counting
 * needs every occurrence of a var, closures included, and dropping rebuilds
 * seqs copy on write, as the Rewriter does, but may shorten blocks. */

static void count_seq(const IrExpr *seq, IrMap *counts);

static void
count_expr(const IrExpr *e, IrMap *counts)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_EX_VAR: {
    uintptr_t n = (uintptr_t)ir_map_get(counts, e);
    ir_map_put(counts, e, (void *)(n + 1));
    break;
  }
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      count_expr(e->u.tuple.items[i], counts);
    break;
  case IR_EX_GET:
    count_expr(e->u.get.tuple, counts);
    break;
  case IR_EX_CALL:
    if (e->u.call.kind != IR_CALL_OP)
      count_expr(e->u.call.callee, counts);
    for (int i = 0; i < e->u.call.nargs; i++)
      count_expr(e->u.call.args[i], counts);
    break;
  case IR_EX_SEQ:
    count_seq(e, counts);
    break;
  case IR_EX_IF:
    count_expr(e->u.branch.cond, counts);
    count_seq(e->u.branch.then_, counts);
    count_seq(e->u.branch.else_, counts);
    break;
  case IR_EX_FUNC:
    if (e->u.func && e->u.func->body)
      count_seq(e->u.func->body, counts);
    break;
  default:
    break;
  }
}

static void
count_seq(const IrExpr *seq, IrMap *counts)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    for (int j = 0; j < blk->n; j++)
      count_expr(blk->bindings[j].value, counts);
  }
  count_expr(seq->u.seq.result, counts);
}

void
opt_rw_count_uses(const IrFunction *f, IrMap *counts)
{
  if (f->body)
    count_seq(f->body, counts);
}

size_t
opt_rw_use_count(const IrMap *counts, const IrExpr *var)
{
  return (size_t)(uintptr_t)ir_map_get(counts, var);
}

typedef struct {
  IrCtx *ctx;
  RwDropFn drop;
  void *user;
} Dropper;

static IrExpr *drop_seq(const Dropper *d, IrExpr *seq);

/* A binding's value with the bindings inside it (if branches, local
 * functions) dropped; the value itself when none was. */
static IrExpr *
drop_value(const Dropper *d, IrExpr *e)
{
  if (e && e->kind == IR_EX_IF) {
    IrExpr *then_ = drop_seq(d, e->u.branch.then_);
    IrExpr *else_ = drop_seq(d, e->u.branch.else_);
    if (then_ == e->u.branch.then_ && else_ == e->u.branch.else_)
      return e;
    IrExpr *copy = opt_rw_expr_copy(d->ctx, e);
    copy->u.branch.then_ = then_;
    copy->u.branch.else_ = else_;
    return copy;
  }
  if (e && e->kind == IR_EX_FUNC && e->u.func) {
    IrFunction *f = opt_rw_drop_bindings(d->ctx, e->u.func, d->drop, d->user);
    if (f == e->u.func)
      return e;
    IrExpr *copy = opt_rw_expr_copy(d->ctx, e);
    copy->u.func = f;
    return copy;
  }
  return e;
}

/* One block without its dropped bindings into out; whether it changed. */
static bool
drop_block(const Dropper *d, const IrBindingBlock *blk, IrBindingBlock *out)
{
  *out = *blk;
  out->bindings = ir_alloc(d->ctx, (size_t)(blk->n ? blk->n : 1) * sizeof(IrBinding));
  out->n = 0;
  bool changed = false;
  for (int j = 0; j < blk->n; j++) {
    const IrBinding *b = &blk->bindings[j];
    if (d->drop(b, d->user)) {
      changed = true;
      continue;
    }
    IrBinding kept = *b;
    kept.value = drop_value(d, b->value);
    changed |= kept.value != b->value;
    out->bindings[out->n++] = kept;
  }
  if (!changed)
    *out = *blk;
  return changed;
}

static IrExpr *
drop_seq(const Dropper *d, IrExpr *seq)
{
  int nblocks = seq->u.seq.nblocks;
  IrBindingBlock *blocks = ir_alloc(d->ctx, (size_t)(nblocks ? nblocks : 1) * sizeof *blocks);
  int n = 0;
  bool changed = false;
  for (int i = 0; i < nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    bool c = drop_block(d, blk, &blocks[n]);
    changed |= c;
    if (!(c && blocks[n].n == 0))
      n++; /* a block emptied by dropping goes too */
  }
  if (!changed)
    return seq;
  IrExpr *copy = opt_rw_expr_copy(d->ctx, seq);
  copy->u.seq.blocks = blocks;
  copy->u.seq.nblocks = n;
  return copy;
}

IrFunction *
opt_rw_drop_bindings(IrCtx *ctx, const IrFunction *f, RwDropFn drop, void *user)
{
  Dropper d = {ctx, drop, user};
  IrExpr *body = f->body ? drop_seq(&d, f->body) : NULL;
  if (body == f->body)
    return (IrFunction *)f;
  IrFunction *copy = ir_alloc(ctx, sizeof *copy);
  *copy = *f;
  copy->body = body;
  return copy;
}
