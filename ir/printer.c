/* printer.c - stub, replaced by the printer. */
#include "ir.h"
void ir_module_print(const IrModule *m, IrBuf *out) { (void)m; (void)out; }
void ir_prim_expr_print(const IrPrimExpr *e, IrBuf *out) { (void)e; (void)out; }
void ir_sinfo_print(const IrSInfo *s, IrBuf *out) { (void)s; (void)out; }
