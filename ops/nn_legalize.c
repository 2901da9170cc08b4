/*
 * nn_legalize.c - LegalizeOps for the ops of nn.c: the activations (whose
 * f in TIR is their entry's), softmax, log_softmax, layer_norm, batch_norm,
 * dropout.  Each hook builds
 * a T.prim_func with the builder of tir_build.h that computes what nn.c's
 * kernel computes, in the same order.
 *
 * Key idea: the kernels work in double and round once at the store; the
 * prim_funcs do the same by converting every load to float64, keeping
 * maxima, sums and statistics in a float64 T.alloc_buffer ("acc"), and
 * converting to the output dtype at the store.  A row of softmax or a
 * group of a norm is an outer loop nest over the kept dims with inner
 * nests over the reduced dims, one per pass of the kernel.
 */
#include <math.h>

#include "nn_int.h"

/* The input of argument i, or NULL (the caller aborts) when its struct
 * info is not a tensor of known shape. */
static IrBuffer *
input(OpPrim *p, const IrExpr *call, int i, const char *name)
{
  return i < call->u.call.nargs ? op_prim_input(p, call->u.call.args[i], name) : NULL;
}

/* An axis in [0, ndim) from a possibly negative one, or -1. */
static int
axis_of(int64_t axis, int ndim)
{
  if (axis < -(int64_t)ndim || axis >= ndim)
    return -1;
  return (int)(axis < 0 ? axis + ndim : axis);
}

/* x's load at idx, as float64. */
static IrPrimExpr *
load64(OpPrim *p, IrBuffer *x, IrPrimExpr **idx)
{
  return op_nn_f64(p->lz->ctx, op_prim_load(p, x, idx));
}

/* ------------------------------------------------------------------ */
/* activations: f of each element (f from the entry's NnActivation)   */
/* ------------------------------------------------------------------ */

IrExpr *
op_nn_legalize_activation(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  const NnActivation *act = op_of(call->u.call.op)->data;
  const char *name = act->name;
  OpPrim p;
  IrBuffer *x, *out;
  if (!op_prim_open(lz, &p, name, call, result,
                    (OpPrimParam[]){{"A", &x}, {ir_printf(lz->ctx, "T_%s", name), &out}}, 2))
    return NULL;
  if (x->ndim != out->ndim)
    return op_prim_give_up(&p);
  IrPrimExpr **i;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &i);
  double params[OP_NN_ACT_PARAMS];
  op_nn_activation_params(call, params);
  IrPrimExpr *v = act->lower(lz->ctx, out->dtype, op_prim_load(&p, x, i), params);
  *body = op_prim_store(&p, out, i, v);
  return op_prim_finish(&p, call, result);
}

/* ------------------------------------------------------------------ */
/* prelu                                                               */
/* ------------------------------------------------------------------ */

/* As the kernel: x where x > 0, else alpha[c] * x in float64.  alpha is
 * read at min(c, len - 1): c when it has a value per channel, 0 when it
 * has one, and never past its end whatever length it has at run time. */
IrExpr *
op_nn_legalize_prelu(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite site = op_site_legalize(lz, call);
  IrCtx *ctx = lz->ctx;
  int64_t axis;
  int ax;
  OpPrim p;
  IrBuffer *x, *alpha, *out;
  if (!op_prim_open(lz, &p, "prelu", call, result,
                    (OpPrimParam[]){{"A", &x}, {"alpha", &alpha}, {"T_prelu", &out}}, 3))
    return NULL;
  if (x->ndim != out->ndim || alpha->ndim != 1 || !op_nn_attr_int(&site, "axis", 1, &axis) ||
      (ax = axis_of(axis, x->ndim)) < 0)
    return op_prim_give_up(&p);
  IrPrimExpr **i;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &i);
  IrPrimExpr *last = op_nn_sub(ctx, alpha->shape[0], op_nn_index(ctx, 1));
  IrPrimExpr **c = ir_alloc(ctx, sizeof *c); /* the load keeps the index array */
  c[0] = ir_prim_bin(ctx, IR_PE_MIN, i[ax], last);
  IrPrimExpr *v = op_prim_load(&p, x, i);
  IrPrimExpr *neg = ir_prim_bin(ctx, IR_PE_MUL, load64(&p, alpha, c), op_nn_f64(ctx, v));
  *body = op_prim_store(
      &p, out, i,
      ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_GT, v, op_nn_lit(ctx, x->dtype, 0)), v,
                     op_nn_to(ctx, out->dtype, neg)));
  return op_prim_finish(&p, call, result);
}

/* ------------------------------------------------------------------ */
/* softmax, log_softmax                                                */
/* ------------------------------------------------------------------ */

typedef struct {
  IrBuffer *x, *out, *acc;
  int ax;
  bool log_form;
} Softmax;

/* One pass over the softmax axis: a loop over it whose var is put at
 * (*at)[ax] of a copy of the row's index.  Returns the loop; *body gets
 * the slot of its body. */
static IrStmt *
axis_loop(OpPrim *p, const Softmax *s, IrPrimExpr **outer, IrPrimExpr ***at, IrStmt ***body)
{
  IrStmt *loop;
  IrPrimExpr **r;
  *body = op_prim_loop_nest(p, &s->x->shape[s->ax], 1, &r, &loop);
  *at = op_nn_index_copy(p->lz->ctx, outer, s->x->ndim);
  (*at)[s->ax] = r[0];
  return loop;
}

/* The row's statements: max, sum of exp(x - max), then the outputs. */
static IrStmt *
softmax_row(OpPrim *p, const Softmax *s, IrPrimExpr **outer)
{
  IrCtx *ctx = p->lz->ctx;
  IrDType f64 = op_nn_f64_type();
  IrPrimExpr **at;
  IrStmt *st[5], **body;
  st[0] = op_nn_acc_set(p, s->acc, 0, op_nn_lit(ctx, f64, -INFINITY));
  st[1] = axis_loop(p, s, outer, &at, &body);
  *body = op_nn_acc_set(p, s->acc, 0,
                        ir_prim_bin(ctx, IR_PE_MAX, op_nn_acc(p, s->acc, 0), load64(p, s->x, at)));
  st[2] = op_nn_acc_set(p, s->acc, 1, op_nn_lit(ctx, f64, 0.0));
  st[3] = axis_loop(p, s, outer, &at, &body);
  IrPrimExpr *shifted = ir_prim_bin(ctx, IR_PE_SUB, load64(p, s->x, at), op_nn_acc(p, s->acc, 0));
  IrPrimExpr *e = op_nn_intrinsic(ctx, f64, "tir.exp", shifted);
  *body = op_nn_acc_set(p, s->acc, 1, ir_prim_bin(ctx, IR_PE_ADD, op_nn_acc(p, s->acc, 1), e));
  st[4] = axis_loop(p, s, outer, &at, &body);
  shifted = ir_prim_bin(ctx, IR_PE_SUB, load64(p, s->x, at), op_nn_acc(p, s->acc, 0));
  IrPrimExpr *v;
  if (s->log_form)
    v = ir_prim_bin(ctx, IR_PE_SUB, shifted,
                    op_nn_intrinsic(ctx, f64, "tir.log", op_nn_acc(p, s->acc, 1)));
  else
    v = ir_prim_bin(ctx, IR_PE_DIV, op_nn_intrinsic(ctx, f64, "tir.exp", shifted),
                    op_nn_acc(p, s->acc, 1));
  *body = op_prim_store(p, s->out, at, op_nn_to(ctx, s->out->dtype, v));
  return op_nn_seq(p, st, 5);
}

/* The float32 row, as TVM's legalized softmax computes it (max, exp and
 * sum in float32), each pass over the axis in lanes (op_nn_lanes_reduce)
 * so that it vectorizes: max, sum of exp(x - max), then each output
 * exp(x - max) / sum (log form: x - max - log(sum)). */
typedef struct {
  const Softmax *s;
  IrPrimExpr **outer; /* the row's index (the axis entry is replaced) */
  OpNnLanes *max;     /* the row's max, once computed */
} SoftmaxRow;

static IrPrimExpr *
row_load(OpPrim *p, void *env, IrPrimExpr *i)
{
  SoftmaxRow *r = env;
  IrPrimExpr **at = op_nn_index_copy(p->lz->ctx, r->outer, r->s->x->ndim);
  at[r->s->ax] = i;
  return op_prim_load(p, r->s->x, at);
}

static IrPrimExpr *
row_shifted(OpPrim *p, void *env, IrPrimExpr *i)
{
  SoftmaxRow *r = env;
  return ir_prim_bin(p->lz->ctx, IR_PE_SUB, row_load(p, env, i), op_nn_lanes_result(p, r->max));
}

static IrPrimExpr *
row_exp(OpPrim *p, void *env, IrPrimExpr *i)
{
  return op_nn_intrinsic(p->lz->ctx, IR_F32, "tir.exp", row_shifted(p, env, i));
}

static IrStmt *
softmax_row_f32(OpPrim *p, const Softmax *s, IrPrimExpr **outer, IrBuffer *lanes, IrBuffer *acc)
{
  IrCtx *ctx = p->lz->ctx;
  OpNnLanes max = {IR_PE_MAX, lanes, acc, 0, NULL, row_load};
  OpNnLanes sum = {IR_PE_ADD, lanes, acc, 1, NULL, row_exp};
  SoftmaxRow r = {s, outer, &max};
  max.env = sum.env = &r;
  IrPrimExpr *n = s->x->shape[s->ax], **at;
  IrStmt *st[3], **body;
  st[0] = op_nn_lanes_reduce(p, &max, n);
  st[1] = op_nn_lanes_reduce(p, &sum, n);
  st[2] = axis_loop(p, s, outer, &at, &body);
  IrPrimExpr *v, *total = op_nn_lanes_result(p, &sum);
  if (s->log_form)
    v = ir_prim_bin(ctx, IR_PE_SUB, row_shifted(p, &r, at[s->ax]),
                    op_nn_intrinsic(ctx, IR_F32, "tir.log", total));
  else
    v = ir_prim_bin(ctx, IR_PE_DIV, row_exp(p, &r, at[s->ax]), total);
  *body = op_prim_store(p, s->out, at, v);
  return op_nn_seq(p, st, 3);
}

static bool
is_f32(const IrBuffer *b)
{
  return ir_dtype_eq(b->dtype, IR_F32);
}

IrExpr *
op_nn_legalize_softmax(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpSite site = op_site_legalize(lz, call);
  Softmax s;
  int64_t axis;
  s.log_form = call->u.call.op->id == IR_OP_LOG_SOFTMAX;
  OpPrim p;
  if (!op_prim_open(
          lz, &p, s.log_form ? "log_softmax" : "softmax", call, result,
          (OpPrimParam[]){{"A", &s.x}, {s.log_form ? "T_log_softmax" : "T_softmax", &s.out}}, 2))
    return NULL;
  if (s.x->ndim != s.out->ndim || s.x->ndim > 64 || !op_nn_attr_int(&site, "axis", -1, &axis) ||
      (s.ax = axis_of(axis, s.x->ndim)) < 0)
    return op_prim_give_up(&p);
  bool f32 = is_f32(s.x) && is_f32(s.out);
  IrBuffer *lanes = f32 ? op_nn_lanes_new(&p, "lanes", OP_NN_LANES) : NULL;
  s.acc = f32 ? op_nn_lanes_new(&p, "acc", 2) : op_nn_acc_new(&p, 2); /* max, sum */
  bool along[64] = {false};
  IrPrimExpr *outer[64] = {NULL};
  along[s.ax] = true;
  IrStmt *nest;
  IrStmt **slot = op_nn_nest_dims(&p, s.x->shape, s.x->ndim, along, false, outer, &nest);
  *slot = f32 ? softmax_row_f32(&p, &s, outer, lanes, s.acc) : softmax_row(&p, &s, outer);
  op_prim_emit(&p, nest);
  return op_prim_finish(&p, call, result);
}

/* ------------------------------------------------------------------ */
/* layer_norm, batch_norm                                              */
/* ------------------------------------------------------------------ */

/* A norm as the kernels see it: statistics per group (layer_norm: the
 * positions of the kept dims; batch_norm: a channel), over the members
 * of a group (the other dims). */
typedef struct {
  IrBuffer *x, *gamma, *beta, *mean_in, *var_in; /* mean_in/var_in: batch_norm */
  IrBuffer *out, *mean_out, *var_out;             /* mean_out/var_out: batch_norm */
  IrBuffer *acc;                                  /* mean, variance */
  bool member[64];                                /* dims reduced over */
  bool batch, training, center, scale;
  double epsilon, momentum;
} Norm;

/* The count of members, as float64 and at least 1 (the kernel's moments
 * are 0 for an empty group). */
static IrPrimExpr *
member_count(OpPrim *p, const Norm *n)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *count = op_nn_index(ctx, 1);
  for (int d = 0; d < n->x->ndim; d++)
    if (n->member[d])
      count = op_nn_mul(ctx, count, n->x->shape[d]);
  return ir_prim_bin(ctx, IR_PE_MAX, op_nn_f64(ctx, count), op_nn_lit(ctx, op_nn_f64_type(), 1.0));
}

/* acc[k] = (sum over the members of term) / count, as two statements. */
static void
member_mean(OpPrim *p, const Norm *n, IrPrimExpr **group, int k, bool squared, IrStmt **st)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **at = op_nn_index_copy(ctx, group, n->x->ndim);
  IrStmt *nest;
  IrStmt **slot = op_nn_nest_dims(p, n->x->shape, n->x->ndim, n->member, true, at, &nest);
  IrPrimExpr *v = load64(p, n->x, at);
  if (squared)
    op_nn_acc_variance(p, n->acc, k, nest, slot, v, member_count(p, n), st);
  else
    op_nn_acc_mean(p, n->acc, k, nest, slot, v, member_count(p, n), st);
}

/* Index of the per-group or per-member parameters: batch_norm's channel,
 * layer_norm's member dims in dim order. */
static IrPrimExpr **
param_index(OpPrim *p, const Norm *n, IrPrimExpr **at)
{
  IrPrimExpr **idx = ir_alloc(p->lz->ctx, sizeof *idx * 64);
  int k = 0;
  for (int d = 0; d < n->x->ndim; d++)
    if (n->member[d] != n->batch)
      idx[k++] = at[d];
  return idx;
}

/* The normalization pass: out = (x - mean) / sqrt(var + eps) * gamma + beta. */
static IrStmt *
normalize_pass(OpPrim *p, const Norm *n, IrPrimExpr **group)
{
  IrCtx *ctx = p->lz->ctx;
  IrDType f64 = op_nn_f64_type();
  IrPrimExpr **at = op_nn_index_copy(ctx, group, n->x->ndim);
  IrStmt *nest;
  IrStmt **slot = op_nn_nest_dims(p, n->x->shape, n->x->ndim, n->member, true, at, &nest);
  IrPrimExpr **pi = param_index(p, n, at);
  IrPrimExpr *std = op_nn_intrinsic(
      ctx, f64, "tir.sqrt",
      ir_prim_bin(ctx, IR_PE_ADD, op_nn_acc(p, n->acc, 1), op_nn_lit(ctx, f64, n->epsilon)));
  IrPrimExpr *inv = ir_prim_bin(ctx, IR_PE_DIV, op_nn_lit(ctx, f64, 1.0), std);
  IrPrimExpr *v =
      ir_prim_bin(ctx, IR_PE_MUL,
                  ir_prim_bin(ctx, IR_PE_SUB, load64(p, n->x, at), op_nn_acc(p, n->acc, 0)), inv);
  if (n->scale)
    v = ir_prim_bin(ctx, IR_PE_MUL, v, load64(p, n->gamma, pi));
  if (n->center)
    v = ir_prim_bin(ctx, IR_PE_ADD, v, load64(p, n->beta, pi));
  *slot = op_prim_store(p, n->out, at, op_nn_to(ctx, n->out->dtype, v));
  return nest;
}

/* batch_norm's moving statistic k (0 mean, 1 var) of channel c: kept at
 * inference, moved toward the batch's with training. */
static IrStmt *
moving_stat(OpPrim *p, const Norm *n, IrPrimExpr **c, int k)
{
  IrCtx *ctx = p->lz->ctx;
  IrDType f64 = op_nn_f64_type();
  IrBuffer *in = k ? n->var_in : n->mean_in, *out = k ? n->var_out : n->mean_out;
  IrPrimExpr *old = load64(p, in, c), *v = old;
  if (n->training)
    v = ir_prim_bin(
        ctx, IR_PE_ADD, ir_prim_bin(ctx, IR_PE_MUL, op_nn_lit(ctx, f64, 1 - n->momentum), old),
        ir_prim_bin(ctx, IR_PE_MUL, op_nn_lit(ctx, f64, n->momentum), op_nn_acc(p, n->acc, k)));
  return op_prim_store(p, out, c, op_nn_to(ctx, out->dtype, v));
}

/* The statements of one group: statistics, normalization, and for
 * batch_norm the moving statistics. */
static IrStmt *
norm_group(OpPrim *p, const Norm *n, IrPrimExpr **group)
{
  IrStmt *st[9];
  int k = 0;
  IrPrimExpr **c = n->batch ? param_index(p, n, group) : NULL;
  if (n->batch && !n->training) {
    st[k++] = op_nn_acc_set(p, n->acc, 0, load64(p, n->mean_in, c));
    st[k++] = op_nn_acc_set(p, n->acc, 1, load64(p, n->var_in, c));
  } else {
    member_mean(p, n, group, 0, false, &st[k]);
    member_mean(p, n, group, 1, true, &st[k + 3]);
    k += 6;
  }
  st[k++] = normalize_pass(p, n, group);
  if (n->batch) {
    st[k++] = moving_stat(p, n, c, 0);
    st[k++] = moving_stat(p, n, c, 1);
  }
  return op_nn_seq(p, st, k);
}

/* Reads the attributes and marks the member dims; false when the call is
 * not one the kernel accepts (inference has reported why). */
static bool
norm_attrs(const OpSite *s, Norm *n)
{
  int64_t axes[64];
  int naxes = 1, ndim = n->x->ndim;
  bool ok = op_nn_attr_float(s, "epsilon", 1e-5, &n->epsilon) &&
            op_nn_attr_bool(s, "center", true, &n->center) &&
            op_nn_attr_bool(s, "scale", true, &n->scale) &&
            op_nn_attr_bool(s, "training", true, &n->training) &&
            op_nn_attr_float(s, "momentum", 0.1, &n->momentum) &&
            (n->batch ? op_nn_attr_int(s, "axis", 1, &axes[0])
                      : op_nn_attr_ints(s, "axes", axes, 64, &naxes));
  if (!ok || ndim > 64)
    return false;
  for (int d = 0; d < 64; d++)
    n->member[d] = n->batch;
  for (int i = 0; i < naxes; i++) {
    int a = axis_of(axes[i], ndim);
    if (a < 0 || n->member[a] != n->batch)
      return false;
    n->member[a] = !n->batch;
  }
  return true;
}

static IrExpr *
legalize_norm(OpLegalize *lz, const IrExpr *call, IrSInfo *result, bool batch)
{
  OpSite site = op_site_legalize(lz, call);
  Norm n = {0};
  n.batch = batch;
  OpPrim p;
  op_prim_begin(lz, &p, batch ? "batch_norm" : "layer_norm");
  n.x = input(&p, call, 0, "data");
  n.gamma = input(&p, call, 1, "gamma");
  n.beta = input(&p, call, 2, "beta");
  if (batch) {
    n.mean_in = input(&p, call, 3, "moving_mean");
    n.var_in = input(&p, call, 4, "moving_var");
    bool tuple = result->kind == IR_SI_TUPLE && result->u.tuple.n == 3;
    n.out = tuple ? op_prim_output(&p, result->u.tuple.fields[0], "T_batch_norm") : NULL;
    n.mean_out = tuple ? op_prim_output(&p, result->u.tuple.fields[1], "T_moving_mean") : NULL;
    n.var_out = tuple ? op_prim_output(&p, result->u.tuple.fields[2], "T_moving_var") : NULL;
    if (!n.mean_in || !n.var_in || !n.mean_out || !n.var_out)
      return op_prim_give_up(&p);
  } else {
    n.out = op_prim_output(&p, result, "T_layer_norm");
  }
  if (!n.x || !n.gamma || !n.beta || !n.out || !norm_attrs(&site, &n))
    return op_prim_give_up(&p);
  n.acc = op_nn_acc_new(&p, 2);
  IrPrimExpr *group[64] = {NULL};
  IrStmt *nest;
  IrStmt **slot = op_nn_nest_dims(&p, n.x->shape, n.x->ndim, n.member, false, group, &nest);
  *slot = norm_group(&p, &n, group);
  op_prim_emit(&p, nest);
  return op_prim_finish(&p, call, result);
}

IrExpr *
op_nn_legalize_layer_norm(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  return legalize_norm(lz, call, result, false);
}

IrExpr *
op_nn_legalize_batch_norm(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  return legalize_norm(lz, call, result, true);
}

/* ------------------------------------------------------------------ */
/* dropout                                                             */
/* ------------------------------------------------------------------ */

/* Identity at inference, as the kernel: (a copy of data, ones). */
IrExpr *
op_nn_legalize_dropout(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  OpPrim p;
  op_prim_begin(lz, &p, "dropout");
  IrBuffer *x = input(&p, call, 0, "A");
  bool tuple = result->kind == IR_SI_TUPLE && result->u.tuple.n == 2;
  IrBuffer *out = tuple ? op_prim_output(&p, result->u.tuple.fields[0], "T_dropout") : NULL;
  IrBuffer *mask = tuple ? op_prim_output(&p, result->u.tuple.fields[1], "T_mask") : NULL;
  if (!x || !out || !mask || x->ndim != out->ndim || x->ndim != mask->ndim)
    return op_prim_give_up(&p);
  IrPrimExpr **i;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &i);
  IrStmt *st[2] = {op_prim_store(&p, out, i, op_prim_load(&p, x, i)),
                   op_prim_store(&p, mask, i, op_nn_lit(lz->ctx, mask->dtype, 1.0))};
  *body = op_nn_seq(&p, st, 2);
  return op_prim_finish(&p, call, result);
}
