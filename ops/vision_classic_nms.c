/*
 * vision_classic_nms.c - the hooks of R.vision.non_max_suppression (TOPI's
 * classic, single-list NMS), whose entry is vision.c's; it sorts and
 * measures IoUs with vision_nms.c's pieces (image_int.h).
 *
 * Kernel and lowering follow TOPI's _classic_nms_ir step by step; the
 * kernel keeps a batch's rows in double, each rounded to data's dtype as
 * it is written (TOPI's out_data buffer), the lowering writes them in the
 * output (or a scratch) of that dtype.  Thresholds are rounded to the
 * dtype as TOPI's constants are.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "image_int.h"

/* R.vision.non_max_suppression(data [B, N, L], valid_count [B] int32,
 * indices [B, N] int32) as TOPI's classic NMS, per batch: the first
 * valid_count rows sort by score (column score_index), the first top_k
 * of them are kept (rows past them are -1), then
 *   hard (soft_nms_sigma 0): a kept row whose score is above 0 is
 *     selected (while fewer than max_output_size are, when positive) and
 *     suppresses each later row above 0 of its class (any class with
 *     force_suppress or id_index -1) whose IoU with it (coordinates at
 *     coord_start) is at least iou_threshold: score -1; a row not
 *     selected becomes -1;
 *   soft: the best remaining row above score_threshold moves up and
 *     decays the later rows' scores by exp(-0.5 / sigma * iou^2), each
 *     dropped at iou_threshold or at or below score_threshold.
 * return_indices gives (box_indices [B, N], valid_box_count [B, 1]), the
 * selected rows' indices[] entries first then -1 (soft: data first);
 * else the data, selected rows in place (moved up with
 * invalid_to_bottom) and the rest -1.  A valid_count past N is refused
 * by the kernel and asserted by the lowering before it writes (tir_build.h's
 * checks of data), which still clamps it into [0, N] (R.take's policy; a
 * negative one keeps nothing, as in TOPI). */
typedef struct {
  int64_t max_output_size, top_k, coord_start, score_index, id_index;
  double iou, sigma, score_threshold;
  bool force_suppress, return_indices, invalid_to_bottom;
} Nms;

static bool
parse_nms(const OpSite *s, Nms *m)
{
  if (!op_nn_attr_int(s, "max_output_size", -1, &m->max_output_size) ||
      !op_nn_attr_float(s, "iou_threshold", 0.5, &m->iou) ||
      !op_nn_attr_bool(s, "force_suppress", false, &m->force_suppress) ||
      !op_nn_attr_int(s, "top_k", -1, &m->top_k) ||
      !op_nn_attr_int(s, "coord_start", 2, &m->coord_start) ||
      !op_nn_attr_int(s, "score_index", 1, &m->score_index) ||
      !op_nn_attr_int(s, "id_index", 0, &m->id_index) ||
      !op_nn_attr_bool(s, "return_indices", true, &m->return_indices) ||
      !op_nn_attr_bool(s, "invalid_to_bottom", false, &m->invalid_to_bottom) ||
      !op_nn_attr_float(s, "soft_nms_sigma", 0.0, &m->sigma) ||
      !op_nn_attr_float(s, "score_threshold", 0.0, &m->score_threshold))
    return false;
  if (m->score_index < 0 || m->coord_start < 0 || m->id_index < -1)
    return op_fail(s, "score_index and coord_start must be >= 0 and id_index >= -1");
  return true;
}

/* The columns a row must hold. */
static int64_t
nms_columns(const Nms *m)
{
  int64_t need = m->coord_start + 4;
  need = need > m->score_index + 1 ? need : m->score_index + 1;
  return need > m->id_index + 1 ? need : m->id_index + 1;
}

static const char *const nms_args[3] = {"data", "valid_count", "indices"};

IrSInfo *
op_vis_infer_nms(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrCtx *ctx = in->ctx;
  Nms m;
  IrSInfo *t[3];
  static const int ranks[3] = {3, 1, 2};
  if (!parse_nms(s, &m) || !op_vis_tensor_args(in, s, args, 3, nms_args, ranks, t))
    return NULL;
  for (int i = 1; i < 3; i++) {
    IrDType dt = op_nn_dtype(t[i]);
    if (dt.code != IR_DT_VOID && !ir_dtype_eq(dt, IR_I32))
      return op_fail_null(s, "%s must be int32, not %s", nms_args[i], op_nn_dtype_str(ctx, dt));
  }
  IrPrimExpr **d = op_nn_shape(t[0]), **vc = op_nn_shape(t[1]), **ix = op_nn_shape(t[2]);
  if (d && vc && op_assume_equal(in, vc[0], d[0]) == IR_PROVE_FALSE)
    return op_fail_null(s, "valid_count must have shape [batch_size]");
  if (d && ix &&
      (op_assume_equal(in, ix[0], d[0]) == IR_PROVE_FALSE ||
       op_assume_equal(in, ix[1], d[1]) == IR_PROVE_FALSE)) {
    return op_fail_null(s, "indices must have shape [batch_size, num_anchors]");
  }
  int64_t len;
  if (d && ir_prim_is_int(d[2], &len) && nms_columns(&m) > len)
    return op_fail_null(
        s,
        "score_index, id_index and coord_start .. coord_start + 3 must be columns of "
        "elem_length %lld",
        (long long)len);
  if (d) /* a symbolic elem_length must hold them (checked at run time) */
    op_assume(in, ir_prim_bin(ctx, IR_PE_GE, d[2], op_nn_int(ctx, nms_columns(&m))));
  IrDType dt = op_nn_dtype(t[0]);
  int vd = op_nn_vdevice(t[0]);
  IrSInfo *data = ir_sinfo_tensor(ctx, d, 3, dt, vd);
  if (!m.return_indices)
    return data;
  IrPrimExpr **two = NULL;
  if (d) {
    two = ir_alloc(ctx, sizeof *two * 2);
    two[0] = d[0], two[1] = op_nn_int(ctx, 1);
  }
  IrSInfo *obi = ir_sinfo_tensor(ctx, d, 2, IR_I32, vd);
  IrSInfo *count = ir_sinfo_tensor(ctx, two, 2, IR_I32, vd);
  return m.sigma > 0.0 ? op_vis_tuple(ctx, data, obi, count) : op_vis_tuple(ctx, obi, count, NULL);
}

/* One batch of the kernel: out (float64 view of the output data's rows,
 * stored through the dtype at every write, as TOPI's buffer is) and box
 * indices. */
typedef struct {
  const Nms *m;
  IrDType dt;
  int64_t N, L;
  double *out;  /* [N, L], each value rounded to dt */
  int32_t *obi; /* [N] */
} NmsBatch;

static double *
row_of(const NmsBatch *k, int64_t j)
{
  return k->out + j * k->L;
}

static void
clear_row(const NmsBatch *k, int64_t j)
{
  for (int64_t c = 0; c < k->L; c++)
    row_of(k, j)[c] = -1.0;
  k->obi[j] = -1;
}

/* Does row j suppress row q (their classes)? */
static bool
same_class(const NmsBatch *k, int64_t j, int64_t q)
{
  const Nms *m = k->m;
  return m->force_suppress || m->id_index < 0 ||
         row_of(k, j)[m->id_index] == row_of(k, q)[m->id_index];
}

static double
rows_iou(const NmsBatch *k, int64_t j, int64_t q)
{
  return op_vis_box_iou(row_of(k, j) + k->m->coord_start, row_of(k, q) + k->m->coord_start);
}

/* TOPI's hard suppression over the first nkeep rows; returns nothing
 * (selections are the rows left with obi >= 0). */
static void
hard_nms(const NmsBatch *k, int64_t nkeep, double iou_thr)
{
  const Nms *m = k->m;
  int64_t nv = 0, sc = m->score_index;
  for (int64_t j = 0; j < nkeep; j++) {
    if (!(row_of(k, j)[sc] > 0.0 && (m->max_output_size > 0 ? nv < m->max_output_size : true))) {
      clear_row(k, j);
      continue;
    }
    nv++;
    for (int64_t q = j + 1; q < nkeep; q++)
      if (row_of(k, q)[sc] > 0.0 && same_class(k, j, q) && rows_iou(k, j, q) >= iou_thr) {
        row_of(k, q)[sc] = -1.0;
        k->obi[q] = -1;
      }
  }
}

/* TOPI's soft suppression; returns the count selected (moved to the top). */
static int64_t
soft_nms(const NmsBatch *k, int64_t nkeep, double iou_thr)
{
  const Nms *m = k->m;
  int64_t nv = 0, sc = m->score_index;
  double thresh = ir_float_round(k->dt, ir_float_round(IR_F32, m->score_threshold));
  double scale = ir_float_round(k->dt, ir_float_round(IR_F32, -0.5 / m->sigma));
  for (int64_t step = 0; step < nkeep; step++) {
    if (m->max_output_size > 0 && nv >= m->max_output_size)
      continue;
    int64_t best = -1;
    double best_score = thresh;
    for (int64_t j = nv; j < nkeep; j++)
      if (k->obi[j] >= 0 && row_of(k, j)[sc] > best_score)
        best = j, best_score = row_of(k, j)[sc];
    if (best < 0)
      continue;
    if (best != nv) {
      int32_t t = k->obi[nv];
      k->obi[nv] = k->obi[best], k->obi[best] = t;
      for (int64_t c = 0; c < k->L; c++) {
        double v = row_of(k, nv)[c];
        row_of(k, nv)[c] = row_of(k, best)[c], row_of(k, best)[c] = v;
      }
    }
    for (int64_t j = nv + 1; j < nkeep; j++) {
      if (!(k->obi[j] >= 0 && row_of(k, j)[sc] > thresh && same_class(k, nv, j)))
        continue;
      double iou = rows_iou(k, nv, j);
      if (iou >= iou_thr)
        k->obi[j] = -1;
      if (iou < iou_thr) {
        double *v = &row_of(k, j)[sc];
        *v = ir_float_round(k->dt, *v * exp(scale * iou * iou));
        if (*v <= thresh)
          k->obi[j] = -1;
      }
    }
    nv++;
  }
  return nv;
}

/* Rows whose score is not negative moved up in order, the rest -1
 * (TOPI's _rearrange_out). */
static void
move_valid_up(const NmsBatch *k)
{
  int64_t v = 0;
  for (int64_t j = 0; j < k->N; j++)
    if (row_of(k, j)[k->m->score_index] >= 0.0) {
      memmove(row_of(k, v), row_of(k, j), (size_t)k->L * sizeof(double));
      v++;
    }
  for (int64_t j = v; j < k->N; j++)
    clear_row(k, j);
}

/* Scratch of the kernel: a batch's scores and their order. */
typedef struct {
  double *s;
  int64_t *order;
} NmsScratch;

/* One batch: rows of data (row-major [N, L] at base) through the whole
 * suppression into k; returns valid_box_count. */
static int64_t
nms_batch(const NmsBatch *k, const NmsScratch *w, const IrTensorData *data, int64_t base,
          int64_t valid, const IrTensorData *indices, int64_t ibase)
{
  const Nms *m = k->m;
  int64_t N = k->N, L = k->L, nv = 0;
  double iou_thr = ir_float_round(k->dt, m->iou);
  for (int64_t j = 0; j < N; j++)
    w->s[j] = op_get_f(data, base + j * L + m->score_index), w->order[j] = j;
  op_vis_sort_scores(w->s, valid, w->order);
  int64_t nkeep = m->top_k > 0 && m->top_k < valid ? m->top_k : valid;
  for (int64_t j = 0; j < N; j++) {
    if (j >= nkeep) {
      clear_row(k, j);
      continue;
    }
    for (int64_t c = 0; c < L; c++)
      row_of(k, j)[c] = op_get_f(data, base + w->order[j] * L + c);
    k->obi[j] = (int32_t)w->order[j];
  }
  bool soft = m->sigma > 0.0;
  if (soft)
    nv = soft_nms(k, nkeep, iou_thr);
  else
    hard_nms(k, nkeep, iou_thr);
  if (m->return_indices && !soft) { /* the selected rows' indices move up */
    for (int64_t j = 0; j < N; j++)
      if (k->obi[j] >= 0) {
        int64_t at = k->obi[j];
        k->obi[nv++] = (int32_t)op_get_i(indices, ibase + at);
      }
    for (int64_t j = nv; j < N; j++)
      k->obi[j] = -1;
  } else if (m->return_indices) {
    for (int64_t j = 0; j < nv; j++)
      k->obi[j] = (int32_t)op_get_i(indices, ibase + k->obi[j]);
    for (int64_t j = nv; j < N; j++)
      clear_row(k, j);
  } else {
    for (int64_t j = nv; soft && j < N; j++)
      clear_row(k, j);
    if (m->invalid_to_bottom)
      move_valid_up(k);
  }
  return nv;
}

Value *
op_vis_eval_nms(OpEval *ev, const OpSite *s, Value **args)
{
  Nms m;
  const IrTensorData *t[3];
  if (!op_vis_tensor_values(s, args, 3, nms_args, t) || !parse_nms(s, &m))
    return NULL;
  const IrTensorData *data = t[0], *vc = t[1], *ix = t[2];
  if (data->ndim != 3 || vc->ndim != 1 || ix->ndim != 2 || vc->shape[0] != data->shape[0] ||
      ix->shape[0] != data->shape[0] || ix->shape[1] != data->shape[1] ||
      nms_columns(&m) > data->shape[2]) {
    return op_fail_null(
        s, "expected data [B, N, L] holding the columns, valid_count [B], indices [B, N]");
  }
  int64_t B = data->shape[0], N = data->shape[1], L = data->shape[2], cshape[2] = {B, 1};
  Value *out = op_nn_tensor_new(s, data->dtype, 3, data->shape);
  Value *obi = op_nn_tensor_new(s, IR_I32, 2, data->shape);
  Value *count = op_nn_tensor_new(s, IR_I32, 2, cshape);
  if (!out || !obi || !count)
    return NULL;
  size_t n = (size_t)(N ? N : 1);
  NmsScratch w = {malloc(n * sizeof *w.s), malloc(n * sizeof *w.order)};
  NmsBatch k = {&m,
                data->dtype,
                N,
                L,
                malloc(n * (size_t)(L ? L : 1) * sizeof *k.out),
                malloc(n * sizeof *k.obi)};
  bool ok = w.s && w.order && k.out && k.obi;
  if (!ok)
    op_report(s, "out of memory");
  for (int64_t b = 0; ok && b < B; b++) {
    int64_t valid = op_get_i(vc, b);
    if (valid > N) {
      op_report(s, "valid_count[%lld] = %lld is past num_anchors %lld", (long long)b,
                (long long)valid, (long long)N);
      ok = false;
      break;
    }
    int64_t nv = nms_batch(&k, &w, data, b * N * L, valid < 0 ? 0 : valid, ix, b * N);
    for (int64_t j = 0; j < N * L; j++)
      op_set_f(&out->u.tensor.t, b * N * L + j, k.out[j]);
    for (int64_t j = 0; j < N; j++)
      op_set_i(&obi->u.tensor.t, b * N + j, k.obi[j]);
    op_set_i(&count->u.tensor.t, b, nv);
  }
  free(w.s), free(w.order), free(k.out), free(k.obi);
  if (!ok)
    return NULL;
  if (!m.return_indices)
    return out;
  Value *items[3] = {out, obi, count};
  return m.sigma > 0.0 ? op_tuple_new(ev->ctx, items, 3) : op_tuple_new(ev->ctx, items + 1, 2);
}

/* ------------------------------------------------------------------ */
/* Lowering                                                            */
/* ------------------------------------------------------------------ */

/* What the lowering builds with: the batch b's rows of the output data
 * (or its scratch) and box indices. */
typedef struct {
  const Nms *m;
  IrBuffer *data, *valid, *indices;
  IrBuffer *out, *obi; /* [B, N, L] data's dtype, [B, N] int32 */
  IrBuffer *acc;       /* float64 [2]: the best score, a swapped value */
  IrPrimExpr *b, *n, *l;
} NmsLower;

/* A loop of *j over [0, extent) (not appended): its body slot. */
static IrStmt **
loop_over(const VisNmsTir *t, IrPrimExpr *extent, IrPrimExpr **j, IrStmt **loop)
{
  IrPrimExpr **v;
  IrStmt **body = op_prim_loop_nest(t->p, &extent, 1, &v, loop);
  *j = v[0];
  return body;
}

static IrPrimExpr *
out_at(const VisNmsTir *t, const NmsLower *w, IrPrimExpr *j, IrPrimExpr *c)
{
  IrPrimExpr *at[3] = {w->b, j, c};
  return op_nn_f64(t->ctx, op_prim_load(t->p, w->out, op_nn_index_copy(t->ctx, at, 3)));
}

static IrStmt *
out_set(const VisNmsTir *t, const NmsLower *w, IrPrimExpr *j, IrPrimExpr *c, IrPrimExpr *v)
{
  IrPrimExpr *at[3] = {w->b, j, c};
  return op_prim_store(t->p, w->out, op_nn_index_copy(t->ctx, at, 3),
                       op_nn_to(t->ctx, w->out->dtype, v));
}

static IrPrimExpr *
score_of(const VisNmsTir *t, const NmsLower *w, IrPrimExpr *j)
{
  return out_at(t, w, j, op_nn_index(t->ctx, w->m->score_index));
}

static IrPrimExpr *
obi_at(const VisNmsTir *t, const NmsLower *w, IrPrimExpr *j)
{
  IrPrimExpr *at[2] = {w->b, j};
  return op_nn_to(t->ctx, IR_I64, op_prim_load(t->p, w->obi, op_nn_index_copy(t->ctx, at, 2)));
}

static IrStmt *
obi_set(const VisNmsTir *t, const NmsLower *w, IrPrimExpr *j, IrPrimExpr *v)
{
  IrPrimExpr *at[2] = {w->b, j};
  return op_prim_store(t->p, w->obi, op_nn_index_copy(t->ctx, at, 2), op_nn_to(t->ctx, IR_I32, v));
}

/* Row j all -1, and its box index. */
static IrStmt *
clear_row_tir(const VisNmsTir *t, const NmsLower *w, IrPrimExpr *j)
{
  IrPrimExpr *c;
  IrStmt *loop, **body = loop_over(t, w->l, &c, &loop);
  *body = out_set(t, w, j, c, op_img_f64(t->ctx, -1.0));
  IrStmt *st[2] = {loop, obi_set(t, w, j, op_nn_index(t->ctx, -1))};
  return op_nn_seq(t->p, st, 2);
}

/* A loop j over the rows. */
static IrStmt **
rows_loop(const VisNmsTir *t, const NmsLower *w, IrPrimExpr **j, IrStmt **loop)
{
  return loop_over(t, w->n, j, loop);
}

static IrPrimExpr *
data_score(const VisNmsTir *t, void *env, IrPrimExpr *i)
{
  NmsLower *w = env;
  IrPrimExpr *at[3] = {w->b, i, op_nn_index(t->ctx, w->m->score_index)};
  return op_nn_f64(t->ctx, op_prim_load(t->p, w->data, op_nn_index_copy(t->ctx, at, 3)));
}

static void
row_box(const VisNmsTir *t, void *env, IrPrimExpr *j, IrPrimExpr **corner)
{
  NmsLower *w = env;
  for (int k = 0; k < 4; k++)
    corner[k] = out_at(t, w, j, op_nn_index(t->ctx, w->m->coord_start + k));
}

/* same_class() of rows j and q in TIR; NULL: always. */
static IrPrimExpr *
same_class_tir(const VisNmsTir *t, const NmsLower *w, IrPrimExpr *j, IrPrimExpr *q)
{
  if (w->m->force_suppress || w->m->id_index < 0)
    return NULL;
  IrPrimExpr *id = op_nn_index(t->ctx, w->m->id_index);
  return op_img_bin(t->ctx, IR_PE_EQ, out_at(t, w, j, id), out_at(t, w, q, id));
}

/* The first kept rows in sorted order, the rest -1 (st[KEEP] kept). */
static IrStmt *
copy_sorted_tir(const VisNmsTir *t, const NmsLower *w)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *j, *c;
  IrStmt *loop, **body = rows_loop(t, w, &j, &loop), *copy;
  IrStmt **elem = loop_over(t, w->l, &c, &copy);
  IrPrimExpr *src = op_prim_load_at(t->p, t->order, j);
  IrPrimExpr *at[3] = {w->b, src, c};
  *elem = out_set(t, w, j, c,
                  op_nn_f64(ctx, op_prim_load(t->p, w->data, op_nn_index_copy(ctx, at, 3))));
  IrStmt *kept[2] = {copy, obi_set(t, w, j, src)};
  *body = op_vis_if_else(t->p, op_img_bin(ctx, IR_PE_LT, j, op_vis_st_get(t, VIS_ST_KEEP)),
                         op_nn_seq(t->p, kept, 2), clear_row_tir(t, w, j));
  return loop;
}

/* nv < max_output_size when it is positive; NULL: no limit. */
static IrPrimExpr *
under_max(const VisNmsTir *t, const NmsLower *w)
{
  if (w->m->max_output_size <= 0)
    return NULL;
  return op_img_bin(t->ctx, IR_PE_LT, op_vis_st_get(t, VIS_ST_NV),
                    op_nn_index(t->ctx, w->m->max_output_size));
}

/* hard_nms() in TIR. */
static IrStmt *
hard_tir(const VisNmsTir *t, const NmsLower *w, double iou_thr)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *j, *q, *zero = op_img_f64(ctx, 0.0), *keep = op_vis_st_get(t, VIS_ST_KEEP);
  IrStmt *jloop, *qloop, **jbody = rows_loop(t, w, &j, &jloop),
                         **qbody = rows_loop(t, w, &q, &qloop);
  OpLets l = {ctx, {0}, {0}, 0};
  IrPrimExpr *iou = op_vis_iou_tir(t, &l, row_box, (void *)w, j, q);
  IrStmt *mark[2] = {out_set(t, w, q, op_nn_index(ctx, w->m->score_index), op_img_f64(ctx, -1.0)),
                     obi_set(t, w, q, op_nn_index(ctx, -1))};
  IrStmt *test = op_nn_if(t->p, op_img_bin(ctx, IR_PE_GE, iou, op_img_f64(ctx, iou_thr)),
                          op_nn_seq(t->p, mark, 2));
  IrPrimExpr *later =
      op_nn_and(ctx, same_class_tir(t, w, j, q),
                op_img_bin(ctx, IR_PE_AND,
                           op_img_bin(ctx, IR_PE_AND, op_img_bin(ctx, IR_PE_GT, q, j),
                                      op_img_bin(ctx, IR_PE_LT, q, keep)),
                           op_img_bin(ctx, IR_PE_GT, score_of(t, w, q), zero)));
  *qbody = op_nn_if(t->p, later, op_lets_wrap(&l, test, t->p->lz->loc));
  IrStmt *sel[2] = {op_vis_st_add(t, VIS_ST_NV, op_nn_index(ctx, 1)), qloop};
  IrPrimExpr *chosen =
      op_nn_and(ctx, under_max(t, w), op_img_bin(ctx, IR_PE_GT, score_of(t, w, j), zero));
  *jbody = op_nn_if(t->p, op_img_bin(ctx, IR_PE_LT, j, keep),
                    op_vis_if_else(t->p, chosen, op_nn_seq(t->p, sel, 2), clear_row_tir(t, w, j)));
  IrStmt *st[2] = {op_vis_st_set(t, VIS_ST_NV, op_nn_index(ctx, 0)), jloop};
  return op_nn_seq(t->p, st, 2);
}

/* Rows nv and best swapped (data and box index). */
static IrStmt *
swap_rows_tir(const VisNmsTir *t, const NmsLower *w)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *nv = op_vis_st_get(t, VIS_ST_NV), *best = op_vis_st_get(t, VIS_ST_BEST), *c;
  IrStmt *loop, **body = loop_over(t, w->l, &c, &loop);
  IrStmt *row[3] = {op_nn_acc_set(t->p, w->acc, 1, out_at(t, w, nv, c)),
                    out_set(t, w, nv, c, out_at(t, w, best, c)),
                    out_set(t, w, best, c, op_nn_acc(t->p, w->acc, 1))};
  *body = op_nn_seq(t->p, row, 3);
  IrStmt *st[4] = {op_prim_store_at(t->p, t->st, op_nn_index(ctx, VIS_ST_RANK), obi_at(t, w, nv)),
                   obi_set(t, w, nv, obi_at(t, w, best)),
                   obi_set(t, w, best, op_vis_st_get(t, VIS_ST_RANK)), loop};
  return op_nn_if(t->p, op_img_bin(ctx, IR_PE_NE, best, nv), op_nn_seq(t->p, st, 4));
}

/* soft_nms() in TIR. */
static IrStmt *
soft_tir(const VisNmsTir *t, const NmsLower *w, double iou_thr)
{
  IrCtx *ctx = t->ctx;
  const Nms *m = w->m;
  IrDType dt = w->out->dtype;
  double thresh = ir_float_round(dt, ir_float_round(IR_F32, m->score_threshold));
  double scale = ir_float_round(dt, ir_float_round(IR_F32, -0.5 / m->sigma));
  IrPrimExpr *keep = op_vis_st_get(t, VIS_ST_KEEP), *nv = op_vis_st_get(t, VIS_ST_NV),
             *th = op_img_f64(ctx, thresh);
  IrPrimExpr *sc = op_nn_index(ctx, m->score_index), *best = op_nn_acc(t->p, w->acc, 0);
  IrPrimExpr *step, *j, *q;
  IrStmt *sloop, **sbody = rows_loop(t, w, &step, &sloop);
  /* the best remaining row */
  IrStmt *jloop, **jbody = rows_loop(t, w, &j, &jloop);
  IrPrimExpr *better = op_img_bin(
      ctx, IR_PE_AND,
      op_img_bin(ctx, IR_PE_AND, op_img_bin(ctx, IR_PE_GE, j, nv),
                 op_img_bin(ctx, IR_PE_LT, j, keep)),
      op_img_bin(ctx, IR_PE_AND, op_img_bin(ctx, IR_PE_GE, obi_at(t, w, j), op_nn_index(ctx, 0)),
                 op_img_bin(ctx, IR_PE_GT, out_at(t, w, j, sc), best)));
  IrStmt *found[2] = {op_vis_st_set(t, VIS_ST_BEST, j),
                      op_nn_acc_set(t->p, w->acc, 0, out_at(t, w, j, sc))};
  *jbody = op_nn_if(t->p, better, op_nn_seq(t->p, found, 2));
  /* the later rows decayed or dropped */
  IrStmt *qloop, **qbody = rows_loop(t, w, &q, &qloop);
  OpLets l = {ctx, {0}, {0}, 0};
  IrPrimExpr *iou = op_let(&l, "iou", op_vis_iou_tir(t, &l, row_box, (void *)w, nv, q));
  IrPrimExpr *thr = op_img_f64(ctx, iou_thr), *neg = op_nn_index(ctx, -1);
  IrPrimExpr *decay = op_img_intrin(
      ctx, "tir.exp",
      op_img_bin(ctx, IR_PE_MUL, op_img_bin(ctx, IR_PE_MUL, op_img_f64(ctx, scale), iou), iou));
  IrStmt *decayed[2] = {
      out_set(t, w, q, sc, op_img_bin(ctx, IR_PE_MUL, out_at(t, w, q, sc), decay)),
      op_nn_if(t->p, op_img_bin(ctx, IR_PE_LE, out_at(t, w, q, sc), th), obi_set(t, w, q, neg))};
  IrStmt *drop[2] = {
      op_nn_if(t->p, op_img_bin(ctx, IR_PE_GE, iou, thr), obi_set(t, w, q, neg)),
      op_nn_if(t->p, op_img_bin(ctx, IR_PE_LT, iou, thr), op_nn_seq(t->p, decayed, 2))};
  IrPrimExpr *later = op_nn_and(
      ctx, same_class_tir(t, w, nv, q),
      op_img_bin(ctx, IR_PE_AND,
                 op_img_bin(ctx, IR_PE_AND, op_img_bin(ctx, IR_PE_GT, q, nv),
                            op_img_bin(ctx, IR_PE_LT, q, keep)),
                 op_img_bin(ctx, IR_PE_AND,
                            op_img_bin(ctx, IR_PE_GE, obi_at(t, w, q), op_nn_index(ctx, 0)),
                            op_img_bin(ctx, IR_PE_GT, out_at(t, w, q, sc), th))));
  *qbody = op_nn_if(t->p, later, op_lets_wrap(&l, op_nn_seq(t->p, drop, 2), t->p->lz->loc));
  IrStmt *chosen[3] = {swap_rows_tir(t, w), qloop,
                       op_vis_st_add(t, VIS_ST_NV, op_nn_index(ctx, 1))};
  IrStmt *round[4] = {
      op_vis_st_set(t, VIS_ST_BEST, op_nn_index(ctx, -1)), op_nn_acc_set(t->p, w->acc, 0, th),
      jloop,
      op_nn_if(t->p, op_img_bin(ctx, IR_PE_GE, op_vis_st_get(t, VIS_ST_BEST), op_nn_index(ctx, 0)),
               op_nn_seq(t->p, chosen, 3))};
  *sbody = op_nn_if(t->p, op_nn_and(ctx, under_max(t, w), op_img_bin(ctx, IR_PE_LT, step, keep)),
                    op_nn_seq(t->p, round, 4));
  IrStmt *st[2] = {op_vis_st_set(t, VIS_ST_NV, op_nn_index(ctx, 0)), sloop};
  return op_nn_seq(t->p, st, 2);
}

/* indices[b, box index at j], the box index clamped into the row (it
 * is there by construction). */
static IrPrimExpr *
original_index(const VisNmsTir *t, const NmsLower *w, IrPrimExpr *j)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *pos = op_img_bin(
      ctx, IR_PE_MAX,
      op_img_bin(ctx, IR_PE_MIN, obi_at(t, w, j), op_nn_sub(ctx, w->n, op_nn_index(ctx, 1))),
      op_nn_index(ctx, 0));
  IrPrimExpr *at[2] = {w->b, pos};
  return op_prim_load(t->p, w->indices, op_nn_index_copy(ctx, at, 2));
}

/* The kernel's refusal, before anything is written: each batch's
 * valid_count at most N. */
static void
nms_check(OpPrim *p, IrBuffer *valid, IrPrimExpr *n)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **b;
  IrStmt **slot = op_prim_check_loops(p, valid->shape, 1, &b, NULL);
  IrPrimExpr *vc = op_nn_to(ctx, IR_I64, op_prim_load_at(p, valid, b[0]));
  *slot = op_prim_assert(p, op_img_bin(ctx, IR_PE_LE, vc, op_nn_to(ctx, IR_I64, n)),
                         "valid_count past num_anchors");
}

/* The end of nms_batch(): box indices or rows moved up, the rest -1;
 * st[NV] the count. */
static IrStmt *
finish_tir(const VisNmsTir *t, const NmsLower *w, IrBuffer *count)
{
  IrCtx *ctx = t->ctx;
  const Nms *m = w->m;
  bool soft = m->sigma > 0.0;
  IrPrimExpr *j, *jt, *nv = op_vis_st_get(t, VIS_ST_NV), *zero = op_nn_index(ctx, 0);
  IrStmt *st[4], *loop, *rest, **body = rows_loop(t, w, &j, &loop);
  IrStmt **tail = rows_loop(t, w, &jt, &rest); /* the rows past the kept ones */
  int n = 0;
  if (m->return_indices && !soft) {
    IrPrimExpr *jj;
    IrStmt *scan, **sb = rows_loop(t, w, &jj, &scan);
    IrStmt *moved[2] = {obi_set(t, w, nv, original_index(t, w, jj)),
                        op_vis_st_add(t, VIS_ST_NV, op_nn_index(ctx, 1))};
    *sb = op_nn_if(t->p, op_img_bin(ctx, IR_PE_GE, obi_at(t, w, jj), zero),
                   op_nn_seq(t->p, moved, 2));
    st[n++] = op_vis_st_set(t, VIS_ST_NV, zero), st[n++] = scan;
    *tail =
        op_nn_if(t->p, op_img_bin(ctx, IR_PE_GE, jt, nv), obi_set(t, w, jt, op_nn_index(ctx, -1)));
    st[n++] = rest;
  } else if (m->return_indices) {
    *body = op_vis_if_else(t->p, op_img_bin(ctx, IR_PE_LT, j, nv),
                           obi_set(t, w, j, original_index(t, w, j)), clear_row_tir(t, w, j));
    st[n++] = loop;
  } else {
    if (soft) {
      *body = op_nn_if(t->p, op_img_bin(ctx, IR_PE_GE, j, nv), clear_row_tir(t, w, j));
      st[n++] = loop;
    }
    if (m->invalid_to_bottom) { /* st[OFF]: the rows moved up */
      IrPrimExpr *jj, *c;
      IrStmt *scan, **sb = rows_loop(t, w, &jj, &scan), *copy;
      IrStmt **elem = loop_over(t, w->l, &c, &copy);
      IrPrimExpr *off = op_vis_st_get(t, VIS_ST_OFF);
      *elem = out_set(t, w, off, c, out_at(t, w, jj, c));
      IrStmt *moved[2] = {copy, op_vis_st_add(t, VIS_ST_OFF, op_nn_index(ctx, 1))};
      *sb = op_nn_if(t->p,
                     op_img_bin(ctx, IR_PE_GE, out_at(t, w, jj, op_nn_index(ctx, m->score_index)),
                                op_img_f64(ctx, 0.0)),
                     op_nn_seq(t->p, moved, 2));
      st[n++] = op_vis_st_set(t, VIS_ST_OFF, zero), st[n++] = scan;
      *tail = op_nn_if(t->p, op_img_bin(ctx, IR_PE_GE, jt, off), clear_row_tir(t, w, jt));
      st[n++] = rest;
    }
  }
  if (count) {
    IrPrimExpr *at[2] = {w->b, zero};
    st[n++] = op_prim_store(t->p, count, op_nn_index_copy(ctx, at, 2), op_nn_to(ctx, IR_I32, nv));
  }
  return op_nn_seq(t->p, st, n);
}

IrExpr *
op_vis_legalize_nms(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  Nms m;
  OpPrim p;
  if (!parse_nms(s, &m))
    return NULL;
  bool soft = m.sigma > 0.0;
  int nout = !m.return_indices ? 1 : soft ? 3 : 2;
  if (nout > 1 && (result->kind != IR_SI_TUPLE || result->u.tuple.n != nout))
    return NULL;
  const IrExpr *x = s->call->u.call.args[0];
  if (!x->sinfo || x->sinfo->kind != IR_SI_TENSOR || !x->sinfo->u.tensor.shape ||
      x->sinfo->u.tensor.ndim != 3)
    return NULL;
  op_prim_begin(lz, &p, "non_max_suppression");
  NmsLower w = {.m = &m,
                .data = op_prim_input(&p, x, "data"),
                .valid = op_prim_input(&p, s->call->u.call.args[1], "valid_count"),
                .indices = op_prim_input(&p, s->call->u.call.args[2], "indices")};
  IrBuffer *count = NULL;
  IrPrimExpr **dims = x->sinfo->u.tensor.shape;
  if (nout == 1) {
    w.out = op_prim_output(&p, result, "out_data");
    w.obi = op_prim_alloc(&p, IR_I32, dims, 2, "box_indices");
  } else {
    const IrSInfo *const *f = (const IrSInfo *const *)result->u.tuple.fields;
    w.out = soft ? op_prim_output(&p, f[0], "out_data")
                 : op_prim_alloc(&p, w.data ? w.data->dtype : IR_F32, dims, 3, "out_data");
    w.obi = op_prim_output(&p, f[soft], "box_indices");
    count = op_prim_output(&p, f[soft + 1], "valid_box_count");
  }
  if (!w.data || !w.valid || !w.indices || !w.out || !w.obi || (nout > 1 && !count) ||
      w.data->ndim != 3)
    return op_prim_give_up(&p);
  w.acc = op_nn_acc_new(&p, 2);
  w.n = w.data->shape[1], w.l = w.data->shape[2];
  nms_check(&p, w.valid, w.n);
  VisNmsTir t = op_vis_nms_tir_new(&p, dims[1]);
  IrPrimExpr **bb;
  IrStmt *batches, **body = op_prim_loop_nest(&p, &w.data->shape[0], 1, &bb, &batches);
  w.b = bb[0];
  IrPrimExpr *zero = op_nn_index(ctx, 0), *valid = op_vis_st_get(&t, VIS_ST_VALID);
  IrPrimExpr *vc = op_nn_to(ctx, IR_I64, op_prim_load_at(&p, w.valid, w.b));
  IrPrimExpr *keep = valid;
  if (m.top_k > 0)
    keep = op_img_bin(ctx, IR_PE_MIN, valid, op_nn_index(ctx, m.top_k));
  double iou_thr = ir_float_round(w.data->dtype, m.iou);
  IrStmt *st[6] = {
      op_vis_st_set(&t, VIS_ST_VALID,
                    op_img_bin(ctx, IR_PE_MAX,
                               op_img_bin(ctx, IR_PE_MIN, vc, op_nn_to(ctx, IR_I64, w.n)), zero)),
      op_vis_rank_tir(&t, w.n, valid, data_score, &w),
      op_vis_st_set(&t, VIS_ST_KEEP, keep),
      copy_sorted_tir(&t, &w),
      soft ? soft_tir(&t, &w, iou_thr) : hard_tir(&t, &w, iou_thr),
      finish_tir(&t, &w, count)};
  *body = op_nn_seq(&p, st, 6);
  op_prim_emit(&p, batches);
  return op_prim_finish(&p, s->call, result);
}
