/* opt_int.h - what the passes of opt/ share: the function rewriter of
 * rewrite.c.  No other folder includes it. */
#ifndef RXC_OPT_INT_H
#define RXC_OPT_INT_H

#include "../ir/ir.h"


typedef struct Rewriter Rewriter;

/* Rebuilds Relax functions binding by binding.  The rewriter walks a
 * function's body (blocks, bindings, if branches, local functions) and
 * builds new nodes only where something changed: an unchanged subtree is
 * shared, and a function nothing changed in comes back as the same pointer.
 * Vars recreated by a pass (opt_rw_var_recreate) are substituted in every later
 * use, closures included. */
struct Rewriter {
  IrCtx *ctx;
  /* Called once per binding, in order, after b->value has had its vars
   * substituted and its nested seqs (if branches) and local functions
   * rewritten; b is a copy the callback may change (value, var; call
   * opt_rw_var_recreate to give the var new struct info).  Returns false after
   * reporting an error; the rewrite then fails.  An if branch whose result
   * is a call (its last assignment) comes here too, as a binding of the
   * if's var with at_result set: then only b->value may change. */
  bool (*binding)(Rewriter *rw, IrBinding *b);
  bool at_result; /* the binding is an if branch's result */
  bool dataflow;  /* the binding is in a dataflow block */
  const IrBinding *prev; /* the binding just before it in its block (rewritten), or NULL */
  /* IrBinding*: bindings the callback puts before the current one (in
   * the same block; after the branch's last block for an if result). */
  IrVec before;
  void *user;  /* the pass's state */
  IrMap vars;  /* old var -> new var */
  const char *func_name; /* innermost function: "main", "main.f" (local) */
  IrVec funcs;  /* const IrFunction*: the functions entered, outermost first */
  IrVec ariths; /* IrArith*: bounds of each entered function's symbolic vars */
};

void opt_rw_init(Rewriter *rw, IrCtx *ctx, void *user);
void opt_rw_free(Rewriter *rw);
/* f rewritten (f itself when nothing changed), or NULL after an error of
 * the binding callback. */
IrFunction *opt_rw_function(Rewriter *rw, const IrFunction *f, const char *name);
/* The arithmetic of the innermost function being rewritten: it knows the
 * bounds of that function's symbolic vars and of every enclosing one's. */
IrArith *opt_rw_arith(const Rewriter *rw);
/* A new var like var but with struct info sinfo; later uses of var are
 * replaced by it. */
IrExpr *opt_rw_var_recreate(Rewriter *rw, const IrExpr *var, IrSInfo *sinfo);
/* Binds name = a call of op id (args copied) before the binding being
 * rewritten (in rw->before) and returns its var, typed by the op's
 * inference, a dataflow var in a dataflow block. */
IrExpr *opt_rw_bind_op(Rewriter *rw, const char *name, IrOpId id, IrExpr **args, int nargs,
                       IrAttr *attrs, IrLoc loc);
/* e (a leaf, tuple, tuple-get or call) with recreated vars substituted;
 * e itself when none occurs in it. */
IrExpr *opt_rw_subst(Rewriter *rw, IrExpr *e);
/* A shallow copy of e (a new node the caller may fill in before sharing). */
IrExpr *opt_rw_expr_copy(IrCtx *ctx, const IrExpr *e);
/* A new module like m whose globals array is a fresh copy with room for
 * extra more entries (nglobals is m's; the caller appends). */
IrModule *opt_rw_module_copy(IrCtx *ctx, const IrModule *m, int extra);

/* --- the pass preamble ---------------------------------------------------- */

typedef bool (*RwBindingFn)(Rewriter *rw, IrBinding *b);
/* f run through a fresh Rewriter whose binding callback is binding, with
 * user as rw->user; as opt_rw_function: f itself when nothing changed, NULL
 * after an error of the callback. */
IrFunction *opt_rw_function_with(IrCtx *ctx, const IrFunction *f, const char *name,
                                 RwBindingFn binding, void *user);
/* What a pass does to one Relax function (name: its global's): f
 * rewritten, f itself when nothing changed, or NULL after reporting an
 * error. */
typedef IrFunction *(*RwFunctionFn)(IrCtx *ctx, const IrFunction *f, const char *name, void *user);
/* What most passes do to a module: a copy of m (opt_rw_module_copy) with fn
 * applied to each Relax function, in module order.  Every function is
 * visited even after one fails, so that each reports its errors; then the
 * result is NULL. */
IrModule *opt_rw_module_functions(IrCtx *ctx, const IrModule *m, RwFunctionFn fn, void *user);

/* --- shared by the small passes (rewrite.c): uses and dropping bindings --- */

/* Adds to counts (var -> number of uses, read with opt_rw_use_count) every use
 * of a var in f's body: call callees and arguments, tuple items, tuple-gets,
 * if conditions, seq results, nested seqs and local functions' bodies.  A
 * binding's own var is a definition, not a use. */
void opt_rw_count_uses(const IrFunction *f, IrMap *counts);
size_t opt_rw_use_count(const IrMap *counts, const IrExpr *var);
/* Whether a binding goes (b is the binding as it is in the input). */
typedef bool (*RwDropFn)(const IrBinding *b, void *user);
/* f without the bindings for which drop returns true, in every seq (if
 * branches and local functions too); a block emptied by dropping goes too.
 * f itself when nothing was dropped. */
IrFunction *opt_rw_drop_bindings(IrCtx *ctx, const IrFunction *f, RwDropFn drop, void *user);

/* --- the binding expander of expand.c ------------------------------------ */

/* Rebuilds Relax functions with each binding whose value matches replaced
 * by the bindings expand emits into out, then the binding itself with the
 * value expand returns (NULL after an error, counted in nerrors).  An if
 * branch's result that matches is expanded the same way. */
typedef struct RwExpander RwExpander;
struct RwExpander {
  IrCtx *ctx;
  const char *pass; /* for messages */
  bool (*match)(RwExpander *x, const IrExpr *value);
  IrExpr *(*expand)(RwExpander *x, const IrExpr *value, IrVec *out);
  void *user;
  IrVec funcs;    /* the enclosing Relax functions, outermost first */
  IrArith *arith; /* bounds of their symbolic vars */
  int nerrors;
};
/* Expands every Relax function of m in place (m is the pass's own copy);
 * m, or NULL when expand reported an error. */
IrModule *opt_rw_expand_module(RwExpander *x, IrModule *m);
/* Appends the binding var = value to out (a vector of IrBinding*). */
void opt_rw_emit(IrCtx *ctx, IrVec *out, IrExpr *var, IrExpr *value, IrLoc loc);
/* alloc_storage + alloc_tensor of exactly the bytes of tensor struct info
 * s, appended to out; the tensor var, or NULL after an error. */
IrExpr *opt_rw_emit_alloc(RwExpander *x, const IrSInfo *s, IrVec *out, IrLoc loc);
#endif
