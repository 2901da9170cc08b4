/* dead_code.c - DeadCodeElimination: not written yet. */
#include "opt.h"

IrModule *
opt_dead_code_elimination(const OptContext *oc, const IrModule *m)
{
  IrLoc none = {0};
  (void)m;
  ir_error(oc->ctx, none, "pass DeadCodeElimination is not implemented yet");
  return NULL;
}
