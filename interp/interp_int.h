/* interp_int.h - shared by the files of the interpreter (no other folder
 * includes it).
 *
 *   interp.c  environments (frames), interp_new / interp_call
 *   relax.c   Relax functions: bindings, calls, R.call_tir
 *   check.c   values against struct info: checks and symbolic binding
 *   tir.c     prim_funcs: statements and scalar expressions
 */
#ifndef RXC_INTERP_INT_H
#define RXC_INTERP_INT_H

#include "interp.h"

#define INTERP_MAX_DEPTH 200 /* nested Relax calls before "recursion too deep" */

/* Values of the Relax variables and symbolic (TIR) variables of one call,
 * with the frame of the enclosing function for closures.  The maps and the
 * order live in the ctx's arena. */
typedef struct Frame Frame;
struct Frame {
  Frame *parent; /* the closure's defining frame, or NULL */
  IrMap vars;    /* IrExpr* (Relax var) -> Value* */
  IrMap syms;    /* IrPrimExpr* (symbolic var) -> int64 VAL_PRIM */
  const IrPrimExpr **sym_order; /* the keys of syms in the order bound */
  int nsyms, sym_cap;
};

struct Interp {
  IrCtx *ctx;
  const IrModule *mod;
  FILE *print_out; /* where R.print output goes */
  IrBuf printed;   /* R.print's text before it is flushed to print_out */
  int depth;       /* Relax calls in progress */
  IrSym binding;   /* the binding being evaluated, for messages */
  IrLoc loc;       /* its location */
  const IrFunction *fn; /* the Relax function being evaluated, and its name: */
  const char *fname;    /* a var an R.match_cast defines meets its bounds */
  InterpTrace trace; /* called after each tensor binding, or NULL */
  void *trace_user;
};

/* A scalar of TIR evaluation: floats in f, everything else in i. */
typedef struct {
  IrDType dtype;
  int64_t i;
  double f;
} Scalar;

/* interp.c */
Frame *interp_frame_new(IrCtx *ctx, Frame *parent);
void interp_frame_set(IrCtx *ctx, Frame *f, const IrExpr *var, Value *value);
Value *interp_frame_get(const Frame *f, const IrExpr *var); /* NULL when unbound */
/* The value of a symbolic var in f (or its parents); false when unbound. */
bool interp_sym_get(const Frame *f, const IrPrimExpr *var, int64_t *out);
void interp_sym_set(Interp *in, Frame *f, const IrPrimExpr *var, int64_t v);
bool interp_scalar_is_float(IrDType t);

/* relax.c */
/* Calls a Relax function with the closure frame env (NULL for module
 * functions); NULL after an error. */
Value *interp_function(Interp *in, const IrFunction *fn, const char *name, Frame *env, Value **args,
                       int nargs);

/* check.c */
/* Matches v against s, binding symbolic vars that are still unbound in f and
 * checking the others.  On mismatch writes the reason to why and returns
 * false. */
bool interp_match(Interp *in, Frame *f, const IrSInfo *s, const Value *v, IrBuf *why);
/* Checks the function's tir_var_upper_bound / tir_var_lower_bound against
 * the values bound in f; reports an error and returns false on violation. */
bool interp_check_bounds(Interp *in, Frame *f, const IrFunction *fn, const char *name);

/* tir.c */
/* Runs prim_func `name` with args (tensors for buffer params, prims or
 * shapes' entries for scalar params); false after an error. */
bool interp_prim_call(Interp *in, const char *name, const IrPrimFunc *pf, Value **args, int nargs);
/* Evaluates a symbolic integer expression over the values bound in f;
 * false after an error (an unbound var, division by zero).  Not
 * ir_prim_eval: the interpreter evaluates dims with its TIR scalar
 * evaluator, over a frame's values of any dtype (a float cast, an
 * intrinsic call), and reports each failure as a located error, where
 * ir_prim_eval only answers with integers and leaves the message to the
 * caller. */
bool interp_eval_dim(Interp *in, const Frame *f, const IrPrimExpr *e, Scalar *out);

#endif
