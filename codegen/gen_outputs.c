/*
 * gen_outputs.c - where a Relax function's result lives.
 *
 * Key idea: a storage that flows into the result (MpStorage.output) is the
 * caller's output buffer.  A pre-pass follows alloc_tensor, aliases,
 * tuples, tuple items and if/else from the result back to the storages and
 * maps each such storage to the output it becomes.  A storage the plan
 * marks as output that no output takes (a tuple of which only some items
 * are returned) gets bytes after the plan's arena.  At the end, a result
 * that is not already in its output buffer (an input, a constant, an if
 * whose branches differ) is copied there.
 *
 * No output is written before a refusal: a kernel that may fail (a
 * prim_func with an assert: the checks of data of tir_build.h) checks
 * before it writes, and a storage that a kernel writes *before* the last
 * point that may refuse in the body (such a kernel, an R.assert_op, a
 * check in an if branch or of dims that are tensor data: a tuple's first
 * item, then a take of bad indices) is not the caller's buffer either: it
 * gets bytes after the arena too and is copied at the end, when the entry
 * can no longer refuse.  (With an arena whose size is an expression it
 * stays the caller's buffer: codegen/README.md.)
 */
#include <stdlib.h>
#include <string.h>

#include "cg_int.h"

/* --- the pre-pass: storages that flow into the result ---------------------- */

static CgOrigin *
origin_find(CgFunc *E, const IrExpr *var)
{
  for (int i = E->norigins - 1; i >= 0; i--)
    if (E->origins[i].var == var)
      return &E->origins[i];
  return NULL;
}

static CgOrigin *
origin_add(CgFunc *E, const IrExpr *var)
{
  if (E->norigins == E->caporigins) {
    E->caporigins = E->caporigins ? 2 * E->caporigins : 64;
    E->origins = ir_xrealloc(E->origins, sizeof *E->origins * (size_t)E->caporigins);
  }
  CgOrigin *o = &E->origins[E->norigins++];
  memset(o, 0, sizeof *o);
  o->var = var;
  return o;
}

static void
origin_merge(CgOrigin *to, const CgOrigin *from)
{
  if (!from)
    return;
  for (int i = 0; i < from->storages.len; i++)
    ir_vec_push(&to->storages, from->storages.items[i]);
  if (from->nitems) {
    to->items = from->items;
    to->nitems = from->nitems;
  }
}

static void origins_seq(CgFunc *E, const IrExpr *seq);

static bool
is_op(const IrExpr *v, IrOpId id)
{
  return v->kind == IR_EX_CALL && v->u.call.kind == IR_CALL_OP && v->u.call.op->id == id;
}

static void
origins_binding(CgFunc *E, const IrBinding *b)
{
  const IrExpr *v = b->value;
  CgOrigin *o = origin_add(E, b->var);
  if (is_op(v, IR_OP_MEMORY_ALLOC_STORAGE)) {
    ir_vec_push(&o->storages, (void *)b->var);
  } else if (is_op(v, IR_OP_MEMORY_ALLOC_TENSOR) && v->u.call.nargs > 0) {
    origin_merge(o, origin_find(E, v->u.call.args[0]));
  } else if (v->kind == IR_EX_VAR) {
    origin_merge(o, origin_find(E, v));
  } else if (v->kind == IR_EX_TUPLE) {
    o->items = v->u.tuple.items;
    o->nitems = v->u.tuple.n;
  } else if (v->kind == IR_EX_GET) {
    const CgOrigin *t = origin_find(E, v->u.get.tuple);
    if (t && v->u.get.index < t->nitems && t->items[v->u.get.index]->kind == IR_EX_VAR)
      origin_merge(o, origin_find(E, t->items[v->u.get.index]));
  } else if (v->kind == IR_EX_IF) {
    origins_seq(E, v->u.branch.then_);
    origins_seq(E, v->u.branch.else_);
    /* origin_add may have moved the array: find o again */
    o = origin_find(E, b->var);
    const IrExpr *r[2] = {v->u.branch.then_->u.seq.result, v->u.branch.else_->u.seq.result};
    for (int i = 0; i < 2; i++)
      if (r[i]->kind == IR_EX_VAR) {
        CgOrigin *from = origin_find(E, r[i]);
        CgOrigin copy = from ? *from : (CgOrigin){0};
        o = origin_find(E, b->var);
        origin_merge(o, from ? &copy : NULL);
      }
  }
}

static void
origins_seq(CgFunc *E, const IrExpr *seq)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++)
      origins_binding(E, &seq->u.seq.blocks[i].bindings[j]);
}

/* --- storages written before a point that may refuse ----------------------- */

typedef struct {
  int at;        /* bindings walked */
  int last_fail; /* the index of the last one that may refuse, -1 */
  IrVec late;    /* vars that are tensor data (a match_cast of a tensor_to_shape) */
  IrVec early;   /* storage vars written before it (pass 2) */
} Early;

static void early_seq(CgFunc *E, const IrExpr *seq, bool branch, Early *w, int pass);

/* Does a tensor argument's shape use a var that is tensor data (whose
 * checks sit before the first write that depends on it, gen_check.c)? */
static bool
uses_late(const Early *w, const IrExpr *arg)
{
  const IrSInfo *s = arg->sinfo;
  if (!w->late.len || !s || s->kind != IR_SI_TENSOR || !s->u.tensor.shape)
    return false;
  IrVec vars = {0};
  for (int d = 0; d < s->u.tensor.ndim; d++)
    ir_prim_expr_vars(s->u.tensor.shape[d], &vars);
  bool late = false;
  for (int i = 0; i < vars.len && !late; i++)
    for (int k = 0; k < w->late.len && !late; k++)
      late = vars.items[i] == w->late.items[k];
  ir_vec_free(&vars);
  return late;
}

/* Whether binding b may refuse where it runs: a call of a prim_func with
 * an assert or over dims that are tensor data, an R.assert_op, a
 * match_cast checked in the body (in an if branch, or of dims that are
 * tensor data, which it adds to w->late).  The prim_func called, or -1. */
static bool
may_refuse_at(CgFunc *E, const IrBinding *b, bool branch, Early *w, int *global)
{
  const IrExpr *v = b->value;
  *global = -1;
  if (b->cast) {
    const IrSInfo *h = v->sinfo;
    bool data = b->cast->kind == IR_SI_SHAPE && b->cast->u.shape.values && h &&
                h->kind == IR_SI_SHAPE && !h->u.shape.values;
    for (int d = 0; data && d < b->cast->u.shape.ndim; d++)
      ir_prim_expr_vars(b->cast->u.shape.values[d], &w->late);
    return branch || data;
  }
  if (v->kind != IR_EX_CALL)
    return false;
  if (v->u.call.kind == IR_CALL_OP)
    return v->u.call.op->id == IR_OP_ASSERT_OP;
  if (v->u.call.kind != IR_CALL_GLOBAL)
    return false;
  int gi = cg_global_index(E->g, v->u.call.callee->u.global);
  if (gi < 0 || E->g->m->globals[gi].kind != IR_GLOBAL_PRIM)
    return false;
  *global = gi;
  bool late = false;
  for (int i = 0; i < v->u.call.nargs; i++)
    late = late || uses_late(w, v->u.call.args[i]);
  return late || cg_prim_info(E->g, gi)->can_fail;
}

/* One binding: pass 1 finds the last one that may refuse, pass 2
 * collects the storages each prim_func call before it writes. */
static void
early_binding(CgFunc *E, const IrBinding *b, bool branch, Early *w, int pass)
{
  const IrExpr *v = b->value;
  if (v->kind == IR_EX_IF) {
    early_seq(E, v->u.branch.then_, true, w, pass);
    early_seq(E, v->u.branch.else_, true, w, pass);
    return;
  }
  int gi, at = w->at++;
  if (may_refuse_at(E, b, branch, w, &gi) && pass == 1)
    w->last_fail = at;
  if (pass == 1 || gi < 0 || at >= w->last_fail)
    return;
  const IrPrimFunc *f = E->g->m->globals[gi].u.prim;
  const CgPrim *p = cg_prim_info(E->g, gi);
  for (int i = 0; i < f->nparams && i < v->u.call.nargs; i++) {
    const CgOrigin *o = p->written[i] && v->u.call.args[i]->kind == IR_EX_VAR
                            ? origin_find(E, v->u.call.args[i])
                            : NULL;
    for (int k = 0; o && k < o->storages.len; k++)
      ir_vec_push(&w->early, o->storages.items[k]);
  }
}

static void
early_seq(CgFunc *E, const IrExpr *seq, bool branch, Early *w, int pass)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++)
      early_binding(E, &seq->u.seq.blocks[i].bindings[j], branch, w, pass);
}

/* Is output storage s written before the last point that may refuse (so it
 * must not be the caller's buffer), and can it have bytes of its own
 * after the arena (the arena is a constant and s has a bound)? */
static bool
written_early(const CgFunc *E, const Early *w, int s)
{
  const MpFunctionPlan *fp = E->fp;
  if (fp->arena_expr || fp->outputs[s].bytes_max < 0)
    return false; /* stays the caller's: codegen/README.md says so */
  for (int i = 0; i < w->early.len; i++)
    if (w->early.items[i] == fp->outputs[s].var)
      return true;
  return false;
}

/* The leaves of the result, one per output. */
int
cg_result_leaves(CgFunc *E, const IrExpr *res, IrExpr ***items)
{
  if (res->kind == IR_EX_TUPLE) {
    *items = res->u.tuple.items;
    return res->u.tuple.n;
  }
  const CgOrigin *o = res->kind == IR_EX_VAR ? origin_find(E, res) : NULL;
  if (o && o->nitems && E->tuple_result) {
    *items = o->items;
    return o->nitems;
  }
  *items = ir_alloc(E->g->ctx, sizeof **items);
  (*items)[0] = (IrExpr *)res;
  return 1;
}

/* Output storages that no output of the result takes get bytes after the
 * plan's arena, so that they never share the caller's buffers. */
static void
place_extra(CgFunc *E)
{
  const MpFunctionPlan *fp = E->fp;
  int64_t align = E->g->plan->align > 0 ? E->g->plan->align : 1;
  E->arena_bytes = fp->arena_bytes;
  E->extra = ir_alloc(E->g->ctx, sizeof *E->extra * (size_t)(fp->noutputs + 1));
  E->extra_offset = ir_alloc(E->g->ctx, sizeof *E->extra_offset * (size_t)(fp->noutputs + 1));
  for (int s = 0; s < fp->noutputs; s++) {
    bool mapped = false;
    for (int j = 0; j < E->nout_storage; j++)
      mapped = mapped || E->out_storage[j] == fp->outputs[s].var;
    if (mapped)
      continue;
    if (fp->arena_expr || fp->outputs[s].bytes_max < 0) {
      cg_fail(E->g, "storage '%s' of the result has no output and no upper bound",
              fp->outputs[s].var->u.var.name);
      return;
    }
    int64_t off = (E->arena_bytes + align - 1) / align * align;
    E->extra[E->nextra] = fp->outputs[s].var;
    E->extra_offset[E->nextra++] = off;
    E->arena_bytes = off + fp->outputs[s].bytes_max;
  }
  E->arena_bytes = (E->arena_bytes + align - 1) / align * align;
  /* the planner checked its own part against arena_limit; these storages
   * come on top of it */
  int64_t limit = E->g->cfg->memplan.arena_limit;
  if (E->nextra && limit > 0 && E->arena_bytes > limit)
    cg_fail(E->g,
            "in function '%s': the arena needs %lld bytes with the result's storages that no "
            "output returns, above arena_limit of %lld bytes",
            E->fp->name, (long long)E->arena_bytes, (long long)limit);
}

void
cg_map_outputs(CgFunc *E)
{
  origins_seq(E, E->f->body);
  IrExpr **items;
  int n = cg_result_leaves(E, E->f->body->u.seq.result, &items);
  E->out_storage = ir_alloc(E->g->ctx, sizeof *E->out_storage * (size_t)(E->fp->noutputs + 1));
  E->out_index = ir_alloc(E->g->ctx, sizeof *E->out_index * (size_t)(E->fp->noutputs + 1));
  Early w = {0, -1, {0}, {0}};
  early_seq(E, E->f->body, false, &w, 1);
  w.at = 0;
  early_seq(E, E->f->body, false, &w, 2);
  for (int k = 0; k < n && k < E->nouts; k++) {
    const CgOrigin *o = items[k]->kind == IR_EX_VAR ? origin_find(E, items[k]) : NULL;
    for (int i = 0; o && i < o->storages.len; i++)
      for (int s = 0; s < E->fp->noutputs; s++) {
        bool seen = written_early(E, &w, s);
        for (int j = 0; j < E->nout_storage; j++)
          seen = seen || E->out_storage[j] == o->storages.items[i];
        if (!seen && E->fp->outputs[s].var == o->storages.items[i]) {
          E->out_storage[E->nout_storage] = o->storages.items[i];
          E->out_index[E->nout_storage++] = k;
        }
      }
  }
  ir_vec_free(&w.early);
  ir_vec_free(&w.late);
  for (int i = 0; i < E->norigins; i++)
    ir_vec_free(&E->origins[i].storages);
  place_extra(E);
}

void
cg_emit_result(CgFunc *E, IrBuf *o)
{
  IrExpr **items;
  int n = cg_result_leaves(E, E->f->body->u.seq.result, &items);
  if (n != E->nouts) {
    cg_fail(E->g, "the result of '%s' has %d tensors; its annotation %d", E->fp->name, n, E->nouts);
    return;
  }
  for (int k = 0; k < n; k++) {
    CgVar *info;
    bool is_const;
    const char *s = cg_tensor_leaf(E, items[k], &info, &is_const);
    if (!s)
      return;
    bool in_place = false;
    for (int i = 0; info && info->storage_var && i < E->nout_storage; i++)
      in_place = in_place || (E->out_storage[i] == info->storage_var && E->out_index[i] == k &&
                              info->offset == 0);
    if (in_place)
      continue;
    E->g->copy_used = true;
    ir_buf_printf(o, "  if ((const void *)%s != (const void *)%s)\n    rxc_copy(%s, %s, ", s,
                  E->out_names[k], E->out_names[k], s);
    cg_emit_bytes(E, items[k], o);
    ir_buf_puts(o, ");\n");
  }
}
