/*
 * arith_range.c - integer intervals of expressions under the variables'
 * bounds.
 *
 * Interval arithmetic over the canonical polynomial: each monomial's atoms
 * bounded (variables by their recorded bounds and their dtype, floordiv,
 * floormod, min, max, casts and selects from their operands), powers of one
 * atom bounded as powers (so n*n >= 0), then scaled and summed.
 *
 * Key idea: endpoints are computed in an extended domain with -inf and +inf;
 * an int64 overflow turns the endpoint into the infinity on its side, so an
 * overflowing bound is reported as no bound, never as a wrapped number.
 */
#include <stdint.h>

#include "arith_int.h"

/* An endpoint: a finite value, or -inf / +inf. */
typedef struct {
  int64_t v; /* when inf == 0 */
  int inf;   /* -1: -inf, +1: +inf, 0: finite */
} Ext;

int64_t
ir_arith_floordiv(int64_t a, int64_t b)
{
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0)))
    q--;
  return q;
}

int64_t
ir_arith_floormod(int64_t a, int64_t b)
{
  if (b == -1)
    return 0; /* avoids INT64_MIN % -1 */
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

static Interval
unbounded(void)
{
  return (Interval){0, 0, false, false};
}

static Interval
point(int64_t v)
{
  return (Interval){v, v, true, true};
}

static Ext
ext_lo(Interval a)
{
  return a.has_lo ? (Ext){a.lo, 0} : (Ext){0, -1};
}

static Ext
ext_hi(Interval a)
{
  return a.has_hi ? (Ext){a.hi, 0} : (Ext){0, 1};
}

static int
ext_sign(Ext x)
{
  return x.inf ? x.inf : (x.v > 0) - (x.v < 0);
}

static int
ext_cmp(Ext a, Ext b)
{
  if (a.inf != b.inf)
    return a.inf < b.inf ? -1 : 1;
  return a.inf ? 0 : (a.v > b.v) - (a.v < b.v);
}

/* 0 * inf is 0: a bound times zero is zero whatever the bound. */
static Ext
ext_mul(Ext a, Ext b)
{
  int sa = ext_sign(a), sb = ext_sign(b);
  int64_t r;
  if (sa == 0 || sb == 0)
    return (Ext){0, 0};
  if (a.inf || b.inf || __builtin_mul_overflow(a.v, b.v, &r))
    return (Ext){0, sa * sb};
  return (Ext){r, 0};
}

/* floor(a / b) for finite b != 0. */
static Ext
ext_floordiv(Ext a, int64_t b)
{
  if (a.inf)
    return (Ext){0, b > 0 ? a.inf : -a.inf};
  if (b == -1)
    return a.v == INT64_MIN ? (Ext){0, 1} : (Ext){-a.v, 0};
  return (Ext){ir_arith_floordiv(a.v, b), 0};
}

/* The interval from extended endpoints; an infinite endpoint (of either
 * sign, +inf as a lower end coming from an overflow) is no bound. */
static Interval
from_ext(Ext lo, Ext hi)
{
  Interval r = unbounded();
  if (!lo.inf)
    r.lo = lo.v, r.has_lo = true;
  if (!hi.inf)
    r.hi = hi.v, r.has_hi = true;
  return r;
}

static Interval
from_candidates(const Ext *c, int n)
{
  Ext lo = c[0], hi = c[0];
  for (int i = 1; i < n; i++) {
    if (ext_cmp(c[i], lo) < 0)
      lo = c[i];
    if (ext_cmp(c[i], hi) > 0)
      hi = c[i];
  }
  return from_ext(lo, hi);
}

static Interval
iv_add(Interval a, Interval b)
{
  Interval r = unbounded();
  r.has_lo = a.has_lo && b.has_lo && !__builtin_add_overflow(a.lo, b.lo, &r.lo);
  r.has_hi = a.has_hi && b.has_hi && !__builtin_add_overflow(a.hi, b.hi, &r.hi);
  return r;
}

static Interval
iv_neg(Interval a)
{
  Interval r = unbounded();
  r.has_lo = a.has_hi && a.hi != INT64_MIN;
  r.lo = r.has_lo ? -a.hi : 0;
  r.has_hi = a.has_lo && a.lo != INT64_MIN;
  r.hi = r.has_hi ? -a.lo : 0;
  return r;
}

static Interval
iv_mul(Interval a, Interval b)
{
  Ext c[4] = {ext_mul(ext_lo(a), ext_lo(b)), ext_mul(ext_lo(a), ext_hi(b)),
              ext_mul(ext_hi(a), ext_lo(b)), ext_mul(ext_hi(a), ext_hi(b))};
  return from_candidates(c, 4);
}

static Ext
ext_pow(Ext x, int d)
{
  Ext r = x;
  for (int i = 1; i < d; i++)
    r = ext_mul(r, x);
  return r;
}

/* a^d, tighter than repeated products: an even power is never negative. */
static Interval
iv_pow(Interval a, int d)
{
  Ext lo = ext_lo(a), hi = ext_hi(a);
  Ext plo = ext_pow(lo, d), phi = ext_pow(hi, d);
  if (d % 2 == 1 || ext_sign(lo) >= 0)
    return from_ext(plo, phi);
  if (ext_sign(hi) <= 0)
    return from_ext(phi, plo);
  return from_ext((Ext){0, 0}, ext_cmp(plo, phi) > 0 ? plo : phi);
}

/* floor(a / b): monotone in each operand while b keeps its sign, so the
 * extremes are at the corners.  A divisor that may be 0 or is unbounded
 * gives no bound. */
static Interval iv_union(Interval a, Interval b);

static Interval
iv_floordiv(Interval a, Interval b)
{
  /* a divisor that may be 0 at one end: x // 0 is 0 in generated code
   * (codegen's rxc_floordiv; the interpreter refuses it), so the range is
   * the quotients by the other divisors and 0 */
  Interval zero = {0, 0, true, true};
  if (b.has_lo && b.has_hi && b.lo == 0 && b.hi == 0)
    return zero;
  if (b.has_lo && b.lo == 0 && (!b.has_hi || b.hi > 0))
    return iv_union(iv_floordiv(a, (Interval){1, b.hi, true, b.has_hi}), zero);
  if (b.has_hi && b.hi == 0 && (!b.has_lo || b.lo < 0))
    return iv_union(iv_floordiv(a, (Interval){b.lo, -1, b.has_lo, true}), zero);
  if (!b.has_lo || !b.has_hi || (b.lo <= 0 && b.hi >= 0))
    return unbounded();
  Ext c[4] = {ext_floordiv(ext_lo(a), b.lo), ext_floordiv(ext_lo(a), b.hi),
              ext_floordiv(ext_hi(a), b.lo), ext_floordiv(ext_hi(a), b.hi)};
  return from_candidates(c, 4);
}

/* floormod(a, b) has the sign of b and |result| < |b|; by a positive
 * constant it is exact when a stays within one period. */
static Interval
iv_floormod(Interval a, Interval b)
{
  if (b.has_lo && b.lo > 0) {
    Interval r = {0, b.has_hi ? b.hi - 1 : 0, true, b.has_hi};
    if (b.has_hi && b.lo == b.hi && a.has_lo && a.has_hi &&
        ir_arith_floordiv(a.lo, b.lo) == ir_arith_floordiv(a.hi, b.lo))
      return (Interval){ir_arith_floormod(a.lo, b.lo), ir_arith_floormod(a.hi, b.lo), true, true};
    if (a.has_lo && a.lo >= 0 && a.has_hi && (!r.has_hi || a.hi < r.hi))
      r.hi = a.hi, r.has_hi = true; /* 0 <= a implies a mod b <= a */
    return r;
  }
  if (b.has_hi && b.hi < 0)
    return (Interval){b.has_lo ? b.lo + 1 : 0, 0, b.has_lo, true};
  return unbounded();
}

static Interval
iv_minmax(Interval a, Interval b, bool is_min)
{
  Interval r = unbounded();
  if (is_min) {
    r.has_lo = a.has_lo && b.has_lo;
    r.lo = a.lo < b.lo ? a.lo : b.lo;
    r.has_hi = a.has_hi || b.has_hi;
    r.hi = !b.has_hi || (a.has_hi && a.hi < b.hi) ? a.hi : b.hi;
  } else {
    r.has_hi = a.has_hi && b.has_hi;
    r.hi = a.hi > b.hi ? a.hi : b.hi;
    r.has_lo = a.has_lo || b.has_lo;
    r.lo = !b.has_lo || (a.has_lo && a.lo > b.lo) ? a.lo : b.lo;
  }
  return r;
}

static Interval
iv_union(Interval a, Interval b)
{
  Interval r = unbounded();
  r.has_lo = a.has_lo && b.has_lo;
  r.lo = a.lo < b.lo ? a.lo : b.lo;
  r.has_hi = a.has_hi && b.has_hi;
  r.hi = a.hi > b.hi ? a.hi : b.hi;
  return r;
}

static Interval
iv_intersect(Interval a, Interval b)
{
  if (b.has_lo && (!a.has_lo || b.lo > a.lo))
    a.lo = b.lo, a.has_lo = true;
  if (b.has_hi && (!a.has_hi || b.hi < a.hi))
    a.hi = b.hi, a.has_hi = true;
  return a;
}

/* Does every value of a fit type range b?  a must be finite: an unbounded
 * side of b means "to the end of int64", while an unbounded side of a may
 * reach past it (a uint64 above INT64_MAX). */
static bool
iv_fits(Interval a, Interval b)
{
  return a.has_lo && a.has_hi && (!b.has_lo || a.lo >= b.lo) && (!b.has_hi || a.hi <= b.hi);
}

/* The values a type can hold; int64 and wider are unbounded here because
 * INT64_MIN / INT64_MAX stand for "no bound". */
Interval
ir_arith_interval_dtype(IrDType t)
{
  if (t.lanes != 1)
    return unbounded();
  if (t.code == IR_DT_BOOL)
    return (Interval){0, 1, true, true};
  if (t.code == IR_DT_INT && t.bits < 64)
    return (Interval){-((int64_t)1 << (t.bits - 1)), ((int64_t)1 << (t.bits - 1)) - 1, true, true};
  if (t.code == IR_DT_UINT && t.bits < 63)
    return (Interval){0, ((int64_t)1 << t.bits) - 1, true, true};
  if (t.code == IR_DT_UINT)
    return (Interval){0, 0, true, false};
  return unbounded();
}

/* A variable's recorded bounds, within what its dtype holds.  Contradictory
 * bounds (lo > hi) give no information rather than vacuous proofs. */
static Interval
range_var(IrArith *a, const IrPrimExpr *var)
{
  Interval r = unbounded();
  for (int i = 0; i < a->nvars; i++) {
    if (a->vars[i].var != var || a->vars[i].lo > a->vars[i].hi)
      continue;
    r.has_lo = a->vars[i].lo != INT64_MIN;
    r.lo = a->vars[i].lo;
    r.has_hi = a->vars[i].hi != INT64_MAX;
    r.hi = a->vars[i].hi;
  }
  return iv_intersect(r, ir_arith_interval_dtype(var->dtype));
}

static Interval
range_cast(IrArith *a, const IrPrimExpr *e)
{
  Interval holds = ir_arith_interval_dtype(e->dtype);
  IrDType s = e->u.bin.a->dtype;
  if (s.lanes != 1 || (s.code != IR_DT_INT && s.code != IR_DT_UINT && s.code != IR_DT_BOOL))
    return holds;
  Interval r = ir_arith_range_expr(a, e->u.bin.a);
  bool integer_target = e->dtype.code == IR_DT_INT || e->dtype.code == IR_DT_UINT;
  return integer_target && iv_fits(r, holds) ? r : holds;
}

static Interval
range_atom_uncached(IrArith *a, const IrPrimExpr *e)
{
  Interval x = unbounded(), y = unbounded();
  bool wraps = e->dtype.code != IR_DT_INT; /* unsigned + - * wrap around */
  if (wraps && (e->kind == IR_PE_ADD || e->kind == IR_PE_SUB || e->kind == IR_PE_MUL))
    return ir_arith_interval_dtype(e->dtype);
  if (e->kind >= IR_PE_ADD && e->kind <= IR_PE_MAX) {
    x = ir_arith_range_expr(a, e->u.bin.a);
    y = ir_arith_range_expr(a, e->u.bin.b);
  }
  switch (e->kind) {
  case IR_PE_INT: /* a uint64 above INT64_MAX is stored negative */
    return e->dtype.code == IR_DT_UINT && e->u.int_value < 0 ? ir_arith_interval_dtype(e->dtype)
                                                             : point(e->u.int_value);
  case IR_PE_VAR:
    return range_var(a, e);
  case IR_PE_ADD:
    return iv_add(x, y);
  case IR_PE_SUB:
    return iv_add(x, iv_neg(y));
  case IR_PE_MUL:
    return iv_mul(x, y);
  case IR_PE_FLOORDIV:
    return iv_floordiv(x, y);
  case IR_PE_FLOORMOD:
    return iv_floormod(x, y);
  case IR_PE_MIN:
  case IR_PE_MAX:
    return iv_minmax(x, y, e->kind == IR_PE_MIN);
  case IR_PE_CAST:
    return range_cast(a, e);
  case IR_PE_SELECT:
    return iv_intersect(
        iv_union(ir_arith_range_expr(a, e->u.select.a), ir_arith_range_expr(a, e->u.select.b)),
        ir_arith_interval_dtype(e->dtype));
  default:
    return ir_arith_interval_dtype(e->dtype);
  }
}

static Interval
range_atom(IrArith *a, const IrPrimExpr *e)
{
  if (e->kind == IR_PE_INT || e->kind == IR_PE_VAR)
    return range_atom_uncached(a, e);
  ArithMemo m;
  if (ir_arith_memo_get(a, e, &m) && m.has_range)
    return m.range;
  Interval r = range_atom_uncached(a, e);
  ir_arith_memo_put_range(a, e, r);
  return r;
}

Interval
ir_arith_range_poly(IrArith *a, const Poly *p)
{
  Interval sum = point(0);
  for (int i = 0; i < p->n; i++) {
    const Term *t = &p->terms[i];
    Interval term = point(t->coef);
    for (int j = 0; j < t->nfactors; j++)
      term = iv_mul(term, iv_pow(range_atom(a, t->factors[j].atom), t->factors[j].degree));
    sum = iv_add(sum, term);
  }
  return sum;
}

Interval
ir_arith_range_expr(IrArith *a, const IrPrimExpr *e)
{
  if (!ir_arith_is_int_type(e->dtype))
    return range_atom(a, e);
  Poly p = ir_arith_poly_of(a, e);
  return ir_arith_range_poly(a, &p);
}
