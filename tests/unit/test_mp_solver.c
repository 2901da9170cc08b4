/*
 * test_mp_solver.c - the planner as a solver (memplan/greedy.c, local.c,
 * search.c, csv.c): properties over seeded random problems, checked
 * against the independent validator and a brute force.
 *
 *  - 1,000 random problems: every algorithm's plan is valid, BEST is never
 *    larger than any greedy heuristic, and the same input gives the same
 *    offsets;
 *  - 400 tiny problems: a brute force over every aligned offset of every
 *    buffer finds the optimal arena; the exact search reaches it, and BEST
 *    equals the lower bound whenever the brute force says it is reachable;
 *  - the CSV reader and writer: a round trip, and bad files reported at
 *    file:line:col;
 *  - Glow's order (memplan/greedy.c keeps live bytes per step) equals a
 *    direct reading of its rule on 500 random problems;
 *  - the interval tree of placed buffers (memplan/live_index.c) finds the
 *    same spans as the scan of every buffer, on 300 random problems
 *    placed in random orders;
 *  - a seeded tiling of 1 MiB that no greedy heuristic fits and the exact
 *    search does (as MiniMalloc's problem F, made here: nothing is read
 *    from outside the repository).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../memplan/core_int.h" /* mp_order, against a plain reading of Glow's rule */
#include "../../memplan/mp.h"
#include "mp_testutil.h"
#include "testutil.h"

static const MpAlgorithm greedy_algorithms[] = {
    MP_ALGO_GREEDY_SIZE, MP_ALGO_GREEDY_BREADTH, MP_ALGO_GREEDY_LENGTH,
    MP_ALGO_GREEDY_AREA, MP_ALGO_GREEDY_GLOW,    MP_ALGO_BEST_FIT,
};
enum { NGREEDY = sizeof greedy_algorithms / sizeof greedy_algorithms[0] };

static uint64_t
xorshift(uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* n buffers with starts in [0, steps), sizes in [1, max_size], alignments
 * 1 << [0, align_bits). */
static void
random_problem(uint64_t *rng, MpBuffer *b, int n, int steps, int max_size, int align_bits)
{
  for (int i = 0; i < n; i++) {
    int64_t s = (int64_t)(xorshift(rng) % (uint64_t)steps);
    int64_t len = 1 + (int64_t)(xorshift(rng) % (uint64_t)steps);
    b[i] = (MpBuffer){.id = i, .start = s, .end = s + len,
                      .size = 1 + (int64_t)(xorshift(rng) % (uint64_t)max_size),
                      .align = (int64_t)1 << (xorshift(rng) % (uint64_t)align_bits)};
  }
}

/* Solves a copy of b with algorithm a; checks the plan with the validator;
 * the arena, and the offsets in out. */
static int64_t
solve_valid(const MpBuffer *b, int n, MpAlgorithm a, int64_t budget_ms, MpBuffer *out)
{
  memcpy(out, b, (size_t)n * sizeof *b);
  MpOptions o = {.algorithm = a, .budget_ms = budget_ms};
  int64_t arena = mp_solve(out, n, &o);
  IrBuf why = {0};
  bool ok = mp_validate(out, n, arena, &why);
  if (!ok)
    printf("%s: %s\n", mp_algorithm_name(a), why.data);
  ir_buf_free(&why);
  assert_true(ok);
  return arena;
}

/* Does buffer a come before b in the size order (largest, then longest
 * lifetime, then id, then position)? */
static bool
size_before(const MpBuffer *bufs, int a, int b)
{
  int64_t la = mp_live_end(&bufs[a]) - bufs[a].start, lb = mp_live_end(&bufs[b]) - bufs[b].start;
  if (bufs[a].size != bufs[b].size)
    return bufs[a].size > bufs[b].size;
  if (la != lb)
    return la > lb;
  if (bufs[a].id != bufs[b].id)
    return bufs[a].id < bufs[b].id;
  return a < b;
}

/* Glow's rule read directly, in O(n^3): among the starts of unplaced
 * buffers, the one where the most unplaced bytes are live (the earliest of
 * equals); there, the unplaced buffer first in the size order. */
static void
glow_reference(const MpBuffer *bufs, int n, int *order)
{
  bool done[64] = {0};
  for (int k = 0; k < n; k++) {
    int64_t most = -1, at = 0;
    for (int i = 0; i < n; i++) {
      if (done[i])
        continue;
      int64_t live = 0;
      for (int j = 0; j < n; j++)
        if (!done[j] && bufs[j].start <= bufs[i].start && bufs[i].start < mp_live_end(&bufs[j]))
          live += bufs[j].size;
      if (live > most || (live == most && bufs[i].start < at))
        most = live, at = bufs[i].start;
    }
    int pick = -1;
    for (int i = 0; i < n; i++)
      if (!done[i] && bufs[i].start <= at && at < mp_live_end(&bufs[i]) &&
          (pick < 0 || size_before(bufs, i, pick)))
        pick = i;
    order[k] = pick;
    done[pick] = true;
  }
}

static void
test_glow_order(void **state)
{
  (void)state;
  uint64_t rng = 0xC0FFEE1234567ull;
  for (int t = 0; t < 500; t++) {
    MpBuffer b[64];
    int n = 1 + (int)(xorshift(&rng) % 40), order[64], want[64];
    random_problem(&rng, b, n, 2 + (int)(xorshift(&rng) % 20), t % 2 ? 8 : 1000, 3);
    if (t % 5 == 0) /* zero-length lifetimes, live for one step */
      b[xorshift(&rng) % (uint64_t)n].end = b[0].start;
    mp_order(b, n, MP_ORDER_GLOW, order);
    glow_reference(b, n, want);
    assert_memory_equal(order, want, (size_t)n * sizeof *order);
  }
}

/* Places the buffers of random problems one by one in a random order, at
 * random offsets, and after each asks the tree and the scan of every
 * buffer (mp_spans_live_with) which placed buffers are live with each
 * buffer: the same spans in the same order, or first-fit would place
 * differently.  Lifetimes include zero-length ones and long ones, and
 * problems up to 200 buffers, so the tree has several levels. */
static void
test_live_index_matches_scan(void **state)
{
  (void)state;
  uint64_t rng = 0x5EED1DEAull;
  static MpBuffer b[200];
  static MpSpan want[200], got[200];
  static bool placed[200];
  static int order[200];
  for (int t = 0; t < 300; t++) {
    int n = 1 + (int)(xorshift(&rng) % (t < 290 ? 40u : 200u));
    random_problem(&rng, b, n, 2 + (int)(xorshift(&rng) % 50), 100, 3);
    for (int i = 0; i < n; i++) {
      if (xorshift(&rng) % 6 == 0)
        b[i].end = b[i].start; /* live for one step */
      b[i].offset = (int64_t)(xorshift(&rng) % 500);
      placed[i] = false;
      order[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = (int)(xorshift(&rng) % (uint64_t)(i + 1)), x = order[i];
      order[i] = order[j], order[j] = x;
    }
    MpLiveIndex *ix = mp_live_index_new(b, n);
    for (int k = 0; k < n; k++) {
      for (int q = 0; q < n; q++) {
        int m = mp_spans_live_with(b, n, placed, &b[q], want);
        assert_int_equal(mp_live_index_spans(ix, &b[q], got), m);
        for (int s = 0; s < m; s++) {
          assert_int_equal(got[s].lo, want[s].lo);
          assert_int_equal(got[s].hi, want[s].hi);
        }
      }
      mp_live_index_place(ix, order[k]);
      placed[order[k]] = true;
    }
    mp_live_index_free(ix);
  }
}

static void
test_random_never_above_greedy(void **state)
{
  (void)state;
  uint64_t rng = 0x9E3779B97F4A7C15u;
  MpBuffer b[40], x[40], y[40];
  int improved = 0;
  for (int iter = 0; iter < 1000; iter++) {
    int n = 1 + (int)(xorshift(&rng) % 40);
    random_problem(&rng, b, n, 30, 4096, 7);
    int64_t best = solve_valid(b, n, MP_ALGO_BEST, 1, x);
    assert_true(best >= mp_lower_bound(b, n));
    int64_t least_greedy = INT64_MAX;
    for (int g = 0; g < NGREEDY; g++) {
      int64_t a = solve_valid(b, n, greedy_algorithms[g], 1, y);
      assert_true(best <= a);
      least_greedy = a < least_greedy ? a : least_greedy;
    }
    improved += best < least_greedy;
    assert_int_equal(solve_valid(b, n, MP_ALGO_BEST, 1, y), best);
    for (int i = 0; i < n; i++)
      assert_int_equal(x[i].offset, y[i].offset);
    solve_valid(b, n, MP_ALGO_LOCAL, 1, y);
    solve_valid(b, n, MP_ALGO_EXACT, 1, y);
  }
  printf("random: the searches beat every greedy heuristic on %d of 1000 problems\n", improved);
  assert_true(improved > 0);
}

/* --- brute force ------------------------------------------------------ */

/* Whether buffers k.. of b fit below cap, trying every aligned offset of
 * each (buffers before k placed). */
static bool
brute_fits(MpBuffer *b, int n, int k, int64_t cap)
{
  if (k == n)
    return true;
  for (int64_t off = 0; off + b[k].size <= cap; off += b[k].align) {
    bool ok = true;
    for (int j = 0; j < k && ok; j++) {
      int64_t ea = b[k].end > b[k].start ? b[k].end : b[k].start + 1;
      int64_t eb = b[j].end > b[j].start ? b[j].end : b[j].start + 1;
      bool time = b[k].start < eb && b[j].start < ea;
      ok = !time || off + b[k].size <= b[j].offset || b[j].offset + b[j].size <= off;
    }
    if (ok) {
      b[k].offset = off;
      if (brute_fits(b, n, k + 1, cap))
        return true;
    }
  }
  return false;
}

/* The smallest arena (a multiple of the largest alignment) of any plan. */
static int64_t
brute_optimum(const MpBuffer *b, int n)
{
  MpBuffer c[8];
  memcpy(c, b, (size_t)n * sizeof *b);
  int64_t align = 1;
  for (int i = 0; i < n; i++)
    align = b[i].align > align ? b[i].align : align;
  for (int64_t cap = align;; cap += align)
    if (brute_fits(c, n, 0, cap))
      return cap;
}

static void
test_tiny_against_brute_force(void **state)
{
  (void)state;
  uint64_t rng = 0x2545F4914F6CDD1Du;
  MpBuffer b[8], x[8];
  int at_bound = 0, above = 0;
  for (int iter = 0; iter < 400; iter++) {
    int n = 2 + (int)(xorshift(&rng) % 5);
    random_problem(&rng, b, n, 6, 5, 2);
    int64_t opt = brute_optimum(b, n);
    int64_t align = 1;
    for (int i = 0; i < n; i++)
      align = b[i].align > align ? b[i].align : align;
    int64_t lower = (mp_lower_bound(b, n) + align - 1) / align * align;
    int64_t best = solve_valid(b, n, MP_ALGO_BEST, 50, x);
    int64_t exact = solve_valid(b, n, MP_ALGO_EXACT, 50, x);
    assert_int_equal(exact, opt);
    assert_true(best >= opt);
    if (opt == lower) {
      assert_int_equal(best, lower);
      at_bound++;
    } else {
      above++;
    }
  }
  printf("tiny: optimum at the lower bound on %d, above it on %d of 400\n", at_bound, above);
  assert_true(at_bound > 0 && above > 0);
}

/* --- CSV -------------------------------------------------------------- */

static const char *
write_temp(const char *name, const char *text)
{
  static char path[256];
  snprintf(path, sizeof path, "/tmp/rxc_test_mp_solver_%s.csv", name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  return path;
}

static void
test_csv_round_trip(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  const char *path = write_temp("ok", "id,lower,upper,size,alignment\n0,0,3,100,4\n\n1,2,5,50,1\n");
  int n;
  MpBuffer *b = mp_csv_read(ctx, path, &n);
  assert_non_null(b);
  assert_int_equal(n, 2);
  assert_int_equal(b[1].start, 2);
  assert_int_equal(b[1].end, 5);
  assert_int_equal(b[0].align, 4);
  MpOptions o = {.algorithm = MP_ALGO_BEST};
  assert_int_equal(mp_solve(b, n, &o), 152); /* 100 at 0, then 50 at 100: live together */
  IrBuf out = {0};
  mp_csv_write(b, n, true, &out);
  assert_string_equal(out.data, "id,lower,upper,size,alignment,offset\n0,0,3,100,4,0\n1,2,5,50,1,100\n");
  path = write_temp("ok2", out.data); /* read back: the offset column is ignored */
  free(b);
  b = mp_csv_read(ctx, path, &n);
  assert_non_null(b);
  assert_int_equal(n, 2);
  free(b);
  ir_buf_free(&out);
  ir_ctx_free(ctx);
}

/* Reads text; expects an error whose location and message start as given. */
static void
expect_error(const char *name, const char *text, int line, int col, const char *msg)
{
  IrCtx *ctx = ir_ctx_new();
  int n;
  MpBuffer *b = mp_csv_read(ctx, write_temp(name, text), &n);
  assert_null(b);
  assert_true(ir_error_count(ctx) > 0);
  const IrDiag *d = ir_diag_get(ctx, 0);
  assert_int_equal(d->loc.line, line);
  assert_int_equal(d->loc.col, col);
  if (strncmp(d->msg, msg, strlen(msg)) != 0)
    printf("got: %s\n", d->msg);
  assert_true(strncmp(d->msg, msg, strlen(msg)) == 0);
  ir_ctx_free(ctx);
}

static void
test_csv_errors(void **state)
{
  (void)state;
  expect_error("empty", "", 1, 1, "expected a header line");
  expect_error("nosize", "id,lower,upper\n0,0,1\n", 1, 1, "the header has no 'size' column");
  expect_error("unknown", "id,lower,upper,bytes\n", 1, 16, "unknown column 'bytes'");
  expect_error("notint", "id,lower,upper,size\n0,0,x,4\n", 2, 5, "'upper' must be an integer");
  expect_error("short", "id,lower,upper,size\n0,0,1\n", 2, 6, "expected 4 fields, found 3");
  expect_error("long", "id,lower,upper,size\n0,0,1,4,5\n", 2, 8, "more fields than");
  expect_error("backwards", "id,lower,upper,size\n0,0,1,4\n1,5,2,4\n", 3, 1,
               "lower 5 and upper 2 are not a live interval");
  expect_error("zero", "id,lower,upper,size\n0,0,1,0\n", 2, 1, "size must be at least 1");
  expect_error("align", "id,lower,upper,size,alignment\n0,0,1,4,3\n", 2, 1,
               "alignment must be a power of two");
}

/* --- MiniMalloc ------------------------------------------------------- */

/* A seeded tiling (seed 20, 40 buffers) that none of the greedy
 * heuristics fits into its 1 MiB (the best of them needs 1049563 bytes)
 * and the exact search does, as MiniMalloc's problem F was. */
static void
test_tiled_needs_exact(void **state)
{
  (void)state;
  enum { CAP = 1048576 };
  MpBuffer b[40], c[40];
  int n = tiled_problem(20, 40, CAP, b);
  assert_int_equal(n, 40);
  assert_int_equal(mp_lower_bound(b, n), CAP);
  for (int k = 0; k < NGREEDY; k++) {
    memcpy(c, b, sizeof c);
    MpOptions g = {.algorithm = greedy_algorithms[k]};
    int64_t arena = mp_solve(c, n, &g);
    assert_true(mp_validate(c, n, arena, NULL));
    assert_true(arena > CAP);
  }
  MpOptions o = {.algorithm = MP_ALGO_BEST, .budget_ms = 2000, .capacity = CAP};
  MpStats st;
  int64_t arena = mp_solve_stats(b, n, &o, &st);
  assert_true(mp_validate(b, n, arena, NULL));
  assert_int_equal(arena, CAP);
  assert_int_equal(st.chosen, MP_ALGO_EXACT); /* no greedy heuristic fits it */
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_never_above_greedy),
      cmocka_unit_test(test_tiny_against_brute_force),
      cmocka_unit_test(test_csv_round_trip),
      cmocka_unit_test(test_csv_errors),
      cmocka_unit_test(test_glow_order),
      cmocka_unit_test(test_live_index_matches_scan),
      cmocka_unit_test(test_tiled_needs_exact),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
