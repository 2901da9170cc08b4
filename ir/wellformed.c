/* wellformed.c - stub. */
#include "ir.h"
int ir_module_check(IrCtx *ctx, const IrModule *m) { (void)ctx; (void)m; return 0; }
