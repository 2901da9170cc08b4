/*
 * core.c - the planner's core on intervals: bounds, greedy first-fit
 * placement, and mp_solve, which picks an algorithm.
 *
 * Key idea: every placement algorithm here but the pooled one is
 * "first-fit in some order" (Sekiyama et al., "Profile-guided memory
 * optimization for deep neural networks", 2018; the greedy-by-size
 * planner of TensorFlow Lite): each buffer goes to the lowest aligned
 * offset that misses every already placed buffer whose live interval
 * meets its own.  Greedy by size and greedy by breadth differ only in
 * the order; the exact search (exact.c) and the local search start from
 * the greedy result.
 *
 * Conventions shared by every algorithm:
 *  - intervals are half-open [start, end); a buffer with start == end is
 *    treated as live at its start step, [start, start + 1), so it still
 *    gets an offset that no buffer live at that step overlaps;
 *  - the arena is the highest end of a placed buffer rounded up to the
 *    largest alignment;
 *  - sums saturate at INT64_MAX (see mp_int.h): a plan that would not fit
 *    in int64 comes back as INT64_MAX, above any limit, never wrapped;
 *  - invalid input (size <= 0, an alignment that is not a power of two
 *    >= 1, end < start) makes mp_solve return -1 without placing;
 *  - ties are broken by id, then by position in the array, so the same
 *    input always gives the same offsets (the search budgets count work,
 *    not wall time; see mp_int.h).
 */
#include "core_int.h"

#include <stdio.h>
#include <stdlib.h>

/* a + b for b >= 0, INT64_MAX when that does not fit. */
int64_t
mp_add_sat(int64_t a, int64_t b)
{
  return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* v rounded up to a multiple of align (a power of two); INT64_MAX when
 * that does not fit. */
int64_t
mp_align_up(int64_t v, int64_t align)
{
  if (v > INT64_MAX - (align - 1))
    return INT64_MAX;
  return (v + (align - 1)) & ~(align - 1);
}

int64_t
mp_live_end(const MpBuffer *b)
{
  return b->end > b->start ? b->end : mp_add_sat(b->start, 1);
}

bool
mp_live_together(const MpBuffer *a, const MpBuffer *b)
{
  return a->start < mp_live_end(b) && b->start < mp_live_end(a);
}

int64_t
mp_max_align(const MpBuffer *bufs, int n)
{
  int64_t a = 1;
  for (int i = 0; i < n; i++)
    if (bufs[i].align > a)
      a = bufs[i].align;
  return a;
}

int64_t
mp_naive_sum(const MpBuffer *bufs, int n)
{
  int64_t sum = 0;
  for (int i = 0; i < n; i++)
    sum = mp_add_sat(mp_align_up(sum, bufs[i].align), bufs[i].size);
  return sum;
}

typedef struct {
  int64_t time;
  int64_t delta; /* +size at a start, -size at an end */
} Event;

static int
event_cmp(const void *pa, const void *pb)
{
  const Event *a = pa, *b = pb;
  if (a->time != b->time)
    return a->time < b->time ? -1 : 1;
  return (a->delta > b->delta) - (a->delta < b->delta); /* ends first */
}

/* A sweep over the sorted starts and ends (ends first at one step, as the
 * intervals are half-open): the largest running total is the bound.
 * O(n log n).  Saturates at INT64_MAX. */
int64_t
mp_lower_bound(const MpBuffer *bufs, int n)
{
  if (n <= 0)
    return 0;
  Event *ev = malloc(2 * (size_t)n * sizeof *ev);
  if (!ev) {
    fprintf(stderr, "rxc: out of memory\n");
    abort(); /* out of memory, as ir_alloc */
  }
  for (int i = 0; i < n; i++) {
    ev[2 * i] = (Event){bufs[i].start, bufs[i].size};
    ev[2 * i + 1] = (Event){mp_live_end(&bufs[i]), -bufs[i].size};
  }
  qsort(ev, 2 * (size_t)n, sizeof *ev, event_cmp);
  /* The running total is kept exact in unsigned arithmetic (the sizes of
   * one step may exceed INT64_MAX together) and saturated when read. */
  uint64_t live = 0, best = 0;
  for (int i = 0; i < 2 * n; i++) {
    live += (uint64_t)ev[i].delta;
    if (ev[i].delta > 0 && live > best)
      best = live;
  }
  free(ev);
  return best > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)best;
}

typedef struct {
  int64_t lo, hi; /* bytes [lo, hi) of a placed buffer */
} Span;

static int
span_cmp(const void *pa, const void *pb)
{
  const Span *a = pa, *b = pb;
  if (a->lo != b->lo)
    return a->lo < b->lo ? -1 : 1;
  return (a->hi > b->hi) - (a->hi < b->hi);
}

/* The lowest multiple of align where size bytes miss every span (sorted
 * by lo): the gap below the lowest span first, then each gap upwards. */
static int64_t
lowest_gap(const Span *spans, int k, int64_t size, int64_t align)
{
  int64_t off = 0;
  for (int i = 0; i < k; i++) {
    if (spans[i].hi <= off)
      continue;
    if (mp_add_sat(off, size) <= spans[i].lo)
      break;
    off = mp_align_up(spans[i].hi, align);
  }
  return off;
}

static void *
xcalloc(size_t count, size_t size)
{
  void *p = calloc(count ? count : 1, size);
  if (!p) {
    fprintf(stderr, "rxc: out of memory\n");
    abort(); /* out of memory, as ir_alloc */
  }
  return p;
}

/* Places bufs[order[0]], bufs[order[1]], ... each at its lowest gap among
 * the placed buffers live with it; returns the arena.  Adds to *work (when
 * non-NULL) the number of placed buffers examined. */
int64_t
mp_first_fit(MpBuffer *bufs, int n, const int *order, int64_t *work)
{
  Span *spans = xcalloc((size_t)n, sizeof *spans);
  bool *placed = xcalloc((size_t)n, sizeof *placed);
  int64_t top = 0;
  for (int k = 0; k < n; k++) {
    MpBuffer *b = &bufs[order[k]];
    int m = 0;
    for (int j = 0; j < n; j++)
      if (placed[j] && mp_live_together(b, &bufs[j]))
        spans[m++] = (Span){bufs[j].offset, mp_add_sat(bufs[j].offset, bufs[j].size)};
    qsort(spans, (size_t)m, sizeof *spans, span_cmp);
    b->offset = lowest_gap(spans, m, b->size, b->align);
    placed[order[k]] = true;
    int64_t end = mp_add_sat(b->offset, b->size);
    if (end > top)
      top = end;
    if (work)
      *work += n;
  }
  free(spans);
  free(placed);
  return mp_align_up(top, mp_max_align(bufs, n));
}

/* Orders of the greedy algorithms: qsort with the array as context is not
 * in C11, so the keys are copied beside the index. */
typedef struct {
  int64_t key1, key2; /* compared descending (size, then lifetime) or key1 ascending */
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

static void
sort_order(OrderKey *keys, int n, int *order)
{
  qsort(keys, (size_t)n, sizeof *keys, order_key_cmp);
  for (int i = 0; i < n; i++)
    order[i] = keys[i].index;
}

/* Largest first; ties: the longer lifetime, then id, then position. */
void
mp_order_by_size(const MpBuffer *bufs, int n, int *order)
{
  OrderKey *keys = xcalloc((size_t)n, sizeof *keys);
  for (int i = 0; i < n; i++)
    keys[i] = (OrderKey){-bufs[i].size, -(mp_live_end(&bufs[i]) - bufs[i].start), bufs[i].id, i};
  sort_order(keys, n, order);
  free(keys);
}

/* Earliest start first; ties: the larger buffer, then id, then position. */
static void
order_by_start(const MpBuffer *bufs, int n, int *order)
{
  OrderKey *keys = xcalloc((size_t)n, sizeof *keys);
  for (int i = 0; i < n; i++)
    keys[i] = (OrderKey){bufs[i].start, -bufs[i].size, bufs[i].id, i};
  sort_order(keys, n, order);
  free(keys);
}

static int64_t
greedy(MpBuffer *bufs, int n, bool by_size)
{
  int *order = xcalloc((size_t)n, sizeof *order);
  if (by_size)
    mp_order_by_size(bufs, n, order);
  else
    order_by_start(bufs, n, order);
  int64_t arena = mp_first_fit(bufs, n, order, NULL);
  free(order);
  return arena;
}

static bool
valid_input(const MpBuffer *bufs, int n)
{
  for (int i = 0; i < n; i++) {
    const MpBuffer *b = &bufs[i];
    if (b->size <= 0 || b->align <= 0 || (b->align & (b->align - 1)) != 0 || b->end < b->start)
      return false;
  }
  return true;
}

static void
save_offsets(const MpBuffer *bufs, int n, int64_t *to)
{
  for (int i = 0; i < n; i++)
    to[i] = bufs[i].offset;
}

static void
load_offsets(MpBuffer *bufs, int n, const int64_t *from)
{
  for (int i = 0; i < n; i++)
    bufs[i].offset = from[i];
}

/* Buffers one after another in array order (the naive plan). */
static int64_t
one_after_another(MpBuffer *bufs, int n)
{
  int64_t end = 0;
  for (int i = 0; i < n; i++) {
    bufs[i].offset = mp_align_up(end, bufs[i].align);
    end = mp_add_sat(bufs[i].offset, bufs[i].size);
  }
  return mp_align_up(end, mp_max_align(bufs, n));
}

/* The smallest plan of greedy by size, greedy by breadth, then (when the
 * best is above the lower bound) the exact search for small problems or
 * the order-swap local search for larger ones.  Ties keep the earlier. */
static int64_t
solve_best(MpBuffer *bufs, int n, int64_t budget_ms)
{
  int64_t *best = xcalloc((size_t)n, sizeof *best);
  int64_t arena = greedy(bufs, n, true);
  save_offsets(bufs, n, best);
  int64_t breadth = greedy(bufs, n, false);
  if (breadth < arena) {
    arena = breadth;
    save_offsets(bufs, n, best);
  }
  load_offsets(bufs, n, best);
  int64_t target = mp_align_up(mp_lower_bound(bufs, n), mp_max_align(bufs, n));
  if (arena > target) {
    if (n <= MP_EXACT_MAX_BUFFERS)
      arena = mp_exact_search(bufs, n, arena, budget_ms);
    else
      arena = mp_local_search(bufs, n, arena, budget_ms);
  }
  free(best);
  return arena;
}

static int64_t
solve_packed(MpBuffer *bufs, int n, MpAlgorithm algorithm, int64_t budget)
{
  switch (algorithm) {
  case MP_ALGO_GREEDY_SIZE:
    return greedy(bufs, n, true);
  case MP_ALGO_GREEDY_BREADTH:
    return greedy(bufs, n, false);
  case MP_ALGO_EXACT: {
    int64_t arena = greedy(bufs, n, true);
    if (n > MP_EXACT_MAX_BUFFERS)
      return arena; /* too large to search: the incumbent stands */
    return mp_exact_search(bufs, n, arena, budget);
  }
  case MP_ALGO_POOLED:
    return mp_pooled(bufs, n);
  case MP_ALGO_BEST:
    return solve_best(bufs, n, budget);
  }
  return -1;
}

/* Runs the algorithm; a packing plan larger than the naive one (first-fit
 * can lose to it through alignment padding) is replaced by the naive plan,
 * so no arena but the pooled one ever exceeds the naive sum (rounded). */
int64_t
mp_solve(MpBuffer *bufs, int n, const MpOptions *o)
{
  if (n <= 0)
    return 0;
  if (!valid_input(bufs, n))
    return -1;
  int64_t budget = o && o->budget_ms > 0 ? o->budget_ms : MP_DEFAULT_BUDGET_MS;
  MpAlgorithm algorithm = o ? o->algorithm : MP_ALGO_BEST;
  int64_t arena = solve_packed(bufs, n, algorithm, budget);
  if (algorithm != MP_ALGO_POOLED &&
      arena > mp_align_up(mp_naive_sum(bufs, n), mp_max_align(bufs, n)))
    arena = one_after_another(bufs, n);
  return arena;
}
