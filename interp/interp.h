/* interp.h - the reference interpreter (prefix interp_): evaluates Relax
 * functions, R.call_tir into prim_funcs (a scalar loop interpreter), and
 * the memory ops with bounds checks, on concrete values.  It is the oracle
 * for every later stage: clear code over fast. */
#ifndef RXC_INTERP_H
#define RXC_INTERP_H

#include "../ops/op.h"

typedef struct Interp Interp;

/* An interpreter for module m; R.print writes to print_out (stdout when
 * NULL). */
Interp *interp_new(IrCtx *ctx, const IrModule *m, FILE *print_out);
/* Calls the Relax function `name` with args (checked against its
 * parameters' struct info; symbolic dims bind from them).  Returns the
 * result, or NULL after reporting errors in ctx. */
Value *interp_call(Interp *in, const char *name, Value **args, int nargs);

/* tir.c: an integer operation (arithmetic, min/max, comparison) with TIR's
 * semantics: wrapping +-*, truncating DIV/MOD, flooring FLOORDIV/FLOORMOD.
 * False on division by zero. */
bool interp_int_op(IrPrimKind k, int64_t a, int64_t b, int64_t *r);

#endif
