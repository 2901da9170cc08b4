/*
 * parse_relax.c - Relax functions: signature, body statements, bindings,
 * dataflow blocks, if/else and local functions.
 *
 * Key ideas: a body is read into a sequence of binding blocks; a dataflow
 * block closes the open plain block and becomes its own.  Vars bound in a
 * dataflow block start as DataflowVars and R.output turns the named ones
 * into plain vars (the node is still under construction then).  Symbolic
 * dims named in signature strings define int64 vars that `n = T.int64()` in
 * the body then refers to: the same node, by pointer.
 */
#include <string.h>

#include "fe_int.h"

typedef struct {
  FeVec blocks;       /* IrBindingBlock */
  FeVec cur;          /* IrBinding of the open plain block */
  IrExpr *result;     /* set by return */
  /* the last statement, for if branches */
  bool last_is_binding;
  const Tok *last_name;
  IrSInfo *last_annotation;
} Seq;

typedef struct {
  IrFunction *fn;
  Seq *seq;
  bool in_dataflow;
  bool in_branch;
} Body;

static void statements(Parser *P, Body *b);

static void
close_block(Parser *P, Seq *s, bool dataflow, IrLoc loc)
{
  if (s->cur.len == 0 && !dataflow)
    return;
  IrBindingBlock *blk = fe_vec_push(P, &s->blocks, sizeof(IrBindingBlock));
  blk->bindings = s->cur.data;
  blk->n = s->cur.len;
  blk->dataflow = dataflow;
  blk->loc = loc;
  memset(&s->cur, 0, sizeof s->cur);
}

static IrExpr *
seq_expr(Parser *P, Seq *s, IrExpr *result, IrLoc loc)
{
  close_block(P, s, false, loc);
  IrExpr *e = ir_expr_new(P->ctx, IR_EX_SEQ, loc);
  e->u.seq.blocks = s->blocks.data;
  e->u.seq.nblocks = s->blocks.len;
  e->u.seq.result = result;
  return e;
}

static void
add_binding(Parser *P, Body *b, IrExpr *var, IrExpr *value, IrSInfo *cast, const Tok *at)
{
  IrBinding *bd = fe_vec_push(P, &b->seq->cur, sizeof(IrBinding));
  bd->var = var;
  bd->value = value;
  bd->cast = cast;
  bd->loc = fe_loc(P, at);
  if (var->u.var.name != ir_sym(P->ctx, "_"))
    fe_scope_add(P, var->u.var.name, SYM_RVAR)->rvar = var;
}

/* TVM's reader normalizes as it reads: a call or item access nested in a
 * call's arguments, a tuple, an item access or a return value becomes a
 * binding of its own (a fresh `lv`, not in scope) just before the
 * statement, innermost first.  hoist returns e or the var bound to it. */
static void hoist_children(Parser *P, Body *b, IrExpr *e);

static IrExpr *
hoist(Parser *P, Body *b, IrExpr *e)
{
  hoist_children(P, b, e);
  if (ir_expr_is_leaf(e) || (e->kind != IR_EX_CALL && e->kind != IR_EX_GET))
    return e;
  IrExpr *var = ir_var_new(P->ctx, ir_sym(P->ctx, "lv"), e->sinfo, b->in_dataflow, e->loc);
  IrBinding *bd = fe_vec_push(P, &b->seq->cur, sizeof(IrBinding));
  bd->var = var;
  bd->value = e;
  bd->loc = e->loc;
  return var;
}

static void
hoist_children(Parser *P, Body *b, IrExpr *e)
{
  if (!e)
    return;
  if (e->kind == IR_EX_CALL)
    for (int i = 0; i < e->u.call.nargs; i++)
      e->u.call.args[i] = e->u.call.args[i] ? hoist(P, b, e->u.call.args[i]) : NULL;
  else if (e->kind == IR_EX_TUPLE)
    for (int i = 0; i < e->u.tuple.n; i++)
      e->u.tuple.items[i] = e->u.tuple.items[i] ? hoist(P, b, e->u.tuple.items[i]) : NULL;
  else if (e->kind == IR_EX_GET && e->u.get.tuple)
    e->u.get.tuple = hoist(P, b, e->u.get.tuple);
}

/* n = T.int64()  /  m, n = T.int64(), T.int64() */
static bool
symvar_decl(Parser *P)
{
  int i = 0;
  while (fe_peek_at(P, i)->kind == TK_NAME && fe_is_op(fe_peek_at(P, i + 1), ","))
    i += 2;
  if (fe_peek_at(P, i)->kind != TK_NAME || !fe_is_op(fe_peek_at(P, i + 1), "=") ||
      !fe_is_name(fe_peek_at(P, i + 2), "T") || !fe_is_op(fe_peek_at(P, i + 5), "(") ||
      !fe_is_op(fe_peek_at(P, i + 6), ")"))
    return false;
  const Tok *names = fe_peek(P);
  int n = i / 2 + 1;
  P->pos += i + 2;
  for (int k = 0; k < n; k++) {
    if (k > 0)
      fe_expect_op(P, ",");
    fe_expect_name(P);
    fe_expect_op(P, ".");
    const Tok *dt_tok = fe_expect_name(P);
    IrDType dt;
    if (!ir_dtype_parse(dt_tok->sym, strlen(dt_tok->sym), &dt) ||
        (dt.code != IR_DT_INT && dt.code != IR_DT_UINT))
      fe_fail(P, dt_tok, "expected T.int64() or T.int32() but found 'T.%s'", dt_tok->sym);
    fe_expect_op(P, "(");
    fe_expect_op(P, ")");
    const Tok *name = &names[2 * k];
    FeEntry *e = fe_scope_find(P, name->sym);
    if (e && e->kind == SYM_TVAR) {
      e->tvar->dtype = dt; /* declared after the signature introduced it */
    } else {
      fe_scope_add(P, name->sym, SYM_TVAR)->tvar = ir_prim_var(P->ctx, name->sym, dt);
    }
  }
  fe_expect_newline(P);
  return true;
}

/* `a, b` without parentheses (after `return` or `x =`): a tuple whose
 * first item is e. */
static IrExpr *
bare_tuple(Parser *P, IrExpr *e, const Tok *at)
{
  if (!fe_is_op(fe_peek(P), ","))
    return e;
  FeVec items = {0};
  fe_vec_ptr(P, &items, e);
  while (fe_accept_op(P, ",") && fe_peek(P)->kind != TK_NEWLINE)
    fe_vec_ptr(P, &items, fe_rexpr(P));
  e = ir_expr_new(P->ctx, IR_EX_TUPLE, fe_loc(P, at));
  e->u.tuple.items = items.data;
  e->u.tuple.n = items.len;
  return e;
}

/* NAME [: sinfo] = value; value may be R.match_cast(x, sinfo). */
static void
binding(Parser *P, Body *b)
{
  const Tok *name = fe_expect_name(P);
  IrSInfo *annotation = NULL, *cast = NULL;
  IrExpr *value;
  if (fe_accept_op(P, ":"))
    annotation = fe_sinfo(P);
  fe_expect_op(P, "=");
  if (fe_peek_dotted(P, "R.match_cast")) {
    fe_dotted(P, NULL);
    fe_expect_op(P, "(");
    value = fe_rexpr(P);
    fe_expect_op(P, ",");
    cast = fe_sinfo(P);
    fe_expect_op(P, ")");
  } else {
    value = bare_tuple(P, fe_rexpr(P), name);
  }
  hoist_children(P, b, value);
  fe_expect_newline(P);
  bool is_void = name->sym == ir_sym(P->ctx, "_");
  IrSInfo *sinfo = annotation ? annotation : cast ? cast : is_void ? NULL : value->sinfo;
  IrExpr *var = ir_var_new(P->ctx, name->sym, sinfo, b->in_dataflow, fe_loc(P, name));
  add_binding(P, b, var, value, cast, name);
  b->seq->last_is_binding = true;
  b->seq->last_name = name;
  b->seq->last_annotation = annotation;
}

/* A bare expression statement: a call or a tuple (`R.tuple()`, as TVM's
 * tests write), bound to a fresh var '_'. */
static void
expression_statement(Parser *P, Body *b)
{
  const Tok *at = fe_peek(P);
  IrExpr *value = fe_rexpr(P);
  if (value->kind != IR_EX_CALL && value->kind != IR_EX_TUPLE)
    fe_fail(P, at, "a statement must be a binding, a call or a tuple");
  fe_expect_newline(P);
  hoist_children(P, b, value);
  IrExpr *var = ir_var_new(P->ctx, ir_sym(P->ctx, "_"), NULL, b->in_dataflow, fe_loc(P, at));
  add_binding(P, b, var, value, NULL, at);
}

/* R.output(a, b): the names become plain vars of the enclosing scope. */
static void
output(Parser *P, Body *b, int first_binding)
{
  fe_dotted(P, NULL);
  fe_expect_op(P, "(");
  while (!fe_is_op(fe_peek(P), ")")) {
    const Tok *name = fe_expect_name(P);
    IrBinding *bs = b->seq->cur.data;
    IrExpr *found = NULL;
    for (int i = b->seq->cur.len - 1; i >= first_binding && !found; i--)
      if (bs[i].var->u.var.name == name->sym)
        found = bs[i].var;
    if (found)
      found->u.var.dataflow = false;
    else
      fe_error(P, name, "R.output: '%s' is not bound in this dataflow block", name->sym);
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, ")");
  fe_expect_newline(P);
  if (fe_peek(P)->kind != TK_DEDENT)
    fe_fail(P, fe_peek(P), "R.output must be the last statement of a dataflow block");
}

/* with R.dataflow(): bindings, then R.output(...). */
static void
dataflow(Parser *P, Body *b)
{
  const Tok *with = fe_next(P);
  const Tok *at;
  const char *name = fe_dotted(P, &at);
  if (strcmp(name, "R.dataflow") != 0)
    fe_fail(P, at, "expected R.dataflow() but found '%s'", name);
  if (b->in_dataflow)
    fe_fail(P, with, "dataflow blocks cannot be nested");
  fe_expect_op(P, "(");
  fe_expect_op(P, ")");
  fe_expect_op(P, ":");
  fe_expect_newline(P);
  close_block(P, b->seq, false, fe_loc(P, with));
  fe_expect_kind(P, TK_INDENT, "an indented block");
  Body inner = *b;
  inner.in_dataflow = true;
  while (fe_peek(P)->kind != TK_DEDENT) {
    if (fe_peek_dotted(P, "R.output"))
      output(P, &inner, 0);
    else
      statements(P, &inner);
  }
  fe_next(P);
  close_block(P, b->seq, true, fe_loc(P, with));
  b->seq->last_is_binding = false;
}

/* One branch of an if: statements whose last assigns the result. */
static IrExpr *
branch(Parser *P, Body *b, const Tok **name, IrSInfo **annotation)
{
  fe_expect_op(P, ":");
  fe_expect_newline(P);
  const Tok *start = fe_expect_kind(P, TK_INDENT, "an indented block");
  int mark = P->scope.len;
  Seq seq = {0};
  Body inner = {b->fn, &seq, b->in_dataflow, true};
  while (fe_peek(P)->kind != TK_DEDENT)
    statements(P, &inner);
  const Tok *end = fe_next(P);
  if (!seq.last_is_binding || seq.cur.len == 0)
    fe_fail(P, end, "the last statement of an if branch must assign the result");
  IrBinding last = ((IrBinding *)seq.cur.data)[--seq.cur.len];
  fe_scope_pop(P, mark);
  *name = seq.last_name;
  *annotation = seq.last_annotation;
  return seq_expr(P, &seq, last.value, fe_loc(P, start));
}

static void
if_statement(Parser *P, Body *b)
{
  const Tok *at = fe_next(P);
  IrExpr *cond = fe_rexpr(P);
  const Tok *then_name, *else_name;
  IrSInfo *annotation, *else_annotation;
  IrExpr *then_ = branch(P, b, &then_name, &annotation);
  const Tok *e = fe_peek(P);
  if (fe_is_name(e, "elif"))
    fe_fail(P, e, "elif is not supported; write 'else:' and a nested if");
  if (!fe_is_name(e, "else"))
    fe_fail(P, e, "an if statement in a Relax function needs an else branch");
  fe_next(P);
  IrExpr *else_ = branch(P, b, &else_name, &else_annotation);
  if (then_name->sym != else_name->sym)
    fe_error(P, else_name, "if branches assign different names: '%s' and '%s'", then_name->sym,
             else_name->sym);
  IrExpr *value = ir_expr_new(P->ctx, IR_EX_IF, fe_loc(P, at));
  value->u.branch.cond = cond;
  value->u.branch.then_ = then_;
  value->u.branch.else_ = else_;
  IrExpr *var = ir_var_new(P->ctx, then_name->sym, annotation, b->in_dataflow,
                           fe_loc(P, then_name));
  add_binding(P, b, var, value, NULL, then_name);
  b->seq->last_is_binding = false;
}

/* @R.function def f(...): a local function bound to var f. */
static void
local_function(Parser *P, Body *b)
{
  const Tok *at = fe_next(P), *deco;
  const char *name = fe_dotted(P, &deco);
  if (strcmp(name, "R.function") != 0)
    fe_fail(P, deco, "expected @R.function but found '@%s'", name);
  bool pure = true, is_private = false;
  fe_decorator_kwargs(P, &pure, &is_private);
  fe_expect_newline(P);
  const Tok *fname = fe_peek_at(P, 1);
  IrFunction *f = fe_relax_function(P, pure, is_private, at);
  IrExpr *value = ir_expr_new(P->ctx, IR_EX_FUNC, fe_loc(P, at));
  value->u.func = f;
  IrSInfo **params = ir_alloc(P->ctx, sizeof *params * (size_t)(f->nparams ? f->nparams : 1));
  for (int i = 0; i < f->nparams; i++)
    params[i] = f->params[i]->sinfo;
  value->sinfo = ir_sinfo_func(P->ctx, params, f->nparams, f->ret, f->pure);
  IrExpr *var = ir_var_new(P->ctx, fname->sym, value->sinfo, b->in_dataflow, fe_loc(P, fname));
  add_binding(P, b, var, value, NULL, fname);
  b->seq->last_is_binding = false;
}

static void
return_statement(Parser *P, Body *b)
{
  const Tok *at = fe_next(P);
  if (b->in_branch || b->in_dataflow)
    fe_fail(P, at, "return must be the last statement of the function body");
  IrExpr *e = bare_tuple(P, fe_rexpr(P), at);
  fe_expect_newline(P);
  if (fe_peek(P)->kind != TK_DEDENT)
    fe_fail(P, fe_peek(P), "statement after return");
  b->seq->result = hoist(P, b, e);
}

/* One statement of a Relax body. */
static void
statements(Parser *P, Body *b)
{
  fe_check_line(P);
  const Tok *t = fe_peek(P);
  fe_enter(P);
  if (fe_is_name(t, "return")) {
    return_statement(P, b);
  } else if (fe_is_name(t, "with")) {
    dataflow(P, b);
  } else if (fe_is_name(t, "if")) {
    if_statement(P, b);
  } else if (fe_is_op(t, "@")) {
    local_function(P, b);
  } else if (fe_is_name(t, "pass") || t->kind == TK_STR) { /* or a docstring */
    fe_next(P);
    fe_expect_newline(P);
  } else if (fe_peek_dotted(P, "R.func_attr")) {
    fe_dotted(P, NULL);
    fe_expect_op(P, "(");
    b->fn->attrs = fe_attr_dict(P);
    fe_expect_op(P, ")");
    fe_expect_newline(P);
  } else if (fe_peek_dotted(P, "R.output")) {
    fe_fail(P, t, "R.output is only allowed at the end of a dataflow block");
  } else if (symvar_decl(P)) {
  } else if (t->kind == TK_NAME && fe_is_op(fe_peek_at(P, 1), "=") &&
             fe_is_name(fe_peek_at(P, 2), P->module_name) &&
             fe_peek_at(P, 3)->kind == TK_NEWLINE) {
    P->pos += 4; /* cls = Module */
    fe_scope_add(P, t->sym, SYM_MODULE);
  } else if (t->kind == TK_NAME && (fe_is_op(fe_peek_at(P, 1), "=") ||
                                    fe_is_op(fe_peek_at(P, 1), ":"))) {
    binding(P, b);
  } else {
    expression_statement(P, b);
    b->seq->last_is_binding = false;
  }
  fe_leave(P);
}

/* def NAME(params) [-> sinfo]: body.  The "def" is current; `at` is the
 * decorator.  Every parameter must be annotated. */
static void
signature(Parser *P, IrFunction *f)
{
  FeVec params = {0};
  if (fe_accept_op(P, "[")) { /* TVM main: def f[n, m](...), the symbolic vars */
    while (!fe_is_op(fe_peek(P), "]")) {
      const Tok *n = fe_expect_name(P);
      FeEntry *e = fe_scope_add(P, n->sym, SYM_TVAR);
      e->tvar = ir_prim_var(P->ctx, n->sym, IR_I64);
      e->sig_dim = true;
      if (!fe_accept_op(P, ","))
        break;
    }
    fe_expect_op(P, "]");
  }
  fe_expect_op(P, "(");
  P->define_symvars = true;
  while (!fe_is_op(fe_peek(P), ")")) {
    const Tok *name = fe_expect_name(P);
    if (!fe_is_op(fe_peek(P), ":"))
      fe_fail(P, fe_peek(P), "parameter '%s' needs a struct info annotation", name->sym);
    fe_next(P);
    IrExpr *var = ir_var_new(P->ctx, name->sym, fe_sinfo(P), false, fe_loc(P, name));
    fe_vec_ptr(P, &params, var);
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, ")");
  if (fe_accept_op(P, "->"))
    f->ret = fe_sinfo(P);
  P->define_symvars = false;
  f->params = params.data;
  f->nparams = params.len;
  for (int i = 0; i < f->nparams; i++)
    fe_scope_add(P, f->params[i]->u.var.name, SYM_RVAR)->rvar = f->params[i];
}

IrFunction *
fe_relax_function(Parser *P, bool pure, bool is_private, const Tok *at)
{
  const Tok *def = fe_expect_name(P);
  if (!fe_is_name(def, "def"))
    fe_fail(P, def, "expected 'def' but found '%s'", def->sym);
  const Tok *name = fe_expect_name(P);
  IrFunction *f = ir_alloc(P->ctx, sizeof *f);
  f->pure = pure;
  f->is_private = is_private;
  f->loc = fe_loc(P, at);
  int mark = P->scope.len;
  IrDType saved_default = P->int_default;
  P->int_default = IR_I64;
  signature(P, f);
  fe_expect_op(P, ":");
  fe_expect_newline(P);
  const Tok *start = fe_expect_kind(P, TK_INDENT, "an indented function body");
  Seq seq = {0};
  Body body = {f, &seq, false, false};
  while (fe_peek(P)->kind != TK_DEDENT)
    statements(P, &body);
  fe_next(P);
  if (!seq.result)
    fe_fail(P, name, "function '%s' has no return statement", name->sym);
  f->body = seq_expr(P, &seq, seq.result, fe_loc(P, start));
  fe_scope_pop(P, mark);
  P->int_default = saved_default;
  return f;
}
