/* canonicalize_bindings.c - CanonicalizeBindings: not written yet. */
#include "opt.h"

IrModule *
opt_canonicalize_bindings(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass CanonicalizeBindings is not implemented yet");
  return NULL;
}
