/*
 * wf_relax.c - well-formedness of Relax functions: scoping of vars, dataflow
 * blocks, normal form, purity, references to globals, and struct info of
 * bindings.
 *
 * Key idea: before a function is walked, every var it binds (parameters,
 * bindings, nested branches and local functions) is entered PENDING in the
 * var map; the walk marks a var VISIBLE where it is bound and GONE where its
 * scope ends (a branch, a local function, a dataflow block for DataflowVars).
 * A use then tells "before its definition" (PENDING), "outside its scope"
 * (GONE) and "not defined here" (absent) apart in one lookup.
 */
#include <stdio.h>
#include <string.h>

#include "wf_int.h"

static void check_expr(WfChecker *c, const IrExpr *e);
static void check_seq(WfChecker *c, const IrExpr *seq, bool is_body);

/* --- the pre-pass: every var a function binds --------------------------- */

static void collect_function(WfMap *vars, const IrFunction *f);

static void
collect_var(WfMap *vars, const IrExpr *v)
{
  if (!v)
    return;
  WfEntry *e = ir_wf_map_put(vars, v);
  if (!e->state)
    e->state = WF_VAR_PENDING;
}

static void
collect_expr(WfMap *vars, const IrExpr *e)
{
  if (!e)
    return;
  if (e->kind == IR_EX_FUNC && e->u.func) {
    collect_function(vars, e->u.func);
  } else if (e->kind == IR_EX_IF) {
    collect_expr(vars, e->u.branch.then_);
    collect_expr(vars, e->u.branch.else_);
  } else if (e->kind == IR_EX_SEQ) {
    for (int i = 0; i < e->u.seq.nblocks; i++) {
      const IrBindingBlock *b = &e->u.seq.blocks[i];
      for (int j = 0; j < b->n; j++) {
        collect_var(vars, b->bindings[j].var);
        collect_expr(vars, b->bindings[j].value);
      }
    }
  }
}

static void
collect_function(WfMap *vars, const IrFunction *f)
{
  for (int i = 0; i < f->nparams; i++)
    collect_var(vars, f->params[i]);
  collect_expr(vars, f->body);
}

/* --- binding and using vars ----------------------------------------------- */

/* Marks v bound here; reports a second binding of the same node and a
 * DataflowVar bound outside a dataflow block. */
static void
define_var(WfChecker *c, const IrExpr *v, IrLoc loc)
{
  if (!v)
    return;
  WfEntry *e = ir_wf_map_put(&c->vars, v);
  if (e->state == WF_VAR_VISIBLE || e->state == WF_VAR_GONE)
    ir_wf_error(c, loc, "var '%s' is defined twice", ir_wf_name(v->u.var.name));
  e->state = WF_VAR_VISIBLE;
  ir_vec_push(&c->scope, (void *)v);
  if (v->kind == IR_EX_VAR && v->u.var.dataflow && !c->in_dataflow)
    ir_wf_error(c, loc, "dataflow var '%s' is defined outside a dataflow block",
                ir_wf_name(v->u.var.name));
}

/* Ends the scope of every var bound since mark (all of them, or only the
 * DataflowVars at the end of a dataflow block). */
static void
end_scope(WfChecker *c, int mark, bool only_dataflow)
{
  int keep = mark;
  for (int i = mark; i < c->scope.len; i++) {
    const IrExpr *v = c->scope.items[i];
    if (only_dataflow && !(v->kind == IR_EX_VAR && v->u.var.dataflow)) {
      c->scope.items[keep++] = c->scope.items[i];
      continue;
    }
    WfEntry *e = ir_wf_map_get(&c->vars, v);
    if (e)
      e->state = WF_VAR_GONE;
  }
  c->scope.len = keep;
}

/* Errors on a use of v here: the binding's location, since a var node
 * carries the location of its definition, not of the use. */
static void
use_var(WfChecker *c, const IrExpr *v)
{
  WfEntry *e = ir_wf_map_get(&c->vars, v);
  const char *name = ir_wf_name(v->u.var.name);
  if (!e)
    ir_wf_error(c, c->loc, "var '%s' is not defined in this function", name);
  else if (e->state == WF_VAR_PENDING)
    ir_wf_error(c, c->loc, "var '%s' is used before its definition", name);
  else if (e->state == WF_VAR_GONE && v->u.var.dataflow)
    ir_wf_error(c, c->loc, "dataflow var '%s' is used outside its dataflow block", name);
  else if (e->state == WF_VAR_GONE)
    ir_wf_error(c, c->loc, "var '%s' is used outside its scope", name);
}

/* --- calls ---------------------------------------------------------------- */

/* Location of a call-level error: the call, else the binding. */
static IrLoc
call_loc(const WfChecker *c)
{
  return c->call && ir_wf_loc_known(c->call->loc) ? c->call->loc : c->loc;
}

/* "relax.nn.relu" -> "R.nn.relu" into buf (at least 64 bytes). */
static const char *
op_name(const IrOpDef *op, char *buf, size_t size)
{
  const char *n = op->name ? op->name : "?";
  if (strncmp(n, "relax.", 6) == 0)
    snprintf(buf, size, "R.%s", n + 6);
  else
    snprintf(buf, size, "%s", n);
  return buf;
}

static void
report_impure(WfChecker *c, const char *what)
{
  if (c->in_dataflow)
    ir_wf_error(c, call_loc(c), "impure call of %s inside a dataflow block", what);
  else if (c->pure)
    ir_wf_error(c, call_loc(c), "impure call of %s in a pure function", what);
}

static void
check_arity(WfChecker *c, const char *kind, const char *name, int nparams, int nargs)
{
  if (nparams != nargs)
    ir_wf_error(c, call_loc(c), "%s '%s' takes %d argument%s but is called with %d", kind, name,
                nparams, nparams == 1 ? "" : "s", nargs);
}

/* R.call_tir and R.call_tir_inplace: the callee must be a prim_func. */
static void
check_call_tir(WfChecker *c, const IrExpr *e, const char *name)
{
  const IrExpr *callee = e->u.call.nargs > 0 ? e->u.call.args[0] : NULL;
  if (!callee || callee->kind != IR_EX_GLOBAL) {
    ir_wf_error(c, call_loc(c), "the callee of %s is not a global prim_func", name);
    return;
  }
  const IrGlobal *g = ir_module_find(c->m, callee->u.global);
  if (g && g->kind != IR_GLOBAL_PRIM)
    ir_wf_error(c, call_loc(c), "the callee '%s' of %s is not a prim_func",
                ir_wf_name(callee->u.global), name);
}

static void
check_call_op(WfChecker *c, const IrExpr *e)
{
  const IrOpDef *op = e->u.call.op;
  if (!op)
    return;
  char name[96];
  op_name(op, name, sizeof name);
  if (op->id == IR_OP_CALL_TIR || op->id == IR_OP_CALL_TIR_INPLACE)
    check_call_tir(c, e, name);
  if (op->impure)
    report_impure(c, name);
}

static void
check_call_global(WfChecker *c, const IrExpr *callee, int nargs)
{
  if (!callee || callee->kind != IR_EX_GLOBAL)
    return;
  const IrGlobal *g = ir_module_find(c->m, callee->u.global);
  const char *name = ir_wf_name(callee->u.global);
  char what[300];
  if (!g)
    return; /* reported as a missing global */
  if (g->kind == IR_GLOBAL_RELAX && g->u.relax) {
    check_arity(c, "function", name, g->u.relax->nparams, nargs);
    snprintf(what, sizeof what, "function '%s' (pure=False)", name);
    if (!g->u.relax->pure)
      report_impure(c, what);
  } else if (g->kind == IR_GLOBAL_PRIM && g->u.prim) {
    check_arity(c, "prim_func", name, g->u.prim->nparams, nargs);
  } else if (g->kind == IR_GLOBAL_EXTERN) {
    snprintf(what, sizeof what, "extern function '%s'", ir_wf_name(g->u.extern_sym));
    report_impure(c, what);
  }
}

/* A call of a var: a local function (known from its binding) or a parameter
 * or var of function struct info. */
static void
check_call_var(WfChecker *c, const IrExpr *callee, int nargs)
{
  if (!callee || callee->kind != IR_EX_VAR)
    return;
  const char *name = ir_wf_name(callee->u.var.name);
  WfEntry *e = ir_wf_map_get(&c->vars, callee);
  const IrFunction *f = e ? e->data : NULL;
  const IrSInfo *s = callee->sinfo;
  bool pure = true;
  if (f) {
    check_arity(c, "local function", name, f->nparams, nargs);
    pure = f->pure;
  } else if (s && s->kind == IR_SI_FUNC) {
    if (s->u.func.nparams >= 0 && s->u.func.params)
      check_arity(c, "function", name, s->u.func.nparams, nargs);
    pure = s->u.func.pure;
  }
  char what[300];
  snprintf(what, sizeof what, "%s '%s' (pure=False)", f ? "local function" : "function", name);
  if (!pure)
    report_impure(c, what);
}

/* Checks a call's callee and arguments (leaves, in normal form), then what
 * the callee requires (arity, purity, a prim_func for call_tir). */
static void
check_call(WfChecker *c, const IrExpr *e)
{
  const IrExpr *saved = c->call;
  c->call = e;
  const IrExpr *callee = e->u.call.callee;
  if (e->u.call.kind != IR_CALL_OP && callee)
    check_expr(c, callee);
  for (int i = 0; i < e->u.call.nargs; i++) {
    const IrExpr *a = e->u.call.args[i];
    if (!a)
      continue;
    check_expr(c, a);
    if (!ir_expr_is_leaf(a))
      ir_wf_error(c, call_loc(c), "argument %d of the call is not a leaf", i + 1);
  }
  for (int i = 0; i < e->u.call.nsinfo_args; i++)
    ir_wf_check_sinfo(c, e->u.call.sinfo_args[i], call_loc(c), "sinfo_args");
  char what[300];
  switch (e->u.call.kind) {
  case IR_CALL_OP:
    check_call_op(c, e);
    break;
  case IR_CALL_GLOBAL:
    check_call_global(c, callee, e->u.call.nargs);
    break;
  case IR_CALL_EXTERN:
    /* pure only when its R.Callable says so (R.ExternFunc("sym", R.Callable(...))) */
    if (callee && callee->sinfo && callee->sinfo->kind == IR_SI_FUNC && callee->sinfo->u.func.pure)
      break;
    snprintf(what, sizeof what, "extern function '%s'",
             callee ? ir_wf_name(callee->u.global) : "?");
    report_impure(c, what);
    break;
  case IR_CALL_VAR:
    check_call_var(c, callee, e->u.call.nargs);
    break;
  }
  c->call = saved;
}

/* --- expressions ------------------------------------------------------------ */

static void
check_local_function(WfChecker *c, const IrExpr *e)
{
  const char *name = "<lambda>";
  if (c->where == WF_AT_BINDING)
    name = ir_printf(c->ctx, "%s.%s", ir_wf_name(c->func), ir_wf_name(c->where_name));
  ir_wf_check_function(c, name, e->u.func);
}

/* Checks every use inside e and the normal form of its parts. */
static void
check_expr(WfChecker *c, const IrExpr *e)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_EX_VAR:
    use_var(c, e);
    break;
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++) {
      check_expr(c, e->u.tuple.items[i]);
      if (e->u.tuple.items[i] && !ir_expr_is_leaf(e->u.tuple.items[i]))
        ir_wf_error(c, c->loc, "field %d of a tuple is not a leaf", i);
    }
    break;
  case IR_EX_GET:
    check_expr(c, e->u.get.tuple);
    if (e->u.get.tuple && !ir_expr_is_leaf(e->u.get.tuple))
      ir_wf_error(c, c->loc, "the tuple of an item access is not a leaf");
    else if (e->u.get.tuple && e->u.get.tuple->sinfo && e->u.get.tuple->sinfo->kind == IR_SI_TUPLE &&
             e->u.get.index >= e->u.get.tuple->sinfo->u.tuple.n)
      ir_wf_error(c, c->loc, "item %d of a tuple of %d fields", e->u.get.index,
                  e->u.get.tuple->sinfo->u.tuple.n);
    break;
  case IR_EX_CALL:
    check_call(c, e);
    break;
  case IR_EX_GLOBAL:
    if (!ir_module_find(c->m, e->u.global))
      ir_wf_error(c, call_loc(c), "global '%s' is not defined in the module",
                  ir_wf_name(e->u.global));
    break;
  case IR_EX_SEQ:
    check_seq(c, e, false);
    break;
  case IR_EX_IF:
    check_expr(c, e->u.branch.cond);
    if (e->u.branch.cond && !ir_expr_is_leaf(e->u.branch.cond))
      ir_wf_error(c, c->loc, "the if condition is not a leaf");
    check_expr(c, e->u.branch.then_);
    check_expr(c, e->u.branch.else_);
    break;
  case IR_EX_FUNC:
    if (e->u.func)
      check_local_function(c, e);
    break;
  case IR_EX_CONST:
  case IR_EX_SHAPE:
  case IR_EX_PRIM:
  case IR_EX_STR:
  case IR_EX_DTYPE:
  case IR_EX_EXTERN:
    break;
  }
}

/* --- bindings, blocks, seqs, functions ----------------------------------------- */

/* Struct info of a binding: the annotation and the cast are consistent, and
 * the annotation does not contradict the value (match_cast is exempt). */
static void
check_binding_sinfo(WfChecker *c, const IrBinding *b)
{
  const IrSInfo *ann = b->var->sinfo;
  ir_wf_check_sinfo(c, ann, c->loc, "annotation");
  if (b->cast) {
    ir_wf_check_sinfo(c, b->cast, c->loc, "match_cast struct info");
    return;
  }
  const IrSInfo *val = b->value ? b->value->sinfo : NULL;
  if (!ir_wf_sinfo_consistent(ann) || !ir_wf_sinfo_consistent(val))
    return;
  IrBuf why = {0};
  if (ir_wf_sinfo_contradicts(ann, val, &why))
    ir_wf_error(c, c->loc, "annotation contradicts the value: %s", why.data ? why.data : "");
  ir_buf_free(&why);
}

static void
check_binding(WfChecker *c, const IrBinding *b)
{
  WfWhere saved_where = c->where;
  const char *saved_name = c->where_name;
  IrLoc saved_loc = c->loc;
  c->where = WF_AT_BINDING;
  c->where_name = b->var && b->var->kind == IR_EX_VAR ? b->var->u.var.name : NULL;
  c->loc = ir_wf_loc_known(b->loc) ? b->loc : (b->var ? b->var->loc : c->func_loc);
  bool is_func = b->value && b->value->kind == IR_EX_FUNC && b->value->u.func;
  if (is_func) {
    /* a local function sees its own var, for recursion */
    define_var(c, b->var, c->loc);
    WfEntry *e = ir_wf_map_get(&c->vars, b->var);
    if (e)
      e->data = b->value->u.func;
  }
  check_expr(c, b->value);
  if (!is_func)
    define_var(c, b->var, c->loc);
  if (b->var)
    check_binding_sinfo(c, b);
  c->where = saved_where;
  c->where_name = saved_name;
  c->loc = saved_loc;
}

static void
check_block(WfChecker *c, const IrBindingBlock *b)
{
  bool saved = c->in_dataflow;
  c->in_dataflow = b->dataflow;
  int mark = c->scope.len;
  for (int i = 0; i < b->n; i++)
    check_binding(c, &b->bindings[i]);
  if (b->dataflow)
    end_scope(c, mark, true);
  c->in_dataflow = saved;
}

/* A function body or an if branch: its blocks, then its result; the vars it
 * binds go out of scope at its end.  A function's result must be a leaf or
 * a tuple of leaves; a branch's is the value of the if's last binding. */
static void
check_seq(WfChecker *c, const IrExpr *seq, bool is_body)
{
  int mark = c->scope.len;
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    check_block(c, &seq->u.seq.blocks[i]);
  const IrExpr *result = seq->u.seq.result;
  if (is_body && result) {
    c->where = WF_AT_RESULT;
    c->loc = result->kind != IR_EX_VAR ? result->loc : c->func_loc;
    check_expr(c, result);
    if (!ir_expr_is_leaf(result))
      ir_wf_error(c, c->loc, "the result is not a leaf or a tuple of leaves");
  } else {
    check_expr(c, result);
  }
  end_scope(c, mark, false);
}

static bool
force_pure(const IrFunction *f)
{
  const IrAttr *a = ir_attr_get(f->attrs, "relax.force_pure");
  return a && ((a->kind == IR_AT_BOOL && a->u.b) || (a->kind == IR_AT_INT && a->u.i));
}

static void
check_params(WfChecker *c, const IrFunction *f)
{
  for (int i = 0; i < f->nparams; i++) {
    const IrExpr *p = f->params[i];
    if (!p)
      continue;
    c->where = WF_AT_PARAM;
    c->where_name = p->kind == IR_EX_VAR ? p->u.var.name : NULL;
    IrLoc loc = ir_wf_loc_known(p->loc) ? p->loc : c->func_loc;
    ir_wf_check_sinfo(c, p->sinfo, loc, "struct info");
    define_var(c, p, loc);
  }
  c->where = WF_AT_RET;
  ir_wf_check_sinfo(c, f->ret, c->func_loc, "struct info");
}

/* Checks a Relax function, global (its vars not yet collected) or local
 * (nested in the function being checked: collected with it). */
void
ir_wf_check_function(WfChecker *c, const char *name, const IrFunction *f)
{
  WfChecker saved = *c;
  if (!c->func)
    collect_function(&c->vars, f);
  c->func = name;
  c->func_loc = ir_wf_loc_known(f->loc) ? f->loc : saved.func_loc;
  c->loc = c->func_loc;
  c->call = NULL;
  c->in_dataflow = false;
  c->pure = f->pure && !force_pure(f);
  int mark = c->scope.len;
  check_params(c, f);
  if (f->body && f->body->kind == IR_EX_SEQ) {
    check_seq(c, f->body, true);
  } else if (f->body) {
    c->where = WF_AT_RESULT;
    check_expr(c, f->body);
  }
  end_scope(c, mark, false);
  saved.nerrors = c->nerrors;
  saved.vars = c->vars;
  saved.scope = c->scope;
  *c = saved;
}
