/* mp_testutil.h - the seeded tiled problems of test_mp_core.c and
 * test_mp_solver.c: memory-planning problems whose optimal arena is known. */
#ifndef RXC_MP_TESTUTIL_H
#define RXC_MP_TESTUTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "../../memplan/mp.h"

/* A seeded problem whose optimal arena is known (issue 33: made here, not
 * read from ../shared/bench-data): the rectangle of steps [0, 200) by bytes
 * [0, CAP) cut by guillotine cuts (a random side, a random place) into
 * `want` pieces, each a buffer.  The pieces tile it, so CAP bytes are live
 * at every step: the lower bound is CAP and a plan of CAP exists, the
 * shape of MiniMalloc's challenging problems. */
static uint64_t
rng_next(uint64_t *s)
{
  *s = *s * 6364136223846793005ull + 1442695040888963407ull; /* Knuth's MMIX LCG */
  return *s >> 33;
}

static int64_t
rng_range(uint64_t *s, int64_t lo, int64_t hi)
{
  return lo + (int64_t)(rng_next(s) % (uint64_t)(hi - lo + 1));
}

static int
tile_cut(uint64_t *s, MpBuffer *b, int n, int want, int64_t t0, int64_t t1, int64_t a0, int64_t a1)
{
  if (n + 1 >= want || (t1 - t0 < 2 && a1 - a0 < 2)) {
    b[n] = (MpBuffer){.id = n, .start = t0, .end = t1, .size = a1 - a0, .align = 1};
    return n + 1;
  }
  bool in_time = a1 - a0 < 2 || (t1 - t0 >= 2 && rng_next(s) % 2);
  int left = want - n;
  int first = left / 2 > 1 ? (int)rng_range(s, 1, left - 1) : 1;
  if (in_time) {
    int64_t m = rng_range(s, t0 + 1, t1 - 1);
    n = tile_cut(s, b, n, n + first, t0, m, a0, a1);
    return tile_cut(s, b, n, want, m, t1, a0, a1);
  }
  int64_t m = rng_range(s, a0 + 1, a1 - 1);
  n = tile_cut(s, b, n, n + first, t0, t1, a0, m);
  return tile_cut(s, b, n, want, t0, t1, m, a1);
}

/* Fills b (room for want) with the tiling of seed; returns the count. */
static int
tiled_problem(uint64_t seed, int want, int64_t cap, MpBuffer *b)
{
  return tile_cut(&seed, b, 0, want, 0, 200, 0, cap);
}

#endif
