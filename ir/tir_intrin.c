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

/* The BITS intrinsics on int64 values of dtype t (the caller wraps the
 * result to t).  Unsigned values arrive zero-extended, so uint64's top bit
 * is the sign bit here: shifts read it as unsigned. */
static int64_t
bitwise_and(IrDType t, int64_t a, int64_t b)
{
  (void)t;
  return a & b;
}

static int64_t
bitwise_or(IrDType t, int64_t a, int64_t b)
{
  (void)t;
  return a | b;
}

static int64_t
bitwise_xor(IrDType t, int64_t a, int64_t b)
{
  (void)t;
  return a ^ b;
}

static int64_t
bitwise_not(IrDType t, int64_t a, int64_t b) /* on bool: logical not, as TVM's i1 xor */
{
  (void)b;
  return t.code == IR_DT_BOOL ? !a : ~a;
}

/* Is shift amount b outside [0, bits of t)?  A negative one reads as huge. */
static bool
shift_past(IrDType t, int64_t b)
{
  return (uint64_t)b >= (uint64_t)t.bits;
}

static int64_t
shift_left(IrDType t, int64_t a, int64_t b)
{
  return shift_past(t, b) ? 0 : (int64_t)((uint64_t)a << b);
}

static int64_t
shift_right(IrDType t, int64_t a, int64_t b)
{
  if (t.code == IR_DT_UINT)
    return shift_past(t, b) ? 0 : (int64_t)((uint64_t)a >> b);
  if (shift_past(t, b))
    return a < 0 ? -1 : 0;
  return a < 0 ? ~(~a >> b) : a >> b; /* arithmetic, without C's implementation-defined >> */
}

/* Columns: names (an alias second), kind, arity (-1: any), the interpreter's
 * function on doubles (of one or of two arguments), the C form, whether
 * the C form needs a float result (else the code generator refuses it),
 * and a BITS intrinsic's function on integers. */
static const IrTirIntrin intrinsics[] = {
    {{"tir.exp"}, IR_INTRIN_MATH, 1, exp, NULL, "rxc_exp$f(@0)", true, NULL},
    {{"tir.exp2"}, IR_INTRIN_MATH, 1, exp2, NULL, "rxc_exp2$f(@0)", true, NULL},
    {{"tir.exp10"}, IR_INTRIN_MATH, 1, exp10_, NULL, "rxc_pow$f(10.0$f, @0)", false, NULL},
    {{"tir.log"}, IR_INTRIN_MATH, 1, log, NULL, "rxc_log$f(@0)", true, NULL},
    {{"tir.log2"}, IR_INTRIN_MATH, 1, log2, NULL, "rxc_log2$f(@0)", true, NULL},
    {{"tir.log10"}, IR_INTRIN_MATH, 1, log10, NULL, "rxc_log10$f(@0)", true, NULL},
    {{"tir.log1p"}, IR_INTRIN_MATH, 1, log1p, NULL, "rxc_log1p$f(@0)", true, NULL},
    {{"tir.expm1"}, IR_INTRIN_MATH, 1, expm1, NULL, "rxc_expm1$f(@0)", true, NULL},
    {{"tir.sqrt"}, IR_INTRIN_MATH, 1, sqrt, NULL, "rxc_sqrt$f(@0)", true, NULL},
    {{"tir.rsqrt"}, IR_INTRIN_MATH, 1, rsqrt, NULL, "(1.0$f / rxc_sqrt$f(@0))", false, NULL},
    {{"tir.tanh"}, IR_INTRIN_MATH, 1, tanh, NULL, "rxc_tanh$f(@0)", true, NULL},
    /* clang-format off */
    {{"tir.sigmoid"}, IR_INTRIN_MATH, 1, sigmoid, NULL,
     "(1.0$f / (1.0$f + rxc_exp$f(-@0)))", false, NULL},
    /* clang-format on */
    {{"tir.erf"}, IR_INTRIN_MATH, 1, erf, NULL, "rxc_erf$f(@0)", true, NULL},
    {{"tir.fabs"}, IR_INTRIN_MATH, 1, fabs, NULL, "rxc_fabs$f(@0)", true, NULL},
    {{"tir.floor"}, IR_INTRIN_MATH, 1, floor, NULL, "rxc_floor$f(@0)", true, NULL},
    {{"tir.ceil"}, IR_INTRIN_MATH, 1, ceil, NULL, "rxc_ceil$f(@0)", true, NULL},
    {{"tir.round"}, IR_INTRIN_MATH, 1, nearbyint, NULL, "rxc_nearbyint$f(@0)", true, NULL},
    {{"tir.nearbyint"}, IR_INTRIN_MATH, 1, nearbyint, NULL, "rxc_nearbyint$f(@0)", true, NULL},
    {{"tir.trunc"}, IR_INTRIN_MATH, 1, trunc, NULL, "rxc_trunc$f(@0)", true, NULL},
    {{"tir.sin"}, IR_INTRIN_MATH, 1, sin, NULL, "rxc_sin$f(@0)", true, NULL},
    {{"tir.cos"}, IR_INTRIN_MATH, 1, cos, NULL, "rxc_cos$f(@0)", true, NULL},
    {{"tir.tan"}, IR_INTRIN_MATH, 1, tan, NULL, "rxc_tan$f(@0)", true, NULL},
    {{"tir.asin"}, IR_INTRIN_MATH, 1, asin, NULL, "rxc_asin$f(@0)", true, NULL},
    {{"tir.acos"}, IR_INTRIN_MATH, 1, acos, NULL, "rxc_acos$f(@0)", true, NULL},
    {{"tir.atan"}, IR_INTRIN_MATH, 1, atan, NULL, "rxc_atan$f(@0)", true, NULL},
    {{"tir.sinh"}, IR_INTRIN_MATH, 1, sinh, NULL, "rxc_sinh$f(@0)", true, NULL},
    {{"tir.cosh"}, IR_INTRIN_MATH, 1, cosh, NULL, "rxc_cosh$f(@0)", true, NULL},
    {{"tir.asinh"}, IR_INTRIN_MATH, 1, asinh, NULL, "rxc_asinh$f(@0)", true, NULL},
    {{"tir.acosh"}, IR_INTRIN_MATH, 1, acosh, NULL, "rxc_acosh$f(@0)", true, NULL},
    {{"tir.atanh"}, IR_INTRIN_MATH, 1, atanh, NULL, "rxc_atanh$f(@0)", true, NULL},
    {{"tir.atan2"}, IR_INTRIN_MATH, 2, NULL, atan2, "rxc_atan2$f(@0, @1)", true, NULL},
    {{"tir.fmod"}, IR_INTRIN_MATH, 2, NULL, fmod, "rxc_fmod$f(@0, @1)", true, NULL},
    /* on integers the code generator's helpers rxc_abs_<type>, rxc_pow_<type> */
    {{"tir.abs"}, IR_INTRIN_ABS, 1, fabs, NULL, "rxc_fabs$f(@0)", true, NULL},
    {{"tir.pow", "tir.power"}, IR_INTRIN_POW, 2, NULL, pow, "rxc_pow$f(@0, @1)", true, NULL},
    /* x != x is IEEE's NaN test; isinf and isfinite are helpers (rxc_isinf_f32) */
    {{"tir.isnan"}, IR_INTRIN_ISNAN, 1, NULL, NULL, "(@0 != @0)", false, NULL},
    {{"tir.isinf"}, IR_INTRIN_ISINF, 1, NULL, NULL, NULL, false, NULL},
    {{"tir.isfinite"}, IR_INTRIN_ISFINITE, 1, NULL, NULL, NULL, false, NULL},
    /* integer promotion makes these exact in C for every width; ops/
     * shifts unsigned values by amounts within the width only */
    {{"tir.bitwise_and"}, IR_INTRIN_BITS, 2, NULL, NULL, "(@0 & @1)", false, bitwise_and},
    {{"tir.bitwise_or"}, IR_INTRIN_BITS, 2, NULL, NULL, "(@0 | @1)", false, bitwise_or},
    {{"tir.bitwise_xor"}, IR_INTRIN_BITS, 2, NULL, NULL, "(@0 ^ @1)", false, bitwise_xor},
    {{"tir.bitwise_not"}, IR_INTRIN_BITS, 1, NULL, NULL, "(~@0)", false, bitwise_not},
    {{"tir.shift_left"}, IR_INTRIN_BITS, 2, NULL, NULL, "(@0 << @1)", false, shift_left},
    {{"tir.shift_right"}, IR_INTRIN_BITS, 2, NULL, NULL, "(@0 >> @1)", false, shift_right},
    {{"tir.likely"}, IR_INTRIN_LIKELY, 1, NULL, NULL, "@0", false, NULL},
    {{"tir.if_then_else"}, IR_INTRIN_IF_THEN_ELSE, 3, NULL, NULL, "(@0 ? @1 : @2)", false, NULL},
    /* the argument names the dtype, which the call's dtype already says */
    {{"tir.max_value"}, IR_INTRIN_MAX_VALUE, -1, NULL, NULL, NULL, false, NULL},
    {{"tir.min_value"}, IR_INTRIN_MIN_VALUE, -1, NULL, NULL, NULL, false, NULL},
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
