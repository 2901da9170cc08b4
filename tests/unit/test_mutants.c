/*
 * test_mutants.c - the checks that kill planted bugs of tests/mutate/
 * catalogue.py no other test noticed (issue 33): constant integer
 * arithmetic as ir_prim_eval and the TIR interpreter use it, the memory
 * planner's first-fit gap rule, and the plan validator's alignment and
 * lifetime-overlap rules.  Each test names the mutant it kills.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../ir/ir.h"
#include "../../memplan/mp.h"

static int64_t
int_op(IrPrimKind k, int64_t a, int64_t b)
{
  int64_t r = 0;
  assert_true(ir_int_binary(k, a, b, &r));
  return r;
}

/* ir-floormod-trunc: floormod takes the divisor's sign (Python's %), which
 * truncating division gets wrong for operands of different signs. */
static void
test_floor_div_mod(void **state)
{
  (void)state;
  assert_int_equal(int_op(IR_PE_FLOORMOD, -7, 2), 1);
  assert_int_equal(int_op(IR_PE_FLOORMOD, 7, -2), -1);
  assert_int_equal(int_op(IR_PE_FLOORMOD, -6, 3), 0);
  assert_int_equal(int_op(IR_PE_FLOORDIV, -7, 2), -4);
  assert_int_equal(int_op(IR_PE_MOD, -7, 2), -1); /* truncating, as C */
  assert_int_equal(int_op(IR_PE_DIV, -7, 2), -3);
  int64_t r;
  assert_false(ir_int_binary(IR_PE_FLOORMOD, 1, 0, &r));
}

/* ir-min-swap: min and max of constants. */
static void
test_min_max(void **state)
{
  (void)state;
  assert_int_equal(int_op(IR_PE_MIN, 3, -2), -2);
  assert_int_equal(int_op(IR_PE_MIN, -2, 3), -2);
  assert_int_equal(int_op(IR_PE_MAX, 3, -2), 3);
  assert_int_equal(int_op(IR_PE_MAX, -2, 3), 3);
}

/* mp-gap-exact-fit: by start time (ties largest first) A, B, C take
 * [0, 32), [32, 56), [56, 72); D starts when B has ended and fits B's gap
 * exactly, so the arena stays at the lower bound, 72. */
static void
test_first_fit_exact_gap(void **state)
{
  (void)state;
  MpBuffer b[4] = {
      {.id = 0, .start = 0, .end = 3, .size = 32, .align = 8},
      {.id = 1, .start = 0, .end = 1, .size = 24, .align = 8},
      {.id = 2, .start = 0, .end = 3, .size = 16, .align = 8},
      {.id = 3, .start = 1, .end = 3, .size = 24, .align = 8},
  };
  MpOptions o = {.algorithm = MP_ALGO_GREEDY_BREADTH};
  int64_t arena = mp_solve(b, 4, &o);
  assert_int_equal(arena, 72);
  assert_int_equal(b[3].offset, b[1].offset);
  assert_true(mp_validate(b, 4, arena, NULL));
}

/* mp-validate-align-dropped: a buffer at an offset that is not a multiple
 * of its alignment is refused, with the reason. */
static void
test_validate_alignment(void **state)
{
  (void)state;
  MpBuffer b[1] = {{.id = 0, .start = 0, .end = 1, .size = 8, .align = 16, .offset = 8}};
  IrBuf why = {0};
  assert_false(mp_validate(b, 1, 16, &why));
  assert_non_null(why.data);
  assert_non_null(strstr(why.data, "aligned"));
  ir_buf_free(&why);
  b[0].offset = 0;
  assert_true(mp_validate(b, 1, 16, NULL));
}

/* mp-validate-touching: lifetimes are half-open [start, end): [0, 2) and
 * [1, 3) share step 1, so overlapping bytes are refused; [0, 1) and
 * [1, 2) share no step and may share bytes. */
static void
test_validate_lifetimes(void **state)
{
  (void)state;
  MpBuffer b[2] = {
      {.id = 0, .start = 0, .end = 2, .size = 8, .align = 4, .offset = 0},
      {.id = 1, .start = 1, .end = 3, .size = 8, .align = 4, .offset = 4},
  };
  assert_false(mp_validate(b, 2, 16, NULL));
  b[1].offset = 8;
  assert_true(mp_validate(b, 2, 16, NULL));
  b[0].end = 1;
  b[1].start = 1;
  b[1].offset = 0;
  assert_true(mp_validate(b, 2, 16, NULL));
  b[1].start = 0; /* now both live at step 0 */
  assert_false(mp_validate(b, 2, 16, NULL));
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_floor_div_mod),       cmocka_unit_test(test_min_max),
      cmocka_unit_test(test_first_fit_exact_gap), cmocka_unit_test(test_validate_alignment),
      cmocka_unit_test(test_validate_lifetimes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
