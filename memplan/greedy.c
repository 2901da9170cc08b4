/*
 * greedy.c - the orders of the one-pass heuristics: each buffer in turn
 * then goes to a gap among the placed buffers live with it (core.c).
 *
 * Orders (largest key first; ties by id, then by position, so the result
 * is deterministic):
 *  - size: the greedy-by-size planner of TensorFlow Lite and Sekiyama et
 *    al. ("Profile-guided memory optimization for deep neural networks",
 *    2018); ties by the longer lifetime;
 *  - start: program order (greedy by breadth), ties by size;
 *  - length: the longest lifetime first, ties by size;
 *  - area: size x lifetime first;
 *  - glow: Glow's activation allocator (Rotem et al., 2018) picks, again
 *    and again, the step where the most unplaced bytes are live and
 *    places the largest unplaced buffer live there.
 * The gaps (core.c, mp_place_in_order): first-fit takes the lowest gap
 * where the buffer fits; best-fit the smallest such gap (a bounded gap
 * before the open space above every placed buffer), the lowest among
 * equals.  Both look at the gap below the lowest placed buffer too.
 */
#include "core_int.h"

#include <stdio.h>
#include <stdlib.h>

/* qsort with the array as context is not in C11: keys beside the index. */
typedef struct {
  int64_t key1, key2; /* compared ascending: negate for largest first */
  int id, index;
} OrderKey;

static int
order_key_cmp(const void *pa, const void *pb)
{
  const OrderKey *a = pa, *b = pb;
  if (a->key1 != b->key1)
    return a->key1 < b->key1 ? -1 : 1;
  if (a->key2 != b->key2)
    return a->key2 < b->key2 ? -1 : 1;
  if (a->id != b->id)
    return a->id < b->id ? -1 : 1;
  return a->index - b->index;
}

static int64_t
length_of(const MpBuffer *b)
{
  return mp_live_end(b) - b->start;
}

static int64_t
area_of(const MpBuffer *b)
{
  int64_t l = length_of(b);
  return l > 0 && b->size > INT64_MAX / l ? INT64_MAX : l * b->size;
}

/* Fills order by the keys of order kind k (MpOrder). */
static void
sorted_order(const MpBuffer *bufs, int n, MpOrder k, int *order)
{
  OrderKey *keys = ir_xcalloc((size_t)n, sizeof *keys);
  for (int i = 0; i < n; i++) {
    const MpBuffer *b = &bufs[i];
    int64_t k1 = 0, k2 = 0;
    switch (k) {
    case MP_ORDER_SIZE:
      k1 = -b->size, k2 = -length_of(b);
      break;
    case MP_ORDER_START:
      k1 = b->start, k2 = -b->size;
      break;
    case MP_ORDER_LENGTH:
      k1 = -length_of(b), k2 = -b->size;
      break;
    case MP_ORDER_AREA:
    case MP_ORDER_GLOW:
      k1 = -area_of(b), k2 = -b->size;
      break;
    }
    keys[i] = (OrderKey){k1, k2, b->id, i};
  }
  qsort(keys, (size_t)n, sizeof *keys, order_key_cmp);
  for (int i = 0; i < n; i++)
    order[i] = keys[i].index;
  free(keys);
}

static int
cmp_int64(const void *pa, const void *pb)
{
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return a < b ? -1 : a > b;
}

/* The index of the first of the m ascending values s[] that is >= v. */
static int
first_at_least(const int64_t *s, int m, int64_t v)
{
  int lo = 0, hi = m;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (s[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Glow's order: while buffers are left, the step (the start of an
 * unplaced buffer) with the most unplaced bytes live, the earliest among
 * equals, and there the largest unplaced buffer (ties by the size order).
 * The bytes live at each distinct start are kept up to date as buffers
 * are placed: O(n * m) for m distinct starts. */
static void
glow_order(const MpBuffer *bufs, int n, int *order)
{
  int *by_size = ir_xcalloc((size_t)n, sizeof *by_size), *lo = ir_xcalloc((size_t)n, sizeof *lo),
      *hi = ir_xcalloc((size_t)n, sizeof *hi), *nstart = ir_xcalloc((size_t)n, sizeof *nstart);
  int64_t *starts = ir_xcalloc((size_t)n, sizeof *starts);
  uint64_t *live = ir_xcalloc((size_t)n + 1, sizeof *live);
  bool *done = ir_xcalloc((size_t)n, sizeof *done);
  sorted_order(bufs, n, MP_ORDER_SIZE, by_size);
  int m = 0;
  for (int i = 0; i < n; i++)
    starts[i] = bufs[i].start;
  qsort(starts, (size_t)n, sizeof *starts, cmp_int64);
  for (int i = 0; i < n; i++)
    if (m == 0 || starts[m - 1] != starts[i])
      starts[m++] = starts[i];
  for (int i = 0; i < n; i++) { /* bufs[i] is live at starts[lo[i] .. hi[i]) */
    lo[i] = first_at_least(starts, m, bufs[i].start);
    hi[i] = first_at_least(starts, m, mp_live_end(&bufs[i]));
    nstart[lo[i]]++;
    live[lo[i]] += (uint64_t)bufs[i].size;
    live[hi[i]] -= (uint64_t)bufs[i].size;
  }
  for (int t = 1; t < m; t++)
    live[t] += live[t - 1];
  for (int k = 0; k < n; k++) {
    int64_t most = -1;
    int at = 0;
    for (int t = 0; t < m; t++) {
      int64_t l = live[t] > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)live[t];
      if (nstart[t] > 0 && l > most)
        most = l, at = t;
    }
    int i = 0;
    for (int r = 0; r < n; r++) {
      i = by_size[r];
      if (!done[i] && lo[i] <= at && at < hi[i])
        break;
    }
    order[k] = i;
    done[i] = true;
    nstart[lo[i]]--;
    for (int t = lo[i]; t < hi[i]; t++)
      live[t] -= (uint64_t)bufs[i].size;
  }
  free(by_size), free(lo), free(hi), free(nstart), free(starts), free(live), free(done);
}

void
mp_order(const MpBuffer *bufs, int n, MpOrder k, int *order)
{
  if (k == MP_ORDER_GLOW)
    glow_order(bufs, n, order);
  else
    sorted_order(bufs, n, k, order);
}

void
mp_order_by_size(const MpBuffer *bufs, int n, int *order)
{
  sorted_order(bufs, n, MP_ORDER_SIZE, order);
}
