/* fuse_tir.c - FuseTIR: not written yet. */
#include "opt.h"

IrModule *
opt_fuse_tir(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass FuseTIR is not implemented yet");
  return NULL;
}
