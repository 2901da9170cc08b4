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

/* The steps' live bytes for Glow's order: a segment tree over the m
 * distinct starts with a lazy add on ranges, giving the step with the
 * most bytes live among the steps still open (where an unplaced buffer
 * starts), the earliest among equals.  O(log m) an update. */
typedef struct {
  int leaves;     /* a power of two >= m; node 1 is the root */
  int64_t *most;  /* per node: the most bytes at an open step below, INT64_MIN: none */
  int *at;        /* per node: the earliest open step with that many */
  int64_t *delta; /* per node: an add its children have not had yet */
} StepTree;

static void
step_pull(StepTree *t, int node)
{
  int l = 2 * node, r = l + 1, pick = t->most[l] >= t->most[r] ? l : r;
  t->most[node] = t->most[pick];
  t->at[node] = t->at[pick];
}

static void
step_apply(StepTree *t, int node, int64_t d)
{
  if (t->most[node] != INT64_MIN)
    t->most[node] += d;
  t->delta[node] += d;
}

/* Adds d to the live bytes of steps [lo, hi) under node (covering
 * [nlo, nhi)); a closed step stays closed.  No sum overflows: the caller
 * checked that all the sizes together fit in int64. */
static void
step_add(StepTree *t, int node, int nlo, int nhi, int lo, int hi, int64_t d)
{
  if (hi <= nlo || nhi <= lo)
    return;
  if (lo <= nlo && nhi <= hi) {
    step_apply(t, node, d);
    return;
  }
  step_apply(t, 2 * node, t->delta[node]);
  step_apply(t, 2 * node + 1, t->delta[node]);
  t->delta[node] = 0;
  int mid = nlo + (nhi - nlo) / 2;
  step_add(t, 2 * node, nlo, mid, lo, hi, d);
  step_add(t, 2 * node + 1, mid, nhi, lo, hi, d);
  step_pull(t, node);
}

/* Closes step s: no unplaced buffer starts there any more. */
static void
step_close(StepTree *t, int node, int nlo, int nhi, int s)
{
  if (nhi - nlo == 1) {
    t->most[node] = INT64_MIN;
    return;
  }
  step_apply(t, 2 * node, t->delta[node]);
  step_apply(t, 2 * node + 1, t->delta[node]);
  t->delta[node] = 0;
  int mid = nlo + (nhi - nlo) / 2;
  if (s < mid)
    step_close(t, 2 * node, nlo, mid, s);
  else
    step_close(t, 2 * node + 1, mid, nhi, s);
  step_pull(t, node);
}

/* The tree of steps [0, m) with live[t] bytes each, open where
 * nstart[t] > 0. */
static void
step_tree_init(StepTree *t, const int64_t *live, const int *nstart, int m)
{
  t->leaves = 1;
  while (t->leaves < m)
    t->leaves *= 2;
  t->most = ir_xcalloc(2 * (size_t)t->leaves, sizeof *t->most);
  t->at = ir_xcalloc(2 * (size_t)t->leaves, sizeof *t->at);
  t->delta = ir_xcalloc(2 * (size_t)t->leaves, sizeof *t->delta);
  for (int s = 0; s < t->leaves; s++) {
    t->most[t->leaves + s] = s < m && nstart[s] > 0 ? live[s] : INT64_MIN;
    t->at[t->leaves + s] = s;
  }
  for (int node = t->leaves - 1; node >= 1; node--)
    step_pull(t, node);
}

/* The unplaced buffers live at each step, in the size order: a segment
 * tree over the steps whose nodes list (by rank in the size order) the
 * buffers whose steps [lo, hi) cover them and not their parent's, so
 * those live at step s are in the lists on s's leaf-to-root path.  Each
 * list is read from its first unplaced entry on (placed entries are
 * skipped once, for good): the first buffer in the size order live at s
 * costs O(log m) plus the skips. */
typedef struct {
  int leaves;
  int *first;   /* per node: its list is rank[first[node] .. first[node + 1]) */
  int *next;    /* per node: the first entry that may still be unplaced */
  int *rank;    /* the lists, one after another */
} RankTree;

/* For each node covering part of [lo, hi) whose parent's range is not
 * inside it: counts it in count when r < 0 (sizing the lists), else
 * appends rank r to its list. */
static void
rank_cover(RankTree *t, int node, int nlo, int nhi, int lo, int hi, int *count, int r)
{
  if (hi <= nlo || nhi <= lo)
    return;
  if (lo <= nlo && nhi <= hi) {
    if (r < 0)
      count[node]++;
    else
      t->rank[t->next[node]++] = r;
    return;
  }
  int mid = nlo + (nhi - nlo) / 2;
  rank_cover(t, 2 * node, nlo, mid, lo, hi, count, r);
  rank_cover(t, 2 * node + 1, mid, nhi, lo, hi, count, r);
}

static void
rank_tree_init(RankTree *t, const int *by_size, const int *lo, const int *hi, int n, int m)
{
  t->leaves = 1;
  while (t->leaves < m)
    t->leaves *= 2;
  size_t nodes = 2 * (size_t)t->leaves;
  int *count = ir_xcalloc(nodes, sizeof *count);
  t->first = ir_xcalloc(nodes + 1, sizeof *t->first);
  t->next = ir_xcalloc(nodes, sizeof *t->next);
  for (int r = 0; r < n; r++)
    rank_cover(t, 1, 0, t->leaves, lo[by_size[r]], hi[by_size[r]], count, -1);
  for (size_t node = 0; node < nodes; node++)
    t->first[node + 1] = t->first[node] + count[node];
  t->rank = ir_xcalloc((size_t)t->first[nodes] + 1, sizeof *t->rank);
  for (size_t node = 0; node < nodes; node++)
    t->next[node] = t->first[node];
  for (int r = 0; r < n; r++) /* ascending ranks: each list comes out sorted */
    rank_cover(t, 1, 0, t->leaves, lo[by_size[r]], hi[by_size[r]], count, r);
  for (size_t node = 0; node < nodes; node++)
    t->next[node] = t->first[node];
  free(count);
}

/* The first rank in the size order of an unplaced buffer live at step s
 * (done: by buffer index). */
static int
rank_first_live(RankTree *t, int s, const int *by_size, const bool *done)
{
  int best = INT32_MAX;
  for (int node = t->leaves + s; node >= 1; node /= 2) {
    int *k = &t->next[node];
    while (*k < t->first[node + 1] && done[by_size[t->rank[*k]]])
      (*k)++;
    if (*k < t->first[node + 1] && t->rank[*k] < best)
      best = t->rank[*k];
  }
  return best;
}

/* Whether the sizes of bufs add up to more than INT64_MAX. */
static bool
sizes_overflow(const MpBuffer *bufs, int n)
{
  int64_t sum = 0;
  for (int i = 0; i < n; i++) {
    if (bufs[i].size > INT64_MAX - sum)
      return true;
    sum += bufs[i].size;
  }
  return false;
}

/* Glow's order read directly, in O(n * (n + m)): for each buffer placed,
 * every step for the busiest and the size order for the first live
 * there.  Kept for sizes that do not fit in int64 together: live bytes
 * then saturate at INT64_MAX and saturated steps compare equal, which the
 * trees' exact sums would not reproduce. */
static void
glow_order_saturating(const MpBuffer *bufs, int n, const int *by_size, const int *lo,
                      const int *hi, int *nstart, uint64_t *live, int m, int *order)
{
  bool *done = ir_xcalloc((size_t)n, sizeof *done);
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
  free(done);
}

/* Glow's order with the busiest step from a StepTree and the first
 * buffer in the size order live there from a RankTree: O(n log n) plus
 * the lists' O(n log m), where the direct reading was O(n^2) (a
 * 100,000-binding model has 12,500 buffers and as many steps). */
static void
glow_order_trees(const MpBuffer *bufs, int n, const int *by_size, const int *lo, const int *hi,
                 int *nstart, const uint64_t *live, int m, int *order)
{
  int64_t *exact = ir_xcalloc((size_t)m, sizeof *exact);
  for (int t = 0; t < m; t++)
    exact[t] = (int64_t)live[t]; /* <= the sum of the sizes, which fits */
  StepTree steps;
  RankTree ranks;
  step_tree_init(&steps, exact, nstart, m);
  rank_tree_init(&ranks, by_size, lo, hi, n, m);
  bool *done = ir_xcalloc((size_t)n, sizeof *done);
  for (int k = 0; k < n; k++) {
    int at = steps.at[1];
    int i = by_size[rank_first_live(&ranks, at, by_size, done)];
    order[k] = i;
    done[i] = true;
    if (--nstart[lo[i]] == 0)
      step_close(&steps, 1, 0, steps.leaves, lo[i]);
    step_add(&steps, 1, 0, steps.leaves, lo[i], hi[i], -bufs[i].size);
  }
  free(exact), free(done);
  free(steps.most), free(steps.at), free(steps.delta);
  free(ranks.first), free(ranks.next), free(ranks.rank);
}

/* Glow's order: while buffers are left, the step (the start of an
 * unplaced buffer) with the most unplaced bytes live, the earliest among
 * equals, and there the largest unplaced buffer (ties by the size order).
 * Numbers the distinct starts (m steps), gives each buffer its steps
 * [lo, hi), counts the buffers starting at each step and the bytes live
 * there, then orders by the trees (or directly, when sizes overflow). */
static void
glow_order(const MpBuffer *bufs, int n, int *order)
{
  int *by_size = ir_xcalloc((size_t)n, sizeof *by_size), *lo = ir_xcalloc((size_t)n, sizeof *lo),
      *hi = ir_xcalloc((size_t)n, sizeof *hi), *nstart = ir_xcalloc((size_t)n, sizeof *nstart);
  int64_t *starts = ir_xcalloc((size_t)n, sizeof *starts);
  uint64_t *live = ir_xcalloc((size_t)n + 1, sizeof *live);
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
  if (sizes_overflow(bufs, n))
    glow_order_saturating(bufs, n, by_size, lo, hi, nstart, live, m, order);
  else
    glow_order_trees(bufs, n, by_size, lo, hi, nstart, live, m, order);
  free(by_size), free(lo), free(hi), free(nstart), free(starts), free(live);
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
