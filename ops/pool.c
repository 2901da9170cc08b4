/*
 * pool.c - the pools (max_pool, avg_pool, adaptive_avg_pool over 1, 2 or
 * 3 spatial axes; their entries are in nn.c's table): inference, reference
 * kernels and lowering to TIR, on the window attributes, extents and
 * logical views of conv.c (conv_int.h), the convolutions' too.
 *
 * Three lowerings.  The generic one (any dtype, symbolic extents) computes
 * each output element by itself: a float64 accumulator (the max of
 * integers: one of their dtype, exact and without float), the window's
 * loops, and the "inside the input" guard on every term.  The 2-D pools
 * of float32 (and the max of integers: int8 in a quantized model, kept in
 * their dtype) with static extents take one of two others, which fold the
 * same taps in the same order, so all three give the same bits:
 *
 * - pool_blocks, for windows of up to POOL_MAX_TAPS taps.  Key idea: the
 *   windows of a run of output rows (or columns) meet the input at the
 *   same window positions: all of them inside, or, at a border, the same
 *   few.  So the plane splits into a few blocks (a run of rows by a run
 *   of columns: the interior, the border rows and columns, the corners),
 *   and each block is a nest over its rows and columns whose body is one
 *   expression without guards: the fold of its inside taps, written out.
 *   Under libtcc gen_row makes each block one call of the row kernel
 *   (codegen/gen_row.c: a perfect nest of two loops), a few calls a plane
 *   where the row schedule below made a call per output row and window
 *   position; gcc vectorizes the block's columns.  No scratch, no copy:
 *   the taps read the input, strided by the pool's stride.
 * - pool_rows, for larger windows: a whole output row at once into a row
 *   of accumulators; for each window position (ky, kx) the row's columns
 *   are one loop of constant trip count with no guard, and only the few
 *   columns whose window leaves the input take guarded loops of their
 *   own; a window row outside the input is skipped by one test outside
 *   the column loops.
 *
 * The fold: the max starts at the dtype's lowest value and takes
 * acc > tap ? acc : tap (rxc_max_f32) tap by tap, in (ky, kx) order over
 * the taps inside the input, so a NaN tap survives only when it is the
 * last one (pool_blocks starts from the first tap, which the lowest
 * value yields to whatever it is).  Sums are float32 from 0 in the same
 * order, and the mean divides by the count as float32, as TVM's
 * legalized (TOPI) pools compute.  The output is stored once per
 * element, so a consumer's epilogue still joins at that store
 * (opt/fuse_tir_inline.c).
 */
#include <math.h>
#include <string.h>

#include "conv_int.h"

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

/* output_size: None (the input's extents), one value for every axis, or
 * one per axis. */
static bool
parse_output_size(const OpSite *s, int nsp, int64_t *size, int *n)
{
  if (!op_nn_attr_ints(s, "output_size", size, nsp, n))
    return false;
  if (*n > 1 && *n != nsp)
    return op_fail(s, "output_size must have 1 or %d values, not %d", nsp, *n);
  for (int a = *n; a < nsp && *n == 1; a++)
    size[a] = size[0];
  for (int i = 0; i < *n; i++) {
    if (size[i] <= 0)
      return op_fail(s, "output_size must be positive, got %lld", (long long)size[i]);
  }
  return true;
}

/* The pools' inference, the adaptive pool's too: each spatial extent is
 * the window's output extent, or the adaptive pool's output_size (the
 * input's extent when None). */
IrSInfo *
op_nn_infer_pool(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  Window w;
  IrSInfo *xt;
  IrPrimExpr **x;
  int64_t size[CONV_SP];
  int n = 0;
  if (!op_conv_parse_window(s, &w) ||
      (w.kind == NN_WIN_ADAPTIVE && !parse_output_size(s, w.nsp, size, &n)) ||
      !op_conv_window_arg(in, s, args, 0, "data", &w.data, &xt, &x))
    return NULL;
  if (!x)
    return ir_sinfo_tensor(in->ctx, NULL, w.out.rank, op_nn_dtype(xt), op_nn_vdevice(xt));
  IrPrimExpr *o[CONV_RANK] = {x[0], x[1]};
  for (int a = 0; a < w.nsp; a++)
    if (w.kind != NN_WIN_ADAPTIVE)
      o[2 + a] = op_conv_out_extent(in, &w, a, x[2 + a], op_nn_int(in->ctx, w.size[a]));
    else
      o[2 + a] = n ? op_nn_int(in->ctx, size[a]) : x[2 + a];
  return op_conv_tensor_in_layout(in, o, &w.out, op_nn_dtype(xt), op_nn_vdevice(xt));
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

/* One output element i of a pool (k unused). */
static double
pool_point(const Window *w, const View *x, const View *k, const int64_t *o, bool ints,
           int64_t *exact)
{
  bool max = w->kind == NN_WIN_MAX;
  double acc = max ? op_conv_lowest(x->t->dtype) : 0;
  *exact = (int64_t)acc; /* ints: max of integers (INT64_MIN converts exactly) */
  int64_t inside = 0, padded = 0, xi[CONV_RANK] = {o[0], o[1]}, win[CONV_SP] = {0};
  (void)k;
  do {
    bool in = true, in_pad = true;
    for (int a = 0; a < w->nsp; a++) {
      int64_t p = o[2 + a] * w->stride[a] - w->pad[a] + win[a] * w->dilation[a];
      in_pad = in_pad && p >= -w->pad[a] && p < x->dim[2 + a] + w->pad[w->nsp + a];
      in = in && p >= 0 && p < x->dim[2 + a];
      xi[2 + a] = p;
    }
    padded += in_pad;
    if (!in)
      continue;
    if (ints) {
      int64_t v = op_get_i(x->t, op_conv_at(x, xi));
      *exact = v > *exact ? v : *exact;
      continue;
    }
    double v = op_get_f(x->t, op_conv_at(x, xi));
    acc = max ? fmax(acc, v) : acc + v;
    inside++;
  } while (op_conv_next_index(win, w->size, w->nsp));
  if (max)
    return acc;
  int64_t div = w->count_include_pad ? padded : inside;
  return acc / (double)(div > 0 ? div : 1);
}

Value *
op_nn_eval_pool(OpEval *ev, const OpSite *s, Value **args)
{
  Window w;
  View x;
  int64_t o[CONV_RANK];
  if (!op_conv_parse_window(s, &w) ||
      !op_conv_view_of(s, op_nn_tensor_value(s, args, 0, "data"), &w.data, "data", &x))
    return NULL;
  o[0] = x.dim[0];
  o[1] = x.dim[1];
  for (int a = 0; a < w.nsp; a++)
    if (!op_conv_extent_value(s, &w, a, x.dim[2 + a], w.size[a], &o[2 + a]))
      return NULL;
  bool ints = w.kind == NN_WIN_MAX && op_nn_is_integer(x.t->dtype);
  return op_conv_fill_output(s, &w, x.t->dtype, o, &x, NULL, pool_point, ints);
}

/* The adaptive window of output index i: [floor(i*in/out), ceil((i+1)*in/out)). */
static void
adaptive_range(int64_t i, int64_t in, int64_t out, int64_t *start, int64_t *end)
{
  *start = i * in / out;
  *end = ((i + 1) * in + out - 1) / out;
}

/* One output element o of an adaptive pool; the output extents are
 * out's dims (k: the output's view). */
static double
adaptive_point(const Window *w, const View *x, const View *out, const int64_t *o, bool ints,
               int64_t *exact)
{
  (void)ints;
  (void)exact;
  int64_t lo[CONV_SP], span[CONV_SP], win[CONV_SP] = {0}, xi[CONV_RANK] = {o[0], o[1]};
  int64_t count = 1;
  double acc = 0;
  for (int a = 0; a < w->nsp; a++) {
    int64_t end;
    adaptive_range(o[2 + a], x->dim[2 + a], out->dim[2 + a], &lo[a], &end);
    span[a] = end - lo[a];
    count *= span[a];
  }
  if (count <= 0)
    return 0;
  do {
    for (int a = 0; a < w->nsp; a++)
      xi[2 + a] = lo[a] + win[a];
    acc += op_get_f(x->t, op_conv_at(x, xi));
  } while (op_conv_next_index(win, span, w->nsp));
  return acc / (double)count;
}

Value *
op_nn_eval_adaptive_pool(OpEval *ev, const OpSite *s, Value **args)
{
  Window w;
  View x, shape;
  int64_t size[CONV_SP], o[CONV_RANK];
  int n;
  if (!op_conv_parse_window(s, &w) || !parse_output_size(s, w.nsp, size, &n) ||
      !op_conv_view_of(s, op_nn_tensor_value(s, args, 0, "data"), &w.data, "data", &x))
    return NULL;
  o[0] = x.dim[0];
  o[1] = x.dim[1];
  for (int a = 0; a < w.nsp; a++)
    o[2 + a] = n ? size[a] : x.dim[2 + a];
  shape.rank = w.out.rank;
  memcpy(shape.dim, o, sizeof o);
  return op_conv_fill_output(s, &w, x.t->dtype, o, &x, &shape, adaptive_point, false);
}

/* ------------------------------------------------------------------ */
/* Legalization                                                        */
/* ------------------------------------------------------------------ */

/* The pools: max over the window's positions inside the input (starting
 * at the dtype's lowest value), or the sum over them divided by the
 * count of positions inside the input (or, with count_include_pad,
 * inside the padded input), at least 1.  acc holds sum/max and count. */
static IrStmt *
pool_body(OpPrim *p, const Window *w, bool max, IrBuffer *acc, IrPrimExpr *v, IrPrimExpr **pos,
          IrPrimExpr **ext)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *one = op_nn_lit(ctx, op_nn_f64_type(), 1.0);
  IrStmt *count = op_nn_acc_fold(p, acc, 1, IR_PE_ADD, one);
  IrStmt *st[2];
  st[0] = op_nn_acc_fold(p, acc, 0, max ? IR_PE_MAX : IR_PE_ADD, v);
  if (max)
    return op_nn_if(p, op_conv_inside(ctx, w, pos, ext), st[0]);
  if (!w->count_include_pad) {
    st[1] = count;
    return op_nn_if(p, op_conv_inside(ctx, w, pos, ext), op_nn_seq(p, st, 2));
  }
  /* count_include_pad: positions before the padded input cannot occur;
   * past it only with ceil_mode */
  IrPrimExpr *padded = NULL;
  for (int a = 0; a < w->nsp && w->ceil_mode; a++)
    padded = op_nn_and(ctx, padded,
                       ir_prim_bin(ctx, IR_PE_LT, pos[a],
                                   op_nn_add(ctx, ext[a], op_nn_index(ctx, w->pad[w->nsp + a]))));
  st[1] = op_nn_if(p, op_conv_inside(ctx, w, pos, ext), st[0]);
  st[0] = op_nn_if(p, padded, count);
  return op_nn_seq(p, st, 2);
}

/* The output columns whose window lies inside the input along axis a:
 * [*lo, *hi), o * stride - pad_before >= 0 and the last window position
 * o * stride - pad_before + (size - 1) * dilation < in; both clamped to
 * [0, out], *hi >= *lo. */
static void
interior(const Window *w, int a, int64_t in, int64_t out, int64_t *lo, int64_t *hi)
{
  int64_t s = w->stride[a], pad = w->pad[a];
  int64_t last = in - 1 - (w->size[a] - 1) * w->dilation[a] + pad; /* o * s <= last */
  *lo = (pad + s - 1) / s;
  *hi = last < 0 ? 0 : last / s + 1;
  if (*lo > out)
    *lo = out;
  if (*hi > out)
    *hi = out;
  if (*hi < *lo)
    *hi = *lo;
}

/* The condition that position pos along axis a (0: H, 1: W) lies inside
 * the input of extent ext, or NULL when no window leaves it there. */
static IrPrimExpr *
axis_inside(IrCtx *ctx, const Window *w, int a, IrPrimExpr *pos, int64_t ext)
{
  IrPrimExpr *cond = NULL;
  if (w->pad[a] > 0)
    cond = ir_prim_bin(ctx, IR_PE_GE, pos, op_nn_index(ctx, 0));
  if (w->pad[a + 2] > 0 || w->ceil_mode)
    cond = op_nn_and(ctx, cond, ir_prim_bin(ctx, IR_PE_LT, pos, op_nn_index(ctx, ext)));
  return cond;
}

/* What pool_rows' pieces share. */
typedef struct {
  const Window *w;
  bool max;
  BufView x, out;
  IrBuffer *acc;          /* [OW] of float32 or x's integer dtype: the row's max or sum */
  IrPrimExpr *n, *c, *y;  /* loop vars: image, channel, output row */
  int64_t in[2], size[2]; /* input H, W; output H, W */
} PoolRow;

/* One loop over output columns first + [0, count), NULL when count is 0;
 * *col gets the column (first + the loop var). */
static IrStmt **
column_loop(OpPrim *p, int64_t first, int64_t count, IrPrimExpr **col, IrStmt **loop)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *ext = op_nn_index(ctx, count), **v;
  if (count <= 0)
    return NULL;
  IrStmt **slot = op_prim_loop_nest(p, &ext, 1, &v, loop);
  *col = op_nn_add(ctx, op_nn_index(ctx, first), v[0]);
  return slot;
}

/* acc[col] = max(acc[col], x) or acc[col] + x for the columns first +
 * [0, count) at window position (iy, kx), guarded when the window of a
 * column can leave the input; NULL when count is 0. */
static IrStmt *
accumulate(OpPrim *p, const PoolRow *r, IrPrimExpr *iy, IrPrimExpr *kx, int64_t first,
           int64_t count, bool guard)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *col;
  IrStmt *loop, **slot = column_loop(p, first, count, &col, &loop);
  if (!slot)
    return NULL;
  IrPrimExpr *ix = op_conv_input_pos(ctx, r->w, 1, col, kx);
  IrPrimExpr *v = op_conv_load_raw(p, &r->x, r->n, r->c, iy, ix);
  IrStmt *set = op_prim_store_at(
      p, r->acc, col,
      ir_prim_bin(ctx, r->max ? IR_PE_MAX : IR_PE_ADD, op_prim_load_at(p, r->acc, col), v));
  *slot = guard ? op_nn_if(p, axis_inside(ctx, r->w, 1, ix, r->in[1]), set) : set;
  return loop;
}

/* The number of positions of a window along axis a at output index o
 * that count for the mean (dilation 1): inside the input, or with
 * count_include_pad inside the padded input. */
static IrPrimExpr *
axis_count(IrCtx *ctx, const PoolRow *r, int a, IrPrimExpr *o)
{
  const Window *w = r->w;
  IrPrimExpr *start = op_conv_input_pos(ctx, w, a, o, op_nn_index(ctx, 0));
  int64_t first = w->count_include_pad ? -w->pad[a] : 0;
  int64_t end = r->in[a] + (w->count_include_pad ? w->pad[a + 2] : 0);
  IrPrimExpr *hi = ir_prim_bin(ctx, IR_PE_MIN, op_nn_add(ctx, start, op_nn_index(ctx, w->size[a])),
                               op_nn_index(ctx, end));
  return op_nn_sub(ctx, hi, ir_prim_bin(ctx, IR_PE_MAX, start, op_nn_index(ctx, first)));
}

/* The output row: acc[col] as it is (max), or divided by the count of the
 * window's positions (at least 1). */
static IrStmt *
store_row(OpPrim *p, const PoolRow *r)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *col;
  IrStmt *loop, **slot = column_loop(p, 0, r->size[1], &col, &loop);
  IrPrimExpr *v = op_prim_load_at(p, r->acc, col);
  if (!r->max) {
    IrPrimExpr *count = op_nn_mul(ctx, axis_count(ctx, r, 0, r->y), axis_count(ctx, r, 1, col));
    count = ir_prim_bin(ctx, IR_PE_MAX, count, op_nn_index(ctx, 1));
    v = ir_prim_bin(ctx, IR_PE_DIV, v, op_nn_to(ctx, IR_F32, count));
  }
  IrPrimExpr *o[4] = {r->n, r->c, r->y, col};
  *slot = op_conv_store(p, &r->out, o, v);
  return loop;
}

/* The window's loops: for ky, when window row ky of output row y is
 * inside the input (one test, outside the column loops, left out when
 * every window row of every output row is), for kx, the
 * column loops: [0, lo) guarded, [lo, hi) not, [hi, OW) guarded. */
static IrStmt *
window_rows(OpPrim *p, const PoolRow *r, int64_t lo, int64_t hi)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *ext = op_nn_index(ctx, r->w->size[0]), **ky, **kx;
  IrStmt *rows, **row = op_prim_loop_nest(p, &ext, 1, &ky, &rows);
  IrPrimExpr *iy = op_conv_input_pos(ctx, r->w, 0, r->y, ky[0]);
  ext = op_nn_index(ctx, r->w->size[1]);
  IrStmt *cols, **col = op_prim_loop_nest(p, &ext, 1, &kx, &cols);
  IrStmt *part[3];
  int n = 0;
  int64_t first[3] = {0, lo, hi}, count[3] = {lo, hi - lo, r->size[1] - hi};
  for (int i = 0; i < 3; i++)
    if ((part[n] = accumulate(p, r, iy, kx[0], first[i], count[i], i != 1)))
      n++;
  *col = op_nn_seq(p, part, n);
  int64_t top, bottom; /* output rows whose window rows are all inside */
  interior(r->w, 0, r->in[0], r->size[0], &top, &bottom);
  bool all_inside = top == 0 && bottom == r->size[0];
  *row = op_nn_if(p, all_inside ? NULL : axis_inside(ctx, r->w, 0, iy, r->in[0]), cols);
  return rows;
}

/* Whether the call takes pool_rows or pool_blocks (file comment): 2-D,
 * float32 data and output (or, for the max, integers, kept in their
 * dtype), static spatial extents (in: the input's, size: the output's),
 * dilation 1 for the mean. */
static bool
pool_static(const Window *w, bool max, BufView *x, BufView *out, int64_t *in, int64_t *size)
{
  bool f32 = op_conv_is_f32(x->b) && op_conv_is_f32(out->b);
  if (w->nsp != 2 || !(f32 || (max && op_nn_is_integer(x->b->dtype))) ||
      (!max && (w->dilation[0] != 1 || w->dilation[1] != 1)))
    return false;
  for (int a = 0; a < 2; a++)
    if (!ir_prim_is_int(op_conv_dim(x, 2 + a), &in[a]) ||
        !ir_prim_is_int(op_conv_dim(out, 2 + a), &size[a]) || size[a] < 1)
      return false;
  return true;
}

/* pool_rows (file comment): emits it and returns true, or returns false
 * (nothing emitted) when the call does not fit pool_static. */
static bool
pool_rows(OpPrim *p, const Window *w, bool max, BufView *x, BufView *out)
{
  IrCtx *ctx = p->lz->ctx;
  PoolRow r = {w, max, *x, *out, NULL, NULL, NULL, NULL, {0, 0}, {0, 0}};
  if (!pool_static(w, max, x, out, r.in, r.size))
    return false;
  int64_t lo, hi;
  interior(w, 1, r.in[1], r.size[1], &lo, &hi);
  IrPrimExpr *ext[3] = {op_conv_dim(out, 0), op_conv_dim(out, 1), op_nn_index(ctx, r.size[0])}, **v;
  IrStmt **slot = op_prim_loops(p, ext, 3, &v);
  IrPrimExpr *acc_shape[1] = {op_nn_index(ctx, r.size[1])};
  IrDType t = op_conv_is_f32(x->b) ? IR_F32 : x->b->dtype;
  r.acc = op_prim_alloc(p, t, acc_shape, 1, "acc");
  r.n = v[0], r.c = v[1], r.y = v[2];
  IrPrimExpr *col;
  IrStmt *st[3], *loop, **init = column_loop(p, 0, r.size[1], &col, &loop);
  *init = op_prim_store_at(p, r.acc, col, op_nn_lit(ctx, t, max ? op_conv_lowest(t) : 0.0));
  st[0] = loop;
  st[1] = window_rows(p, &r, lo, hi);
  st[2] = store_row(p, &r);
  *slot = op_nn_seq(p, st, 3);
  return true;
}

enum {
  POOL_MAX_TAPS = 64, /* a window's taps pool_blocks writes out: more take pool_rows */
  POOL_PATTERN = 3,   /* FuseOps's comm-reduce: pool_blocks' nests keep no state,
                         and would otherwise read as injective (OpPrim.pattern) */
  POOL_MAX_SPANS = 8, /* runs of one axis (the blocks are their products): more take pool_rows */
};

/* A run of output indices along one axis whose windows meet the input at
 * the same window positions. */
typedef struct {
  int64_t first, count; /* the output indices [first, first + count) */
  int64_t lo, hi;       /* the window positions inside the input: [lo, hi) */
  int64_t divisor;      /* the mean's count along the axis (axis_count's) */
} Span;

/* The window positions k of output index o along axis a with o * stride -
 * pad_before + k * dilation inside [0, in), and the mean's count there:
 * the positions inside the input, or with count_include_pad inside the
 * padded input (dilation 1), as axis_count computes it. */
static Span
window_span(const Window *w, int a, int64_t in, int64_t o)
{
  int64_t start = o * w->stride[a] - w->pad[a], d = w->dilation[a], size = w->size[a];
  Span s = {o, 1, 0, 0, 0};
  s.lo = start >= 0 ? 0 : (-start + d - 1) / d;
  s.hi = start >= in ? 0 : (in - start + d - 1) / d;
  s.lo = s.lo < size ? s.lo : size;
  s.hi = s.hi < size ? s.hi : size;
  s.hi = s.hi > s.lo ? s.hi : s.lo;
  int64_t first = w->count_include_pad ? -w->pad[a] : 0;
  int64_t end = in + (w->count_include_pad ? w->pad[a + 2] : 0);
  int64_t hi = start + size < end ? start + size : end;
  s.divisor = hi - (start > first ? start : first);
  return s;
}

/* The runs of axis a (out indices over an input of in) into span; their
 * number, or 0 when there would be more than POOL_MAX_SPANS. */
static int
axis_spans(const Window *w, int a, int64_t in, int64_t out, Span *span)
{
  int n = 0;
  for (int64_t o = 0; o < out; o++) {
    Span s = window_span(w, a, in, o);
    Span *last = n ? &span[n - 1] : NULL;
    if (last && last->lo == s.lo && last->hi == s.hi && last->divisor == s.divisor) {
      last->count++;
      continue;
    }
    if (n == POOL_MAX_SPANS)
      return 0;
    span[n++] = s;
  }
  return n;
}

/* What pool_blocks' blocks share. */
typedef struct {
  const Window *w;
  bool max;
  BufView x, out;
  IrDType t;          /* the fold's: float32, or the integers' own */
  IrPrimExpr *n, *c;  /* loop vars: image, channel */
} PoolPlane;

/* The fold (file comment) of the taps of output element (y, z) inside
 * the input, which are those of every element of the block of runs ry by
 * rx; the mean divided by the count. */
static IrPrimExpr *
window_fold(OpPrim *p, const PoolPlane *q, const Span *ry, const Span *rx, IrPrimExpr *y,
            IrPrimExpr *z)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *v = q->max ? NULL : op_nn_lit(ctx, q->t, 0.0);
  for (int64_t ky = ry->lo; ky < ry->hi; ky++)
    for (int64_t kx = rx->lo; kx < rx->hi; kx++) {
      IrPrimExpr *iy = op_conv_input_pos(ctx, q->w, 0, y, op_nn_index(ctx, ky));
      IrPrimExpr *ix = op_conv_input_pos(ctx, q->w, 1, z, op_nn_index(ctx, kx));
      IrPrimExpr *tap = op_conv_load_raw(p, &q->x, q->n, q->c, iy, ix);
      v = v ? ir_prim_bin(ctx, q->max ? IR_PE_MAX : IR_PE_ADD, v, tap) : tap;
    }
  if (q->max)
    return v ? v : op_nn_lit(ctx, q->t, op_conv_lowest(q->t));
  int64_t count = ry->divisor * rx->divisor;
  return ir_prim_bin(ctx, IR_PE_DIV, v, op_nn_lit(ctx, q->t, (double)(count > 1 ? count : 1)));
}

/* The nest over the block's rows and columns that stores each element's
 * fold. */
static IrStmt *
block(OpPrim *p, const PoolPlane *q, const Span *ry, const Span *rx)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *ext[2] = {op_nn_index(ctx, ry->count), op_nn_index(ctx, rx->count)}, **v;
  IrStmt *nest, **body = op_prim_loop_nest(p, ext, 2, &v, &nest);
  IrPrimExpr *y = op_nn_add(ctx, op_nn_index(ctx, ry->first), v[0]);
  IrPrimExpr *z = op_nn_add(ctx, op_nn_index(ctx, rx->first), v[1]);
  IrPrimExpr *o[4] = {q->n, q->c, y, z};
  *body = op_conv_store(p, &q->out, o, window_fold(p, q, ry, rx, y, z));
  return nest;
}

/* pool_blocks (file comment): emits it and returns true, or returns false
 * (nothing emitted) when the call does not fit pool_static, its window
 * has more than POOL_MAX_TAPS taps or an axis more than POOL_MAX_SPANS
 * runs. */
static bool
pool_blocks(OpPrim *p, const Window *w, bool max, BufView *x, BufView *out)
{
  int64_t in[2], size[2];
  Span ry[POOL_MAX_SPANS], rx[POOL_MAX_SPANS];
  int ny, nx;
  if (!pool_static(w, max, x, out, in, size) || w->size[0] * w->size[1] > POOL_MAX_TAPS ||
      !(ny = axis_spans(w, 0, in[0], size[0], ry)) || !(nx = axis_spans(w, 1, in[1], size[1], rx)))
    return false;
  PoolPlane q = {w, max, *x, *out, op_conv_is_f32(x->b) ? IR_F32 : x->b->dtype, NULL, NULL};
  IrPrimExpr *ext[2] = {op_conv_dim(out, 0), op_conv_dim(out, 1)}, **v;
  IrStmt **slot = op_prim_loops(p, ext, 2, &v);
  q.n = v[0], q.c = v[1];
  IrStmt *st[POOL_MAX_SPANS * POOL_MAX_SPANS];
  for (int i = 0; i < ny; i++)
    for (int j = 0; j < nx; j++)
      st[i * nx + j] = block(p, &q, &ry[i], &rx[j]);
  *slot = op_nn_seq(p, st, ny * nx);
  return true;
}

IrExpr *
op_nn_legalize_pool(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  IrDType f64 = op_nn_f64_type();
  const char *name = ((const NnWindow *)op_of(s->call->u.call.op)->data)->name;
  Window w;
  OpPrim p;
  BufView x, out;
  IrPrimExpr *o[CONV_RANK], **r;
  if (!op_conv_parse_window(s, &w))
    return NULL;
  bool max = w.kind == NN_WIN_MAX;
  op_prim_begin(lz, &p, name);
  if (!op_conv_buffers(&p, &w, s->call, result, name, &x, &out))
    return NULL;
  if (pool_blocks(&p, &w, max, &x, &out)) {
    p.pattern = POOL_PATTERN;
    return op_prim_finish(&p, s->call, result);
  }
  if (pool_rows(&p, &w, max, &x, &out))
    return op_prim_finish(&p, s->call, result);
  IrStmt **slot = op_conv_loops(&p, &w, &out, o);
  /* the max of integers in their own dtype (exact, no float) */
  IrDType t = max && op_nn_is_integer(x.b->dtype) ? x.b->dtype : f64;
  IrBuffer *acc = op_nn_acc_typed(&p, max ? 1 : 2, t);
  IrPrimExpr *extent[CONV_SP], *pos[CONV_SP], *ext[CONV_SP], *xi[CONV_RANK] = {o[0], o[1]};
  for (int a = 0; a < w.nsp; a++)
    extent[a] = op_nn_index(ctx, w.size[a]);
  IrStmt *loops, **body = op_prim_loop_nest(&p, extent, w.nsp, &r, &loops);
  for (int a = 0; a < w.nsp; a++) {
    pos[a] = xi[2 + a] = op_conv_input_pos(ctx, &w, a, o[2 + a], r[a]);
    ext[a] = op_conv_dim(&x, 2 + a);
  }
  *body = pool_body(&p, &w, max, acc, op_nn_to(ctx, t, op_conv_load_at(&p, &x, xi)), pos, ext);
  IrStmt *init[2] = {
      op_nn_acc_set(&p, acc, 0, op_nn_lit(ctx, t, max ? op_conv_lowest(x.b->dtype) : 0.0)),
      max ? NULL : op_nn_acc_set(&p, acc, 1, op_nn_lit(ctx, f64, 0.0))};
  IrPrimExpr *v = max ? op_nn_acc(&p, acc, 0)
                      : ir_prim_bin(ctx, IR_PE_DIV, op_nn_acc(&p, acc, 0),
                                    ir_prim_bin(ctx, IR_PE_MAX, op_nn_acc(&p, acc, 1),
                                                op_nn_lit(ctx, f64, 1.0)));
  *slot =
      op_conv_element(&p, op_nn_seq(&p, init, max ? 1 : 2), loops, op_conv_store(&p, &out, o, v));
  return op_prim_finish(&p, s->call, result);
}

/* One bound of an adaptive window, bound by a let around body:
 * start = (i * in) // out, end = ((i + 1) * in + out - 1) // out. */
static IrStmt *
let_bound(OpPrim *p, IrPrimExpr *var, IrPrimExpr *value, IrStmt *body)
{
  IrStmt *s = ir_stmt_new(p->lz->ctx, IR_ST_LET, p->lz->loc);
  s->u.let.var = var;
  s->u.let.value = value;
  s->u.let.body = body;
  return s;
}

IrExpr *
op_nn_legalize_adaptive_pool(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  const char *name = ((const NnWindow *)op_of(s->call->u.call.op)->data)->name;
  Window w;
  OpPrim p;
  BufView x, out;
  IrPrimExpr *o[CONV_RANK], **r, *start[CONV_SP], *end[CONV_SP], *span[CONV_SP];
  if (!op_conv_parse_window(s, &w))
    return NULL;
  op_prim_begin(lz, &p, name);
  IrStmt **slot = op_conv_begin(&p, &w, s->call, result, "adaptive_pool_avg", &x, &out, o);
  if (!slot)
    return NULL;
  /* float32 sums as TVM's (TOPI's adaptive_pool), else float64 */
  bool f32 = op_conv_is_f32(x.b) && op_conv_is_f32(out.b);
  IrDType t = f32 ? IR_F32 : op_nn_f64_type();
  IrPrimExpr *one[1] = {op_nn_index(ctx, 1)}, *zero = op_nn_index(ctx, 0);
  IrBuffer *acc = op_prim_alloc(&p, t, one, 1, "acc");
  static const char *const names[CONV_SP][2] = {{"d0", "d1"}, {"y0", "y1"}, {"x0", "x1"}};
  IrPrimExpr *count = NULL, *xi[CONV_RANK] = {o[0], o[1]};
  for (int a = 0; a < w.nsp; a++) {
    const char *const *nm = names[CONV_SP - w.nsp + a];
    start[a] = ir_prim_var(ctx, ir_sym(ctx, nm[0]), IR_I64);
    end[a] = ir_prim_var(ctx, ir_sym(ctx, nm[1]), IR_I64);
    span[a] = op_nn_sub(ctx, end[a], start[a]);
    count = count ? op_nn_mul(ctx, count, span[a]) : span[a];
  }
  IrStmt *loops, **body = op_prim_loop_nest(&p, span, w.nsp, &r, &loops);
  for (int a = 0; a < w.nsp; a++)
    xi[2 + a] = op_nn_add(ctx, start[a], r[a]);
  IrPrimExpr *v = op_nn_to(ctx, t, op_conv_load_at(&p, &x, xi));
  IrPrimExpr *sum = op_prim_load_at(&p, acc, zero);
  *body = op_prim_store_at(&p, acc, zero, ir_prim_bin(ctx, IR_PE_ADD, sum, v));
  count = op_nn_to(ctx, t, ir_prim_bin(ctx, IR_PE_MAX, count, op_nn_index(ctx, 1)));
  IrStmt *stmt =
      op_conv_element(&p, op_prim_store_at(&p, acc, zero, op_nn_lit(ctx, t, 0.0)), loops,
                      op_conv_store(&p, &out, o, ir_prim_bin(ctx, IR_PE_DIV, sum, count)));
  for (int a = w.nsp - 1; a >= 0; a--) {
    IrPrimExpr *in = op_conv_dim(&x, 2 + a), *n_out = op_conv_dim(&out, 2 + a), *i = o[2 + a];
    IrPrimExpr *hi = op_nn_sub(
        ctx, op_nn_add(ctx, op_nn_mul(ctx, op_nn_add(ctx, i, op_nn_index(ctx, 1)), in), n_out),
        op_nn_index(ctx, 1));
    stmt = let_bound(&p, end[a], op_nn_floordiv(ctx, hi, n_out), stmt);
    stmt = let_bound(&p, start[a], op_nn_floordiv(ctx, op_nn_mul(ctx, i, in), n_out), stmt);
  }
  *slot = stmt;
  return op_prim_finish(&p, s->call, result);
}
