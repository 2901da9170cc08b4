/*
 * live_index.c - the placed buffers by live interval, for the greedy
 * placement (core.c, mp_place_in_order): which placed buffers are live
 * together with the one being placed?
 *
 * Key idea: an interval tree laid over the buffers sorted by start (an
 * implicit, static, balanced tree: leaves are the sorted buffers, as in a
 * segment tree).  Each node keeps the smallest start below it (fixed) and
 * the largest live end of a *placed* buffer below it (INT64_MIN while
 * none is).  A query for [s, e) skips every subtree whose placed buffers
 * all end by s, or whose buffers all start at or after e, so it visits
 * O((k + 1) log n) nodes for k buffers found (Cormen et al., "Introduction
 * to Algorithms", 14.3: the max-endpoint augmentation), where the scan it
 * replaces looked at all n buffers for each of n placements: O(n^2), 1 s
 * of a 100,000-binding compile.  Placing a buffer updates one leaf-to-root
 * path.
 *
 * The buffers found are exactly mp_spans_live_with's (core.c), and come
 * out sorted the same way, so every plan is the same as the scan's.
 */
#include "core_int.h"

#include <stdlib.h>

struct MpLiveIndex {
  const MpBuffer *bufs;
  int leaves;         /* a power of two >= n; node 1 is the root, leaf p is node leaves + p */
  int *buffer_at;     /* leaf position -> buffer index (n of them) */
  int *position;      /* buffer index -> leaf position */
  int64_t *min_start; /* per node: the smallest start below (INT64_MAX: no buffer) */
  int64_t *max_end;   /* per node: the largest live end of a placed buffer below */
};

typedef struct {
  int64_t start;
  int index;
} StartKey;

static int
start_key_cmp(const void *pa, const void *pb)
{
  const StartKey *a = pa, *b = pb;
  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  return (a->index > b->index) - (a->index < b->index);
}

/* The index of bufs[0..n) with nothing placed; bufs must outlive it.
 * O(n log n). */
MpLiveIndex *
mp_live_index_new(const MpBuffer *bufs, int n)
{
  MpLiveIndex *ix = ir_xcalloc(1, sizeof *ix);
  ix->bufs = bufs;
  ix->leaves = 1;
  while (ix->leaves < n)
    ix->leaves *= 2;
  StartKey *keys = ir_xcalloc((size_t)(n ? n : 1), sizeof *keys);
  for (int i = 0; i < n; i++)
    keys[i] = (StartKey){bufs[i].start, i};
  qsort(keys, (size_t)n, sizeof *keys, start_key_cmp);
  ix->buffer_at = ir_xcalloc((size_t)(n ? n : 1), sizeof *ix->buffer_at);
  ix->position = ir_xcalloc((size_t)(n ? n : 1), sizeof *ix->position);
  ix->min_start = ir_xcalloc(2 * (size_t)ix->leaves, sizeof *ix->min_start);
  ix->max_end = ir_xcalloc(2 * (size_t)ix->leaves, sizeof *ix->max_end);
  for (int node = 0; node < 2 * ix->leaves; node++)
    ix->min_start[node] = INT64_MAX, ix->max_end[node] = INT64_MIN;
  for (int p = 0; p < n; p++) {
    ix->buffer_at[p] = keys[p].index;
    ix->position[keys[p].index] = p;
    ix->min_start[ix->leaves + p] = keys[p].start;
  }
  for (int node = ix->leaves - 1; node >= 1; node--) {
    int64_t l = ix->min_start[2 * node], r = ix->min_start[2 * node + 1];
    ix->min_start[node] = l < r ? l : r;
  }
  free(keys);
  return ix;
}

void
mp_live_index_free(MpLiveIndex *ix)
{
  if (!ix)
    return;
  free(ix->buffer_at);
  free(ix->position);
  free(ix->min_start);
  free(ix->max_end);
  free(ix);
}

/* Marks bufs[i] placed: its live end goes up its path.  O(log n). */
void
mp_live_index_place(MpLiveIndex *ix, int i)
{
  int64_t end = mp_live_end(&ix->bufs[i]);
  for (int node = ix->leaves + ix->position[i]; node >= 1 && ix->max_end[node] < end; node /= 2)
    ix->max_end[node] = end;
}

/* Appends to spans[*m] the bytes of each placed buffer under node that
 * is live during [start, end). */
static void
collect(const MpLiveIndex *ix, int node, int64_t start, int64_t end, MpSpan *spans, int *m)
{
  if (ix->max_end[node] <= start || ix->min_start[node] >= end)
    return;
  if (node >= ix->leaves) {
    const MpBuffer *p = &ix->bufs[ix->buffer_at[node - ix->leaves]];
    spans[(*m)++] = (MpSpan){p->offset, mp_add_sat(p->offset, p->size)};
    return;
  }
  collect(ix, 2 * node, start, end, spans, m);
  collect(ix, 2 * node + 1, start, end, spans, m);
}

/* The bytes of the placed buffers live with b into spans, sorted by
 * their low end (as mp_spans_live_with); returns how many. */
int
mp_live_index_spans(const MpLiveIndex *ix, const MpBuffer *b, MpSpan *spans)
{
  int m = 0;
  collect(ix, 1, b->start, mp_live_end(b), spans, &m);
  mp_spans_sort(spans, m);
  return m;
}
