/* remove_purity.c - RemovePurityChecking: not written yet. */
#include "opt.h"

IrModule *
opt_remove_purity_checking(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass RemovePurityChecking is not implemented yet");
  return NULL;
}
