/*
 * core_int.h - internals shared by the files of the planner's core
 * (core.c, greedy.c, local.c, search.c, pooled.c); no other folder includes it.
 *
 * Every sum of offsets and sizes saturates at INT64_MAX instead of
 * overflowing: a saturated arena is larger than any limit a caller sets,
 * so it is rejected as "too large" rather than wrapping to a small number.
 */
#ifndef RXC_MP_CORE_INT_H
#define RXC_MP_CORE_INT_H

#include "mp.h"

/* The exact search is tried only up to this many buffers (its tables are
 * quadratic: at most 16 MB of overlap lists). */
#define MP_EXACT_MAX_BUFFERS 2000
/* Units of search work (a buffer examined) per millisecond of budget,
 * measured on the 2-core Debian 12 machine the project is built on: the
 * budget is counted in work, not in wall time, so that results do not
 * depend on the machine's speed or load. */
#define MP_WORK_PER_MS 400000
/* The local search's share of mp_solve's budget is an eighth, at most
 * this many milliseconds: on real graphs it reaches the lower bound in far
 * less, and on adversarial problems the exact search needs the rest. */
#define MP_LOCAL_MAX_MS 250
/* budget_ms <= 0 in MpOptions means this. */
#define MP_DEFAULT_BUDGET_MS 1000

/* The orders of the greedy heuristics (greedy.c). */
typedef enum {
  MP_ORDER_SIZE,   /* largest first, ties: the longer lifetime */
  MP_ORDER_START,  /* earliest start first, ties: the larger */
  MP_ORDER_LENGTH, /* longest lifetime first */
  MP_ORDER_AREA,   /* largest size x lifetime first */
  MP_ORDER_GLOW,   /* Glow's: the busiest step's largest buffer, again and again */
} MpOrder;

typedef struct {
  int64_t lo, hi; /* bytes [lo, hi) of a placed buffer */
} MpSpan;

typedef enum {
  MP_FIT_FOUND,   /* a plan fits: offsets in the buffers */
  MP_FIT_NONE,    /* proved: no plan fits */
  MP_FIT_ABORTED, /* the budget ran out first */
} MpFitStatus;

/* core.c */
int64_t mp_add_sat(int64_t a, int64_t b);
int64_t mp_align_up(int64_t v, int64_t align);
int64_t mp_live_end(const MpBuffer *b);
bool mp_live_together(const MpBuffer *a, const MpBuffer *b);
int64_t mp_max_align(const MpBuffer *bufs, int n);
void mp_spans_sort(MpSpan *spans, int m); /* by lo, then hi */
int mp_spans_live_with(const MpBuffer *bufs, int n, const bool *placed, const MpBuffer *b,
                       MpSpan *spans);
int64_t mp_place_in_order(MpBuffer *bufs, int n, const int *order, bool best_fit, int64_t *work);

/* live_index.c: the placed buffers by live interval, so that placing one
 * visits only those live with it */
typedef struct MpLiveIndex MpLiveIndex;
MpLiveIndex *mp_live_index_new(const MpBuffer *bufs, int n);
void mp_live_index_place(MpLiveIndex *ix, int i);
int mp_live_index_spans(const MpLiveIndex *ix, const MpBuffer *b, MpSpan *spans);
void mp_live_index_free(MpLiveIndex *ix);

/* greedy.c */
void mp_order(const MpBuffer *bufs, int n, MpOrder k, int *order);
void mp_order_by_size(const MpBuffer *bufs, int n, int *order);

/* local.c */
int64_t mp_local_search(MpBuffer *bufs, int n, int64_t incumbent, int64_t target,
                        int64_t *work, int64_t work_limit);

/* search.c */
MpFitStatus mp_fit(MpBuffer *bufs, int n, int64_t capacity, int64_t *work, int64_t work_limit);

/* pooled.c */
int64_t mp_pooled(MpBuffer *bufs, int n);

#endif
