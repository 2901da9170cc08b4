/* report.c - stub. */
#include "mp.h"

void
mp_plan_print(const MpPlan *p, MpFormat format, IrBuf *out)
{
  (void)p;
  (void)format;
  (void)out;
}
