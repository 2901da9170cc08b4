/*
 * qdq.c - quantization: R.quantize and R.dequantize.
 *
 * Semantics are TVM's (src/relax/op/tensor/qdq.cc for struct info,
 * python/tvm/relax/transform/legalize_ops/qdq.py for the computation):
 *   quantize    q = clip(round(x / scale) + zero_point, out_dtype's range),
 *               round half to even (tir.round);
 *   dequantize  y = (q - zero_point) * scale, clipped to float16's finite
 *               range when out_dtype is float16.
 * scale and zero_point are each either per-tensor (a 0-d tensor, or one
 * whose dims are all provably 1) or per-axis (a 1-d tensor as long as
 * data's dim `axis`, provably so, as TVM requires).  The result has
 * data's shape and out_dtype.
 *
 * The kernel computes in double and rounds once at the store, except
 * quantize's x / scale, which TVM computes in data's dtype and rounds to
 * an integer after: the quotient is rounded to that dtype first (a
 * float32 quotient that lands on .5 only in double would otherwise round
 * differently; ONNX's DynamicQuantizeLinear test finds it).  The lowering
 * converts every operand to float64 and computes the same expression, so
 * the interpreter and the generated C agree exactly.
 */
#include <math.h>
#include <string.h>

#include "nn_int.h"

/* What inference and the kernel know of a call. */
typedef struct {
  bool quant;        /* quantize (else dequantize) */
  int axis;          /* normalized; 0 for a 0-d data */
  IrDType out_dtype; /* int8/uint8/int16/uint16, or float16/float32 */
} Qdq;

static bool
is_int_dtype(IrDType t, int bits)
{
  return ir_dtype_is_int(t) && t.bits == bits && t.lanes == 1;
}

static bool
is_float_dtype(IrDType t, int bits)
{
  return t.code == IR_DT_FLOAT && t.bits == bits && t.lanes == 1;
}

/* The dtypes TVM accepts (float8 excepted: rxc has no float8). */
static bool
out_dtype_ok(bool quant, IrDType t)
{
  return quant ? is_int_dtype(t, 8) || is_int_dtype(t, 16)
               : is_float_dtype(t, 16) || is_float_dtype(t, 32);
}

static bool
data_dtype_ok(bool quant, IrDType t)
{
  if (quant)
    return is_float_dtype(t, 16) || is_float_dtype(t, 32);
  return is_int_dtype(t, 8) || is_int_dtype(t, 16) || (t.code == IR_DT_INT && t.bits == 32) ||
         is_float_dtype(t, 16) || is_float_dtype(t, 32);
}

static bool
zero_point_dtype_ok(IrDType t)
{
  return is_int_dtype(t, 8) || is_int_dtype(t, 16) || is_int_dtype(t, 32) || is_float_dtype(t, 16);
}

/* axis and out_dtype, checked (the axis against ndim later). */
static bool
read_attrs(const OpSite *s, Qdq *q)
{
  int64_t axis;
  q->quant = s->call->u.call.op->id == IR_OP_QUANTIZE;
  if (!op_nn_attr_int(s, "axis", -1, &axis) || !op_nn_attr_dtype(s, "out_dtype", &q->out_dtype))
    return false;
  if (!out_dtype_ok(q->quant, q->out_dtype))
    return op_fail(s, "unsupported out_dtype %s (%s)", op_nn_dtype_str(s->ctx, q->out_dtype),
                   q->quant ? "int8, uint8, int16 or uint16" : "float16 or float32");
  q->axis = (int)axis;
  return true;
}

/* Is the parameter per-tensor: 0-d, or every dim provably 1? */
static bool
param_is_scalar(OpInfer *in, IrSInfo *t)
{
  IrPrimExpr **dims = op_nn_shape(t);
  if (!dims)
    return false;
  for (int d = 0; d < t->u.tensor.ndim; d++)
    if (op_prove_equal(in, dims[d], op_nn_int(in->ctx, 1)) != IR_PROVE_TRUE)
      return false;
  return true;
}

/* A parameter (scale or zero_point) fits data: per-tensor, or 1-d and
 * provably as long as data's dim axis. */
static bool
check_param(OpInfer *in, const OpSite *site, IrSInfo *param, IrSInfo *data, int axis,
            const char *what)
{
  if (param_is_scalar(in, param))
    return true;
  IrPrimExpr **pd = op_nn_shape(param), **dd = op_nn_shape(data);
  if (!pd || param->u.tensor.ndim != 1)
    return op_fail(site, "%s must be a scalar or a 1-d tensor of known length, not %s", what,
                   op_sinfo_text(in->ctx, param));
  if (data->u.tensor.ndim == 0 || !dd)
    return op_fail(site, "%s must be a scalar or singleton tensor for data of %s", what,
                   data->u.tensor.ndim == 0 ? "rank 0" : "unknown shape");
  if (op_prove_equal(in, pd[0], dd[axis]) != IR_PROVE_TRUE)
    return op_fail(site, "size mismatch: data's dim %d is %s, but %s has length %s", axis,
                   op_nn_expr_str(in->ctx, dd[axis]), what, op_nn_expr_str(in->ctx, pd[0]));
  return true;
}

/* Struct info (file comment): data's shape with out_dtype.  Unknown
 * dtypes of the arguments give an unknown dtype, as TVM. */
static IrSInfo *
infer_qdq(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *t[3];
  static const char *const names[3] = {"data", "scale", "zero_point"};
  Qdq q;
  if (!read_attrs(s, &q))
    return NULL;
  for (int i = 0; i < 3; i++) {
    if (!op_nn_tensor_arg(in, s, args, i, names[i], &t[i]))
      return NULL;
  }
  if (!t[0])
    return ir_sinfo_tensor(in->ctx, NULL, -1, q.out_dtype, -1);
  int ndim = t[0]->u.tensor.ndim;
  IrSInfo *result =
      ir_sinfo_tensor(in->ctx, t[0]->u.tensor.shape, ndim, q.out_dtype, t[0]->u.tensor.vdevice);
  if (!t[1] || !t[2] || op_nn_dtype(t[0]).code == IR_DT_VOID ||
      op_nn_dtype(t[1]).code == IR_DT_VOID || op_nn_dtype(t[2]).code == IR_DT_VOID) {
    result->u.tensor.dtype = IR_VOID;
    return result;
  }
  IrDType dt = op_nn_dtype(t[0]), st = op_nn_dtype(t[1]), zt = op_nn_dtype(t[2]);
  const char *bad = !data_dtype_ok(q.quant, dt)                           ? "data"
                    : !(is_float_dtype(st, 16) || is_float_dtype(st, 32)) ? "scale"
                    : !zero_point_dtype_ok(zt)                            ? "zero_point"
                                                                          : NULL;
  if (bad) {
    IrDType b = bad[0] == 'd' ? dt : bad[0] == 's' ? st : zt;
    return op_fail_null(s, "unsupported %s dtype %s", bad, op_nn_dtype_str(in->ctx, b));
  }
  int axis = q.axis < 0 ? q.axis + ndim : q.axis;
  if (ndim > 0 && (axis < 0 || axis >= ndim))
    return op_fail_null(s, "axis %d is out of range for data of rank %d", q.axis, ndim);
  if (ndim < 0)
    return result; /* TVM needs the rank; without it nothing more is checked */
  if (!check_param(in, s, t[1], t[0], axis, "scale") ||
      !check_param(in, s, t[2], t[0], axis, "zero_point"))
    return NULL;
  return result;
}

/* ------------------------------------------------------------------ */
/* Kernel                                                              */
/* ------------------------------------------------------------------ */

/* The value of q: quantize or dequantize one element of dtype t (file
 * comment). */
static double
qdq_value(const Qdq *q, IrDType t, double x, double scale, double zero_point)
{
  if (q->quant) {
    double lo = q->out_dtype.code == IR_DT_INT ? -ldexp(1, q->out_dtype.bits - 1) : 0;
    double hi = q->out_dtype.code == IR_DT_INT ? ldexp(1, q->out_dtype.bits - 1) - 1
                                               : ldexp(1, q->out_dtype.bits) - 1;
    /* x / scale in data's dtype: the quotient computed in double and rounded
     * so, double's 53 bits being more than twice t's plus two */
    double quotient =
        t.code == IR_DT_FLOAT && t.bits < 64 ? ir_float_round(t, x / scale) : x / scale;
    double v = nearbyint(quotient) + zero_point;
    return fmax(fmin(v, hi), lo);
  }
  double v = (x - zero_point) * scale;
  if (is_float_dtype(q->out_dtype, 16))
    v = fmax(fmin(v, 65504.0), -65504.0);
  return v;
}

/* Parameter p's value for axis position k: element 0 when per-tensor
 * (numel 1), else element k; -1 in *bad when it has neither length. */
static double
param_at(const IrTensorData *p, int64_t k, int64_t dim, bool *bad)
{
  int64_t n = op_numel(p);
  if (n == 1)
    return op_get_f(p, 0);
  if (p->ndim != 1 || n != dim) {
    *bad = true;
    return 0;
  }
  return op_get_f(p, k);
}

static Value *
eval_qdq(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "data");
  const IrTensorData *sc = op_nn_tensor_value(s, args, 1, "scale");
  const IrTensorData *zp = op_nn_tensor_value(s, args, 2, "zero_point");
  Qdq q;
  if (!x || !sc || !zp || !read_attrs(s, &q))
    return NULL;
  int axis = q.axis < 0 ? q.axis + x->ndim : q.axis;
  if (x->ndim > 0 && (axis < 0 || axis >= x->ndim))
    return op_fail_null(s, "axis %d is out of range for data of rank %d", q.axis, x->ndim);
  int64_t dim = x->ndim ? x->shape[axis] : 1, inner = 1;
  for (int d = axis + 1; d < x->ndim; d++)
    inner *= x->shape[d];
  Value *out = op_nn_tensor_new(s, q.out_dtype, x->ndim, x->shape);
  if (!out)
    return NULL;
  bool bad = false;
  for (int64_t i = 0, n = op_numel(x); i < n && !bad; i++) {
    int64_t k = (i / inner) % dim;
    double v = qdq_value(&q, x->dtype, op_get_f(x, i), param_at(sc, k, dim, &bad),
                         param_at(zp, k, dim, &bad));
    op_set_f(&out->u.tensor.t, i, v);
  }
  if (bad)
    return op_fail_null(s, "scale and zero_point must have one element or data's dim %d (%lld)",
                        axis, (long long)dim);
  return out;
}

/* ------------------------------------------------------------------ */
/* Legalization                                                        */
/* ------------------------------------------------------------------ */

/* A parameter's value at output index i, as float64: element 0 of a
 * per-tensor parameter (all its dims 1, as inference proved), else
 * element i[axis]. */
static IrPrimExpr *
load_param(OpPrim *p, IrBuffer *b, IrPrimExpr **i, int axis)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **at = ir_alloc(ctx, sizeof *at * (size_t)(b->ndim ? b->ndim : 1));
  bool scalar = true;
  for (int d = 0; d < b->ndim; d++) {
    int64_t v;
    scalar = scalar && ir_prim_is_int(b->shape[d], &v) && v == 1;
  }
  for (int d = 0; d < b->ndim; d++)
    at[d] = scalar ? op_nn_index(ctx, 0) : i[axis];
  return op_nn_f64(ctx, op_prim_load(p, b, at));
}

static IrExpr *
legalize_qdq(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  Qdq q;
  OpPrim p;
  IrBuffer *x, *sc, *zp, *out;
  if (!read_attrs(s, &q) ||
      !op_prim_open(lz, &p, q.quant ? "quantize" : "dequantize", s->call, result,
                    (OpPrimParam[]){{"data", &x},
                                    {"scale", &sc},
                                    {"zero_point", &zp},
                                    {q.quant ? "quantized" : "dequantized", &out}},
                    4))
    return NULL;
  int axis = q.axis < 0 ? q.axis + x->ndim : q.axis;
  IrPrimExpr **i;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &i);
  IrDType f64 = op_nn_f64_type();
  IrPrimExpr *v = op_nn_f64(ctx, op_prim_load(&p, x, i));
  IrPrimExpr *scale = load_param(&p, sc, i, axis), *zero = load_param(&p, zp, i, axis);
  double lo, hi;
  if (q.quant) {
    IrPrimExpr *quotient = ir_prim_bin(ctx, IR_PE_DIV, v, scale);
    if (x->dtype.code == IR_DT_FLOAT && x->dtype.bits < 64) /* in data's dtype, as qdq_value */
      quotient = op_nn_f64(ctx, op_nn_to(ctx, x->dtype, quotient));
    v = op_nn_intrinsic(ctx, f64, "tir.round", quotient);
    v = ir_prim_bin(ctx, IR_PE_ADD, v, zero);
    bool sign = q.out_dtype.code == IR_DT_INT;
    lo = sign ? -ldexp(1, q.out_dtype.bits - 1) : 0;
    hi = sign ? ldexp(1, q.out_dtype.bits - 1) - 1 : ldexp(1, q.out_dtype.bits) - 1;
  } else {
    v = ir_prim_bin(ctx, IR_PE_MUL, ir_prim_bin(ctx, IR_PE_SUB, v, zero), scale);
    lo = -65504.0, hi = 65504.0;
  }
  if (q.quant || is_float_dtype(q.out_dtype, 16)) {
    v = ir_prim_bin(ctx, IR_PE_MIN, v, op_nn_lit(ctx, f64, hi));
    v = ir_prim_bin(ctx, IR_PE_MAX, v, op_nn_lit(ctx, f64, lo));
  }
  *body = op_prim_store(&p, out, i, op_nn_to(ctx, q.out_dtype, v));
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* Table                                                               */
/* ------------------------------------------------------------------ */

#define E OP_ARG
#define A OP_ATTR

static const OpDef defs[] = {
    OP(IR_OP_QUANTIZE, "relax.quantize",
       .syn.params = {E("data"), E("scale"), E("zero_point"), A("axis", "-1"),
                      A("out_dtype", "\"int8\"")},
       .syn.nparams = 5, .impl = {infer_qdq, eval_qdq, legalize_qdq}),
    OP(IR_OP_DEQUANTIZE, "relax.dequantize",
       .syn.params = {E("data"), E("scale"), E("zero_point"), A("axis", "-1"),
                      A("out_dtype", "\"float32\"")},
       .syn.nparams = 5, .impl = {infer_qdq, eval_qdq, legalize_qdq}),
};

const OpTable op_qdq_table = {defs, sizeof defs / sizeof defs[0]};
