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

/* Contract: replaces b's value by the hook's call_tir; keeps it when the
 * hook declines (NULL without an error).  An error is counted and the walk
 * goes on, so that every error is reported. */
static bool
legalize_binding(Rewriter *rw, IrBinding *b)
{
  Legalizer *l = rw->user;
  const IrExpr *call = b->value;
  if (!call || call->kind != IR_EX_CALL || call->u.call.kind != IR_CALL_OP || b->cast)
    return true;
  const OpImpl *impl = op_impl(call->u.call.op->id);
  /* the call's inferred struct info; the var's annotation while the op has
   * no inference */
  IrSInfo *result = call->sinfo ? call->sinfo : b->var ? b->var->sinfo : NULL;
  if (!impl->legalize || !result)
    return true;
  OpLegalize lz = {l->ctx, rw_arith(rw), l->mod, &l->new_globals,
                   b->var ? b->var->u.var.name : NULL, call->loc, l->names};
  int before = ir_error_count(l->ctx);
  IrExpr *e = impl->legalize(&lz, call, result);
  if (ir_error_count(l->ctx) > before)
    l->nerrors++;
  else if (e)
    b->value = e;
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
    Rewriter rw;
    rw_init(&rw, ctx, &l);
    rw.binding = legalize_binding;
    funcs[i] = rw_function(&rw, g->u.relax, g->name);
    rw_free(&rw);
  }
  IrModule *out = NULL;
  if (l.nerrors == 0) {
    out = rw_module_copy(ctx, norm, l.new_globals.len);
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
