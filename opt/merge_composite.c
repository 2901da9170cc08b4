/* merge_composite.c - MergeCompositeFunctions: not written yet. */
#include "opt.h"

IrModule *
opt_merge_composite_functions(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass MergeCompositeFunctions is not implemented yet");
  return NULL;
}
