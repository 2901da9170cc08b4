/*
 * to_non_dataflow.c - ToNonDataflow: every dataflow block becomes a plain
 * block and every DataflowVar a Var, in every Relax function (local ones and
 * if branches too).
 *
 * Key idea: a var's kind is part of the node, and nodes are immutable, so
 * each DataflowVar is recreated as a new Var (same name and struct info)
 * by the Rewriter, which substitutes it in every later use; a second walk
 * then clears the dataflow flag of the blocks, copy on write, and merges
 * the blocks of each seq into one plain block.
 */
#include "opt.h"
#include "opt_int.h"

static bool
plain_var(Rewriter *rw, IrBinding *b)
{
  if (rw->at_result || !b->var || !b->var->u.var.dataflow)
    return true;
  const IrExpr *old = b->var;
  b->var = ir_var_new(rw->ctx, old->u.var.name, old->sinfo, false, old->loc);
  ir_map_put(&rw->vars, old, b->var);
  return true;
}

static IrExpr *plain_seq(IrCtx *ctx, IrExpr *seq);

static IrFunction *
plain_function(IrCtx *ctx, const IrFunction *f)
{
  IrExpr *body = f->body ? plain_seq(ctx, f->body) : NULL;
  if (body == f->body)
    return (IrFunction *)f;
  IrFunction *copy = ir_alloc(ctx, sizeof *copy);
  *copy = *f;
  copy->body = body;
  return copy;
}

/* The value with the blocks nested in it made plain. */
static IrExpr *
plain_value(IrCtx *ctx, IrExpr *e)
{
  if (e && e->kind == IR_EX_IF) {
    IrExpr *then_ = plain_seq(ctx, e->u.branch.then_);
    IrExpr *else_ = plain_seq(ctx, e->u.branch.else_);
    if (then_ == e->u.branch.then_ && else_ == e->u.branch.else_)
      return e;
    IrExpr *copy = opt_rw_expr_copy(ctx, e);
    copy->u.branch.then_ = then_;
    copy->u.branch.else_ = else_;
    return copy;
  }
  if (e && e->kind == IR_EX_FUNC && e->u.func) {
    IrFunction *f = plain_function(ctx, e->u.func);
    if (f == e->u.func)
      return e;
    IrExpr *copy = opt_rw_expr_copy(ctx, e);
    copy->u.func = f;
    return copy;
  }
  return e;
}

/* One block made plain into out; whether it changed. */
static bool
plain_block(IrCtx *ctx, const IrBindingBlock *blk, IrBindingBlock *out)
{
  *out = *blk;
  out->dataflow = false;
  bool changed = blk->dataflow;
  IrBinding *bindings = ir_alloc(ctx, (size_t)(blk->n ? blk->n : 1) * sizeof *bindings);
  for (int j = 0; j < blk->n; j++) {
    bindings[j] = blk->bindings[j];
    bindings[j].value = plain_value(ctx, blk->bindings[j].value);
    if (bindings[j].value != blk->bindings[j].value) {
      out->bindings = bindings;
      changed = true;
    }
  }
  return changed;
}

/* The seq with its blocks made plain and merged into one, as the printed
 * form reads back (TVM's normalizer merges adjacent blocks of one kind). */
static IrExpr *
plain_seq(IrCtx *ctx, IrExpr *seq)
{
  int nblocks = seq->u.seq.nblocks, total = 0;
  IrBindingBlock *blocks = ir_alloc(ctx, (size_t)(nblocks ? nblocks : 1) * sizeof *blocks);
  bool changed = nblocks > 1;
  for (int i = 0; i < nblocks; i++) {
    changed |= plain_block(ctx, &seq->u.seq.blocks[i], &blocks[i]);
    total += blocks[i].n;
  }
  if (!changed)
    return seq;
  IrBindingBlock *merged = ir_alloc(ctx, sizeof *merged);
  *merged = blocks[0];
  merged->bindings = ir_alloc(ctx, (size_t)(total ? total : 1) * sizeof(IrBinding));
  merged->n = 0;
  for (int i = 0; i < nblocks; i++)
    for (int j = 0; j < blocks[i].n; j++)
      merged->bindings[merged->n++] = blocks[i].bindings[j];
  IrExpr *copy = opt_rw_expr_copy(ctx, seq);
  copy->u.seq.blocks = merged;
  copy->u.seq.nblocks = total ? 1 : 0;
  return copy;
}

static IrFunction *
non_dataflow_function(IrCtx *ctx, const IrFunction *f, const char *name, void *user)
{
  (void)user;
  IrFunction *plain = opt_rw_function_with(ctx, f, name, plain_var, NULL);
  return plain ? plain_function(ctx, plain) : NULL;
}

IrModule *
opt_to_non_dataflow(const OptContext *oc, const IrModule *m)
{
  return opt_rw_module_functions(oc->ctx, m, non_dataflow_function, NULL);
}
