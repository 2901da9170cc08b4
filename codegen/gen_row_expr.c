/*
 * gen_row_expr.c - the EXPR of a row (gen_row.c) as a program of the row
 * kernel (rt/rt_kern_row.h): which subexpressions are j-invariant, which
 * indices affine in j and with what stride, then EXPR as a DAG of
 * distinct subexpressions, loads fused into the operations that read
 * them, and registers allocated by live ranges.
 *
 * Why a DAG gives the loop's bits, what may go in, and the rules of DST's
 * memory and of loads in select arms: gen_row.c's file comment.
 * gen_row.c finds the nest, checks it, and writes the glue around the
 * program built here (cg_row_build).
 */
#include <stdlib.h>
#include <string.h>

#include "gen_row.h"

/* --- what is j-invariant, affine, and where it points --------------------- */

static bool
is_var(const IrPrimExpr *e, void *user)
{
  return e == user;
}

bool
cg_row_uses(const IrPrimExpr *e, const IrPrimExpr *j)
{
  return ir_prim_walk(e, is_var, (void *)j);
}

/* Does e depend on the loops of the nest (those not fixed)? */
bool
cg_row_varies(const Row *r, const IrPrimExpr *e)
{
  for (int k = 0; k < r->depth; k++)
    if (!r->fixed[k] && cg_row_uses(e, r->loop[k]->u.loop.var))
      return true;
  return false;
}

bool
cg_row_is_f32(IrDType t)
{
  return t.code == IR_DT_FLOAT && t.bits == 32 && t.lanes == 1;
}

bool
cg_row_is_int(IrDType t)
{
  return (t.code == IR_DT_INT || t.code == IR_DT_UINT) && t.lanes == 1;
}

/* The coefficient of j in integer expression e, an int64 expression, when
 * e is affine in j; NULL otherwise. */
IrPrimExpr *
cg_row_coefficient(IrCtx *ctx, const IrPrimExpr *e, const IrPrimExpr *j)
{
  if (!cg_row_uses(e, j))
    return ir_prim_int(ctx, IR_I64, 0);
  if (e == j)
    return ir_prim_int(ctx, IR_I64, 1);
  if (!cg_row_is_int(e->dtype))
    return NULL;
  IrPrimExpr *a, *b;
  switch (e->kind) {
  case IR_PE_ADD:
  case IR_PE_SUB:
    a = cg_row_coefficient(ctx, e->u.bin.a, j);
    b = cg_row_coefficient(ctx, e->u.bin.b, j);
    return a && b ? ir_prim_bin(ctx, e->kind, a, b) : NULL;
  case IR_PE_MUL:
    if (cg_row_uses(e->u.bin.a, j) && cg_row_uses(e->u.bin.b, j))
      return NULL;
    if (cg_row_uses(e->u.bin.a, j)) {
      a = cg_row_coefficient(ctx, e->u.bin.a, j);
      return a ? ir_prim_bin(ctx, IR_PE_MUL, a, ir_prim_cast(ctx, IR_I64, e->u.bin.b)) : NULL;
    }
    b = cg_row_coefficient(ctx, e->u.bin.b, j);
    return b ? ir_prim_bin(ctx, IR_PE_MUL, ir_prim_cast(ctx, IR_I64, e->u.bin.a), b) : NULL;
  case IR_PE_CAST: /* between integers, widening: the same value */
    if (!cg_row_is_int(e->u.bin.a->dtype) || e->u.bin.a->dtype.bits > e->dtype.bits)
      return NULL;
    return cg_row_coefficient(ctx, e->u.bin.a, j);
  default:
    return NULL;
  }
}

/* The coefficient of var in index d of b times the flat offset's factor
 * of dim d (the product of the later dims), or NULL. */
static IrPrimExpr *
scaled(Row *r, const IrBuffer *b, const IrPrimExpr *index, int d, int n, const IrPrimExpr *var)
{
  IrCtx *ctx = r->g->ctx;
  IrPrimExpr *c = index ? cg_row_coefficient(ctx, index, var) : ir_prim_int(ctx, IR_I64, 0);
  for (int k = d + 1; c && k < n; k++)
    c = ir_prim_bin(ctx, IR_PE_MUL, c, ir_prim_cast(ctx, IR_I64, b->shape[k]));
  return c;
}

/* The stride in var (j or i) of a load (or the store) of b at idx: the
 * coefficient of var in the row-major offset, simplified; NULL when not
 * affine.  A pair of indices A + X // c, X % c counts as A * c + X
 * (cg_flat_pair), as the C writes it. */
IrPrimExpr *
cg_row_stride_of(Row *r, const IrBuffer *b, IrPrimExpr *const *idx, int n, const IrPrimExpr *var)
{
  IrCtx *ctx = r->g->ctx;
  IrPrimExpr *s = ir_prim_int(ctx, IR_I64, 0);
  for (int d = 0; d < n; d++) {
    const IrPrimExpr *a, *x;
    IrPrimExpr *c;
    if (d + 1 < n && cg_flat_pair(b, idx, d + 1, &a, &x)) {
      IrPrimExpr *hi = scaled(r, b, a, d, n, var), *lo = scaled(r, b, x, d + 1, n, var);
      c = hi && lo ? ir_prim_bin(ctx, IR_PE_ADD, hi, lo) : NULL;
      d++;
    } else {
      c = scaled(r, b, idx[d], d, n, var);
    }
    if (!c)
      return NULL;
    s = ir_prim_bin(ctx, IR_PE_ADD, s, c);
  }
  return ir_arith_simplify(r->arith, s);
}

typedef struct {
  const IrBuffer *b;
  const IrBuffer *source;
} DeclFind;

static IrWalkAction
find_decl(const IrStmt *s, void *user)
{
  DeclFind *d = user;
  if (s->kind != IR_ST_DECL || s->u.decl.buffer != d->b)
    return IR_WALK_CONTINUE;
  d->source = s->u.decl.source;
  return IR_WALK_STOP;
}

bool
cg_buffer_is_param(const IrPrimFunc *f, const IrBuffer *b)
{
  for (int i = 0; i < f->nparams; i++)
    if (f->params[i].buffer == b)
      return true;
  return false;
}

const IrBuffer *
cg_buffer_root(const IrPrimFunc *f, const IrBuffer *b)
{
  for (int hops = 0; hops < 64; hops++) {
    DeclFind d = {b, NULL};
    IrTirVisitor v = {.enter = find_decl, .user = &d};
    ir_tir_walk(f->body, &v);
    if (!d.source)
      return b;
    b = d.source;
  }
  return NULL;
}

/* Are the loads of e that C might not evaluate (in a select's arm, after
 * && or ||) safe to evaluate always: evaluated outside them too, or at
 * literal indices inside a literal shape? */
static bool
load_safe(const IrPrimExpr *e, void *user)
{
  const Row *r = user;
  if (e->kind != IR_PE_LOAD)
    return false;
  for (int i = 0; i < r->plain.len; i++)
    if (ir_prim_expr_equal(e, r->plain.items[i]))
      return false;
  const IrBuffer *b = e->u.load.buffer;
  if (e->u.load.n != b->ndim)
    return true;
  for (int d = 0; d < b->ndim; d++) {
    int64_t i, dim;
    if (!ir_prim_is_int(e->u.load.indices[d], &i) || !ir_prim_is_int(b->shape[d], &dim) || i < 0 ||
        i >= dim)
      return true; /* stops the walk: unsafe */
  }
  return false;
}

/* Is e a choice that C writes with ?: and evaluates one arm of (a
 * select, or tir.if_then_else)?  *c, *a and *b get its condition and
 * arms. */
bool
cg_row_choice(const IrPrimExpr *e, const IrPrimExpr **c, const IrPrimExpr **a, const IrPrimExpr **b)
{
  if (e->kind == IR_PE_SELECT) {
    *c = e->u.select.cond;
    *a = e->u.select.a;
    *b = e->u.select.b;
    return true;
  }
  if (e->kind != IR_PE_CALL || e->u.call.n != 3 || strcmp(e->u.call.op, "tir.if_then_else") != 0)
    return false;
  *c = e->u.call.args[0];
  *a = e->u.call.args[1];
  *b = e->u.call.args[2];
  return true;
}

/* Collects the loads of e that C always evaluates into r->plain. */
static void
plain_loads(Row *r, const IrPrimExpr *e)
{
  const IrPrimExpr *c, *a, *b;
  if (cg_row_choice(e, &c, &a, &b)) {
    if (r->assumed && ir_prim_expr_equal(c, r->assumed))
      plain_loads(r, r->assumed_value ? a : b);
    else
      plain_loads(r, c);
    return;
  }
  switch (e->kind) {
  case IR_PE_LOAD:
    ir_vec_push(&r->plain, (void *)e);
    return;
  case IR_PE_AND:
  case IR_PE_OR:
  case IR_PE_NOT:
  case IR_PE_CAST:
    plain_loads(r, e->u.bin.a);
    return;
  case IR_PE_CALL:
    for (int i = 0; i < e->u.call.n; i++)
      plain_loads(r, e->u.call.args[i]);
    return;
  default:
    if (e->kind >= IR_PE_ADD && e->kind <= IR_PE_GE) {
      plain_loads(r, e->u.bin.a);
      plain_loads(r, e->u.bin.b);
    }
    return;
  }
}

/* Does load e break the rules of DST's memory (the file comment): DST's
 * memory other than DST at DST's index, or a buffer parameter that may
 * share bytes with DST? */
bool
cg_row_load_conflicts(const IrPrimExpr *e, void *user)
{
  const Row *r = user;
  if (e->kind != IR_PE_LOAD)
    return false;
  const IrBuffer *b = e->u.load.buffer, *root = cg_buffer_root(r->f, b);
  if (root && root != r->root)
    return r->aliased && cg_buffer_is_param(r->f, root) && cg_buffer_is_param(r->f, r->root);
  const IrStmt *st = r->store;
  if (b != st->u.store.buffer || e->u.load.n != st->u.store.n)
    return true;
  for (int d = 0; d < e->u.load.n; d++)
    if (!ir_prim_expr_equal(e->u.load.indices[d], st->u.store.indices[d]))
      return true;
  return false;
}

/* --- EXPR as a DAG ------------------------------------------------------ */

/* Node index of a new node (or of an equal one), -1 when full. */
static int
add_node(Row *r, const IrPrimExpr *e, int op, int a, int b, int c)
{
  if (r->n == ROW_MAX_NODES)
    return -1;
  r->node[r->n] = (RowNode){e, op, a, b, c, -1, -1, -1, false, false};
  return r->n++;
}

static int translate(Row *r, const IrPrimExpr *e, bool arm);
static int translate_choice(Row *r, const IrPrimExpr *e, bool arm);

/* e without its casts from float32 to float32, which change nothing */
const IrPrimExpr *
cg_row_bare(const IrPrimExpr *e)
{
  while (e->kind == IR_PE_CAST && cg_row_is_f32(e->dtype) && cg_row_is_f32(e->u.bin.a->dtype))
    e = e->u.bin.a;
  return e;
}

/* Is e the NaN test "x != x" of a float32 x?  *x gets it. */
static bool
nan_test(const IrPrimExpr *e, const IrPrimExpr **x)
{
  if (e->kind != IR_PE_NE || !cg_row_is_f32(e->u.bin.a->dtype) ||
      !ir_prim_expr_equal(cg_row_bare(e->u.bin.a), cg_row_bare(e->u.bin.b)))
    return false;
  *x = cg_row_bare(e->u.bin.a);
  return true;
}

/* Is e max(x, y) (or min) of float32 x (*x) and y (*y)?  RXC_R_MAXN or
 * RXC_R_MINN, else -1. */
static int
max_of(const IrPrimExpr *e, const IrPrimExpr **x, const IrPrimExpr **y)
{
  if ((e->kind != IR_PE_MAX && e->kind != IR_PE_MIN) || !cg_row_is_f32(e->u.bin.a->dtype))
    return -1;
  *x = cg_row_bare(e->u.bin.a);
  *y = cg_row_bare(e->u.bin.b);
  return e->kind == IR_PE_MAX ? RXC_R_MAXN : RXC_R_MINN;
}

/* The NaN-propagating max (or min) of ops/ (maximum, minimum, clip):
 *   x != x ? x : (y != y ? y : max(x, y))
 * or without the inner test.  Its value is x where x is NaN, else y where
 * y is (max(x, y) is x > y ? x : y), else max(x, y): in both forms
 * exactly x != x ? x : (x > y ? x : y), one RXC_R_MAXN (or RXC_R_MINN)
 * instead of five ops.  *x and *y get x and y; -1 when e is not one. */
static int
nan_max(const IrPrimExpr *e, const IrPrimExpr **x, const IrPrimExpr **y)
{
  const IrPrimExpr *t, *u, *mx, *my, *f = cg_row_bare(e->u.select.b);
  if (!nan_test(e->u.select.cond, &t) || !ir_prim_expr_equal(cg_row_bare(e->u.select.a), t))
    return -1;
  int op = max_of(f, &mx, &my);
  if (op < 0 && f->kind == IR_PE_SELECT && nan_test(f->u.select.cond, &u) &&
      ir_prim_expr_equal(cg_row_bare(f->u.select.a), u)) {
    op = max_of(cg_row_bare(f->u.select.b), &mx, &my);
    if (op >= 0 && !ir_prim_expr_equal(my, u))
      return -1;
  }
  if (op < 0 || !ir_prim_expr_equal(mx, t))
    return -1;
  *x = t;
  *y = my;
  return op;
}

/* A j-invariant float32 or bool subexpression as a scalar slot. */
static int
add_scalar(Row *r, const IrPrimExpr *e, bool arm)
{
  if (arm && ir_prim_walk(e, load_safe, r))
    return -1;
  int k = 0;
  while (k < r->nscalars && !ir_prim_expr_equal(r->scalar[k], e))
    k++;
  if (k == ROW_MAX_SLOTS)
    return -1;
  if (k == r->nscalars)
    r->scalar[r->nscalars++] = e;
  int i = add_node(r, e, RXC_R_SCALAR, -1, -1, -1);
  if (i >= 0)
    r->node[i].slot = k;
  return i;
}

static int
add_load(Row *r, const IrPrimExpr *e, bool arm)
{
  const IrBuffer *b = e->u.load.buffer;
  if (!cg_row_is_f32(b->dtype) || e->u.load.n != b->ndim || (arm && ir_prim_walk(e, load_safe, r)))
    return -1;
  IrPrimExpr *s = cg_row_stride_of(r, b, e->u.load.indices, e->u.load.n, r->j);
  IrPrimExpr *rs = r->i ? cg_row_stride_of(r, b, e->u.load.indices, e->u.load.n, r->i)
                        : ir_prim_int(r->g->ctx, IR_I64, 0);
  if (!s || !rs || r->nloads == ROW_MAX_SLOTS)
    return -1;
  int i = add_node(r, e, RXC_R_LOAD, -1, -1, -1);
  if (i < 0)
    return -1;
  r->node[i].slot = r->nloads;
  r->load[r->nloads] = e;
  r->row_stride[r->nloads] = rs;
  r->stride[r->nloads++] = s;
  return i;
}

/* The opcode of rt's unary float32 math intrinsic op, or -1. */
static int
math_op(const CgGen *g, const char *op)
{
  static const struct {
    const char *name;
    int op;
    bool builtin; /* rt_math_exp.h or rt_math_trig.h: not with libm = system */
  } table[] = {
      {"tir.exp", RXC_R_EXP, true},
      {"tir.log", RXC_R_LOG, true},
      {"tir.sqrt", RXC_R_SQRT, false},
      {"tir.tanh", RXC_R_TANH, true},
      {"tir.erf", RXC_R_ERF, true},
      {"tir.fabs", RXC_R_FABS, false},
      {"tir.abs", RXC_R_FABS, false},
      {"tir.floor", RXC_R_FLOOR, false},
      {"tir.ceil", RXC_R_CEIL, false},
      {"tir.round", RXC_R_NEARBYINT, false},
      {"tir.nearbyint", RXC_R_NEARBYINT, false},
      {"tir.trunc", RXC_R_TRUNC, false},
      {"tir.sin", RXC_R_SIN, true},
      {"tir.cos", RXC_R_COS, true},
  };
  bool system = g->cfg->codegen.libm == CFG_LIBM_SYSTEM;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp(table[i].name, op) == 0 && !(system && table[i].builtin))
      return table[i].op;
  return -1;
}

/* A call of an intrinsic on one float32: rt's math, or sigmoid and rsqrt
 * as the very operations of their C forms (ir/tir_intrin.c). */
static int
translate_call(Row *r, const IrPrimExpr *e, bool arm)
{
  if (e->u.call.n != 1 || !cg_row_is_f32(e->u.call.args[0]->dtype))
    return -1;
  const char *op = e->u.call.op;
  int x = translate(r, e->u.call.args[0], arm);
  if (x < 0)
    return -1;
  bool sigmoid = strcmp(op, "tir.sigmoid") == 0, rsqrt = strcmp(op, "tir.rsqrt") == 0;
  if (sigmoid || rsqrt) { /* 1.0f / (1.0f + rxc_expf(-x)); 1.0f / rxc_sqrtf(x) */
    if (sigmoid && math_op(r->g, "tir.exp") < 0)
      return -1;
    int one = add_scalar(r, ir_prim_float(r->g->ctx, IR_F32, 1.0), false);
    int y = sigmoid ? add_node(r, NULL, RXC_R_NEG, x, -1, -1) : -1;
    y = sigmoid && y >= 0 ? add_node(r, NULL, RXC_R_EXP, y, -1, -1) : y;
    y = sigmoid && y >= 0 ? add_node(r, NULL, RXC_R_ADD, one, y, -1) : y;
    y = rsqrt ? add_node(r, NULL, RXC_R_SQRT, x, -1, -1) : y;
    return one >= 0 && y >= 0 ? add_node(r, e, RXC_R_DIV, one, y, -1) : -1;
  }
  int m = math_op(r->g, op);
  return m < 0 ? -1 : add_node(r, e, m, x, -1, -1);
}

static int
translate_binary(Row *r, const IrPrimExpr *e, bool arm)
{
  static const int ops[] = {
      [IR_PE_ADD] = RXC_R_ADD, [IR_PE_SUB] = RXC_R_SUB, [IR_PE_MUL] = RXC_R_MUL,
      [IR_PE_DIV] = RXC_R_DIV, [IR_PE_MIN] = RXC_R_MIN, [IR_PE_MAX] = RXC_R_MAX,
      [IR_PE_EQ] = RXC_R_EQ,   [IR_PE_NE] = RXC_R_NE,   [IR_PE_LT] = RXC_R_LT,
      [IR_PE_LE] = RXC_R_LE,   [IR_PE_GT] = RXC_R_GT,   [IR_PE_GE] = RXC_R_GE,
      [IR_PE_AND] = RXC_R_AND, [IR_PE_OR] = RXC_R_OR,
  };
  IrPrimKind k = e->kind;
  bool logic = k == IR_PE_AND || k == IR_PE_OR;
  if ((size_t)k >= sizeof ops / sizeof ops[0] || !ops[k])
    return -1;
  IrDType t = e->u.bin.a->dtype;
  if (logic ? t.code != IR_DT_BOOL || t.lanes != 1 : !cg_row_is_f32(t))
    return -1;
  int a = translate(r, e->u.bin.a, arm);
  int b = a < 0 ? -1 : translate(r, e->u.bin.b, arm || logic); /* && and || may skip b */
  return b < 0 ? -1 : add_node(r, e, ops[k], a, b, -1);
}

/* A float32 choice (cg_row_choice()): one RXC_R_SELECT, or RXC_R_MAXN for the
 * ops' NaN-propagating max, or the assumed condition's arm alone. */
static int
translate_choice(Row *r, const IrPrimExpr *e, bool arm)
{
  const IrPrimExpr *cond, *ea, *eb, *x, *y;
  cg_row_choice(e, &cond, &ea, &eb);
  if (r->assumed && ir_prim_expr_equal(cond, r->assumed)) /* C evaluates one arm */
    return translate(r, r->assumed_value ? ea : eb, arm);
  int op = e->kind == IR_PE_SELECT ? nan_max(e, &x, &y) : -1;
  if (op >= 0) { /* y is evaluated only where x is no NaN */
    int a = translate(r, x, arm);
    int b = a < 0 ? -1 : translate(r, y, true);
    return b < 0 ? -1 : add_node(r, e, op, a, b, -1);
  }
  int c = translate(r, cond, arm);
  int a = c < 0 ? -1 : translate(r, ea, true);
  int b = a < 0 ? -1 : translate(r, eb, true);
  return b < 0 ? -1 : add_node(r, e, RXC_R_SELECT, a, b, c);
}

/* The node of e (float32 or bool), after its operands'; -1 when e has
 * something the kernel does not do.  arm: C might not evaluate e. */
static int
translate(Row *r, const IrPrimExpr *e, bool arm)
{
  if (e == r->cut) { /* DST at DST's index: what the call before stored */
    const IrStmt *st = r->store;
    IrPrimExpr *dst =
        ir_prim_load(r->g->ctx, st->u.store.buffer, st->u.store.indices, st->u.store.n);
    return add_load(r, dst, false);
  }
  for (int i = 0; i < r->n; i++)
    if (r->node[i].e && ir_prim_expr_equal(r->node[i].e, e))
      return i;
  bool boolean = e->dtype.code == IR_DT_BOOL && e->dtype.lanes == 1;
  if (!cg_row_is_f32(e->dtype) && !boolean)
    return -1;
  if (!cg_row_varies(r, e))
    return add_scalar(r, e, arm);
  switch (e->kind) {
  case IR_PE_LOAD:
    return add_load(r, e, arm);
  case IR_PE_CAST: /* float32 to float32, bool to float32 (0 or 1 either way) */
    if (!cg_row_is_f32(e->dtype) ||
        !(cg_row_is_f32(e->u.bin.a->dtype) || e->u.bin.a->dtype.code == IR_DT_BOOL))
      return -1;
    return translate(r, e->u.bin.a, arm);
  case IR_PE_NOT: {
    int a = translate(r, e->u.bin.a, arm);
    return a < 0 || e->u.bin.a->dtype.code != IR_DT_BOOL ? -1
                                                         : add_node(r, e, RXC_R_NOT, a, -1, -1);
  }
  case IR_PE_SELECT:
  case IR_PE_CALL: {
    const IrPrimExpr *c, *a, *b;
    if (!cg_row_is_f32(e->dtype))
      return -1;
    return cg_row_choice(e, &c, &a, &b) ? translate_choice(r, e, arm) : translate_call(r, e, arm);
  }
  default:
    return translate_binary(r, e, arm);
  }
}

/* a + L * b with L a load and the product each read only there (a
 * depthwise conv's taps): one RXC_R_MADDL, the same two roundings, instead
 * of three ops. */
static void
fuse_loads(Row *r, int result)
{
  int uses[ROW_MAX_NODES] = {0};
  for (int i = 0; i < r->n; i++) {
    const int ops[3] = {r->node[i].a, r->node[i].b, r->node[i].c};
    for (int k = 0; k < 3; k++)
      if (ops[k] >= 0)
        uses[ops[k]]++;
  }
  uses[result]++;
  for (int i = 0; i < r->n; i++) {
    RowNode *x = &r->node[i], *m = x->b >= 0 ? &r->node[x->b] : NULL;
    if (x->op != RXC_R_ADD || !m || m->op != RXC_R_MUL || uses[x->b] != 1)
      continue;
    RowNode *l = &r->node[m->a];
    if (l->op != RXC_R_LOAD || uses[m->a] != 1)
      continue;
    x->op = RXC_R_MADDL;
    x->b = m->b;
    x->slot = l->slot;
    m->dead = l->dead = true;
  }
}

/* The program's instructions: its nodes not folded into another. */
int
cg_row_instructions(const Row *r)
{
  int count = 0;
  for (int i = 0; i < r->n; i++)
    count += !r->node[i].dead;
  return count;
}

/* Each node's last reader (r->n for the result, -1 for none). */
static void
live_ranges(Row *r, int result)
{
  for (int i = 0; i < r->n; i++) {
    const int ops[3] = {r->node[i].a, r->node[i].b, r->node[i].c};
    r->node[i].last = -1;
    for (int k = 0; k < 3 && !r->node[i].dead; k++)
      if (ops[k] >= 0)
        r->node[ops[k]].last = i;
  }
  r->node[result].last = r->n;
}

/* Registers by linear scan over the nodes (each operand's register is
 * free again after its last reader); false when they do not fit.  The
 * hoisted RXC_R_SCALAR nodes first get a register of their own for the
 * whole program, so that the kernel sets them once per call (the
 * program's prologue, r->prologue instructions). */
static bool
allocate(Row *r)
{
  bool busy[RXC_K_ROW_REGS] = {0};
  int regs = 0;
  r->prologue = 0;
  for (int i = 0; i < r->n; i++) {
    if (!r->node[i].hoisted)
      continue;
    if (regs == RXC_K_ROW_REGS)
      return false;
    r->node[i].reg = regs;
    busy[regs++] = true;
    r->prologue++;
  }
  for (int i = 0; i < r->n; i++) {
    RowNode *x = &r->node[i];
    if (x->dead || x->hoisted)
      continue;
    const int ops[3] = {x->a, x->b, x->c};
    for (int k = 0; k < 3; k++) {
      const RowNode *y = ops[k] >= 0 ? &r->node[ops[k]] : NULL;
      if (y && y->last == i && !y->hoisted)
        busy[y->reg] = false;
    }
    int reg = 0;
    while (reg < RXC_K_ROW_REGS && busy[reg])
      reg++;
    if (reg == RXC_K_ROW_REGS)
      return false;
    busy[reg] = x->last > i; /* a node nothing reads frees its register at once */
    x->reg = reg;
  }
  return true;
}

/* Registers for the program, hoisting as many of its scalars as fit:
 * those live the longest first (a scalar read to the end holds a
 * register either way; one read at once costs a register only briefly
 * when set per chunk).  A conv's 25 taps, each scalar read once, fit 16
 * registers with 13 of the scalars hoisted.  False when nothing fits. */
static bool
assign_registers(Row *r, int result)
{
  int order[ROW_MAX_NODES], n = 0;
  live_ranges(r, result);
  for (int i = 0; i < r->n; i++)
    if (r->node[i].op == RXC_R_SCALAR)
      order[n++] = i;
  for (int a = 1; a < n; a++) { /* by live range, longest first; stable */
    int x = order[a], b = a;
    for (; b > 0 && r->node[order[b - 1]].last - order[b - 1] < r->node[x].last - x; b--)
      order[b] = order[b - 1];
    order[b] = x;
  }
  for (int k = n < RXC_K_ROW_REGS ? n : RXC_K_ROW_REGS; k >= 0; k--) {
    for (int i = 0; i < n; i++)
      r->node[order[i]].hoisted = i < k;
    if (allocate(r))
      return true;
  }
  return false;
}

/* EXPR as a program (with r->assumed's value): its result's node, -1
 * when it has something the kernel does not do or does not fit. */
int
cg_row_build(Row *r)
{
  const IrPrimExpr *value = r->top ? r->top : r->store->u.store.value;
  r->n = r->nloads = r->nscalars = 0;
  r->plain.len = 0;
  plain_loads(r, value);
  int result = translate(r, value, false);
  if (result >= 0)
    fuse_loads(r, result);
  return result >= 0 && cg_row_instructions(r) <= ROW_MAX_INSNS && assign_registers(r, result)
             ? result
             : -1;
}
