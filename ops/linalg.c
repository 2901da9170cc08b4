/*
 * linalg.c - R.matmul, R.einsum and R.outer.
 *
 * R.matmul has numpy's semantics: a 1-D x1 is a row (a 1 put
 * in front, removed from the result), a 1-D x2 a column (a 1 appended,
 * removed); the leading "batch" dims broadcast; the inner dims must agree.
 *
 * Inference follows TVM (src/relax/op/tensor/linear_algebra.cc): inner
 * dims provably different are an error; batch dims that cannot be matched
 * give a result of known rank and unknown shape.  The kernel walks the
 * broadcast batch index and accumulates in double (integers: in wrapping
 * int64); its lowering loops over the output with a float64 sum over the
 * inner dim (integers: int32 or int64, op_nn_sum_type), or takes gemm.c's
 * register tiles.
 *
 * R.einsum (subscripts with "...", implicit or explicit output) and
 * R.outer are further down; both accumulate as matmul does.
 */
#include <string.h>

#include "nn_int.h"

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

static IrSInfo *
infer_matmul(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *t1, *t2;
  IrDType dtype, out_dtype;
  if (!op_nn_tensor_arg(in, s, args, 0, "x1", &t1) ||
      !op_nn_tensor_arg(in, s, args, 1, "x2", &t2) ||
      !op_nn_attr_dtype(s, "out_dtype", &out_dtype))
    return NULL;
  /* operands of different dtypes need an out_dtype (as TVM: uint8 x int8
   * into int32) */
  if (out_dtype.code != IR_DT_VOID)
    dtype = out_dtype;
  else if (!op_nn_common_dtype(in, s, op_nn_dtype(t1), op_nn_dtype(t2), &dtype))
    return NULL;
  int n1 = op_nn_ndim(t1), n2 = op_nn_ndim(t2), vdev = op_nn_vdevice(t1);
  if (n1 == 0 || n2 == 0)
    return op_fail_null(s, "operands must have rank at least 1, not %d and %d", n1, n2);
  if (n1 < 0 || n2 < 0)
    return ir_sinfo_tensor(in->ctx, NULL, -1, dtype, vdev);
  int m1 = n1 == 1 ? 2 : n1, m2 = n2 == 1 ? 2 : n2; /* ranks after promotion */
  int out_n = (m1 > m2 ? m1 : m2) - (n1 == 1) - (n2 == 1);
  IrPrimExpr **a = op_nn_shape(t1), **b = op_nn_shape(t2);
  if (!a || !b)
    return ir_sinfo_tensor(in->ctx, NULL, out_n, dtype, vdev);
  IrPrimExpr *k1 = a[n1 - 1], *k2 = n2 == 1 ? b[0] : b[n2 - 2];
  if (op_assume_equal(in, k1, k2) == IR_PROVE_FALSE)
    return op_fail_null(s, "inner dims differ: x1 has %s, x2 has %s", op_nn_expr_str(in->ctx, k1),
                        op_nn_expr_str(in->ctx, k2));
  IrPrimExpr **batch, **out = ir_alloc(in->ctx, sizeof(IrPrimExpr *) * (size_t)(out_n ? out_n : 1));
  int nb1 = n1 > 2 ? n1 - 2 : 0, nb2 = n2 > 2 ? n2 - 2 : 0, nb;
  if (!op_broadcast_shapes(in, s->call, a, nb1, b, nb2, &batch, &nb))
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
operand_of(const OpSite *s, const IrTensorData *t, bool is_x1, Operand *op)
{
  int64_t strides[MAX_RANK];
  if (!t)
    return false;
  if (t->ndim < 1 || t->ndim > MAX_RANK)
    return op_fail(s, "operands must have rank 1 to %d, not %d", MAX_RANK, t->ndim);
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
batch_shape(const OpSite *s, const Operand *a, const Operand *b, int64_t *out, int *nb)
{
  *nb = a->nbatch > b->nbatch ? a->nbatch : b->nbatch;
  for (int i = 0; i < *nb; i++) {
    int ia = i - (*nb - a->nbatch), ib = i - (*nb - b->nbatch);
    int64_t da = ia < 0 ? 1 : a->batch[ia], db = ib < 0 ? 1 : b->batch[ib];
    if (da != db && da != 1 && db != 1)
      return op_fail(s, "batch dims %lld and %lld do not broadcast", (long long)da, (long long)db);
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

/* One (rows x cols) product at the given base offsets: in double, or in
 * wrapping int64 for integers (exact: op_nn_sum_type). */
static void
matmul_block(const Operand *a, const Operand *b, int64_t ia, int64_t ib, IrTensorData *o,
             int64_t io)
{
  bool ints = op_nn_sum_type(a->t->dtype, b->t->dtype, o->dtype).code == IR_DT_INT;
  for (int64_t i = 0; i < a->rows; i++) {
    for (int64_t j = 0; j < b->cols; j++) {
      int64_t at = ia + i * a->cols, bt = ib + j, ot = io + i * b->cols + j;
      if (ints) {
        uint64_t acc = 0;
        for (int64_t k = 0; k < a->cols; k++)
          acc += (uint64_t)op_get_i(a->t, at + k) * (uint64_t)op_get_i(b->t, bt + k * b->cols);
        op_set_i(o, ot, (int64_t)acc);
        continue;
      }
      double acc = 0;
      for (int64_t k = 0; k < a->cols; k++)
        acc += op_get_f(a->t, at + k) * op_get_f(b->t, bt + k * b->cols);
      op_set_f(o, ot, acc);
    }
  }
}

static Value *
eval_matmul(OpEval *ev, const OpSite *s, Value **args)
{
  Operand a, b;
  int64_t shape[MAX_RANK], idx[MAX_RANK] = {0}, nbatch = 1;
  int nb, n = 0;
  IrDType out_dtype;
  if (!operand_of(s, op_nn_tensor_value(s, args, 0, "x1"), true, &a) ||
      !operand_of(s, op_nn_tensor_value(s, args, 1, "x2"), false, &b) ||
      !op_nn_attr_dtype(s, "out_dtype", &out_dtype) || !batch_shape(s, &a, &b, shape, &nb))
    return NULL;
  if (a.cols != b.rows)
    return op_fail_null(s, "inner dims differ: x1 has %lld, x2 has %lld", (long long)a.cols,
                        (long long)b.rows);
  for (int i = 0; i < nb; i++)
    nbatch *= shape[i];
  n = nb;
  if (a.t->ndim > 1)
    shape[n++] = a.rows;
  if (b.t->ndim > 1)
    shape[n++] = b.cols;
  Value *out =
      op_nn_tensor_new(s, out_dtype.code != IR_DT_VOID ? out_dtype : a.t->dtype, n, shape);
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

/* The fast path (float32, or integers: op_nn_tile_type): an x2 of at
 * least 2 dims whose last two, (k, n), are static, and an x1 of at least
 * 2 dims; for each batch index of the
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
  return op_prim_store(p, e->out, idx, op_nn_to(p->lz->ctx, e->out->dtype, v));
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
  IrDType sum = op_nn_tile_type(a->dtype, b->dtype, out->dtype);
  if (sum.code == IR_DT_VOID || a->ndim < 2 || b->ndim < 2 ||
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
  Gemm g = {m,    n,   k,   &e, fast_load_a, fast_load_b, fast_store_c, NULL, NULL, NULL, sum,
            op_nn_gemm_cols(p->lz, b->dtype), NULL};
  IrStmt *body = op_nn_gemm_columns_outer(p, &g);
  *slot = body ? body : ir_stmt_new(ctx, IR_ST_SEQ, p->lz->loc);
  return true;
}

/* out[batch..., i, j] = sum over k of x1[batch..., i, k] * x2[batch..., k, j]
 * in float64 (float32 on the fast path), or for integers in int32 or
 * int64 (op_nn_sum_type), with numpy's promotion of 1-D operands. */
static IrExpr *
legalize_matmul(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  IrBuffer *a, *b, *out;
  if (!op_prim_open(lz, &p, "matmul", s->call, result,
                    (OpPrimParam[]){{"A", &a}, {"B", &b}, {"T_matmul", &out}}, 3))
    return NULL;
  int nbatch = out->ndim - (a->ndim > 1) - (b->ndim > 1);
  if (a->ndim < 1 || b->ndim < 1 || nbatch < 0 || nbatch < a->ndim - 2 || nbatch < b->ndim - 2)
    return op_prim_give_up(&p);
  if (matmul_fast(&p, a, b, out))
    return op_prim_finish(&p, s->call, result);
  IrDType sum = op_nn_sum_type(a->dtype, b->dtype, out->dtype);
  IrBuffer *acc = op_nn_acc_typed(&p, 1, sum);
  IrPrimExpr **o, **k;
  IrStmt **slot = op_prim_loops(&p, out->shape, out->ndim, &o);
  IrStmt *loop, **body = op_prim_loop_nest(&p, &a->shape[a->ndim - 1], 1, &k, &loop);
  IrPrimExpr *x =
      op_prim_load(&p, a, operand_index(ctx, a, true, o, out->ndim, nbatch, k[0], out->shape));
  IrPrimExpr *y =
      op_prim_load(&p, b, operand_index(ctx, b, false, o, out->ndim, nbatch, k[0], out->shape));
  *body = op_nn_acc_set(&p, acc, 0,
                        op_nn_sum_add(ctx, sum, op_nn_acc(&p, acc, 0), op_nn_product(ctx, sum, x, y)));
  IrStmt *st[3] = {op_nn_acc_set(&p, acc, 0, op_nn_lit(ctx, sum, 0.0)), loop,
                   op_prim_store(&p, out, o, op_nn_to(ctx, out->dtype, op_nn_acc(&p, acc, 0)))};
  *slot = op_nn_seq(&p, st, 3);
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* R.einsum                                                            */
/* ------------------------------------------------------------------ */

/* Subscripts name each operand dim by a letter; "..." stands for the
 * leading dims an operand has besides its letters, which broadcast across
 * operands (aligned from the right, a dim of 1 stretching).  The output
 * is what follows "->", or, implicitly, "..." then the letters appearing
 * once, in alphabetical order (numpy's rule).  Each output element is
 * the sum, over the labels not in the output, of the product of the
 * operands' elements: in double for floats, int64 (wrapping) for ints,
 * rounded once at the store.  A label repeated in one operand takes its
 * diagonal. */

enum {
  EIN_LETTERS = 52, /* 'a'..'z' then 'A'..'Z' */
  EIN_LABELS = 64,  /* letters, then the ellipsis dims */
  EIN_OPS = 16,     /* operands */
};

typedef struct {
  int nops;
  int ndim[EIN_OPS];
  int label[EIN_OPS][EIN_LABELS]; /* each operand dim's label */
  int nout, out[EIN_LABELS];      /* the output's labels */
  int nsum, sum[EIN_LABELS];      /* the labels summed over */
  int nell;                       /* ellipsis dims (the most any operand has) */
} Einsum;

static int
letter_label(char c)
{
  return c >= 'a' && c <= 'z' ? c - 'a' : c >= 'A' && c <= 'Z' ? 26 + c - 'A' : -1;
}

/* One term's letters (and at most one "...") into labels; the ellipsis
 * dims get EIN_LETTERS + their place among nell right-aligned dims.
 * *ell is where "..." stood (-1: nowhere); with rank < 0 (the output) the
 * ellipsis stands for all nell dims. */
static bool
parse_term(const OpSite *s, const char *t, size_t len, int rank, int nell, int *labels, int *n,
           int *nletters, int *ell)
{
  *n = *nletters = 0;
  *ell = -1;
  for (size_t i = 0; i < len; i++) {
    if (t[i] == '.' && i + 2 < len && t[i + 1] == '.' && t[i + 2] == '.') {
      if (*ell >= 0)
        return op_fail(s, "subscripts: \"...\" twice in one term");
      *ell = *n;
      labels[(*n)++] = -2; /* filled below */
      i += 2;
      continue;
    }
    int l = letter_label(t[i]);
    if (l < 0)
      return op_fail(s, "subscripts: '%c' is not a letter", t[i]);
    if (*n >= EIN_LETTERS)
      return op_fail(s, "subscripts: a term is too long");
    labels[(*n)++] = l;
    (*nletters)++;
  }
  if (*ell < 0)
    return true;
  int e = rank < 0 ? nell : rank - *nletters; /* dims the ellipsis covers */
  if (e < 0)
    return true; /* the caller reports the rank */
  memmove(labels + *ell + e, labels + *ell + 1, sizeof *labels * (size_t)(*n - *ell - 1));
  for (int j = 0; j < e; j++)
    labels[*ell + j] = EIN_LETTERS + (nell - e) + j;
  *n += e - 1;
  return true;
}

/* Parses subscripts for operands of the given ranks; false after an
 * error (a bad character, a term whose letters do not match its
 * operand's rank, a count of terms that is not the operands', an output
 * letter not in any input or repeated). */
static bool
einsum_parse(const OpSite *s, const char *sub, const int *ranks, int nops, Einsum *e)
{
  memset(e, 0, sizeof *e);
  e->nops = nops;
  if (nops > EIN_OPS)
    return op_fail(s, "at most %d operands are supported", EIN_OPS);
  char clean[512];
  size_t m = 0;
  for (const char *c = sub; *c; c++)
    if (*c != ' ' && m + 1 < sizeof clean)
      clean[m++] = *c;
  clean[m] = 0;
  const char *arrow = strstr(clean, "->");
  size_t in_len = arrow ? (size_t)(arrow - clean) : m;
  /* the ellipsis's dims: the most any operand leaves to it */
  const char *t = clean;
  int letters[EIN_OPS], ells[EIN_OPS], k = 0, tmp[EIN_LABELS + 8], n;
  for (;; k++) {
    const char *end = memchr(t, ',', in_len - (size_t)(t - clean));
    size_t len = end ? (size_t)(end - t) : in_len - (size_t)(t - clean);
    if (k >= nops)
      return op_fail(s, "subscripts has more terms than the %d operands", nops);
    if (!parse_term(s, t, len, 0, 0, tmp, &n, &letters[k], &ells[k]))
      return false;
    int rest = ranks[k] - letters[k];
    if (rest < 0 || (rest > 0 && ells[k] < 0))
      return op_fail(s, "subscripts: term %d has %d letters for an operand of rank %d", k,
                     letters[k], ranks[k]);
    if (ells[k] >= 0 && rest > e->nell)
      e->nell = rest;
    if (!end)
      break;
    t = end + 1;
  }
  if (k + 1 != nops)
    return op_fail(s, "subscripts has %d terms for %d operands", k + 1, nops);
  if (EIN_LETTERS + e->nell > EIN_LABELS)
    return op_fail(s, "too many dims under \"...\"");
  int count[EIN_LABELS] = {0};
  t = clean;
  for (k = 0; k < nops; k++) {
    const char *end = memchr(t, ',', in_len - (size_t)(t - clean));
    size_t len = end ? (size_t)(end - t) : in_len - (size_t)(t - clean);
    parse_term(s, t, len, ranks[k], e->nell, e->label[k], &e->ndim[k], &letters[k], &ells[k]);
    for (int d = 0; d < e->ndim[k]; d++)
      count[e->label[k][d]]++;
    t = end ? end + 1 : t;
  }
  bool in_out[EIN_LABELS] = {false};
  if (arrow) {
    if (!parse_term(s, arrow + 2, strlen(arrow + 2), -1, e->nell, e->out, &e->nout, &n, &ells[0]))
      return false;
    if (ells[0] < 0 && e->nell > 0)
      return op_fail(s, "subscripts: the output needs \"...\" for the operands' \"...\" dims");
  } else {
    for (int l = EIN_LETTERS; l < EIN_LETTERS + e->nell; l++)
      e->out[e->nout++] = l;
    for (int l = 0; l < EIN_LETTERS; l++)
      if (count[l] == 1)
        e->out[e->nout++] = l;
  }
  for (int i = 0; i < e->nout; i++) {
    int l = e->out[i];
    if (!count[l] || in_out[l])
      return op_fail(s, "subscripts: output label '%c' is %s", l < 26 ? 'a' + l : 'A' + l - 26,
                     count[l] ? "repeated" : "in no input");
    in_out[l] = true;
  }
  for (int l = 0; l < EIN_LETTERS + e->nell; l++)
    if (count[l] && !in_out[l])
      e->sum[e->nsum++] = l;
  return true;
}

/* The subscripts attribute. */
static bool
einsum_subscripts(const OpSite *s, const char **out)
{
  if (!op_nn_attr_str(s, "subscripts", NULL, out))
    return false;
  if (!*out)
    return op_fail(s, "subscripts is required");
  return true;
}

/* The operands' struct infos from the tuple argument: *n of them, or
 * *n = -1 when it is not known how many. */
static bool
einsum_operands(OpInfer *in, const OpSite *s, const IrExpr *call, IrSInfo **args, IrSInfo ***xs,
                int *n)
{
  const IrExpr *e = call->u.call.args[0];
  IrSInfo *si = args[0];
  *n = si && si->kind == IR_SI_TUPLE ? si->u.tuple.n : e->kind == IR_EX_TUPLE ? e->u.tuple.n : -1;
  if (*n < 0) {
    if (si && si->kind == IR_SI_OBJECT)
      return true;
    return op_fail(s, "operands must be a tuple of tensors");
  }
  if (*n == 0)
    return op_fail(s, "operands is an empty tuple");
  *xs = ir_alloc(in->ctx, sizeof **xs * (size_t)*n);
  for (int i = 0; i < *n; i++) {
    IrSInfo *f = si && si->kind == IR_SI_TUPLE ? si->u.tuple.fields[i] : e->u.tuple.items[i]->sinfo;
    if (!f || f->kind != IR_SI_TENSOR)
      return op_fail(s, "operand %d must be a tensor", i);
    (*xs)[i] = f;
  }
  return true;
}

static IrSInfo *
infer_einsum(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo **xs = NULL;
  const char *sub;
  int n, ranks[EIN_OPS];
  if (s->call->u.call.nargs != 1)
    return op_fail_null(s, "expects 1 argument (a tuple of operands), got %d", s->call->u.call.nargs);
  if (!einsum_operands(in, s, s->call, args, &xs, &n) || !einsum_subscripts(s, &sub))
    return NULL;
  if (n < 0)
    return ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
  IrDType t = xs[0]->u.tensor.dtype;
  for (int i = 0; i < n; i++) {
    if (!ir_dtype_eq(xs[i]->u.tensor.dtype, t))
      return op_fail_null(s, "operands must have one dtype, not %s and %s",
                          op_nn_dtype_str(in->ctx, t),
                          op_nn_dtype_str(in->ctx, xs[i]->u.tensor.dtype));
    if (xs[i]->u.tensor.ndim < 0)
      return ir_sinfo_tensor(in->ctx, NULL, -1, t, xs[0]->u.tensor.vdevice);
    if (i < EIN_OPS)
      ranks[i] = xs[i]->u.tensor.ndim;
  }
  Einsum e;
  if (!einsum_parse(s, sub, ranks, n, &e))
    return NULL;
  int vdev = xs[0]->u.tensor.vdevice;
  IrPrimExpr *extent[EIN_LABELS] = {NULL};
  for (int i = 0; i < n; i++) {
    IrPrimExpr **shape = op_nn_shape(xs[i]);
    if (!shape)
      return ir_sinfo_tensor(in->ctx, NULL, e.nout, t, vdev);
    for (int d = 0; d < e.ndim[i]; d++) {
      int l = e.label[i][d];
      int64_t v;
      bool one = ir_prim_is_int(shape[d], &v) && v == 1;
      if (!extent[l] || (l >= EIN_LETTERS && ir_prim_is_int(extent[l], &v) && v == 1)) {
        extent[l] = shape[d];
      } else if (!(l >= EIN_LETTERS && one) &&
                 op_assume_equal(in, extent[l], shape[d]) == IR_PROVE_FALSE) {
        return op_fail_null(s, "operand %d's dim %d is %s where the label has %s", i, d,
                            op_nn_expr_str(in->ctx, shape[d]), op_nn_expr_str(in->ctx, extent[l]));
      }
    }
  }
  IrPrimExpr **out = ir_alloc(in->ctx, sizeof *out * (size_t)(e.nout ? e.nout : 1));
  for (int i = 0; i < e.nout; i++)
    out[i] = extent[e.out[i]];
  return ir_sinfo_tensor(in->ctx, out, e.nout, t, vdev);
}

/* The concrete extent of each label; false after an error (dims that
 * disagree). */
static bool
einsum_extents(const OpSite *s, const Einsum *e, IrTensorData **xs, int64_t *extent)
{
  for (int l = 0; l < EIN_LABELS; l++)
    extent[l] = -1;
  for (int i = 0; i < e->nops; i++)
    for (int d = 0; d < e->ndim[i]; d++) {
      int l = e->label[i][d];
      int64_t v = xs[i]->shape[d];
      if (extent[l] < 0 || (l >= EIN_LETTERS && extent[l] == 1))
        extent[l] = v;
      else if (extent[l] != v && !(l >= EIN_LETTERS && v == 1)) {
        return op_fail(s, "operand %d's dim %d is %lld where the label has %lld", i, d,
                       (long long)v, (long long)extent[l]);
      }
    }
  return true;
}

static Value *
eval_einsum(OpEval *ev, const OpSite *s, Value **args)
{
  const char *sub;
  if (args[0]->kind != VAL_TUPLE || args[0]->u.tuple.n < 1 || args[0]->u.tuple.n > EIN_OPS)
    return op_fail_null(s, "operands must be a tuple of 1 to %d tensors", EIN_OPS);
  int n = args[0]->u.tuple.n, ranks[EIN_OPS];
  IrTensorData *xs[EIN_OPS];
  for (int i = 0; i < n; i++) {
    if (args[0]->u.tuple.items[i]->kind != VAL_TENSOR)
      return op_fail_null(s, "operand %d must be a tensor", i);
    xs[i] = &args[0]->u.tuple.items[i]->u.tensor.t;
    ranks[i] = xs[i]->ndim;
  }
  Einsum e;
  int64_t extent[EIN_LABELS], dims[EIN_LABELS], at[EIN_LABELS] = {0};
  if (!einsum_subscripts(s, &sub) || !einsum_parse(s, sub, ranks, n, &e) ||
      !einsum_extents(s, &e, xs, extent))
    return NULL;
  for (int i = 0; i < e.nout; i++)
    dims[i] = extent[e.out[i]];
  Value *v = op_nn_tensor_new(s, xs[0]->dtype, e.nout, dims);
  if (!v)
    return NULL;
  IrTensorData *out = &v->u.tensor.t;
  bool fl = ir_dtype_is_float(xs[0]->dtype);
  int64_t terms = 1;
  for (int j = 0; j < e.nsum; j++)
    terms *= extent[e.sum[j]];
  for (int64_t o = 0, m = op_numel(out); o < m; o++) {
    int64_t rest = o;
    for (int i = e.nout - 1; i >= 0; i--) { /* o's coordinates, row-major */
      at[e.out[i]] = rest % extent[e.out[i]];
      rest /= extent[e.out[i]];
    }
    double f = 0;
    int64_t w = 0;
    for (int64_t t = 0; t < terms; t++) {
      int64_t left = t;
      for (int j = e.nsum - 1; j >= 0; j--) {
        at[e.sum[j]] = left % extent[e.sum[j]];
        left /= extent[e.sum[j]];
      }
      double pf = 1;
      int64_t pw = 1;
      for (int i = 0; i < n; i++) {
        int64_t off = 0;
        for (int d = 0; d < e.ndim[i]; d++)
          off = off * xs[i]->shape[d] + (xs[i]->shape[d] == 1 ? 0 : at[e.label[i][d]]);
        if (fl)
          pf *= op_get_f(xs[i], off);
        else
          pw = (int64_t)((uint64_t)pw * (uint64_t)op_get_i(xs[i], off));
      }
      f += pf;
      w = (int64_t)((uint64_t)w + (uint64_t)pw);
    }
    fl ? op_set_f(out, o, f) : op_set_i(out, o, w);
  }
  return v;
}

/* Loops over the output labels, a running value (float64 or int64) set
 * to 0, loops over the summed labels adding the product of the operands'
 * elements, the store: the kernel's order, so the sums agree bit for bit.
 * An operand dim of literal size 1 under "..." reads index 0. */
static IrExpr *
legalize_einsum(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  const IrExpr *tuple = s->call->u.call.args[0];
  const char *sub;
  if (tuple->kind != IR_EX_TUPLE || tuple->u.tuple.n < 1 || tuple->u.tuple.n > EIN_OPS)
    return NULL;
  int n = tuple->u.tuple.n, ranks[EIN_OPS];
  OpPrim p;
  op_prim_begin(lz, &p, "einsum");
  IrBuffer *xs[EIN_OPS];
  for (int i = 0; i < n; i++) {
    xs[i] = op_prim_input(&p, tuple->u.tuple.items[i], ir_printf(ctx, "A%d", i));
    if (!xs[i]) {
      op_prim_abort(&p);
      return NULL;
    }
    ranks[i] = xs[i]->ndim;
  }
  IrBuffer *out = op_prim_output(&p, result, "T_einsum");
  Einsum e;
  if (!out || !einsum_subscripts(s, &sub) || !einsum_parse(s, sub, ranks, n, &e)) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr *extent[EIN_LABELS] = {NULL}, *var[EIN_LABELS] = {NULL}, *sums[EIN_LABELS], **o, **k;
  for (int i = 0; i < n; i++)
    for (int d = 0; d < e.ndim[i]; d++) {
      int64_t v;
      int l = e.label[i][d];
      if (!extent[l] || (ir_prim_is_int(extent[l], &v) && v == 1))
        extent[l] = xs[i]->shape[d];
    }
  for (int j = 0; j < e.nsum; j++)
    sums[j] = extent[e.sum[j]];
  bool fl = ir_dtype_is_float(out->dtype);
  IrDType acc_t = fl ? op_nn_f64_type() : IR_I64;
  IrPrimExpr *one = op_nn_index(ctx, 1), *zero = op_nn_index(ctx, 0);
  IrBuffer *acc = op_prim_alloc(&p, acc_t, &one, 1, "acc");
  IrStmt **slot = op_prim_loops(&p, out->shape, out->ndim, &o), *loop;
  IrStmt **body = op_prim_loop_nest(&p, sums, e.nsum, &k, &loop);
  for (int i = 0; i < e.nout; i++)
    var[e.out[i]] = o[i];
  for (int j = 0; j < e.nsum; j++)
    var[e.sum[j]] = k[j];
  IrPrimExpr *prod = NULL;
  for (int i = 0; i < n; i++) {
    IrPrimExpr **at = ir_alloc(ctx, sizeof *at * (size_t)(xs[i]->ndim ? xs[i]->ndim : 1));
    for (int d = 0; d < e.ndim[i]; d++) {
      int64_t v;
      at[d] = ir_prim_is_int(xs[i]->shape[d], &v) && v == 1 ? zero : var[e.label[i][d]];
    }
    IrPrimExpr *x = op_nn_to(ctx, acc_t, op_prim_load(&p, xs[i], at));
    prod = prod ? ir_prim_bin(ctx, IR_PE_MUL, prod, x) : x;
  }
  IrPrimExpr *zero_acc = fl ? op_nn_lit(ctx, acc_t, 0.0) : op_nn_index(ctx, 0);
  *body = op_prim_store_at(&p, acc, zero, ir_prim_bin(ctx, IR_PE_ADD, op_prim_load_at(&p, acc, zero), prod));
  IrStmt *st[3] = {op_prim_store_at(&p, acc, zero, zero_acc), loop,
                   op_prim_store(&p, out, o, op_nn_to(ctx, out->dtype, op_prim_load_at(&p, acc, zero)))};
  *slot = op_nn_seq(&p, st, 3);
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* R.outer                                                             */
/* ------------------------------------------------------------------ */

/* out[i, j] = x1[i] * x2[j], of x1's dtype (TVM's rule), the product in
 * double (int64 for ints) rounded once. */
static IrSInfo *
infer_outer(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *a, *b;
  if (!op_nn_tensor_arg(in, s, args, 0, "x1", &a) || !op_nn_tensor_arg(in, s, args, 1, "x2", &b))
    return NULL;
  int na = op_nn_ndim(a), nb = op_nn_ndim(b);
  if ((na >= 0 && na != 1) || (nb >= 0 && nb != 1))
    return op_fail_null(s, "both inputs must be 1-D tensors, not of rank %d and %d", na, nb);
  IrPrimExpr **sa = op_nn_shape(a), **sb = op_nn_shape(b), **out = NULL;
  if (sa && sb) {
    out = ir_alloc(in->ctx, sizeof *out * 2);
    out[0] = sa[0];
    out[1] = sb[0];
  }
  return ir_sinfo_tensor(in->ctx, out, 2, op_nn_dtype(a), op_nn_vdevice(a));
}

static Value *
eval_outer(OpEval *ev, const OpSite *s, Value **args)
{
  const IrTensorData *a = op_nn_tensor_value(s, args, 0, "x1");
  const IrTensorData *b = a ? op_nn_tensor_value(s, args, 1, "x2") : NULL;
  if (!b)
    return NULL;
  if (a->ndim != 1 || b->ndim != 1)
    return op_fail_null(s, "both inputs must be 1-D tensors, not of rank %d and %d", a->ndim,
                        b->ndim);
  int64_t dims[2] = {a->shape[0], b->shape[0]};
  Value *v = op_nn_tensor_new(s, a->dtype, 2, dims);
  if (!v)
    return NULL;
  bool fl = ir_dtype_is_float(a->dtype) || ir_dtype_is_float(b->dtype);
  for (int64_t i = 0; i < dims[0]; i++)
    for (int64_t j = 0; j < dims[1]; j++) {
      if (fl)
        op_set_f(&v->u.tensor.t, i * dims[1] + j, op_get_f(a, i) * op_get_f(b, j));
      else
        op_set_i(&v->u.tensor.t, i * dims[1] + j,
                 (int64_t)((uint64_t)op_get_i(a, i) * (uint64_t)op_get_i(b, j)));
    }
  return v;
}

static IrExpr *
legalize_outer(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  OpPrim p;
  IrBuffer *a, *b, *out;
  if (!op_prim_open(lz, &p, "outer", s->call, result,
                    (OpPrimParam[]){{"A", &a}, {"B", &b}, {"T_outer", &out}}, 3))
    return NULL;
  if (a->ndim != 1 || b->ndim != 1)
    return op_prim_give_up(&p);
  IrDType t = ir_dtype_is_float(a->dtype) || ir_dtype_is_float(b->dtype) ? op_nn_f64_type() : IR_I64;
  IrPrimExpr **o;
  IrStmt **slot = op_prim_loops(&p, out->shape, 2, &o);
  IrPrimExpr *x = op_nn_to(ctx, t, op_prim_load(&p, a, &o[0]));
  IrPrimExpr *y = op_nn_to(ctx, t, op_prim_load(&p, b, &o[1]));
  *slot = op_prim_store(&p, out, o, op_nn_to(ctx, out->dtype, ir_prim_bin(ctx, IR_PE_MUL, x, y)));
  return op_prim_finish(&p, s->call, result);
}

static const OpDef defs[] = {
    OP(IR_OP_MATMUL, "relax.matmul",
       .syn.params = {OP_ARG("x1"), OP_ARG("x2"), OP_ATTR("out_dtype", "\"void\"")},
       .syn.nparams = 3, .impl = {infer_matmul, eval_matmul, legalize_matmul}),
    OP(IR_OP_EINSUM, "relax.einsum",
       .syn.params = {{"operands", IR_PARAM_TUPLE, NULL}, OP_ATTR("subscripts", NULL)},
       .syn.nparams = 2, .impl = {infer_einsum, eval_einsum, legalize_einsum}),
    OP(IR_OP_OUTER, "relax.outer", .syn.params = {OP_ARG("x1"), OP_ARG("x2")}, .syn.nparams = 2,
       .impl = {infer_outer, eval_outer, legalize_outer}),
};

const OpTable op_linalg_table = {defs, sizeof defs / sizeof defs[0]};
