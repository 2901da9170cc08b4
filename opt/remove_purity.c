/*
 * remove_purity.c - RemovePurityChecking: every pure Relax function (local
 * ones too) gets "relax.force_pure": True, so impure calls may be added to
 * it later (allocations, kills), and each R.call_pure_packed("f", args...)
 * becomes the plain call f(args...) with the same sinfo_args, as TVM's pass
 * does (an extern callee gives R.call_packed).
 *
 * Key idea: as in TVM, a pure=False function is left as it is: it may hold
 * impure calls already and force_pure would say nothing about it.  One
 * deviation keeps the result well-formed: a plain extern call is impure,
 * and an impure call inside a dataflow block is ill-formed, so a
 * call_pure_packed inside a dataflow block (or nested in one) stays until
 * ToNonDataflow has run, which the default pipeline does first.  Both
 * rules are fixed points, so a second run changes nothing.
 */
#include "opt.h"
#include "opt_int.h"

typedef struct {
  IrMap in_dataflow; /* var bound inside a dataflow block -> itself */
} Purity;

static void mark_seq(Purity *p, const IrExpr *seq, bool in_df);

static void
mark_value(Purity *p, const IrExpr *e, bool in_df)
{
  if (e && e->kind == IR_EX_IF) {
    mark_seq(p, e->u.branch.then_, in_df);
    mark_seq(p, e->u.branch.else_, in_df);
  } else if (e && e->kind == IR_EX_FUNC && e->u.func && e->u.func->body) {
    mark_seq(p, e->u.func->body, false);
  }
}

/* Records the vars bound in dataflow blocks, directly or nested. */
static void
mark_seq(Purity *p, const IrExpr *seq, bool in_df)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    for (int j = 0; j < blk->n; j++) {
      const IrBinding *b = &blk->bindings[j];
      if ((in_df || blk->dataflow) && b->var)
        ir_map_put(&p->in_dataflow, b->var, (void *)b->var);
      mark_value(p, b->value, in_df || blk->dataflow);
    }
  }
}

/* The call R.call_pure_packed stands for: its first argument called with
 * the rest. */
static IrExpr *
unwrap_pure_packed(IrCtx *ctx, const IrExpr *call)
{
  IrExpr *callee = call->u.call.args[0];
  IrExpr *e = opt_rw_expr_copy(ctx, call);
  e->u.call.op = NULL;
  e->u.call.callee = callee;
  e->u.call.args = call->u.call.args + 1;
  e->u.call.nargs = call->u.call.nargs - 1;
  e->u.call.attrs = NULL;
  switch (callee->kind) {
  case IR_EX_EXTERN:
    e->u.call.kind = IR_CALL_EXTERN;
    break;
  case IR_EX_GLOBAL:
    e->u.call.kind = IR_CALL_GLOBAL;
    break;
  default:
    e->u.call.kind = IR_CALL_VAR;
    break;
  }
  return e;
}

static bool
is_pure_packed(const IrExpr *e)
{
  return e && e->kind == IR_EX_CALL && e->u.call.kind == IR_CALL_OP &&
         e->u.call.op->id == IR_OP_CALL_PURE_PACKED && e->u.call.nargs > 0;
}

static IrFunction *
force_pure(IrCtx *ctx, IrFunction *f)
{
  const IrAttr *a = ir_attr_get(f->attrs, "relax.force_pure");
  if (!f->pure || (a && a->kind == IR_AT_BOOL && a->u.b))
    return f;
  IrFunction *copy = ir_alloc(ctx, sizeof *copy);
  *copy = *f;
  copy->attrs =
      ir_attr_dict_set(ctx, f->attrs, ir_sym(ctx, "relax.force_pure"), ir_attr_bool(ctx, true));
  return copy;
}

static bool
remove_purity(Rewriter *rw, IrBinding *b)
{
  Purity *p = rw->user;
  IrExpr *v = b->value;
  if (is_pure_packed(v) && !ir_map_get(&p->in_dataflow, b->var)) {
    IrExpr *callee = v->u.call.args[0];
    if (callee->kind == IR_EX_EXTERN || callee->kind == IR_EX_GLOBAL || callee->kind == IR_EX_VAR)
      b->value = unwrap_pure_packed(rw->ctx, v);
  } else if (!rw->at_result && v && v->kind == IR_EX_FUNC && v->u.func) {
    IrFunction *f = force_pure(rw->ctx, v->u.func);
    if (f != v->u.func) {
      b->value = opt_rw_expr_copy(rw->ctx, v);
      b->value->u.func = f;
    }
  }
  return true;
}

static IrFunction *
unchecked_function(IrCtx *ctx, const IrFunction *f, const char *name, void *user)
{
  (void)user;
  Purity p = {{0}};
  if (f->body)
    mark_seq(&p, f->body, false);
  IrFunction *out = opt_rw_function_with(ctx, f, name, remove_purity, &p);
  ir_map_free(&p.in_dataflow);
  return out ? force_pure(ctx, out) : NULL;
}

IrModule *
opt_remove_purity_checking(const OptContext *oc, const IrModule *m)
{
  return opt_rw_module_functions(oc->ctx, m, unchecked_function, NULL);
}
