/*
 * decompose_ops.c - DecomposeOpsForInference: an inference-mode
 * R.nn.batch_norm becomes a per-channel scale and shift,
 *
 *   scale = gamma / sqrt(var + epsilon)      (1 / sqrt(var + epsilon) without gamma)
 *   shift = beta - mean * scale              (- mean * scale without beta)
 *   y     = x * expand_dims(scale) + expand_dims(shift)
 *
 * and the call's tuple becomes (y, mean, var): at inference batch_norm
 * returns its moving statistics unchanged (TVM's topi, rxc's kernel), so a
 * later tuple-get 1 or 2 still reads them.  TVM's pass of this name
 * (src/relax/transform/decompose_ops.cc) keeps the textbook order
 * (x - mean) / sqrt(var + epsilon) * gamma + beta; rxc folds the
 * statistics into one multiply and one add per element instead, because
 * with constant statistics (BindParams) FoldConstant computes scale and
 * shift at compile time, in the data's dtype, and the two calls left are
 * broadcast elementwise ops that FuseOps joins with their producer (a
 * conv2d, a concat) and their activation, where the legalized batch_norm
 * was an opaque kernel computing per element in float64 with a divide
 * and a square root.  With statistics that are not constants (an ONNX
 * model's inputs) the same ops run once per channel at run time.
 *
 * Differences from TVM: a batch_norm with training=True (the default) is
 * left as it is, because rxc's kernel normalizes it with the batch's own
 * statistics and updates the moving ones, which this rewrite would not;
 * and only float32 and float64 data are rewritten (x * scale + shift in
 * float16 would round scale and shift to 11 bits, where the kernel
 * computes in float64).  TVM's pass also lowers R.tensor_to_shape, which
 * rxc's ops do not have.
 *
 * Numerics: y = x * scale + shift rounds twice where the kernel rounds
 * once; the difference from the exact value is a few units in the last
 * place of |x * scale| + |shift|, so it is largest relative to y where x
 * is near the mean (y near beta) -- absolute, not relative, float32
 * accuracy, as ONNX Runtime's and TVM's own fusions give.
 */
#include <string.h>

#include "../ops/op.h"
#include "opt.h"
#include "opt_int.h"

typedef struct {
  Rewriter *rw;
  IrLoc loc; /* of the batch_norm being rewritten */
} Decomposer;

static IrExpr *
emit(Decomposer *d, const char *name, IrOpId id, IrExpr **args, int nargs, IrAttr *attrs)
{
  return opt_rw_bind_op(d->rw, name, id, args, nargs, attrs, d->loc);
}

static IrExpr *
emit2(Decomposer *d, const char *name, IrOpId id, IrExpr *a, IrExpr *b)
{
  IrExpr *args[2] = {a, b};
  return emit(d, name, id, args, 2, NULL);
}

/* A 0-d constant of dtype t (float32 or float64) holding v. */
static IrExpr *
scalar(Decomposer *d, IrDType t, double v)
{
  IrCtx *ctx = d->rw->ctx;
  IrTensorData c = {.dtype = t, .ndim = 0};
  c.shape = ir_alloc(ctx, sizeof(int64_t));
  c.nbytes = (size_t)ir_dtype_bytes(t);
  c.data = ir_alloc(ctx, c.nbytes);
  op_set_f(&c, 0, v);
  return ir_const_new(ctx, &c, d->loc);
}

/* epsilon: a float, an int (epsilon=0), or absent (1e-5, as the kernel) */
static bool
epsilon_of(const IrExpr *call, double *eps)
{
  const IrAttr *a = op_attr(call, "epsilon");
  if (!a || a->kind == IR_AT_NONE)
    *eps = 1e-5;
  else if (a->kind == IR_AT_FLOAT)
    *eps = a->u.f;
  else if (a->kind == IR_AT_INT)
    *eps = (double)a->u.i;
  else
    return false;
  return true;
}

static bool
bool_attr(const IrExpr *call, const char *name, bool dflt)
{
  const IrAttr *a = op_attr(call, name);
  return a && a->kind == IR_AT_BOOL ? a->u.b : dflt;
}

/* v, one value per channel, as an ndim tensor of ones but at axis (as
 * TVM's ExpandToMatchInput, and as the ONNX importer writes a conv's
 * bias): v itself when ndim is 1. */
static IrExpr *
per_channel(Decomposer *d, const char *name, IrExpr *v, int axis, int ndim)
{
  if (ndim == 1)
    return v;
  IrCtx *ctx = d->rw->ctx;
  IrAttr *items[64];
  int n = 0;
  for (int i = 0; i < ndim; i++)
    if (i != axis)
      items[n++] = ir_attr_int(ctx, i);
  IrSym key = ir_sym(ctx, "axis");
  IrAttr *list = ir_attr_list(ctx, items, n);
  return emit(d, name, IR_OP_EXPAND_DIMS, &v, 1, ir_attr_dict(ctx, &key, &list, 1));
}

/* The batch_norm call v as (y, mean, var), or NULL when it stays. */
static IrExpr *
decompose_batch_norm(Decomposer *d, const IrExpr *v)
{
  IrCtx *ctx = d->rw->ctx;
  IrExpr **args = v->u.call.args;
  const IrSInfo *xs = args[0]->sinfo;
  const IrAttr *axis_attr = op_attr(v, "axis");
  double eps;
  if (bool_attr(v, "training", true) || !xs || xs->kind != IR_SI_TENSOR || !axis_attr ||
      axis_attr->kind != IR_AT_INT || !epsilon_of(v, &eps))
    return NULL;
  IrDType t = xs->u.tensor.dtype;
  int ndim = xs->u.tensor.ndim;
  int64_t axis = axis_attr->u.i < 0 ? axis_attr->u.i + ndim : axis_attr->u.i;
  if (t.code != IR_DT_FLOAT || (t.bits != 32 && t.bits != 64) || t.lanes != 1 || ndim < 1 ||
      ndim > 64 || axis < 0 || axis >= ndim)
    return NULL;
  for (int i = 1; i < 5; i++) {
    const IrSInfo *p = args[i]->sinfo;
    if (!p || p->kind != IR_SI_TENSOR || p->u.tensor.ndim != 1 || !ir_dtype_eq(p->u.tensor.dtype, t))
      return NULL;
  }
  IrExpr *var = emit2(d, "bn_var_eps", IR_OP_ADD, args[4], scalar(d, t, eps));
  IrExpr *root = emit(d, "bn_std", IR_OP_SQRT, &var, 1, NULL);
  IrExpr *scale = emit2(d, "bn_scale", IR_OP_DIVIDE,
                        bool_attr(v, "scale", true) ? args[1] : scalar(d, t, 1.0), root);
  IrExpr *moved = emit2(d, "bn_mean_scaled", IR_OP_MULTIPLY, args[3], scale);
  IrExpr *shift = bool_attr(v, "center", true)
                      ? emit2(d, "bn_shift", IR_OP_SUBTRACT, args[2], moved)
                      : emit(d, "bn_shift", IR_OP_NEGATIVE, &moved, 1, NULL);
  scale = per_channel(d, "bn_scale_c", scale, (int)axis, ndim);
  shift = per_channel(d, "bn_shift_c", shift, (int)axis, ndim);
  IrExpr *y = emit2(d, "bn_scaled", IR_OP_MULTIPLY, args[0], scale);
  y = emit2(d, "bn_y", IR_OP_ADD, y, shift);

  IrExpr *tuple = ir_expr_new(ctx, IR_EX_TUPLE, d->loc);
  tuple->u.tuple.n = 3;
  tuple->u.tuple.items = ir_alloc(ctx, sizeof(IrExpr *) * 3);
  IrSInfo **fields = ir_alloc(ctx, sizeof(IrSInfo *) * 3);
  IrExpr *items[3] = {y, args[3], args[4]};
  for (int i = 0; i < 3; i++) {
    tuple->u.tuple.items[i] = items[i];
    fields[i] = items[i]->sinfo;
  }
  tuple->sinfo = ir_sinfo_tuple(ctx, fields, 3);
  return tuple;
}

static bool
rewrite_binding(Rewriter *rw, IrBinding *b)
{
  Decomposer *d = rw->user;
  d->rw = rw;
  d->loc = b->loc;
  const IrExpr *v = b->value;
  if (!b->cast && v && v->kind == IR_EX_CALL && v->u.call.kind == IR_CALL_OP &&
      v->u.call.op->id == IR_OP_BATCH_NORM) {
    IrExpr *n = decompose_batch_norm(d, v);
    if (n)
      b->value = n;
  }
  return true;
}

static IrFunction *
rewrite_function(IrCtx *ctx, const IrFunction *f, const char *name, void *user)
{
  (void)user;
  Decomposer d = {0};
  return opt_rw_function_with(ctx, f, name, rewrite_binding, &d);
}

IrModule *
opt_decompose_ops_for_inference(const OptContext *oc, const IrModule *m)
{
  IrModule *r = opt_rw_module_functions(oc->ctx, m, rewrite_function, NULL);
  return r ? opt_normalize(oc->ctx, r) : NULL;
}
