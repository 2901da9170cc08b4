/*
 * vision_nms.c - the hooks of the non-maximum suppressions,
 * R.vision.all_class_non_max_suppression and R.vision.non_max_suppression,
 * whose entries are vision.c's (declared in image_int.h).
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
 * scores, thresholds or max_output_boxes_per_class (negative selects
 * nothing).
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
static double
box_iou(const double *a, const double *b)
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
static void
sort_scores(const double *s, int64_t n, int64_t *order)
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
 * must be a scalar: rank 0, or rank 1 of one element (TOPI reads [0]). */
static bool
scalar_arg(OpInfer *in, const IrExpr *call, IrSInfo **args, int i, const char *what)
{
  NnSite s = op_nn_site_infer(in, call);
  IrSInfo *t;
  if (!op_nn_tensor_arg(in, call, args, i, what, &t))
    return false;
  int nd = op_nn_ndim(t);
  IrPrimExpr **d = op_nn_shape(t);
  if (nd > 1 ||
      (d && nd == 1 && op_assume_equal(in, d[0], op_nn_int(in->ctx, 1)) == IR_PROVE_FALSE)) {
    op_nn_error(&s, "%s must be a scalar tensor (shape () or (1,)), not %s", what,
                op_sinfo_text(in->ctx, t));
    return false;
  }
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
op_vis_infer_all_class_nms(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  NnSite s = op_nn_site_infer(in, call);
  IrCtx *ctx = in->ctx;
  IrSInfo *boxes, *scores;
  const char *format;
  if (!op_nn_attr_str(&s, "output_format", "onnx", &format) ||
      !op_nn_tensor_arg(in, call, args, 0, "boxes", &boxes) ||
      !op_nn_tensor_arg(in, call, args, 1, "scores", &scores) ||
      !scalar_arg(in, call, args, 2, "max_output_boxes_per_class") ||
      !scalar_arg(in, call, args, 3, "iou_threshold") ||
      !scalar_arg(in, call, args, 4, "score_threshold"))
    return NULL;
  bool onnx = strcmp(format, "onnx") == 0;
  if (!onnx && strcmp(format, "tensorflow") != 0) {
    op_nn_error(&s, "unsupported output_format \"%s\" (onnx or tensorflow)", format);
    return NULL;
  }
  if (op_nn_ndim(boxes) != 3 || op_nn_ndim(scores) != 3) {
    op_nn_error(&s, "boxes and scores must be 3-D tensors of known rank");
    return NULL;
  }
  IrPrimExpr **b = op_nn_shape(boxes), **sc = op_nn_shape(scores);
  if (b && op_assume_equal(in, b[2], op_nn_int(ctx, 4)) == IR_PROVE_FALSE) {
    op_nn_error(&s, "boxes must have shape (batch, num_boxes, 4), not last dim %s",
                op_nn_expr_str(ctx, b[2]));
    return NULL;
  }
  if (b && sc &&
      (op_assume_equal(in, sc[0], b[0]) == IR_PROVE_FALSE ||
       op_assume_equal(in, sc[2], b[1]) == IR_PROVE_FALSE)) {
    op_nn_error(&s, "scores must have shape (batch, num_classes, num_boxes) of boxes' batch "
                    "and num_boxes");
    return NULL;
  }
  int vd = op_nn_vdevice(boxes);
  IrSInfo **f = ir_alloc(ctx, sizeof *f * 3);
  if (!b || !sc) { /* TVM needs the shapes; without them only ranks */
    f[0] = ir_sinfo_tensor(ctx, NULL, onnx ? 2 : 3, IR_I64, vd);
    f[1] = onnx ? ir_sinfo_tensor(ctx, NULL, 1, IR_I64, vd)
                : ir_sinfo_tensor(ctx, NULL, 2, IR_F32, vd);
    f[2] = ir_sinfo_tensor(ctx, NULL, 1, IR_I64, vd);
    return ir_sinfo_tuple(ctx, f, onnx ? 2 : 3);
  }
  IrPrimExpr *per_batch = op_nn_simplify(in, ir_prim_bin(ctx, IR_PE_MUL, sc[1], b[1]));
  if (onnx) {
    IrPrimExpr **sel = ir_alloc(ctx, sizeof *sel * 2), **one = ir_alloc(ctx, sizeof *one);
    sel[0] = op_nn_simplify(in, ir_prim_bin(ctx, IR_PE_MUL, b[0], per_batch));
    sel[1] = op_nn_int(ctx, 3), one[0] = op_nn_int(ctx, 1);
    f[0] = ir_sinfo_tensor(ctx, sel, 2, IR_I64, vd);
    f[1] = ir_sinfo_tensor(ctx, one, 1, IR_I64, vd);
    return ir_sinfo_tuple(ctx, f, 2);
  }
  IrPrimExpr **idx = ir_alloc(ctx, sizeof *idx * 3), **scs = ir_alloc(ctx, sizeof *scs * 2);
  idx[0] = b[0], idx[1] = per_batch, idx[2] = op_nn_int(ctx, 2);
  scs[0] = b[0], scs[1] = per_batch;
  f[0] = ir_sinfo_tensor(ctx, idx, 3, IR_I64, vd);
  f[1] = ir_sinfo_tensor(ctx, scs, 2, IR_F32, vd);
  f[2] = ir_sinfo_tensor(ctx, b, 1, IR_I64, vd);
  return ir_sinfo_tuple(ctx, f, 3);
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
      if (box_iou(bj, bk) >= k->iou)
        s[q] = -1.0;
    }
  }
  return nv;
}

/* A scalar argument's first element, or false after an error. */
static bool
scalar_value(const NnSite *s, Value **args, int i, const char *what, const IrTensorData **out)
{
  const IrTensorData *t = op_nn_tensor_value(s, args, i, what);
  if (!t)
    return false;
  if (op_numel(t) < 1) {
    op_nn_error(s, "%s must hold a value", what);
    return false;
  }
  *out = t;
  return true;
}

Value *
op_vis_eval_all_class_nms(OpEval *ev, const IrExpr *call, Value **args)
{
  NnSite s = op_nn_site_eval(ev, call);
  const char *format;
  const IrTensorData *boxes = op_nn_tensor_value(&s, args, 0, "boxes");
  const IrTensorData *scores = op_nn_tensor_value(&s, args, 1, "scores");
  const IrTensorData *mx, *iou, *sth;
  if (!boxes || !scores || !op_nn_attr_str(&s, "output_format", "onnx", &format) ||
      !scalar_value(&s, args, 2, "max_output_boxes_per_class", &mx) ||
      !scalar_value(&s, args, 3, "iou_threshold", &iou) ||
      !scalar_value(&s, args, 4, "score_threshold", &sth))
    return NULL;
  if (boxes->ndim != 3 || scores->ndim != 3 || boxes->shape[2] != 4 ||
      scores->shape[0] != boxes->shape[0] || scores->shape[2] != boxes->shape[1]) {
    op_nn_error(&s, "expected boxes [B, N, 4] and scores [B, C, N]");
    return NULL;
  }
  bool onnx = strcmp(format, "onnx") == 0;
  NmsScalars k = {op_get_i(mx, 0), op_get_f(iou, 0), op_get_f(sth, 0)};
  int64_t B = boxes->shape[0], C = scores->shape[1], N = boxes->shape[1];
  int64_t rows[3] = {B * C * N, 3}, one = 1, tf_idx[3] = {B, C * N, 2}, tf_sc[2] = {B, C * N};
  Value *out[3];
  if (onnx) {
    out[0] = op_nn_tensor_new(&s, IR_I64, 2, rows);
    out[1] = op_nn_tensor_new(&s, IR_I64, 1, &one);
  } else {
    out[0] = op_nn_tensor_new(&s, IR_I64, 3, tf_idx);
    out[1] = op_nn_tensor_new(&s, IR_F32, 2, tf_sc);
    out[2] = op_nn_tensor_new(&s, IR_I64, 1, &B);
  }
  size_t n = (size_t)(N ? N : 1);
  double *sc = malloc(n * sizeof *sc), *sel_score = malloc(n * sizeof *sel_score);
  int64_t *order = malloc(n * sizeof *order), *sel = malloc(n * sizeof *sel);
  bool ok = out[0] && out[1] && (onnx || out[2]);
  if (ok && !(sc && sel_score && order && sel)) {
    op_nn_error(&s, "out of memory");
    ok = false;
  }
  int64_t total = 0; /* rows written (onnx: all; tensorflow: this batch's) */
  for (int64_t b = 0; ok && b < B; b++) {
    if (!onnx)
      total = 0;
    for (int64_t c = 0; c < C; c++) {
      for (int64_t i = 0; i < N; i++)
        sc[i] = op_get_f(scores, (b * C + c) * N + i);
      sort_scores(sc, N, order);
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

/* The scratch of an NMS lowering: one row of scores at a time. */
typedef struct {
  OpPrim *p;
  IrCtx *ctx;
  IrBuffer *order;  /* int64 [N]: the positions by rank */
  IrBuffer *sorted; /* float64 [N]: their scores (-1 once suppressed) */
  IrBuffer *st;     /* int64 [NMS_ST]: the counters */
} NmsTir;

enum { ST_RANK, ST_LO, ST_HI, ST_NV, ST_OFF, ST_VALID, ST_KEEP, ST_BEST, NMS_ST };

static NmsTir
nms_tir_new(OpPrim *p, IrPrimExpr *relax_n)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *k = op_nn_int(ctx, NMS_ST);
  NmsTir t = {p, ctx, op_prim_alloc(p, IR_I64, &relax_n, 1, "order"),
              op_prim_alloc(p, op_nn_f64_type(), &relax_n, 1, "sorted"),
              op_prim_alloc(p, IR_I64, &k, 1, "state")};
  return t;
}

static IrPrimExpr *
st_get(const NmsTir *t, int k)
{
  return op_prim_load_at(t->p, t->st, op_nn_index(t->ctx, k));
}

static IrStmt *
st_set(const NmsTir *t, int k, IrPrimExpr *v)
{
  return op_prim_store_at(t->p, t->st, op_nn_index(t->ctx, k), v);
}

static IrStmt *
st_add(const NmsTir *t, int k, IrPrimExpr *v)
{
  return st_set(t, k, op_nn_add(t->ctx, st_get(t, k), v));
}

static IrPrimExpr *
bin(IrCtx *ctx, IrPrimKind k, IrPrimExpr *a, IrPrimExpr *b)
{
  return ir_prim_bin(ctx, k, a, b);
}

static IrPrimExpr *
not_(IrCtx *ctx, IrPrimExpr *a)
{
  return ir_prim_bin(ctx, IR_PE_NOT, a, NULL);
}

/* if cond: then_ else: else_ */
static IrStmt *
if_else(OpPrim *p, IrPrimExpr *cond, IrStmt *then_, IrStmt *else_)
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
  IrPrimExpr *uv = bin(ctx, IR_PE_OR, bin(ctx, IR_PE_GT, u, v),
                       bin(ctx, IR_PE_AND, bin(ctx, IR_PE_EQ, v, v), bin(ctx, IR_PE_NE, u, u)));
  IrPrimExpr *vu = bin(ctx, IR_PE_OR, bin(ctx, IR_PE_GT, v, u),
                       bin(ctx, IR_PE_AND, bin(ctx, IR_PE_EQ, u, u), bin(ctx, IR_PE_NE, v, v)));
  return bin(ctx, IR_PE_OR, uv, bin(ctx, IR_PE_AND, not_(ctx, vu), bin(ctx, IR_PE_LT, i, j)));
}

/* A row's scores, read at a position (float64). */
typedef IrPrimExpr *(*ScoreAt)(const NmsTir *t, void *env, IrPrimExpr *i);

/* order and sorted from the row's first `limit` scores (all n when
 * limit is NULL) by rank: each score goes where the count of the scores
 * before it says; a position at or past limit keeps its place. */
static IrStmt *
rank_tir(const NmsTir *t, IrPrimExpr *n, IrPrimExpr *limit, ScoreAt score, void *env)
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
    before = bin(ctx, IR_PE_AND, bin(ctx, IR_PE_LT, j[0], limit), before);
  *count = op_lets_wrap(
      &lu,
      st_add(t, ST_RANK, ir_prim_select(ctx, before, op_nn_index(ctx, 1), op_nn_index(ctx, 0))),
      t->p->lz->loc);
  IrPrimExpr *rank = st_get(t, ST_RANK);
  IrStmt *place[4] = {st_set(t, ST_RANK, op_nn_index(ctx, 0)), inner,
                      op_prim_store_at(t->p, t->order, rank, i[0]),
                      op_prim_store_at(t->p, t->sorted, rank, v)};
  IrStmt *ranked = op_lets_wrap(&lv, op_nn_seq(t->p, place, 4), t->p->lz->loc);
  if (limit) {
    IrStmt *kept[2] = {op_prim_store_at(t->p, t->order, i[0], i[0]),
                       op_prim_store_at(t->p, t->sorted, i[0], score(t, env, i[0]))};
    ranked = if_else(t->p, bin(ctx, IR_PE_LT, i[0], limit), ranked, op_nn_seq(t->p, kept, 2));
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
search_tir(const NmsTir *t, IrPrimExpr *n, IrPrimExpr *threshold)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *steps = search_steps(ctx, n), **it;
  IrStmt *loop, **body = op_prim_loop_nest(t->p, &steps, 1, &it, &loop);
  OpLets l = {ctx, {0}, {0}, 0};
  IrPrimExpr *lo = st_get(t, ST_LO), *hi = st_get(t, ST_HI);
  IrPrimExpr *mid =
      op_let(&l, "mid", op_nn_floordiv(ctx, op_nn_add(ctx, lo, hi), op_nn_index(ctx, 2)));
  IrStmt *step =
      if_else(t->p, bin(ctx, IR_PE_GT, op_prim_load_at(t->p, t->sorted, mid), threshold),
              st_set(t, ST_LO, op_nn_add(ctx, mid, op_nn_index(ctx, 1))), st_set(t, ST_HI, mid));
  *body = op_nn_if(t->p, bin(ctx, IR_PE_LT, lo, hi), op_lets_wrap(&l, step, t->p->lz->loc));
  IrStmt *st[3] = {st_set(t, ST_LO, op_nn_index(ctx, 0)),
                   st_set(t, ST_HI, op_nn_to(ctx, IR_I64, n)), loop};
  return op_nn_seq(t->p, st, 3);
}

/* A box's corners (float64) at a position of the row: l, t, r, b. */
typedef void (*BoxAt)(const NmsTir *t, void *env, IrPrimExpr *i, IrPrimExpr **corner);

/* box_iou() of the boxes at positions i and j, its quantities let-bound
 * in l. */
static IrPrimExpr *
iou_tir(const NmsTir *t, OpLets *l, BoxAt box, void *env, IrPrimExpr *i, IrPrimExpr *j)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *c[2][4], *e[2][4];
  static const char *const names[2][4] = {{"al", "at", "ar", "ab"}, {"bl", "bt", "br", "bb"}};
  box(t, env, i, c[0]);
  box(t, env, j, c[1]);
  for (int k = 0; k < 2; k++)
    for (int a = 0; a < 2; a++) {
      e[k][a] = op_let(l, names[k][a], bin(ctx, IR_PE_MIN, c[k][a], c[k][a + 2]));
      e[k][a + 2] = op_let(l, names[k][a + 2], bin(ctx, IR_PE_MAX, c[k][a], c[k][a + 2]));
    }
  IrPrimExpr *zero = op_img_f64(ctx, 0.0), *side[2];
  for (int a = 0; a < 2; a++)
    side[a] = op_let(l, a ? "h" : "w",
                     bin(ctx, IR_PE_MAX, zero,
                         bin(ctx, IR_PE_SUB, bin(ctx, IR_PE_MIN, e[0][a + 2], e[1][a + 2]),
                             bin(ctx, IR_PE_MAX, e[0][a], e[1][a]))));
  IrPrimExpr *area = op_let(l, "area", bin(ctx, IR_PE_MUL, side[1], side[0])), *sz[2];
  for (int k = 0; k < 2; k++)
    sz[k] = bin(ctx, IR_PE_MUL, bin(ctx, IR_PE_SUB, e[k][2], e[k][0]),
                bin(ctx, IR_PE_SUB, e[k][3], e[k][1]));
  IrPrimExpr *u =
      op_let(l, "union_area", bin(ctx, IR_PE_SUB, bin(ctx, IR_PE_ADD, sz[0], sz[1]), area));
  return ir_prim_select(ctx, bin(ctx, IR_PE_LE, u, zero), zero, bin(ctx, IR_PE_DIV, area, u));
}

/* ------------------------------------------------------------------ */
/* all_class_non_max_suppression's lowering                            */
/* ------------------------------------------------------------------ */

typedef struct {
  IrBuffer *boxes, *scores;
  IrPrimExpr *b, *c; /* the batch and class being suppressed */
} AllClassTir;

static IrPrimExpr *
class_score(const NmsTir *t, void *env, IrPrimExpr *i)
{
  AllClassTir *a = env;
  IrPrimExpr *at[3] = {a->b, a->c, i};
  return op_nn_f64(t->ctx, op_prim_load(t->p, a->scores, op_nn_index_copy(t->ctx, at, 3)));
}

static void
class_box(const NmsTir *t, void *env, IrPrimExpr *i, IrPrimExpr **corner)
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
select_tir(const NmsTir *t, AllClassTir *a, IrPrimExpr *n, IrPrimExpr *iou_thr,
           IrPrimExpr *score_thr, IrPrimExpr *max_boxes,
           IrStmt *(*keep)(const NmsTir *, void *, IrPrimExpr *), void *env)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *valid = st_get(t, ST_LO), **j, **q;
  IrStmt *jloop, *qloop;
  IrStmt **jbody = op_prim_loop_nest(t->p, &n, 1, &j, &jloop);
  IrStmt **qbody = op_prim_loop_nest(t->p, &n, 1, &q, &qloop);
  IrPrimExpr *sj = op_prim_load_at(t->p, t->sorted, j[0]),
             *sq = op_prim_load_at(t->p, t->sorted, q[0]);
  OpLets l = {ctx, {0}, {0}, 0};
  IrPrimExpr *iou = iou_tir(t, &l, class_box, a, op_prim_load_at(t->p, t->order, j[0]),
                            op_prim_load_at(t->p, t->order, q[0]));
  IrStmt *mark = op_nn_if(t->p, bin(ctx, IR_PE_GE, iou, iou_thr),
                          op_prim_store_at(t->p, t->sorted, q[0], op_img_f64(ctx, -1.0)));
  IrPrimExpr *later =
      bin(ctx, IR_PE_AND,
          bin(ctx, IR_PE_AND, bin(ctx, IR_PE_GT, q[0], j[0]), bin(ctx, IR_PE_LT, q[0], valid)),
          bin(ctx, IR_PE_GT, sq, op_img_f64(ctx, 0.0)));
  *qbody = op_nn_if(t->p, later, op_lets_wrap(&l, mark, t->p->lz->loc));
  IrPrimExpr *chosen = bin(ctx, IR_PE_AND,
                           bin(ctx, IR_PE_AND, bin(ctx, IR_PE_LT, j[0], valid),
                               bin(ctx, IR_PE_GT, sj, op_img_f64(ctx, -1.0))),
                           bin(ctx, IR_PE_AND, bin(ctx, IR_PE_LT, st_get(t, ST_NV), max_boxes),
                               bin(ctx, IR_PE_GT, sj, score_thr)));
  IrStmt *sel[3] = {keep(t, env, j[0]), st_add(t, ST_NV, op_nn_index(ctx, 1)), qloop};
  *jbody = op_nn_if(t->p, chosen, op_nn_seq(t->p, sel, 3));
  IrPrimExpr *go = bin(ctx, IR_PE_AND, bin(ctx, IR_PE_GT, iou_thr, op_img_f64(ctx, 0.0)),
                       bin(ctx, IR_PE_GT, valid, op_nn_index(ctx, 0)));
  IrStmt *st[2] = {st_set(t, ST_NV, op_nn_index(ctx, 0)), op_nn_if(t->p, go, jloop)};
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
keep_selected(const NmsTir *t, void *env, IrPrimExpr *j)
{
  AllClassOut *o = env;
  IrCtx *ctx = t->ctx;
  IrPrimExpr *row = op_nn_add(ctx, st_get(t, ST_OFF), st_get(t, ST_NV));
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
pad_rows(const NmsTir *t, AllClassOut *o, IrPrimExpr *batch)
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
  *body = op_nn_if(t->p, bin(ctx, IR_PE_GE, r[0], st_get(t, ST_OFF)), op_nn_seq(t->p, st, n));
  return loop;
}

IrExpr *
op_vis_legalize_all_class_nms(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  NnSite s = op_nn_site_legalize(lz, call);
  IrCtx *ctx = lz->ctx;
  const char *format;
  OpPrim p;
  if (!op_nn_attr_str(&s, "output_format", "onnx", &format) || result->kind != IR_SI_TUPLE)
    return NULL;
  bool onnx = strcmp(format, "onnx") == 0;
  int nout = onnx ? 2 : 3;
  if (result->u.tuple.n != nout)
    return NULL;
  op_prim_begin(lz, &p, "all_class_non_max_suppression");
  AllClassTir a = {op_prim_input(&p, call->u.call.args[0], "boxes"),
                   op_prim_input(&p, call->u.call.args[1], "scores"), NULL, NULL};
  IrBuffer *mx = op_prim_input(&p, call->u.call.args[2], "max_output_boxes_per_class");
  IrBuffer *iou = op_prim_input(&p, call->u.call.args[3], "iou_threshold");
  IrBuffer *sth = op_prim_input(&p, call->u.call.args[4], "score_threshold");
  static const char *const names[2][3] = {
      {"selected_indices", "num_total_detections", NULL},
      {"selected_indices", "selected_scores", "num_detections"}};
  AllClassOut o = {&a, onnx, {NULL, NULL, NULL}};
  bool ok = a.boxes && a.scores && mx && iou && sth && a.boxes->ndim == 3 && a.scores->ndim == 3 &&
            mx->ndim <= 1 && iou->ndim <= 1 && sth->ndim <= 1;
  for (int k = 0; k < nout; k++)
    ok = ok && (o.out[k] = op_prim_output(&p, result->u.tuple.fields[k], names[!onnx][k]));
  if (!ok) {
    op_prim_abort(&p);
    return NULL;
  }
  NmsTir t = nms_tir_new(&p, call->u.call.args[0]->sinfo->u.tensor.shape[1]);
  IrPrimExpr *n = a.boxes->shape[1];
  IrPrimExpr *max_boxes = op_nn_to(ctx, IR_I64, load_scalar(&p, mx));
  IrPrimExpr *iou_thr = op_nn_f64(ctx, load_scalar(&p, iou)),
             *score_thr = op_nn_f64(ctx, load_scalar(&p, sth));
  IrPrimExpr **bb, **bc;
  IrStmt *batches, **per_batch = op_prim_loop_nest(&p, &a.boxes->shape[0], 1, &bb, &batches);
  IrStmt *classes, **body = op_prim_loop_nest(&p, &a.scores->shape[1], 1, &bc, &classes);
  a.b = bb[0], a.c = bc[0];
  IrStmt *st[3] = {rank_tir(&t, n, NULL, class_score, &a), search_tir(&t, n, score_thr),
                   select_tir(&t, &a, n, iou_thr, score_thr, max_boxes, keep_selected, &o)};
  IrStmt *per_class[2] = {op_nn_seq(&p, st, 3), st_add(&t, ST_OFF, st_get(&t, ST_NV))};
  *body = op_nn_seq(&p, per_class, 2);
  IrPrimExpr *zero = op_nn_index(ctx, 0);
  if (onnx) {
    *per_batch = classes;
    op_prim_emit(&p, st_set(&t, ST_OFF, zero));
    op_prim_emit(&p, batches);
    op_prim_emit(&p, pad_rows(&t, &o, NULL));
    op_prim_emit(&p, op_prim_store_at(&p, o.out[1], zero, st_get(&t, ST_OFF)));
  } else {
    IrStmt *b[4] = {st_set(&t, ST_OFF, zero), classes, pad_rows(&t, &o, a.b),
                    op_prim_store_at(&p, o.out[2], a.b, st_get(&t, ST_OFF))};
    *per_batch = op_nn_seq(&p, b, 4);
    op_prim_emit(&p, batches);
  }
  return op_prim_finish(&p, call, result);
}

/* ------------------------------------------------------------------ */
/* non_max_suppression                                                 */
/* ------------------------------------------------------------------ */

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
 * invalid_to_bottom) and the rest -1.  valid_count is clamped into
 * [0, N] by the lowering (R.take's policy: the kernel refuses one past N;
 * a negative one keeps nothing, as in TOPI). */
typedef struct {
  int64_t max_output_size, top_k, coord_start, score_index, id_index;
  double iou, sigma, score_threshold;
  bool force_suppress, return_indices, invalid_to_bottom;
} Nms;

static bool
parse_nms(const NnSite *s, Nms *m)
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
  if (m->score_index < 0 || m->coord_start < 0 || m->id_index < -1) {
    op_nn_error(s, "score_index and coord_start must be >= 0 and id_index >= -1");
    return false;
  }
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

IrSInfo *
op_vis_infer_nms(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  NnSite s = op_nn_site_infer(in, call);
  IrCtx *ctx = in->ctx;
  Nms m;
  IrSInfo *t[3];
  static const char *const names[3] = {"data", "valid_count", "indices"};
  static const int ranks[3] = {3, 1, 2};
  if (!parse_nms(&s, &m))
    return NULL;
  for (int i = 0; i < 3; i++) {
    if (!op_nn_tensor_arg(in, call, args, i, names[i], &t[i]))
      return NULL;
    if (op_nn_ndim(t[i]) >= 0 && op_nn_ndim(t[i]) != ranks[i]) {
      op_nn_error(&s, "%s must be %d-D, not %d-D", names[i], ranks[i], op_nn_ndim(t[i]));
      return NULL;
    }
    IrDType dt = op_nn_dtype(t[i]);
    if (i > 0 && dt.code != IR_DT_VOID && !ir_dtype_eq(dt, IR_I32)) {
      op_nn_error(&s, "%s must be int32, not %s", names[i], op_nn_dtype_str(ctx, dt));
      return NULL;
    }
  }
  IrPrimExpr **d = op_nn_shape(t[0]), **vc = op_nn_shape(t[1]), **ix = op_nn_shape(t[2]);
  if (d && vc && op_assume_equal(in, vc[0], d[0]) == IR_PROVE_FALSE) {
    op_nn_error(&s, "valid_count must have shape [batch_size]");
    return NULL;
  }
  if (d && ix &&
      (op_assume_equal(in, ix[0], d[0]) == IR_PROVE_FALSE ||
       op_assume_equal(in, ix[1], d[1]) == IR_PROVE_FALSE)) {
    op_nn_error(&s, "indices must have shape [batch_size, num_anchors]");
    return NULL;
  }
  int64_t len;
  if (d && ir_prim_is_int(d[2], &len) && nms_columns(&m) > len) {
    op_nn_error(&s,
                "score_index, id_index and coord_start .. coord_start + 3 must be columns of "
                "elem_length %lld",
                (long long)len);
    return NULL;
  }
  if (d) /* a symbolic elem_length must hold them (checked at run time) */
    op_assume(in, ir_prim_bin(ctx, IR_PE_GE, d[2], op_nn_int(ctx, nms_columns(&m))));
  IrDType dt = op_nn_dtype(t[0]);
  int vd = op_nn_vdevice(t[0]);
  IrSInfo *data = ir_sinfo_tensor(ctx, d, 3, dt, vd);
  if (!m.return_indices)
    return data;
  IrSInfo **f = ir_alloc(ctx, sizeof *f * 3), **g = f;
  IrPrimExpr **two = NULL;
  if (d) {
    two = ir_alloc(ctx, sizeof *two * 2);
    two[0] = d[0], two[1] = op_nn_int(ctx, 1);
  }
  if (m.sigma > 0.0)
    *g++ = data;
  *g++ = ir_sinfo_tensor(ctx, d, 2, IR_I32, vd);
  *g++ = ir_sinfo_tensor(ctx, two, 2, IR_I32, vd);
  return ir_sinfo_tuple(ctx, f, (int)(g - f));
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
  return box_iou(row_of(k, j) + k->m->coord_start, row_of(k, q) + k->m->coord_start);
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
  sort_scores(w->s, valid, w->order);
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
op_vis_eval_nms(OpEval *ev, const IrExpr *call, Value **args)
{
  NnSite s = op_nn_site_eval(ev, call);
  Nms m;
  const IrTensorData *data = op_nn_tensor_value(&s, args, 0, "data");
  const IrTensorData *vc = op_nn_tensor_value(&s, args, 1, "valid_count");
  const IrTensorData *ix = op_nn_tensor_value(&s, args, 2, "indices");
  if (!data || !vc || !ix || !parse_nms(&s, &m))
    return NULL;
  if (data->ndim != 3 || vc->ndim != 1 || ix->ndim != 2 || vc->shape[0] != data->shape[0] ||
      ix->shape[0] != data->shape[0] || ix->shape[1] != data->shape[1] ||
      nms_columns(&m) > data->shape[2]) {
    op_nn_error(&s, "expected data [B, N, L] holding the columns, valid_count [B], indices [B, N]");
    return NULL;
  }
  int64_t B = data->shape[0], N = data->shape[1], L = data->shape[2], cshape[2] = {B, 1};
  Value *out = op_nn_tensor_new(&s, data->dtype, 3, data->shape);
  Value *obi = op_nn_tensor_new(&s, IR_I32, 2, data->shape);
  Value *count = op_nn_tensor_new(&s, IR_I32, 2, cshape);
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
    op_nn_error(&s, "out of memory");
  for (int64_t b = 0; ok && b < B; b++) {
    int64_t valid = op_get_i(vc, b);
    if (valid > N) {
      op_nn_error(&s, "valid_count[%lld] = %lld is past num_anchors %lld", (long long)b,
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
/* non_max_suppression's lowering                                      */
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
loop_over(const NmsTir *t, IrPrimExpr *extent, IrPrimExpr **j, IrStmt **loop)
{
  IrPrimExpr **v;
  IrStmt **body = op_prim_loop_nest(t->p, &extent, 1, &v, loop);
  *j = v[0];
  return body;
}

static IrPrimExpr *
out_at(const NmsTir *t, const NmsLower *w, IrPrimExpr *j, IrPrimExpr *c)
{
  IrPrimExpr *at[3] = {w->b, j, c};
  return op_nn_f64(t->ctx, op_prim_load(t->p, w->out, op_nn_index_copy(t->ctx, at, 3)));
}

static IrStmt *
out_set(const NmsTir *t, const NmsLower *w, IrPrimExpr *j, IrPrimExpr *c, IrPrimExpr *v)
{
  IrPrimExpr *at[3] = {w->b, j, c};
  return op_prim_store(t->p, w->out, op_nn_index_copy(t->ctx, at, 3),
                       op_nn_to(t->ctx, w->out->dtype, v));
}

static IrPrimExpr *
score_of(const NmsTir *t, const NmsLower *w, IrPrimExpr *j)
{
  return out_at(t, w, j, op_nn_index(t->ctx, w->m->score_index));
}

static IrPrimExpr *
obi_at(const NmsTir *t, const NmsLower *w, IrPrimExpr *j)
{
  IrPrimExpr *at[2] = {w->b, j};
  return op_nn_to(t->ctx, IR_I64, op_prim_load(t->p, w->obi, op_nn_index_copy(t->ctx, at, 2)));
}

static IrStmt *
obi_set(const NmsTir *t, const NmsLower *w, IrPrimExpr *j, IrPrimExpr *v)
{
  IrPrimExpr *at[2] = {w->b, j};
  return op_prim_store(t->p, w->obi, op_nn_index_copy(t->ctx, at, 2), op_nn_to(t->ctx, IR_I32, v));
}

/* Row j all -1, and its box index. */
static IrStmt *
clear_row_tir(const NmsTir *t, const NmsLower *w, IrPrimExpr *j)
{
  IrPrimExpr *c;
  IrStmt *loop, **body = loop_over(t, w->l, &c, &loop);
  *body = out_set(t, w, j, c, op_img_f64(t->ctx, -1.0));
  IrStmt *st[2] = {loop, obi_set(t, w, j, op_nn_index(t->ctx, -1))};
  return op_nn_seq(t->p, st, 2);
}

/* A loop j over the rows. */
static IrStmt **
rows_loop(const NmsTir *t, const NmsLower *w, IrPrimExpr **j, IrStmt **loop)
{
  return loop_over(t, w->n, j, loop);
}

static IrPrimExpr *
data_score(const NmsTir *t, void *env, IrPrimExpr *i)
{
  NmsLower *w = env;
  IrPrimExpr *at[3] = {w->b, i, op_nn_index(t->ctx, w->m->score_index)};
  return op_nn_f64(t->ctx, op_prim_load(t->p, w->data, op_nn_index_copy(t->ctx, at, 3)));
}

static void
row_box(const NmsTir *t, void *env, IrPrimExpr *j, IrPrimExpr **corner)
{
  NmsLower *w = env;
  for (int k = 0; k < 4; k++)
    corner[k] = out_at(t, w, j, op_nn_index(t->ctx, w->m->coord_start + k));
}

/* same_class() of rows j and q in TIR; NULL: always. */
static IrPrimExpr *
same_class_tir(const NmsTir *t, const NmsLower *w, IrPrimExpr *j, IrPrimExpr *q)
{
  if (w->m->force_suppress || w->m->id_index < 0)
    return NULL;
  IrPrimExpr *id = op_nn_index(t->ctx, w->m->id_index);
  return bin(t->ctx, IR_PE_EQ, out_at(t, w, j, id), out_at(t, w, q, id));
}

/* The first kept rows in sorted order, the rest -1 (st[KEEP] kept). */
static IrStmt *
copy_sorted_tir(const NmsTir *t, const NmsLower *w)
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
  *body = if_else(t->p, bin(ctx, IR_PE_LT, j, st_get(t, ST_KEEP)), op_nn_seq(t->p, kept, 2),
                  clear_row_tir(t, w, j));
  return loop;
}

/* nv < max_output_size when it is positive; NULL: no limit. */
static IrPrimExpr *
under_max(const NmsTir *t, const NmsLower *w)
{
  if (w->m->max_output_size <= 0)
    return NULL;
  return bin(t->ctx, IR_PE_LT, st_get(t, ST_NV), op_nn_index(t->ctx, w->m->max_output_size));
}

/* hard_nms() in TIR. */
static IrStmt *
hard_tir(const NmsTir *t, const NmsLower *w, double iou_thr)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *j, *q, *zero = op_img_f64(ctx, 0.0), *keep = st_get(t, ST_KEEP);
  IrStmt *jloop, *qloop, **jbody = rows_loop(t, w, &j, &jloop),
                         **qbody = rows_loop(t, w, &q, &qloop);
  OpLets l = {ctx, {0}, {0}, 0};
  IrPrimExpr *iou = iou_tir(t, &l, row_box, (void *)w, j, q);
  IrStmt *mark[2] = {out_set(t, w, q, op_nn_index(ctx, w->m->score_index), op_img_f64(ctx, -1.0)),
                     obi_set(t, w, q, op_nn_index(ctx, -1))};
  IrStmt *test =
      op_nn_if(t->p, bin(ctx, IR_PE_GE, iou, op_img_f64(ctx, iou_thr)), op_nn_seq(t->p, mark, 2));
  IrPrimExpr *later =
      op_nn_and(ctx, same_class_tir(t, w, j, q),
                bin(ctx, IR_PE_AND,
                    bin(ctx, IR_PE_AND, bin(ctx, IR_PE_GT, q, j), bin(ctx, IR_PE_LT, q, keep)),
                    bin(ctx, IR_PE_GT, score_of(t, w, q), zero)));
  *qbody = op_nn_if(t->p, later, op_lets_wrap(&l, test, t->p->lz->loc));
  IrStmt *sel[2] = {st_add(t, ST_NV, op_nn_index(ctx, 1)), qloop};
  IrPrimExpr *chosen = op_nn_and(ctx, under_max(t, w), bin(ctx, IR_PE_GT, score_of(t, w, j), zero));
  *jbody = op_nn_if(t->p, bin(ctx, IR_PE_LT, j, keep),
                    if_else(t->p, chosen, op_nn_seq(t->p, sel, 2), clear_row_tir(t, w, j)));
  IrStmt *st[2] = {st_set(t, ST_NV, op_nn_index(ctx, 0)), jloop};
  return op_nn_seq(t->p, st, 2);
}

/* Rows nv and best swapped (data and box index). */
static IrStmt *
swap_rows_tir(const NmsTir *t, const NmsLower *w)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *nv = st_get(t, ST_NV), *best = st_get(t, ST_BEST), *c;
  IrStmt *loop, **body = loop_over(t, w->l, &c, &loop);
  IrStmt *row[3] = {op_nn_acc_set(t->p, w->acc, 1, out_at(t, w, nv, c)),
                    out_set(t, w, nv, c, out_at(t, w, best, c)),
                    out_set(t, w, best, c, op_nn_acc(t->p, w->acc, 1))};
  *body = op_nn_seq(t->p, row, 3);
  IrStmt *st[4] = {op_prim_store_at(t->p, t->st, op_nn_index(ctx, ST_RANK), obi_at(t, w, nv)),
                   obi_set(t, w, nv, obi_at(t, w, best)), obi_set(t, w, best, st_get(t, ST_RANK)),
                   loop};
  return op_nn_if(t->p, bin(ctx, IR_PE_NE, best, nv), op_nn_seq(t->p, st, 4));
}

/* soft_nms() in TIR. */
static IrStmt *
soft_tir(const NmsTir *t, const NmsLower *w, double iou_thr)
{
  IrCtx *ctx = t->ctx;
  const Nms *m = w->m;
  IrDType dt = w->out->dtype;
  double thresh = ir_float_round(dt, ir_float_round(IR_F32, m->score_threshold));
  double scale = ir_float_round(dt, ir_float_round(IR_F32, -0.5 / m->sigma));
  IrPrimExpr *keep = st_get(t, ST_KEEP), *nv = st_get(t, ST_NV), *th = op_img_f64(ctx, thresh);
  IrPrimExpr *sc = op_nn_index(ctx, m->score_index), *best = op_nn_acc(t->p, w->acc, 0);
  IrPrimExpr *step, *j, *q;
  IrStmt *sloop, **sbody = rows_loop(t, w, &step, &sloop);
  /* the best remaining row */
  IrStmt *jloop, **jbody = rows_loop(t, w, &j, &jloop);
  IrPrimExpr *better = bin(
      ctx, IR_PE_AND, bin(ctx, IR_PE_AND, bin(ctx, IR_PE_GE, j, nv), bin(ctx, IR_PE_LT, j, keep)),
      bin(ctx, IR_PE_AND, bin(ctx, IR_PE_GE, obi_at(t, w, j), op_nn_index(ctx, 0)),
          bin(ctx, IR_PE_GT, out_at(t, w, j, sc), best)));
  IrStmt *found[2] = {st_set(t, ST_BEST, j), op_nn_acc_set(t->p, w->acc, 0, out_at(t, w, j, sc))};
  *jbody = op_nn_if(t->p, better, op_nn_seq(t->p, found, 2));
  /* the later rows decayed or dropped */
  IrStmt *qloop, **qbody = rows_loop(t, w, &q, &qloop);
  OpLets l = {ctx, {0}, {0}, 0};
  IrPrimExpr *iou = op_let(&l, "iou", iou_tir(t, &l, row_box, (void *)w, nv, q));
  IrPrimExpr *thr = op_img_f64(ctx, iou_thr), *neg = op_nn_index(ctx, -1);
  IrPrimExpr *decay = op_img_intrin(
      ctx, "tir.exp", bin(ctx, IR_PE_MUL, bin(ctx, IR_PE_MUL, op_img_f64(ctx, scale), iou), iou));
  IrStmt *decayed[2] = {
      out_set(t, w, q, sc, bin(ctx, IR_PE_MUL, out_at(t, w, q, sc), decay)),
      op_nn_if(t->p, bin(ctx, IR_PE_LE, out_at(t, w, q, sc), th), obi_set(t, w, q, neg))};
  IrStmt *drop[2] = {op_nn_if(t->p, bin(ctx, IR_PE_GE, iou, thr), obi_set(t, w, q, neg)),
                     op_nn_if(t->p, bin(ctx, IR_PE_LT, iou, thr), op_nn_seq(t->p, decayed, 2))};
  IrPrimExpr *later =
      op_nn_and(ctx, same_class_tir(t, w, nv, q),
                bin(ctx, IR_PE_AND,
                    bin(ctx, IR_PE_AND, bin(ctx, IR_PE_GT, q, nv), bin(ctx, IR_PE_LT, q, keep)),
                    bin(ctx, IR_PE_AND, bin(ctx, IR_PE_GE, obi_at(t, w, q), op_nn_index(ctx, 0)),
                        bin(ctx, IR_PE_GT, out_at(t, w, q, sc), th))));
  *qbody = op_nn_if(t->p, later, op_lets_wrap(&l, op_nn_seq(t->p, drop, 2), t->p->lz->loc));
  IrStmt *chosen[3] = {swap_rows_tir(t, w), qloop, st_add(t, ST_NV, op_nn_index(ctx, 1))};
  IrStmt *round[4] = {st_set(t, ST_BEST, op_nn_index(ctx, -1)), op_nn_acc_set(t->p, w->acc, 0, th),
                      jloop,
                      op_nn_if(t->p, bin(ctx, IR_PE_GE, st_get(t, ST_BEST), op_nn_index(ctx, 0)),
                               op_nn_seq(t->p, chosen, 3))};
  *sbody = op_nn_if(t->p, op_nn_and(ctx, under_max(t, w), bin(ctx, IR_PE_LT, step, keep)),
                    op_nn_seq(t->p, round, 4));
  IrStmt *st[2] = {st_set(t, ST_NV, op_nn_index(ctx, 0)), sloop};
  return op_nn_seq(t->p, st, 2);
}

/* indices[b, box index at j], the box index clamped into the row (it
 * is there by construction). */
static IrPrimExpr *
original_index(const NmsTir *t, const NmsLower *w, IrPrimExpr *j)
{
  IrCtx *ctx = t->ctx;
  IrPrimExpr *pos =
      bin(ctx, IR_PE_MAX,
          bin(ctx, IR_PE_MIN, obi_at(t, w, j), op_nn_sub(ctx, w->n, op_nn_index(ctx, 1))),
          op_nn_index(ctx, 0));
  IrPrimExpr *at[2] = {w->b, pos};
  return op_prim_load(t->p, w->indices, op_nn_index_copy(ctx, at, 2));
}

/* The end of nms_batch(): box indices or rows moved up, the rest -1;
 * st[NV] the count. */
static IrStmt *
finish_tir(const NmsTir *t, const NmsLower *w, IrBuffer *count)
{
  IrCtx *ctx = t->ctx;
  const Nms *m = w->m;
  bool soft = m->sigma > 0.0;
  IrPrimExpr *j, *jt, *nv = st_get(t, ST_NV), *zero = op_nn_index(ctx, 0);
  IrStmt *st[4], *loop, *rest, **body = rows_loop(t, w, &j, &loop);
  IrStmt **tail = rows_loop(t, w, &jt, &rest); /* the rows past the kept ones */
  int n = 0;
  if (m->return_indices && !soft) {
    IrPrimExpr *jj;
    IrStmt *scan, **sb = rows_loop(t, w, &jj, &scan);
    IrStmt *moved[2] = {obi_set(t, w, nv, original_index(t, w, jj)),
                        st_add(t, ST_NV, op_nn_index(ctx, 1))};
    *sb = op_nn_if(t->p, bin(ctx, IR_PE_GE, obi_at(t, w, jj), zero), op_nn_seq(t->p, moved, 2));
    st[n++] = st_set(t, ST_NV, zero), st[n++] = scan;
    *tail = op_nn_if(t->p, bin(ctx, IR_PE_GE, jt, nv), obi_set(t, w, jt, op_nn_index(ctx, -1)));
    st[n++] = rest;
  } else if (m->return_indices) {
    *body = if_else(t->p, bin(ctx, IR_PE_LT, j, nv), obi_set(t, w, j, original_index(t, w, j)),
                    clear_row_tir(t, w, j));
    st[n++] = loop;
  } else {
    if (soft) {
      *body = op_nn_if(t->p, bin(ctx, IR_PE_GE, j, nv), clear_row_tir(t, w, j));
      st[n++] = loop;
    }
    if (m->invalid_to_bottom) { /* st[OFF]: the rows moved up */
      IrPrimExpr *jj, *c;
      IrStmt *scan, **sb = rows_loop(t, w, &jj, &scan), *copy;
      IrStmt **elem = loop_over(t, w->l, &c, &copy);
      IrPrimExpr *off = st_get(t, ST_OFF);
      *elem = out_set(t, w, off, c, out_at(t, w, jj, c));
      IrStmt *moved[2] = {copy, st_add(t, ST_OFF, op_nn_index(ctx, 1))};
      *sb = op_nn_if(t->p,
                     bin(ctx, IR_PE_GE, out_at(t, w, jj, op_nn_index(ctx, m->score_index)),
                         op_img_f64(ctx, 0.0)),
                     op_nn_seq(t->p, moved, 2));
      st[n++] = st_set(t, ST_OFF, zero), st[n++] = scan;
      *tail = op_nn_if(t->p, bin(ctx, IR_PE_GE, jt, off), clear_row_tir(t, w, jt));
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
op_vis_legalize_nms(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  NnSite s = op_nn_site_legalize(lz, call);
  IrCtx *ctx = lz->ctx;
  Nms m;
  OpPrim p;
  if (!parse_nms(&s, &m))
    return NULL;
  bool soft = m.sigma > 0.0;
  int nout = !m.return_indices ? 1 : soft ? 3 : 2;
  if (nout > 1 && (result->kind != IR_SI_TUPLE || result->u.tuple.n != nout))
    return NULL;
  const IrExpr *x = call->u.call.args[0];
  if (!x->sinfo || x->sinfo->kind != IR_SI_TENSOR || !x->sinfo->u.tensor.shape ||
      x->sinfo->u.tensor.ndim != 3)
    return NULL;
  op_prim_begin(lz, &p, "non_max_suppression");
  NmsLower w = {&m,
                op_prim_input(&p, x, "data"),
                op_prim_input(&p, call->u.call.args[1], "valid_count"),
                op_prim_input(&p, call->u.call.args[2], "indices"),
                NULL,
                NULL,
                NULL,
                NULL,
                NULL,
                NULL};
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
      w.data->ndim != 3) {
    op_prim_abort(&p);
    return NULL;
  }
  w.acc = op_nn_acc_new(&p, 2);
  w.n = w.data->shape[1], w.l = w.data->shape[2];
  NmsTir t = nms_tir_new(&p, dims[1]);
  IrPrimExpr **bb;
  IrStmt *batches, **body = op_prim_loop_nest(&p, &w.data->shape[0], 1, &bb, &batches);
  w.b = bb[0];
  IrPrimExpr *zero = op_nn_index(ctx, 0), *valid = st_get(&t, ST_VALID);
  IrPrimExpr *vc = op_nn_to(ctx, IR_I64, op_prim_load_at(&p, w.valid, w.b));
  IrPrimExpr *keep = valid;
  if (m.top_k > 0)
    keep = bin(ctx, IR_PE_MIN, valid, op_nn_index(ctx, m.top_k));
  double iou_thr = ir_float_round(w.data->dtype, m.iou);
  IrStmt *st[6] = {
      st_set(&t, ST_VALID,
             bin(ctx, IR_PE_MAX, bin(ctx, IR_PE_MIN, vc, op_nn_to(ctx, IR_I64, w.n)), zero)),
      rank_tir(&t, w.n, valid, data_score, &w),
      st_set(&t, ST_KEEP, keep),
      copy_sorted_tir(&t, &w),
      soft ? soft_tir(&t, &w, iou_thr) : hard_tir(&t, &w, iou_thr),
      finish_tir(&t, &w, count)};
  *body = op_nn_seq(&p, st, 6);
  op_prim_emit(&p, batches);
  return op_prim_finish(&p, call, result);
}
