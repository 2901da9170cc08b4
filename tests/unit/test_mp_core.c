/*
 * test_mp_core.c - the planner's core on intervals (memplan/core.c,
 * exact.c, pooled.c).
 *
 * Hand-made problems whose optimal (or TVM-pooled) arenas are worked out
 * in the comments; 1,000 seeded random problems for every algorithm;
 * seeded tilings of 1 MiB shaped like MiniMalloc's problems (made here:
 * the tests read nothing outside the repository).  Every
 * plan is checked by the independent validator (memplan/validate.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "../../memplan/mp.h"
#include "mp_testutil.h"

static const MpAlgorithm all_algorithms[] = {
    MP_ALGO_GREEDY_SIZE, MP_ALGO_GREEDY_BREADTH, MP_ALGO_EXACT, MP_ALGO_BEST, MP_ALGO_POOLED,
};
enum { NALGOS = sizeof all_algorithms / sizeof all_algorithms[0] };

static MpBuffer
buf(int id, int64_t start, int64_t end, int64_t size, int64_t align)
{
  return (MpBuffer){.id = id, .start = start, .end = end, .size = size, .align = align};
}

/* Solves a copy of bufs with algorithm a, checks the plan with the
 * validator, and returns the arena; the offsets go to out (when non-NULL). */
static int64_t
solve_checked(const MpBuffer *bufs, int n, MpAlgorithm a, int64_t budget_ms, MpBuffer *out)
{
  MpBuffer *copy = malloc(((size_t)n + 1) * sizeof *copy);
  assert_non_null(copy);
  memcpy(copy, bufs, (size_t)n * sizeof *copy);
  MpOptions o = {.algorithm = a, .budget_ms = budget_ms};
  int64_t arena = mp_solve(copy, n, &o);
  IrBuf why = {0};
  bool ok = mp_validate(copy, n, arena, &why);
  if (!ok)
    printf("algorithm %d: %s\n", (int)a, why.data);
  free(why.data);
  assert_true(ok);
  if (out)
    memcpy(out, copy, (size_t)n * sizeof *copy);
  free(copy);
  return arena;
}

static void
test_empty(void **state)
{
  (void)state;
  MpBuffer none[1];
  for (int i = 0; i < NALGOS; i++) {
    MpOptions o = {.algorithm = all_algorithms[i], .budget_ms = 10};
    assert_int_equal(mp_solve(none, 0, &o), 0);
  }
  assert_int_equal(mp_lower_bound(none, 0), 0);
  assert_int_equal(mp_naive_sum(none, 0), 0);
}

/* A 3 bytes over [0,2), B 2 over [1,3), C 2 over [2,4), D 3 over [3,5).
 * Live at once: A+B at 1, B+C at 2, C+D at 3: the lower bound is 5.
 * Greedy by size takes A, D (equal size and lifetime: by id), B, C:
 * A@0, D@0 (not live with A), B@3 (above A), C: live with B [3,5) and
 * D [0,3), so C@5 and the arena is 7.  The optimum is 5: A@0, B@3, C@0,
 * D@2.  Greedy by breadth (A, B, C, D) finds it: A@0, B@3, C@0, D@2. */
static void
test_greedy_size_suboptimal(void **state)
{
  (void)state;
  MpBuffer b[] = {buf(0, 0, 2, 3, 1), buf(1, 1, 3, 2, 1), buf(2, 2, 4, 2, 1), buf(3, 3, 5, 3, 1)};
  MpBuffer out[4];
  assert_int_equal(mp_lower_bound(b, 4), 5);
  assert_int_equal(mp_naive_sum(b, 4), 10);
  assert_int_equal(solve_checked(b, 4, MP_ALGO_GREEDY_SIZE, 0, out), 7);
  assert_int_equal(out[0].offset, 0);
  assert_int_equal(out[3].offset, 0);
  assert_int_equal(out[1].offset, 3);
  assert_int_equal(out[2].offset, 5);
  assert_int_equal(solve_checked(b, 4, MP_ALGO_GREEDY_BREADTH, 0, out), 5);
  assert_int_equal(out[3].offset, 2);
  assert_int_equal(solve_checked(b, 4, MP_ALGO_EXACT, 100, NULL), 5);
  assert_int_equal(solve_checked(b, 4, MP_ALGO_BEST, 100, NULL), 5);
}

/* Both greedy orders fail, the exact search does not:
 *   A 2 bytes [2,4), B 2 [3,5), C 2 [1,4), D 3 [0,2).
 * Live: step 1 C+D = 5, step 3 A+B+C = 6: the lower bound is 6.
 * By size: D, then C (longest of the 2-byte ones), A, B: D@0, C@3 (above
 * D), A@0 (D died at 2), B: A at [0,2) and C at [3,5) leave a 1-byte gap,
 * so B@5: arena 7.  By start: D, C, A, B: the same offsets, 7.
 * Optimum 6: C@0, D@2, A@2, B@4 (D meets only C).  BEST takes it from the
 * exact search. */
static void
test_exact_beats_both_greedy(void **state)
{
  (void)state;
  MpBuffer b[] = {buf(0, 2, 4, 2, 1), buf(1, 3, 5, 2, 1), buf(2, 1, 4, 2, 1), buf(3, 0, 2, 3, 1)};
  MpBuffer out[4];
  assert_int_equal(mp_lower_bound(b, 4), 6);
  assert_int_equal(solve_checked(b, 4, MP_ALGO_GREEDY_SIZE, 0, out), 7);
  assert_int_equal(out[1].offset, 5);
  assert_int_equal(solve_checked(b, 4, MP_ALGO_GREEDY_BREADTH, 0, NULL), 7);
  assert_int_equal(solve_checked(b, 4, MP_ALGO_EXACT, 100, NULL), 6);
  assert_int_equal(solve_checked(b, 4, MP_ALGO_BEST, 100, NULL), 6);
}

/* Alignment: two 1-byte buffers of alignment 64 live at once need 0 and
 * 64, and the arena is rounded up to 128.  A 1-byte buffer alone gives an
 * arena of one alignment (64). */
static void
test_alignment(void **state)
{
  (void)state;
  MpBuffer b[] = {buf(0, 0, 2, 1, 64), buf(1, 1, 3, 1, 64)};
  for (int i = 0; i < NALGOS; i++)
    assert_int_equal(solve_checked(b, 2, all_algorithms[i], 20, NULL), 128);
  assert_int_equal(solve_checked(b, 1, MP_ALGO_BEST, 20, NULL), 64);
  assert_int_equal(mp_naive_sum(b, 2), 65);
}

/* start == end: live at its start step.  Z (8 bytes, [3,3)) meets L
 * (8 bytes, [0,5)) at step 3, so they cannot share bytes: arena 16, and
 * the lower bound counts both at step 3. */
static void
test_zero_length(void **state)
{
  (void)state;
  MpBuffer b[] = {buf(0, 0, 5, 8, 1), buf(1, 3, 3, 8, 1)};
  assert_int_equal(mp_lower_bound(b, 2), 16);
  for (int i = 0; i < NALGOS; i++) {
    MpBuffer out[2];
    assert_int_equal(solve_checked(b, 2, all_algorithms[i], 20, out), 16);
    assert_int_not_equal(out[0].offset, out[1].offset);
  }
}

/* TVM's pooled rule, worked by hand (alignment 1):
 *   X kind 0, 100 bytes [0,2): new storage s0 (100)
 *   Y kind 0,  50 bytes [2,4): s0 is free and 100 lies in [50, 800]: s0
 *   Z kind 1, 100 bytes [2,4): no free storage of kind 1: new s1 (100)
 *   W kind 0, 1000 bytes [4,6): s0 (100) lies in [62, 1000): grown to 1000
 *   V kind 0,  10 bytes [6,8): s0 (1000) is outside [10, 160] and above
 *     10: no reuse; new s2 (10)
 * Storages laid one after another: 1000 + 100 + 10 = 1110; X, Y, W at 0,
 * Z at 1000, V at 1100.  Packing needs only 1000 (W alone at step 4 is the
 * lower bound, and X, Y+Z, W, V all fit under it). */
static void
test_pooled_rule(void **state)
{
  (void)state;
  MpBuffer b[] = {buf(0, 0, 2, 100, 1), buf(1, 2, 4, 50, 1), buf(2, 2, 4, 100, 1),
                  buf(3, 4, 6, 1000, 1), buf(4, 6, 8, 10, 1)};
  b[2].kind = 1;
  MpBuffer out[5];
  assert_int_equal(solve_checked(b, 5, MP_ALGO_POOLED, 0, out), 1110);
  assert_int_equal(out[0].offset, 0);
  assert_int_equal(out[1].offset, 0);
  assert_int_equal(out[3].offset, 0);
  assert_int_equal(out[2].offset, 1000);
  assert_int_equal(out[4].offset, 1100);
  assert_int_equal(mp_lower_bound(b, 5), 1000);
  assert_int_equal(solve_checked(b, 5, MP_ALGO_BEST, 20, NULL), 1000);
}

/* Sizes whose sums overflow int64 saturate at INT64_MAX; invalid buffers
 * are refused with -1. */
static void
test_saturation_and_invalid(void **state)
{
  (void)state;
  int64_t half = INT64_MAX / 2 + 1;
  MpBuffer b[] = {buf(0, 0, 2, half, 1), buf(1, 1, 3, half, 1)};
  assert_int_equal(mp_lower_bound(b, 2), INT64_MAX);
  assert_int_equal(mp_naive_sum(b, 2), INT64_MAX);
  MpOptions o = {.algorithm = MP_ALGO_GREEDY_SIZE};
  assert_int_equal(mp_solve(b, 2, &o), INT64_MAX);
  MpBuffer bad[] = {buf(0, 0, 2, 0, 1)};
  assert_int_equal(mp_solve(bad, 1, &o), -1);
  bad[0] = buf(0, 0, 2, 8, 3);
  assert_int_equal(mp_solve(bad, 1, &o), -1);
  bad[0] = buf(0, 2, 1, 8, 1);
  assert_int_equal(mp_solve(bad, 1, &o), -1);
}

static uint64_t
xorshift(uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static int
random_problem(uint64_t *rng, MpBuffer *b)
{
  int n = 1 + (int)(xorshift(rng) % 30);
  for (int i = 0; i < n; i++) {
    int64_t s = (int64_t)(xorshift(rng) % 50), e = (int64_t)(xorshift(rng) % 51);
    if (e < s) {
      int64_t t = s;
      s = e;
      e = t;
    }
    int64_t size = 1 + (int64_t)(xorshift(rng) % 4096), align = (int64_t)1 << (xorshift(rng) % 7);
    b[i] = buf(i, s, e, size, align);
    b[i].kind = (int)(xorshift(rng) % 3);
  }
  return n;
}

static int64_t
round_up(int64_t v, int64_t a)
{
  return (v + a - 1) / a * a;
}

/* Every algorithm on 1,000 random problems: a valid plan, between the lower
 * bound and the naive sum (rounded to the largest alignment, as arenas
 * are), BEST no larger than either greedy, and the same offsets twice. */
static void
test_random(void **state)
{
  (void)state;
  uint64_t rng = 0x2545F4914F6CDD1Du;
  MpBuffer b[30], first[30], again[30];
  int exact_wins = 0;
  for (int iter = 0; iter < 1000; iter++) {
    int n = random_problem(&rng, b);
    int64_t lower = mp_lower_bound(b, n), max_align = 1;
    for (int i = 0; i < n; i++)
      max_align = b[i].align > max_align ? b[i].align : max_align;
    int64_t naive = round_up(mp_naive_sum(b, n), max_align);
    int64_t arena[NALGOS];
    for (int a = 0; a < NALGOS; a++) {
      arena[a] = solve_checked(b, n, all_algorithms[a], 2, first);
      assert_true(arena[a] >= lower);
      if (all_algorithms[a] != MP_ALGO_POOLED)
        assert_true(arena[a] <= naive);
      assert_int_equal(solve_checked(b, n, all_algorithms[a], 2, again), arena[a]);
      for (int i = 0; i < n; i++)
        assert_int_equal(first[i].offset, again[i].offset);
    }
    assert_true(arena[3] <= arena[0] && arena[3] <= arena[1]);
    assert_true(arena[2] <= arena[0]);
    exact_wins += arena[3] < arena[0] && arena[3] < arena[1];
  }
  printf("random: BEST beat both greedy orders on %d of 1000 problems\n", exact_wins);
  assert_true(exact_wins > 0);
}

/* Eleven seeded tilings of 1 MiB (40 to 140 buffers), as MiniMalloc's
 * problems A..K were: the lower bound is the capacity, and the planners
 * stay within [lower, greedy]. */
static void
test_tiled(void **state)
{
  (void)state;
  enum { CAP = 1048576, MAXN = 160 };
  MpBuffer b[MAXN];
  printf("%-3s %5s %10s %10s %10s %10s %7s %7s\n", "", "n", "lower", "greedy", "best", "pooled",
         "g/cap", "b/cap");
  for (int k = 0; k < 11; k++) {
    int n = tiled_problem(1000 + (uint64_t)k, 40 + 10 * k, CAP, b);
    assert_int_equal(n, 40 + 10 * k);
    int64_t lower = mp_lower_bound(b, n);
    int64_t greedy = solve_checked(b, n, MP_ALGO_GREEDY_SIZE, 0, NULL);
    int64_t best = solve_checked(b, n, MP_ALGO_BEST, 50, NULL);
    int64_t pooled = solve_checked(b, n, MP_ALGO_POOLED, 0, NULL);
    assert_int_equal(lower, CAP);
    assert_true(lower <= best && best <= greedy && lower <= pooled);
    printf("%-3c %5d %10lld %10lld %10lld %10lld %7.3f %7.3f\n", 'A' + k, n, (long long)lower,
           (long long)greedy, (long long)best, (long long)pooled, greedy / (double)CAP,
           best / (double)CAP);
  }
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_empty),
      cmocka_unit_test(test_greedy_size_suboptimal),
      cmocka_unit_test(test_exact_beats_both_greedy),
      cmocka_unit_test(test_alignment),
      cmocka_unit_test(test_zero_length),
      cmocka_unit_test(test_pooled_rule),
      cmocka_unit_test(test_saturation_and_invalid),
      cmocka_unit_test(test_random),
      cmocka_unit_test(test_tiled),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
