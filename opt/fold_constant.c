/* fold_constant.c - FoldConstant: not written yet. */
#include "opt.h"

IrModule *
opt_fold_constant(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass FoldConstant is not implemented yet");
  return NULL;
}
