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
#include <string.h>

#include "../ops/op.h"
#include "opt.h"
#include "opt_int.h"

/* A call lowered before, whose R.call_tir serves every later call of the
 * same signature (ir_call_signature_equal): its tuple's items are the
 * first call's arguments, which a later call's replace by position. */
typedef struct Lowered Lowered;
struct Lowered {
  const IrExpr *call;
  IrSInfo *result;
  const IrExpr *call_tir;
  int *pos; /* the tuple's item k is call's argument pos[k] */
  Lowered *next;
};

typedef struct {
  IrCtx *ctx;
  const IrModule *mod; /* the normalized input */
  IrVec new_globals;   /* IrGlobal*: the prim_funcs made so far */
  OpGlobals *globals;  /* the globals named and made so far */
  IrMap lowered;       /* signature hash -> Lowered chain */
  IrVec bounds;        /* OpDimBound*: the function's data dims (op_data_dims) */
  int nerrors;
  int vector_bytes;    /* the target's (OpLegalize.vector_bytes) */
  int kernels;         /* OpLegalize.kernels */
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
  if (s && s->kind == IR_SI_SHAPE) /* R.shape_of a tensor whose dims are data */
    return s->u.shape.values != NULL;
  return s && s->kind == IR_SI_TENSOR && s->u.tensor.shape;
}

/* Does s leave unknown a shape that t knows (t otherwise the same)? */
static bool
less_known(const IrSInfo *s, const IrSInfo *t)
{
  if (!s || !t || s->kind != t->kind)
    return false;
  if (s->kind == IR_SI_SHAPE)
    return !s->u.shape.values && t->u.shape.values && s->u.shape.ndim == t->u.shape.ndim;
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

/* Memo of lowerings: 100,000 adds of one shape build one prim_func, not
 * 100,000 that deduplication then drops.  Only calls whose arguments are
 * all vars take part (a constant's data or a shape literal could shape
 * the lowering), and only calls that need no run-time check. */
static bool
args_are_vars(const IrExpr *call)
{
  for (int i = 0; i < call->u.call.nargs; i++)
    if (call->u.call.args[i]->kind != IR_EX_VAR || !call->u.call.args[i]->sinfo)
      return false;
  return true;
}

static const Lowered *
lowered_find(Legalizer *l, const IrExpr *call, const IrSInfo *result, uint64_t *hash)
{
  *hash = ir_call_signature_hash(call, result) | 1;
  for (const Lowered *w = ir_map_get(&l->lowered, (const void *)(uintptr_t)*hash); w; w = w->next)
    if (ir_call_signature_equal(w->call, w->result, call, result))
      return w;
  return NULL;
}

/* Remembers call's lowering e when e is a call_tir whose tuple holds
 * call's arguments, all distinct (so each item's position is known). */
static void
lowered_add(Legalizer *l, const IrExpr *call, IrSInfo *result, const IrExpr *e, uint64_t hash)
{
  if (e->kind != IR_EX_CALL || e->u.call.kind != IR_CALL_OP || e->u.call.op->id != IR_OP_CALL_TIR ||
      e->u.call.args[1]->kind != IR_EX_TUPLE)
    return;
  const IrExpr *t = e->u.call.args[1];
  int n = call->u.call.nargs;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (call->u.call.args[i] == call->u.call.args[j])
        return;
  int *pos = ir_alloc(l->ctx, (size_t)(t->u.tuple.n ? t->u.tuple.n : 1) * sizeof *pos);
  for (int k = 0; k < t->u.tuple.n; k++) {
    pos[k] = -1;
    for (int i = 0; i < n && pos[k] < 0; i++)
      if (t->u.tuple.items[k] == call->u.call.args[i])
        pos[k] = i;
    if (pos[k] < 0)
      return;
  }
  Lowered *w = ir_alloc(l->ctx, sizeof *w);
  *w = (Lowered){call, result, e, pos, NULL};
  void **slot = ir_map_slot(&l->lowered, (const void *)(uintptr_t)hash);
  w->next = *slot;
  *slot = w;
}

/* w's call_tir with call's arguments in its tuple. */
static IrExpr *
lowered_use(Legalizer *l, const Lowered *w, const IrExpr *call)
{
  const IrExpr *t = w->call_tir->u.call.args[1];
  IrExpr *tuple = ir_alloc(l->ctx, sizeof *tuple);
  *tuple = *t;
  tuple->loc = call->loc;
  tuple->u.tuple.items = ir_alloc(l->ctx, (size_t)(t->u.tuple.n ? t->u.tuple.n : 1) * sizeof(IrExpr *));
  for (int k = 0; k < t->u.tuple.n; k++)
    tuple->u.tuple.items[k] = call->u.call.args[w->pos[k]];
  IrExpr *e = ir_alloc(l->ctx, sizeof *e);
  *e = *w->call_tir;
  e->loc = call->loc;
  e->u.call.args = ir_alloc(l->ctx, (size_t)e->u.call.nargs * sizeof(IrExpr *));
  memcpy(e->u.call.args, w->call_tir->u.call.args, (size_t)e->u.call.nargs * sizeof(IrExpr *));
  e->u.call.args[1] = tuple;
  return e;
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
  OpLegalize lz = {l->ctx, opt_rw_arith(rw), l->mod, &l->new_globals, name, call->loc, l->globals,
                   &rw->before, rw->dataflow && !rw->at_result, &l->bounds, l->vector_bytes,
                   l->kernels};
  int before = ir_error_count(l->ctx);
  bool memo = impl->legalize && conds.len == 0 && args_are_vars(call);
  uint64_t hash = 0;
  const Lowered *seen = memo ? lowered_find(l, call, result, &hash) : NULL;
  int nbefore = rw->before.len;
  IrExpr *e = seen                ? lowered_use(l, seen, call)
              : impl->legalize ? op_call_legalize(&lz, call, result)
                               : NULL;
  /* a lowering that bound dims from data (op_data_dims) is its own: its
   * call_tir uses the vars its bindings define */
  if (memo && !seen && e && ir_error_count(l->ctx) == before && rw->before.len == nbefore)
    lowered_add(l, call, result, e, hash);
  if (e && e->sinfo && less_known(result, e->sinfo))
    result = e->sinfo;
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

/* f with the upper bounds of the dims its lowerings bound from data
 * (op_data_dims) in tir_var_upper_bound, where it gives none itself: the
 * memory planner plans every tensor using such a dim at its bound, and
 * the interpreter and the generated C check it where the dim is bound. */
static IrFunction *
with_bounds(IrCtx *ctx, IrFunction *f, const IrVec *bounds)
{
  const IrAttr *old = ir_attr_get(f->attrs, "tir_var_upper_bound");
  IrAttr *dict = old ? (IrAttr *)old : ir_attr_dict(ctx, NULL, NULL, 0);
  for (int i = 0; i < bounds->len; i++) {
    const OpDimBound *b = bounds->items[i];
    if (!ir_attr_get(dict, b->name))
      dict = ir_attr_dict_set(ctx, dict, b->name, ir_attr_int(ctx, b->bound));
  }
  IrFunction *g = ir_alloc(ctx, sizeof *g);
  *g = *f;
  g->attrs = ir_attr_dict_set(ctx, f->attrs ? f->attrs : ir_attr_dict(ctx, NULL, NULL, 0),
                              ir_sym(ctx, "tir_var_upper_bound"), dict);
  return g;
}

IrModule *
opt_legalize_ops(IrCtx *ctx, const IrModule *m)
{
  return opt_legalize_ops_for(ctx, m, 0, OP_KERNELS_OFF);
}

IrModule *
opt_legalize_ops_for(IrCtx *ctx, const IrModule *m, int vector_bytes, int kernels)
{
  IrModule *norm = opt_normalize(ctx, m);
  if (!norm)
    return NULL;
  Legalizer l = {ctx, norm, {0}, op_globals_new(norm), {0}, {0}, 0, vector_bytes, kernels};
  IrFunction **funcs = ir_alloc(ctx, (size_t)(norm->nglobals ? norm->nglobals : 1) * sizeof *funcs);
  for (int i = 0; i < norm->nglobals; i++) {
    const IrGlobal *g = &norm->globals[i];
    if (g->kind != IR_GLOBAL_RELAX || !g->u.relax)
      continue;
    l.bounds.len = 0;
    funcs[i] = opt_rw_function_with(ctx, g->u.relax, g->name, legalize_binding, &l);
    if (funcs[i] && l.bounds.len)
      funcs[i] = with_bounds(ctx, funcs[i], &l.bounds);
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
  ir_vec_free(&l.bounds);
  op_globals_free(l.globals);
  ir_map_free(&l.lowered);
  return out;
}
