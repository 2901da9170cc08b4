/*
 * arith_int.h - what the files of the symbolic arithmetic share (arith.c,
 * arith_poly.c, arith_simplify.c, arith_range.c); no other file includes it.
 *
 * Values are mathematical integers: an expression means the integer its
 * operators compute without wrap-around.  Any int64 overflow met while
 * folding or bounding makes the result "not folded" or "unbounded", never a
 * wrapped number.
 */
#ifndef RXC_ARITH_INT_H
#define RXC_ARITH_INT_H

#include "ir.h"

typedef struct {
  const IrPrimExpr *var; /* IR_PE_VAR, by identity */
  int64_t lo, hi;        /* INT64_MIN / INT64_MAX: no bound on that side */
} ArithVarBound;

/* A set of integers [lo, hi]; a side without has_* is unbounded. */
typedef struct {
  int64_t lo, hi;
  bool has_lo, has_hi;
} Interval;

typedef struct ArithMemo ArithMemo;

struct IrArith {
  IrCtx *ctx;
  ArithVarBound *vars; /* arena array; grows by copying */
  int nvars;
  int cap;
  IrMap memo; /* IrPrimExpr* -> ArithMemo* (arena), by address */
};

/* One factor atom^degree of a monomial. */
typedef struct {
  const IrPrimExpr *atom; /* a var, or a canonical expression opaque to the algebra */
  int degree;             /* >= 1 */
} Factor;

typedef struct {
  int64_t coef;    /* never 0 in a normalized polynomial */
  Factor *factors; /* sorted by ir_arith_expr_cmp, atoms distinct; NULL: constant */
  int nfactors;
} Term;

/* A sum of terms in canonical order (higher degree first, constant last). */
typedef struct {
  Term *terms; /* arena array */
  int n;
} Poly;

/* What is known of one expression under the current bounds: its canonical
 * polynomial, and (for an atom) its range. */
struct ArithMemo {
  bool has_poly, has_range;
  Poly poly;
  Interval range;
};

/* arith_poly.c */
int ir_arith_expr_cmp(const IrPrimExpr *a, const IrPrimExpr *b);
Poly ir_arith_poly_const(IrCtx *ctx, int64_t v);
Poly ir_arith_poly_atom(IrCtx *ctx, const IrPrimExpr *atom);
bool ir_arith_poly_is_const(const Poly *p, int64_t *v);
/* The arithmetic below returns false on int64 overflow (or on a result too
 * large to be worth keeping); *out is then unspecified. */
bool ir_arith_poly_add(IrCtx *ctx, const Poly *a, const Poly *b, Poly *out);
bool ir_arith_poly_sub(IrCtx *ctx, const Poly *a, const Poly *b, Poly *out);
bool ir_arith_poly_scale(IrCtx *ctx, const Poly *a, int64_t c, Poly *out);
bool ir_arith_poly_mul(IrCtx *ctx, const Poly *a, const Poly *b, Poly *out);
/* Sorts terms, merges like ones and drops zeros, in place. */
bool ir_arith_poly_normalize(Term *terms, int n, Poly *out);
IrPrimExpr *ir_arith_poly_to_expr(IrCtx *ctx, const Poly *p, IrDType t);

/* arith_simplify.c */
bool ir_arith_is_int_type(IrDType t);
Poly ir_arith_poly_of(IrArith *a, const IrPrimExpr *e);

/* arith_range.c */
int64_t ir_arith_floordiv(int64_t a, int64_t b); /* b != 0; not INT64_MIN / -1 */
int64_t ir_arith_floormod(int64_t a, int64_t b); /* b != 0 */
Interval ir_arith_interval_dtype(IrDType t);
Interval ir_arith_range_poly(IrArith *a, const Poly *p);
Interval ir_arith_range_expr(IrArith *a, const IrPrimExpr *e);

/* arith.c */
/* The memo makes simplification linear in the DAG instead of exponential
 * (relaxations re-simplify operands).  It is cleared whenever a bound
 * changes.  Lookups copy out: the table moves when it grows. */
bool ir_arith_memo_get(const IrArith *a, const IrPrimExpr *e, ArithMemo *out);
void ir_arith_memo_put_poly(IrArith *a, const IrPrimExpr *e, const Poly *p);
void ir_arith_memo_put_range(IrArith *a, const IrPrimExpr *e, Interval r);
/* Decides p <= 0 (or p < 0 with strict): TRUE, FALSE or UNKNOWN. */
IrProof ir_arith_poly_le_zero(IrArith *a, const Poly *p, bool strict);

#endif
