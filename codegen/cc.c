/* cc.c - placeholder until the system-compiler back end lands (another
 * branch writes it): a compiled module's entries and release, for the
 * libtcc state only. */
#include <stdlib.h>
#include <string.h>

#include "cg_int.h"

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
  void *p = c && c->tcc ? cg_tcc_symbol(c->tcc, symbol) : NULL;
  CgPackedFn fn;
  memcpy(&fn, &p, sizeof fn); /* object to function pointer: POSIX guarantees it */
  return p ? fn : NULL;
}

void
cg_compiled_free(CgCompiled *c)
{
  if (!c)
    return;
  cg_tcc_free(c->tcc);
  free(c);
}
