/*
 * tir_intrin.c - the TIR intrinsics (T.exp, T.if_then_else, T.max_value,
 * ...), one row each: the one list of what rxc can run and compile.
 *
 * A row holds what every user needs: the interpreter evaluates a call by the
 * row's kind (which also fixes the dtype of the value, ir.h) and its
 * function on doubles (interp/tir.c), the code generator writes the row's C
 * form (codegen/gen_tir.c), and legalization builds calls through
 * ir_prim_intrin, which checks the name against the table (ops/).  Adding
 * an intrinsic is adding a row, plus the rt/ function its C form names
 * when that is new.  A call of a name not here, or with another number of
 * arguments, is an unknown intrinsic to every user; the reader accepts any
 * T.name(...), so that is where such a call is refused.
 */
#include <math.h>
#include <string.h>

#include "ir.h"

static double
sigmoid(double x)
{
  return 1 / (1 + exp(-x));
}

static double
rsqrt(double x)
{
  return 1 / sqrt(x);
}

static double
exp10_(double x) /* not C99's: glibc's exp10 is a GNU extension */
{
  return pow(10, x);
}

/* Columns: names (an alias second), kind, arity (-1: any), the interpreter's
 * function on doubles (of one or of two arguments), the C form, and whether
 * the C form needs a float result (else the code generator refuses it). */
static const IrTirIntrin intrinsics[] = {
    {{"tir.exp"}, IR_INTRIN_MATH, 1, exp, NULL, "rxc_exp$f(@0)", true},
    {{"tir.exp2"}, IR_INTRIN_MATH, 1, exp2, NULL, "rxc_exp2$f(@0)", true},
    {{"tir.exp10"}, IR_INTRIN_MATH, 1, exp10_, NULL, "rxc_pow$f(10.0$f, @0)", false},
    {{"tir.log"}, IR_INTRIN_MATH, 1, log, NULL, "rxc_log$f(@0)", true},
    {{"tir.log2"}, IR_INTRIN_MATH, 1, log2, NULL, "rxc_log2$f(@0)", true},
    {{"tir.log10"}, IR_INTRIN_MATH, 1, log10, NULL, "rxc_log10$f(@0)", true},
    {{"tir.log1p"}, IR_INTRIN_MATH, 1, log1p, NULL, "rxc_log1p$f(@0)", true},
    {{"tir.expm1"}, IR_INTRIN_MATH, 1, expm1, NULL, "rxc_expm1$f(@0)", true},
    {{"tir.sqrt"}, IR_INTRIN_MATH, 1, sqrt, NULL, "rxc_sqrt$f(@0)", true},
    {{"tir.rsqrt"}, IR_INTRIN_MATH, 1, rsqrt, NULL, "(1.0$f / rxc_sqrt$f(@0))", false},
    {{"tir.tanh"}, IR_INTRIN_MATH, 1, tanh, NULL, "rxc_tanh$f(@0)", true},
    /* clang-format off */
    {{"tir.sigmoid"}, IR_INTRIN_MATH, 1, sigmoid, NULL,
     "(1.0$f / (1.0$f + rxc_exp$f(-@0)))", false},
    /* clang-format on */
    {{"tir.erf"}, IR_INTRIN_MATH, 1, erf, NULL, "rxc_erf$f(@0)", true},
    {{"tir.fabs"}, IR_INTRIN_MATH, 1, fabs, NULL, "rxc_fabs$f(@0)", true},
    {{"tir.floor"}, IR_INTRIN_MATH, 1, floor, NULL, "rxc_floor$f(@0)", true},
    {{"tir.ceil"}, IR_INTRIN_MATH, 1, ceil, NULL, "rxc_ceil$f(@0)", true},
    {{"tir.round"}, IR_INTRIN_MATH, 1, nearbyint, NULL, "rxc_nearbyint$f(@0)", true},
    {{"tir.nearbyint"}, IR_INTRIN_MATH, 1, nearbyint, NULL, "rxc_nearbyint$f(@0)", true},
    {{"tir.trunc"}, IR_INTRIN_MATH, 1, trunc, NULL, "rxc_trunc$f(@0)", true},
    {{"tir.sin"}, IR_INTRIN_MATH, 1, sin, NULL, "rxc_sin$f(@0)", true},
    {{"tir.cos"}, IR_INTRIN_MATH, 1, cos, NULL, "rxc_cos$f(@0)", true},
    {{"tir.tan"}, IR_INTRIN_MATH, 1, tan, NULL, "rxc_tan$f(@0)", true},
    {{"tir.asin"}, IR_INTRIN_MATH, 1, asin, NULL, "rxc_asin$f(@0)", true},
    {{"tir.acos"}, IR_INTRIN_MATH, 1, acos, NULL, "rxc_acos$f(@0)", true},
    {{"tir.atan"}, IR_INTRIN_MATH, 1, atan, NULL, "rxc_atan$f(@0)", true},
    {{"tir.sinh"}, IR_INTRIN_MATH, 1, sinh, NULL, "rxc_sinh$f(@0)", true},
    {{"tir.cosh"}, IR_INTRIN_MATH, 1, cosh, NULL, "rxc_cosh$f(@0)", true},
    {{"tir.fmod"}, IR_INTRIN_MATH, 2, NULL, fmod, "rxc_fmod$f(@0, @1)", true},
    /* on integers the code generator's helpers rxc_abs_<type>, rxc_pow_<type> */
    {{"tir.abs"}, IR_INTRIN_ABS, 1, fabs, NULL, "rxc_fabs$f(@0)", true},
    {{"tir.pow", "tir.power"}, IR_INTRIN_POW, 2, NULL, pow, "rxc_pow$f(@0, @1)", true},
    /* x != x is IEEE's NaN test; isinf and isfinite are helpers (rxc_isinf_f32) */
    {{"tir.isnan"}, IR_INTRIN_ISNAN, 1, NULL, NULL, "(@0 != @0)", false},
    {{"tir.isinf"}, IR_INTRIN_ISINF, 1, NULL, NULL, NULL, false},
    {{"tir.isfinite"}, IR_INTRIN_ISFINITE, 1, NULL, NULL, NULL, false},
    {{"tir.likely"}, IR_INTRIN_LIKELY, 1, NULL, NULL, "@0", false},
    {{"tir.if_then_else"}, IR_INTRIN_IF_THEN_ELSE, 3, NULL, NULL, "(@0 ? @1 : @2)", false},
    /* the argument names the dtype, which the call's dtype already says */
    {{"tir.max_value"}, IR_INTRIN_MAX_VALUE, -1, NULL, NULL, NULL, false},
    {{"tir.min_value"}, IR_INTRIN_MIN_VALUE, -1, NULL, NULL, NULL, false},
};

const IrTirIntrin *
ir_tir_intrin_find(const char *op, int nargs)
{
  if (!op)
    return NULL;
  for (size_t i = 0; i < sizeof intrinsics / sizeof intrinsics[0]; i++) {
    const IrTirIntrin *r = &intrinsics[i];
    bool named = strcmp(op, r->names[0]) == 0 || (r->names[1] && strcmp(op, r->names[1]) == 0);
    if (named)
      return r->arity < 0 || r->arity == nargs ? r : NULL;
  }
  return NULL;
}

IrPrimExpr *
ir_prim_intrin(IrCtx *ctx, IrDType t, const char *op, IrPrimExpr **args, int n)
{
  if (!ir_tir_intrin_find(op, n))
    UNREACHABLE(); /* a builder's typo: every user would refuse the call */
  return ir_prim_call(ctx, t, ir_sym(ctx, op), args, n);
}
