/*
 * fuse_by_pattern.c - FuseOpsByPattern: chains of high-level op calls that
 * match a named pattern become calls of private "Composite" functions.
 *
 * Key idea: a pattern is a chain of ops in which each step consumes the
 * result of the step before (conv2d -> add -> relu).  A chain matches inside
 * one binding block when every intermediate var has exactly one use in the
 * whole function, and that use is the next step; then nothing outside the
 * match can see the intermediates, so the chain can move into a function of
 * its own whose body is the matched calls in a dataflow block.  The call of
 * that function takes the place of the chain's last binding (which keeps its
 * var), so no later use needs substituting.  Patterns are tried longest
 * first, each over the whole block, so a short pattern never splits a chain
 * a longer one would take.  Composite and Codegen functions are not entered:
 * their bodies are already what a pattern made, and entering them would make
 * the pass fuse its own output again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "opt_int.h"

enum { MAX_STEPS = 3 };

typedef struct {
  IrOpId op; /* the op of this step */
  int slot;  /* argument that takes the previous step's result; -1: any */
} PatternStep;

typedef struct {
  const char *name; /* the "Composite" attribute: "rxc.conv2d_relu" */
  PatternStep steps[MAX_STEPS];
  int n;
} Pattern;

/* The built-in patterns, longest first (the order they are tried). */
static const Pattern builtin[] = {
    {"rxc.conv2d_bias_relu", {{IR_OP_CONV2D, 0}, {IR_OP_ADD, -1}, {IR_OP_RELU, 0}}, 3},
    {"rxc.matmul_add_relu", {{IR_OP_MATMUL, 0}, {IR_OP_ADD, -1}, {IR_OP_RELU, 0}}, 3},
    {"rxc.matmul_add_gelu", {{IR_OP_MATMUL, 0}, {IR_OP_ADD, -1}, {IR_OP_GELU, 0}}, 3},
    {"rxc.conv2d_relu", {{IR_OP_CONV2D, 0}, {IR_OP_RELU, 0}}, 2},
    {"rxc.matmul_add", {{IR_OP_MATMUL, 0}, {IR_OP_ADD, -1}}, 2},
    {"rxc.dense", {{IR_OP_PERMUTE_DIMS, 0}, {IR_OP_MATMUL, 1}}, 2},
};

enum { NBUILTIN = (int)(sizeof builtin / sizeof builtin[0]) };

typedef struct {
  IrCtx *ctx;
  const IrModule *mod;           /* the normalized input */
  const Pattern *pats[NBUILTIN]; /* selected, longest first */
  int npats;
  IrMap uses;        /* var -> number of uses, for one function */
  IrVec new_globals; /* IrGlobal*: the composite functions made */
} Fuser;

/* --- pattern selection ------------------------------------------------------ */

static const Pattern *
pattern_named(const char *name, size_t len)
{
  for (int i = 0; i < NBUILTIN; i++)
    if (strlen(builtin[i].name) == len && strncmp(builtin[i].name, name, len) == 0)
      return &builtin[i];
  return NULL;
}

/* Fills F->pats from the comma-separated list (NULL: all), keeping the
 * table's longest-first order.  False after an error naming the known. */
static bool
select_patterns(Fuser *F, const char *list)
{
  bool chosen[NBUILTIN] = {0};
  for (const char *p = list; p && *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    const Pattern *pat = pattern_named(p, len);
    if (!pat && len > 0) {
      IrBuf known = {0};
      for (int i = 0; i < NBUILTIN; i++)
        ir_buf_printf(&known, "%s%s", i ? ", " : "", builtin[i].name);
      IrLoc none = {0};
      ir_error(F->ctx, none, "FuseOpsByPattern: unknown pattern '%.*s' (known: %s)", (int)len, p,
               known.data);
      ir_buf_free(&known);
      return false;
    }
    if (pat)
      chosen[pat - builtin] = true;
    p = end ? end + 1 : p + len;
  }
  for (int i = 0; i < NBUILTIN; i++)
    if (!list || chosen[i])
      F->pats[F->npats++] = &builtin[i];
  return true;
}

/* --- use counts ---------------------------------------------------------------- */

static uintptr_t
use_count(const Fuser *F, const IrExpr *var)
{
  return (uintptr_t)ir_map_get(&F->uses, var);
}

/* --- matching -------------------------------------------------------------------- */

static bool
is_op_call(const IrBinding *b, IrOpId op)
{
  const IrExpr *v = b->value;
  return !b->cast && b->var && v && v->kind == IR_EX_CALL && v->u.call.kind == IR_CALL_OP &&
         v->u.call.op->id == op && v->sinfo && b->var->sinfo;
}

/* Does call take var at the step's slot? */
static bool
takes_at(const IrExpr *call, const IrExpr *var, int slot)
{
  for (int i = 0; i < call->u.call.nargs; i++)
    if (call->u.call.args[i] == var && (slot < 0 || slot == i))
      return true;
  return false;
}

/* Tries pattern p at binding `first` of blk; on success writes the n
 * binding indices to idx.  Bindings already taken (taken[i] != 0) never
 * join a match. */
static bool
match_at(const Fuser *F, const Pattern *p, const IrBindingBlock *blk, const int *taken, int first,
         int *idx)
{
  if (taken[first] || !is_op_call(&blk->bindings[first], p->steps[0].op))
    return false;
  idx[0] = first;
  for (int k = 1; k < p->n; k++) {
    const IrExpr *prev = blk->bindings[idx[k - 1]].var;
    if (use_count(F, prev) != 1)
      return false;
    int found = -1;
    for (int j = idx[k - 1] + 1; j < blk->n && found < 0; j++)
      if (!taken[j] && is_op_call(&blk->bindings[j], p->steps[k].op) &&
          takes_at(blk->bindings[j].value, prev, p->steps[k].slot))
        found = j;
    if (found < 0)
      return false;
    idx[k] = found;
  }
  return true;
}

/* --- building the composite function ---------------------------------------------- */

/* A unique global name made from the ops of the match (relax.nn.conv2d ->
 * relax_nn_conv2d), with a number appended when taken. */
static IrSym
composite_name(Fuser *F, const IrBindingBlock *blk, const int *idx, int n)
{
  IrBuf b = {0};
  ir_buf_puts(&b, "fused");
  for (int k = 0; k < n; k++) {
    ir_buf_puts(&b, "_");
    for (const char *c = blk->bindings[idx[k]].value->u.call.op->name; *c; c++)
      ir_buf_put(&b, *c == '.' ? "_" : c, 1);
  }
  IrSym name = NULL;
  for (int suffix = 0; !name; suffix++) {
    IrSym s =
        suffix ? ir_sym(F->ctx, ir_printf(F->ctx, "%s%d", b.data, suffix)) : ir_sym(F->ctx, b.data);
    bool taken = ir_module_find(F->mod, s) != NULL;
    for (int i = 0; i < F->new_globals.len && !taken; i++)
      taken = ((IrGlobal *)F->new_globals.items[i])->name == s;
    if (!taken)
      name = s;
  }
  ir_buf_free(&b);
  return name;
}

/* The argument as seen inside the composite function: a var of the match
 * or an earlier param, or a new param for a var from outside.  Non-var
 * leaves (constants, shapes) stay as they are. */
static IrExpr *
inner_arg(Fuser *F, IrMap *sub, IrVec *params, IrVec *outer, IrExpr *arg)
{
  if (arg->kind != IR_EX_VAR)
    return arg;
  IrExpr *v = ir_map_get(sub, arg);
  if (!v) {
    v = ir_var_new(F->ctx, arg->u.var.name, arg->sinfo, false, arg->loc);
    ir_map_put(sub, arg, v);
    ir_vec_push(params, v);
    ir_vec_push(outer, arg);
  }
  return v;
}

/* The match's calls in a dataflow block of a new function; *outer gets the
 * caller's vars to pass, in parameter order. */
static IrFunction *
composite_function(Fuser *F, const Pattern *p, const IrBindingBlock *blk, const int *idx,
                   IrVec *outer)
{
  IrMap sub = {0};
  IrVec params = {0};
  IrBinding *bindings = ir_alloc(F->ctx, (size_t)p->n * sizeof *bindings);
  for (int k = 0; k < p->n; k++) {
    const IrBinding *old = &blk->bindings[idx[k]];
    IrExpr *call = opt_rw_expr_copy(F->ctx, old->value);
    call->u.call.args = ir_alloc(F->ctx, (size_t)call->u.call.nargs * sizeof(IrExpr *));
    for (int i = 0; i < call->u.call.nargs; i++)
      call->u.call.args[i] = inner_arg(F, &sub, &params, outer, old->value->u.call.args[i]);
    bool last = k == p->n - 1;
    IrExpr *var = ir_var_new(F->ctx, old->var->u.var.name, old->var->sinfo, !last, old->loc);
    ir_map_put(&sub, old->var, var);
    bindings[k] = (IrBinding){var, call, NULL, old->loc};
  }
  IrFunction *f = ir_alloc(F->ctx, sizeof *f);
  f->nparams = params.len;
  f->params = (IrExpr **)ir_vec_freeze(F->ctx, &params);
  IrExpr *result = bindings[p->n - 1].var;
  f->ret = result->sinfo;
  IrBindingBlock *block = ir_alloc(F->ctx, sizeof *block);
  *block = (IrBindingBlock){bindings, p->n, true, blk->loc};
  f->body = ir_expr_new(F->ctx, IR_EX_SEQ, blk->loc);
  f->body->u.seq.blocks = block;
  f->body->u.seq.nblocks = 1;
  f->body->u.seq.result = result;
  f->body->sinfo = result->sinfo;
  IrSym keys[2] = {ir_sym(F->ctx, "Composite"), ir_sym(F->ctx, "Primitive")};
  IrAttr *values[2] = {ir_attr_str(F->ctx, ir_sym(F->ctx, p->name)), ir_attr_bool(F->ctx, true)};
  f->attrs = ir_attr_dict(F->ctx, keys, values, 2);
  f->pure = true;
  f->is_private = true;
  f->loc = blk->bindings[idx[0]].loc;
  ir_map_free(&sub);
  return f;
}

static IrSInfo *
func_sinfo(IrCtx *ctx, const IrFunction *f)
{
  IrSInfo **params = ir_alloc(ctx, (size_t)(f->nparams ? f->nparams : 1) * sizeof *params);
  for (int i = 0; i < f->nparams; i++)
    params[i] = f->params[i]->sinfo;
  return ir_sinfo_func(ctx, params, f->nparams, f->ret, f->pure);
}

/* Adds the composite function of a match to the module and returns the
 * call of it that replaces the match's last binding. */
static IrExpr *
fuse_match(Fuser *F, const Pattern *p, const IrBindingBlock *blk, const int *idx)
{
  IrVec outer = {0};
  IrFunction *f = composite_function(F, p, blk, idx, &outer);
  IrGlobal *g = ir_alloc(F->ctx, sizeof *g);
  g->name = composite_name(F, blk, idx, p->n);
  g->kind = IR_GLOBAL_RELAX;
  g->u.relax = f;
  ir_vec_push(&F->new_globals, g);
  const IrBinding *last = &blk->bindings[idx[p->n - 1]];
  IrExpr *callee = ir_expr_new(F->ctx, IR_EX_GLOBAL, last->loc);
  callee->u.global = g->name;
  callee->sinfo = func_sinfo(F->ctx, f);
  IrExpr *call = ir_expr_new(F->ctx, IR_EX_CALL, last->value->loc);
  call->u.call.kind = IR_CALL_GLOBAL;
  call->u.call.callee = callee;
  call->u.call.nargs = outer.len;
  call->u.call.args = (IrExpr **)ir_vec_freeze(F->ctx, &outer);
  call->sinfo = f->ret;
  return call;
}

/* --- rebuilding blocks and seqs ------------------------------------------------------ */

static IrExpr *fuse_seq(Fuser *F, IrExpr *seq);

/* The binding's if branches and local functions with their chains fused. */
static IrBinding
fuse_nested(Fuser *F, const IrBinding *b)
{
  IrBinding out = *b;
  IrExpr *v = b->value;
  if (v && v->kind == IR_EX_IF) {
    IrExpr *t = fuse_seq(F, v->u.branch.then_), *e = fuse_seq(F, v->u.branch.else_);
    if (t != v->u.branch.then_ || e != v->u.branch.else_) {
      out.value = opt_rw_expr_copy(F->ctx, v);
      out.value->u.branch.then_ = t;
      out.value->u.branch.else_ = e;
    }
  } else if (v && v->kind == IR_EX_FUNC) {
    IrExpr *body = fuse_seq(F, v->u.func->body);
    if (body != v->u.func->body) {
      IrFunction *f = ir_alloc(F->ctx, sizeof *f);
      *f = *v->u.func;
      f->body = body;
      out.value = opt_rw_expr_copy(F->ctx, v);
      out.value->u.func = f;
    }
  }
  return out;
}

/* Finds the matches of one block and writes its new bindings to out;
 * returns the new count (blk->n and out unchanged-equal when none). */
static int
fuse_block(Fuser *F, const IrBindingBlock *blk, IrBinding *out, bool *changed)
{
  int *taken = ir_xcalloc((size_t)blk->n + 1, sizeof *taken); /* 1: inner step, 2: last step */
  IrExpr **calls = ir_xcalloc((size_t)blk->n + 1, sizeof *calls);
  for (int p = 0; p < F->npats; p++)
    for (int i = 0; i < blk->n; i++) {
      int idx[MAX_STEPS];
      if (!match_at(F, F->pats[p], blk, taken, i, idx))
        continue;
      int n = F->pats[p]->n;
      for (int k = 0; k < n; k++)
        taken[idx[k]] = k == n - 1 ? 2 : 1;
      calls[idx[n - 1]] = fuse_match(F, F->pats[p], blk, idx);
      *changed = true;
    }
  int len = 0;
  for (int i = 0; i < blk->n; i++) {
    if (taken[i] == 1)
      continue;
    out[len] = fuse_nested(F, &blk->bindings[i]);
    if (calls[i])
      out[len].value = calls[i];
    if (out[len].value != blk->bindings[i].value)
      *changed = true;
    len++;
  }
  free(taken);
  free(calls);
  return len;
}

/* seq with its chains fused (seq itself when none matched). */
static IrExpr *
fuse_seq(Fuser *F, IrExpr *seq)
{
  int nblocks = seq->u.seq.nblocks;
  IrBindingBlock *blocks = ir_alloc(F->ctx, (size_t)(nblocks ? nblocks : 1) * sizeof *blocks);
  bool changed = false;
  for (int i = 0; i < nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    blocks[i] = *blk;
    blocks[i].bindings = ir_alloc(F->ctx, (size_t)(blk->n ? blk->n : 1) * sizeof(IrBinding));
    bool c = false;
    blocks[i].n = fuse_block(F, blk, blocks[i].bindings, &c);
    if (c)
      changed = true;
    else
      blocks[i] = *blk;
  }
  if (!changed)
    return seq;
  IrExpr *copy = opt_rw_expr_copy(F->ctx, seq);
  copy->u.seq.blocks = blocks;
  return copy;
}

/* --- the pass ------------------------------------------------------------------------- */

/* Composite and Codegen functions are results of pattern passes. */
static bool
is_offloaded(const IrFunction *f)
{
  return ir_attr_get(f->attrs, "Composite") || ir_attr_get(f->attrs, "Codegen");
}

IrModule *
opt_fuse_ops_by_pattern(const OptContext *oc, const IrModule *m)
{
  Fuser F = {.ctx = oc->ctx};
  if (!select_patterns(&F, oc->patterns))
    return NULL;
  IrModule *norm = opt_normalize(oc->ctx, m);
  if (!norm)
    return NULL;
  F.mod = norm;
  IrModule *out = opt_rw_module_copy(oc->ctx, norm, 0);
  for (int i = 0; i < norm->nglobals; i++) {
    const IrGlobal *g = &norm->globals[i];
    if (g->kind != IR_GLOBAL_RELAX || is_offloaded(g->u.relax))
      continue;
    ir_map_free(&F.uses);
    opt_rw_count_uses(g->u.relax, &F.uses);
    IrExpr *body = fuse_seq(&F, g->u.relax->body);
    if (body != g->u.relax->body) {
      IrFunction *f = ir_alloc(oc->ctx, sizeof *f);
      *f = *g->u.relax;
      f->body = body;
      out->globals[i].u.relax = f;
    }
  }
  ir_map_free(&F.uses);
  if (F.new_globals.len) {
    IrModule *grown = opt_rw_module_copy(oc->ctx, out, F.new_globals.len);
    for (int i = 0; i < F.new_globals.len; i++)
      grown->globals[grown->nglobals++] = *(IrGlobal *)F.new_globals.items[i];
    out = grown;
  }
  ir_vec_free(&F.new_globals);
  return out;
}
