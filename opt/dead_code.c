/*
 * dead_code.c - DeadCodeElimination: drops bindings whose var is never used
 * and whose value has no effect, then the functions no entry reaches.
 *
 * Key idea: two fixed points.  Within a function, dropping an unused
 * binding can leave the vars it used unused, so counting uses and dropping
 * repeat until nothing goes.  Across the module, the functions kept are
 * those reachable, through references to globals in Relax bodies, from the
 * entries: `main`, every public (non-private) function and every extern
 * global, as in TVM.  A module without any entry keeps every function.
 *
 * As in TVM, only plain bindings go: a match_cast is a run-time check and
 * may define symbolic vars that later struct info uses, so it stays.
 * Effects that keep a binding: ops marked impure (R.print, R.assert_op,
 * kills), R.call_packed (extern calls), calls of pure=False functions and
 * of prim_funcs directly, calls of vars not known to be pure functions, and
 * an if whose branches hold any of these.  R.call_tir is pure.  So is an
 * op call, unless a relation between its operands' shapes may fail at run
 * time (the interpreter refuses such a call, and LegalizeOps turns the
 * relation into a check that stays when the call goes), or its kernel
 * refuses some tensor values (OP_CHECKS_DATA: an index out of range, an
 * integer divisor 0), or it is an R.call_tir of a prim_func holding an
 * assert (what such an op lowers to): the call is its own check.
 */
#include <string.h>

#include "../ops/op.h"
#include "opt.h"
#include "opt_int.h"

typedef struct {
  IrCtx *ctx;
  const IrModule *mod;
  IrArith *arith; /* bounds of the function's symbolic vars */
  IrMap uses;     /* var -> count, for the function being cleaned */
} Dce;

/* Is s a tensor of unknown shape, or a tuple holding one (R.concat's
 * operands)? */
static bool
shape_unknown(const IrSInfo *s)
{
  if (s && s->kind == IR_SI_TUPLE) {
    for (int i = 0; i < s->u.tuple.n; i++)
      if (shape_unknown(s->u.tuple.fields[i]))
        return true;
    return false;
  }
  return s && s->kind == IR_SI_TENSOR && !s->u.tensor.shape;
}

/* Does inference take a shape relation of the call as true without proof,
 * or may it once an operand's unknown shape is known (LegalizeOps decides
 * broadcasts and concats at run time)? */
static bool
may_refuse(const Dce *d, const IrExpr *call)
{
  if (!op_impl(call->u.call.op->id)->infer)
    return false;
  for (int i = 0; i < call->u.call.nargs; i++) /* a relation on dims not known yet */
    if (shape_unknown(call->u.call.args[i]->sinfo))
      return true;
  IrVec conds = {0};
  OpInfer in = {d->ctx, d->arith, d->mod, NULL, call->loc, NULL};
  /* NULL: a relation proved false (by the vars' bounds, which Normalize
   * did not use): the interpreter refuses every call, so it stays */
  bool refuse = !op_infer_assuming(&in, call, &conds) || conds.len > 0;
  ir_vec_free(&conds);
  return refuse;
}

static IrWalkAction
stop_at_assert(const IrStmt *s, void *user)
{
  (void)user;
  return s->kind == IR_ST_ASSERT ? IR_WALK_STOP : IR_WALK_CONTINUE;
}

/* Is call an R.call_tir (or call_tir_inplace) of a prim_func of the module
 * holding an assert (which may fail)? */
static bool
calls_assert(const Dce *d, const IrExpr *call)
{
  IrOpId id = call->u.call.op->id;
  if ((id != IR_OP_CALL_TIR && id != IR_OP_CALL_TIR_INPLACE) || call->u.call.nargs < 1 ||
      call->u.call.args[0]->kind != IR_EX_GLOBAL)
    return false;
  const IrGlobal *g = ir_module_find(d->mod, call->u.call.args[0]->u.global);
  if (!g || g->kind != IR_GLOBAL_PRIM || !g->u.prim)
    return false;
  IrTirVisitor find = {.enter = stop_at_assert};
  return ir_tir_walk(g->u.prim->body, &find);
}

static bool seq_is_pure(const Dce *d, const IrExpr *seq);

/* Is a call free of visible effects? */
static bool
call_is_pure(const Dce *d, const IrExpr *call)
{
  const IrExpr *callee = call->u.call.callee;
  switch (call->u.call.kind) {
  case IR_CALL_OP:
    return !call->u.call.op->impure && !may_refuse(d, call) && !op_checks_data(call) &&
           !calls_assert(d, call);
  case IR_CALL_EXTERN:
    return false;
  case IR_CALL_GLOBAL: {
    const IrGlobal *g = ir_module_find(d->mod, callee->u.global);
    return g && g->kind == IR_GLOBAL_RELAX && g->u.relax && g->u.relax->pure;
  }
  case IR_CALL_VAR:
    return callee->sinfo && callee->sinfo->kind == IR_SI_FUNC && callee->sinfo->u.func.pure &&
           !callee->sinfo->u.func.packed;
  }
  return false;
}

/* Is evaluating a binding's value free of visible effects?  A local
 * function's value is a closure: making it has none. */
static bool
value_is_pure(const Dce *d, const IrExpr *e)
{
  if (!e)
    return true;
  switch (e->kind) {
  case IR_EX_CALL:
    return call_is_pure(d, e);
  case IR_EX_IF:
    return seq_is_pure(d, e->u.branch.then_) && seq_is_pure(d, e->u.branch.else_);
  case IR_EX_SEQ:
    return seq_is_pure(d, e);
  default:
    return true;
  }
}

static bool
seq_is_pure(const Dce *d, const IrExpr *seq)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    for (int j = 0; j < blk->n; j++)
      if (!value_is_pure(d, blk->bindings[j].value))
        return false;
  }
  return value_is_pure(d, seq->u.seq.result);
}

static bool
drop_unused(const IrBinding *b, void *user)
{
  Dce *d = user;
  return !b->cast && b->var && opt_rw_use_count(&d->uses, b->var) == 0 &&
         value_is_pure(d, b->value);
}

/* f without its dead bindings (f itself when it has none); user is the
 * module. */
static IrFunction *
clean_function(IrCtx *ctx, const IrFunction *f, const char *name, void *user)
{
  (void)name;
  const IrModule *m = user;
  Dce d = {ctx, m, ir_arith_new(ctx), {0}};
  ir_arith_bound_function(d.arith, f);
  IrFunction *cur = (IrFunction *)f;
  for (;;) {
    ir_map_free(&d.uses);
    opt_rw_count_uses(cur, &d.uses);
    IrFunction *next = opt_rw_drop_bindings(ctx, cur, drop_unused, &d);
    if (next == cur)
      break;
    cur = next;
  }
  ir_map_free(&d.uses);
  return cur;
}

/* --- reachability --------------------------------------------------------------- */

/* The walk for the globals the entries reach. */
typedef struct {
  const IrModule *m;
  IrMap index;   /* m's globals by name (ir_module_index) */
  bool *reached; /* per global of m */
  IrVec todo;    /* IrGlobal*: reached, body not walked yet */
} Reach;

static void refs_seq(Reach *r, const IrExpr *seq);

static void
reach(Reach *r, IrSym name)
{
  const IrGlobal *g = ir_map_get(&r->index, name);
  if (g && !r->reached[g - r->m->globals]) {
    r->reached[g - r->m->globals] = true;
    ir_vec_push(&r->todo, (void *)g);
  }
}

static void
refs_expr(Reach *r, const IrExpr *e)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_EX_GLOBAL:
    reach(r, e->u.global);
    break;
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      refs_expr(r, e->u.tuple.items[i]);
    break;
  case IR_EX_GET:
    refs_expr(r, e->u.get.tuple);
    break;
  case IR_EX_CALL:
    if (e->u.call.kind != IR_CALL_OP)
      refs_expr(r, e->u.call.callee);
    for (int i = 0; i < e->u.call.nargs; i++)
      refs_expr(r, e->u.call.args[i]);
    break;
  case IR_EX_SEQ:
    refs_seq(r, e);
    break;
  case IR_EX_IF:
    refs_expr(r, e->u.branch.cond);
    refs_seq(r, e->u.branch.then_);
    refs_seq(r, e->u.branch.else_);
    break;
  case IR_EX_FUNC:
    if (e->u.func && e->u.func->body)
      refs_seq(r, e->u.func->body);
    break;
  default:
    break;
  }
}

static void
refs_seq(Reach *r, const IrExpr *seq)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++)
      refs_expr(r, seq->u.seq.blocks[i].bindings[j].value);
  refs_expr(r, seq->u.seq.result);
}

/* An entry: main, a public function, an extern global. */
static bool
is_entry(const IrGlobal *g)
{
  if (strcmp(g->name, "main") == 0)
    return true;
  switch (g->kind) {
  case IR_GLOBAL_RELAX:
    return g->u.relax && !g->u.relax->is_private;
  case IR_GLOBAL_PRIM:
    return g->u.prim && !g->u.prim->is_private;
  case IR_GLOBAL_EXTERN:
    return true;
  }
  return true;
}

/* Fills reached[i] for the globals the entries reach; false when the
 * module has no entry (then every function stays). */
static bool
find_reachable(const IrModule *m, bool *reached)
{
  Reach r = {.m = m, .reached = reached};
  ir_module_index(m, &r.index);
  for (int i = 0; i < m->nglobals; i++)
    if (is_entry(&m->globals[i])) {
      reached[i] = true;
      ir_vec_push(&r.todo, (void *)&m->globals[i]);
    }
  bool any = r.todo.len > 0;
  while (r.todo.len > 0) {
    const IrGlobal *g = r.todo.items[--r.todo.len];
    if (g->kind == IR_GLOBAL_RELAX && g->u.relax && g->u.relax->body)
      refs_seq(&r, g->u.relax->body);
  }
  ir_vec_free(&r.todo);
  ir_map_free(&r.index);
  return any;
}

IrModule *
opt_dead_code_elimination(const OptContext *oc, const IrModule *m)
{
  IrModule *out = opt_rw_module_functions(oc->ctx, m, clean_function, (void *)m);
  bool *reached = ir_alloc(oc->ctx, (size_t)(m->nglobals ? m->nglobals : 1) * sizeof *reached);
  if (!find_reachable(out, reached))
    return out;
  int n = 0;
  for (int i = 0; i < out->nglobals; i++)
    if (reached[i])
      out->globals[n++] = out->globals[i];
  out->nglobals = n;
  return out;
}
