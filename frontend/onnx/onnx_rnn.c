/*
 * onnx_rnn.c - the recurrent operators RNN, GRU and LSTM, unrolled over
 * their (static) sequence length into Relax calls.
 *
 * Key ideas:
 *  - The input projection of every time step is one matmul, X W^T + Wb
 *    over the whole sequence; each step then slices its row, adds
 *    H R^T + Rb and applies the gates (ONNX's equations, gate order iofc
 *    for LSTM and zrh for GRU in W, R and B).
 *  - Directions run one after the other and are stacked: Y is
 *    (seq, num_directions, batch, hidden), Y_h and Y_c (num_directions,
 *    batch, hidden); layout 1 permutes X in and the outputs out.
 *  - sequence_lens: a step t >= len[b] keeps batch b's state and writes
 *    0 to Y.  The reverse direction reads each sequence backwards from its
 *    own last step: X and Y go through R.reverse_sequence by len, and the
 *    steps then run forwards.
 *  - clip bounds the input of each gate's activation, not the cell state
 *    that LSTM's output activation h reads (ONNX Runtime's reading of
 *    "applied to the input of activations").
 *  - A missing initial state is zero: the first step leaves out the terms
 *    it would multiply, so no zero tensor is built.
 */
#include <string.h>
#include <strings.h>

#include "onnx_int.h"

enum { RNN_PLAIN, RNN_GRU, RNN_LSTM };

typedef struct {
  char name[24];
  double alpha, beta;
} Act;

typedef struct {
  OxImp *im;
  int kind, ngates;
  int64_t hidden;
  double clip; /* 0: none */
  bool input_forget, linear_before_reset;
  Act act[3];  /* this direction's f, g, h */
  OxVal *lens; /* sequence_lens, or NULL */
} Rnn;

static OxVal *
add(OxImp *im, OxVal *a, OxVal *b)
{
  return !a ? b : !b ? a : fe_ox_call2(im, IR_OP_ADD, a, b);
}

static OxVal *
mul(OxImp *im, OxVal *a, OxVal *b)
{
  return fe_ox_call2(im, IR_OP_MULTIPLY, a, b);
}

/* x[i] along axis 0, that axis dropped. */
static OxVal *
row(OxImp *im, OxVal *x, int64_t i)
{
  int64_t axis = 0;
  return fe_ox_call1(im, IR_OP_SQUEEZE, fe_ox_slice(im, x, 0, i, i + 1, 1),
                     fe_ox_attrs(im->ctx, "axis", fe_ox_attr_ints(im->ctx, &axis, 1), NULL));
}

static OxVal *
permute(OxImp *im, OxVal *x, const int64_t *perm, int n)
{
  return fe_ox_call1(im, IR_OP_PERMUTE_DIMS, x,
                     fe_ox_attrs(im->ctx, "axes", fe_ox_attr_ints(im->ctx, perm, n), NULL));
}

/* R.stack(items, axis). */
static OxVal *
stack(OxImp *im, OxVal **items, int n, int64_t axis)
{
  IrExpr *t = fe_ox_tuple(im, items, n);
  return t ? fe_ox_emit(im, "stacked", IR_OP_STACK, &t, 1,
                        fe_ox_attrs(im->ctx, "axis", ir_attr_int(im->ctx, axis), NULL))
           : NULL;
}

/* Gate k of a (batch, ngates * hidden) or (ngates * hidden) value. */
static OxVal *
gate(Rnn *r, OxVal *v, int k)
{
  return v ? fe_ox_slice(r->im, v, fe_ox_rank(v) - 1, k * r->hidden, (k + 1) * r->hidden, 1) : NULL;
}

/* Activation a of a gate's x, clipped first when clip is set (as ONNX
 * Runtime does: the gates' inputs, not the cell state LSTM's h reads). */
static OxVal *
activate(Rnn *r, const Act *a, OxVal *x)
{
  OxImp *im = r->im;
  if (r->clip > 0 && x) {
    x = fe_ox_call2(im, IR_OP_MAXIMUM, x, fe_ox_like(im, x, -r->clip));
    x = fe_ox_call2(im, IR_OP_MINIMUM, x, fe_ox_like(im, x, r->clip));
  }
  return x ? fe_ox_act(im, a->name, a->alpha, a->beta, x) : NULL;
}

/* One step: xp the input projection (batch, ngates * hidden) with Wb,
 * *h and *c the state (NULL: zero), rt R^T, rb Rb, p the peepholes.
 * Returns the new h (c in *c). */
static OxVal *
step(Rnn *r, OxVal *xp, OxVal *h, OxVal **c, OxVal *rt, OxVal *rb, OxVal *p)
{
  OxImp *im = r->im;
  OxVal *hp = h ? add(im, fe_ox_matmul(im, h, rt), rb) : rb; /* H R^T + Rb, NULL when both are 0 */
  if (r->kind == RNN_PLAIN)
    return activate(r, &r->act[0], add(im, xp, hp));
  if (r->kind == RNN_GRU) {
    OxVal *z = activate(r, &r->act[0], add(im, gate(r, xp, 0), gate(r, hp, 0)));
    OxVal *rg = activate(r, &r->act[0], add(im, gate(r, xp, 1), gate(r, hp, 1)));
    OxVal *hh; /* the candidate's recurrent term */
    if (r->linear_before_reset) {
      hh = hp ? mul(im, rg, gate(r, hp, 2)) : NULL;
    } else {
      OxVal *rbh = gate(r, rb, 2);
      hh = h ? fe_ox_matmul(im, mul(im, rg, h),
                            fe_ox_slice(im, rt, 1, 2 * r->hidden, 3 * r->hidden, 1))
             : NULL;
      hh = add(im, hh, rbh);
    }
    OxVal *cand = activate(r, &r->act[1], add(im, gate(r, xp, 2), hh));
    OxVal *keep = fe_ox_call2(im, IR_OP_SUBTRACT, fe_ox_like(im, z, 1), z);
    OxVal *out = mul(im, keep, cand);
    return h ? add(im, out, mul(im, z, h)) : out;
  }
  /* LSTM, gates i, o, f, c */
  OxVal *pi = p ? fe_ox_slice(im, p, 0, 0, r->hidden, 1) : NULL;
  OxVal *po = p ? fe_ox_slice(im, p, 0, r->hidden, 2 * r->hidden, 1) : NULL;
  OxVal *pf = p ? fe_ox_slice(im, p, 0, 2 * r->hidden, 3 * r->hidden, 1) : NULL;
  OxVal *prev = *c;
  OxVal *pre_i = add(im, gate(r, xp, 0), gate(r, hp, 0));
  if (pi && prev)
    pre_i = add(im, pre_i, mul(im, pi, prev));
  OxVal *i = activate(r, &r->act[0], pre_i);
  OxVal *f;
  if (r->input_forget) {
    f = fe_ox_call2(im, IR_OP_SUBTRACT, fe_ox_like(im, i, 1), i);
  } else {
    OxVal *pre_f = add(im, gate(r, xp, 2), gate(r, hp, 2));
    if (pf && prev)
      pre_f = add(im, pre_f, mul(im, pf, prev));
    f = activate(r, &r->act[0], pre_f);
  }
  OxVal *g = activate(r, &r->act[1], add(im, gate(r, xp, 3), gate(r, hp, 3)));
  OxVal *cell = mul(im, i, g);
  if (prev)
    cell = add(im, cell, mul(im, f, prev));
  OxVal *pre_o = add(im, gate(r, xp, 1), gate(r, hp, 1));
  if (po)
    pre_o = add(im, pre_o, mul(im, po, cell));
  OxVal *o = activate(r, &r->act[0], pre_o);
  *c = cell;
  return mul(im, o, fe_ox_act(im, r->act[2].name, r->act[2].alpha, r->act[2].beta, cell));
}

/* new where step t is inside batch b's sequence (t < lens[b]), else old
 * (0 when old is NULL). */
static OxVal *
masked(Rnn *r, int64_t t, OxVal *new, OxVal *old)
{
  OxImp *im = r->im;
  if (!r->lens || !new)
    return new;
  OxVal *in =
      fe_ox_call2(im, IR_OP_LESS, fe_ox_scalar(im, fe_ox_dtype(r->lens), (double)t), r->lens);
  IrPrimExpr **dims = ir_alloc(im->ctx, sizeof *dims * 2);
  dims[0] = ir_prim_int(im->ctx, IR_I64, -1);
  dims[1] = ir_prim_int(im->ctx, IR_I64, 1);
  OxVal *args[3] = {fe_ox_reshape(im, in, dims, 2), new, old ? old : fe_ox_like(im, new, 0)};
  return args[0] ? fe_ox_call(im, IR_OP_WHERE, args, 3, NULL) : NULL;
}

static OxVal *
reverse_by_lens(Rnn *r, OxVal *x)
{
  OxVal *args[2] = {x, r->lens};
  IrCtx *ctx = r->im->ctx;
  return x ? fe_ox_call(r->im, IR_OP_REVERSE_SEQUENCE, args, 2,
                        fe_ox_attrs(ctx, "seq_axis", ir_attr_int(ctx, 0), "batch_axis",
                                    ir_attr_int(ctx, 1), NULL))
           : NULL;
}

/* The activations of direction d from the attributes (ONNX's defaults:
 * Sigmoid, Tanh, Tanh; RNN Tanh); alpha and beta are consumed in order
 * by the activations that read them.  False after reporting. */
static bool
read_acts(Rnn *r, int d, int ndir)
{
  OxImp *im = r->im;
  int nact = r->kind == RNN_LSTM ? 3 : r->kind == RNN_GRU ? 2 : 1;
  static const char *dflt[3] = {"Sigmoid", "Tanh", "Tanh"};
  const Onnx__AttributeProto *names = fe_ox_attr(im->node, "activations");
  int na, nb;
  const Onnx__AttributeProto *al = fe_ox_attr(im->node, "activation_alpha");
  const Onnx__AttributeProto *be = fe_ox_attr(im->node, "activation_beta");
  na = al ? (int)al->n_floats : 0;
  nb = be ? (int)be->n_floats : 0;
  if (names && (int)names->n_strings != nact * ndir)
    return fe_ox_unsupported(im, "activations has %d names for %d", (int)names->n_strings,
                             nact * ndir);
  int ia = 0, ib = 0;
  for (int k = 0; k < nact * ndir; k++) {
    Act a;
    const char *name = r->kind == RNN_PLAIN ? "Tanh" : dflt[k % nact];
    size_t len = strlen(name);
    if (names) {
      name = (const char *)names->strings[k].data;
      len = names->strings[k].len;
    }
    if (len >= sizeof a.name)
      return fe_ox_unsupported(im, "activation '%.*s' is not supported", (int)len, name);
    memcpy(a.name, name, len);
    a.name[len] = 0;
    int np = fe_ox_act_find(a.name, &a.alpha, &a.beta);
    if (np < 0)
      return fe_ox_unsupported(im, "activation '%s' is not supported", a.name);
    if (np > 0 && ia < na)
      a.alpha = al->floats[ia++];
    if (np > 1 && ib < nb)
      a.beta = be->floats[ib++];
    if (k / nact == d)
      r->act[k % nact] = a;
  }
  return true;
}

/* Direction d of W, R, B, P, initial_h/c as one tensor (the leading
 * num_directions axis dropped). */
static OxVal *
dir(OxImp *im, OxVal *v, int d)
{
  return v ? row(im, v, d) : NULL;
}

static bool
cv_rnn(OxImp *im, OxVal **in, int nin)
{
  const char *t = im->node->op_type;
  Rnn r;
  memset(&r, 0, sizeof r);
  r.im = im;
  r.kind = RNN_PLAIN;
  r.ngates = 1;
  if (strcmp(t, "GRU") == 0)
    r.kind = RNN_GRU, r.ngates = 3;
  else if (strcmp(t, "LSTM") == 0)
    r.kind = RNN_LSTM, r.ngates = 4;
  OxVal *x = in[0], *w = in[1], *rr = nin > 2 ? in[2] : NULL;
  OxVal *b = nin > 3 ? in[3] : NULL, *h0 = nin > 5 ? in[5] : NULL;
  OxVal *c0 = r.kind == RNN_LSTM && nin > 6 ? in[6] : NULL;
  OxVal *p = r.kind == RNN_LSTM && nin > 7 ? in[7] : NULL;
  r.lens = nin > 4 ? in[4] : NULL;
  const char *direction = fe_ox_attr_s(im, im->node, "direction", "forward");
  int ndir = strcmp(direction, "bidirectional") == 0 ? 2 : 1;
  bool reverse = strcmp(direction, "reverse") == 0;
  if (!reverse && ndir == 1 && strcmp(direction, "forward") != 0)
    return fe_ox_unsupported(im, "direction '%s' is not supported", direction);
  bool batch_first = fe_ox_attr_i(im->node, "layout", 0) != 0;
  r.clip = fe_ox_attr(im->node, "clip") ? fe_ox_attr_f(im->node, "clip", 0) : 0;
  r.input_forget = fe_ox_attr_i(im->node, "input_forget", 0) != 0;
  r.linear_before_reset = fe_ox_attr_i(im->node, "linear_before_reset", 0) != 0;
  int64_t seq;
  if (!x || !w || !rr || fe_ox_rank(x) != 3 || fe_ox_rank(rr) != 3 || !fe_ox_dim(rr, 2, &r.hidden))
    return fe_ox_unsupported(im, "needs X, W and R of rank 3 with a static hidden size");
  if (fe_ox_attr_i(im->node, "hidden_size", r.hidden) != r.hidden)
    return fe_ox_unsupported(im, "hidden_size differs from R's");
  static const int64_t swap01[3] = {1, 0, 2}, t2[2] = {1, 0};
  if (batch_first) {
    x = permute(im, x, swap01, 3);
    h0 = h0 ? permute(im, h0, swap01, 3) : NULL;
    c0 = c0 ? permute(im, c0, swap01, 3) : NULL;
  }
  if (!x || !fe_ox_dim(x, 0, &seq) || seq < 1 || seq > 4096)
    return fe_ox_unsupported(im, "needs a static sequence length in 1..4096");
  int64_t gh = r.ngates * r.hidden;
  OxVal *ys[2], *hs[2], *cs[2];
  for (int d = 0; d < ndir; d++) {
    if (!read_acts(&r, d, ndir))
      return false;
    bool back = reverse || d == 1;
    OxVal *xs = back && r.lens ? reverse_by_lens(&r, x) : x;
    OxVal *wt = permute(im, dir(im, w, d), t2, 2), *rt = permute(im, dir(im, rr, d), t2, 2);
    OxVal *bd = dir(im, b, d);
    OxVal *wb = bd ? fe_ox_slice(im, bd, 0, 0, gh, 1) : NULL,
          *rb = bd ? fe_ox_slice(im, bd, 0, gh, 2 * gh, 1) : NULL;
    OxVal *xp = add(im, fe_ox_matmul(im, xs, wt), wb); /* (seq, batch, gates * hidden) */
    OxVal *h = dir(im, h0, d), *c = dir(im, c0, d), *pd = dir(im, p, d);
    OxVal **out = ir_alloc(im->ctx, sizeof *out * (size_t)seq);
    for (int64_t s = 0; s < seq; s++) {
      int64_t at = back && !r.lens ? seq - 1 - s : s;
      OxVal *cn = c;
      OxVal *hn = step(&r, row(im, xp, at), h, &cn, rt, rb, pd);
      if (!hn)
        return false;
      out[at] = masked(&r, s, hn, NULL);
      h = masked(&r, s, hn, h);
      c = r.kind == RNN_LSTM ? masked(&r, s, cn, c) : NULL;
    }
    ys[d] = stack(im, out, (int)seq, 0);
    if (back && r.lens)
      ys[d] = reverse_by_lens(&r, ys[d]);
    hs[d] = h;
    cs[d] = c;
    if (!ys[d] || !h)
      return false;
  }
  OxVal *y = stack(im, ys, ndir, 1);
  OxVal *yh = stack(im, hs, ndir, 0), *yc = r.kind == RNN_LSTM ? stack(im, cs, ndir, 0) : NULL;
  if (batch_first) {
    static const int64_t y_out[4] = {2, 0, 1, 3};
    y = permute(im, y, y_out, 4);
    yh = permute(im, yh, swap01, 3);
    yc = yc ? permute(im, yc, swap01, 3) : NULL;
  }
  OxVal *outs[3] = {y, yh, yc};
  for (size_t k = 0; k < im->node->n_output && k < 3; k++) {
    if (!im->node->output[k][0])
      continue;
    if (!outs[k])
      return false;
    im->outs[k] = outs[k];
  }
  return true;
}

static const OxOp rnn_ops[] = {
    {"RNN", cv_rnn,
     "activation_alpha,activation_beta,activations,clip,direction,hidden_size,layout"},
    {"GRU", cv_rnn,
     "activation_alpha,activation_beta,activations,clip,direction,hidden_size,layout,"
     "linear_before_reset"},
    {"LSTM", cv_rnn,
     "activation_alpha,activation_beta,activations,clip,direction,hidden_size,input_forget,"
     "layout"},
    {NULL, NULL, NULL},
};

const OxOp *
fe_ox_rnn_ops(void)
{
  return rnn_ops;
}
