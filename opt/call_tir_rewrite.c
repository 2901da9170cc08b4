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
 *
 * TVM's own later forms of the same allocations (a module TVM printed
 * after StaticPlanBlockMemory or VMBuiltinLower) take the same road:
 * R.builtin.alloc_tensor, which StaticPlanBlockMemory leaves for what it
 * does not plan, becomes a storage and a tensor of its own as an output
 * does here; VMBuiltinLower's renames R.vm.alloc_storage, R.vm.alloc_tensor
 * and R.vm.kill_object become the R.memory ops again (kill_tensor of a
 * tensor, kill_storage of anything else).  memplan/ plans those and the
 * code generator emits them.
 */
#include "../ops/op.h"
#include "opt.h"
#include "opt_int.h"

typedef RwExpander Explicit;

static IrExpr **
expr_list(IrCtx *ctx, int n)
{
  return ir_alloc(ctx, sizeof(IrExpr *) * (size_t)(n > 0 ? n : 1));
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
    opt_rw_emit(ex->ctx, out, v, get, loc);
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
      if (!(outs[k] = opt_rw_emit_alloc(ex, call->u.call.sinfo_args[k], out, call->loc)))
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

static IrExpr *
prim_zero(IrCtx *ctx, IrLoc loc)
{
  return ir_prim_value(ctx, ir_prim_int(ctx, IR_I64, 0), loc);
}

/* The R.memory op id with args, in place of call (same struct info). */
static IrExpr *
memory_call(IrCtx *ctx, IrOpId id, IrExpr **args, int nargs, const IrExpr *call)
{
  IrExpr *e = ir_call_op(ctx, &op_def(id)->syn, args, nargs, NULL, call->loc);
  e->sinfo = call->sinfo;
  return e;
}

/* R.builtin.alloc_tensor and the R.vm allocation ops (the top of the
 * file); NULL after an error. */
static IrExpr *
expand_memory(Explicit *ex, const IrExpr *call, IrVec *out)
{
  IrCtx *ctx = ex->ctx;
  IrExpr *const *a = call->u.call.args;
  int n = call->u.call.nargs;
  IrExpr **args = expr_list(ctx, 5);
  switch (call->u.call.op->id) {
  case IR_OP_BUILTIN_ALLOC_TENSOR:
    return opt_rw_emit_alloc(ex, call->sinfo, out, call->loc);
  case IR_OP_VM_ALLOC_STORAGE: /* size, device, dtype, scope: scope before dtype */
    if (n < 3)
      break;
    args[0] = a[0];
    args[1] = a[1];
    args[2] = n > 3 ? a[3] : ir_str_imm(ctx, ir_sym(ctx, "global"), call->loc);
    args[3] = a[2];
    return memory_call(ctx, IR_OP_MEMORY_ALLOC_STORAGE, args, 4, call);
  case IR_OP_VM_ALLOC_TENSOR: /* the same parameters */
    if (n < 4)
      break;
    for (int i = 0; i < 4; i++)
      args[i] = a[i];
    args[4] = n > 4 ? a[4] : prim_zero(ctx, call->loc);
    return memory_call(ctx, IR_OP_MEMORY_ALLOC_TENSOR, args, 5, call);
  case IR_OP_VM_KILL_OBJECT:
    if (n < 1)
      break;
    args[0] = a[0];
    return memory_call(ctx,
                       a[0]->sinfo && a[0]->sinfo->kind == IR_SI_TENSOR ? IR_OP_MEMORY_KILL_TENSOR
                                                                        : IR_OP_MEMORY_KILL_STORAGE,
                       args, 1, call);
  default:
    UNREACHABLE();
  }
  ir_error(ctx, call->loc, "CallTIRRewrite: malformed %s", call->u.call.op->name);
  ex->nerrors++;
  return NULL;
}

static bool
is_memory_call(const IrExpr *e)
{
  IrOpId id = e->u.call.op->id;
  return id == IR_OP_BUILTIN_ALLOC_TENSOR || id == IR_OP_VM_ALLOC_STORAGE ||
         id == IR_OP_VM_ALLOC_TENSOR || id == IR_OP_VM_KILL_OBJECT;
}

/* Emits the bindings that replace call into out and returns the value of
 * the call's var (an output, or a tuple of them); NULL after an error. */
static IrExpr *
expand(Explicit *ex, const IrExpr *call, IrVec *out)
{
  IrCtx *ctx = ex->ctx;
  if (is_memory_call(call))
    return expand_memory(ex, call, out);
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
  opt_rw_emit(ctx, out, ir_var_new(ctx, ir_sym(ctx, "_"), NULL, false, call->loc), dps, call->loc);
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

/* What the pass rewrites: the calls in destination-passing style and the
 * allocation forms of TVM's later passes. */
static bool
is_rewritten(RwExpander *x, const IrExpr *e)
{
  (void)x;
  if (!e || e->kind != IR_EX_CALL || e->u.call.kind != IR_CALL_OP)
    return false;
  IrOpId id = e->u.call.op->id;
  return id == IR_OP_CALL_TIR || id == IR_OP_CALL_TIR_INPLACE || id == IR_OP_CALL_DPS_PACKED ||
         is_memory_call(e);
}

IrModule *
opt_call_tir_rewrite(const OptContext *oc, const IrModule *m)
{
  Explicit ex = {.ctx = oc->ctx, .pass = "CallTIRRewrite", .match = is_rewritten, .expand = expand};
  return opt_rw_expand_module(&ex, opt_rw_module_copy(oc->ctx, m, 0));
}
