/* to_non_dataflow.c - ToNonDataflow: not written yet. */
#include "opt.h"

IrModule *
opt_to_non_dataflow(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass ToNonDataflow is not implemented yet");
  return NULL;
}
