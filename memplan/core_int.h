/*
 * core_int.h - internals shared by the files of the planner's core
 * (core.c, exact.c, pooled.c); no other folder includes it.
 *
 * Every sum of offsets and sizes saturates at INT64_MAX instead of
 * overflowing: a saturated arena is larger than any limit a caller sets,
 * so it is rejected as "too large" rather than wrapping to a small number.
 */
#ifndef RXC_MP_CORE_INT_H
#define RXC_MP_CORE_INT_H

#include "mp.h"

/* The exact search is tried only up to this many buffers. */
#define MP_EXACT_MAX_BUFFERS 40
/* Units of search work (candidate offsets examined against a placed
 * buffer) per millisecond of budget: the budget is counted in work, not
 * in wall time, so that results do not depend on the machine's speed. */
#define MP_WORK_PER_MS 60000
/* budget_ms <= 0 in MpOptions means this. */
#define MP_DEFAULT_BUDGET_MS 100

/* core.c */
int64_t mp_add_sat(int64_t a, int64_t b);
int64_t mp_align_up(int64_t v, int64_t align);
int64_t mp_live_end(const MpBuffer *b);
bool mp_live_together(const MpBuffer *a, const MpBuffer *b);
int64_t mp_max_align(const MpBuffer *bufs, int n);
int64_t mp_first_fit(MpBuffer *bufs, int n, const int *order, int64_t *work);
void mp_order_by_size(const MpBuffer *bufs, int n, int *order);

/* exact.c */
int64_t mp_exact_search(MpBuffer *bufs, int n, int64_t incumbent, int64_t budget_ms);
int64_t mp_local_search(MpBuffer *bufs, int n, int64_t incumbent, int64_t budget_ms);

/* pooled.c */
int64_t mp_pooled(MpBuffer *bufs, int n);

#endif
