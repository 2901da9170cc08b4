/* fuse_ops.c - FuseOps: not written yet. */
#include "opt.h"

IrModule *
opt_fuse_ops(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass FuseOps is not implemented yet");
  return NULL;
}
