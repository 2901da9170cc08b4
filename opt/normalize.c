/*
 * normalize.c - Normalize: fills in the struct info of every call and of
 * every var bound without an annotation, in every Relax function (local
 * ones too).
 *
 * Key idea: struct info flows forward through the bindings.  Each binding's
 * value gets its struct info from what is already known of its operands
 * (vars carry theirs): an op call from the op's inference, a call of a
 * module function from the callee's return annotation with the callee's
 * symbolic vars bound from the argument shapes, R.call_tir from its
 * out_sinfo, an if from both branches.  A var without annotation is
 * recreated with that struct info (rewrite.c substitutes it in later uses);
 * an annotation is kept, but one that provably contradicts the inferred
 * struct info is an error naming the function and the binding.
 */
#include <inttypes.h>

#include "../ops/op.h"
#include "../ops/tir_build.h"
#include "opt.h"
#include "opt_int.h"

typedef struct {
  IrCtx *ctx;
  const IrModule *mod;
  IrMap globals;      /* mod's globals by name (ir_module_index) */
  const Rewriter *rw; /* the function being normalized (set by each binding) */
  int nerrors;
} Norm;

static IrArith *
current_arith(const Norm *n)
{
  return opt_rw_arith(n->rw);
}

/* --- struct info of leaves ------------------------------------------------------ */

static IrSInfo *
function_sinfo(IrCtx *ctx, const IrFunction *f)
{
  IrSInfo **params = ir_alloc(ctx, (size_t)(f->nparams ? f->nparams : 1) * sizeof *params);
  for (int i = 0; i < f->nparams; i++)
    params[i] = f->params[i]->sinfo ? f->params[i]->sinfo : ir_sinfo_object(ctx);
  return ir_sinfo_func(ctx, params, f->nparams, f->ret, f->pure);
}

static IrSInfo *
const_sinfo(IrCtx *ctx, const IrExpr *e)
{
  const IrTensorData *d = &e->u.constant;
  IrPrimExpr **dims = ir_alloc(ctx, (size_t)(d->ndim ? d->ndim : 1) * sizeof *dims);
  for (int i = 0; i < d->ndim; i++)
    dims[i] = ir_prim_int(ctx, IR_I64, d->shape[i]);
  return ir_sinfo_tensor(ctx, dims, d->ndim, d->dtype, -1);
}

/* The struct info of a leaf or tuple, from what it is made of; NULL when
 * unknown. */
static IrSInfo *
leaf_sinfo(const Norm *n, const IrExpr *e)
{
  if (!e)
    return NULL;
  if (e->sinfo)
    return e->sinfo;
  switch (e->kind) {
  case IR_EX_CONST:
    return const_sinfo(n->ctx, e);
  case IR_EX_TUPLE: {
    IrSInfo **fields = ir_alloc(n->ctx, (size_t)(e->u.tuple.n ? e->u.tuple.n : 1) * sizeof *fields);
    for (int i = 0; i < e->u.tuple.n; i++)
      if (!(fields[i] = leaf_sinfo(n, e->u.tuple.items[i])))
        return NULL;
    return ir_sinfo_tuple(n->ctx, fields, e->u.tuple.n);
  }
  case IR_EX_GET: {
    IrSInfo *t = leaf_sinfo(n, e->u.get.tuple);
    if (t && t->kind == IR_SI_TUPLE && e->u.get.index >= 0 && e->u.get.index < t->u.tuple.n)
      return t->u.tuple.fields[e->u.get.index];
    return NULL;
  }
  case IR_EX_SHAPE:
    return ir_sinfo_shape(n->ctx, e->u.shape.values, e->u.shape.n);
  case IR_EX_PRIM:
    return ir_sinfo_prim(n->ctx, e->u.prim->dtype, NULL);
  case IR_EX_STR:
  case IR_EX_DTYPE:
  case IR_EX_EXTERN:
    return ir_sinfo_object(n->ctx);
  case IR_EX_GLOBAL: {
    const IrGlobal *g = ir_map_get(&n->globals, e->u.global);
    return g && g->kind == IR_GLOBAL_RELAX ? function_sinfo(n->ctx, g->u.relax)
                                           : ir_sinfo_object(n->ctx);
  }
  default:
    return NULL;
  }
}

/* --- the least upper bound of two struct infos (an if's branches) ---------- */

static bool
dims_equal(IrPrimExpr **a, IrPrimExpr **b, int n)
{
  if (!a || !b)
    return false;
  for (int i = 0; i < n; i++)
    if (!ir_prim_expr_equal(a[i], b[i]))
      return false;
  return true;
}

/* What both a and b are: the facts they share, unknown where they differ. */
static IrSInfo *
join(IrCtx *ctx, IrSInfo *a, IrSInfo *b)
{
  if (!a || !b)
    return NULL;
  if (ir_sinfo_equal(a, b))
    return a;
  if (a->kind != b->kind)
    return ir_sinfo_object(ctx);
  switch (a->kind) {
  case IR_SI_TENSOR: {
    int nd = a->u.tensor.ndim == b->u.tensor.ndim ? a->u.tensor.ndim : -1;
    bool same = nd >= 0 && dims_equal(a->u.tensor.shape, b->u.tensor.shape, nd);
    IrDType t = ir_dtype_eq(a->u.tensor.dtype, b->u.tensor.dtype) ? a->u.tensor.dtype : IR_VOID;
    int dev = a->u.tensor.vdevice == b->u.tensor.vdevice ? a->u.tensor.vdevice : -1;
    return ir_sinfo_tensor(ctx, same ? a->u.tensor.shape : NULL, nd, t, dev);
  }
  case IR_SI_SHAPE: {
    int nd = a->u.shape.ndim == b->u.shape.ndim ? a->u.shape.ndim : -1;
    bool same = nd >= 0 && dims_equal(a->u.shape.values, b->u.shape.values, nd);
    return ir_sinfo_shape(ctx, same ? a->u.shape.values : NULL, nd);
  }
  case IR_SI_PRIM:
    return ir_dtype_eq(a->u.prim.dtype, b->u.prim.dtype) ? ir_sinfo_prim(ctx, a->u.prim.dtype, NULL)
                                                         : ir_sinfo_object(ctx);
  case IR_SI_TUPLE: {
    if (a->u.tuple.n != b->u.tuple.n)
      return ir_sinfo_object(ctx);
    IrSInfo **fields = ir_alloc(ctx, (size_t)(a->u.tuple.n ? a->u.tuple.n : 1) * sizeof *fields);
    for (int i = 0; i < a->u.tuple.n; i++)
      fields[i] = join(ctx, a->u.tuple.fields[i], b->u.tuple.fields[i]);
    return ir_sinfo_tuple(ctx, fields, a->u.tuple.n);
  }
  default:
    return ir_sinfo_object(ctx);
  }
}

/* --- calls ---------------------------------------------------------------------- */

/* Binds the callee's symbolic vars that stand alone as dims of a param's
 * struct info to the argument's dims at the same place. */
static void
bind_dims(OpVarMap *m, IrPrimExpr *const *p, int np, IrPrimExpr *const *a, int na)
{
  if (!p || !a || np != na)
    return;
  for (int i = 0; i < np; i++)
    if (p[i]->kind == IR_PE_VAR && !op_var_map_get(m, p[i]))
      op_var_map_put(m, p[i], a[i]);
}

static void
bind_param(OpVarMap *m, const IrSInfo *p, const IrSInfo *a)
{
  if (!p || !a || p->kind != a->kind)
    return;
  switch (p->kind) {
  case IR_SI_TENSOR:
    bind_dims(m, p->u.tensor.shape, p->u.tensor.ndim, a->u.tensor.shape, a->u.tensor.ndim);
    break;
  case IR_SI_SHAPE:
    bind_dims(m, p->u.shape.values, p->u.shape.ndim, a->u.shape.values, a->u.shape.ndim);
    break;
  case IR_SI_PRIM:
    if (p->u.prim.value && a->u.prim.value)
      bind_dims(m, &p->u.prim.value, 1, &a->u.prim.value, 1);
    break;
  case IR_SI_TUPLE:
    for (int i = 0; i < p->u.tuple.n && i < a->u.tuple.n; i++)
      bind_param(m, p->u.tuple.fields[i], a->u.tuple.fields[i]);
    break;
  default:
    break;
  }
}

/* dims with the callee's vars replaced; NULL when one is not bound. */
static IrPrimExpr **
subst_dims(const Norm *n, IrPrimExpr **dims, int nd, OpVarMap *m)
{
  if (!dims || nd < 0)
    return NULL;
  IrPrimExpr **out = ir_alloc(n->ctx, (size_t)(nd ? nd : 1) * sizeof *out);
  for (int i = 0; i < nd; i++) {
    if (!op_prim_vars_mapped(dims[i], m))
      return NULL;
    IrPrimExpr *d = op_prim_subst(n->ctx, dims[i], m, false);
    out[i] = d == dims[i] || !current_arith(n) ? d : ir_arith_simplify(current_arith(n), d);
  }
  return out;
}

/* The callee's return struct info in terms of the caller's dims. */
static IrSInfo *
subst_sinfo(const Norm *n, IrSInfo *s, OpVarMap *m)
{
  if (!s)
    return NULL;
  switch (s->kind) {
  case IR_SI_TENSOR:
    return ir_sinfo_tensor(n->ctx, subst_dims(n, s->u.tensor.shape, s->u.tensor.ndim, m),
                           s->u.tensor.ndim, s->u.tensor.dtype, s->u.tensor.vdevice);
  case IR_SI_SHAPE:
    return ir_sinfo_shape(n->ctx, subst_dims(n, s->u.shape.values, s->u.shape.ndim, m),
                          s->u.shape.ndim);
  case IR_SI_PRIM: {
    IrPrimExpr **v = s->u.prim.value ? subst_dims(n, &s->u.prim.value, 1, m) : NULL;
    return ir_sinfo_prim(n->ctx, s->u.prim.dtype, v ? v[0] : NULL);
  }
  case IR_SI_TUPLE: {
    IrSInfo **fields = ir_alloc(n->ctx, (size_t)(s->u.tuple.n ? s->u.tuple.n : 1) * sizeof *fields);
    for (int i = 0; i < s->u.tuple.n; i++)
      fields[i] = subst_sinfo(n, s->u.tuple.fields[i], m);
    return ir_sinfo_tuple(n->ctx, fields, s->u.tuple.n);
  }
  default:
    return s;
  }
}

/* The result of calling a function of struct info fs with call's args. */
static IrSInfo *
apply(const Norm *n, const IrSInfo *fs, const IrExpr *call)
{
  if (!fs || fs->kind != IR_SI_FUNC || !fs->u.func.ret)
    return NULL;
  OpVarMap m = {0};
  for (int i = 0; i < fs->u.func.nparams && i < call->u.call.nargs && fs->u.func.params; i++)
    bind_param(&m, fs->u.func.params[i], leaf_sinfo(n, call->u.call.args[i]));
  IrSInfo *ret = subst_sinfo(n, fs->u.func.ret, &m);
  op_var_map_free(&m);
  return ret;
}

/* R.call_tir and the other calls whose struct info is written in them. */
static IrSInfo *
written_sinfo(const Norm *n, const IrExpr *call)
{
  int k = call->u.call.nsinfo_args;
  IrSInfo **s = call->u.call.sinfo_args;
  switch (call->u.call.op->id) {
  case IR_OP_CALL_TIR:
  case IR_OP_CALL_TIR_INPLACE:
  case IR_OP_CALL_DPS_PACKED:
    return k == 1 ? s[0] : ir_sinfo_tuple(n->ctx, s, k);
  case IR_OP_CALL_PURE_PACKED:
    return k > 0 ? s[0] : ir_sinfo_object(n->ctx);
  default:
    return NULL;
  }
}

/* An op call by the op's inference; NULL when it has none or rejects the
 * call (then with an error, counted). */
static IrSInfo *
op_call_sinfo(Norm *n, const IrBinding *b, const IrExpr *call)
{
  const IrOpDef *op = call->u.call.op;
  const OpImpl *impl = op_impl(op->id);
  if (!impl->infer)
    return call->sinfo ? call->sinfo : written_sinfo(n, call);
  int nargs = call->u.call.nargs;
  IrSInfo **args = ir_alloc(n->ctx, (size_t)(nargs ? nargs : 1) * sizeof *args);
  for (int i = 0; i < nargs; i++) {
    args[i] = leaf_sinfo(n, call->u.call.args[i]);
    if (!args[i])
      args[i] = ir_sinfo_object(n->ctx);
  }
  OpInfer in = {n->ctx, current_arith(n), n->mod, b->var ? b->var->u.var.name : NULL, call->loc,
                NULL};
  int before = ir_error_count(n->ctx);
  IrSInfo *s = op_call_infer(&in, call, args);
  const char *why = s ? ir_sinfo_dims_problem(s) : NULL;
  if (why) {
    op_error(n->ctx, call->loc, in.binding, op, "the result has %s", why);
    s = NULL;
  }
  if (!s && ir_error_count(n->ctx) > before)
    n->nerrors++;
  return s;
}

static IrSInfo *
call_sinfo(Norm *n, const IrBinding *b, const IrExpr *call)
{
  switch (call->u.call.kind) {
  case IR_CALL_OP:
    return op_call_sinfo(n, b, call);
  case IR_CALL_GLOBAL: {
    const IrGlobal *g = ir_map_get(&n->globals, call->u.call.callee->u.global);
    if (!g || g->kind != IR_GLOBAL_RELAX)
      return call->sinfo;
    return apply(n, function_sinfo(n->ctx, g->u.relax), call);
  }
  case IR_CALL_EXTERN:
    return call->u.call.nsinfo_args > 0 ? call->u.call.sinfo_args[0] : ir_sinfo_object(n->ctx);
  case IR_CALL_VAR:
    return apply(n, call->u.call.callee->sinfo, call);
  }
  return NULL;
}

/* The value's struct info, from its operands. */
static IrSInfo *
value_sinfo(Norm *n, const IrBinding *b)
{
  const IrExpr *v = b->value;
  switch (v->kind) {
  case IR_EX_CALL:
    return call_sinfo(n, b, v);
  case IR_EX_IF:
    return join(n->ctx, leaf_sinfo(n, v->u.branch.then_->u.seq.result),
                leaf_sinfo(n, v->u.branch.else_->u.seq.result));
  case IR_EX_FUNC:
    return v->sinfo ? v->sinfo : function_sinfo(n->ctx, v->u.func);
  default:
    return leaf_sinfo(n, v);
  }
}

/* --- annotations ---------------------------------------------------------------- */

/* Is a dim provably different from another (literals, or the arithmetic)? */
static bool
dim_differs(const Norm *n, IrPrimExpr *a, IrPrimExpr *b)
{
  int64_t x, y;
  if (ir_prim_is_int(a, &x) && ir_prim_is_int(b, &y))
    return x != y;
  if (!current_arith(n) || !ir_dtype_eq(a->dtype, b->dtype))
    return false;
  return ir_arith_prove(current_arith(n), ir_prim_bin(n->ctx, IR_PE_EQ, a, b)) == IR_PROVE_FALSE;
}

static bool
shape_differs(const Norm *n, IrPrimExpr **a, int na, IrPrimExpr **b, int nb, IrBuf *why)
{
  if (na >= 0 && nb >= 0 && na != nb) {
    ir_buf_printf(why, "rank %d vs %d", na, nb);
    return true;
  }
  for (int i = 0; a && b && i < na; i++)
    if (dim_differs(n, a[i], b[i])) {
      ir_buf_printf(why, "dim %d: ", i);
      ir_prim_expr_print(a[i], why);
      ir_buf_puts(why, " vs ");
      ir_prim_expr_print(b[i], why);
      return true;
    }
  return false;
}

static bool
dtype_differs(IrDType a, IrDType b, IrBuf *why)
{
  if (a.code == IR_DT_VOID || b.code == IR_DT_VOID || ir_dtype_eq(a, b))
    return false;
  char sa[32], sb[32];
  ir_buf_printf(why, "dtype %s vs %s", ir_dtype_str(a, sa), ir_dtype_str(b, sb));
  return true;
}

/* Does the annotation provably contradict the inferred struct info?  Only
 * facts known on both sides count. */
static bool
contradicts(const Norm *n, const IrSInfo *ann, const IrSInfo *val, IrBuf *why)
{
  if (!ann || !val || ann->kind == IR_SI_OBJECT || val->kind == IR_SI_OBJECT)
    return false;
  if (ann->kind != val->kind) {
    ir_buf_puts(why, "a different kind");
    return true;
  }
  switch (ann->kind) {
  case IR_SI_TENSOR:
    return shape_differs(n, ann->u.tensor.shape, ann->u.tensor.ndim, val->u.tensor.shape,
                         val->u.tensor.ndim, why) ||
           dtype_differs(ann->u.tensor.dtype, val->u.tensor.dtype, why);
  case IR_SI_SHAPE:
    return shape_differs(n, ann->u.shape.values, ann->u.shape.ndim, val->u.shape.values,
                         val->u.shape.ndim, why);
  case IR_SI_PRIM:
    return dtype_differs(ann->u.prim.dtype, val->u.prim.dtype, why);
  case IR_SI_TUPLE:
    if (ann->u.tuple.n != val->u.tuple.n) {
      ir_buf_printf(why, "%d fields vs %d", ann->u.tuple.n, val->u.tuple.n);
      return true;
    }
    for (int i = 0; i < ann->u.tuple.n; i++)
      if (contradicts(n, ann->u.tuple.fields[i], val->u.tuple.fields[i], why))
        return true;
    return false;
  default:
    return false;
  }
}

static void
report_contradiction(Norm *n, const IrBinding *b, const IrSInfo *val, const char *why)
{
  IrBuf ann = {0}, inferred = {0};
  ir_sinfo_print(b->var->sinfo, &ann);
  ir_sinfo_print(val, &inferred);
  IrLoc loc = b->loc.line ? b->loc : b->var->loc;
  ir_error(n->ctx, loc,
           "in function '%s', binding '%s': the annotation %s contradicts the inferred struct "
           "info %s (%s)",
           n->rw->func_name, b->var->u.var.name, ann.data ? ann.data : "?",
           inferred.data ? inferred.data : "?", why);
  ir_buf_free(&ann);
  ir_buf_free(&inferred);
  n->nerrors++;
}

/* --- bindings, functions, the module ------------------------------------------------ */

/* A var '_' bound to an effect's void result stays a bare statement. */
static bool
is_discard(const IrExpr *var)
{
  return var->u.var.name && var->u.var.name[0] == '_' && var->u.var.name[1] == '\0';
}

static bool
normalize_binding(Rewriter *rw, IrBinding *b)
{
  Norm *n = rw->user;
  n->rw = rw;
  if (!b->value)
    return true;
  IrSInfo *s = value_sinfo(n, b);
  IrExprKind k = b->value->kind;
  bool typed = k == IR_EX_CALL || k == IR_EX_IF || k == IR_EX_TUPLE || k == IR_EX_GET;
  if (s && typed && !(b->value->sinfo && ir_sinfo_equal(b->value->sinfo, s))) {
    b->value = opt_rw_expr_copy(n->ctx, b->value);
    b->value->sinfo = s;
  }
  if (b->cast || !b->var || rw->at_result)
    return true; /* match_cast: the var has the cast's struct info */
  IrBuf why = {0};
  if (b->var->sinfo && contradicts(n, b->var->sinfo, s, &why))
    report_contradiction(n, b, s, why.data ? why.data : "");
  else if (!b->var->sinfo && s && !(is_discard(b->var) && ir_sinfo_is_void(s)))
    b->var = opt_rw_var_recreate(rw, b->var, s);
  ir_buf_free(&why);
  return true;
}

static IrFunction *
normalize_function(IrCtx *ctx, const IrFunction *f, const char *name, void *user)
{
  return opt_rw_function_with(ctx, f, name, normalize_binding, user);
}

IrModule *
opt_normalize(IrCtx *ctx, const IrModule *m)
{
  Norm n = {.ctx = ctx, .mod = m};
  ir_module_index(m, &n.globals);
  IrModule *out = opt_rw_module_functions(ctx, m, normalize_function, &n);
  ir_map_free(&n.globals);
  return n.nerrors ? NULL : out;
}
