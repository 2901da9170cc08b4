/*
 * relax.c - evaluation of Relax functions: bindings in order, match_cast,
 * if/else, tuples, constants, shapes, calls of module functions, closures,
 * op calls through their eval hooks, and R.call_tir into prim_funcs.
 *
 * Every value is computed eagerly into the ctx's arena (this is the
 * oracle: clear over fast).  Errors name the binding being evaluated; the
 * interpreter keeps it in Interp.binding / Interp.loc and restores it
 * around nested calls.
 */
#include <string.h>

#include "interp_int.h"

static Value *eval_expr(Interp *in, Frame *f, const IrExpr *e);

static Value *
value_new(IrCtx *ctx, ValueKind kind)
{
  Value *v = ir_alloc(ctx, sizeof *v);
  v->kind = kind;
  return v;
}

static void
flush_printed(Interp *in)
{
  if (in->printed.len) {
    fwrite(in->printed.data, 1, in->printed.len, in->print_out);
    fflush(in->print_out);
    in->printed.len = 0;
  }
}

static void
error_here(Interp *in, const char *fmt, const char *a, const char *b)
{
  IrBuf msg = {0};
  if (in->binding)
    ir_buf_printf(&msg, "in binding '%s': ", in->binding);
  ir_buf_printf(&msg, fmt, a, b);
  ir_error(in->ctx, in->loc, "%s", msg.data);
  ir_buf_free(&msg);
}

/* The truth of an if condition or assert: a bool scalar (tensor or prim);
 * -1 after an error. */
static int
truth(Interp *in, const Value *v)
{
  if (v->kind == VAL_PRIM)
    return interp_scalar_is_float(v->u.prim.dtype) ? v->u.prim.f != 0 : v->u.prim.i != 0;
  if (v->kind == VAL_TENSOR && v->u.tensor.t.ndim == 0)
    return op_get_i(&v->u.tensor.t, 0) != 0;
  error_here(in, "the condition is not a scalar%s%s", "", "");
  return -1;
}

/* ---- R.call_tir and friends ------------------------------------------- */

/* A fresh tensor for out_sinfo s, dims evaluated in f. */
static Value *
alloc_output(Interp *in, Frame *f, const IrExpr *call, const IrSInfo *s)
{
  int64_t dims[64];
  if (s->kind != IR_SI_TENSOR || !s->u.tensor.shape || s->u.tensor.ndim > 64 ||
      s->u.tensor.dtype.code == IR_DT_VOID) {
    op_error(in->ctx, call->loc, in->binding, call->u.call.op,
             "every output needs a known shape and dtype");
    return NULL;
  }
  for (int i = 0; i < s->u.tensor.ndim; i++) {
    Scalar v;
    if (!interp_eval_dim(in, f, s->u.tensor.shape[i], &v))
      return NULL;
    dims[i] = v.i;
  }
  return op_tensor_new(in->ctx, s->u.tensor.dtype, s->u.tensor.ndim, dims, call->loc);
}

static Value *
tensor_copy(Interp *in, const Value *v, IrLoc loc)
{
  const IrTensorData *t = &v->u.tensor.t;
  Value *c = op_tensor_new(in->ctx, t->dtype, t->ndim, t->shape, loc);
  if (c)
    memcpy(c->u.tensor.t.data, t->data, t->nbytes);
  return c;
}

/* Appends the values of v (a tuple's items, or v itself) to list. */
static void
push_flat(IrVec *list, Value *v)
{
  if (v->kind == VAL_TUPLE)
    for (int i = 0; i < v->u.tuple.n; i++)
      ir_vec_push(list, v->u.tuple.items[i]);
  else
    ir_vec_push(list, v);
}

/* Outputs of a call_tir(_inplace): fresh tensors, or copies of the inputs
 * updated in place (copies, so that a constant is never changed). */
static bool
call_tir_outputs(Interp *in, Frame *f, const IrExpr *e, IrVec *inputs, IrVec *fresh, Value **outs)
{
  for (int k = 0; k < e->u.call.nsinfo_args; k++) {
    int64_t idx = op_inplace_index(e, k);
    if (idx < 0) {
      outs[k] = alloc_output(in, f, e, e->u.call.sinfo_args[k]);
      if (!outs[k])
        return false;
      ir_vec_push(fresh, outs[k]);
      continue;
    }
    if (idx >= inputs->len || ((Value *)inputs->items[idx])->kind != VAL_TENSOR) {
      op_error(in->ctx, e->loc, in->binding, e->u.call.op,
               "inplace index %lld is not a tensor input", (long long)idx);
      return false;
    }
    IrBuf why = {0}, want = {0};
    if (!interp_match(in, f, e->u.call.sinfo_args[k], inputs->items[idx], &why)) {
      ir_sinfo_print(e->u.call.sinfo_args[k], &want);
      op_error(in->ctx, e->loc, in->binding, e->u.call.op,
               "in-place output %d is %s, but the argument %lld it overwrites does not fit: %s", k,
               want.data ? want.data : "?", (long long)idx, why.data ? why.data : "");
      ir_buf_free(&why);
      ir_buf_free(&want);
      return false;
    }
    ir_buf_free(&why);
    outs[k] = tensor_copy(in, inputs->items[idx], e->loc);
    if (!outs[k])
      return false;
    inputs->items[idx] = outs[k];
  }
  return true;
}

/* R.call_tir(_inplace) with its inputs a (args[1]) and tir_vars (args[2],
 * or NULL) already evaluated; output dims are evaluated in f. */
static Value *
call_tir_values(Interp *in, Frame *f, const IrExpr *e, Value *a, Value *tir_vars)
{
  const IrOpDef *op = e->u.call.op;
  const IrExpr *callee = e->u.call.nargs > 0 ? e->u.call.args[0] : NULL;
  const IrGlobal *g =
      callee && callee->kind == IR_EX_GLOBAL ? ir_module_find(in->mod, callee->u.global) : NULL;
  if (!g || g->kind != IR_GLOBAL_PRIM || e->u.call.nargs < 2 || e->u.call.nsinfo_args < 1) {
    op_error(in->ctx, e->loc, in->binding, op,
             "the callee is not a prim_func of the module "
             "(packed functions cannot be called by the interpreter)");
    return NULL;
  }
  IrVec inputs = {0}, fresh = {0};
  Value *outs[64];
  Value *result = NULL;
  if (!a || (e->u.call.nargs > 2 && !tir_vars) || e->u.call.nsinfo_args > 64)
    goto done;
  push_flat(&inputs, a);
  if (!call_tir_outputs(in, f, e, &inputs, &fresh, outs))
    goto done;
  for (int i = 0; i < fresh.len; i++)
    ir_vec_push(&inputs, fresh.items[i]);
  if (tir_vars && tir_vars->kind == VAL_SHAPE)
    for (int i = 0; i < tir_vars->u.shape.n; i++)
      ir_vec_push(&inputs, op_prim_int(in->ctx, IR_I64, tir_vars->u.shape.dims[i]));
  else if (tir_vars)
    push_flat(&inputs, tir_vars);
  if (!interp_prim_call(in, g->name, g->u.prim, (Value **)inputs.items, inputs.len))
    goto done;
  int n = e->u.call.nsinfo_args;
  result = n == 1 ? outs[0] : op_tuple_new(in->ctx, outs, n);
done:
  ir_vec_free(&inputs);
  ir_vec_free(&fresh);
  return result;
}

bool
interp_op_native(IrOpId id)
{
  return id == IR_OP_CALL_TIR || id == IR_OP_CALL_TIR_INPLACE || id == IR_OP_CALL_DPS_PACKED ||
         id == IR_OP_CALL_TIR_WITH_GRAD;
}

static Value *
call_tir(Interp *in, Frame *f, const IrExpr *e)
{
  Value *a = e->u.call.nargs > 1 ? eval_expr(in, f, e->u.call.args[1]) : NULL;
  Value *tir_vars = a && e->u.call.nargs > 2 ? eval_expr(in, f, e->u.call.args[2]) : NULL;
  if (e->u.call.nargs > 1 && !a)
    return NULL;
  return call_tir_values(in, f, e, a, tir_vars);
}

/* ---- calls --------------------------------------------------------------- */

static Value *
void_value(Interp *in)
{
  return op_tuple_new(in->ctx, NULL, 0);
}

/* Calls module function `name` (Relax, or a prim_func in DPS form). */
static Value *
call_global(Interp *in, IrSym name, Value **args, int nargs)
{
  const IrGlobal *g = ir_module_find(in->mod, name);
  if (!g || g->kind == IR_GLOBAL_EXTERN) {
    error_here(in, "'%s' is not a function of the module the interpreter can call%s", name, "");
    return NULL;
  }
  if (g->kind == IR_GLOBAL_PRIM)
    return interp_prim_call(in, name, g->u.prim, args, nargs) ? void_value(in) : NULL;
  return interp_function(in, g->u.relax, name, NULL, args, nargs);
}

static Value *
call_op(Interp *in, const IrExpr *e, Value **args)
{
  const OpImpl *impl = op_impl(e->u.call.op->id);
  if (!impl->eval) {
    op_error(in->ctx, e->loc, in->binding, e->u.call.op, "not implemented in the interpreter");
    return NULL;
  }
  OpEval ev = {in->ctx, in->binding, e->loc, &in->printed};
  Value *r = op_call_eval(&ev, e, args);
  flush_printed(in);
  return r;
}

/* After a call of a prim_func in DPS form (the explicit-memory form the
 * passes make), each tensor var it wrote goes to the trace hook as the
 * kernel left it, as the generated C's NAME_TRACE sees it. */
static void
trace_written(Interp *in, const IrExpr *e, Value **args)
{
  const IrGlobal *g = ir_module_find(in->mod, e->u.call.callee->u.global);
  if (!g || g->kind != IR_GLOBAL_PRIM)
    return;
  const IrPrimFunc *pf = g->u.prim;
  for (int i = 0; i < e->u.call.nargs && i < pf->nparams; i++)
    if (e->u.call.args[i]->kind == IR_EX_VAR && args[i]->kind == VAL_TENSOR &&
        pf->params[i].buffer && ir_stmt_stores_into(pf->body, pf->params[i].buffer))
      in->trace(in->trace_user, e->u.call.args[i]->u.var.name, args[i]);
}

static Value *
eval_call(Interp *in, Frame *f, const IrExpr *e)
{
  if (e->u.call.kind == IR_CALL_OP && interp_op_native(e->u.call.op->id))
    return call_tir(in, f, e);
  if (e->u.call.kind == IR_CALL_EXTERN) {
    error_here(in, "extern function '%s' cannot be called by the interpreter%s",
               e->u.call.callee->u.global, "");
    return NULL;
  }
  int n = e->u.call.nargs;
  Value **args = ir_alloc(in->ctx, sizeof *args * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    if (!(args[i] = eval_expr(in, f, e->u.call.args[i])))
      return NULL;
  if (e->u.call.kind == IR_CALL_OP)
    return call_op(in, e, args);
  if (e->u.call.kind == IR_CALL_GLOBAL) {
    Value *r = call_global(in, e->u.call.callee->u.global, args, n);
    if (r && in->trace)
      trace_written(in, e, args);
    return r;
  }
  const Value *fv = eval_expr(in, f, e->u.call.callee);
  if (!fv)
    return NULL;
  if (fv->kind != VAL_FUNC) {
    error_here(in, "the callee is not a function%s%s", "", "");
    return NULL;
  }
  if (fv->u.func.global)
    return call_global(in, fv->u.func.global, args, n);
  return interp_function(in, fv->u.func.local, e->u.call.callee->u.var.name, fv->u.func.env, args,
                         n);
}

/* ---- expressions and bindings ------------------------------------------ */

/* A new tensor whose contents are not defined yet: the trace shows it
 * once a kernel has written it (trace_written), not here. */
static bool
is_allocation(const IrExpr *e)
{
  if (e->kind != IR_EX_CALL || e->u.call.kind != IR_CALL_OP)
    return false;
  IrOpId id = e->u.call.op->id;
  return id == IR_OP_MEMORY_ALLOC_TENSOR || id == IR_OP_BUILTIN_ALLOC_TENSOR ||
         id == IR_OP_VM_ALLOC_TENSOR;
}

static Value *
eval_seq(Interp *in, Frame *f, const IrExpr *seq)
{
  IrSym outer = in->binding; /* an if branch's result is its binding's value */
  IrLoc outer_loc = in->loc;
  for (int k = 0; k < seq->u.seq.nblocks; k++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[k];
    for (int i = 0; i < blk->n; i++) {
      const IrBinding *b = &blk->bindings[i];
      in->binding = b->var->u.var.name;
      in->loc = b->loc;
      Value *v = eval_expr(in, f, b->value);
      if (!v)
        return NULL;
      in->binding = b->var->u.var.name;
      in->loc = b->loc;
      IrBuf why = {0}, want = {0};
      int nsyms = f->nsyms;
      bool ok = !b->cast || interp_match(in, f, b->cast, v, &why);
      const IrPrimExpr *relation = ir_binding_relation(b);
      if (!ok && relation) { /* a shape relation LegalizeOps checks (opt/legalize.c) */
        ir_prim_expr_print(relation, &want);
        error_here(in, "the shape relation %s does not hold for these dims%s", want.data, "");
      } else if (!ok) {
        ir_sinfo_print(b->cast, &want);
        error_here(in, "R.match_cast: the value does not match %s: %s", want.data,
                   why.data ? why.data : "mismatch");
      }
      ir_buf_free(&want);
      ir_buf_free(&why);
      /* a var defined in the body from data (a shape whose dims the
       * struct info does not know: R.tensor_to_shape's) meets its
       * tir_var_upper_bound as the parameters' do (ir/arith.c's rule) */
      const IrSInfo *hs = b->value->sinfo;
      if (ok && f->nsyms > nsyms && in->fn && b->cast->kind == IR_SI_SHAPE &&
          (!hs || (hs->kind == IR_SI_SHAPE && !hs->u.shape.values)))
        ok = interp_check_bounds(in, f, in->fn, in->fname);
      if (!ok)
        return NULL;
      interp_frame_set(in->ctx, f, b->var, v);
      if (in->trace && v->kind == VAL_TENSOR && !is_allocation(b->value))
        in->trace(in->trace_user, b->var->u.var.name, v);
    }
  }
  in->binding = outer;
  in->loc = outer_loc;
  return eval_expr(in, f, seq->u.seq.result);
}

static Value *
eval_leaf(Interp *in, Frame *f, const IrExpr *e)
{
  Value *v;
  Scalar s;
  switch (e->kind) {
  case IR_EX_SHAPE: {
    int64_t *dims = ir_alloc(in->ctx, sizeof *dims * (size_t)(e->u.shape.n + 1));
    for (int i = 0; i < e->u.shape.n; i++) {
      if (!interp_eval_dim(in, f, e->u.shape.values[i], &s))
        return NULL;
      dims[i] = s.i;
    }
    return op_shape_new(in->ctx, dims, e->u.shape.n);
  }
  case IR_EX_PRIM:
    if (!interp_eval_dim(in, f, e->u.prim, &s))
      return NULL;
    if (interp_scalar_is_float(e->u.prim->dtype))
      return op_prim_float(in->ctx, e->u.prim->dtype, s.f);
    return op_prim_int(in->ctx, e->u.prim->dtype, s.i);
  case IR_EX_STR:
    v = value_new(in->ctx, VAL_STR);
    v->u.str = e->u.str;
    return v;
  case IR_EX_DTYPE:
    v = value_new(in->ctx, VAL_DTYPE);
    v->u.dtype = e->u.dtype;
    return v;
  case IR_EX_GLOBAL:
    v = value_new(in->ctx, VAL_FUNC);
    v->u.func.global = e->u.global;
    return v;
  case IR_EX_FUNC:
    v = value_new(in->ctx, VAL_FUNC);
    v->u.func.local = e->u.func;
    v->u.func.env = f;
    return v;
  default:
    error_here(in, "extern function '%s' cannot be evaluated by the interpreter%s", e->u.global,
               "");
    return NULL;
  }
}

static Value *
eval_expr(Interp *in, Frame *f, const IrExpr *e)
{
  Value *v;
  switch (e->kind) {
  case IR_EX_VAR:
    v = interp_frame_get(f, e);
    if (!v)
      error_here(in, "variable '%s' has no value%s", e->u.var.name, "");
    return v;
  case IR_EX_CONST:
    return op_tensor_from_data(in->ctx, &e->u.constant);
  case IR_EX_TUPLE: {
    int n = e->u.tuple.n;
    Value **items = ir_alloc(in->ctx, sizeof *items * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
      if (!(items[i] = eval_expr(in, f, e->u.tuple.items[i])))
        return NULL;
    return op_tuple_new(in->ctx, items, n);
  }
  case IR_EX_GET:
    if (!(v = eval_expr(in, f, e->u.get.tuple)))
      return NULL;
    if (v->kind != VAL_TUPLE || e->u.get.index < 0 || e->u.get.index >= v->u.tuple.n) {
      error_here(in, "tuple index out of range or not a tuple%s%s", "", "");
      return NULL;
    }
    return v->u.tuple.items[e->u.get.index];
  case IR_EX_CALL:
    return eval_call(in, f, e);
  case IR_EX_SEQ:
    return eval_seq(in, f, e);
  case IR_EX_IF: {
    if (!(v = eval_expr(in, f, e->u.branch.cond)))
      return NULL;
    int c = truth(in, v);
    if (c < 0)
      return NULL;
    return eval_expr(in, f, c ? e->u.branch.then_ : e->u.branch.else_);
  }
  default:
    return eval_leaf(in, f, e);
  }
}

/* Checks and binds the arguments of a call of fn in its new frame. */
static bool
bind_args(Interp *in, Frame *f, const IrFunction *fn, const char *name, Value **args, int nargs)
{
  if (nargs != fn->nparams) {
    IrBuf msg = {0};
    ir_buf_printf(&msg, "function '%s' takes %d argument%s, got %d", name, fn->nparams,
                  fn->nparams == 1 ? "" : "s", nargs);
    error_here(in, "%s%s", msg.data, "");
    ir_buf_free(&msg);
    return false;
  }
  for (int i = 0; i < nargs; i++) {
    IrBuf why = {0};
    bool ok = interp_match(in, f, fn->params[i]->sinfo, args[i], &why);
    if (!ok) {
      IrBuf msg = {0};
      ir_buf_printf(&msg, "argument '%s' of '%s': %s", fn->params[i]->u.var.name, name,
                    why.data ? why.data : "mismatch");
      IrLoc call = in->loc;
      if (fn->params[i]->loc.src) /* the declaration the value breaks */
        in->loc = fn->params[i]->loc;
      error_here(in, "%s%s", msg.data, "");
      in->loc = call;
      ir_buf_free(&msg);
    }
    ir_buf_free(&why);
    if (!ok)
      return false;
    interp_frame_set(in->ctx, f, fn->params[i], args[i]);
  }
  return interp_check_bounds(in, f, fn, name);
}

Value *
interp_function(Interp *in, const IrFunction *fn, const char *name, Frame *env, Value **args,
                int nargs)
{
  if (in->depth >= INTERP_MAX_DEPTH) {
    error_here(in, "calls nested deeper than the interpreter's limit (in '%s')%s", name, "");
    return NULL;
  }
  IrSym binding = in->binding;
  IrLoc loc = in->loc;
  Frame *f = interp_frame_new(in->ctx, env);
  if (!bind_args(in, f, fn, name, args, nargs))
    return NULL;
  in->depth++;
  const IrFunction *outer_fn = in->fn;
  const char *outer_name = in->fname;
  in->fn = fn;
  in->fname = name;
  Value *r = eval_expr(in, f, fn->body);
  in->fn = outer_fn;
  in->fname = outer_name;
  in->depth--;
  in->binding = binding;
  in->loc = loc;
  IrBuf why = {0};
  if (r && fn->ret && !interp_match(in, f, fn->ret, r, &why)) {
    IrBuf msg = {0};
    ir_buf_printf(&msg, "the result of '%s' does not match its annotation: %s", name,
                  why.data ? why.data : "mismatch");
    error_here(in, "%s%s", msg.data, "");
    ir_buf_free(&msg);
    r = NULL;
  }
  ir_buf_free(&why);
  return r;
}

Value *
interp_eval_call(Interp *in, const IrExpr *call, Value **args)
{
  in->binding = NULL;
  in->loc = call->loc;
  if (call->kind != IR_EX_CALL || call->u.call.kind != IR_CALL_OP) {
    error_here(in, "only operator calls can be evaluated on their own%s%s", "", "");
    return NULL;
  }
  if (interp_op_native(call->u.call.op->id)) {
    int n = call->u.call.nargs;
    Frame *f = interp_frame_new(in->ctx, NULL);
    return call_tir_values(in, f, call, n > 1 ? args[1] : NULL, n > 2 ? args[2] : NULL);
  }
  return call_op(in, call, args);
}
