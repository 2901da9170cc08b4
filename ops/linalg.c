/*
 * linalg.c - R.matmul with numpy's semantics: a 1-D x1 is a row (a 1 put
 * in front, removed from the result), a 1-D x2 a column (a 1 appended,
 * removed); the leading "batch" dims broadcast; the inner dims must agree.
 *
 * Inference follows TVM (src/relax/op/tensor/linear_algebra.cc): inner
 * dims provably different are an error; batch dims that cannot be matched
 * give a result of known rank and unknown shape.  The kernel walks the
 * broadcast batch index and accumulates in double; its lowering loops over
 * the output with a float64 sum over the inner dim.
 */
#include "nn_int.h"

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

static IrSInfo *
infer_matmul(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  NnSite s = op_nn_site_infer(in, call);
  IrSInfo *t1, *t2;
  IrDType dtype, out_dtype;
  if (!op_nn_tensor_arg(in, call, args, 0, "x1", &t1) ||
      !op_nn_tensor_arg(in, call, args, 1, "x2", &t2) ||
      !op_nn_attr_dtype(&s, "out_dtype", &out_dtype) ||
      !op_nn_common_dtype(in, call, op_nn_dtype(t1), op_nn_dtype(t2), &dtype))
    return NULL;
  if (out_dtype.code != IR_DT_VOID)
    dtype = out_dtype;
  int n1 = op_nn_ndim(t1), n2 = op_nn_ndim(t2), vdev = op_nn_vdevice(t1);
  if (n1 == 0 || n2 == 0) {
    op_nn_error(&s, "operands must have rank at least 1, not %d and %d", n1, n2);
    return NULL;
  }
  if (n1 < 0 || n2 < 0)
    return ir_sinfo_tensor(in->ctx, NULL, -1, dtype, vdev);
  int m1 = n1 == 1 ? 2 : n1, m2 = n2 == 1 ? 2 : n2; /* ranks after promotion */
  int out_n = (m1 > m2 ? m1 : m2) - (n1 == 1) - (n2 == 1);
  IrPrimExpr **a = op_nn_shape(t1), **b = op_nn_shape(t2);
  if (!a || !b)
    return ir_sinfo_tensor(in->ctx, NULL, out_n, dtype, vdev);
  IrPrimExpr *k1 = a[n1 - 1], *k2 = n2 == 1 ? b[0] : b[n2 - 2];
  if (op_assume_equal(in, k1, k2) == IR_PROVE_FALSE) {
    op_nn_error(&s, "inner dims differ: x1 has %s, x2 has %s", op_nn_expr_str(in->ctx, k1),
                op_nn_expr_str(in->ctx, k2));
    return NULL;
  }
  IrPrimExpr **batch, **out = ir_alloc(in->ctx, sizeof(IrPrimExpr *) * (size_t)(out_n ? out_n : 1));
  int nb1 = n1 > 2 ? n1 - 2 : 0, nb2 = n2 > 2 ? n2 - 2 : 0, nb;
  if (!op_broadcast_shapes(in, call, a, nb1, b, nb2, &batch, &nb))
    return NULL;
  if (!batch) /* some batch dim undecided */
    return ir_sinfo_tensor(in->ctx, NULL, out_n, dtype, vdev);
  for (int i = 0; i < nb; i++)
    out[i] = batch[i];
  if (n1 > 1)
    out[nb++] = a[n1 - 2];
  if (n2 > 1)
    out[nb++] = b[n2 - 1];
  return ir_sinfo_tensor(in->ctx, out, out_n, dtype, vdev);
}

/* ------------------------------------------------------------------ */
/* Kernel                                                              */
/* ------------------------------------------------------------------ */

#define MAX_RANK 32

/* An operand seen as (batch..., rows, cols) after numpy's promotion. */
typedef struct {
  const IrTensorData *t;
  int nbatch;
  int64_t rows, cols;
  int64_t batch[MAX_RANK];   /* batch dims */
  int64_t bstride[MAX_RANK]; /* element stride of each batch dim */
} Operand;

static bool
operand_of(const NnSite *s, const IrTensorData *t, bool is_x1, Operand *op)
{
  int64_t strides[MAX_RANK];
  if (!t)
    return false;
  if (t->ndim < 1 || t->ndim > MAX_RANK) {
    op_nn_error(s, "operands must have rank 1 to %d, not %d", MAX_RANK, t->ndim);
    return false;
  }
  op_nn_strides(t, strides);
  op->t = t;
  op->nbatch = t->ndim > 2 ? t->ndim - 2 : 0;
  for (int i = 0; i < op->nbatch; i++) {
    op->batch[i] = t->shape[i];
    op->bstride[i] = strides[i];
  }
  if (t->ndim == 1) {
    op->rows = is_x1 ? 1 : t->shape[0];
    op->cols = is_x1 ? t->shape[0] : 1;
  } else {
    op->rows = t->shape[t->ndim - 2];
    op->cols = t->shape[t->ndim - 1];
  }
  return true;
}

/* The broadcast batch shape into out (nb entries); false after an error. */
static bool
batch_shape(const NnSite *s, const Operand *a, const Operand *b, int64_t *out, int *nb)
{
  *nb = a->nbatch > b->nbatch ? a->nbatch : b->nbatch;
  for (int i = 0; i < *nb; i++) {
    int ia = i - (*nb - a->nbatch), ib = i - (*nb - b->nbatch);
    int64_t da = ia < 0 ? 1 : a->batch[ia], db = ib < 0 ? 1 : b->batch[ib];
    if (da != db && da != 1 && db != 1) {
      op_nn_error(s, "batch dims %lld and %lld do not broadcast", (long long)da, (long long)db);
      return false;
    }
    out[i] = da == 1 ? db : da;
  }
  return true;
}

/* Element offset of operand x for the broadcast batch index idx. */
static int64_t
batch_offset(const Operand *x, const int64_t *idx, int nb)
{
  int64_t off = 0;
  for (int i = 0; i < x->nbatch; i++) {
    int64_t j = idx[i + nb - x->nbatch];
    off += (x->batch[i] == 1 ? 0 : j) * x->bstride[i];
  }
  return off;
}

/* One (rows x cols) product at the given base offsets. */
static void
matmul_block(const Operand *a, const Operand *b, int64_t ia, int64_t ib, IrTensorData *o,
             int64_t io)
{
  for (int64_t i = 0; i < a->rows; i++) {
    for (int64_t j = 0; j < b->cols; j++) {
      double acc = 0;
      for (int64_t k = 0; k < a->cols; k++)
        acc += op_get_f(a->t, ia + i * a->cols + k) * op_get_f(b->t, ib + k * b->cols + j);
      op_set_f(o, io + i * b->cols + j, acc);
    }
  }
}

static Value *
eval_matmul(OpEval *ev, const IrExpr *call, Value **args)
{
  NnSite s = op_nn_site_eval(ev, call);
  Operand a, b;
  int64_t shape[MAX_RANK], idx[MAX_RANK] = {0}, nbatch = 1;
  int nb, n = 0;
  IrDType out_dtype;
  if (!operand_of(&s, op_nn_tensor_value(&s, args, 0, "x1"), true, &a) ||
      !operand_of(&s, op_nn_tensor_value(&s, args, 1, "x2"), false, &b) ||
      !op_nn_attr_dtype(&s, "out_dtype", &out_dtype) || !batch_shape(&s, &a, &b, shape, &nb))
    return NULL;
  if (a.cols != b.rows) {
    op_nn_error(&s, "inner dims differ: x1 has %lld, x2 has %lld", (long long)a.cols,
                (long long)b.rows);
    return NULL;
  }
  for (int i = 0; i < nb; i++)
    nbatch *= shape[i];
  n = nb;
  if (a.t->ndim > 1)
    shape[n++] = a.rows;
  if (b.t->ndim > 1)
    shape[n++] = b.cols;
  Value *out =
      op_nn_tensor_new(&s, out_dtype.code != IR_DT_VOID ? out_dtype : a.t->dtype, n, shape);
  if (!out)
    return NULL;
  for (int64_t p = 0; p < nbatch; p++) {
    matmul_block(&a, &b, batch_offset(&a, idx, nb), batch_offset(&b, idx, nb), &out->u.tensor.t,
                 p * a.rows * b.cols);
    for (int d = nb - 1; d >= 0; d--) { /* next batch index, row-major */
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  return out;
}

/* ------------------------------------------------------------------ */
/* Legalization                                                        */
/* ------------------------------------------------------------------ */

/* The index of operand buf for output index o (nout dims, nbatch of them
 * batch dims, the output's shape out_shape) and reduction var k: batch
 * dims aligned to the last output batch dims (a dim of literal size 1
 * reads 0; one that is neither 1 nor the output's chooses at run time, as
 * the check before the call allows), then (row, k) for x1 or (k, col) for
 * x2, or k alone for a 1-D operand. */
static IrPrimExpr **
operand_index(IrCtx *ctx, const IrBuffer *buf, bool is_x1, IrPrimExpr **o, int nout, int nbatch,
              IrPrimExpr *k, IrPrimExpr *const *out_shape)
{
  IrPrimExpr **idx = ir_alloc(ctx, sizeof *idx * (size_t)buf->ndim);
  if (buf->ndim == 1) {
    idx[0] = k;
    return idx;
  }
  int nb = buf->ndim - 2;
  for (int d = 0; d < nb; d++) {
    int64_t v;
    IrPrimExpr *dim = buf->shape[d], *od = out_shape[nbatch - nb + d];
    if (ir_prim_is_int(dim, &v))
      idx[d] = v == 1 ? op_nn_index(ctx, 0) : o[nbatch - nb + d];
    else if (ir_prim_expr_equal(dim, od))
      idx[d] = o[nbatch - nb + d];
    else
      idx[d] = ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_EQ, dim, ir_prim_int(ctx, dim->dtype, 1)),
                              op_nn_index(ctx, 0), o[nbatch - nb + d]);
  }
  idx[nb] = is_x1 ? o[nbatch] : k;
  idx[nb + 1] = is_x1 ? k : o[nout - 1];
  return idx;
}

/* The float32 fast path: an x2 of at least 2 dims whose last two, (k, n),
 * are static, and an x1 of at least 2 dims; for each batch index of the
 * output a register-tiled product (gemm.c).  Batch dims of either operand
 * index as in the generic lowering (broadcast included), so attention's
 * Q K^T and P V, whose x2 is an activation, take the same schedule as a
 * product with a weight matrix. */
typedef struct {
  IrBuffer *a, *b, *out;
  IrPrimExpr **o; /* the output index: batch loop vars, then row, column */
  int nout;
  bool flat; /* rows run over every dim but the last (set_row) */
} MatmulEnv;

/* Puts row into the output index: the row dim's index, or, for a flat
 * product, the row-major position row of the dims before the last,
 * taken apart by floordiv and floormod (dims of literal size 1 read 0;
 * the outermost other dim takes what is left, undivided). */
static void
set_row(IrCtx *ctx, MatmulEnv *e, IrPrimExpr *row)
{
  if (!e->flat) {
    e->o[e->nout - 2] = row;
    return;
  }
  int outer = e->nout - 2;
  for (int d = 0; d < e->nout - 2; d++) {
    int64_t v;
    if (!ir_prim_is_int(e->out->shape[d], &v) || v != 1) {
      outer = d;
      break;
    }
  }
  for (int d = e->nout - 2; d >= 0; d--) {
    int64_t v;
    IrPrimExpr *dim = e->out->shape[d];
    if (d == outer) {
      e->o[d] = row;
    } else if (d < outer || (ir_prim_is_int(dim, &v) && v == 1)) {
      e->o[d] = op_nn_index(ctx, 0);
    } else {
      e->o[d] = ir_prim_bin(ctx, IR_PE_FLOORMOD, row, dim);
      row = op_nn_floordiv(ctx, row, dim);
    }
  }
}

static IrPrimExpr *
fast_load_a(OpPrim *p, void *env, IrPrimExpr *row, IrPrimExpr *k)
{
  MatmulEnv *e = env;
  set_row(p->lz->ctx, e, row);
  return op_prim_load(p, e->a, operand_index(p->lz->ctx, e->a, true, e->o, e->nout, e->nout - 2, k,
                                              e->out->shape));
}

static IrPrimExpr *
fast_load_b(OpPrim *p, void *env, IrPrimExpr *k, IrPrimExpr *col)
{
  MatmulEnv *e = env;
  e->o[e->nout - 1] = col;
  return op_prim_load(p, e->b, operand_index(p->lz->ctx, e->b, false, e->o, e->nout, e->nout - 2,
                                              k, e->out->shape));
}

static IrStmt *
fast_store_c(OpPrim *p, void *env, IrPrimExpr *row, IrPrimExpr *col, IrPrimExpr *v)
{
  MatmulEnv *e = env;
  set_row(p->lz->ctx, e, row);
  IrPrimExpr **idx = op_nn_index_copy(p->lz->ctx, e->o, e->nout);
  idx[e->nout - 1] = col;
  return op_prim_store(p, e->out, idx, v);
}

static bool
is_f32(const IrBuffer *b)
{
  return b->dtype.code == IR_DT_FLOAT && b->dtype.bits == 32 && b->dtype.lanes == 1;
}

/* Can the batch dims join the rows (one product of all rows of x1 with
 * x2)?  When x2 has none and x1 has all of the output's: then x2 streams
 * through the tiles once, not once per batch index, and a batch of
 * one-row products (a sequence-first [seq, 1, d] activation by a weight)
 * fills whole tiles. */
static bool
flat_rows(const IrBuffer *a, const IrBuffer *b, const IrBuffer *out)
{
  if (b->ndim != 2 || out->ndim < 3 || a->ndim != out->ndim)
    return false;
  for (int d = 0; d < out->ndim - 1; d++)
    if (!ir_prim_expr_equal(a->shape[d], out->shape[d]))
      return false;
  return true;
}

/* Emits the fast path and returns true, or returns false (nothing
 * emitted) when the operands do not fit it. */
static bool
matmul_fast(OpPrim *p, IrBuffer *a, IrBuffer *b, IrBuffer *out)
{
  int64_t k, n;
  if (!is_f32(a) || !is_f32(b) || !is_f32(out) || a->ndim < 2 || b->ndim < 2 ||
      !ir_prim_is_int(b->shape[b->ndim - 2], &k) || !ir_prim_is_int(b->shape[b->ndim - 1], &n) ||
      k < 1 || n < 1)
    return false;
  IrCtx *ctx = p->lz->ctx;
  MatmulEnv e = {a, b, out, NULL, out->ndim, flat_rows(a, b, out)};
  IrPrimExpr **batch, *m = out->shape[out->ndim - 2];
  IrStmt **slot = op_prim_loops(p, out->shape, e.flat ? 0 : out->ndim - 2, &batch);
  e.o = ir_alloc(ctx, sizeof *e.o * (size_t)out->ndim);
  for (int d = 0; d < out->ndim - 2; d++)
    e.o[d] = e.flat ? NULL : batch[d];
  for (int d = 0; e.flat && d < out->ndim - 2; d++)
    m = op_nn_mul(ctx, out->shape[d], m);
  Gemm g = {m, n, k, &e, fast_load_a, fast_load_b, fast_store_c, NULL, NULL, NULL};
  IrStmt *body = op_nn_gemm_columns_outer(p, &g);
  *slot = body ? body : ir_stmt_new(ctx, IR_ST_SEQ, p->lz->loc);
  return true;
}

/* out[batch..., i, j] = sum over k of x1[batch..., i, k] * x2[batch..., k, j]
 * in float64 (float32 on the fast path), with numpy's promotion of 1-D
 * operands. */
static IrExpr *
legalize_matmul(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  op_prim_begin(lz, &p, "matmul");
  IrBuffer *a = call->u.call.nargs >= 2 ? op_prim_input(&p, call->u.call.args[0], "A") : NULL;
  IrBuffer *b = call->u.call.nargs >= 2 ? op_prim_input(&p, call->u.call.args[1], "B") : NULL;
  IrBuffer *out = op_prim_output(&p, result, "T_matmul");
  int nbatch = out ? out->ndim - (a && a->ndim > 1) - (b && b->ndim > 1) : -1;
  if (!a || !b || !out || a->ndim < 1 || b->ndim < 1 || nbatch < 0 ||
      nbatch < a->ndim - 2 || nbatch < b->ndim - 2) {
    op_prim_abort(&p);
    return NULL;
  }
  if (matmul_fast(&p, a, b, out))
    return op_prim_finish(&p, call, result);
  IrBuffer *acc = op_nn_acc_new(&p, 1);
  IrPrimExpr **o, **k;
  IrStmt **slot = op_prim_loops(&p, out->shape, out->ndim, &o);
  IrStmt *loop, **body = op_prim_loop_nest(&p, &a->shape[a->ndim - 1], 1, &k, &loop);
  IrPrimExpr *x =
      op_prim_load(&p, a, operand_index(ctx, a, true, o, out->ndim, nbatch, k[0], out->shape));
  IrPrimExpr *y =
      op_prim_load(&p, b, operand_index(ctx, b, false, o, out->ndim, nbatch, k[0], out->shape));
  IrPrimExpr *prod = ir_prim_bin(ctx, IR_PE_MUL, op_nn_f64(ctx, x), op_nn_f64(ctx, y));
  *body = op_nn_acc_set(&p, acc, 0, ir_prim_bin(ctx, IR_PE_ADD, op_nn_acc(&p, acc, 0), prod));
  IrStmt *st[3] = {op_nn_acc_set(&p, acc, 0, op_nn_lit(ctx, op_nn_f64_type(), 0.0)), loop,
                   op_prim_store(&p, out, o, op_nn_to(ctx, out->dtype, op_nn_acc(&p, acc, 0)))};
  *slot = op_nn_seq(&p, st, 3);
  return op_prim_finish(&p, call, result);
}

static const OpDef defs[] = {
    OP(IR_OP_MATMUL, "relax.matmul",
       .syn.params = {OP_ARG("x1"), OP_ARG("x2"), OP_ATTR("out_dtype", "\"void\"")},
       .syn.nparams = 3, .impl = {infer_matmul, eval_matmul, legalize_matmul}),
};

const OpTable op_linalg_table = {defs, sizeof defs / sizeof defs[0]};
