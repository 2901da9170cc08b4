/*
 * kill_after_last_use.c - KillAfterLastUse: after the last use of each
 * tensor a function binds, R.memory.kill_tensor(var); after the last use of
 * each storage and of every tensor carved from it, R.memory.kill_storage.
 *
 * Key ideas:
 *  - Objects, not vars, die.  Each binding that makes a new object (a call,
 *    a constant) opens a group; `y = x`, `y = t[i]`, tuples of vars and ifs
 *    whose branches return outer vars are aliases, joined by union-find.
 *    A group dies after the last use of any of its members, and each member
 *    that made an object (its root) is killed there.
 *  - A group is pinned (never killed) when it holds a parameter or a
 *    constant, is captured by a local function, or flows into the function's
 *    result; a var that flows into an if branch's result lives on as the
 *    if's var, which is killed in its place.
 *  - Uses are (seq, binding index) pairs; projected onto the seq that binds
 *    the root they give the first point where the kill is legal: a use
 *    inside an if branch counts as a use at the if (the kill goes after it),
 *    and a kill that falls inside a dataflow block goes after the block.
 *    Dataflow vars are never killed (they do not exist after their block),
 *    so no kill is ever inside a dataflow block (TVM #17340).
 *  - Every seq gets its own kills, so bindings after an if keep theirs
 *    (TVM loses them).  Vars that already appear in a kill are not killed
 *    again, and kills are not uses: running the pass twice adds nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "../ops/op.h"
#include "opt.h"
#include "opt_int.h"

enum { KILL_NONE, KILL_TENSOR, KILL_STORAGE, KILL_OBJECT };

typedef struct Alias Alias;
struct Alias {   /* what a var refers to */
  int group;     /* >= 0: one object (a union-find id); -1: a tuple of items */
  Alias **items; /* group -1 */
  int n;
};

typedef struct {
  int parent_seq;   /* the seq of the if holding this seq; -1 for the body */
  int parent_index; /* the index of that if's binding */
  int nbindings;    /* bindings over all blocks; the result is at this index */
} SeqInfo;

typedef struct {
  int group, seq, index;
} Use;

typedef struct {
  const IrExpr *var;
  int seq, index; /* where it is bound */
  Alias *alias;
  bool root;      /* it made the object of its group */
  int kill;       /* KILL_*: how it is killed when its group dies */
} VarInfo;

typedef struct {
  int seq, index; /* after which binding */
  const VarInfo *var;
  int order;      /* of scheduling */
} Kill;

typedef struct {
  IrCtx *ctx;
  IrMap vars;    /* IrExpr* var -> VarInfo* */
  IrVec infos;   /* VarInfo*, heap, in binding order */
  SeqInfo *seqs; /* heap */
  int nseqs, capseqs;
  int *parent;   /* union-find over groups */
  bool *pinned;  /* the group never dies */
  bool *killed;  /* the input already kills it */
  int ngroups, capgroups;
  Use *uses;
  int nuses, capuses;
  int (*carves)[2]; /* (tensor group, storage group) */
  int ncarves, capcarves;
  IrVec kills;   /* Kill*, heap */
} Live;

static IrFunction *kill_function(IrCtx *ctx, const IrFunction *f);

/* --- groups ------------------------------------------------------------------- */

static void *
grow(void *p, int *cap, int need, size_t size)
{
  if (need <= *cap)
    return p;
  *cap = *cap ? *cap * 2 : 64;
  if (*cap < need)
    *cap = need;
  void *q = ir_xrealloc(p, (size_t)*cap * size);
  return q;
}

static int
group_new(Live *lv, bool pinned)
{
  int cap = lv->capgroups;
  lv->parent = grow(lv->parent, &cap, lv->ngroups + 1, sizeof *lv->parent);
  cap = lv->capgroups;
  lv->pinned = grow(lv->pinned, &cap, lv->ngroups + 1, sizeof *lv->pinned);
  cap = lv->capgroups;
  lv->killed = grow(lv->killed, &cap, lv->ngroups + 1, sizeof *lv->killed);
  lv->capgroups = cap;
  lv->parent[lv->ngroups] = lv->ngroups;
  lv->pinned[lv->ngroups] = pinned;
  lv->killed[lv->ngroups] = false;
  return lv->ngroups++;
}

static int
find(Live *lv, int g)
{
  while (lv->parent[g] != g)
    g = lv->parent[g] = lv->parent[lv->parent[g]];
  return g;
}

static void
unite(Live *lv, int a, int b)
{
  a = find(lv, a);
  b = find(lv, b);
  if (a == b)
    return;
  lv->parent[b] = a;
  lv->pinned[a] = lv->pinned[a] || lv->pinned[b];
  lv->killed[a] = lv->killed[a] || lv->killed[b];
}

static Alias *
alias_group(Live *lv, int g)
{
  Alias *a = ir_alloc(lv->ctx, sizeof *a);
  a->group = g;
  return a;
}

/* Calls fn on every group a refers to. */
static void
each_group(Live *lv, const Alias *a, void (*fn)(Live *, int, void *), void *arg)
{
  if (!a)
    return;
  if (a->group >= 0) {
    fn(lv, a->group, arg);
    return;
  }
  for (int i = 0; i < a->n; i++)
    each_group(lv, a->items[i], fn, arg);
}

static void
pin(Live *lv, int g, void *arg)
{
  lv->pinned[find(lv, g)] = true;
}

static void
mark_killed(Live *lv, int g, void *arg)
{
  lv->killed[find(lv, g)] = true;
}

static void
unite_with(Live *lv, int g, void *arg)
{
  unite(lv, *(int *)arg, g);
}

/* --- uses ------------------------------------------------------------------------- */

typedef struct {
  int seq, index;
} Where;

static void
add_use(Live *lv, int g, void *arg)
{
  const Where *w = arg;
  lv->uses = grow(lv->uses, &lv->capuses, lv->nuses + 1, sizeof *lv->uses);
  lv->uses[lv->nuses++] = (Use){g, w->seq, w->index};
}

static VarInfo *
info_of(const Live *lv, const IrExpr *var)
{
  return var && var->kind == IR_EX_VAR ? ir_map_get(&lv->vars, var) : NULL;
}

static void scan_captures(Live *lv, const IrExpr *e);
static Alias *alias_of_expr(Live *lv, const IrExpr *e);

/* Records a use at w of every var in e (a leaf, tuple, tuple-get or
 * call); a local function captures the vars it uses (they are pinned). */
static void
record_uses(Live *lv, const IrExpr *e, Where w)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_EX_VAR: {
    VarInfo *vi = info_of(lv, e);
    if (vi)
      each_group(lv, vi->alias, add_use, &w);
    return;
  }
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      record_uses(lv, e->u.tuple.items[i], w);
    return;
  case IR_EX_GET: /* t[i] uses only element i of a tuple of objects */
    if (e->u.get.tuple->kind == IR_EX_VAR)
      each_group(lv, alias_of_expr(lv, e), add_use, &w);
    else
      record_uses(lv, e->u.get.tuple, w);
    return;
  case IR_EX_CALL:
    if (e->u.call.kind != IR_CALL_OP)
      record_uses(lv, e->u.call.callee, w);
    for (int i = 0; i < e->u.call.nargs; i++)
      record_uses(lv, e->u.call.args[i], w);
    return;
  case IR_EX_FUNC:
    scan_captures(lv, e);
    return;
  default:
    return;
  }
}

/* Pins every var of the function's analysis that e (inside a local
 * function) uses. */
static void
scan_captures(Live *lv, const IrExpr *e)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_EX_VAR: {
    VarInfo *vi = info_of(lv, e);
    if (vi)
      each_group(lv, vi->alias, pin, NULL);
    return;
  }
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      scan_captures(lv, e->u.tuple.items[i]);
    return;
  case IR_EX_GET:
    scan_captures(lv, e->u.get.tuple);
    return;
  case IR_EX_CALL:
    scan_captures(lv, e->u.call.callee);
    for (int i = 0; i < e->u.call.nargs; i++)
      scan_captures(lv, e->u.call.args[i]);
    return;
  case IR_EX_IF:
    scan_captures(lv, e->u.branch.cond);
    scan_captures(lv, e->u.branch.then_);
    scan_captures(lv, e->u.branch.else_);
    return;
  case IR_EX_FUNC:
    scan_captures(lv, e->u.func->body);
    return;
  case IR_EX_SEQ:
    for (int i = 0; i < e->u.seq.nblocks; i++)
      for (int j = 0; j < e->u.seq.blocks[i].n; j++)
        scan_captures(lv, e->u.seq.blocks[i].bindings[j].value);
    scan_captures(lv, e->u.seq.result);
    return;
  default:
    return;
  }
}

/* --- what a binding binds ------------------------------------------------------------ */

static bool
is_op(const IrExpr *e, IrOpId a, IrOpId b, IrOpId c)
{
  if (!e || e->kind != IR_EX_CALL || e->u.call.kind != IR_CALL_OP)
    return false;
  IrOpId id = e->u.call.op->id;
  return id == a || id == b || id == c;
}

static bool
is_kill(const IrExpr *e)
{
  return is_op(e, IR_OP_MEMORY_KILL_TENSOR, IR_OP_MEMORY_KILL_STORAGE, IR_OP_VM_KILL_OBJECT);
}

/* Is s a tensor, or a tuple of nothing but tensors? */
static bool
tensor_valued(const IrSInfo *s)
{
  if (!s)
    return false;
  if (s->kind == IR_SI_TENSOR)
    return true;
  if (s->kind != IR_SI_TUPLE || s->u.tuple.n == 0)
    return false;
  for (int i = 0; i < s->u.tuple.n; i++)
    if (!tensor_valued(s->u.tuple.fields[i]))
      return false;
  return true;
}

/* The alias of a leaf or tuple expression (a fresh pinned group for a
 * constant; NULL for values that are not objects: shapes, prims). */
static Alias *
alias_of_expr(Live *lv, const IrExpr *e)
{
  VarInfo *vi;
  switch (e->kind) {
  case IR_EX_VAR:
    return (vi = info_of(lv, e)) ? vi->alias : NULL;
  case IR_EX_CONST:
    return alias_group(lv, group_new(lv, true));
  case IR_EX_TUPLE: {
    Alias *a = alias_group(lv, -1);
    a->n = e->u.tuple.n;
    a->items = ir_alloc(lv->ctx, sizeof *a->items * (size_t)(a->n + 1));
    for (int i = 0; i < a->n; i++)
      a->items[i] = alias_of_expr(lv, e->u.tuple.items[i]);
    return a;
  }
  case IR_EX_GET: {
    Alias *t = alias_of_expr(lv, e->u.get.tuple);
    if (!t || t->group >= 0)
      return t; /* an element of a tuple object is part of that object */
    return e->u.get.index < t->n ? t->items[e->u.get.index] : NULL;
  }
  default:
    return NULL;
  }
}

typedef enum { FROM_INSIDE, FROM_OUTSIDE, FROM_CONSTANT } Origin;

/* Where an if branch's result comes from, seen from the if: a var bound
 * outside the branch keeps its object; anything made inside flows out. */
static Origin
origin(Live *lv, const IrExpr *result, int branch_seq)
{
  if (result->kind == IR_EX_CONST)
    return FROM_CONSTANT;
  if (result->kind == IR_EX_TUPLE) {
    Origin o = FROM_INSIDE;
    for (int i = 0; i < result->u.tuple.n && o == FROM_INSIDE; i++)
      o = origin(lv, result->u.tuple.items[i], branch_seq);
    return o;
  }
  VarInfo *vi = info_of(lv, result);
  if (result->kind != IR_EX_VAR || (vi && vi->seq == branch_seq))
    return FROM_INSIDE;
  return FROM_OUTSIDE;
}

static void
inherit_carves(Live *lv, int from, int to)
{
  from = find(lv, from);
  int n = lv->ncarves;
  for (int i = 0; i < n; i++)
    if (find(lv, lv->carves[i][0]) == from) {
      lv->carves = grow(lv->carves, &lv->capcarves, lv->ncarves + 1, sizeof *lv->carves);
      lv->carves[lv->ncarves][0] = to;
      lv->carves[lv->ncarves++][1] = lv->carves[i][1];
    }
}

static void
inherit_each(Live *lv, int g, void *arg)
{
  inherit_carves(lv, g, *(int *)arg);
}

/* The alias of an if's var: branches that both return outer objects make
 * it their alias; branches that make their results give it a new object
 * (carved from what theirs were carved from); a mix, or a constant, pins. */
static Alias *
alias_of_if(Live *lv, const IrExpr *e, int then_seq, int else_seq, VarInfo *vi)
{
  const IrExpr *r[2] = {e->u.branch.then_->u.seq.result, e->u.branch.else_->u.seq.result};
  Origin o[2] = {origin(lv, r[0], then_seq), origin(lv, r[1], else_seq)};
  int g = group_new(lv, false);
  if (o[0] == FROM_OUTSIDE && o[1] == FROM_OUTSIDE) {
    for (int k = 0; k < 2; k++)
      each_group(lv, alias_of_expr(lv, r[k]), unite_with, &g);
    return alias_group(lv, g);
  }
  vi->root = true;
  for (int k = 0; k < 2; k++) {
    Alias *a = r[k]->kind == IR_EX_CALL ? NULL : alias_of_expr(lv, r[k]);
    if (o[k] == FROM_INSIDE)
      each_group(lv, a, inherit_each, &g);
    else
      each_group(lv, a, unite_with, &g);
  }
  if (o[0] != FROM_INSIDE || o[1] != FROM_INSIDE)
    lv->pinned[find(lv, g)] = true;
  return alias_group(lv, g);
}

static int analyze_seq(Live *lv, const IrExpr *seq, int parent_seq, int parent_index);

/* The alias of a binding's var from its value, recording the value's uses
 * at w. */
static Alias *
analyze_value(Live *lv, const IrBinding *b, Where w, VarInfo *vi)
{
  const IrExpr *v = b->value;
  if (v->kind == IR_EX_IF) {
    record_uses(lv, v->u.branch.cond, w);
    int t = analyze_seq(lv, v->u.branch.then_, w.seq, w.index);
    int e = analyze_seq(lv, v->u.branch.else_, w.seq, w.index);
    return alias_of_if(lv, v, t, e, vi);
  }
  record_uses(lv, v, w);
  if (v->kind == IR_EX_VAR || v->kind == IR_EX_TUPLE || v->kind == IR_EX_GET)
    return alias_of_expr(lv, v);
  vi->root = true;
  int g = group_new(lv, v->kind == IR_EX_CONST);
  if (is_op(v, IR_OP_MEMORY_ALLOC_TENSOR, IR_OP_VM_ALLOC_TENSOR, IR_OP_VM_ALLOC_TENSOR)) {
    VarInfo *s = v->u.call.nargs ? info_of(lv, v->u.call.args[0]) : NULL;
    if (s && s->alias && s->alias->group >= 0) {
      lv->carves = grow(lv->carves, &lv->capcarves, lv->ncarves + 1, sizeof *lv->carves);
      lv->carves[lv->ncarves][0] = g;
      lv->carves[lv->ncarves++][1] = s->alias->group;
    }
  }
  return alias_group(lv, g);
}

/* The struct info of a binding's var: its annotation, else its value's
 * (for an if, a branch result's). */
static const IrSInfo *
binding_sinfo(const IrBinding *b)
{
  const IrExpr *v = b->value;
  if (b->var->sinfo)
    return b->var->sinfo;
  if (v->kind == IR_EX_IF && !v->sinfo) {
    const IrExpr *r = v->u.branch.then_->u.seq.result;
    return r ? r->sinfo : NULL;
  }
  return v->sinfo;
}

static void
analyze_binding(Live *lv, const IrBinding *b, Where w)
{
  const IrExpr *v = b->value;
  if (is_kill(v)) { /* not a use: the object is already dead there */
    VarInfo *k = v->u.call.nargs ? info_of(lv, v->u.call.args[0]) : NULL;
    if (k)
      each_group(lv, k->alias, mark_killed, NULL);
    return;
  }
  VarInfo *vi = ir_xcalloc(1, sizeof *vi);
  vi->var = b->var;
  vi->seq = w.seq;
  vi->index = w.index;
  vi->alias = analyze_value(lv, b, w, vi);
  if (vi->root && !b->var->u.var.dataflow) { /* a dataflow var dies with its block */
    if (is_op(v, IR_OP_MEMORY_ALLOC_STORAGE, IR_OP_VM_ALLOC_STORAGE, IR_OP_VM_ALLOC_STORAGE))
      vi->kill = KILL_STORAGE;
    else if (binding_sinfo(b) && binding_sinfo(b)->kind == IR_SI_TENSOR)
      vi->kill = KILL_TENSOR;
    else if (tensor_valued(binding_sinfo(b)))
      vi->kill = KILL_OBJECT;
  }
  if (!vi->root)
    vi->kill = KILL_NONE;
  ir_map_put(&lv->vars, b->var, vi);
  ir_vec_push(&lv->infos, vi);
}

/* Numbers seq and its bindings (nested seqs after their if), records the
 * uses of its vars; returns its id. */
static int
analyze_seq(Live *lv, const IrExpr *seq, int parent_seq, int parent_index)
{
  lv->seqs = grow(lv->seqs, &lv->capseqs, lv->nseqs + 1, sizeof *lv->seqs);
  int id = lv->nseqs++;
  lv->seqs[id] = (SeqInfo){parent_seq, parent_index, 0};
  int index = 0;
  for (int i = 0; i < seq->u.seq.nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    for (int j = 0; j < blk->n; j++)
      analyze_binding(lv, &blk->bindings[j], (Where){id, index++});
  }
  lv->seqs[id].nbindings = index;
  record_uses(lv, seq->u.seq.result, (Where){id, index});
  return id;
}

/* --- where each kill goes -------------------------------------------------------------- */

/* The index in seq s of the binding that holds use u; -1 when u is not
 * inside s. */
static int
project(const Live *lv, const Use *u, int s)
{
  int seq = u->seq, index = u->index;
  while (seq != s) {
    if (seq < 0 || lv->seqs[seq].parent_seq < 0)
      return -1;
    index = lv->seqs[seq].parent_index;
    seq = lv->seqs[seq].parent_seq;
  }
  return index;
}

/* Items grouped by root group: those of group g are list[start[g] ..
 * start[g + 1]).  Built once for schedule, so that each var's last use
 * costs the uses of its own groups, not a walk over all of them. */
typedef struct {
  int *start, *list;
} Buckets;

/* n items, item i in group key[i] with value val[i]. */
static Buckets
buckets_new(int ngroups, int n, const int *key, const int *val)
{
  Buckets b = {ir_xcalloc((size_t)ngroups + 2, sizeof(int)),
               ir_xcalloc((size_t)n + 1, sizeof(int))};
  for (int i = 0; i < n; i++)
    b.start[key[i] + 2]++;
  for (int g = 2; g < ngroups + 2; g++)
    b.start[g] += b.start[g - 1];
  for (int i = 0; i < n; i++) /* start[key + 1] is the next free place of key */
    b.list[b.start[key[i] + 1]++] = val[i];
  return b;
}

static void
buckets_free(Buckets *b)
{
  free(b->start);
  free(b->list);
}

/* Folds the uses of group g, projected on seq (of end bindings), into
 * *last; -1 when one is outside the seq. */
static void
fold_uses(const Live *lv, const Buckets *uses, int g, int seq, int end, int *last)
{
  for (int k = uses->start[g]; k < uses->start[g + 1] && *last >= 0; k++) {
    int p = project(lv, &lv->uses[uses->list[k]], seq);
    if (p < 0 || p >= end)
      *last = -1;
    else if (p > *last)
      *last = p;
  }
}

/* The last binding of vi's seq that uses its group g (or, for a storage,
 * a tensor carved from it); -1 when the object outlives the seq. */
static int
last_use(const Live *lv, const Buckets *uses, const Buckets *carved, const VarInfo *vi, int g)
{
  int last = vi->index, end = lv->seqs[vi->seq].nbindings;
  fold_uses(lv, uses, g, vi->seq, end, &last);
  for (int k = carved->start[g]; k < carved->start[g + 1]; k++)
    if (carved->list[k] != g)
      fold_uses(lv, uses, carved->list[k], vi->seq, end, &last);
  return last;
}

/* A storage lives while any tensor carved from it may: a pinned tensor
 * pins it. */
static bool
storage_pinned(const Live *lv, const Buckets *carved, int g)
{
  for (int k = carved->start[g]; k < carved->start[g + 1]; k++)
    if (lv->pinned[carved->list[k]])
      return true;
  return false;
}

static int
kill_cmp(const void *pa, const void *pb)
{
  const Kill *a = *(const Kill *const *)pa, *b = *(const Kill *const *)pb;
  if (a->seq != b->seq)
    return a->seq < b->seq ? -1 : 1;
  if (a->index != b->index)
    return a->index < b->index ? -1 : 1;
  if (a->var->kill != b->var->kill)
    return a->var->kill < b->var->kill ? -1 : 1;
  return a->order - b->order;
}

/* lv->kills, sorted by where they go and then by kind (tensors before
 * storages before other objects), each kind in binding order. */
static void
schedule(Live *lv)
{
  int n = lv->nuses > lv->ncarves ? lv->nuses : lv->ncarves;
  int *key = ir_xcalloc((size_t)n + 1, sizeof *key), *val = ir_xcalloc((size_t)n + 1, sizeof *val);
  for (int i = 0; i < lv->nuses; i++)
    key[i] = find(lv, lv->uses[i].group), val[i] = i;
  Buckets uses = buckets_new(lv->ngroups, lv->nuses, key, val);
  for (int c = 0; c < lv->ncarves; c++)
    key[c] = find(lv, lv->carves[c][1]), val[c] = find(lv, lv->carves[c][0]);
  Buckets carved = buckets_new(lv->ngroups, lv->ncarves, key, val);
  free(key);
  free(val);
  for (int i = 0; i < lv->infos.len; i++) {
    const VarInfo *vi = lv->infos.items[i];
    if (vi->kill == KILL_NONE || !vi->alias || vi->alias->group < 0)
      continue;
    int g = find(lv, vi->alias->group);
    if (lv->pinned[g] || lv->killed[g] ||
        (vi->kill == KILL_STORAGE && storage_pinned(lv, &carved, g)))
      continue;
    int last = last_use(lv, &uses, &carved, vi, g);
    if (last < 0)
      continue;
    Kill *k = ir_xmalloc(sizeof *k);
    *k = (Kill){vi->seq, last, vi, lv->kills.len};
    ir_vec_push(&lv->kills, k);
  }
  buckets_free(&uses);
  buckets_free(&carved);
  if (lv->kills.len > 1) /* items is NULL when there is none */
    qsort(lv->kills.items, (size_t)lv->kills.len, sizeof *lv->kills.items, kill_cmp);
}

/* --- rebuilding --------------------------------------------------------------------- */

typedef struct {
  Live *lv;
  int next_seq; /* seq ids in the order analyze_seq gave them */
} Builder;

static IrExpr *build_seq(Builder *bd, const IrExpr *seq);

static void
push_binding(IrCtx *ctx, IrVec *list, const IrBinding *b)
{
  IrBinding *copy = ir_alloc(ctx, sizeof *copy);
  *copy = *b;
  ir_vec_push(list, copy);
}

/* The first kill of lv->kills (sorted) at or after (seq, index). */
static int
first_kill(const Live *lv, int seq, int index)
{
  int lo = 0, hi = lv->kills.len;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    const Kill *k = lv->kills.items[mid];
    if (k->seq < seq || (k->seq == seq && k->index < index))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Appends the kills scheduled after binding index of seq, in the order
 * schedule sorted them. */
static void
push_kills(Builder *bd, int seq, int index, IrVec *list, IrLoc loc)
{
  static const IrOpId ops[] = {IR_OP_MEMORY_KILL_TENSOR, IR_OP_MEMORY_KILL_STORAGE,
                               IR_OP_VM_KILL_OBJECT};
  IrCtx *ctx = bd->lv->ctx;
  for (int i = first_kill(bd->lv, seq, index); i < bd->lv->kills.len; i++) {
    const Kill *k = bd->lv->kills.items[i];
    if (k->seq != seq || k->index != index)
      break;
    IrExpr **args = ir_alloc(ctx, sizeof *args);
    args[0] = (IrExpr *)k->var->var;
    IrExpr *call =
        ir_call_op(ctx, &op_def(ops[k->var->kill - KILL_TENSOR])->syn, args, 1, NULL, loc);
    call->sinfo = ir_sinfo_tuple(ctx, NULL, 0);
    IrBinding b = {ir_var_new(ctx, ir_sym(ctx, "_"), NULL, false, loc), call, NULL, loc};
    push_binding(ctx, list, &b);
  }
}

static IrExpr *
build_value(Builder *bd, const IrExpr *v)
{
  IrCtx *ctx = bd->lv->ctx;
  if (v->kind == IR_EX_IF) {
    IrExpr *copy = opt_rw_expr_copy(ctx, v);
    copy->u.branch.then_ = build_seq(bd, v->u.branch.then_);
    copy->u.branch.else_ = build_seq(bd, v->u.branch.else_);
    return copy;
  }
  if (v->kind == IR_EX_FUNC) {
    IrExpr *copy = opt_rw_expr_copy(ctx, v);
    copy->u.func = kill_function(ctx, v->u.func);
    return copy;
  }
  return (IrExpr *)v;
}

static IrBindingBlock
block_of(IrCtx *ctx, bool dataflow, IrLoc loc, IrVec *list)
{
  IrBindingBlock blk = {NULL, list->len, dataflow, loc};
  blk.bindings = ir_alloc(ctx, sizeof(IrBinding) * (size_t)(list->len + 1));
  for (int i = 0; i < list->len; i++)
    blk.bindings[i] = *(IrBinding *)list->items[i];
  list->len = 0;
  return blk;
}

/* seq with its kills inserted; kills due inside a dataflow block go at the
 * start of the next ordinary block, or into a new block after it. */
static IrExpr *
build_seq(Builder *bd, const IrExpr *seq)
{
  IrCtx *ctx = bd->lv->ctx;
  int id = bd->next_seq++;
  IrVec blocks = {0}, list = {0}, pending = {0};
  int index = 0;
  for (int i = 0; i < seq->u.seq.nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    if (!blk->dataflow)
      for (int p = 0; p < pending.len; p++)
        ir_vec_push(&list, pending.items[p]);
    else if (pending.len) {
      IrBindingBlock *kb = ir_alloc(ctx, sizeof *kb);
      *kb = block_of(ctx, false, blk->loc, &pending);
      ir_vec_push(&blocks, kb);
    }
    pending.len = 0;
    for (int j = 0; j < blk->n; j++, index++) {
      IrBinding b = blk->bindings[j];
      b.value = build_value(bd, b.value);
      push_binding(ctx, &list, &b);
      push_kills(bd, id, index, blk->dataflow ? &pending : &list, b.loc);
    }
    IrBindingBlock *nb = ir_alloc(ctx, sizeof *nb);
    *nb = block_of(ctx, blk->dataflow, blk->loc, &list);
    ir_vec_push(&blocks, nb);
  }
  if (pending.len) {
    IrBindingBlock *kb = ir_alloc(ctx, sizeof *kb);
    *kb = block_of(ctx, false, seq->loc, &pending);
    ir_vec_push(&blocks, kb);
  }
  IrExpr *copy = opt_rw_expr_copy(ctx, seq);
  copy->u.seq.nblocks = blocks.len;
  copy->u.seq.blocks = ir_alloc(ctx, sizeof(IrBindingBlock) * (size_t)(blocks.len + 1));
  for (int i = 0; i < blocks.len; i++)
    copy->u.seq.blocks[i] = *(IrBindingBlock *)blocks.items[i];
  ir_vec_free(&blocks);
  ir_vec_free(&list);
  ir_vec_free(&pending);
  return copy;
}

/* --- functions ---------------------------------------------------------------------- */

static void
live_free(Live *lv)
{
  for (int i = 0; i < lv->infos.len; i++)
    free(lv->infos.items[i]);
  for (int i = 0; i < lv->kills.len; i++)
    free(lv->kills.items[i]);
  ir_vec_free(&lv->infos);
  ir_vec_free(&lv->kills);
  ir_map_free(&lv->vars);
  free(lv->seqs);
  free(lv->parent);
  free(lv->pinned);
  free(lv->killed);
  free(lv->uses);
  free(lv->carves);
}

/* f with kills in its body and in its local functions (each analysed on
 * its own: what a closure captures stays alive in the enclosing one).  A
 * function that must stay pure (pure, without relax.force_pure) gets none. */
static bool
may_be_impure(const IrFunction *f)
{
  const IrAttr *force = ir_attr_get(f->attrs, "relax.force_pure");
  return !f->pure || (force && force->kind == IR_AT_BOOL && force->u.b);
}

static IrFunction *
kill_function(IrCtx *ctx, const IrFunction *f)
{
  if (!may_be_impure(f))
    return (IrFunction *)f; /* a kill would make it impure: leave it */
  Live lv;
  memset(&lv, 0, sizeof lv);
  lv.ctx = ctx;
  for (int i = 0; i < f->nparams; i++) {
    VarInfo *vi = ir_xcalloc(1, sizeof *vi);
    vi->var = f->params[i];
    vi->seq = -1;
    vi->alias = alias_group(&lv, group_new(&lv, true));
    ir_map_put(&lv.vars, f->params[i], vi);
    ir_vec_push(&lv.infos, vi);
  }
  analyze_seq(&lv, f->body, -1, 0);
  schedule(&lv);
  Builder bd = {&lv, 0};
  IrFunction *copy = ir_alloc(ctx, sizeof *copy);
  *copy = *f;
  copy->body = build_seq(&bd, f->body);
  live_free(&lv);
  return copy;
}

/* Normalize runs first, as for LegalizeOps: which vars hold tensors is
 * read from struct info. */
static IrFunction *
kill_global(IrCtx *ctx, const IrFunction *f, const char *name, void *user)
{
  (void)name, (void)user;
  return kill_function(ctx, f);
}

IrModule *
opt_kill_after_last_use(const OptContext *oc, const IrModule *input)
{
  IrModule *m = opt_normalize(oc->ctx, input);
  if (!m)
    return NULL;
  return opt_rw_module_functions(oc->ctx, m, kill_global, NULL);
}
