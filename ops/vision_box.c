/*
 * vision_box.c - the hooks of the box ops R.vision.multibox_transform_loc
 * and R.vision.get_valid_counts, whose entries are vision.c's (declared in
 * image_int.h).
 *
 * Semantics are TOPI's (python/tvm/topi/vision/); kernels compute in
 * double, lowerings compute the same in float64 TIR.
 */
#include <math.h>
#include <string.h>

#include "image_int.h"

/* ------------------------------------------------------------------ */
/* image_int.h: the openings of the vision hooks                       */
/* ------------------------------------------------------------------ */

bool
op_vis_tensor_args(OpInfer *in, const OpSite *s, IrSInfo **args, int n, const char *const *names,
                   const int *ranks, IrSInfo **t)
{
  for (int i = 0; i < n; i++) {
    if (!op_nn_tensor_arg(in, s, args, i, names[i], &t[i]))
      return false;
    if (op_nn_ndim(t[i]) >= 0 && op_nn_ndim(t[i]) != ranks[i])
      return op_fail(s, "%s must be %d-D, not %d-D", names[i], ranks[i], op_nn_ndim(t[i]));
  }
  return true;
}

bool
op_vis_tensor_values(const OpSite *s, Value **args, int n, const char *const *names,
                     const IrTensorData **t)
{
  bool ok = true;
  for (int i = 0; i < n; i++)
    ok = (t[i] = op_nn_tensor_value(s, args, i, names[i])) && ok;
  return ok;
}

IrSInfo *
op_vis_tuple(IrCtx *ctx, IrSInfo *a, IrSInfo *b, IrSInfo *c)
{
  IrSInfo **f = ir_alloc(ctx, sizeof *f * 3);
  f[0] = a, f[1] = b, f[2] = c;
  return ir_sinfo_tuple(ctx, f, c ? 3 : 2);
}

bool
op_vis_prim_open(OpLegalize *lz, OpPrim *p, const char *name_hint, const IrExpr *call,
                 const IrSInfo *result, const OpPrimParam *params, int nin, int nout)
{
  if (call->u.call.nargs < nin || result->kind != IR_SI_TUPLE || result->u.tuple.n != nout)
    return false;
  op_prim_begin(lz, p, name_hint);
  for (int i = 0; i < nin + nout; i++) {
    *params[i].buf = i < nin ? op_prim_input(p, call->u.call.args[i], params[i].name)
                             : op_prim_output(p, result->u.tuple.fields[i - nin], params[i].name);
    if (!*params[i].buf) {
      op_prim_abort(p);
      return false;
    }
  }
  return true;
}

/* ------------------------------------------------------------------ */
/* multibox_transform_loc                                              */
/* ------------------------------------------------------------------ */

/* R.vision.multibox_transform_loc(cls_pred [B, C, N], loc_pred [B, 4N],
 * anchor [1, N, 4]) -> (boxes [B, N, 4], scores [B, C, N]) as TOPI: each
 * anchor (l, t, r, b) decodes its (x, y, w, h) offsets scaled by
 * variances into (ymin, xmin, ymax, xmax), clipped into [0, 1] with
 * clip; scores are the softmax over classes, zeroed below threshold, and
 * class 0 zeroed unless keep_background. */
typedef struct {
  bool clip, keep_background;
  double threshold;
  double var[4]; /* x, y, w, h */
} Multibox;

static bool
parse_multibox(const OpSite *s, Multibox *m)
{
  const IrAttr *a = op_attr(s->call, "variances");
  if (!op_nn_attr_bool(s, "clip", false, &m->clip) ||
      !op_nn_attr_bool(s, "keep_background", true, &m->keep_background) ||
      !op_nn_attr_float(s, "threshold", 0.0, &m->threshold))
    return false;
  for (int k = 0; k < 4; k++)
    m->var[k] = 1.0;
  if (!a || a->kind == IR_AT_NONE)
    return true;
  if (a->kind != IR_AT_LIST || a->u.list.n != 4)
    return op_fail(s, "variances must be 4 numbers (x, y, w, h)");
  for (int k = 0; k < 4; k++) {
    const IrAttr *v = a->u.list.items[k];
    if (v->kind != IR_AT_FLOAT && v->kind != IR_AT_INT)
      return op_fail(s, "variances must be 4 numbers (x, y, w, h)");
    m->var[k] = v->kind == IR_AT_FLOAT ? v->u.f : (double)v->u.i;
  }
  return true;
}

static const char *const multibox_args[3] = {"cls_pred", "loc_pred", "anchor"};

IrSInfo *
op_vis_infer_multibox(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  Multibox m;
  IrSInfo *t[3];
  static const int ranks[3] = {3, 2, 3};
  if (!parse_multibox(s, &m) || !op_vis_tensor_args(in, s, args, 3, multibox_args, ranks, t))
    return NULL;
  for (int i = 0; i < 3; i++) {
    IrDType a = op_nn_dtype(t[0]), b = op_nn_dtype(t[i]);
    if (a.code != IR_DT_VOID && b.code != IR_DT_VOID && !ir_dtype_eq(a, b))
      return op_fail_null(s, "cls_pred and %s dtypes differ: %s vs %s", multibox_args[i],
                          op_nn_dtype_str(in->ctx, a), op_nn_dtype_str(in->ctx, b));
  }
  if (!op_nn_require_float(in, s, op_nn_dtype(t[0])))
    return NULL;
  IrPrimExpr **c = op_nn_shape(t[0]), **l = op_nn_shape(t[1]), **a = op_nn_shape(t[2]);
  IrCtx *ctx = in->ctx;
  const char *bad = NULL;
  if (a && (op_assume_equal(in, a[0], op_nn_int(ctx, 1)) == IR_PROVE_FALSE ||
            op_assume_equal(in, a[2], op_nn_int(ctx, 4)) == IR_PROVE_FALSE))
    bad = "anchor must have shape (1, N, 4)";
  else if (c && l && op_assume_equal(in, l[0], c[0]) == IR_PROVE_FALSE)
    bad = "cls_pred and loc_pred batches differ";
  else if (c && l &&
           op_assume_equal(in, l[1],
                           op_nn_simplify(in, ir_prim_bin(ctx, IR_PE_MUL, op_nn_int(ctx, 4),
                                                          c[2]))) == IR_PROVE_FALSE)
    bad = "loc_pred.shape[1] must be 4 * N (N = cls_pred.shape[2])";
  else if (c && a && op_assume_equal(in, a[1], c[2]) == IR_PROVE_FALSE)
    bad = "anchor.shape[1] must be N = cls_pred.shape[2]";
  if (bad)
    return op_fail_null(s, "%s", bad);
  IrDType dt = op_nn_dtype(t[0]);
  int vd = op_nn_vdevice(t[0]);
  IrPrimExpr **bs = NULL; /* the boxes' shape (B, N, 4) */
  if (c) {
    bs = ir_alloc(ctx, sizeof *bs * 3);
    bs[0] = c[0], bs[1] = c[2], bs[2] = op_nn_int(ctx, 4);
  }
  return op_vis_tuple(ctx, ir_sinfo_tensor(ctx, bs, 3, dt, vd), ir_sinfo_tensor(ctx, c, 3, dt, vd),
                      NULL);
}

/* Box k (ymin, xmin, ymax, xmax) of anchor (l, t, r, b) and offsets
 * e (x, y, w, h). */
static void
decode_box(const Multibox *m, const double *anc, const double *e, double *box)
{
  double ay = (anc[1] + anc[3]) * 0.5, ax = (anc[0] + anc[2]) * 0.5;
  double ah = anc[3] - anc[1], aw = anc[2] - anc[0];
  double yc = e[1] * m->var[1] * ah + ay, xc = e[0] * m->var[0] * aw + ax;
  double hh = 0.5 * exp(e[3] * m->var[3]) * ah, hw = 0.5 * exp(e[2] * m->var[2]) * aw;
  box[0] = yc - hh, box[1] = xc - hw, box[2] = yc + hh, box[3] = xc + hw;
  for (int k = 0; m->clip && k < 4; k++)
    box[k] = fmax(0.0, fmin(1.0, box[k]));
}

Value *
op_vis_eval_multibox(OpEval *ev, const OpSite *s, Value **args)
{
  Multibox m;
  const IrTensorData *t[3];
  if (!op_vis_tensor_values(s, args, 3, multibox_args, t) || !parse_multibox(s, &m))
    return NULL;
  const IrTensorData *cls = t[0], *loc = t[1], *anchor = t[2];
  if (cls->ndim != 3 || loc->ndim != 2 || anchor->ndim != 3 || loc->shape[0] != cls->shape[0] ||
      loc->shape[1] != 4 * cls->shape[2] || anchor->shape[0] != 1 ||
      anchor->shape[1] != cls->shape[2] || anchor->shape[2] != 4) {
    return op_fail_null(s, "expected cls_pred [B, C, N], loc_pred [B, 4N], anchor [1, N, 4]");
  }
  int64_t B = cls->shape[0], C = cls->shape[1], N = cls->shape[2];
  int64_t bshape[3] = {B, N, 4};
  Value *boxes = op_nn_tensor_new(s, cls->dtype, 3, bshape);
  Value *scores = op_nn_tensor_new(s, cls->dtype, 3, cls->shape);
  if (!boxes || !scores)
    return NULL;
  for (int64_t b = 0; b < B; b++)
    for (int64_t a = 0; a < N; a++) {
      double anc[4], e[4], box[4];
      for (int k = 0; k < 4; k++)
        anc[k] = op_get_f(anchor, a * 4 + k), e[k] = op_get_f(loc, (b * N + a) * 4 + k);
      decode_box(&m, anc, e, box);
      for (int k = 0; k < 4; k++)
        op_set_f(&boxes->u.tensor.t, (b * N + a) * 4 + k, box[k]);
      double mx = -INFINITY, sum = 0.0;
      for (int64_t c = 0; c < C; c++)
        mx = fmax(mx, op_get_f(cls, (b * C + c) * N + a));
      for (int64_t c = 0; c < C; c++)
        sum = sum + exp(op_get_f(cls, (b * C + c) * N + a) - mx);
      for (int64_t c = 0; c < C; c++) {
        double v = exp(op_get_f(cls, (b * C + c) * N + a) - mx) / sum;
        if (!(v >= m.threshold) || (c == 0 && !m.keep_background))
          v = 0.0;
        op_set_f(&scores->u.tensor.t, (b * C + c) * N + a, v);
      }
    }
  return op_tuple_new(ev->ctx, (Value *[]){boxes, scores}, 2);
}

IrExpr *
op_vis_legalize_multibox(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  Multibox m;
  OpPrim p;
  IrBuffer *cls, *loc, *anchor, *boxes, *scores;
  if (!op_vis_prim_open(lz, &p, "multibox_transform_loc", s->call, result,
                        (OpPrimParam[]){{"cls_pred", &cls},
                                        {"loc_pred", &loc},
                                        {"anchor", &anchor},
                                        {"multibox_boxes", &boxes},
                                        {"multibox_scores", &scores}},
                        3, 2))
    return NULL;
  if (!parse_multibox(s, &m) || cls->ndim != 3)
    return op_prim_give_up(&p);
  IrBuffer *acc = op_nn_acc_new(&p, 2);
  IrPrimExpr *ext[2] = {cls->shape[0], cls->shape[2]}, **o;
  IrStmt **slot = op_prim_loops(&p, ext, 2, &o);
  IrPrimExpr *b = o[0], *a = o[1], *zero = op_nn_index(ctx, 0);
  OpLets l = {ctx, {0}, {0}, 0};
  IrPrimExpr *anc[4], *e[4], *box[4];
  for (int k = 0; k < 4; k++) {
    IrPrimExpr *at[3] = {zero, a, op_nn_index(ctx, k)};
    anc[k] = op_nn_f64(ctx, op_prim_load(&p, anchor, op_nn_index_copy(ctx, at, 3)));
    IrPrimExpr *lat[2] = {
        b, op_nn_add(ctx, op_nn_mul(ctx, a, op_nn_index(ctx, 4)), op_nn_index(ctx, k))};
    e[k] = op_nn_f64(ctx, op_prim_load(&p, loc, op_nn_index_copy(ctx, lat, 2)));
  }
  /* decode_box: per axis y, then x (anchor corners and offsets 1 and 3,
   * then 0 and 2), the anchor's middle and size, the box's center and
   * half size, each quantity bound for both axes before the next */
  static const char *const names[4][2] = {{"ay", "ax"}, {"ah", "aw"}, {"yc", "xc"}, {"hh", "hw"}};
  IrPrimExpr *half = op_img_f64(ctx, 0.5), *mid[2], *size[2], *ctr[2], *h[2];
  for (int k = 0; k < 2; k++)
    mid[k] = op_let(
        &l, names[0][k],
        op_img_bin(ctx, IR_PE_MUL, op_img_bin(ctx, IR_PE_ADD, anc[1 - k], anc[3 - k]), half));
  for (int k = 0; k < 2; k++)
    size[k] = op_let(&l, names[1][k], op_img_bin(ctx, IR_PE_SUB, anc[3 - k], anc[1 - k]));
  for (int k = 0; k < 2; k++) {
    IrPrimExpr *off = op_img_bin(ctx, IR_PE_MUL, e[1 - k], op_img_f64(ctx, m.var[1 - k]));
    ctr[k] = op_let(&l, names[2][k],
                    op_img_bin(ctx, IR_PE_ADD, op_img_bin(ctx, IR_PE_MUL, off, size[k]), mid[k]));
  }
  for (int k = 0; k < 2; k++) {
    IrPrimExpr *scale = op_img_intrin(
        ctx, "tir.exp", op_img_bin(ctx, IR_PE_MUL, e[3 - k], op_img_f64(ctx, m.var[3 - k])));
    h[k] = op_let(&l, names[3][k],
                  op_img_bin(ctx, IR_PE_MUL, op_img_bin(ctx, IR_PE_MUL, half, scale), size[k]));
  }
  for (int k = 0; k < 2; k++)
    box[k] = op_img_bin(ctx, IR_PE_SUB, ctr[k], h[k]),
    box[k + 2] = op_img_bin(ctx, IR_PE_ADD, ctr[k], h[k]);
  IrStmt *st[10];
  int n = 0;
  for (int k = 0; k < 4; k++) {
    IrPrimExpr *v = box[k];
    if (m.clip)
      v = op_img_bin(ctx, IR_PE_MAX, op_img_f64(ctx, 0.0),
                     op_img_bin(ctx, IR_PE_MIN, op_img_f64(ctx, 1.0), v));
    IrPrimExpr *at[3] = {b, a, op_nn_index(ctx, k)};
    st[n++] =
        op_prim_store(&p, boxes, op_nn_index_copy(ctx, at, 3), op_nn_to(ctx, boxes->dtype, v));
  }
  /* the softmax over classes: max, sum of exp, then each score */
  IrPrimExpr *mx = op_nn_acc(&p, acc, 0), *sum = op_nn_acc(&p, acc, 1);
  st[n++] = op_nn_acc_set(&p, acc, 0, op_img_f64(ctx, -INFINITY));
  st[n++] = op_nn_acc_set(&p, acc, 1, op_img_f64(ctx, 0.0));
  for (int pass = 0; pass < 3; pass++) {
    IrPrimExpr **c;
    IrStmt *loop, **body = op_prim_loop_nest(&p, &cls->shape[1], 1, &c, &loop);
    IrPrimExpr *at[3] = {b, c[0], a};
    IrPrimExpr *x = op_nn_f64(ctx, op_prim_load(&p, cls, op_nn_index_copy(ctx, at, 3)));
    IrPrimExpr *ex = op_img_intrin(ctx, "tir.exp", op_img_bin(ctx, IR_PE_SUB, x, mx));
    if (pass == 0) {
      *body = op_nn_acc_set(&p, acc, 0, op_img_bin(ctx, IR_PE_MAX, mx, x));
    } else if (pass == 1) {
      *body = op_nn_acc_set(&p, acc, 1, op_img_bin(ctx, IR_PE_ADD, sum, ex));
    } else {
      IrPrimExpr *v = op_img_bin(ctx, IR_PE_DIV, ex, sum);
      IrPrimExpr *drop = ir_prim_bin(
          ctx, IR_PE_NOT, op_img_bin(ctx, IR_PE_GE, v, op_img_f64(ctx, m.threshold)), NULL);
      if (!m.keep_background)
        drop = op_img_bin(ctx, IR_PE_OR, drop, op_img_bin(ctx, IR_PE_EQ, c[0], zero));
      v = ir_prim_select(ctx, drop, op_img_f64(ctx, 0.0), v);
      *body =
          op_prim_store(&p, scores, op_nn_index_copy(ctx, at, 3), op_nn_to(ctx, scores->dtype, v));
    }
    st[n++] = loop;
  }
  *slot = op_lets_wrap(&l, op_nn_seq(&p, st, n), lz->loc);
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* get_valid_counts                                                    */
/* ------------------------------------------------------------------ */

/* R.vision.get_valid_counts(data [B, N, L]) -> (valid_count [B] int32,
 * out [B, N, L], out_indices [B, N] int32) as TOPI: per batch, the rows
 * whose score (column score_index) exceeds score_threshold (and, with
 * id_index >= 0, whose class id is not negative) move to the top in
 * order, with their row index; the rest is filled with -1.  The outputs
 * have fixed sizes (N rows), so the arena bound is the input's. */
typedef struct {
  double threshold;
  int64_t id_index, score_index;
} ValidCounts;

static bool
parse_valid_counts(const OpSite *s, ValidCounts *v)
{
  return op_nn_attr_float(s, "score_threshold", 0.0, &v->threshold) &&
         op_nn_attr_int(s, "id_index", 0, &v->id_index) &&
         op_nn_attr_int(s, "score_index", 1, &v->score_index);
}

IrSInfo *
op_vis_infer_valid_counts(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  ValidCounts v;
  IrSInfo *x;
  IrCtx *ctx = in->ctx;
  if (!parse_valid_counts(s, &v) || !op_nn_tensor_arg(in, s, args, 0, "data", &x))
    return NULL;
  if (op_nn_ndim(x) >= 0 && op_nn_ndim(x) != 3)
    return op_fail_null(s, "data must be 3-D [batch, num_anchors, elem_length], not %d-D",
                        op_nn_ndim(x));
  IrPrimExpr **d = op_nn_shape(x);
  int64_t len;
  bool known = d && ir_prim_is_int(d[2], &len);
  if (v.score_index < 0 || (known && v.score_index >= len))
    return op_fail_null(s, "score_index %lld is out of range [0, elem_length)",
                        (long long)v.score_index);
  if (v.id_index < -1 || (known && v.id_index >= len))
    return op_fail_null(s, "id_index %lld is out of range [-1, elem_length)",
                        (long long)v.id_index);
  if (d) { /* a symbolic elem_length must hold both columns (checked at run time) */
    int64_t need = (v.score_index > v.id_index ? v.score_index : v.id_index) + 1;
    op_assume(in, ir_prim_bin(ctx, IR_PE_GE, d[2], op_nn_int(ctx, need)));
  }
  IrDType dt = op_nn_dtype(x);
  int vd = op_nn_vdevice(x);
  return op_vis_tuple(ctx, ir_sinfo_tensor(ctx, d, 1, IR_I32, vd),
                      ir_sinfo_tensor(ctx, d, 3, dt, vd), ir_sinfo_tensor(ctx, d, 2, IR_I32, vd));
}

Value *
op_vis_eval_valid_counts(OpEval *ev, const OpSite *s, Value **args)
{
  ValidCounts v;
  const IrTensorData *x = op_nn_tensor_value(s, args, 0, "data");
  if (!x || !parse_valid_counts(s, &v))
    return NULL;
  if (x->ndim != 3 || v.score_index >= x->shape[2] || v.id_index >= x->shape[2])
    return op_fail_null(s, "data must be 3-D with score_index and id_index inside elem_length");
  int64_t B = x->shape[0], N = x->shape[1], L = x->shape[2];
  Value *count = op_nn_tensor_new(s, IR_I32, 1, x->shape);
  Value *out = op_nn_tensor_new(s, x->dtype, 3, x->shape);
  Value *idx = op_nn_tensor_new(s, IR_I32, 2, x->shape);
  if (!count || !out || !idx)
    return NULL;
  for (int64_t i = 0; i < B; i++) {
    int64_t cur = 0;
    for (int64_t j = 0; j < N; j++) {
      const int64_t row = (i * N + j) * L;
      bool valid = op_get_f(x, row + v.score_index) > v.threshold &&
                   (v.id_index < 0 || op_get_f(x, row + v.id_index) >= 0);
      if (!valid)
        continue;
      for (int64_t k = 0; k < L; k++)
        op_set_f(&out->u.tensor.t, (i * N + cur) * L + k, op_get_f(x, row + k));
      op_set_i(&idx->u.tensor.t, i * N + cur, j);
      cur++;
    }
    op_set_i(&count->u.tensor.t, i, cur);
    for (int64_t j = cur; j < N; j++) {
      for (int64_t k = 0; k < L; k++)
        op_set_f(&out->u.tensor.t, (i * N + j) * L + k, -1.0);
      op_set_i(&idx->u.tensor.t, i * N + j, -1);
    }
  }
  return op_tuple_new(ev->ctx, (Value *[]){count, out, idx}, 3);
}

IrExpr *
op_vis_legalize_valid_counts(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  ValidCounts v;
  OpPrim p;
  IrBuffer *x, *count, *out, *idx;
  if (!op_vis_prim_open(
          lz, &p, "get_valid_counts", s->call, result,
          (OpPrimParam[]){
              {"data", &x}, {"valid_count", &count}, {"out_tensor", &out}, {"out_indices", &idx}},
          1, 3))
    return NULL;
  if (!parse_valid_counts(s, &v) || x->ndim != 3)
    return op_prim_give_up(&p);
  IrPrimExpr **i, **j, **k, *at[3];
  IrStmt **slot = op_prim_loops(&p, x->shape, 1, &i);
  IrPrimExpr *counted = op_prim_load_at(&p, count, i[0]);
  IrStmt *st[3], *scan, *fill;
  st[0] = op_prim_store_at(&p, count, i[0], ir_prim_int(ctx, IR_I32, 0));
  /* the scan: a valid row goes to row valid_count[i] (at most j) */
  IrStmt **row = op_prim_loop_nest(&p, &x->shape[1], 1, &j, &scan);
  at[0] = i[0], at[1] = j[0], at[2] = op_nn_index(ctx, v.score_index);
  IrPrimExpr *valid =
      op_img_bin(ctx, IR_PE_GT, op_nn_f64(ctx, op_prim_load(&p, x, op_nn_index_copy(ctx, at, 3))),
                 op_img_f64(ctx, v.threshold));
  if (v.id_index >= 0) {
    at[2] = op_nn_index(ctx, v.id_index);
    valid = op_img_bin(ctx, IR_PE_AND, valid,
                       op_img_bin(ctx, IR_PE_GE,
                                  op_nn_f64(ctx, op_prim_load(&p, x, op_nn_index_copy(ctx, at, 3))),
                                  op_img_f64(ctx, 0.0)));
  }
  OpLets l = {ctx, {0}, {0}, 0};
  IrPrimExpr *cur = op_let(&l, "cur", op_nn_to(ctx, IR_I64, counted));
  IrStmt *copy, **elem = op_prim_loop_nest(&p, &x->shape[2], 1, &k, &copy);
  IrPrimExpr *src[3] = {i[0], j[0], k[0]}, *dst[3] = {i[0], cur, k[0]};
  *elem = op_prim_store(&p, out, op_nn_index_copy(ctx, dst, 3),
                        op_prim_load(&p, x, op_nn_index_copy(ctx, src, 3)));
  IrPrimExpr *ipos[2] = {i[0], cur};
  IrStmt *moved[3] = {
      copy, op_prim_store(&p, idx, op_nn_index_copy(ctx, ipos, 2), op_nn_to(ctx, IR_I32, j[0])),
      op_prim_store_at(&p, count, i[0],
                       op_nn_to(ctx, IR_I32, op_nn_add(ctx, cur, op_nn_index(ctx, 1))))};
  *row = op_nn_if(&p, valid, op_lets_wrap(&l, op_nn_seq(&p, moved, 3), lz->loc));
  st[1] = scan;
  /* the rest: -1 */
  IrStmt **rest = op_prim_loop_nest(&p, &x->shape[1], 1, &j, &fill);
  IrStmt *pad, **pad_elem = op_prim_loop_nest(&p, &x->shape[2], 1, &k, &pad);
  IrPrimExpr *o[3] = {i[0], j[0], k[0]}, *oi[2] = {i[0], j[0]};
  *pad_elem = op_prim_store(&p, out, op_nn_index_copy(ctx, o, 3),
                            op_nn_to(ctx, out->dtype, op_img_f64(ctx, -1.0)));
  IrStmt *padded[2] = {
      pad, op_prim_store(&p, idx, op_nn_index_copy(ctx, oi, 2), ir_prim_int(ctx, IR_I32, -1))};
  *rest = op_nn_if(&p, op_img_bin(ctx, IR_PE_GE, j[0], op_nn_to(ctx, IR_I64, counted)),
                   op_nn_seq(&p, padded, 2));
  st[2] = fill;
  *slot = op_nn_seq(&p, st, 3);
  return op_prim_finish(&p, s->call, result);
}
