/*
 * tir_build.h - a builder for the T.prim_funcs that legalization makes
 * (prefix op_).
 *
 * A legalize hook begins an OpPrim, declares its tensor inputs (Relax args)
 * and outputs (struct info), emits loop nests with stores, and finishes:
 *
 *   OpPrim p;
 *   op_prim_begin(lz, &p, "add");
 *   IrBuffer *a = op_prim_input(&p, s->call->u.call.args[0], "A");
 *   IrBuffer *out = op_prim_output(&p, result, "T_add");
 *   IrPrimExpr **i;
 *   IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &i);
 *   *body = op_prim_store(&p, out, i, op_prim_load_bcast(&p, a, i, out->ndim));
 *   return op_prim_finish(&p, s->call, result);
 *
 * Buffer shapes are the Relax struct info's dims with each Relax symbolic
 * var replaced by a TIR var of this prim_func (one per Relax var, shared by
 * every buffer).  finish makes R.call_tir(gv, (inputs...), out_sinfo=result)
 * and passes the symbolic vars that no input shape binds as tir_vars.
 */
#ifndef RXC_TIR_BUILD_H
#define RXC_TIR_BUILD_H

#include "op.h"

/* A substitution of TIR vars (by identity) by expressions. */
typedef struct {
  IrVec from; /* const IrPrimExpr* (IR_PE_VAR) */
  IrVec to;   /* IrPrimExpr* */
} OpVarMap;

IrPrimExpr *op_var_map_get(const OpVarMap *m, const IrPrimExpr *var); /* NULL when absent */
void op_var_map_put(OpVarMap *m, const IrPrimExpr *var, IrPrimExpr *to);
void op_var_map_free(OpVarMap *m);
/* e with its vars replaced by m; a var absent from m is kept, or, when
 * fresh is true, replaced by a new var of the same name and dtype that is
 * added to m.  Returns e itself when nothing changed. */
IrPrimExpr *op_prim_subst(IrCtx *ctx, IrPrimExpr *e, OpVarMap *m, bool fresh);
/* Does every var of e have an entry in m? */
bool op_prim_vars_mapped(const IrPrimExpr *e, const OpVarMap *m);

typedef struct {
  OpLegalize *lz;
  const char *name_hint; /* the global's name before uniquing */
  OpVarMap syms;         /* Relax symbolic var -> TIR var of this function */
  IrVec inputs;          /* IrBuffer*: input buffers, in call_tir order */
  IrVec args;            /* IrExpr*: the Relax args bound to inputs */
  IrVec outputs;         /* IrBuffer*: output buffers */
  IrVec allocs;          /* IrBuffer*: intermediate buffers */
  IrVec body;            /* IrStmt**: slots of the top-level statements */
  int nchecks;           /* the first nchecks of body: checks of data (op_prim_check_loops) */
  int nloops;            /* loop vars made so far (for their names) */
  /* 0, or the function's "op_pattern" attribute (TVM's, as its
   * AnnotateTIROpPattern writes it) for FuseOps where the body alone
   * would read as another: a pool whose window is written out as one
   * expression (ops/pool.c) is a reduction (3), not an injective op */
  int pattern;
} OpPrim;

void op_prim_begin(OpLegalize *lz, OpPrim *p, const char *name_hint);
/* Discards the builder when a hook gives up (finish frees it itself). */
void op_prim_abort(OpPrim *p);
/* op_prim_abort, then NULL: a hook gives up with `return op_prim_give_up(&p);`. */
IrExpr *op_prim_give_up(OpPrim *p);

/* A buffer parameter of op_prim_open: its name, and where it goes. */
typedef struct {
  const char *name; /* the buffer's name in the prim_func */
  IrBuffer **buf;   /* receives the buffer */
} OpPrimParam;

/* The opening of a lowering with one output: op_prim_begin, then the
 * call's args 0 .. n-2 as the inputs named in params[0 .. n-2], then
 * result as the output named in params[n-1], in that order.  False, with
 * p discarded, when the call has fewer args or one of them or result is
 * not a tensor of known shape and dtype (the hook then returns NULL):
 *
 *   IrBuffer *x, *out;
 *   if (!op_prim_open(lz, &p, "relu", s->call, result,
 *                     (OpPrimParam[]){{"A", &x}, {"T_relu", &out}}, 2))
 *     return NULL;
 */
bool op_prim_open(OpLegalize *lz, OpPrim *p, const char *name_hint, const IrExpr *call,
                  const IrSInfo *result, const OpPrimParam *params, int n);
/* A buffer parameter for a Relax tensor argument (a leaf), or NULL when its
 * struct info is not a tensor of known shape and dtype. */
IrBuffer *op_prim_input(OpPrim *p, const IrExpr *arg, const char *name);
/* A buffer parameter for an output of struct info s, or NULL when s is not
 * a tensor of known shape and dtype. */
IrBuffer *op_prim_output(OpPrim *p, const IrSInfo *s, const char *name);
/* An intermediate buffer (T.alloc_buffer around the body); shape entries
 * are TIR expressions of this function. */
IrBuffer *op_prim_alloc(OpPrim *p, IrDType t, IrPrimExpr **shape, int ndim, const char *name);
/* An integer expression as int64 (a literal re-made, anything else cast). */
IrPrimExpr *op_prim_i64(IrCtx *ctx, IrPrimExpr *e);
/* a op b (+, -, *) of dtype t wrapping as the interpreter's kernels do,
 * without C's undefined signed overflow: integers compute in uint32 or
 * uint64 and convert back; floats, bools and the unsigned types that do
 * not promote keep the plain operator. */
IrPrimExpr *op_prim_wrapping(IrCtx *ctx, IrPrimKind kind, IrDType t, IrPrimExpr *a, IrPrimExpr *b);
/* A Relax shape expression as a TIR expression of this function. */
IrPrimExpr *op_prim_dim(OpPrim *p, IrPrimExpr *relax_dim);
/* Appends a top-level statement. */
void op_prim_emit(OpPrim *p, IrStmt *s);
/* A nest of serial loops over extents (TIR expressions), appended to the
 * body; *index gets the n loop vars (arena).  Returns the slot where the
 * innermost body goes (the caller stores a statement there).  With n == 0
 * there is no loop and the slot is a top-level statement. */
IrStmt **op_prim_loops(OpPrim *p, IrPrimExpr **extents, int n, IrPrimExpr ***index);
/* The same nest, not appended: *nest gets the outermost statement. */
IrStmt **op_prim_loop_nest(OpPrim *p, IrPrimExpr **extents, int n, IrPrimExpr ***index,
                           IrStmt **nest);
/* buf[...] read at an index of out with numpy broadcasting: buf's dims
 * align to the last ones of out, and a size-1 dim reads index 0; a dim
 * neither 1 nor provably out's chooses at run time. */
IrPrimExpr *op_prim_load_bcast(OpPrim *p, IrBuffer *buf, IrPrimExpr **index, const IrBuffer *out);
IrPrimExpr *op_prim_load(OpPrim *p, IrBuffer *buf, IrPrimExpr **index);
IrStmt *op_prim_store(OpPrim *p, IrBuffer *buf, IrPrimExpr **index, IrPrimExpr *value);
/* buf[i] of a one-dim buffer (scratch: rows, lanes, panels), read and written. */
IrPrimExpr *op_prim_load_at(OpPrim *p, IrBuffer *buf, IrPrimExpr *i);
IrStmt *op_prim_store_at(OpPrim *p, IrBuffer *buf, IrPrimExpr *i, IrPrimExpr *value);
/* The statement calling rt/'s kernel name (ir/tir_kernel.c's table) with
 * args[0..n). */
IrStmt *op_prim_kernel_stmt(OpPrim *p, const char *name, IrPrimExpr **args, int n);
/* Checks of data: what a kernel refuses for the *values* of a tensor (an
 * index out of range, an integer divisor 0) is a TIR assert in the
 * lowering, run by check loops that come before every statement that
 * writes (ahead of all of body, whenever they are made), so the function
 * fails before it writes anything: its C returns 1 and the entry
 * NAME_ERR_ASSERT (codegen/README.md).  One compare per index, no call.
 *
 * A nest of serial loops over extents (n of them, none for a scalar
 * check), after the checks made so far and before every other statement;
 * *index gets its vars.  The nest runs only where guard holds (NULL:
 * always; a literal false: never, and the slot is left out).  Returns the
 * slot of the innermost body, for an assert (op_prim_assert). */
IrStmt **op_prim_check_loops(OpPrim *p, IrPrimExpr **extents, int n, IrPrimExpr ***index,
                             IrPrimExpr *guard);
/* assert cond, "msg" (the interpreter's TIR refuses with "assertion
 * failed: RuntimeError: msg"). */
IrStmt *op_prim_assert(OpPrim *p, IrPrimExpr *cond, const char *msg);
/* Index i (any integer dtype, read as int64 as the kernels read it) of an
 * axis of n elements, where a negative index counts from the end: -n <= i
 * && i < n.  The assert of an index out of range. */
IrStmt *op_prim_assert_index(OpPrim *p, IrPrimExpr *i, IrPrimExpr *n);
/* Whether a loop nest over extents runs at all (their product > 0) as a
 * guard of op_prim_check_loops: NULL when every extent is a literal
 * above 0, a literal false when one is 0. */
IrPrimExpr *op_prim_nonempty(IrCtx *ctx, IrPrimExpr **extents, int n);

/* The T.prim_func (inputs, outputs, then int64 params for symbolic vars no
 * input shape binds), added to lz->new_globals under a fresh name, and the
 * R.call_tir of it with out_sinfo=result that replaces call. */
IrExpr *op_prim_finish(OpPrim *p, const IrExpr *call, IrSInfo *result);

/* Dims that are data (TVM's legalization of dynamic_strided_slice): the
 * int64 vector of n values that shape_call (an R.call_tir of struct info
 * Tensor((n,), "int64")) computes becomes n fresh symbolic vars,
 *   NAME_dims = shape_call
 *   NAME_shape = R.tensor_to_shape(NAME_dims)
 *   NAME_shape1 = R.match_cast(NAME_shape, R.Shape([NAME_n0, ...]))
 * put before the call (lz->before), var i bounded by bounds[i] (the rule
 * of the op, for the arena: lz->bounds).  The vars, or NULL when lz takes
 * no bindings or a bound is not a constant (the hook then keeps the call). */
IrPrimExpr **op_data_dims(OpLegalize *lz, IrExpr *shape_call, int n, IrPrimExpr **bounds);
/* The constant upper bound of e (a Relax dim expression), or -1. */
int64_t op_dim_upper(OpLegalize *lz, IrPrimExpr *e);

/* The struct info of e when it is a tensor of known rank, shape and dtype,
 * else NULL (what the lowerings through op_data_dims can take). */
const IrSInfo *op_data_known_tensor(const IrExpr *e);
/* An int64 vector of n elements: the dims a first kernel computes. */
IrSInfo *op_data_i64_vector(IrCtx *ctx, int64_t n, int vdevice);

#endif
