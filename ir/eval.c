/*
 * eval.c - the value of a symbolic integer expression (a dim of a shape,
 * an R.Prim value) once its variables have concrete values: what the
 * driver needs to shape the outputs of a compiled entry from its inputs,
 * what rxc equiv needs to draw random inputs, and what the tests and the
 * benchmark need to call generated code.
 *
 * Key idea: the arithmetic is the generated C's and the interpreter's
 * (int64 that wraps, floordiv/floormod towards minus infinity, truncating
 * div/mod, comparisons as 0/1, both sides of a select evaluated), so a
 * shape computed here is the shape the entry checks.  What has no integer
 * value (a float, a buffer load, an intrinsic call), an unknown variable
 * and a division by zero make the evaluation fail; the caller says why.
 */
#include "ir.h"

/* floor(a / b) for b != 0, without overflow on INT64_MIN / -1 (wraps). */
static int64_t
floor_div(int64_t a, int64_t b)
{
  if (b == -1)
    return (int64_t)(0 - (uint64_t)a);
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

bool
ir_int_binary(IrPrimKind k, int64_t a, int64_t b, int64_t *r)
{
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  if ((k == IR_PE_DIV || k == IR_PE_MOD || k == IR_PE_FLOORDIV || k == IR_PE_FLOORMOD) && !b)
    return false;
  switch (k) {
  case IR_PE_ADD:
    *r = (int64_t)(ua + ub);
    return true;
  case IR_PE_SUB:
    *r = (int64_t)(ua - ub);
    return true;
  case IR_PE_MUL:
    *r = (int64_t)(ua * ub);
    return true;
  case IR_PE_DIV:
    *r = b == -1 ? (int64_t)(0 - ua) : a / b;
    return true;
  case IR_PE_MOD:
    *r = b == -1 ? 0 : a % b;
    return true;
  case IR_PE_FLOORDIV:
    *r = floor_div(a, b);
    return true;
  case IR_PE_FLOORMOD:
    *r = (int64_t)(ua - (uint64_t)floor_div(a, b) * ub);
    return true;
  case IR_PE_MIN:
    *r = a < b ? a : b;
    return true;
  case IR_PE_MAX:
    *r = a > b ? a : b;
    return true;
  case IR_PE_EQ:
    *r = a == b;
    return true;
  case IR_PE_NE:
    *r = a != b;
    return true;
  case IR_PE_LT:
    *r = a < b;
    return true;
  case IR_PE_LE:
    *r = a <= b;
    return true;
  case IR_PE_GT:
    *r = a > b;
    return true;
  case IR_PE_GE:
    *r = a >= b;
    return true;
  case IR_PE_AND:
    *r = a && b;
    return true;
  case IR_PE_OR:
    *r = a || b;
    return true;
  default:
    return false;
  }
}

bool
ir_uint64_binary(IrPrimKind k, int64_t a, int64_t b, int64_t *r)
{
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  bool division = k == IR_PE_DIV || k == IR_PE_MOD || k == IR_PE_FLOORDIV || k == IR_PE_FLOORMOD;
  if (division && !ub)
    return false;
  switch (k) {
  case IR_PE_DIV:
  case IR_PE_FLOORDIV: /* no negative operand: both round the same way */
    *r = (int64_t)(ua / ub);
    return true;
  case IR_PE_MOD:
  case IR_PE_FLOORMOD:
    *r = (int64_t)(ua % ub);
    return true;
  case IR_PE_MIN:
    *r = ua < ub ? a : b;
    return true;
  case IR_PE_MAX:
    *r = ua > ub ? a : b;
    return true;
  case IR_PE_LT:
    *r = ua < ub;
    return true;
  case IR_PE_LE:
    *r = ua <= ub;
    return true;
  case IR_PE_GT:
    *r = ua > ub;
    return true;
  case IR_PE_GE:
    *r = ua >= ub;
    return true;
  default: /* the rest wraps alike, or compares bits */
    return ir_int_binary(k, a, b, r);
  }
}

bool
ir_prim_eval(const IrPrimExpr *e, IrDimLookup lookup, void *user, int64_t *out)
{
  int64_t a, b;
  switch (e->kind) {
  case IR_PE_INT:
    *out = e->u.int_value;
    return true;
  case IR_PE_VAR:
    return lookup(user, e->u.var, out);
  case IR_PE_CAST: /* an integer cast of a dim keeps its value */
    return e->dtype.code != IR_DT_FLOAT && ir_prim_eval(e->u.bin.a, lookup, user, out);
  case IR_PE_NOT:
    if (!ir_prim_eval(e->u.bin.a, lookup, user, &a))
      return false;
    *out = !a;
    return true;
  case IR_PE_SELECT: /* a broadcast decided at run time: (n == 1 ? m : n) */
    if (!ir_prim_eval(e->u.select.cond, lookup, user, &a))
      return false;
    return ir_prim_eval(a ? e->u.select.a : e->u.select.b, lookup, user, out);
  default:
    if (e->kind < IR_PE_ADD || e->kind > IR_PE_OR)
      return false;
    return ir_prim_eval(e->u.bin.a, lookup, user, &a) &&
           ir_prim_eval(e->u.bin.b, lookup, user, &b) && ir_int_binary(e->kind, a, b, out);
  }
}
