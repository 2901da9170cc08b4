/*
 * exact.c - the exact search (branch and bound) for small problems and an
 * order-swap local search for larger ones; both improve an incumbent plan
 * and stop at the rounded lower bound or at the budget.
 *
 * Key idea of the exact search: any plan can be pushed down until no
 * buffer can move lower by its alignment without a conflict; then each
 * buffer lies at 0 or at the aligned end of a buffer live with it that
 * lies lower.  Listing the buffers of such a plan by (offset, index)
 * shows that placing buffers in increasing (offset, index) order, each at
 * 0 or at the aligned end of an already placed buffer live with it,
 * reaches every pushed-down plan: the search is complete (up to its
 * budget).  A branch is cut when its lower bound reaches the best arena:
 * the highest end so far, each unplaced buffer at its lowest free offset
 * above the current one, and the current offset plus the bytes of unplaced
 * buffers live at one step (they all lie above it).  This is the order of
 * MiniMalloc (Moffitt, ASPLOS 2023), without its further cuts.
 *
 * Budgets count work (placed buffers examined), not time, so the result
 * does not depend on the machine; a wall-clock guard at ten times the
 * budget (plus a second) only protects against a far slower machine than calibrated.
 */
#include "core_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

static int64_t
now_ms(void)
{
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

typedef struct {
  int64_t offset;
  int index;
} Branch;

typedef struct {
  MpBuffer *bufs;
  int n;
  int64_t max_align;
  bool *together;     /* n * n: buffers i and j live at one step */
  bool *placed;       /* n */
  int64_t *best_off;  /* n: offsets of the best plan */
  int64_t best;       /* its arena */
  int64_t target;     /* the rounded lower bound: no plan is smaller */
  int ntimes;         /* distinct start steps */
  bool *live;         /* n * ntimes: buffer i live at start step k */
  int64_t *unplaced;  /* ntimes: bytes of unplaced buffers live at step k */
  Branch *branches;   /* n * (n + 1) per depth: the branches of each level */
  int64_t work;       /* placed buffers examined so far */
  int64_t work_limit;
  int64_t deadline;   /* wall-clock guard, now_ms() units */
  bool stop;
} Search;

static int
branch_cmp(const void *pa, const void *pb)
{
  const Branch *a = pa, *b = pb;
  if (a->offset != b->offset)
    return a->offset < b->offset ? -1 : 1;
  return a->index - b->index;
}

/* Whether bufs[u] at offset misses every placed buffer live with it. */
static bool
fits(Search *s, int u, int64_t offset)
{
  const MpBuffer *b = &s->bufs[u];
  int64_t end = mp_add_sat(offset, b->size);
  for (int j = 0; j < s->n; j++) {
    if (!s->placed[j] || !s->together[u * s->n + j])
      continue;
    s->work++;
    const MpBuffer *p = &s->bufs[j];
    if (p->offset < end && offset < mp_add_sat(p->offset, p->size))
      return false;
  }
  return true;
}

/* Appends to br the branches of buffer u: 0 (when low is 0) and the aligned
 * ends of placed buffers live with it, at or above low, free, and after
 * (low, last) in (offset, index) order.  Returns u's lowest free offset at
 * or above low, whether or not it is a branch (for the bound). */
static int64_t
branches_of(Search *s, int u, int64_t low, int last, Branch *br, int *nbr)
{
  const MpBuffer *b = &s->bufs[u];
  int64_t lowest = INT64_MAX;
  for (int j = -1; j < s->n; j++) {
    int64_t c;
    if (j < 0)
      c = mp_align_up(low, b->align); /* for the bound; a branch only at 0 */
    else if (s->placed[j] && s->together[u * s->n + j])
      c = mp_align_up(mp_add_sat(s->bufs[j].offset, s->bufs[j].size), b->align);
    else
      continue;
    if (c < low || c == INT64_MAX || !fits(s, u, c))
      continue;
    if (c < lowest)
      lowest = c;
    bool after = c > low || (c == low && u > last);
    if ((j >= 0 || c == 0) && after)
      br[(*nbr)++] = (Branch){c, u};
  }
  return lowest;
}

static void
record(Search *s, int64_t top)
{
  int64_t arena = mp_align_up(top, s->max_align);
  if (arena >= s->best)
    return;
  s->best = arena;
  for (int i = 0; i < s->n; i++)
    s->best_off[i] = s->bufs[i].offset;
  if (arena <= s->target)
    s->stop = true;
}

static void
place(Search *s, int u, int64_t offset, int sign)
{
  s->bufs[u].offset = offset;
  s->placed[u] = sign < 0;
  for (int k = 0; k < s->ntimes; k++)
    if (s->live[u * s->ntimes + k])
      s->unplaced[k] += sign * s->bufs[u].size;
}

/* Extends the partial plan (depth buffers placed, the last one, index
 * last, at offset low; top the highest end) in every way, best first. */
static void
search(Search *s, int depth, int64_t low, int last, int64_t top)
{
  if (s->stop)
    return;
  if (depth == s->n) {
    record(s, top);
    return;
  }
  if (s->work > s->work_limit || now_ms() > s->deadline) {
    s->stop = true;
    return;
  }
  int64_t bound = top, most = 0;
  for (int k = 0; k < s->ntimes; k++)
    most = s->unplaced[k] > most ? s->unplaced[k] : most;
  bound = mp_add_sat(low, most) > bound ? mp_add_sat(low, most) : bound;
  Branch *br = s->branches + (size_t)depth * (size_t)s->n * ((size_t)s->n + 1);
  int nbr = 0;
  for (int u = 0; u < s->n && mp_align_up(bound, s->max_align) < s->best; u++) {
    if (s->placed[u])
      continue;
    int64_t lowest = branches_of(s, u, low, last, br, &nbr);
    int64_t end = mp_add_sat(lowest, s->bufs[u].size);
    bound = end > bound ? end : bound;
  }
  if (mp_align_up(bound, s->max_align) < s->best) {
    qsort(br, (size_t)nbr, sizeof *br, branch_cmp);
    for (int i = 0; i < nbr && !s->stop; i++) {
      if (i > 0 && branch_cmp(&br[i - 1], &br[i]) == 0)
        continue;
      int u = br[i].index;
      int64_t end = mp_add_sat(br[i].offset, s->bufs[u].size);
      if (mp_align_up(end > top ? end : top, s->max_align) >= s->best)
        continue;
      place(s, u, br[i].offset, -1);
      search(s, depth + 1, br[i].offset, u, end > top ? end : top);
      place(s, u, 0, +1);
    }
  }
}

static int
time_cmp(const void *pa, const void *pb)
{
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return (a > b) - (a < b);
}

/* The distinct start steps, and which buffers are live at each. */
static void
init_times(Search *s)
{
  int64_t *t = xcalloc((size_t)s->n, sizeof *t);
  for (int i = 0; i < s->n; i++)
    t[i] = s->bufs[i].start;
  qsort(t, (size_t)s->n, sizeof *t, time_cmp);
  int m = 0;
  for (int i = 0; i < s->n; i++)
    if (m == 0 || t[m - 1] != t[i])
      t[m++] = t[i];
  s->ntimes = m;
  s->live = xcalloc((size_t)s->n * (size_t)m, sizeof *s->live);
  s->unplaced = xcalloc((size_t)m, sizeof *s->unplaced);
  for (int i = 0; i < s->n; i++)
    for (int k = 0; k < m; k++)
      if (s->bufs[i].start <= t[k] && t[k] < mp_live_end(&s->bufs[i])) {
        s->live[i * m + k] = true;
        s->unplaced[k] = mp_add_sat(s->unplaced[k], s->bufs[i].size);
      }
  free(t);
}

/* Improves the plan in bufs (of arena incumbent) by branch and bound;
 * returns the arena of the best plan found, whose offsets are left in
 * bufs.  Stops at the rounded lower bound or after budget_ms of work. */
int64_t
mp_exact_search(MpBuffer *bufs, int n, int64_t incumbent, int64_t budget_ms)
{
  Search s = {.bufs = bufs, .n = n, .max_align = mp_max_align(bufs, n), .best = incumbent};
  s.target = mp_align_up(mp_lower_bound(bufs, n), s.max_align);
  if (n == 0 || incumbent <= s.target)
    return incumbent;
  s.best_off = xcalloc((size_t)n, sizeof *s.best_off);
  for (int i = 0; i < n; i++)
    s.best_off[i] = bufs[i].offset;
  s.together = xcalloc((size_t)n * (size_t)n, sizeof *s.together);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s.together[i * n + j] = i != j && mp_live_together(&bufs[i], &bufs[j]);
  s.placed = xcalloc((size_t)n, sizeof *s.placed);
  s.branches = xcalloc((size_t)n * (size_t)n * ((size_t)n + 1), sizeof *s.branches);
  init_times(&s);
  s.work_limit = budget_ms * MP_WORK_PER_MS;
  s.deadline = now_ms() + 10 * budget_ms + 1000;
  search(&s, 0, 0, -1, 0);
  for (int i = 0; i < n; i++)
    bufs[i].offset = s.best_off[i];
  free(s.best_off);
  free(s.together);
  free(s.placed);
  free(s.live);
  free(s.unplaced);
  free(s.branches);
  return s.best;
}

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
 * new order is no larger (a seeded, deterministic walk).  Returns the best
 * arena; its offsets are left in bufs. */
int64_t
mp_local_search(MpBuffer *bufs, int n, int64_t incumbent, int64_t budget_ms)
{
  int64_t target = mp_align_up(mp_lower_bound(bufs, n), mp_max_align(bufs, n));
  if (n < 2 || incumbent <= target)
    return incumbent;
  int *order = xcalloc((size_t)n, sizeof *order);
  int64_t *best_off = xcalloc((size_t)n, sizeof *best_off);
  for (int i = 0; i < n; i++)
    best_off[i] = bufs[i].offset;
  mp_order_by_size(bufs, n, order);
  int64_t best = incumbent, work = 0, limit = budget_ms * MP_WORK_PER_MS;
  int64_t current = mp_first_fit(bufs, n, order, &work);
  int64_t deadline = now_ms() + 10 * budget_ms + 1000;
  uint64_t rng = 0x9E3779B97F4A7C15u ^ (uint64_t)n;
  while (work < limit && best > target && now_ms() <= deadline) {
    int i = (int)(xorshift64(&rng) % (uint64_t)n), j = (int)(xorshift64(&rng) % (uint64_t)n);
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
    int64_t arena = mp_first_fit(bufs, n, order, &work);
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
