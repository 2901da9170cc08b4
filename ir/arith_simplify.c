/*
 * arith_simplify.c - integer expressions to canonical polynomials.
 *
 * ir_arith_poly_of walks an expression bottom-up: + - * act on polynomials
 * (folding constants, collecting like terms, expanding products); floordiv
 * and floormod by a positive constant pull out the part the divisor divides
 * and fold what the bounds decide; min and max fold when the bounds order
 * their arguments; widening integer casts are transparent.  Whatever the
 * algebra cannot express becomes an atom whose operands are canonical.
 *
 * Key idea: an operation whose folding would overflow int64 is not folded;
 * it becomes an atom built from its canonical operands, so the result always
 * equals the input as a mathematical integer, never a wrapped value.
 */
#include <stdint.h>

#include "arith_int.h"

bool
ir_arith_is_int_type(IrDType t)
{
  return t.code == IR_DT_INT && t.lanes == 1;
}

static bool
is_integer_like(IrDType t)
{
  return t.lanes == 1 && (t.code == IR_DT_INT || t.code == IR_DT_UINT || t.code == IR_DT_BOOL);
}

/* The expression of a canonical polynomial, remembered as such so that
 * looking at it again (relaxations do) costs nothing. */
static IrPrimExpr *
canonical_expr(IrArith *a, const Poly *p, IrDType t)
{
  IrPrimExpr *e = ir_arith_poly_to_expr(a->ctx, p, t);
  ir_arith_memo_put_poly(a, e, p);
  return e;
}

/* A new atom built from canonical operands: its own canonical form. */
static Poly
atom_of(IrArith *a, IrPrimExpr *e)
{
  Poly p = ir_arith_poly_atom(a->ctx, e);
  ir_arith_memo_put_poly(a, e, &p);
  return p;
}

/* The expression kept as one atom, its operands in canonical form. */
static Poly
opaque_binary(IrArith *a, IrPrimKind kind, const Poly *x, const Poly *y, const IrPrimExpr *e)
{
  IrPrimExpr *ex = canonical_expr(a, x, e->u.bin.a->dtype);
  IrPrimExpr *ey = canonical_expr(a, y, e->u.bin.b->dtype);
  return atom_of(a, ir_prim_bin(a->ctx, kind, ex, ey));
}

static Poly
simplify_ring(IrArith *a, const IrPrimExpr *e)
{
  Poly x = ir_arith_poly_of(a, e->u.bin.a), y = ir_arith_poly_of(a, e->u.bin.b), r;
  bool ok = e->kind == IR_PE_ADD   ? ir_arith_poly_add(a->ctx, &x, &y, &r)
            : e->kind == IR_PE_SUB ? ir_arith_poly_sub(a->ctx, &x, &y, &r)
                                   : ir_arith_poly_mul(a->ctx, &x, &y, &r);
  return ok ? r : opaque_binary(a, e->kind, &x, &y, e);
}

static int64_t
gcd64(int64_t x, int64_t y) /* y > 0 */
{
  x = ir_arith_floormod(x, y);
  while (x) {
    int64_t t = y % x;
    y = x;
    x = t;
  }
  return y;
}

/* Divides p (every coefficient a multiple of g) by g in place of a copy. */
static Poly
poly_div_exact(IrCtx *ctx, const Poly *p, int64_t g)
{
  Poly out = {ir_alloc(ctx, sizeof(Term) * (size_t)(p->n ? p->n : 1)), p->n};
  for (int i = 0; i < p->n; i++) {
    out.terms[i] = p->terms[i];
    out.terms[i].coef /= g;
  }
  return out;
}

static int64_t
poly_gcd(const Poly *p, int64_t c)
{
  int64_t g = c;
  for (int i = 0; i < p->n; i++)
    g = gcd64(p->terms[i].coef, g);
  return g;
}

/* k when every value of p lies in [k*c, k*c + c - 1], i.e. floordiv(p, c)
 * is the constant k. */
static bool
quotient_is_const(IrArith *a, const Poly *p, int64_t c, int64_t *k)
{
  Interval r = ir_arith_range_poly(a, p);
  if (!r.has_lo || !r.has_hi)
    return false;
  *k = ir_arith_floordiv(r.lo, c);
  return *k == ir_arith_floordiv(r.hi, c);
}

static Poly floordiv_const(IrArith *a, const Poly *p, int64_t c, IrDType t);

/* floordiv(r, c) for r with no part divisible by c: reduced by the common
 * factor of r and c, folded when the bounds fix it, nested floordivs by
 * constants merged. */
static Poly
floordiv_rest(IrArith *a, const Poly *r, int64_t c, IrDType t)
{
  int64_t g = poly_gcd(r, c), k, cc;
  Poly rr = poly_div_exact(a->ctx, r, g);
  c /= g;
  if (quotient_is_const(a, &rr, c, &k))
    return ir_arith_poly_const(a->ctx, k);
  const IrPrimExpr *inner = rr.n == 1 && rr.terms[0].coef == 1 && rr.terms[0].nfactors == 1 &&
                                    rr.terms[0].factors[0].degree == 1
                                ? rr.terms[0].factors[0].atom
                                : NULL;
  int64_t d;
  if (inner && inner->kind == IR_PE_FLOORDIV && ir_prim_is_int(inner->u.bin.b, &d) && d > 0 &&
      !__builtin_mul_overflow(d, c, &cc)) {
    Poly x = ir_arith_poly_of(a, inner->u.bin.a);
    return floordiv_const(a, &x, cc, t);
  }
  IrPrimExpr *q =
      ir_prim_bin(a->ctx, IR_PE_FLOORDIV, canonical_expr(a, &rr, t), ir_prim_int(a->ctx, t, c));
  return atom_of(a, q);
}

/* floordiv(p, c), c > 1: p = c*q + r where q gets every term whose
 * coefficient c divides and the floor quotient of the constant; then
 * floordiv(p, c) = q + floordiv(r, c) exactly.  Returns an atom of the
 * unsplit division when a step would overflow. */
static Poly
floordiv_const(IrArith *a, const Poly *p, int64_t c, IrDType t)
{
  Term *qt = ir_alloc(a->ctx, sizeof(Term) * (size_t)(p->n + 1));
  Term *rt = ir_alloc(a->ctx, sizeof(Term) * (size_t)(p->n + 1));
  int nq = 0, nr = 0;
  bool rest_varies = false;
  for (int i = 0; i < p->n; i++) {
    Term term = p->terms[i];
    if (term.nfactors == 0) {
      qt[nq] = term;
      qt[nq++].coef = ir_arith_floordiv(term.coef, c);
      rt[nr] = term;
      rt[nr++].coef = ir_arith_floormod(term.coef, c);
    } else if (term.coef % c == 0) {
      qt[nq] = term;
      qt[nq++].coef = term.coef / c;
    } else {
      rt[nr++] = term;
      rest_varies = true;
    }
  }
  Poly q, r, sum;
  ir_arith_poly_normalize(qt, nq, &q); /* cannot overflow: coefficients shrank */
  ir_arith_poly_normalize(rt, nr, &r);
  if (!rest_varies)
    return q;
  Poly rest = floordiv_rest(a, &r, c, t);
  if (ir_arith_poly_add(a->ctx, &q, &rest, &sum))
    return sum;
  IrPrimExpr *e =
      ir_prim_bin(a->ctx, IR_PE_FLOORDIV, canonical_expr(a, p, t), ir_prim_int(a->ctx, t, c));
  return atom_of(a, e);
}

/* floormod(p, c), c > 1: every coefficient reduced modulo c (the dropped
 * parts are multiples of c), then g * floormod(r / g, c / g) with g the
 * common factor, folded to g * (r/g - k*c/g) when the bounds fix the
 * quotient k. */
static Poly
floormod_const(IrArith *a, const Poly *p, int64_t c, IrDType t)
{
  Term *rt = ir_alloc(a->ctx, sizeof(Term) * (size_t)(p->n + 1));
  for (int i = 0; i < p->n; i++) {
    rt[i] = p->terms[i];
    rt[i].coef = ir_arith_floormod(rt[i].coef, c);
  }
  Poly r, out, shift;
  int64_t k, v;
  ir_arith_poly_normalize(rt, p->n, &r);
  if (ir_arith_poly_is_const(&r, &v))
    return r;
  int64_t g = poly_gcd(&r, c);
  Poly rr = poly_div_exact(a->ctx, &r, g);
  c /= g;
  int64_t kc;
  if (quotient_is_const(a, &rr, c, &k) && !__builtin_mul_overflow(k, -c, &kc)) {
    Poly shift_by = ir_arith_poly_const(a->ctx, kc);
    if (ir_arith_poly_add(a->ctx, &rr, &shift_by, &shift) &&
        ir_arith_poly_scale(a->ctx, &shift, g, &out))
      return out;
  }
  IrPrimExpr *m =
      ir_prim_bin(a->ctx, IR_PE_FLOORMOD, canonical_expr(a, &rr, t), ir_prim_int(a->ctx, t, c));
  Poly atom = atom_of(a, m);
  ir_arith_poly_scale(a->ctx, &atom, g, &out); /* 1 * g: no overflow */
  return out;
}

static Poly
simplify_div(IrArith *a, const IrPrimExpr *e)
{
  Poly x = ir_arith_poly_of(a, e->u.bin.a), y = ir_arith_poly_of(a, e->u.bin.b);
  bool is_mod = e->kind == IR_PE_FLOORMOD;
  int64_t c, k;
  if (!ir_arith_poly_is_const(&y, &c) || c == 0)
    return opaque_binary(a, e->kind, &x, &y, e);
  if (ir_arith_poly_is_const(&x, &k)) {
    if (c == -1) /* INT64_MIN / -1 overflows; x % -1 is 0 */
      return is_mod           ? ir_arith_poly_const(a->ctx, 0)
             : k == INT64_MIN ? opaque_binary(a, e->kind, &x, &y, e)
                              : ir_arith_poly_const(a->ctx, -k);
    return ir_arith_poly_const(a->ctx, is_mod ? ir_arith_floormod(k, c) : ir_arith_floordiv(k, c));
  }
  if (c == 1)
    return is_mod ? ir_arith_poly_const(a->ctx, 0) : x;
  if (c < 0)
    return opaque_binary(a, e->kind, &x, &y, e);
  return is_mod ? floormod_const(a, &x, c, e->dtype) : floordiv_const(a, &x, c, e->dtype);
}

/* min/max fold to one argument when the difference has a known sign; else
 * an atom with its arguments in canonical order (both are commutative). */
static Poly
simplify_minmax(IrArith *a, const IrPrimExpr *e)
{
  Poly x = ir_arith_poly_of(a, e->u.bin.a), y = ir_arith_poly_of(a, e->u.bin.b), d;
  bool is_min = e->kind == IR_PE_MIN;
  if (ir_arith_poly_sub(a->ctx, &x, &y, &d)) {
    if (ir_arith_poly_le_zero(a, &d, false) == IR_PROVE_TRUE)
      return is_min ? x : y;
    Poly nd;
    if (ir_arith_poly_scale(a->ctx, &d, -1, &nd) &&
        ir_arith_poly_le_zero(a, &nd, false) == IR_PROVE_TRUE)
      return is_min ? y : x;
  }
  IrPrimExpr *ex = canonical_expr(a, &x, e->dtype);
  IrPrimExpr *ey = canonical_expr(a, &y, e->dtype);
  if (ir_arith_expr_cmp(ex, ey) > 0) {
    IrPrimExpr *t = ex;
    ex = ey;
    ey = t;
  }
  return atom_of(a, ir_prim_bin(a->ctx, e->kind, ex, ey));
}

/* A cast to a signed integer type at least as wide as the operand's (or
 * strictly wider for unsigned and bool) keeps the value: transparent.  A
 * narrowing cast is folded on a literal that fits, else kept as an atom. */
static Poly
simplify_cast(IrArith *a, const IrPrimExpr *e)
{
  const IrPrimExpr *x = e->u.bin.a;
  IrDType t = e->dtype, s = x->dtype;
  if (!ir_arith_is_int_type(t) || !is_integer_like(s))
    return ir_arith_poly_atom(a->ctx, e);
  bool widening = s.code == IR_DT_INT ? s.bits <= t.bits : s.bits < t.bits;
  if (widening)
    return ir_arith_poly_of(a, x);
  IrPrimExpr *sx = ir_arith_simplify(a, x);
  Interval fits = ir_arith_interval_dtype(t);
  int64_t v;
  if (ir_prim_is_int(sx, &v) && s.code != IR_DT_UINT && (!fits.has_lo || v >= fits.lo) &&
      (!fits.has_hi || v <= fits.hi))
    return ir_arith_poly_const(a->ctx, v);
  return atom_of(a, ir_prim_cast(a->ctx, t, sx));
}

/* Truncating division of two literals, as C does it; false when undefined. */
static bool
fold_truncating(IrPrimKind kind, int64_t x, int64_t y, int64_t *out)
{
  if (y == 0 || (y == -1 && x == INT64_MIN))
    return false;
  *out = kind == IR_PE_DIV ? x / y : x % y;
  return true;
}

/* Everything else: the node with simplified operands, as one atom. */
static Poly
simplify_other(IrArith *a, const IrPrimExpr *e)
{
  IrCtx *ctx = a->ctx;
  if (e->kind >= IR_PE_ADD && e->kind <= IR_PE_OR && e->u.bin.b) {
    IrPrimExpr *x = ir_arith_simplify(a, e->u.bin.a), *y = ir_arith_simplify(a, e->u.bin.b);
    int64_t vx, vy, v;
    if ((e->kind == IR_PE_DIV || e->kind == IR_PE_MOD) && ir_prim_is_int(x, &vx) &&
        ir_prim_is_int(y, &vy) && fold_truncating(e->kind, vx, vy, &v))
      return ir_arith_poly_const(ctx, v);
    if (x == e->u.bin.a && y == e->u.bin.b)
      return ir_arith_poly_atom(ctx, e);
    return ir_arith_poly_atom(ctx, ir_prim_bin(ctx, e->kind, x, y));
  }
  if (e->kind == IR_PE_SELECT) {
    IrPrimExpr *c = ir_arith_simplify(a, e->u.select.cond);
    IrPrimExpr *x = ir_arith_simplify(a, e->u.select.a), *y = ir_arith_simplify(a, e->u.select.b);
    int64_t v;
    if (ir_prim_is_int(c, &v))
      return ir_arith_poly_of(a, v ? x : y);
    return ir_arith_poly_atom(ctx, ir_prim_select(ctx, c, x, y));
  }
  return ir_arith_poly_atom(ctx, e);
}

static Poly
poly_of_uncached(IrArith *a, const IrPrimExpr *e)
{
  if (e->kind == IR_PE_CAST)
    return simplify_cast(a, e);
  if (!ir_arith_is_int_type(e->dtype))
    return e->kind >= IR_PE_EQ && e->kind <= IR_PE_NOT
               ? ir_arith_poly_atom(a->ctx, ir_arith_simplify(a, e))
               : ir_arith_poly_atom(a->ctx, e);
  switch (e->kind) {
  case IR_PE_ADD:
  case IR_PE_SUB:
  case IR_PE_MUL:
    return simplify_ring(a, e);
  case IR_PE_FLOORDIV:
  case IR_PE_FLOORMOD:
    return simplify_div(a, e);
  case IR_PE_MIN:
  case IR_PE_MAX:
    return simplify_minmax(a, e);
  default:
    return simplify_other(a, e);
  }
}

/* The canonical polynomial of an integer expression.  Never fails: what the
 * algebra cannot express is an atom. */
Poly
ir_arith_poly_of(IrArith *a, const IrPrimExpr *e)
{
  if (e->kind == IR_PE_INT || e->kind == IR_PE_VAR)
    return ir_arith_poly_atom(a->ctx, e);
  ArithMemo m;
  if (ir_arith_memo_get(a, e, &m) && m.has_poly)
    return m.poly;
  Poly p = poly_of_uncached(a, e);
  ir_arith_memo_put_poly(a, e, &p);
  return p;
}
