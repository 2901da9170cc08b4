/* mp_int.h - internals shared by the files of the IR plan (plan.c,
 * lifetime.c, checks.c); no other folder includes it.
 *
 * MpFunc is the state of planning one Relax function: the storages found
 * so far (with their live steps), which storages each Relax var may view
 * (its alias set), the runtime checks, and the arithmetic holding the
 * allowed values of the symbolic dims. */
#ifndef RXC_MP_INT_H
#define RXC_MP_INT_H

#include "mp.h"

/* The storages a Relax var may view: a sorted set of storage indices. */
typedef struct {
  const IrExpr *var;   /* the Relax var */
  int *set;            /* storage indices, ascending, distinct */
  int n;
  const IrExpr *alloc; /* the R.memory.alloc_tensor or R.builtin.alloc_tensor
                          call whose tensor the var is (directly or through
                          `y = x`), else NULL */
} MpAlias;

/* A prim_func called in destination-passing style outside any if: a
 * candidate for in-place reuse (inplace.c). */
typedef struct {
  const IrExpr *call;
  int64_t step;
} MpCall;

typedef struct {
  IrCtx *ctx;
  const CfgOptions *cfg;
  IrArith *arith;
  IrSym fname;            /* the function's name, for messages */
  const IrFunction *f;
  const IrMap *globals;   /* the module's globals by name (ir_module_index) */
  MpStorage *storages;    /* in order of allocation (heap) */
  int *kinds;             /* per storage: its dtype as a pooling kind (heap) */
  int nstorages, cap;
  int64_t *first_use;     /* per storage: the first step at which a tensor
                             viewing it is used (not merely carved), or
                             INT64_MAX (heap) */
  int *group;             /* per storage: the storage whose arena bytes it
                             takes (itself unless in place; heap) */
  int ninplace;
  IrVec calls;            /* MpCall *: candidates for in-place reuse */
  MpAlias *aliases;       /* heap */
  int naliases, alias_cap;
  IrMap alias_index;      /* var -> index + 1 of its latest alias */
  IrVec checks;           /* MpCheck *, in order */
  const IrBinding **steps;/* the binding of each step (heap) */
  int64_t nsteps, step_cap;
  int64_t step;           /* the step being walked */
  int64_t if_lo, if_hi;   /* the outermost enclosing if's steps */
  int if_depth;           /* > 0 inside a branch */
  bool failed;            /* an error was reported */
  IrLoc overflow_at;      /* where a storage too large was last reported */
  IrVec vars;             /* IrPrimExpr *: every symbolic dim of the signature
                             and of the sizes in the body (mp_func_bounds) */
} MpFunc;

/* lifetime.c */
/* Walks f's body: numbers the bindings, creates a storage for every
 * alloc_storage and R.builtin.alloc_tensor, derives each storage's live
 * steps from the uses of the tensors viewing it, size-checks every
 * alloc_tensor (checks.c), and marks the storages flowing into the result
 * as outputs.  Returns false after reporting an error. */
bool mp_func_lifetimes(MpFunc *F, const IrModule *m);
void mp_func_free(MpFunc *F);

/* The alias entry of a Relax var, NULL when it views no storage. */
const MpAlias *mp_alias_of(const MpFunc *F, const IrExpr *var);

/* inplace.c */
/* Lets the output of an elementwise prim_func call take the storage of an
 * input that dies there (see inplace.c): sets inplace, group and ninplace.
 * Needs the lifetimes and the sizes at the bounds. */
void mp_func_inplace(MpFunc *F, const IrModule *m);

/* checks.c */
/* Records the allowed values of f's symbolic dims in F->arith: the
 * function's attributes, the configuration, R.assert_op preconditions;
 * the dims themselves in F->vars. */
void mp_func_bounds(MpFunc *F);
/* Decides whether the tensor of alloc_tensor call `call` (bound at b)
 * fits storage s: an error, nothing, or a runtime check in F->checks. */
void mp_check_alloc(MpFunc *F, const IrBinding *b, int s, const IrExpr *call);
/* The product of a shape's entries times elem_bytes, as an int64 expression. */
IrPrimExpr *mp_shape_bytes(IrCtx *ctx, IrPrimExpr **values, int n, int64_t elem_bytes);
/* The name of a binding's var for messages ("_" for a call kept for its effect). */
const char *mp_binding_name(const IrBinding *b);

/* report.c: the storages' names as the printer gives them: distinct vars
 * that share a name print as "x", "x_1", "x_2", ... in binding order. */
typedef struct {
  const char **names; /* one a storage, heap; the strings are set's */
  int n;
  IrNames set;
} MpNames;
MpNames mp_storage_names(const MpStorage *storages, int n);
void mp_storage_names_free(MpNames *nm);

#endif
