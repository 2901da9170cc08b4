/*
 * elementwise.c - elementwise and broadcasting ops: struct-info inference and
 * reference kernels of R.add ... R.greater_equal, the logical, bitwise and
 * shift ops, R.where, R.ewise_fma, the unary math ops and tests (R.isnan),
 * R.clip, R.astype and R.wrap_param.
 *
 * Key ideas:
 *  - An operand is a tensor or a prim value (R.prim_value, a 0-d operand);
 *    inference reads both through one Operand view, which also covers
 *    unknown struct info (R.Object, R.Tensor(ndim=-1)) so that the result
 *    is as precise as the arguments allow and never a crash.
 *  - Kernels follow numpy broadcasting by index arithmetic: each output
 *    element maps back to one element of every input (a size-1 dim, or a
 *    missing leading dim, always reads index 0).  Floats are computed in
 *    double and rounded to the dtype on store; ints in int64, wrapping to
 *    the dtype's width on store.
 *  - Integer R.divide truncates toward zero, as TVM's legalization does
 *    (topi.divide builds tir.Div, which is C's truncating division on
 *    ints); R.floor_divide floors (tir.floordiv) on ints and is floor(a/b)
 *    on floats.  An integer division by zero is an error, not a crash.
 *  - R.maximum / R.minimum / R.clip propagate NaN, as numpy does.
 *  - R.mod is C's remainder (fmod on floats), R.floor_mod takes the sign of
 *    the divisor; shifts past the width give numpy's answers (0, or -1 for
 *    a negative right operand), where TVM's are undefined; R.log_add_exp
 *    is numpy's overflow-free form, where TVM writes log(exp(a) + exp(b)).
 *  - An op refuses the dtypes TVM cannot lower (Takes): the float math
 *    ints, the bitwise ops and shifts floats, the logical ops non-bool.
 *  - Legalization is one loop nest over the output shape storing f(inputs)
 *    read with broadcasting (tir_build.h).  The lowered code computes what
 *    the kernel computes, NaN included.
 *  - Each op is one entry of the table at the end; its Elementwise row
 *    says the prim_func's name, the TIR operator or intrinsic it applies
 *    and, for a unary op, its kernel functions, so that a unary op with a
 *    TIR intrinsic is that one line.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "tir_build.h"

/* The operand dtypes an op takes beyond what its kernels imply. */
typedef enum {
  TAKES_ANY,      /* every dtype (a unary row without unary_int: floats only) */
  TAKES_FLOAT,    /* floats */
  TAKES_INT,      /* integers (the shifts) */
  TAKES_INT_BOOL, /* integers and bool (the bitwise ops) */
  TAKES_BOOL,     /* bool (the logical ops) */
} Takes;

/* What an entry's .data says about its op. */
typedef struct {
  const char *name;              /* prim_func name hint; the output buffer is T_<name> */
  int arity;                     /* operands: 1 to 3 */
  IrPrimKind kind;               /* binary: the TIR operator (IR_PE_CALL: intrinsic) */
  const char *intrinsic;         /* "tir.exp", ...; NULL for the special cases */
  bool compare;                  /* a comparison or a test (isnan): the result is bool */
  double (*unary)(double);       /* a unary op's kernel on floats, in double */
  int64_t (*unary_int)(int64_t); /* on ints, wrapping; NULL: floats only */
  Takes takes;                   /* TAKES_ANY unless the op refuses some dtypes */
} Elementwise;

static const Elementwise *
row_of(const IrExpr *call)
{
  return op_of(call->u.call.op)->data;
}

/* NULL when the op takes operands of dtype t (or t is unknown), else what
 * it takes, for "requires %s operand".  A unary op without an integer
 * kernel (exp, log, ...) takes floats only.  TVM's inference refuses only
 * those; its legalization refuses the other cases (tir's bitwise ops on
 * floats, logical ones on non-bool), which rxc refuses here, up front. */
static const char *
takes_refusal(const Elementwise *row, IrDType t)
{
  bool fl = ir_dtype_is_float(t), bl = t.code == IR_DT_BOOL;
  if (t.code == IR_DT_VOID)
    return NULL;
  switch (row->unary && !row->unary_int ? TAKES_FLOAT : row->takes) {
  case TAKES_ANY:
    return NULL;
  case TAKES_FLOAT:
    return fl ? NULL : "a float";
  case TAKES_INT:
    return !fl && !bl ? NULL : "an integer";
  case TAKES_INT_BOOL:
    return !fl ? NULL : "an integer or bool";
  case TAKES_BOOL:
    return bl ? NULL : "a bool";
  }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

/* What inference knows of one tensor-or-prim operand. */
typedef struct {
  bool is_prim;       /* an R.Prim: a 0-d operand whose result stays prim */
  int ndim;           /* -1 when unknown */
  IrPrimExpr **shape; /* ndim dims, or NULL when unknown */
  IrDType dtype;      /* IR_VOID when unknown */
  int vdevice;        /* -1 none */
} Operand;

static const char *
sinfo_kind_name(const IrSInfo *s)
{
  switch (s->kind) {
  case IR_SI_OBJECT:
    return "an object";
  case IR_SI_PRIM:
    return "a prim value";
  case IR_SI_SHAPE:
    return "a shape";
  case IR_SI_TENSOR:
    return "a tensor";
  case IR_SI_TUPLE:
    return "a tuple";
  case IR_SI_FUNC:
    return "a function";
  }
  return "a value";
}

/* Whether the call has n arguments; an error when not. */
static bool
check_nargs(OpInfer *in, const OpSite *s, int n)
{
  if (s->call->u.call.nargs == n)
    return true;
  return op_fail(s, "expects %d arguments, got %d", n, s->call->u.call.nargs);
}

/* Reads argument i as an operand; false after an error when it is neither
 * a tensor, a prim value nor unknown. */
static bool
operand_read(OpInfer *in, const OpSite *site, IrSInfo **args, int i, Operand *o)
{
  const IrSInfo *s = args[i];
  *o = (Operand){false, -1, NULL, IR_VOID, -1};
  switch (s->kind) {
  case IR_SI_OBJECT:
    return true;
  case IR_SI_PRIM:
    o->is_prim = true;
    o->ndim = 0;
    o->shape = ir_alloc(in->ctx, sizeof(IrPrimExpr *));
    o->dtype = s->u.prim.dtype;
    return true;
  case IR_SI_TENSOR:
    o->ndim = s->u.tensor.ndim;
    o->shape = s->shape_len ? NULL : s->u.tensor.shape;
    o->dtype = s->u.tensor.dtype;
    o->vdevice = s->u.tensor.vdevice;
    if (o->ndim < 0)
      o->shape = NULL;
    return true;
  default:
    return op_fail(site, "argument %d must be a tensor or a prim value, not %s", i + 1,
                   sinfo_kind_name(s));
  }
}

/* The common dtype of two operands: the known one when the other is
 * unknown; an error naming both when they differ. */
static bool
dtype_join(OpInfer *in, const OpSite *site, IrDType a, IrDType b, IrDType *out)
{
  char da[16], db[16];
  if (a.code != IR_DT_VOID && b.code != IR_DT_VOID && !ir_dtype_eq(a, b))
    return op_fail(site, "operand data types differ: %s and %s", ir_dtype_str(a, da),
                   ir_dtype_str(b, db));
  *out = a.code != IR_DT_VOID ? a : b;
  return true;
}

/* Broadcasts two operands' shapes into r (rank -1 when either is unknown;
 * shape NULL when a dim cannot be decided); false after an error. */
static bool
operand_broadcast(OpInfer *in, const IrExpr *call, const Operand *a, const Operand *b, Operand *r)
{
  r->is_prim = a->is_prim && b->is_prim;
  r->vdevice = a->vdevice >= 0 ? a->vdevice : b->vdevice;
  r->shape = NULL;
  if (a->ndim < 0 || b->ndim < 0) {
    r->ndim = -1;
    return true;
  }
  r->ndim = a->ndim > b->ndim ? a->ndim : b->ndim;
  if (!a->shape || !b->shape)
    return true;
  return op_broadcast_shapes(in, call, a->shape, a->ndim, b->shape, b->ndim, &r->shape, &r->ndim);
}

/* The struct info of an operand-shaped result with dtype t. */
static IrSInfo *
operand_sinfo(OpInfer *in, const Operand *o, IrDType t)
{
  if (o->is_prim)
    return ir_sinfo_prim(in->ctx, t, NULL);
  return ir_sinfo_tensor(in->ctx, o->shape, o->ndim, t, o->vdevice);
}

/* Whether the op takes operands of dtype t; an error when not.  Kernels
 * check too: inference may not have known t. */
static bool
check_takes(const OpSite *s, IrDType t)
{
  char dt[16];
  const char *want = takes_refusal(row_of(s->call), t);
  if (want)
    return op_fail(s, "requires %s operand, not %s", want, ir_dtype_str(t, dt));
  return true;
}

/* Binary arithmetic and comparisons: numpy broadcasting, equal dtypes;
 * comparisons give bool. */
static IrSInfo *
infer_binary(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  Operand a, b, r;
  IrDType t;
  if (!check_nargs(in, s, 2))
    return NULL;
  if (!operand_read(in, s, args, 0, &a) || !operand_read(in, s, args, 1, &b))
    return NULL;
  if (!dtype_join(in, s, a.dtype, b.dtype, &t) || !check_takes(s, t))
    return NULL;
  if (!operand_broadcast(in, s->call, &a, &b, &r))
    return NULL;
  return operand_sinfo(in, &r, row_of(s->call)->compare ? IR_BOOL : t);
}

/* R.where(cond, x1, x2): three-way broadcasting, cond bool, x1 and x2 of
 * one dtype which is the result's. */
static IrSInfo *
infer_where(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  Operand c, a, b, ab, r;
  IrDType t;
  char dc[16];
  if (!check_nargs(in, site, 3))
    return NULL;
  for (int i = 0; i < 3; i++)
    if (!operand_read(in, site, args, i, i == 0 ? &c : i == 1 ? &a : &b))
      return NULL;
  if (c.dtype.code != IR_DT_VOID && c.dtype.code != IR_DT_BOOL)
    return op_fail_null(site, "the condition must be bool, not %s", ir_dtype_str(c.dtype, dc));
  if (!dtype_join(in, site, a.dtype, b.dtype, &t))
    return NULL;
  if (!operand_broadcast(in, site->call, &a, &b, &ab) || !operand_broadcast(in, site->call, &c, &ab, &r))
    return NULL;
  return operand_sinfo(in, &r, t);
}

/* R.ewise_fma(x1, x2, x3): x1 * x2 + x3 of three tensors of one dtype and
 * one rank whose dims are provably equal (TVM's rule: no broadcasting, and
 * a pair of dims the arithmetic cannot prove equal is an error); the shape
 * is unknown when any operand's is. */
static IrSInfo *
infer_ewise_fma(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  Operand o[3];
  IrDType t = IR_VOID;
  int ndim = -1;
  if (!check_nargs(in, site, 3))
    return NULL;
  for (int i = 0; i < 3; i++) {
    if (args[i]->kind != IR_SI_TENSOR && args[i]->kind != IR_SI_OBJECT)
      return op_fail_null(site, "argument %d must be a tensor, not %s", i + 1,
                          sinfo_kind_name(args[i]));
    if (!operand_read(in, site, args, i, &o[i]) || !dtype_join(in, site, t, o[i].dtype, &t))
      return NULL;
    if (o[i].ndim >= 0 && ndim >= 0 && o[i].ndim != ndim)
      return op_fail_null(site,
                          "the 3 arguments must have the same number of dimensions: %d and %d",
                          ndim, o[i].ndim);
    if (o[i].ndim >= 0)
      ndim = o[i].ndim;
  }
  bool known = o[0].shape && o[1].shape && o[2].shape;
  for (int i = 1; known && i < 3; i++)
    for (int d = 0; d < ndim; d++)
      if (op_prove_equal(in, o[0].shape[d], o[i].shape[d]) != IR_PROVE_TRUE)
        return op_fail_null(site, "the 3 arguments must have the same shape: %s and %s",
                            op_sinfo_text(in->ctx, args[0]), op_sinfo_text(in->ctx, args[i]));
  int vdevice = o[0].vdevice;
  for (int i = 1; i < 3; i++)
    if (o[i].vdevice != vdevice)
      vdevice = -1;
  return ir_sinfo_tensor(in->ctx, known ? o[0].shape : NULL, ndim, t, vdevice);
}

/* Unary ops and R.clip: the result has the operand's struct info. */
static IrSInfo *
infer_unary(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  Operand x;
  int want = site->call->u.call.op->id == IR_OP_CLIP ? 3 : 1;
  if (!check_nargs(in, site, want) || !operand_read(in, site, args, 0, &x))
    return NULL;
  if (!check_takes(site, x.dtype))
    return NULL;
  for (int i = 1; i < want; i++) {
    if (args[i]->kind != IR_SI_PRIM && args[i]->kind != IR_SI_OBJECT)
      return op_fail_null(site, "argument %s must be a prim value, not %s", i == 1 ? "min" : "max",
                          sinfo_kind_name(args[i]));
  }
  return operand_sinfo(in, &x, row_of(site->call)->compare ? IR_BOOL : x.dtype);
}

/* R.astype(x, dtype=...): x's shape with the new dtype. */
static IrSInfo *
infer_astype(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  Operand x;
  IrDType t;
  const IrAttr *a = op_attr(site->call, "dtype");
  if (!check_nargs(in, site, 1) || !operand_read(in, site, args, 0, &x))
    return NULL;
  if (!a || a->kind != IR_AT_STR || !ir_dtype_parse(a->u.s, strlen(a->u.s), &t))
    return op_fail_null(site, "the dtype attribute must name a data type");
  return operand_sinfo(in, &x, t);
}

/* ------------------------------------------------------------------ */
/* Kernels: broadcasting by index arithmetic                           */
/* ------------------------------------------------------------------ */

/* The tensor view of a kernel argument: a prim value becomes a 0-d
 * tensor.  NULL (after an error) for any other value. */
static IrTensorData *
eval_tensor(OpEval *ev, const OpSite *s, Value *v, int i)
{
  if (v->kind == VAL_TENSOR)
    return &v->u.tensor.t;
  if (v->kind == VAL_PRIM) {
    int64_t no_dims[1] = {0}; /* op_tensor_new copies ndim entries: none */
    Value *t = op_tensor_new(ev->ctx, v->u.prim.dtype, 0, no_dims, ev->loc);
    if (!t)
      return NULL;
    if (ir_dtype_is_float(v->u.prim.dtype))
      op_set_f(&t->u.tensor.t, 0, v->u.prim.f);
    else
      op_set_i(&t->u.tensor.t, 0, v->u.prim.i);
    return &t->u.tensor.t;
  }
  return op_fail_null(s, "argument %d must be a tensor or a prim value", i + 1);
}

static void
shape_print(const IrTensorData *t, IrBuf *b)
{
  ir_buf_puts(b, "(");
  for (int i = 0; i < t->ndim; i++)
    ir_buf_printf(b, i ? ", %lld" : "%lld", (long long)t->shape[i]);
  ir_buf_puts(b, t->ndim == 1 ? ",)" : ")");
}

/* The broadcast shape of n concrete tensors (arena); false after an error
 * naming the shapes up to the first one that disagrees. */
static bool
eval_broadcast(OpEval *ev, const OpSite *site, IrTensorData **in, int n, int64_t **shape, int *ndim)
{
  int r = 0;
  for (int k = 0; k < n; k++)
    r = in[k]->ndim > r ? in[k]->ndim : r;
  int64_t *s = ir_alloc(ev->ctx, sizeof(int64_t) * (size_t)(r ? r : 1));
  for (int i = 0; i < r; i++)
    s[i] = 1;
  for (int k = 0; k < n; k++) {
    for (int d = 0; d < in[k]->ndim; d++) {
      int i = r - in[k]->ndim + d;
      int64_t v = in[k]->shape[d];
      if (v == s[i] || v == 1)
        continue;
      if (s[i] != 1) {
        IrBuf b = {0};
        for (int j = 0; j < k; j++) {
          shape_print(in[j], &b);
          ir_buf_puts(&b, " and ");
        }
        shape_print(in[k], &b);
        op_report(site, "cannot broadcast shapes %s", b.data);
        ir_buf_free(&b);
        return false;
      }
      s[i] = v;
    }
  }
  *shape = s;
  *ndim = r;
  return true;
}

/* The flat index into t of output element i of a result of shape
 * (shape, ndim) that t broadcasts to. */
static int64_t
source_index(const IrTensorData *t, const int64_t *shape, int ndim, int64_t i)
{
  int64_t index = 0, stride = 1;
  for (int d = ndim - 1, td = t->ndim - 1; td >= 0; d--, td--) {
    int64_t coord = i % shape[d];
    i /= shape[d];
    if (t->shape[td] != 1)
      index += coord * stride;
    stride *= t->shape[td];
  }
  return index;
}

/* The result value: a prim when every argument was a prim (as inference
 * said), else the tensor itself. */
static Value *
eval_result(OpEval *ev, Value **args, int n, Value *out)
{
  for (int k = 0; k < n; k++)
    if (args[k]->kind != VAL_PRIM)
      return out;
  const IrTensorData *t = &out->u.tensor.t;
  if (ir_dtype_is_float(t->dtype))
    return op_prim_float(ev->ctx, t->dtype, op_get_f(t, 0));
  return op_prim_int(ev->ctx, t->dtype, op_get_i(t, 0));
}

/* ---- binary kernels ---- */

/* Integer floor division; b != 0, and INT64_MIN / -1 wraps. */
static int64_t
floor_div_int(int64_t a, int64_t b)
{
  if (b == -1)
    return (int64_t)(0 - (uint64_t)a);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;
  return q;
}

/* numpy's floor remainder: fmod (exact) moved into b's sign.  TVM writes
 * a - floor(a / b) * b, the same number before its roundings. */
static double
floor_mod_float(double a, double b)
{
  double r = fmod(a, b);
  return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

/* log(exp(a) + exp(b)) without overflow, as numpy's logaddexp: the larger
 * plus log1p(exp(-|a - b|)); a + ln 2 when equal (infinities included).
 * TVM's tir.logaddexp is the naive log(exp(a) + exp(b)), inf from a = 89
 * in float32: the same number wherever that one is finite. */
static double
log_add_exp(double a, double b)
{
  if (a == b)
    return a + 0.6931471805599453;
  double m = isnan(a) || isnan(b) ? NAN : a > b ? a : b;
  return m + log1p(exp(-fabs(a - b)));
}

/* A comparison's answer from its operands' order: less, equal, greater
 * (none of them when one is NaN, as IEEE compares). */
static bool
compare(IrOpId id, bool less, bool equal, bool greater)
{
  switch (id) {
  case IR_OP_EQUAL:
    return equal;
  case IR_OP_NOT_EQUAL:
    return !equal;
  case IR_OP_LESS:
    return less;
  case IR_OP_LESS_EQUAL:
    return less || equal;
  case IR_OP_GREATER:
    return greater;
  case IR_OP_GREATER_EQUAL:
    return greater || equal;
  default:
    UNREACHABLE();
    return false;
  }
}

/* A binary op on floats, in double (comparisons: compare). */
static double
binary_float(IrOpId id, double a, double b)
{
  switch (id) {
  case IR_OP_ADD:
    return a + b;
  case IR_OP_SUBTRACT:
    return a - b;
  case IR_OP_MULTIPLY:
    return a * b;
  case IR_OP_DIVIDE:
    return a / b;
  case IR_OP_FLOOR_DIVIDE:
    return floor(a / b);
  case IR_OP_MOD:
    return fmod(a, b);
  case IR_OP_FLOOR_MOD:
    return floor_mod_float(a, b);
  case IR_OP_POWER:
    return pow(a, b);
  case IR_OP_ATAN2:
    return atan2(a, b);
  case IR_OP_LOG_ADD_EXP:
    return log_add_exp(a, b);
  case IR_OP_MAXIMUM:
    return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
  case IR_OP_MINIMUM:
    return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
  default:
    UNREACHABLE();
    return 0;
  }
}

int64_t
op_power_int(int64_t a, int64_t b)
{
  uint64_t r = 1, base = (uint64_t)a;
  if (b < 0)
    return a == 1 ? 1 : a == -1 ? (b % 2 ? -1 : 1) : 0;
  for (; b > 0; b >>= 1) {
    if (b & 1)
      r *= base;
    base *= base;
  }
  return (int64_t)r;
}

/* The truncated (C) and floor remainders of integers of dtype t; b != 0.
 * uint64 values past INT64_MAX read as negative int64, so unsigned ones
 * divide as unsigned; a divisor of -1 leaves 0 (INT64_MIN % -1 traps). */
static int64_t
mod_int(IrDType t, bool floor, int64_t a, int64_t b)
{
  if (t.code == IR_DT_UINT)
    return (int64_t)((uint64_t)a % (uint64_t)b);
  if (b == -1)
    return 0;
  int64_t r = a % b;
  return floor && r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

/* -1, 0 or 1 as a is below, equal to or above b, integers of dtype t:
 * uint64 values past INT64_MAX read as negative int64, so unsigned ones
 * are ordered as unsigned. */
static int
int_order(IrDType t, int64_t a, int64_t b)
{
  if (t.code == IR_DT_UINT)
    return (uint64_t)a < (uint64_t)b ? -1 : a != b;
  return a < b ? -1 : a > b;
}

/* A binary op on integers (and bools) of dtype t, in int64 wrapping
 * arithmetic, unsigned ones divided and ordered as unsigned (comparisons:
 * compare); the caller has excluded division by zero. */
static int64_t
binary_int(IrOpId id, IrDType t, int64_t a, int64_t b)
{
  switch (id) {
  case IR_OP_ADD:
    return (int64_t)((uint64_t)a + (uint64_t)b);
  case IR_OP_SUBTRACT:
    return (int64_t)((uint64_t)a - (uint64_t)b);
  case IR_OP_MULTIPLY:
    return (int64_t)((uint64_t)a * (uint64_t)b);
  case IR_OP_DIVIDE: /* truncating, as TVM's tir.Div on ints */
    if (t.code == IR_DT_UINT)
      return (int64_t)((uint64_t)a / (uint64_t)b);
    return b == -1 ? (int64_t)(0 - (uint64_t)a) : a / b;
  case IR_OP_FLOOR_DIVIDE:
    if (t.code == IR_DT_UINT)
      return (int64_t)((uint64_t)a / (uint64_t)b);
    return floor_div_int(a, b);
  case IR_OP_MOD:
  case IR_OP_FLOOR_MOD:
    return mod_int(t, id == IR_OP_FLOOR_MOD, a, b);
  case IR_OP_POWER:
    return op_power_int(a, b);
  case IR_OP_MAXIMUM:
    return int_order(t, a, b) > 0 ? a : b;
  case IR_OP_MINIMUM:
    return int_order(t, a, b) < 0 ? a : b;
  case IR_OP_LOGICAL_AND:
    return a && b;
  case IR_OP_LOGICAL_OR:
    return a || b;
  case IR_OP_LOGICAL_XOR:
    return (a != 0) != (b != 0);
  case IR_OP_BITWISE_AND:
    return a & b;
  case IR_OP_BITWISE_OR:
    return a | b;
  case IR_OP_BITWISE_XOR:
    return a ^ b;
  case IR_OP_LEFT_SHIFT: /* the intrinsic's numbers, past the width included */
    return ir_tir_intrin_find("tir.shift_left", 2)->bits(t, a, b);
  case IR_OP_RIGHT_SHIFT:
    return ir_tir_intrin_find("tir.shift_right", 2)->bits(t, a, b);
  default:
    UNREACHABLE();
    return 0;
  }
}

/* Reads the arguments of an n-ary broadcasting kernel and allocates its
 * output of dtype t (or input like's dtype when t is void); NULL after an
 * error. */
static Value *
eval_prepare(OpEval *ev, const OpSite *s, Value **args, int n, IrDType t, int like,
             IrTensorData **in)
{
  int64_t *shape;
  int ndim;
  for (int k = 0; k < n; k++)
    if (!(in[k] = eval_tensor(ev, s, args[k], k)))
      return NULL;
  if (!eval_broadcast(ev, s, in, n, &shape, &ndim))
    return NULL;
  return op_tensor_new(ev->ctx, t.code != IR_DT_VOID ? t : in[like]->dtype, ndim, shape, ev->loc);
}

static Value *
eval_binary(OpEval *ev, const OpSite *s, Value **args)
{
  IrOpId id = s->call->u.call.op->id;
  IrTensorData *in[2];
  Value *v = eval_prepare(ev, s, args, 2, row_of(s->call)->compare ? IR_BOOL : IR_VOID, 0, in);
  if (!v || !check_takes(s, in[0]->dtype))
    return NULL;
  IrTensorData *out = &v->u.tensor.t;
  int64_t n = op_numel(out);
  bool fl = ir_dtype_is_float(in[0]->dtype) || ir_dtype_is_float(in[1]->dtype);
  bool divides =
      id == IR_OP_DIVIDE || id == IR_OP_FLOOR_DIVIDE || id == IR_OP_MOD || id == IR_OP_FLOOR_MOD;
  bool cmp = row_of(s->call)->compare;
  for (int64_t i = 0; i < n; i++) {
    int64_t ia = source_index(in[0], out->shape, out->ndim, i);
    int64_t ib = source_index(in[1], out->shape, out->ndim, i);
    if (fl) {
      double a = op_get_f(in[0], ia), b = op_get_f(in[1], ib);
      if (cmp)
        op_set_i(out, i, compare(id, a < b, a == b, a > b));
      else
        op_set_f(out, i, binary_float(id, a, b));
      continue;
    }
    int64_t a = op_get_i(in[0], ia), b = op_get_i(in[1], ib);
    if (divides && b == 0)
      return op_fail_null(s, "integer division by zero");
    int order = int_order(in[0]->dtype, a, b);
    op_set_i(out, i, cmp ? compare(id, order < 0, order == 0, order > 0) : binary_int(id, in[0]->dtype, a, b));
  }
  return eval_result(ev, args, 2, v);
}

/* R.where(c, x1, x2) and R.ewise_fma(x1, x2, x3): three broadcast
 * operands, the result of x1's dtype.  ewise_fma: floats in double,
 * rounded once at the store; ints in wrapping int64 arithmetic, wrapped
 * to the dtype at the store. */
static Value *
eval_ternary(OpEval *ev, const OpSite *s, Value **args)
{
  bool where = s->call->u.call.op->id == IR_OP_WHERE;
  IrTensorData *in[3];
  Value *v = eval_prepare(ev, s, args, 3, IR_VOID, where ? 1 : 0, in);
  if (!v)
    return NULL;
  IrTensorData *out = &v->u.tensor.t;
  bool fl = ir_dtype_is_float(out->dtype);
  int64_t n = op_numel(out);
  for (int64_t i = 0; i < n; i++) {
    int64_t j[3];
    for (int k = 0; k < 3; k++)
      j[k] = source_index(in[k], out->shape, out->ndim, i);
    if (where) {
      int k = op_get_i(in[0], j[0]) != 0 ? 1 : 2;
      if (fl)
        op_set_f(out, i, op_get_f(in[k], j[k]));
      else
        op_set_i(out, i, op_get_i(in[k], j[k]));
    } else if (fl) {
      op_set_f(out, i, op_get_f(in[0], j[0]) * op_get_f(in[1], j[1]) + op_get_f(in[2], j[2]));
    } else {
      uint64_t p = (uint64_t)op_get_i(in[0], j[0]) * (uint64_t)op_get_i(in[1], j[1]);
      op_set_i(out, i, (int64_t)(p + (uint64_t)op_get_i(in[2], j[2])));
    }
  }
  return eval_result(ev, args, 3, v);
}

/* ---- unary kernels, clip, astype ---- */

/* The kernels of the unary rows that libm does not have. */
static double
negate(double x)
{
  return -x;
}

static int64_t
negate_int(int64_t x)
{
  return (int64_t)(0 - (uint64_t)x);
}

/* wrapping: the minimum is its own absolute value */
static int64_t
abs_int(int64_t x)
{
  return x < 0 ? negate_int(x) : x;
}

static double
rsqrt(double x)
{
  return 1 / sqrt(x);
}

static double
sigmoid(double x)
{
  return 1 / (1 + exp(-x));
}

/* ceil, floor, round and trunc leave integers as they are (TVM's tir) */
static int64_t
identity_int(int64_t x)
{
  return x;
}

/* TVM's topi.sign: x > 0 ? 1 : x < 0 ? -1 : 0, so NaN gives 0 (numpy: NaN) */
static double
sign(double x)
{
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}

static int64_t
sign_int(int64_t x)
{
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}

static double
square(double x)
{
  return x * x;
}

static int64_t
square_int(int64_t x)
{
  return (int64_t)((uint64_t)x * (uint64_t)x);
}

/* The tests give bool (compare rows); an integer is never NaN or infinite. */
static double
is_nan_value(double x)
{
  return isnan(x);
}

static double
is_inf_value(double x)
{
  return isinf(x) != 0;
}

static double
is_finite_value(double x)
{
  return isfinite(x);
}

static int64_t
never_int(int64_t x)
{
  (void)x;
  return 0;
}

static int64_t
always_int(int64_t x)
{
  (void)x;
  return 1;
}

static int64_t
logical_not_int(int64_t x)
{
  return !x;
}

/* on bool the one bit kept (eval_unary) makes it logical not, as TVM's */
static int64_t
bitwise_not_int(int64_t x)
{
  return ~x;
}

static Value *
eval_unary(OpEval *ev, const OpSite *s, Value **args)
{
  const Elementwise *row = row_of(s->call);
  IrTensorData *in[1];
  Value *v = eval_prepare(ev, s, args, 1, row->compare ? IR_BOOL : IR_VOID, 0, in);
  if (!v || !check_takes(s, in[0]->dtype))
    return NULL;
  IrTensorData *out = &v->u.tensor.t;
  bool fl = ir_dtype_is_float(in[0]->dtype);
  /* a bool result keeps its one bit, as an integer wraps to its width */
  bool one_bit = out->dtype.code == IR_DT_BOOL && !row->compare;
  int64_t n = op_numel(out);
  for (int64_t i = 0; i < n; i++) {
    if (fl && row->compare) {
      op_set_i(out, i, row->unary(op_get_f(in[0], i)) != 0);
    } else if (fl) {
      op_set_f(out, i, row->unary(op_get_f(in[0], i)));
    } else {
      int64_t r = row->unary_int(op_get_i(in[0], i));
      op_set_i(out, i, one_bit ? r & 1 : r);
    }
  }
  return eval_result(ev, args, 1, v);
}

/* R.clip(x, min, max) = min(max(x, lo), hi); NaN stays NaN. */
static Value *
eval_clip(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *in[1];
  if (args[1]->kind != VAL_PRIM || args[2]->kind != VAL_PRIM)
    return op_fail_null(s, "min and max must be prim values");
  Value *v = eval_prepare(ev, s, args, 1, IR_VOID, 0, in);
  if (!v)
    return NULL;
  IrTensorData *out = &v->u.tensor.t;
  const Value *lo = args[1], *hi = args[2];
  int64_t n = op_numel(out);
  for (int64_t i = 0; i < n; i++) {
    if (ir_dtype_is_float(out->dtype)) {
      double x = op_get_f(in[0], i);
      x = x < lo->u.prim.f ? lo->u.prim.f : x;
      op_set_f(out, i, x > hi->u.prim.f ? hi->u.prim.f : x);
    } else {
      int64_t x = op_get_i(in[0], i);
      x = x < lo->u.prim.i ? lo->u.prim.i : x;
      op_set_i(out, i, x > hi->u.prim.i ? hi->u.prim.i : x);
    }
  }
  return eval_result(ev, args, 1, v);
}

/* R.astype: floats convert through double (to an int: toward zero), ints
 * through int64 (to a narrower int: wrapping), anything to bool is != 0. */
static Value *
eval_astype(OpEval *ev, const OpSite *site, Value **args)
{
  IrTensorData *in[1];
  IrDType t;
  const IrAttr *a = op_attr(site->call, "dtype");
  if (!a || a->kind != IR_AT_STR || !ir_dtype_parse(a->u.s, strlen(a->u.s), &t))
    return op_fail_null(site, "the dtype attribute must name a data type");
  Value *v = eval_prepare(ev, site, args, 1, t, 0, in);
  if (!v)
    return NULL;
  IrTensorData *out = &v->u.tensor.t;
  int64_t n = op_numel(out);
  for (int64_t i = 0; i < n; i++) {
    if (ir_dtype_is_float(in[0]->dtype))
      op_set_f(out, i, op_get_f(in[0], i));
    else
      op_set_i(out, i, op_get_i(in[0], i));
  }
  return eval_result(ev, args, 1, v);
}

/* ------------------------------------------------------------------ */
/* Legalization: one loop nest over the output shape                   */
/* ------------------------------------------------------------------ */

static IrPrimExpr *
zero(IrCtx *ctx, IrDType t)
{
  return ir_dtype_is_float(t) ? ir_prim_float(ctx, t, 0.0) : ir_prim_int(ctx, t, 0);
}

/* An intrinsic call of one or two arguments (b NULL for one). */
static IrPrimExpr *
intrinsic(IrCtx *ctx, IrDType t, const char *name, IrPrimExpr *a, IrPrimExpr *b)
{
  IrPrimExpr **args = ir_alloc(ctx, 2 * sizeof *args);
  args[0] = a;
  args[1] = b;
  return ir_prim_intrin(ctx, t, name, args, b ? 2 : 1);
}

/* x converted to t when its dtype differs (a literal folds). */
static IrPrimExpr *
as(IrCtx *ctx, IrDType t, IrPrimExpr *x)
{
  if (ir_dtype_eq(x->dtype, t))
    return x;
  if (x->kind == IR_PE_FLOAT && ir_dtype_is_float(t))
    return ir_prim_float(ctx, t, x->u.float_value);
  if (x->kind == IR_PE_INT && ir_dtype_is_float(t))
    return ir_prim_float(ctx, t, (double)x->u.int_value);
  if (x->kind == IR_PE_INT)
    return ir_prim_int(ctx, t, t.code == IR_DT_BOOL ? x->u.int_value != 0 : x->u.int_value);
  return ir_prim_cast(ctx, t, x);
}

/* Is the float x NaN?  Written x != x, which is IEEE's NaN test and needs
 * no intrinsic. */
static IrPrimExpr *
is_nan(IrCtx *ctx, IrPrimExpr *x)
{
  return ir_prim_bin(ctx, IR_PE_NE, x, x);
}

/* T.max / T.min, which pick one operand by a comparison, made to
 * propagate NaN on floats as the kernels do. */
static IrPrimExpr *
nan_max_min(IrCtx *ctx, IrPrimKind kind, IrPrimExpr *a, IrPrimExpr *b)
{
  IrPrimExpr *m = ir_prim_bin(ctx, kind, a, b);
  if (!ir_dtype_is_float(a->dtype))
    return m;
  return ir_prim_select(ctx, is_nan(ctx, a), a, ir_prim_select(ctx, is_nan(ctx, b), b, m));
}

/* The literal 1 or -1 of dtype t. */
static IrPrimExpr *
unit(IrCtx *ctx, IrDType t, int v)
{
  return as(ctx, t, ir_prim_int(ctx, IR_I64, v));
}

/* sign(x) as topi.sign: x > 0 ? 1 : (x < 0 ? -1 : 0); unsigned values and
 * bools are never below 0. */
static IrPrimExpr *
lower_sign(IrCtx *ctx, IrDType t, IrPrimExpr *x)
{
  IrPrimExpr *z = zero(ctx, t), *below = z;
  if (t.code == IR_DT_INT || ir_dtype_is_float(t))
    below = ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_LT, x, z), unit(ctx, t, -1), z);
  return ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_GT, x, z), unit(ctx, t, 1), below);
}


/* x * x, wrapping (op_prim_wrapping). */
static IrPrimExpr *
lower_square(IrCtx *ctx, IrDType t, IrPrimExpr *x)
{
  return op_prim_wrapping(ctx, IR_PE_MUL, t, x, x);
}

static IrPrimExpr *
lower_unary(IrCtx *ctx, IrOpId id, const Elementwise *op, IrDType t, IrPrimExpr *x)
{
  if (op->compare) /* isnan, isinf, isfinite of the operand as it is; constant on integers */
    return ir_dtype_is_float(x->dtype) ? intrinsic(ctx, IR_BOOL, op->intrinsic, x, NULL)
                              : ir_prim_int(ctx, IR_BOOL, op->unary_int(0));
  x = as(ctx, t, x);
  switch (id) {
  case IR_OP_NEGATIVE: /* wrapping: -INT_MIN is undefined in C */
    return op_prim_wrapping(ctx, IR_PE_SUB, t, zero(ctx, t), x);
  case IR_OP_SIGN:
    return lower_sign(ctx, t, x);
  case IR_OP_SQUARE:
    return lower_square(ctx, t, x);
  case IR_OP_CEIL:
  case IR_OP_FLOOR:
  case IR_OP_ROUND:
  case IR_OP_TRUNC:
    return ir_dtype_is_float(t) ? intrinsic(ctx, t, op->intrinsic, x, NULL) : x;
  case IR_OP_LOGICAL_NOT:
    return ir_prim_bin(ctx, IR_PE_NOT, x, NULL);
  case IR_OP_BITWISE_NOT: /* ~ of a bool in C would be -2 or -1 */
    if (t.code == IR_DT_BOOL)
      return ir_prim_bin(ctx, IR_PE_NOT, x, NULL);
    return intrinsic(ctx, t, op->intrinsic, x, NULL);
  case IR_OP_ASTYPE:
  case IR_OP_WRAP_PARAM:
    return x;
  case IR_OP_ABS:
    if (ir_dtype_is_float(t))
      return intrinsic(ctx, t, "tir.fabs", x, NULL);
    if (t.code != IR_DT_INT)
      return x;
    return ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_GE, x, zero(ctx, t)), x,
                          op_prim_wrapping(ctx, IR_PE_SUB, t, zero(ctx, t), x));
  default:
    return intrinsic(ctx, t, op->intrinsic, x, NULL);
  }
}

/* floor_mod_float: r = fmod(a, b) (T.truncmod on floats), r + b where r is
 * nonzero and its sign is not b's. */
static IrPrimExpr *
lower_floor_mod_float(IrCtx *ctx, IrDType t, IrPrimExpr *a, IrPrimExpr *b)
{
  IrPrimExpr *r = ir_prim_bin(ctx, IR_PE_MOD, a, b), *z = zero(ctx, t);
  IrPrimExpr *flip = ir_prim_bin(ctx, IR_PE_NE, ir_prim_bin(ctx, IR_PE_LT, r, z),
                                 ir_prim_bin(ctx, IR_PE_LT, b, z));
  IrPrimExpr *fix = ir_prim_bin(ctx, IR_PE_AND, ir_prim_bin(ctx, IR_PE_NE, r, z), flip);
  return ir_prim_select(ctx, fix, ir_prim_bin(ctx, IR_PE_ADD, r, b), r);
}

/* log_add_exp as its kernel: a == b ? a + ln 2 : max(a, b) + log1p(exp(-|a - b|)),
 * the max propagating NaN. */
static IrPrimExpr *
lower_log_add_exp(IrCtx *ctx, IrDType t, IrPrimExpr *a, IrPrimExpr *b)
{
  IrPrimExpr *d = intrinsic(ctx, t, "tir.fabs", ir_prim_bin(ctx, IR_PE_SUB, a, b), NULL);
  IrPrimExpr *e = intrinsic(ctx, t, "tir.exp", ir_prim_bin(ctx, IR_PE_SUB, zero(ctx, t), d), NULL);
  IrPrimExpr *far = ir_prim_bin(ctx, IR_PE_ADD, nan_max_min(ctx, IR_PE_MAX, a, b),
                                intrinsic(ctx, t, "tir.log1p", e, NULL));
  IrPrimExpr *near = ir_prim_bin(ctx, IR_PE_ADD, a, ir_prim_float(ctx, t, 0.6931471805599453));
  return ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_EQ, a, b), near, far);
}

/* left_shift / right_shift as the kernel defines them past the width,
 * with C's shift only within it (b read as unsigned: a negative amount is
 * past): a << b on the unsigned type of a's width (a negative a is
 * undefined in C), a >> b of a signed a arithmetic (implementation-defined
 * in C; arithmetic in gcc, clang and tcc), by at most bits - 1, so that a
 * appears once (a requantization's long product, fused, is not copied).
 *
 * The zero past the width is a mask, not a select:
 *   (a << (b & (bits - 1))) & (0 - (b < bits))
 * gcc 12 at -O3 with AVX2 or AVX-512 if-converts the select form
 * b < bits ? a << b : 0 into vector code that gives 0 for some amounts
 * within the width (uint32, uint16, int64 left; uint16, uint32 right;
 * tests/ops/cases.py's shift cases under -O3 -march=native). */
static IrPrimExpr *
lower_shift(IrCtx *ctx, IrOpId id, IrDType t, IrPrimExpr *a, IrPrimExpr *b)
{
  IrDType u = {IR_DT_UINT, t.bits, 1};
  IrPrimExpr *bu = t.code == IR_DT_UINT ? b : ir_prim_cast(ctx, u, b);
  IrPrimExpr *within = ir_prim_bin(ctx, IR_PE_LT, bu, ir_prim_int(ctx, u, t.bits));
  if (id == IR_OP_RIGHT_SHIFT && t.code == IR_DT_INT) /* past the width is a >> (bits - 1) */
    return intrinsic(ctx, t, "tir.shift_right", a,
                     ir_prim_select(ctx, within, b, ir_prim_int(ctx, b->dtype, t.bits - 1)));
  IrPrimExpr *amount = intrinsic(ctx, u, "tir.bitwise_and", bu, ir_prim_int(ctx, u, t.bits - 1));
  IrPrimExpr *mask = ir_prim_bin(ctx, IR_PE_SUB, ir_prim_int(ctx, u, 0), ir_prim_cast(ctx, u, within));
  IrPrimExpr *au = t.code == IR_DT_UINT ? a : ir_prim_cast(ctx, u, a);
  IrPrimExpr *v = intrinsic(ctx, u,
                            id == IR_OP_LEFT_SHIFT ? "tir.shift_left" : "tir.shift_right", au, amount);
  v = intrinsic(ctx, u, "tir.bitwise_and", v, mask);
  return t.code == IR_DT_UINT ? v : ir_prim_cast(ctx, t, v);
}

/* a op b; comparisons compare in a's dtype and give bool. */
static IrPrimExpr *
lower_binary(IrCtx *ctx, IrOpId id, const Elementwise *op, IrDType t, IrPrimExpr *a, IrPrimExpr *b)
{
  IrDType operand_type = op->compare ? a->dtype : t;
  a = as(ctx, operand_type, a);
  b = as(ctx, operand_type, b);
  if (id == IR_OP_FLOOR_MOD && ir_dtype_is_float(t))
    return lower_floor_mod_float(ctx, t, a, b);
  if (id == IR_OP_LOG_ADD_EXP)
    return lower_log_add_exp(ctx, t, a, b);
  if (id == IR_OP_LEFT_SHIFT || id == IR_OP_RIGHT_SHIFT)
    return lower_shift(ctx, id, t, a, b);
  if (op->kind == IR_PE_CALL)
    return intrinsic(ctx, t, op->intrinsic, a, b);
  if (op->kind == IR_PE_MAX || op->kind == IR_PE_MIN)
    return nan_max_min(ctx, op->kind, a, b);
  if (op->kind == IR_PE_ADD || op->kind == IR_PE_SUB || op->kind == IR_PE_MUL)
    return op_prim_wrapping(ctx, op->kind, t, a, b);
  return ir_prim_bin(ctx, op->kind, a, b);
}

/* where(c, a, b); ewise_fma as its kernel: floats in float64 (one
 * rounding, at the store), ints wrapping; and clip(x, lo, hi) as the kernel
 * computes it: y = x < lo ? lo : x, then y > hi ? hi : y (a NaN x stays
 * NaN; integers: min(max(x, lo), hi), the same). */
static IrPrimExpr *
lower_ternary(IrCtx *ctx, IrOpId id, IrDType t, IrPrimExpr **v)
{
  if (id == IR_OP_WHERE)
    return ir_prim_select(ctx, as(ctx, IR_BOOL, v[0]), as(ctx, t, v[1]), as(ctx, t, v[2]));
  if (id == IR_OP_EWISE_FMA) {
    IrDType w = ir_dtype_is_float(t) ? (IrDType){IR_DT_FLOAT, 64, 1} : t;
    IrPrimExpr *p = op_prim_wrapping(ctx, IR_PE_MUL, w, as(ctx, w, v[0]), as(ctx, w, v[1]));
    return as(ctx, t, op_prim_wrapping(ctx, IR_PE_ADD, w, p, as(ctx, w, v[2])));
  }
  IrPrimExpr *x = as(ctx, t, v[0]), *lo = as(ctx, t, v[1]), *hi = as(ctx, t, v[2]);
  if (!ir_dtype_is_float(t)) /* the same without NaN, x written once */
    return ir_prim_bin(ctx, IR_PE_MIN, ir_prim_bin(ctx, IR_PE_MAX, x, lo), hi);
  IrPrimExpr *y = ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_LT, x, lo), lo, x);
  return ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_GT, y, hi), hi, y);
}

/* An operand's value at the output index: a tensor read with broadcasting,
 * or a prim value (its symbolic vars mapped into the function); NULL when
 * the argument is neither. */
static IrPrimExpr *
lower_operand(OpPrim *p, const IrExpr *arg, const char *name, IrPrimExpr **index,
              const IrBuffer *out)
{
  if (arg->kind == IR_EX_PRIM)
    return op_prim_dim(p, arg->u.prim);
  IrBuffer *b = op_prim_input(p, arg, name);
  return b && b->ndim <= out->ndim ? op_prim_load_bcast(p, b, index, out) : NULL;
}

/* Is arg a float constant whose every element is 2 (power's x2 in a
 * decomposed LayerNorm or variance)?  Then x ** 2 lowers to x * x: the
 * product rounded once is the correctly rounded square, which is what
 * pow(x, 2.0) returns, and unlike a call of pow it vectorizes. */
static bool
is_const_two(const IrExpr *arg)
{
  if (arg->kind != IR_EX_CONST || !ir_dtype_is_float(arg->u.constant.dtype))
    return false;
  int64_t n = op_numel(&arg->u.constant);
  for (int64_t i = 0; i < n; i++)
    if (op_get_f(&arg->u.constant, i) != 2.0)
      return false;
  return n > 0;
}

/* Is arg a constant without a 0 element (a divisor that needs no check)? */
static bool
is_const_nonzero(const IrExpr *arg)
{
  if (arg->kind != IR_EX_CONST)
    return false;
  int64_t n = op_numel(&arg->u.constant);
  for (int64_t i = 0; i < n; i++)
    if (op_get_i(&arg->u.constant, i) == 0)
      return false;
  return true;
}

/* The kernel's refusal of an integer division by zero, asserted before
 * the loop that writes: no element of the divisor arg (the input buffer
 * made last, or a prim value) is 0, when the output has an element (then
 * every element of the divisor is read: each of its dims is 1 or the
 * output's).  A literal or constant without a 0 needs no check. */
static void
check_divisor(OpPrim *p, const IrExpr *arg, const IrBuffer *out)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *any = op_prim_nonempty(ctx, out->shape, out->ndim), **i, *b;
  int64_t v;
  IrStmt **slot;
  if (is_const_nonzero(arg))
    return;
  if (arg->kind == IR_EX_PRIM) {
    b = op_prim_dim(p, arg->u.prim);
    if (ir_prim_is_int(b, &v) && v != 0)
      return;
    slot = op_prim_check_loops(p, NULL, 0, &i, any);
  } else {
    IrBuffer *buf = p->inputs.items[p->inputs.len - 1];
    slot = op_prim_check_loops(p, buf->shape, buf->ndim, &i, any);
    b = op_prim_load(p, buf, i);
  }
  *slot = op_prim_assert(p, ir_prim_bin(ctx, IR_PE_NE, b, zero(ctx, b->dtype)),
                         "integer division by zero");
}

/* The legalize hook of every op of this file: out[i...] = f(operands at
 * i...), or NULL (the call kept) when a shape or dtype is not known. */
static IrExpr *
legalize_elementwise(OpLegalize *lz, const OpSite *site, IrSInfo *result)
{
  IrOpId id = site->call->u.call.op->id;
  const Elementwise *op = row_of(site->call);
  if (site->call->u.call.nargs < op->arity)
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
  const IrSInfo *base = site->call->u.call.args[0]->sinfo;
  bool square = id == IR_OP_POWER && out && ir_dtype_is_float(out->dtype) && base &&
                base->kind == IR_SI_TENSOR && ir_dtype_eq(base->u.tensor.dtype, out->dtype) &&
                is_const_two(site->call->u.call.args[1]);
  for (int k = 0; body && k < (square ? 1 : op->arity); k++)
    if (!(v[k] = lower_operand(&p, site->call->u.call.args[k], names[k], i, out)))
      body = NULL;
  if (!body) {
    op_prim_abort(&p);
    return NULL;
  }
  if ((op_of(site->call->u.call.op)->flags & OP_CHECKS_DATA) && !ir_dtype_is_float(out->dtype))
    check_divisor(&p, site->call->u.call.args[1], out);
  if (square) {
    IrPrimExpr *x = as(lz->ctx, out->dtype, v[0]);
    *body = op_prim_store(&p, out, i, ir_prim_bin(lz->ctx, IR_PE_MUL, x, x));
    return op_prim_finish(&p, site->call, result);
  }
  IrPrimExpr *value = op->arity == 3   ? lower_ternary(lz->ctx, id, out->dtype, v)
                      : op->arity == 2 ? lower_binary(lz->ctx, id, op, out->dtype, v[0], v[1])
                                       : lower_unary(lz->ctx, id, op, out->dtype, v[0]);
  *body = op_prim_store(&p, out, i, value);
  return op_prim_finish(&p, site->call, result);
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

#define E OP_ARG
#define BINARY                                                                                     \
  .syn.params = {E("x1"), E("x2")}, .syn.nparams = 2,                                              \
  .impl = {infer_binary, eval_binary, legalize_elementwise}
#define UNARY                                                                                      \
  .syn.params = {E("x")}, .syn.nparams = 1, .impl = {infer_unary, eval_unary, legalize_elementwise}
/* An entry's Elementwise row: name, arity, kind, intrinsic, compare, unary,
 * unary_int; ROW_TAKES first says which dtypes an op refuses to take. */
/* clang-format off */
#define ROW(...) .data = &(const Elementwise){__VA_ARGS__, TAKES_ANY}
#define ROW_TAKES(takes, ...) .data = &(const Elementwise){__VA_ARGS__, takes}
/* clang-format on */

static const OpDef defs[] = {
    OP(IR_OP_ADD, "relax.add", BINARY, ROW("add", 2, IR_PE_ADD, NULL, false, NULL, NULL)),
    OP(IR_OP_SUBTRACT, "relax.subtract", BINARY,
       ROW("subtract", 2, IR_PE_SUB, NULL, false, NULL, NULL)),
    OP(IR_OP_MULTIPLY, "relax.multiply", BINARY,
       ROW("multiply", 2, IR_PE_MUL, NULL, false, NULL, NULL)),
    OP(IR_OP_DIVIDE, "relax.divide", BINARY, ROW("divide", 2, IR_PE_DIV, NULL, false, NULL, NULL),
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_FLOOR_DIVIDE, "relax.floor_divide", BINARY,
       ROW("floor_divide", 2, IR_PE_FLOORDIV, NULL, false, NULL, NULL), .flags = OP_CHECKS_DATA),
    OP(IR_OP_MOD, "relax.mod", BINARY, ROW("mod", 2, IR_PE_MOD, NULL, false, NULL, NULL),
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_FLOOR_MOD, "relax.floor_mod", BINARY,
       ROW("floor_mod", 2, IR_PE_FLOORMOD, NULL, false, NULL, NULL), .flags = OP_CHECKS_DATA),
    OP(IR_OP_POWER, "relax.power", BINARY,
       ROW("power", 2, IR_PE_CALL, "tir.pow", false, NULL, NULL)),
    OP(IR_OP_ATAN2, "relax.atan2", BINARY,
       ROW_TAKES(TAKES_FLOAT, "atan2", 2, IR_PE_CALL, "tir.atan2", false, NULL, NULL)),
    OP(IR_OP_LOG_ADD_EXP, "relax.log_add_exp", BINARY,
       ROW_TAKES(TAKES_FLOAT, "log_add_exp", 2, IR_PE_CALL, NULL, false, NULL, NULL)),
    OP(IR_OP_MAXIMUM, "relax.maximum", BINARY,
       ROW("maximum", 2, IR_PE_MAX, NULL, false, NULL, NULL)),
    OP(IR_OP_MINIMUM, "relax.minimum", BINARY,
       ROW("minimum", 2, IR_PE_MIN, NULL, false, NULL, NULL)),
    OP(IR_OP_EQUAL, "relax.equal", BINARY, ROW("equal", 2, IR_PE_EQ, NULL, true, NULL, NULL)),
    OP(IR_OP_NOT_EQUAL, "relax.not_equal", BINARY,
       ROW("not_equal", 2, IR_PE_NE, NULL, true, NULL, NULL)),
    OP(IR_OP_LESS, "relax.less", BINARY, ROW("less", 2, IR_PE_LT, NULL, true, NULL, NULL)),
    OP(IR_OP_LESS_EQUAL, "relax.less_equal", BINARY,
       ROW("less_equal", 2, IR_PE_LE, NULL, true, NULL, NULL)),
    OP(IR_OP_GREATER, "relax.greater", BINARY, ROW("greater", 2, IR_PE_GT, NULL, true, NULL, NULL)),
    OP(IR_OP_GREATER_EQUAL, "relax.greater_equal", BINARY,
       ROW("greater_equal", 2, IR_PE_GE, NULL, true, NULL, NULL)),
    OP(IR_OP_LOGICAL_AND, "relax.logical_and", BINARY,
       ROW_TAKES(TAKES_BOOL, "logical_and", 2, IR_PE_AND, NULL, false, NULL, NULL)),
    OP(IR_OP_LOGICAL_OR, "relax.logical_or", BINARY,
       ROW_TAKES(TAKES_BOOL, "logical_or", 2, IR_PE_OR, NULL, false, NULL, NULL)),
    OP(IR_OP_LOGICAL_XOR, "relax.logical_xor", BINARY,
       ROW_TAKES(TAKES_BOOL, "logical_xor", 2, IR_PE_NE, NULL, false, NULL, NULL)),
    OP(IR_OP_BITWISE_AND, "relax.bitwise_and", BINARY,
       ROW_TAKES(TAKES_INT_BOOL, "bitwise_and", 2, IR_PE_CALL, "tir.bitwise_and", false, NULL,
                 NULL)),
    OP(IR_OP_BITWISE_OR, "relax.bitwise_or", BINARY,
       ROW_TAKES(TAKES_INT_BOOL, "bitwise_or", 2, IR_PE_CALL, "tir.bitwise_or", false, NULL, NULL)),
    OP(IR_OP_BITWISE_XOR, "relax.bitwise_xor", BINARY,
       ROW_TAKES(TAKES_INT_BOOL, "bitwise_xor", 2, IR_PE_CALL, "tir.bitwise_xor", false, NULL,
                 NULL)),
    OP(IR_OP_LEFT_SHIFT, "relax.left_shift", BINARY,
       ROW_TAKES(TAKES_INT, "left_shift", 2, IR_PE_CALL, "tir.shift_left", false, NULL, NULL)),
    OP(IR_OP_RIGHT_SHIFT, "relax.right_shift", BINARY,
       ROW_TAKES(TAKES_INT, "right_shift", 2, IR_PE_CALL, "tir.shift_right", false, NULL, NULL)),
    OP(IR_OP_WHERE, "relax.where", .syn.params = {E("condition"), E("x1"), E("x2")},
       .syn.nparams = 3, .impl = {infer_where, eval_ternary, legalize_elementwise},
       ROW("where", 3, IR_PE_SELECT, NULL, false, NULL, NULL)),
    OP(IR_OP_EWISE_FMA, "relax.ewise_fma", .syn.params = {E("x1"), E("x2"), E("x3")},
       .syn.nparams = 3, .impl = {infer_ewise_fma, eval_ternary, legalize_elementwise},
       ROW("ewise_fma", 3, IR_PE_ADD, NULL, false, NULL, NULL)),
    OP(IR_OP_NEGATIVE, "relax.negative", UNARY,
       ROW("negative", 1, IR_PE_SUB, NULL, false, negate, negate_int)),
    OP(IR_OP_ABS, "relax.abs", UNARY, ROW("abs", 1, IR_PE_CALL, NULL, false, fabs, abs_int)),
    OP(IR_OP_SIGN, "relax.sign", UNARY, ROW("sign", 1, IR_PE_SELECT, NULL, false, sign, sign_int)),
    OP(IR_OP_SQUARE, "relax.square", UNARY,
       ROW("square", 1, IR_PE_MUL, NULL, false, square, square_int)),
    OP(IR_OP_CEIL, "relax.ceil", UNARY,
       ROW("ceil", 1, IR_PE_CALL, "tir.ceil", false, ceil, identity_int)),
    OP(IR_OP_FLOOR, "relax.floor", UNARY,
       ROW("floor", 1, IR_PE_CALL, "tir.floor", false, floor, identity_int)),
    OP(IR_OP_ROUND, "relax.round", UNARY,
       ROW("round", 1, IR_PE_CALL, "tir.round", false, nearbyint, identity_int)),
    OP(IR_OP_TRUNC, "relax.trunc", UNARY,
       ROW("trunc", 1, IR_PE_CALL, "tir.trunc", false, trunc, identity_int)),
    OP(IR_OP_EXP, "relax.exp", UNARY, ROW("exp", 1, IR_PE_CALL, "tir.exp", false, exp, NULL)),
    OP(IR_OP_LOG, "relax.log", UNARY, ROW("log", 1, IR_PE_CALL, "tir.log", false, log, NULL)),
    OP(IR_OP_SQRT, "relax.sqrt", UNARY, ROW("sqrt", 1, IR_PE_CALL, "tir.sqrt", false, sqrt, NULL)),
    OP(IR_OP_RSQRT, "relax.rsqrt", UNARY,
       ROW("rsqrt", 1, IR_PE_CALL, "tir.rsqrt", false, rsqrt, NULL)),
    OP(IR_OP_SIN, "relax.sin", UNARY, ROW("sin", 1, IR_PE_CALL, "tir.sin", false, sin, NULL)),
    OP(IR_OP_COS, "relax.cos", UNARY, ROW("cos", 1, IR_PE_CALL, "tir.cos", false, cos, NULL)),
    OP(IR_OP_TAN, "relax.tan", UNARY, ROW("tan", 1, IR_PE_CALL, "tir.tan", false, tan, NULL)),
    OP(IR_OP_ASIN, "relax.asin", UNARY, ROW("asin", 1, IR_PE_CALL, "tir.asin", false, asin, NULL)),
    OP(IR_OP_ACOS, "relax.acos", UNARY, ROW("acos", 1, IR_PE_CALL, "tir.acos", false, acos, NULL)),
    OP(IR_OP_ATAN, "relax.atan", UNARY, ROW("atan", 1, IR_PE_CALL, "tir.atan", false, atan, NULL)),
    OP(IR_OP_SINH, "relax.sinh", UNARY, ROW("sinh", 1, IR_PE_CALL, "tir.sinh", false, sinh, NULL)),
    OP(IR_OP_COSH, "relax.cosh", UNARY, ROW("cosh", 1, IR_PE_CALL, "tir.cosh", false, cosh, NULL)),
    OP(IR_OP_TANH, "relax.tanh", UNARY, ROW("tanh", 1, IR_PE_CALL, "tir.tanh", false, tanh, NULL)),
    OP(IR_OP_ASINH, "relax.asinh", UNARY,
       ROW("asinh", 1, IR_PE_CALL, "tir.asinh", false, asinh, NULL)),
    OP(IR_OP_ACOSH, "relax.acosh", UNARY,
       ROW("acosh", 1, IR_PE_CALL, "tir.acosh", false, acosh, NULL)),
    OP(IR_OP_ATANH, "relax.atanh", UNARY,
       ROW("atanh", 1, IR_PE_CALL, "tir.atanh", false, atanh, NULL)),
    OP(IR_OP_SIGMOID, "relax.sigmoid", UNARY,
       ROW("sigmoid", 1, IR_PE_CALL, "tir.sigmoid", false, sigmoid, NULL)),
    OP(IR_OP_ERF, "relax.erf", UNARY, ROW("erf", 1, IR_PE_CALL, "tir.erf", false, erf, NULL)),
    OP(IR_OP_ISNAN, "relax.isnan", UNARY,
       ROW("isnan", 1, IR_PE_CALL, "tir.isnan", true, is_nan_value, never_int)),
    OP(IR_OP_ISINF, "relax.isinf", UNARY,
       ROW("isinf", 1, IR_PE_CALL, "tir.isinf", true, is_inf_value, never_int)),
    OP(IR_OP_ISFINITE, "relax.isfinite", UNARY,
       ROW("isfinite", 1, IR_PE_CALL, "tir.isfinite", true, is_finite_value, always_int)),
    OP(IR_OP_LOGICAL_NOT, "relax.logical_not", UNARY,
       ROW_TAKES(TAKES_BOOL, "logical_not", 1, IR_PE_NOT, NULL, false, NULL, logical_not_int)),
    OP(IR_OP_BITWISE_NOT, "relax.bitwise_not", UNARY,
       ROW_TAKES(TAKES_INT_BOOL, "bitwise_not", 1, IR_PE_CALL, "tir.bitwise_not", false, NULL,
                 bitwise_not_int)),
    OP(IR_OP_CLIP, "relax.clip",
       .syn.params = {E("x"), {"min", IR_PARAM_PRIM, NULL}, {"max", IR_PARAM_PRIM, NULL}},
       .syn.nparams = 3, .impl = {infer_unary, eval_clip, legalize_elementwise},
       ROW("clip", 3, IR_PE_SELECT, NULL, false, NULL, NULL)),
    OP(IR_OP_ASTYPE, "relax.astype", .syn.params = {E("x"), OP_ATTR("dtype", NULL)},
       .syn.nparams = 2, .impl = {infer_astype, eval_astype, legalize_elementwise},
       ROW("astype", 1, IR_PE_CAST, NULL, false, NULL, NULL)),
    /* R.wrap_param marks a parameter's cast for LiftTransformParams;
     * otherwise it is astype */
    OP(IR_OP_WRAP_PARAM, "relax.wrap_param",
       .syn.params = {E("data"), OP_ATTR("dtype", "\"float32\"")}, .syn.nparams = 2,
       .impl = {infer_astype, eval_astype, legalize_elementwise},
       ROW("wrap_param", 1, IR_PE_CAST, NULL, false, NULL, NULL)),
};

const OpTable op_elementwise_table = {defs, sizeof defs / sizeof defs[0]};
