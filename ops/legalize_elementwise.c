/*
 * legalize_elementwise.c - LegalizeOps for the elementwise ops: one loop
 * nest over the output shape storing f(inputs) read with numpy
 * broadcasting.  (Temporary home: these move next to the ops' inference and
 * kernels in elementwise.c and nn.c.)
 *
 * Key idea: an op is a row of the table below, saying its arity, the name
 * TVM gives its prim_func, and the TIR operator or intrinsic it applies;
 * the loop nest and the call are the builder's (tir_build.h).
 */
#include "tir_build.h"

typedef struct {
  IrOpId id;
  const char *name;      /* prim_func name hint; output buffer is T_<name> */
  int arity;             /* operands: 1 to 3 */
  IrPrimKind kind;       /* binary: the TIR operator (IR_PE_CALL: intrinsic) */
  const char *intrinsic; /* "tir.exp", ...; NULL for the special cases */
} Elementwise;

static const Elementwise table[] = {
    {IR_OP_ADD, "add", 2, IR_PE_ADD, NULL},
    {IR_OP_SUBTRACT, "subtract", 2, IR_PE_SUB, NULL},
    {IR_OP_MULTIPLY, "multiply", 2, IR_PE_MUL, NULL},
    {IR_OP_DIVIDE, "divide", 2, IR_PE_DIV, NULL},
    {IR_OP_FLOOR_DIVIDE, "floor_divide", 2, IR_PE_FLOORDIV, NULL},
    {IR_OP_POWER, "power", 2, IR_PE_CALL, "tir.pow"},
    {IR_OP_MAXIMUM, "maximum", 2, IR_PE_MAX, NULL},
    {IR_OP_MINIMUM, "minimum", 2, IR_PE_MIN, NULL},
    {IR_OP_EQUAL, "equal", 2, IR_PE_EQ, NULL},
    {IR_OP_NOT_EQUAL, "not_equal", 2, IR_PE_NE, NULL},
    {IR_OP_LESS, "less", 2, IR_PE_LT, NULL},
    {IR_OP_LESS_EQUAL, "less_equal", 2, IR_PE_LE, NULL},
    {IR_OP_GREATER, "greater", 2, IR_PE_GT, NULL},
    {IR_OP_GREATER_EQUAL, "greater_equal", 2, IR_PE_GE, NULL},
    {IR_OP_NEGATIVE, "negative", 1, IR_PE_SUB, NULL},
    {IR_OP_ABS, "abs", 1, IR_PE_CALL, NULL},
    {IR_OP_EXP, "exp", 1, IR_PE_CALL, "tir.exp"},
    {IR_OP_LOG, "log", 1, IR_PE_CALL, "tir.log"},
    {IR_OP_SQRT, "sqrt", 1, IR_PE_CALL, "tir.sqrt"},
    {IR_OP_RSQRT, "rsqrt", 1, IR_PE_CALL, "tir.rsqrt"},
    {IR_OP_TANH, "tanh", 1, IR_PE_CALL, "tir.tanh"},
    {IR_OP_SIGMOID, "sigmoid", 1, IR_PE_CALL, "tir.sigmoid"},
    {IR_OP_ERF, "erf", 1, IR_PE_CALL, "tir.erf"},
    {IR_OP_RELU, "relu", 1, IR_PE_MAX, NULL},
    {IR_OP_WHERE, "where", 3, IR_PE_SELECT, NULL},
    {IR_OP_CLIP, "clip", 3, IR_PE_MAX, NULL},
    {IR_OP_ASTYPE, "astype", 1, IR_PE_CAST, NULL},
};

static const Elementwise *
find(IrOpId id)
{
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (table[i].id == id)
      return &table[i];
  return NULL;
}

static IrPrimExpr *
zero(IrCtx *ctx, IrDType t)
{
  return t.code == IR_DT_FLOAT || t.code == IR_DT_BFLOAT ? ir_prim_float(ctx, t, 0.0)
                                                          : ir_prim_int(ctx, t, 0);
}

/* An intrinsic call; the arguments are copied into the arena. */
static IrPrimExpr *
intrinsic(IrCtx *ctx, IrDType t, const char *name, IrPrimExpr *a, IrPrimExpr *b)
{
  IrPrimExpr **args = ir_alloc(ctx, 2 * sizeof *args);
  args[0] = a;
  args[1] = b;
  return ir_prim_call(ctx, t, ir_sym(ctx, name), args, b ? 2 : 1);
}

/* x converted to t when its dtype differs (a literal folds). */
static IrPrimExpr *
as(IrCtx *ctx, IrDType t, IrPrimExpr *x)
{
  if (ir_dtype_eq(x->dtype, t))
    return x;
  bool to_float = t.code == IR_DT_FLOAT || t.code == IR_DT_BFLOAT;
  if (x->kind == IR_PE_FLOAT && to_float)
    return ir_prim_float(ctx, t, x->u.float_value);
  if (x->kind == IR_PE_INT)
    return to_float ? ir_prim_float(ctx, t, (double)x->u.int_value)
                    : ir_prim_int(ctx, t, t.code == IR_DT_BOOL ? x->u.int_value != 0 : x->u.int_value);
  return ir_prim_cast(ctx, t, x);
}

static IrPrimExpr *
unary(IrCtx *ctx, const Elementwise *op, IrDType t, IrPrimExpr *x)
{
  x = as(ctx, t, x);
  switch (op->id) {
  case IR_OP_NEGATIVE:
    return ir_prim_bin(ctx, IR_PE_SUB, zero(ctx, t), x);
  case IR_OP_RELU:
    return ir_prim_bin(ctx, IR_PE_MAX, x, zero(ctx, t));
  case IR_OP_ASTYPE:
    return x;
  case IR_OP_ABS:
    if (t.code == IR_DT_FLOAT || t.code == IR_DT_BFLOAT)
      return intrinsic(ctx, t, "tir.fabs", x, NULL);
    if (t.code != IR_DT_INT)
      return x;
    return ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_GE, x, zero(ctx, t)), x,
                          ir_prim_bin(ctx, IR_PE_SUB, zero(ctx, t), x));
  default:
    return intrinsic(ctx, t, op->intrinsic, x, NULL);
  }
}

/* a op b; comparisons compare in a's dtype and give bool. */
static IrPrimExpr *
binary(IrCtx *ctx, const Elementwise *op, IrDType t, IrPrimExpr *a, IrPrimExpr *b)
{
  bool compare = op->kind >= IR_PE_EQ && op->kind <= IR_PE_GE;
  IrDType operand = compare ? a->dtype : t;
  a = as(ctx, operand, a);
  b = as(ctx, operand, b);
  if (op->kind == IR_PE_CALL)
    return intrinsic(ctx, t, op->intrinsic, a, b);
  return ir_prim_bin(ctx, op->kind, a, b);
}

/* where(c, a, b) and clip(x, lo, hi). */
static IrPrimExpr *
ternary(IrCtx *ctx, const Elementwise *op, IrDType t, IrPrimExpr **v)
{
  if (op->id == IR_OP_WHERE)
    return ir_prim_select(ctx, as(ctx, IR_BOOL, v[0]), as(ctx, t, v[1]), as(ctx, t, v[2]));
  IrPrimExpr *below = ir_prim_bin(ctx, IR_PE_MIN, as(ctx, t, v[0]), as(ctx, t, v[2]));
  return ir_prim_bin(ctx, IR_PE_MAX, below, as(ctx, t, v[1]));
}

/* An operand's value at the output index: a tensor read with broadcasting,
 * or a prim value (its symbolic vars mapped into the function); NULL when
 * the argument is neither. */
static IrPrimExpr *
operand(OpPrim *p, const IrExpr *arg, const char *name, IrPrimExpr **index, int out_ndim)
{
  if (arg->kind == IR_EX_PRIM)
    return op_prim_dim(p, arg->u.prim);
  IrBuffer *b = op_prim_input(p, arg, name);
  return b && b->ndim <= out_ndim ? op_prim_load_bcast(p, b, index, out_ndim) : NULL;
}

bool
op_legalize_elementwise_has(IrOpId id)
{
  return find(id) != NULL;
}

IrExpr *
op_legalize_elementwise(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  const Elementwise *op = find(call->u.call.op->id);
  if (!op || call->u.call.nargs < op->arity)
    return NULL;
  OpPrim p;
  op_prim_begin(lz, &p, op->name);
  /* the output first, for the loop nest over its shape (finish puts the
   * inputs first among the params all the same) */
  IrBuffer *out = op_prim_output(&p, result, ir_printf(lz->ctx, "T_%s", op->name));
  IrPrimExpr **i = NULL;
  IrStmt **body = out ? op_prim_loops(&p, out->shape, out->ndim, &i) : NULL;
  static const char *const names[] = {"A", "B", "C"};
  IrPrimExpr *v[3] = {NULL, NULL, NULL};
  for (int k = 0; body && k < op->arity; k++)
    if (!(v[k] = operand(&p, call->u.call.args[k], names[k], i, out->ndim)))
      body = NULL;
  if (!body) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr *value = op->arity == 3   ? ternary(lz->ctx, op, out->dtype, v)
                      : op->arity == 2 ? binary(lz->ctx, op, out->dtype, v[0], v[1])
                                       : unary(lz->ctx, op, out->dtype, v[0]);
  *body = op_prim_store(&p, out, i, value);
  return op_prim_finish(&p, call, result);
}
