/*
 * fake_quant_to_int.c - FakeQuantizationToInteger: the quantized layers of
 * a QDQ model become integer arithmetic.  A QDQ model (ONNX's QDQ form,
 * samples/digits_cnn_int8.py) computes in float between R.dequantize and
 * R.quantize pairs; this pass rewrites
 *
 *   y = R.quantize(act(conv2d(dq(xq), dq(wq)) + dq(bias)), sy, zy)
 *   y = R.quantize(act(matmul(dq(xq), [permute_dims] dq(wq)) + dq(bias)), sy, zy)
 *
 *   y = R.quantize(act(dq(aq) + dq(bq)), sy, zy)
 *
 * (act: none, R.nn.relu or R.clip; the bias add optional) into int8
 * operands, an int32 accumulator and a requantization whose multiplier and
 * shift are computed here, so the kernels they lower to use no floating
 * point at run time.  It also moves R.dequantize below R.nn.max_pool2d,
 * R.reshape and R.permute_dims (which commute with a per-tensor affine map
 * of positive scale), so that a pooled, flattened activation reaches the
 * next layer still quantized.  TVM's Relay had a pass of this name and
 * purpose; its rounding is rxc's own, stated below.
 *
 * Key idea: everything that depends only on constants is folded here.
 * With activations q = round(v / s) + z and weights w = sw[c] * wq (zero
 * point 0), a layer's value before quantization is
 *
 *   v[c] = sx * sw[c] * (sum (xq - zx) * wq + bias[c])      (bias scale sx * sw[c])
 *
 * so the output is zy + round(acc[c] * m[c]) with m[c] = sx * sw[c] / sy
 * and acc[c] = sum xq * wq + (bias[c] - zx * sum wq): the zero-point term is
 * a constant per channel folded into the bias.  (A convolution that pads
 * pads xq with zx, the quantized real 0, first.)  m[c] is written as
 * M[c] * 2^-S[c] with M in [2^30, 2^31), and round(acc * m) is computed as
 * (acc * M + 2^(S-1)) >> S in int64: round to nearest, ties up (CMSIS-NN's
 * single rounding).  R.quantize rounds ties to even; the two differ only
 * where acc * m is exactly halfway, which needs acc * M to be a multiple
 * of 2^(S-1): common only when m is a power of two.  (Ties to even would
 * need the quotient twice, and a value used twice is a tensor FuseTIR
 * cannot keep in registers.)  relu
 * and clip become the clamp bounds (quantization is monotonic, so clamping
 * before it or after it agree).
 *
 * The rewrite is emitted as standard Relax ops (R.nn.pad, R.nn.conv2d or
 * R.matmul with out_dtype int32, R.add, R.astype, R.multiply,
 * R.right_shift, R.clip), each value used once, which FuseOps and FuseTIR
 * join into one kernel that keeps them in registers; the float chain it replaces is left for
 * DeadCodeElimination.
 *
 * It fires only where every scale and zero point is a constant (after
 * BindParams), the weights are constant int8 with zero point 0 (one scale,
 * or one per output channel), the input activation is int8 with one scale
 * and zero point, the bias (if any) is int32 with zero point 0 and scale
 * sx * sw[c] (to float32 rounding), and the sums provably fit: int32 for
 * the accumulator, int64 for t.  Anything else stays as it is, computed in
 * float, and is correct either way.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/op.h"
#include "opt.h"
#include "opt_int.h"

typedef struct {
  IrMap defs; /* var -> its value, as rewritten */
  IrLoc loc;  /* of the binding being rewritten */
  Rewriter *rw;
} Fq;

/* A dequantize with constant scale and zero point. */
typedef struct {
  const IrExpr *call;
  const IrExpr *data;             /* the quantized tensor */
  const IrTensorData *scale, *zp; /* constants */
  int axis;                       /* normalized; -1 when per-tensor */
} Dq;

/* A layer's output channels: C of them, each with a multiplier and a bias. */
typedef struct {
  int64_t c;      /* output channels */
  int64_t k;      /* terms of one sum (reduction length) */
  double *wscale; /* C: the weight scale of each channel */
  int64_t *wsum;  /* C: the sum of each channel's weights */
  int64_t *bias;  /* C: int32 bias, or zeros */
} Chan;

/* --- reading the pattern ----------------------------------------------------- */

static const IrExpr *
def_of(Fq *q, const IrExpr *e)
{
  if (e && e->kind == IR_EX_VAR) {
    const IrExpr *v = ir_map_get(&q->defs, e);
    return v ? v : e;
  }
  return e;
}

/* The call of op id that e is (or a var bound to), or NULL. */
static const IrExpr *
call_of(Fq *q, const IrExpr *e, IrOpId id)
{
  e = def_of(q, e);
  return e && e->kind == IR_EX_CALL && e->u.call.kind == IR_CALL_OP && e->u.call.op->id == id
             ? e
             : NULL;
}

static const IrTensorData *
const_of(const IrExpr *e)
{
  return e && e->kind == IR_EX_CONST ? &e->u.constant : NULL;
}

static bool
dtype_is(IrDType t, IrDTypeCode code, int bits)
{
  return t.code == code && t.bits == bits && t.lanes == 1;
}

static bool
attr_is(const IrExpr *call, const char *name, const char *value)
{
  const IrAttr *a = op_attr(call, name);
  return a && a->kind == IR_AT_STR && strcmp(a->u.s, value) == 0;
}

static bool
attr_none(const IrExpr *call, const char *name)
{
  const IrAttr *a = op_attr(call, name);
  return a && a->kind == IR_AT_NONE;
}

/* The ints of a list attribute, at most max of them; the count, or -1. */
static int
attr_ints(const IrExpr *call, const char *name, int64_t *out, int max)
{
  const IrAttr *a = op_attr(call, name);
  if (!a || a->kind != IR_AT_LIST || a->u.list.n > max)
    return -1;
  for (int i = 0; i < a->u.list.n; i++) {
    if (a->u.list.items[i]->kind != IR_AT_INT)
      return -1;
    out[i] = a->u.list.items[i]->u.i;
  }
  return a->u.list.n;
}

static int
tensor_ndim(const IrExpr *e)
{
  const IrSInfo *s = e ? e->sinfo : NULL;
  return s && s->kind == IR_SI_TENSOR ? s->u.tensor.ndim : -1;
}

static IrDType
tensor_dtype(const IrExpr *e)
{
  const IrSInfo *s = e ? e->sinfo : NULL;
  return s && s->kind == IR_SI_TENSOR ? s->u.tensor.dtype : IR_VOID;
}

/* e is dequantize(data, scale, zp) to float32 with constant, positive,
 * finite scales and integer zero points (a var bound to a constant counts
 * as the constant; d->data is the constant then). */
static bool
dq_of(Fq *q, const IrExpr *e, Dq *d)
{
  const IrExpr *c = call_of(q, e, IR_OP_DEQUANTIZE);
  if (!c || !attr_is(c, "out_dtype", "float32"))
    return false;
  d->call = c;
  d->data = c->u.call.args[0];
  d->data = def_of(q, d->data)->kind == IR_EX_CONST ? def_of(q, d->data) : d->data;
  d->scale = const_of(def_of(q, c->u.call.args[1]));
  d->zp = const_of(def_of(q, c->u.call.args[2]));
  if (!d->scale || !d->zp || d->scale->dtype.code != IR_DT_FLOAT)
    return false;
  for (int64_t i = 0; i < op_numel(d->scale); i++) {
    double s = op_get_f(d->scale, i);
    if (!(s > 0) || !isfinite(s))
      return false;
  }
  int64_t ns = op_numel(d->scale), nz = op_numel(d->zp);
  if (ns == 1 && nz == 1) {
    d->axis = -1;
    return true;
  }
  const IrAttr *a = op_attr(c, "axis");
  int ndim = d->data->kind == IR_EX_CONST ? d->data->u.constant.ndim : tensor_ndim(d->data);
  if (!a || a->kind != IR_AT_INT || ndim <= 0)
    return false;
  d->axis = (int)(a->u.i < 0 ? a->u.i + ndim : a->u.i);
  return d->axis >= 0 && d->axis < ndim;
}

/* d is per-tensor over int8 data (an activation). */
static bool
dq_activation(const Dq *d)
{
  return d->axis < 0 && dtype_is(tensor_dtype(d->data), IR_DT_INT, 8);
}

/* d's scale for channel c (its only one when per-tensor). */
static double
dq_scale(const Dq *d, int64_t c)
{
  return op_get_f(d->scale, op_numel(d->scale) == 1 ? 0 : c);
}

/* d dequantizes constant int8 weights with zero point 0, one scale or one
 * per index of dim axis (which has c entries). */
static const IrTensorData *
dq_weights(const Dq *d, int axis, int64_t c)
{
  const IrTensorData *w = const_of(d->data);
  if (!w || !dtype_is(w->dtype, IR_DT_INT, 8))
    return NULL;
  for (int64_t i = 0; i < op_numel(d->zp); i++)
    if (op_get_i(d->zp, i) != 0)
      return NULL;
  if (op_numel(d->scale) != 1 && (d->axis != axis || op_numel(d->scale) != c))
    return NULL;
  return w;
}

/* The scalar value of a constant or R.prim_value argument. */
static bool
scalar_of(const IrExpr *e, double *out)
{
  const IrTensorData *t = const_of(e);
  if (t && op_numel(t) == 1) {
    *out = op_get_f(t, 0);
    return true;
  }
  if (e && e->kind == IR_EX_PRIM && e->u.prim) {
    const IrPrimExpr *p = e->u.prim;
    if (p->kind == IR_PE_INT) {
      *out = (double)p->u.int_value;
      return true;
    }
    if (p->kind == IR_PE_FLOAT) {
      *out = p->u.float_value;
      return true;
    }
  }
  return false;
}

/* --- building the rewrite ------------------------------------------------------ */

/* A call of op id (its struct info is filled in by Normalize at the end of
 * the pass); args are copied. */
static IrExpr *
call(Fq *q, IrOpId id, IrExpr **args, int nargs, IrAttr *attrs)
{
  IrCtx *ctx = q->rw->ctx;
  IrExpr **a = ir_alloc(ctx, sizeof *a * (size_t)nargs);
  memcpy(a, args, sizeof *a * (size_t)nargs);
  return ir_call_op(ctx, &op_def(id)->syn, a, nargs, attrs, q->loc);
}

/* Binds a call of op id before the binding being rewritten; its var, typed
 * by the op's inference (later matches read it). */
static IrExpr *
emit(Fq *q, const char *name, IrOpId id, IrExpr **args, int nargs, IrAttr *attrs)
{
  return opt_rw_bind_op(q->rw, name, id, args, nargs, attrs, q->loc);
}

/* A constant of dtype t and the given shape from n int64 values (n ==
 * numel). */
static IrExpr *
constant(Fq *q, IrDType t, const int64_t *shape, int ndim, const int64_t *v, int64_t n)
{
  IrCtx *ctx = q->rw->ctx;
  IrTensorData d = {.dtype = t, .ndim = ndim};
  d.shape = ir_alloc(ctx, sizeof(int64_t) * (size_t)(ndim + 1));
  if (ndim)
    memcpy(d.shape, shape, sizeof(int64_t) * (size_t)ndim);
  d.nbytes = (size_t)n * (size_t)ir_dtype_bytes(t);
  d.data = ir_alloc(ctx, d.nbytes ? d.nbytes : 1);
  for (int64_t i = 0; i < n; i++)
    op_set_i(&d, i, v[i]);
  return ir_const_new(ctx, &d, q->loc);
}

/* Per-channel values v (C of them) as a constant that broadcasts along the
 * channel dim of the result (chan_dims trailing dims after it), or a 0-d
 * one when all are equal. */
static IrExpr *
per_channel(Fq *q, IrDType t, const int64_t *v, int64_t c, int chan_dims)
{
  bool same = true;
  for (int64_t i = 1; i < c; i++)
    same = same && v[i] == v[0];
  if (same)
    return constant(q, t, NULL, 0, v, 1);
  int64_t shape[4] = {c, 1, 1, 1};
  return constant(q, t, shape, 1 + chan_dims, v, c);
}

static IrAttr *
dtype_attrs(IrCtx *ctx, const char *key, const char *dtype)
{
  IrSym k = ir_sym(ctx, key);
  IrAttr *v = ir_attr_str(ctx, ir_sym(ctx, dtype));
  return ir_attr_dict(ctx, &k, &v, 1);
}

static IrAttr *
int_list(IrCtx *ctx, const int64_t *v, int n)
{
  IrAttr **items = ir_alloc(ctx, sizeof *items * (size_t)n);
  for (int i = 0; i < n; i++)
    items[i] = ir_attr_int(ctx, v[i]);
  return ir_attr_list(ctx, items, n);
}

/* --- the layers ------------------------------------------------------------------ */

/* conv2d(dq(xq), dq(w)) in NCHW / OIHW: the int32 accumulator of
 * sum xq * wq (xq padded with zx), and ch filled in. */
static IrExpr *
int_conv2d(Fq *q, const IrExpr *conv, const Dq *x, Chan *ch)
{
  IrCtx *ctx = q->rw->ctx;
  Dq w;
  if (!attr_is(conv, "data_layout", "NCHW") || !attr_is(conv, "kernel_layout", "OIHW") ||
      !(attr_is(conv, "out_layout", "NCHW") || attr_none(conv, "out_layout")) ||
      !(attr_is(conv, "out_dtype", "void") || attr_is(conv, "out_dtype", "float32")) ||
      !dq_of(q, conv->u.call.args[1], &w))
    return NULL;
  const IrTensorData *wt = const_of(w.data);
  if (!wt || wt->ndim != 4)
    return NULL;
  int64_t o = wt->shape[0];
  if (!dq_weights(&w, 0, o))
    return NULL;
  int64_t pad[4];
  if (attr_ints(conv, "padding", pad, 4) != 4)
    return NULL;
  ch->c = o;
  ch->k = wt->shape[1] * wt->shape[2] * wt->shape[3];
  ch->wscale = ir_alloc(ctx, sizeof(double) * (size_t)o);
  ch->wsum = ir_alloc(ctx, sizeof(int64_t) * (size_t)o);
  for (int64_t c = 0; c < o; c++) {
    ch->wscale[c] = dq_scale(&w, c);
    ch->wsum[c] = 0;
    for (int64_t i = 0; i < ch->k; i++)
      ch->wsum[c] += op_get_i(wt, c * ch->k + i);
  }
  int64_t zx = op_get_i(x->zp, 0);
  IrExpr *data = (IrExpr *)x->data;
  IrAttr *attrs = ir_attr_dict_set(ctx, conv->u.call.attrs, ir_sym(ctx, "out_dtype"),
                                   ir_attr_str(ctx, ir_sym(ctx, "int32")));
  if (zx != 0 && (pad[0] || pad[1] || pad[2] || pad[3])) {
    /* the padding is real 0, which is zx once quantized */
    int64_t width[8] = {0, 0, 0, 0, pad[0], pad[2], pad[1], pad[3]}, none[4] = {0, 0, 0, 0};
    IrSym keys[3] = {ir_sym(ctx, "pad_width"), ir_sym(ctx, "pad_mode"), ir_sym(ctx, "pad_value")};
    IrAttr *vals[3] = {int_list(ctx, width, 8), ir_attr_str(ctx, ir_sym(ctx, "constant")),
                       ir_attr_float(ctx, (double)zx)};
    data = emit(q, "q_pad", IR_OP_PAD, &data, 1, ir_attr_dict(ctx, keys, vals, 3));
    attrs = ir_attr_dict_set(ctx, attrs, ir_sym(ctx, "padding"), int_list(ctx, none, 4));
  }
  IrExpr *args[2] = {data, (IrExpr *)w.data};
  return emit(q, "q_conv", IR_OP_CONV2D, args, 2, attrs);
}

/* matmul(dq(xq), dq(w)) with w (K, N) per column, or matmul(dq(xq),
 * permute_dims(dq(w))) with w (N, K) per row: the int32 accumulator. */
static IrExpr *
int_matmul(Fq *q, const IrExpr *mm, const Dq *x, Chan *ch)
{
  IrCtx *ctx = q->rw->ctx;
  if (!(attr_is(mm, "out_dtype", "void") || attr_is(mm, "out_dtype", "float32")) ||
      tensor_ndim(x->data) < 2)
    return NULL;
  const IrExpr *rhs = mm->u.call.args[1], *perm = call_of(q, rhs, IR_OP_PERMUTE_DIMS);
  Dq w;
  if (!dq_of(q, perm ? perm->u.call.args[0] : rhs, &w))
    return NULL;
  const IrTensorData *wt = const_of(w.data);
  if (!wt || wt->ndim != 2)
    return NULL;
  if (perm) {
    int64_t axes[2];
    const IrAttr *a = op_attr(perm, "axes");
    int n = a && a->kind == IR_AT_NONE ? 0 : attr_ints(perm, "axes", axes, 2);
    if (!(n == 0 || (n == 2 && axes[0] == 1 && axes[1] == 0)))
      return NULL;
  }
  int64_t n = perm ? wt->shape[0] : wt->shape[1], k = perm ? wt->shape[1] : wt->shape[0];
  if (!dq_weights(&w, perm ? 0 : 1, n))
    return NULL;
  /* the weights as a (K, N) int8 constant */
  int64_t *kn = ir_alloc(ctx, sizeof(int64_t) * (size_t)(k * n));
  ch->c = n;
  ch->k = k;
  ch->wscale = ir_alloc(ctx, sizeof(double) * (size_t)n);
  ch->wsum = ir_alloc(ctx, sizeof(int64_t) * (size_t)n);
  for (int64_t j = 0; j < n; j++) {
    ch->wscale[j] = dq_scale(&w, j);
    ch->wsum[j] = 0;
    for (int64_t i = 0; i < k; i++) {
      kn[i * n + j] = op_get_i(wt, perm ? j * k + i : i * n + j);
      ch->wsum[j] += kn[i * n + j];
    }
  }
  int64_t shape[2] = {k, n};
  IrExpr *args[2] = {(IrExpr *)x->data, constant(q, wt->dtype, shape, 2, kn, k * n)};
  return emit(q, "q_matmul", IR_OP_MATMUL, args, 2, dtype_attrs(ctx, "out_dtype", "int32"));
}

/* e is dequantize of a constant int32 bias of C entries, zero point 0,
 * perhaps reshaped, whose scale is sx * sw[c]; its values into ch->bias.
 * The add must broadcast it along the channel dim: for a convolution (C, 1,
 * 1) or (1, C, 1, 1), for a product (C,) or (1, C). */
static bool
bias_of(Fq *q, const IrExpr *e, const Dq *x, Chan *ch, bool conv)
{
  const IrSInfo *s = e->sinfo;
  if (!s || s->kind != IR_SI_TENSOR || !s->u.tensor.shape)
    return false;
  int nd = s->u.tensor.ndim, at = conv ? nd - 3 : nd - 1;
  if (at < 0 || nd > (conv ? 4 : 2))
    return false;
  for (int i = 0; i < nd; i++) {
    int64_t d;
    if (!ir_prim_is_int(s->u.tensor.shape[i], &d) || d != (i == at ? ch->c : 1))
      return false;
  }
  const IrExpr *r = call_of(q, e, IR_OP_RESHAPE);
  Dq b;
  if (!dq_of(q, r ? r->u.call.args[0] : e, &b))
    return false;
  const IrTensorData *bt = const_of(b.data);
  if (!bt || !dtype_is(bt->dtype, IR_DT_INT, 32) || op_numel(bt) != ch->c)
    return false;
  if (op_numel(b.scale) != 1 && op_numel(b.scale) != ch->c)
    return false;
  for (int64_t i = 0; i < op_numel(b.zp); i++)
    if (op_get_i(b.zp, i) != 0)
      return false;
  double sx = dq_scale(x, 0);
  for (int64_t c = 0; c < ch->c; c++) {
    double want = (float)(sx * ch->wscale[c]), have = dq_scale(&b, c);
    if (fabs(have - want) > 1e-6 * want)
      return false;
    ch->bias[c] = op_get_i(bt, c);
  }
  return true;
}

/* q = round(v / sy) + zy for a real bound v, clamped to [lo, hi]. */
static int64_t
quantized_bound(double v, double sy, int64_t zy, int64_t lo, int64_t hi)
{
  double r = nearbyint((double)(float)(v / sy)) + (double)zy;
  return r < (double)lo ? lo : r > (double)hi ? hi : (int64_t)r;
}

/* m[i] = M[i] * 2^-S[i] for c multipliers, M < 2^31: one shift for all
 * (the largest multiplier's, so that S and 2^(S-1) are one constant each)
 * while every M keeps at least 20 significant bits, else a shift per
 * channel (each M in [2^30, 2^31)).  M rounds half up.  False when a shift
 * leaves [1, 62], where acc * M + 2^(S-1) might not fit int64. */
static bool
multipliers(const double *m, int64_t c, int64_t *big, int64_t *shift)
{
  int emax = INT_MIN;
  for (int64_t i = 0; i < c; i++) {
    int e;
    frexp(m[i], &e);
    emax = e > emax ? e : emax;
  }
  bool common = true;
  for (int64_t i = 0; i < c; i++) {
    int e;
    frexp(m[i], &e);
    int s = 31 - (common ? emax : e);
    int64_t v = (int64_t)llround(ldexp(m[i], s));
    if (v == (int64_t)1 << 31) { /* rounded up to 2^31: one bit less */
      v >>= 1;
      s--;
    }
    if (common && (v < (int64_t)1 << 20 || (i > 0 && s != shift[0]))) {
      common = false; /* restart with a shift per channel */
      i = -1;
      continue;
    }
    if (s < 1 || s > 62)
      return false;
    big[i] = v;
    shift[i] = s;
  }
  return true;
}

/* The tail every layer shares: clip(zy + ((t + half) >> shift), lo, hi)
 * as out_dtype, t an int64 tensor; half and shift broadcast like t. */
static IrExpr *
requantize(Fq *q, IrExpr *t, IrExpr *half, IrExpr *shift, int64_t zy, int64_t lo, int64_t hi,
           const char *out_dtype)
{
  IrCtx *ctx = q->rw->ctx;
  IrExpr *args[2] = {t, half};
  args[0] = emit(q, "q_half", IR_OP_ADD, args, 2, NULL);
  args[1] = shift;
  args[0] = emit(q, "q_round", IR_OP_RIGHT_SHIFT, args, 2, NULL);
  args[1] = constant(q, IR_I64, NULL, 0, &zy, 1);
  IrExpr *v = emit(q, "q_zp", IR_OP_ADD, args, 2, NULL);
  IrExpr *cargs[3] = {v, ir_prim_value(ctx, ir_prim_int(ctx, IR_I64, lo), q->loc),
                      ir_prim_value(ctx, ir_prim_int(ctx, IR_I64, hi), q->loc)};
  v = emit(q, "q_clamp", IR_OP_CLIP, cargs, 3, NULL);
  return call(q, IR_OP_ASTYPE, &v, 1, dtype_attrs(ctx, "dtype", out_dtype));
}

/* quantize(dq(a) + dq(b)): zy + round((a - za) * ma + (b - zb) * mb) with
 * ma = sa / sy, mb = sb / sy as Ma, Mb over one shift S:
 * (a * Ma + b * Mb + 2^(S-1) - za * Ma - zb * Mb) >> S, the zero points
 * folded into the rounding constant.  NULL when the two multipliers share
 * no shift keeping 20 bits of each. */
static IrExpr *
integer_add(Fq *q, const Dq *a, const Dq *b, double sy, int64_t zy, int64_t lo, int64_t hi,
            const char *out_dtype)
{
  IrCtx *ctx = q->rw->ctx;
  double real[2] = {dq_scale(a, 0) / sy, dq_scale(b, 0) / sy};
  int64_t m[2], sh[2];
  if (!multipliers(real, 2, m, sh) || sh[0] != sh[1])
    return NULL;
  const Dq *in[2] = {a, b};
  IrExpr *w[2];
  int64_t k = (int64_t)1 << (sh[0] - 1);
  for (int i = 0; i < 2; i++) {
    k -= op_get_i(in[i]->zp, 0) * m[i];
    IrExpr *args[2] = {(IrExpr *)in[i]->data, NULL};
    args[0] = emit(q, "q_wide", IR_OP_ASTYPE, args, 1, dtype_attrs(ctx, "dtype", "int64"));
    args[1] = constant(q, IR_I64, NULL, 0, &m[i], 1);
    w[i] = emit(q, "q_scaled", IR_OP_MULTIPLY, args, 2, NULL);
  }
  IrExpr *t = emit(q, "q_sum", IR_OP_ADD, w, 2, NULL);
  return requantize(q, t, constant(q, IR_I64, NULL, 0, &k, 1), constant(q, IR_I64, NULL, 0, &sh[0], 1),
                    zy, lo, hi, out_dtype);
}

/* R.quantize(call) as integer arithmetic, or NULL when it does not fit. */
static IrExpr *
integer_layer(Fq *q, const IrExpr *quant)
{
  IrCtx *ctx = q->rw->ctx;
  const IrTensorData *sy_t = const_of(def_of(q, quant->u.call.args[1]));
  const IrTensorData *zy_t = const_of(def_of(q, quant->u.call.args[2]));
  const IrAttr *od = op_attr(quant, "out_dtype");
  IrDType out;
  if (!sy_t || !zy_t || op_numel(sy_t) != 1 || op_numel(zy_t) != 1 || !od ||
      od->kind != IR_AT_STR || !ir_dtype_parse(od->u.s, strlen(od->u.s), &out) ||
      !(dtype_is(out, IR_DT_INT, 8) || dtype_is(out, IR_DT_UINT, 8)) ||
      !dtype_is(tensor_dtype(quant->u.call.args[0]), IR_DT_FLOAT, 32))
    return NULL;
  double sy = op_get_f(sy_t, 0);
  int64_t zy = op_get_i(zy_t, 0);
  int64_t lo = out.code == IR_DT_INT ? -128 : 0, hi = out.code == IR_DT_INT ? 127 : 255;
  if (!(sy > 0) || !isfinite(sy) || zy < lo || zy > hi)
    return NULL;

  /* the activation: relu or clip, folded into the clamp */
  const IrExpr *e = quant->u.call.args[0], *act;
  if ((act = call_of(q, e, IR_OP_RELU))) {
    lo = quantized_bound(0, sy, zy, lo, hi);
    e = act->u.call.args[0];
  } else if ((act = call_of(q, e, IR_OP_CLIP))) {
    double a, b;
    if (!scalar_of(act->u.call.args[1], &a) || !scalar_of(act->u.call.args[2], &b))
      return NULL;
    int64_t nlo = quantized_bound(a, sy, zy, lo, hi), nhi = quantized_bound(b, sy, zy, lo, hi);
    lo = nlo;
    hi = nhi;
    e = act->u.call.args[0];
  }

  /* the sum of two activations */
  const IrExpr *sum = call_of(q, e, IR_OP_ADD);
  Dq da, db;
  if (sum && dq_of(q, sum->u.call.args[0], &da) && dq_activation(&da) &&
      dq_of(q, sum->u.call.args[1], &db) && dq_activation(&db))
    return integer_add(q, &da, &db, sy, zy, lo, hi, od->u.s);

  /* the bias add and the layer */
  const IrExpr *add = call_of(q, e, IR_OP_ADD), *bias = NULL;
  const IrExpr *layer = add ? NULL : def_of(q, e);
  for (int side = 0; add && side < 2 && !layer; side++) {
    const IrExpr *l = def_of(q, add->u.call.args[side]);
    if (call_of(q, l, IR_OP_CONV2D) || call_of(q, l, IR_OP_MATMUL)) {
      layer = l;
      bias = add->u.call.args[1 - side];
    }
  }
  bool conv = call_of(q, layer, IR_OP_CONV2D) != NULL;
  if (!conv && !call_of(q, layer, IR_OP_MATMUL))
    return NULL;
  Dq x;
  if (!dq_of(q, layer->u.call.args[0], &x) || !dq_activation(&x))
    return NULL;
  /* check the layer before emitting anything: a failed match emits nothing */
  Chan ch = {0};
  IrVec before = q->rw->before;
  q->rw->before = (IrVec){0};
  IrExpr *acc = conv ? int_conv2d(q, layer, &x, &ch) : int_matmul(q, layer, &x, &ch);
  IrVec emitted = q->rw->before;
  q->rw->before = before;
  if (!acc)
    return NULL;
  ch.bias = ir_alloc(ctx, sizeof(int64_t) * (size_t)ch.c);
  memset(ch.bias, 0, sizeof(int64_t) * (size_t)ch.c);
  if (bias && !bias_of(q, bias, &x, &ch, conv))
    return NULL;

  /* the constants: folded bias, multiplier, shift */
  int64_t zx = op_get_i(x.zp, 0), c = ch.c;
  int64_t *b = ir_alloc(ctx, sizeof(int64_t) * (size_t)c),
          *m = ir_alloc(ctx, sizeof(int64_t) * (size_t)c);
  int64_t *sh = ir_alloc(ctx, sizeof(int64_t) * (size_t)c),
          *half = ir_alloc(ctx, sizeof(int64_t) * (size_t)c);
  double sx = dq_scale(&x, 0);
  for (int64_t i = 0; i < c; i++) {
    b[i] = ch.bias[i] - zx * ch.wsum[i];
    /* |sum xq * wq| <= K * 128 * 128; the accumulator is int32 */
    if ((double)llabs(b[i]) + (double)ch.k * 16384.0 >= 2147483648.0)
      return NULL;
  }
  double *real = ir_alloc(ctx, sizeof(double) * (size_t)c);
  for (int64_t i = 0; i < c; i++)
    real[i] = sx * ch.wscale[i] / sy;
  if (!multipliers(real, c, m, sh))
    return NULL;
  for (int64_t i = 0; i < c; i++)
    half[i] = (int64_t)1 << (sh[i] - 1);
  for (int i = 0; i < emitted.len; i++)
    ir_vec_push(&q->rw->before, emitted.items[i]);
  ir_vec_free(&emitted);

  int cd = conv ? 2 : 0; /* dims after the channel */
  IrExpr *args[2];
  args[0] = acc;
  args[1] = per_channel(q, IR_I32, b, c, cd);
  IrExpr *v = emit(q, "q_acc", IR_OP_ADD, args, 2, NULL);
  v = emit(q, "q_wide", IR_OP_ASTYPE, &v, 1, dtype_attrs(ctx, "dtype", "int64"));
  args[0] = v;
  args[1] = per_channel(q, IR_I64, m, c, cd);
  IrExpr *t = emit(q, "q_scaled", IR_OP_MULTIPLY, args, 2, NULL);
  return requantize(q, t, per_channel(q, IR_I64, half, c, cd), per_channel(q, IR_I64, sh, c, cd), zy, lo,
                    hi, od->u.s);
}

/* op(dq(q)) for an op that commutes with a per-tensor dequantize: dq(op(q)),
 * or NULL.  max_pool2d commutes because the scale is positive (without
 * padding or ceil_mode, where a window of padding alone would pool
 * float's lowest). */
static IrExpr *
move_dequantize(Fq *q, const IrExpr *v)
{
  IrOpId id = v->u.call.op->id;
  if (id != IR_OP_MAX_POOL2D && id != IR_OP_RESHAPE && id != IR_OP_PERMUTE_DIMS)
    return NULL;
  Dq d;
  if (!dq_of(q, v->u.call.args[0], &d) || d.axis >= 0 || d.data->kind == IR_EX_CONST)
    return NULL; /* constants stay: a layer's match reads dq(constant) */
  if (id == IR_OP_MAX_POOL2D) {
    int64_t pad[4];
    const IrAttr *ceil = op_attr(v, "ceil_mode");
    if (attr_ints(v, "padding", pad, 4) != 4 || pad[0] || pad[1] || pad[2] || pad[3] || !ceil ||
        ceil->kind != IR_AT_BOOL || ceil->u.b)
      return NULL;
  }
  IrExpr **args = ir_alloc(q->rw->ctx, sizeof *args * (size_t)v->u.call.nargs);
  memcpy(args, v->u.call.args, sizeof *args * (size_t)v->u.call.nargs);
  args[0] = (IrExpr *)d.data;
  IrExpr *moved = emit(q, "q_moved", id, args, v->u.call.nargs, v->u.call.attrs);
  IrExpr *dargs[3] = {moved, d.call->u.call.args[1], d.call->u.call.args[2]};
  return call(q, IR_OP_DEQUANTIZE, dargs, 3, d.call->u.call.attrs);
}

/* --- the pass -------------------------------------------------------------------- */

static bool
rewrite_binding(Rewriter *rw, IrBinding *b)
{
  Fq *q = rw->user;
  q->rw = rw;
  q->loc = b->loc;
  const IrExpr *v = b->value;
  if (!b->cast && v && v->kind == IR_EX_CALL && v->u.call.kind == IR_CALL_OP) {
    IrExpr *n = v->u.call.op->id == IR_OP_QUANTIZE ? integer_layer(q, v) : move_dequantize(q, v);
    if (n)
      b->value = n;
  }
  if (b->var)
    ir_map_put(&q->defs, b->var, b->value);
  return true;
}

static IrFunction *
rewrite_function(IrCtx *ctx, const IrFunction *f, const char *name, void *user)
{
  (void)user;
  Fq q = {0};
  IrFunction *r = opt_rw_function_with(ctx, f, name, rewrite_binding, &q);
  ir_map_free(&q.defs);
  return r;
}

IrModule *
opt_fake_quant_to_int(const OptContext *oc, const IrModule *m)
{
  IrModule *r = opt_rw_module_functions(oc->ctx, m, rewrite_function, NULL);
  return r ? opt_normalize(oc->ctx, r) : NULL;
}
