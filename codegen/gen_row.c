/*
 * gen_row.c - an innermost float32 loop as one call of the row kernel
 * ([codegen] rows; rt/rt_kern_row.h).
 *
 *   for (j = min; j < min + n; j++) DST[index(j)] = EXPR(j);
 * becomes
 *   static const unsigned char row_prog[] = {...};   EXPR as a program
 *   rxc_k_row_f32(n, row_prog, &DST[index(min)], stride, row_ptrs,
 *                 row_strides, row_scalars);
 * which the libtcc JIT binds to a copy precompiled at -O3 (codegen/kern.c):
 * tcc compiles the call, not the loop.  A perfect nest of such loops is
 * the kernel's two, rows (i) and elements (j): from the innermost out,
 * each loop whose every address (DST's and each load's) steps by the
 * next loop's extent times that loop's step joins it, as one loop of
 * their product, so that a contiguous tensor's nest is one long row;
 * loops of extent 1 are their min.  A guard if (j + c < bound) makes the
 * call's count; one whose count is a literal is dropped for a literal
 * extent (the first column of a 16-wide tile: j fixed at its min).  A
 * long sum whose scalars do not fit the registers runs as calls over
 * pieces of its terms, each adding to what the one before stored (split).
 * A row computed into a scratch that the next loop alone reads is
 * computed where that loop loads it (inline_row).
 *
 * Key idea: EXPR is pure, so its tree can be evaluated as a DAG (equal
 * subtrees once: the NaN-propagating clip repeats its operand many times)
 * with the same float32 operations per element as the C the loop would
 * run, hence the same bits.  What may go in: loads F[index] whose index is
 * affine in j (the coefficient: the load's stride, any j-invariant
 * integer), j-invariant float32 or bool subexpressions (computed once by
 * the glue: row_scalars), + - * /, min and max, comparisons, && || !,
 * selects (and T.if_then_else), casts that change nothing, and rt's unary
 * float32 math.
 * Anything else keeps the loop.
 *
 * Legal only without a loop-carried dependence: every load of DST's
 * memory (DST itself or a buffer declared over it) is DST at DST's very
 * index, whose stride is a nonzero literal; other buffers do not overlap
 * DST (the function's pointers are restrict; when a call site may alias
 * two arguments, only loads of local buffers go in when DST is one).  Bounds: the kernel loads and
 * stores what the loop would for j < n and nothing else; a load that sits in a select's arm (or
 * after && or ||), which C would not always evaluate, must also be evaluated outside them, or be at
 * literal indices inside a literal shape; else, when the select's condition is invariant, the glue
 * tests it and runs the program of each value, whose loads are its arm's; the glue runs only when n
 * > 0, so its j-invariant loads are the loop's.
 *
 * This file finds the nest, checks it, and writes the glue (the call,
 * its slots and strides, split sums, inlined rows); gen_row_expr.c
 * compiles EXPR to the program; gen_row.h is what the two share.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_row.h"

/* --- the glue ------------------------------------------------------------- */

static const char *const OP_NAMES[RXC_R_COUNT] = {
    "RXC_R_LOAD",      "RXC_R_SCALAR", "RXC_R_ADD",  "RXC_R_SUB",   "RXC_R_MUL",   "RXC_R_DIV",
    "RXC_R_NEG",       "RXC_R_MAX",    "RXC_R_MIN",  "RXC_R_EQ",    "RXC_R_NE",    "RXC_R_LT",
    "RXC_R_LE",        "RXC_R_GT",     "RXC_R_GE",   "RXC_R_AND",   "RXC_R_OR",    "RXC_R_NOT",
    "RXC_R_SELECT",    "RXC_R_MAXN",   "RXC_R_MINN", "RXC_R_MADDL", "RXC_R_EXP",   "RXC_R_LOG",
    "RXC_R_SQRT",      "RXC_R_TANH",   "RXC_R_ERF",  "RXC_R_FABS",  "RXC_R_FLOOR", "RXC_R_CEIL",
    "RXC_R_NEARBYINT", "RXC_R_TRUNC",  "RXC_R_SIN",  "RXC_R_COS",
};

static void
indent(int n, IrBuf *o)
{
  for (int i = 0; i < n; i++)
    ir_buf_puts(o, "  ");
}

/* One name per function for each local of the glue (blocks do not nest). */
static const char *
local_name(CgGen *g, CgNames *names, const char *key, const char *hint)
{
  const char *s = cg_names_find(names, key);
  return s ? s : cg_names_add(g, names, key, hint);
}

static const char KEY_PROG[] = "prog", KEY_PTRS[] = "ptrs", KEY_STRIDES[] = "strides",
                  KEY_SCALARS[] = "scalars", KEY_COUNT[] = "count";

/* {instructions, result register, prologue, then op, d, a, b, c per
 * instruction}: the prologue's scalars first */
static void
emit_program(const Row *r, int result, int ind, IrBuf *o)
{
  ir_buf_printf(o, "{%d, %d, %d,", cg_row_instructions(r), r->node[result].reg, r->prologue);
  for (int k = 0; k < 2 * r->n; k++) {
    const RowNode *x = &r->node[k % r->n];
    if (x->dead || (k < r->n) != x->hoisted)
      continue; /* first pass: the prologue; second: the rest */
    bool slot = x->op == RXC_R_LOAD || x->op == RXC_R_SCALAR;
    ir_buf_puts(o, "\n");
    indent(ind, o);
    ir_buf_printf(o, "%s, %d, %d, %d, %d,", OP_NAMES[x->op], x->reg,
                  slot        ? x->slot
                  : x->a >= 0 ? r->node[x->a].reg
                              : 0,
                  x->b >= 0 ? r->node[x->b].reg : 0,
                  x->op == RXC_R_MADDL ? x->slot
                  : x->c >= 0          ? r->node[x->c].reg
                                       : 0);
  }
  ir_buf_puts(o, "}");
}

/* "TYPE NAME[n + 1] = {PREFIX e0, ..., 0};": one of the glue's arrays
 * (a trailing 0, so that none is empty) */
static void
emit_slots(Row *r, const CgNames *names, const char *type, const char *name,
           const IrPrimExpr *const *e, int n, const char *prefix, int ind, IrBuf *o)
{
  indent(ind, o);
  ir_buf_printf(o, "%s %s[%d] = {", type, name, n + 1);
  for (int i = 0; i < n; i++) {
    ir_buf_puts(o, prefix);
    cg_emit_expr(r->g, names, e[i], o);
    ir_buf_puts(o, ", ");
  }
  ir_buf_puts(o, "0};\n");
}

/* "const rxc_i64 NAME[2n + 1] = {elem0, row0, ...};": each load's strides */
static void
emit_strides(Row *r, const CgNames *names, const char *name, int ind, IrBuf *o)
{
  indent(ind, o);
  ir_buf_printf(o, "const rxc_i64 %s[%d] = {", name, 2 * r->nloads + 1);
  for (int i = 0; i < r->nloads; i++) {
    cg_emit_expr(r->g, names, r->stride[i], o);
    ir_buf_puts(o, ", ");
    cg_emit_expr(r->g, names, r->row_stride[i], o);
    ir_buf_puts(o, ", ");
  }
  ir_buf_puts(o, "0};\n");
}

/* The element store st writes, at idx, as a load (for C: DST[idx]). */
static IrPrimExpr
store_place(const IrStmt *st, IrPrimExpr **idx)
{
  IrPrimExpr dst = {.kind = IR_PE_LOAD, .dtype = st->u.store.buffer->dtype};
  dst.u.load.buffer = st->u.store.buffer;
  dst.u.load.indices = idx;
  dst.u.load.n = st->u.store.n;
  return dst;
}

/* The program, the arrays and the call over rows x count elements (C). */
static void
emit_call(Row *r, CgNames *names, const char *rows, const char *count, int result, int ind,
          IrBuf *o)
{
  CgGen *g = r->g;
  const IrStmt *st = r->store;
  const char *prog = local_name(g, names, KEY_PROG, "row_prog");
  const char *ptrs = local_name(g, names, KEY_PTRS, "row_ptrs");
  const char *strides = local_name(g, names, KEY_STRIDES, "row_strides");
  const char *scalars = local_name(g, names, KEY_SCALARS, "row_scalars");
  indent(ind, o);
  ir_buf_printf(o, "static const unsigned char %s[] = ", prog);
  emit_program(r, result, ind + 2, o);
  ir_buf_puts(o, ";\n");
  emit_slots(r, names, "const rxc_f32 *const", ptrs, r->load, r->nloads, "&", ind, o);
  emit_strides(r, names, strides, ind, o);
  emit_slots(r, names, "const rxc_f32", scalars, r->scalar, r->nscalars, "(rxc_f32)", ind, o);
  indent(ind, o);
  ir_buf_printf(o, "rxc_k_row_f32(%s, %s, %s, &", rows, count, prog);
  IrPrimExpr dst = store_place(st, st->u.store.indices);
  cg_emit_expr(g, names, &dst, o);
  ir_buf_puts(o, ", ");
  if (r->i)
    cg_emit_expr(g, names,
                 cg_row_stride_of(r, dst.u.load.buffer, dst.u.load.indices, dst.u.load.n, r->i), o);
  else
    ir_buf_puts(o, "0");
  ir_buf_puts(o, ", ");
  cg_emit_expr(g, names,
               cg_row_stride_of(r, dst.u.load.buffer, dst.u.load.indices, dst.u.load.n, r->j), o);
  ir_buf_printf(o, ", %s, %s, %s);\n", ptrs, strides, scalars);
}

/* Is C expression s all in one pair of parentheses?  (clang warns of
 * "if ((a == b))".) */
static bool
parenthesized(const char *s)
{
  int depth = 0;
  if (s[0] != '(')
    return false;
  for (const char *c = s; *c; c++) {
    depth += (*c == '(') - (*c == ')');
    if (depth == 0)
      return c[1] == '\0';
  }
  return false;
}

/* The call, or with an assumed condition, "if (COND) call else call":
 * the program of each value (result: the one built, for true). */
static void
emit_calls(Row *r, CgNames *names, const char *rows, const char *count, int result, int ind,
           IrBuf *o)
{
  for (int p = 0; p < r->pieces; p++) { /* a split sum: its pieces in order, each in a block */
    r->top = r->piece[p];
    r->cut = p ? r->piece[p - 1] : NULL;
    indent(ind, o);
    ir_buf_puts(o, p ? "{ /* and on */\n" : "{ /* the first terms of the sum */\n");
    emit_call(r, names, rows, count, cg_row_build(r), ind + 1, o);
    indent(ind, o);
    ir_buf_puts(o, "}\n");
  }
  if (r->pieces)
    return;
  if (!r->assumed) {
    emit_call(r, names, rows, count, result, ind, o);
    return;
  }
  IrBuf cond = {0};
  cg_emit_expr(r->g, names, r->assumed, &cond);
  indent(ind, o);
  ir_buf_printf(o, parenthesized(cond.data) ? "if %s {\n" : "if (%s) {\n", cond.data);
  ir_buf_free(&cond);
  emit_call(r, names, rows, count, result, ind + 1, o);
  indent(ind, o);
  ir_buf_puts(o, "} else {\n");
  r->assumed_value = false;
  emit_call(r, names, rows, count, cg_row_build(r), ind + 1, o);
  indent(ind, o);
  ir_buf_puts(o, "}\n");
}

/* "const T var = min;": the loop's first value */
static void
emit_first(Row *r, const CgNames *names, const IrStmt *loop, int ind, IrBuf *o)
{
  const IrPrimExpr *v = loop->u.loop.var;
  const char *t = cg_dtype_cname(r->g, v->dtype);
  indent(ind, o);
  ir_buf_printf(o, "const %s %s = ", t ? t : "?", cg_names_find(names, v));
  cg_emit_expr(r->g, names, loop->u.loop.min, o);
  ir_buf_puts(o, "; /* the first */\n");
}

/* " && " between conditions */
static void
and_cond(IrBuf *cond, const char *fmt, const char *a)
{
  ir_buf_puts(cond, cond->len ? " && " : "");
  ir_buf_printf(cond, fmt, a);
}

/* The number of iterations of the live loops loop[from..to) (C): the
 * extent of one, the product of several, 1 for none. */
static void
emit_extent(Row *r, const CgNames *names, int from, int to, IrBuf *o)
{
  IrCtx *ctx = r->g->ctx;
  IrPrimExpr *p = NULL;
  int live = 0, last = -1;
  for (int k = from; k < to; k++) {
    if (r->fixed[k])
      continue;
    IrPrimExpr *e = ir_prim_cast(ctx, IR_I64, r->extent[k]);
    p = p ? ir_prim_bin(ctx, IR_PE_MUL, p, e) : e;
    live++;
    last = k;
  }
  if (live == 0)
    ir_buf_puts(o, "1");
  else if (live == 1)
    cg_emit_expr(r->g, names, r->extent[last], o);
  else
    cg_emit_expr(r->g, names, ir_arith_simplify(r->arith, p), o);
}

/* "rxc_i64 row_n = ...;": with a guard lhs(j) < rhs (lhs = j + c), the
 * j that pass it, the first rhs - lhs(min) ones, at most count; its name. */
static const char *
emit_guard_count(Row *r, CgNames *names, const char *count, int ind, IrBuf *o)
{
  CgGen *g = r->g;
  const char *n = local_name(g, names, KEY_COUNT, "row_n");
  indent(ind, o);
  ir_buf_printf(o, "rxc_i64 %s = (rxc_i64)", n);
  cg_emit_expr(g, names, r->guard->u.bin.b, o);
  ir_buf_puts(o, " - (rxc_i64)");
  cg_emit_expr(g, names, r->guard->u.bin.a, o);
  ir_buf_printf(o, "%s;\n", r->guard->kind == IR_PE_LE ? " + 1" : "");
  indent(ind, o);
  ir_buf_printf(o, "if (%s > %s)\n", n, count);
  indent(ind + 1, o);
  ir_buf_printf(o, "%s = %s;\n", n, count);
  return n;
}

/* The glue of the loops: the call, only when some (i, j) runs (a
 * symbolic extent, a guard), so that every address it forms is one the
 * loops read or write.  With a guard lhs(j) < rhs (lhs = j + c), the j
 * that pass it are the first rhs - lhs(min) ones. */
static void
emit_glue(Row *r, CgNames *names, int result, int ind, IrBuf *o)
{
  CgGen *g = r->g;
  IrBuf count = {0}, rows = {0}, cond = {0};
  int64_t v;
  emit_extent(r, names, r->split, r->depth, &count);
  emit_extent(r, names, 0, r->split, &rows);
  for (int k = 0; k < r->depth; k++) { /* each symbolic extent: a product of two < 0 is > 0 */
    const IrPrimExpr *e = r->extent[k];
    if (r->fixed[k] || ir_prim_is_int(e, &v) || (r->guard && r->loop[k]->u.loop.var == r->j))
      continue;
    IrBuf x = {0};
    cg_emit_expr(g, names, e, &x);
    and_cond(&cond, "%s > 0", x.data);
    ir_buf_free(&x);
  }
  indent(ind, o);
  ir_buf_printf(o, "{ /* the loop%s over ", r->depth > 1 ? "s" : "");
  for (int k = 0; k < r->depth; k++)
    ir_buf_printf(o, "%s%s",
                  k == 0             ? ""
                  : k + 1 < r->depth ? ", "
                                     : " and over ",
                  cg_names_find(names, r->loop[k]->u.loop.var));
  if (r->inlined)
    ir_buf_printf(o, " (and over %s, whose row it computes in place)",
                  cg_names_find(names, r->inlined->u.loop.var));
  ir_buf_printf(o, "%s: a call of the row kernel (rt/rt_kern_row.h) */\n",
                r->guard ? ", where its condition holds" : "");
  for (int k = 0; k < r->depth; k++)
    emit_first(r, names, r->loop[k], ind + 1, o);
  const char *n = count.data;
  if (r->guard) {
    n = emit_guard_count(r, names, count.data, ind + 1, o);
    and_cond(&cond, "%s > 0", n);
  }
  if (cond.len) {
    indent(ind + 1, o);
    ir_buf_printf(o, "if (%s) {\n", cond.data);
    emit_calls(r, names, rows.data, n, result, ind + 2, o);
    indent(ind + 1, o);
    ir_buf_puts(o, "}\n");
  } else {
    emit_calls(r, names, rows.data, n, result, ind + 1, o);
  }
  indent(ind, o);
  ir_buf_puts(o, "}\n");
  ir_buf_free(&count);
  ir_buf_free(&rows);
  ir_buf_free(&cond);
}

/* --- the same loops as one C loop (rows = auto, for other compilers) ------ */

/* A joined nest also has a plain C form: its rows and its elements as one
 * loop each, every address stepping by its strides from where the nest
 * starts.  A C compiler vectorizes such a loop over all of a tensor's
 * elements, where the nest's innermost loop, as short as a feature map's
 * row (28, 14, 7), leaves it a scalar tail a row: 1 / (1 + exp(-x)) over
 * 240 x 28 x 28 elements ran 5 times faster as one loop under gcc -O3
 * -march=native.  The same expression per element, the same bits. */
typedef struct {
  Row *r;
  IrPrimExpr *ri, *rj; /* the row and element vars of the C loops */
} Flat;

/* The offset of element (ri, rj) from the nest's first one in the flat
 * memory of b at idx (int64). */
static IrPrimExpr *
flat_offset(Flat *fl, const IrBuffer *b, IrPrimExpr *const *idx, int n)
{
  Row *r = fl->r;
  IrCtx *ctx = r->g->ctx;
  IrPrimExpr *off = ir_prim_bin(ctx, IR_PE_MUL, fl->rj, cg_row_stride_of(r, b, idx, n, r->j));
  if (r->i)
    off =
        ir_prim_bin(ctx, IR_PE_ADD,
                    ir_prim_bin(ctx, IR_PE_MUL, fl->ri, cg_row_stride_of(r, b, idx, n, r->i)), off);
  return off;
}

/* idx with the offset added to its last index: the flat offset of a
 * compact row-major buffer grows by as much. */
static IrPrimExpr **
flat_index(Flat *fl, const IrBuffer *b, IrPrimExpr *const *idx, int n)
{
  IrCtx *ctx = fl->r->g->ctx;
  IrPrimExpr **x = ir_alloc(ctx, sizeof *x * (size_t)n);
  memcpy(x, idx, sizeof *x * (size_t)n);
  x[n - 1] = ir_prim_bin(ctx, IR_PE_ADD, ir_prim_cast(ctx, IR_I64, idx[n - 1]),
                         flat_offset(fl, b, idx, n));
  return x;
}

/* cg_prim_map's node: a load that moves in the nest, at its element */
static IrPrimExpr *
flat_node(IrPrimExpr *e, void *user)
{
  Flat *fl = user;
  if (e->kind != IR_PE_LOAD || !cg_row_varies(fl->r, e))
    return NULL;
  const IrBuffer *b = e->u.load.buffer;
  return ir_prim_load(fl->r->g->ctx, (IrBuffer *)b,
                      flat_index(fl, b, e->u.load.indices, e->u.load.n), e->u.load.n);
}

static bool
is_call(const IrPrimExpr *e, void *user)
{
  (void)user;
  return e->kind == IR_PE_CALL;
}

/* Has the nest a plain form worth writing, its extents literal?  When its
 * innermost loop leaves a tail of less than a vector (64 bytes: extent 28
 * of float32, not 16 or 112) and more than one loop goes in a row; or with
 * a guard around a store that calls math (exp, erf): an if in the loop
 * keeps gcc from vectorizing a body that may trap, where the count of the
 * plain form does not.  A simple guarded store (a bias, a clip) gcc
 * vectorizes with masks as it is, a 16-wide loop of fixed count. */
static bool
flat_fits(Row *r)
{
  int live = 0, inner = -1;
  int64_t v;
  for (int k = r->split; k < r->depth; k++)
    if (!r->fixed[k]) {
      live++;
      inner = k;
    }
  for (int k = 0; k < r->depth; k++)
    if (!r->fixed[k] && !ir_prim_is_int(r->extent[k], &v))
      return false;
  if (!r->store->u.store.n || inner < 0)
    return false;
  if (r->guard)
    return ir_prim_walk(r->store->u.store.value, is_call, NULL);
  ir_prim_is_int(r->extent[inner], &v);
  return live >= 2 && v % 16 != 0;
}

/* The nest as "{ firsts; for rows: for elements: DST[..] = EXPR; }" */
static void
emit_flat(Row *r, CgNames *names, int ind, IrBuf *o)
{
  CgGen *g = r->g;
  IrCtx *ctx = g->ctx;
  const IrStmt *st = r->store;
  Flat fl = {r, ir_prim_var(ctx, ir_sym(ctx, "row_r"), IR_I64),
             ir_prim_var(ctx, ir_sym(ctx, "row_j"), IR_I64)};
  const char *ri = cg_names_add(g, names, fl.ri, "row_r");
  const char *rj = cg_names_add(g, names, fl.rj, "row_j");
  IrBuf count = {0}, rows = {0};
  emit_extent(r, names, r->split, r->depth, &count);
  emit_extent(r, names, 0, r->split, &rows);
  indent(ind, o);
  ir_buf_puts(o, "{ /* the loops over ");
  for (int k = 0; k < r->depth; k++)
    ir_buf_printf(o, "%s%s", k ? ", " : "", cg_names_find(names, r->loop[k]->u.loop.var));
  ir_buf_printf(o, ": rows of all their elements in one loop%s */\n",
                r->guard ? ", over those where its condition holds" : "");
  for (int k = 0; k < r->depth; k++)
    emit_first(r, names, r->loop[k], ind + 1, o);
  const char *n = r->guard ? emit_guard_count(r, names, count.data, ind + 1, o) : count.data;
  indent(ind + 1, o);
  ir_buf_printf(o, "for (rxc_i64 %s = 0; %s < %s; %s++) {\n", ri, ri, rows.data, ri);
  indent(ind + 2, o);
  ir_buf_printf(o, "for (rxc_i64 %s = 0; %s < %s; %s++) {\n", rj, rj, n, rj);
  IrPrimExpr dst =
      store_place(st, flat_index(&fl, st->u.store.buffer, st->u.store.indices, st->u.store.n));
  indent(ind + 3, o);
  cg_emit_expr(g, names, &dst, o);
  ir_buf_puts(o, " = ");
  cg_emit_expr(g, names, cg_prim_map(ctx, st->u.store.value, flat_node, &fl), o);
  ir_buf_puts(o, ";\n");
  for (int k = 2; k >= 0; k--) {
    indent(ind + k, o);
    ir_buf_puts(o, "}\n");
  }
  ir_buf_free(&count);
  ir_buf_free(&rows);
}

/* --- the nest ------------------------------------------------------------- */

/* j: the var of the innermost loop that is not fixed (NULL: none) */
static void
innermost(Row *r)
{
  r->j = NULL;
  for (int k = 0; k < r->depth; k++)
    if (!r->fixed[k])
      r->j = r->loop[k]->u.loop.var;
}

/* Does e use a live loop var of the nest other than j? */
static bool
uses_other(const Row *r, const IrPrimExpr *e)
{
  for (int k = 0; k < r->depth; k++) {
    const IrPrimExpr *v = r->loop[k]->u.loop.var;
    if (!r->fixed[k] && v != r->j && cg_row_uses(e, v))
      return true;
  }
  return false;
}

/* The guard of a loop body "if (lhs < rhs) store" (or <=) whose lhs is
 * j plus an invariant integer and rhs invariant, or NULL. */
static const IrPrimExpr *
guard_of(Row *r, const IrStmt *body)
{
  if (body->kind != IR_ST_IF || body->u.branch.else_ || !body->u.branch.then_)
    return NULL;
  const IrPrimExpr *c = body->u.branch.cond;
  if ((c->kind != IR_PE_LT && c->kind != IR_PE_LE) || !cg_row_is_int(c->u.bin.a->dtype) ||
      !cg_row_is_int(c->u.bin.b->dtype) || cg_row_varies(r, c->u.bin.b) ||
      uses_other(r, c->u.bin.a))
    return NULL;
  IrPrimExpr *k = cg_row_coefficient(r->g->ctx, c->u.bin.a, r->j);
  int64_t one;
  k = k ? ir_arith_simplify(r->arith, k) : NULL;
  return k && ir_prim_is_int(k, &one) && one == 1 ? c : NULL;
}

/* A guard lhs(j) < rhs that j's first c iterations pass, c a literal
 * (rhs - lhs(min)), and a literal extent: the loop is its first
 * min(c, extent) iterations with no guard, so that it may run as one
 * with the loops around it, or be fixed when that is 1 (a 1x1 image's
 * tile epilogue).  False when no iteration passes. */
static bool
unguard(Row *r)
{
  if (!r->guard)
    return true;
  IrCtx *ctx = r->g->ctx;
  int k = r->depth - 1;
  while (r->loop[k]->u.loop.var != r->j)
    k--;
  const IrPrimExpr *g = r->guard;
  IrPrimExpr *c = ir_prim_bin(ctx, IR_PE_SUB, ir_prim_cast(ctx, IR_I64, g->u.bin.b),
                              ir_prim_cast(ctx, IR_I64, g->u.bin.a));
  c = ir_prim_bin(ctx, IR_PE_ADD, c, ir_prim_cast(ctx, IR_I64, (IrPrimExpr *)r->j));
  c = ir_prim_bin(ctx, IR_PE_SUB, c, ir_prim_cast(ctx, IR_I64, r->loop[k]->u.loop.min));
  int64_t n, ext;
  if (!ir_prim_is_int(ir_arith_simplify(r->arith, c), &n) || !ir_prim_is_int(r->extent[k], &ext))
    return true;
  n += g->kind == IR_PE_LE;
  if (n < 1)
    return false;
  r->extent[k] = ir_prim_int(ctx, IR_I64, n < ext ? n : ext);
  r->fixed[k] = n == 1 || ext == 1;
  r->guard = NULL;
  innermost(r);
  return r->j != NULL;
}

/* Is the body of the nest's innermost loop a float32 store (or one under
 * a guard)?  Sets r->store and r->guard. */
static bool
row_form(Row *r)
{
  const IrStmt *st = r->loop[r->depth - 1]->u.loop.body;
  r->guard = st ? guard_of(r, st) : NULL;
  st = r->guard ? st->u.branch.then_ : st;
  r->store = st;
  return unguard(r) && st && st->kind == IR_ST_STORE && cg_row_is_f32(st->u.store.buffer->dtype) &&
         cg_row_is_f32(st->u.store.value->dtype) && st->u.store.n == st->u.store.buffer->ndim;
}

/* The perfect nest from loop down into r->loop, and j: its innermost
 * loop that is not fixed; false when a loop is bound to a thread or its
 * extent or min depends on a loop of the nest. */
static bool
nest_of(Row *r, const IrStmt *loop)
{
  for (const IrStmt *s = loop; s && s->kind == IR_ST_FOR; s = s->u.loop.body) {
    int64_t n;
    if (r->depth == ROW_MAX_DEPTH || s->u.loop.kind == IR_FOR_THREAD_BINDING)
      return false;
    r->extent[r->depth] = s->u.loop.extent;
    r->fixed[r->depth] = ir_prim_is_int(s->u.loop.extent, &n) && n == 1;
    r->loop[r->depth++] = s;
  }
  innermost(r);
  for (int k = 0; k < r->depth; k++)
    for (int m = 0; m < r->depth; m++) {
      const IrPrimExpr *v = r->loop[m]->u.loop.var;
      if (cg_row_uses(r->loop[k]->u.loop.extent, v) || cg_row_uses(r->loop[k]->u.loop.min, v))
        return false;
    }
  return r->j != NULL;
}

static bool
collect_load(const IrPrimExpr *e, void *user)
{
  if (e->kind == IR_PE_LOAD)
    ir_vec_push(user, (void *)e);
  return false;
}

/* Is stride a of b's element (loop a around loop b) b's extent times its
 * stride b, so that the two loops run as one of their product's
 * iterations at stride b? */
static bool
contiguous(Row *r, const IrBuffer *buf, IrPrimExpr *const *idx, int n, int a, int b)
{
  IrCtx *ctx = r->g->ctx;
  IrPrimExpr *sa = cg_row_stride_of(r, buf, idx, n, r->loop[a]->u.loop.var);
  IrPrimExpr *sb = cg_row_stride_of(r, buf, idx, n, r->loop[b]->u.loop.var);
  if (!sa || !sb)
    return false;
  IrPrimExpr *nb = ir_prim_cast(ctx, IR_I64, r->extent[b]);
  int64_t zero;
  IrPrimExpr *d = ir_arith_simplify(
      r->arith, ir_prim_bin(ctx, IR_PE_SUB, sa, ir_prim_bin(ctx, IR_PE_MUL, nb, sb)));
  return ir_prim_is_int(d, &zero) && zero == 0;
}

/* May loops a and b (b the next live one inside a) run as one: the
 * store's and every load's addresses contiguous in them? */
static bool
mergeable(Row *r, const IrVec *loads, int a, int b)
{
  const IrStmt *st = r->store;
  if (!contiguous(r, st->u.store.buffer, st->u.store.indices, st->u.store.n, a, b))
    return false;
  for (int k = 0; k < loads->len; k++) {
    const IrPrimExpr *e = loads->items[k];
    if (!contiguous(r, e->u.load.buffer, e->u.load.indices, e->u.load.n, a, b))
      return false;
  }
  return true;
}

/* The live loops as the kernel's two: from the innermost out, the row's
 * loops (j) while each is contiguous with the next inside it (not past
 * j under a guard, whose count is j's), then the rows' (i) likewise;
 * false when more loops remain (an inner nest gets its own try) or a
 * literal extent is below 1 or the elements are fewer than 4.  Sets
 * r->split and r->i. */
static bool
group(Row *r)
{
  IrVec loads = {0};
  ir_prim_walk(r->store->u.store.value, collect_load, &loads);
  int k = r->depth - 1, inner = -1, total = 1, symbolic = 0;
  bool ok = true;
  for (; k >= 0; k--) { /* the row's */
    if (r->fixed[k])
      continue;
    if (inner >= 0 && (r->guard || !mergeable(r, &loads, k, inner)))
      break;
    inner = k;
  }
  r->split = inner;
  while (r->split > 0 && r->fixed[r->split - 1])
    r->split--;
  int outer = -1;
  for (; k >= 0 && ok; k--) { /* the rows' */
    if (r->fixed[k])
      continue;
    if (outer >= 0 && !mergeable(r, &loads, k, outer))
      ok = false;
    if (outer < 0)
      r->i = r->loop[k]->u.loop.var;
    outer = k;
  }
  for (k = 0; k < r->depth && ok; k++) {
    int64_t n;
    if (r->fixed[k])
      continue;
    if (!ir_prim_is_int(r->extent[k], &n))
      symbolic++;
    else if (n < 1)
      ok = false;
    else
      total = total * n < 4 ? (int)(total * n) : 4;
  }
  ir_vec_free(&loads);
  return ok && (symbolic || total >= 4);
}

/* Does the store's index move in j by a nonzero literal, and in i (with
 * rows) by a stride the glue can write?  A row stride of 0 is the rows
 * of a sum into the same elements (a reduction's lanes, lanes[j] =
 * lanes[j] + x[i * 16 + j], 6 rows of 16 for 96 channels): the kernel
 * runs such rows one after another, each loading what the last stored
 * (rxc_k_row_may_span), as the loops do, and it is one call instead of
 * one a row. */
static bool
store_moves(Row *r)
{
  const IrStmt *st = r->store;
  int64_t stride;
  IrPrimExpr *sd =
      cg_row_stride_of(r, st->u.store.buffer, st->u.store.indices, st->u.store.n, r->j);
  bool moves = !r->i || cg_row_stride_of(r, st->u.store.buffer, st->u.store.indices, st->u.store.n,
                                         r->i) != NULL;
  return sd && ir_prim_is_int(sd, &stride) && stride != 0 && moves;
}

/* The condition of a select C always evaluates (in no arm) that the nest
 * does not change (i2 == 0 ? 0.0f : part[..], a split reduction's first
 * pass), or NULL. */
static const IrPrimExpr *
invariant_select(const Row *r, const IrPrimExpr *e)
{
  const IrPrimExpr *c = NULL, *a, *b;
  if (cg_row_choice(e, &c, &a, &b))
    return cg_row_varies(r, c) ? invariant_select(r, c) : c;
  switch (e->kind) {
  case IR_PE_AND:
  case IR_PE_OR:
  case IR_PE_NOT:
  case IR_PE_CAST:
    return invariant_select(r, e->u.bin.a);
  case IR_PE_CALL:
    for (int i = 0; i < e->u.call.n && !c; i++)
      c = invariant_select(r, e->u.call.args[i]);
    return c;
  default:
    if (e->kind >= IR_PE_ADD && e->kind <= IR_PE_GE) {
      c = invariant_select(r, e->u.bin.a);
      return c ? c : invariant_select(r, e->u.bin.b);
    }
    return NULL;
  }
}

/* Does the program set each scalar once per call (none per chunk)? */
static bool
all_hoisted(const Row *r)
{
  for (int i = 0; i < r->n; i++)
    if (r->node[i].op == RXC_R_SCALAR && !r->node[i].hoisted)
      return false;
  return true;
}

static bool
reads_dst(const IrPrimExpr *e, void *user)
{
  const Row *r = user;
  return e->kind == IR_PE_LOAD && cg_buffer_root(r->f, e->u.load.buffer) == r->root;
}

/* A left-deep sum whose scalars do not all keep a register (a 5x5
 * depthwise conv's 25 taps: 11 weights set per chunk) as calls over
 * pieces of its terms, each program all hoisted: the first computes the
 * deepest terms into DST, each next one adds its terms to what DST holds
 * (a load of DST at its index: the stored float32 is the sum's value
 * there, so the same bits).  Only for one row (rows could overlap) with
 * no load of DST's memory; false when no such pieces exist (r then holds
 * the whole sum's program, as before). */
static bool
split(Row *r)
{
  const IrPrimExpr *chain[ROW_MAX_CHAIN], *e = r->store->u.store.value;
  int m = 0, unhoisted = 0;
  for (int i = 0; i < r->n; i++)
    unhoisted += r->node[i].op == RXC_R_SCALAR && !r->node[i].hoisted;
  if (unhoisted < 4 || r->i || r->assumed || ir_prim_walk(e, reads_dst, r))
    return false;
  for (; e->kind == IR_PE_ADD && cg_row_is_f32(e->dtype) && m < ROW_MAX_CHAIN;
       e = cg_row_bare(e->u.bin.a))
    chain[m++] = e;
  int below = m; /* chain[below]: the last piece's top, m: none yet */
  r->pieces = 0;
  while (below > 0 && r->pieces < ROW_MAX_PIECES) {
    int k = 0; /* the largest piece above chain[below] that fits */
    for (; k < below; k++) {
      r->top = chain[k];
      r->cut = below < m ? chain[below] : NULL;
      if (cg_row_build(r) >= 0 && all_hoisted(r))
        break;
    }
    if (k == below)
      break;
    r->piece[r->pieces++] = chain[k];
    below = k;
  }
  r->top = r->cut = NULL;
  if (below > 0 || r->pieces < 2) {
    r->pieces = 0;
    cg_row_build(r); /* the whole sum's program again, which the tries replaced */
  }
  return r->pieces > 0;
}

/* --- two loops as one ------------------------------------------------------ */

typedef struct {
  const IrBuffer *scratch;  /* what A stores and B loads */
  const IrBuffer *dst_root; /* the memory B stores into */
  const IrPrimExpr *from;   /* A's var */
  IrPrimExpr *to;           /* B's var */
  IrPrimExpr **index;       /* A's store index, B's var for A's */
  IrPrimExpr *value;        /* A's value, likewise */
  const IrPrimFunc *f;
  int loads; /* loads of the scratch's memory counted */
  bool bad;  /* one that is not scratch[index] */
} Inline;

static IrPrimExpr *
rename_var(IrPrimExpr *e, void *user)
{
  const Inline *in = user;
  return e == in->from ? in->to : NULL;
}

/* A's value for a load of the scratch in B's value */
static IrPrimExpr *
inline_node(IrPrimExpr *e, void *user)
{
  const Inline *in = user;
  return e->kind == IR_PE_LOAD && e->u.load.buffer == in->scratch ? in->value : NULL;
}

static bool
count_root(const IrPrimExpr *e, void *user)
{
  Inline *in = user;
  in->loads += e->kind == IR_PE_LOAD && cg_buffer_root(in->f, e->u.load.buffer) == in->scratch;
  return false;
}

/* Counts the loads of the scratch's memory, and marks those that are not
 * scratch[index]. */
static bool
count_scratch(const IrPrimExpr *e, void *user)
{
  Inline *in = user;
  if (e->kind != IR_PE_LOAD || cg_buffer_root(in->f, e->u.load.buffer) != in->scratch)
    return false;
  in->loads++;
  bool same = e->u.load.buffer == in->scratch && e->u.load.n == in->scratch->ndim;
  for (int d = 0; same && d < e->u.load.n; d++)
    same = ir_prim_expr_equal(e->u.load.indices[d], in->index[d]);
  in->bad |= !same;
  return false;
}

/* Counts the loads of the scratch's memory in e, a statement's. */
static bool
count_in_stmt(const IrPrimExpr *e, const IrStmt *s, void *user)
{
  (void)s;
  ir_prim_walk(e, count_root, user);
  return false;
}

static bool
reads_memory(const IrPrimExpr *e, void *user)
{
  const Inline *in = user;
  const IrBuffer *root = e->kind == IR_PE_LOAD ? cg_buffer_root(in->f, e->u.load.buffer) : NULL;
  return e->kind == IR_PE_LOAD && (!root || root == in->scratch || root == in->dst_root);
}

/* loop { for a: S[idx(a)] = EA(a);  for b: D[..] = EB(.., S[idx(b)], ..) }
 * (a depthwise conv's row into a scratch, then its epilogue) as the nest
 * loop { for b: D[..] = EB(.., EA(b), ..) }, a new statement, or NULL:
 * when A and B run over the same range, S is a local buffer of its own
 * memory that A stores at a nonzero literal stride and nothing in the
 * function loads but B, at A's index, and EA reads neither S nor D's
 * memory.  Then the fused loop computes each element's EA where B loaded
 * it (the same float32: the same bits), and S, which nothing else reads,
 * need not be written. */
static IrStmt *
inline_row(Row *r, const IrStmt *loop)
{
  const IrStmt *body = loop->u.loop.body, *a, *b;
  if (!body || body->kind != IR_ST_SEQ || body->u.seq.n != 2)
    return NULL;
  a = body->u.seq.stmts[0];
  b = body->u.seq.stmts[1];
  if (a->kind != IR_ST_FOR || b->kind != IR_ST_FOR || a->u.loop.kind == IR_FOR_THREAD_BINDING ||
      b->u.loop.kind == IR_FOR_THREAD_BINDING || !a->u.loop.body || !b->u.loop.body ||
      a->u.loop.body->kind != IR_ST_STORE || b->u.loop.body->kind != IR_ST_STORE ||
      !ir_prim_expr_equal(a->u.loop.min, b->u.loop.min) ||
      !ir_prim_expr_equal(a->u.loop.extent, b->u.loop.extent))
    return NULL;
  const IrStmt *sa = a->u.loop.body, *sb = b->u.loop.body;
  IrCtx *ctx = r->g->ctx;
  Inline in = {.scratch = sa->u.store.buffer,
               .from = a->u.loop.var,
               .to = b->u.loop.var,
               .f = r->f,
               .dst_root = cg_buffer_root(r->f, sb->u.store.buffer)};
  const IrBuffer *s = in.scratch;
  int64_t stride;
  IrPrimExpr *st = cg_row_stride_of(r, s, sa->u.store.indices, sa->u.store.n, a->u.loop.var);
  if (!cg_row_is_f32(s->dtype) || sa->u.store.n != s->ndim || cg_buffer_is_param(r->f, s) ||
      cg_buffer_root(r->f, s) != s || !in.dst_root || in.dst_root == s || !st ||
      !ir_prim_is_int(st, &stride) || stride == 0)
    return NULL;
  in.index = ir_alloc(ctx, sizeof *in.index * (size_t)s->ndim);
  for (int d = 0; d < s->ndim; d++)
    in.index[d] = cg_prim_map(ctx, sa->u.store.indices[d], rename_var, &in);
  in.value = cg_prim_map(ctx, sa->u.store.value, rename_var, &in);
  if (ir_prim_walk(in.value, reads_memory, &in))
    return NULL;
  ir_prim_walk(sb->u.store.value, count_scratch, &in); /* B's: each scratch[index] */
  int in_b = in.loads;
  in.loads = 0;
  IrTirVisitor v = {.expr = count_in_stmt, .user = &in};
  ir_tir_walk(r->f->body, &v);
  if (in.bad || in_b == 0 || in.loads != in_b)
    return NULL;
  IrStmt *store = ir_alloc(ctx, sizeof *store), *inner = ir_alloc(ctx, sizeof *inner);
  IrStmt *outer = ir_alloc(ctx, sizeof *outer);
  *store = *sb;
  store->u.store.value = cg_prim_map(ctx, sb->u.store.value, inline_node, &in);
  *inner = *b;
  inner->u.loop.body = store;
  *outer = *loop;
  outer->u.loop.body = inner;
  r->inlined = a;
  return outer;
}

/* The row program and glue of loop (a nest), or false with nothing written. */
static bool
row_emit(Row *r, CgNames *names, const IrStmt *loop, int ind, IrBuf *o, IrBuf *flat)
{
  CgGen *g = r->g;
  bool ok = nest_of(r, loop) && row_form(r) && group(r) && store_moves(r);
  r->root = ok ? cg_buffer_root(r->f, r->store->u.store.buffer) : NULL;
  ok = ok && r->root && !ir_prim_walk(r->store->u.store.value, cg_row_load_conflicts, r);
  int result = ok ? cg_row_build(r) : -1;
  if (ok && result < 0) { /* an arm C evaluates only on a condition: one program each way */
    r->assumed = invariant_select(r, r->store->u.store.value);
    r->assumed_value = false;
    ok = r->assumed && cg_row_build(r) >= 0;
    r->assumed_value = true;
    result = ok ? cg_row_build(r) : -1;
  }
  ok = result >= 0;
  if (ok)
    split(r);
  if (ok) {
    int i = cg_runtime_kernel("rxc_k_row_f32");
    g->kernels_used |= 1u << i;
    for (int k = 1; k < r->depth; k++) {
      const IrPrimExpr *v = r->loop[k]->u.loop.var;
      if (!cg_names_find(names, v))
        cg_names_add(g, names, v, v->u.var);
    }
    if (r->inlined && !cg_names_find(names, r->inlined->u.loop.var))
      cg_names_add(g, names, r->inlined->u.loop.var, r->inlined->u.loop.var->u.var);
    emit_glue(r, names, result, ind, o);
    if (flat && flat_fits(r))
      emit_flat(r, names, ind, flat);
  }
  return ok;
}

static Row *
row_new(CgGen *g, IrArith *arith, const IrPrimFunc *f, const CgPrim *p)
{
  Row *r = ir_xcalloc(1, sizeof *r);
  r->g = g;
  r->arith = arith;
  r->f = f;
  r->aliased = p->aliased;
  return r;
}

static void
row_free(Row *r)
{
  ir_vec_free(&r->plain);
  free(r);
}

bool
cg_row_emit(CgGen *g, CgNames *names, IrArith *arith, const IrPrimFunc *f, const CgPrim *p,
            const IrStmt *loop, int ind, IrBuf *o, IrBuf *flat)
{
  if (g->cfg->codegen.rows == CFG_ROWS_OFF || loop->kind != IR_ST_FOR)
    return false;
  if (cg_reduce_emit(g, names, arith, f, p, loop, ind, o)) /* a loop of reductions */
    return true;
  Row *r = row_new(g, arith, f, p);
  bool ok = row_emit(r, names, loop, ind, o, flat);
  row_free(r);
  if (ok)
    return true;
  r = row_new(g, arith, f, p); /* a row into a scratch, then the loop that reads it */
  const IrStmt *fused = inline_row(r, loop);
  ok = fused && row_emit(r, names, fused, ind, o, flat);
  row_free(r);
  return ok;
}
