/* arith.c - stub. */
#include "ir.h"
IrArith *ir_arith_new(IrCtx *ctx) { (void)ctx; return NULL; }
void ir_arith_bound(IrArith *a, const IrPrimExpr *var, int64_t lo, int64_t hi) { (void)a; (void)var; (void)lo; (void)hi; }
void ir_arith_bound_function(IrArith *a, const IrFunction *f) { (void)a; (void)f; }
IrPrimExpr *ir_arith_simplify(IrArith *a, const IrPrimExpr *e) { (void)a; return (IrPrimExpr *)e; }
IrProof ir_arith_prove(IrArith *a, const IrPrimExpr *c) { (void)a; (void)c; return IR_PROVE_UNKNOWN; }
bool ir_arith_range(IrArith *a, const IrPrimExpr *e, int64_t *lo, int64_t *hi) { (void)a; (void)e; (void)lo; (void)hi; return false; }
