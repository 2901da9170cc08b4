/*
 * manip_index.c - the ops that read or write a tensor at positions held
 * in another tensor: gather_elements, gather_nd, scatter_elements,
 * scatter_nd.  Each op's inference, reference kernel and lowering sit
 * together here; their entries are in manip.c's table.
 *
 * Indices: a negative index counts from the end of its axis (as TVM's topi
 * does); the kernels refuse an index still out of range, and the lowerings
 * clamp it into the axis (R.take's policy, manip_legalize.c), so the
 * generated C never reads or writes out of bounds and valid indices give
 * the kernel's result.
 *
 * Scatters copy data, then apply the updates one at a time in row-major
 * order of the updates (TVM's topi order): with duplicate indices the last
 * update wins ("update"), or each one combines with what the earlier ones
 * left ("add", "mul", "min", "max", and "mean", which is TVM's pairwise
 * (old + new) / 2, not the mean of all updates).  The kernel stores after
 * every update, so it rounds where the generated C rounds.
 */
#include <string.h>

#include "manip_int.h"
#include "tir_build.h"

static Site
site_of(IrCtx *ctx, IrLoc loc, IrSym binding, const IrExpr *call)
{
  Site s = {ctx, loc, binding, call->u.call.op};
  return s;
}

static IrPrimExpr *
lit(IrCtx *ctx, int64_t v)
{
  return ir_prim_int(ctx, IR_I64, v);
}

static IrPrimExpr **
dims_new(IrCtx *ctx, int n)
{
  return ir_alloc(ctx, sizeof(IrPrimExpr *) * (size_t)(n ? n : 1));
}

static bool
is_index_dtype(IrDType t, bool allow_uint)
{
  return t.code == IR_DT_INT || (allow_uint && t.code == IR_DT_UINT);
}

/* Inference: indices of an integer dtype (void: unknown, accepted). */
static bool
check_index_dtype(const Site *s, IrDType t, bool allow_uint)
{
  char b[16];
  if (t.code == IR_DT_VOID || is_index_dtype(t, allow_uint))
    return true;
  op_manip_fail(s, "indices must have an integer dtype, not %s", ir_dtype_str(t, b));
  return false;
}

/* Inference: updates of data's dtype (void on either side: unknown). */
static bool
check_same_dtype(const Site *s, const IrSInfo *x, const IrSInfo *u, const char *what)
{
  IrDType a = x->u.tensor.dtype, b = u->u.tensor.dtype;
  char ba[16], bb[16];
  if (a.code == IR_DT_VOID || b.code == IR_DT_VOID || ir_dtype_eq(a, b))
    return true;
  op_manip_fail(s, "%s must have data's dtype %s, not %s", what, ir_dtype_str(a, ba),
                ir_dtype_str(b, bb));
  return false;
}

/* Inference: dims a[i] == b[i] for i < n, assumed when not provable;
 * false after an error when provably different. */
static bool
dims_agree(OpInfer *in, const Site *s, IrPrimExpr **a, IrPrimExpr **b, int n, const char *what)
{
  for (int i = 0; i < n; i++)
    if (op_assume_equal(in, a[i], b[i]) == IR_PROVE_FALSE) {
      op_manip_fail(s, "%s: dimension %d differs", what, i);
      return false;
    }
  return true;
}

/* ------------------------------------------------------------------ */
/* Kernel helpers                                                      */
/* ------------------------------------------------------------------ */

static IrTensorData *
index_val(const Site *s, Value *v, bool allow_uint)
{
  IrTensorData *t = op_manip_tensor_val(s, v, "indices");
  if (t && !is_index_dtype(t->dtype, allow_uint)) {
    op_manip_fail(s, "indices must have an integer dtype");
    return NULL;
  }
  return t;
}

static Value *
as_value(const Site *s, IrTensorData *t)
{
  return t ? op_tensor_from_data(s->ctx, t) : NULL;
}

/* The row-major position of idx in shape. */
static int64_t
ravel(const int64_t *idx, const int64_t *shape, int n)
{
  int64_t flat = 0;
  for (int d = 0; d < n; d++)
    flat = flat * shape[d] + idx[d];
  return flat;
}

/* Steps idx to the next index of shape in row-major order. */
static void
next_index(int64_t *idx, const int64_t *shape, int n)
{
  for (int d = n - 1; d >= 0 && ++idx[d] == shape[d]; d--)
    idx[d] = 0;
}

/* Index i into an axis of n elements: a negative one counts from the end;
 * false after an error when it is still out of range. */
static bool
resolve(const Site *s, int64_t i, int64_t n, int64_t *out)
{
  int64_t v = i < 0 ? i + n : i;
  if (v < 0 || v >= n) {
    op_manip_fail(s, "index %lld is out of range for an axis of size %lld", (long long)i,
                  (long long)n);
    return false;
  }
  *out = v;
  return true;
}

static IrTensorData *
copy_of(const Site *s, const IrTensorData *x)
{
  IrTensorData *out = op_manip_new_tensor(s, x->dtype, x->ndim, x->shape);
  if (out)
    memcpy(out->data, x->data, x->nbytes);
  return out;
}

/* ------------------------------------------------------------------ */
/* Lowering helpers                                                    */
/* ------------------------------------------------------------------ */

static IrPrimExpr *
as_i64(IrCtx *ctx, IrPrimExpr *e)
{
  return ir_dtype_eq(e->dtype, IR_I64) ? e : ir_prim_cast(ctx, IR_I64, e);
}

/* Index i into an axis of n elements as the kernel resolves it (negative
 * from the end), clamped into [0, n - 1] where the kernel refuses. */
static IrPrimExpr *
clamped_index(IrCtx *ctx, IrPrimExpr *i, IrPrimExpr *n)
{
  IrPrimExpr *from_end = ir_prim_bin(ctx, IR_PE_ADD, i, n);
  i = ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_LT, i, lit(ctx, 0)), from_end, i);
  IrPrimExpr *last = ir_prim_bin(ctx, IR_PE_SUB, n, lit(ctx, 1));
  return ir_prim_bin(ctx, IR_PE_MAX, ir_prim_bin(ctx, IR_PE_MIN, i, last), lit(ctx, 0));
}

/* Coordinate o of one tensor used on a dim `to` of another that the
 * kernel requires to be at least as long as `from`: o itself when that is
 * evident, else clamped into `to`. */
static IrPrimExpr *
clamped_coord(IrCtx *ctx, IrPrimExpr *o, IrPrimExpr *from, IrPrimExpr *to)
{
  int64_t a, b;
  if (ir_prim_expr_equal(from, to) ||
      (ir_prim_is_int(from, &a) && ir_prim_is_int(to, &b) && a <= b))
    return o;
  IrPrimExpr *last = ir_prim_bin(ctx, IR_PE_SUB, to, lit(ctx, 1));
  return ir_prim_bin(ctx, IR_PE_MAX, ir_prim_bin(ctx, IR_PE_MIN, o, last), lit(ctx, 0));
}

/* The loaded index value indices[ii] resolved against an axis of n (ii
 * is copied: callers reuse it). */
static IrPrimExpr *
load_index(OpPrim *p, IrBuffer *ix, IrPrimExpr **ii, IrPrimExpr *n)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **at = dims_new(ctx, ix->ndim);
  memcpy(at, ii, sizeof(IrPrimExpr *) * (size_t)ix->ndim);
  return clamped_index(ctx, as_i64(ctx, op_prim_load(p, ix, at)), n);
}

/* ------------------------------------------------------------------ */
/* Reductions of the scatters                                          */
/* ------------------------------------------------------------------ */

typedef enum {
  RED_UPDATE,
  RED_ADD,
  RED_MUL,
  RED_MEAN,
  RED_MAX,
  RED_MIN,
} Reduction;

/* The "reduction" attribute (mean only where allow_mean); -1 after an
 * error. */
static int
reduction_attr(const Site *s, const IrExpr *call, bool allow_mean)
{
  static const char *names[] = {"update", "add", "mul", "mean", "max", "min"};
  const IrAttr *a = op_attr(call, "reduction");
  if (!a)
    return RED_UPDATE;
  for (int i = 0; a->kind == IR_AT_STR && i < 6; i++)
    if (strcmp(a->u.s, names[i]) == 0 && (allow_mean || i != RED_MEAN))
      return i;
  op_manip_fail(s, "reduction must be \"update\", \"add\", \"mul\", %s\"max\" or \"min\"",
                allow_mean ? "\"mean\", " : "");
  return -1;
}

/* out[at] = f(out[at], u[ui]): floats in double, rounded at the store;
 * integers in wrapping int64, truncated at the store (mean in double). */
static void
reduce_into(IrTensorData *out, int64_t at, const IrTensorData *u, int64_t ui, int red)
{
  if (red == RED_UPDATE) {
    op_manip_copy_elem(out, at, u, ui);
    return;
  }
  if (out->dtype.code == IR_DT_FLOAT || out->dtype.code == IR_DT_BFLOAT || red == RED_MEAN) {
    double a = op_get_f(out, at), b = op_get_f(u, ui);
    double r = red == RED_ADD    ? a + b
               : red == RED_MUL  ? a * b
               : red == RED_MEAN ? (a + b) / 2
               : red == RED_MAX  ? (a > b ? a : b)
                                 : (a < b ? a : b);
    op_set_f(out, at, r);
    return;
  }
  uint64_t a = (uint64_t)op_get_i(out, at), b = (uint64_t)op_get_i(u, ui);
  int64_t sa = (int64_t)a, sb = (int64_t)b;
  int64_t r = red == RED_ADD   ? (int64_t)(a + b)
              : red == RED_MUL ? (int64_t)(a * b)
              : red == RED_MAX ? (sa > sb ? sa : sb)
                               : (sa < sb ? sa : sb);
  op_set_i(out, at, r);
}

/* The TIR of f(old, new) in the output's dtype t, as reduce_into
 * computes it: floats (and every mean) in float64, cast back. */
static IrPrimExpr *
reduce_expr(IrCtx *ctx, IrDType t, IrPrimExpr *old, IrPrimExpr *upd, int red)
{
  static const IrPrimKind kinds[] = {IR_PE_ADD, IR_PE_ADD, IR_PE_MUL, IR_PE_ADD, IR_PE_MAX,
                                     IR_PE_MIN};
  if (red == RED_UPDATE)
    return upd;
  bool wide = t.code == IR_DT_FLOAT || t.code == IR_DT_BFLOAT || red == RED_MEAN;
  if (!wide)
    return ir_prim_bin(ctx, kinds[red], old, upd);
  IrDType f64 = {IR_DT_FLOAT, 64, 1};
  IrPrimExpr *r = ir_prim_bin(ctx, kinds[red], ir_prim_cast(ctx, f64, old),
                              ir_prim_cast(ctx, f64, upd));
  if (red == RED_MEAN)
    r = ir_prim_bin(ctx, IR_PE_DIV, r, ir_prim_float(ctx, f64, 2.0));
  return ir_prim_cast(ctx, t, r);
}

/* A loop nest copying buffer src to dst (same shape). */
static void
emit_copy(OpPrim *p, IrBuffer *dst, IrBuffer *src)
{
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(p, dst->shape, dst->ndim, &o);
  *body = op_prim_store(p, dst, o, op_prim_load(p, src, o));
}

/* ------------------------------------------------------------------ */
/* gather_elements                                                     */
/* ------------------------------------------------------------------ */

/* R.gather_elements (TVM's rule): data and indices of one rank, indices
 * of an int dtype; the result has indices' shape and data's dtype. */
IrSInfo *
op_manip_infer_gather_elements(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  Site s = site_of(in->ctx, in->loc, in->binding, call);
  IrSInfo *x = op_manip_tensor_arg(&s, args[0], "data");
  IrSInfo *ix = x ? op_manip_tensor_arg(&s, args[1], "indices") : NULL;
  int axis;
  bool none;
  if (!ix || !check_index_dtype(&s, ix->u.tensor.dtype, false))
    return NULL;
  int xn = x->u.tensor.ndim, n = ix->u.tensor.ndim;
  IrDType t = x->u.tensor.dtype;
  if (xn < 0 || n < 0)
    return ir_sinfo_tensor(in->ctx, NULL, -1, t, x->u.tensor.vdevice);
  if (!op_manip_axis_attr(&s, call, false, xn, &axis, &none))
    return NULL;
  if (xn != n) {
    op_manip_fail(&s, "data and indices must have the same rank, not %d and %d", xn, n);
    return NULL;
  }
  return ir_sinfo_tensor(in->ctx, ix->u.tensor.shape, n, t, x->u.tensor.vdevice);
}

/* out[o] = data[o with o[axis] = indices[o]]; indices' dims other than
 * axis must not exceed data's. */
Value *
op_manip_eval_gather_elements(OpEval *ev, const IrExpr *call, Value **args)
{
  Site s = site_of(ev->ctx, ev->loc, ev->binding, call);
  IrTensorData *x = op_manip_tensor_val(&s, args[0], "data"), *ix = x ? index_val(&s, args[1], false) : NULL;
  int axis;
  bool none;
  if (!ix || !op_manip_axis_attr(&s, call, false, x->ndim, &axis, &none))
    return NULL;
  if (x->ndim != ix->ndim) {
    op_manip_fail(&s, "data and indices must have the same rank");
    return NULL;
  }
  for (int d = 0; d < x->ndim; d++)
    if (d != axis && ix->shape[d] > x->shape[d]) {
      op_manip_fail(&s, "dimension %d of indices (%lld) exceeds data's (%lld)", d,
                    (long long)ix->shape[d], (long long)x->shape[d]);
      return NULL;
    }
  IrTensorData *out = op_manip_new_tensor(&s, x->dtype, ix->ndim, ix->shape);
  int64_t o[MAX_DIMS] = {0}, xi[MAX_DIMS], count = out ? op_numel(out) : 0;
  for (int64_t k = 0; k < count; k++, next_index(o, ix->shape, ix->ndim)) {
    memcpy(xi, o, sizeof(int64_t) * (size_t)x->ndim);
    if (!resolve(&s, op_get_i(ix, k), x->shape[axis], &xi[axis]))
      return NULL;
    op_manip_copy_elem(out, k, x, ravel(xi, x->shape, x->ndim));
  }
  return as_value(&s, out);
}

IrExpr *
op_manip_legalize_gather_elements(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  Site s = site_of(lz->ctx, lz->loc, lz->binding, call);
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  int axis;
  bool none;
  op_prim_begin(lz, &p, "gather_elements");
  IrBuffer *x = op_prim_input(&p, call->u.call.args[0], "A");
  IrBuffer *ix = x ? op_prim_input(&p, call->u.call.args[1], "B") : NULL;
  IrBuffer *out = ix ? op_prim_output(&p, result, "T_gather_elements") : NULL;
  if (!out || x->ndim != ix->ndim || out->ndim != ix->ndim || !is_index_dtype(ix->dtype, false) ||
      !op_manip_axis_attr(&s, call, false, x->ndim, &axis, &none)) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  IrPrimExpr **xi = dims_new(ctx, x->ndim);
  for (int d = 0; d < x->ndim; d++)
    xi[d] = d == axis ? load_index(&p, ix, o, x->shape[d])
                      : clamped_coord(ctx, o[d], ix->shape[d], x->shape[d]);
  *body = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  return op_prim_finish(&p, call, result);
}

/* ------------------------------------------------------------------ */
/* gather_nd                                                           */
/* ------------------------------------------------------------------ */

/* batch_dims, in [0, min(data's rank, indices' rank - 1)] when the ranks
 * are known (-1: unchecked). */
static bool
batch_dims_attr(const Site *s, const IrExpr *call, int xn, int n, int *b)
{
  int64_t *v;
  int count;
  if (!op_manip_attr_ints(s, call, "batch_dims", false, &v, &count))
    return false;
  if (count != 1 || v[0] < 0) {
    op_manip_fail(s, "batch_dims must be one non-negative integer");
    return false;
  }
  if ((xn >= 0 && v[0] > xn) || (n >= 0 && v[0] > n - 1)) {
    op_manip_fail(s, "batch_dims %lld exceeds the rank of data (%d) or of indices minus 1 (%d)",
                  (long long)v[0], xn, n - 1);
    return false;
  }
  *b = (int)v[0];
  return true;
}

/* R.gather_nd (TVM's rule): int64 indices whose last dim l (a literal)
 * indexes data's dims batch_dims .. batch_dims + l; the result is
 * indices.shape[:-1] + data.shape[batch_dims + l:].  The first batch_dims
 * dims of data and indices must agree (assumed when not provable). */
IrSInfo *
op_manip_infer_gather_nd(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  Site s = site_of(in->ctx, in->loc, in->binding, call);
  IrSInfo *x = op_manip_tensor_arg(&s, args[0], "data");
  IrSInfo *ix = x ? op_manip_tensor_arg(&s, args[1], "indices") : NULL;
  IrDType it = ix ? ix->u.tensor.dtype : IR_VOID;
  char buf[16];
  int b;
  if (!ix)
    return NULL;
  if (it.code != IR_DT_VOID && !ir_dtype_eq(it, IR_I64)) {
    op_manip_fail(&s, "indices must be int64, not %s", ir_dtype_str(it, buf));
    return NULL;
  }
  int xn = x->u.tensor.ndim, n = ix->u.tensor.ndim;
  IrDType t = x->u.tensor.dtype;
  int vdev = x->u.tensor.vdevice;
  if (xn < 0 || n < 0)
    return ir_sinfo_tensor(in->ctx, NULL, -1, t, vdev);
  if (n < 1) {
    op_manip_fail(&s, "indices must have at least one dimension");
    return NULL;
  }
  int64_t l;
  if (!batch_dims_attr(&s, call, xn, n, &b))
    return NULL;
  if (!ix->u.tensor.shape || !ir_prim_is_int(ix->u.tensor.shape[n - 1], &l))
    return ir_sinfo_tensor(in->ctx, NULL, -1, t, vdev);
  if (l > xn - b) {
    op_manip_fail(&s, "the last dimension of indices (%lld) exceeds data's rank %d minus batch_dims %d",
                  (long long)l, xn, b);
    return NULL;
  }
  int on = n - 1 + xn - b - (int)l;
  if (!x->u.tensor.shape)
    return ir_sinfo_tensor(in->ctx, NULL, on, t, vdev);
  if (!dims_agree(in, &s, x->u.tensor.shape, ix->u.tensor.shape, b, "batch dims of data and indices"))
    return NULL;
  IrPrimExpr **out = dims_new(in->ctx, on);
  for (int d = 0; d < n - 1; d++)
    out[d] = ix->u.tensor.shape[d];
  for (int d = b + (int)l; d < xn; d++)
    out[n - 1 + d - b - (int)l] = x->u.tensor.shape[d];
  return ir_sinfo_tensor(in->ctx, out, on, t, vdev);
}

Value *
op_manip_eval_gather_nd(OpEval *ev, const IrExpr *call, Value **args)
{
  Site s = site_of(ev->ctx, ev->loc, ev->binding, call);
  IrTensorData *x = op_manip_tensor_val(&s, args[0], "data"), *ix = x ? index_val(&s, args[1], false) : NULL;
  int b;
  if (!ix || ix->ndim < 1 || !batch_dims_attr(&s, call, x->ndim, ix->ndim, &b))
    return ix && ix->ndim < 1 ? (op_manip_fail(&s, "indices must have a dimension"), NULL) : NULL;
  int n = ix->ndim;
  int64_t l = ix->shape[n - 1], shape[2 * MAX_DIMS];
  if (l > x->ndim - b) {
    op_manip_fail(&s, "the last dimension of indices exceeds data's rank minus batch_dims");
    return NULL;
  }
  for (int d = 0; d < b; d++)
    if (ix->shape[d] != x->shape[d]) {
      op_manip_fail(&s, "batch dimension %d of data and indices differs", d);
      return NULL;
    }
  int on = n - 1 + x->ndim - b - (int)l;
  memcpy(shape, ix->shape, sizeof(int64_t) * (size_t)(n - 1));
  memcpy(shape + n - 1, x->shape + b + l, sizeof(int64_t) * (size_t)(x->ndim - b - l));
  IrTensorData *out = op_manip_new_tensor(&s, x->dtype, on, shape);
  int64_t o[2 * MAX_DIMS] = {0}, xi[MAX_DIMS], count = out ? op_numel(out) : 0;
  for (int64_t k = 0; k < count; k++, next_index(o, shape, on)) {
    int64_t row = ravel(o, shape, n - 1) * l; /* indices[o[:n-1], 0] */
    memcpy(xi, o, sizeof(int64_t) * (size_t)b);
    for (int j = 0; j < l; j++)
      if (!resolve(&s, op_get_i(ix, row + j), x->shape[b + j], &xi[b + j]))
        return NULL;
    memcpy(xi + b + l, o + n - 1, sizeof(int64_t) * (size_t)(x->ndim - b - l));
    op_manip_copy_elem(out, k, x, ravel(xi, x->shape, x->ndim));
  }
  return as_value(&s, out);
}

IrExpr *
op_manip_legalize_gather_nd(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  Site s = site_of(lz->ctx, lz->loc, lz->binding, call);
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  int b;
  int64_t l = -1;
  op_prim_begin(lz, &p, "gather_nd");
  IrBuffer *x = op_prim_input(&p, call->u.call.args[0], "A");
  IrBuffer *ix = x ? op_prim_input(&p, call->u.call.args[1], "B") : NULL;
  IrBuffer *out = ix ? op_prim_output(&p, result, "T_gather_nd") : NULL;
  if (!out || ix->ndim < 1 || !ir_prim_is_int(ix->shape[ix->ndim - 1], &l) ||
      !is_index_dtype(ix->dtype, false) || !batch_dims_attr(&s, call, x->ndim, ix->ndim, &b) ||
      l > x->ndim - b || out->ndim != ix->ndim - 1 + x->ndim - b - (int)l) {
    op_prim_abort(&p);
    return NULL;
  }
  int n = ix->ndim;
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  IrPrimExpr **xi = dims_new(ctx, x->ndim), **ii = dims_new(ctx, n);
  memcpy(ii, o, sizeof(IrPrimExpr *) * (size_t)(n - 1));
  for (int d = 0; d < b; d++)
    xi[d] = clamped_coord(ctx, o[d], ix->shape[d], x->shape[d]);
  for (int j = 0; j < l; j++) {
    ii[n - 1] = lit(ctx, j);
    xi[b + j] = load_index(&p, ix, ii, x->shape[b + j]);
  }
  for (int d = b + (int)l; d < x->ndim; d++)
    xi[d] = o[n - 1 + d - b - (int)l];
  *body = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  return op_prim_finish(&p, call, result);
}

/* The tensors data, indices and updates of a scatter (t[0..2]) with the
 * checks both scatters share; false after an error. */
static bool
scatter_args(const Site *s, const IrExpr *call, IrSInfo **args, bool allow_mean, IrSInfo **t)
{
  static const char *what[] = {"data", "indices", "updates"};
  for (int i = 0; i < 3; i++)
    if (!(t[i] = op_manip_tensor_arg(s, args[i], what[i])))
      return false;
  return reduction_attr(s, call, allow_mean) >= 0 && check_same_dtype(s, t[0], t[2], "updates") &&
         check_index_dtype(s, t[1]->u.tensor.dtype, true);
}

/* The prim_func of a scatter: inputs data, indices, updates (b[0..2]),
 * output b[3] holding a copy of data; false (the builder aborted) when a
 * shape is not known or the ranks of x and the output differ. */
static bool
scatter_begin(OpLegalize *lz, OpPrim *p, const IrExpr *call, IrSInfo *result, const char *name,
              IrBuffer **b)
{
  static const char *names[] = {"A", "B", "C"};
  op_prim_begin(lz, p, name);
  for (int i = 0; i < 3; i++)
    if (!(b[i] = op_prim_input(p, call->u.call.args[i], names[i]))) {
      op_prim_abort(p);
      return false;
    }
  b[3] = op_prim_output(p, result, ir_printf(lz->ctx, "T_%s", name));
  if (!b[3] || b[3]->ndim != b[0]->ndim || !is_index_dtype(b[1]->dtype, true)) {
    op_prim_abort(p);
    return false;
  }
  emit_copy(p, b[3], b[0]);
  return true;
}

/* ------------------------------------------------------------------ */
/* scatter_elements                                                    */
/* ------------------------------------------------------------------ */

/* R.scatter_elements (TVM's rule): data, indices and updates of one rank,
 * updates of data's dtype and indices' shape, indices of an integer
 * dtype; the result is data's struct info. */
IrSInfo *
op_manip_infer_scatter_elements(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  Site s = site_of(in->ctx, in->loc, in->binding, call);
  IrSInfo *t[3];
  int axis;
  bool none;
  if (!scatter_args(&s, call, args, true, t))
    return NULL;
  IrSInfo *x = t[0], *ix = t[1], *u = t[2];
  int xn = x->u.tensor.ndim, n = ix->u.tensor.ndim, un = u->u.tensor.ndim;
  if (xn < 0)
    return x;
  if (!op_manip_axis_attr(&s, call, false, xn, &axis, &none))
    return NULL;
  if ((n >= 0 && n != xn) || (un >= 0 && n >= 0 && un != n)) {
    op_manip_fail(&s, "data, indices and updates must have the same rank, not %d, %d and %d", xn,
                  n, un);
    return NULL;
  }
  if (ix->u.tensor.shape && u->u.tensor.shape &&
      !dims_agree(in, &s, ix->u.tensor.shape, u->u.tensor.shape, n, "indices and updates"))
    return NULL;
  return x;
}

Value *
op_manip_eval_scatter_elements(OpEval *ev, const IrExpr *call, Value **args)
{
  Site s = site_of(ev->ctx, ev->loc, ev->binding, call);
  IrTensorData *x = op_manip_tensor_val(&s, args[0], "data"), *ix = x ? index_val(&s, args[1], true) : NULL;
  IrTensorData *u = ix ? op_manip_tensor_val(&s, args[2], "updates") : NULL;
  int axis, red = u ? reduction_attr(&s, call, true) : -1;
  bool none;
  if (red < 0 || !op_manip_axis_attr(&s, call, false, x->ndim, &axis, &none))
    return NULL;
  if (ix->ndim != x->ndim || u->ndim != x->ndim || !ir_dtype_eq(u->dtype, x->dtype)) {
    op_manip_fail(&s, "data, indices and updates must have one rank, updates data's dtype");
    return NULL;
  }
  for (int d = 0; d < x->ndim; d++)
    if (u->shape[d] != ix->shape[d] || (d != axis && ix->shape[d] > x->shape[d])) {
      op_manip_fail(&s, "dimension %d of indices (%lld) must be updates' (%lld) and at most data's "
                    "(%lld)", d, (long long)ix->shape[d], (long long)u->shape[d],
                    (long long)x->shape[d]);
      return NULL;
    }
  IrTensorData *out = copy_of(&s, x);
  int64_t o[MAX_DIMS] = {0}, xi[MAX_DIMS], count = out ? op_numel(ix) : 0;
  for (int64_t k = 0; k < count; k++, next_index(o, ix->shape, ix->ndim)) {
    memcpy(xi, o, sizeof(int64_t) * (size_t)x->ndim);
    if (!resolve(&s, op_get_i(ix, k), x->shape[axis], &xi[axis]))
      return NULL;
    reduce_into(out, ravel(xi, x->shape, x->ndim), u, k, red);
  }
  return as_value(&s, out);
}

IrExpr *
op_manip_legalize_scatter_elements(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  Site s = site_of(lz->ctx, lz->loc, lz->binding, call);
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  int axis, red = reduction_attr(&s, call, true);
  bool none;
  IrBuffer *b[4];
  if (red < 0 || !scatter_begin(lz, &p, call, result, "scatter_elements", b))
    return NULL;
  IrBuffer *x = b[0], *ix = b[1], *u = b[2], *out = b[3];
  if (ix->ndim != x->ndim || u->ndim != x->ndim ||
      !op_manip_axis_attr(&s, call, false, x->ndim, &axis, &none)) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, ix->shape, ix->ndim, &o);
  IrPrimExpr **xi = dims_new(ctx, x->ndim);
  for (int d = 0; d < x->ndim; d++)
    xi[d] = d == axis ? load_index(&p, ix, o, x->shape[d])
                      : clamped_coord(ctx, o[d], ix->shape[d], x->shape[d]);
  IrPrimExpr **ui = dims_new(ctx, x->ndim);
  for (int d = 0; d < x->ndim; d++)
    ui[d] = clamped_coord(ctx, o[d], ix->shape[d], u->shape[d]);
  IrPrimExpr *v = reduce_expr(ctx, out->dtype, op_prim_load(&p, out, xi), op_prim_load(&p, u, ui), red);
  *body = op_prim_store(&p, out, xi, v);
  return op_prim_finish(&p, call, result);
}

/* ------------------------------------------------------------------ */
/* scatter_nd                                                          */
/* ------------------------------------------------------------------ */

/* R.scatter_nd (TVM's rule): data and updates of one known dtype, indices
 * of an integer dtype whose last dim K (a literal, at most data's rank)
 * indexes data's first K dims; updates.shape = indices.shape[:-1] +
 * data.shape[K:].  The result is data's struct info. */
IrSInfo *
op_manip_infer_scatter_nd(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  Site s = site_of(in->ctx, in->loc, in->binding, call);
  IrSInfo *t[3];
  if (!scatter_args(&s, call, args, false, t))
    return NULL;
  IrSInfo *x = t[0], *ix = t[1], *u = t[2];
  int xn = x->u.tensor.ndim, n = ix->u.tensor.ndim, un = u->u.tensor.ndim;
  if (n == 0) {
    op_manip_fail(&s, "indices must have at least one dimension");
    return NULL;
  }
  int64_t k;
  if (xn < 0 || n < 0 || un < 0 || !ix->u.tensor.shape ||
      !ir_prim_is_int(ix->u.tensor.shape[n - 1], &k))
    return x;
  if (k > xn || xn + n - k - 1 != un) {
    op_manip_fail(&s, "updates must have rank %lld (indices' %d - 1 + data's %d - %lld), and "
                  "%lld at most data's rank", (long long)(xn + n - k - 1), n, xn, (long long)k,
                  (long long)k);
    return NULL;
  }
  if (x->u.tensor.shape && u->u.tensor.shape &&
      (!dims_agree(in, &s, ix->u.tensor.shape, u->u.tensor.shape, n - 1,
                   "updates.shape must be indices.shape[:-1] + data.shape[K:]") ||
       !dims_agree(in, &s, x->u.tensor.shape + k, u->u.tensor.shape + n - 1, xn - (int)k,
                   "updates.shape must be indices.shape[:-1] + data.shape[K:]")))
    return NULL;
  return x;
}

Value *
op_manip_eval_scatter_nd(OpEval *ev, const IrExpr *call, Value **args)
{
  Site s = site_of(ev->ctx, ev->loc, ev->binding, call);
  IrTensorData *x = op_manip_tensor_val(&s, args[0], "data"), *ix = x ? index_val(&s, args[1], true) : NULL;
  IrTensorData *u = ix ? op_manip_tensor_val(&s, args[2], "updates") : NULL;
  int red = u ? reduction_attr(&s, call, false) : -1;
  if (red < 0)
    return NULL;
  int n = ix->ndim;
  int64_t k = n > 0 ? ix->shape[n - 1] : -1;
  bool ok = n > 0 && k <= x->ndim && u->ndim == n - 1 + x->ndim - k && ir_dtype_eq(u->dtype, x->dtype);
  for (int d = 0; ok && d < u->ndim; d++)
    ok = u->shape[d] == (d < n - 1 ? ix->shape[d] : x->shape[k + d - (n - 1)]);
  if (!ok) {
    op_manip_fail(&s, "updates must have data's dtype and shape indices.shape[:-1] + data.shape[K:]");
    return NULL;
  }
  IrTensorData *out = copy_of(&s, x);
  int64_t o[MAX_DIMS] = {0}, xi[MAX_DIMS], count = out ? op_numel(u) : 0;
  for (int64_t f = 0; f < count; f++, next_index(o, u->shape, u->ndim)) {
    int64_t row = ravel(o, u->shape, n - 1) * k;
    for (int j = 0; j < k; j++)
      if (!resolve(&s, op_get_i(ix, row + j), x->shape[j], &xi[j]))
        return NULL;
    memcpy(xi + k, o + n - 1, sizeof(int64_t) * (size_t)(x->ndim - k));
    reduce_into(out, ravel(xi, x->shape, x->ndim), u, f, red);
  }
  return as_value(&s, out);
}

IrExpr *
op_manip_legalize_scatter_nd(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  Site s = site_of(lz->ctx, lz->loc, lz->binding, call);
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  int red = reduction_attr(&s, call, false);
  int64_t k = -1;
  IrBuffer *b[4];
  if (red < 0 || !scatter_begin(lz, &p, call, result, "scatter_nd", b))
    return NULL;
  IrBuffer *x = b[0], *ix = b[1], *u = b[2], *out = b[3];
  if (ix->ndim < 1 || !ir_prim_is_int(ix->shape[ix->ndim - 1], &k) || k > x->ndim ||
      u->ndim != ix->ndim - 1 + x->ndim - k) {
    op_prim_abort(&p);
    return NULL;
  }
  int n = ix->ndim;
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, u->shape, u->ndim, &o);
  IrPrimExpr **xi = dims_new(ctx, x->ndim), **ii = dims_new(ctx, n);
  for (int d = 0; d < n - 1; d++)
    ii[d] = clamped_coord(ctx, o[d], u->shape[d], ix->shape[d]);
  for (int j = 0; j < k; j++) {
    ii[n - 1] = lit(ctx, j);
    xi[j] = load_index(&p, ix, ii, x->shape[j]);
  }
  for (int d = (int)k; d < x->ndim; d++)
    xi[d] = clamped_coord(ctx, o[n - 1 + d - k], u->shape[n - 1 + d - k], x->shape[d]);
  IrPrimExpr *v = reduce_expr(ctx, out->dtype, op_prim_load(&p, out, xi), op_prim_load(&p, u, o), red);
  *body = op_prim_store(&p, out, xi, v);
  return op_prim_finish(&p, call, result);
}
