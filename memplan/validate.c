/*
 * validate.c - an independent check of a placement.
 *
 * Deliberately the plainest code that can decide the question: every pair
 * of buffers is compared (quadratic), so it shares nothing with the
 * solvers it checks.
 */
#include "mp.h"

#include <stdarg.h>

static bool
fail(IrBuf *why, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (why)
    ir_buf_vprintf(why, fmt, ap);
  va_end(ap);
  return false;
}

bool
mp_validate(const MpBuffer *bufs, int n, int64_t arena, IrBuf *why)
{
  for (int i = 0; i < n; i++) {
    const MpBuffer *a = &bufs[i];
    if (a->offset < 0 || a->size <= 0 || a->offset > arena - a->size)
      return fail(why, "buffer %d lies outside the arena", a->id);
    if (a->align <= 0 || a->offset % a->align != 0)
      return fail(why, "buffer %d is not aligned", a->id);
  }
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      const MpBuffer *a = &bufs[i], *b = &bufs[j];
      bool in_time = a->start < b->end && b->start < a->end;
      bool in_space = a->offset < b->offset + b->size && b->offset < a->offset + a->size;
      if (in_time && in_space)
        return fail(why, "buffers %d and %d are live at once and overlap", a->id, b->id);
    }
  return true;
}
