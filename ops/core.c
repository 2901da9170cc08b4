/*
 * core.c - Relax's core ops on shapes and tensor headers, and sampling:
 * R.size, R.shape_to_tensor, R.tensor_to_shape (TVM's src/relax/op/op.cc),
 * the eight R.inspect.* ops (src/relax/op/tensor/inspect.cc) and
 * R.multinomial_from_uniform (src/relax/op/tensor/sampling.cc).
 *
 * Key idea: what TVM reads from a DLTensor at run time (dtype code, bits,
 * lanes, ndim, a dim, a stride, the offsets) is known to rxc when the
 * struct info is, because rxc's tensors are always compact and start at
 * their data pointer: so the inspect ops lower to R.prim_value of a
 * literal or of a dim expression, and R.size and R.shape_to_tensor to a
 * prim_func storing dim expressions.  The interpreter reads the same facts
 * from the tensor value, so both agree by construction.
 *
 * R.tensor_to_shape has no lowering: its result's dims are tensor *data*.
 * The code generator emits it itself (codegen/gen_check.c): the
 * R.match_cast that binds its dims to fresh vars reads them from the
 * tensor in the body, after the kernel that wrote it, and checks each
 * against [0, tir_var_upper_bound], the bound the memory planner planned
 * every tensor using it at.  The ops whose result shape is data
 * (dynamic_strided_slice, nonzero, unique) lower through it (op_data_dims).
 *
 * R.multinomial_from_uniform: row sample_indices[i] of prob is summed
 * left to right in double, and the result is the first j where
 * uniform_sample[i] < prob[r, 0] + ... + prob[r, j], else vocab_size - 1
 * (TVM's CPU dispatch: cumsum, then that search).  A row index out of
 * [0, batch), or any sample of a prob without columns, is refused by the
 * interpreter and by the lowered code's asserts before it writes
 * (tir_build.h's checks of data), whose reads still clamp the row (R.take's
 * policy, manip_join.c).
 */
#include <string.h>

#include "op.h"
#include "tir_build.h"

/* DLPack's type codes (dlpack.h), what TVM's runtime stores in a tensor. */
enum { DL_INT = 0, DL_UINT = 1, DL_FLOAT = 2, DL_BFLOAT = 4, DL_BOOL = 6 };

static const IrDType U8 = {IR_DT_UINT, 8, 1}, U16 = {IR_DT_UINT, 16, 1}, U64 = {IR_DT_UINT, 64, 1},
                     F64 = {IR_DT_FLOAT, 64, 1};

/* Whether the call has n arguments; an error when not. */
static bool
check_nargs(OpInfer *in, const OpSite *site, int n)
{
  if (site->call->u.call.nargs == n)
    return true;
  return op_fail(site, "takes %d argument%s, not %d", n, n == 1 ? "" : "s", site->call->u.call.nargs);
}

/* Argument i's struct info as a tensor; NULL after an error for anything
 * else (TVM's ops here take only tensors). */
static const IrSInfo *
tensor_arg(OpInfer *in, const OpSite *site, IrSInfo **args, int i, const char *what)
{
  if (args[i]->kind == IR_SI_TENSOR)
    return args[i];
  return op_fail_null(site, "%s must be a tensor, not %s", what, op_sinfo_text(in->ctx, args[i]));
}

/* The dims of a shape argument: an R.shape itself or what the struct info
 * of a var knows; NULL when unknown. */
static IrPrimExpr **
shape_values(const IrExpr *arg, int *n)
{
  if (arg->kind == IR_EX_SHAPE) {
    *n = arg->u.shape.n;
    return arg->u.shape.values;
  }
  const IrSInfo *s = arg->sinfo;
  if (s && s->kind == IR_SI_SHAPE && s->u.shape.values) {
    *n = s->u.shape.ndim;
    return s->u.shape.values;
  }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* R.size, R.shape_to_tensor, R.tensor_to_shape                        */
/* ------------------------------------------------------------------ */

/* R.size(x): the element count as an int64 scalar tensor. */
static IrSInfo *
infer_size(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  if (!check_nargs(in, s, 1) || !tensor_arg(in, s, args, 0, "the argument"))
    return NULL;
  IrPrimExpr **none = ir_alloc(in->ctx, sizeof *none); /* the shape (), known */
  return ir_sinfo_tensor(in->ctx, none, 0, IR_I64, args[0]->u.tensor.vdevice);
}

/* R.shape_to_tensor(s): the dims as an int64 vector of length ndim
 * (unknown length for a shape of unknown rank). */
static IrSInfo *
infer_shape_to_tensor(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  if (!check_nargs(in, site, 1))
    return NULL;
  if (args[0]->kind != IR_SI_SHAPE)
    return op_fail_null(site, "the argument must be a shape, not %s",
                        op_sinfo_text(in->ctx, args[0]));
  int ndim = args[0]->u.shape.ndim;
  IrPrimExpr **dim = NULL;
  if (ndim >= 0) {
    dim = ir_alloc(in->ctx, sizeof *dim);
    *dim = ir_prim_int(in->ctx, IR_I64, ndim);
  }
  return ir_sinfo_tensor(in->ctx, dim, 1, IR_I64, -1);
}

/* R.tensor_to_shape(t): a shape of t's length, t being a vector of
 * integers (TVM checks the rank; rxc also refuses float data). */
static IrSInfo *
infer_tensor_to_shape(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  const IrSInfo *t;
  char b[16];
  if (!check_nargs(in, site, 1) || !(t = tensor_arg(in, site, args, 0, "the argument")))
    return NULL;
  if (t->u.tensor.ndim >= 0 && t->u.tensor.ndim != 1)
    return op_fail_null(site, "expects a 1-d tensor, not one of rank %d", t->u.tensor.ndim);
  IrDType dt = t->u.tensor.dtype;
  if (dt.code != IR_DT_VOID && !ir_dtype_is_int(dt))
    return op_fail_null(site, "expects a tensor of integers, not %s", ir_dtype_str(dt, b));
  int64_t n;
  if (t->u.tensor.shape && ir_prim_is_int(t->u.tensor.shape[0], &n))
    return ir_sinfo_shape(in->ctx, NULL, (int)n);
  return ir_sinfo_shape(in->ctx, NULL, -1);
}

/* A kernel's tensor argument i; NULL after an error for another value. */
static const IrTensorData *
eval_tensor(OpEval *ev, const OpSite *s, Value **args, int i)
{
  if (args[i]->kind == VAL_TENSOR)
    return &args[i]->u.tensor.t;
  return op_fail_null(s, "argument %d must be a tensor", i + 1);
}

static Value *
eval_size(OpEval *ev, const OpSite *s, Value **args)
{
  if (!eval_tensor(ev, s, args, 0))
    return NULL;
  Value *v = op_tensor_new(ev->ctx, IR_I64, 0, NULL, ev->loc);
  if (v)
    op_set_i(&v->u.tensor.t, 0, op_numel(&args[0]->u.tensor.t));
  return v;
}

static Value *
eval_shape_to_tensor(OpEval *ev, const OpSite *s, Value **args)
{
  if (args[0]->kind != VAL_SHAPE)
    return op_fail_null(s, "expects a shape");
  int64_t n = args[0]->u.shape.n;
  Value *v = op_tensor_new(ev->ctx, IR_I64, 1, &n, ev->loc);
  for (int64_t i = 0; v && i < n; i++)
    op_set_i(&v->u.tensor.t, i, args[0]->u.shape.dims[i]);
  return v;
}

/* The data become dims: each must be a non-negative integer. */
static Value *
eval_tensor_to_shape(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *t = args[0]->kind == VAL_TENSOR ? &args[0]->u.tensor.t : NULL;
  if (!t || t->ndim != 1 || !ir_dtype_is_int(t->dtype))
    return op_fail_null(s, "expects a 1-d tensor of integers");
  int64_t *dims = ir_alloc(ev->ctx, (size_t)(t->shape[0] ? t->shape[0] : 1) * sizeof *dims);
  for (int64_t i = 0; i < t->shape[0]; i++) {
    dims[i] = op_get_i(t, i);
    if (dims[i] < 0)
      return op_fail_null(s, "element %lld is %lld: a dim cannot be negative", (long long)i,
                          (long long)dims[i]);
  }
  return op_shape_new(ev->ctx, dims, (int)t->shape[0]);
}

/* Begins prim_func "name" with its output T_name of struct info result;
 * NULL (nothing begun) when that is not a tensor of known shape. */
static IrBuffer *
begin_with_output(OpLegalize *lz, OpPrim *p, const char *name, IrSInfo *result)
{
  op_prim_begin(lz, p, name);
  IrBuffer *out = op_prim_output(p, result, ir_printf(lz->ctx, "T_%s", name));
  if (!out)
    op_prim_abort(p);
  return out;
}

/* R.size: a 0-d prim_func storing the product of x's dims. */
static IrExpr *
legalize_size(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  const IrSInfo *x = s->call->u.call.args[0]->sinfo;
  OpPrim p;
  IrBuffer *out;
  if (!x || x->kind != IR_SI_TENSOR || !x->u.tensor.shape ||
      !(out = begin_with_output(lz, &p, "size", result)))
    return NULL;
  IrPrimExpr *n = ir_prim_int(lz->ctx, IR_I64, 1);
  for (int d = 0; d < x->u.tensor.ndim; d++)
    n = ir_prim_bin(lz->ctx, IR_PE_MUL, n,
                    op_prim_i64(lz->ctx, op_prim_dim(&p, x->u.tensor.shape[d])));
  op_prim_emit(&p, op_prim_store(&p, out, NULL, n));
  return op_prim_finish(&p, s->call, result);
}

/* R.shape_to_tensor of a shape whose dims are known: one store per dim. */
static IrExpr *
legalize_shape_to_tensor(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  int n;
  IrPrimExpr **dims = shape_values(s->call->u.call.args[0], &n);
  OpPrim p;
  IrBuffer *out;
  if (!dims || !(out = begin_with_output(lz, &p, "shape_to_tensor", result)))
    return NULL;
  for (int i = 0; i < n; i++)
    op_prim_emit(&p, op_prim_store_at(&p, out, ir_prim_int(lz->ctx, IR_I64, i),
                                      op_prim_i64(lz->ctx, op_prim_dim(&p, dims[i]))));
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* R.inspect.*                                                          */
/* ------------------------------------------------------------------ */

/* Which field of the tensor's header an inspect op reads (.data). */
typedef enum {
  FIELD_DTYPE_CODE,
  FIELD_DTYPE_BITS,
  FIELD_DTYPE_LANES,
  FIELD_NDIM,
  FIELD_SHAPE_I,
  FIELD_STRIDE_I,
  FIELD_BYTE_OFFSET,
  FIELD_ELEM_OFFSET,
} Field;

static const Field field_dtype_code = FIELD_DTYPE_CODE, field_dtype_bits = FIELD_DTYPE_BITS,
                   field_dtype_lanes = FIELD_DTYPE_LANES, field_ndim = FIELD_NDIM,
                   field_shape_i = FIELD_SHAPE_I, field_stride_i = FIELD_STRIDE_I,
                   field_byte_offset = FIELD_BYTE_OFFSET, field_elem_offset = FIELD_ELEM_OFFSET;

static Field
field_of(const IrExpr *call)
{
  return *(const Field *)op_of(call->u.call.op)->data;
}

/* The dtype of a field's value (TVM's: the DLTensor member's type). */
static IrDType
field_dtype(Field f)
{
  switch (f) {
  case FIELD_DTYPE_CODE:
  case FIELD_DTYPE_BITS:
    return U8;
  case FIELD_DTYPE_LANES:
    return U16;
  case FIELD_NDIM:
    return IR_I32;
  case FIELD_SHAPE_I:
  case FIELD_STRIDE_I:
    return IR_I64;
  default:
    return U64;
  }
}

static int64_t
dl_code(IrDType t)
{
  switch (t.code) {
  case IR_DT_INT:
    return DL_INT;
  case IR_DT_UINT:
    return DL_UINT;
  case IR_DT_BFLOAT:
    return DL_BFLOAT;
  case IR_DT_BOOL:
    return DL_BOOL;
  default:
    return DL_FLOAT;
  }
}

/* The value of a dtype field: DLPack's bool is one byte, as rxc stores it. */
static int64_t
dtype_field(Field f, IrDType t)
{
  if (f == FIELD_DTYPE_CODE)
    return dl_code(t);
  if (f == FIELD_DTYPE_BITS)
    return t.code == IR_DT_BOOL ? 8 : t.bits;
  return t.lanes;
}

/* The axis of tensor_shape_i and tensor_stride_i: *axis the literal, or -1
 * when it is not one; false after an error (not a prim value, negative,
 * not below a known rank). */
static bool
infer_axis(OpInfer *in, const OpSite *site, IrSInfo **args, int ndim, int64_t *axis)
{
  const IrExpr *a = site->call->u.call.args[1];
  *axis = -1;
  if (args[1]->kind != IR_SI_PRIM)
    return op_fail(site, "the axis must be a prim value, not %s", op_sinfo_text(in->ctx, args[1]));
  IrPrimExpr *v = a->kind == IR_EX_PRIM ? a->u.prim : args[1]->u.prim.value;
  if (!v || !ir_prim_is_int(v, axis))
    return true;
  if (*axis < 0 || (ndim >= 0 && *axis >= ndim))
    return op_fail(site, "axis %lld is outside the tensor's %d dims", (long long)*axis, ndim);
  return true;
}

/* Dim `axis` of s, or the stride of that axis in a compact layout (the
 * product of the dims after it); NULL when the shape is not known. */
static IrPrimExpr *
axis_value(IrCtx *ctx, const IrSInfo *s, Field f, int64_t axis)
{
  if (!s->u.tensor.shape || axis < 0)
    return NULL;
  if (f == FIELD_SHAPE_I)
    return s->u.tensor.shape[axis];
  IrPrimExpr *v = ir_prim_int(ctx, IR_I64, 1);
  for (int d = (int)axis + 1; d < s->u.tensor.ndim; d++) {
    int64_t a, b;
    IrPrimExpr *dim = s->u.tensor.shape[d];
    if (ir_prim_is_int(v, &a) && ir_prim_is_int(dim, &b))
      v = ir_prim_int(ctx, IR_I64, a * b);
    else
      v = ir_prim_bin(ctx, IR_PE_MUL, v, op_prim_i64(ctx, dim));
  }
  return v;
}

/* Every inspect op: a prim value of its field's dtype, or, for a dim or
 * stride TVM can name (a literal axis of a known shape), R.Prim(value=...). */
static IrSInfo *
infer_inspect(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  Field f = field_of(s->call);
  bool indexed = f == FIELD_SHAPE_I || f == FIELD_STRIDE_I;
  const IrSInfo *t;
  int64_t axis;
  if (!check_nargs(in, s, indexed ? 2 : 1) ||
      !(t = tensor_arg(in, s, args, 0, "the argument")))
    return NULL;
  if (!indexed)
    return ir_sinfo_prim(in->ctx, field_dtype(f), NULL);
  if (!infer_axis(in, s, args, t->u.tensor.ndim, &axis))
    return NULL;
  return ir_sinfo_prim(in->ctx, IR_I64, axis_value(in->ctx, t, f, axis));
}

static Value *
eval_inspect(OpEval *ev, const OpSite *site, Value **args)
{
  Field f = field_of(site->call);
  const IrTensorData *t = eval_tensor(ev, site, args, 0);
  int64_t v = 0;
  if (!t)
    return NULL;
  if (f == FIELD_SHAPE_I || f == FIELD_STRIDE_I) {
    int64_t axis = args[1]->kind == VAL_PRIM ? args[1]->u.prim.i : -1;
    if (axis < 0 || axis >= t->ndim)
      return op_fail_null(site, "axis %lld is outside the tensor's %d dims", (long long)axis,
                          t->ndim);
    v = f == FIELD_SHAPE_I ? t->shape[axis] : 1;
    for (int d = (int)axis + 1; f == FIELD_STRIDE_I && d < t->ndim; d++)
      v *= t->shape[d];
  } else if (f == FIELD_NDIM) {
    v = t->ndim;
  } else if (f <= FIELD_DTYPE_LANES) {
    v = dtype_field(f, t->dtype);
  } /* the offsets: a tensor's data always starts at its pointer */
  return op_prim_int(ev->ctx, field_dtype(f), v);
}

/* The field as R.prim_value: a literal, or a dim expression of the
 * function's symbolic vars; NULL (kept) when the struct info does not say. */
static IrExpr *
legalize_inspect(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  Field f = field_of(s->call);
  const IrSInfo *t = s->call->u.call.args[0]->sinfo;
  IrPrimExpr *v = NULL;
  if (!t || t->kind != IR_SI_TENSOR)
    return NULL;
  if (f == FIELD_SHAPE_I || f == FIELD_STRIDE_I)
    v = result->kind == IR_SI_PRIM ? result->u.prim.value : NULL;
  else if (f == FIELD_NDIM && t->u.tensor.ndim >= 0)
    v = ir_prim_int(lz->ctx, IR_I32, t->u.tensor.ndim);
  else if (f <= FIELD_DTYPE_LANES && t->u.tensor.dtype.code != IR_DT_VOID)
    v = ir_prim_int(lz->ctx, field_dtype(f), dtype_field(f, t->u.tensor.dtype));
  else if (f == FIELD_BYTE_OFFSET || f == FIELD_ELEM_OFFSET)
    v = ir_prim_int(lz->ctx, U64, 0);
  return v ? ir_prim_value(lz->ctx, v, s->call->loc) : NULL;
}

/* ------------------------------------------------------------------ */
/* R.multinomial_from_uniform                                          */
/* ------------------------------------------------------------------ */

static bool
dtype_attr(OpInfer *in, const OpSite *s, IrDType *t)
{
  const IrAttr *a = op_attr(s->call, "dtype");
  if (a && a->kind == IR_AT_STR && ir_dtype_parse(a->u.s, strlen(a->u.s), t) && t->lanes == 1)
    return true;
  return op_fail(s, "the dtype attribute must name a data type");
}

/* A tensor argument of rank 2 (or unknown rank) whose dtype is of the
 * kind wanted; false after an error. */
static bool
sampling_arg(OpInfer *in, const OpSite *site, IrSInfo **args, int i, const char *what, bool fl)
{
  char b[16];
  const IrSInfo *t = tensor_arg(in, site, args, i, what);
  if (!t)
    return false;
  IrDType dt = t->u.tensor.dtype;
  if (dt.code != IR_DT_VOID && (fl ? !ir_dtype_is_float(dt) : dt.code != IR_DT_INT))
    return op_fail(site, "%s must have %s dtype, not %s", what, fl ? "a float" : "an int",
                   ir_dtype_str(dt, b));
  if (t->u.tensor.ndim >= 0 && t->u.tensor.ndim != 2)
    return op_fail(site, "%s must be a 2-d tensor, not one of rank %d", what, t->u.tensor.ndim);
  return true;
}

/* (prob (batch, vocab), uniform_sample (n, 1), sample_indices (n, 1)) ->
 * (n, 1) of the dtype attribute; TVM's rules, the n of the two samples
 * provably equal. */
static IrSInfo *
infer_multinomial(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  IrDType t;
  static const char *const what[] = {"prob", "uniform_sample", "sample_indices"};
  if (!check_nargs(in, site, 3) || !dtype_attr(in, site, &t))
    return NULL;
  for (int i = 0; i < 3; i++)
    if (!sampling_arg(in, site, args, i, what[i], i < 2))
      return NULL;
  int vdevice = args[0]->u.tensor.vdevice;
  const IrSInfo *u = args[1], *s = args[2];
  if (args[0]->u.tensor.ndim < 0 || u->u.tensor.ndim < 0 || s->u.tensor.ndim < 0)
    return ir_sinfo_tensor(in->ctx, NULL, -1, t, vdevice);
  if (!args[0]->u.tensor.shape || !u->u.tensor.shape || !s->u.tensor.shape)
    return ir_sinfo_tensor(in->ctx, NULL, 2, t, vdevice);
  IrPrimExpr *n = u->u.tensor.shape[0];
  if (op_prove_equal(in, n, s->u.tensor.shape[0]) != IR_PROVE_TRUE)
    return op_fail_null(site,
                        "uniform_sample %s and sample_indices %s must have the same batch size",
                        op_sinfo_text(in->ctx, u), op_sinfo_text(in->ctx, s));
  int64_t one;
  for (int i = 1; i < 3; i++)
    if (!ir_prim_is_int(args[i]->u.tensor.shape[1], &one) || one != 1)
      return op_fail_null(site, "%s must have shape (n, 1), not %s", what[i],
                          op_sinfo_text(in->ctx, args[i]));
  IrPrimExpr **shape = ir_alloc(in->ctx, 2 * sizeof *shape);
  shape[0] = n;
  shape[1] = ir_prim_int(in->ctx, IR_I64, 1);
  return ir_sinfo_tensor(in->ctx, shape, 2, t, vdevice);
}

static Value *
eval_multinomial(OpEval *ev, const OpSite *site, Value **args)
{
  const IrTensorData *prob = eval_tensor(ev, site, args, 0), *u, *idx;
  const IrAttr *a = op_attr(site->call, "dtype");
  IrDType t;
  if (!prob || !(u = eval_tensor(ev, site, args, 1)) || !(idx = eval_tensor(ev, site, args, 2)))
    return NULL;
  if (!a || a->kind != IR_AT_STR || !ir_dtype_parse(a->u.s, strlen(a->u.s), &t) ||
      prob->ndim != 2 || u->ndim != 2 || idx->ndim != 2 || u->shape[0] != idx->shape[0]) {
    return op_fail_null(site,
                        "expects prob (batch, vocab), uniform_sample and sample_indices (n, 1)");
  }
  int64_t batch = prob->shape[0], vocab = prob->shape[1], n = u->shape[0];
  int64_t shape[2] = {n, 1};
  Value *v = op_tensor_new(ev->ctx, t, 2, shape, ev->loc);
  for (int64_t i = 0; v && i < n; i++) {
    int64_t r = op_get_i(idx, i);
    if (r < 0 || r >= batch || vocab == 0)
      return op_fail_null(
          site,
          vocab ? "sample_indices[%lld] is %lld, outside [0, %lld)"
                : "sample %lld of %lld: prob has no columns to sample from (batch %lld)",
          (long long)i, (long long)(vocab ? r : n), (long long)batch);
    double x = op_get_f(u, i), acc = 0;
    int64_t pick = vocab - 1;
    for (int64_t j = 0; j < vocab; j++) {
      acc += op_get_f(prob, r * vocab + j);
      if (x < acc) {
        pick = j;
        break;
      }
    }
    op_set_i(&v->u.tensor.t, i, pick);
  }
  return v;
}

static IrStmt *
seq_of(OpPrim *p, IrStmt **stmts, int n)
{
  IrStmt *s = ir_stmt_new(p->lz->ctx, IR_ST_SEQ, p->lz->loc);
  s->u.seq.stmts = ir_alloc(p->lz->ctx, (size_t)n * sizeof *stmts);
  memcpy(s->u.seq.stmts, stmts, (size_t)n * sizeof *stmts);
  s->u.seq.n = n;
  return s;
}

static IrStmt *
if_then(OpPrim *p, IrPrimExpr *cond, IrStmt *then_)
{
  IrStmt *s = ir_stmt_new(p->lz->ctx, IR_ST_IF, p->lz->loc);
  s->u.branch.cond = cond;
  s->u.branch.then_ = then_;
  return s;
}

/* The kernel's refusals, before anything is written: each row index in
 * [0, batch), and vocab > 0 when there is a sample. */
static void
multinomial_check(OpPrim *p, IrBuffer *idx, IrPrimExpr *batch, IrPrimExpr *vocab)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *zero = ir_prim_int(ctx, IR_I64, 0), **i, **none;
  IrStmt **slot = op_prim_check_loops(p, idx->shape, 1, &i, NULL);
  IrPrimExpr **at = ir_alloc(ctx, 2 * sizeof *at);
  at[0] = i[0];
  at[1] = zero;
  IrPrimExpr *r = op_prim_i64(ctx, op_prim_load(p, idx, at));
  *slot = op_prim_assert(p,
                         ir_prim_bin(ctx, IR_PE_AND, ir_prim_bin(ctx, IR_PE_LE, zero, r),
                                     ir_prim_bin(ctx, IR_PE_LT, r, batch)),
                         "sample index out of range");
  int64_t v;
  if (ir_prim_is_int(vocab, &v) && v > 0)
    return;
  slot = op_prim_check_loops(p, NULL, 0, &none, op_prim_nonempty(ctx, idx->shape, 1));
  *slot = op_prim_assert(p, ir_prim_bin(ctx, IR_PE_GT, vocab, zero), "prob has no columns");
}

/* for i: acc = 0; found = 0; out[i, 0] = vocab - 1;
 *        if batch > 0: for j: acc += prob[r, j];
 *                             if !found && u[i, 0] < acc: out[i, 0] = j; found = 1
 * with r = sample_indices[i, 0] clamped to [0, batch); acc in float64. */
static IrExpr *
legalize_multinomial(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  IrBuffer *prob, *u, *idx, *out;
  if (!op_prim_open(
          lz, &p, "multinomial_from_uniform", s->call, result,
          (OpPrimParam[]){
              {"prob", &prob}, {"usample", &u}, {"sample_indices", &idx}, {"T_multinomial", &out}},
          4))
    return NULL;
  IrPrimExpr *one[1] = {ir_prim_int(ctx, IR_I64, 1)};
  IrBuffer *acc = op_prim_alloc(&p, F64, one, 1, "acc");
  IrBuffer *found = op_prim_alloc(&p, IR_I32, one, 1, "found");
  IrPrimExpr *zero = ir_prim_int(ctx, IR_I64, 0), **i, **j;
  IrPrimExpr *batch = op_prim_i64(ctx, prob->shape[0]), *vocab = op_prim_i64(ctx, prob->shape[1]);
  multinomial_check(&p, idx, batch, vocab);
  IrStmt **outer = op_prim_loops(&p, out->shape, 1, &i);
  IrPrimExpr **at = ir_alloc(ctx, 2 * sizeof *at);
  at[0] = i[0];
  at[1] = zero;
  IrPrimExpr *r = op_prim_i64(ctx, op_prim_load(&p, idx, at));
  r = ir_prim_bin(ctx, IR_PE_MAX,
                  ir_prim_bin(ctx, IR_PE_MIN, r, ir_prim_bin(ctx, IR_PE_SUB, batch, one[0])), zero);
  IrStmt *nest;
  IrPrimExpr *vocab_extent[1] = {prob->shape[1]};
  IrStmt **inner = op_prim_loop_nest(&p, vocab_extent, 1, &j, &nest);
  IrPrimExpr **rj = ir_alloc(ctx, 2 * sizeof *rj);
  rj[0] = r;
  rj[1] = j[0];
  IrPrimExpr *sum = ir_prim_bin(ctx, IR_PE_ADD, op_prim_load_at(&p, acc, zero),
                                ir_prim_cast(ctx, F64, op_prim_load(&p, prob, rj)));
  IrPrimExpr *hit = ir_prim_bin(
      ctx, IR_PE_AND,
      ir_prim_bin(ctx, IR_PE_EQ, op_prim_load_at(&p, found, zero), ir_prim_int(ctx, IR_I32, 0)),
      ir_prim_bin(ctx, IR_PE_LT, ir_prim_cast(ctx, F64, op_prim_load(&p, u, at)),
                  op_prim_load_at(&p, acc, zero)));
  IrStmt *take[2] = {
      op_prim_store(&p, out, at, ir_prim_cast(ctx, out->dtype, op_prim_i64(ctx, j[0]))),
      op_prim_store_at(&p, found, zero, ir_prim_int(ctx, IR_I32, 1))};
  IrStmt *step[2] = {op_prim_store_at(&p, acc, zero, sum), if_then(&p, hit, seq_of(&p, take, 2))};
  *inner = seq_of(&p, step, 2);
  IrStmt *row[4] = {
      op_prim_store_at(&p, acc, zero, ir_prim_float(ctx, F64, 0.0)),
      op_prim_store_at(&p, found, zero, ir_prim_int(ctx, IR_I32, 0)),
      op_prim_store(&p, out, at,
                    ir_prim_cast(ctx, out->dtype, ir_prim_bin(ctx, IR_PE_SUB, vocab, one[0]))),
      if_then(&p, ir_prim_bin(ctx, IR_PE_GT, batch, zero), nest)};
  *outer = seq_of(&p, row, 4);
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

#define E OP_ARG
/* clang-format off */
#define PARAM(name, kind, fallback) {name, IR_PARAM_##kind, fallback}
#define INSPECT(field) .syn.params = {E("tensor")}, .syn.nparams = 1,                              \
  .impl = {infer_inspect, eval_inspect, legalize_inspect}, .data = &field
#define INSPECT_AXIS(field) .syn.params = {E("tensor"), PARAM("axis", PRIM, NULL)},                \
  .syn.nparams = 2, .impl = {infer_inspect, eval_inspect, legalize_inspect}, .data = &field
/* clang-format on */

static const OpDef defs[] = {
    OP(IR_OP_SIZE, "relax.size", .syn.params = {E("expr")}, .syn.nparams = 1,
       .impl = {infer_size, eval_size, legalize_size}),
    OP(IR_OP_SHAPE_TO_TENSOR, "relax.shape_to_tensor", .syn.params = {E("expr")}, .syn.nparams = 1,
       .impl = {infer_shape_to_tensor, eval_shape_to_tensor, legalize_shape_to_tensor}),
    /* no lowering: the dims are data (see the top of the file) */
    OP(IR_OP_TENSOR_TO_SHAPE, "relax.tensor_to_shape", .syn.params = {E("expr")}, .syn.nparams = 1,
       .impl = {infer_tensor_to_shape, eval_tensor_to_shape, NULL}),
    OP(IR_OP_INSPECT_TENSOR_DTYPE_CODE, "relax.inspect.tensor_dtype_code",
       INSPECT(field_dtype_code)),
    OP(IR_OP_INSPECT_TENSOR_DTYPE_BITS, "relax.inspect.tensor_dtype_bits",
       INSPECT(field_dtype_bits)),
    OP(IR_OP_INSPECT_TENSOR_DTYPE_LANES, "relax.inspect.tensor_dtype_lanes",
       INSPECT(field_dtype_lanes)),
    OP(IR_OP_INSPECT_TENSOR_NDIM, "relax.inspect.tensor_ndim", INSPECT(field_ndim)),
    OP(IR_OP_INSPECT_TENSOR_SHAPE_I, "relax.inspect.tensor_shape_i", INSPECT_AXIS(field_shape_i)),
    OP(IR_OP_INSPECT_TENSOR_STRIDE_I, "relax.inspect.tensor_stride_i",
       INSPECT_AXIS(field_stride_i)),
    OP(IR_OP_INSPECT_TENSOR_BYTE_OFFSET, "relax.inspect.tensor_byte_offset",
       INSPECT(field_byte_offset)),
    OP(IR_OP_INSPECT_TENSOR_ELEM_OFFSET, "relax.inspect.tensor_elem_offset",
       INSPECT(field_elem_offset)),
    OP(IR_OP_MULTINOMIAL_FROM_UNIFORM, "relax.multinomial_from_uniform",
       .syn.params = {E("prob"), E("uniform_sample"), E("sample_indices"),
                      OP_ATTR("dtype", "\"int64\"")},
       .syn.nparams = 4, .impl = {infer_multinomial, eval_multinomial, legalize_multinomial},
       .flags = OP_CHECKS_DATA),
};

const OpTable op_core_table = {defs, sizeof defs / sizeof defs[0]};
