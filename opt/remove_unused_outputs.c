/*
 * remove_unused_outputs.c - RemoveUnusedOutputs: a private function that
 * returns a tuple stops returning the elements no caller reads.
 *
 * Key idea: an element is removed only when it is provably unread.  The
 * result of a call `v = cls.f(...)` is read element by element only while
 * every use of v is a tuple-get `w = v[i]`; any other use of v (returned,
 * passed to a call, put in a tuple, bound to another var, read in a
 * closure or a branch result) uses the tuple whole and keeps every element,
 * and so does any mention of f other than as the callee of such a binding
 * (TVM took a whole use for no use and put NaN in live outputs).  Public
 * functions keep their outputs.  The callee then returns a tuple of the
 * kept elements (a tuple of one stays a tuple, so callers only renumber
 * their gets), and every caller's call and gets are rewritten.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "opt_int.h"

/* What the pass knows of one candidate: a private function returning a
 * tuple. */
typedef struct {
  IrSym name;
  int n;          /* elements of the result tuple */
  bool *used;     /* per element: read by some caller */
  bool whole;     /* some use keeps every element */
  int *new_index; /* per element: index in the new result, -1 removed */
  bool prune;     /* some element is removed */
  IrSInfo *ret;   /* the new result's struct info, once pruned */
} Callee;

typedef struct {
  IrCtx *ctx;
  Callee *callees;
  int ncallees;
  IrMap by_name; /* IrSym -> Callee* */
  IrMap results; /* var bound to a candidate's call -> Callee*, per function */
} Pruner;

/* --- finding the used elements ---------------------------------------------- */

static void scan_seq(Pruner *P, const IrExpr *seq);

/* Records the uses in e; a tracked result read here is read whole. */
static void
scan_expr(Pruner *P, const IrExpr *e)
{
  if (!e)
    return;
  Callee *c;
  switch (e->kind) {
  case IR_EX_VAR:
    if ((c = ir_map_get(&P->results, e)))
      c->whole = true;
    break;
  case IR_EX_GLOBAL:
    if ((c = ir_map_get(&P->by_name, e->u.global)))
      c->whole = true; /* mentioned other than as a tracked callee */
    break;
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      scan_expr(P, e->u.tuple.items[i]);
    break;
  case IR_EX_GET: /* not a binding's value: taken for a whole use */
    scan_expr(P, e->u.get.tuple);
    break;
  case IR_EX_CALL:
    scan_expr(P, e->u.call.callee);
    for (int i = 0; i < e->u.call.nargs; i++)
      scan_expr(P, e->u.call.args[i]);
    break;
  case IR_EX_SEQ:
    scan_seq(P, e);
    break;
  case IR_EX_IF:
    scan_expr(P, e->u.branch.cond);
    scan_seq(P, e->u.branch.then_);
    scan_seq(P, e->u.branch.else_);
    break;
  case IR_EX_FUNC:
    scan_seq(P, e->u.func->body);
    break;
  default:
    break;
  }
}

/* A binding `v = cls.f(args)` of a candidate f: v is tracked, and the
 * callee mention does not count as a whole use.  A binding `w = v[i]` of
 * a tracked v reads element i. */
static void
scan_binding(Pruner *P, const IrBinding *b)
{
  const IrExpr *v = b->value;
  Callee *c = NULL;
  if (v && v->kind == IR_EX_GET && !b->cast && (c = ir_map_get(&P->results, v->u.get.tuple)) &&
      v->u.get.index >= 0 && v->u.get.index < c->n) {
    c->used[v->u.get.index] = true; /* the one use that reads an element */
    return;
  }
  c = NULL;
  if (v && v->kind == IR_EX_CALL && v->u.call.kind == IR_CALL_GLOBAL && !b->cast && b->var)
    c = ir_map_get(&P->by_name, v->u.call.callee->u.global);
  if (!c) {
    scan_expr(P, v);
    return;
  }
  for (int i = 0; i < v->u.call.nargs; i++)
    scan_expr(P, v->u.call.args[i]);
  ir_map_put(&P->results, b->var, c);
}

static void
scan_seq(Pruner *P, const IrExpr *seq)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++)
      scan_binding(P, &seq->u.seq.blocks[i].bindings[j]);
  scan_expr(P, seq->u.seq.result);
}

/* The candidates of m: private Relax functions whose annotated result is a
 * tuple. */
static void
find_candidates(Pruner *P, const IrModule *m)
{
  P->callees = ir_xcalloc((size_t)m->nglobals + 1, sizeof *P->callees);
  for (int i = 0; i < m->nglobals; i++) {
    const IrGlobal *g = &m->globals[i];
    if (g->kind != IR_GLOBAL_RELAX || !g->u.relax->is_private || !g->u.relax->ret ||
        g->u.relax->ret->kind != IR_SI_TUPLE)
      continue;
    Callee *c = &P->callees[P->ncallees++];
    c->name = g->name;
    c->n = g->u.relax->ret->u.tuple.n;
    c->used = ir_xcalloc((size_t)c->n + 1, sizeof *c->used);
    c->new_index = ir_xcalloc((size_t)c->n + 1, sizeof *c->new_index);
    ir_map_put(&P->by_name, g->name, c);
  }
}

/* Decides each candidate's new result; true when some candidate changes. */
static bool
plan(Pruner *P)
{
  bool any = false;
  for (int k = 0; k < P->ncallees; k++) {
    Callee *c = &P->callees[k];
    int kept = 0;
    for (int i = 0; i < c->n; i++)
      c->new_index[i] = c->whole || c->used[i] ? kept++ : -1;
    if (kept == c->n)
      continue;
    any = c->prune = true;
  }
  return any;
}

/* --- the callee ------------------------------------------------------------------- */

static IrExpr *
make_get(IrCtx *ctx, IrExpr *tuple, int index, IrLoc loc)
{
  IrExpr *get = ir_expr_new(ctx, IR_EX_GET, loc);
  get->u.get.tuple = tuple;
  get->u.get.index = index;
  if (tuple->sinfo && tuple->sinfo->kind == IR_SI_TUPLE && index < tuple->sinfo->u.tuple.n)
    get->sinfo = tuple->sinfo->u.tuple.fields[index];
  return get;
}

/* Appends bindings to seq's last block when it is a plain one (the text
 * form cannot tell two adjacent plain blocks apart), else in a new one. */
static void
append_plain(IrCtx *ctx, IrExpr *seq, const IrBinding *bindings, int n, IrLoc loc)
{
  int nb = seq->u.seq.nblocks;
  IrBindingBlock *blocks = ir_alloc(ctx, (size_t)(nb + 1) * sizeof *blocks);
  if (nb)
    memcpy(blocks, seq->u.seq.blocks, (size_t)nb * sizeof *blocks);
  if (nb && !blocks[nb - 1].dataflow) {
    IrBindingBlock *last = &blocks[nb - 1];
    IrBinding *all = ir_alloc(ctx, (size_t)(last->n + n) * sizeof *all);
    memcpy(all, last->bindings, (size_t)last->n * sizeof *all);
    memcpy(all + last->n, bindings, (size_t)n * sizeof *all);
    last->bindings = all;
    last->n += n;
  } else {
    blocks[nb++] = (IrBindingBlock){(IrBinding *)bindings, n, false, loc};
  }
  seq->u.seq.blocks = blocks;
  seq->u.seq.nblocks = nb;
}

/* f returning only the kept elements.  A result written as a tuple loses
 * its removed items; any other result (a var holding a tuple) is taken
 * apart by gets in a new block at the end of the body. */
static IrFunction *
prune_callee(Pruner *P, const IrFunction *f, Callee *c)
{
  IrCtx *ctx = P->ctx;
  IrExpr *result = f->body->u.seq.result;
  IrExpr *seq = opt_rw_expr_copy(ctx, f->body);
  IrExpr **items = ir_alloc(ctx, (size_t)(c->n + 1) * sizeof *items);
  IrSInfo **fields = ir_alloc(ctx, (size_t)(c->n + 1) * sizeof *fields);
  int kept = 0;
  IrBinding *gets = ir_alloc(ctx, (size_t)(c->n + 1) * sizeof *gets);
  for (int i = 0; i < c->n; i++) {
    if (c->new_index[i] < 0)
      continue;
    fields[kept] = f->ret->u.tuple.fields[i];
    if (result->kind == IR_EX_TUPLE) {
      items[kept] = result->u.tuple.items[i];
    } else {
      IrSym name = ir_sym(
          ctx, ir_printf(ctx, "%s_%d", result->kind == IR_EX_VAR ? result->u.var.name : "out", i));
      items[kept] = ir_var_new(ctx, name, fields[kept], false, result->loc);
      gets[kept] =
          (IrBinding){items[kept], make_get(ctx, result, i, result->loc), NULL, result->loc};
    }
    kept++;
  }
  c->ret = ir_sinfo_tuple(ctx, fields, kept);
  if (result->kind != IR_EX_TUPLE && kept > 0)
    append_plain(ctx, seq, gets, kept, result->loc);
  IrExpr *tuple = ir_expr_new(ctx, IR_EX_TUPLE, result->loc);
  tuple->u.tuple.items = items;
  tuple->u.tuple.n = kept;
  tuple->sinfo = c->ret;
  seq->u.seq.result = tuple;
  seq->sinfo = c->ret;
  IrFunction *out = ir_alloc(ctx, sizeof *out);
  *out = *f;
  out->body = seq;
  out->ret = c->ret;
  return out;
}

/* --- the callers --------------------------------------------------------------------- */

/* Rewrites calls of pruned callees (new struct info, var recreated) and
 * renumbers the gets of their results. */
static bool
rewrite_binding(Rewriter *rw, IrBinding *b)
{
  Pruner *P = rw->user;
  IrExpr *v = b->value;
  if (!v || rw->at_result)
    return true;
  if (v->kind == IR_EX_CALL && v->u.call.kind == IR_CALL_GLOBAL && !b->cast && b->var) {
    Callee *c = ir_map_get(&P->by_name, v->u.call.callee->u.global);
    if (!c || !c->prune)
      return true;
    IrExpr *call = opt_rw_expr_copy(rw->ctx, v);
    call->sinfo = c->ret;
    b->value = call;
    if (b->var->sinfo && b->var->sinfo->kind == IR_SI_TUPLE)
      b->var = opt_rw_var_recreate(rw, b->var, c->ret);
    ir_map_put(&P->results, b->var, c);
  } else if (v->kind == IR_EX_GET) {
    Callee *c = b->cast ? NULL : ir_map_get(&P->results, v->u.get.tuple);
    if (!c || v->u.get.index < 0 || v->u.get.index >= c->n)
      return true;
    b->value = make_get(rw->ctx, v->u.get.tuple, c->new_index[v->u.get.index], v->loc);
    if (!b->value->sinfo)
      b->value->sinfo = v->sinfo;
  }
  return true;
}

/* --- the pass ---------------------------------------------------------------------------- */

static void
pruner_free(Pruner *P)
{
  for (int k = 0; k < P->ncallees; k++) {
    free(P->callees[k].used);
    free(P->callees[k].new_index);
  }
  free(P->callees);
  ir_map_free(&P->by_name);
  ir_map_free(&P->results);
}

/* f with its calls of pruned callees rewritten (rewrite_binding). */
static IrFunction *
rewrite_function(IrCtx *ctx, const IrFunction *f, const char *name, void *user)
{
  Pruner *P = user;
  ir_map_free(&P->results); /* tracked vars are per function */
  return opt_rw_function_with(ctx, f, name, rewrite_binding, P);
}

IrModule *
opt_remove_unused_outputs(const OptContext *oc, const IrModule *m)
{
  Pruner P = {.ctx = oc->ctx};
  find_candidates(&P, m);
  for (int i = 0; i < m->nglobals; i++)
    if (m->globals[i].kind == IR_GLOBAL_RELAX) {
      ir_map_free(&P.results); /* tracked vars are per function */
      scan_seq(&P, m->globals[i].u.relax->body);
    }
  IrModule *out = opt_rw_module_copy(oc->ctx, m, 0);
  if (plan(&P)) {
    for (int i = 0; i < out->nglobals; i++) {
      IrGlobal *g = &out->globals[i];
      Callee *c = g->kind == IR_GLOBAL_RELAX ? ir_map_get(&P.by_name, g->name) : NULL;
      if (c && c->prune)
        g->u.relax = prune_callee(&P, g->u.relax, c);
    }
    out = opt_rw_module_functions(oc->ctx, out, rewrite_function, &P);
  }
  pruner_free(&P);
  return out;
}
