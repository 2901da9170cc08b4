/*
 * manip_index.c - the ops that read or write a tensor at positions held
 * in another tensor: gather_elements, gather_nd, scatter_elements,
 * scatter_nd.  Each op's inference, reference kernel and lowering sit
 * together here; their entries are in manip.c's table.  index_tensor,
 * index_put and slice_scatter are here too: numpy-style advanced indexing
 * (index tensors broadcast together) and the write of a strided slice.
 *
 * Indices: a negative index counts from the end of its axis (as TVM's topi
 * does); the kernels refuse an index still out of range, and the lowerings
 * assert what the kernel refuses in check loops before the loops that
 * write (op_prim_check_loops: every index the kernel resolves, and only
 * those), so the generated C refuses it too, with nothing written.  The
 * reads and writes still clamp into the axis (R.take's policy,
 * manip_legalize.c), so the lowered code never leaves a buffer, and valid
 * indices give the kernel's result.
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
#include "nn_int.h"
#include "tir_build.h"

static bool
is_index_dtype(IrDType t, bool allow_uint)
{
  return t.code == IR_DT_INT || (allow_uint && t.code == IR_DT_UINT);
}

/* Inference: indices of an integer dtype (void: unknown, accepted). */
static bool
check_index_dtype(const OpSite *s, IrDType t, bool allow_uint)
{
  char b[16];
  if (t.code == IR_DT_VOID || is_index_dtype(t, allow_uint))
    return true;
  return op_fail(s, "indices must have an integer dtype, not %s", ir_dtype_str(t, b));
}

/* Inference: updates of data's dtype (void on either side: unknown). */
static bool
check_same_dtype(const OpSite *s, const IrSInfo *x, const IrSInfo *u, const char *what)
{
  IrDType a = x->u.tensor.dtype, b = u->u.tensor.dtype;
  char ba[16], bb[16];
  if (a.code == IR_DT_VOID || b.code == IR_DT_VOID || ir_dtype_eq(a, b))
    return true;
  return op_fail(s, "%s must have data's dtype %s, not %s", what, ir_dtype_str(a, ba),
                 ir_dtype_str(b, bb));
}

/* Inference: dims a[i] == b[i] for i < n, assumed when not provable;
 * false after an error when provably different. */
static bool
dims_agree(OpInfer *in, const OpSite *s, IrPrimExpr **a, IrPrimExpr **b, int n, const char *what)
{
  for (int i = 0; i < n; i++)
    if (op_assume_equal(in, a[i], b[i]) == IR_PROVE_FALSE)
      return op_fail(s, "%s: dimension %d differs", what, i);
  return true;
}

/* The lowerings read or write data (or an output of data's shape) at a
 * clamped position once per element of a loop over `loop` (n dims), and
 * a clamped position exists only in a tensor with an element: data must
 * hold one whenever the loop runs.  That is assumed (LegalizeOps checks it
 * at run time) unless provable; the kernels refuse such a call anyway, as
 * an index out of range.  Returns x (never NULL: nothing is refused). */
static IrSInfo *
assume_room(OpInfer *in, IrSInfo *x, IrPrimExpr **loop, int n)
{
  IrPrimExpr **xd = x->u.tensor.shape;
  if (!in->assume || !xd || !loop || n < 0)
    return x;
  IrPrimExpr *have = op_manip_lit(in->ctx, 1), *count = op_manip_lit(in->ctx, 1);
  for (int i = 0; i < x->u.tensor.ndim; i++)
    have = ir_prim_bin(in->ctx, IR_PE_MUL, have, xd[i]);
  for (int i = 0; i < n; i++)
    count = ir_prim_bin(in->ctx, IR_PE_MUL, count, loop[i]);
  IrPrimExpr *zero = op_manip_lit(in->ctx, 0);
  op_assume(in, ir_prim_bin(in->ctx, IR_PE_OR, ir_prim_bin(in->ctx, IR_PE_GT, have, zero),
                            ir_prim_bin(in->ctx, IR_PE_EQ, count, zero)));
  return x;
}

/* ------------------------------------------------------------------ */
/* Kernel helpers                                                      */
/* ------------------------------------------------------------------ */

static IrTensorData *
index_val(const OpSite *s, Value *v, bool allow_uint)
{
  IrTensorData *t = op_manip_tensor_val(s, v, "indices");
  if (t && !is_index_dtype(t->dtype, allow_uint))
    return op_fail_null(s, "indices must have an integer dtype");
  return t;
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
resolve(const OpSite *s, int64_t i, int64_t n, int64_t *out)
{
  int64_t v = i < 0 ? i + n : i;
  if (v < 0 || v >= n)
    return op_fail(s, "index %lld is out of range for an axis of size %lld", (long long)i,
                   (long long)n);
  *out = v;
  return true;
}

static IrTensorData *
copy_of(const OpSite *s, const IrTensorData *x)
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

/* n - 1, folded when n is a literal. */
static IrPrimExpr *
last_of(IrCtx *ctx, IrPrimExpr *n)
{
  int64_t v;
  return ir_prim_is_int(n, &v) ? op_manip_lit(ctx, v - 1)
                               : ir_prim_bin(ctx, IR_PE_SUB, n, op_manip_lit(ctx, 1));
}

/* Index i into an axis of n elements as the kernel resolves it (negative
 * from the end), clamped into [0, n - 1] where the kernel refuses. */
static IrPrimExpr *
clamped_index(IrCtx *ctx, IrPrimExpr *i, IrPrimExpr *n)
{
  IrPrimExpr *from_end = ir_prim_bin(ctx, IR_PE_ADD, i, n);
  i = ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_LT, i, op_manip_lit(ctx, 0)), from_end, i);
  return ir_prim_bin(ctx, IR_PE_MAX, ir_prim_bin(ctx, IR_PE_MIN, i, last_of(ctx, n)),
                     op_manip_lit(ctx, 0));
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
  return ir_prim_bin(ctx, IR_PE_MAX, ir_prim_bin(ctx, IR_PE_MIN, o, last_of(ctx, to)),
                     op_manip_lit(ctx, 0));
}

/* The loaded index value indices[ii] resolved against an axis of n (ii
 * is copied: callers reuse it). */
static IrPrimExpr *
load_index(OpPrim *p, IrBuffer *ix, IrPrimExpr **ii, IrPrimExpr *n)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **at = op_manip_dims(ctx, ix->ndim);
  memcpy(at, ii, sizeof(IrPrimExpr *) * (size_t)ix->ndim);
  return clamped_index(ctx, as_i64(ctx, op_prim_load(p, ix, at)), n);
}

/* The kernels' refusal of an index out of range, checked before the
 * loops that write: each element of ix against an axis of n elements,
 * where guard holds (NULL: always; op_prim_check_loops). */
static void
check_indices(OpPrim *p, IrBuffer *ix, IrPrimExpr *n, IrPrimExpr *guard)
{
  IrPrimExpr **ii;
  IrStmt **slot = op_prim_check_loops(p, ix->shape, ix->ndim, &ii, guard);
  *slot = op_prim_assert_index(p, op_prim_load(p, ix, ii), n);
}

/* The same for the rows of ix (the nd ops: its dims but the last), entry
 * j < l of each row against an axis of dims[j] elements. */
static void
check_index_rows(OpPrim *p, IrBuffer *ix, IrPrimExpr **dims, int64_t l, IrPrimExpr *guard)
{
  IrCtx *ctx = p->lz->ctx;
  int n = ix->ndim;
  IrPrimExpr **o;
  if (l <= 0)
    return;
  IrStmt **slot = op_prim_check_loops(p, ix->shape, n - 1, &o, guard);
  IrStmt *seq = ir_stmt_new(ctx, IR_ST_SEQ, p->lz->loc);
  seq->u.seq.n = (int)l;
  seq->u.seq.stmts = ir_alloc(ctx, sizeof(IrStmt *) * (size_t)l);
  for (int j = 0; j < l; j++) {
    IrPrimExpr **ii = op_manip_dims(ctx, n);
    memcpy(ii, o, sizeof(IrPrimExpr *) * (size_t)(n - 1));
    ii[n - 1] = op_manip_lit(ctx, j);
    seq->u.seq.stmts[j] = op_prim_assert_index(p, op_prim_load(p, ix, ii), dims[j]);
  }
  *slot = l == 1 ? seq->u.seq.stmts[0] : seq;
}

/* gather_elements and scatter_elements: the check of indices against
 * axis, then a loop nest over `over` (the output, or indices) whose index
 * *o reads x at *xi: indices[o] along axis, o (clamped to x's dims)
 * elsewhere.  Returns the slot of the loop body. */
static IrStmt **
elements_loops(OpPrim *p, IrBuffer *x, IrBuffer *ix, IrBuffer *over, int axis, IrPrimExpr ***o,
               IrPrimExpr ***xi)
{
  IrCtx *ctx = p->lz->ctx;
  check_indices(p, ix, x->shape[axis], NULL);
  IrStmt **body = op_prim_loops(p, over->shape, over->ndim, o);
  *xi = op_manip_dims(ctx, x->ndim);
  for (int d = 0; d < x->ndim; d++)
    (*xi)[d] = d == axis ? load_index(p, ix, *o, x->shape[d])
                         : clamped_coord(ctx, (*o)[d], ix->shape[d], x->shape[d]);
  return body;
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
reduction_attr(const OpSite *s, bool allow_mean)
{
  static const char *names[] = {"update", "add", "mul", "mean", "max", "min"};
  const IrAttr *a = op_attr(s->call, "reduction");
  if (!a)
    return RED_UPDATE;
  for (int i = 0; a->kind == IR_AT_STR && i < 6; i++)
    if (strcmp(a->u.s, names[i]) == 0 && (allow_mean || i != RED_MEAN))
      return i;
  op_report(s, "reduction must be \"update\", \"add\", \"mul\", %s\"max\" or \"min\"",
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
  if (ir_dtype_is_float(out->dtype) || red == RED_MEAN) {
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
  static const IrPrimKind kinds[] = {IR_PE_ADD, IR_PE_ADD, IR_PE_MUL,
                                     IR_PE_ADD, IR_PE_MAX, IR_PE_MIN};
  if (red == RED_UPDATE)
    return upd;
  bool wide = ir_dtype_is_float(t) || red == RED_MEAN;
  if (!wide)
    return ir_prim_bin(ctx, kinds[red], old, upd);
  IrDType f64 = {IR_DT_FLOAT, 64, 1};
  IrPrimExpr *r =
      ir_prim_bin(ctx, kinds[red], ir_prim_cast(ctx, f64, old), ir_prim_cast(ctx, f64, upd));
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
op_manip_infer_gather_elements(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "data");
  IrSInfo *ix = x ? op_manip_tensor_arg(s, args[1], "indices") : NULL;
  int axis;
  if (!ix || !check_index_dtype(s, ix->u.tensor.dtype, false))
    return NULL;
  int xn = x->u.tensor.ndim, n = ix->u.tensor.ndim;
  IrDType t = x->u.tensor.dtype;
  if (xn < 0 || n < 0)
    return ir_sinfo_tensor(in->ctx, NULL, -1, t, x->u.tensor.vdevice);
  if (!op_manip_axis_attr(s, xn, &axis, NULL))
    return NULL;
  if (xn != n)
    return op_fail_null(s, "data and indices must have the same rank, not %d and %d", xn, n);
  return assume_room(in, x, ix->u.tensor.shape, n)
             ? ir_sinfo_tensor(in->ctx, ix->u.tensor.shape, n, t, x->u.tensor.vdevice)
             : NULL;
}

/* out[o] = data[o with o[axis] = indices[o]]; indices' dims other than
 * axis must not exceed data's. */
Value *
op_manip_eval_gather_elements(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data"),
               *ix = x ? index_val(s, args[1], false) : NULL;
  int axis;
  if (!ix || !op_manip_axis_attr(s, x->ndim, &axis, NULL))
    return NULL;
  if (x->ndim != ix->ndim)
    return op_fail_null(s, "data and indices must have the same rank");
  for (int d = 0; d < x->ndim; d++)
    if (d != axis && ix->shape[d] > x->shape[d])
      return op_fail_null(s, "dimension %d of indices (%lld) exceeds data's (%lld)", d,
                          (long long)ix->shape[d], (long long)x->shape[d]);
  IrTensorData *out = op_manip_new_tensor(s, x->dtype, ix->ndim, ix->shape);
  int64_t o[MAX_DIMS] = {0}, xi[MAX_DIMS], count = out ? op_numel(out) : 0;
  for (int64_t k = 0; k < count; k++, next_index(o, ix->shape, ix->ndim)) {
    memcpy(xi, o, sizeof(int64_t) * (size_t)x->ndim);
    if (!resolve(s, op_get_i(ix, k), x->shape[axis], &xi[axis]))
      return NULL;
    op_manip_copy_elem(out, k, x, ravel(xi, x->shape, x->ndim));
  }
  return op_manip_as_value(s, out);
}

IrExpr *
op_manip_legalize_gather_elements(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  OpPrim p;
  int axis;
  IrBuffer *x, *ix, *out;
  if (!op_manip_prim_open(lz, &p, s, result, "gather_elements", &x, &ix, &out))
    return NULL;
  if (x->ndim != ix->ndim || out->ndim != ix->ndim || !is_index_dtype(ix->dtype, false) ||
      !op_manip_axis_attr(s, x->ndim, &axis, NULL)) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **o, **xi;
  IrStmt **body = elements_loops(&p, x, ix, out, axis, &o, &xi);
  *body = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* gather_nd                                                           */
/* ------------------------------------------------------------------ */

/* batch_dims, in [0, min(data's rank, indices' rank - 1)] when the ranks
 * are known (-1: unchecked). */
static bool
batch_dims_attr(const OpSite *s, int xn, int n, int *b)
{
  int64_t *v;
  int count;
  if (!op_manip_attr_ints(s, "batch_dims", false, &v, &count))
    return false;
  if (count != 1 || v[0] < 0)
    return op_fail(s, "batch_dims must be one non-negative integer");
  if ((xn >= 0 && v[0] > xn) || (n >= 0 && v[0] > n - 1))
    return op_fail(s, "batch_dims %lld exceeds the rank of data (%d) or of indices minus 1 (%d)",
                   (long long)v[0], xn, n - 1);
  *b = (int)v[0];
  return true;
}

/* R.gather_nd (TVM's rule): int64 indices whose last dim l (a literal)
 * indexes data's dims batch_dims .. batch_dims + l; the result is
 * indices.shape[:-1] + data.shape[batch_dims + l:].  The first batch_dims
 * dims of data and indices must agree (assumed when not provable). */
IrSInfo *
op_manip_infer_gather_nd(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "data");
  IrSInfo *ix = x ? op_manip_tensor_arg(s, args[1], "indices") : NULL;
  IrDType it = ix ? ix->u.tensor.dtype : IR_VOID;
  char buf[16];
  int b;
  if (!ix)
    return NULL;
  if (it.code != IR_DT_VOID && !ir_dtype_eq(it, IR_I64))
    return op_fail_null(s, "indices must be int64, not %s", ir_dtype_str(it, buf));
  int xn = x->u.tensor.ndim, n = ix->u.tensor.ndim;
  IrDType t = x->u.tensor.dtype;
  int vdev = x->u.tensor.vdevice;
  if (xn < 0 || n < 0)
    return ir_sinfo_tensor(in->ctx, NULL, -1, t, vdev);
  if (n < 1)
    return op_fail_null(s, "indices must have at least one dimension");
  int64_t l;
  if (!batch_dims_attr(s, xn, n, &b))
    return NULL;
  if (!ix->u.tensor.shape || !ir_prim_is_int(ix->u.tensor.shape[n - 1], &l))
    return ir_sinfo_tensor(in->ctx, NULL, -1, t, vdev);
  if (l > xn - b)
    return op_fail_null(
        s, "the last dimension of indices (%lld) exceeds data's rank %d minus batch_dims %d",
        (long long)l, xn, b);
  int on = n - 1 + xn - b - (int)l;
  if (!x->u.tensor.shape)
    return ir_sinfo_tensor(in->ctx, NULL, on, t, vdev);
  if (!dims_agree(in, s, x->u.tensor.shape, ix->u.tensor.shape, b,
                  "batch dims of data and indices"))
    return NULL;
  IrPrimExpr **out = op_manip_dims(in->ctx, on);
  for (int d = 0; d < n - 1; d++)
    out[d] = ix->u.tensor.shape[d];
  for (int d = b + (int)l; d < xn; d++)
    out[n - 1 + d - b - (int)l] = x->u.tensor.shape[d];
  return assume_room(in, x, out, on) ? ir_sinfo_tensor(in->ctx, out, on, t, vdev) : NULL;
}

Value *
op_manip_eval_gather_nd(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data"),
               *ix = x ? index_val(s, args[1], false) : NULL;
  int b;
  if (!ix || ix->ndim < 1 || !batch_dims_attr(s, x->ndim, ix->ndim, &b))
    return ix && ix->ndim < 1 ? op_fail_null(s, "indices must have a dimension") : NULL;
  int n = ix->ndim;
  int64_t l = ix->shape[n - 1], shape[2 * MAX_DIMS];
  if (l > x->ndim - b)
    return op_fail_null(s, "the last dimension of indices exceeds data's rank minus batch_dims");
  for (int d = 0; d < b; d++)
    if (ix->shape[d] != x->shape[d])
      return op_fail_null(s, "batch dimension %d of data and indices differs", d);
  int on = n - 1 + x->ndim - b - (int)l;
  memcpy(shape, ix->shape, sizeof(int64_t) * (size_t)(n - 1));
  memcpy(shape + n - 1, x->shape + b + l, sizeof(int64_t) * (size_t)(x->ndim - b - l));
  IrTensorData *out = op_manip_new_tensor(s, x->dtype, on, shape);
  int64_t o[2 * MAX_DIMS] = {0}, xi[MAX_DIMS], count = out ? op_numel(out) : 0;
  for (int64_t k = 0; k < count; k++, next_index(o, shape, on)) {
    int64_t row = ravel(o, shape, n - 1) * l; /* indices[o[:n-1], 0] */
    memcpy(xi, o, sizeof(int64_t) * (size_t)b);
    for (int j = 0; j < l; j++)
      if (!resolve(s, op_get_i(ix, row + j), x->shape[b + j], &xi[b + j]))
        return NULL;
    memcpy(xi + b + l, o + n - 1, sizeof(int64_t) * (size_t)(x->ndim - b - l));
    op_manip_copy_elem(out, k, x, ravel(xi, x->shape, x->ndim));
  }
  return op_manip_as_value(s, out);
}

IrExpr *
op_manip_legalize_gather_nd(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  int b;
  int64_t l = -1;
  IrBuffer *x, *ix, *out;
  if (!op_manip_prim_open(lz, &p, s, result, "gather_nd", &x, &ix, &out))
    return NULL;
  if (ix->ndim < 1 || !ir_prim_is_int(ix->shape[ix->ndim - 1], &l) ||
      !is_index_dtype(ix->dtype, false) || !batch_dims_attr(s, x->ndim, ix->ndim, &b) ||
      l > x->ndim - b || out->ndim != ix->ndim - 1 + x->ndim - b - (int)l) {
    op_prim_abort(&p);
    return NULL;
  }
  int n = ix->ndim;
  /* the kernel resolves a row's indices once per element of data's
   * trailing dims: none when they hold no element */
  check_index_rows(&p, ix, x->shape + b, l,
                   op_prim_nonempty(ctx, x->shape + b + l, x->ndim - b - (int)l));
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim), **ii = op_manip_dims(ctx, n);
  memcpy(ii, o, sizeof(IrPrimExpr *) * (size_t)(n - 1));
  for (int d = 0; d < b; d++)
    xi[d] = clamped_coord(ctx, o[d], ix->shape[d], x->shape[d]);
  for (int j = 0; j < l; j++) {
    ii[n - 1] = op_manip_lit(ctx, j);
    xi[b + j] = load_index(&p, ix, ii, x->shape[b + j]);
  }
  for (int d = b + (int)l; d < x->ndim; d++)
    xi[d] = o[n - 1 + d - b - (int)l];
  *body = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  return op_prim_finish(&p, s->call, result);
}

/* The tensors data, indices and updates of a scatter (t[0..2]) with the
 * checks both scatters share; false after an error. */
static bool
scatter_args(const OpSite *s, IrSInfo **args, bool allow_mean, IrSInfo **t)
{
  static const char *what[] = {"data", "indices", "updates"};
  for (int i = 0; i < 3; i++)
    if (!(t[i] = op_manip_tensor_arg(s, args[i], what[i])))
      return false;
  return reduction_attr(s, allow_mean) >= 0 && check_same_dtype(s, t[0], t[2], "updates") &&
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
op_manip_infer_scatter_elements(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *t[3];
  int axis;
  if (!scatter_args(s, args, true, t))
    return NULL;
  IrSInfo *x = t[0], *ix = t[1], *u = t[2];
  int xn = x->u.tensor.ndim, n = ix->u.tensor.ndim, un = u->u.tensor.ndim;
  if (xn < 0)
    return x;
  if (!op_manip_axis_attr(s, xn, &axis, NULL))
    return NULL;
  if ((n >= 0 && n != xn) || (un >= 0 && n >= 0 && un != n))
    return op_fail_null(s, "data, indices and updates must have the same rank, not %d, %d and %d",
                        xn, n, un);
  if (ix->u.tensor.shape && u->u.tensor.shape &&
      !dims_agree(in, s, ix->u.tensor.shape, u->u.tensor.shape, n, "indices and updates"))
    return NULL;
  return ix->u.tensor.shape ? assume_room(in, x, ix->u.tensor.shape, n) : x;
}

Value *
op_manip_eval_scatter_elements(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data"),
               *ix = x ? index_val(s, args[1], true) : NULL;
  IrTensorData *u = ix ? op_manip_tensor_val(s, args[2], "updates") : NULL;
  int axis, red = u ? reduction_attr(s, true) : -1;
  if (red < 0 || !op_manip_axis_attr(s, x->ndim, &axis, NULL))
    return NULL;
  if (ix->ndim != x->ndim || u->ndim != x->ndim || !ir_dtype_eq(u->dtype, x->dtype))
    return op_fail_null(s, "data, indices and updates must have one rank, updates data's dtype");
  for (int d = 0; d < x->ndim; d++)
    if (u->shape[d] != ix->shape[d] || (d != axis && ix->shape[d] > x->shape[d]))
      return op_fail_null(
          s,
          "dimension %d of indices (%lld) must be updates' (%lld) and at most data's "
          "(%lld)",
          d, (long long)ix->shape[d], (long long)u->shape[d], (long long)x->shape[d]);
  IrTensorData *out = copy_of(s, x);
  int64_t o[MAX_DIMS] = {0}, xi[MAX_DIMS], count = out ? op_numel(ix) : 0;
  for (int64_t k = 0; k < count; k++, next_index(o, ix->shape, ix->ndim)) {
    memcpy(xi, o, sizeof(int64_t) * (size_t)x->ndim);
    if (!resolve(s, op_get_i(ix, k), x->shape[axis], &xi[axis]))
      return NULL;
    reduce_into(out, ravel(xi, x->shape, x->ndim), u, k, red);
  }
  return op_manip_as_value(s, out);
}

IrExpr *
op_manip_legalize_scatter_elements(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  int axis, red = reduction_attr(s, true);
  IrBuffer *b[4];
  if (red < 0 || !scatter_begin(lz, &p, s->call, result, "scatter_elements", b))
    return NULL;
  IrBuffer *x = b[0], *ix = b[1], *u = b[2], *out = b[3];
  if (ix->ndim != x->ndim || u->ndim != x->ndim || !op_manip_axis_attr(s, x->ndim, &axis, NULL)) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **o, **xi;
  IrStmt **body = elements_loops(&p, x, ix, ix, axis, &o, &xi);
  IrPrimExpr **ui = op_manip_dims(ctx, x->ndim);
  for (int d = 0; d < x->ndim; d++)
    ui[d] = clamped_coord(ctx, o[d], ix->shape[d], u->shape[d]);
  IrPrimExpr *v =
      reduce_expr(ctx, out->dtype, op_prim_load(&p, out, xi), op_prim_load(&p, u, ui), red);
  *body = op_prim_store(&p, out, xi, v);
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* scatter_nd                                                          */
/* ------------------------------------------------------------------ */

/* R.scatter_nd (TVM's rule): data and updates of one known dtype, indices
 * of an integer dtype whose last dim K (a literal, at most data's rank)
 * indexes data's first K dims; updates.shape = indices.shape[:-1] +
 * data.shape[K:].  The result is data's struct info. */
IrSInfo *
op_manip_infer_scatter_nd(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *t[3];
  if (!scatter_args(s, args, false, t))
    return NULL;
  IrSInfo *x = t[0], *ix = t[1], *u = t[2];
  int xn = x->u.tensor.ndim, n = ix->u.tensor.ndim, un = u->u.tensor.ndim;
  if (n == 0)
    return op_fail_null(s, "indices must have at least one dimension");
  int64_t k;
  if (xn < 0 || n < 0 || un < 0 || !ix->u.tensor.shape ||
      !ir_prim_is_int(ix->u.tensor.shape[n - 1], &k))
    return x;
  if (k > xn || xn + n - k - 1 != un)
    return op_fail_null(s,
                        "updates must have rank %lld (indices' %d - 1 + data's %d - %lld), and "
                        "%lld at most data's rank",
                        (long long)(xn + n - k - 1), n, xn, (long long)k, (long long)k);
  if (x->u.tensor.shape && u->u.tensor.shape &&
      (!dims_agree(in, s, ix->u.tensor.shape, u->u.tensor.shape, n - 1,
                   "updates.shape must be indices.shape[:-1] + data.shape[K:]") ||
       !dims_agree(in, s, x->u.tensor.shape + k, u->u.tensor.shape + n - 1, xn - (int)k,
                   "updates.shape must be indices.shape[:-1] + data.shape[K:]")))
    return NULL;
  return ix->u.tensor.shape && u->u.tensor.shape ? assume_room(in, x, u->u.tensor.shape, un) : x;
}

Value *
op_manip_eval_scatter_nd(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data"),
               *ix = x ? index_val(s, args[1], true) : NULL;
  IrTensorData *u = ix ? op_manip_tensor_val(s, args[2], "updates") : NULL;
  int red = u ? reduction_attr(s, false) : -1;
  if (red < 0)
    return NULL;
  int n = ix->ndim;
  int64_t k = n > 0 ? ix->shape[n - 1] : -1;
  bool ok =
      n > 0 && k <= x->ndim && u->ndim == n - 1 + x->ndim - k && ir_dtype_eq(u->dtype, x->dtype);
  for (int d = 0; ok && d < u->ndim; d++)
    ok = u->shape[d] == (d < n - 1 ? ix->shape[d] : x->shape[k + d - (n - 1)]);
  if (!ok)
    return op_fail_null(
        s, "updates must have data's dtype and shape indices.shape[:-1] + data.shape[K:]");
  IrTensorData *out = copy_of(s, x);
  int64_t o[MAX_DIMS] = {0}, xi[MAX_DIMS], count = out ? op_numel(u) : 0;
  for (int64_t f = 0; f < count; f++, next_index(o, u->shape, u->ndim)) {
    int64_t row = ravel(o, u->shape, n - 1) * k;
    for (int j = 0; j < k; j++)
      if (!resolve(s, op_get_i(ix, row + j), x->shape[j], &xi[j]))
        return NULL;
    memcpy(xi + k, o + n - 1, sizeof(int64_t) * (size_t)(x->ndim - k));
    reduce_into(out, ravel(xi, x->shape, x->ndim), u, f, red);
  }
  return op_manip_as_value(s, out);
}

IrExpr *
op_manip_legalize_scatter_nd(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  int red = reduction_attr(s, false);
  int64_t k = -1;
  IrBuffer *b[4];
  if (red < 0 || !scatter_begin(lz, &p, s->call, result, "scatter_nd", b))
    return NULL;
  IrBuffer *x = b[0], *ix = b[1], *u = b[2], *out = b[3];
  if (ix->ndim < 1 || !ir_prim_is_int(ix->shape[ix->ndim - 1], &k) || k > x->ndim ||
      u->ndim != ix->ndim - 1 + x->ndim - k) {
    op_prim_abort(&p);
    return NULL;
  }
  int n = ix->ndim;
  check_index_rows(&p, ix, x->shape, k, op_prim_nonempty(ctx, x->shape + k, x->ndim - (int)k));
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, u->shape, u->ndim, &o);
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim), **ii = op_manip_dims(ctx, n);
  for (int d = 0; d < n - 1; d++)
    ii[d] = clamped_coord(ctx, o[d], u->shape[d], ix->shape[d]);
  for (int j = 0; j < k; j++) {
    ii[n - 1] = op_manip_lit(ctx, j);
    xi[j] = load_index(&p, ix, ii, x->shape[j]);
  }
  for (int d = (int)k; d < x->ndim; d++)
    xi[d] = clamped_coord(ctx, o[n - 1 + d - k], u->shape[n - 1 + d - k], x->shape[d]);
  IrPrimExpr *v =
      reduce_expr(ctx, out->dtype, op_prim_load(&p, out, xi), op_prim_load(&p, u, o), red);
  *body = op_prim_store(&p, out, xi, v);
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* index_tensor and index_put: index tensors broadcast together        */
/* ------------------------------------------------------------------ */

/* The struct info of item i of the tuple argument `arg` (R.Object when
 * unknown); *n its length, -1 when not a tuple. */
static IrSInfo *
tuple_item(const IrExpr *call, int arg, IrSInfo **args, int i, int *n)
{
  const IrExpr *e = call->u.call.args[arg];
  IrSInfo *si = args[arg];
  *n = si && si->kind == IR_SI_TUPLE ? si->u.tuple.n : e->kind == IR_EX_TUPLE ? e->u.tuple.n : -1;
  if (i >= *n)
    return NULL;
  return si && si->kind == IR_SI_TUPLE ? si->u.tuple.fields[i] : e->u.tuple.items[i]->sinfo;
}

/* Inference: the index tensors of tuple argument `arg`, of integer dtypes
 * (uint where allowed); *n of them in *t (*n -1 when the tuple is not
 * known); false after an error. */
static bool
index_tuple(const OpSite *s, IrSInfo **args, int arg, bool allow_uint, IrSInfo ***t, int *n)
{
  tuple_item(s->call, arg, args, 0, n);
  if (*n < 0 && (!args[arg] || args[arg]->kind == IR_SI_OBJECT))
    return true;
  if (*n <= 0)
    return op_fail(s, "indices must be a non-empty tuple of tensors");
  *t = ir_alloc(s->ctx, sizeof(IrSInfo *) * (size_t)*n);
  for (int i = 0; i < *n; i++) {
    int len;
    (*t)[i] = op_manip_tensor_arg(s, tuple_item(s->call, arg, args, i, &len), "every index tensor");
    if (!(*t)[i] || !check_index_dtype(s, (*t)[i]->u.tensor.dtype, allow_uint))
      return false;
  }
  return true;
}

/* Inference: the broadcast shape of n index tensors (numpy rules with
 * symbolic dims); *rank -1 when a rank is unknown, *shape NULL when a
 * shape or a dim is; false after an error. */
static bool
index_broadcast(OpInfer *in, const IrExpr *call, IrSInfo **t, int n, IrPrimExpr ***shape, int *rank)
{
  *shape = op_manip_dims(in->ctx, 0);
  *rank = 0;
  for (int i = 0; i < n; i++) {
    int r = t[i]->u.tensor.ndim;
    if (r < 0 || *rank < 0) {
      *rank = -1;
      *shape = NULL;
      continue;
    }
    if (!*shape || !t[i]->u.tensor.shape) {
      *rank = *rank > r ? *rank : r;
      *shape = NULL;
      continue;
    }
    if (!op_broadcast_shapes(in, call, *shape, *rank, t[i]->u.tensor.shape, r, shape, rank))
      return false;
  }
  return true;
}

/* Kernel: the index tensors of tuple value v (integer dtypes), *n of them,
 * and their numpy broadcast shape (b, *nb dims); NULL after an error. */
static IrTensorData **
index_vals(const OpSite *s, Value *v, bool allow_uint, int *n, int64_t *b, int *nb)
{
  if (!v || v->kind != VAL_TUPLE || v->u.tuple.n == 0)
    return op_fail_null(s, "indices must be a non-empty tuple of tensors");
  *n = v->u.tuple.n;
  *nb = 0;
  IrTensorData **t = ir_alloc(s->ctx, sizeof(IrTensorData *) * (size_t)*n);
  for (int i = 0; i < *n; i++) {
    if (!(t[i] = index_val(s, v->u.tuple.items[i], allow_uint)))
      return NULL;
    int r = t[i]->ndim, top = *nb > r ? *nb : r;
    for (int d = top - 1; d >= 0; d--) { /* right-aligned, in place */
      int bi = d - (top - *nb), ti = d - (top - r);
      int64_t bd = bi >= 0 ? b[bi] : 1, td = ti >= 0 ? t[i]->shape[ti] : 1;
      if (bd != td && bd != 1 && td != 1)
        return op_fail_null(s, "index tensors do not broadcast together (%lld and %lld)",
                            (long long)bd, (long long)td);
      b[d] = bd == 1 ? td : bd;
    }
    *nb = top;
  }
  return t;
}

/* Kernel: the element of t at broadcast position o (nb dims). */
static int64_t
bcast_get(const IrTensorData *t, const int64_t *o, int nb)
{
  int64_t flat = 0;
  for (int d = 0; d < t->ndim; d++)
    flat = flat * t->shape[d] + (t->shape[d] == 1 ? 0 : o[nb - t->ndim + d]);
  return op_get_i(t, flat);
}

/* Lowering: the index of buffer t read at broadcast position o (whose
 * extents are b, nb dims): a literal-1 dim reads 0, others o, clamped
 * where t's dim is not evidently b's. */
static IrPrimExpr **
bcast_index(IrCtx *ctx, IrBuffer *t, IrPrimExpr **o, IrPrimExpr **b, int nb)
{
  IrPrimExpr **ti = op_manip_dims(ctx, t->ndim);
  for (int d = 0; d < t->ndim; d++) {
    int bd = nb - t->ndim + d;
    int64_t v;
    ti[d] = ir_prim_is_int(t->shape[d], &v) && v == 1
                ? op_manip_lit(ctx, 0)
                : clamped_coord(ctx, o[bd], b[bd], t->shape[d]);
  }
  return ti;
}

/* Lowering: the index tensors of tuple argument `arg` as input buffers
 * named I0, I1, ...; NULL when the argument is not a tuple literal of
 * tensors of known shape and integer dtype. */
static IrBuffer **
index_inputs(OpPrim *p, const IrExpr *call, int arg, bool allow_uint, int *n)
{
  const IrExpr *e = call->u.call.args[arg];
  if (e->kind != IR_EX_TUPLE || e->u.tuple.n == 0)
    return NULL;
  *n = e->u.tuple.n;
  IrBuffer **t = ir_alloc(p->lz->ctx, sizeof(IrBuffer *) * (size_t)*n);
  for (int i = 0; i < *n; i++) {
    t[i] = op_prim_input(p, e->u.tuple.items[i], ir_printf(p->lz->ctx, "I%d", i));
    if (!t[i] || !is_index_dtype(t[i]->dtype, allow_uint))
      return NULL;
  }
  return t;
}

/* R.index_tensor (TVM's rule): k <= data's rank index tensors of int
 * dtypes broadcast to B; the result is B + data.shape[k:]. */
IrSInfo *
op_manip_infer_index_tensor(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "data"), **t = NULL;
  IrPrimExpr **b;
  int n, nb;
  if (!x || !index_tuple(s, args, 1, false, &t, &n))
    return NULL;
  int xn = x->u.tensor.ndim, vdev = x->u.tensor.vdevice;
  IrDType dt = x->u.tensor.dtype;
  if (xn >= 0 && n > xn)
    return op_fail_null(s, "%d index tensors for data of rank %d", n, xn);
  if (n < 0 || xn < 0)
    return ir_sinfo_tensor(in->ctx, NULL, -1, dt, vdev);
  if (!index_broadcast(in, s->call, t, n, &b, &nb))
    return NULL;
  int on = nb < 0 ? -1 : nb + xn - n;
  if (!b || !x->u.tensor.shape)
    return ir_sinfo_tensor(in->ctx, NULL, on, dt, vdev);
  IrPrimExpr **out = op_manip_dims(in->ctx, on);
  memcpy(out, b, sizeof(IrPrimExpr *) * (size_t)nb);
  memcpy(out + nb, x->u.tensor.shape + n, sizeof(IrPrimExpr *) * (size_t)(xn - n));
  return assume_room(in, x, out, on) ? ir_sinfo_tensor(in->ctx, out, on, dt, vdev) : NULL;
}

Value *
op_manip_eval_index_tensor(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data");
  int64_t shape[2 * MAX_DIMS];
  int n, nb;
  IrTensorData **t = x ? index_vals(s, args[1], false, &n, shape, &nb) : NULL;
  if (!t)
    return NULL;
  if (n > x->ndim || nb + x->ndim - n > MAX_DIMS)
    return op_fail_null(s, "%d index tensors for data of rank %d", n, x->ndim);
  int on = nb + x->ndim - n;
  memcpy(shape + nb, x->shape + n, sizeof(int64_t) * (size_t)(x->ndim - n));
  IrTensorData *out = op_manip_new_tensor(s, x->dtype, on, shape);
  int64_t o[2 * MAX_DIMS] = {0}, xi[MAX_DIMS], count = out ? op_numel(out) : 0;
  for (int64_t k = 0; k < count; k++, next_index(o, shape, on)) {
    for (int j = 0; j < n; j++)
      if (!resolve(s, bcast_get(t[j], o, nb), x->shape[j], &xi[j]))
        return NULL;
    memcpy(xi + n, o + nb, sizeof(int64_t) * (size_t)(x->ndim - n));
    op_manip_copy_elem(out, k, x, ravel(xi, x->shape, x->ndim));
  }
  return op_manip_as_value(s, out);
}

IrExpr *
op_manip_legalize_index_tensor(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  int n = 0;
  op_prim_begin(lz, &p, "index_tensor");
  IrBuffer *x = op_prim_input(&p, s->call->u.call.args[0], "A");
  IrBuffer **t = x ? index_inputs(&p, s->call, 1, false, &n) : NULL;
  IrBuffer *out = t ? op_prim_output(&p, result, "T_index_tensor") : NULL;
  int nb = out ? out->ndim - (x->ndim - n) : -1;
  bool ok = out && n <= x->ndim && nb >= 0;
  for (int j = 0; ok && j < n; j++)
    ok = t[j]->ndim <= nb;
  if (!ok) {
    op_prim_abort(&p);
    return NULL;
  }
  /* every index when the result has an element (the index tensors
   * broadcast to its leading dims), none when it has not */
  IrPrimExpr *any = op_prim_nonempty(ctx, out->shape, out->ndim);
  for (int j = 0; j < n; j++)
    check_indices(&p, t[j], x->shape[j], any);
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim);
  for (int j = 0; j < n; j++)
    xi[j] = load_index(&p, t[j], bcast_index(ctx, t[j], o, out->shape, nb), x->shape[j]);
  for (int d = n; d < x->ndim; d++)
    xi[d] = clamped_coord(ctx, o[nb + d - n], out->shape[nb + d - n], x->shape[d]);
  *body = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  return op_prim_finish(&p, s->call, result);
}

/* R.index_put (TVM's rule): one index tensor per dim of data, of integer
 * dtypes, and values of data's dtype; the result is data's struct info.
 * The index tensors broadcast to B, and values must broadcast to B (numpy
 * rules; TVM reads values flat, which agrees when values has B's shape). */
IrSInfo *
op_manip_infer_index_put(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "data"), **t = NULL;
  IrSInfo *v = x ? op_manip_tensor_arg(s, args[2], "values") : NULL;
  IrPrimExpr **b, **vb;
  int n, nb, nvb;
  if (!v || !check_same_dtype(s, x, v, "values") || !index_tuple(s, args, 1, true, &t, &n))
    return NULL;
  int xn = x->u.tensor.ndim;
  if (xn >= 0 && n >= 0 && n != xn)
    return op_fail_null(s, "%d index tensors for data of rank %d: index_put takes one per dim", n,
                        xn);
  if (n < 0 || !index_broadcast(in, s->call, t, n, &b, &nb))
    return n < 0 ? x : NULL;
  int vn = v->u.tensor.ndim;
  if (nb >= 0 && vn > nb)
    return op_fail_null(s, "values of rank %d do not broadcast to the indices' rank %d", vn, nb);
  if (b && v->u.tensor.shape &&
      !op_broadcast_shapes(in, s->call, b, nb, v->u.tensor.shape, vn, &vb, &nvb))
    return NULL;
  return b ? assume_room(in, x, b, nb) : x;
}

Value *
op_manip_eval_index_put(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "data");
  IrTensorData *v = x ? op_manip_tensor_val(s, args[2], "values") : NULL;
  int64_t b[MAX_DIMS];
  int n, nb;
  IrTensorData **t = v ? index_vals(s, args[1], true, &n, b, &nb) : NULL;
  const IrAttr *acc = op_attr(s->call, "accumulate");
  if (!t)
    return NULL;
  bool ok = n == x->ndim && v->ndim <= nb && ir_dtype_eq(v->dtype, x->dtype);
  for (int d = 0; ok && d < v->ndim; d++)
    ok = v->shape[d] == 1 || v->shape[d] == b[nb - v->ndim + d];
  if (!ok)
    return op_fail_null(s, "index_put needs one index tensor per dim of data and values of data's "
                           "dtype that broadcast to the indices' shape");
  int red = acc && acc->kind == IR_AT_BOOL && acc->u.b ? RED_ADD : RED_UPDATE;
  IrTensorData *out = copy_of(s, x);
  int64_t o[MAX_DIMS] = {0}, xi[MAX_DIMS], count = 1;
  for (int d = 0; d < nb; d++)
    count *= b[d];
  for (int64_t k = 0; out && k < count; k++, next_index(o, b, nb)) {
    for (int j = 0; j < n; j++)
      if (!resolve(s, bcast_get(t[j], o, nb), x->shape[j], &xi[j]))
        return NULL;
    int64_t vi = 0;
    for (int d = 0; d < v->ndim; d++)
      vi = vi * v->shape[d] + (v->shape[d] == 1 ? 0 : o[nb - v->ndim + d]);
    reduce_into(out, ravel(xi, x->shape, x->ndim), v, vi, red);
  }
  return op_manip_as_value(s, out);
}

/* The extents of the broadcast of n buffers' shapes: per dim the first
 * extent that is not a literal 1 (the kernel checks the others agree;
 * the reads clamp). */
static IrPrimExpr **
bcast_extents(IrCtx *ctx, IrBuffer **t, int n, int *nb)
{
  *nb = 0;
  for (int i = 0; i < n; i++)
    *nb = t[i]->ndim > *nb ? t[i]->ndim : *nb;
  IrPrimExpr **b = op_manip_dims(ctx, *nb);
  for (int d = 0; d < *nb; d++) {
    b[d] = op_manip_lit(ctx, 1);
    for (int i = 0; i < n; i++) {
      int td = d - (*nb - t[i]->ndim);
      int64_t v;
      if (td >= 0 && !(ir_prim_is_int(t[i]->shape[td], &v) && v == 1)) {
        b[d] = t[i]->shape[td];
        break;
      }
    }
  }
  return b;
}

IrExpr *
op_manip_legalize_index_put(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  int n = 0, nb;
  const IrAttr *acc = op_attr(s->call, "accumulate");
  int red = acc && acc->kind == IR_AT_BOOL && acc->u.b ? RED_ADD : RED_UPDATE;
  op_prim_begin(lz, &p, "index_put");
  IrBuffer *x = op_prim_input(&p, s->call->u.call.args[0], "A");
  IrBuffer **t = x ? index_inputs(&p, s->call, 1, true, &n) : NULL;
  IrBuffer *v = t ? op_prim_input(&p, s->call->u.call.args[2], "V") : NULL;
  IrBuffer *out = v ? op_prim_output(&p, result, "T_index_put") : NULL;
  IrPrimExpr **b = out ? bcast_extents(ctx, t, n, &nb) : NULL;
  if (!out || n != x->ndim || out->ndim != x->ndim || v->ndim > nb) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr *any = op_prim_nonempty(ctx, b, nb); /* as index_tensor */
  for (int j = 0; j < n; j++)
    check_indices(&p, t[j], x->shape[j], any);
  emit_copy(&p, out, x);
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, b, nb, &o);
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim);
  for (int j = 0; j < n; j++)
    xi[j] = load_index(&p, t[j], bcast_index(ctx, t[j], o, b, nb), x->shape[j]);
  IrPrimExpr *upd = op_prim_load(&p, v, bcast_index(ctx, v, o, b, nb));
  *body =
      op_prim_store(&p, out, xi, reduce_expr(ctx, out->dtype, op_prim_load(&p, out, xi), upd, red));
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* slice_scatter                                                       */
/* ------------------------------------------------------------------ */

/* Inference: the value of prim argument i (an integer), or NULL (with no
 * error) when unknown; false after an error. */
static bool
prim_int_arg(const OpSite *s, IrSInfo **args, int i, const char *what, IrPrimExpr **v)
{
  IrSInfo *si = args[i];
  *v = NULL;
  if (si && si->kind == IR_SI_OBJECT)
    return true;
  if (!si || si->kind != IR_SI_PRIM ||
      (si->u.prim.dtype.code != IR_DT_INT && si->u.prim.dtype.code != IR_DT_UINT)) {
    return op_fail(s, "%s must be an integer prim value", what);
  }
  *v = si->u.prim.value;
  return true;
}

/* R.slice_scatter (TVM's rule): input and src of one rank and dtype, the
 * same dims but at axis, where src has ceil((end - start) / step) and
 * step >= 1, start <= end.  The result is input's struct info. */
IrSInfo *
op_manip_infer_slice_scatter(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "input_tensor");
  IrSInfo *src = x ? op_manip_tensor_arg(s, args[1], "src") : NULL;
  IrPrimExpr *v[3];
  static const char *what[] = {"start", "end", "step"};
  int axis;
  if (!src || !check_same_dtype(s, x, src, "src"))
    return NULL;
  for (int i = 0; i < 3; i++)
    if (!prim_int_arg(s, args, 2 + i, what[i], &v[i]))
      return NULL;
  int64_t a, b;
  if ((v[2] && ir_prim_is_int(v[2], &a) && a < 1) ||
      (v[0] && v[1] && ir_prim_is_int(v[0], &a) && ir_prim_is_int(v[1], &b) && b < a)) {
    return op_fail_null(s, "slice_scatter needs step >= 1 and start <= end");
  }
  int xn = x->u.tensor.ndim, sn = src->u.tensor.ndim;
  if (xn < 0)
    return x;
  if (!op_manip_axis_attr(s, xn, &axis, NULL))
    return NULL;
  if (sn >= 0 && sn != xn)
    return op_fail_null(s, "input_tensor and src must have the same rank, not %d and %d", xn, sn);
  IrPrimExpr **xd = x->u.tensor.shape, **sd = src->u.tensor.shape;
  if (!xd || !sd)
    return x;
  for (int d = 0; d < xn; d++)
    if (d != axis && op_assume_equal(in, xd[d], sd[d]) == IR_PROVE_FALSE)
      return op_fail_null(s, "dimension %d of input_tensor and src differs", d);
  if (v[0] && v[1] && v[2]) {
    IrPrimExpr *len = ir_prim_bin(in->ctx, IR_PE_SUB, v[1], v[0]);
    len = ir_prim_bin(in->ctx, IR_PE_ADD, len,
                      ir_prim_bin(in->ctx, IR_PE_SUB, v[2], op_manip_lit(in->ctx, 1)));
    len = ir_prim_bin(in->ctx, IR_PE_FLOORDIV, len, v[2]);
    if (in->arith)
      len = ir_arith_simplify(in->arith, len);
    if (op_assume_equal(in, sd[axis], len) == IR_PROVE_FALSE)
      return op_fail_null(s, "src has %s elements at axis %d, but the slice has %s",
                          op_nn_expr_str(in->ctx, sd[axis]), axis, op_nn_expr_str(in->ctx, len));
  }
  return assume_room(in, x, sd, xn);
}

/* out = input, then out[..., start + k * step, ...] = src[..., k, ...]. */
Value *
op_manip_eval_slice_scatter(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "input_tensor");
  IrTensorData *src = x ? op_manip_tensor_val(s, args[1], "src") : NULL;
  int64_t v[3];
  int axis;
  if (!src || !op_manip_axis_attr(s, x->ndim, &axis, NULL))
    return NULL;
  for (int i = 0; i < 3; i++) {
    Value *p = args[2 + i];
    if (!p || p->kind != VAL_PRIM || !is_index_dtype(p->u.prim.dtype, true))
      return op_fail_null(s, "start, end and step must be integer prim values");
    v[i] = p->u.prim.i;
  }
  int64_t n = x->shape[axis];
  bool ok = v[2] >= 1 && 0 <= v[0] && v[0] <= v[1] && v[1] <= n && src->ndim == x->ndim &&
            ir_dtype_eq(src->dtype, x->dtype);
  for (int d = 0; ok && d < x->ndim; d++)
    ok = src->shape[d] == (d == axis ? (v[1] - v[0] + v[2] - 1) / v[2] : x->shape[d]);
  if (!ok)
    return op_fail_null(s,
                        "slice_scatter needs 0 <= start <= end <= %lld, step >= 1, and src of "
                        "input_tensor's dtype and shape but %lld elements at axis %d",
                        (long long)n,
                        v[2] >= 1 ? (long long)((v[1] - v[0] + v[2] - 1) / v[2]) : 0LL, axis);
  IrTensorData *out = copy_of(s, x);
  int64_t o[MAX_DIMS] = {0}, xi[MAX_DIMS], count = out ? op_numel(src) : 0;
  for (int64_t k = 0; k < count; k++, next_index(o, src->shape, src->ndim)) {
    memcpy(xi, o, sizeof(int64_t) * (size_t)x->ndim);
    xi[axis] = v[0] + o[axis] * v[2];
    op_manip_copy_elem(out, ravel(xi, x->shape, x->ndim), src, k);
  }
  return op_manip_as_value(s, out);
}

/* A prim argument as an int64 TIR expression of p, or NULL. */
static IrPrimExpr *
prim_arg(OpPrim *p, const IrExpr *arg)
{
  if (arg->kind != IR_EX_PRIM)
    return NULL;
  IrPrimExpr *v = op_prim_dim(p, arg->u.prim);
  return v ? as_i64(p->lz->ctx, v) : NULL;
}

IrExpr *
op_manip_legalize_slice_scatter(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  int axis;
  IrBuffer *x, *src, *out;
  if (!op_manip_prim_open(lz, &p, s, result, "slice_scatter", &x, &src, &out))
    return NULL;
  IrPrimExpr *start = prim_arg(&p, s->call->u.call.args[2]);
  IrPrimExpr *step = start ? prim_arg(&p, s->call->u.call.args[4]) : NULL;
  if (!step || src->ndim != x->ndim || out->ndim != x->ndim ||
      !op_manip_axis_attr(s, x->ndim, &axis, NULL)) {
    op_prim_abort(&p);
    return NULL;
  }
  emit_copy(&p, out, x);
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, src->shape, src->ndim, &o);
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim);
  for (int d = 0; d < x->ndim; d++) {
    IrPrimExpr *at = ir_prim_bin(ctx, IR_PE_ADD, start, ir_prim_bin(ctx, IR_PE_MUL, o[d], step));
    xi[d] = d == axis ? clamped_index(ctx, at, x->shape[d])
                      : clamped_coord(ctx, o[d], src->shape[d], x->shape[d]);
  }
  *body = op_prim_store(&p, out, xi, op_prim_load(&p, src, o));
  return op_prim_finish(&p, s->call, result);
}
