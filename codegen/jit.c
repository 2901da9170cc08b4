/* jit.c - stub: the libtcc JIT is not written yet. */
#include "cg.h"

struct CgCompiled {
  int unused;
};

CgCompiled *
cg_jit_tcc(IrCtx *ctx, const CgOutput *out)
{
  IrLoc none = {0};
  (void)out;
  ir_error(ctx, none, "the libtcc JIT is not implemented yet");
  return NULL;
}

CgCompiled *
cg_jit_cc(IrCtx *ctx, const CgOutput *out, const char *cc, const char *flags)
{
  IrLoc none = {0};
  (void)out;
  (void)cc;
  (void)flags;
  ir_error(ctx, none, "compiling with the system compiler is not implemented yet");
  return NULL;
}

CgPackedFn
cg_compiled_entry(CgCompiled *c, const char *symbol)
{
  (void)c;
  (void)symbol;
  return NULL;
}

void
cg_compiled_free(CgCompiled *c)
{
  (void)c;
}
