/*
 * parse_tir.c - T.prim_func: parameters, buffers and statements.
 *
 * Key ideas: a statement list is read into items, some of which bind over
 * the rest of the list (a let, an allocation outside a block); the nested
 * statements are then built from the end backwards, without recursion.  A
 * block's own statement list also collects its header (T.axis.*, T.reads,
 * T.writes, T.block_attr, T.alloc_buffer, T.init).  Loop vars carry their
 * range in the scope, which T.axis.remap reads.  Ranges written as
 * `range(a, b)` or slices `a:b` get extent b when a is 0, e when b is
 * `a + e`, else b - a.
 */
#include <string.h>

#include "fe_int.h"

typedef struct {
  IrPrimFunc *fn;
  IrTirBlock *block;  /* the block whose own statement list this is, or NULL */
  FeVec iters;        /* IrIterVar of that block */
  FeVec reads, writes, allocs;
} Tir;

typedef struct {
  IrStmt *stmt;
  bool binder;        /* a let or alloc whose body is the rest of the list */
} Item;

static IrStmt *body_block(Parser *P, Tir *c, IrTirBlock *block);

/* min and extent of "a, b" (range(a, b), slices, axis domains). */
static IrRange
range_of(Parser *P, TExpr a, TExpr b)
{
  TExpr ext = fe_texpr_bin(P, IR_PE_SUB, b, a); /* hi - lo; unifies the dtypes */
  IrPrimExpr *lo = ext.e->u.bin.b, *hi = ext.e->u.bin.a;
  IrRange r = {lo, ext.e};
  int64_t v;
  if (ir_prim_is_int(lo, &v) && v == 0)
    r.extent = hi;
  else if (hi->kind == IR_PE_ADD && ir_prim_expr_equal(hi->u.bin.a, lo))
    r.extent = hi->u.bin.b;
  return r;
}

static IrStmt *
make_seq(Parser *P, IrStmt **stmts, int n, IrLoc loc)
{
  if (n == 1)
    return stmts[0];
  IrStmt *s = ir_stmt_new(P->ctx, IR_ST_SEQ, loc);
  s->u.seq.stmts = ir_alloc(P->ctx, sizeof(IrStmt *) * (size_t)(n ? n : 1));
  memcpy(s->u.seq.stmts, stmts, sizeof(IrStmt *) * (size_t)n);
  s->u.seq.n = n;
  return s;
}

/* Nests binders over the rest of their list, from the end backwards. */
static IrStmt *
build_list(Parser *P, Item *items, int n, IrLoc loc)
{
  IrStmt **tail = ir_alloc(P->ctx, sizeof(IrStmt *) * (size_t)(n ? n : 1));
  int start = n; /* tail[start..n) is the current suffix */
  for (int i = n - 1; i >= 0; i--) {
    IrStmt *s = items[i].stmt;
    if (items[i].binder) {
      IrStmt *rest = make_seq(P, tail + start, n - start, s->loc);
      if (s->kind == IR_ST_LET)
        s->u.let.body = rest;
      else if (s->kind == IR_ST_DECL)
        s->u.decl.body = rest;
      else
        s->u.alloc.body = rest;
      start = n;
    }
    tail[--start] = s;
  }
  return make_seq(P, tail + start, n - start, loc);
}

/* --- buffers ------------------------------------------------------------ */

static IrBuffer *data_source(Parser *P, const IrBuffer *buf);

/* Reads shape, dtype and keywords of T.Buffer / T.match_buffer /
 * T.alloc_buffer / T.decl_buffer after the '(' (and the handle for
 * match_buffer); data=A.data into *data when data is not NULL. */
static void
buffer_args(Parser *P, IrBuffer *buf, IrBuffer **data)
{
  buf->dtype = IR_F32;
  buf->scope = ir_sym(P->ctx, "global");
  for (int i = 0; !fe_is_op(fe_peek(P), ")"); i++) {
    const Tok *t = fe_peek(P);
    const char *slot = i == 0 ? "shape" : i == 1 ? "dtype" : "";
    if (t->kind == TK_NAME && fe_is_op(fe_peek_at(P, 1), "=")) {
      P->pos += 2;
      slot = t->sym;
    }
    int64_t v;
    if (strcmp(slot, "shape") == 0) {
      if (fe_is_op(fe_peek(P), "(") || fe_is_op(fe_peek(P), "["))
        buf->shape = fe_shape_list(P, &buf->ndim);
      else {
        buf->shape = ir_alloc(P->ctx, sizeof(IrPrimExpr *));
        buf->shape[0] = fe_prim(P);
        buf->ndim = 1;
      }
    } else if (strcmp(slot, "dtype") == 0) {
      buf->dtype = fe_dtype_str(P);
    } else if (strcmp(slot, "data") == 0 && data) {
      *data = data_source(P, buf);
    } else if (strcmp(slot, "elem_offset") == 0) {
      if (!fe_int_literal(P, false, &v) || v != 0)
        fe_fail(P, t, "elem_offset other than 0 is not read (a buffer starts at its data)");
    } else if (strcmp(slot, "layout") == 0 && fe_is_name(fe_peek(P), "None")) {
      fe_next(P); /* v0.26 prints layout=None: the default */
    } else if (strcmp(slot, "scope") == 0) {
      buf->scope = fe_expect_kind(P, TK_STR, "a scope string")->sym;
    } else if ((strcmp(slot, "align") == 0 || strcmp(slot, "offset_factor") == 0) &&
               fe_int_literal(P, false, &v) && v < 1 << 30) {
      *(slot[0] == 'a' ? &buf->align : &buf->offset_factor) = (int)v;
    } else if (*slot) {
      fe_fail(P, t, "unexpected argument '%s' for a buffer", slot);
    } else {
      fe_fail(P, t, "unexpected argument for a buffer");
    }
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, ")");
  if (!buf->shape)
    fe_fail(P, fe_peek(P), "a buffer needs a shape");
}

static IrBuffer *
new_buffer(Parser *P, const Tok *name)
{
  IrBuffer *b = ir_alloc(P->ctx, sizeof *b);
  b->name = name->sym;
  b->loc = fe_loc(P, name);
  fe_scope_add(P, name->sym, SYM_BUFFER)->buffer = b;
  return b;
}

/* A.data: the data of buffer A in scope, which buf (being declared) then
 * covers. */
static IrBuffer *
data_source(Parser *P, const IrBuffer *buf)
{
  const Tok *name = fe_expect_name(P);
  FeEntry *e = fe_scope_find(P, name->sym);
  if (!e || e->kind != SYM_BUFFER || e->buffer == buf)
    fe_fail(P, name, "data= needs B.data of a buffer B in scope; '%s' is not one", name->sym);
  fe_expect_op(P, ".");
  const Tok *field = fe_expect_name(P);
  if (strcmp(field->sym, "data") != 0)
    fe_fail(P, field, "data= needs %s.data but found %s.%s", name->sym, name->sym, field->sym);
  return e->buffer;
}

/* The product of n literal dims in *out; false when one is not a literal. */
static bool
literal_count(IrPrimExpr *const *dims, int n, int64_t *out)
{
  *out = 1;
  for (int i = 0; i < n; i++) {
    int64_t v;
    if (!ir_prim_is_int(dims[i], &v))
      return false;
    *out *= v;
  }
  return true;
}

/* A.view("dtype"): A's data as dtype, the last dim scaled by the ratio of
 * the element sizes (TVM's Buffer.view); A's last dim must be a literal
 * when the new elements are wider. */
static void
view_dtype(Parser *P, IrBuffer *b, const IrBuffer *a, const Tok *at)
{
  b->dtype = fe_dtype_str(P);
  int from = ir_dtype_bytes(a->dtype), to = ir_dtype_bytes(b->dtype);
  if (from <= 0 || to <= 0 || a->ndim == 0 || (from % to && to % from))
    fe_fail(P, at, "%s.view: cannot view these elements as the given dtype", a->name);
  b->ndim = a->ndim;
  b->shape = ir_alloc(P->ctx, sizeof(IrPrimExpr *) * (size_t)b->ndim);
  memcpy(b->shape, a->shape, sizeof(IrPrimExpr *) * (size_t)b->ndim);
  IrPrimExpr *last = a->shape[a->ndim - 1];
  int64_t v;
  if (to < from) {
    IrPrimExpr *ratio = ir_prim_int(P->ctx, last->dtype, from / to);
    b->shape[b->ndim - 1] = ir_prim_is_int(last, &v) ? ir_prim_int(P->ctx, last->dtype, v * (from / to))
                                                     : ir_prim_bin(P->ctx, IR_PE_MUL, last, ratio);
  } else if (to > from) {
    if (!ir_prim_is_int(last, &v) || v % (to / from))
      fe_fail(P, at, "%s.view: the last dim must be a literal multiple of %d", a->name, to / from);
    b->shape[b->ndim - 1] = ir_prim_int(P->ctx, last->dtype, v / (to / from));
  }
}

/* B = A.view(d0, d1, ...) or A.view("dtype"): TVM's Buffer.view, a
 * declaration of B over A's data.  A reshape keeps the element count. */
static IrStmt *
view(Parser *P, const Tok *name, const IrBuffer *a)
{
  const Tok *at = fe_peek(P);
  IrStmt *s = ir_stmt_new(P->ctx, IR_ST_DECL, fe_loc(P, name));
  IrBuffer *b = new_buffer(P, name);
  b->scope = a->scope;
  fe_expect_op(P, "(");
  if (fe_peek(P)->kind == TK_STR) {
    view_dtype(P, b, a, at);
  } else {
    b->dtype = a->dtype;
    FeVec dims = {0};
    while (!fe_is_op(fe_peek(P), ")")) {
      fe_vec_ptr(P, &dims, fe_prim(P));
      if (!fe_accept_op(P, ","))
        break;
    }
    b->shape = dims.data;
    b->ndim = dims.len;
    int64_t na, nb;
    if (literal_count(a->shape, a->ndim, &na) && literal_count(b->shape, b->ndim, &nb) && na != nb)
      fe_fail(P, at, "%s.view: %lld elements but %s has %lld", a->name, (long long)nb, a->name,
              (long long)na);
  }
  fe_expect_op(P, ")");
  s->u.decl.buffer = b;
  s->u.decl.source = (IrBuffer *)a;
  return s;
}

/* --- loops and blocks ---------------------------------------------------- */

static IrForKind
loop_kind(Parser *P, const char *name, const Tok *at)
{
  if (strcmp(name, "range") == 0 || strcmp(name, "T.serial") == 0)
    return IR_FOR_SERIAL;
  if (strcmp(name, "T.parallel") == 0)
    return IR_FOR_PARALLEL;
  if (strcmp(name, "T.unroll") == 0)
    return IR_FOR_UNROLL;
  if (strcmp(name, "T.vectorized") == 0)
    return IR_FOR_VECTORIZED;
  if (strcmp(name, "T.thread_binding") == 0)
    return IR_FOR_THREAD_BINDING;
  fe_fail(P, at, "unknown loop kind '%s'", name);
  return IR_FOR_SERIAL;
}

static IrStmt *
new_loop(Parser *P, const Tok *name, IrRange r, IrForKind kind)
{
  IrStmt *s = ir_stmt_new(P->ctx, IR_ST_FOR, fe_loc(P, name));
  s->u.loop.var = ir_prim_var(P->ctx, name->sym, r.extent->dtype);
  s->u.loop.min = r.min;
  s->u.loop.extent = r.extent;
  s->u.loop.kind = kind;
  FeEntry *e = fe_scope_add(P, name->sym, SYM_TVAR);
  e->tvar = s->u.loop.var;
  e->loop_min = r.min;
  e->loop_extent = r.extent;
  return s;
}

/* for i, j in T.grid(...) / range(...) / T.serial(...) ...: body */
static IrStmt *
for_loop(Parser *P, Tir *c)
{
  fe_next(P);
  const Tok *names[64];
  int n = 0;
  do {
    if (n == 64)
      fe_fail(P, fe_peek(P), "too many loop variables");
    names[n++] = fe_expect_name(P);
  } while (fe_accept_op(P, ","));
  const Tok *in = fe_expect_name(P);
  if (!fe_is_name(in, "in"))
    fe_fail(P, in, "expected 'in' but found '%s'", in->sym);
  const Tok *at;
  const char *iter = fe_dotted(P, &at);
  bool grid = strcmp(iter, "T.grid") == 0;
  IrForKind kind = grid ? IR_FOR_SERIAL : loop_kind(P, iter, at);
  int mark = P->scope.len;
  IrStmt *loops[64];
  int nloops = 0;
  fe_expect_op(P, "(");
  FeVec args = {0};
  IrAttr *annotations = NULL;
  IrSym thread = NULL;
  while (!fe_is_op(fe_peek(P), ")")) {
    if (fe_is_name(fe_peek(P), "annotations") && fe_is_op(fe_peek_at(P, 1), "=")) {
      P->pos += 2;
      annotations = fe_attr_dict(P);
    } else if (kind == IR_FOR_THREAD_BINDING && fe_is_name(fe_peek(P), "thread") &&
               fe_is_op(fe_peek_at(P, 1), "=")) {
      P->pos += 2;
      thread = fe_expect_kind(P, TK_STR, "a thread tag string")->sym;
    } else {
      TExpr *x = fe_vec_push(P, &args, sizeof(TExpr));
      *x = fe_texpr(P);
    }
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, ")");
  if (kind == IR_FOR_THREAD_BINDING && !thread)
    fe_fail(P, at, "T.thread_binding needs thread=\"...\" naming the thread axis");
  TExpr *a = args.data;
  const Tok *all = NULL; /* for iters in T.grid(m, n): one name for every loop */
  Tok fresh[64];
  if (grid && n == 1 && args.len > 1 && args.len <= 64) {
    all = names[0];
    for (n = 0; n < args.len; n++) {
      char buf[256];
      snprintf(buf, sizeof buf, "%s_%d", all->sym, n);
      fresh[n] = *all;
      fresh[n].sym = ir_sym(P->ctx, buf);
      names[n] = &fresh[n];
    }
  }
  if (grid ? args.len != n : (n != 1 || args.len < 1 || args.len > 2))
    fe_fail(P, at, "%s needs %s", iter, grid ? "one extent per loop variable" : "1 or 2 arguments and one loop variable");
  for (int i = 0; i < n; i++) {
    TExpr zero = {ir_prim_int(P->ctx, P->int_default, 0), true, 0};
    IrRange r = !grid && args.len == 2 ? range_of(P, a[0], a[1]) : range_of(P, zero, a[i]);
    loops[nloops++] = new_loop(P, names[i], r, kind);
    loops[nloops - 1]->u.loop.thread = thread;
  }
  loops[nloops - 1]->u.loop.annotations = annotations;
  if (all) {
    FeEntry *e = fe_scope_add(P, all->sym, SYM_LOOPS);
    e->loops = ir_alloc(P->ctx, sizeof(IrStmt *) * (size_t)nloops);
    memcpy(e->loops, loops, sizeof(IrStmt *) * (size_t)nloops);
    e->nloops = nloops;
  }
  fe_expect_op(P, ":");
  IrStmt *body = body_block(P, c, NULL);
  for (int i = nloops - 1; i >= 0; i--) {
    loops[i]->u.loop.body = body;
    body = loops[i];
  }
  fe_scope_pop(P, mark);
  return body;
}

/* with T.block("name"): / with T.init(): */
static IrStmt *
with_statement(Parser *P, Tir *c)
{
  const Tok *with = fe_next(P), *at;
  const char *name = fe_dotted(P, &at);
  fe_expect_op(P, "(");
  if (strcmp(name, "T.init") == 0) {
    fe_expect_op(P, ")");
    fe_expect_op(P, ":");
    if (!c->block)
      fe_fail(P, at, "T.init() is only allowed directly inside a block");
    if (c->block->init)
      fe_fail(P, at, "a block has one T.init()");
    c->block->init = body_block(P, c, NULL);
    return NULL;
  }
  if (strcmp(name, "T.block") != 0 && strcmp(name, "T.sblock") != 0)
    fe_fail(P, at, "expected T.block, T.sblock or T.init but found '%s'", name);
  IrTirBlock *blk = ir_alloc(P->ctx, sizeof *blk);
  blk->name = ir_sym(P->ctx, "");
  if (fe_peek(P)->kind == TK_STR)
    blk->name = fe_next(P)->sym;
  fe_expect_op(P, ")");
  fe_expect_op(P, ":");
  IrStmt *s = ir_stmt_new(P->ctx, IR_ST_BLOCK, fe_loc(P, with));
  s->u.block = blk;
  int mark = P->scope.len;
  blk->body = body_block(P, c, blk);
  fe_scope_pop(P, mark);
  return s;
}

/* v = T.axis.spatial(dom, binding) and the other kinds. */
static void
axis(Parser *P, Tir *c, const Tok *name, const char *kind_name, const Tok *at)
{
  static const char *const kinds[] = {"T.axis.spatial", "T.axis.reduce", "T.axis.scan",
                                      "T.axis.opaque"};
  int kind = -1;
  for (int i = 0; i < 4; i++)
    if (strcmp(kind_name, kinds[i]) == 0)
      kind = i;
  if (strcmp(kind_name, "T.axis.S") == 0 || strcmp(kind_name, "T.axis.R") == 0)
    kind = kind_name[7] == 'S' ? 0 : 1; /* TVM's short names of spatial and reduce */
  if (kind < 0)
    fe_fail(P, at, "unknown block axis '%s'", kind_name);
  fe_expect_op(P, "(");
  TExpr lo = {ir_prim_int(P->ctx, P->int_default, 0), true, 0}, hi;
  if (fe_accept_op(P, "(") || fe_accept_op(P, "[")) {
    lo = fe_texpr(P);
    fe_expect_op(P, ",");
    hi = fe_texpr(P);
    if (!fe_accept_op(P, ")"))
      fe_expect_op(P, "]");
  } else {
    hi = fe_texpr(P);
  }
  fe_expect_op(P, ",");
  TExpr binding = fe_texpr(P);
  fe_expect_op(P, ")");
  IrIterVar *iv = fe_vec_push(P, &c->iters, sizeof(IrIterVar));
  IrDType t = binding.bare ? (hi.bare ? P->int_default : hi.e->dtype) : binding.e->dtype;
  lo.e = fe_prim_as(P, lo, t);
  hi.e = fe_prim_as(P, hi, t);
  lo.bare = hi.bare = false;
  iv->dom = range_of(P, lo, hi);
  iv->kind = (IrIterKind)kind;
  iv->binding = fe_prim_as(P, binding, t);
  iv->var = ir_prim_var(P->ctx, name->sym, t);
  fe_scope_add(P, name->sym, SYM_TVAR)->tvar = iv->var;
}

/* v_i, v_j = T.axis.remap("SR", [i, j]): each bound to a loop var with the
 * loop's range as its domain. */
static void
remap(Parser *P, Tir *c, const Tok **names, int n)
{
  fe_expect_op(P, "(");
  const Tok *kinds = fe_expect_kind(P, TK_STR, "an iterator kind string");
  fe_expect_op(P, ",");
  /* [i, j], or the one name of a T.grid's loops */
  FeEntry *all = fe_peek(P)->kind == TK_NAME ? fe_scope_find(P, fe_peek(P)->sym) : NULL;
  const Tok *all_tok = fe_peek(P);
  if (all && all->kind == SYM_LOOPS)
    fe_next(P);
  else
    fe_expect_op(P, "[");
  if ((int)strlen(kinds->sym) != n)
    fe_fail(P, kinds, "T.axis.remap: %d kinds for %d variables", (int)strlen(kinds->sym), n);
  if (all && all->kind == SYM_LOOPS && all->nloops != n)
    fe_fail(P, all_tok, "T.axis.remap: '%s' holds %d loop variables, not %d", all_tok->sym,
            all->nloops, n);
  for (int i = 0; i < n; i++) {
    char k = kinds->sym[i];
    if (k != 'S' && k != 'R')
      fe_fail(P, kinds, "T.axis.remap kinds must be 'S' or 'R', not '%c'", k);
    IrPrimExpr *var, *min, *extent;
    if (all && all->kind == SYM_LOOPS) {
      const IrStmt *l = all->loops[i];
      var = l->u.loop.var, min = l->u.loop.min, extent = l->u.loop.extent;
    } else {
      if (i > 0)
        fe_expect_op(P, ",");
      const Tok *v = fe_expect_name(P);
      FeEntry *e = fe_scope_find(P, v->sym);
      if (!e || e->kind != SYM_TVAR || !e->loop_extent)
        fe_fail(P, v, "T.axis.remap needs an enclosing loop variable; '%s' is not one", v->sym);
      var = e->tvar, min = e->loop_min, extent = e->loop_extent;
    }
    IrIterVar *iv = fe_vec_push(P, &c->iters, sizeof(IrIterVar));
    iv->var = ir_prim_var(P->ctx, names[i]->sym, var->dtype);
    iv->dom.min = min;
    iv->dom.extent = extent;
    iv->kind = k == 'S' ? IR_ITER_SPATIAL : IR_ITER_REDUCE;
    iv->binding = var;
  }
  if (!all || all->kind != SYM_LOOPS) {
    fe_accept_op(P, ",");
    fe_expect_op(P, "]");
  }
  fe_expect_op(P, ")");
  for (int i = 0; i < n; i++)
    fe_scope_add(P, names[i]->sym, SYM_TVAR)->tvar = ((IrIterVar *)c->iters.data)[c->iters.len - n + i].var;
}

/* A buffer region: A[i, a:b], or a bare A (the whole buffer). */
static void
region(Parser *P, FeVec *out)
{
  const Tok *name = fe_expect_name(P);
  FeEntry *e = fe_scope_find(P, name->sym);
  if (!e || e->kind != SYM_BUFFER)
    fe_fail(P, name, "'%s' is not a buffer", name->sym);
  IrBufferRegion *r = fe_vec_push(P, out, sizeof(IrBufferRegion));
  r->buffer = e->buffer;
  FeVec ranges = {0};
  if (fe_accept_op(P, "[")) {
    fe_accept_empty_index(P);
    while (!fe_is_op(fe_peek(P), "]")) {
      TExpr lo = fe_texpr(P);
      IrRange *rg = fe_vec_push(P, &ranges, sizeof(IrRange));
      if (fe_accept_op(P, ":")) {
        *rg = range_of(P, lo, fe_texpr(P));
      } else {
        rg->min = fe_prim_as(P, lo, P->int_default);
        rg->extent = ir_prim_int(P->ctx, rg->min->dtype, 1);
      }
      if (!fe_accept_op(P, ","))
        break;
    }
    fe_expect_op(P, "]");
  } else {
    for (int i = 0; i < e->buffer->ndim; i++) {
      IrRange *rg = fe_vec_push(P, &ranges, sizeof(IrRange));
      rg->extent = e->buffer->shape[i];
      rg->min = ir_prim_int(P->ctx, rg->extent->dtype, 0);
    }
  }
  r->ranges = ranges.data;
  r->n = ranges.len;
}

/* T.reads(...) / T.writes(...): regions, also given as one list. */
static void
access(Parser *P, Tir *c, bool writes, const Tok *at)
{
  if (!c->block)
    fe_fail(P, at, "%s is only allowed directly inside a block", writes ? "T.writes" : "T.reads");
  fe_expect_op(P, "(");
  bool list = fe_accept_op(P, "[");
  while (!fe_is_op(fe_peek(P), list ? "]" : ")")) {
    region(P, writes ? &c->writes : &c->reads);
    if (!fe_accept_op(P, ","))
      break;
  }
  if (list)
    fe_expect_op(P, "]");
  fe_expect_op(P, ")");
  c->block->has_access = true;
}

/* --- statements ------------------------------------------------------- */

/* m, n = T.int64(), T.int64(): new symbolic vars. */
static void
declarations(Parser *P, const Tok **names, int n)
{
  for (int i = 0; i < n; i++) {
    if (i > 0)
      fe_expect_op(P, ",");
    fe_expect_name(P);
    fe_expect_op(P, ".");
    const Tok *dt_tok = fe_expect_name(P);
    IrDType dt;
    if (!ir_dtype_parse(dt_tok->sym, strlen(dt_tok->sym), &dt) || dt.code == IR_DT_VOID)
      fe_fail(P, dt_tok, "expected a dtype such as T.int64() but found 'T.%s'", dt_tok->sym);
    fe_expect_op(P, "(");
    fe_expect_op(P, ")");
    FeEntry *e = fe_scope_find(P, names[i]->sym);
    if (e && e->kind == SYM_TVAR && e->sig_dim) {
      e->tvar->dtype = dt; /* a quoted dim of a buffer parameter, declared */
      continue;
    }
    fe_scope_add(P, names[i]->sym, SYM_TVAR)->tvar = ir_prim_var(P->ctx, names[i]->sym, dt);
  }
}

/* A = T.match_buffer(a, shape, dtype): the buffer of handle parameter a. */
static void
match_buffer(Parser *P, Tir *c, const Tok *name)
{
  fe_expect_op(P, "(");
  const Tok *h = fe_expect_name(P);
  FeEntry *e = fe_scope_find(P, h->sym);
  IrPrimParam *param = NULL;
  for (int i = 0; e && e->kind == SYM_TVAR && i < c->fn->nparams; i++)
    if (c->fn->params[i].var == e->tvar)
      param = &c->fn->params[i];
  if (!param || param->var->dtype.code != IR_DT_HANDLE)
    fe_fail(P, h, "T.match_buffer needs a T.handle parameter; '%s' is not one", h->sym);
  if (param->buffer)
    fe_fail(P, h, "parameter '%s' already has a buffer", h->sym);
  fe_expect_op(P, ",");
  param->buffer = new_buffer(P, name);
  buffer_args(P, param->buffer, NULL);
}

/* x[: T.int32] = value: a let over the rest of the list. */
static IrStmt *
let(Parser *P, const Tok *name, bool annotated, IrDType t)
{
  TExpr v = fe_texpr(P);
  IrStmt *s = ir_stmt_new(P->ctx, IR_ST_LET, fe_loc(P, name));
  s->u.let.value = annotated ? fe_prim_as(P, v, t) : v.e;
  s->u.let.var = ir_prim_var(P->ctx, name->sym, annotated ? t : s->u.let.value->dtype);
  fe_scope_add(P, name->sym, SYM_TVAR)->tvar = s->u.let.var;
  return s;
}

/* Statements that start with "NAME [, NAME]* [: type] =". */
static IrStmt *
assignment(Parser *P, Tir *c, bool *binder)
{
  const Tok *names[64];
  int n = 0;
  do {
    if (n == 64)
      fe_fail(P, fe_peek(P), "too many names on the left");
    names[n++] = fe_expect_name(P);
  } while (fe_accept_op(P, ","));
  bool annotated = false;
  IrDType t = IR_VOID;
  if (n == 1 && fe_accept_op(P, ":")) {
    fe_expect_name(P);
    fe_expect_op(P, ".");
    const Tok *dt = fe_expect_name(P);
    bool let_form = fe_is_name(dt, "let") && fe_accept_op(P, "["); /* v: T.let[T.float32] */
    if (let_form) {
      fe_expect_name(P);
      fe_expect_op(P, ".");
      dt = fe_expect_name(P);
    }
    if (!ir_dtype_parse(dt->sym, strlen(dt->sym), &t))
      fe_fail(P, dt, "unknown dtype 'T.%s'", dt->sym);
    if (let_form)
      fe_expect_op(P, "]");
    annotated = true;
  }
  fe_expect_op(P, "=");
  const Tok *rhs = fe_peek(P);
  if (fe_is_name(rhs, "T") && fe_is_op(fe_peek_at(P, 3), "(") && fe_is_op(fe_peek_at(P, 4), ")")) {
    declarations(P, names, n);
    return NULL;
  }
  const char *f = NULL;
  int save = P->pos;
  if (fe_is_name(rhs, "T"))
    f = fe_dotted(P, NULL);
  if (f && strcmp(f, "T.axis.remap") == 0) {
    remap(P, c, names, n);
    return NULL;
  }
  if (n > 1)
    fe_fail(P, names[1], "only T.axis.remap and declarations assign several names");
  if (f && strncmp(f, "T.axis.", 7) == 0) {
    axis(P, c, names[0], f, rhs);
    return NULL;
  }
  if (f && strcmp(f, "T.match_buffer") == 0) {
    match_buffer(P, c, names[0]);
    return NULL;
  }
  if (f && strcmp(f, "T.decl_buffer") == 0) {
    fe_expect_op(P, "(");
    IrStmt *s = ir_stmt_new(P->ctx, IR_ST_DECL, fe_loc(P, names[0]));
    s->u.decl.buffer = new_buffer(P, names[0]);
    buffer_args(P, s->u.decl.buffer, &s->u.decl.source);
    if (!s->u.decl.source)
      fe_fail(P, rhs, "T.decl_buffer needs data=B.data (a new buffer is T.alloc_buffer)");
    *binder = true;
    return s;
  }
  FeEntry *src = rhs->kind == TK_NAME ? fe_scope_find(P, rhs->sym) : NULL;
  if (!f && src && src->kind == SYM_BUFFER && fe_is_op(fe_peek_at(P, 1), ".") &&
      fe_is_name(fe_peek_at(P, 2), "view")) {
    P->pos += 3;
    *binder = true;
    return view(P, names[0], src->buffer);
  }
  if (f && (strcmp(f, "T.alloc_buffer") == 0 || strcmp(f, "T.sblock_alloc_buffer") == 0)) {
    fe_expect_op(P, "(");
    IrBuffer *buf = new_buffer(P, names[0]);
    buffer_args(P, buf, NULL);
    if (c->block) {
      fe_vec_ptr(P, &c->allocs, buf);
      return NULL;
    }
    IrStmt *s = ir_stmt_new(P->ctx, IR_ST_ALLOC, fe_loc(P, names[0]));
    s->u.alloc.buffer = buf;
    *binder = true;
    return s;
  }
  P->pos = save;
  *binder = true;
  return let(P, names[0], annotated, t);
}

/* A[i, j] = value */
static IrStmt *
store(Parser *P)
{
  const Tok *name = fe_expect_name(P);
  FeEntry *e = fe_scope_find(P, name->sym);
  if (!e || e->kind != SYM_BUFFER) {
    fe_error(P, name, e ? "'%s' is not a buffer" : "name '%s' is not defined", name->sym);
    e = NULL;
  }
  IrStmt *s = ir_stmt_new(P->ctx, IR_ST_STORE, fe_loc(P, name));
  FeVec idx = {0};
  fe_expect_op(P, "[");
  fe_accept_empty_index(P);
  while (!fe_is_op(fe_peek(P), "]")) {
    fe_vec_ptr(P, &idx, fe_prim_as(P, fe_texpr(P), P->int_default));
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, "]");
  IrBuffer *buf = e ? e->buffer : NULL;
  /* A[i] += v is A[i] = A[i] + v (also -=, *=) */
  static const struct {
    const char *tok;
    IrPrimKind kind;
  } augmented[] = {{"+=", IR_PE_ADD}, {"-=", IR_PE_SUB}, {"*=", IR_PE_MUL}};
  const Tok *op = fe_peek(P);
  size_t k = 0;
  while (k < 3 && !fe_is_op(op, augmented[k].tok))
    k++;
  if (k == 3)
    fe_expect_op(P, "=");
  else
    fe_next(P);
  TExpr v = fe_texpr(P);
  if (k < 3 && buf) {
    TExpr old = {ir_prim_load(P->ctx, buf, (IrPrimExpr **)idx.data, idx.len), false, 0};
    v = fe_texpr_bin(P, augmented[k].kind, old, v);
  }
  if (buf && idx.len != buf->ndim)
    fe_error(P, name, "buffer '%s' has %d dimension%s but is indexed with %d", buf->name,
             buf->ndim, buf->ndim == 1 ? "" : "s", idx.len);
  s->u.store.buffer = buf;
  s->u.store.indices = idx.data;
  s->u.store.n = idx.len;
  s->u.store.value = buf ? fe_prim_as(P, v, buf->dtype) : v.e;
  return s;
}

static IrStmt *
if_statement(Parser *P, Tir *c)
{
  const Tok *at = fe_next(P);
  IrStmt *s = ir_stmt_new(P->ctx, IR_ST_IF, fe_loc(P, at));
  s->u.branch.cond = fe_prim(P);
  fe_expect_op(P, ":");
  s->u.branch.then_ = body_block(P, c, NULL);
  if (fe_is_name(fe_peek(P), "elif")) {
    s->u.branch.else_ = if_statement(P, c);
  } else if (fe_is_name(fe_peek(P), "else")) {
    fe_next(P);
    fe_expect_op(P, ":");
    s->u.branch.else_ = body_block(P, c, NULL);
  }
  return s;
}

/* A string of an assert's message: "text". */
static IrSym
message_part(Parser *P)
{
  return fe_expect_kind(P, TK_STR, "a message string")->sym;
}

/* assert cond, "msg" or assert cond, ("Kind", ["part", ...]); TVM v0.26
 * prints the second, and reads the first as ("RuntimeError", ["msg"]). */
static IrStmt *
assert_statement(Parser *P)
{
  const Tok *at = fe_next(P);
  IrStmt *s = ir_stmt_new(P->ctx, IR_ST_ASSERT, fe_loc(P, at));
  const Tok *cond_at = fe_peek(P);
  s->u.check.cond = fe_prim(P);
  if (s->u.check.cond->dtype.code != IR_DT_BOOL) {
    char t[32];
    fe_fail(P, cond_at, "assert needs a bool condition but this one is %s",
            ir_dtype_str(s->u.check.cond->dtype, t));
  }
  fe_expect_op(P, ",");
  s->u.check.kind = ir_sym(P->ctx, "RuntimeError");
  if (fe_peek(P)->kind == TK_STR) {
    s->u.check.parts = ir_alloc(P->ctx, sizeof(IrSym));
    s->u.check.parts[0] = message_part(P);
    s->u.check.nparts = 1;
    return s;
  }
  if (!fe_accept_op(P, "(")) {
    char found[48];
    fe_describe(fe_peek(P), found, sizeof found);
    fe_fail(P, fe_peek(P), "expected an assert message, \"text\" or (\"Kind\", [\"text\"]), but "
            "found %s", found);
  }
  s->u.check.kind = fe_expect_kind(P, TK_STR, "an error kind string such as \"RuntimeError\"")->sym;
  fe_expect_op(P, ",");
  const char *close = ")"; /* the parts: a list, or a tuple (Python reads both) */
  if (!fe_accept_op(P, "(")) {
    fe_expect_op(P, "[");
    close = "]";
  }
  FeVec parts = {0};
  while (!fe_is_op(fe_peek(P), close)) {
    *(IrSym *)fe_vec_push(P, &parts, sizeof(IrSym)) = message_part(P);
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, close);
  fe_expect_op(P, ")");
  s->u.check.parts = parts.data;
  s->u.check.nparts = parts.len;
  return s;
}

/* T.func_attr, T.reads/T.writes, T.block_attr, T.evaluate, or a call
 * evaluated for its effect.  Returns NULL for header items. */
static IrStmt *
t_statement(Parser *P, Tir *c)
{
  const Tok *at = fe_peek(P);
  int save = P->pos;
  const char *f = fe_dotted(P, NULL);
  if (strcmp(f, "T.func_attr") == 0 || strcmp(f, "T.block_attr") == 0 ||
      strcmp(f, "T.sblock_attr") == 0) {
    fe_expect_op(P, "(");
    IrAttr *attrs = fe_attr_dict(P);
    fe_expect_op(P, ")");
    if (f[2] == 'f')
      c->fn->attrs = attrs;
    else if (!c->block)
      fe_fail(P, at, "%s is only allowed directly inside a block", f);
    else
      c->block->attrs = attrs;
    return NULL;
  }
  if (strcmp(f, "T.reads") == 0 || strcmp(f, "T.writes") == 0) {
    access(P, c, f[2] == 'w', at);
    return NULL;
  }
  IrStmt *s = ir_stmt_new(P->ctx, IR_ST_EVALUATE, fe_loc(P, at));
  if (strcmp(f, "T.evaluate") == 0) {
    fe_expect_op(P, "(");
    s->u.eval = fe_prim(P);
    fe_expect_op(P, ")");
  } else {
    P->pos = save;
    s->u.eval = fe_prim(P);
  }
  return s;
}

/* One statement; *binder is set for a let or alloc over the rest. */
static IrStmt *
statement(Parser *P, Tir *c, bool *binder)
{
  fe_check_line(P);
  const Tok *t = fe_peek(P);
  *binder = false;
  if (fe_is_name(t, "for"))
    return for_loop(P, c);
  if (fe_is_name(t, "with"))
    return with_statement(P, c);
  if (fe_is_name(t, "if"))
    return if_statement(P, c);
  IrStmt *s = NULL;
  if (fe_is_name(t, "pass") || t->kind == TK_STR) { /* a docstring is a no-op too */
    fe_next(P);
  } else if (fe_is_name(t, "assert")) {
    s = assert_statement(P);
  } else if (fe_is_name(t, "T") && fe_is_op(fe_peek_at(P, 1), ".")) {
    s = t_statement(P, c);
  } else if (t->kind == TK_NAME && fe_is_op(fe_peek_at(P, 1), "[")) {
    s = store(P);
  } else if (t->kind == TK_NAME && (fe_is_op(fe_peek_at(P, 1), "=") ||
                                    fe_is_op(fe_peek_at(P, 1), ",") ||
                                    fe_is_op(fe_peek_at(P, 1), ":"))) {
    s = assignment(P, c, binder);
  } else {
    char found[48];
    fe_describe(t, found, sizeof found);
    fe_fail(P, t, "expected a TIR statement but found %s", found);
  }
  fe_expect_newline(P);
  return s;
}

/* NEWLINE INDENT statements DEDENT.  With block set, the list is that
 * block's own: its header items fill the block. */
static IrStmt *
body_block(Parser *P, Tir *outer, IrTirBlock *block)
{
  fe_expect_newline(P);
  const Tok *start = fe_expect_kind(P, TK_INDENT, "an indented block");
  Tir c = {outer->fn, block, {0}, {0}, {0}, {0}};
  FeVec items = {0};
  int mark = P->scope.len;
  fe_enter(P);
  while (fe_peek(P)->kind != TK_DEDENT) {
    bool binder;
    IrStmt *s = statement(P, &c, &binder);
    if (s) {
      Item *it = fe_vec_push(P, &items, sizeof(Item));
      it->stmt = s;
      it->binder = binder;
    }
  }
  fe_next(P);
  fe_leave(P);
  fe_scope_pop(P, mark);
  if (block) {
    block->iters = c.iters.data;
    block->niters = c.iters.len;
    block->reads = c.reads.data;
    block->nreads = c.reads.len;
    block->writes = c.writes.data;
    block->nwrites = c.writes.len;
    block->allocs = c.allocs.data;
    block->nallocs = c.allocs.len;
  }
  return build_list(P, items.data, items.len, fe_loc(P, start));
}

/* --- the function ------------------------------------------------------- */

static void
param(Parser *P, FeVec *params)
{
  const Tok *name = fe_expect_name(P);
  fe_expect_op(P, ":");
  const Tok *at;
  const char *type = fe_dotted(P, &at);
  IrPrimParam *p = fe_vec_push(P, params, sizeof(IrPrimParam));
  IrDType dt;
  if (strcmp(type, "T.Buffer") == 0) {
    fe_expect_op(P, "(");
    p->var = ir_prim_var(P->ctx, name->sym, IR_HANDLE);
    p->buffer = new_buffer(P, name);
    P->define_symvars = true; /* v0.26: ("n", 4) with `n = T.int64()` in the body */
    buffer_args(P, p->buffer, NULL);
    P->define_symvars = false;
  } else if (strncmp(type, "T.", 2) == 0 && ir_dtype_parse(type + 2, strlen(type + 2), &dt) &&
             dt.code != IR_DT_VOID) {
    FeEntry *e = fe_scope_find(P, name->sym);
    if (e && e->kind == SYM_TVAR && e->sig_dim) { /* ("n",) before n: T.int64: one var */
      e->tvar->dtype = dt;
      e->sig_dim = false;
      p->var = e->tvar;
      return;
    }
    p->var = ir_prim_var(P->ctx, name->sym, dt);
    fe_scope_add(P, name->sym, SYM_TVAR)->tvar = p->var;
  } else {
    fe_fail(P, at, "expected T.Buffer, T.handle or a scalar type but found '%s'", type);
  }
}

IrPrimFunc *
fe_prim_func(Parser *P, bool is_private, const Tok *at, IrSym *name)
{
  const Tok *def = fe_expect_name(P);
  if (!fe_is_name(def, "def"))
    fe_fail(P, def, "expected 'def' but found '%s'", def->sym);
  *name = fe_expect_name(P)->sym;
  IrPrimFunc *f = ir_alloc(P->ctx, sizeof *f);
  f->is_private = is_private;
  f->loc = fe_loc(P, at);
  int mark = P->scope.len;
  IrDType saved = P->int_default;
  P->int_default = IR_I32;
  FeVec params = {0};
  fe_expect_op(P, "(");
  while (!fe_is_op(fe_peek(P), ")")) {
    param(P, &params);
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, ")");
  f->params = params.data;
  f->nparams = params.len;
  if (fe_accept_op(P, "->")) {
    const Tok *none = fe_expect_name(P);
    if (!fe_is_name(none, "None"))
      fe_fail(P, none, "a prim_func returns None");
  }
  fe_expect_op(P, ":");
  Tir c = {f, NULL, {0}, {0}, {0}, {0}};
  f->body = body_block(P, &c, NULL);
  fe_scope_pop(P, mark);
  P->int_default = saved;
  return f;
}
