/*
 * search.c - the exact search: does every buffer fit below a capacity?
 * A depth-first search over canonical plans, after MiniMalloc (Moffitt,
 * "MiniMalloc: A Lightweight Memory Allocator for Hardware-Accelerated
 * Machine Learning", ASPLOS 2023); written from the paper's rules, not
 * from its code.
 *
 * Key idea.  Push every buffer of a plan down until it rests on a buffer
 * live with it (or on 0): the plan is no larger, and each buffer's offset
 * is the (aligned) highest end of the buffers live with it that lie
 * lower.  Listing those buffers by increasing offset, each lies at its
 * "minimum offset" given the ones before: so the search places buffers in
 * nondecreasing offset order, each at its minimum offset, and only has to
 * choose which buffer comes next.  The rules that keep the tree small:
 *  - canonical order: the next buffer's offset is at least the last one's
 *    (ties broken by a static rank), so each plan is reached once;
 *  - dominance: a buffer is not placed at or above the point where some
 *    other unplaced buffer would end if placed at its own minimum: that
 *    buffer would fit entirely in the gap below, so a pushed-down plan
 *    never leaves it;
 *  - section inference: the time line is cut into sections at every start
 *    and end; in each, the unplaced buffers all lie above the section's
 *    floor (the top of its last placed buffer, the offset being placed,
 *    and the smallest minimum offset of its unplaced buffers), so floor
 *    plus their total bytes must stay within the capacity;
 *  - decomposition: when no unplaced buffer spans the boundary between
 *    two sections, the buffers left of it and right of it are independent
 *    problems, solved one after the other without backtracking between
 *    them;
 *  - candidates are tried by minimum offset, then by the static rank: one
 *    of three orders (by largest section total, lifetime and area, in
 *    turn), run round-robin with a doubling limit of work, so one bad
 *    order cannot use the whole budget.
 *
 * Work (candidates examined plus updates made) is counted, not time: the
 * same input and budget give the same answer on any machine.
 */
#include "core_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NHEURISTICS = 3 };

typedef struct {
  int64_t offset; /* the buffer's minimum offset */
  int rank;       /* its static rank */
  int index;
} Candidate;

typedef struct {
  int index;  /* buffer (min offset) or section (floor) */
  bool floor; /* which of the two */
  int64_t old;
} Change;

typedef struct {
  const MpBuffer *bufs;
  int n;
  int64_t capacity;
  int nsec;              /* sections between consecutive event steps */
  int *sec_lo, *sec_hi;  /* per buffer: the sections [lo, hi) it spans */
  int *ov_at, *ov;       /* per buffer: ov[ov_at[i] .. ov_at[i+1]) live with it */
  int *in_at, *in;       /* per section: in[in_at[k] .. in_at[k+1]) live in it */
  int64_t *floor, *total;/* per section: floor, bytes of unplaced buffers */
  int *cuts;             /* per boundary k (sections k, k+1): unplaced buffers across */
  int64_t *off;          /* per buffer: offset, -1 while unplaced */
  int64_t *min_off;      /* per buffer: lowest offset above the placed ones */
  int64_t *solution;     /* offsets of the plan found */
  int *rank;             /* per buffer: position in the static order */
  int heuristic;         /* which static order (rank_buffers) */
  Change *changes;       /* undo stack */
  int nchanges, change_cap;
  bool *affected;        /* per section: listed in aff (scratch of place) */
  int *aff, naff;        /* sections whose unplaced buffers moved up */
  int64_t work, limit;
} Fit;

typedef enum { FOUND, NONE, ABORTED } Status;

static int
int64_cmp(const void *pa, const void *pb)
{
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return (a > b) - (a < b);
}

static int
find_step(const int64_t *t, int m, int64_t v)
{
  const int64_t *p = bsearch(&v, t, (size_t)m, sizeof *t, int64_cmp);
  return (int)(p - t);
}

/* Sections, the buffers of each, the overlaps and the cut counts. */
static void
sweep(Fit *f)
{
  int n = f->n;
  int64_t *t = ir_xcalloc(2 * (size_t)n, sizeof *t);
  for (int i = 0; i < n; i++) {
    t[2 * i] = f->bufs[i].start;
    t[2 * i + 1] = mp_live_end(&f->bufs[i]);
  }
  qsort(t, 2 * (size_t)n, sizeof *t, int64_cmp);
  int m = 0;
  for (int i = 0; i < 2 * n; i++)
    if (m == 0 || t[m - 1] != t[i])
      t[m++] = t[i];
  f->nsec = m - 1;
  f->sec_lo = ir_xcalloc((size_t)n, sizeof(int));
  f->sec_hi = ir_xcalloc((size_t)n, sizeof(int));
  f->in_at = ir_xcalloc((size_t)m + 1, sizeof(int));
  f->total = ir_xcalloc((size_t)m, sizeof(int64_t));
  f->cuts = ir_xcalloc((size_t)m, sizeof(int));
  for (int i = 0; i < n; i++) {
    f->sec_lo[i] = find_step(t, m, f->bufs[i].start);
    f->sec_hi[i] = find_step(t, m, mp_live_end(&f->bufs[i]));
    for (int k = f->sec_lo[i]; k < f->sec_hi[i]; k++) {
      f->in_at[k + 1]++;
      f->total[k] = mp_add_sat(f->total[k], f->bufs[i].size);
      if (k + 1 < f->sec_hi[i])
        f->cuts[k]++;
    }
  }
  for (int k = 0; k < m; k++)
    f->in_at[k + 1] += f->in_at[k];
  f->in = ir_xcalloc((size_t)f->in_at[m], sizeof(int));
  int *fill = ir_xcalloc((size_t)m, sizeof(int));
  for (int i = 0; i < n; i++)
    for (int k = f->sec_lo[i]; k < f->sec_hi[i]; k++)
      f->in[f->in_at[k] + fill[k]++] = i;
  free(fill);
  free(t);
}

/* Per buffer, the buffers live with it (those sharing a section). */
static void
overlaps(Fit *f)
{
  int n = f->n;
  f->ov_at = ir_xcalloc((size_t)n + 1, sizeof(int));
  for (int pass = 0; pass < 2; pass++) {
    int at = 0;
    for (int i = 0; i < n; i++) {
      f->ov_at[i] = pass ? f->ov_at[i] : at;
      for (int j = 0; j < n; j++)
        if (j != i && f->sec_lo[i] < f->sec_hi[j] && f->sec_lo[j] < f->sec_hi[i]) {
          if (pass)
            f->ov[at] = j;
          at++;
        }
    }
    f->ov_at[n] = at;
    if (!pass)
      f->ov = ir_xcalloc((size_t)at, sizeof(int));
  }
}

static void
fit_init(Fit *f, const MpBuffer *bufs, int n)
{
  memset(f, 0, sizeof *f);
  f->bufs = bufs;
  f->n = n;
  sweep(f);
  overlaps(f);
  f->floor = ir_xcalloc((size_t)f->nsec + 1, sizeof(int64_t));
  f->off = ir_xcalloc((size_t)n, sizeof(int64_t));
  f->min_off = ir_xcalloc((size_t)n, sizeof(int64_t));
  f->solution = ir_xcalloc((size_t)n, sizeof(int64_t));
  f->rank = ir_xcalloc((size_t)n, sizeof(int));
  f->affected = ir_xcalloc((size_t)f->nsec + 1, sizeof(bool));
  f->aff = ir_xcalloc((size_t)f->nsec + 1, sizeof(int));
  f->change_cap = 64;
  f->changes = ir_xcalloc((size_t)f->change_cap, sizeof(Change));
}

static void
fit_free(Fit *f)
{
  free(f->sec_lo), free(f->sec_hi), free(f->ov_at), free(f->ov), free(f->in_at), free(f->in);
  free(f->floor), free(f->total), free(f->cuts), free(f->off);
  free(f->min_off), free(f->solution), free(f->rank), free(f->changes), free(f->affected);
  free(f->aff);
}

/* The static orders: keys compared descending, in the heuristic's order. */
typedef struct {
  int64_t key[3];
  int index;
} RankKey;

static int
rank_cmp(const void *pa, const void *pb)
{
  const RankKey *a = pa, *b = pb;
  for (int k = 0; k < 3; k++)
    if (a->key[k] != b->key[k])
      return a->key[k] > b->key[k] ? -1 : 1;
  return a->index - b->index;
}

/* Ranks the buffers of list (count m) among themselves by f->heuristic:
 * 0 lifetime, area, section total; 1 section total, area, lifetime;
 * 2 section total, lifetime, area.  The section total of a buffer is the
 * largest total of unplaced bytes in a section it spans, as it stands. */
static void
rank_buffers(Fit *f, const int *list, int m)
{
  static const int orders[NHEURISTICS][3] = {{1, 2, 0}, {0, 2, 1}, {0, 1, 2}};
  RankKey *keys = ir_xcalloc((size_t)m, sizeof *keys);
  for (int r = 0; r < m; r++) {
    int i = list[r];
    const MpBuffer *b = &f->bufs[i];
    int64_t length = mp_live_end(b) - b->start, total = 0;
    int64_t area = length > 0 && b->size > INT64_MAX / length ? INT64_MAX : length * b->size;
    for (int k = f->sec_lo[i]; k < f->sec_hi[i]; k++)
      total = f->total[k] > total ? f->total[k] : total;
    int64_t k3[3] = {total, length, area};
    for (int j = 0; j < 3; j++)
      keys[r].key[j] = k3[orders[f->heuristic][j]];
    keys[r].index = i;
  }
  qsort(keys, (size_t)m, sizeof *keys, rank_cmp);
  for (int r = 0; r < m; r++)
    f->rank[keys[r].index] = r;
  f->work += m;
  free(keys);
}

static void
push_change(Fit *f, int index, bool is_floor, int64_t old)
{
  if (f->nchanges == f->change_cap) {
    f->change_cap *= 2;
    f->changes = ir_xrealloc(f->changes, (size_t)f->change_cap * sizeof *f->changes);
  }
  f->changes[f->nchanges++] = (Change){index, is_floor, old};
}

/* Places buffer b at its minimum offset: raises the minimum offsets of the
 * unplaced buffers live with it, and the floors of its sections and of
 * the sections whose unplaced buffers all moved up. */
static void
place(Fit *f, int b)
{
  int64_t height = mp_add_sat(f->min_off[b], f->bufs[b].size);
  f->off[b] = f->min_off[b];
  for (int k = f->sec_lo[b]; k < f->sec_hi[b]; k++) {
    push_change(f, k, true, f->floor[k]);
    f->floor[k] = height;
    f->total[k] -= f->bufs[b].size;
    if (k + 1 < f->sec_hi[b])
      f->cuts[k]--;
  }
  for (int e = f->ov_at[b]; e < f->ov_at[b + 1]; e++) {
    int u = f->ov[e];
    if (f->off[u] >= 0 || f->min_off[u] >= height)
      continue;
    push_change(f, u, false, f->min_off[u]);
    f->min_off[u] = mp_align_up(height, f->bufs[u].align);
    for (int k = f->sec_lo[u]; k < f->sec_hi[u]; k++)
      if (!f->affected[k]) {
        f->affected[k] = true;
        f->aff[f->naff++] = k;
      }
  }
  f->work += f->ov_at[b + 1] - f->ov_at[b] + f->sec_hi[b] - f->sec_lo[b];
  for (int a = 0; a < f->naff; a++) {
    int k = f->aff[a];
    f->affected[k] = false;
    int64_t low = INT64_MAX;
    for (int e = f->in_at[k]; e < f->in_at[k + 1]; e++)
      if (f->off[f->in[e]] < 0 && f->min_off[f->in[e]] < low)
        low = f->min_off[f->in[e]];
    f->work += f->in_at[k + 1] - f->in_at[k];
    if (low != INT64_MAX && f->floor[k] < low) {
      push_change(f, k, true, f->floor[k]);
      f->floor[k] = low;
    }
  }
  f->naff = 0;
}

/* Undoes place(f, b): the changes above mark, in reverse. */
static void
unplace(Fit *f, int b, int mark)
{
  while (f->nchanges > mark) {
    Change c = f->changes[--f->nchanges];
    if (c.floor)
      f->floor[c.index] = c.old;
    else
      f->min_off[c.index] = c.old;
  }
  for (int k = f->sec_lo[b]; k < f->sec_hi[b]; k++) {
    f->total[k] += f->bufs[b].size;
    if (k + 1 < f->sec_hi[b])
      f->cuts[k]++;
  }
  f->off[b] = -1;
}

/* Section inference over sections [lo, hi) after placing at offset. */
static bool
consistent(Fit *f, int lo, int hi, int64_t offset)
{
  f->work += hi - lo;
  for (int k = lo; k < hi; k++) {
    int64_t floor = f->floor[k] > offset ? f->floor[k] : offset;
    if (f->total[k] > 0 && mp_add_sat(floor, f->total[k]) > f->capacity)
      return false;
  }
  return true;
}

static int
candidate_cmp(const void *pa, const void *pb)
{
  const Candidate *a = pa, *b = pb;
  if (a->offset != b->offset)
    return a->offset < b->offset ? -1 : 1;
  return a->rank - b->rank;
}

static Status solve_part(Fit *f, int lo, int hi);
static Status search(Fit *f, int lo, int hi, int64_t low, int last_rank);

/* After placing b in sections [lo, hi): the boundaries b alone held
 * together split the rest into independent parts, solved in turn; if
 * none, the search goes on in one piece. */
static Status
decompose(Fit *f, int lo, int hi, int b)
{
  int first = f->sec_lo[b] > lo ? f->sec_lo[b] : lo;
  int last = f->sec_hi[b] < hi ? f->sec_hi[b] : hi;
  bool split = false;
  for (int k = first; k + 1 < last && !split; k++)
    split = f->cuts[k] == 0;
  if (!split)
    return search(f, lo, hi, f->off[b], f->rank[b]);
  int from = lo;
  for (int k = lo; k < hi; k++) {
    bool cut = k + 1 == hi || (f->cuts[k] == 0 && k + 1 >= first && k + 1 < last);
    if (!cut)
      continue;
    Status s = solve_part(f, from, k + 1);
    if (s != FOUND)
      return s;
    from = k + 1;
  }
  return FOUND;
}

/* Places, at its minimum offset, each unplaced buffer of sections [lo, hi)
 * that may come next (canonical order after offset low and rank
 * last_rank; not above a gap another buffer fits in), best first. */
static Status
search(Fit *f, int lo, int hi, int64_t low, int last_rank)
{
  if (f->work > f->limit)
    return ABORTED;
  Candidate *c = ir_xcalloc((size_t)f->n, sizeof *c);
  int nc = 0;
  int64_t min_height = INT64_MAX;
  for (int k = lo; k < hi; k++)
    for (int e = f->in_at[k]; e < f->in_at[k + 1]; e++) {
      int i = f->in[e];
      if (f->off[i] >= 0 || f->sec_lo[i] != k)
        continue; /* placed, or met in its first section already */
      c[nc++] = (Candidate){f->min_off[i], f->rank[i], i};
      int64_t h = mp_add_sat(f->min_off[i], f->bufs[i].size);
      min_height = h < min_height ? h : min_height;
    }
  f->work += f->in_at[hi] - f->in_at[lo] + 1;
  Status result = NONE;
  if (nc == 0) {
    result = FOUND;
  } else {
    qsort(c, (size_t)nc, sizeof *c, candidate_cmp);
    f->work += nc;
    for (int j = 0; j < nc && result == NONE; j++) {
      int b = c[j].index;
      if (c[j].offset < low || (c[j].offset == low && c[j].rank < last_rank) ||
          c[j].offset >= min_height || mp_add_sat(c[j].offset, f->bufs[b].size) > f->capacity)
        continue;
      int mark = f->nchanges;
      place(f, b);
      if (consistent(f, lo, hi, c[j].offset))
        result = decompose(f, lo, hi, b);
      if (result == FOUND)
        f->solution[b] = f->off[b];
      unplace(f, b, mark);
    }
  }
  free(c);
  return result;
}

/* A fresh search of the unplaced buffers of sections [lo, hi), ranked
 * anew by the totals as they stand (the ranks are restored after). */
static Status
solve_part(Fit *f, int lo, int hi)
{
  int *list = ir_xcalloc((size_t)(f->in_at[hi] - f->in_at[lo]) + 1, sizeof *list);
  int m = 0;
  for (int k = lo; k < hi; k++)
    for (int e = f->in_at[k]; e < f->in_at[k + 1]; e++)
      if (f->off[f->in[e]] < 0 && f->sec_lo[f->in[e]] == k)
        list[m++] = f->in[e];
  int *saved = ir_xcalloc((size_t)m + 1, sizeof *saved);
  for (int r = 0; r < m; r++)
    saved[r] = f->rank[list[r]];
  rank_buffers(f, list, m);
  Status s = search(f, lo, hi, 0, -1);
  for (int r = 0; r < m; r++)
    f->rank[list[r]] = saved[r];
  free(saved);
  free(list);
  return s;
}

/* Independent parts of the whole problem (boundaries no buffer spans). */
static Status
solve_all(Fit *f)
{
  int from = 0;
  for (int k = 0; k < f->nsec; k++)
    if (k + 1 == f->nsec || f->cuts[k] == 0) {
      Status s = solve_part(f, from, k + 1);
      if (s != FOUND)
        return s;
      from = k + 1;
    }
  return FOUND;
}

/* Whether bufs fit below capacity (the highest end of a buffer at most
 * capacity): MP_FIT_FOUND with the offsets left in bufs, MP_FIT_NONE when
 * the search proved that no plan fits, MP_FIT_ABORTED when *work reached
 * work_limit first (bufs unchanged then).  Adds the work done to *work. */
MpFitStatus
mp_fit(MpBuffer *bufs, int n, int64_t capacity, int64_t *work, int64_t work_limit)
{
  if (n == 0)
    return MP_FIT_FOUND;
  Fit f;
  fit_init(&f, bufs, n);
  f.capacity = capacity;
  f.work = *work;
  Status s = ABORTED;
  for (int64_t round = n; s == ABORTED && f.work < work_limit; round *= 2)
    for (int h = 0; h < NHEURISTICS && s == ABORTED && f.work < work_limit; h++) {
      f.heuristic = h;
      for (int i = 0; i < n; i++) {
        f.off[i] = -1;
        f.min_off[i] = 0;
      }
      f.limit = f.work + round < work_limit ? f.work + round : work_limit;
      s = solve_all(&f);
    }
  if (s == FOUND)
    for (int i = 0; i < n; i++)
      bufs[i].offset = f.solution[i];
  *work = f.work;
  fit_free(&f);
  return s == FOUND ? MP_FIT_FOUND : s == NONE ? MP_FIT_NONE : MP_FIT_ABORTED;
}
