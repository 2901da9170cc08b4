/* equal.c - stub. */
#include "ir.h"
bool ir_module_equal(const IrModule *a, const IrModule *b, IrBuf *why) { (void)why; return a == b; }
uint64_t ir_module_hash(const IrModule *m) { (void)m; return 0; }
bool ir_prim_expr_equal(const IrPrimExpr *a, const IrPrimExpr *b) { return a == b; }
bool ir_sinfo_equal(const IrSInfo *a, const IrSInfo *b) { return a == b; }
