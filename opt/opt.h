/* opt.h - the passes (prefix opt_).  Each takes a const module and returns
 * a new one (sharing what it did not change), or NULL after reporting
 * errors in ctx; the input is never changed. */
#ifndef RXC_OPT_H
#define RXC_OPT_H

#include "../ir/ir.h"

/* normalize.c */
/* Fills in the struct info of every call (by each op's inference) and of
 * every var without an annotation; reports, naming the binding, a call the
 * op rejects (rank or dtype mismatch, provably incompatible shapes) and an
 * annotation that contradicts the inferred struct info. */
IrModule *opt_normalize(IrCtx *ctx, const IrModule *m);

/* legalize.c */
/* LegalizeOps: replaces every call of a high-level op by R.call_tir of a
 * generated T.prim_func (symbolic shapes stay symbolic).  Runs
 * opt_normalize first when call struct info is missing. */
IrModule *opt_legalize_ops(IrCtx *ctx, const IrModule *m);

#endif
