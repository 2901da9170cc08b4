/*
 * arith_poly.c - polynomials over atoms: the canonical form of integer
 * expressions.
 *
 * A polynomial is a sum of terms coef * a1^d1 * ... * ak^dk with int64
 * coefficients.  An atom is a variable or an expression the algebra does not
 * see into (floordiv, min, a narrowing cast, ...), itself already canonical.
 *
 * Key idea: a total order on atoms that follows structure and names, not
 * addresses (only distinct variables with equal name and dtype fall back to
 * their addresses).  Terms sorted by it with like terms merged give one form
 * per polynomial, so equal polynomials rebuild into structurally equal
 * expressions.  Every coefficient operation is checked: on overflow the
 * operation fails and the caller keeps the expression unfolded.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arith_int.h"

enum {
  MAX_TERMS = 256, /* a bigger product stays unexpanded */
  MAX_DEGREE = 64, /* likewise for a higher power of one atom */
};

static int
cmp_i64(int64_t a, int64_t b)
{
  return (a > b) - (a < b);
}

static int
dtype_cmp(IrDType a, IrDType b)
{
  if (a.code != b.code)
    return a.code < b.code ? -1 : 1;
  if (a.bits != b.bits)
    return a.bits < b.bits ? -1 : 1;
  return cmp_i64(a.lanes, b.lanes);
}

static int
address_cmp(const void *a, const void *b)
{
  return (uintptr_t)a < (uintptr_t)b ? -1 : (uintptr_t)a > (uintptr_t)b;
}

/* A total order on expressions: by kind, then by contents.  Kinds whose
 * contents the arithmetic never inspects (loads, calls, ...) are ordered by
 * address, so two copies of one load are two atoms (sound, only weaker). */
int
ir_arith_expr_cmp(const IrPrimExpr *a, const IrPrimExpr *b)
{
  if (a == b)
    return 0;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  int c;
  switch (a->kind) {
  case IR_PE_INT:
    c = cmp_i64(a->u.int_value, b->u.int_value);
    return c ? c : dtype_cmp(a->dtype, b->dtype);
  case IR_PE_VAR:
    c = strcmp(a->u.var, b->u.var);
    if (!c)
      c = dtype_cmp(a->dtype, b->dtype);
    return c ? c : address_cmp(a, b);
  case IR_PE_CAST:
    c = dtype_cmp(a->dtype, b->dtype);
    return c ? c : ir_arith_expr_cmp(a->u.bin.a, b->u.bin.a);
  default:
    break;
  }
  if (a->kind >= IR_PE_ADD && a->kind <= IR_PE_NOT) {
    c = ir_arith_expr_cmp(a->u.bin.a, b->u.bin.a);
    if (!c && a->u.bin.b && b->u.bin.b)
      c = ir_arith_expr_cmp(a->u.bin.b, b->u.bin.b);
    return c ? c : dtype_cmp(a->dtype, b->dtype);
  }
  return address_cmp(a, b);
}

static int
term_degree(const Term *t)
{
  int d = 0;
  for (int i = 0; i < t->nfactors; i++)
    d += t->factors[i].degree;
  return d;
}

/* Order of monomials: higher total degree first (so the constant is last),
 * then factor by factor. */
static int
monomial_cmp(const Term *a, const Term *b)
{
  int da = term_degree(a), db = term_degree(b);
  if (da != db)
    return da > db ? -1 : 1;
  int n = a->nfactors < b->nfactors ? a->nfactors : b->nfactors;
  for (int i = 0; i < n; i++) {
    int c = ir_arith_expr_cmp(a->factors[i].atom, b->factors[i].atom);
    if (c)
      return c;
    if (a->factors[i].degree != b->factors[i].degree)
      return a->factors[i].degree > b->factors[i].degree ? -1 : 1;
  }
  return cmp_i64(a->nfactors, b->nfactors);
}

static int
term_sort_cmp(const void *a, const void *b)
{
  return monomial_cmp(a, b);
}

bool
ir_arith_poly_normalize(Term *terms, int n, Poly *out)
{
  if (n > 1)
    qsort(terms, (size_t)n, sizeof *terms, term_sort_cmp);
  int m = 0;
  for (int i = 0; i < n; i++) {
    if (m > 0 && monomial_cmp(&terms[m - 1], &terms[i]) == 0) {
      if (__builtin_add_overflow(terms[m - 1].coef, terms[i].coef, &terms[m - 1].coef))
        return false;
    } else {
      terms[m++] = terms[i];
    }
  }
  int k = 0;
  for (int i = 0; i < m; i++)
    if (terms[i].coef != 0)
      terms[k++] = terms[i];
  out->terms = terms;
  out->n = k;
  return true;
}

static Term *
terms_new(IrCtx *ctx, int n)
{
  return ir_alloc(ctx, sizeof(Term) * (size_t)(n > 0 ? n : 1));
}

Poly
ir_arith_poly_const(IrCtx *ctx, int64_t v)
{
  Poly p = {terms_new(ctx, 1), 0};
  if (v != 0) {
    p.terms[0].coef = v;
    p.n = 1;
  }
  return p;
}

/* A literal atom becomes a constant, so folding sees through it. */
Poly
ir_arith_poly_atom(IrCtx *ctx, const IrPrimExpr *atom)
{
  if (atom->kind == IR_PE_INT && !(atom->dtype.code == IR_DT_UINT && atom->u.int_value < 0))
    return ir_arith_poly_const(ctx, atom->u.int_value);
  Poly p = {terms_new(ctx, 1), 1};
  p.terms[0].coef = 1;
  p.terms[0].factors = ir_alloc(ctx, sizeof(Factor));
  p.terms[0].factors[0].atom = atom;
  p.terms[0].factors[0].degree = 1;
  p.terms[0].nfactors = 1;
  return p;
}

bool
ir_arith_poly_is_const(const Poly *p, int64_t *v)
{
  if (p->n == 0) {
    *v = 0;
    return true;
  }
  if (p->n == 1 && p->terms[0].nfactors == 0) {
    *v = p->terms[0].coef;
    return true;
  }
  return false;
}

bool
ir_arith_poly_add(IrCtx *ctx, const Poly *a, const Poly *b, Poly *out)
{
  if (a->n + b->n > MAX_TERMS)
    return false;
  Term *t = terms_new(ctx, a->n + b->n);
  memcpy(t, a->terms, sizeof *t * (size_t)a->n);
  memcpy(t + a->n, b->terms, sizeof *t * (size_t)b->n);
  return ir_arith_poly_normalize(t, a->n + b->n, out);
}

bool
ir_arith_poly_scale(IrCtx *ctx, const Poly *a, int64_t c, Poly *out)
{
  Term *t = terms_new(ctx, a->n);
  for (int i = 0; i < a->n; i++) {
    t[i] = a->terms[i];
    if (__builtin_mul_overflow(a->terms[i].coef, c, &t[i].coef))
      return false;
  }
  return ir_arith_poly_normalize(t, a->n, out);
}

bool
ir_arith_poly_sub(IrCtx *ctx, const Poly *a, const Poly *b, Poly *out)
{
  Poly nb;
  return ir_arith_poly_scale(ctx, b, -1, &nb) && ir_arith_poly_add(ctx, a, &nb, out);
}

/* The product of two monomials: factor lists merged, degrees of equal atoms
 * added. */
static bool
monomial_mul(IrCtx *ctx, const Term *a, const Term *b, Term *out)
{
  if (__builtin_mul_overflow(a->coef, b->coef, &out->coef))
    return false;
  Factor *f = ir_alloc(ctx, sizeof *f * (size_t)(a->nfactors + b->nfactors + 1));
  int i = 0, j = 0, n = 0;
  while (i < a->nfactors || j < b->nfactors) {
    int c = i == a->nfactors   ? 1
            : j == b->nfactors ? -1
                               : ir_arith_expr_cmp(a->factors[i].atom, b->factors[j].atom);
    if (c < 0) {
      f[n++] = a->factors[i++];
    } else if (c > 0) {
      f[n++] = b->factors[j++];
    } else {
      f[n] = a->factors[i++];
      f[n].degree += b->factors[j++].degree;
      if (f[n++].degree > MAX_DEGREE)
        return false;
    }
  }
  out->factors = n ? f : NULL;
  out->nfactors = n;
  return true;
}

bool
ir_arith_poly_mul(IrCtx *ctx, const Poly *a, const Poly *b, Poly *out)
{
  if ((int64_t)a->n * b->n > MAX_TERMS)
    return false;
  Term *t = terms_new(ctx, a->n * b->n);
  int n = 0;
  for (int i = 0; i < a->n; i++)
    for (int j = 0; j < b->n; j++)
      if (!monomial_mul(ctx, &a->terms[i], &b->terms[j], &t[n++]))
        return false;
  return ir_arith_poly_normalize(t, n, out);
}

/* --- back to expressions -------------------------------------------- */

/* An atom in a context of type t: a narrower integer atom is widened with a
 * cast (which simplification sees through again), anything else is used as
 * it is. */
static IrPrimExpr *
atom_expr(IrCtx *ctx, const IrPrimExpr *atom, IrDType t)
{
  IrPrimExpr *e = (IrPrimExpr *)atom;
  if (!ir_dtype_eq(atom->dtype, t) && atom->dtype.bits < t.bits)
    e = ir_prim_cast(ctx, t, e);
  return e;
}

/* coef * monomial, printed the way TVM does: "n * m * 4". */
static IrPrimExpr *
term_expr(IrCtx *ctx, const Term *term, int64_t coef, IrDType t)
{
  IrPrimExpr *acc = NULL;
  for (int i = 0; i < term->nfactors; i++)
    for (int d = 0; d < term->factors[i].degree; d++) {
      IrPrimExpr *f = atom_expr(ctx, term->factors[i].atom, t);
      acc = acc ? ir_prim_bin(ctx, IR_PE_MUL, acc, f) : f;
    }
  if (!acc)
    return ir_prim_int(ctx, t, coef);
  if (coef != 1)
    acc = ir_prim_bin(ctx, IR_PE_MUL, acc, ir_prim_int(ctx, t, coef));
  return acc;
}

/* Terms in canonical order, left-associated; a negative coefficient after
 * the first term becomes a subtraction. */
IrPrimExpr *
ir_arith_poly_to_expr(IrCtx *ctx, const Poly *p, IrDType t)
{
  if (p->n == 0)
    return ir_prim_int(ctx, t, 0);
  IrPrimExpr *acc = term_expr(ctx, &p->terms[0], p->terms[0].coef, t);
  for (int i = 1; i < p->n; i++) {
    int64_t c = p->terms[i].coef;
    if (c < 0 && c != INT64_MIN)
      acc = ir_prim_bin(ctx, IR_PE_SUB, acc, term_expr(ctx, &p->terms[i], -c, t));
    else
      acc = ir_prim_bin(ctx, IR_PE_ADD, acc, term_expr(ctx, &p->terms[i], c, t));
  }
  return acc;
}
