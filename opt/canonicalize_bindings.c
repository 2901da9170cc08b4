/*
 * canonicalize_bindings.c - CanonicalizeBindings: forwards trivial bindings
 * (`y = x`, and `y = R.match_cast(x, S)` where S says nothing x's struct
 * info does not) by using x wherever y was used, drops them, and replaces
 * a tuple-get of a var bound to a tuple literal by the element.
 *
 * Key idea: a plan first, then one Rewriter walk.  The plan records each
 * var's home block and whether it is used outside its home dataflow block
 * (later blocks, if branches, closures, the function's result).  Forwarding
 * y to x is legal unless x is a DataflowVar and y a Var used outside the
 * block: such a `y = x` is how a dataflow block exports a value, so it
 * stays (TVM handles this case by renaming x's binding instead; keeping it
 * is the simpler equal-meaning choice).  The Rewriter maps y to x, which
 * substitutes every later use; a second walk drops the forwarded bindings.
 *
 * Not done (TVM does them): inlining vars bound to constants, and turning
 * Vars used only inside their dataflow block into DataflowVars.
 */
#include "opt.h"
#include "opt_int.h"

typedef struct {
  IrMap home;      /* var -> the IrBindingBlock (of the input) binding it */
  IrMap outside;   /* var -> itself when used outside its home dataflow block */
  IrMap tuples;    /* var -> the tuple literal it is bound to (substituted) */
  IrMap forwarded; /* var -> itself when its binding goes */
} Canon;

/* --- the plan: home blocks and uses outside them ----------------------------- */

static void plan_seq(Canon *c, const IrExpr *seq);

/* Records the uses in e, made in dataflow block `in` (NULL: outside any). */
static void
plan_uses(Canon *c, const IrExpr *e, const IrBindingBlock *in)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_EX_VAR:
    if (!in || ir_map_get(&c->home, e) != in)
      ir_map_put(&c->outside, e, (void *)e);
    break;
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      plan_uses(c, e->u.tuple.items[i], in);
    break;
  case IR_EX_GET:
    plan_uses(c, e->u.get.tuple, in);
    break;
  case IR_EX_CALL:
    if (e->u.call.kind != IR_CALL_OP)
      plan_uses(c, e->u.call.callee, in);
    for (int i = 0; i < e->u.call.nargs; i++)
      plan_uses(c, e->u.call.args[i], in);
    break;
  case IR_EX_IF:
    plan_uses(c, e->u.branch.cond, in);
    plan_seq(c, e->u.branch.then_);
    plan_seq(c, e->u.branch.else_);
    break;
  case IR_EX_FUNC:
    if (e->u.func && e->u.func->body)
      plan_seq(c, e->u.func->body);
    break;
  default:
    break;
  }
}

/* A nested seq's blocks are blocks of their own: a use there of a var of
 * an enclosing block is a use outside its home. */
static void
plan_seq(Canon *c, const IrExpr *seq)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    for (int j = 0; j < blk->n; j++) {
      const IrBinding *b = &blk->bindings[j];
      plan_uses(c, b->value, blk->dataflow ? blk : NULL);
      if (b->var)
        ir_map_put(&c->home, b->var, (void *)blk);
    }
  }
  plan_uses(c, seq->u.seq.result, NULL);
}

/* --- forwarding ---------------------------------------------------------------- */

static bool
dims_subsume(IrPrimExpr **a, int na, IrPrimExpr **b, int nb)
{
  if (na < 0)
    return true;
  if (na != nb)
    return false;
  if (!a)
    return true;
  if (!b)
    return false;
  for (int i = 0; i < na; i++)
    if (!ir_prim_expr_equal(a[i], b[i]))
      return false;
  return true;
}

static bool
dtype_subsumes(IrDType a, IrDType b)
{
  return a.code == IR_DT_VOID || ir_dtype_eq(a, b);
}

/* Does a say nothing that b does not (NULL a says nothing)? */
static bool
subsumes(const IrSInfo *a, const IrSInfo *b)
{
  if (!a || a->kind == IR_SI_OBJECT || (b && ir_sinfo_equal(a, b)))
    return true;
  if (!b || a->kind != b->kind)
    return false;
  switch (a->kind) {
  case IR_SI_TENSOR:
    return dims_subsume(a->u.tensor.shape, a->u.tensor.ndim, b->u.tensor.shape, b->u.tensor.ndim) &&
           dtype_subsumes(a->u.tensor.dtype, b->u.tensor.dtype) &&
           (a->u.tensor.vdevice < 0 || a->u.tensor.vdevice == b->u.tensor.vdevice);
  case IR_SI_SHAPE:
    return dims_subsume(a->u.shape.values, a->u.shape.ndim, b->u.shape.values, b->u.shape.ndim);
  case IR_SI_PRIM:
    return dtype_subsumes(a->u.prim.dtype, b->u.prim.dtype) && !a->u.prim.value;
  case IR_SI_TUPLE:
    if (a->u.tuple.n != b->u.tuple.n)
      return false;
    for (int i = 0; i < a->u.tuple.n; i++)
      if (!subsumes(a->u.tuple.fields[i], b->u.tuple.fields[i]))
        return false;
    return true;
  default:
    return false;
  }
}

/* The element a tuple-get of a known tuple literal stands for, or NULL.  A
 * DataflowVar element is only taken inside its own block. */
static IrExpr *
known_element(Canon *c, const IrBinding *b)
{
  const IrExpr *get = b->value;
  const IrExpr *t = get->u.get.tuple;
  if (t->kind == IR_EX_VAR)
    t = ir_map_get(&c->tuples, t);
  if (!t || t->kind != IR_EX_TUPLE || get->u.get.index < 0 || get->u.get.index >= t->u.tuple.n)
    return NULL;
  IrExpr *elem = t->u.tuple.items[get->u.get.index];
  if (elem->kind == IR_EX_VAR && elem->u.var.dataflow &&
      ir_map_get(&c->home, elem) != ir_map_get(&c->home, b->var))
    return NULL;
  return elem;
}

/* Is `var = value` (or its match_cast) a binding that only renames? */
static bool
is_trivial(const IrBinding *b)
{
  const IrExpr *x = b->value;
  if (!x || x->kind != IR_EX_VAR)
    return false;
  if (b->cast && !(x->sinfo && ir_sinfo_equal(b->cast, x->sinfo)))
    return false;
  return subsumes(b->var->sinfo, x->sinfo);
}

static bool
canonicalize(Rewriter *rw, IrBinding *b)
{
  Canon *c = rw->user;
  if (rw->at_result || !b->var || !b->value)
    return true;
  if (b->value->kind == IR_EX_GET && !b->cast) {
    IrExpr *elem = known_element(c, b);
    if (elem)
      b->value = elem;
  }
  if (b->value->kind == IR_EX_TUPLE)
    ir_map_put(&c->tuples, b->var, b->value);
  if (!is_trivial(b))
    return true;
  const IrExpr *y = b->var, *x = b->value;
  if (x->u.var.dataflow && !y->u.var.dataflow && ir_map_get(&c->outside, y))
    return true; /* the block's export of x: stays */
  ir_map_put(&rw->vars, y, b->value);
  ir_map_put(&c->forwarded, y, (void *)y);
  return true;
}

static bool
drop_forwarded(const IrBinding *b, void *user)
{
  Canon *c = user;
  return b->var && ir_map_get(&c->forwarded, b->var);
}

static IrFunction *
canonical_function(IrCtx *ctx, const IrFunction *f, const char *name, void *user)
{
  (void)user;
  if (!f->body)
    return (IrFunction *)f;
  Canon c = {{0}, {0}, {0}, {0}};
  plan_seq(&c, f->body);
  IrFunction *out = opt_rw_function_with(ctx, f, name, canonicalize, &c);
  if (out)
    out = opt_rw_drop_bindings(ctx, out, drop_forwarded, &c);
  ir_map_free(&c.home);
  ir_map_free(&c.outside);
  ir_map_free(&c.tuples);
  ir_map_free(&c.forwarded);
  return out;
}

IrModule *
opt_canonicalize_bindings(const OptContext *oc, const IrModule *m)
{
  return opt_rw_module_functions(oc->ctx, m, canonical_function, NULL);
}
