/* jit.c - stub: the libtcc JIT is not written yet.  CgCompiled is defined
 * in cg_int.h; cg_jit_cc, cg_compiled_entry and cg_compiled_free are in
 * cc.c, which calls cg_tcc_symbol and cg_tcc_free for a TCCState. */
#include "cg_int.h"

CgCompiled *
cg_jit_tcc(IrCtx *ctx, const CgOutput *out)
{
  IrLoc none = {0};
  (void)out;
  ir_error(ctx, none, "the libtcc JIT is not implemented yet");
  return NULL;
}

void *
cg_tcc_symbol(void *tcc, const char *name)
{
  (void)tcc;
  (void)name;
  return NULL;
}

void
cg_tcc_free(void *tcc)
{
  (void)tcc;
}
