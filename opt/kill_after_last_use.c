/* kill_after_last_use.c - KillAfterLastUse: not written yet. */
#include "opt.h"

IrModule *
opt_kill_after_last_use(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass KillAfterLastUse is not implemented yet");
  return NULL;
}
