/*
 * expand.c - the binding expander the explicit-memory passes share: every
 * Relax function of a module is rebuilt with each binding whose value
 * matches replaced by the bindings the pass emits (allocations, a call)
 * followed by the binding itself with a new value.  If branches (their
 * last assignment too) and local functions are entered; the arithmetic
 * of the enclosing functions' symbolic vars is at hand for sizes.
 *
 * Unlike the Rewriter (rewrite.c), one binding may become several, and
 * nothing is substituted: the emitted bindings define fresh vars.
 */
#include "../ops/op.h"
#include "opt_int.h"

static IrExpr *expand_seq(RwExpander *x, const IrExpr *seq);

void
opt_rw_emit(IrCtx *ctx, IrVec *out, IrExpr *var, IrExpr *value, IrLoc loc)
{
  IrBinding *b = ir_alloc(ctx, sizeof *b);
  b->var = var;
  b->value = value;
  b->loc = loc;
  ir_vec_push(out, b);
}

static IrExpr *
prim_zero(IrCtx *ctx, IrLoc loc)
{
  return ir_prim_value(ctx, ir_prim_int(ctx, IR_I64, 0), loc);
}

IrExpr *
opt_rw_emit_alloc(RwExpander *x, const IrSInfo *s, IrVec *out, IrLoc loc)
{
  IrCtx *ctx = x->ctx;
  if (s->kind != IR_SI_TENSOR || !s->u.tensor.shape || s->u.tensor.dtype.code == IR_DT_VOID) {
    ir_error(ctx, loc, "%s: every output needs a known shape and dtype", x->pass);
    x->nerrors++;
    return NULL;
  }
  int ndim = s->u.tensor.ndim;
  IrDType dt = s->u.tensor.dtype;
  IrPrimExpr *bytes = ir_prim_int(ctx, IR_I64, ir_dtype_bytes(dt));
  for (int i = 0; i < ndim; i++)
    bytes = ir_prim_bin(ctx, IR_PE_MUL, bytes, s->u.tensor.shape[i]);
  IrPrimExpr **size = ir_alloc(ctx, sizeof *size);
  size[0] = ir_arith_simplify(x->arith, bytes);

  IrExpr **sargs = ir_alloc(ctx, sizeof *sargs * 4);
  sargs[0] = ir_shape_expr(ctx, size, 1, loc);
  sargs[1] = prim_zero(ctx, loc);
  sargs[2] = ir_str_imm(ctx, ir_sym(ctx, "global"), loc);
  sargs[3] = ir_dtype_imm(ctx, dt, loc);
  IrExpr *scall = ir_call_op(ctx, &op_def(IR_OP_MEMORY_ALLOC_STORAGE)->syn, sargs, 4, NULL, loc);
  scall->sinfo = ir_sinfo_object(ctx);
  IrExpr *storage = ir_var_new(ctx, ir_sym(ctx, "storage"), scall->sinfo, false, loc);
  opt_rw_emit(ctx, out, storage, scall, loc);

  IrExpr **targs = ir_alloc(ctx, sizeof *targs * 5);
  targs[0] = storage;
  targs[1] = prim_zero(ctx, loc);
  targs[2] = ir_shape_expr(ctx, s->u.tensor.shape, ndim, loc);
  targs[3] = ir_dtype_imm(ctx, dt, loc);
  targs[4] = prim_zero(ctx, loc);
  IrExpr *tcall = ir_call_op(ctx, &op_def(IR_OP_MEMORY_ALLOC_TENSOR)->syn, targs, 5, NULL, loc);
  tcall->sinfo = ir_sinfo_tensor(ctx, s->u.tensor.shape, ndim, dt, -1);
  IrExpr *alloc = ir_var_new(ctx, ir_sym(ctx, "alloc"), tcall->sinfo, false, loc);
  opt_rw_emit(ctx, out, alloc, tcall, loc);
  return alloc;
}

static IrFunction *
expand_function(RwExpander *x, const IrFunction *f)
{
  IrArith *saved = x->arith;
  ir_vec_push(&x->funcs, (void *)f);
  x->arith = ir_arith_new(x->ctx);
  for (int i = 0; i < x->funcs.len; i++)
    ir_arith_bound_function(x->arith, x->funcs.items[i]);
  IrFunction *copy = ir_alloc(x->ctx, sizeof *copy);
  *copy = *f;
  copy->body = expand_seq(x, f->body);
  x->funcs.len--;
  x->arith = saved;
  return copy;
}

/* Appends the bindings that replace b to out. */
static void
expand_binding(RwExpander *x, const IrBinding *b, IrVec *out)
{
  IrBinding *nb = ir_alloc(x->ctx, sizeof *nb);
  *nb = *b;
  const IrExpr *v = b->value;
  if (v->kind == IR_EX_IF) {
    IrExpr *copy = opt_rw_expr_copy(x->ctx, v);
    copy->u.branch.then_ = expand_seq(x, v->u.branch.then_);
    copy->u.branch.else_ = expand_seq(x, v->u.branch.else_);
    nb->value = copy;
  } else if (v->kind == IR_EX_FUNC) {
    IrExpr *copy = opt_rw_expr_copy(x->ctx, v);
    copy->u.func = expand_function(x, v->u.func);
    nb->value = copy;
  } else if (x->match(x, v)) {
    IrExpr *value = x->expand(x, v, out);
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
expand_seq(RwExpander *x, const IrExpr *seq)
{
  int nblocks = seq->u.seq.nblocks;
  IrBindingBlock *blocks = ir_alloc(x->ctx, sizeof *blocks * (size_t)(nblocks + 1));
  IrVec list = {0};
  for (int i = 0; i < nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    for (int j = 0; j < blk->n; j++)
      expand_binding(x, &blk->bindings[j], &list);
    if (i < nblocks - 1)
      blocks[i] = block_of(x->ctx, blk, &list);
  }
  IrExpr *copy = opt_rw_expr_copy(x->ctx, seq);
  IrExpr *result = seq->u.seq.result;
  if (x->match(x, result)) { /* an if branch's last assignment */
    IrExpr *value = x->expand(x, result, &list);
    result = value ? value : result;
  }
  if (nblocks > 0 || list.len > 0) {
    IrBindingBlock empty = {0};
    blocks[nblocks > 0 ? nblocks - 1 : 0] =
        block_of(x->ctx, nblocks > 0 ? &seq->u.seq.blocks[nblocks - 1] : &empty, &list);
    nblocks = nblocks > 0 ? nblocks : 1;
  }
  copy->u.seq.blocks = blocks;
  copy->u.seq.nblocks = nblocks;
  copy->u.seq.result = result;
  return copy;
}

IrModule *
opt_rw_expand_module(RwExpander *x, IrModule *m)
{
  for (int i = 0; i < m->nglobals; i++)
    if (m->globals[i].kind == IR_GLOBAL_RELAX && m->globals[i].u.relax)
      m->globals[i].u.relax = expand_function(x, m->globals[i].u.relax);
  ir_vec_free(&x->funcs);
  return x->nerrors ? NULL : m;
}
