/* gen.c - stub: C generation is not written yet. */
#include "cg.h"

CgOutput *
cg_generate(IrCtx *ctx, const IrModule *m, const MpPlan *p, const CfgOptions *cfg, const char *name)
{
  IrLoc none = {0};
  (void)m;
  (void)p;
  (void)cfg;
  (void)name;
  ir_error(ctx, none, "C code generation is not implemented yet");
  return NULL;
}

void
cg_output_free(CgOutput *out)
{
  if (!out)
    return;
  for (int i = 0; i < out->nfiles; i++)
    ir_buf_free(&out->files[i].text);
}

bool
cg_write(IrCtx *ctx, const CgOutput *out, const char *dir)
{
  IrLoc none = {0};
  (void)out;
  ir_error(ctx, none, "cannot write '%s': C code generation is not implemented yet", dir);
  return false;
}
