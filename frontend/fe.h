/* fe.h - front ends: TVMScript text in, IrModule out. */
#ifndef RXC_FE_H
#define RXC_FE_H

#include "../ir/ir.h"

/* parse.c */
/* Reads a TVMScript module (an @I.ir_module class, or a lone @R.function or
 * @T.prim_func, which becomes a module of one function).  On error, records
 * every diagnostic it can in ctx and returns NULL.  Never crashes on any
 * input: nesting is limited to FE_MAX_DEPTH. */
#define FE_MAX_DEPTH 256
IrModule *fe_parse(IrCtx *ctx, const IrSource *src);
IrModule *fe_parse_file(IrCtx *ctx, const char *path);
IrModule *fe_parse_string(IrCtx *ctx, const char *name, const char *text);

#endif
