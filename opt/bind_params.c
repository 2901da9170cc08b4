/*
 * bind_params.c - BindParams: replaces the parameters of `main` named by
 * the weights the driver read (OptContext.weights: the entries of the
 * --params .npz, which messages name by its path) with constants of that
 * data.
 *
 * Key idea: binding a weight also binds its symbolic dims.  A param
 * annotated R.Tensor((n, 4)) given data of shape (8, 4) fixes n = 8, as
 * TVM's pass does, so n is replaced by 8 throughout the function: in the
 * remaining params, the return annotation, every var's struct info, calls'
 * struct info and sinfo_args, shape and prim-value leaves; expressions
 * that become constant are simplified (2 * n -> 16).  The params that go
 * are mapped to their constants, and the params whose struct info changed
 * to recreated vars, in a Rewriter that substitutes both in every use.
 *
 * An entry whose dtype, rank or shape contradicts the param's annotation
 * is an error naming both; entries that match no param are a warning.
 * Without weights the module comes back unchanged.  Not done: the
 * params of local functions keep their own annotations.
 */
#include <string.h>

#include "opt.h"
#include "opt_int.h"

typedef struct {
  IrCtx *ctx;
  IrArith *arith;
  IrMap dims; /* TIR var -> its literal value */
  int nerrors;
} Binder;

/* --- substituting symbolic dims ------------------------------------------------- */

static IrPrimExpr *subst_prim(Binder *bd, IrPrimExpr *e);

/* a and b substituted; e itself when neither changed. */
static IrPrimExpr *
subst_bin(Binder *bd, IrPrimExpr *e)
{
  IrPrimExpr *a = subst_prim(bd, e->u.bin.a);
  IrPrimExpr *b = e->u.bin.b ? subst_prim(bd, e->u.bin.b) : NULL;
  if (a == e->u.bin.a && b == e->u.bin.b)
    return e;
  if (e->kind == IR_PE_CAST)
    return ir_prim_cast(bd->ctx, e->dtype, a);
  return ir_prim_bin(bd->ctx, e->kind, a, b);
}

/* e with the bound vars replaced by their values and simplified where it
 * changed; e itself when no bound var occurs in it. */
static IrPrimExpr *
subst_prim(Binder *bd, IrPrimExpr *e)
{
  if (!e || bd->dims.len == 0)
    return e;
  IrPrimExpr *out = e;
  switch (e->kind) {
  case IR_PE_VAR: {
    IrPrimExpr *v = ir_map_get(&bd->dims, e);
    return v ? v : e;
  }
  case IR_PE_SELECT: {
    IrPrimExpr *c = subst_prim(bd, e->u.select.cond);
    IrPrimExpr *a = subst_prim(bd, e->u.select.a), *b = subst_prim(bd, e->u.select.b);
    if (c != e->u.select.cond || a != e->u.select.a || b != e->u.select.b)
      out = ir_prim_select(bd->ctx, c, a, b);
    break;
  }
  case IR_PE_CALL: {
    IrPrimExpr **args = NULL;
    for (int i = 0; i < e->u.call.n; i++) {
      IrPrimExpr *x = subst_prim(bd, e->u.call.args[i]);
      if (x != e->u.call.args[i] && !args) {
        args = ir_alloc(bd->ctx, (size_t)e->u.call.n * sizeof *args);
        memcpy(args, e->u.call.args, (size_t)e->u.call.n * sizeof *args);
      }
      if (args)
        args[i] = x;
    }
    if (args)
      out = ir_prim_call(bd->ctx, e->dtype, e->u.call.op, args, e->u.call.n);
    break;
  }
  default:
    if (e->kind >= IR_PE_ADD && e->kind <= IR_PE_CAST)
      out = subst_bin(bd, e);
    break;
  }
  return out == e ? e : ir_arith_simplify(bd->arith, out);
}

/* A new array when an entry changed, else dims itself. */
static IrPrimExpr **
subst_dims(Binder *bd, IrPrimExpr **dims, int n)
{
  IrPrimExpr **out = NULL;
  for (int i = 0; dims && i < n; i++) {
    IrPrimExpr *x = subst_prim(bd, dims[i]);
    if (x != dims[i] && !out) {
      out = ir_alloc(bd->ctx, (size_t)n * sizeof *out);
      memcpy(out, dims, (size_t)n * sizeof *out);
    }
    if (out)
      out[i] = x;
  }
  return out ? out : dims;
}

static IrSInfo *subst_sinfo(Binder *bd, IrSInfo *s);

/* A new array when an entry changed, else items itself. */
static IrSInfo **
subst_sinfos(Binder *bd, IrSInfo **items, int n)
{
  IrSInfo **out = NULL;
  for (int i = 0; items && i < n; i++) {
    IrSInfo *x = subst_sinfo(bd, items[i]);
    if (x != items[i] && !out) {
      out = ir_alloc(bd->ctx, (size_t)n * sizeof *out);
      memcpy(out, items, (size_t)n * sizeof *out);
    }
    if (out)
      out[i] = x;
  }
  return out ? out : items;
}

/* s with the bound vars substituted; s itself when none occurs. */
static IrSInfo *
subst_sinfo(Binder *bd, IrSInfo *s)
{
  if (!s || bd->dims.len == 0)
    return s;
  IrSInfo *copy = ir_alloc(bd->ctx, sizeof *copy);
  *copy = *s;
  switch (s->kind) {
  case IR_SI_TENSOR:
    copy->u.tensor.shape = subst_dims(bd, s->u.tensor.shape, ir_sinfo_shape_len(s));
    return copy->u.tensor.shape == s->u.tensor.shape ? s : copy;
  case IR_SI_SHAPE:
    copy->u.shape.values = subst_dims(bd, s->u.shape.values, ir_sinfo_shape_len(s));
    return copy->u.shape.values == s->u.shape.values ? s : copy;
  case IR_SI_PRIM:
    copy->u.prim.value = subst_prim(bd, s->u.prim.value);
    return copy->u.prim.value == s->u.prim.value ? s : copy;
  case IR_SI_TUPLE:
    copy->u.tuple.fields = subst_sinfos(bd, s->u.tuple.fields, s->u.tuple.n);
    return copy->u.tuple.fields == s->u.tuple.fields ? s : copy;
  case IR_SI_FUNC:
    copy->u.func.params = subst_sinfos(bd, s->u.func.params, s->u.func.nparams);
    copy->u.func.ret = subst_sinfo(bd, s->u.func.ret);
    return copy->u.func.params == s->u.func.params && copy->u.func.ret == s->u.func.ret ? s : copy;
  default:
    return s;
  }
}

/* A leaf or call with its dims, struct info and sinfo_args substituted. */
static IrExpr *
subst_expr(Binder *bd, IrExpr *e)
{
  if (!e || bd->dims.len == 0)
    return e;
  IrExpr *copy = opt_rw_expr_copy(bd->ctx, e);
  bool changed = false;
  copy->sinfo = e->kind == IR_EX_VAR ? e->sinfo : subst_sinfo(bd, e->sinfo);
  changed |= copy->sinfo != e->sinfo;
  if (e->kind == IR_EX_SHAPE) {
    copy->u.shape.values = subst_dims(bd, e->u.shape.values, e->u.shape.n);
    changed |= copy->u.shape.values != e->u.shape.values;
  } else if (e->kind == IR_EX_PRIM) {
    copy->u.prim = subst_prim(bd, e->u.prim);
    changed |= copy->u.prim != e->u.prim;
  } else if (e->kind == IR_EX_CALL) {
    copy->u.call.sinfo_args = subst_sinfos(bd, e->u.call.sinfo_args, e->u.call.nsinfo_args);
    changed |= copy->u.call.sinfo_args != e->u.call.sinfo_args;
    IrExpr **args =
        ir_alloc(bd->ctx, (size_t)(e->u.call.nargs ? e->u.call.nargs : 1) * sizeof *args);
    for (int i = 0; i < e->u.call.nargs; i++) {
      args[i] = subst_expr(bd, e->u.call.args[i]);
      changed |= args[i] != e->u.call.args[i];
    }
    copy->u.call.args = args;
  }
  return changed ? copy : e;
}

/* The Rewriter's callback: dims substituted in the binding's value and
 * struct info; a var whose struct info changes is recreated. */
static bool
bind_binding(Rewriter *rw, IrBinding *b)
{
  Binder *bd = rw->user;
  if (b->value && b->value->kind == IR_EX_FUNC && b->value->u.func) {
    IrSInfo *ret = subst_sinfo(bd, b->value->u.func->ret);
    if (ret != b->value->u.func->ret) {
      IrFunction *f = ir_alloc(bd->ctx, sizeof *f);
      *f = *b->value->u.func;
      f->ret = ret;
      b->value = opt_rw_expr_copy(bd->ctx, b->value);
      b->value->u.func = f;
    }
  } else {
    b->value = subst_expr(bd, b->value);
  }
  if (rw->at_result || !b->var)
    return true;
  b->cast = subst_sinfo(bd, b->cast);
  IrSInfo *s = subst_sinfo(bd, b->var->sinfo);
  if (s != b->var->sinfo)
    b->var = opt_rw_var_recreate(rw, b->var, s);
  return true;
}

/* --- matching entries to params ------------------------------------------------- */

static void
shape_text(const IrTensorData *t, IrBuf *out)
{
  char dt[32];
  ir_buf_puts(out, "(");
  for (int i = 0; i < t->ndim; i++)
    ir_buf_printf(out, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
  ir_buf_printf(out, "%s) and dtype %s", t->ndim == 1 ? "," : "", ir_dtype_str(t->dtype, dt));
}

static void
report_mismatch(Binder *bd, const char *path, const IrExpr *param, const IrTensorData *t,
                const char *why)
{
  IrBuf ann = {0}, data = {0};
  ir_sinfo_print(param->sinfo, &ann);
  shape_text(t, &data);
  ir_error(bd->ctx, param->loc,
           "BindParams: parameter '%s' of main is annotated %s, but '%s' in %s has shape %s (%s)",
           param->u.var.name, ann.data ? ann.data : "?", param->u.var.name, path,
           data.data ? data.data : "?", why);
  ir_buf_free(&ann);
  ir_buf_free(&data);
  bd->nerrors++;
}

/* Binds the plain-var dims of param's annotation from t, reporting a dtype
 * or rank that contradicts t; with check (once every param is bound), also
 * a dim that becomes a literal other than t's.  False after an error. */
static bool
bind_dims(Binder *bd, const char *path, const IrExpr *param, const IrTensorData *t, bool check)
{
  const IrSInfo *s = param->sinfo;
  const char *why = NULL;
  if (!s || s->kind == IR_SI_OBJECT)
    return true;
  if (s->kind != IR_SI_TENSOR)
    why = "not a tensor parameter";
  else if (s->u.tensor.dtype.code != IR_DT_VOID && !ir_dtype_eq(s->u.tensor.dtype, t->dtype))
    why = "dtype differs";
  else if (s->u.tensor.ndim >= 0 && s->u.tensor.ndim != t->ndim)
    why = "rank differs";
  for (int i = 0; !why && s->u.tensor.shape && i < t->ndim; i++) {
    IrPrimExpr *d = s->u.tensor.shape[i];
    int64_t v;
    if (d->kind == IR_PE_VAR && !ir_map_get(&bd->dims, d))
      ir_map_put(&bd->dims, d, ir_prim_int(bd->ctx, d->dtype, t->shape[i]));
    else if (check && ir_prim_is_int(subst_prim(bd, d), &v) && v != t->shape[i])
      why = ir_printf(bd->ctx, "dim %d differs", i);
  }
  if (why)
    report_mismatch(bd, path, param, t, why);
  return !why;
}

static const IrNamedTensor *
entry_for(const IrNamedTensor *entries, int n, const IrExpr *param)
{
  for (int i = 0; i < n; i++)
    if (param->u.var.name && strcmp(entries[i].name, param->u.var.name) == 0)
      return &entries[i];
  return NULL;
}

/* Warns about the entries no param of main took. */
static void
warn_unused(IrCtx *ctx, const char *path, const IrNamedTensor *entries, int n, const bool *used)
{
  IrBuf names = {0};
  int count = 0;
  for (int i = 0; i < n; i++)
    if (!used[i])
      ir_buf_printf(&names, "%s'%s'", count++ ? ", " : "", entries[i].name);
  if (count) {
    IrLoc none = {0};
    ir_warning(ctx, none, "BindParams: %d entr%s of %s match%s no parameter of main: %s", count,
               count == 1 ? "y" : "ies", path, count == 1 ? "es" : "", names.data);
  }
  ir_buf_free(&names);
}

/* --- the pass ------------------------------------------------------------------- */

/* main with the params that have entries bound; NULL after errors. */
static IrFunction *
bind_main(Binder *bd, const char *path, const IrFunction *f, const IrNamedTensor *entries, int n,
          bool *used)
{
  const IrExpr **data = ir_alloc(bd->ctx, (size_t)(f->nparams ? f->nparams : 1) * sizeof *data);
  for (int i = 0; i < f->nparams; i++) {
    const IrNamedTensor *e = entry_for(entries, n, f->params[i]);
    if (!e)
      continue;
    used[e - entries] = true;
    if (bind_dims(bd, path, f->params[i], &e->t, false))
      data[i] = ir_const_new(bd->ctx, &e->t, f->params[i]->loc);
  }
  for (int i = 0; i < f->nparams; i++)
    if (data[i])
      bind_dims(bd, path, f->params[i], &data[i]->u.constant, true);
  if (bd->nerrors)
    return NULL;
  Rewriter rw;
  opt_rw_init(&rw, bd->ctx, bd);
  rw.binding = bind_binding;
  IrFunction *copy = ir_alloc(bd->ctx, sizeof *copy);
  *copy = *f;
  copy->params = ir_alloc(bd->ctx, (size_t)(f->nparams ? f->nparams : 1) * sizeof *copy->params);
  copy->nparams = 0;
  for (int i = 0; i < f->nparams; i++) {
    IrExpr *p = f->params[i];
    IrSInfo *s = subst_sinfo(bd, p->sinfo);
    if (data[i])
      ir_map_put(&rw.vars, p, (void *)data[i]);
    else
      copy->params[copy->nparams++] = s == p->sinfo ? p : opt_rw_var_recreate(&rw, p, s);
  }
  copy->ret = subst_sinfo(bd, f->ret);
  IrFunction *out = opt_rw_function(&rw, copy, "main");
  opt_rw_free(&rw);
  return out;
}

IrModule *
opt_bind_params(const OptContext *oc, const IrModule *m)
{
  IrModule *out = opt_rw_module_copy(oc->ctx, m, 0);
  const OptWeights *w = oc->weights;
  if (!w)
    return out;
  bool *used = ir_alloc(oc->ctx, (size_t)(w->n ? w->n : 1) * sizeof *used);
  Binder bd = {oc->ctx, ir_arith_new(oc->ctx), {0}, 0};
  for (int i = 0; i < m->nglobals; i++) {
    const IrGlobal *g = &m->globals[i];
    if (g->kind != IR_GLOBAL_RELAX || !g->u.relax || strcmp(g->name, "main") != 0)
      continue;
    IrFunction *f = bind_main(&bd, w->label, g->u.relax, w->tensors, w->n, used);
    if (!f)
      break;
    out->globals[i].u.relax = f;
  }
  ir_map_free(&bd.dims);
  if (bd.nerrors)
    return NULL;
  warn_unused(oc->ctx, w->label, w->tensors, w->n, used);
  return out;
}
