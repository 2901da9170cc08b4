/*
 * equal_tir.c - structural equality and hashing of the loop level: scalar
 * expressions (also the symbolic dims of struct info), buffers, statements
 * and prim_funcs.
 *
 * TIR vars (loop vars, block iterators, let vars, params, symbolic dims) and
 * buffers are bound objects: they match by the walker's bijection, defined at
 * their first meeting, whether that is a declaration or a use (symbolic dims
 * have no declaration node).  A buffer's details are compared at its first
 * meeting; its name never is.
 */
#include <inttypes.h>
#include <string.h>

#include "equal_int.h"

static const char *const prim_kind_names[] = {
    [IR_PE_INT] = "int",        [IR_PE_FLOAT] = "float", [IR_PE_STR] = "str",
    [IR_PE_VAR] = "var",        [IR_PE_LOAD] = "load",   [IR_PE_ADD] = "+",
    [IR_PE_SUB] = "-",          [IR_PE_MUL] = "*",       [IR_PE_DIV] = "T.Div",
    [IR_PE_MOD] = "T.truncmod", [IR_PE_FLOORDIV] = "//", [IR_PE_FLOORMOD] = "%",
    [IR_PE_MIN] = "T.min",      [IR_PE_MAX] = "T.max",   [IR_PE_EQ] = "==",
    [IR_PE_NE] = "!=",          [IR_PE_LT] = "<",        [IR_PE_LE] = "<=",
    [IR_PE_GT] = ">",           [IR_PE_GE] = ">=",       [IR_PE_AND] = "and",
    [IR_PE_OR] = "or",          [IR_PE_NOT] = "not",     [IR_PE_SELECT] = "T.Select",
    [IR_PE_CAST] = "T.Cast",    [IR_PE_CALL] = "call",
};

static bool
is_infix(IrPrimKind k)
{
  return (k >= IR_PE_ADD && k <= IR_PE_MUL) || (k >= IR_PE_FLOORDIV && k <= IR_PE_FLOORMOD) ||
         (k >= IR_PE_EQ && k <= IR_PE_OR);
}

static void write_prim(const IrPrimExpr *e, IrBuf *out, int depth);

/* Comma-separated expressions. */
static void
write_prims(IrPrimExpr *const *items, int n, IrBuf *out, int depth)
{
  for (int i = 0; i < n; i++) {
    if (i)
      ir_buf_puts(out, ", ");
    write_prim(items[i], out, depth);
  }
}

/* Compact text of a scalar expression for messages (not TVMScript: no
 * dtype suffixes, parentheses around every nested infix operation); cut to
 * "..." below a few levels.  Independent of the printer so messages are
 * stable. */
static void
write_prim(const IrPrimExpr *e, IrBuf *out, int depth)
{
  char buf[32];
  if (!e || depth > 4) {
    ir_buf_puts(out, e ? "..." : "none");
    return;
  }
  bool paren = depth > 0 && (is_infix(e->kind) || e->kind == IR_PE_NOT);
  if (paren)
    ir_buf_puts(out, "(");
  if (e->kind == IR_PE_INT) {
    ir_buf_printf(out, "%" PRId64, e->u.int_value);
  } else if (e->kind == IR_PE_FLOAT) {
    ir_buf_printf(out, "%.17g", e->u.float_value);
  } else if (e->kind == IR_PE_STR) {
    ir_buf_printf(out, "\"%s\"", e->u.str);
  } else if (e->kind == IR_PE_VAR) {
    ir_buf_puts(out, e->u.var ? e->u.var : "?");
  } else if (e->kind == IR_PE_LOAD) {
    ir_buf_printf(out, "%s[", e->u.load.buffer->name ? e->u.load.buffer->name : "?");
    write_prims(e->u.load.indices, e->u.load.n, out, depth + 1);
    ir_buf_puts(out, "]");
  } else if (is_infix(e->kind)) {
    write_prim(e->u.bin.a, out, depth + 1);
    ir_buf_printf(out, " %s ", prim_kind_names[e->kind]);
    write_prim(e->u.bin.b, out, depth + 1);
  } else if (e->kind == IR_PE_NOT) {
    ir_buf_puts(out, "not ");
    write_prim(e->u.bin.a, out, depth + 1);
  } else if (e->kind == IR_PE_CAST) {
    ir_buf_printf(out, "T.Cast(\"%s\", ", ir_dtype_str(e->dtype, buf));
    write_prim(e->u.bin.a, out, depth + 1);
    ir_buf_puts(out, ")");
  } else if (e->kind == IR_PE_SELECT) {
    IrPrimExpr *items[3] = {e->u.select.cond, e->u.select.a, e->u.select.b};
    ir_buf_puts(out, "T.Select(");
    write_prims(items, 3, out, depth + 1);
    ir_buf_puts(out, ")");
  } else if (e->kind == IR_PE_CALL) {
    ir_buf_printf(out, "%s(", e->u.call.op ? e->u.call.op : "?");
    write_prims(e->u.call.args, e->u.call.n, out, depth + 1);
    ir_buf_puts(out, ")");
  } else { /* T.min, T.max, T.truncmod, T.Div */
    IrPrimExpr *items[2] = {e->u.bin.a, e->u.bin.b};
    ir_buf_printf(out, "%s(", prim_kind_names[e->kind]);
    write_prims(items, 2, out, depth + 1);
    ir_buf_puts(out, ")");
  }
  if (paren)
    ir_buf_puts(out, ")");
}

/* A short description for messages: "var 'n'" for a var, else its text. */
void
ir_describe_prim(const IrPrimExpr *e, IrBuf *out)
{
  if (e && e->kind == IR_PE_VAR)
    ir_buf_printf(out, "var '%s'", e->u.var ? e->u.var : "?");
  else
    write_prim(e, out, 0);
}

static bool
prim_differs(Walk *w, const IrPrimExpr *a, const IrPrimExpr *b)
{
  IrBuf da = {0}, db = {0};
  if (!w->why) /* nobody asked why: describing both cost the JIT of
                * convnext_tiny 1.5 s of its 1.75 (FuseTIR's comparisons) */
    return false;
  ir_describe_prim(a, &da);
  ir_describe_prim(b, &db);
  ir_mismatch(w, "%s vs %s", da.data, db.data);
  ir_buf_free(&da);
  ir_buf_free(&db);
  return false;
}

static bool walk_buffer_use(Walk *w, const IrBuffer *a, const IrBuffer *b);

/* An operand of a, under the frame "<role> of <op>". */
static bool
walk_operand(Walk *w, const IrPrimExpr *op, const char *role, const IrPrimExpr *a,
             const IrPrimExpr *b)
{
  size_t saved = ir_path_push(w, "%s of %s", role, prim_kind_names[op->kind]);
  if (!ir_walk_prim(w, a, b))
    return false;
  ir_path_pop(w, saved);
  return true;
}

/* A scalar expression; NULL only equals NULL. */
bool
ir_walk_prim(Walk *w, const IrPrimExpr *a, const IrPrimExpr *b)
{
  if (!a || !b) {
    ir_walk_mix(w, 0x9u);
    return a == b || prim_differs(w, a, b);
  }
  if (w->mode == WALK_EQUAL && a->kind != b->kind)
    return prim_differs(w, a, b);
  ir_walk_mix(w, a->kind);
  if (!ir_same_dtype(w, a->dtype, b->dtype, "dtype"))
    return false;
  switch (a->kind) {
  case IR_PE_INT:
    return ir_same_int(w, a->u.int_value, b->u.int_value, NULL);
  case IR_PE_FLOAT:
    return ir_same_double(w, a->u.float_value, b->u.float_value, NULL);
  case IR_PE_STR:
    return ir_same_str(w, a->u.str, b->u.str, NULL);
  case IR_PE_VAR:
    /* the dtype, compared above, is all a TIR var carries besides its name */
    return ir_walk_bind(w, a, b) != BIND_BAD || prim_differs(w, a, b);
  case IR_PE_LOAD:
    return walk_buffer_use(w, a->u.load.buffer, b->u.load.buffer) &&
           ir_same_count(w, a->u.load.n, b->u.load.n, "indices") &&
           ir_walk_prims(w, a->u.load.indices, b->u.load.indices, a->u.load.n, "index %d");
  case IR_PE_SELECT:
    return walk_operand(w, a, "condition", a->u.select.cond, b->u.select.cond) &&
           walk_operand(w, a, "true value", a->u.select.a, b->u.select.a) &&
           walk_operand(w, a, "false value", a->u.select.b, b->u.select.b);
  case IR_PE_CALL:
    return ir_same_str(w, a->u.call.op, b->u.call.op, "op") &&
           ir_same_count(w, a->u.call.n, b->u.call.n, "arguments") &&
           ir_walk_prims(w, a->u.call.args, b->u.call.args, a->u.call.n, "arg %d");
  default: /* binary kinds, NOT and CAST (b NULL) */
    return walk_operand(w, a, a->u.bin.b ? "lhs" : "operand", a->u.bin.a, b->u.bin.a) &&
           walk_operand(w, a, "rhs", a->u.bin.b, b->u.bin.b);
  }
}

/* n scalar expressions, each under the frame label (with %d for the index);
 * the caller has compared the counts. */
bool
ir_walk_prims(Walk *w, IrPrimExpr *const *a, IrPrimExpr *const *b, int n, const char *label)
{
  for (int i = 0; i < n; i++) {
    size_t saved = ir_path_push(w, label, i);
    if (!ir_walk_prim(w, a[i], b[i]))
      return false;
    ir_path_pop(w, saved);
  }
  return true;
}

/* A scalar expression under the frame what. */
static bool
walk_prim_at(Walk *w, const IrPrimExpr *a, const IrPrimExpr *b, const char *what)
{
  size_t saved = ir_path_push(w, "%s", what);
  if (!ir_walk_prim(w, a, b))
    return false;
  ir_path_pop(w, saved);
  return true;
}

static const char *
scope_of(const IrBuffer *buf)
{
  return buf->scope ? buf->scope : "global";
}

/* The details of a buffer met for the first time. */
static bool
walk_buffer_details(Walk *w, const IrBuffer *a, const IrBuffer *b)
{
  return ir_same_dtype(w, a->dtype, b->dtype, "dtype") &&
         ir_same_count(w, a->ndim, b->ndim, "ndim") &&
         ir_walk_prims(w, a->shape, b->shape, a->ndim, "dim %d") &&
         ir_same_str(w, scope_of(a), scope_of(b), "scope") &&
         ir_same_int(w, a->align, b->align, "align") &&
         ir_same_int(w, a->offset_factor, b->offset_factor, "offset_factor");
}

/* A buffer, at its declaration or a use: bound by the bijection, its
 * details compared at the first meeting. */
static bool
walk_buffer_use(Walk *w, const IrBuffer *a, const IrBuffer *b)
{
  const char *na = a->name ? a->name : "?", *nb = b->name ? b->name : "?";
  switch (ir_walk_bind(w, a, b)) {
  case BIND_SAME:
    return true;
  case BIND_BAD:
    return ir_mismatch(w, "buffer '%s' vs buffer '%s'%s", na, nb,
                       strcmp(na, nb) == 0 ? " (different buffers)" : "");
  case BIND_NEW:
    break;
  }
  size_t saved = ir_path_push(w, "buffer '%s'", na);
  if (!walk_buffer_details(w, a, b))
    return false;
  ir_path_pop(w, saved);
  return true;
}

static bool
walk_range(Walk *w, const IrRange *a, const IrRange *b)
{
  return walk_prim_at(w, a->min, b->min, "min") && walk_prim_at(w, a->extent, b->extent, "extent");
}

static bool
walk_regions(Walk *w, const IrBufferRegion *a, const IrBufferRegion *b, int n, const char *label)
{
  for (int i = 0; i < n; i++) {
    size_t saved = ir_path_push(w, "%s %d", label, i);
    if (!walk_buffer_use(w, a[i].buffer, b[i].buffer) ||
        !ir_same_count(w, a[i].n, b[i].n, "dimensions"))
      return false;
    for (int j = 0; j < a[i].n; j++) {
      size_t inner = ir_path_push(w, "dim %d", j);
      if (!walk_range(w, &a[i].ranges[j], &b[i].ranges[j]))
        return false;
      ir_path_pop(w, inner);
    }
    ir_path_pop(w, saved);
  }
  return true;
}

static const char *const stmt_kind_names[] = {
    [IR_ST_SEQ] = "statement list",
    [IR_ST_FOR] = "for",
    [IR_ST_BLOCK] = "block",
    [IR_ST_STORE] = "store",
    [IR_ST_LET] = "let",
    [IR_ST_IF] = "if",
    [IR_ST_EVALUATE] = "evaluate",
    [IR_ST_ALLOC] = "alloc_buffer",
    [IR_ST_ASSERT] = "assert",
    [IR_ST_DECL] = "decl_buffer",
};

static bool walk_stmt(Walk *w, const IrStmt *a, const IrStmt *b);

/* A statement under the frame what. */
static bool
walk_stmt_at(Walk *w, const IrStmt *a, const IrStmt *b, const char *what)
{
  size_t saved = ir_path_push(w, "%s", what);
  if (!walk_stmt(w, a, b))
    return false;
  ir_path_pop(w, saved);
  return true;
}

static const char *const iter_kind_names[] = {
    [IR_ITER_SPATIAL] = "spatial",
    [IR_ITER_REDUCE] = "reduce",
    [IR_ITER_SCAN] = "scan",
    [IR_ITER_OPAQUE] = "opaque",
};

static bool
walk_iter_vars(Walk *w, const IrTirBlock *a, const IrTirBlock *b)
{
  if (!ir_same_count(w, a->niters, b->niters, "iterators"))
    return false;
  for (int i = 0; i < a->niters; i++) {
    const IrIterVar *ia = &a->iters[i], *ib = &b->iters[i];
    size_t saved = ir_path_push(w, "iterator %d", i);
    if (w->mode == WALK_EQUAL && ia->kind != ib->kind)
      return ir_mismatch(w, "%s vs %s", iter_kind_names[ia->kind], iter_kind_names[ib->kind]);
    ir_walk_mix(w, ia->kind);
    if (!walk_prim_at(w, ia->dom.min, ib->dom.min, "domain min") ||
        !walk_prim_at(w, ia->dom.extent, ib->dom.extent, "domain extent") ||
        !walk_prim_at(w, ia->binding, ib->binding, "binding") || !ir_walk_prim(w, ia->var, ib->var))
      return false;
    ir_path_pop(w, saved);
  }
  return true;
}

static bool
walk_block(Walk *w, const IrTirBlock *a, const IrTirBlock *b)
{
  if (!ir_same_str(w, a->name, b->name, "block name") || !walk_iter_vars(w, a, b) ||
      !ir_same_bool(w, a->has_access, b->has_access, "T.reads/T.writes", "given", "not given") ||
      !ir_same_count(w, a->nreads, b->nreads, "reads") ||
      !walk_regions(w, a->reads, b->reads, a->nreads, "read") ||
      !ir_same_count(w, a->nwrites, b->nwrites, "writes") ||
      !walk_regions(w, a->writes, b->writes, a->nwrites, "write") ||
      !ir_same_count(w, a->nallocs, b->nallocs, "alloc_buffers"))
    return false;
  for (int i = 0; i < a->nallocs; i++)
    if (!walk_buffer_use(w, a->allocs[i], b->allocs[i]))
      return false;
  return ir_walk_attr_dict(w, a->attrs, b->attrs, "block_attr") &&
         ir_same_presence(w, a->init, b->init, "init") &&
         (!a->init || walk_stmt_at(w, a->init, b->init, "init")) && walk_stmt(w, a->body, b->body);
}

static const char *const for_kind_names[] = {
    [IR_FOR_SERIAL] = "serial",
    [IR_FOR_PARALLEL] = "parallel",
    [IR_FOR_UNROLL] = "unroll",
    [IR_FOR_VECTORIZED] = "vectorized",
    [IR_FOR_THREAD_BINDING] = "thread_binding",
};

static bool
walk_loop(Walk *w, const IrStmt *a, const IrStmt *b)
{
  if (w->mode == WALK_EQUAL && a->u.loop.kind != b->u.loop.kind)
    return ir_mismatch(w, "%s vs %s", for_kind_names[a->u.loop.kind],
                       for_kind_names[b->u.loop.kind]);
  ir_walk_mix(w, a->u.loop.kind);
  if (a->u.loop.thread != b->u.loop.thread && w->mode == WALK_EQUAL)
    return ir_mismatch(w, "thread '%s' vs '%s'", a->u.loop.thread, b->u.loop.thread);
  if (a->u.loop.thread)
    ir_walk_mix_str(w, a->u.loop.thread);
  return walk_prim_at(w, a->u.loop.min, b->u.loop.min, "min") &&
         walk_prim_at(w, a->u.loop.extent, b->u.loop.extent, "extent") &&
         walk_prim_at(w, a->u.loop.var, b->u.loop.var, "loop var") &&
         ir_walk_attr_dict(w, a->u.loop.annotations, b->u.loop.annotations, "annotations") &&
         walk_stmt(w, a->u.loop.body, b->u.loop.body);
}

static const char *
name_or(const char *name)
{
  return name ? name : "?";
}

/* The kind-specific part of a statement, under a frame naming it. */
static bool
walk_stmt_kind(Walk *w, const IrStmt *a, const IrStmt *b)
{
  switch (a->kind) {
  case IR_ST_SEQ:
    if (!ir_same_count(w, a->u.seq.n, b->u.seq.n, "statements"))
      return false;
    for (int i = 0; i < a->u.seq.n; i++) {
      size_t saved = ir_path_push(w, "statement %d", i);
      if (!walk_stmt(w, a->u.seq.stmts[i], b->u.seq.stmts[i]))
        return false;
      ir_path_pop(w, saved);
    }
    return true;
  case IR_ST_FOR:
    return walk_loop(w, a, b);
  case IR_ST_BLOCK:
    return walk_block(w, a->u.block, b->u.block);
  case IR_ST_STORE:
    return walk_buffer_use(w, a->u.store.buffer, b->u.store.buffer) &&
           ir_same_count(w, a->u.store.n, b->u.store.n, "indices") &&
           ir_walk_prims(w, a->u.store.indices, b->u.store.indices, a->u.store.n, "index %d") &&
           walk_prim_at(w, a->u.store.value, b->u.store.value, "value");
  case IR_ST_LET:
    return walk_prim_at(w, a->u.let.value, b->u.let.value, "value") &&
           walk_prim_at(w, a->u.let.var, b->u.let.var, "var") &&
           walk_stmt(w, a->u.let.body, b->u.let.body);
  case IR_ST_IF:
    return walk_prim_at(w, a->u.branch.cond, b->u.branch.cond, "condition") &&
           walk_stmt_at(w, a->u.branch.then_, b->u.branch.then_, "then") &&
           ir_same_presence(w, a->u.branch.else_, b->u.branch.else_, "else") &&
           (!a->u.branch.else_ || walk_stmt_at(w, a->u.branch.else_, b->u.branch.else_, "else"));
  case IR_ST_EVALUATE:
    return ir_walk_prim(w, a->u.eval, b->u.eval);
  case IR_ST_ALLOC:
    return walk_buffer_use(w, a->u.alloc.buffer, b->u.alloc.buffer) &&
           walk_stmt(w, a->u.alloc.body, b->u.alloc.body);
  case IR_ST_ASSERT:
    if (!walk_prim_at(w, a->u.check.cond, b->u.check.cond, "condition") ||
        !ir_same_str(w, a->u.check.kind, b->u.check.kind, "error kind") ||
        !ir_same_count(w, a->u.check.nparts, b->u.check.nparts, "message parts"))
      return false;
    for (int i = 0; i < a->u.check.nparts; i++)
      if (!ir_same_str(w, a->u.check.parts[i], b->u.check.parts[i], "message part"))
        return false;
    return true;
  case IR_ST_DECL:
    return walk_buffer_use(w, a->u.decl.source, b->u.decl.source) &&
           walk_buffer_use(w, a->u.decl.buffer, b->u.decl.buffer) &&
           walk_stmt(w, a->u.decl.body, b->u.decl.body);
  }
  UNREACHABLE();
  return false;
}

/* A statement; NULL only equals NULL. */
static bool
walk_stmt(Walk *w, const IrStmt *a, const IrStmt *b)
{
  if (!a || !b) {
    ir_walk_mix(w, 0x57u);
    return a == b || ir_mismatch(w, "%s vs %s", a ? stmt_kind_names[a->kind] : "nothing",
                                 b ? stmt_kind_names[b->kind] : "nothing");
  }
  if (w->mode == WALK_EQUAL && a->kind != b->kind)
    return ir_mismatch(w, "%s vs %s", stmt_kind_names[a->kind], stmt_kind_names[b->kind]);
  ir_walk_mix(w, a->kind);
  size_t saved = 0;
  if (a->kind == IR_ST_SEQ)
    return walk_stmt_kind(w, a, b); /* its "statement i" frames suffice */
  if (a->kind == IR_ST_FOR)
    saved = ir_path_push(w, "for '%s'", a->u.loop.var ? name_or(a->u.loop.var->u.var) : "?");
  else if (a->kind == IR_ST_BLOCK)
    saved = ir_path_push(w, "block '%s'", name_or(a->u.block->name));
  else if (a->kind == IR_ST_LET)
    saved = ir_path_push(w, "let '%s'", a->u.let.var ? name_or(a->u.let.var->u.var) : "?");
  else
    saved = ir_path_push(w, "%s", stmt_kind_names[a->kind]);
  if (!walk_stmt_kind(w, a, b))
    return false;
  ir_path_pop(w, saved);
  return true;
}

/* A prim_func: params (var, then buffer), attributes, privacy, body. */
bool
ir_walk_prim_func(Walk *w, const IrPrimFunc *a, const IrPrimFunc *b)
{
  if (!ir_same_count(w, a->nparams, b->nparams, "parameters"))
    return false;
  for (int i = 0; i < a->nparams; i++) {
    const IrPrimParam *pa = &a->params[i], *pb = &b->params[i];
    size_t saved = ir_path_push(w, "param %d", i);
    if (!ir_walk_prim(w, pa->var, pb->var) ||
        !ir_same_presence(w, pa->buffer, pb->buffer, "buffer") ||
        (pa->buffer && !walk_buffer_use(w, pa->buffer, pb->buffer)))
      return false;
    ir_path_pop(w, saved);
  }
  return ir_walk_attr_dict(w, a->attrs, b->attrs, "attrs") &&
         ir_same_bool(w, a->is_private, b->is_private, "private", "private", "public") &&
         walk_stmt_at(w, a->body, b->body, "body");
}
