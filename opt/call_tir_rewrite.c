/* call_tir_rewrite.c - CallTIRRewrite: not written yet. */
#include "opt.h"

IrModule *
opt_call_tir_rewrite(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass CallTIRRewrite is not implemented yet");
  return NULL;
}
