/* test_arith.c - symbolic integer arithmetic: folding, canonical forms,
 * ranges, proofs (the memory planner's questions), overflow, bounds from
 * function attributes, and a randomized check against a reference
 * evaluator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../ir/ir.h"

/* --- helpers ---------------------------------------------------------- */

typedef struct {
  IrCtx *ctx;
  IrArith *a;
  IrPrimExpr *n, *m, *k; /* int64 vars */
} Fix;

static Fix
fix_new(void)
{
  Fix f;
  f.ctx = ir_ctx_new();
  f.a = ir_arith_new(f.ctx);
  f.n = ir_prim_var(f.ctx, ir_sym(f.ctx, "n"), IR_I64);
  f.m = ir_prim_var(f.ctx, ir_sym(f.ctx, "m"), IR_I64);
  f.k = ir_prim_var(f.ctx, ir_sym(f.ctx, "k"), IR_I64);
  return f;
}

static IrPrimExpr *
lit(Fix *f, int64_t v)
{
  return ir_prim_int(f->ctx, IR_I64, v);
}

static IrPrimExpr *
bin(Fix *f, IrPrimKind k, IrPrimExpr *x, IrPrimExpr *y)
{
  return ir_prim_bin(f->ctx, k, x, y);
}

#define ADD(x, y) bin(&f, IR_PE_ADD, x, y)
#define SUB(x, y) bin(&f, IR_PE_SUB, x, y)
#define MUL(x, y) bin(&f, IR_PE_MUL, x, y)
#define FDIV(x, y) bin(&f, IR_PE_FLOORDIV, x, y)
#define FMOD(x, y) bin(&f, IR_PE_FLOORMOD, x, y)
#define MIN(x, y) bin(&f, IR_PE_MIN, x, y)
#define MAX(x, y) bin(&f, IR_PE_MAX, x, y)
#define L(v) lit(&f, v)

/* Structural equality, free vars by identity (independent of equal.c). */
static bool
same(const IrPrimExpr *a, const IrPrimExpr *b)
{
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind || !ir_dtype_eq(a->dtype, b->dtype))
    return false;
  switch (a->kind) {
  case IR_PE_INT:
    return a->u.int_value == b->u.int_value;
  case IR_PE_VAR:
    return false; /* distinct pointers */
  case IR_PE_SELECT:
    return same(a->u.select.cond, b->u.select.cond) && same(a->u.select.a, b->u.select.a) &&
           same(a->u.select.b, b->u.select.b);
  default:
    return same(a->u.bin.a, b->u.bin.a) && same(a->u.bin.b, b->u.bin.b);
  }
}

static bool
is_lit(const IrPrimExpr *e, int64_t v)
{
  int64_t got;
  return ir_prim_is_int(e, &got) && got == v;
}

static int64_t
simplified_const(Fix *f, IrPrimExpr *e)
{
  IrPrimExpr *s = ir_arith_simplify(f->a, e);
  int64_t v = 0;
  assert_true(ir_prim_is_int(s, &v));
  return v;
}

/* --- a reference evaluator over mathematical integers ---------------- */

typedef struct {
  const IrPrimExpr *vars[3];
  int64_t vals[3];
  int nvars;
} Env;

static int64_t
floordiv_ref(int64_t a, int64_t b)
{
  int64_t q = a / b;
  return (a % b != 0 && ((a % b < 0) != (b < 0))) ? q - 1 : q;
}

/* Evaluates e; false when undefined (division by zero or int64 overflow). */
static bool
eval(const IrPrimExpr *e, const Env *env, int64_t *out)
{
  int64_t x = 0, y = 0;
  if (e->kind == IR_PE_INT) {
    *out = e->u.int_value;
    return true;
  }
  if (e->kind == IR_PE_VAR) {
    for (int i = 0; i < env->nvars; i++)
      if (env->vars[i] == e) {
        *out = env->vals[i];
        return true;
      }
    fail_msg("unbound var %s", e->u.var);
  }
  if (e->kind == IR_PE_CAST)
    return eval(e->u.bin.a, env, out);
  if (!eval(e->u.bin.a, env, &x) || !eval(e->u.bin.b, env, &y))
    return false;
  switch (e->kind) {
  case IR_PE_ADD:
    return !__builtin_add_overflow(x, y, out);
  case IR_PE_SUB:
    return !__builtin_sub_overflow(x, y, out);
  case IR_PE_MUL:
    return !__builtin_mul_overflow(x, y, out);
  case IR_PE_FLOORDIV:
    if (y == 0 || (y == -1 && x == INT64_MIN))
      return false;
    *out = floordiv_ref(x, y);
    return true;
  case IR_PE_FLOORMOD:
    if (y == 0 || (y == -1 && x == INT64_MIN))
      return false;
    *out = x - floordiv_ref(x, y) * y;
    return true;
  case IR_PE_MIN:
    *out = x < y ? x : y;
    return true;
  case IR_PE_MAX:
    *out = x > y ? x : y;
    return true;
  case IR_PE_LT:
    *out = x < y;
    return true;
  case IR_PE_LE:
    *out = x <= y;
    return true;
  case IR_PE_EQ:
    *out = x == y;
    return true;
  case IR_PE_NE:
    *out = x != y;
    return true;
  default:
    fail_msg("eval: kind %d", e->kind);
  }
  return false;
}

/* --- constant folding ------------------------------------------------- */

static void
test_constant_folding(void **state)
{
  (void)state;
  Fix f = fix_new();
  assert_int_equal(simplified_const(&f, MUL(ADD(L(3), L(4)), L(5))), 35);
  assert_int_equal(simplified_const(&f, SUB(L(3), L(10))), -7);
  assert_int_equal(simplified_const(&f, FDIV(L(-7), L(2))), -4);
  assert_int_equal(simplified_const(&f, FMOD(L(-7), L(2))), 1);
  assert_int_equal(simplified_const(&f, FDIV(L(7), L(-2))), -4);
  assert_int_equal(simplified_const(&f, FMOD(L(7), L(-2))), -1);
  assert_int_equal(simplified_const(&f, FDIV(L(-7), L(-2))), 3);
  assert_int_equal(simplified_const(&f, FMOD(L(-7), L(-2))), -1);
  assert_int_equal(simplified_const(&f, FDIV(L(6), L(3))), 2);
  assert_int_equal(simplified_const(&f, FDIV(L(-6), L(3))), -2);
  assert_int_equal(simplified_const(&f, MIN(L(3), L(-2))), -2);
  assert_int_equal(simplified_const(&f, MAX(L(3), L(-2))), 3);
  assert_int_equal(simplified_const(&f, FMOD(L(INT64_MIN), L(-1))), 0);
  /* division by zero is left alone */
  IrPrimExpr *z = ir_arith_simplify(f.a, FDIV(L(5), L(0)));
  assert_int_equal(z->kind, IR_PE_FLOORDIV);
  /* an int32 expression keeps its dtype */
  IrPrimExpr *s =
      ir_arith_simplify(f.a, ir_prim_bin(f.ctx, IR_PE_ADD, ir_prim_int(f.ctx, IR_I32, 2),
                                         ir_prim_int(f.ctx, IR_I32, 3)));
  assert_true(is_lit(s, 5));
  assert_true(ir_dtype_eq(s->dtype, IR_I32));
  ir_ctx_free(f.ctx);
}

static void
test_overflow_not_folded(void **state)
{
  (void)state;
  Fix f = fix_new();
  int64_t p62 = (int64_t)1 << 62;
  IrPrimExpr *big = MUL(L(p62), L(4));
  IrPrimExpr *s = ir_arith_simplify(f.a, big);
  assert_int_equal(s->kind, IR_PE_MUL); /* 2^64 does not fit: not folded */
  s = ir_arith_simplify(f.a, ADD(L(INT64_MAX), L(1)));
  assert_int_not_equal(s->kind, IR_PE_INT);
  s = ir_arith_simplify(f.a, FDIV(L(INT64_MIN), L(-1)));
  assert_int_not_equal(s->kind, IR_PE_INT);
  s = ir_arith_simplify(f.a, SUB(L(INT64_MIN), L(1)));
  assert_int_not_equal(s->kind, IR_PE_INT);

  /* n * 2^62 * 4 with n <= 10: wrapped arithmetic would say 0 */
  ir_arith_bound(f.a, f.n, 0, 10);
  IrPrimExpr *e = MUL(MUL(f.n, L(p62)), L(4));
  int64_t lo, hi;
  assert_false(ir_arith_range(f.a, e, &lo, &hi));
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_LE, e, L(16))), IR_PROVE_UNKNOWN);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_EQ, e, L(0))), IR_PROVE_UNKNOWN);
  s = ir_arith_simplify(f.a, e);
  assert_false(is_lit(s, 0));
  /* n * 2^62 with n <= 10 overflows for n >= 2: no upper bound */
  assert_false(ir_arith_range(f.a, MUL(f.n, L(p62)), &lo, &hi));
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_GE, MUL(f.n, L(p62)), L(0))), IR_PROVE_TRUE);
  /* a sum that overflows at the top of the bounds */
  IrPrimExpr *sum = ADD(MUL(f.n, L(INT64_MAX / 4)), L(INT64_MAX / 2));
  assert_false(ir_arith_range(f.a, sum, &lo, &hi));
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_LT, sum, L(0))), IR_PROVE_FALSE);
  ir_ctx_free(f.ctx);
}

/* --- canonical forms -------------------------------------------------- */

static void
test_like_terms(void **state)
{
  (void)state;
  Fix f = fix_new();
  /* 2*n + n - 3*n -> 0 */
  IrPrimExpr *e = SUB(ADD(MUL(L(2), f.n), f.n), MUL(L(3), f.n));
  assert_true(is_lit(ir_arith_simplify(f.a, e), 0));
  /* (n+1)*(n-1) -> n*n - 1 */
  IrPrimExpr *p = MUL(ADD(f.n, L(1)), SUB(f.n, L(1)));
  IrPrimExpr *want = SUB(MUL(f.n, f.n), L(1));
  assert_true(same(ir_arith_simplify(f.a, p), want));
  /* (4*n + 8) // 4 -> n + 2 */
  e = FDIV(ADD(MUL(L(4), f.n), L(8)), L(4));
  assert_true(same(ir_arith_simplify(f.a, e), ADD(f.n, L(2))));
  /* n * 3 - n -> n * 2 */
  assert_true(same(ir_arith_simplify(f.a, SUB(MUL(f.n, L(3)), f.n)), MUL(f.n, L(2))));
  /* 5 - n keeps the term first: n * -1 + 5 */
  assert_true(same(ir_arith_simplify(f.a, SUB(L(5), f.n)), ADD(MUL(f.n, L(-1)), L(5))));
  /* the input is not changed */
  IrPrimExpr *again = MUL(ADD(f.n, L(1)), SUB(f.n, L(1)));
  assert_true(same(p, again));
  ir_ctx_free(f.ctx);
}

static void
test_canonical_equal(void **state)
{
  (void)state;
  Fix f = fix_new();
  IrArith *a = f.a;
  /* (n + m) * 2 and m*2 + n + n */
  IrPrimExpr *x = MUL(ADD(f.n, f.m), L(2));
  IrPrimExpr *y = ADD(ADD(MUL(f.m, L(2)), f.n), f.n);
  assert_true(same(ir_arith_simplify(a, x), ir_arith_simplify(a, y)));
  /* n*m*k in any order and grouping */
  x = MUL(MUL(f.n, f.m), f.k);
  y = MUL(f.k, MUL(f.m, f.n));
  assert_true(same(ir_arith_simplify(a, x), ir_arith_simplify(a, y)));
  /* (n + m)^2 = n*n + 2*n*m + m*m */
  x = MUL(ADD(f.n, f.m), ADD(f.m, f.n));
  y = ADD(ADD(MUL(f.m, f.m), MUL(MUL(L(2), f.m), f.n)), MUL(f.n, f.n));
  assert_true(same(ir_arith_simplify(a, x), ir_arith_simplify(a, y)));
  assert_true(is_lit(ir_arith_simplify(a, SUB(x, y)), 0));
  /* min/max are commutative; floordiv atoms compare structurally */
  x = ADD(MIN(f.n, f.m), FDIV(ADD(f.n, L(1)), L(3)));
  y = ADD(FDIV(ADD(L(1), f.n), L(3)), MIN(f.m, f.n));
  assert_true(same(ir_arith_simplify(a, x), ir_arith_simplify(a, y)));
  assert_true(is_lit(ir_arith_simplify(a, SUB(x, y)), 0));
  /* simplification is idempotent */
  IrPrimExpr *s = ir_arith_simplify(a, x);
  assert_true(same(ir_arith_simplify(a, s), s));
  /* the printed form is the same too */
  IrBuf b1 = {0}, b2 = {0};
  ir_prim_expr_print(ir_arith_simplify(a, x), &b1);
  ir_prim_expr_print(ir_arith_simplify(a, y), &b2);
  assert_int_equal(b1.len, b2.len);
  if (b1.len)
    assert_string_equal(b1.data, b2.data);
  ir_buf_free(&b1);
  ir_buf_free(&b2);
  ir_ctx_free(f.ctx);
}

static void
test_div_mod(void **state)
{
  (void)state;
  Fix f = fix_new();
  IrArith *a = f.a;
  assert_true(is_lit(ir_arith_simplify(a, FMOD(MUL(L(4), f.n), L(2))), 0));
  assert_true(is_lit(ir_arith_simplify(a, FMOD(ADD(MUL(f.n, L(8)), L(3)), L(4))), 3));
  /* (n*8 + 3) // 4 -> n*2 */
  assert_true(same(ir_arith_simplify(a, FDIV(ADD(MUL(f.n, L(8)), L(3)), L(4))), MUL(f.n, L(2))));
  /* (n // 2) // 3 -> n // 6 */
  assert_true(same(ir_arith_simplify(a, FDIV(FDIV(f.n, L(2)), L(3))), FDIV(f.n, L(6))));
  /* (6*n) // 4 -> (n*3) // 2: the common factor 2 cancels */
  assert_true(same(ir_arith_simplify(a, FDIV(MUL(f.n, L(6)), L(4))), FDIV(MUL(f.n, L(3)), L(2))));
  /* (4*n + 6*m + 7) // 4 -> n + 1 + (m*6 + 3) // 4 */
  assert_true(same(ir_arith_simplify(a, FDIV(ADD(ADD(MUL(L(4), f.n), MUL(L(6), f.m)), L(7)), L(4))),
                   ADD(ADD(f.n, FDIV(ADD(MUL(f.m, L(6)), L(3)), L(4))), L(1))));
  /* (2*n + 2) % 4 -> (n + 1) % 2 * 2 */
  assert_true(same(ir_arith_simplify(a, FMOD(ADD(MUL(f.n, L(2)), L(2)), L(4))),
                   MUL(FMOD(ADD(f.n, L(1)), L(2)), L(2))));
  /* x // 1 and x % 1 */
  assert_true(ir_arith_simplify(a, FDIV(f.n, L(1))) == f.n);
  assert_true(is_lit(ir_arith_simplify(a, FMOD(f.n, L(1))), 0));
  /* unknown n: n % 4 stays */
  assert_true(same(ir_arith_simplify(a, FMOD(f.n, L(4))), FMOD(f.n, L(4))));
  /* with 0 <= n <= 3: (n + 4) % 4 -> n, (n + 4) // 4 -> 1 */
  ir_arith_bound(a, f.n, 0, 3);
  assert_true(ir_arith_simplify(a, FMOD(ADD(f.n, L(4)), L(4))) == f.n);
  assert_true(is_lit(ir_arith_simplify(a, FDIV(ADD(f.n, L(4)), L(4))), 1));
  /* min/max of ordered arguments */
  assert_true(ir_arith_simplify(a, MIN(f.n, L(20))) == f.n);
  assert_true(ir_arith_simplify(a, MAX(f.n, L(-1))) == f.n);
  assert_true(is_lit(ir_arith_simplify(a, MAX(f.n, L(3))), 3));
  assert_int_equal(ir_arith_simplify(a, MIN(f.n, f.m))->kind, IR_PE_MIN);
  ir_ctx_free(f.ctx);
}

static void
test_casts(void **state)
{
  (void)state;
  Fix f = fix_new();
  int64_t lo, hi;
  IrPrimExpr *w = ir_prim_var(f.ctx, ir_sym(f.ctx, "w"), IR_I32);
  IrDType u64 = {IR_DT_UINT, 64, 1};
  IrPrimExpr *u = ir_prim_var(f.ctx, ir_sym(f.ctx, "u"), u64);
  /* widening casts are transparent: cast(w) + 1 - cast(w) -> 1 */
  IrPrimExpr *cw = ir_prim_cast(f.ctx, IR_I64, w);
  assert_true(
      is_lit(ir_arith_simplify(f.a, SUB(ADD(cw, L(1)), ir_prim_cast(f.ctx, IR_I64, w))), 1));
  /* a narrowing cast of a literal that fits folds; of 2^40 it does not */
  IrPrimExpr *c = ir_prim_cast(f.ctx, IR_I32, L(7));
  assert_true(is_lit(ir_arith_simplify(f.a, c), 7));
  c = ir_prim_cast(f.ctx, IR_I32, L((int64_t)1 << 40));
  assert_int_equal(ir_arith_simplify(f.a, c)->kind, IR_PE_CAST);
  assert_true(ir_arith_range(f.a, c, &lo, &hi));
  assert_int_equal(lo, INT32_MIN);
  assert_int_equal(hi, INT32_MAX);
  /* narrowing a value known to fit keeps its range */
  ir_arith_bound(f.a, f.n, 0, 10);
  assert_true(ir_arith_range(f.a, ir_prim_cast(f.ctx, IR_I32, f.n), &lo, &hi));
  assert_int_equal(lo, 0);
  assert_int_equal(hi, 10);
  /* uint64 -> int64 may wrap to a negative value: nothing is known */
  IrPrimExpr *cu = ir_prim_cast(f.ctx, IR_I64, u);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_GE, cu, L(0))), IR_PROVE_UNKNOWN);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_GE, u, ir_prim_int(f.ctx, u64, 0))),
                   IR_PROVE_TRUE);
  ir_ctx_free(f.ctx);
}

/* --- ranges and proofs ------------------------------------------------ */

static void
test_ranges(void **state)
{
  (void)state;
  Fix f = fix_new();
  IrArith *a = f.a;
  int64_t lo, hi;
  ir_arith_bound(a, f.n, 0, 10);
  ir_arith_bound(a, f.m, 2, 5);
  assert_true(ir_arith_range(a, SUB(MUL(f.n, f.m), L(3)), &lo, &hi));
  assert_int_equal(lo, -3);
  assert_int_equal(hi, 47);
  assert_true(ir_arith_range(a, FDIV(f.n, L(4)), &lo, &hi));
  assert_int_equal(lo, 0);
  assert_int_equal(hi, 2);
  assert_true(ir_arith_range(a, FMOD(ADD(f.n, L(1)), L(4)), &lo, &hi));
  assert_int_equal(lo, 0);
  assert_int_equal(hi, 3);
  assert_true(ir_arith_range(a, MIN(f.n, f.m), &lo, &hi));
  assert_int_equal(lo, 0);
  assert_int_equal(hi, 5);
  assert_true(ir_arith_range(a, MAX(f.n, f.m), &lo, &hi));
  assert_int_equal(lo, 2);
  assert_int_equal(hi, 10);
  /* signed products: (m - 4) * (n - 5) over [-2,1] x [-5,5] */
  assert_true(ir_arith_range(a, MUL(SUB(f.m, L(4)), SUB(f.n, L(5))), &lo, &hi));
  assert_true(lo <= -10 && hi >= 10); /* exact range is [-10, 10]; expansion may widen */
  /* even power: (n - 5)^2 expands, but n*n alone is >= 0 */
  ir_arith_bound(a, f.k, -3, 2);
  assert_true(ir_arith_range(a, MUL(f.k, f.k), &lo, &hi));
  assert_int_equal(lo, 0);
  assert_int_equal(hi, 9);
  assert_true(ir_arith_range(a, MUL(MUL(f.k, f.k), f.k), &lo, &hi));
  assert_int_equal(lo, -27);
  assert_int_equal(hi, 8);
  /* floordiv of a signed range by a negative constant: -3 // -2 = 1, 2 // -2 = -1 */
  assert_true(ir_arith_range(a, FDIV(f.k, L(-2)), &lo, &hi));
  assert_int_equal(lo, -1);
  assert_int_equal(hi, 1);
  /* a divisor that may be 0 (reshape's -1 over a symbolic dim): x // 0 is
   * 0 in the generated code, so n // (m - 2) over m - 2 in [0, 3] is
   * within [0, 10] (it was unbounded, and the storage did not fit 64 bits) */
  assert_true(ir_arith_range(a, FDIV(f.n, SUB(f.m, L(2))), &lo, &hi));
  assert_int_equal(lo, 0);
  assert_int_equal(hi, 10);
  assert_true(ir_arith_range(a, FDIV(f.n, SUB(L(2), f.m)), &lo, &hi)); /* over [-3, 0] */
  assert_int_equal(lo, -10);
  assert_int_equal(hi, 0);
  /* an unbounded var */
  IrPrimExpr *u = ir_prim_var(f.ctx, ir_sym(f.ctx, "u"), IR_I64);
  assert_false(ir_arith_range(a, ADD(u, L(1)), &lo, &hi));
  /* ... but u % 8 is bounded */
  assert_true(ir_arith_range(a, FMOD(u, L(8)), &lo, &hi));
  assert_int_equal(lo, 0);
  assert_int_equal(hi, 7);
  /* an int32 var is within int32 */
  IrPrimExpr *w = ir_prim_var(f.ctx, ir_sym(f.ctx, "w"), IR_I32);
  assert_true(ir_arith_range(a, w, &lo, &hi));
  assert_int_equal(lo, INT32_MIN);
  assert_int_equal(hi, INT32_MAX);
  ir_ctx_free(f.ctx);
}

static IrProof
prove_le(Fix *f, IrPrimExpr *x, IrPrimExpr *y)
{
  return ir_arith_prove(f->a, bin(f, IR_PE_LE, x, y));
}

static void
test_prove_memory_questions(void **state)
{
  (void)state;
  /* m in [0, 4]: m*4 <= 16 TRUE */
  Fix f = fix_new();
  ir_arith_bound(f.a, f.m, 0, 4);
  assert_int_equal(prove_le(&f, MUL(f.m, L(4)), L(16)), IR_PROVE_TRUE);
  assert_int_equal(prove_le(&f, MUL(f.m, L(4)), L(15)), IR_PROVE_UNKNOWN);
  ir_ctx_free(f.ctx);

  /* m in [0, 1024]: UNKNOWN */
  f = fix_new();
  ir_arith_bound(f.a, f.m, 0, 1024);
  assert_int_equal(prove_le(&f, MUL(f.m, L(4)), L(16)), IR_PROVE_UNKNOWN);
  assert_int_equal(prove_le(&f, MUL(f.m, L(4)), L(4096)), IR_PROVE_TRUE);
  ir_ctx_free(f.ctx);

  /* m >= 5: FALSE */
  f = fix_new();
  ir_arith_bound(f.a, f.m, 5, INT64_MAX);
  assert_int_equal(prove_le(&f, MUL(f.m, L(4)), L(16)), IR_PROVE_FALSE);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_GT, MUL(f.m, L(4)), L(16))), IR_PROVE_TRUE);
  ir_ctx_free(f.ctx);

  /* n unbounded above: UNKNOWN, but the same symbolic size fits itself */
  f = fix_new();
  ir_arith_bound(f.a, f.n, 0, INT64_MAX);
  ir_arith_bound(f.a, f.m, 0, INT64_MAX);
  assert_int_equal(prove_le(&f, MUL(f.n, L(4)), L(1 << 20)), IR_PROVE_UNKNOWN);
  assert_int_equal(prove_le(&f, MUL(MUL(f.n, f.m), L(4)), MUL(MUL(f.m, L(4)), f.n)), IR_PROVE_TRUE);
  assert_int_equal(prove_le(&f, MUL(f.n, L(4)), MUL(ADD(f.n, L(1)), L(4))), IR_PROVE_TRUE);
  assert_int_equal(prove_le(&f, MUL(ADD(f.n, L(1)), L(4)), MUL(f.n, L(4))), IR_PROVE_FALSE);
  assert_int_equal(prove_le(&f, MUL(f.n, L(4)), MUL(f.m, L(4))), IR_PROVE_UNKNOWN);
  /* relations: min(n, 16) <= n, n // 4 * 4 <= n, n % 4 + n // 4 * 4 == n */
  assert_int_equal(prove_le(&f, MIN(f.n, L(16)), f.n), IR_PROVE_TRUE);
  assert_int_equal(prove_le(&f, MUL(MIN(f.n, L(16)), L(4)), L(64)), IR_PROVE_TRUE);
  assert_int_equal(prove_le(&f, f.n, MAX(f.n, f.m)), IR_PROVE_TRUE);
  assert_int_equal(prove_le(&f, MUL(FDIV(f.n, L(4)), L(4)), f.n), IR_PROVE_TRUE);
  assert_int_equal(prove_le(&f, f.n, ADD(MUL(FDIV(f.n, L(4)), L(4)), L(3))), IR_PROVE_TRUE);
  assert_int_equal(prove_le(&f, f.n, ADD(MUL(FDIV(f.n, L(4)), L(4)), L(2))), IR_PROVE_UNKNOWN);
  IrPrimExpr *whole = ADD(FMOD(f.n, L(4)), MUL(FDIV(f.n, L(4)), L(4)));
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_EQ, whole, f.n)), IR_PROVE_TRUE);
  /* comparisons of every kind, and logic */
  IrPrimExpr *n4 = MUL(f.n, L(4));
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_GE, n4, L(0))), IR_PROVE_TRUE);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_LT, n4, L(0))), IR_PROVE_FALSE);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_NE, n4, L(-4))), IR_PROVE_TRUE);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_EQ, n4, L(-4))), IR_PROVE_FALSE);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_EQ, n4, L(8))), IR_PROVE_UNKNOWN);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_EQ, SUB(n4, f.n), MUL(L(3), f.n))),
                   IR_PROVE_TRUE);
  IrPrimExpr *t = bin(&f, IR_PE_GE, n4, L(0)), *u = bin(&f, IR_PE_EQ, n4, L(8));
  IrPrimExpr *fl = bin(&f, IR_PE_LT, n4, L(0));
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_AND, t, u)), IR_PROVE_UNKNOWN);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_AND, fl, u)), IR_PROVE_FALSE);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_OR, u, t)), IR_PROVE_TRUE);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_OR, u, fl)), IR_PROVE_UNKNOWN);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_NOT, fl, NULL)), IR_PROVE_TRUE);
  assert_int_equal(ir_arith_prove(f.a, ir_prim_int(f.ctx, IR_BOOL, 1)), IR_PROVE_TRUE);
  assert_int_equal(ir_arith_prove(f.a, ir_prim_int(f.ctx, IR_BOOL, 0)), IR_PROVE_FALSE);
  /* simplify folds a proven condition */
  assert_true(is_lit(ir_arith_simplify(f.a, t), 1));
  ir_ctx_free(f.ctx);

  /* bounds accumulate: [0, 100] then [10, 2000] gives [10, 100] */
  f = fix_new();
  ir_arith_bound(f.a, f.n, 0, 100);
  ir_arith_bound(f.a, f.n, 10, 2000);
  int64_t lo, hi;
  assert_true(ir_arith_range(f.a, f.n, &lo, &hi));
  assert_int_equal(lo, 10);
  assert_int_equal(hi, 100);
  /* contradictory bounds prove nothing */
  ir_arith_bound(f.a, f.m, 5, 10);
  ir_arith_bound(f.a, f.m, 20, 30);
  assert_int_equal(prove_le(&f, f.m, L(100)), IR_PROVE_UNKNOWN);
  ir_ctx_free(f.ctx);
}

/* --- bounds from function attributes --------------------------------- */

static IrExpr *
tensor_param(IrCtx *ctx, const char *name, IrPrimExpr **shape, int ndim)
{
  IrPrimExpr **s = ir_alloc(ctx, sizeof *s * (size_t)ndim);
  memcpy(s, shape, sizeof *s * (size_t)ndim);
  IrLoc loc = {0};
  return ir_var_new(ctx, ir_sym(ctx, name), ir_sinfo_tensor(ctx, s, ndim, IR_F32, -1), false, loc);
}

static void
test_bound_function(void **state)
{
  (void)state;
  Fix f = fix_new();
  IrCtx *ctx = f.ctx;
  IrLoc loc = {0};
  IrPrimExpr *q = ir_prim_var(ctx, ir_sym(ctx, "q"), IR_I64);
  IrPrimExpr *r = ir_prim_var(ctx, ir_sym(ctx, "r"), IR_I64);
  IrPrimExpr *shape[2] = {f.n, L(4)};
  IrPrimExpr **svals = ir_alloc(ctx, sizeof *svals);
  svals[0] = f.m;
  IrFunction *fn = ir_alloc(ctx, sizeof *fn);
  fn->nparams = 4;
  fn->params = ir_alloc(ctx, sizeof(IrExpr *) * 4);
  fn->params[0] = tensor_param(ctx, "x", shape, 2);
  fn->params[1] = ir_var_new(ctx, ir_sym(ctx, "s"), ir_sinfo_shape(ctx, svals, 1), false, loc);
  fn->params[2] = ir_var_new(ctx, ir_sym(ctx, "p"), ir_sinfo_prim(ctx, IR_I64, f.k), false, loc);
  IrSInfo *pair[2] = {ir_sinfo_prim(ctx, IR_I64, q), ir_sinfo_prim(ctx, IR_I64, r)};
  IrSInfo **fields = ir_alloc(ctx, sizeof pair);
  memcpy(fields, pair, sizeof pair);
  fn->params[3] = ir_var_new(ctx, ir_sym(ctx, "t"), ir_sinfo_tuple(ctx, fields, 2), false, loc);
  IrSym ub_keys[3] = {ir_sym(ctx, "n"), ir_sym(ctx, "k"), ir_sym(ctx, "zz")};
  IrAttr *ub_vals[3] = {ir_attr_int(ctx, 1024), ir_attr_prim(ctx, L(8)), ir_attr_int(ctx, 5)};
  IrAttr *nonneg[1] = {ir_attr_str(ctx, ir_sym(ctx, "q"))};
  IrSym keys[2] = {ir_sym(ctx, "tir_var_upper_bound"), ir_sym(ctx, "tir_non_negative_var")};
  IrAttr *vals[2] = {ir_attr_dict(ctx, ub_keys, ub_vals, 3), ir_attr_list(ctx, nonneg, 1)};
  fn->attrs = ir_attr_dict(ctx, keys, vals, 2);
  ir_arith_bound_function(f.a, fn);
  assert_int_equal(ir_error_count(ctx), 0);

  /* n <= 1024 inclusive, n >= 0 */
  assert_int_equal(prove_le(&f, f.n, L(1024)), IR_PROVE_TRUE);
  assert_int_equal(prove_le(&f, f.n, L(1023)), IR_PROVE_UNKNOWN);
  assert_int_equal(prove_le(&f, MUL(MUL(f.n, L(4)), L(4)), L(16384)), IR_PROVE_TRUE);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_GE, f.n, L(0))), IR_PROVE_TRUE);
  /* m: a shape dim, >= 0 only */
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_GE, f.m, L(0))), IR_PROVE_TRUE);
  assert_int_equal(prove_le(&f, f.m, L(10)), IR_PROVE_UNKNOWN);
  /* k: a prim param with an upper bound given as a prim literal: [0, 8] */
  int64_t lo, hi;
  assert_true(ir_arith_range(f.a, f.k, &lo, &hi));
  assert_int_equal(lo, 0);
  assert_int_equal(hi, 8);
  /* q: listed non-negative; r: a prim value, nothing known */
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_GE, q, L(0))), IR_PROVE_TRUE);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_GE, r, L(0))), IR_PROVE_UNKNOWN);
  /* another var named n is not the signature's n */
  IrPrimExpr *other = ir_prim_var(ctx, ir_sym(ctx, "n"), IR_I64);
  assert_int_equal(prove_le(&f, other, L(1024)), IR_PROVE_UNKNOWN);

  /* a bound that is not a positive integer is an error and ignored */
  IrArith *b = ir_arith_new(ctx);
  IrSym bk[1] = {ir_sym(ctx, "n")};
  IrAttr *bv[1] = {ir_attr_int(ctx, -3)};
  IrSym k1[1] = {ir_sym(ctx, "tir_var_upper_bound")};
  IrAttr *v1[1] = {ir_attr_dict(ctx, bk, bv, 1)};
  fn->attrs = ir_attr_dict(ctx, k1, v1, 1);
  ir_arith_bound_function(b, fn);
  assert_int_equal(ir_error_count(ctx), 1);
  assert_int_equal(ir_arith_prove(b, bin(&f, IR_PE_LE, f.n, L(-3))), IR_PROVE_FALSE); /* n >= 0 */
  assert_int_equal(ir_arith_prove(b, bin(&f, IR_PE_LE, f.n, L(5))), IR_PROVE_UNKNOWN);
  ir_ctx_free(ctx);
}

/* Nested min/max over shared subexpressions: simplification stays linear in
 * the DAG (it was exponential before operands were memoized), and the
 * result still evaluates to the input's value. */
static void
test_deep_nesting(void **state)
{
  (void)state;
  Fix f = fix_new();
  IrPrimExpr *vars[3] = {f.n, f.m, f.k};
  for (int i = 0; i < 3; i++)
    ir_arith_bound(f.a, vars[i], 0, 100);
  IrPrimExpr *e = f.n;
  for (int i = 0; i < 40; i++)
    e = bin(&f, i % 2 ? IR_PE_MIN : IR_PE_MAX, ADD(e, vars[(i + 1) % 3]),
            FDIV(MUL(vars[i % 3], e), L(3)));
  IrPrimExpr *s = ir_arith_simplify(f.a, e);
  assert_int_equal(ir_arith_prove(f.a, bin(&f, IR_PE_GE, e, L(0))), IR_PROVE_TRUE);
  /* the same at a depth the tree evaluator below can afford (2^16 visits) */
  e = f.n;
  for (int i = 0; i < 16; i++)
    e = bin(&f, i % 2 ? IR_PE_MIN : IR_PE_MAX, ADD(e, vars[(i + 1) % 3]),
            FDIV(MUL(vars[i % 3], e), L(3)));
  s = ir_arith_simplify(f.a, e);
  Env env = {{f.n, f.m, f.k}, {1, 2, 0}, 3};
  int64_t want, got;
  assert_true(eval(e, &env, &want));
  assert_true(eval(s, &env, &got));
  assert_int_equal(got, want);
  ir_ctx_free(f.ctx);
}

/* --- randomized property test ----------------------------------------- */

static uint64_t
rnd(uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static int64_t
rnd_in(uint64_t *s, int64_t lo, int64_t hi)
{
  return lo + (int64_t)(rnd(s) % (uint64_t)(hi - lo + 1));
}

static IrPrimExpr *
random_expr(Fix *f, IrPrimExpr **vars, uint64_t *s, int depth)
{
  if (depth == 0 || rnd(s) % 4 == 0)
    return rnd(s) % 2 ? vars[rnd(s) % 3] : lit(f, rnd_in(s, -4, 4));
  static const IrPrimKind kinds[] = {IR_PE_ADD,      IR_PE_SUB,      IR_PE_MUL, IR_PE_MUL,
                                     IR_PE_FLOORDIV, IR_PE_FLOORMOD, IR_PE_MIN, IR_PE_MAX};
  IrPrimKind k = kinds[rnd(s) % 8];
  IrPrimExpr *x = random_expr(f, vars, s, depth - 1);
  IrPrimExpr *y;
  if ((k == IR_PE_FLOORDIV || k == IR_PE_FLOORMOD) && rnd(s) % 4 != 0)
    y = lit(f, rnd(s) % 5 == 0 ? rnd_in(s, -3, -1) : rnd_in(s, 1, 6));
  else
    y = random_expr(f, vars, s, depth - 1);
  return bin(f, k, x, y);
}

static void
test_random_property(void **state)
{
  (void)state;
  uint64_t seed = 0x9e3779b97f4a7c15u;
  const int64_t bounds[3][2] = {{-5, 7}, {0, 9}, {-3, 3}};
  int checked = 0, ranged = 0, decided = 0;
  for (int iter = 0; iter < 3000; iter++) {
    Fix f = fix_new();
    IrPrimExpr *vars[3] = {f.n, f.m, f.k};
    for (int i = 0; i < 3; i++)
      ir_arith_bound(f.a, vars[i], bounds[i][0], bounds[i][1]);
    IrPrimExpr *e = random_expr(&f, vars, &seed, 4);
    IrPrimExpr *s = ir_arith_simplify(f.a, e);
    int64_t lo = 0, hi = 0;
    bool has_range = ir_arith_range(f.a, e, &lo, &hi);
    int64_t c = rnd_in(&seed, -20, 20);
    IrPrimKind ck = (IrPrimKind)(IR_PE_EQ + (int)(rnd(&seed) % 4)); /* EQ NE LT LE */
    IrPrimExpr *cond = bin(&f, ck, e, lit(&f, c));
    IrProof proof = ir_arith_prove(f.a, cond);
    ranged += has_range;
    decided += proof != IR_PROVE_UNKNOWN;
    for (int sample = 0; sample < 24; sample++) {
      Env env = {{f.n, f.m, f.k}, {0, 0, 0}, 3};
      for (int i = 0; i < 3; i++)
        env.vals[i] =
            sample < 8 ? bounds[i][(sample >> i) & 1] : rnd_in(&seed, bounds[i][0], bounds[i][1]);
      int64_t want, got, truth;
      if (!eval(e, &env, &want))
        continue;
      if (!eval(s, &env, &got)) {
        IrBuf b = {0};
        ir_prim_expr_print(s, &b);
        fail_msg("simplified form undefined where the input is defined: %s", b.data ? b.data : "");
      }
      assert_int_equal(got, want);
      if (has_range) {
        assert_true(lo <= want);
        assert_true(want <= hi);
      }
      assert_true(eval(cond, &env, &truth));
      if (proof == IR_PROVE_TRUE)
        assert_int_equal(truth, 1);
      if (proof == IR_PROVE_FALSE)
        assert_int_equal(truth, 0);
      checked++;
    }
    ir_ctx_free(f.ctx);
  }
  /* the test exercises something: most samples are defined, many bounded */
  assert_true(checked > 30000);
  assert_true(ranged > 1500);
  assert_true(decided > 300);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_constant_folding), cmocka_unit_test(test_overflow_not_folded),
      cmocka_unit_test(test_like_terms),       cmocka_unit_test(test_canonical_equal),
      cmocka_unit_test(test_div_mod),          cmocka_unit_test(test_casts),
      cmocka_unit_test(test_ranges),           cmocka_unit_test(test_prove_memory_questions),
      cmocka_unit_test(test_bound_function),   cmocka_unit_test(test_deep_nesting),
      cmocka_unit_test(test_random_property),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
