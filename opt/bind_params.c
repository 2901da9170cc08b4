/* bind_params.c - BindParams: not written yet. */
#include "opt.h"

IrModule *
opt_bind_params(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass BindParams is not implemented yet");
  return NULL;
}
