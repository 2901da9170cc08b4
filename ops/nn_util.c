/*
 * nn_util.c - helpers of the nn family (nn.c, norm.c, conv.c, pool.c, attention.c,
 * loss.c) and of linalg.c: attribute readers that
 * report wrong kinds as errors, tensor arguments of inference and kernels,
 * and the offsets that let a kernel walk "all positions but these axes".
 *
 * Key idea: an R.Object argument is a tensor nothing is known of, so
 * inference still answers with what the op alone fixes (rank, dtype)
 * instead of failing; any other non-tensor struct info is a user error.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

/* ------------------------------------------------------------------ */
/* Attributes                                                          */
/* ------------------------------------------------------------------ */

/* The three scalar readers: attribute name of kind IR_AT_INT, IR_AT_BOOL
 * or IR_AT_FLOAT (an int passes for a bool or a number) stored at out as
 * int64_t, bool or double; out, which holds the fallback, is kept when the
 * attribute is absent or None. */
static bool
attr_scalar(const OpSite *s, const char *name, IrAttrKind kind, void *out)
{
  static const char *const what[] = {
      [IR_AT_INT] = "an integer", [IR_AT_BOOL] = "True or False", [IR_AT_FLOAT] = "a number"};
  const IrAttr *a = op_attr(s->call, name);
  if (!a || a->kind == IR_AT_NONE)
    return true;
  if (a->kind != kind && a->kind != IR_AT_INT)
    return op_fail(s, "attribute '%s' must be %s", name, what[kind]);
  if (kind == IR_AT_BOOL)
    *(bool *)out = a->kind == IR_AT_BOOL ? a->u.b : a->u.i != 0;
  else if (kind == IR_AT_FLOAT)
    *(double *)out = a->kind == IR_AT_FLOAT ? a->u.f : (double)a->u.i;
  else
    *(int64_t *)out = a->u.i;
  return true;
}

bool
op_nn_attr_int(const OpSite *s, const char *name, int64_t fallback, int64_t *out)
{
  *out = fallback;
  return attr_scalar(s, name, IR_AT_INT, out);
}

bool
op_nn_attr_bool(const OpSite *s, const char *name, bool fallback, bool *out)
{
  *out = fallback;
  return attr_scalar(s, name, IR_AT_BOOL, out);
}

bool
op_nn_attr_float(const OpSite *s, const char *name, double fallback, double *out)
{
  *out = fallback;
  return attr_scalar(s, name, IR_AT_FLOAT, out);
}

bool
op_nn_attr_str(const OpSite *s, const char *name, const char *fallback, const char **out)
{
  const IrAttr *a = op_attr(s->call, name);
  *out = fallback;
  if (!a || a->kind == IR_AT_NONE)
    return true;
  if (a->kind == IR_AT_STR) {
    *out = a->u.s;
    return true;
  }
  return op_fail(s, "attribute '%s' must be a string", name);
}

bool
op_nn_attr_ints(const OpSite *s, const char *name, int64_t *out, int max, int *n)
{
  const IrAttr *a = op_attr(s->call, name);
  *n = 0;
  if (!a || a->kind == IR_AT_NONE)
    return true;
  if (a->kind == IR_AT_INT) {
    out[0] = a->u.i;
    *n = 1;
    return true;
  }
  if (a->kind != IR_AT_LIST)
    return op_fail(s, "attribute '%s' must be a list of integers", name);
  if (a->u.list.n > max)
    return op_fail(s, "attribute '%s' has %d values, at most %d allowed", name, a->u.list.n, max);
  for (int i = 0; i < a->u.list.n; i++) {
    if (a->u.list.items[i]->kind != IR_AT_INT)
      return op_fail(s, "attribute '%s' must be a list of integers", name);
    out[i] = a->u.list.items[i]->u.i;
  }
  *n = a->u.list.n;
  return true;
}

bool
op_nn_attr_dtype(const OpSite *s, const char *name, IrDType *out)
{
  const char *text;
  *out = IR_VOID;
  if (!op_nn_attr_str(s, name, "void", &text))
    return false;
  if (!ir_dtype_parse(text, strlen(text), out))
    return op_fail(s, "attribute '%s' is not a dtype: \"%s\"", name, text);
  return true;
}

bool
op_nn_axis(const OpSite *s, const char *what, int64_t axis, int ndim, int *out)
{
  *out = op_nn_axis_of(axis, ndim);
  if (*out < 0)
    return op_fail(s, "%s %lld is out of range for a tensor of rank %d", what, (long long)axis,
                   ndim);
  return true;
}

bool
op_nn_attr_axis(const OpSite *s, int64_t fallback, int ndim, int *out)
{
  int64_t axis;
  return op_nn_attr_int(s, "axis", fallback, &axis) && op_nn_axis(s, "axis", axis, ndim, out);
}

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

bool
op_nn_tensor_arg(OpInfer *in, const OpSite *site, IrSInfo **args, int i, const char *what,
                 IrSInfo **out)
{
  IrSInfo *s = i < site->call->u.call.nargs ? args[i] : NULL;
  *out = NULL;
  if (!s || s->kind == IR_SI_OBJECT)
    return true;
  if (s->kind == IR_SI_TENSOR) {
    *out = s;
    return true;
  }
  return op_fail(site, "%s must be a tensor, not %s", what,
                 ir_sinfo_kind_name((IrSInfoKind)s->kind));
}

IrPrimExpr **
op_nn_shape(const IrSInfo *t)
{
  if (!t || t->u.tensor.ndim < 0 || (t->shape_len && t->shape_len != t->u.tensor.ndim))
    return NULL;
  return t->u.tensor.shape;
}

IrDType
op_nn_dtype(const IrSInfo *t)
{
  return t ? t->u.tensor.dtype : IR_VOID;
}

int
op_nn_ndim(const IrSInfo *t)
{
  return t ? t->u.tensor.ndim : -1;
}

int
op_nn_vdevice(const IrSInfo *t)
{
  return t ? t->u.tensor.vdevice : -1;
}

IrPrimExpr *
op_nn_int(IrCtx *ctx, int64_t v)
{
  return ir_prim_int(ctx, IR_I64, v);
}

IrPrimExpr *
op_nn_simplify(OpInfer *in, IrPrimExpr *e)
{
  return in->arith ? ir_arith_simplify(in->arith, e) : e;
}

const char *
op_nn_expr_str(IrCtx *ctx, const IrPrimExpr *e)
{
  IrBuf b = {0};
  ir_prim_expr_print(e, &b);
  const char *s = ir_strdup(ctx, b.data ? b.data : "?", b.data ? b.len : 1);
  ir_buf_free(&b);
  return s;
}

const char *
op_nn_dtype_str(IrCtx *ctx, IrDType t)
{
  char buf[32];
  return ir_printf(ctx, "%s", ir_dtype_str(t, buf));
}

bool
op_nn_common_dtype(OpInfer *in, const OpSite *site, IrDType a, IrDType b, IrDType *out)
{
  *out = IR_VOID;
  if (a.code == IR_DT_VOID || b.code == IR_DT_VOID)
    return true;
  if (!ir_dtype_eq(a, b))
    return op_fail(site, "operands have different dtypes %s and %s", op_nn_dtype_str(in->ctx, a),
                   op_nn_dtype_str(in->ctx, b));
  *out = a;
  return true;
}

bool
op_nn_require_float(OpInfer *in, const OpSite *site, IrDType t)
{
  if (t.code == IR_DT_VOID || ir_dtype_is_float(t))
    return true;
  return op_fail(site, "requires a float tensor, not %s", op_nn_dtype_str(in->ctx, t));
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

const IrTensorData *
op_nn_tensor_value(const OpSite *s, Value **args, int i, const char *what)
{
  if (i >= s->call->u.call.nargs || !args[i] || args[i]->kind != VAL_TENSOR)
    return op_fail_null(s, "%s must be a tensor", what);
  return &args[i]->u.tensor.t;
}

Value *
op_nn_tensor_new(const OpSite *s, IrDType t, int ndim, const int64_t *shape)
{
  return op_tensor_new(s->ctx, t, ndim, shape, s->loc);
}

void
op_nn_strides(const IrTensorData *t, int64_t *strides)
{
  int64_t step = 1;
  for (int i = t->ndim - 1; i >= 0; i--) {
    strides[i] = step;
    step *= t->shape[i];
  }
}

/* Offsets of every position of the dims selected by pick (== want),
 * row-major; count set.  NULL on allocation failure. */
static int64_t *
offsets_of(const IrTensorData *t, const bool *reduce, bool want, int64_t *count)
{
  int64_t strides[64], idx[64] = {0}, n = 1;
  op_nn_strides(t, strides);
  for (int d = 0; d < t->ndim; d++)
    if (reduce[d] == want)
      n *= t->shape[d];
  *count = n;
  int64_t *offs = malloc(sizeof *offs * (size_t)(n ? n : 1));
  if (!offs)
    return NULL;
  for (int64_t k = 0; k < n; k++) {
    int64_t off = 0;
    for (int d = 0; d < t->ndim; d++)
      if (reduce[d] == want)
        off += idx[d] * strides[d];
    offs[k] = off;
    for (int d = t->ndim - 1; d >= 0; d--) { /* odometer over the selected dims */
      if (reduce[d] != want)
        continue;
      if (++idx[d] < t->shape[d])
        break;
      idx[d] = 0;
    }
  }
  return offs;
}

bool
op_nn_split_offsets(const OpSite *s, const IrTensorData *t, const bool *reduce, int64_t **outer,
                    int64_t *nouter, int64_t **inner, int64_t *ninner)
{
  if (t->ndim > 64)
    return op_fail(s, "tensors of more than 64 dimensions are not supported");
  *outer = offsets_of(t, reduce, false, nouter);
  *inner = offsets_of(t, reduce, true, ninner);
  if (!*outer || !*inner) {
    free(*outer);
    free(*inner);
    return op_fail(s, "out of memory");
  }
  return true;
}

/* ------------------------------------------------------------------ */
/* Legalization                                                        */
/* ------------------------------------------------------------------ */

/* The input of argument i, or NULL (the caller aborts) when its struct
 * info is not a tensor of known shape. */
IrBuffer *
op_nn_input(OpPrim *p, const IrExpr *call, int i, const char *name)
{
  return i < call->u.call.nargs ? op_prim_input(p, call->u.call.args[i], name) : NULL;
}

/* An axis in [0, ndim) from a possibly negative one, or -1. */
int
op_nn_axis_of(int64_t axis, int ndim)
{
  if (axis < -(int64_t)ndim || axis >= ndim)
    return -1;
  return (int)(axis < 0 ? axis + ndim : axis);
}

/* x's load at idx, as float64. */
IrPrimExpr *
op_nn_load64(OpPrim *p, IrBuffer *x, IrPrimExpr **idx)
{
  return op_nn_f64(p->lz->ctx, op_prim_load(p, x, idx));
}

IrDType
op_nn_f64_type(void)
{
  IrDType t = {IR_DT_FLOAT, 64, 1};
  return t;
}

IrPrimExpr *
op_nn_lit(IrCtx *ctx, IrDType t, double v)
{
  if (ir_dtype_is_float(t))
    return ir_prim_float(ctx, t, v);
  return ir_prim_int(ctx, t, t.code == IR_DT_BOOL ? v != 0 : (int64_t)v);
}

IrPrimExpr *
op_nn_index(IrCtx *ctx, int64_t v)
{
  return ir_prim_int(ctx, IR_I64, v);
}

IrPrimExpr *
op_nn_to(IrCtx *ctx, IrDType t, IrPrimExpr *e)
{
  if (ir_dtype_eq(e->dtype, t))
    return e;
  if (e->kind == IR_PE_FLOAT && ir_dtype_is_float(t))
    return ir_prim_float(ctx, t, e->u.float_value);
  return ir_prim_cast(ctx, t, e);
}

IrPrimExpr *
op_nn_f64(IrCtx *ctx, IrPrimExpr *e)
{
  return op_nn_to(ctx, op_nn_f64_type(), e);
}

IrPrimExpr *
op_nn_intrinsic(IrCtx *ctx, IrDType t, const char *name, IrPrimExpr *a)
{
  IrPrimExpr **args = ir_alloc(ctx, sizeof *args);
  args[0] = a;
  return ir_prim_intrin(ctx, t, name, args, 1);
}

/* a kind b for IR_PE_ADD, IR_PE_SUB and IR_PE_MUL, folded: two literals,
 * an operand that is kind's identity (x + 0, 0 + x, x - 0, x * 1, 1 * x),
 * and a product with the literal 0 (which is that literal). */
static IrPrimExpr *
fold(IrCtx *ctx, IrPrimKind kind, IrPrimExpr *a, IrPrimExpr *b)
{
  int64_t x, y;
  bool ka = ir_prim_is_int(a, &x), kb = ir_prim_is_int(b, &y), mul = kind == IR_PE_MUL;
  if (ka && kb)
    return ir_prim_int(ctx, a->dtype, mul ? x * y : kind == IR_PE_ADD ? x + y : x - y);
  bool just_a = mul ? (kb && y == 1) || (ka && x == 0) : kb && y == 0;
  bool just_b = mul ? (ka && x == 1) || (kb && y == 0) : kind == IR_PE_ADD && ka && x == 0;
  return just_a ? a : just_b ? b : ir_prim_bin(ctx, kind, a, b);
}

IrPrimExpr *
op_nn_add(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b)
{
  return fold(ctx, IR_PE_ADD, a, b);
}

IrPrimExpr *
op_nn_sub(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b)
{
  return fold(ctx, IR_PE_SUB, a, b);
}

IrPrimExpr *
op_nn_mul(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b)
{
  return fold(ctx, IR_PE_MUL, a, b);
}

IrPrimExpr *
op_nn_floordiv(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b)
{
  int64_t x, y;
  bool ka = ir_prim_is_int(a, &x), kb = ir_prim_is_int(b, &y);
  if (kb && y == 1)
    return a;
  if (ka && kb && y > 0)
    return ir_prim_int(ctx, a->dtype, x >= 0 ? x / y : -((-x + y - 1) / y));
  return ir_prim_bin(ctx, IR_PE_FLOORDIV, a, b);
}

IrPrimExpr *
op_nn_and(IrCtx *ctx, IrPrimExpr *a, IrPrimExpr *b)
{
  return a ? ir_prim_bin(ctx, IR_PE_AND, a, b) : b;
}

IrStmt *
op_nn_seq(OpPrim *p, IrStmt **stmts, int n)
{
  if (n == 1)
    return stmts[0];
  int total = 0; /* nested sequences are spliced in: text has no nesting */
  for (int i = 0; i < n; i++)
    total += stmts[i]->kind == IR_ST_SEQ ? stmts[i]->u.seq.n : 1;
  IrStmt *s = ir_stmt_new(p->lz->ctx, IR_ST_SEQ, p->lz->loc);
  s->u.seq.stmts = ir_alloc(p->lz->ctx, sizeof(IrStmt *) * (size_t)(total ? total : 1));
  for (int i = 0; i < n; i++) {
    if (stmts[i]->kind != IR_ST_SEQ) {
      s->u.seq.stmts[s->u.seq.n++] = stmts[i];
      continue;
    }
    for (int k = 0; k < stmts[i]->u.seq.n; k++)
      s->u.seq.stmts[s->u.seq.n++] = stmts[i]->u.seq.stmts[k];
  }
  return s;
}

IrStmt *
op_nn_if(OpPrim *p, IrPrimExpr *cond, IrStmt *then_)
{
  if (!cond)
    return then_;
  IrStmt *s = ir_stmt_new(p->lz->ctx, IR_ST_IF, p->lz->loc);
  s->u.branch.cond = cond;
  s->u.branch.then_ = then_;
  return s;
}

IrBuffer *
op_nn_acc_new(OpPrim *p, int n)
{
  return op_nn_acc_typed(p, n, op_nn_f64_type());
}

IrBuffer *
op_nn_acc_typed(OpPrim *p, int n, IrDType t)
{
  IrPrimExpr *shape[1] = {op_nn_index(p->lz->ctx, n)};
  return op_prim_alloc(p, t, shape, 1, "acc");
}

bool
op_nn_is_integer(IrDType t)
{
  return ir_dtype_is_int(t) && t.lanes == 1;
}

IrDType
op_nn_sum_type(IrDType a, IrDType b, IrDType out)
{
  if (!op_nn_is_integer(a) || !op_nn_is_integer(b) || !op_nn_is_integer(out))
    return op_nn_f64_type();
  return out.bits <= 32 ? IR_I32 : IR_I64;
}

IrPrimExpr *
op_nn_product(IrCtx *ctx, IrDType t, IrPrimExpr *a, IrPrimExpr *b)
{
  IrPrimExpr *x = op_nn_to(ctx, t, a), *y = op_nn_to(ctx, t, b);
  if (!op_nn_is_integer(t) || a->dtype.bits + b->dtype.bits < t.bits)
    return ir_prim_bin(ctx, IR_PE_MUL, x, y); /* exact: no overflow */
  return op_prim_wrapping(ctx, IR_PE_MUL, t, x, y);
}

IrPrimExpr *
op_nn_sum_add(IrCtx *ctx, IrDType t, IrPrimExpr *acc, IrPrimExpr *term)
{
  return op_prim_wrapping(ctx, IR_PE_ADD, t, acc, term);
}

IrDType
op_nn_tile_type(IrDType a, IrDType b, IrDType out)
{
  if (ir_dtype_eq(a, IR_F32) && ir_dtype_eq(b, IR_F32) && ir_dtype_eq(out, IR_F32))
    return IR_F32;
  IrDType t = op_nn_sum_type(a, b, out);
  return t.code == IR_DT_INT ? t : IR_VOID;
}

IrPrimExpr *
op_nn_acc(OpPrim *p, IrBuffer *acc, int k)
{
  return op_prim_load_at(p, acc, op_nn_index(p->lz->ctx, k));
}

IrStmt *
op_nn_acc_set(OpPrim *p, IrBuffer *acc, int k, IrPrimExpr *v)
{
  return op_prim_store_at(p, acc, op_nn_index(p->lz->ctx, k), op_nn_to(p->lz->ctx, acc->dtype, v));
}

IrStmt *
op_nn_acc_fold(OpPrim *p, IrBuffer *acc, int k, IrPrimKind kind, IrPrimExpr *v)
{
  return op_nn_acc_set(p, acc, k, ir_prim_bin(p->lz->ctx, kind, op_nn_acc(p, acc, k), v));
}

void
op_nn_acc_mean(OpPrim *p, IrBuffer *acc, int k, IrStmt *nest, IrStmt **slot, IrPrimExpr *term,
               IrPrimExpr *count, IrStmt **st)
{
  IrCtx *ctx = p->lz->ctx;
  st[0] = op_nn_acc_set(p, acc, k, op_nn_lit(ctx, op_nn_f64_type(), 0.0));
  *slot = op_nn_acc_fold(p, acc, k, IR_PE_ADD, term);
  st[1] = nest;
  st[2] = op_nn_acc_fold(p, acc, k, IR_PE_DIV, count);
}

void
op_nn_acc_variance(OpPrim *p, IrBuffer *acc, int k, IrStmt *nest, IrStmt **slot, IrPrimExpr *v,
                   IrPrimExpr *count, IrStmt **st)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *d = ir_prim_bin(ctx, IR_PE_SUB, v, op_nn_acc(p, acc, 0));
  op_nn_acc_mean(p, acc, k, nest, slot, ir_prim_bin(ctx, IR_PE_MUL, d, d), count, st);
}

IrStmt **
op_nn_nest_dims(OpPrim *p, IrPrimExpr **shape, int ndim, const bool *pick, bool want,
                IrPrimExpr **full, IrStmt **nest)
{
  IrPrimExpr *extents[64], **vars;
  int n = 0;
  for (int d = 0; d < ndim && d < 64; d++)
    if (pick[d] == want)
      extents[n++] = shape[d];
  IrStmt **slot = op_prim_loop_nest(p, extents, n, &vars, nest);
  for (int d = 0, k = 0; d < ndim && d < 64; d++)
    if (pick[d] == want)
      full[d] = vars[k++];
  return slot;
}

IrPrimExpr **
op_nn_index_copy(IrCtx *ctx, IrPrimExpr **idx, int n)
{
  IrPrimExpr **copy = ir_alloc(ctx, sizeof *copy * (size_t)(n ? n : 1));
  memcpy(copy, idx, sizeof *copy * (size_t)n);
  return copy;
}

/* buf[i] = buf[i] kind v, v as float32: v folded into an element of one
 * of l's float32 buffers (its lanes, its result). */
static IrStmt *
fold_at(OpPrim *p, const OpNnLanes *l, IrBuffer *buf, IrPrimExpr *i, IrPrimExpr *v)
{
  IrCtx *ctx = p->lz->ctx;
  return op_prim_store_at(
      p, buf, i, ir_prim_bin(ctx, l->kind, op_prim_load_at(p, buf, i), op_nn_to(ctx, IR_F32, v)));
}

IrPrimExpr *
op_nn_lanes_result(OpPrim *p, const OpNnLanes *l)
{
  return op_prim_load_at(p, l->result, op_nn_index(p->lz->ctx, l->slot));
}

IrBuffer *
op_nn_lanes_new(OpPrim *p, const char *name, int n)
{
  IrPrimExpr *shape[1] = {op_nn_index(p->lz->ctx, n)};
  return op_prim_alloc(p, IR_F32, shape, 1, name);
}

/* "for v in range(count): body" appended to st[*n] with the slot of its
 * body returned, or NULL (nothing appended) when count is literally 0. */
static IrStmt **
lanes_loop(OpPrim *p, IrPrimExpr *count, IrPrimExpr **var, IrStmt **st, int *n)
{
  int64_t c;
  if (ir_prim_is_int(count, &c) && c <= 0)
    return NULL;
  IrPrimExpr **v;
  IrStmt **slot = op_prim_loop_nest(p, &count, 1, &v, &st[*n]);
  (*n)++;
  *var = v[0];
  return slot;
}

IrStmt *
op_nn_lanes_reduce(OpPrim *p, const OpNnLanes *l, IrPrimExpr *n)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *init = op_nn_lit(ctx, IR_F32, l->kind == IR_PE_MAX ? -INFINITY : 0.0);
  IrPrimExpr *width = op_nn_index(ctx, OP_NN_LANES), *chunks = op_nn_floordiv(ctx, n, width);
  IrPrimExpr *j, *done = op_nn_mul(ctx, chunks, width), *slot = op_nn_index(ctx, l->slot);
  IrStmt *st[6], **body;
  int ns = 0;
  int64_t known;
  bool vector = !ir_prim_is_int(chunks, &known) || known > 0;
  if (vector) {
    body = lanes_loop(p, width, &j, st, &ns);
    *body = op_prim_store_at(p, l->lanes, j, init);
    IrPrimExpr *ext[2] = {chunks, width}, **cj;
    body = op_prim_loop_nest(p, ext, 2, &cj, &st[ns++]);
    IrPrimExpr *v = l->load(p, l->env, op_nn_add(ctx, op_nn_mul(ctx, cj[0], width), cj[1]));
    *body = fold_at(p, l, l->lanes, cj[1], v);
  }
  st[ns++] = op_prim_store_at(p, l->result, slot, init);
  if (vector) {
    body = lanes_loop(p, width, &j, st, &ns);
    *body = fold_at(p, l, l->result, slot, op_prim_load_at(p, l->lanes, j));
  }
  body = lanes_loop(p, op_nn_sub(ctx, n, done), &j, st, &ns);
  if (body)
    *body = fold_at(p, l, l->result, slot, l->load(p, l->env, op_nn_add(ctx, done, j)));
  return op_nn_seq(p, st, ns);
}
