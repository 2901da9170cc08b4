/*
 * fuse_ops.c - FuseOps: groups R.call_tir bindings into Relax functions
 * with {"Primitive": True}, which FuseTIR then turns into one prim_func.
 *
 * Key idea: groups grow from producers to consumers, inside one binding
 * block, and each group has exactly one output.  Walking the block in
 * order, a call whose pattern (fuse_pattern.c) is elementwise, broadcast or
 * injective joins the group of one of its arguments' producers when that
 * group accepts it: a group anchored by a reduction or an out-elementwise-
 * fusable op (conv2d, matmul) takes elementwise and broadcast ops, a group
 * of injective ops takes injective ones; among several producers the one
 * with the strongest anchor wins (conv2d before the bias reshape).  Other
 * calls start a group; opaque calls and everything else stay alone.  A
 * group may not reach back over an impure binding.
 *
 * Then each group is checked: every member but the last must be used only
 * by members (so moving the whole group to the place of its last member,
 * where the call of the new function goes, changes no value anyone else
 * sees), and every symbolic var the group mentions must be bound by the
 * shape of one of its inputs.  A failing member's var is "sealed" (the
 * group it joins takes no one after it) and the block is grouped again;
 * each round seals a var, so this ends.  Groups of one are left as they are, so the
 * pass is idempotent, and functions that are already Primitive, Composite
 * or Codegen are not entered.
 *
 * The member vars keep their identity outside (only the last one's var
 * remains, bound to the call), so no later use needs substituting; inside
 * the new function every var and symbolic var is new.
 */
#include <stdint.h>
#include <string.h>

#include "../ops/tir_build.h"
#include "fuse_int.h"
#include "opt.h"

enum { MAX_GROUP = 256 }; /* members of one group, as TVM's max_fuse_depth */

typedef struct {
  IrCtx *ctx;
  const IrModule *mod;
  IrMap globals;     /* mod's globals by name (ir_module_index) */
  IrMap patterns;    /* IrPrimFunc* -> FusePattern + 1 */
  IrMap uses;        /* Relax var -> uses in its function (uintptr_t) */
  IrVec new_globals; /* IrGlobal*: the fused functions made */
  IrNames names;     /* the names of mod's globals and the new ones */
  IrFuncSet made;    /* the new ones, one per function (equal groups share it) */
} Fuser;

typedef struct {
  const IrBinding *b;
  const IrExpr *call;  /* the call_tir, NULL when the binding cannot fuse */
  const IrExpr *tuple; /* its argument tuple */
  IrSym callee;        /* the prim_func's name */
  FusePattern pattern;
  bool barrier; /* holds an impure call */
  int group;    /* -1 when in none */
} Node;

typedef struct {
  int first, last, n; /* node indices and member count */
  FusePattern anchor; /* the widest pattern of a member */
  bool closed;        /* a sealed member ends it: no one joins any more */
} Group;

/* --- what may fuse --------------------------------------------------------- */

static bool
known_tensor(const IrSInfo *s)
{
  return s && s->kind == IR_SI_TENSOR && s->u.tensor.shape && s->u.tensor.ndim >= 0 &&
         s->u.tensor.dtype.code != IR_DT_VOID && s->shape_len == 0;
}

static bool
is_call_tir(const IrExpr *e)
{
  return e && e->kind == IR_EX_CALL && e->u.call.kind == IR_CALL_OP &&
         e->u.call.op->id == IR_OP_CALL_TIR;
}

static const IrPrimFunc *
prim_of(const Fuser *fu, IrSym name)
{
  const IrGlobal *g = ir_map_get(&fu->globals, name);
  return g && g->kind == IR_GLOBAL_PRIM ? g->u.prim : NULL;
}

/* var = R.call_tir(cls.prim, (tensor leaves...), out_sinfo=one tensor
 * [, tir_vars=R.shape(...)]), every struct info known. */
static bool
fusable(const Fuser *fu, const IrBinding *b)
{
  const IrExpr *c = b->value;
  if (!is_call_tir(c) || b->cast || !b->var || c->u.call.nargs < 2 || c->u.call.nargs > 3)
    return false;
  const IrExpr *g = c->u.call.args[0], *t = c->u.call.args[1];
  if (g->kind != IR_EX_GLOBAL || !prim_of(fu, g->u.global) || t->kind != IR_EX_TUPLE)
    return false;
  if (c->u.call.nargs == 3 && c->u.call.args[2]->kind != IR_EX_SHAPE)
    return false;
  if (c->u.call.nsinfo_args != 1 || !known_tensor(c->u.call.sinfo_args[0]))
    return false;
  for (int i = 0; i < t->u.tuple.n; i++) {
    const IrExpr *a = t->u.tuple.items[i];
    if ((a->kind != IR_EX_VAR && a->kind != IR_EX_CONST) || !known_tensor(a->sinfo))
      return false;
  }
  return true;
}

static bool contains_impure(const Fuser *fu, const IrExpr *e);

static bool
seq_impure(const Fuser *fu, const IrExpr *seq)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++)
      if (contains_impure(fu, seq->u.seq.blocks[i].bindings[j].value))
        return true;
  return contains_impure(fu, seq->u.seq.result);
}

/* Does evaluating e have a visible effect (an impure call anywhere in it)? */
static bool
contains_impure(const Fuser *fu, const IrExpr *e)
{
  if (!e)
    return false;
  if (e->kind == IR_EX_IF)
    return seq_impure(fu, e->u.branch.then_) || seq_impure(fu, e->u.branch.else_);
  if (e->kind != IR_EX_CALL)
    return false;
  switch (e->u.call.kind) {
  case IR_CALL_OP:
    return e->u.call.op->impure;
  case IR_CALL_GLOBAL: {
    const IrGlobal *g = ir_map_get(&fu->globals, e->u.call.callee->u.global);
    return !g || g->kind != IR_GLOBAL_RELAX || !g->u.relax->pure;
  }
  case IR_CALL_VAR: {
    const IrSInfo *s = e->u.call.callee->sinfo;
    return !s || s->kind != IR_SI_FUNC || !s->u.func.pure;
  }
  case IR_CALL_EXTERN:
    return true;
  }
  return true;
}

static FusePattern
pattern_of(Fuser *fu, const IrPrimFunc *f)
{
  uintptr_t p = (uintptr_t)ir_map_get(&fu->patterns, f);
  if (!p) {
    p = (uintptr_t)opt_fuse_pattern_of(f) + 1;
    ir_map_put(&fu->patterns, f, (void *)p);
  }
  return (FusePattern)(p - 1);
}

/* --- uses ------------------------------------------------------------------ */

static int
uses_of(const Fuser *fu, const IrExpr *var)
{
  return (int)(uintptr_t)ir_map_get(&fu->uses, var);
}

/* --- grouping ------------------------------------------------------------- */

static int
node_of(const IrMap *index, const IrExpr *var)
{
  return (int)(uintptr_t)ir_map_get(index, var) - 1;
}

static bool
accepts(const Group *g, FusePattern p)
{
  if (p > FUSE_INJECTIVE || g->n >= MAX_GROUP)
    return false;
  return g->anchor >= FUSE_COMM_REDUCE ? p <= FUSE_BROADCAST : true;
}

/* The group node i joins (its index in groups), or -1. */
static int
pick_group(Node *nodes, int i, Group *groups, const IrMap *index, int barrier)
{
  int best = -1;
  const IrExpr *t = nodes[i].tuple;
  for (int k = 0; k < t->u.tuple.n; k++) {
    const IrExpr *a = t->u.tuple.items[k];
    int j = a->kind == IR_EX_VAR ? node_of(index, a) : -1;
    if (j < 0 || nodes[j].group < 0)
      continue;
    const Group *g = &groups[nodes[j].group];
    if (g->closed || g->first <= barrier || !accepts(g, nodes[i].pattern))
      continue;
    if (best < 0 || g->anchor > groups[best].anchor)
      best = nodes[j].group;
  }
  return best;
}

/* Assigns groups to nodes in order; returns how many groups. */
static int
assign_groups(Node *nodes, int n, Group *groups, const IrMap *index, const IrMap *sealed)
{
  int ngroups = 0, barrier = -1;
  for (int i = 0; i < n; i++) {
    nodes[i].group = -1;
    if (nodes[i].barrier)
      barrier = i;
    if (!nodes[i].call || nodes[i].pattern == FUSE_OPAQUE)
      continue;
    int g = pick_group(nodes, i, groups, index, barrier);
    if (g < 0) {
      g = ngroups++;
      groups[g] = (Group){i, i, 0, nodes[i].pattern, false};
    }
    if (ir_map_get(sealed, nodes[i].b->var))
      groups[g].closed = true;
    nodes[i].group = g;
    groups[g].last = i;
    groups[g].n++;
    if (nodes[i].pattern > groups[g].anchor)
      groups[g].anchor = nodes[i].pattern;
  }
  return ngroups;
}

/* Occurrences of var among the arguments of group g's members. */
static int
uses_inside(const Node *nodes, const Group *g, int gi, const IrExpr *var)
{
  int count = 0;
  for (int i = g->first; i <= g->last; i++)
    if (nodes[i].group == gi)
      for (int k = 0; k < nodes[i].tuple->u.tuple.n; k++)
        count += nodes[i].tuple->u.tuple.items[k] == var;
  return count;
}

static void
collect_sinfo_vars(const IrSInfo *s, IrVec *out)
{
  for (int d = 0; s && s->kind == IR_SI_TENSOR && d < s->u.tensor.ndim; d++)
    ir_prim_expr_vars(s->u.tensor.shape[d], out);
}

/* Is every dim of a's shape a literal or a bare var? */
static bool
plain_shape(const IrExpr *a)
{
  const IrSInfo *s = a->sinfo;
  for (int d = 0; d < s->u.tensor.ndim; d++)
    if (s->u.tensor.shape[d]->kind != IR_PE_VAR && s->u.tensor.shape[d]->kind != IR_PE_INT)
      return false;
  return true;
}

/* Moves the inputs whose shapes have a computed dim (n * 8) after the
 * others, keeping order otherwise, so the params that bind symbolic vars
 * come before the ones that use them (the interpreter binds in order). */
static void
bound_first(IrVec *inputs)
{
  IrVec later = {0};
  int k = 0;
  for (int i = 0; i < inputs->len; i++)
    if (plain_shape(inputs->items[i]))
      inputs->items[k++] = inputs->items[i];
    else
      ir_vec_push(&later, inputs->items[i]);
  for (int i = 0; i < later.len; i++)
    inputs->items[k++] = later.items[i];
  ir_vec_free(&later);
}

/* The group's inputs: arguments of members that are not members' vars, in
 * order of first use, each once, those with computed dims last. */
static void
group_inputs(const Node *nodes, const Group *g, int gi, const IrMap *index, IrVec *out)
{
  for (int i = g->first; i <= g->last; i++) {
    if (nodes[i].group != gi)
      continue;
    const IrExpr *t = nodes[i].tuple;
    for (int k = 0; k < t->u.tuple.n; k++) {
      const IrExpr *a = t->u.tuple.items[k];
      int j = a->kind == IR_EX_VAR ? node_of(index, a) : -1;
      if (j >= 0 && nodes[j].group == gi)
        continue;
      bool seen = false;
      for (int p = 0; p < out->len && !seen; p++)
        seen = out->items[p] == a;
      if (!seen)
        ir_vec_push(out, (void *)a);
    }
  }
  bound_first(out);
}

/* Is every symbolic var of the group bound by a whole dim of an input? */
static bool
symbols_bound(const Node *nodes, const Group *g, int gi, const IrMap *index)
{
  IrVec inputs = {0}, bound = {0}, used = {0};
  group_inputs(nodes, g, gi, index, &inputs);
  for (int p = 0; p < inputs.len; p++) {
    const IrSInfo *s = ((const IrExpr *)inputs.items[p])->sinfo;
    collect_sinfo_vars(s, &used);
    for (int d = 0; d < s->u.tensor.ndim; d++)
      if (s->u.tensor.shape[d]->kind == IR_PE_VAR)
        ir_vec_push(&bound, s->u.tensor.shape[d]);
  }
  for (int i = g->first; i <= g->last; i++) {
    if (nodes[i].group != gi)
      continue;
    collect_sinfo_vars(nodes[i].call->u.call.sinfo_args[0], &used);
    if (nodes[i].call->u.call.nargs == 3) {
      const IrExpr *sh = nodes[i].call->u.call.args[2];
      for (int k = 0; k < sh->u.shape.n; k++)
        ir_prim_expr_vars(sh->u.shape.values[k], &used);
    }
  }
  bool ok = true;
  for (int u = 0; u < used.len && ok; u++) {
    ok = false;
    for (int b = 0; b < bound.len && !ok; b++)
      ok = bound.items[b] == used.items[u];
  }
  ir_vec_free(&inputs);
  ir_vec_free(&bound);
  ir_vec_free(&used);
  return ok;
}

/* Checks every group of two or more; seals the vars that break one (a
 * sealed var's node is always the last of its group, so it never fails
 * again: each failing round seals a new var).  Returns whether all
 * passed. */
static bool
validate(const Fuser *fu, const Node *nodes, const Group *groups, int ngroups, const IrMap *index,
         IrMap *sealed)
{
  bool ok = true;
  for (int gi = 0; gi < ngroups; gi++) {
    const Group *g = &groups[gi];
    if (g->n < 2)
      continue;
    bool good = true;
    for (int i = g->first; i < g->last; i++) {
      const IrExpr *var = nodes[i].b->var;
      if (nodes[i].group == gi && uses_of(fu, var) != uses_inside(nodes, g, gi, var)) {
        ir_map_put(sealed, var, (void *)var);
        good = false;
      }
    }
    if (good && !symbols_bound(nodes, g, gi, index)) {
      for (int i = g->first; i <= g->last; i++)
        if (nodes[i].group == gi)
          ir_map_put(sealed, nodes[i].b->var, (void *)nodes[i].b->var);
      good = false;
    }
    ok = ok && good;
  }
  return ok;
}

/* --- making the functions ------------------------------------------------- */

/* The block with each group of two or more replaced by one call at the
 * place of its last member; blk itself when no group formed. */
static IrBindingBlock
fuse_block(Fuser *fu, const IrBindingBlock *blk)
{
  int n = blk->n;
  Node *nodes = ir_alloc(fu->ctx, (size_t)(n ? n : 1) * sizeof *nodes);
  Group *groups = ir_alloc(fu->ctx, (size_t)(n ? n : 1) * sizeof *groups);
  IrMap index = {0}, sealed = {0};
  for (int i = 0; i < n; i++) {
    const IrBinding *b = &blk->bindings[i];
    Node *nd = &nodes[i];
    nd->b = b;
    nd->barrier = contains_impure(fu, b->value);
    if (!fusable(fu, b))
      continue;
    nd->call = b->value;
    nd->tuple = b->value->u.call.args[1];
    nd->callee = b->value->u.call.args[0]->u.global;
    nd->pattern = pattern_of(fu, prim_of(fu, nd->callee));
    ir_map_put(&index, b->var, (void *)(uintptr_t)(i + 1));
  }
  int ngroups;
  do
    ngroups = assign_groups(nodes, n, groups, &index, &sealed);
  while (!validate(fu, nodes, groups, ngroups, &index, &sealed));

  IrBindingBlock out = *blk;
  IrVec kept = {0};
  for (int i = 0; i < n; i++) {
    int gi = nodes[i].group;
    if (gi < 0 || groups[gi].n < 2) {
      ir_vec_push(&kept, (void *)&blk->bindings[i]);
      continue;
    }
    if (groups[gi].last != i)
      continue;
    const IrBinding **members = ir_alloc(fu->ctx, (size_t)groups[gi].n * sizeof *members);
    int k = 0;
    for (int j = groups[gi].first; j <= i; j++)
      if (nodes[j].group == gi)
        members[k++] = nodes[j].b;
    IrVec inputs = {0};
    group_inputs(nodes, &groups[gi], gi, &index, &inputs);
    IrBinding *nb = ir_alloc(fu->ctx, sizeof *nb);
    *nb = blk->bindings[i];
    nb->value = opt_fuse_make_group(fu->ctx, &fu->names, &fu->made, &fu->new_globals, members, k,
                                    &inputs);
    ir_vec_free(&inputs);
    ir_vec_push(&kept, nb);
  }
  if (kept.len != n) {
    out.n = kept.len;
    out.bindings = ir_alloc(fu->ctx, (size_t)(kept.len ? kept.len : 1) * sizeof(IrBinding));
    for (int i = 0; i < kept.len; i++)
      out.bindings[i] = *(const IrBinding *)kept.items[i];
  }
  ir_vec_free(&kept);
  ir_map_free(&index);
  ir_map_free(&sealed);
  return out;
}

static IrExpr *fuse_seq(Fuser *fu, IrExpr *seq);

static IrFunction *
fuse_function(Fuser *fu, const IrFunction *f)
{
  IrExpr *body = f->body ? fuse_seq(fu, f->body) : NULL;
  if (body == f->body)
    return (IrFunction *)f;
  IrFunction *copy = ir_alloc(fu->ctx, sizeof *copy);
  *copy = *f;
  copy->body = body;
  return copy;
}

/* A binding's value with the seqs and functions inside it fused. */
static IrExpr *
fuse_value(Fuser *fu, IrExpr *v)
{
  if (v && v->kind == IR_EX_IF) {
    IrExpr *then_ = fuse_seq(fu, v->u.branch.then_);
    IrExpr *else_ = fuse_seq(fu, v->u.branch.else_);
    if (then_ == v->u.branch.then_ && else_ == v->u.branch.else_)
      return v;
    IrExpr *copy = opt_rw_expr_copy(fu->ctx, v);
    copy->u.branch.then_ = then_;
    copy->u.branch.else_ = else_;
    return copy;
  }
  if (v && v->kind == IR_EX_FUNC && v->u.func) {
    IrFunction *f = fuse_function(fu, v->u.func);
    if (f == v->u.func)
      return v;
    IrExpr *copy = opt_rw_expr_copy(fu->ctx, v);
    copy->u.func = f;
    return copy;
  }
  return v;
}

static IrExpr *
fuse_seq(Fuser *fu, IrExpr *seq)
{
  int nb = seq->u.seq.nblocks;
  IrBindingBlock *blocks = ir_alloc(fu->ctx, (size_t)(nb ? nb : 1) * sizeof *blocks);
  bool changed = false;
  for (int i = 0; i < nb; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    IrBindingBlock inner = *blk;
    for (int j = 0; j < blk->n; j++) {
      IrExpr *v = fuse_value(fu, blk->bindings[j].value);
      if (v == blk->bindings[j].value)
        continue;
      if (inner.bindings == blk->bindings) {
        inner.bindings = ir_alloc(fu->ctx, (size_t)blk->n * sizeof(IrBinding));
        memcpy(inner.bindings, blk->bindings, (size_t)blk->n * sizeof(IrBinding));
      }
      inner.bindings[j].value = v;
    }
    blocks[i] = fuse_block(fu, &inner);
    changed = changed || blocks[i].bindings != blk->bindings;
  }
  if (!changed)
    return seq;
  IrExpr *copy = opt_rw_expr_copy(fu->ctx, seq);
  copy->u.seq.blocks = blocks;
  return copy;
}

/* Functions FuseOps leaves alone: already the result of fusion. */
static bool
skipped(const IrFunction *f)
{
  return ir_attr_get(f->attrs, "Primitive") || ir_attr_get(f->attrs, "Composite") ||
         ir_attr_get(f->attrs, "Codegen");
}

IrModule *
opt_fuse_ops(const OptContext *oc, const IrModule *m)
{
  Fuser fu;
  memset(&fu, 0, sizeof fu);
  fu.ctx = oc->ctx;
  fu.mod = m;
  ir_module_index(m, &fu.globals);
  for (int i = 0; i < m->nglobals; i++)
    ir_names_add(&fu.names, m->globals[i].name);
  IrFunction **funcs = ir_alloc(oc->ctx, (size_t)(m->nglobals ? m->nglobals : 1) * sizeof *funcs);
  for (int i = 0; i < m->nglobals; i++) {
    const IrGlobal *g = &m->globals[i];
    if (g->kind != IR_GLOBAL_RELAX || !g->u.relax || skipped(g->u.relax))
      continue;
    ir_map_free(&fu.uses);
    if (g->u.relax->body)
      opt_rw_count_uses(g->u.relax, &fu.uses);
    funcs[i] = fuse_function(&fu, g->u.relax);
  }
  IrModule *out = opt_rw_module_copy(oc->ctx, m, fu.new_globals.len);
  for (int i = 0; i < m->nglobals; i++)
    if (funcs[i])
      out->globals[i].u.relax = funcs[i];
  for (int i = 0; i < fu.new_globals.len; i++)
    out->globals[out->nglobals++] = *(IrGlobal *)fu.new_globals.items[i];
  ir_vec_free(&fu.new_globals);
  ir_names_free(&fu.names);
  ir_func_set_free(&fu.made);
  ir_map_free(&fu.globals);
  ir_map_free(&fu.patterns);
  ir_map_free(&fu.uses);
  return out;
}
