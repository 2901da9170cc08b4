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
/* Calls fn(user, name, v) after every binding whose value v is a tensor,
 * in evaluation order (nested calls too); name is the binding's var.  fn
 * must not keep v.  NULL turns tracing off. */
typedef void (*InterpTrace)(void *user, IrSym name, const Value *v);
void interp_set_trace(Interp *in, InterpTrace fn, void *user);
/* Evaluates one operator call on values already computed: args[i] is the
 * value of call->u.call.args[i].  Op calls run their eval hook; R.call_tir
 * and R.call_tir_inplace run the module's prim_func (output dims must not
 * depend on symbolic vars).  Returns the result, or NULL after reporting
 * errors in the interpreter's ctx (constant folding gives it a scratch ctx
 * to keep such errors out of the user's diagnostics). */
Value *interp_eval_call(Interp *in, const IrExpr *call, Value **args);
/* Whether the interpreter itself evaluates calls of op (R.call_tir,
 * R.call_tir_inplace, R.call_dps_packed: their callee must be a prim_func
 * of the module) rather than op_impl(id)->eval. */
bool interp_op_native(IrOpId id);

#endif
