/*
 * manip_eval.c - reference kernels of the manipulation ops (permute_dims,
 * reshape, flatten, expand_dims, squeeze, concat, split, strided_slice,
 * take, broadcast_to, stack, repeat, tile, flip, one_hot, batch_flatten,
 * pad, pixel_shuffle).  one_hot and pad are the kernels that write values
 * not copied from an input: one_hot's on_value and off_value, pad's
 * pad_value, converted once to the result's dtype.
 *
 * Kernels never convert values: every output element is a byte copy of an
 * input element (one_hot's prim values aside).  Each kernel validates its arguments and attributes itself
 * (the interpreter may run a module whose inference was never checked), so
 * no input can make it read or write out of bounds.
 *
 * Key idea: most kernels are one "gather": for every output index, a
 * mapping names the input element it copies (permute, slice, broadcast,
 * take); reshape-like ops copy the row-major data unchanged.
 */
#include <string.h>

#include "manip_int.h"

/* The tensor of a value; NULL after an error when it is not one. */
static IrTensorData *
tensor_val(const OpSite *s, Value *v, const char *what)
{
  if (!v || v->kind != VAL_TENSOR)
    return op_fail_null(s, "%s must be a tensor", what);
  if (v->u.tensor.t.ndim > MAX_DIMS)
    return op_fail_null(s, "%s has %d dimensions, more than the %d supported", what,
                        v->u.tensor.t.ndim, MAX_DIMS);
  return &v->u.tensor.t;
}

static IrTensorData *
new_tensor(const OpSite *s, IrDType t, int ndim, const int64_t *shape)
{
  Value *v = op_tensor_new(s->ctx, t, ndim, shape, s->loc);
  return v ? &v->u.tensor.t : NULL;
}

static Value *
as_value(const OpSite *s, IrTensorData *t)
{
  return t ? op_tensor_from_data(s->ctx, t) : NULL;
}

static void
copy_elem(IrTensorData *dst, int64_t di, const IrTensorData *src, int64_t si)
{
  size_t bytes = (size_t)ir_dtype_bytes(src->dtype);
  memcpy((char *)dst->data + (size_t)di * bytes, (const char *)src->data + (size_t)si * bytes,
         bytes);
}

/* The helpers above, for the kernels of manip_index.c. */
IrTensorData *
op_manip_tensor_val(const OpSite *s, Value *v, const char *what)
{
  return tensor_val(s, v, what);
}

IrTensorData *
op_manip_new_tensor(const OpSite *s, IrDType t, int ndim, const int64_t *shape)
{
  return new_tensor(s, t, ndim, shape);
}

void
op_manip_copy_elem(IrTensorData *dst, int64_t di, const IrTensorData *src, int64_t si)
{
  copy_elem(dst, di, src, si);
}

/* For each output index, map() names the input index it copies. */
typedef void (*IndexMap)(const void *env, const int64_t *out_idx, int64_t *in_idx);

static void
gather(IrTensorData *dst, const IrTensorData *src, IndexMap map, const void *env)
{
  int64_t oi[MAX_DIMS] = {0}, ii[MAX_DIMS];
  int64_t count = op_numel(dst);
  for (int64_t flat = 0; flat < count; flat++) {
    map(env, oi, ii);
    int64_t si = 0;
    for (int d = 0; d < src->ndim; d++)
      si = si * src->shape[d] + ii[d];
    copy_elem(dst, flat, src, si);
    for (int d = dst->ndim - 1; d >= 0 && ++oi[d] == dst->shape[d]; d--)
      oi[d] = 0;
  }
}

/* An output holding x's data unchanged under a new shape. */
static Value *
same_data(const OpSite *s, const IrTensorData *x, int ndim, const int64_t *shape)
{
  IrTensorData *out = new_tensor(s, x->dtype, ndim, shape);
  if (out && out->nbytes != x->nbytes)
    return op_fail_null(s, "internal: element counts differ");
  if (out)
    memcpy(out->data, x->data, x->nbytes);
  return as_value(s, out);
}

static void
map_permute(const void *env, const int64_t *o, int64_t *i)
{
  const int *perm = env;
  for (int d = 0; perm[d] >= 0; d++)
    i[perm[d]] = o[d];
}

Value *
op_manip_eval_permute_dims(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "x");
  int *perm, term[MAX_DIMS + 1];
  int64_t shape[MAX_DIMS];
  if (!x || !op_manip_permutation(&s, call, x->ndim, &perm))
    return NULL;
  for (int d = 0; d < x->ndim; d++) {
    term[d] = perm[d];
    shape[d] = x->shape[perm[d]];
  }
  term[x->ndim] = -1;
  IrTensorData *out = new_tensor(&s, x->dtype, x->ndim, shape);
  if (out)
    gather(out, x, map_permute, term);
  return as_value(&s, out);
}

Value *
op_manip_eval_reshape(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "x");
  if (!x)
    return NULL;
  if (!args[1] || args[1]->kind != VAL_SHAPE)
    return op_fail_null(&s, "shape must be a shape");
  int n = args[1]->u.shape.n, at = -1;
  int64_t *dims = ir_alloc(s.ctx, sizeof(int64_t) * (size_t)(n ? n : 1)), rest = 1;
  memcpy(dims, args[1]->u.shape.dims, sizeof(int64_t) * (size_t)n);
  for (int i = 0; i < n; i++) {
    if (dims[i] == -1 && at < 0)
      at = i;
    else if (dims[i] < 0) {
      return op_fail_null(&s, "dimension %d of the new shape is %lld", i, (long long)dims[i]);
    } else if (dims[i] > 0 && rest > INT64_MAX / dims[i])
      rest = INT64_MAX; /* cannot match any real count */
    else
      rest *= dims[i];
  }
  int64_t count = op_numel(x);
  if (at >= 0)
    dims[at] = rest ? count / rest : 0;
  if (at >= 0 ? (rest == 0 || count % rest != 0) : rest != count)
    return op_fail_null(&s, "cannot reshape %lld elements into a shape of %lld%s", (long long)count,
                        (long long)rest, at >= 0 ? " times -1 elements" : " elements");
  return same_data(&s, x, n, dims);
}

Value *
op_manip_eval_flatten(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "x");
  if (!x)
    return NULL;
  int64_t count = op_numel(x);
  return same_data(&s, x, 1, &count);
}

Value *
op_manip_eval_expand_dims(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "x");
  int out_ndim;
  bool *mask;
  if (!x || !op_manip_expand_mask(&s, call, x->ndim, &out_ndim, &mask))
    return NULL;
  int64_t *shape = ir_alloc(s.ctx, sizeof(int64_t) * (size_t)(out_ndim ? out_ndim : 1));
  for (int i = 0, j = 0; i < out_ndim; i++)
    shape[i] = mask[i] ? 1 : x->shape[j++];
  return same_data(&s, x, out_ndim, shape);
}

Value *
op_manip_eval_squeeze(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "x");
  int64_t *axes, shape[MAX_DIMS];
  int n, *norm, k = 0;
  bool drop[MAX_DIMS] = {false};
  if (!x || !op_manip_attr_ints(&s, call, "axis", true, &axes, &n))
    return NULL;
  if (n >= 0 && !op_manip_norm_axes(&s, axes, n, x->ndim, &norm))
    return NULL;
  for (int i = 0; i < (n < 0 ? x->ndim : n); i++) {
    int a = n < 0 ? i : norm[i];
    if (x->shape[a] != 1 && n >= 0)
      return op_fail_null(&s, "cannot squeeze axis %d of size %lld", a, (long long)x->shape[a]);
    drop[a] = x->shape[a] == 1;
  }
  for (int i = 0; i < x->ndim; i++)
    if (!drop[i])
      shape[k++] = x->shape[i];
  return same_data(&s, x, k, shape);
}

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
  int ndim;
} Window;

static void
map_window(const void *env, const int64_t *o, int64_t *i)
{
  const Window *w = env;
  for (int d = 0; d < w->ndim; d++)
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
    copy_elem(out, di, x, flat);
    for (int d = x->ndim - 1; d >= 0 && ++idx[d] == x->shape[d]; d--)
      idx[d] = 0;
  }
}

/* The tensors of concat's and stack's tuple argument; NULL after an
 * error. */
static IrTensorData **
tuple_vals(const OpSite *s, Value *t, int *n)
{
  if (!t || t->kind != VAL_TUPLE || t->u.tuple.n == 0)
    return op_fail_null(s, "tensors must be a non-empty tuple");
  *n = t->u.tuple.n;
  IrTensorData **xs = ir_alloc(s->ctx, sizeof(IrTensorData *) * (size_t)*n);
  for (int i = 0; i < *n; i++)
    if (!(xs[i] = tensor_val(s, t->u.tuple.items[i], "every item of tensors")))
      return NULL;
  return xs;
}

Value *
op_manip_eval_concat(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  int64_t shape[MAX_DIMS];
  int axis;
  bool none;
  int n;
  IrTensorData **xs = tuple_vals(&s, args[0], &n);
  if (!xs)
    return NULL;
  if (!op_manip_axis_attr(&s, call, true, xs[0]->ndim, &axis, &none))
    return NULL;
  if (none && xs[0]->ndim != 1)
    return op_fail_null(&s, "axis=None needs 1-D inputs, but they have %d dimensions", xs[0]->ndim);
  if (none)
    axis = 0;
  if (!concat_check(&s, xs, n, axis, shape))
    return NULL;
  IrTensorData *out = new_tensor(&s, xs[0]->dtype, xs[0]->ndim, shape);
  for (int64_t i = 0, off = 0; out && i < n; off += xs[i]->shape[axis], i++)
    scatter_into(out, xs[i], axis, off);
  return as_value(&s, out);
}

/* The first index and length of piece k of a split (see split_piece and
 * split_sections); false when the pieces do not fit. */
static bool
split_bounds(int64_t dim, const int64_t *idx, int nidx, bool sections, int64_t k, int64_t *start,
             int64_t *len)
{
  if (sections) {
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
  IrTensorData *out = new_tensor(s, x->dtype, x->ndim, shape);
  Window w = {axis, start, NULL, NULL, x->ndim};
  if (out)
    gather(out, x, map_window, &w);
  return as_value(s, out);
}

Value *
op_manip_eval_split(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "x");
  int64_t *idx, pieces;
  int nidx, axis;
  bool sections, none;
  if (!x || !op_manip_split_attrs(&s, call, &idx, &nidx, &sections, &pieces) ||
      !op_manip_axis_attr(&s, call, false, x->ndim, &axis, &none))
    return NULL;
  if (pieces == 1) /* as inference: the input itself */
    return args[0];
  Value **items = ir_alloc(s.ctx, sizeof(Value *) * (size_t)pieces);
  for (int64_t k = 0; k < pieces; k++) {
    int64_t start, len;
    if (!split_bounds(x->shape[axis], idx, nidx, sections, k, &start, &len))
      return op_fail_null(&s, "cannot split axis %d of size %lld into %lld sections", axis,
                          (long long)x->shape[axis], (long long)pieces);
    if (!(items[k] = split_piece_value(&s, x, axis, start, len)))
      return NULL;
  }
  return op_tuple_new(s.ctx, items, (int)pieces);
}

Value *
op_manip_eval_strided_slice(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "x");
  SliceAttrs sa;
  int64_t shape[MAX_DIMS], start[MAX_DIMS] = {0}, step[MAX_DIMS];
  if (!x || !op_manip_slice_attrs(&s, call, x->ndim, &sa))
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
          &s, "begin %lld or end %lld is out of bounds for size %lld with assume_inbound",
          (long long)sa.begin[i], (long long)sa.end[i], (long long)x->shape[a]);
    }
    step[a] = sa.strides[i];
  }
  IrTensorData *out = new_tensor(&s, x->dtype, x->ndim, shape);
  Window w = {-1, 0, step, start, x->ndim};
  if (out)
    gather(out, x, map_window, &w);
  return as_value(&s, out);
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
  int axis;   /* of x */
  int xn, in; /* ranks of x and indices */
  const int64_t *ishape;
  const int64_t *resolved;
} TakeMap;

static void
map_take(const void *env, const int64_t *o, int64_t *i)
{
  const TakeMap *t = env;
  int64_t k = 0;
  for (int d = 0; d < t->in; d++)
    k = k * t->ishape[d] + o[t->axis + d];
  for (int d = 0; d < t->xn; d++)
    i[d] = d < t->axis ? o[d] : d > t->axis ? o[d - 1 + t->in] : t->resolved[k];
}

Value *
op_manip_eval_take(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "x"), *ix = tensor_val(&s, args[1], "indices");
  int64_t shape[2 * MAX_DIMS];
  int axis, mode = x && ix ? op_manip_take_mode(&s, call) : -1;
  bool none;
  if (mode < 0 || !op_manip_axis_attr(&s, call, true, x->ndim, &axis, &none))
    return NULL;
  if (ix->dtype.code != IR_DT_INT && ix->dtype.code != IR_DT_UINT)
    return op_fail_null(&s, "indices must have an integer dtype");
  IrTensorData flat = *x;
  int64_t count = op_numel(x);
  if (none) { /* take from the flattened x */
    flat.ndim = 1;
    flat.shape = &count;
    axis = 0;
  }
  int on = flat.ndim - 1 + ix->ndim;
  if (on > MAX_DIMS)
    return op_fail_null(&s, "the result would have %d dimensions, more than %d", on, MAX_DIMS);
  int64_t *resolved = take_indices(&s, ix, flat.shape[axis], mode);
  if (!resolved)
    return NULL;
  for (int d = 0, k = 0; d < flat.ndim; d++)
    if (d == axis)
      for (int j = 0; j < ix->ndim; j++)
        shape[k++] = ix->shape[j];
    else
      shape[k++] = flat.shape[d];
  IrTensorData *out = new_tensor(&s, x->dtype, on, shape);
  TakeMap t = {axis, flat.ndim, ix->ndim, ix->shape, resolved};
  if (out)
    gather(out, &flat, map_take, &t);
  return as_value(&s, out);
}

typedef struct {
  const IrTensorData *x;
  int off; /* output rank minus x's */
} BroadcastMap;

static void
map_broadcast(const void *env, const int64_t *o, int64_t *i)
{
  const BroadcastMap *b = env;
  for (int d = 0; d < b->x->ndim; d++)
    i[d] = b->x->shape[d] == 1 ? 0 : o[d + b->off];
}

Value *
op_manip_eval_broadcast_to(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "x");
  if (!x)
    return NULL;
  if (!args[1] || args[1]->kind != VAL_SHAPE || args[1]->u.shape.n > MAX_DIMS)
    return op_fail_null(&s, "shape must be a shape of at most %d dimensions", MAX_DIMS);
  int tn = args[1]->u.shape.n;
  const int64_t *td = args[1]->u.shape.dims;
  if (tn < x->ndim)
    return op_fail_null(&s, "cannot broadcast a tensor of %d dimensions to %d dimensions", x->ndim,
                        tn);
  for (int d = 0; d < x->ndim; d++) {
    int64_t xd = x->shape[d], t = td[d + tn - x->ndim];
    if (xd != 1 && xd != t)
      return op_fail_null(&s, "cannot broadcast dimension %d of size %lld to %lld", d,
                          (long long)xd, (long long)t);
  }
  IrTensorData *out = new_tensor(&s, x->dtype, tn, td);
  BroadcastMap b = {x, tn - x->ndim};
  if (out)
    gather(out, x, map_broadcast, &b);
  return as_value(&s, out);
}

/* ------------------------------------------------------------------ */
/* stack, repeat, tile, flip, one_hot                                  */
/* ------------------------------------------------------------------ */

/* stack: every input has input 0's dtype and shape; the output has a new
 * dim of n at axis, and input k is its slice k there. */
Value *
op_manip_eval_stack(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  int64_t shape[MAX_DIMS + 1];
  int axis;
  bool none;
  int n;
  IrTensorData **xs = tuple_vals(&s, args[0], &n);
  if (!xs)
    return NULL;
  int ndim = xs[0]->ndim;
  if (ndim >= MAX_DIMS)
    return op_fail_null(&s, "the result would have more than %d dimensions", MAX_DIMS);
  if (!op_manip_axis_attr(&s, call, false, ndim + 1, &axis, &none) ||
      !concat_check(&s, xs, n, -1, shape))
    return NULL;
  for (int d = ndim; d > axis; d--)
    shape[d] = shape[d - 1];
  shape[axis] = n;
  IrTensorData *out = new_tensor(&s, xs[0]->dtype, ndim + 1, shape);
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
        copy_elem(out, (o * n + k) * inner + i, xs[k], o * inner + i);
  }
  return as_value(&s, out);
}

typedef struct {
  int axis;      /* the repeated axis (of the flat view with axis=None) */
  int64_t count; /* repeats, > 0 where the map runs */
  int ndim;
} RepeatMap;

static void
map_repeat(const void *env, const int64_t *o, int64_t *i)
{
  const RepeatMap *r = env;
  for (int d = 0; d < r->ndim; d++)
    i[d] = d == r->axis ? o[d] / r->count : o[d];
}

/* repeat: output index j along the axis reads input index j / repeats;
 * axis=None does that on the flattened x. */
Value *
op_manip_eval_repeat(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "data");
  int64_t r, shape[MAX_DIMS];
  int axis;
  bool none;
  if (!x || !op_manip_repeat_count(&s, call, &r) ||
      !op_manip_axis_attr(&s, call, true, x->ndim, &axis, &none))
    return NULL;
  IrTensorData flat = *x;
  int64_t count = op_numel(x);
  if (none) {
    flat.ndim = 1;
    flat.shape = &count;
    axis = 0;
  }
  memcpy(shape, flat.shape, sizeof(int64_t) * (size_t)flat.ndim);
  if (r > 0 && shape[axis] > INT64_MAX / r)
    return op_fail_null(&s, "the result would be too large");
  shape[axis] *= r;
  IrTensorData *out = new_tensor(&s, x->dtype, flat.ndim, shape);
  RepeatMap m = {axis, r ? r : 1, flat.ndim};
  if (out)
    gather(out, &flat, map_repeat, &m);
  return as_value(&s, out);
}

/* tile reads x's dims aligned to the output's last ones, as broadcast_to */
static void
map_tile(const void *env, const int64_t *o, int64_t *i)
{
  const BroadcastMap *t = env;
  for (int d = 0; d < t->x->ndim; d++)
    i[d] = o[d + t->off] % t->x->shape[d];
}

/* tile: the output's dims align with x's last ones (see infer_tile);
 * output index j of a dim reads x at j mod x's dim. */
Value *
op_manip_eval_tile(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "data");
  int64_t *reps, shape[MAX_DIMS];
  int l;
  if (!x || !op_manip_tile_repeats(&s, call, &reps, &l))
    return NULL;
  int on = x->ndim > l ? x->ndim : l;
  for (int d = 0; d < on; d++) {
    int xi = d - (on - x->ndim), ri = d - (on - l);
    int64_t xd = xi < 0 ? 1 : x->shape[xi], rd = ri < 0 ? 1 : reps[ri];
    if (rd > 0 && xd > INT64_MAX / rd)
      return op_fail_null(&s, "the result would be too large");
    shape[d] = xd * rd;
  }
  IrTensorData *out = new_tensor(&s, x->dtype, on, shape);
  BroadcastMap t = {x, on - x->ndim};
  if (out)
    gather(out, x, map_tile, &t);
  return as_value(&s, out);
}

typedef struct {
  const IrTensorData *x;
  int axis;
} FlipMap;

static void
map_flip(const void *env, const int64_t *o, int64_t *i)
{
  const FlipMap *f = env;
  for (int d = 0; d < f->x->ndim; d++)
    i[d] = d == f->axis ? f->x->shape[d] - 1 - o[d] : o[d];
}

Value *
op_manip_eval_flip(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "data");
  int axis;
  bool none;
  if (!x || !op_manip_axis_attr(&s, call, false, x->ndim, &axis, &none))
    return NULL;
  IrTensorData *out = new_tensor(&s, x->dtype, x->ndim, x->shape);
  FlipMap f = {x, axis};
  if (out)
    gather(out, x, map_flip, &f);
  return as_value(&s, out);
}

/* one_hot (topi's rule): out[..., j, ...] = on_value where the index
 * equals j, else off_value; an index outside [0, depth), negative ones
 * included, gives a row of off_value. */
Value *
op_manip_eval_one_hot(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *ix = tensor_val(&s, args[0], "indices");
  int64_t depth, shape[MAX_DIMS + 1];
  int axis;
  if (!ix || !op_manip_one_hot_attrs(&s, call, ix->ndim, &depth, &axis))
    return NULL;
  if (ix->dtype.code != IR_DT_INT && ix->dtype.code != IR_DT_UINT)
    return op_fail_null(&s, "indices must have an integer dtype");
  const Value *on = args[1], *off = args[2];
  if (!on || on->kind != VAL_PRIM || !off || off->kind != VAL_PRIM ||
      !ir_dtype_eq(on->u.prim.dtype, off->u.prim.dtype)) {
    return op_fail_null(&s, "on_value and off_value must be prim values of one dtype");
  }
  if (ix->ndim >= MAX_DIMS)
    return op_fail_null(&s, "the result would have more than %d dimensions", MAX_DIMS);
  for (int d = 0, k = 0; d <= ix->ndim; d++)
    shape[d] = d == axis ? depth : ix->shape[k++];
  IrDType t = on->u.prim.dtype;
  IrTensorData *out = new_tensor(&s, t, ix->ndim + 1, shape);
  if (!out)
    return NULL;
  bool fl = ir_dtype_is_float(t);
  int64_t inner = 1, count = op_numel(ix);
  for (int d = axis; d < ix->ndim; d++)
    inner *= ix->shape[d];
  for (int64_t e = 0; e < count; e++) {
    int64_t v = op_get_i(ix, e), o = e / inner, i = e % inner;
    for (int64_t j = 0; j < depth; j++) {
      const Value *pv = v == j ? on : off;
      int64_t at = (o * depth + j) * inner + i;
      if (fl)
        op_set_f(out, at, pv->u.prim.f);
      else
        op_set_i(out, at, pv->u.prim.i);
    }
  }
  return as_value(&s, out);
}

/* ------------------------------------------------------------------ */
/* batch_flatten, pad, pixel_shuffle                                   */
/* ------------------------------------------------------------------ */

Value *
op_manip_eval_batch_flatten(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "data");
  if (!x)
    return NULL;
  if (x->ndim < 2)
    return op_fail_null(&s, "data must have at least 2 dimensions, not %d", x->ndim);
  int64_t shape[2] = {x->shape[0], 1};
  for (int d = 1; d < x->ndim; d++)
    shape[1] *= x->shape[d];
  return same_data(&s, x, 2, shape);
}

/* pad: output index o reads x at op_manip_pad_source(o - before) per
 * axis, or is the pad value (converted once to the dtype). */
Value *
op_manip_eval_pad(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "data");
  PadAttrs pa;
  int64_t shape[MAX_DIMS], oi[MAX_DIMS] = {0};
  if (!x || !op_manip_pad_attrs(&s, call, x->ndim, &pa))
    return NULL;
  for (int d = 0; d < x->ndim; d++) {
    int64_t before = pa.width[2 * d], after = pa.width[2 * d + 1];
    if (!op_manip_pad_fits(&s, pa.mode, d, x->shape[d], before, after))
      return NULL;
    shape[d] = x->shape[d] + before + after;
  }
  IrTensorData *out = new_tensor(&s, x->dtype, x->ndim, shape);
  if (!out)
    return NULL;
  int64_t count = op_numel(out);
  for (int64_t flat = 0; flat < count; flat++) {
    int64_t si = 0;
    for (int d = 0; d < x->ndim && si >= 0; d++) {
      int64_t i = op_manip_pad_source(pa.mode, oi[d] - pa.width[2 * d], x->shape[d]);
      si = i < 0 ? -1 : si * x->shape[d] + i;
    }
    if (si < 0)
      op_set_f(out, flat, pa.value);
    else
      copy_elem(out, flat, x, si);
    for (int d = x->ndim - 1; d >= 0 && ++oi[d] == out->shape[d]; d--)
      oi[d] = 0;
  }
  return as_value(&s, out);
}

/* pixel_shuffle: out[..., c, h, w] = x[..., c*r*r + (h % r)*r + w % r,
 * h // r, w // r]. */
static void
map_pixel_shuffle(const void *env, const int64_t *o, int64_t *i)
{
  const int64_t *rn = env; /* r, ndim */
  int64_t r = rn[0];
  int n = (int)rn[1];
  for (int d = 0; d < n - 3; d++)
    i[d] = o[d];
  i[n - 3] = o[n - 3] * r * r + (o[n - 2] % r) * r + o[n - 1] % r;
  i[n - 2] = o[n - 2] / r;
  i[n - 1] = o[n - 1] / r;
}

Value *
op_manip_eval_pixel_shuffle(OpEval *ev, const IrExpr *call, Value **args)
{
  OpSite s = op_site_eval(ev, call);
  IrTensorData *x = tensor_val(&s, args[0], "data");
  int64_t rn[2], shape[MAX_DIMS];
  if (!x || !op_manip_upscale_factor(&s, call, &rn[0]))
    return NULL;
  int n = x->ndim;
  int64_t r = rn[0];
  rn[1] = n;
  if (n < 3 || x->shape[n - 3] % (r * r) != 0)
    return op_fail_null(&s, "data must have at least 3 dimensions and channels a multiple of %lld",
                        (long long)(r * r));
  memcpy(shape, x->shape, sizeof(int64_t) * (size_t)n);
  shape[n - 3] /= r * r;
  shape[n - 2] *= r;
  shape[n - 1] *= r;
  IrTensorData *out = new_tensor(&s, x->dtype, n, shape);
  if (out)
    gather(out, x, map_pixel_shuffle, rn);
  return as_value(&s, out);
}
