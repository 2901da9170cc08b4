/*
 * fuse_group.c - the Relax function FuseOps makes of one group, and the
 * call that replaces the group.
 *
 * Key idea: the new function is closed.  Its params are new vars for the
 * group's inputs, its bindings new vars for the members, and each symbolic
 * var of the caller it mentions becomes a new symbolic var of its own (the
 * caller checked that each is bound by a whole dim of an input's shape),
 * so nothing is shared between the two functions but immutable leaves.
 */
#include <string.h>

#include "../ops/tir_build.h"
#include "fuse_int.h"

/* s with its symbolic vars renamed by syms (new vars added as met). */
static IrSInfo *
sinfo_subst(IrCtx *ctx, IrSInfo *s, OpVarMap *syms)
{
  if (!s || s->kind != IR_SI_TENSOR || !s->u.tensor.shape)
    return s;
  int n = s->u.tensor.ndim;
  IrPrimExpr **shape = ir_alloc(ctx, (size_t)(n ? n : 1) * sizeof *shape);
  for (int d = 0; d < n; d++)
    shape[d] = op_prim_subst(ctx, s->u.tensor.shape[d], syms, true);
  return ir_sinfo_tensor(ctx, shape, n, s->u.tensor.dtype, s->u.tensor.vdevice);
}

/* fused_<callee names joined by _>, or with 1, 2, ... appended: the first
 * name not in names (every global's, old and new), where it is added.
 * The set keeps each base's last suffix, so naming N groups alike costs
 * O(N) tries, not a scan of every global per try. */
static IrSym
group_name(IrCtx *ctx, IrNames *names, const IrBinding **members, int n)
{
  IrBuf b = {0};
  ir_buf_puts(&b, "fused");
  for (int i = 0; i < n; i++)
    ir_buf_printf(&b, "_%s", members[i]->value->u.call.args[0]->u.global);
  IrSym name = ir_sym(ctx, ir_names_unique(names, b.data, ""));
  ir_buf_free(&b);
  return name;
}

/* The member's call_tir with its arguments, struct info and tir_vars
 * carried into the new function. */
static IrExpr *
member_call(IrCtx *ctx, const IrExpr *call, IrMap *vars, OpVarMap *syms, IrSInfo *result)
{
  const IrExpr *t = call->u.call.args[1];
  IrExpr *tuple = opt_rw_expr_copy(ctx, t);
  int n = t->u.tuple.n;
  tuple->u.tuple.items = ir_alloc(ctx, (size_t)(n ? n : 1) * sizeof(IrExpr *));
  IrSInfo **fields = ir_alloc(ctx, (size_t)(n ? n : 1) * sizeof *fields);
  for (int i = 0; i < n; i++) {
    tuple->u.tuple.items[i] = ir_map_get(vars, t->u.tuple.items[i]);
    fields[i] = tuple->u.tuple.items[i]->sinfo;
  }
  tuple->sinfo = ir_sinfo_tuple(ctx, fields, n);
  IrExpr *copy = opt_rw_expr_copy(ctx, call);
  copy->u.call.args = ir_alloc(ctx, (size_t)call->u.call.nargs * sizeof(IrExpr *));
  copy->u.call.args[0] = call->u.call.args[0];
  copy->u.call.args[1] = tuple;
  if (call->u.call.nargs == 3) {
    const IrExpr *sh = call->u.call.args[2];
    IrPrimExpr **values =
        ir_alloc(ctx, (size_t)(sh->u.shape.n ? sh->u.shape.n : 1) * sizeof *values);
    for (int k = 0; k < sh->u.shape.n; k++)
      values[k] = op_prim_subst(ctx, sh->u.shape.values[k], syms, true);
    copy->u.call.args[2] = ir_shape_expr(ctx, values, sh->u.shape.n, sh->loc);
    copy->u.call.args[2]->sinfo = ir_sinfo_shape(ctx, values, sh->u.shape.n);
  }
  copy->u.call.sinfo_args = ir_alloc(ctx, sizeof(IrSInfo *));
  copy->u.call.sinfo_args[0] = result;
  copy->sinfo = result;
  return copy;
}

/* The group's function: params for inputs, one dataflow block of the
 * members, the last member's var returned. */
static IrFunction *
group_function(IrCtx *ctx, const IrBinding **members, int n, const IrVec *inputs)
{
  IrMap vars = {0};
  OpVarMap syms = {0};
  IrFunction *f = ir_alloc(ctx, sizeof *f);
  f->nparams = inputs->len;
  f->params = ir_alloc(ctx, (size_t)(inputs->len ? inputs->len : 1) * sizeof *f->params);
  for (int i = 0; i < inputs->len; i++) {
    const IrExpr *in = inputs->items[i];
    IrSym name = in->kind == IR_EX_VAR ? in->u.var.name : ir_sym(ctx, ir_printf(ctx, "c%d", i));
    f->params[i] = ir_var_new(ctx, name, sinfo_subst(ctx, in->sinfo, &syms), false, in->loc);
    ir_map_put(&vars, in, f->params[i]);
  }
  IrBindingBlock *blk = ir_alloc(ctx, sizeof *blk);
  blk->dataflow = true;
  blk->n = n;
  blk->bindings = ir_alloc(ctx, (size_t)n * sizeof(IrBinding));
  for (int i = 0; i < n; i++) {
    const IrBinding *b = members[i];
    IrSInfo *s = sinfo_subst(ctx, b->value->u.call.sinfo_args[0], &syms);
    IrBinding *nb = &blk->bindings[i];
    nb->loc = b->loc;
    nb->var = ir_var_new(ctx, b->var->u.var.name, s, i < n - 1, b->var->loc);
    nb->value = member_call(ctx, b->value, &vars, &syms, s);
    ir_map_put(&vars, b->var, nb->var);
  }
  IrExpr *body = ir_expr_new(ctx, IR_EX_SEQ, members[n - 1]->loc);
  body->u.seq.blocks = blk;
  body->u.seq.nblocks = 1;
  body->u.seq.result = blk->bindings[n - 1].var;
  body->sinfo = body->u.seq.result->sinfo;
  f->body = body;
  f->ret = body->sinfo;
  IrSym key = ir_sym(ctx, "Primitive");
  IrAttr *yes = ir_attr_bool(ctx, true);
  f->attrs = ir_attr_dict(ctx, &key, &yes, 1);
  f->pure = true;
  f->is_private = true;
  f->loc = members[0]->loc;
  ir_map_free(&vars);
  op_var_map_free(&syms);
  return f;
}

IrExpr *
opt_fuse_make_group(IrCtx *ctx, IrNames *names, IrFuncSet *made, IrVec *new_globals,
                    const IrBinding **members, int n, const IrVec *inputs)
{
  IrArenaMark mark = ir_arena_mark(ctx);
  IrGlobal *g = ir_alloc(ctx, sizeof *g);
  g->kind = IR_GLOBAL_RELAX;
  g->u.relax = group_function(ctx, members, n, inputs);
  uint64_t hash;
  const IrGlobal *same = ir_func_set_find(made, g, &hash);
  if (same) {
    ir_arena_rewind(ctx, mark); /* nothing refers to the copy */
    g = (IrGlobal *)same;
  } else {
    g->name = group_name(ctx, names, members, n);
    ir_vec_push(new_globals, g);
    ir_func_set_add(made, g, hash);
  }

  const IrBinding *last = members[n - 1];
  IrExpr *callee = ir_expr_new(ctx, IR_EX_GLOBAL, last->value->loc);
  callee->u.global = g->name;
  IrExpr *call = ir_expr_new(ctx, IR_EX_CALL, last->value->loc);
  call->u.call.kind = IR_CALL_GLOBAL;
  call->u.call.callee = callee;
  call->u.call.nargs = inputs->len;
  call->u.call.args = ir_alloc(ctx, (size_t)(inputs->len ? inputs->len : 1) * sizeof(IrExpr *));
  for (int i = 0; i < inputs->len; i++)
    call->u.call.args[i] = inputs->items[i];
  call->sinfo = last->value->u.call.sinfo_args[0];
  return call;
}
