/*
 * local.c - the order-swap local search: first-fit in an order, and a
 * seeded random walk over orders that swaps two buffers and keeps the
 * swap when the arena does not grow (Sekiyama et al., 2018, report that
 * this reaches the lower bound on real inference graphs).  The walk is a
 * fixed function of the problem (the seed is derived from n), and it
 * stops at the target or when the work counter reaches its limit: never
 * on the clock.
 */
#include "core_int.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t
xorshift64(uint64_t *state)
{
  uint64_t x = *state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *state = x;
}

/* Improves the plan in bufs (of arena incumbent) by swapping two buffers
 * of the greedy-by-size order and keeping the swap when first-fit in the
 * new order is no larger.  Stops at an arena <= target or when *work
 * reaches work_limit (adding its work to *work).  Returns the best arena;
 * its offsets are left in bufs. */
int64_t
mp_local_search(MpBuffer *bufs, int n, int64_t incumbent, int64_t target, int64_t *work,
                int64_t work_limit)
{
  if (n < 2 || incumbent <= target)
    return incumbent;
  int *order = ir_xcalloc((size_t)n, sizeof *order);
  int64_t *best_off = ir_xcalloc((size_t)n, sizeof *best_off);
  for (int i = 0; i < n; i++)
    best_off[i] = bufs[i].offset;
  mp_order_by_size(bufs, n, order);
  int64_t best = incumbent;
  int64_t current = mp_place_in_order(bufs, n, order, false, work);
  uint64_t rng = 0x9E3779B97F4A7C15u ^ (uint64_t)n;
  while (*work < work_limit && best > target) {
    int i = (int)(xorshift64(&rng) % (uint64_t)n), j = (int)(xorshift64(&rng) % (uint64_t)n);
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
    int64_t arena = mp_place_in_order(bufs, n, order, false, work);
    if (arena <= current) {
      current = arena;
      if (arena < best) {
        best = arena;
        for (int k = 0; k < n; k++)
          best_off[k] = bufs[k].offset;
      }
    } else {
      order[j] = order[i];
      order[i] = t;
    }
  }
  for (int i = 0; i < n; i++)
    bufs[i].offset = best_off[i];
  free(order);
  free(best_off);
  return best;
}
