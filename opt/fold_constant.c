/*
 * fold_constant.c - FoldConstant: every call whose arguments are all
 * constants is evaluated with the interpreter's kernels (and R.call_tir
 * with the module's prim_funcs) and replaced by the constant it computes.
 *
 * Key ideas:
 *  - A var bound to a constant (R.const, a tuple of constants, a static
 *    shape, a literal prim value, a string or dtype) is constant; its
 *    binding stays (DeadCodeElimination removes it) and every later use is
 *    replaced by the constant, through the rewriter's substitution map.
 *  - The argument of a kill (R.memory.kill_tensor/kill_storage,
 *    R.vm.kill_object) is never rewritten: a kill of a var that is now
 *    constant is dropped, so no kill ever names a constant (TVM #17340).
 *  - Impure calls and the ops whose entry says OP_NO_FOLD (allocations,
 *    which are not values, device moves, packed calls) are never folded.
 *    Evaluation runs in a scratch ctx: a kernel error (integer division by
 *    zero, an unsupported case) leaves the call as it is, without a
 *    diagnostic.
 */
#include <string.h>

#include "../interp/interp.h"
#include "opt.h"
#include "opt_int.h"

typedef struct {
  IrCtx *ctx;
  IrCtx *scratch;   /* where folding evaluates; its diagnostics are dropped */
  Interp *interp;   /* the interpreter over the input module, in scratch */
  Rewriter rw;      /* rw.vars: constant var -> its constant (a leaf) */
} Folder;

static IrExpr *fold_seq(Folder *fo, const IrExpr *seq);

/* --- constants and values ------------------------------------------------ */

/* Is e a leaf whose value is known without running anything? */
static bool
is_constant(const IrExpr *e)
{
  switch (e->kind) {
  case IR_EX_CONST:
  case IR_EX_STR:
  case IR_EX_DTYPE:
    return true;
  case IR_EX_SHAPE:
    for (int i = 0; i < e->u.shape.n; i++)
      if (e->u.shape.values[i]->kind != IR_PE_INT)
        return false;
    return true;
  case IR_EX_PRIM:
    return e->u.prim->kind == IR_PE_INT || e->u.prim->kind == IR_PE_FLOAT;
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      if (!is_constant(e->u.tuple.items[i]))
        return false;
    return true;
  default:
    return false;
  }
}

/* The value of a constant leaf (or of a call_tir callee), in scratch. */
static Value *
value_of(Folder *fo, const IrExpr *e)
{
  IrCtx *s = fo->scratch;
  Value *v = ir_alloc(s, sizeof *v);
  switch (e->kind) {
  case IR_EX_CONST:
    return op_tensor_from_data(s, &e->u.constant);
  case IR_EX_STR:
    v->kind = VAL_STR;
    v->u.str = e->u.str;
    return v;
  case IR_EX_DTYPE:
    v->kind = VAL_DTYPE;
    v->u.dtype = e->u.dtype;
    return v;
  case IR_EX_GLOBAL:
    v->kind = VAL_FUNC;
    v->u.func.global = e->u.global;
    return v;
  case IR_EX_SHAPE: {
    int64_t *dims = ir_alloc(s, sizeof *dims * (size_t)(e->u.shape.n + 1));
    for (int i = 0; i < e->u.shape.n; i++)
      dims[i] = e->u.shape.values[i]->u.int_value;
    return op_shape_new(s, dims, e->u.shape.n);
  }
  case IR_EX_PRIM:
    if (e->u.prim->kind == IR_PE_FLOAT)
      return op_prim_float(s, e->u.prim->dtype, e->u.prim->u.float_value);
    return op_prim_int(s, e->u.prim->dtype, e->u.prim->u.int_value);
  case IR_EX_TUPLE: {
    Value **items = ir_alloc(s, sizeof *items * (size_t)(e->u.tuple.n + 1));
    for (int i = 0; i < e->u.tuple.n; i++)
      items[i] = value_of(fo, e->u.tuple.items[i]);
    return op_tuple_new(s, items, e->u.tuple.n);
  }
  default:
    UNREACHABLE();
    return NULL;
  }
}

/* A constant expression in fo->ctx for a computed value: a tensor becomes
 * R.const, a tuple a tuple of constants, a shape R.shape; NULL for values
 * that have no constant form (storage, functions). */
static IrExpr *
expr_of(Folder *fo, const Value *v, IrLoc loc)
{
  IrCtx *ctx = fo->ctx;
  if (v->kind == VAL_TENSOR) {
    /* the value's shape and data copied into ctx, where the node lives */
    const IrTensorData *t = &v->u.tensor.t;
    IrTensorData d = *t;
    d.shape = ir_alloc(ctx, sizeof(int64_t) * (size_t)(t->ndim + 1));
    memcpy(d.shape, t->shape, sizeof(int64_t) * (size_t)t->ndim);
    d.data = ir_alloc(ctx, t->nbytes ? t->nbytes : 1);
    memcpy(d.data, t->data, t->nbytes);
    return ir_const_new(ctx, &d, loc);
  }
  if (v->kind == VAL_SHAPE) {
    IrPrimExpr **dims = ir_alloc(ctx, sizeof *dims * (size_t)(v->u.shape.n + 1));
    for (int i = 0; i < v->u.shape.n; i++)
      dims[i] = ir_prim_int(ctx, IR_I64, v->u.shape.dims[i]);
    IrExpr *e = ir_shape_expr(ctx, dims, v->u.shape.n, loc);
    e->sinfo = ir_sinfo_shape(ctx, dims, v->u.shape.n);
    return e;
  }
  if (v->kind != VAL_TUPLE)
    return NULL;
  int n = v->u.tuple.n;
  IrExpr *e = ir_expr_new(ctx, IR_EX_TUPLE, loc);
  e->u.tuple.items = ir_alloc(ctx, sizeof(IrExpr *) * (size_t)(n + 1));
  e->u.tuple.n = n;
  IrSInfo **fields = ir_alloc(ctx, sizeof *fields * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    if (!(e->u.tuple.items[i] = expr_of(fo, v->u.tuple.items[i], loc)))
      return NULL;
    fields[i] = e->u.tuple.items[i]->sinfo;
  }
  e->sinfo = ir_sinfo_tuple(ctx, fields, n);
  return e;
}

/* --- calls ------------------------------------------------------------------ */

static bool
is_kill(const IrExpr *e)
{
  return e->kind == IR_EX_CALL && e->u.call.kind == IR_CALL_OP &&
         (op_of(e->u.call.op)->flags & OP_KILL);
}

/* May this op call be replaced by its value?  Not when it has an effect,
 * nor when its entry says OP_NO_FOLD: it allocates (a storage or a view
 * is not a value), moves data between devices, or calls outside the
 * module. */
static bool
foldable_op(const IrExpr *call)
{
  if (call->kind != IR_EX_CALL || call->u.call.kind != IR_CALL_OP || call->u.call.op->impure)
    return false;
  return !(op_of(call->u.call.op)->flags & OP_NO_FOLD);
}

/* The constant a call computes, or NULL to keep the call (an argument is
 * not constant, or evaluation failed: the failure is not the user's). */
static IrExpr *
fold_call(Folder *fo, const IrExpr *call)
{
  if (!foldable_op(call))
    return NULL;
  IrOpId id = call->u.call.op->id;
  bool tir = id == IR_OP_CALL_TIR || id == IR_OP_CALL_TIR_INPLACE;
  int n = call->u.call.nargs;
  Value **args = ir_alloc(fo->scratch, sizeof *args * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    const IrExpr *a = call->u.call.args[i];
    bool callee = tir && i == 0 && a->kind == IR_EX_GLOBAL;
    if (!callee && !is_constant(a))
      return NULL;
    args[i] = value_of(fo, a);
  }
  Value *v = interp_eval_call(fo->interp, call, args);
  return v ? expr_of(fo, v, call->loc) : NULL;
}

/* --- bindings and seqs --------------------------------------------------------- */

static IrFunction *
fold_function(Folder *fo, const IrFunction *f)
{
  IrFunction *copy = ir_alloc(fo->ctx, sizeof *copy);
  *copy = *f;
  copy->body = fold_seq(fo, f->body);
  return copy;
}

/* A binding's value with constants substituted and folded. */
static IrExpr *
fold_value(Folder *fo, const IrExpr *v)
{
  if (v->kind == IR_EX_IF) {
    IrExpr *copy = opt_rw_expr_copy(fo->ctx, v);
    copy->u.branch.cond = opt_rw_subst(&fo->rw, v->u.branch.cond);
    copy->u.branch.then_ = fold_seq(fo, v->u.branch.then_);
    copy->u.branch.else_ = fold_seq(fo, v->u.branch.else_);
    return copy;
  }
  if (v->kind == IR_EX_FUNC) {
    IrExpr *copy = opt_rw_expr_copy(fo->ctx, v);
    copy->u.func = fold_function(fo, v->u.func);
    return copy;
  }
  IrExpr *e = opt_rw_subst(&fo->rw, (IrExpr *)v);
  if (e->kind == IR_EX_GET && e->u.get.tuple->kind == IR_EX_TUPLE &&
      e->u.get.index < e->u.get.tuple->u.tuple.n)
    return e->u.get.tuple->u.tuple.items[e->u.get.index];
  IrExpr *folded = e->kind == IR_EX_CALL ? fold_call(fo, e) : NULL;
  return folded ? folded : e;
}

/* Folds one binding into out; false when the binding is dropped (a kill of
 * a constant). */
static bool
fold_binding(Folder *fo, const IrBinding *b, IrBinding *out)
{
  *out = *b;
  if (is_kill(b->value)) {
    const IrExpr *arg = b->value->u.call.nargs ? b->value->u.call.args[0] : NULL;
    if (!arg)
      return true;
    IrExpr *now = opt_rw_subst(&fo->rw, (IrExpr *)arg);
    return now->kind == IR_EX_VAR; /* the kill itself is never rewritten */
  }
  out->value = fold_value(fo, b->value);
  if (!b->cast && is_constant(out->value))
    ir_map_put(&fo->rw.vars, b->var, out->value);
  return true;
}

static IrExpr *
fold_seq(Folder *fo, const IrExpr *seq)
{
  int nblocks = seq->u.seq.nblocks;
  IrExpr *copy = opt_rw_expr_copy(fo->ctx, seq);
  IrBindingBlock *blocks = ir_alloc(fo->ctx, sizeof *blocks * (size_t)(nblocks + 1));
  int kept = 0;
  for (int i = 0; i < nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    IrBindingBlock *nb = &blocks[kept];
    *nb = *blk;
    nb->bindings = ir_alloc(fo->ctx, sizeof(IrBinding) * (size_t)(blk->n + 1));
    nb->n = 0;
    for (int j = 0; j < blk->n; j++)
      if (fold_binding(fo, &blk->bindings[j], &nb->bindings[nb->n]))
        nb->n++;
    if (nb->n > 0 || blk->n == 0)
      kept++; /* a block emptied by dropped kills goes */
  }
  copy->u.seq.blocks = blocks;
  copy->u.seq.nblocks = kept;
  if (seq->u.seq.result)
    copy->u.seq.result = fold_value(fo, seq->u.seq.result);
  return copy;
}

static IrFunction *
fold_global(IrCtx *ctx, const IrFunction *f, const char *name, void *user)
{
  (void)ctx, (void)name;
  return fold_function(user, f);
}

IrModule *
opt_fold_constant(const OptContext *oc, const IrModule *m)
{
  Folder fo;
  fo.ctx = oc->ctx;
  fo.scratch = ir_ctx_new();
  fo.interp = interp_new(fo.scratch, m, NULL);
  opt_rw_init(&fo.rw, oc->ctx, &fo);
  IrModule *out = opt_rw_module_functions(oc->ctx, m, fold_global, &fo);
  opt_rw_free(&fo.rw);
  ir_ctx_free(fo.scratch);
  return out;
}
