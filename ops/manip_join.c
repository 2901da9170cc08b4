/*
 * manip_join.c - the manipulation ops that join, cut or pick along an axis: concat,
 * split, stack, strided_slice, take.
 * Each op's inference, reference kernel and lowering sit together here;
 * their entries are in manip.c's table, the helpers they share with the
 * other manipulation families in manip.c (manip_int.h).
 */
#include <string.h>

#include "manip_int.h"
#include "nn_int.h"
#include "tir_build.h"

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

/* The mode attribute of R.take: 0 fast, 1 clip, 2 wrap; -1 after an error. */
int
op_manip_take_mode(const OpSite *s)
{
  const IrAttr *a = op_attr(s->call, "mode");
  const char *names[] = {"fast", "clip", "wrap"};
  if (!a)
    return 0;
  for (int i = 0; a->kind == IR_AT_STR && i < 3; i++)
    if (strcmp(a->u.s, names[i]) == 0)
      return i;
  op_report(s, "mode must be \"fast\", \"clip\" or \"wrap\"");
  return -1;
}

bool
op_manip_slice_attrs(const OpSite *s, int ndim, SliceAttrs *sa)
{
  int64_t *axes;
  int nb, ne, ns;
  if (!op_manip_attr_ints(s, "axes", false, &axes, &sa->n) ||
      !op_manip_attr_ints(s, "begin", false, &sa->begin, &nb) ||
      !op_manip_attr_ints(s, "end", false, &sa->end, &ne) ||
      !op_manip_attr_ints(s, "strides", true, &sa->strides, &ns))
    return false;
  if (nb != sa->n || ne != sa->n || (ns >= 0 && ns != sa->n))
    return op_fail(s, "axes, begin, end and strides must have the same length");
  if (ns < 0) {
    sa->strides = ir_alloc(s->ctx, sizeof(int64_t) * (size_t)(sa->n ? sa->n : 1));
    for (int i = 0; i < sa->n; i++)
      sa->strides[i] = 1;
  }
  for (int i = 0; i < sa->n; i++)
    if (sa->strides[i] == 0)
      return op_fail(s, "stride of axis %lld is zero", (long long)axes[i]);
  const IrAttr *ib = op_attr(s->call, "assume_inbound");
  sa->inbound = ib && ib->kind == IR_AT_BOOL && ib->u.b;
  if (ndim < 0) { /* rank unknown: only the attributes' own consistency */
    sa->axes = NULL;
    return true;
  }
  return op_manip_norm_axes(s, axes, sa->n, ndim, &sa->axes);
}

/* |stride| as an unsigned value (INT64_MIN included). */
uint64_t
op_manip_stride_step(int64_t stride)
{
  return stride > 0 ? (uint64_t)stride : (uint64_t)(-(stride + 1)) + 1;
}

/* numpy's slicing of an axis of n elements: a negative index counts from
 * the end, then it is clamped to [0, n] (stride > 0) or [-1, n - 1]
 * (stride < 0).  Sets the first index and the length; false when inbound
 * was promised and clamping would change begin or end. */
bool
op_manip_slice_axis(int64_t n, int64_t begin, int64_t end, int64_t stride, bool inbound,
                    int64_t *start, int64_t *len)
{
  int64_t lo = stride < 0 ? -1 : 0, hi = stride < 0 ? n - 1 : n;
  int64_t idx[2] = {begin, end};
  for (int i = 0; i < 2; i++) {
    int64_t v = idx[i] < 0 ? idx[i] + n : idx[i];
    idx[i] = v < lo ? lo : v > hi ? hi : v;
    if (inbound && idx[i] != v)
      return false;
  }
  int64_t diff = stride > 0 ? idx[1] - idx[0] : idx[0] - idx[1];
  *start = idx[0];
  *len = diff <= 0 ? 0 : (int64_t)(((uint64_t)diff - 1) / op_manip_stride_step(stride) + 1);
  return true;
}

/* The struct info of field i of a tuple argument (from its struct info, or
 * from the tuple literal's items). */
static IrSInfo *
tuple_field(const IrExpr *call, IrSInfo *si, int i)
{
  const IrExpr *e = call->u.call.args[0];
  if (si && si->kind == IR_SI_TUPLE)
    return si->u.tuple.fields[i];
  return e->kind == IR_EX_TUPLE ? e->u.tuple.items[i]->sinfo : NULL;
}

static int
tuple_len(const IrExpr *call, IrSInfo *si)
{
  const IrExpr *e = call->u.call.args[0];
  if (si && si->kind == IR_SI_TUPLE)
    return si->u.tuple.n;
  return e->kind == IR_EX_TUPLE ? e->u.tuple.n : -1;
}

/* Dtype and rank common to concat's inputs (void / -1 when unknown). */
static bool
concat_common(const OpSite *s, IrSInfo **xs, int n, IrDType *dtype, int *ndim)
{
  bool void_seen = false;
  *dtype = IR_VOID;
  *ndim = -1;
  for (int i = 0; i < n; i++) {
    IrDType t = xs[i]->u.tensor.dtype;
    int r = xs[i]->u.tensor.ndim;
    char a[16], b[16];
    if (t.code == IR_DT_VOID)
      void_seen = true;
    else if (dtype->code == IR_DT_VOID)
      *dtype = t;
    else if (!ir_dtype_eq(*dtype, t)) {
      return op_fail(s, "inputs have different dtypes, %s and %s", ir_dtype_str(*dtype, a),
                     ir_dtype_str(t, b));
    }
    if (r >= 0 && *ndim >= 0 && r != *ndim)
      return op_fail(s, "inputs have different ranks, %d and %d", *ndim, r);
    if (r >= 0)
      *ndim = r;
  }
  if (void_seen)
    *dtype = IR_VOID;
  return true;
}

/* The shape of a concat of n inputs of known shape along axis; NULL with
 * *ok true when a dim may differ, *ok false after an error. */
static IrPrimExpr **
concat_shape(OpInfer *in, const OpSite *s, IrSInfo **xs, int n, int ndim, int axis, bool *ok)
{
  IrPrimExpr **out = op_manip_dims(in->ctx, ndim);
  bool known = true;
  *ok = true;
  for (int d = 0; d < ndim; d++) {
    IrPrimExpr *d0 = xs[0]->u.tensor.shape[d], *sum = op_manip_lit(in->ctx, 0);
    for (int i = 0; i < n; i++) {
      IrPrimExpr *di = xs[i]->u.tensor.shape[d];
      sum = op_manip_bin(in, IR_PE_ADD, sum, di);
      IrProof eq = d == axis    ? IR_PROVE_TRUE
                   : in->assume ? op_assume_equal(in, d0, di)
                                : op_prove_equal(in, d0, di);
      if (eq == IR_PROVE_FALSE) {
        op_report(s, "inputs 0 and %d differ in dimension %d: %s and %s", i, d,
                  op_nn_expr_str(in->ctx, d0), op_nn_expr_str(in->ctx, di));
        *ok = false;
        return NULL;
      }
      known = known && eq == IR_PROVE_TRUE;
    }
    out[d] = d == axis ? op_manip_simp(in, sum) : d0;
  }
  return known ? out : NULL;
}

/* The tensors of concat's and stack's tuple argument: *n of them in *xs,
 * *n -1 (and true) when the tuple is an R.Object; false after an error. */
static bool
tuple_tensors(OpInfer *in, const OpSite *s, IrSInfo **args, IrSInfo ***xs, int *n)
{
  *n = tuple_len(s->call, args[0]);
  if (*n < 0 && args[0]->kind == IR_SI_OBJECT)
    return true;
  if (*n < 0)
    return op_fail(s, "tensors must be a tuple, but it is %s", op_sinfo_text(in->ctx, args[0]));
  if (*n == 0)
    return op_fail(s, "tensors is an empty tuple");
  *xs = ir_alloc(in->ctx, sizeof(IrSInfo *) * (size_t)*n);
  for (int i = 0; i < *n; i++)
    if (!((*xs)[i] =
              op_manip_tensor_arg(s, tuple_field(s->call, args[0], i), "every item of tensors")))
      return false;
  return true;
}

/* What the inferences of concat and stack read from the call. */
typedef struct {
  IrSInfo **xs;  /* the inputs */
  int n;         /* how many; -1 when the tuple is an R.Object */
  IrDType dtype; /* the inputs' dtype and rank (void / -1: unknown) */
  int ndim;
  int vdev;  /* input 0's vdevice (-1: none) */
  int axis;  /* of the result: stack's has rank ndim + 1 */
  bool none; /* concat's axis=None */
} Join;

/* The inputs and axis of concat (stack false) or stack; false after an
 * error. */
static bool
join_open(OpInfer *in, const OpSite *s, IrSInfo **args, bool stack, Join *j)
{
  *j = (Join){NULL, -1, IR_VOID, -1, -1, -1, false};
  if (!tuple_tensors(in, s, args, &j->xs, &j->n))
    return false;
  if (j->n < 0)
    return true;
  j->vdev = j->xs[0]->u.tensor.vdevice;
  if (!concat_common(s, j->xs, j->n, &j->dtype, &j->ndim))
    return false;
  if (stack)
    return op_manip_axis_attr(s, j->ndim < 0 ? -1 : j->ndim + 1, &j->axis, NULL);
  return op_manip_axis_attr(s, j->ndim, &j->axis, &j->none);
}

/* Has every input a known shape of rank j->ndim (itself known)? */
static bool
join_shaped(const Join *j)
{
  if (j->ndim < 0)
    return false;
  for (int i = 0; i < j->n; i++)
    if (!j->xs[i]->u.tensor.shape || j->xs[i]->u.tensor.ndim != j->ndim)
      return false;
  return true;
}

/* R.concat.  axis=None takes 1-D inputs (TVM's rule) and joins them. */
IrSInfo *
op_manip_infer_concat(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  Join j;
  if (!join_open(in, s, args, false, &j))
    return NULL;
  if (j.none && j.ndim >= 0 && j.ndim != 1)
    return op_fail_null(s, "axis=None needs 1-D inputs, but they have %d dimensions", j.ndim);
  if (j.none) {
    j.ndim = 1;
    j.axis = 0;
  }
  if (!join_shaped(&j))
    return ir_sinfo_tensor(in->ctx, NULL, j.ndim, j.dtype, j.vdev);
  bool ok;
  IrPrimExpr **out = concat_shape(in, s, j.xs, j.n, j.ndim, j.axis, &ok);
  return ok ? ir_sinfo_tensor(in->ctx, out, j.ndim, j.dtype, j.vdev) : NULL;
}

/* The split points of R.split along a dim: TVM's InferStructInfoSplit.
 * indices [i0, i1, ...]: piece k is [i(k-1), ik) with both ends clamped to
 * [0, dim] and a negative length taken as 0 (negative indices are clamped,
 * not counted from the end).  n sections: every piece but the last has
 * ceildiv(dim, n) elements and the last the rest, so 5 in 3 is 2, 2, 1;
 * where the rest would be negative (5 in 4) TVM infers a negative dim and
 * rxc reports an error instead. */
static IrPrimExpr *
clamp_expr(OpInfer *in, IrPrimExpr *v, IrPrimExpr *lo, IrPrimExpr *hi)
{
  return op_manip_bin(in, IR_PE_MIN, op_manip_bin(in, IR_PE_MAX, v, lo), hi);
}

static IrPrimExpr *
split_piece(OpInfer *in, IrPrimExpr *dim, const int64_t *idx, int nidx, int k)
{
  IrCtx *ctx = in->ctx;
  IrPrimExpr *zero = op_manip_lit(ctx, 0);
  IrPrimExpr *left = k == 0 ? zero : clamp_expr(in, op_manip_lit(ctx, idx[k - 1]), zero, dim);
  IrPrimExpr *right = k == nidx ? dim : clamp_expr(in, op_manip_lit(ctx, idx[k]), zero, dim);
  return op_manip_simp(in,
                       op_manip_bin(in, IR_PE_MAX, op_manip_bin(in, IR_PE_SUB, right, left), zero));
}

static IrSInfo *
split_sections(OpInfer *in, const OpSite *s, IrSInfo *x, int axis, int64_t n)
{
  IrPrimExpr **xd = x->u.tensor.shape, *dim = xd[axis];
  int ndim = x->u.tensor.ndim;
  IrPrimExpr *len =
      op_manip_simp(in, op_manip_bin(in, IR_PE_FLOORDIV,
                                     op_manip_bin(in, IR_PE_ADD, dim, op_manip_lit(in->ctx, n - 1)),
                                     op_manip_lit(in->ctx, n)));
  IrPrimExpr *last = op_manip_simp(
      in, op_manip_bin(in, IR_PE_SUB, dim,
                       op_manip_bin(in, IR_PE_MUL, len, op_manip_lit(in->ctx, n - 1))));
  int64_t c;
  if (ir_prim_is_int(last, &c) && c < 0)
    return op_fail_null(s, "cannot split axis %d of size %s into %lld sections", axis,
                        op_nn_expr_str(in->ctx, dim), (long long)n);
  IrSInfo **fields = ir_alloc(in->ctx, sizeof(IrSInfo *) * (size_t)n);
  for (int64_t k = 0; k < n; k++) {
    IrPrimExpr **out = op_manip_dims(in->ctx, ndim);
    memcpy(out, xd, sizeof(IrPrimExpr *) * (size_t)ndim);
    out[axis] = k == n - 1 ? last : len;
    fields[k] = op_manip_like(in, x, out, ndim);
  }
  return ir_sinfo_tuple(in->ctx, fields, (int)n);
}

/* The attributes of R.split. */
typedef struct {
  int64_t *idx; /* indices_or_sections: the indices, or the count in idx[0] */
  int nidx;
  bool sections; /* idx[0] is a count of equal sections */
  int64_t pieces;
  int axis; /* -1 when the rank is not known */
} SplitAttrs;

/* indices_or_sections and the axis of an input of rank ndim (-1: the axis
 * unchecked); false after an error. */
static bool
split_attrs(const OpSite *s, int ndim, SplitAttrs *sp)
{
  if (!op_manip_attr_ints(s, "indices_or_sections", false, &sp->idx, &sp->nidx))
    return false;
  sp->sections = op_attr(s->call, "indices_or_sections")->kind != IR_AT_LIST;
  if (sp->sections && sp->idx[0] <= 0)
    return op_fail(s, "the number of sections must be positive, not %lld", (long long)sp->idx[0]);
  sp->pieces = sp->sections ? sp->idx[0] : sp->nidx + 1;
  if (sp->pieces > 1 << 20)
    return op_fail(s, "too many sections (%lld)", (long long)sp->pieces);
  return op_manip_axis_attr(s, ndim, &sp->axis, NULL);
}

IrSInfo *
op_manip_infer_split(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "x");
  SplitAttrs sp;
  if (!x || !split_attrs(s, x->u.tensor.ndim, &sp))
    return NULL;
  if (sp.pieces == 1) /* TVM: one piece is the input itself, not a tuple */
    return x;
  if (!x->u.tensor.shape) {
    IrSInfo **fields = ir_alloc(in->ctx, sizeof(IrSInfo *) * (size_t)sp.pieces);
    for (int64_t k = 0; k < sp.pieces; k++)
      fields[k] = op_manip_like(in, x, NULL, x->u.tensor.ndim);
    return ir_sinfo_tuple(in->ctx, fields, (int)sp.pieces);
  }
  if (sp.sections)
    return split_sections(in, s, x, sp.axis, sp.pieces);
  IrSInfo **fields = ir_alloc(in->ctx, sizeof(IrSInfo *) * (size_t)sp.pieces);
  int ndim = x->u.tensor.ndim;
  for (int k = 0; k < sp.pieces; k++) {
    IrPrimExpr **out = op_manip_dims(in->ctx, ndim);
    memcpy(out, x->u.tensor.shape, sizeof(IrPrimExpr *) * (size_t)ndim);
    out[sp.axis] = split_piece(in, out[sp.axis], sp.idx, sp.nidx, k);
    fields[k] = op_manip_like(in, x, out, ndim);
  }
  return ir_sinfo_tuple(in->ctx, fields, (int)sp.pieces);
}

/* A begin or end index of a slice over a symbolic dim n, made
 * non-negative and (unless inbound) clamped, as op_manip_slice_axis does.
 * An index of magnitude MANIP_HUGE_INDEX or more (frontends write
 * INT64_MAX for "to the end") is past the end of any dim a tensor can
 * have, so it clamps without a min/max the arithmetic could not fold for
 * an unbounded n.  Inference (fold false) builds plain expressions that it
 * simplifies after, n + idx for a negative idx; the lowering folds
 * literals (op_manip_arith) and writes n - |idx|. */
static IrPrimExpr *
slice_index(IrCtx *ctx, IrPrimExpr *n, int64_t idx, int64_t stride, bool inbound, bool fold)
{
  IrPrimExpr *(*bin)(IrCtx *, IrPrimKind, IrPrimExpr *, IrPrimExpr *) =
      fold ? op_manip_arith : ir_prim_bin;
  IrPrimExpr *last = bin(ctx, IR_PE_SUB, n, op_manip_lit(ctx, 1));
  if (!inbound && (idx >= MANIP_HUGE_INDEX || idx <= -MANIP_HUGE_INDEX)) { /* past an end */
    if (stride > 0)
      return idx > 0 ? n : op_manip_lit(ctx, 0);
    return idx > 0 ? last : op_manip_lit(ctx, -1);
  }
  IrPrimExpr *v = idx >= 0 ? op_manip_lit(ctx, idx)
                  : fold   ? bin(ctx, IR_PE_SUB, n, op_manip_lit(ctx, -idx))
                           : bin(ctx, IR_PE_ADD, n, op_manip_lit(ctx, idx));
  if (inbound)
    return v;
  IrPrimExpr *lo = op_manip_lit(ctx, stride < 0 ? -1 : 0), *hi = stride < 0 ? last : n;
  return bin(ctx, IR_PE_MIN, bin(ctx, IR_PE_MAX, v, lo), hi);
}

/* The length of a slice of a dim; NULL after an error. */
static IrPrimExpr *
slice_len(OpInfer *in, const OpSite *s, IrPrimExpr *n, int64_t b, int64_t e, int64_t stride,
          bool inbound)
{
  int64_t c, start, len;
  if (ir_prim_is_int(n, &c)) {
    if (!op_manip_slice_axis(c, b, e, stride, inbound, &start, &len))
      return op_fail_null(
          s, "begin %lld or end %lld is out of bounds for size %lld with assume_inbound",
          (long long)b, (long long)e, (long long)c);
    return op_manip_lit(in->ctx, len);
  }
  IrPrimExpr *lo = slice_index(in->ctx, n, b, stride, inbound, false);
  IrPrimExpr *hi = slice_index(in->ctx, n, e, stride, inbound, false);
  IrPrimExpr *diff =
      stride > 0 ? op_manip_bin(in, IR_PE_SUB, hi, lo) : op_manip_bin(in, IR_PE_SUB, lo, hi);
  uint64_t step = op_manip_stride_step(stride);
  int64_t st = step > INT64_MAX ? INT64_MAX : (int64_t)step;
  if (st != 1)
    diff = op_manip_bin(in, IR_PE_FLOORDIV,
                        op_manip_bin(in, IR_PE_ADD, diff, op_manip_lit(in->ctx, st - 1)),
                        op_manip_lit(in->ctx, st));
  if (!inbound)
    diff = op_manip_bin(in, IR_PE_MAX, diff, op_manip_lit(in->ctx, 0));
  return op_manip_simp(in, diff);
}

IrSInfo *
op_manip_infer_strided_slice(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "x");
  SliceAttrs sa;
  if (x && op_manip_slice_is_symbolic(s->call))
    return op_manip_infer_symbolic_slice(in, s, x);
  if (!x || !op_manip_slice_attrs(s, x->u.tensor.ndim, &sa))
    return NULL;
  int ndim = x->u.tensor.ndim;
  if (!x->u.tensor.shape)
    return op_manip_like(in, x, NULL, ndim);
  IrPrimExpr **out = op_manip_dims(in->ctx, ndim);
  memcpy(out, x->u.tensor.shape, sizeof(IrPrimExpr *) * (size_t)ndim);
  for (int i = 0; i < sa.n; i++) {
    int a = sa.axes[i];
    out[a] = slice_len(in, s, out[a], sa.begin[i], sa.end[i], sa.strides[i], sa.inbound);
    if (!out[a])
      return NULL;
  }
  return op_manip_like(in, x, out, ndim);
}

/* The lowering of R.take reads x at a clamped position for each output
 * element, which needs x to hold an element when the output does: assumed
 * (LegalizeOps checks it at run time) unless provable.  The kernel
 * refuses any index into an empty axis. */
static void
assume_take_room(OpInfer *in, const IrSInfo *x, IrPrimExpr **out, int on)
{
  if (!x->u.tensor.shape || !out || on < 0)
    return;
  IrPrimExpr *have = op_manip_product(in, x->u.tensor.shape, x->u.tensor.ndim, -1);
  IrPrimExpr *count = op_manip_product(in, out, on, -1), *zero = op_manip_lit(in->ctx, 0);
  op_assume(in, op_manip_bin(in, IR_PE_OR, op_manip_bin(in, IR_PE_GT, have, zero),
                             op_manip_bin(in, IR_PE_EQ, count, zero)));
}

/* R.take: axis=None takes from the flattened x, giving indices' shape;
 * otherwise x.shape[:axis] + indices.shape + x.shape[axis + 1:]. */
IrSInfo *
op_manip_infer_take(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "x"),
          *ix = op_manip_tensor_arg(s, args[1], "indices");
  int axis;
  bool none;
  if (!x || !ix || op_manip_take_mode(s) < 0 ||
      !op_manip_axis_attr(s, x->u.tensor.ndim, &axis, &none))
    return NULL;
  IrDType it = ix->u.tensor.dtype;
  if (it.code != IR_DT_VOID && it.code != IR_DT_INT && it.code != IR_DT_UINT) {
    char b[16];
    return op_fail_null(s, "indices must have an integer dtype, not %s", ir_dtype_str(it, b));
  }
  int xn = x->u.tensor.ndim, in_ = ix->u.tensor.ndim;
  if (none) {
    assume_take_room(in, x, ix->u.tensor.shape, in_);
    return op_manip_like(in, x, ix->u.tensor.shape, in_);
  }
  if (xn < 0)
    return op_manip_like(in, x, NULL, -1);
  int on = in_ < 0 ? -1 : xn - 1 + in_;
  if (!x->u.tensor.shape || !ix->u.tensor.shape)
    return op_manip_like(in, x, NULL, on);
  IrPrimExpr **out = op_manip_dims(in->ctx, on);
  int k = 0;
  for (int i = 0; i < xn; i++) {
    if (i != axis) {
      out[k++] = x->u.tensor.shape[i];
      continue;
    }
    for (int j = 0; j < in_; j++)
      out[k++] = ix->u.tensor.shape[j];
  }
  assume_take_room(in, x, out, on);
  return op_manip_like(in, x, out, on);
}

/* R.stack (TVM's InferStructInfoStack): inputs of one dtype, rank and
 * shape; the result has a new axis of len(tensors) at axis, which counts
 * in the result's rank (ndim + 1).  A dim that may differ between inputs
 * leaves the shape unknown (the kernel checks it). */
IrSInfo *
op_manip_infer_stack(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  Join j;
  if (!join_open(in, s, args, true, &j))
    return NULL;
  int on = j.ndim < 0 ? -1 : j.ndim + 1;
  if (!join_shaped(&j))
    return ir_sinfo_tensor(in->ctx, NULL, on, j.dtype, j.vdev);
  bool ok;
  /* concat along a new axis: every dim must agree (axis -1 is none) */
  IrPrimExpr **same = concat_shape(in, s, j.xs, j.n, j.ndim, -1, &ok);
  if (!ok)
    return NULL;
  if (!same)
    return ir_sinfo_tensor(in->ctx, NULL, on, j.dtype, j.vdev);
  IrPrimExpr **out = op_manip_dims(in->ctx, on);
  for (int d = 0, k = 0; d < on; d++)
    out[d] = d == j.axis ? op_manip_lit(in->ctx, j.n) : same[k++];
  return ir_sinfo_tensor(in->ctx, out, on, j.dtype, j.vdev);
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

/* Concat's inputs agree in dtype, rank and every dim but the axis; sets
 * the output shape.  axis -1 (stack): every dim agrees, and shape is
 * input 0's. */
static bool
concat_check(const OpSite *s, IrTensorData **xs, int n, int axis, int64_t *shape)
{
  memcpy(shape, xs[0]->shape, sizeof(int64_t) * (size_t)xs[0]->ndim);
  if (axis >= 0)
    shape[axis] = 0;
  for (int i = 0; i < n; i++) {
    char a[16], b[16];
    if (!ir_dtype_eq(xs[i]->dtype, xs[0]->dtype) || xs[i]->ndim != xs[0]->ndim)
      return op_fail(s, "input %d is %s with %d dimensions, input 0 %s with %d", i,
                     ir_dtype_str(xs[i]->dtype, a), xs[i]->ndim, ir_dtype_str(xs[0]->dtype, b),
                     xs[0]->ndim);
    for (int d = 0; d < xs[0]->ndim; d++)
      if (d != axis && xs[i]->shape[d] != xs[0]->shape[d])
        return op_fail(s, "inputs 0 and %d differ in dimension %d: %lld and %lld", i, d,
                       (long long)xs[0]->shape[d], (long long)xs[i]->shape[d]);
    if (axis >= 0)
      shape[axis] += xs[i]->shape[axis];
  }
  return true;
}

/* Copies x into out at offset off along axis (a view of equal rank). */
typedef struct {
  int axis;
  int64_t off;
  const int64_t *step;  /* slice: per-axis stride (NULL: 1) */
  const int64_t *start; /* slice: per-axis first index (NULL: 0) */
} Window;

static void
map_window(const void *env, int ndim, const int64_t *o, int64_t *i)
{
  const Window *w = env;
  for (int d = 0; d < ndim; d++)
    i[d] = (w->start ? w->start[d] : 0) + o[d] * (w->step ? w->step[d] : 1);
  if (w->axis >= 0)
    i[w->axis] += w->off;
}

static void
scatter_into(IrTensorData *out, const IrTensorData *x, int axis, int64_t off)
{
  int64_t idx[MAX_DIMS] = {0};
  int64_t count = op_numel(x);
  for (int64_t flat = 0; flat < count; flat++) {
    int64_t di = 0;
    for (int d = 0; d < x->ndim; d++)
      di = di * out->shape[d] + idx[d] + (d == axis ? off : 0);
    op_manip_copy_elem(out, di, x, flat);
    for (int d = x->ndim - 1; d >= 0 && ++idx[d] == x->shape[d]; d--)
      idx[d] = 0;
  }
}

/* The tensors of concat's (stack false) or stack's tuple argument, *n of
 * them, and the axis: of the result, which for stack has one more dim;
 * concat's may be None.  NULL after an error. */
static IrTensorData **
join_vals(const OpSite *s, Value **args, bool stack, int *n, int *axis, bool *none)
{
  Value *t = args[0];
  if (!t || t->kind != VAL_TUPLE || t->u.tuple.n == 0)
    return op_fail_null(s, "tensors must be a non-empty tuple");
  *n = t->u.tuple.n;
  IrTensorData **xs = ir_alloc(s->ctx, sizeof(IrTensorData *) * (size_t)*n);
  for (int i = 0; i < *n; i++)
    if (!(xs[i] = op_manip_tensor_val(s, t->u.tuple.items[i], "every item of tensors")))
      return NULL;
  int ndim = xs[0]->ndim + (stack ? 1 : 0);
  if (ndim > MAX_DIMS)
    return op_fail_null(s, "the result would have more than %d dimensions", MAX_DIMS);
  return op_manip_axis_attr(s, ndim, axis, stack ? NULL : none) ? xs : NULL;
}

Value *
op_manip_eval_concat(OpEval *ev, const OpSite *s, Value **args)
{
  int64_t shape[MAX_DIMS];
  int n, axis;
  bool none;
  IrTensorData **xs = join_vals(s, args, false, &n, &axis, &none);
  if (!xs)
    return NULL;
  if (none && xs[0]->ndim != 1)
    return op_fail_null(s, "axis=None needs 1-D inputs, but they have %d dimensions", xs[0]->ndim);
  if (none)
    axis = 0;
  if (!concat_check(s, xs, n, axis, shape))
    return NULL;
  IrTensorData *out = op_manip_new_tensor(s, xs[0]->dtype, xs[0]->ndim, shape);
  for (int64_t i = 0, off = 0; out && i < n; off += xs[i]->shape[axis], i++)
    scatter_into(out, xs[i], axis, off);
  return op_manip_as_value(s, out);
}

/* The first index and length of piece k of a split (see split_piece and
 * split_sections); false when the pieces do not fit. */
static bool
split_bounds(int64_t dim, const SplitAttrs *sp, int64_t k, int64_t *start, int64_t *len)
{
  const int64_t *idx = sp->idx;
  int nidx = sp->nidx;
  if (sp->sections) {
    int64_t n = idx[0], piece = dim / n + (dim % n != 0);
    *start = piece * k;
    *len = k == n - 1 ? dim - piece * k : piece;
    return *len >= 0;
  }
  int64_t left = k == 0 ? 0 : idx[k - 1], right = k == nidx ? dim : idx[k];
  left = left < 0 ? 0 : left > dim ? dim : left;
  right = right < 0 ? 0 : right > dim ? dim : right;
  *start = left;
  *len = right > left ? right - left : 0;
  return true;
}

static Value *
split_piece_value(const OpSite *s, IrTensorData *x, int axis, int64_t start, int64_t len)
{
  int64_t shape[MAX_DIMS];
  memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
  shape[axis] = len;
  Window w = {axis, start, NULL, NULL};
  return op_manip_gather_new(s, x, x->ndim, shape, map_window, &w);
}

Value *
op_manip_eval_split(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "x");
  SplitAttrs sp;
  if (!x || !split_attrs(s, x->ndim, &sp))
    return NULL;
  if (sp.pieces == 1) /* as inference: the input itself */
    return args[0];
  Value **items = ir_alloc(s->ctx, sizeof(Value *) * (size_t)sp.pieces);
  for (int64_t k = 0; k < sp.pieces; k++) {
    int64_t start, len;
    if (!split_bounds(x->shape[sp.axis], &sp, k, &start, &len))
      return op_fail_null(s, "cannot split axis %d of size %lld into %lld sections", sp.axis,
                          (long long)x->shape[sp.axis], (long long)sp.pieces);
    if (!(items[k] = split_piece_value(s, x, sp.axis, start, len)))
      return NULL;
  }
  return op_tuple_new(s->ctx, items, (int)sp.pieces);
}

Value *
op_manip_eval_strided_slice(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "x");
  SliceAttrs sa;
  int64_t shape[MAX_DIMS], start[MAX_DIMS] = {0}, step[MAX_DIMS];
  if (!x || !op_manip_slice_attrs(s, x->ndim, &sa))
    return NULL;
  for (int d = 0; d < x->ndim; d++) {
    shape[d] = x->shape[d];
    step[d] = 1;
  }
  for (int i = 0; i < sa.n; i++) {
    int a = sa.axes[i];
    if (!op_manip_slice_axis(x->shape[a], sa.begin[i], sa.end[i], sa.strides[i], sa.inbound,
                             &start[a], &shape[a])) {
      return op_fail_null(
          s, "begin %lld or end %lld is out of bounds for size %lld with assume_inbound",
          (long long)sa.begin[i], (long long)sa.end[i], (long long)x->shape[a]);
    }
    step[a] = sa.strides[i];
  }
  Window w = {-1, 0, step, start};
  return op_manip_gather_new(s, x, x->ndim, shape, map_window, &w);
}

/* Resolves take's indices against an axis of n elements by mode; NULL
 * after an error (an index out of range in "fast" mode, or any index
 * into an empty axis). */
static int64_t *
take_indices(const OpSite *s, const IrTensorData *ix, int64_t n, int mode)
{
  int64_t count = op_numel(ix);
  int64_t *r = ir_alloc(s->ctx, sizeof(int64_t) * (size_t)(count ? count : 1));
  for (int64_t k = 0; k < count; k++) {
    int64_t i = op_get_i(ix, k), v = i;
    if (n == 0)
      return op_fail_null(s, "index %lld into an axis of size 0", (long long)i);
    if (mode == 1)
      v = i < 0 ? 0 : i >= n ? n - 1 : i;
    else if (mode == 2)
      v = ((i % n) + n) % n;
    else if (i < 0)
      v = i >= -n ? i + n : -1;
    if (v < 0 || v >= n)
      return op_fail_null(s, "index %lld is out of range for an axis of size %lld", (long long)i,
                          (long long)n);
    r[k] = v;
  }
  return r;
}

typedef struct {
  int axis; /* of x */
  int in;   /* the rank of indices */
  const int64_t *ishape;
  const int64_t *resolved;
} TakeMap;

static void
map_take(const void *env, int ndim, const int64_t *o, int64_t *i)
{
  const TakeMap *t = env;
  int64_t k = 0;
  for (int d = 0; d < t->in; d++)
    k = k * t->ishape[d] + o[t->axis + d];
  for (int d = 0; d < ndim; d++)
    i[d] = d < t->axis ? o[d] : d > t->axis ? o[d - 1 + t->in] : t->resolved[k];
}

Value *
op_manip_eval_take(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "x"),
               *ix = op_manip_tensor_val(s, args[1], "indices");
  int64_t shape[2 * MAX_DIMS];
  int axis, mode = x && ix ? op_manip_take_mode(s) : -1;
  bool none;
  if (mode < 0 || !op_manip_axis_attr(s, x->ndim, &axis, &none))
    return NULL;
  if (ix->dtype.code != IR_DT_INT && ix->dtype.code != IR_DT_UINT)
    return op_fail_null(s, "indices must have an integer dtype");
  IrTensorData flat = *x;
  int64_t count = op_numel(x);
  if (none) { /* take from the flattened x */
    flat.ndim = 1;
    flat.shape = &count;
    axis = 0;
  }
  int on = flat.ndim - 1 + ix->ndim;
  if (on > MAX_DIMS)
    return op_fail_null(s, "the result would have %d dimensions, more than %d", on, MAX_DIMS);
  int64_t *resolved = take_indices(s, ix, flat.shape[axis], mode);
  if (!resolved)
    return NULL;
  for (int d = 0, k = 0; d < flat.ndim; d++)
    if (d == axis)
      for (int j = 0; j < ix->ndim; j++)
        shape[k++] = ix->shape[j];
    else
      shape[k++] = flat.shape[d];
  TakeMap t = {axis, ix->ndim, ix->shape, resolved};
  return op_manip_gather_new(s, &flat, on, shape, map_take, &t);
}

/* stack: every input has input 0's dtype and shape; the output has a new
 * dim of n at axis, and input k is its slice k there. */
Value *
op_manip_eval_stack(OpEval *ev, const OpSite *s, Value **args)
{
  int64_t shape[MAX_DIMS + 1];
  int n, axis;
  IrTensorData **xs = join_vals(s, args, true, &n, &axis, NULL);
  if (!xs || !concat_check(s, xs, n, -1, shape))
    return NULL;
  int ndim = xs[0]->ndim;
  for (int d = ndim; d > axis; d--)
    shape[d] = shape[d - 1];
  shape[axis] = n;
  IrTensorData *out = op_manip_new_tensor(s, xs[0]->dtype, ndim + 1, shape);
  for (int k = 0; out && k < n; k++) {
    /* x_k is out's slice k along axis: its flat order is out's with the
     * axis fixed, so copy the inner blocks in turn */
    int64_t inner = 1, outer = 1;
    for (int d = axis; d < ndim; d++)
      inner *= xs[k]->shape[d];
    for (int d = 0; d < axis; d++)
      outer *= xs[k]->shape[d];
    for (int64_t o = 0; o < outer; o++)
      for (int64_t i = 0; i < inner; i++)
        op_manip_copy_elem(out, (o * n + k) * inner + i, xs[k], o * inner + i);
  }
  return op_manip_as_value(s, out);
}

/* ------------------------------------------------------------------ */
/* Lowerings                                                           */
/* ------------------------------------------------------------------ */

/* min(max(v, lo), hi) */
static IrPrimExpr *
clamp(IrCtx *ctx, IrPrimExpr *v, IrPrimExpr *lo, IrPrimExpr *hi)
{
  return op_manip_arith(ctx, IR_PE_MIN, op_manip_arith(ctx, IR_PE_MAX, v, lo), hi);
}

/* The product of dims[from..n). */
static IrPrimExpr *
product(IrCtx *ctx, IrPrimExpr **dims, int from, int n)
{
  IrPrimExpr *p = op_manip_lit(ctx, 1);
  for (int i = from; i < n; i++)
    p = op_manip_arith(ctx, IR_PE_MUL, p, dims[i]);
  return p;
}

/* The first index of a slice of an axis of n elements, as
 * op_manip_slice_axis computes it for a static n and slice_index for a
 * symbolic one.  NULL when inbound was promised and a static n breaks it
 * (inference reported that). */
static IrPrimExpr *
slice_start(IrCtx *ctx, IrPrimExpr *n, int64_t begin, int64_t end, int64_t stride, bool inbound)
{
  int64_t c, start, len;
  if (ir_prim_is_int(n, &c))
    return op_manip_slice_axis(c, begin, end, stride, inbound, &start, &len)
               ? op_manip_lit(ctx, start)
               : NULL;
  return slice_index(ctx, n, begin, stride, inbound, true);
}

/* strided_slice: a sliced axis reads start + o * stride. */
static IrPrimExpr **
index_slice(OpPrim *p, IrBuffer *x, IrBuffer *out, IrPrimExpr **o, const void *env)
{
  const SliceAttrs *sa = env;
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim);
  if (out->ndim != x->ndim)
    return NULL;
  memcpy(xi, o, sizeof(IrPrimExpr *) * (size_t)x->ndim);
  for (int i = 0; i < sa->n; i++) {
    int a = sa->axes[i];
    IrPrimExpr *start =
        slice_start(ctx, x->shape[a], sa->begin[i], sa->end[i], sa->strides[i], sa->inbound);
    if (!start)
      return NULL;
    xi[a] = op_manip_arith(ctx, IR_PE_ADD, start,
                           op_manip_arith(ctx, IR_PE_MUL, o[a], op_manip_lit(ctx, sa->strides[i])));
  }
  return xi;
}

IrExpr *
op_manip_legalize_strided_slice(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  int ndim = op_manip_arg_rank(s);
  static const char *const bounds[] = {"begin", "end", "strides"};
  for (int b = 0; b < 3; b++) {
    const IrAttr *a = op_attr(s->call, bounds[b]);
    for (int i = 0; a && a->kind == IR_AT_LIST && i < a->u.list.n; i++)
      if (a->u.list.items[i]->kind == IR_AT_PRIM) {
        /* inference takes them (TVM's rule); a kernel does not yet */
        return op_fail_null(s, "a symbolic %s: the lowering is not implemented yet", bounds[b]);
      }
  }
  SliceAttrs sa;
  if (ndim < 0 || !op_manip_slice_attrs(s, ndim, &sa))
    return NULL;
  return op_manip_lower_gather(lz, s, result, "strided_slice", index_slice, &sa);
}

/* Index i (int64) into an axis of n elements, resolved by mode as
 * take_indices in the kernel does: clip clamps, wrap is i mod n, fast
 * counts a negative i from the end (take_checks has refused what is
 * still out of range, before this read runs, so no clamp is needed and
 * no read leaves the axis). */
static IrPrimExpr *
take_resolve(IrCtx *ctx, IrPrimExpr *i, IrPrimExpr *n, int mode)
{
  IrPrimExpr *last = op_manip_arith(ctx, IR_PE_SUB, n, op_manip_lit(ctx, 1));
  if (mode == 2)
    return op_manip_arith(ctx, IR_PE_FLOORMOD, i, n);
  if (mode == 0)
    return ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_LT, i, op_manip_lit(ctx, 0)),
                          op_manip_arith(ctx, IR_PE_ADD, i, n), i);
  return clamp(ctx, i, op_manip_lit(ctx, 0), last);
}

/* Is arg a constant whose every element i has -n <= i < n? */
static bool
const_within(const IrExpr *arg, int64_t n)
{
  if (arg->kind != IR_EX_CONST)
    return false;
  for (int64_t k = 0, count = op_numel(&arg->u.constant); k < count; k++) {
    int64_t i = op_get_i(&arg->u.constant, k);
    if (i < -n || i >= n)
      return false;
  }
  return true;
}

/* take_indices' refusals, checked before the loop that writes: in mode
 * fast each index outside [-n, n), in every mode an index into an axis of
 * n = 0 elements (all of them, even when the output is empty, as the
 * kernel resolves every index first). */
static void
take_checks(OpPrim *p, const IrExpr *indices, IrBuffer *x, IrBuffer *ix, int axis, bool flat,
            int mode)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *n = flat ? product(ctx, x->shape, 0, x->ndim) : x->shape[axis], **ii;
  int64_t v;
  IrStmt **slot;
  if (ir_prim_is_int(n, &v) && v > 0 && const_within(indices, mode == 0 ? v : INT64_MAX))
    return; /* constant indices (ONNX's Gather of a shape) checked now */
  if (mode == 0) {
    slot = op_prim_check_loops(p, ix->shape, ix->ndim, &ii, NULL);
    *slot = op_prim_assert_index(p, op_prim_load(p, ix, ii), n);
    return;
  }
  if (ir_prim_is_int(n, &v) && v > 0)
    return;
  slot = op_prim_check_loops(p, NULL, 0, &ii, op_prim_nonempty(ctx, ix->shape, ix->ndim));
  *slot =
      op_prim_assert(p, ir_prim_bin(ctx, IR_PE_GT, n, op_manip_lit(ctx, 0)), "index out of range");
}

/* The index read from x for output index o: the output's dims are x's
 * before axis, indices', then x's after axis; with axis=None (flat) x is
 * read at the resolved flat position. */
static IrPrimExpr **
take_index(OpPrim *p, IrBuffer *x, IrBuffer *ix, IrPrimExpr **o, int axis, bool flat, int mode)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **ii = op_manip_dims(ctx, ix->ndim);
  for (int d = 0; d < ix->ndim; d++)
    ii[d] = o[(flat ? 0 : axis) + d];
  IrPrimExpr *i = op_prim_load(p, ix, ii);
  if (!ir_dtype_eq(i->dtype, IR_I64))
    i = ir_prim_cast(ctx, IR_I64, i);
  if (flat)
    return op_manip_unflatten_index(
        ctx, take_resolve(ctx, i, product(ctx, x->shape, 0, x->ndim), mode), x->shape, x->ndim);
  IrPrimExpr **xi = op_manip_dims(ctx, x->ndim);
  for (int d = 0; d < x->ndim; d++)
    xi[d] = d < axis   ? o[d]
            : d > axis ? o[d - 1 + ix->ndim]
                       : take_resolve(ctx, i, x->shape[axis], mode);
  return xi;
}

IrExpr *
op_manip_legalize_take(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  int ndim = op_manip_arg_rank(s);
  int mode = op_manip_take_mode(s), axis;
  bool none;
  if (mode < 0 || s->call->u.call.nargs < 2 || ndim < 0 ||
      !op_manip_axis_attr(s, ndim, &axis, &none))
    return NULL;
  OpPrim p;
  IrBuffer *x, *ix, *out;
  if (!op_manip_prim_open(lz, &p, s, result, "take", &x, &ix, &out))
    return NULL;
  int want = none ? ix->ndim : x->ndim - 1 + ix->ndim;
  if (out->ndim != want || (ix->dtype.code != IR_DT_INT && ix->dtype.code != IR_DT_UINT))
    return op_prim_give_up(&p);
  take_checks(&p, s->call->u.call.args[1], x, ix, axis, none, mode);
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  IrPrimExpr **xi = take_index(&p, x, ix, o, axis, none, mode);
  *body = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  return op_prim_finish(&p, s->call, result);
}

/* A loop nest over the shape of `over` storing dst[o'] = src[o''], where
 * o' and o'' are o with dst_off (resp. src_off) added along axis. */
static void
copy_window(OpPrim *p, IrBuffer *dst, IrBuffer *src, IrBuffer *over, int axis, IrPrimExpr *dst_off,
            IrPrimExpr *src_off)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(p, over->shape, over->ndim, &o);
  IrPrimExpr **di = op_manip_dims(ctx, over->ndim), **si = op_manip_dims(ctx, over->ndim);
  memcpy(di, o, sizeof(IrPrimExpr *) * (size_t)over->ndim);
  memcpy(si, o, sizeof(IrPrimExpr *) * (size_t)over->ndim);
  di[axis] = op_manip_arith(ctx, IR_PE_ADD, o[axis], dst_off);
  si[axis] = op_manip_arith(ctx, IR_PE_ADD, o[axis], src_off);
  *body = op_prim_store(p, dst, di, op_prim_load(p, src, si));
}

/* concat (stack false) or stack of a tuple literal, each field an input
 * buffer (of the output's rank, one less for stack): concat copies input
 * k at the sum of the earlier inputs' dims along axis, stack stores it at
 * index k of the new axis.  A tuple held in a var is left to the
 * interpreter (its fields are no leaves that call_tir could take). */
static IrExpr *
legalize_join(OpLegalize *lz, const OpSite *s, IrSInfo *result, bool stack)
{
  const IrExpr *tuple = s->call->u.call.args[0];
  int n = tuple->kind == IR_EX_TUPLE ? tuple->u.tuple.n : 0, axis;
  bool none = false;
  if (n == 0 || result->kind != IR_SI_TENSOR || (stack && result->u.tensor.ndim < 1) ||
      !op_manip_axis_attr(s, result->u.tensor.ndim, &axis, stack ? NULL : &none))
    return NULL;
  axis = none ? 0 : axis;
  OpPrim p;
  op_prim_begin(lz, &p, stack ? "stack" : "concatenate");
  IrBuffer *out = op_prim_output(&p, result, stack ? "T_stack" : "T_concat");
  IrBuffer **xs = ir_alloc(lz->ctx, sizeof(IrBuffer *) * (size_t)n);
  for (int k = 0; out && k < n; k++) {
    xs[k] = op_prim_input(&p, tuple->u.tuple.items[k], ir_printf(lz->ctx, "A%d", k));
    if (!xs[k] || xs[k]->ndim + (stack ? 1 : 0) != out->ndim)
      out = NULL;
  }
  if (!out || out->ndim == 0) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr *off = op_manip_lit(lz->ctx, 0);
  for (int k = 0; k < n && !stack; k++) {
    copy_window(&p, out, xs[k], xs[k], axis, off, op_manip_lit(lz->ctx, 0));
    off = op_manip_arith(lz->ctx, IR_PE_ADD, off, xs[k]->shape[axis]);
  }
  for (int k = 0; k < n && stack; k++) {
    IrPrimExpr **o;
    IrStmt **body = op_prim_loops(&p, xs[k]->shape, xs[k]->ndim, &o);
    IrPrimExpr **oi = op_manip_dims(lz->ctx, out->ndim);
    for (int d = 0, j = 0; d < out->ndim; d++)
      oi[d] = d == axis ? op_manip_lit(lz->ctx, k) : o[j++];
    *body = op_prim_store(&p, out, oi, op_prim_load(&p, xs[k], o));
  }
  return op_prim_finish(&p, s->call, result);
}

IrExpr *
op_manip_legalize_concat(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  return legalize_join(lz, s, result, false);
}

/* The first index of piece k of a split along a dim of dim elements (the
 * kernel's split_bounds): k * ceildiv(dim, n) for n sections, else the
 * previous index clamped to [0, dim]. */
static IrPrimExpr *
split_start(IrCtx *ctx, IrPrimExpr *dim, const SplitAttrs *sp, int k)
{
  const int64_t *idx = sp->idx;
  if (sp->sections) {
    IrPrimExpr *n = op_manip_lit(ctx, idx[0]);
    IrPrimExpr *piece = op_manip_arith(
        ctx, IR_PE_FLOORDIV, op_manip_arith(ctx, IR_PE_ADD, dim, op_manip_lit(ctx, idx[0] - 1)), n);
    return op_manip_arith(ctx, IR_PE_MUL, op_manip_lit(ctx, k), piece);
  }
  if (k == 0 || idx[k - 1] <= 0)
    return op_manip_lit(ctx, 0);
  return op_manip_arith(ctx, IR_PE_MIN, op_manip_lit(ctx, idx[k - 1]), dim);
}

/* split: one output per piece (result is their tuple; one piece is a
 * tensor, a copy of x), each a window of x along axis. */
IrExpr *
op_manip_legalize_split(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  int ndim = op_manip_arg_rank(s);
  SplitAttrs sp;
  if (ndim < 1 || !split_attrs(s, ndim, &sp))
    return NULL;
  int64_t pieces = sp.pieces;
  bool multi = result->kind == IR_SI_TUPLE;
  if (multi ? result->u.tuple.n != pieces : pieces != 1)
    return NULL;
  OpPrim p;
  op_prim_begin(lz, &p, "split");
  IrBuffer *x = op_prim_input(&p, s->call->u.call.args[0], "A");
  IrBuffer **outs = ir_alloc(lz->ctx, sizeof(IrBuffer *) * (size_t)pieces);
  for (int k = 0; x && k < pieces; k++) {
    const IrSInfo *field = multi ? result->u.tuple.fields[k] : result;
    outs[k] = op_prim_output(&p, field, k ? ir_printf(lz->ctx, "T_split_%d", k) : "T_split");
    if (!outs[k] || outs[k]->ndim != x->ndim)
      x = NULL;
  }
  if (!x) {
    op_prim_abort(&p);
    return NULL;
  }
  for (int k = 0; k < pieces; k++)
    copy_window(&p, outs[k], x, outs[k], sp.axis, op_manip_lit(lz->ctx, 0),
                split_start(lz->ctx, x->shape[sp.axis], &sp, k));
  return op_prim_finish(&p, s->call, result);
}

IrExpr *
op_manip_legalize_stack(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  return legalize_join(lz, s, result, true);
}
