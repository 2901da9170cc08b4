/*
 * vision_nms.c - the hooks of R.vision.all_class_non_max_suppression,
 * whose entry is vision.c's, and the pieces it shares with
 * vision_classic_nms.c's R.vision.non_max_suppression (image_int.h): the
 * sort, the IoU and the lowerings' scratch.
 *
 * Semantics are TOPI's (python/tvm/topi/vision/nms.py, nms_util.py), step
 * by step, so that every output element is what TOPI writes there:
 *  - scores sort descending, stably, a NaN first (sort.c's total order:
 *    TVM's std::stable_sort leaves NaN unordered); the lowering ranks each
 *    score by counting the scores before it, which gives the same
 *    permutation;
 *  - all_class: a binary search of the sorted scores for score_threshold
 *    (strictly above) gives the candidates, searched exactly as TOPI does,
 *    so a NaN among them gives TOPI's count too; then the greedy loop: a
 *    candidate still above -1 and above score_threshold is selected while
 *    fewer than max_output_boxes_per_class are, and marks -1 every later
 *    candidate whose score is above 0 and whose IoU with it is at least
 *    iou_threshold; nothing is selected unless iou_threshold > 0;
 *    max_output_boxes_per_class is read at run time (TVM's legalization
 *    reads it only from a constant and takes num_boxes otherwise); a
 *    negative one selects nothing (TVM fails to build an output of
 *    negative rows);
 *  - the IoU is TOPI's calculate_overlap: corners ordered by min/max
 *    (a < b ? a : b, as TIR's min), 0 when the union is not positive.
 * Kernels compute in double (the IoU too: TOPI's is in the boxes' dtype,
 * which can differ only for an IoU within rounding of the threshold); the
 * lowerings compute the same in float64 TIR.
 *
 * Outputs have the fixed shapes of the struct info (TVM's legalization
 * trims the ONNX rows with dynamic_strided_slice; rxc keeps them padded):
 * the selected rows first, then zeros (TOPI zero-fills its padded rows), so
 * the outputs' sizes bound the arena whatever the data.  Every index the
 * lowerings compute is inside its buffer by construction (ranks and
 * searches stay in [0, N), a class selects at most N boxes), whatever the
 * scores, thresholds or max_output_boxes_per_class.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "image_int.h"

/* TIR's min and max (a < b ? a : b), whose NaN behaviour the IoU keeps. */
static double
min2(double a, double b)
{
  return a < b ? a : b;
}

static double
max2(double a, double b)
{
  return a > b ? a : b;
}

/* TOPI's calculate_overlap of boxes a and b (4 coordinates each). */
double
op_vis_box_iou(const double *a, const double *b)
{
  double al = min2(a[0], a[2]), at = min2(a[1], a[3]), ar = max2(a[0], a[2]), ab = max2(a[1], a[3]);
  double bl = min2(b[0], b[2]), bt = min2(b[1], b[3]), br = max2(b[0], b[2]), bb = max2(b[1], b[3]);
  double w = max2(0.0, min2(ar, br) - max2(al, bl));
  double h = max2(0.0, min2(ab, bb) - max2(at, bt));
  double area = h * w;
  double u = (ar - al) * (ab - at) + (br - bl) * (bb - bt) - area;
  return u <= 0.0 ? 0.0 : area / u;
}

/* Score u at position i comes before score v at position j: descending,
 * a NaN before every number, ties by position. */
static bool
score_before(double u, int64_t i, double v, int64_t j)
{
  bool uv = u > v || (v == v && u != u), vu = v > u || (u == u && v != v);
  return uv || (!vu && i < j);
}

/* order[0..n) = the positions of s[0..n) sorted by score_before (an
 * insertion sort: stable under a total order, as the lowering's ranks). */
void
op_vis_sort_scores(const double *s, int64_t n, int64_t *order)
{
  for (int64_t i = 0; i < n; i++) {
    int64_t k = i;
    while (k > 0 && score_before(s[i], i, s[order[k - 1]], order[k - 1])) {
      order[k] = order[k - 1];
      k--;
    }
    order[k] = i;
  }
}

/* ------------------------------------------------------------------ */
/* all_class_non_max_suppression                                       */
/* ------------------------------------------------------------------ */

/* Argument i (max_output_boxes_per_class, iou_threshold, score_threshold)
 * must be a scalar: rank 0, or rank 1 of one element (TOPI reads [0]);
 * of an integer dtype with integer (a float count's cast to int64 in the
 * generated C would be undefined for NaN). */
static bool
scalar_arg(OpInfer *in, const OpSite *s, IrSInfo **args, int i, const char *what, bool integer)
{
  IrSInfo *t;
  if (!op_nn_tensor_arg(in, s, args, i, what, &t))
    return false;
  int nd = op_nn_ndim(t);
  IrPrimExpr **d = op_nn_shape(t);
  if (nd > 1 ||
      (d && nd == 1 && op_assume_equal(in, d[0], op_nn_int(in->ctx, 1)) == IR_PROVE_FALSE)) {
    return op_fail(s, "%s must be a scalar tensor (shape () or (1,)), not %s", what,
                   op_sinfo_text(in->ctx, t));
  }
  IrDType dt = op_nn_dtype(t);
  if (integer && dt.code != IR_DT_VOID && dt.code != IR_DT_INT && dt.code != IR_DT_UINT)
    return op_fail(s, "%s must be an integer tensor, not %s", what, op_nn_dtype_str(in->ctx, dt));
  return true;
}

/* R.vision.all_class_non_max_suppression(boxes [B, N, 4], scores
 * [B, C, N], max_output_boxes_per_class, iou_threshold, score_threshold)
 * as TVM's struct info: fixed-size outputs, whose valid rows a count
 * says.  "onnx": (selected [B * C * N, 3] int64, count [1] int64);
 * "tensorflow": (indices [B, C * N, 2] int64, scores [B, C * N] float32,
 * counts [B] int64).  TVM does not check that boxes and scores agree;
 * rxc does (TOPI would read past boxes otherwise). */
IrSInfo *
op_vis_infer_all_class_nms(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrCtx *ctx = in->ctx;
  IrSInfo *boxes, *scores;
  const char *format;
  if (!op_nn_attr_str(s, "output_format", "onnx", &format) ||
      !op_nn_tensor_arg(in, s, args, 0, "boxes", &boxes) ||
      !op_nn_tensor_arg(in, s, args, 1, "scores", &scores) ||
      !scalar_arg(in, s, args, 2, "max_output_boxes_per_class", true) ||
      !scalar_arg(in, s, args, 3, "iou_threshold", false) ||
      !scalar_arg(in, s, args, 4, "score_threshold", false))
    return NULL;
  bool onnx = strcmp(format, "onnx") == 0;
  if (!onnx && strcmp(format, "tensorflow") != 0)
    return op_fail_null(s, "unsupported output_format \"%s\" (onnx or tensorflow)", format);
  if (op_nn_ndim(boxes) != 3 || op_nn_ndim(scores) != 3)
    return op_fail_null(s, "boxes and scores must be 3-D tensors of known rank");
  IrPrimExpr **b = op_nn_shape(boxes), **sc = op_nn_shape(scores);
  if (b && op_assume_equal(in, b[2], op_nn_int(ctx, 4)) == IR_PROVE_FALSE)
    return op_fail_null(s, "boxes must have shape (batch, num_boxes, 4), not last dim %s",
                        op_nn_expr_str(ctx, b[2]));
  if (b && sc &&
      (op_assume_equal(in, sc[0], b[0]) == IR_PROVE_FALSE ||
       op_assume_equal(in, sc[2], b[1]) == IR_PROVE_FALSE)) {
    return op_fail_null(s,
                        "scores must have shape (batch, num_classes, num_boxes) of boxes' batch "
                        "and num_boxes");
  }
  int vd = op_nn_vdevice(boxes);
  if (!b || !sc) /* TVM needs the shapes; without them only ranks */
    return op_vis_tuple(ctx, ir_sinfo_tensor(ctx, NULL, onnx ? 2 : 3, IR_I64, vd),
                        ir_sinfo_tensor(ctx, NULL, onnx ? 1 : 2, onnx ? IR_I64 : IR_F32, vd),
                        onnx ? NULL : ir_sinfo_tensor(ctx, NULL, 1, IR_I64, vd));
  IrPrimExpr *per_batch = op_nn_simplify(in, ir_prim_bin(ctx, IR_PE_MUL, sc[1], b[1]));
  if (onnx) {
    IrPrimExpr **sel = ir_alloc(ctx, sizeof *sel * 2), **one = ir_alloc(ctx, sizeof *one);
    sel[0] = op_nn_simplify(in, ir_prim_bin(ctx, IR_PE_MUL, b[0], per_batch));
    sel[1] = op_nn_int(ctx, 3), one[0] = op_nn_int(ctx, 1);
    return op_vis_tuple(ctx, ir_sinfo_tensor(ctx, sel, 2, IR_I64, vd),
                        ir_sinfo_tensor(ctx, one, 1, IR_I64, vd), NULL);
  }
  IrPrimExpr **idx = ir_alloc(ctx, sizeof *idx * 3), **scs = ir_alloc(ctx, sizeof *scs * 2);
  idx[0] = b[0], idx[1] = per_batch, idx[2] = op_nn_int(ctx, 2);
  scs[0] = b[0], scs[1] = per_batch;
  return op_vis_tuple(ctx, ir_sinfo_tensor(ctx, idx, 3, IR_I64, vd),
                      ir_sinfo_tensor(ctx, scs, 2, IR_F32, vd),
                      ir_sinfo_tensor(ctx, b, 1, IR_I64, vd));
}

/* The scalars of a call. */
typedef struct {
  int64_t max_boxes;
  double iou, score;
} NmsScalars;

/* TOPI's search of s[0..n) (sorted descending) for the candidates above
 * threshold: the count when s is sorted, something in [0, n] always. */
static int64_t
search_above(const double *s, int64_t n, double threshold)
{
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = (lo + hi) >> 1;
    if (s[mid] > threshold)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The boxes one (batch, class) selects, in order, into sel (positions)
 * and sel_score; returns how many.  s: the class's scores in the order
 * of order (overwritten: TOPI marks suppressed candidates -1). */
static int64_t
select_class(const IrTensorData *boxes, int64_t b, const NmsScalars *k, const int64_t *order,
             double *s, int64_t n, int64_t *sel, double *sel_score)
{
  int64_t valid = search_above(s, n, k->score), nv = 0;
  if (!(k->iou > 0.0) || valid <= 0)
    return 0;
  for (int64_t j = 0; j < valid; j++) {
    if (!(s[j] > -1.0 && nv < k->max_boxes && s[j] > k->score))
      continue;
    sel[nv] = order[j], sel_score[nv] = s[j];
    nv++;
    double bj[4], bk[4];
    for (int c = 0; c < 4; c++)
      bj[c] = op_get_f(boxes, (b * n + order[j]) * 4 + c);
    for (int64_t q = j + 1; q < valid; q++) {
      if (!(s[q] > 0.0))
        continue;
      for (int c = 0; c < 4; c++)
        bk[c] = op_get_f(boxes, (b * n + order[q]) * 4 + c);
      if (op_vis_box_iou(bj, bk) >= k->iou)
        s[q] = -1.0;
    }
  }
  return nv;
}

/* A scalar argument's first element, or false after an error. */
static bool
scalar_value(const OpSite *s, Value **args, int i, const char *what, const IrTensorData **out)
{
  const IrTensorData *t = op_nn_tensor_value(s, args, i, what);
  if (!t)
    return false;
  if (op_numel(t) < 1)
    return op_fail(s, "%s must hold a value", what);
  *out = t;
  return true;
}

Value *
op_vis_eval_all_class_nms(OpEval *ev, const OpSite *s, Value **args)
{
  const char *format;
  const IrTensorData *boxes = op_nn_tensor_value(s, args, 0, "boxes");
  const IrTensorData *scores = op_nn_tensor_value(s, args, 1, "scores");
  const IrTensorData *mx, *iou, *sth;
  if (!boxes || !scores || !op_nn_attr_str(s, "output_format", "onnx", &format) ||
      !scalar_value(s, args, 2, "max_output_boxes_per_class", &mx) ||
      !scalar_value(s, args, 3, "iou_threshold", &iou) ||
      !scalar_value(s, args, 4, "score_threshold", &sth))
    return NULL;
  if (boxes->ndim != 3 || scores->ndim != 3 || boxes->shape[2] != 4 ||
      scores->shape[0] != boxes->shape[0] || scores->shape[2] != boxes->shape[1]) {
    return op_fail_null(s, "expected boxes [B, N, 4] and scores [B, C, N]");
  }
  bool onnx = strcmp(format, "onnx") == 0;
  NmsScalars k = {op_get_i(mx, 0), op_get_f(iou, 0), op_get_f(sth, 0)};
  int64_t B = boxes->shape[0], C = scores->shape[1], N = boxes->shape[1];
  int64_t rows[3] = {B * C * N, 3}, one = 1, tf_idx[3] = {B, C * N, 2}, tf_sc[2] = {B, C * N};
  Value *out[3];
  if (onnx) {
    out[0] = op_nn_tensor_new(s, IR_I64, 2, rows);
    out[1] = op_nn_tensor_new(s, IR_I64, 1, &one);
  } else {
    out[0] = op_nn_tensor_new(s, IR_I64, 3, tf_idx);
    out[1] = op_nn_tensor_new(s, IR_F32, 2, tf_sc);
    out[2] = op_nn_tensor_new(s, IR_I64, 1, &B);
  }
  size_t n = (size_t)(N ? N : 1);
  double *sc = malloc(n * sizeof *sc), *sel_score = malloc(n * sizeof *sel_score);
  int64_t *order = malloc(n * sizeof *order), *sel = malloc(n * sizeof *sel);
  bool ok = out[0] && out[1] && (onnx || out[2]);
  if (ok && !(sc && sel_score && order && sel)) {
    op_report(s, "out of memory");
    ok = false;
  }
  int64_t total = 0; /* rows written (onnx: all; tensorflow: this batch's) */
  for (int64_t b = 0; ok && b < B; b++) {
    if (!onnx)
      total = 0;
    for (int64_t c = 0; c < C; c++) {
      for (int64_t i = 0; i < N; i++)
        sc[i] = op_get_f(scores, (b * C + c) * N + i);
      op_vis_sort_scores(sc, N, order);
      for (int64_t i = 0; i < N; i++)
        sel_score[i] = op_get_f(scores, (b * C + c) * N + order[i]);
      memcpy(sc, sel_score, n * sizeof *sc);
      int64_t nv = select_class(boxes, b, &k, order, sc, N, sel, sel_score);
      for (int64_t j = 0; j < nv; j++, total++) {
        if (onnx) {
          op_set_i(&out[0]->u.tensor.t, total * 3 + 0, b);
          op_set_i(&out[0]->u.tensor.t, total * 3 + 1, c);
          op_set_i(&out[0]->u.tensor.t, total * 3 + 2, sel[j]);
        } else {
          op_set_i(&out[0]->u.tensor.t, (b * C * N + total) * 2 + 0, c);
          op_set_i(&out[0]->u.tensor.t, (b * C * N + total) * 2 + 1, sel[j]);
          op_set_f(&out[1]->u.tensor.t, b * C * N + total, sel_score[j]);
        }
      }
    }
    if (!onnx)
      op_set_i(&out[2]->u.tensor.t, b, total);
  }
  if (ok && onnx)
    op_set_i(&out[1]->u.tensor.t, 0, total);
  free(sc), free(sel_score), free(order), free(sel);
  return !ok ? NULL : op_tuple_new(ev->ctx, out, onnx ? 2 : 3);
}

/* ------------------------------------------------------------------ */
/* The lowerings' pieces                                               */
/* ------------------------------------------------------------------ */

VisNmsTir
op_vis_nms_tir_new(OpPrim *p, IrPrimExpr *relax_n)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *k = op_nn_int(ctx, VIS_NMS_ST);
  VisNmsTir t = {p, ctx, op_prim_alloc(p, IR_I64, &relax_n, 1, "order"),
                 op_prim_alloc(p, op_nn_f64_type(), &relax_n, 1, "sorted"),
                 op_prim_alloc(p, IR_I64, &k, 1, "state")};
  return t;
}

IrPrimExpr *
op_vis_st_get(const VisNmsTir *t, int k)
{
  return op_prim_load_at(t->p, t->st, op_nn_index(t->ctx, k));
}

IrStmt *
op_vis_st_set(const VisNmsTir *t, int k, IrPrimExpr *v)
{
  return op_prim_store_at(t->p, t->st, op_nn_index(t->ctx, k), v);
}

IrStmt *
op_vis_st_add(const VisNmsTir *t, int k, IrPrimExpr *v)
{
  return op_vis_st_set(t, k, op_nn_add(t->ctx, op_vis_st_get(t, k), v));
}

static IrPrimExpr *
not_(IrCtx *ctx, IrPrimExpr *a)
{
  return ir_prim_bin(ctx, IR_PE_NOT, a, NULL);
}

/* if cond: then_ else: else_ */
IrStmt *
op_vis_if_else(OpPrim *p, IrPrimExpr *cond, IrStmt *then_, IrStmt *else_)
{
  IrStmt *s = op_nn_if(p, cond, then_);
  s->u.branch.else_ = else_;
  return s;
}

/* A scalar argument's first element. */
static IrPrimExpr *
load_scalar(OpPrim *p, IrBuffer *b)
{
  IrPrimExpr *zero[1] = {op_nn_index(p->lz->ctx, 0)};
  return op_prim_load(p, b, op_nn_index_copy(p->lz->ctx, zero, b->ndim));
}

/* score_before() in TIR: u at position i before v at position j. */
static IrPrimExpr *
before_tir(IrCtx *ctx, IrPrimExpr *u, IrPrimExpr *i, IrPrimExpr *v, IrPrimExpr *j)
{
  IrPrimExpr *uv = op_img_bin(
      ctx, IR_PE_OR, op_img_bin(ctx, IR_PE_GT, u, v),
      op_img_bin(ctx, IR_PE_AND, op_img_bin(ctx, IR_PE_EQ, v, v), op_img_bin(ctx, IR_PE_NE, u, u)));
  IrPrimExpr *vu = op_img_bin(
      ctx, IR_PE_OR, op_img_bin(ctx, IR_PE_GT, v, u),
      op_img_bin(ctx, IR_PE_AND, op_img_bin(ctx, IR_PE_EQ, u, u), op_img_bin(ctx, IR_PE_NE, v, v)));
  return op_img_bin(ctx, IR_PE_OR, uv,
                    op_img_bin(ctx, IR_PE_AND, not_(ctx, vu), op_img_bin(ctx, IR_PE_LT, i, j)));
}

/* order and sorted from the row's first `limit` scores (all n when
 * limit is NULL) by rank: each score goes where the count of the scores
 * before it says; a position at or past limit keeps its place. */
IrStmt *
op_vis_rank_tir(const VisNmsTir *t, IrPrimExpr *n, IrPrimExpr *limit, VisScoreAt score, void *env)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr **i, **j;
  IrStmt *outer, *inner;
  IrStmt **body = op_prim_loop_nest(t->p, &n, 1, &i, &outer);
  IrStmt **count = op_prim_loop_nest(t->p, &n, 1, &j, &inner);
  OpLets lv = {ctx, {0}, {0}, 0}, lu = {ctx, {0}, {0}, 0};
  IrPrimExpr *v = op_let(&lv, "v", score(t, env, i[0])), *u = op_let(&lu, "u", score(t, env, j[0]));
  IrPrimExpr *before = before_tir(ctx, u, j[0], v, i[0]);
  if (limit)
    before = op_img_bin(ctx, IR_PE_AND, op_img_bin(ctx, IR_PE_LT, j[0], limit), before);
  *count = op_lets_wrap(
      &lu,
      op_vis_st_add(t, VIS_ST_RANK,
                    ir_prim_select(ctx, before, op_nn_index(ctx, 1), op_nn_index(ctx, 0))),
      t->p->lz->loc);
  IrPrimExpr *rank = op_vis_st_get(t, VIS_ST_RANK);
  IrStmt *place[4] = {op_vis_st_set(t, VIS_ST_RANK, op_nn_index(ctx, 0)), inner,
                      op_prim_store_at(t->p, t->order, rank, i[0]),
                      op_prim_store_at(t->p, t->sorted, rank, v)};
  IrStmt *ranked = op_lets_wrap(&lv, op_nn_seq(t->p, place, 4), t->p->lz->loc);
  if (limit) {
    IrStmt *kept[2] = {op_prim_store_at(t->p, t->order, i[0], i[0]),
                       op_prim_store_at(t->p, t->sorted, i[0], score(t, env, i[0]))};
    ranked = op_vis_if_else(t->p, op_img_bin(ctx, IR_PE_LT, i[0], limit), ranked,
                            op_nn_seq(t->p, kept, 2));
  }
  *body = ranked;
  return outer;
}

/* Steps enough for a binary search over n: floor(log2(n)) + 1, or 64
 * when n is symbolic. */
static IrPrimExpr *
search_steps(IrCtx *ctx, IrPrimExpr *n)
{
  int64_t v, steps = 1;
  if (!ir_prim_is_int(n, &v))
    return op_nn_index(ctx, 64);
  while (steps < 63 && ((int64_t)1 << steps) <= v)
    steps++;
  return op_nn_index(ctx, steps);
}

/* search_above() in TIR: st[LO] = the candidates above threshold. */
static IrStmt *
search_tir(const VisNmsTir *t, IrPrimExpr *n, IrPrimExpr *threshold)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *steps = search_steps(ctx, n), **it;
  IrStmt *loop, **body = op_prim_loop_nest(t->p, &steps, 1, &it, &loop);
  OpLets l = {ctx, {0}, {0}, 0};
  IrPrimExpr *lo = op_vis_st_get(t, VIS_ST_LO), *hi = op_vis_st_get(t, VIS_ST_HI);
  IrPrimExpr *mid =
      op_let(&l, "mid", op_nn_floordiv(ctx, op_nn_add(ctx, lo, hi), op_nn_index(ctx, 2)));
  IrStmt *step = op_vis_if_else(
      t->p, op_img_bin(ctx, IR_PE_GT, op_prim_load_at(t->p, t->sorted, mid), threshold),
      op_vis_st_set(t, VIS_ST_LO, op_nn_add(ctx, mid, op_nn_index(ctx, 1))),
      op_vis_st_set(t, VIS_ST_HI, mid));
  *body = op_nn_if(t->p, op_img_bin(ctx, IR_PE_LT, lo, hi), op_lets_wrap(&l, step, t->p->lz->loc));
  IrStmt *st[3] = {op_vis_st_set(t, VIS_ST_LO, op_nn_index(ctx, 0)),
                   op_vis_st_set(t, VIS_ST_HI, op_nn_to(ctx, IR_I64, n)), loop};
  return op_nn_seq(t->p, st, 3);
}

/* op_vis_box_iou() of the boxes at positions i and j, its quantities let-bound
 * in l. */
IrPrimExpr *
op_vis_iou_tir(const VisNmsTir *t, OpLets *l, VisBoxAt box, void *env, IrPrimExpr *i, IrPrimExpr *j)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *c[2][4], *e[2][4];
  static const char *const names[2][4] = {{"al", "at", "ar", "ab"}, {"bl", "bt", "br", "bb"}};
  box(t, env, i, c[0]);
  box(t, env, j, c[1]);
  for (int k = 0; k < 2; k++)
    for (int a = 0; a < 2; a++) {
      e[k][a] = op_let(l, names[k][a], op_img_bin(ctx, IR_PE_MIN, c[k][a], c[k][a + 2]));
      e[k][a + 2] = op_let(l, names[k][a + 2], op_img_bin(ctx, IR_PE_MAX, c[k][a], c[k][a + 2]));
    }
  IrPrimExpr *zero = op_img_f64(ctx, 0.0), *side[2];
  for (int a = 0; a < 2; a++)
    side[a] = op_let(
        l, a ? "h" : "w",
        op_img_bin(ctx, IR_PE_MAX, zero,
                   op_img_bin(ctx, IR_PE_SUB, op_img_bin(ctx, IR_PE_MIN, e[0][a + 2], e[1][a + 2]),
                              op_img_bin(ctx, IR_PE_MAX, e[0][a], e[1][a]))));
  IrPrimExpr *area = op_let(l, "area", op_img_bin(ctx, IR_PE_MUL, side[1], side[0])), *sz[2];
  for (int k = 0; k < 2; k++)
    sz[k] = op_img_bin(ctx, IR_PE_MUL, op_img_bin(ctx, IR_PE_SUB, e[k][2], e[k][0]),
                       op_img_bin(ctx, IR_PE_SUB, e[k][3], e[k][1]));
  IrPrimExpr *u = op_let(
      l, "union_area", op_img_bin(ctx, IR_PE_SUB, op_img_bin(ctx, IR_PE_ADD, sz[0], sz[1]), area));
  return ir_prim_select(ctx, op_img_bin(ctx, IR_PE_LE, u, zero), zero,
                        op_img_bin(ctx, IR_PE_DIV, area, u));
}

/* ------------------------------------------------------------------ */
/* all_class_non_max_suppression's lowering                            */
/* ------------------------------------------------------------------ */

typedef struct {
  IrBuffer *boxes, *scores;
  IrPrimExpr *b, *c; /* the batch and class being suppressed */
} AllClassTir;

static IrPrimExpr *
class_score(const VisNmsTir *t, void *env, IrPrimExpr *i)
{
  AllClassTir *a = env;
  IrPrimExpr *at[3] = {a->b, a->c, i};
  return op_nn_f64(t->ctx, op_prim_load(t->p, a->scores, op_nn_index_copy(t->ctx, at, 3)));
}

static void
class_box(const VisNmsTir *t, void *env, IrPrimExpr *i, IrPrimExpr **corner)
{
  AllClassTir *a = env;
  for (int k = 0; k < 4; k++) {
    IrPrimExpr *at[3] = {a->b, i, op_nn_index(t->ctx, k)};
    corner[k] = op_nn_f64(t->ctx, op_prim_load(t->p, a->boxes, op_nn_index_copy(t->ctx, at, 3)));
  }
}

/* select_class() in TIR: selected boxes stored by `keep` (the rank j
 * selected, st[NV] the count before it). */
static IrStmt *
select_tir(const VisNmsTir *t, AllClassTir *a, IrPrimExpr *n, IrPrimExpr *iou_thr,
           IrPrimExpr *score_thr, IrPrimExpr *max_boxes,
           IrStmt *(*keep)(const VisNmsTir *, void *, IrPrimExpr *), void *env)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *valid = op_vis_st_get(t, VIS_ST_LO), **j, **q;
  IrStmt *jloop, *qloop;
  IrStmt **jbody = op_prim_loop_nest(t->p, &n, 1, &j, &jloop);
  IrStmt **qbody = op_prim_loop_nest(t->p, &n, 1, &q, &qloop);
  IrPrimExpr *sj = op_prim_load_at(t->p, t->sorted, j[0]),
             *sq = op_prim_load_at(t->p, t->sorted, q[0]);
  OpLets l = {ctx, {0}, {0}, 0};
  IrPrimExpr *iou = op_vis_iou_tir(t, &l, class_box, a, op_prim_load_at(t->p, t->order, j[0]),
                                   op_prim_load_at(t->p, t->order, q[0]));
  IrStmt *mark = op_nn_if(t->p, op_img_bin(ctx, IR_PE_GE, iou, iou_thr),
                          op_prim_store_at(t->p, t->sorted, q[0], op_img_f64(ctx, -1.0)));
  IrPrimExpr *later = op_img_bin(ctx, IR_PE_AND,
                                 op_img_bin(ctx, IR_PE_AND, op_img_bin(ctx, IR_PE_GT, q[0], j[0]),
                                            op_img_bin(ctx, IR_PE_LT, q[0], valid)),
                                 op_img_bin(ctx, IR_PE_GT, sq, op_img_f64(ctx, 0.0)));
  *qbody = op_nn_if(t->p, later, op_lets_wrap(&l, mark, t->p->lz->loc));
  IrPrimExpr *chosen = op_img_bin(
      ctx, IR_PE_AND,
      op_img_bin(ctx, IR_PE_AND, op_img_bin(ctx, IR_PE_LT, j[0], valid),
                 op_img_bin(ctx, IR_PE_GT, sj, op_img_f64(ctx, -1.0))),
      op_img_bin(ctx, IR_PE_AND, op_img_bin(ctx, IR_PE_LT, op_vis_st_get(t, VIS_ST_NV), max_boxes),
                 op_img_bin(ctx, IR_PE_GT, sj, score_thr)));
  IrStmt *sel[3] = {keep(t, env, j[0]), op_vis_st_add(t, VIS_ST_NV, op_nn_index(ctx, 1)), qloop};
  *jbody = op_nn_if(t->p, chosen, op_nn_seq(t->p, sel, 3));
  IrPrimExpr *go =
      op_img_bin(ctx, IR_PE_AND, op_img_bin(ctx, IR_PE_GT, iou_thr, op_img_f64(ctx, 0.0)),
                 op_img_bin(ctx, IR_PE_GT, valid, op_nn_index(ctx, 0)));
  IrStmt *st[2] = {op_vis_st_set(t, VIS_ST_NV, op_nn_index(ctx, 0)), op_nn_if(t->p, go, jloop)};
  return op_nn_seq(t->p, st, 2);
}

/* The outputs of the lowering and where a selection goes. */
typedef struct {
  AllClassTir *a;
  bool onnx;
  IrBuffer *out[3];
} AllClassOut;

/* The selection at rank j written at row st[OFF] + st[NV]. */
static IrStmt *
keep_selected(const VisNmsTir *t, void *env, IrPrimExpr *j)
{
  AllClassOut *o = env;
  IrCtx *ctx = t->ctx;
  IrPrimExpr *row = op_nn_add(ctx, op_vis_st_get(t, VIS_ST_OFF), op_vis_st_get(t, VIS_ST_NV));
  IrPrimExpr *pos = op_prim_load_at(t->p, t->order, j);
  IrStmt *st[3];
  if (o->onnx) {
    IrPrimExpr *v[3] = {o->a->b, o->a->c, pos};
    for (int k = 0; k < 3; k++) {
      IrPrimExpr *at[2] = {row, op_nn_index(ctx, k)};
      st[k] =
          op_prim_store(t->p, o->out[0], op_nn_index_copy(ctx, at, 2), op_nn_to(ctx, IR_I64, v[k]));
    }
    return op_nn_seq(t->p, st, 3);
  }
  IrPrimExpr *v[2] = {o->a->c, pos};
  for (int k = 0; k < 2; k++) {
    IrPrimExpr *at[3] = {o->a->b, row, op_nn_index(ctx, k)};
    st[k] =
        op_prim_store(t->p, o->out[0], op_nn_index_copy(ctx, at, 3), op_nn_to(ctx, IR_I64, v[k]));
  }
  IrPrimExpr *at[2] = {o->a->b, row};
  st[2] = op_prim_store(t->p, o->out[1], op_nn_index_copy(ctx, at, 2),
                        op_nn_to(ctx, IR_F32, op_prim_load_at(t->p, t->sorted, j)));
  return op_nn_seq(t->p, st, 3);
}

/* The rows past the selected ones zeroed: ONNX's [rows, 3] (batch NULL)
 * or a batch's tensorflow indices and scores. */
static IrStmt *
pad_rows(const VisNmsTir *t, AllClassOut *o, IrPrimExpr *batch)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *ext = o->onnx ? o->out[0]->shape[0] : o->out[0]->shape[1], **r;
  IrStmt *loop, **body = op_prim_loop_nest(t->p, &ext, 1, &r, &loop);
  IrStmt *st[3];
  int n = 0;
  for (int k = 0; k < (o->onnx ? 3 : 2); k++) {
    IrPrimExpr *at[3] = {batch, r[0], op_nn_index(ctx, k)};
    IrPrimExpr **idx = op_nn_index_copy(ctx, o->onnx ? at + 1 : at, o->onnx ? 2 : 3);
    st[n++] = op_prim_store(t->p, o->out[0], idx, op_nn_index(ctx, 0));
  }
  if (!o->onnx) {
    IrPrimExpr *at[2] = {batch, r[0]};
    st[n++] =
        op_prim_store(t->p, o->out[1], op_nn_index_copy(ctx, at, 2), op_nn_lit(ctx, IR_F32, 0.0));
  }
  *body = op_nn_if(t->p, op_img_bin(ctx, IR_PE_GE, r[0], op_vis_st_get(t, VIS_ST_OFF)),
                   op_nn_seq(t->p, st, n));
  return loop;
}

IrExpr *
op_vis_legalize_all_class_nms(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  const char *format;
  OpPrim p;
  if (!op_nn_attr_str(s, "output_format", "onnx", &format))
    return NULL;
  bool onnx = strcmp(format, "onnx") == 0;
  AllClassTir a = {NULL, NULL, NULL, NULL};
  AllClassOut o = {&a, onnx, {NULL, NULL, NULL}};
  IrBuffer *mx, *iou, *sth;
  if (!op_vis_prim_open(
          lz, &p, "all_class_non_max_suppression", s->call, result,
          (OpPrimParam[]){{"boxes", &a.boxes},
                          {"scores", &a.scores},
                          {"max_output_boxes_per_class", &mx},
                          {"iou_threshold", &iou},
                          {"score_threshold", &sth},
                          {"selected_indices", &o.out[0]},
                          {onnx ? "num_total_detections" : "selected_scores", &o.out[1]},
                          {"num_detections", &o.out[2]}},
          5, onnx ? 2 : 3))
    return NULL;
  if (a.boxes->ndim != 3 || a.scores->ndim != 3 || mx->ndim > 1 || iou->ndim > 1 || sth->ndim > 1)
    return op_prim_give_up(&p);
  VisNmsTir t = op_vis_nms_tir_new(&p, s->call->u.call.args[0]->sinfo->u.tensor.shape[1]);
  IrPrimExpr *n = a.boxes->shape[1];
  IrPrimExpr *max_boxes = op_nn_to(ctx, IR_I64, load_scalar(&p, mx));
  IrPrimExpr *iou_thr = op_nn_f64(ctx, load_scalar(&p, iou)),
             *score_thr = op_nn_f64(ctx, load_scalar(&p, sth));
  IrPrimExpr **bb, **bc;
  IrStmt *batches, **per_batch = op_prim_loop_nest(&p, &a.boxes->shape[0], 1, &bb, &batches);
  IrStmt *classes, **body = op_prim_loop_nest(&p, &a.scores->shape[1], 1, &bc, &classes);
  a.b = bb[0], a.c = bc[0];
  IrStmt *st[3] = {op_vis_rank_tir(&t, n, NULL, class_score, &a), search_tir(&t, n, score_thr),
                   select_tir(&t, &a, n, iou_thr, score_thr, max_boxes, keep_selected, &o)};
  IrStmt *per_class[2] = {op_nn_seq(&p, st, 3),
                          op_vis_st_add(&t, VIS_ST_OFF, op_vis_st_get(&t, VIS_ST_NV))};
  *body = op_nn_seq(&p, per_class, 2);
  IrPrimExpr *zero = op_nn_index(ctx, 0);
  if (onnx) {
    *per_batch = classes;
    op_prim_emit(&p, op_vis_st_set(&t, VIS_ST_OFF, zero));
    op_prim_emit(&p, batches);
    op_prim_emit(&p, pad_rows(&t, &o, NULL));
    op_prim_emit(&p, op_prim_store_at(&p, o.out[1], zero, op_vis_st_get(&t, VIS_ST_OFF)));
  } else {
    IrStmt *b[4] = {op_vis_st_set(&t, VIS_ST_OFF, zero), classes, pad_rows(&t, &o, a.b),
                    op_prim_store_at(&p, o.out[2], a.b, op_vis_st_get(&t, VIS_ST_OFF))};
    *per_batch = op_nn_seq(&p, b, 4);
    op_prim_emit(&p, batches);
  }
  return op_prim_finish(&p, s->call, result);
}
