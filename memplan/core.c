/*
 * core.c - the planner's core on intervals: bounds, placement in an order
 * (first-fit or best-fit), and mp_solve, which runs the algorithms.
 *
 * Key idea: every greedy algorithm is "place in some order" (Sekiyama et
 * al., "Profile-guided memory optimization for deep neural networks",
 * 2018; the greedy-by-size planner of TensorFlow Lite): each buffer goes
 * to the lowest (first-fit) or smallest (best-fit) aligned gap that
 * misses every already placed buffer whose live interval meets its own;
 * the orders are in greedy.c.  mp_solve keeps the smallest plan of the
 * greedy ones, then, while above its target (the rounded lower bound, or
 * a capacity), runs the order-swap local search (local.c) and the exact
 * search (search.c).
 *
 * Conventions shared by every algorithm:
 *  - intervals are half-open [start, end); a buffer with start == end is
 *    treated as live at its start step, [start, start + 1), so it still
 *    gets an offset that no buffer live at that step overlaps;
 *  - the arena is the highest end of a placed buffer rounded up to the
 *    largest alignment;
 *  - sums saturate at INT64_MAX (see core_int.h): a plan that would not fit
 *    in int64 comes back as INT64_MAX, above any limit, never wrapped;
 *  - invalid input (size <= 0, an alignment that is not a power of two
 *    >= 1, end < start) makes mp_solve return -1 without placing;
 *  - ties are broken by id, then by position in the array, so the same
 *    input always gives the same offsets (the search budgets count work,
 *    not wall time; see core_int.h).
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
  Event *ev = ir_xmalloc(2 * (size_t)n * sizeof *ev);
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

static int
span_cmp(const void *pa, const void *pb)
{
  const MpSpan *a = pa, *b = pb;
  if (a->lo != b->lo)
    return a->lo < b->lo ? -1 : 1;
  return (a->hi > b->hi) - (a->hi < b->hi);
}

/* The lowest multiple of align where size bytes miss every span (sorted
 * by lo): the gap below the lowest span first, then each gap upwards. */
static int64_t
lowest_gap(const MpSpan *spans, int k, int64_t size, int64_t align)
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

void
mp_spans_sort(MpSpan *spans, int m)
{
  qsort(spans, (size_t)m, sizeof *spans, span_cmp);
}

/* The bytes of the placed buffers live with b into spans, sorted by
 * their low end; returns how many.  A scan of every buffer: the
 * reference that live_index.c's tree must agree with. */
int
mp_spans_live_with(const MpBuffer *bufs, int n, const bool *placed, const MpBuffer *b,
                   MpSpan *spans)
{
  int m = 0;
  for (int j = 0; j < n; j++)
    if (placed[j] && mp_live_together(b, &bufs[j]))
      spans[m++] = (MpSpan){bufs[j].offset, mp_add_sat(bufs[j].offset, bufs[j].size)};
  mp_spans_sort(spans, m);
  return m;
}

/* The smallest gap of spans (sorted by lo) that holds size bytes at an
 * aligned offset, the lowest among equals; the open space above every
 * span when no bounded gap does. */
static int64_t
smallest_gap(const MpSpan *spans, int k, int64_t size, int64_t align)
{
  int64_t best = -1, best_room = INT64_MAX, lo = 0;
  for (int i = 0; i <= k; i++) {
    int64_t hi = i < k ? spans[i].lo : INT64_MAX;
    int64_t off = mp_align_up(lo, align);
    if (hi > off && hi - off >= size) {
      int64_t room = hi == INT64_MAX ? INT64_MAX : hi - lo;
      if (best < 0 || room < best_room)
        best = off, best_room = room;
    }
    if (i < k && spans[i].hi > lo)
      lo = spans[i].hi;
  }
  return best;
}

/* Places bufs[order[0]], bufs[order[1]], ... each in a gap among the
 * placed buffers live with it (found by live_index.c's tree): the lowest
 * (first-fit) or the smallest (best-fit); returns the arena.  Adds the
 * work to *work (when non-NULL) in the units the budgets were measured
 * in, those of the scan of every placed buffer the tree replaced: the
 * budgets, and so the plans, stay what they were. */
int64_t
mp_place_in_order(MpBuffer *bufs, int n, const int *order, bool best_fit, int64_t *work)
{
  MpSpan *spans = ir_xcalloc((size_t)n, sizeof *spans);
  MpLiveIndex *placed = mp_live_index_new(bufs, n);
  int64_t top = 0;
  for (int k = 0; k < n; k++) {
    MpBuffer *b = &bufs[order[k]];
    int m = mp_live_index_spans(placed, b, spans);
    b->offset = best_fit ? smallest_gap(spans, m, b->size, b->align)
                         : lowest_gap(spans, m, b->size, b->align);
    mp_live_index_place(placed, order[k]);
    int64_t end = mp_add_sat(b->offset, b->size);
    if (end > top)
      top = end;
    if (work)
      *work += 4 * (int64_t)n + 8 * (int64_t)m; /* the scan, and the sort of m spans */
  }
  free(spans);
  mp_live_index_free(placed);
  return mp_align_up(top, mp_max_align(bufs, n));
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

/* The greedy heuristics of mp_solve: an order and a gap rule each. */
typedef struct {
  MpAlgorithm algorithm;
  MpOrder order;
  bool best_fit;
} Greedy;

static const Greedy greedies[] = {
    {MP_ALGO_GREEDY_SIZE, MP_ORDER_SIZE, false},
    {MP_ALGO_GREEDY_BREADTH, MP_ORDER_START, false},
    {MP_ALGO_GREEDY_LENGTH, MP_ORDER_LENGTH, false},
    {MP_ALGO_GREEDY_AREA, MP_ORDER_AREA, false},
    {MP_ALGO_GREEDY_GLOW, MP_ORDER_GLOW, false},
    {MP_ALGO_BEST_FIT, MP_ORDER_SIZE, true},
};
enum { NGREEDIES = sizeof greedies / sizeof greedies[0] };

static int64_t
run_greedy(MpBuffer *bufs, int n, const Greedy *g, int64_t *work)
{
  int *order = ir_xcalloc((size_t)n, sizeof *order);
  mp_order(bufs, n, g->order, order);
  int64_t arena = mp_place_in_order(bufs, n, order, g->best_fit, work);
  free(order);
  return arena;
}

/* The state of one mp_solve: the best plan so far and the budget. */
typedef struct {
  MpBuffer *bufs;
  int n;
  int64_t *best_off; /* offsets of the best plan */
  int64_t best;      /* its arena (INT64_MAX: none yet) */
  int64_t target;    /* stop at an arena <= target */
  int64_t align;     /* the largest alignment: arenas are its multiples */
  int64_t limit;     /* of work */
  MpStats st;
} Solve;

/* Keeps the plan in s->bufs (of arena arena, by algorithm a) when smaller;
 * leaves the best plan in s->bufs. */
static void
offer(Solve *s, int64_t arena, MpAlgorithm a)
{
  if (arena < s->best) {
    s->best = arena;
    s->st.chosen = a;
    save_offsets(s->bufs, s->n, s->best_off);
  }
  load_offsets(s->bufs, s->n, s->best_off);
}

/* The exact search between the target and the best arena: first whether
 * the target fits (with half the budget left, or all of it when a
 * capacity was given), then a bisection of what is left, each probe with
 * half the budget left.  A probe that fits lowers the best; one that
 * provably does not raises the low end; one that runs out of budget
 * raises it too (the bisection is then a heuristic; the plan stays
 * valid). */
static void
exact(Solve *s, bool capacity_given)
{
  if (s->n > MP_EXACT_MAX_BUFFERS)
    return;
  int64_t lo = s->target;
  bool first = true;
  while (lo < s->best && s->st.work < s->limit && s->best > s->target) {
    int64_t mid = first ? lo : lo + (s->best - lo) / 2 / s->align * s->align;
    int64_t left = s->limit - s->st.work;
    int64_t limit = s->st.work + (first && capacity_given ? left : left / 2 + 1);
    MpFitStatus r = mp_fit(s->bufs, s->n, mid, &s->st.work, limit);
    if (r == MP_FIT_FOUND)
      offer(s, mp_align_up(mid, s->align), MP_ALGO_EXACT);
    else
      lo = mid + s->align;
    if (r == MP_FIT_NONE && lo >= s->best)
      s->st.optimal = true; /* nothing below the best fits */
    first = false;
  }
}

/* The greedy algorithms a needs (every one for best and local, by size
 * for exact), keeping the smallest plan. */
static void
greedy_phase(Solve *s, MpAlgorithm a)
{
  bool all = a == MP_ALGO_BEST || a == MP_ALGO_LOCAL;
  for (int g = 0; g < NGREEDIES; g++)
    if (all || greedies[g].algorithm == a || (a == MP_ALGO_EXACT && g == 0))
      offer(s, run_greedy(s->bufs, s->n, &greedies[g], &s->st.work), greedies[g].algorithm);
}

/* Runs algorithm a (not pooled) under o's budget and target; the plan is
 * left in bufs, its arena returned. */
static int64_t
solve_packed(MpBuffer *bufs, int n, MpAlgorithm a, const MpOptions *o, MpStats *st)
{
  int64_t budget = o && o->budget_ms > 0 ? o->budget_ms : MP_DEFAULT_BUDGET_MS;
  Solve s = {.bufs = bufs, .n = n, .best = INT64_MAX, .align = mp_max_align(bufs, n)};
  s.best_off = ir_xcalloc((size_t)n, sizeof *s.best_off);
  s.limit = budget > INT64_MAX / MP_WORK_PER_MS ? INT64_MAX : budget * MP_WORK_PER_MS;
  int64_t lower = mp_align_up(mp_lower_bound(bufs, n), s.align);
  s.target = lower;
  bool capacity_given = o && o->capacity > 0;
  if (capacity_given && o->capacity / s.align * s.align > lower)
    s.target = o->capacity / s.align * s.align;
  s.st.chosen = a;
  greedy_phase(&s, a);
  if (s.best > s.target && (a == MP_ALGO_BEST || a == MP_ALGO_LOCAL)) {
    int64_t share = (s.limit - s.st.work) / 8, cap = MP_LOCAL_MAX_MS * MP_WORK_PER_MS;
    int64_t limit = a == MP_ALGO_LOCAL ? s.limit : s.st.work + (share < cap ? share : cap);
    offer(&s, mp_local_search(bufs, n, s.best, s.target, &s.st.work, limit), MP_ALGO_LOCAL);
  }
  if (s.best > s.target && (a == MP_ALGO_BEST || a == MP_ALGO_EXACT))
    exact(&s, capacity_given);
  s.st.optimal |= s.best <= lower;
  load_offsets(bufs, n, s.best_off);
  free(s.best_off);
  if (st)
    *st = s.st;
  return s.best;
}

static const char *const algorithm_names[MP_NALGORITHMS] = {
    [MP_ALGO_BEST] = "best",
    [MP_ALGO_GREEDY_SIZE] = "greedy_size",
    [MP_ALGO_GREEDY_BREADTH] = "greedy_breadth",
    [MP_ALGO_EXACT] = "exact",
    [MP_ALGO_POOLED] = "pooled",
    [MP_ALGO_GREEDY_LENGTH] = "greedy_length",
    [MP_ALGO_GREEDY_AREA] = "greedy_area",
    [MP_ALGO_GREEDY_GLOW] = "greedy_glow",
    [MP_ALGO_BEST_FIT] = "best_fit",
    [MP_ALGO_LOCAL] = "local",
};

const char *
mp_algorithm_name(MpAlgorithm a)
{
  return (int)a >= 0 && (int)a < MP_NALGORITHMS ? algorithm_names[a] : "?";
}

/* Runs the algorithm; a packing plan larger than the naive one (first-fit
 * can lose to it through alignment padding) is replaced by the naive plan,
 * so no arena but the pooled one ever exceeds the naive sum (rounded). */
int64_t
mp_solve_stats(MpBuffer *bufs, int n, const MpOptions *o, MpStats *st)
{
  MpAlgorithm algorithm = o ? o->algorithm : MP_ALGO_BEST;
  if (st)
    *st = (MpStats){.chosen = algorithm};
  if (n <= 0)
    return 0;
  if (!valid_input(bufs, n))
    return -1;
  int64_t arena = algorithm == MP_ALGO_POOLED ? mp_pooled(bufs, n)
                                              : solve_packed(bufs, n, algorithm, o, st);
  if (algorithm != MP_ALGO_POOLED &&
      arena > mp_align_up(mp_naive_sum(bufs, n), mp_max_align(bufs, n)))
    arena = one_after_another(bufs, n);
  return arena;
}

int64_t
mp_solve(MpBuffer *bufs, int n, const MpOptions *o)
{
  return mp_solve_stats(bufs, n, o, NULL);
}
