/*
 * print_tir.c - prints prim funcs and scalar expressions as TVMScript
 * (docs/text-format.md, section "Prim functions").
 *
 * Key ideas:
 *  - Scalar expressions print with Python's precedence and only the
 *    parentheses Python needs to read the same tree back (comparisons do not
 *    chain, so a comparison inside a comparison is parenthesized).
 *  - Literal spelling depends on the level: in TIR an int32 is bare and an
 *    int64 is T.int64(3); in Relax (shapes, R.prim_value) the reverse.
 *  - Perfectly nested serial loops collapse into one T.grid; a block uses
 *    T.axis.remap when every iterator is an enclosing loop var over the
 *    same range, so the printer keeps a stack of the enclosing loops.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "print_int.h"

static void stmt_list(Printer *p, const IrStmt *s, bool block_list);

/* --- scalar expressions ------------------------------------------------- */

enum { P_OR = 1, P_AND, P_NOT, P_CMP, P_ADD, P_MUL, P_UNARY, P_ATOM };

static bool
bare_int(const Printer *p, IrDType t)
{
  IrDType bare = p->tir ? IR_I32 : IR_I64;
  return ir_dtype_eq(t, bare);
}

static int
precedence(const Printer *p, const IrPrimExpr *e)
{
  switch (e->kind) {
  case IR_PE_OR:
    return P_OR;
  case IR_PE_AND:
    return P_AND;
  case IR_PE_NOT:
    return P_NOT;
  case IR_PE_EQ:
  case IR_PE_NE:
  case IR_PE_LT:
  case IR_PE_LE:
  case IR_PE_GT:
  case IR_PE_GE:
    return P_CMP;
  case IR_PE_ADD:
  case IR_PE_SUB:
    return P_ADD;
  case IR_PE_MUL:
  case IR_PE_DIV:
  case IR_PE_FLOORDIV:
  case IR_PE_FLOORMOD:
    return P_MUL;
  case IR_PE_INT:
    return bare_int(p, e->dtype) && e->u.int_value < 0 ? P_UNARY : P_ATOM;
  default:
    return P_ATOM;
  }
}

static const char *
infix(IrPrimKind k)
{
  switch (k) {
  case IR_PE_ADD:
    return " + ";
  case IR_PE_SUB:
    return " - ";
  case IR_PE_MUL:
    return " * ";
  case IR_PE_DIV:
    return " / ";
  case IR_PE_FLOORDIV:
    return " // ";
  case IR_PE_FLOORMOD:
    return " % ";
  case IR_PE_EQ:
    return " == ";
  case IR_PE_NE:
    return " != ";
  case IR_PE_LT:
    return " < ";
  case IR_PE_LE:
    return " <= ";
  case IR_PE_GT:
    return " > ";
  case IR_PE_GE:
    return " >= ";
  case IR_PE_AND:
    return " and ";
  case IR_PE_OR:
    return " or ";
  default:
    return NULL;
  }
}

/* Prints e, parenthesized when it binds less tightly than min_prec. */
static void
operand(Printer *p, const IrPrimExpr *e, int min_prec)
{
  bool paren = e && precedence(p, e) < min_prec;
  if (paren)
    ir_pr_puts(p, "(");
  ir_pr_prim(p, e);
  if (paren)
    ir_pr_puts(p, ")");
}

static void
literal_int(Printer *p, const IrPrimExpr *e)
{
  IrDType t = e->dtype;
  if (t.code == IR_DT_BOOL) {
    ir_pr_puts(p, e->u.int_value ? "T.bool(True)" : "T.bool(False)");
    return;
  }
  if (bare_int(p, t)) {
    ir_pr_printf(p, "%lld", (long long)e->u.int_value);
    return;
  }
  ir_pr_puts(p, "T.");
  ir_pr_dtype(p, t);
  if (t.code == IR_DT_UINT)
    ir_pr_printf(p, "(%llu)", (unsigned long long)e->u.int_value);
  else
    ir_pr_printf(p, "(%lld)", (long long)e->u.int_value);
}

/* T.float32(0.5): a float32 literal that holds a float value prints the
 * shortest text for that float, anything else the shortest for the double. */
static void
literal_float(Printer *p, const IrPrimExpr *e)
{
  double v = e->u.float_value;
  bool special = isnan(v) || isinf(v);
  bool single = e->dtype.code == IR_DT_FLOAT && e->dtype.bits == 32 && (double)(float)v == v;
  ir_pr_puts(p, "T.");
  ir_pr_dtype(p, e->dtype);
  ir_pr_puts(p, special ? "(\"" : "(");
  ir_pr_float_text(p->out, v, single);
  ir_pr_puts(p, special ? "\")" : ")");
}

static void
prim_args(Printer *p, IrPrimExpr *const *a, int n)
{
  for (int i = 0; i < n; i++) {
    ir_pr_puts(p, i ? ", " : "");
    ir_pr_prim(p, a[i]);
  }
}

/* A buffer's printed name; "None" for a missing buffer (ill-formed IR). */
static const char *
buffer_name(Printer *p, const IrBuffer *buf)
{
  return buf ? ir_pr_name(p, buf, buf->name) : "None";
}

static void
indices(Printer *p, const IrBuffer *buf, IrPrimExpr *const *idx, int n)
{
  ir_pr_puts(p, buffer_name(p, buf));
  ir_pr_puts(p, "[");
  if (n == 0)
    ir_pr_puts(p, "()");
  prim_args(p, idx, n);
  ir_pr_puts(p, "]");
}

static void
prim_call(Printer *p, const IrPrimExpr *e)
{
  const char *op = e->u.call.op ? e->u.call.op : "";
  if (strncmp(op, "tir.", 4) == 0)
    op += 4;
  ir_pr_printf(p, "T.%s(", op);
  if (ir_prim_is_call_extern(e)) { /* TVM's order: the result's dtype first */
    char dt[32];
    ir_pr_string(p, ir_dtype_str(e->dtype, dt));
    ir_pr_puts(p, e->u.call.n ? ", " : "");
  }
  prim_args(p, e->u.call.args, e->u.call.n);
  ir_pr_puts(p, ")");
}

static void
prim_function_form(Printer *p, const char *name, const IrPrimExpr *a, const IrPrimExpr *b)
{
  ir_pr_printf(p, "%s(", name);
  ir_pr_prim(p, a);
  ir_pr_puts(p, ", ");
  ir_pr_prim(p, b);
  ir_pr_puts(p, ")");
}

void
ir_pr_prim(Printer *p, const IrPrimExpr *e)
{
  if (!e) {
    ir_pr_puts(p, "None");
    return;
  }
  const char *op = infix(e->kind);
  if (op) {
    int prec = precedence(p, e);
    operand(p, e->u.bin.a, prec == P_CMP ? prec + 1 : prec);
    ir_pr_puts(p, op);
    operand(p, e->u.bin.b, prec + 1);
    return;
  }
  switch (e->kind) {
  case IR_PE_INT:
    literal_int(p, e);
    break;
  case IR_PE_FLOAT:
    literal_float(p, e);
    break;
  case IR_PE_STR:
    ir_pr_string(p, e->u.str);
    break;
  case IR_PE_VAR:
    ir_pr_puts(p, ir_pr_name(p, e, e->u.var));
    break;
  case IR_PE_LOAD:
    indices(p, e->u.load.buffer, e->u.load.indices, e->u.load.n);
    break;
  case IR_PE_NOT:
    ir_pr_puts(p, "not ");
    operand(p, e->u.bin.a, P_NOT);
    break;
  case IR_PE_MOD:
    prim_function_form(p, "T.truncmod", e->u.bin.a, e->u.bin.b);
    break;
  case IR_PE_MIN:
    prim_function_form(p, "T.min", e->u.bin.a, e->u.bin.b);
    break;
  case IR_PE_MAX:
    prim_function_form(p, "T.max", e->u.bin.a, e->u.bin.b);
    break;
  case IR_PE_SELECT:
    ir_pr_puts(p, "T.Select(");
    ir_pr_prim(p, e->u.select.cond);
    ir_pr_puts(p, ", ");
    ir_pr_prim(p, e->u.select.a);
    ir_pr_puts(p, ", ");
    ir_pr_prim(p, e->u.select.b);
    ir_pr_puts(p, ")");
    break;
  case IR_PE_CAST:
    ir_pr_puts(p, "T.Cast(\"");
    ir_pr_dtype(p, e->dtype);
    ir_pr_puts(p, "\", ");
    ir_pr_prim(p, e->u.bin.a);
    ir_pr_puts(p, ")");
    break;
  case IR_PE_CALL:
    prim_call(p, e);
    break;
  default:
    ir_pr_puts(p, "None");
    break;
  }
}

/* "a + b" as Python reads a sum: a (the min of a range) then the extent. */
static void
sum(Printer *p, const IrPrimExpr *a, const IrPrimExpr *b)
{
  operand(p, a, P_ADD);
  ir_pr_puts(p, " + ");
  operand(p, b, P_ADD + 1);
}

static bool
is_int(const IrPrimExpr *e, int64_t v)
{
  int64_t got;
  return ir_prim_is_int(e, &got) && got == v;
}

static bool
is_var(const IrPrimExpr *e, void *var)
{
  return e == var;
}

static bool
uses_var(const IrPrimExpr *e, const IrPrimExpr *var)
{
  return ir_prim_walk(e, is_var, (void *)var);
}

/* --- free variables of a prim func -------------------------------------- */

typedef struct {
  PtrSet bound; /* params, loop, let and block iterator vars */
  PtrSet free;  /* the rest, in order of first appearance */
} FreeScan;

static void
free_expr(FreeScan *s, const IrPrimExpr *e)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_PE_VAR:
    if (!ir_ptrset_has(&s->bound, e))
      ir_ptrset_add(&s->free, e);
    break;
  case IR_PE_INT:
  case IR_PE_FLOAT:
  case IR_PE_STR:
    break;
  case IR_PE_LOAD:
    for (int i = 0; i < e->u.load.n; i++)
      free_expr(s, e->u.load.indices[i]);
    break;
  case IR_PE_SELECT:
    free_expr(s, e->u.select.cond);
    free_expr(s, e->u.select.a);
    free_expr(s, e->u.select.b);
    break;
  case IR_PE_CALL:
    for (int i = 0; i < e->u.call.n; i++)
      free_expr(s, e->u.call.args[i]);
    break;
  default:
    free_expr(s, e->u.bin.a);
    free_expr(s, e->u.bin.b);
    break;
  }
}

static void
free_attr(FreeScan *s, const IrAttr *a)
{
  if (a && a->kind == IR_AT_PRIM)
    free_expr(s, a->u.prim);
  if (a && (a->kind == IR_AT_LIST || a->kind == IR_AT_DICT))
    for (int i = 0; i < a->u.list.n; i++)
      free_attr(s, a->u.list.items[i]);
}

static void
free_buffer(FreeScan *s, const IrBuffer *b)
{
  for (int i = 0; b && i < b->ndim; i++)
    free_expr(s, b->shape[i]);
}

static void
free_regions(FreeScan *s, const IrBufferRegion *r, int n)
{
  for (int i = 0; i < n; i++)
    for (int k = 0; k < r[i].n; k++) {
      free_expr(s, r[i].ranges[k].min);
      free_expr(s, r[i].ranges[k].extent);
    }
}

static void free_stmt(FreeScan *s, const IrStmt *st);

static void
free_block(FreeScan *s, const IrTirBlock *b)
{
  for (int i = 0; i < b->niters; i++) {
    free_expr(s, b->iters[i].dom.min);
    free_expr(s, b->iters[i].dom.extent);
    free_expr(s, b->iters[i].binding);
    ir_ptrset_add(&s->bound, b->iters[i].var);
  }
  free_regions(s, b->reads, b->nreads);
  free_regions(s, b->writes, b->nwrites);
  free_attr(s, b->attrs);
  for (int i = 0; i < b->nallocs; i++)
    free_buffer(s, b->allocs[i]);
  free_stmt(s, b->init);
  free_stmt(s, b->body);
}

static void
free_stmt(FreeScan *s, const IrStmt *st)
{
  if (!st)
    return;
  switch (st->kind) {
  case IR_ST_SEQ:
    for (int i = 0; i < st->u.seq.n; i++)
      free_stmt(s, st->u.seq.stmts[i]);
    break;
  case IR_ST_FOR:
    free_expr(s, st->u.loop.min);
    free_expr(s, st->u.loop.extent);
    ir_ptrset_add(&s->bound, st->u.loop.var);
    free_attr(s, st->u.loop.annotations);
    free_stmt(s, st->u.loop.body);
    break;
  case IR_ST_BLOCK:
    if (st->u.block)
      free_block(s, st->u.block);
    break;
  case IR_ST_STORE:
    for (int i = 0; i < st->u.store.n; i++)
      free_expr(s, st->u.store.indices[i]);
    free_expr(s, st->u.store.value);
    break;
  case IR_ST_LET:
    free_expr(s, st->u.let.value);
    ir_ptrset_add(&s->bound, st->u.let.var);
    free_stmt(s, st->u.let.body);
    break;
  case IR_ST_IF:
    free_expr(s, st->u.branch.cond);
    free_stmt(s, st->u.branch.then_);
    free_stmt(s, st->u.branch.else_);
    break;
  case IR_ST_EVALUATE:
    free_expr(s, st->u.eval);
    break;
  case IR_ST_ALLOC:
    free_buffer(s, st->u.alloc.buffer);
    free_stmt(s, st->u.alloc.body);
    break;
  case IR_ST_ASSERT:
    free_expr(s, st->u.check.cond);
    break;
  case IR_ST_DECL:
    free_buffer(s, st->u.decl.buffer);
    free_stmt(s, st->u.decl.body);
    break;
  }
}

/* --- buffers ------------------------------------------------------------- */

static void
shape_tuple(Printer *p, IrPrimExpr *const *v, int n)
{
  ir_pr_puts(p, "(");
  prim_args(p, v, n);
  ir_pr_puts(p, n == 1 ? ",)" : ")");
}

/* , "dtype"[, data=D.data][, scope=..., align=..., offset_factor=...]:
 * data with a source buffer D. */
static void
buffer_rest(Printer *p, const IrBuffer *b, const IrBuffer *data)
{
  ir_pr_puts(p, ", \"");
  ir_pr_dtype(p, b->dtype);
  ir_pr_puts(p, "\"");
  if (data)
    ir_pr_printf(p, ", data=%s.data", buffer_name(p, data));
  if (b->scope && strcmp(b->scope, "global") != 0) {
    ir_pr_puts(p, ", scope=");
    ir_pr_string(p, b->scope);
  }
  if (b->align)
    ir_pr_printf(p, ", align=%d", b->align);
  if (b->offset_factor)
    ir_pr_printf(p, ", offset_factor=%d", b->offset_factor);
}

/* (shape), "dtype"[, data=D.data][, scope=..., align=..., offset_factor=...] */
static void
buffer_args(Printer *p, const IrBuffer *b, const IrBuffer *data)
{
  shape_tuple(p, b->shape, b->ndim);
  buffer_rest(p, b, data);
}

/* B = T.alloc_buffer(...); a block's own allocation is
 * T.sblock_alloc_buffer in v0.26. */
static void
alloc_line(Printer *p, const IrBuffer *b, bool in_block)
{
  if (!b) {
    ir_pr_cannot(p, "an allocation without a buffer");
    return;
  }
  ir_pr_indent(p);
  ir_pr_printf(p, "%s = T.%salloc_buffer(", ir_pr_name(p, b, b->name),
               in_block && p->dialect == IR_DIALECT_V0_26 ? "sblock_" : "");
  buffer_args(p, b, NULL);
  ir_pr_puts(p, ")\n");
}

static void
region(Printer *p, const IrBufferRegion *r)
{
  ir_pr_printf(p, "%s[", buffer_name(p, r->buffer));
  if (r->n == 0)
    ir_pr_puts(p, "()");
  for (int i = 0; i < r->n; i++) {
    const IrRange *rg = &r->ranges[i];
    ir_pr_puts(p, i ? ", " : "");
    if (is_int(rg->extent, 1)) {
      ir_pr_prim(p, rg->min);
      continue;
    }
    ir_pr_prim(p, rg->min);
    ir_pr_puts(p, ":");
    if (is_int(rg->min, 0))
      ir_pr_prim(p, rg->extent);
    else
      sum(p, rg->min, rg->extent);
  }
  ir_pr_puts(p, "]");
}

static void
regions(Printer *p, const char *what, const IrBufferRegion *r, int n)
{
  ir_pr_indent(p);
  ir_pr_printf(p, "T.%s(", what);
  for (int i = 0; i < n; i++) {
    ir_pr_puts(p, i ? ", " : "");
    region(p, &r[i]);
  }
  ir_pr_puts(p, ")\n");
}

/* --- loops ------------------------------------------------------------------ */

static bool
empty_attrs(const IrAttr *a)
{
  return !a || (a->kind == IR_AT_DICT && a->u.list.n == 0);
}

static bool
grid_loop(const IrStmt *s)
{
  return s && s->kind == IR_ST_FOR && s->u.loop.kind == IR_FOR_SERIAL && is_int(s->u.loop.min, 0) &&
         empty_attrs(s->u.loop.annotations);
}

static void
push_loop(Printer *p, const IrStmt *s)
{
  if (p->nloops == p->loop_cap) {
    p->loop_cap = p->loop_cap ? p->loop_cap * 2 : 16;
    p->loops = ir_xrealloc(p->loops, sizeof *p->loops * (size_t)p->loop_cap);
  }
  p->loops[p->nloops++] = s;
}

/* How many loops from s on print as one T.grid (1 when none collapse). */
static int
grid_depth(const IrStmt *s)
{
  const IrStmt *loops[64];
  int n = 0;
  if (!grid_loop(s))
    return 1;
  for (const IrStmt *l = s; grid_loop(l) && n < 64; l = l->u.loop.body) {
    for (int i = 0; i < n; i++)
      if (uses_var(l->u.loop.extent, loops[i]->u.loop.var))
        return n;
    loops[n++] = l;
  }
  return n;
}

static void
range_args(Printer *p, const IrStmt *s)
{
  if (is_int(s->u.loop.min, 0)) {
    ir_pr_prim(p, s->u.loop.extent);
    return;
  }
  ir_pr_prim(p, s->u.loop.min);
  ir_pr_puts(p, ", ");
  sum(p, s->u.loop.min, s->u.loop.extent);
}

static void
loop_header(Printer *p, const IrStmt *s)
{
  static const char *const kinds[] = {"T.serial", "T.parallel", "T.unroll", "T.vectorized",
                                      "T.thread_binding"};
  const IrAttr *ann = s->u.loop.annotations;
  const IrPrimExpr *var = s->u.loop.var;
  ir_pr_indent(p);
  ir_pr_printf(p, "for %s in ", ir_pr_name(p, var, var->u.var));
  bool plain = s->u.loop.kind == IR_FOR_SERIAL && empty_attrs(ann);
  unsigned kind = (unsigned)s->u.loop.kind;
  ir_pr_printf(p, "%s(", plain ? "range" : kind < 5 ? kinds[kind] : "T.serial");
  range_args(p, s);
  if (s->u.loop.thread)
    ir_pr_printf(p, ", thread=\"%s\"", s->u.loop.thread);
  if (!empty_attrs(ann)) {
    ir_pr_puts(p, ", annotations=");
    ir_pr_attr(p, ann);
  }
  ir_pr_puts(p, "):\n");
}

static void
for_stmt(Printer *p, const IrStmt *s)
{
  int depth = grid_depth(s);
  int base = p->nloops;
  const IrStmt *l = s;
  if (depth < 2) {
    loop_header(p, s);
    push_loop(p, s);
    l = s->u.loop.body;
  } else {
    ir_pr_indent(p);
    ir_pr_puts(p, "for ");
    for (int i = 0; i < depth; i++, l = l->u.loop.body) {
      ir_pr_printf(p, "%s%s", i ? ", " : "", ir_pr_name(p, l->u.loop.var, l->u.loop.var->u.var));
      push_loop(p, l);
    }
    ir_pr_puts(p, " in T.grid(");
    for (int i = base; i < p->nloops; i++) {
      ir_pr_puts(p, i > base ? ", " : "");
      ir_pr_prim(p, p->loops[i]->u.loop.extent);
    }
    ir_pr_puts(p, "):\n");
  }
  p->indent++;
  stmt_list(p, l, false);
  p->indent--;
  p->nloops = base;
}

/* --- blocks ------------------------------------------------------------------- */

/* True when every iterator of b is an S or R iterator bound to an enclosing
 * loop var whose range equals the iterator's domain. */
static bool
remappable(const Printer *p, const IrTirBlock *b)
{
  if (b->niters == 0)
    return false;
  for (int i = 0; i < b->niters; i++) {
    const IrIterVar *it = &b->iters[i];
    if (it->kind != IR_ITER_SPATIAL && it->kind != IR_ITER_REDUCE)
      return false;
    if (!it->binding || it->binding->kind != IR_PE_VAR)
      return false;
    bool found = false;
    for (int k = p->nloops - 1; k >= 0 && !found; k--) {
      const IrStmt *l = p->loops[k];
      found = l->u.loop.var == it->binding && ir_prim_expr_equal(l->u.loop.min, it->dom.min) &&
              ir_prim_expr_equal(l->u.loop.extent, it->dom.extent);
    }
    if (!found)
      return false;
  }
  return true;
}

static void
iter_lines(Printer *p, const IrTirBlock *b)
{
  static const char *const kinds[] = {"spatial", "reduce", "scan", "opaque"};
  if (remappable(p, b)) {
    ir_pr_indent(p);
    for (int i = 0; i < b->niters; i++)
      ir_pr_printf(p, "%s%s", i ? ", " : "",
                   ir_pr_name(p, b->iters[i].var, b->iters[i].var->u.var));
    ir_pr_puts(p, " = T.axis.remap(\"");
    for (int i = 0; i < b->niters; i++)
      ir_pr_puts(p, b->iters[i].kind == IR_ITER_SPATIAL ? "S" : "R");
    ir_pr_puts(p, "\", [");
    for (int i = 0; i < b->niters; i++) {
      ir_pr_puts(p, i ? ", " : "");
      ir_pr_prim(p, b->iters[i].binding);
    }
    ir_pr_puts(p, "])\n");
    return;
  }
  for (int i = 0; i < b->niters; i++) {
    const IrIterVar *it = &b->iters[i];
    unsigned kind = (unsigned)it->kind;
    ir_pr_indent(p);
    ir_pr_printf(p, "%s = T.axis.%s(", ir_pr_name(p, it->var, it->var->u.var),
                 kind < 4 ? kinds[kind] : "opaque");
    if (is_int(it->dom.min, 0)) {
      ir_pr_prim(p, it->dom.extent);
    } else {
      ir_pr_puts(p, "(");
      ir_pr_prim(p, it->dom.min);
      ir_pr_puts(p, ", ");
      sum(p, it->dom.min, it->dom.extent);
      ir_pr_puts(p, ")");
    }
    ir_pr_puts(p, ", ");
    ir_pr_prim(p, it->binding);
    ir_pr_puts(p, ")\n");
  }
}

static void
block_stmt(Printer *p, const IrTirBlock *b)
{
  ir_pr_indent(p);
  ir_pr_puts(p, p->dialect == IR_DIALECT_V0_26 ? "with T.sblock(" : "with T.block(");
  ir_pr_string(p, b->name ? b->name : "");
  ir_pr_puts(p, "):\n");
  p->indent++;
  iter_lines(p, b);
  if (b->has_access) {
    regions(p, "reads", b->reads, b->nreads);
    regions(p, "writes", b->writes, b->nwrites);
  }
  if (!empty_attrs(b->attrs)) {
    ir_pr_indent(p);
    ir_pr_puts(p, p->dialect == IR_DIALECT_V0_26 ? "T.sblock_attr(" : "T.block_attr(");
    ir_pr_attr(p, b->attrs);
    ir_pr_puts(p, ")\n");
  }
  for (int i = 0; i < b->nallocs; i++)
    alloc_line(p, b->allocs[i], true);
  if (b->init) {
    ir_pr_indent(p);
    ir_pr_puts(p, "with T.init():\n");
    p->indent++;
    stmt_list(p, b->init, false);
    p->indent--;
  }
  if (b->body || (!b->init && !b->has_access && b->niters == 0 && b->nallocs == 0))
    stmt_list(p, b->body, true);
  p->indent--;
}

/* --- statements ------------------------------------------------------------------ */

static void stmt(Printer *p, const IrStmt *s, bool block_list, bool last);

/* The statements of s at the current depth.  block_list: s is a block's own
 * statement list, where an alloc line would read as a block allocation. */
static void
stmt_list(Printer *p, const IrStmt *s, bool block_list)
{
  if (!s || (s->kind == IR_ST_SEQ && s->u.seq.n == 0)) {
    ir_pr_indent(p); /* the reader reads `pass` back as the empty list */
    ir_pr_puts(p, "pass\n");
    return;
  }
  stmt(p, s, block_list, true);
}

static void
let_stmt(Printer *p, const IrStmt *s, bool block_list, bool last)
{
  const IrPrimExpr *var = s->u.let.var;
  if (!last)
    ir_pr_cannot(p, "a let before other statements of its list; its scope widens here");
  ir_pr_indent(p);
  /* v0.26 reads `x: T.int32 = v` as a mutable scalar buffer: a let is T.let */
  bool v26 = p->dialect == IR_DIALECT_V0_26;
  ir_pr_printf(p, "%s: T.%s", ir_pr_name(p, var, var->u.var), v26 ? "let[T." : "");
  ir_pr_dtype(p, var->dtype);
  ir_pr_puts(p, v26 ? "] = " : " = ");
  ir_pr_prim(p, s->u.let.value);
  ir_pr_puts(p, "\n");
  stmt_list(p, s->u.let.body, block_list);
}

static void
alloc_stmt(Printer *p, const IrStmt *s, bool block_list, bool last)
{
  if (!last)
    ir_pr_cannot(p, "an allocation before other statements of its list; its scope widens here");
  if (block_list)
    ir_pr_cannot(p, "an allocation statement directly in a block; it reads as a block allocation");
  alloc_line(p, s->u.alloc.buffer, false);
  stmt_list(p, s->u.alloc.body, block_list);
}

/* B = T.decl_buffer(shape, dtype, data=A.data): TVM v0.26 reads it, and
 * it is the one form that says every field (A.view(...) leaves the shape
 * or the dtype to be derived). */
static void
decl_stmt(Printer *p, const IrStmt *s, bool block_list, bool last)
{
  const IrBuffer *b = s->u.decl.buffer;
  if (!last)
    ir_pr_cannot(p, "a buffer declaration before other statements of its list; its scope widens");
  if (!b) {
    ir_pr_cannot(p, "a declaration without a buffer");
    return;
  }
  ir_pr_indent(p);
  ir_pr_printf(p, "%s = T.decl_buffer(", ir_pr_name(p, b, b->name));
  buffer_args(p, b, s->u.decl.source);
  ir_pr_puts(p, ")\n");
  stmt_list(p, s->u.decl.body, block_list);
}

static void
if_stmt(Printer *p, const IrStmt *s)
{
  ir_pr_indent(p);
  ir_pr_puts(p, "if ");
  ir_pr_prim(p, s->u.branch.cond);
  ir_pr_puts(p, ":\n");
  p->indent++;
  stmt_list(p, s->u.branch.then_, false);
  p->indent--;
  if (s->u.branch.else_) {
    ir_pr_indent(p);
    ir_pr_puts(p, "else:\n");
    p->indent++;
    stmt_list(p, s->u.branch.else_, false);
    p->indent--;
  }
}

/* assert cond, ("Kind", ["part", ...]): the one form TVM v0.26 prints. */
static void
assert_stmt(Printer *p, const IrStmt *s)
{
  ir_pr_indent(p);
  ir_pr_puts(p, "assert ");
  ir_pr_prim(p, s->u.check.cond);
  ir_pr_puts(p, ", (");
  ir_pr_string(p, s->u.check.kind);
  ir_pr_puts(p, ", [");
  for (int i = 0; i < s->u.check.nparts; i++) {
    ir_pr_puts(p, i ? ", " : "");
    ir_pr_string(p, s->u.check.parts[i]);
  }
  ir_pr_puts(p, "])\n");
}

static void
stmt(Printer *p, const IrStmt *s, bool block_list, bool last)
{
  switch (s->kind) {
  case IR_ST_SEQ:
    for (int i = 0; i < s->u.seq.n; i++)
      if (s->u.seq.stmts[i])
        stmt(p, s->u.seq.stmts[i], block_list, last && i == s->u.seq.n - 1);
    break;
  case IR_ST_FOR:
    for_stmt(p, s);
    break;
  case IR_ST_BLOCK:
    if (s->u.block)
      block_stmt(p, s->u.block);
    break;
  case IR_ST_STORE:
    ir_pr_indent(p);
    indices(p, s->u.store.buffer, s->u.store.indices, s->u.store.n);
    ir_pr_puts(p, " = ");
    ir_pr_prim(p, s->u.store.value);
    ir_pr_puts(p, "\n");
    break;
  case IR_ST_LET:
    let_stmt(p, s, block_list, last);
    break;
  case IR_ST_IF:
    if_stmt(p, s);
    break;
  case IR_ST_EVALUATE:
    ir_pr_indent(p);
    ir_pr_puts(p, "T.evaluate(");
    ir_pr_prim(p, s->u.eval);
    ir_pr_puts(p, ")\n");
    break;
  case IR_ST_ALLOC:
    alloc_stmt(p, s, block_list, last);
    break;
  case IR_ST_ASSERT:
    assert_stmt(p, s);
    break;
  case IR_ST_DECL:
    decl_stmt(p, s, block_list, last);
    break;
  }
}

/* --- prim funcs ------------------------------------------------------------------ */

/* A buffer parameter prints as T.Buffer when its buffer has the parameter's
 * name and a shape of literals only. */
static bool
inline_buffer(const IrPrimParam *pp)
{
  const IrBuffer *b = pp->buffer;
  if (!b || !b->name || !pp->var->u.var || strcmp(b->name, pp->var->u.var) != 0)
    return false;
  for (int i = 0; i < b->ndim; i++)
    if (!b->shape[i] || b->shape[i]->kind != IR_PE_INT)
      return false;
  return true;
}

static bool
is_unseen(const IrPrimExpr *e, void *seen)
{
  return e->kind == IR_PE_VAR && !ir_ptrset_has(seen, e);
}

static bool
see(const IrPrimExpr *e, void *seen)
{
  if (e->kind == IR_PE_VAR)
    ir_ptrset_add(seen, e);
  return false;
}

/* v0.26's buffer parameter: always T.Buffer, a dim that holds a var the
 * signature has not shown yet (seen: the parameters and dims before it)
 * printed as a string, which defines its vars.  TVM prints a scalar
 * parameter further right bare, which its reader resolves ahead; rxc's
 * reader does not, and quoting it is read by both as that parameter. */
static void
buffer_param(Printer *p, const IrPrimParam *pp, PtrSet *seen)
{
  const IrBuffer *b = pp->buffer;
  ir_pr_printf(p, "%s: T.Buffer((", ir_pr_name(p, b, b->name ? b->name : pp->var->u.var));
  ir_pr_name_alias(p, pp->var, b);
  for (int i = 0; i < b->ndim; i++) {
    ir_pr_puts(p, i ? ", " : "");
    if (ir_prim_walk(b->shape[i], is_unseen, seen)) {
      IrBuf text = {0};
      IrBuf *out = p->out;
      p->out = &text;
      ir_pr_prim(p, b->shape[i]);
      p->out = out;
      ir_pr_string(p, text.data);
      ir_buf_free(&text);
    } else {
      ir_pr_prim(p, b->shape[i]);
    }
    ir_prim_walk(b->shape[i], see, seen);
  }
  ir_pr_puts(p, b->ndim == 1 ? ",)" : ")");
  buffer_rest(p, b, NULL);
  ir_pr_puts(p, ")");
}

static void
param(Printer *p, const IrPrimParam *pp)
{
  const IrPrimExpr *var = pp->var;
  if (inline_buffer(pp)) {
    ir_pr_printf(p, "%s: T.Buffer(", ir_pr_name(p, pp->buffer, pp->buffer->name));
    ir_pr_name_alias(p, var, pp->buffer);
    buffer_args(p, pp->buffer, NULL);
    ir_pr_puts(p, ")");
    return;
  }
  if (pp->buffer && pp->buffer->name && var->u.var && strcmp(pp->buffer->name, var->u.var) == 0) {
    IrBuf name = {0};
    ir_buf_printf(&name, "var_%s", var->u.var);
    ir_pr_puts(p, ir_pr_name(p, var, name.data));
    ir_buf_free(&name);
  } else {
    ir_pr_puts(p, ir_pr_name(p, var, var->u.var));
  }
  ir_pr_puts(p, ": T.");
  ir_pr_dtype(p, pp->buffer ? IR_HANDLE : var->dtype);
}

/* The order the parameters print in, order[i] an index of f->params: as
 * they are, or in v0.26 with the scalars of moved tir_vars (ir_pr_move)
 * between the inputs and the outputs. */
static void
param_order(const Printer *p, IrSym name, const IrPrimFunc *f, int *order)
{
  const ScalarMove *m = p->dialect == IR_DIALECT_V0_26 ? ir_pr_move(p, name) : NULL;
  int n = f->nparams, k = 0;
  if (!m) {
    for (int i = 0; i < n; i++)
      order[i] = i;
    return;
  }
  for (int i = 0; i < m->ninputs; i++)
    order[k++] = i;
  for (int i = n - m->nscalars; i < n; i++)
    order[k++] = i;
  for (int i = m->ninputs; i < n - m->nscalars; i++)
    order[k++] = i;
}

/* The decorator and the signature.  v0.26 marks the function s_tir (TVM's
 * classic TIR: blocks, buffers without layouts) and shows every buffer
 * parameter as T.Buffer. */
static void
prim_header(Printer *p, IrSym name, const IrPrimFunc *f, FreeScan *s)
{
  bool v26 = p->dialect == IR_DIALECT_V0_26;
  PtrSet seen = {0};
  int *order = ir_xcalloc((size_t)f->nparams + 1, sizeof *order);
  param_order(p, name, f, order);
  ir_pr_indent(p);
  if (v26)
    ir_pr_puts(p, f->is_private ? "@T.prim_func(private=True, s_tir=True)\n"
                                : "@T.prim_func(s_tir=True)\n");
  else
    ir_pr_puts(p, f->is_private ? "@T.prim_func(private=True)\n" : "@T.prim_func\n");
  ir_pr_indent(p);
  ir_pr_printf(p, "def %s(", name);
  for (int i = 0; i < f->nparams; i++) {
    const IrPrimParam *pp = &f->params[order[i]];
    ir_pr_puts(p, i ? ", " : "");
    if (v26 && pp->buffer)
      buffer_param(p, pp, &seen);
    else
      param(p, pp);
    ir_ptrset_add(&s->bound, pp->var);
    ir_ptrset_add(&seen, pp->var);
  }
  ir_pr_puts(p, "):\n");
  ir_ptrset_free(&seen);
  free(order);
}

/* Whether parameter pp's buffer prints in the body: T.match_buffer of a
 * T.handle, which v0.26 never prints. */
static bool
matched_buffer(const Printer *p, const IrPrimParam *pp)
{
  return pp->buffer && !inline_buffer(pp) && p->dialect != IR_DIALECT_V0_26;
}

void
ir_pr_prim_func(Printer *p, IrSym name, const IrPrimFunc *f)
{
  FreeScan s = {0};
  p->tir = true;
  if (!f) {
    ir_pr_cannot(p, "prim func %s without a body", name);
    return;
  }
  prim_header(p, name, f, &s);
  p->indent++;
  if (!empty_attrs(f->attrs)) {
    ir_pr_indent(p);
    ir_pr_puts(p, "T.func_attr(");
    ir_pr_attr(p, f->attrs);
    ir_pr_puts(p, ")\n");
  }
  for (int i = 0; i < f->nparams; i++) /* v0.26: the vars its quoted dims define */
    if (f->params[i].buffer && (matched_buffer(p, &f->params[i]) || p->dialect == IR_DIALECT_V0_26))
      free_buffer(&s, f->params[i].buffer);
  free_stmt(&s, f->body);
  for (size_t i = 0; i < s.free.count; i++) {
    const IrPrimExpr *v = s.free.order[i];
    ir_pr_indent(p);
    ir_pr_printf(p, "%s = T.", ir_pr_name(p, v, v->u.var));
    ir_pr_dtype(p, v->dtype);
    ir_pr_puts(p, "()\n");
  }
  for (int i = 0; i < f->nparams; i++) {
    const IrPrimParam *pp = &f->params[i];
    if (!matched_buffer(p, pp))
      continue;
    ir_pr_indent(p);
    ir_pr_printf(p, "%s = T.match_buffer(", ir_pr_name(p, pp->buffer, pp->buffer->name));
    ir_pr_printf(p, "%s, ", ir_pr_name(p, pp->var, pp->var->u.var));
    buffer_args(p, pp->buffer, NULL);
    ir_pr_puts(p, ")\n");
  }
  stmt_list(p, f->body, false);
  p->indent--;
  ir_ptrset_free(&s.bound);
  ir_ptrset_free(&s.free);
  p->nloops = 0;
}
