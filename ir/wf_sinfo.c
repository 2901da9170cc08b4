/*
 * wf_sinfo.c - struct info that contradicts itself or the value it
 * annotates.
 *
 * Key idea: only facts known on both sides count.  A rank, dtype or dim
 * that is unknown (-1, void, a symbolic expression) never contradicts
 * anything, and R.Object is above every kind, so an annotation less precise
 * than the value is fine; only two known facts that differ are errors.
 */
#include <inttypes.h>

#include "wf_int.h"

/* Entries written in a tensor's shape or a shape's values (-1: none). */
static int
written_len(const IrSInfo *s, const void *entries, int ndim)
{
  if (!entries)
    return -1;
  return s->shape_len ? s->shape_len : ndim;
}

bool
ir_wf_sinfo_consistent(const IrSInfo *s)
{
  if (!s)
    return true;
  switch (s->kind) {
  case IR_SI_TENSOR: {
    int n = written_len(s, s->u.tensor.shape, s->u.tensor.ndim);
    return n < 0 || s->u.tensor.ndim < 0 || n == s->u.tensor.ndim;
  }
  case IR_SI_SHAPE: {
    int n = written_len(s, s->u.shape.values, s->u.shape.ndim);
    return n < 0 || s->u.shape.ndim < 0 || n == s->u.shape.ndim;
  }
  case IR_SI_TUPLE:
    for (int i = 0; i < s->u.tuple.n; i++)
      if (!ir_wf_sinfo_consistent(s->u.tuple.fields[i]))
        return false;
    return true;
  case IR_SI_FUNC:
    for (int i = 0; i < s->u.func.nparams && s->u.func.params; i++)
      if (!ir_wf_sinfo_consistent(s->u.func.params[i]))
        return false;
    return ir_wf_sinfo_consistent(s->u.func.ret);
  case IR_SI_OBJECT:
  case IR_SI_PRIM:
    break;
  }
  return true;
}

const char *
ir_sinfo_dims_problem(const IrSInfo *s)
{
  if (s && s->kind == IR_SI_TUPLE) {
    for (int i = 0; i < s->u.tuple.n; i++) {
      const char *why = ir_sinfo_dims_problem(s->u.tuple.fields[i]);
      if (why)
        return why;
    }
    return NULL;
  }
  if (!s || s->kind != IR_SI_TENSOR || !s->u.tensor.shape)
    return NULL;
  int64_t bytes = s->u.tensor.dtype.code == IR_DT_VOID ? 1 : ir_dtype_bytes(s->u.tensor.dtype);
  bool overflow = false;
  for (int i = 0; i < s->u.tensor.ndim; i++) {
    int64_t d;
    if (!ir_prim_is_int(s->u.tensor.shape[i], &d) || d == 0)
      continue;
    if (d < 0)
      return "a negative dim";
    if (bytes > INT64_MAX / d)
      overflow = true;
    else
      bytes *= d;
  }
  return overflow ? "more bytes than int64 can count" : NULL;
}

/* A tensor's literal dims: none negative, and their product times the
 * element size within int64 (the planner and the generated C compute byte
 * sizes in int64). */
static void
check_tensor_dims(WfChecker *c, const IrSInfo *s, IrLoc loc, const char *what)
{
  for (int i = 0; s->u.tensor.shape && i < s->u.tensor.ndim; i++) {
    int64_t d;
    if (ir_prim_is_int(s->u.tensor.shape[i], &d) && d < 0) {
      ir_wf_error(c, loc, "%s: tensor dim %d is negative (%" PRId64 ")", what, i, d);
      return;
    }
  }
  if (ir_sinfo_dims_problem(s))
    ir_wf_error(c, loc, "%s: tensor of this shape has more bytes than int64 can count", what);
}

void
ir_wf_check_sinfo(WfChecker *c, const IrSInfo *s, IrLoc loc, const char *what)
{
  if (!s)
    return;
  int n;
  switch (s->kind) {
  case IR_SI_TENSOR:
    n = written_len(s, s->u.tensor.shape, s->u.tensor.ndim);
    if (n >= 0 && s->u.tensor.ndim >= 0 && n != s->u.tensor.ndim)
      ir_wf_error(c, loc, "%s: tensor struct info has ndim=%d but a shape of %d dims", what,
                  s->u.tensor.ndim, n);
    else
      check_tensor_dims(c, s, loc, what);
    break;
  case IR_SI_SHAPE:
    n = written_len(s, s->u.shape.values, s->u.shape.ndim);
    if (n >= 0 && s->u.shape.ndim >= 0 && n != s->u.shape.ndim)
      ir_wf_error(c, loc, "%s: shape struct info has ndim=%d but %d values", what, s->u.shape.ndim,
                  n);
    break;
  case IR_SI_TUPLE:
    for (int i = 0; i < s->u.tuple.n; i++)
      ir_wf_check_sinfo(c, s->u.tuple.fields[i], loc, what);
    break;
  case IR_SI_FUNC:
    for (int i = 0; i < s->u.func.nparams && s->u.func.params; i++)
      ir_wf_check_sinfo(c, s->u.func.params[i], loc, what);
    ir_wf_check_sinfo(c, s->u.func.ret, loc, what);
    break;
  case IR_SI_OBJECT:
  case IR_SI_PRIM:
    break;
  }
}

static bool
dtypes_differ(IrDType a, IrDType b, IrBuf *why)
{
  if (a.code == IR_DT_VOID || b.code == IR_DT_VOID || ir_dtype_eq(a, b))
    return false;
  char sa[32], sb[32];
  ir_buf_printf(why, "dtype %s vs %s", ir_dtype_str(a, sa), ir_dtype_str(b, sb));
  return true;
}

/* Ranks and literal dims of two shapes (tensor shapes or shape values). */
static bool
dims_differ(IrPrimExpr **a, int na, IrPrimExpr **b, int nb, IrBuf *why)
{
  if (na >= 0 && nb >= 0 && na != nb) {
    ir_buf_printf(why, "rank %d vs %d", na, nb);
    return true;
  }
  if (!a || !b || na < 0)
    return false;
  for (int i = 0; i < na; i++) {
    int64_t x, y;
    if (ir_prim_is_int(a[i], &x) && ir_prim_is_int(b[i], &y) && x != y) {
      ir_buf_printf(why, "dim %d is %" PRId64 " vs %" PRId64, i, x, y);
      return true;
    }
  }
  return false;
}

bool
ir_wf_sinfo_contradicts(const IrSInfo *ann, const IrSInfo *val, IrBuf *why)
{
  if (!ann || !val || ann->kind == IR_SI_OBJECT || val->kind == IR_SI_OBJECT)
    return false;
  if (ann->kind != val->kind) {
    ir_buf_printf(why, "%s vs %s", ir_sinfo_kind_name(ann->kind), ir_sinfo_kind_name(val->kind));
    return true;
  }
  switch (ann->kind) {
  case IR_SI_TENSOR:
    return dims_differ(ann->u.tensor.shape, ann->u.tensor.ndim, val->u.tensor.shape,
                       val->u.tensor.ndim, why) ||
           dtypes_differ(ann->u.tensor.dtype, val->u.tensor.dtype, why);
  case IR_SI_SHAPE:
    return dims_differ(ann->u.shape.values, ann->u.shape.ndim, val->u.shape.values,
                       val->u.shape.ndim, why);
  case IR_SI_PRIM:
    return dtypes_differ(ann->u.prim.dtype, val->u.prim.dtype, why);
  case IR_SI_TUPLE:
    if (ann->u.tuple.n != val->u.tuple.n) {
      ir_buf_printf(why, "tuple of %d fields vs %d", ann->u.tuple.n, val->u.tuple.n);
      return true;
    }
    for (int i = 0; i < ann->u.tuple.n; i++)
      if (ir_wf_sinfo_contradicts(ann->u.tuple.fields[i], val->u.tuple.fields[i], why))
        return true;
    return false;
  case IR_SI_OBJECT:
  case IR_SI_FUNC:
    break;
  }
  return false;
}
