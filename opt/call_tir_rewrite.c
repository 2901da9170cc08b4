/*
 * call_tir_rewrite.c - CallTIRRewrite: the outputs of every R.call_tir,
 * R.call_tir_inplace and R.call_dps_packed become explicit allocations.
 *
 *   y = R.call_tir(cls.f, (x,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
 * becomes
 *   storage = R.memory.alloc_storage(R.shape([n * 16]), R.prim_value(0),
 *                                    R.str("global"), R.dtype("float32"))
 *   alloc = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 4]),
 *                                 R.dtype("float32"), R.prim_value(0))
 *   cls.f(x, alloc)          # a void call with the output as destination
 *   y = alloc                # several outputs: y = (alloc, alloc1)
 *
 * Key idea: one storage per output, of exactly the output's bytes (the
 * product of its shape, simplified by ir/arith, times the element size),
 * so each storage is a separate lifetime that memplan/ turns into an arena
 * offset.  An in-place output is the input it updates (no allocation); the
 * TIR vars of call_tir follow the outputs as R.prim_value arguments, which
 * is how the interpreter passes them to a prim_func.  The pass needs its
 * input legalized, without dataflow blocks, in functions that may be
 * impure; the pass manager checks that.
 */
#include "../ops/op.h"
#include "opt.h"
#include "opt_int.h"

typedef struct {
  IrCtx *ctx;
  IrVec funcs;   /* the enclosing Relax functions, outermost first */
  IrArith *arith; /* bounds of their symbolic vars */
  int nerrors;
} Explicit;

static IrExpr *rewrite_seq(Explicit *ex, const IrExpr *seq);

/* --- building ---------------------------------------------------------------- */

static IrExpr **
expr_list(IrCtx *ctx, int n)
{
  return ir_alloc(ctx, sizeof(IrExpr *) * (size_t)(n > 0 ? n : 1));
}

static IrExpr *
prim_zero(IrCtx *ctx, IrLoc loc)
{
  return ir_prim_value(ctx, ir_prim_int(ctx, IR_I64, 0), loc);
}

static void
emit(IrCtx *ctx, IrVec *out, IrExpr *var, IrExpr *value, IrLoc loc)
{
  IrBinding *b = ir_alloc(ctx, sizeof *b);
  b->var = var;
  b->value = value;
  b->loc = loc;
  ir_vec_push(out, b);
}

/* storage + alloc_tensor for one output of struct info s; returns the
 * tensor var, or NULL after an error. */
static IrExpr *
emit_output(Explicit *ex, const IrSInfo *s, IrVec *out, IrLoc loc)
{
  IrCtx *ctx = ex->ctx;
  if (s->kind != IR_SI_TENSOR || !s->u.tensor.shape || s->u.tensor.dtype.code == IR_DT_VOID) {
    ir_error(ctx, loc, "CallTIRRewrite: every output needs a known shape and dtype");
    ex->nerrors++;
    return NULL;
  }
  int ndim = s->u.tensor.ndim;
  IrDType dt = s->u.tensor.dtype;
  IrPrimExpr *bytes = ir_prim_int(ctx, IR_I64, ir_dtype_bytes(dt));
  for (int i = 0; i < ndim; i++)
    bytes = ir_prim_bin(ctx, IR_PE_MUL, bytes, s->u.tensor.shape[i]);
  IrPrimExpr **size = ir_alloc(ctx, sizeof *size);
  size[0] = ir_arith_simplify(ex->arith, bytes);

  IrExpr **sargs = expr_list(ctx, 4);
  sargs[0] = ir_shape_expr(ctx, size, 1, loc);
  sargs[1] = prim_zero(ctx, loc);
  sargs[2] = ir_str_imm(ctx, ir_sym(ctx, "global"), loc);
  sargs[3] = ir_dtype_imm(ctx, dt, loc);
  IrExpr *scall = ir_call_op(ctx, ir_op_get(IR_OP_MEMORY_ALLOC_STORAGE), sargs, 4, NULL, loc);
  scall->sinfo = ir_sinfo_object(ctx);
  IrExpr *storage = ir_var_new(ctx, ir_sym(ctx, "storage"), scall->sinfo, false, loc);
  emit(ctx, out, storage, scall, loc);

  IrExpr **targs = expr_list(ctx, 5);
  targs[0] = storage;
  targs[1] = prim_zero(ctx, loc);
  targs[2] = ir_shape_expr(ctx, s->u.tensor.shape, ndim, loc);
  targs[3] = ir_dtype_imm(ctx, dt, loc);
  targs[4] = prim_zero(ctx, loc);
  IrExpr *tcall = ir_call_op(ctx, ir_op_get(IR_OP_MEMORY_ALLOC_TENSOR), targs, 5, NULL, loc);
  tcall->sinfo = ir_sinfo_tensor(ctx, s->u.tensor.shape, ndim, dt, -1);
  IrExpr *alloc = ir_var_new(ctx, ir_sym(ctx, "alloc"), tcall->sinfo, false, loc);
  emit(ctx, out, alloc, tcall, loc);
  return alloc;
}

/* The input leaves of a call_tir: the items of its tuple argument; a tuple
 * var is taken apart with tuple-get bindings. */
static void
collect_inputs(Explicit *ex, IrExpr *a, IrVec *inputs, IrVec *out, IrLoc loc)
{
  if (a->kind == IR_EX_TUPLE) {
    for (int i = 0; i < a->u.tuple.n; i++)
      ir_vec_push(inputs, a->u.tuple.items[i]);
    return;
  }
  if (a->kind != IR_EX_VAR || !a->sinfo || a->sinfo->kind != IR_SI_TUPLE) {
    ir_vec_push(inputs, a);
    return;
  }
  for (int i = 0; i < a->sinfo->u.tuple.n; i++) {
    IrExpr *get = ir_expr_new(ex->ctx, IR_EX_GET, loc);
    get->u.get.tuple = a;
    get->u.get.index = i;
    get->sinfo = a->sinfo->u.tuple.fields[i];
    IrExpr *v = ir_var_new(ex->ctx, ir_sym(ex->ctx, "lv"), get->sinfo, false, loc);
    emit(ex->ctx, out, v, get, loc);
    ir_vec_push(inputs, v);
  }
}

/* The outputs of call (fresh allocations or in-place inputs) into outs;
 * fresh ones are also appended to args.  False after an error. */
static bool
make_outputs(Explicit *ex, const IrExpr *call, IrVec *inputs, IrVec *args, IrExpr **outs,
             IrVec *out)
{
  for (int k = 0; k < call->u.call.nsinfo_args; k++) {
    int64_t idx = op_inplace_index(call, k);
    if (idx < 0) {
      if (!(outs[k] = emit_output(ex, call->u.call.sinfo_args[k], out, call->loc)))
        return false;
      ir_vec_push(args, outs[k]);
      continue;
    }
    IrExpr *in = idx < inputs->len ? inputs->items[idx] : NULL;
    if (!in || in->kind != IR_EX_VAR) {
      ir_error(ex->ctx, call->loc,
               "CallTIRRewrite: in-place output %d must update a tensor variable (input %lld)", k,
               (long long)idx);
      ex->nerrors++;
      return false;
    }
    outs[k] = in;
  }
  return true;
}

/* Emits the bindings that replace call into out and returns the value of
 * the call's var (an output, or a tuple of them); NULL after an error. */
static IrExpr *
expand(Explicit *ex, const IrExpr *call, IrVec *out)
{
  IrCtx *ctx = ex->ctx;
  int nout = call->u.call.nsinfo_args;
  IrExpr *callee = call->u.call.nargs > 0 ? call->u.call.args[0] : NULL;
  if (!callee || call->u.call.nargs < 2 || nout < 1 ||
      (callee->kind != IR_EX_GLOBAL && callee->kind != IR_EX_EXTERN)) {
    ir_error(ctx, call->loc, "CallTIRRewrite: malformed %s", call->u.call.op->name);
    ex->nerrors++;
    return NULL;
  }
  IrVec inputs = {0}, args = {0};
  IrExpr **outs = expr_list(ctx, nout);
  collect_inputs(ex, call->u.call.args[1], &inputs, out, call->loc);
  for (int i = 0; i < inputs.len; i++)
    ir_vec_push(&args, inputs.items[i]);
  bool ok = make_outputs(ex, call, &inputs, &args, outs, out);
  const IrExpr *tir_vars = call->u.call.nargs > 2 ? call->u.call.args[2] : NULL;
  if (ok && tir_vars && tir_vars->kind == IR_EX_SHAPE)
    for (int i = 0; i < tir_vars->u.shape.n; i++)
      ir_vec_push(&args, ir_prim_value(ctx, tir_vars->u.shape.values[i], call->loc));
  else if (ok && tir_vars)
    ir_vec_push(&args, (void *)tir_vars);
  ir_vec_free(&inputs);
  int nargs = args.len;
  IrExpr **list = (IrExpr **)ir_vec_freeze(ctx, &args);
  if (!ok)
    return NULL;
  IrExpr *dps = ir_expr_new(ctx, IR_EX_CALL, call->loc);
  dps->u.call.kind = callee->kind == IR_EX_GLOBAL ? IR_CALL_GLOBAL : IR_CALL_EXTERN;
  dps->u.call.callee = callee;
  dps->u.call.args = list;
  dps->u.call.nargs = nargs;
  dps->sinfo = ir_sinfo_tuple(ctx, NULL, 0);
  emit(ctx, out, ir_var_new(ctx, ir_sym(ctx, "_"), NULL, false, call->loc), dps, call->loc);
  if (nout == 1)
    return outs[0];
  IrExpr *tuple = ir_expr_new(ctx, IR_EX_TUPLE, call->loc);
  tuple->u.tuple.items = outs;
  tuple->u.tuple.n = nout;
  IrSInfo **fields = ir_alloc(ctx, sizeof *fields * (size_t)nout);
  for (int k = 0; k < nout; k++)
    fields[k] = outs[k]->sinfo;
  tuple->sinfo = ir_sinfo_tuple(ctx, fields, nout);
  return tuple;
}

static bool
is_dps_call(const IrExpr *e)
{
  if (!e || e->kind != IR_EX_CALL || e->u.call.kind != IR_CALL_OP)
    return false;
  IrOpId id = e->u.call.op->id;
  return id == IR_OP_CALL_TIR || id == IR_OP_CALL_TIR_INPLACE || id == IR_OP_CALL_DPS_PACKED;
}

/* --- walking ------------------------------------------------------------------- */

static IrFunction *
rewrite_function(Explicit *ex, const IrFunction *f)
{
  IrArith *saved = ex->arith;
  ir_vec_push(&ex->funcs, (void *)f);
  ex->arith = ir_arith_new(ex->ctx);
  for (int i = 0; i < ex->funcs.len; i++)
    ir_arith_bound_function(ex->arith, ex->funcs.items[i]);
  IrFunction *copy = ir_alloc(ex->ctx, sizeof *copy);
  *copy = *f;
  copy->body = rewrite_seq(ex, f->body);
  ex->funcs.len--;
  ex->arith = saved;
  return copy;
}

/* Appends the bindings that replace b to out. */
static void
rewrite_binding(Explicit *ex, const IrBinding *b, IrVec *out)
{
  IrBinding *nb = ir_alloc(ex->ctx, sizeof *nb);
  *nb = *b;
  const IrExpr *v = b->value;
  if (v->kind == IR_EX_IF) {
    IrExpr *copy = rw_expr_copy(ex->ctx, v);
    copy->u.branch.then_ = rewrite_seq(ex, v->u.branch.then_);
    copy->u.branch.else_ = rewrite_seq(ex, v->u.branch.else_);
    nb->value = copy;
  } else if (v->kind == IR_EX_FUNC) {
    IrExpr *copy = rw_expr_copy(ex->ctx, v);
    copy->u.func = rewrite_function(ex, v->u.func);
    nb->value = copy;
  } else if (is_dps_call(v)) {
    IrExpr *value = expand(ex, v, out);
    if (value)
      nb->value = value;
  }
  ir_vec_push(out, nb);
}

/* A block of the bindings in list (which the block takes over). */
static IrBindingBlock
block_of(IrCtx *ctx, const IrBindingBlock *old, IrVec *list)
{
  IrBindingBlock blk = *old;
  blk.n = list->len;
  blk.bindings = ir_alloc(ctx, sizeof(IrBinding) * (size_t)(list->len + 1));
  for (int i = 0; i < list->len; i++)
    blk.bindings[i] = *(IrBinding *)list->items[i];
  ir_vec_free(list);
  return blk;
}

static IrExpr *
rewrite_seq(Explicit *ex, const IrExpr *seq)
{
  int nblocks = seq->u.seq.nblocks;
  IrBindingBlock *blocks = ir_alloc(ex->ctx, sizeof *blocks * (size_t)(nblocks + 1));
  IrVec list = {0};
  for (int i = 0; i < nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    for (int j = 0; j < blk->n; j++)
      rewrite_binding(ex, &blk->bindings[j], &list);
    if (i < nblocks - 1)
      blocks[i] = block_of(ex->ctx, blk, &list);
  }
  IrExpr *copy = rw_expr_copy(ex->ctx, seq);
  IrExpr *result = seq->u.seq.result;
  if (is_dps_call(result)) { /* an if branch's last assignment */
    IrExpr *value = expand(ex, result, &list);
    result = value ? value : result;
  }
  if (nblocks > 0 || list.len > 0) {
    IrBindingBlock empty = {0};
    blocks[nblocks > 0 ? nblocks - 1 : 0] =
        block_of(ex->ctx, nblocks > 0 ? &seq->u.seq.blocks[nblocks - 1] : &empty, &list);
    nblocks = nblocks > 0 ? nblocks : 1;
  }
  copy->u.seq.blocks = blocks;
  copy->u.seq.nblocks = nblocks;
  copy->u.seq.result = result;
  return copy;
}

IrModule *
opt_call_tir_rewrite(const OptContext *oc, const IrModule *m)
{
  Explicit ex = {oc->ctx, {0}, NULL, 0};
  IrModule *out = rw_module_copy(oc->ctx, m, 0);
  for (int i = 0; i < m->nglobals; i++)
    if (m->globals[i].kind == IR_GLOBAL_RELAX && m->globals[i].u.relax)
      out->globals[i].u.relax = rewrite_function(&ex, m->globals[i].u.relax);
  ir_vec_free(&ex.funcs);
  return ex.nerrors ? NULL : out;
}
