/*
 * fuse_tir_inline.c - the loop nests of a fused prim_func joined where one
 * reads, element by element, what the one before it has just written, so
 * that the intermediate between them is not stored at all.
 *
 * Key idea: a consumer nest `for v0..vd: C[..] = e` that runs over the
 * whole of an intermediate A and loads it only as A[v0, .., vd] follows a
 * producer whose stores of A, `A[w0, .., wd] = val`, sit in loops of any
 * shape (plain, tiled with a remainder, guarded).  The consumer then runs
 * at each such store instead: it becomes `C[..] = e` with each v its w and
 * T.Cast(A's dtype, val) in place of each load of A (the store rounded
 * val; the cast keeps that rounding where the interpreter would otherwise
 * keep more precision).  A store that runs more than once for an element
 * leaves C as the last one left A.  Each element of C is computed from the same values
 * (val is evaluated where it was, and everything else e reads was
 * complete before the producer began), so the results are unchanged; A
 * goes, and with it its bytes in the arena.  Chains (matmul, add, relu)
 * join one consumer at a time, each trying the intermediates it reads in
 * turn, and a joined nest may then join as a consumer again: x * f(x)
 * (SiLU, GELU) joins f's nest first, then x's producer.
 *
 * Refused, so left as they are: a consumer that is not a perfect nest down
 * to its store or does not cover A, a producer that reads A, an
 * intermediate used anywhere else, a consumer
 * reading what the producer writes (other than A), and bodies with blocks
 * (this pass does not read block regions).
 */
#include <string.h>

#include "../ops/tir_build.h"
#include "fuse_int.h"

enum { MAX_DEPTH = 16 };

/* --- loads -------------------------------------------------------------- */

typedef bool (*LoadFn)(void *user, const IrPrimExpr *load);

typedef struct {
  LoadFn fn;
  void *user;
} AnyLoad;

static bool
visit_load(const IrPrimExpr *e, void *user)
{
  const AnyLoad *a = user;
  return e->kind == IR_PE_LOAD && a->fn(a->user, e);
}

/* Calls fn on each load in e, outer before inner, until it returns true;
 * whether one did. */
static bool
any_load(const IrPrimExpr *e, LoadFn fn, void *user)
{
  AnyLoad a = {fn, user};
  return ir_prim_walk(e, visit_load, &a);
}

/* --- what a statement reads and writes ------------------------------------ */

typedef struct {
  const IrBuffer *buffer;
  int loads, stores;
  bool block;        /* a block was met: give up */
  const IrStmt *top; /* an item of the flat list, whose binders' bodies are
                        the items after it (not walked here); or NULL */
} Uses;

static bool
count_load(void *user, const IrPrimExpr *load)
{
  Uses *u = user;
  u->loads += load->u.load.buffer == u->buffer;
  return false;
}

static bool
uses_expr(const IrPrimExpr *e, const IrStmt *s, void *user)
{
  any_load(e, count_load, user);
  return false;
}

static IrWalkAction
uses_stmt(const IrStmt *s, void *user)
{
  Uses *u = user;
  switch (s->kind) {
  case IR_ST_STORE:
    u->stores += s->u.store.buffer == u->buffer;
    break;
  case IR_ST_LET:
    if (s == u->top) {
      uses_expr(s->u.let.value, s, u);
      return IR_WALK_SKIP;
    }
    break;
  case IR_ST_ALLOC:
    u->loads += s->u.alloc.buffer == u->buffer; /* its own binder: not removable */
    if (s == u->top)
      return IR_WALK_SKIP;
    break;
  case IR_ST_BLOCK:
    u->block = true;
    return IR_WALK_SKIP;
  default:
    break;
  }
  return IR_WALK_CONTINUE;
}

/* The uses of b in s; top as for Uses.top. */
static Uses
uses_of(const IrBuffer *b, const IrStmt *s, bool top)
{
  Uses u = {b, 0, 0, false, top ? s : NULL};
  IrTirVisitor v = {.enter = uses_stmt, .expr = uses_expr, .user = &u};
  ir_tir_walk(s, &v);
  return u;
}

/* --- the shapes this joins ----------------------------------------------- */

static bool
is_const(const IrPrimExpr *e, int64_t v)
{
  return e->kind == IR_PE_INT && e->u.int_value == v;
}

/* The consumer's depth: its loops (min 0, each holding just the next) down
 * to a single store, put in loops and *store; 0 when s is not so. */
static int
consumer_depth(IrStmt *s, IrStmt **loops, IrStmt **store)
{
  int d = 0;
  for (;;) {
    while (s && s->kind == IR_ST_SEQ && s->u.seq.n == 1)
      s = s->u.seq.stmts[0];
    if (d == MAX_DEPTH || !s || s->kind != IR_ST_FOR || !is_const(s->u.loop.min, 0))
      break;
    loops[d++] = s;
    s = s->u.loop.body;
  }
  *store = s;
  return s && s->kind == IR_ST_STORE ? d : 0;
}

/* Is idx the point of the loops: each index its loop's var, or 0 for a
 * loop of one iteration (as broadcasting code indexes a dim of extent 1)? */
static bool
is_var_list(IrPrimExpr **idx, int n, IrStmt **loops, int d)
{
  if (n != d)
    return false;
  for (int k = 0; k < d; k++)
    if (idx[k] != loops[k]->u.loop.var &&
        !(is_const(idx[k], 0) && is_const(loops[k]->u.loop.extent, 1)))
      return false;
  return true;
}

typedef struct {
  const IrBuffer *b;
  IrStmt **loops;
  int d;
} AtPoint;

static bool
load_elsewhere(void *user, const IrPrimExpr *load)
{
  const AtPoint *p = user;
  return load->u.load.buffer == p->b &&
         !is_var_list(load->u.load.indices, load->u.load.n, p->loops, p->d);
}

/* Does e load b anywhere other than at exactly the vars of loops? */
static bool
loads_elsewhere(const IrPrimExpr *e, const IrBuffer *b, IrStmt **loops, int d)
{
  AtPoint p = {b, loops, d};
  return any_load(e, load_elsewhere, &p);
}

/* e with every load of b replaced by a copy of val (vars and constants
 * are shared: a var is known by its pointer). */
static IrPrimExpr *
replace_loads(IrCtx *ctx, IrPrimExpr *e, const IrBuffer *b, IrPrimExpr *val)
{
  if (e->kind == IR_PE_LOAD && e->u.load.buffer == b)
    return replace_loads(ctx, val, NULL, NULL);
  if (e->kind == IR_PE_INT || e->kind == IR_PE_FLOAT || e->kind == IR_PE_STR ||
      e->kind == IR_PE_VAR)
    return e;
  IrPrimExpr *c = ir_alloc(ctx, sizeof *c);
  *c = *e;
  switch (e->kind) {
  case IR_PE_LOAD:
    c->u.load.indices = ir_alloc(ctx, sizeof *c->u.load.indices * (size_t)(e->u.load.n + 1));
    for (int i = 0; i < e->u.load.n; i++)
      c->u.load.indices[i] = replace_loads(ctx, e->u.load.indices[i], b, val);
    return c;
  case IR_PE_SELECT:
    c->u.select.cond = replace_loads(ctx, e->u.select.cond, b, val);
    c->u.select.a = replace_loads(ctx, e->u.select.a, b, val);
    c->u.select.b = replace_loads(ctx, e->u.select.b, b, val);
    return c;
  case IR_PE_CALL:
    c->u.call.args = ir_alloc(ctx, sizeof *c->u.call.args * (size_t)(e->u.call.n + 1));
    for (int i = 0; i < e->u.call.n; i++)
      c->u.call.args[i] = replace_loads(ctx, e->u.call.args[i], b, val);
    return c;
  default:
    c->u.bin.a = replace_loads(ctx, e->u.bin.a, b, val);
    c->u.bin.b = e->u.bin.b ? replace_loads(ctx, e->u.bin.b, b, val) : NULL;
    return c;
  }
}

/* --- joining ----------------------------------------------------------------- */

typedef struct {
  IrCtx *ctx;
  IrVec *items;  /* IrStmt*: the fused body, flat */
  IrVec *allocs; /* IrBuffer*: its intermediates */
} Join;

static int
alloc_index(const Join *J, const IrBuffer *b)
{
  for (int i = 0; i < J->allocs->len; i++)
    if (J->allocs->items[i] == b)
      return i;
  return -1;
}

typedef struct {
  const IrStmt *producer;
  const IrBuffer *a;
} Written;

static bool
load_of_written(void *user, const IrPrimExpr *load)
{
  const Written *w = user;
  return load->u.load.buffer != w->a && uses_of(load->u.load.buffer, w->producer, true).stores > 0;
}

/* Does the producer store to any buffer e loads, besides a? */
static bool
reads_producer_output(const IrStmt *producer, const IrPrimExpr *e, const IrBuffer *a)
{
  Written w = {producer, a};
  return any_load(e, load_of_written, &w);
}

typedef struct {
  const Join *J;
  IrVec *found;
} Candidates;

static bool
load_of_alloc(void *user, const IrPrimExpr *load)
{
  Candidates *c = user;
  IrBuffer *b = load->u.load.buffer;
  if (alloc_index(c->J, b) < 0)
    return false;
  for (int i = 0; i < c->found->len; i++)
    if (c->found->items[i] == b)
      return false;
  ir_vec_push(c->found, b);
  return false;
}

/* The intermediates e loads, each once, in the order met. */
static void
candidates(const Join *J, const IrPrimExpr *e, IrVec *out)
{
  Candidates c = {J, out};
  any_load(e, load_of_alloc, &c);
}

typedef struct {
  const IrBuffer *a;
  const IrStmt *top; /* as for Uses.top */
  IrVec *out;
} Stores;

static IrWalkAction
push_store(const IrStmt *s, void *user)
{
  Stores *st = user;
  if (s->kind == IR_ST_STORE && s->u.store.buffer == st->a)
    ir_vec_push(st->out, (void *)s);
  bool binder = s->kind == IR_ST_LET || s->kind == IR_ST_ALLOC;
  return (binder && s == st->top) || s->kind == IR_ST_BLOCK || s->kind == IR_ST_EVALUATE
             ? IR_WALK_SKIP
             : IR_WALK_CONTINUE;
}

/* Appends to out every store to a in s, wherever it is (the caller has
 * checked there is no block); top as for Uses.top. */
static void
find_stores(IrStmt *s, const IrBuffer *a, bool top, IrVec *out)
{
  Stores st = {a, top ? s : NULL, out};
  IrTirVisitor v = {.enter = push_store, .user = &st};
  ir_tir_walk(s, &v);
}

/* Do the consumer's loops run over exactly a's shape? */
static bool
covers(IrStmt **loops, int d, const IrBuffer *a)
{
  if (a->ndim != d)
    return false;
  for (int k = 0; k < d; k++)
    if (!ir_prim_expr_equal(loops[k]->u.loop.extent, a->shape[k]))
      return false;
  return true;
}

/* Store ps of a (in the producer) becomes the consumer's store (cl, d,
 * store) at ps's point: each consumer loop var is ps's index, and each
 * load of a is ps's value. */
static void
run_at(Join *J, const IrBuffer *a, IrStmt **cl, int d, const IrStmt *store, IrStmt *ps)
{
  OpVarMap at = {0};
  for (int k = 0; k < d; k++)
    op_var_map_put(&at, cl[k]->u.loop.var, ps->u.store.indices[k]);
  /* the store rounded to a's dtype: so does the value in its place */
  IrPrimExpr *val = ps->u.store.value;
  IrPrimKind vk = val->kind;
  bool rounded = vk == IR_PE_CAST || vk == IR_PE_LOAD || vk == IR_PE_INT || vk == IR_PE_FLOAT ||
                 vk == IR_PE_VAR;
  if (!(rounded && ir_dtype_eq(val->dtype, a->dtype)))
    val = ir_prim_cast(J->ctx, a->dtype, val);
  IrPrimExpr *value =
      replace_loads(J->ctx, op_prim_subst(J->ctx, store->u.store.value, &at, false), a, val);
  IrPrimExpr **idx = ir_alloc(J->ctx, sizeof *idx * (size_t)(store->u.store.n + 1));
  for (int i = 0; i < store->u.store.n; i++)
    idx[i] = op_prim_subst(J->ctx, store->u.store.indices[i], &at, false);
  op_var_map_free(&at);
  ps->u.store.buffer = store->u.store.buffer;
  ps->u.store.indices = idx;
  ps->u.store.n = store->u.store.n;
  ps->u.store.value = value;
}

/* Joins item c (the consumer: its loops cl[0..d), its store) into the
 * items before it that store intermediate a, when they have the shape of
 * the file comment; true when it did. */
static bool
join_from(Join *J, int c, IrBuffer *a, IrStmt **cl, int d, IrStmt *store)
{
  IrPrimExpr *e = store->u.store.value;
  if (a == store->u.store.buffer || !covers(cl, d, a) || loads_elsewhere(e, a, cl, d))
    return false;
  Uses in_value = {a, 0, 0, false, NULL};
  any_load(e, count_load, &in_value);
  if (uses_of(a, J->items->items[c], true).loads != in_value.loads)
    return false; /* loaded in an index or a loop bound too */
  /* the producer: the items from the first that uses a to the consumer */
  int p = 0;
  for (Uses u; p < c; p++)
    if ((u = uses_of(a, J->items->items[p], true)).stores || u.loads)
      break;
  if (p == c)
    return false;
  for (int i = p; i < c; i++) {
    IrStmt *s = J->items->items[i];
    Uses pu = uses_of(a, s, true), out = uses_of(store->u.store.buffer, s, true);
    if (s->kind == IR_ST_LET || s->kind == IR_ST_ALLOC || pu.loads || pu.block || out.loads ||
        out.stores || out.block || reads_producer_output(s, e, a))
      return false;
  }
  for (int i = c + 1; i < J->items->len; i++) {
    Uses u = uses_of(a, J->items->items[i], true);
    if (u.loads || u.stores || u.block)
      return false;
  }
  IrVec stores = {0};
  for (int i = p; i < c; i++)
    find_stores(J->items->items[i], a, true, &stores);
  bool ok = stores.len > 0;
  for (int i = 0; i < stores.len; i++)
    ok = ok && ((IrStmt *)stores.items[i])->u.store.n == d;
  for (int i = 0; ok && i < stores.len; i++)
    run_at(J, a, cl, d, store, stores.items[i]);
  ir_vec_free(&stores);
  if (!ok)
    return false;
  int ai = alloc_index(J, a);
  memmove(&J->allocs->items[ai], &J->allocs->items[ai + 1],
          sizeof(void *) * (size_t)(J->allocs->len - ai - 1));
  J->allocs->len--;
  memmove(&J->items->items[c], &J->items->items[c + 1],
          sizeof(void *) * (size_t)(J->items->len - c - 1));
  J->items->len--;
  return true;
}

/* Joins item c (the consumer) into the producer of one of the
 * intermediates it reads, trying each in turn: x * sigmoid(x) reads x,
 * which the sigmoid's nest reads too, so x's producer cannot take the
 * multiply before the sigmoid's nest has; then the nest of the product
 * reads only x, and joins the producer of x in its turn. */
static bool
join(Join *J, int c)
{
  IrStmt *cl[MAX_DEPTH], *store;
  int d = consumer_depth(J->items->items[c], cl, &store);
  if (d == 0)
    return false;
  IrVec found = {0};
  candidates(J, store->u.store.value, &found);
  bool joined = false;
  for (int i = 0; !joined && i < found.len; i++)
    joined = join_from(J, c, found.items[i], cl, d, store);
  ir_vec_free(&found);
  return joined;
}

void
opt_fuse_join_nests(IrCtx *ctx, IrVec *items, IrVec *allocs)
{
  Join J = {ctx, items, allocs};
  for (int c = 1; c < items->len;)
    c = join(&J, c) ? 1 : c + 1; /* a joined nest may be a consumer in its turn */
}
