/* core.c - stub: buffers one after another (the naive plan). */
#include "mp.h"

static int64_t
align_up(int64_t v, int64_t a)
{
  return (v + a - 1) / a * a;
}

int64_t
mp_naive_sum(const MpBuffer *bufs, int n)
{
  int64_t sum = 0;
  for (int i = 0; i < n; i++)
    sum = align_up(sum, bufs[i].align) + bufs[i].size;
  return sum;
}

int64_t
mp_lower_bound(const MpBuffer *bufs, int n)
{
  int64_t best = 0;
  for (int i = 0; i < n; i++) {
    int64_t live = 0; /* bytes live when buffer i starts */
    for (int j = 0; j < n; j++)
      if (bufs[j].start <= bufs[i].start && bufs[i].start < bufs[j].end)
        live += bufs[j].size;
    if (live > best)
      best = live;
  }
  return best;
}

int64_t
mp_solve(MpBuffer *bufs, int n, const MpOptions *o)
{
  (void)o;
  int64_t end = 0, max_align = 1;
  for (int i = 0; i < n; i++) {
    bufs[i].offset = align_up(end, bufs[i].align);
    end = bufs[i].offset + bufs[i].size;
    if (bufs[i].align > max_align)
      max_align = bufs[i].align;
  }
  return align_up(end, max_align);
}
