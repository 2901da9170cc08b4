/*
 * check.c - values against struct info: parameter checks, R.match_cast and
 * the binding of symbolic variables.
 *
 * Matching runs in two passes over the struct info.  The first checks kinds,
 * dtypes and ranks and binds every dimension that is a bare symbolic var
 * still unbound (so R.Tensor(("n", "2 * n")) learns n from dimension 0
 * whatever the order); the second evaluates every dimension with the values
 * now bound and compares.  A var bound twice is thus checked, not rebound.
 */
#include <string.h>

#include "interp_int.h"

static const char *
dtype_name(IrDType t, char *buf)
{
  return ir_dtype_str(t, buf);
}

/* Does e mention only vars with a value in f?  Names the first that has
 * none in *missing. */
static bool
all_bound(const Frame *f, const IrPrimExpr *e, IrSym *missing)
{
  int64_t v;
  switch (e->kind) {
  case IR_PE_VAR:
    if (interp_sym_get(f, e, &v))
      return true;
    *missing = e->u.var;
    return false;
  case IR_PE_INT:
  case IR_PE_FLOAT:
  case IR_PE_STR:
  case IR_PE_LOAD:
    return true;
  case IR_PE_SELECT:
    return all_bound(f, e->u.select.cond, missing) && all_bound(f, e->u.select.a, missing) &&
           all_bound(f, e->u.select.b, missing);
  case IR_PE_CALL:
    for (int i = 0; i < e->u.call.n; i++)
      if (!all_bound(f, e->u.call.args[i], missing))
        return false;
    return true;
  default:
    return all_bound(f, e->u.bin.a, missing) && (!e->u.bin.b || all_bound(f, e->u.bin.b, missing));
  }
}

/* One dimension (or prim value) e against the actual value. */
static bool
match_dim(Interp *in, Frame *f, const IrPrimExpr *e, int64_t actual, bool bind, IrBuf *why,
          const char *what)
{
  int64_t v;
  if (bind) {
    if (e->kind == IR_PE_VAR && !interp_sym_get(f, e, &v))
      interp_sym_set(in, f, e, actual);
    return true;
  }
  IrSym missing = NULL;
  if (!all_bound(f, e, &missing)) {
    ir_buf_printf(why, "%s: symbolic variable '%s' cannot be determined", what, missing);
    return false;
  }
  Scalar s;
  if (!interp_eval_dim(in, f, e, &s)) {
    ir_buf_printf(why, "%s cannot be evaluated", what);
    return false;
  }
  if (s.i == actual)
    return true;
  IrBuf text = {0};
  ir_prim_expr_print(e, &text);
  if (e->kind == IR_PE_INT)
    ir_buf_printf(why, "%s is %lld, expected %lld", what, (long long)actual, (long long)s.i);
  else
    ir_buf_printf(why, "%s is %lld, but %s = %lld", what, (long long)actual,
                  text.data ? text.data : "?", (long long)s.i);
  ir_buf_free(&text);
  return false;
}

static bool
match_dims(Interp *in, Frame *f, IrPrimExpr **dims, int n, const int64_t *actual, bool bind,
           IrBuf *why)
{
  for (int i = 0; i < n; i++) {
    char what[32];
    snprintf(what, sizeof what, "dimension %d", i);
    if (!match_dim(in, f, dims[i], actual[i], bind, why, what))
      return false;
  }
  return true;
}

static const char *
kind_name(ValueKind k)
{
  static const char *names[] = {"a tensor", "a tuple", "a shape", "a prim value",
                                "a string", "a dtype", "storage", "a function"};
  return names[k];
}

static bool
match_tensor(Interp *in, Frame *f, const IrSInfo *s, const Value *v, bool bind, IrBuf *why)
{
  char a[16], b[16];
  const IrTensorData *t = &v->u.tensor.t;
  if (s->u.tensor.dtype.code != IR_DT_VOID && !ir_dtype_eq(s->u.tensor.dtype, t->dtype)) {
    ir_buf_printf(why, "dtype is %s, expected %s", dtype_name(t->dtype, a),
                  dtype_name(s->u.tensor.dtype, b));
    return false;
  }
  if (s->u.tensor.ndim >= 0 && s->u.tensor.ndim != t->ndim) {
    ir_buf_printf(why, "rank is %d, expected %d", t->ndim, s->u.tensor.ndim);
    return false;
  }
  if (!s->u.tensor.shape || ir_sinfo_shape_len(s) != t->ndim)
    return true;
  return match_dims(in, f, s->u.tensor.shape, t->ndim, t->shape, bind, why);
}

static bool
match_pass(Interp *in, Frame *f, const IrSInfo *s, const Value *v, bool bind, IrBuf *why)
{
  static const ValueKind want[] = {VAL_TENSOR, VAL_PRIM,  VAL_SHAPE,
                                   VAL_TENSOR, VAL_TUPLE, VAL_FUNC};
  if (s->kind == IR_SI_OBJECT)
    return true;
  if (v->kind != want[s->kind]) {
    ir_buf_printf(why, "%s where %s was expected", kind_name(v->kind), kind_name(want[s->kind]));
    return false;
  }
  switch (s->kind) {
  case IR_SI_PRIM: {
    char a[16], b[16];
    if (s->u.prim.dtype.code != IR_DT_VOID && !ir_dtype_eq(s->u.prim.dtype, v->u.prim.dtype)) {
      ir_buf_printf(why, "prim value of dtype %s, expected %s", dtype_name(v->u.prim.dtype, a),
                    dtype_name(s->u.prim.dtype, b));
      return false;
    }
    if (!s->u.prim.value || interp_scalar_is_float(v->u.prim.dtype))
      return true;
    return match_dim(in, f, s->u.prim.value, v->u.prim.i, bind, why, "prim value");
  }
  case IR_SI_SHAPE:
    if (s->u.shape.ndim >= 0 && s->u.shape.ndim != v->u.shape.n) {
      ir_buf_printf(why, "shape of %d dimensions, expected %d", v->u.shape.n, s->u.shape.ndim);
      return false;
    }
    if (!s->u.shape.values || ir_sinfo_shape_len(s) != v->u.shape.n)
      return true;
    return match_dims(in, f, s->u.shape.values, v->u.shape.n, v->u.shape.dims, bind, why);
  case IR_SI_TENSOR:
    return match_tensor(in, f, s, v, bind, why);
  case IR_SI_TUPLE:
    if (s->u.tuple.n != v->u.tuple.n) {
      ir_buf_printf(why, "tuple of %d fields, expected %d", v->u.tuple.n, s->u.tuple.n);
      return false;
    }
    for (int i = 0; i < s->u.tuple.n; i++) {
      IrBuf inner = {0};
      bool ok = match_pass(in, f, s->u.tuple.fields[i], v->u.tuple.items[i], bind, &inner);
      if (!ok)
        ir_buf_printf(why, "field %d: %s", i, inner.data ? inner.data : "mismatch");
      ir_buf_free(&inner);
      if (!ok)
        return false;
    }
    return true;
  default:
    return true;
  }
}

bool
interp_match(Interp *in, Frame *f, const IrSInfo *s, const Value *v, IrBuf *why)
{
  if (!s)
    return true;
  return match_pass(in, f, s, v, true, why) && match_pass(in, f, s, v, false, why);
}

/* Checks one bound dict (tir_var_upper_bound or _lower_bound). */
static bool
check_bound_dict(Interp *in, Frame *f, const IrAttr *dict, bool upper, const char *name)
{
  if (!dict || dict->kind != IR_AT_DICT)
    return true;
  for (int k = 0; k < dict->u.list.n; k++) {
    const IrAttr *b = dict->u.list.items[k];
    if (b->kind != IR_AT_INT)
      continue;
    for (int i = 0; i < f->nsyms; i++) {
      const IrPrimExpr *key = f->sym_order[i];
      if (key->u.var != ir_sym(in->ctx, dict->u.list.keys[k]))
        continue;
      const Value *v = ir_map_get(&f->syms, key);
      bool bad = upper ? v->u.prim.i > b->u.i : v->u.prim.i < b->u.i;
      if (bad) {
        ir_error(in->ctx, in->loc, "in call of '%s': %s = %lld is %s its %s bound %lld", name,
                 key->u.var, (long long)v->u.prim.i, upper ? "above" : "below",
                 upper ? "upper" : "lower", (long long)b->u.i);
        return false;
      }
    }
  }
  return true;
}

bool
interp_check_bounds(Interp *in, Frame *f, const IrFunction *fn, const char *name)
{
  return check_bound_dict(in, f, ir_attr_get(fn->attrs, "tir_var_upper_bound"), true, name) &&
         check_bound_dict(in, f, ir_attr_get(fn->attrs, "tir_var_lower_bound"), false, name);
}
