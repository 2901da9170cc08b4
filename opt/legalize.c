/*
 * legalize.c - LegalizeOps: every call of an op that knows how to lower
 * itself becomes R.call_tir of a generated T.prim_func.
 *
 * Key idea: the pass only walks and replaces; each op's legalize hook (see
 * ops/op.h and the builder in ops/tir_build.h) makes the prim_func from the
 * call and the call's inferred struct info, so symbolic dims stay symbolic.
 * Normalize runs first, so every call's struct info is as known as the ops'
 * inference can make it.  Ops without a hook (memory ops, call_tir,
 * builtins, ops not lowered yet) stay as they are.
 *
 * The relations between operand shapes that a kernel relies on and the
 * arithmetic cannot prove (inner dims equal, element counts, broadcasting
 * decided at run time, result dims not negative) are what the reference
 * kernel checks at each call.  The pass keeps them: inference run with
 * op_infer_assuming lists them, and one binding before the call checks
 * them all,
 *   y_check: R.Prim(value=T.bool(True)) = R.match_cast(R.prim_value(k == m), R.Prim(value=T.bool(True)))
 * which the interpreter evaluates and the C entry tests before it writes
 * anything (DESIGN.md: the generated code is never less strict than the
 * interpreter).  Relations proved true leave nothing.
 *
 * A hook may also replace the call by a leaf (R.inspect.* by the
 * R.prim_value of what the struct info knows, R.shape_of by an R.shape);
 * the var then takes the leaf's value into its struct info, so that a
 * later R.match_cast or op reads it as the interpreter would.
 */
#include "../ops/op.h"
#include "opt.h"
#include "opt_int.h"

typedef struct {
  IrCtx *ctx;
  const IrModule *mod; /* the normalized input */
  IrVec new_globals;   /* IrGlobal*: the prim_funcs made so far */
  OpNames *names;      /* mod's and new_globals' names */
  int nerrors;
} Legalizer;

/* Is cond a conjunct of all (an and-tree)? */
static bool
conjunct_of(const IrPrimExpr *cond, const IrPrimExpr *all)
{
  if (!all)
    return false;
  if (ir_prim_expr_equal(cond, all))
    return true;
  return all->kind == IR_PE_AND && (conjunct_of(cond, all->u.bin.a) || conjunct_of(cond, all->u.bin.b));
}

/* The binding "NAME_check = R.match_cast(R.prim_value(c1 and c2 ...),
 * R.Prim(value=T.bool(True)))" put before b, without the relations that
 * prev (the check just before b, or NULL) tests already: so a second run
 * adds nothing. */
static void
emit_check(Rewriter *rw, const IrBinding *b, IrVec *conds, const IrPrimExpr *prev)
{
  IrCtx *ctx = rw->ctx;
  IrPrimExpr *all = NULL;
  for (int i = 0; i < conds->len; i++)
    if (!conjunct_of(conds->items[i], prev))
      all = all ? ir_prim_bin(ctx, IR_PE_AND, all, conds->items[i]) : conds->items[i];
  if (!all)
    return;
  const char *name = b->var && b->var->u.var.name ? b->var->u.var.name : "call";
  ir_vec_push(&rw->before, ir_relation_check_new(ctx, ir_sym(ctx, ir_printf(ctx, "%s_check", name)),
                                                 all, rw->dataflow && !rw->at_result, b->loc));
}

/* A tensor of known shape, or a tuple of them. */
static bool
shape_known(const IrSInfo *s)
{
  if (s && s->kind == IR_SI_TUPLE) {
    for (int i = 0; i < s->u.tuple.n; i++)
      if (!shape_known(s->u.tuple.fields[i]))
        return false;
    return true;
  }
  return s && s->kind == IR_SI_TENSOR && s->u.tensor.shape;
}

/* Does s leave unknown a shape that t knows (t otherwise the same)? */
static bool
less_known(const IrSInfo *s, const IrSInfo *t)
{
  if (!s || !t || s->kind != t->kind)
    return false;
  if (s->kind == IR_SI_TENSOR)
    return !s->u.tensor.shape && t->u.tensor.shape &&
           (s->u.tensor.ndim < 0 || s->u.tensor.ndim == t->u.tensor.ndim) &&
           ir_dtype_eq(s->u.tensor.dtype, t->u.tensor.dtype);
  if (s->kind != IR_SI_TUPLE || s->u.tuple.n != t->u.tuple.n)
    return false;
  bool any = false;
  for (int i = 0; i < s->u.tuple.n; i++) {
    const IrSInfo *a = s->u.tuple.fields[i], *b = t->u.tuple.fields[i];
    if (less_known(a, b))
      any = true;
    else if (!ir_sinfo_equal(a, b))
      return false;
  }
  return any;
}

/* A var bound to a tuple or another var whose shape legalization made
 * known (broadcasting decided at run time) learns it too, so that the
 * memory planner and code generator see every shape. */
static void
refine_var(Rewriter *rw, IrBinding *b)
{
  const IrExpr *v = b->value;
  IrSInfo *t = v->sinfo;
  if (v->kind == IR_EX_GET && v->u.get.tuple->sinfo && v->u.get.tuple->sinfo->kind == IR_SI_TUPLE &&
      v->u.get.index >= 0 && v->u.get.index < v->u.get.tuple->sinfo->u.tuple.n)
    t = v->u.get.tuple->sinfo->u.tuple.fields[v->u.get.index];
  if ((v->kind == IR_EX_TUPLE || v->kind == IR_EX_VAR || v->kind == IR_EX_GET) && !b->cast &&
      b->var && !rw->at_result && less_known(b->var->sinfo, t))
    b->var = opt_rw_var_recreate(rw, b->var, t);
}

/* Contract: replaces b's value by the hook's call_tir, after a check of
 * the shape relations it assumes; keeps it when the hook declines (NULL
 * without an error).  An error is counted and the walk goes on, so that
 * every error is reported. */
static bool
legalize_binding(Rewriter *rw, IrBinding *b)
{
  Legalizer *l = rw->user;
  const IrExpr *call = b->value;
  if (call && call->kind != IR_EX_CALL) {
    refine_var(rw, b);
    return true;
  }
  if (!call || call->u.call.kind != IR_CALL_OP || b->cast)
    return true;
  const OpImpl *impl = op_impl(call->u.call.op->id);
  /* the call's inferred struct info; the var's annotation while the op has
   * no inference */
  IrSInfo *result = call->sinfo ? call->sinfo : b->var ? b->var->sinfo : NULL;
  if (!result)
    return true;
  IrSym name = b->var ? b->var->u.var.name : NULL;
  IrVec conds = {0};
  OpInfer in = {l->ctx, opt_rw_arith(rw), l->mod, name, call->loc, NULL};
  IrSInfo *assumed = impl->infer ? op_infer_assuming(&in, call, &conds) : NULL;
  if (assumed && shape_known(assumed) && !shape_known(result))
    result = assumed; /* broadcasting decided at run time */
  OpLegalize lz = {l->ctx, opt_rw_arith(rw), l->mod, &l->new_globals, name, call->loc, l->names};
  int before = ir_error_count(l->ctx);
  IrExpr *e = impl->legalize ? impl->legalize(&lz, call, result) : NULL;
  if (ir_error_count(l->ctx) > before) {
    l->nerrors++;
  } else {
    if (conds.len) /* also before a call that stays (R.call_tir_inplace) */
      emit_check(rw, b, &conds, rw->prev ? ir_binding_relation(rw->prev) : NULL);
    if (e) {
      b->value = e;
      if (e->kind == IR_EX_PRIM && result->kind == IR_SI_PRIM && !result->u.prim.value)
        result = ir_sinfo_prim(l->ctx, e->u.prim->dtype, e->u.prim); /* now known */
      if (b->var && result != call->sinfo && !rw->at_result)
        b->var = opt_rw_var_recreate(rw, b->var, result);
    }
  }
  ir_vec_free(&conds);
  return true;
}

IrModule *
opt_legalize_ops(IrCtx *ctx, const IrModule *m)
{
  IrModule *norm = opt_normalize(ctx, m);
  if (!norm)
    return NULL;
  Legalizer l = {ctx, norm, {0}, op_names_new(norm), 0};
  IrFunction **funcs = ir_alloc(ctx, (size_t)(norm->nglobals ? norm->nglobals : 1) * sizeof *funcs);
  for (int i = 0; i < norm->nglobals; i++) {
    const IrGlobal *g = &norm->globals[i];
    if (g->kind != IR_GLOBAL_RELAX || !g->u.relax)
      continue;
    funcs[i] = opt_rw_function_with(ctx, g->u.relax, g->name, legalize_binding, &l);
  }
  IrModule *out = NULL;
  if (l.nerrors == 0) {
    out = opt_rw_module_copy(ctx, norm, l.new_globals.len);
    for (int i = 0; i < norm->nglobals; i++)
      if (funcs[i])
        out->globals[i].u.relax = funcs[i];
    for (int i = 0; i < l.new_globals.len; i++)
      out->globals[out->nglobals++] = *(IrGlobal *)l.new_globals.items[i];
  }
  ir_vec_free(&l.new_globals);
  op_names_free(l.names);
  return out;
}
