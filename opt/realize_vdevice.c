/* realize_vdevice.c - RealizeVDevice: not written yet. */
#include "opt.h"

IrModule *
opt_realize_vdevice(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass RealizeVDevice is not implemented yet");
  return NULL;
}
