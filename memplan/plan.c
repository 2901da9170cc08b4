/* plan.c - stub. */
#include "mp.h"

MpPlan *
mp_plan_module(IrCtx *ctx, const IrModule *m, const CfgOptions *cfg)
{
  IrLoc none = {0};
  (void)m;
  (void)cfg;
  ir_error(ctx, none, "the memory planner is not implemented yet");
  return NULL;
}
