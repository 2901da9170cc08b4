/* remove_unused_outputs.c - RemoveUnusedOutputs: not written yet. */
#include "opt.h"

IrModule *
opt_remove_unused_outputs(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass RemoveUnusedOutputs is not implemented yet");
  return NULL;
}
