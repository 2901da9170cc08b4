/* fuse_by_pattern.c - FuseOpsByPattern: not written yet. */
#include "opt.h"

IrModule *
opt_fuse_ops_by_pattern(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass FuseOpsByPattern is not implemented yet");
  return NULL;
}
