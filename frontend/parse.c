/* parse.c - stub. */
#include "fe.h"
IrModule *fe_parse(IrCtx *ctx, const IrSource *src) { IrLoc l = {src, 1, 1}; ir_error(ctx, l, "reader not written yet"); return NULL; }
IrModule *fe_parse_file(IrCtx *ctx, const char *path) { const IrSource *s = ir_source_read(ctx, path); return s ? fe_parse(ctx, s) : NULL; }
IrModule *fe_parse_string(IrCtx *ctx, const char *name, const char *text) { return fe_parse(ctx, ir_source_add(ctx, name, text, __builtin_strlen(text))); }
