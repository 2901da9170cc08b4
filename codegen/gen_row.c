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
 * two arguments, only loads of local buffers go in when DST is one).  Bounds: the kernel loads and stores what the
 * loop would for j < n and nothing else; a load that sits in a select's
 * arm (or after && or ||), which C would not always evaluate, must also be
 * evaluated outside them, or be at literal indices inside a literal shape;
 * else, when the select's condition is invariant, the glue tests it and
 * runs the program of each value, whose loads are its arm's; the glue
 * runs only when n > 0, so its j-invariant loads are the loop's.
 */
#include <stdlib.h>
#include <string.h>

#include "../rt/rt_types.h"
#define RXC_KERN_EXTERN 1 /* the opcodes and the prototype only */
#include "../rt/rt_kern_row.h"

#include "cg_int.h"

enum {
  ROW_MAX_NODES = 512, /* distinct subexpressions of one EXPR */
  ROW_MAX_SLOTS = 128, /* loads, and scalars, of one EXPR (a byte in the program) */
  ROW_MAX_INSNS = 255, /* instructions of a program (its first byte) */
  ROW_MAX_DEPTH = 8,   /* loops of a nest */
  ROW_MAX_CHAIN = 128, /* terms of a sum split into calls */
  ROW_MAX_PIECES = 8,  /* calls of a split sum */
};

typedef struct {
  const IrPrimExpr *e; /* the subexpression (its first occurrence) */
  int op;              /* RXC_R_* */
  int a, b, c;         /* operand nodes, -1: none */
  int slot;            /* RXC_R_LOAD: its pointer slot; RXC_R_SCALAR: its scalar slot */
  int last;            /* the last node that reads it */
  int reg;             /* its register */
  bool dead;           /* folded into an RXC_R_MADDL: no instruction */
  bool hoisted;        /* RXC_R_SCALAR in the prologue: set once per call */
} RowNode;

typedef struct {
  CgGen *g;
  IrArith *arith;
  const IrPrimFunc *f;
  const IrStmt *loop[ROW_MAX_DEPTH]; /* the nest, outermost first, each all of its parent's body */
  IrPrimExpr *extent[ROW_MAX_DEPTH];       /* its iterations (a literal guard's count for j's) */
  bool fixed[ROW_MAX_DEPTH]; /* its extent is 1: its var is its min, not a loop of the call */
  int depth;
  int split;             /* loop[split..depth) run a row's elements (j), the others its rows (i) */
  const IrPrimExpr *j;   /* the var of the row's innermost loop that is not fixed */
  const IrPrimExpr *i;   /* the var of the rows' innermost loop that is not fixed, or NULL */
  const IrStmt *store;   /* the loop's store */
  const IrPrimExpr *guard; /* the condition of the if around it, or NULL */
  const IrBuffer *root;  /* the memory DST is declared over */
  bool aliased;          /* two buffer parameters may share bytes (CgPrim) */
  IrVec plain;           /* loads evaluated outside select arms (IrPrimExpr *) */
  const IrPrimExpr *assumed; /* an invariant select condition the program takes as known, or NULL */
  bool assumed_value;    /* its value: the program is its select's arm a (true) or b */
  const IrPrimExpr *top; /* what the program computes: EXPR, or a piece of its sum (split) */
  const IrPrimExpr *cut; /* the piece below top, which an earlier call stored in DST, or NULL */
  const IrPrimExpr *piece[ROW_MAX_PIECES]; /* a split sum's calls' tops, first call first */
  int pieces;            /* 0: not split */
  const IrStmt *inlined; /* a loop whose scratch row EXPR computes in place of loading it, or NULL */
  RowNode node[ROW_MAX_NODES];
  int n;
  const IrPrimExpr *load[ROW_MAX_SLOTS]; /* the pointer slots */
  IrPrimExpr *stride[ROW_MAX_SLOTS];     /* their strides in j (int64) */
  IrPrimExpr *row_stride[ROW_MAX_SLOTS]; /* and in i (0 without an outer loop) */
  int nloads;
  const IrPrimExpr *scalar[ROW_MAX_SLOTS]; /* the scalar slots */
  int nscalars;
  int prologue; /* leading RXC_R_SCALAR instructions run once per call */
} Row;

/* --- what is j-invariant, affine, and where it points --------------------- */

static bool
is_var(const IrPrimExpr *e, void *user)
{
  return e == user;
}

static bool
uses(const IrPrimExpr *e, const IrPrimExpr *j)
{
  return ir_prim_walk(e, is_var, (void *)j);
}

/* Does e depend on the loops of the nest (those not fixed)? */
static bool
varies(const Row *r, const IrPrimExpr *e)
{
  for (int k = 0; k < r->depth; k++)
    if (!r->fixed[k] && uses(e, r->loop[k]->u.loop.var))
      return true;
  return false;
}

static bool
is_f32(IrDType t)
{
  return t.code == IR_DT_FLOAT && t.bits == 32 && t.lanes == 1;
}

static bool
is_int(IrDType t)
{
  return (t.code == IR_DT_INT || t.code == IR_DT_UINT) && t.lanes == 1;
}

/* The coefficient of j in integer expression e, an int64 expression, when
 * e is affine in j; NULL otherwise. */
static IrPrimExpr *
coefficient(IrCtx *ctx, const IrPrimExpr *e, const IrPrimExpr *j)
{
  if (!uses(e, j))
    return ir_prim_int(ctx, IR_I64, 0);
  if (e == j)
    return ir_prim_int(ctx, IR_I64, 1);
  if (!is_int(e->dtype))
    return NULL;
  IrPrimExpr *a, *b;
  switch (e->kind) {
  case IR_PE_ADD:
  case IR_PE_SUB:
    a = coefficient(ctx, e->u.bin.a, j);
    b = coefficient(ctx, e->u.bin.b, j);
    return a && b ? ir_prim_bin(ctx, e->kind, a, b) : NULL;
  case IR_PE_MUL:
    if (uses(e->u.bin.a, j) && uses(e->u.bin.b, j))
      return NULL;
    if (uses(e->u.bin.a, j)) {
      a = coefficient(ctx, e->u.bin.a, j);
      return a ? ir_prim_bin(ctx, IR_PE_MUL, a, ir_prim_cast(ctx, IR_I64, e->u.bin.b)) : NULL;
    }
    b = coefficient(ctx, e->u.bin.b, j);
    return b ? ir_prim_bin(ctx, IR_PE_MUL, ir_prim_cast(ctx, IR_I64, e->u.bin.a), b) : NULL;
  case IR_PE_CAST: /* between integers, widening: the same value */
    if (!is_int(e->u.bin.a->dtype) || e->u.bin.a->dtype.bits > e->dtype.bits)
      return NULL;
    return coefficient(ctx, e->u.bin.a, j);
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
  IrPrimExpr *c = index ? coefficient(ctx, index, var) : ir_prim_int(ctx, IR_I64, 0);
  for (int k = d + 1; c && k < n; k++)
    c = ir_prim_bin(ctx, IR_PE_MUL, c, ir_prim_cast(ctx, IR_I64, b->shape[k]));
  return c;
}

/* The stride in var (j or i) of a load (or the store) of b at idx: the
 * coefficient of var in the row-major offset, simplified; NULL when not
 * affine.  A pair of indices A + X // c, X % c counts as A * c + X
 * (cg_flat_pair), as the C writes it. */
static IrPrimExpr *
stride_of(Row *r, const IrBuffer *b, IrPrimExpr *const *idx, int n, const IrPrimExpr *var)
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
static bool
choice(const IrPrimExpr *e, const IrPrimExpr **c, const IrPrimExpr **a, const IrPrimExpr **b)
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
  if (choice(e, &c, &a, &b)) {
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
static bool
load_conflicts(const IrPrimExpr *e, void *user)
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
static const IrPrimExpr *
bare(const IrPrimExpr *e)
{
  while (e->kind == IR_PE_CAST && is_f32(e->dtype) && is_f32(e->u.bin.a->dtype))
    e = e->u.bin.a;
  return e;
}

/* Is e the NaN test "x != x" of a float32 x?  *x gets it. */
static bool
nan_test(const IrPrimExpr *e, const IrPrimExpr **x)
{
  if (e->kind != IR_PE_NE || !is_f32(e->u.bin.a->dtype) ||
      !ir_prim_expr_equal(bare(e->u.bin.a), bare(e->u.bin.b)))
    return false;
  *x = bare(e->u.bin.a);
  return true;
}

/* Is e max(x, y) (or min) of float32 x (*x) and y (*y)?  RXC_R_MAXN or
 * RXC_R_MINN, else -1. */
static int
max_of(const IrPrimExpr *e, const IrPrimExpr **x, const IrPrimExpr **y)
{
  if ((e->kind != IR_PE_MAX && e->kind != IR_PE_MIN) || !is_f32(e->u.bin.a->dtype))
    return -1;
  *x = bare(e->u.bin.a);
  *y = bare(e->u.bin.b);
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
  const IrPrimExpr *t, *u, *mx, *my, *f = bare(e->u.select.b);
  if (!nan_test(e->u.select.cond, &t) || !ir_prim_expr_equal(bare(e->u.select.a), t))
    return -1;
  int op = max_of(f, &mx, &my);
  if (op < 0 && f->kind == IR_PE_SELECT && nan_test(f->u.select.cond, &u) &&
      ir_prim_expr_equal(bare(f->u.select.a), u)) {
    op = max_of(bare(f->u.select.b), &mx, &my);
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
  if (!is_f32(b->dtype) || e->u.load.n != b->ndim || (arm && ir_prim_walk(e, load_safe, r)))
    return -1;
  IrPrimExpr *s = stride_of(r, b, e->u.load.indices, e->u.load.n, r->j);
  IrPrimExpr *rs = r->i ? stride_of(r, b, e->u.load.indices, e->u.load.n, r->i)
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
      {"tir.exp", RXC_R_EXP, true},      {"tir.log", RXC_R_LOG, true},
      {"tir.sqrt", RXC_R_SQRT, false},   {"tir.tanh", RXC_R_TANH, true},
      {"tir.erf", RXC_R_ERF, true},      {"tir.fabs", RXC_R_FABS, false},
      {"tir.abs", RXC_R_FABS, false},    {"tir.floor", RXC_R_FLOOR, false},
      {"tir.ceil", RXC_R_CEIL, false},   {"tir.round", RXC_R_NEARBYINT, false},
      {"tir.nearbyint", RXC_R_NEARBYINT, false}, {"tir.trunc", RXC_R_TRUNC, false},
      {"tir.sin", RXC_R_SIN, true},      {"tir.cos", RXC_R_COS, true},
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
  if (e->u.call.n != 1 || !is_f32(e->u.call.args[0]->dtype))
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
  if (logic ? t.code != IR_DT_BOOL || t.lanes != 1 : !is_f32(t))
    return -1;
  int a = translate(r, e->u.bin.a, arm);
  int b = a < 0 ? -1 : translate(r, e->u.bin.b, arm || logic); /* && and || may skip b */
  return b < 0 ? -1 : add_node(r, e, ops[k], a, b, -1);
}

/* A float32 choice (choice()): one RXC_R_SELECT, or RXC_R_MAXN for the
 * ops' NaN-propagating max, or the assumed condition's arm alone. */
static int
translate_choice(Row *r, const IrPrimExpr *e, bool arm)
{
  const IrPrimExpr *cond, *ea, *eb, *x, *y;
  choice(e, &cond, &ea, &eb);
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
    IrPrimExpr *dst = ir_prim_load(r->g->ctx, st->u.store.buffer, st->u.store.indices, st->u.store.n);
    return add_load(r, dst, false);
  }
  for (int i = 0; i < r->n; i++)
    if (r->node[i].e && ir_prim_expr_equal(r->node[i].e, e))
      return i;
  bool boolean = e->dtype.code == IR_DT_BOOL && e->dtype.lanes == 1;
  if (!is_f32(e->dtype) && !boolean)
    return -1;
  if (!varies(r, e))
    return add_scalar(r, e, arm);
  switch (e->kind) {
  case IR_PE_LOAD:
    return add_load(r, e, arm);
  case IR_PE_CAST: /* float32 to float32, bool to float32 (0 or 1 either way) */
    if (!is_f32(e->dtype) || !(is_f32(e->u.bin.a->dtype) || e->u.bin.a->dtype.code == IR_DT_BOOL))
      return -1;
    return translate(r, e->u.bin.a, arm);
  case IR_PE_NOT: {
    int a = translate(r, e->u.bin.a, arm);
    return a < 0 || e->u.bin.a->dtype.code != IR_DT_BOOL ? -1 : add_node(r, e, RXC_R_NOT, a, -1, -1);
  }
  case IR_PE_SELECT:
  case IR_PE_CALL: {
    const IrPrimExpr *c, *a, *b;
    if (!is_f32(e->dtype))
      return -1;
    return choice(e, &c, &a, &b) ? translate_choice(r, e, arm) : translate_call(r, e, arm);
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
static int
instructions(const Row *r)
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

/* --- the glue ------------------------------------------------------------- */

static const char *const OP_NAMES[RXC_R_COUNT] = {
    "RXC_R_LOAD", "RXC_R_SCALAR", "RXC_R_ADD", "RXC_R_SUB",  "RXC_R_MUL",       "RXC_R_DIV",
    "RXC_R_NEG",  "RXC_R_MAX",    "RXC_R_MIN", "RXC_R_EQ",   "RXC_R_NE",        "RXC_R_LT",
    "RXC_R_LE",   "RXC_R_GT",     "RXC_R_GE",  "RXC_R_AND",  "RXC_R_OR",        "RXC_R_NOT",
    "RXC_R_SELECT", "RXC_R_MAXN", "RXC_R_MINN", "RXC_R_MADDL", "RXC_R_EXP",  "RXC_R_LOG", "RXC_R_SQRT", "RXC_R_TANH",      "RXC_R_ERF",
    "RXC_R_FABS", "RXC_R_FLOOR",  "RXC_R_CEIL", "RXC_R_NEARBYINT", "RXC_R_TRUNC", "RXC_R_SIN",
    "RXC_R_COS",
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
  ir_buf_printf(o, "{%d, %d, %d,", instructions(r), r->node[result].reg, r->prologue);
  for (int k = 0; k < 2 * r->n; k++) {
    const RowNode *x = &r->node[k % r->n];
    if (x->dead || (k < r->n) != x->hoisted)
      continue; /* first pass: the prologue; second: the rest */
    bool slot = x->op == RXC_R_LOAD || x->op == RXC_R_SCALAR;
    ir_buf_puts(o, "\n");
    indent(ind, o);
    ir_buf_printf(o, "%s, %d, %d, %d, %d,", OP_NAMES[x->op], x->reg,
                  slot ? x->slot : x->a >= 0 ? r->node[x->a].reg : 0,
                  x->b >= 0 ? r->node[x->b].reg : 0,
                  x->op == RXC_R_MADDL ? x->slot : x->c >= 0 ? r->node[x->c].reg : 0);
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
  IrPrimExpr dst = {.kind = IR_PE_LOAD, .dtype = st->u.store.buffer->dtype};
  dst.u.load.buffer = st->u.store.buffer;
  dst.u.load.indices = st->u.store.indices;
  dst.u.load.n = st->u.store.n;
  cg_emit_expr(g, names, &dst, o);
  ir_buf_puts(o, ", ");
  if (r->i)
    cg_emit_expr(g, names, stride_of(r, dst.u.load.buffer, dst.u.load.indices, dst.u.load.n, r->i),
                 o);
  else
    ir_buf_puts(o, "0");
  ir_buf_puts(o, ", ");
  cg_emit_expr(g, names, stride_of(r, dst.u.load.buffer, dst.u.load.indices, dst.u.load.n, r->j), o);
  ir_buf_printf(o, ", %s, %s, %s);\n", ptrs, strides, scalars);
}

static int build(Row *r);

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
    emit_call(r, names, rows, count, build(r), ind + 1, o);
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
  emit_call(r, names, rows, count, build(r), ind + 1, o);
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
    ir_buf_printf(o, "%s%s", k == 0 ? "" : k + 1 < r->depth ? ", " : " and over ",
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
    n = local_name(g, names, KEY_COUNT, "row_n");
    indent(ind + 1, o);
    ir_buf_printf(o, "rxc_i64 %s = (rxc_i64)", n);
    cg_emit_expr(g, names, r->guard->u.bin.b, o);
    ir_buf_puts(o, " - (rxc_i64)");
    cg_emit_expr(g, names, r->guard->u.bin.a, o);
    ir_buf_printf(o, "%s;\n", r->guard->kind == IR_PE_LE ? " + 1" : "");
    indent(ind + 1, o);
    ir_buf_printf(o, "if (%s > %s)\n", n, count.data);
    indent(ind + 2, o);
    ir_buf_printf(o, "%s = %s;\n", n, count.data);
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
    if (!r->fixed[k] && v != r->j && uses(e, v))
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
  if ((c->kind != IR_PE_LT && c->kind != IR_PE_LE) || !is_int(c->u.bin.a->dtype) ||
      !is_int(c->u.bin.b->dtype) || varies(r, c->u.bin.b) || uses_other(r, c->u.bin.a))
    return NULL;
  IrPrimExpr *k = coefficient(r->g->ctx, c->u.bin.a, r->j);
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
  return unguard(r) && st && st->kind == IR_ST_STORE && is_f32(st->u.store.buffer->dtype) &&
         is_f32(st->u.store.value->dtype) && st->u.store.n == st->u.store.buffer->ndim;
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
      if (uses(r->loop[k]->u.loop.extent, v) || uses(r->loop[k]->u.loop.min, v))
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
  IrPrimExpr *sa = stride_of(r, buf, idx, n, r->loop[a]->u.loop.var);
  IrPrimExpr *sb = stride_of(r, buf, idx, n, r->loop[b]->u.loop.var);
  if (!sa || !sb)
    return false;
  IrPrimExpr *nb = ir_prim_cast(ctx, IR_I64, r->extent[b]);
  int64_t zero;
  IrPrimExpr *d = ir_arith_simplify(r->arith, ir_prim_bin(ctx, IR_PE_SUB, sa, ir_prim_bin(ctx, IR_PE_MUL, nb, sb)));
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
 * rows) by something not 0 (else i would go unused in the glue)? */
static bool
store_moves(Row *r)
{
  const IrStmt *st = r->store;
  int64_t stride, zero;
  IrPrimExpr *sd = stride_of(r, st->u.store.buffer, st->u.store.indices, st->u.store.n, r->j);
  IrPrimExpr *sr = r->i ? stride_of(r, st->u.store.buffer, st->u.store.indices, st->u.store.n, r->i)
                        : NULL;
  bool moves = !r->i || (sr && !(ir_prim_is_int(sr, &zero) && zero == 0));
  return sd && ir_prim_is_int(sd, &stride) && stride != 0 && moves;
}

/* EXPR as a program (with r->assumed's value): its result's node, -1
 * when it has something the kernel does not do or does not fit. */
static int
build(Row *r)
{
  const IrPrimExpr *value = r->top ? r->top : r->store->u.store.value;
  r->n = r->nloads = r->nscalars = 0;
  r->plain.len = 0;
  plain_loads(r, value);
  int result = translate(r, value, false);
  if (result >= 0)
    fuse_loads(r, result);
  return result >= 0 && instructions(r) <= ROW_MAX_INSNS && assign_registers(r, result) ? result
                                                                                          : -1;
}

/* The condition of a select C always evaluates (in no arm) that the nest
 * does not change (i2 == 0 ? 0.0f : part[..], a split reduction's first
 * pass), or NULL. */
static const IrPrimExpr *
invariant_select(const Row *r, const IrPrimExpr *e)
{
  const IrPrimExpr *c = NULL, *a, *b;
  if (choice(e, &c, &a, &b))
    return varies(r, c) ? invariant_select(r, c) : c;
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
  for (; e->kind == IR_PE_ADD && is_f32(e->dtype) && m < ROW_MAX_CHAIN; e = bare(e->u.bin.a))
    chain[m++] = e;
  int below = m; /* chain[below]: the last piece's top, m: none yet */
  r->pieces = 0;
  while (below > 0 && r->pieces < ROW_MAX_PIECES) {
    int k = 0; /* the largest piece above chain[below] that fits */
    for (; k < below; k++) {
      r->top = chain[k];
      r->cut = below < m ? chain[below] : NULL;
      if (build(r) >= 0 && all_hoisted(r))
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
    build(r); /* the whole sum's program again, which the tries replaced */
  }
  return r->pieces > 0;
}

/* --- two loops as one ------------------------------------------------------ */

typedef struct {
  const IrBuffer *scratch;   /* what A stores and B loads */
  const IrBuffer *dst_root;  /* the memory B stores into */
  const IrPrimExpr *from;    /* A's var */
  IrPrimExpr *to;            /* B's var */
  IrPrimExpr **index;        /* A's store index, B's var for A's */
  IrPrimExpr *value;         /* A's value, likewise */
  const IrPrimFunc *f;
  int loads;                 /* loads of the scratch's memory counted */
  bool bad;                  /* one that is not scratch[index] */
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
  Inline in = {.scratch = sa->u.store.buffer, .from = a->u.loop.var, .to = b->u.loop.var,
               .f = r->f, .dst_root = cg_buffer_root(r->f, sb->u.store.buffer)};
  const IrBuffer *s = in.scratch;
  int64_t stride;
  IrPrimExpr *st = stride_of(r, s, sa->u.store.indices, sa->u.store.n, a->u.loop.var);
  if (!is_f32(s->dtype) || sa->u.store.n != s->ndim || cg_buffer_is_param(r->f, s) ||
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
row_emit(Row *r, CgNames *names, const IrStmt *loop, int ind, IrBuf *o)
{
  CgGen *g = r->g;
  bool ok = nest_of(r, loop) && row_form(r) && group(r) && store_moves(r);
  r->root = ok ? cg_buffer_root(r->f, r->store->u.store.buffer) : NULL;
  ok = ok && r->root && !ir_prim_walk(r->store->u.store.value, load_conflicts, r);
  int result = ok ? build(r) : -1;
  if (ok && result < 0) { /* an arm C evaluates only on a condition: one program each way */
    r->assumed = invariant_select(r, r->store->u.store.value);
    r->assumed_value = false;
    ok = r->assumed && build(r) >= 0;
    r->assumed_value = true;
    result = ok ? build(r) : -1;
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
            const IrStmt *loop, int ind, IrBuf *o)
{
  if (g->cfg->codegen.rows == CFG_ROWS_OFF || loop->kind != IR_ST_FOR)
    return false;
  if (cg_reduce_emit(g, names, arith, f, p, loop, ind, o)) /* a loop of reductions */
    return true;
  Row *r = row_new(g, arith, f, p);
  bool ok = row_emit(r, names, loop, ind, o);
  row_free(r);
  if (ok)
    return true;
  r = row_new(g, arith, f, p); /* a row into a scratch, then the loop that reads it */
  const IrStmt *fused = inline_row(r, loop);
  ok = fused && row_emit(r, names, fused, ind, o);
  row_free(r);
  return ok;
}
