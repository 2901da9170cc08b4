/*
 * fuse_pattern.c - the op pattern of a prim_func, as FuseOps needs it.
 *
 * Key idea: classify by reading the TIR, not by remembering which op made
 * it, so hand-written prim_funcs and the output of any lowering get a
 * pattern too.  A function's "op_pattern" attribute (TVM's) wins when
 * present.  Otherwise the body is scanned once; every store to a parameter
 * buffer is related to every parameter load in its value (after resolving
 * block iterators to the loop vars they are bound to):
 *
 *   - elementwise: the load's indices are the store's, position by position;
 *   - broadcast:   each load index is literal 0 or one of the store's index
 *                  vars, in increasing store position;
 *   - injective:   anything else (reshape, transpose, padding, concat).
 *
 * The function is a reduction when it keeps state between iterations: a
 * local buffer (T.alloc_buffer), a block with T.init or a reduce iterator,
 * a store whose value reads the buffer it writes, or a store inside a loop
 * whose var is not among the store's indices.  A reduction that
 * accumulates a product of two parameter loads (acc = acc + a * b) is
 * out-elementwise-fusable (conv2d, matmul); others are comm-reduce.  A
 * kernel call (T.call_extern of ir/tir_kernel.c) counts as the loops it
 * stands for (scan_kernel).  Any other
 * evaluate statement, a call that is not a tir.* math intrinsic, a store
 * index repeated, or writes to more than one parameter buffer make it
 * opaque; a store index that is not a loop var makes it injective.  TVM does the same analysis on
 * blocks (src/relax/analysis/tir_op_pattern_kind.cc); this one also reads the plain loops our
 * LegalizeOps emits.
 */
#include <string.h>

#include "fuse_int.h"
#include "opt.h"

typedef struct {
  const IrPrimFunc *f;
  IrVec loops;         /* IrPrimExpr*: enclosing loop vars, outermost first */
  IrMap iter_of;       /* block iterator -> the loop var it is bound to */
  const IrBuffer *out; /* the parameter buffer written, NULL before the first */
  int stores;          /* stores to parameter buffers */
  int ifs;             /* enclosing if statements */
  bool reduce;         /* keeps state between iterations */
  bool fma;            /* acc = acc + a * b with a, b parameter loads */
  bool opaque;
  FusePattern index; /* the widest store-load relation met */
} Scan;

static bool
is_param_buffer(const Scan *s, const IrBuffer *b)
{
  for (int i = 0; i < s->f->nparams; i++)
    if (s->f->params[i].buffer == b)
      return true;
  return false;
}

/* A loop var for an index: itself, or what a block iterator is bound to. */
static const IrPrimExpr *
resolve(const Scan *s, const IrPrimExpr *e)
{
  if (e->kind != IR_PE_VAR)
    return NULL;
  const IrPrimExpr *v = ir_map_get(&s->iter_of, e);
  return v ? v : e;
}

static bool
is_loop_var(const Scan *s, const IrPrimExpr *v)
{
  for (int i = 0; v && i < s->loops.len; i++)
    if (s->loops.items[i] == v)
      return true;
  return false;
}

/* How a load relates to the store it feeds (see the file comment). */
static FusePattern
relation(const Scan *s, IrPrimExpr **store, int ns, IrPrimExpr **load, int nl)
{
  bool same = ns == nl;
  for (int i = 0; same && i < nl; i++)
    same = resolve(s, load[i]) && resolve(s, load[i]) == resolve(s, store[i]);
  if (same)
    return FUSE_ELEMWISE;
  int next = 0; /* store positions before next are used up */
  for (int i = 0; i < nl; i++) {
    int64_t v;
    if (ir_prim_is_int(load[i], &v) && v == 0)
      continue;
    const IrPrimExpr *var = resolve(s, load[i]);
    while (next < ns && resolve(s, store[next]) != var)
      next++;
    if (!var || next == ns)
      return FUSE_INJECTIVE;
    next++;
  }
  return FUSE_BROADCAST;
}

static void
widen(FusePattern *p, FusePattern q)
{
  if (q > *p)
    *p = q;
}

/* Relates the loads in e to a store at indices idx of buffer dst (NULL for
 * values that feed no parameter store: lets, conditions, local stores). */
static void
scan_expr(Scan *s, const IrPrimExpr *e, const IrBuffer *dst, IrPrimExpr **idx, int n)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_PE_INT:
  case IR_PE_FLOAT:
  case IR_PE_STR:
  case IR_PE_VAR:
    return;
  case IR_PE_LOAD:
    if (e->u.load.buffer == dst || !is_param_buffer(s, e->u.load.buffer))
      s->reduce = true;
    else if (dst)
      widen(&s->index, relation(s, idx, n, e->u.load.indices, e->u.load.n));
    for (int i = 0; i < e->u.load.n; i++)
      scan_expr(s, e->u.load.indices[i], NULL, NULL, 0);
    return;
  case IR_PE_CALL:
    if (strncmp(e->u.call.op, "tir.", 4) != 0 || strstr(e->u.call.op, "call") ||
        strstr(e->u.call.op, "tvm_"))
      s->opaque = true;
    for (int i = 0; i < e->u.call.n; i++)
      scan_expr(s, e->u.call.args[i], dst, idx, n);
    return;
  case IR_PE_SELECT:
    scan_expr(s, e->u.select.cond, dst, idx, n);
    scan_expr(s, e->u.select.a, dst, idx, n);
    scan_expr(s, e->u.select.b, dst, idx, n);
    return;
  default:
    scan_expr(s, e->u.bin.a, dst, idx, n);
    scan_expr(s, e->u.bin.b, dst, idx, n);
    return;
  }
}

/* e without the casts around it. */
static const IrPrimExpr *
uncast(const IrPrimExpr *e)
{
  while (e->kind == IR_PE_CAST)
    e = e->u.bin.a;
  return e;
}

static bool
loads_param(const Scan *s, const IrPrimExpr *e)
{
  e = uncast(e);
  return e->kind == IR_PE_LOAD && is_param_buffer(s, e->u.load.buffer);
}

/* buf[...] = buf[...] + a * b, with a and b parameter loads, each piece
 * possibly through casts (an integer sum wraps through uint32 or uint64:
 * op_prim_wrapping). */
static bool
is_fma(const Scan *s, const IrStmt *st)
{
  const IrPrimExpr *v = uncast(st->u.store.value);
  if (v->kind != IR_PE_ADD)
    return false;
  const IrPrimExpr *acc = uncast(v->u.bin.a), *prod = uncast(v->u.bin.b);
  if (acc->kind != IR_PE_LOAD || acc->u.load.buffer != st->u.store.buffer ||
      prod->kind != IR_PE_MUL)
    return false;
  return loads_param(s, prod->u.bin.a) && loads_param(s, prod->u.bin.b);
}

/* A store to a parameter: its indices must be distinct loop vars, and a
 * loop var not among them means the element is written repeatedly. */
static void
scan_param_store(Scan *s, const IrStmt *st)
{
  const IrBuffer *b = st->u.store.buffer;
  if (s->out && s->out != b)
    s->opaque = true;
  s->out = b;
  s->stores++;
  if (s->ifs > 0)
    widen(&s->index, FUSE_INJECTIVE);
  int n = st->u.store.n, used = 0;
  for (int i = 0; i < n; i++) {
    const IrPrimExpr *v = resolve(s, st->u.store.indices[i]);
    if (!is_loop_var(s, v)) {
      widen(&s->index, FUSE_INJECTIVE); /* concat: out[i, j + 4] */
      continue;
    }
    for (int j = 0; j < i; j++)
      if (resolve(s, st->u.store.indices[j]) == v)
        s->opaque = true;
    used++;
  }
  if (used < s->loops.len)
    s->reduce = true;
  s->fma = s->fma || is_fma(s, st);
  scan_expr(s, st->u.store.value, b, st->u.store.indices, n);
}

/* A kernel call (ir/tir_kernel.c) as the loops it stands for: a kernel
 * that writes a parameter is opaque (it writes elements the scan cannot
 * relate to loads); one that writes only local buffers keeps state, and
 * is the product of two parameters (an acc = acc + a * b) when the row
 * says so and both factors are parameters.  False: e is no kernel call. */
static bool
scan_kernel(Scan *s, const IrPrimExpr *e)
{
  const IrTirKernel *k = ir_tir_kernel_of(e);
  if (!k)
    return false;
  bool params_in = true;
  for (int i = 0; i < k->nargs; i++) {
    if (k->args[i] == IR_KARG_INT) {
      scan_expr(s, e->u.call.args[i + 1], NULL, NULL, 0);
      continue;
    }
    bool param = is_param_buffer(s, ir_tir_kernel_pointee(e, i)->u.load.buffer);
    if (k->args[i] == IR_KARG_INOUT && param)
      s->opaque = true;
    if (!param)
      s->reduce = true;
    params_in = params_in && (k->args[i] != IR_KARG_IN || param);
  }
  s->fma = s->fma || (k->sums_products && params_in);
  return true;
}

/* A block's own part (its init and body are the walk's). */
static void
scan_block(Scan *s, const IrTirBlock *blk)
{
  if (blk->init || blk->nallocs > 0)
    s->reduce = true;
  for (int i = 0; i < blk->niters; i++) {
    const IrIterVar *it = &blk->iters[i];
    if (it->kind != IR_ITER_SPATIAL)
      s->reduce = true;
    if (it->binding && it->binding->kind == IR_PE_VAR)
      ir_map_put(&s->iter_of, it->var, it->binding);
    else
      widen(&s->index, FUSE_INJECTIVE);
  }
}

/* A statement, before its children: the walk scans them next. */
static IrWalkAction
scan_enter(const IrStmt *st, void *user)
{
  Scan *s = user;
  if (s->opaque)
    return IR_WALK_STOP; /* decided */
  switch (st->kind) {
  case IR_ST_SEQ:
    break;
  case IR_ST_FOR:
    ir_vec_push(&s->loops, st->u.loop.var);
    break;
  case IR_ST_BLOCK:
    scan_block(s, st->u.block);
    break;
  case IR_ST_STORE:
    if (is_param_buffer(s, st->u.store.buffer)) {
      scan_param_store(s, st);
    } else {
      s->reduce = true;
      s->fma = s->fma || is_fma(s, st);
    }
    break;
  case IR_ST_LET:
    widen(&s->index, FUSE_INJECTIVE);
    scan_expr(s, st->u.let.value, NULL, NULL, 0);
    break;
  case IR_ST_IF:
    scan_expr(s, st->u.branch.cond, NULL, NULL, 0);
    s->ifs++;
    break;
  case IR_ST_EVALUATE:
    if (scan_kernel(s, st->u.eval))
      return IR_WALK_SKIP; /* its arguments scanned */
    s->opaque = true;
    break;
  case IR_ST_ASSERT: /* a kernel that can fail stays a call of its own */
  case IR_ST_DECL:   /* two views of one buffer: not a pattern */
    s->opaque = true;
    break;
  case IR_ST_ALLOC:
    s->reduce = true;
    break;
  }
  return IR_WALK_CONTINUE;
}

/* A statement after its children: the scopes scan_enter opened close. */
static void
scan_leave(const IrStmt *st, void *user)
{
  Scan *s = user;
  if (st->kind == IR_ST_FOR)
    s->loops.len--;
  else if (st->kind == IR_ST_IF)
    s->ifs--;
}

FusePattern
opt_fuse_pattern_of(const IrPrimFunc *f)
{
  const IrAttr *given = ir_attr_get(f->attrs, "op_pattern");
  if (given && given->kind == IR_AT_INT)
    return given->u.i >= 0 && given->u.i <= FUSE_OUT_EWISE ? (FusePattern)given->u.i : FUSE_OPAQUE;
  Scan s;
  memset(&s, 0, sizeof s);
  s.f = f;
  s.index = FUSE_ELEMWISE;
  IrTirVisitor v = {.enter = scan_enter, .leave = scan_leave, .user = &s};
  ir_tir_walk(f->body, &v);
  ir_vec_free(&s.loops);
  ir_map_free(&s.iter_of);
  if (s.opaque || s.stores == 0)
    return FUSE_OPAQUE;
  if (s.reduce)
    return s.fma ? FUSE_OUT_EWISE : FUSE_COMM_REDUCE;
  if (s.stores > 1)
    widen(&s.index, FUSE_INJECTIVE);
  return s.index;
}

int
opt_prim_pattern(const IrPrimFunc *f)
{
  return (int)opt_fuse_pattern_of(f);
}
