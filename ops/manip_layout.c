/*
 * manip_layout.c - R.layout_transform: a tensor relaid by an index map
 * (T.index_map(lambda n, c, h, w: (n, c // 4, h, w, c % 4))).  Its
 * inference, reference kernel and lowering sit together here; its entry
 * is in manip.c's table.
 *
 * Key idea: rxc takes the index maps that are bijections between the
 * input's index space and the output's, up to padding, and reads each
 * result of the lambda as one "term" over a parameter:
 *
 *   i           the whole dim                 extent d
 *   i // c      the outer part of a split     extent ceildiv(d, c)
 *   i % c       the inner part of that split  extent c
 *   i * c + j   a fuse, j's dim being c       extent d_i * c
 *
 * each parameter used exactly once, or split exactly once (its // and %
 * by the same c), or once as i % c alone where i's dim is at most c (a
 * pad up to c, as TVM's AlterOpImpl writes "lambda i: (i % 16,)").  The
 * extents are what TVM's IndexMap::MapShape gives for these maps (its
 * iter-map route).  Other maps (constants, strides, several parameters
 * mixed otherwise) are refused by inference, naming the result.
 * Inverting a term is then direct, so the kernel and the lowering both
 * gather: for each output index, the input index it comes from (a split
 * joins back, a fuse splits), or the pad value where that index falls
 * past its dim (when c does not divide a split dim, or a lone i % c's dim
 * is below c).
 * The pad value is TVM's legalization default when not given: 0.
 *
 * TVM v0.26's layout_transform takes (x, index_map, pad_value) only; the
 * axis_separators of older TVMs are gone from its attributes, so the
 * reader refuses them as it does any unknown keyword.
 */
#include <math.h>
#include <string.h>

#include "manip_int.h"
#include "nn_int.h"
#include "tir_build.h"

typedef enum {
  TERM_VAR, /* param */
  TERM_DIV, /* param // c */
  TERM_MOD, /* param % c */
  TERM_FUSE /* param * c + inner */
} TermKind;

/* One result of the index map, read as a term over the parameters. */
typedef struct {
  TermKind kind;
  int param;  /* the parameter (input dim) */
  int inner;  /* TERM_FUSE: the parameter added, whose dim must be c */
  int64_t c;  /* TERM_DIV, TERM_MOD: the split factor; TERM_FUSE: the scale */
  bool alone; /* TERM_MOD without its TERM_DIV: the dim padded up to c */
} Term;

/* The call's attributes: the index map read into terms (nout results over
 * nin parameters) and the pad value. */
typedef struct {
  int nin, nout;
  Term *terms; /* one per result */
  double pad;  /* pad_value, 0 when None */
} Layout;

/* The parameter e is, or -1. */
static int
param_of(const IrAttr *map, const IrPrimExpr *e)
{
  for (int i = 0; i < map->u.index_map.nparams; i++)
    if (map->u.index_map.params[i] == e)
      return i;
  return -1;
}

/* a * c with a a parameter and c a positive literal, in either order. */
static bool
scaled_param(const IrAttr *map, const IrPrimExpr *e, int *param, int64_t *c)
{
  if (e->kind != IR_PE_MUL)
    return false;
  for (int k = 0; k < 2; k++) {
    const IrPrimExpr *a = k ? e->u.bin.b : e->u.bin.a, *b = k ? e->u.bin.a : e->u.bin.b;
    if ((*param = param_of(map, a)) >= 0 && ir_prim_is_int(b, c) && *c > 0)
      return true;
  }
  return false;
}

/* Reads result e of the map as a term; false when it is none. */
static bool
read_term(const IrAttr *map, const IrPrimExpr *e, Term *t)
{
  memset(t, 0, sizeof *t);
  if ((t->param = param_of(map, e)) >= 0) {
    t->kind = TERM_VAR;
    return true;
  }
  if (e->kind == IR_PE_FLOORDIV || e->kind == IR_PE_FLOORMOD) {
    t->kind = e->kind == IR_PE_FLOORDIV ? TERM_DIV : TERM_MOD;
    t->param = param_of(map, e->u.bin.a);
    return t->param >= 0 && ir_prim_is_int(e->u.bin.b, &t->c) && t->c > 0;
  }
  if (e->kind != IR_PE_ADD)
    return false;
  t->kind = TERM_FUSE;
  for (int k = 0; k < 2; k++) {
    const IrPrimExpr *a = k ? e->u.bin.b : e->u.bin.a, *b = k ? e->u.bin.a : e->u.bin.b;
    if (scaled_param(map, a, &t->param, &t->c) && (t->inner = param_of(map, b)) >= 0 &&
        t->inner != t->param)
      return true;
  }
  return false;
}

/* Each parameter must be used once as a whole (TERM_VAR, either side of a
 * TERM_FUSE), split once (a TERM_DIV and a TERM_MOD by the same c), or
 * once in a TERM_MOD alone (marked so: i % 16 pads a dim of 14 to 16, as
 * TVM's AlterOpImpl writes). */
static bool
check_uses(const OpSite *s, const IrAttr *map, Layout *l)
{
  for (int i = 0; i < l->nin; i++) {
    int whole = 0, div = 0, mod = 0;
    int64_t div_c = 0, mod_c = 0;
    for (int r = 0; r < l->nout; r++) {
      const Term *t = &l->terms[r];
      whole += (t->kind == TERM_VAR || t->kind == TERM_FUSE) && t->param == i;
      whole += t->kind == TERM_FUSE && t->inner == i;
      if (t->kind == TERM_DIV && t->param == i && ++div)
        div_c = t->c;
      if (t->kind == TERM_MOD && t->param == i && ++mod)
        mod_c = t->c;
    }
    bool split = div == 1 && mod == 1 && div_c == mod_c;
    for (int r = 0; r < l->nout; r++)
      l->terms[r].alone |= l->terms[r].kind == TERM_MOD && l->terms[r].param == i && !div;
    if (!(whole == 1 && !div && !mod) && !(!whole && split) && !(!whole && !div && mod == 1)) {
      const char *name = map->u.index_map.params[i]->u.var;
      return op_fail(s,
                     "index map parameter '%s' must appear once whole (%s, %s * c + j), once "
                     "split (%s // c and %s %% c with the same c) or once as %s %% c: rxc takes "
                     "only such bijective maps",
                     name, name, name, name, name, name);
    }
  }
  return true;
}

/* Reads the call's index_map for an input of rank ndim (-1: unknown, not
 * checked) into l; false after an error at s. */
static bool
read_layout(const OpSite *s, int ndim, Layout *l)
{
  const IrAttr *map = op_attr(s->call, "index_map");
  if (!map || map->kind != IR_AT_INDEX_MAP)
    return op_fail(s, "index_map must be T.index_map(lambda ...)");
  l->nin = map->u.index_map.nparams;
  l->nout = map->u.index_map.nresults;
  if (ndim >= 0 && l->nin != ndim)
    return op_fail(s, "the index map takes %d indices but x has %d dimensions (they must be equal)",
                   l->nin, ndim);
  if (l->nout > MAX_DIMS)
    return op_fail(s, "the index map gives %d indices, more than the %d supported", l->nout,
                   MAX_DIMS);
  l->terms = ir_alloc(s->ctx, sizeof(Term) * (size_t)(l->nout ? l->nout : 1));
  for (int r = 0; r < l->nout; r++)
    if (!read_term(map, map->u.index_map.results[r], &l->terms[r]))
      return op_fail(s,
                     "index map result %d (%s) is not supported: rxc takes i, i // c, i %% c "
                     "and i * c + j (c a positive constant) of the lambda's parameters",
                     r, op_nn_expr_str(s->ctx, map->u.index_map.results[r]));
  return check_uses(s, map, l);
}

/* The pad value as a double: 0 when None (TVM's legalization default);
 * an integer for an integer or bool x (TVM: pad_value's dtype is x's). */
static bool
read_pad_value(const OpSite *s, IrDType t, double *v)
{
  const IrAttr *a = op_attr(s->call, "pad_value");
  *v = 0;
  if (!a || a->kind == IR_AT_NONE)
    return true;
  if (a->kind == IR_AT_INT || a->kind == IR_AT_BOOL)
    *v = a->kind == IR_AT_INT ? (double)a->u.i : a->u.b;
  else if (a->kind == IR_AT_FLOAT)
    *v = a->u.f;
  else {
    return op_fail(s, "pad_value must be a number or None");
  }
  char b[16];
  if (t.code != IR_DT_FLOAT && t.code != IR_DT_BFLOAT && t.code != IR_DT_VOID && *v != floor(*v)) {
    return op_fail(s, "pad_value %g is not of x's dtype %s", *v, ir_dtype_str(t, b));
  }
  return true;
}

/* The call's index map and pad value for an input of rank ndim and dtype t. */
static bool
read_call(const OpSite *s, int ndim, IrDType t, Layout *l)
{
  return read_layout(s, ndim, l) && read_pad_value(s, t, &l->pad);
}

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

/* The extent of result t over input dims d (TVM's MapShape on these maps). */
static IrPrimExpr *
term_extent(OpInfer *in, const Term *t, IrPrimExpr **d)
{
  IrCtx *ctx = in->ctx;
  IrPrimExpr *e = NULL;
  int64_t n;
  switch (t->kind) {
  case TERM_VAR:
    return d[t->param];
  case TERM_DIV: /* ceildiv(d, c), without d + c - 1 on literals (a huge c) */
    if (ir_prim_is_int(d[t->param], &n))
      return op_manip_lit(ctx, n / t->c + (n % t->c != 0));
    e = ir_prim_bin(ctx, IR_PE_ADD, d[t->param], op_manip_lit(ctx, t->c - 1));
    e = ir_prim_bin(ctx, IR_PE_FLOORDIV, e, op_manip_lit(ctx, t->c));
    break;
  case TERM_MOD:
    return op_manip_lit(ctx, t->c);
  case TERM_FUSE:
    e = ir_prim_bin(ctx, IR_PE_MUL, d[t->param], op_manip_lit(ctx, t->c));
    break;
  }
  return in->arith ? ir_arith_simplify(in->arith, e) : e;
}

/* A fuse i * c + j is a bijection only when j's dim is c, and i % c alone
 * only when i's dim is at most c; both checked on constant dims. */
static bool
check_dims(const OpSite *s, const Layout *l, IrPrimExpr **d)
{
  for (int r = 0; r < l->nout; r++) {
    const Term *t = &l->terms[r];
    int64_t n;
    if (t->kind == TERM_FUSE && (!ir_prim_is_int(d[t->inner], &n) || n != t->c))
      return op_fail(s,
                     "index map result %d scales by %lld, but the dim it adds (x's dim %d) is "
                     "%s: rxc takes i * c + j only where j's dim is the constant c",
                     r, (long long)t->c, t->inner, op_nn_expr_str(s->ctx, d[t->inner]));
    if (t->alone && (!ir_prim_is_int(d[t->param], &n) || n > t->c))
      return op_fail(s,
                     "index map result %d wraps x's dim %d (%s) modulo %lld: rxc takes i %% c "
                     "alone only where i's dim is a constant at most c",
                     r, t->param, op_nn_expr_str(s->ctx, d[t->param]), (long long)t->c);
  }
  return true;
}

/* TVM's rule: the rank is the map's result count; the shape is the map's
 * image of x's shape when known. */
IrSInfo *
op_manip_infer_layout_transform(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = op_manip_tensor_arg(s, args[0], "x");
  Layout l;
  if (!x || !read_call(s, x->u.tensor.ndim, x->u.tensor.dtype, &l))
    return NULL;
  IrPrimExpr **d = x->u.tensor.shape, **out = NULL;
  if (d) {
    if (!check_dims(s, &l, d))
      return NULL;
    out = op_manip_dims(in->ctx, l.nout);
    for (int r = 0; r < l.nout; r++)
      out[r] = term_extent(in, &l.terms[r], d);
  }
  return ir_sinfo_tensor(in->ctx, out, l.nout, x->u.tensor.dtype, x->u.tensor.vdevice);
}

/* ------------------------------------------------------------------ */
/* Kernel                                                              */
/* ------------------------------------------------------------------ */

/* The input index i of output index o; false where o is padding. */
static bool
source_index(const Layout *l, const int64_t *o, const int64_t *shape, int64_t *i)
{
  for (int k = 0; k < l->nin; k++)
    i[k] = 0;
  for (int r = 0; r < l->nout; r++) {
    const Term *t = &l->terms[r];
    switch (t->kind) {
    case TERM_VAR:
      i[t->param] = o[r];
      break;
    case TERM_DIV:
      i[t->param] += o[r] * t->c;
      break;
    case TERM_MOD:
      i[t->param] += o[r];
      break;
    case TERM_FUSE:
      i[t->param] = o[r] / t->c;
      i[t->inner] = o[r] % t->c;
      break;
    }
  }
  for (int k = 0; k < l->nin; k++)
    if (i[k] >= shape[k])
      return false;
  return true;
}

Value *
op_manip_eval_layout_transform(OpEval *ev, const OpSite *s, Value **args)
{
  IrTensorData *x = op_manip_tensor_val(s, args[0], "x");
  Layout l;
  int64_t shape[MAX_DIMS], oi[MAX_DIMS] = {0}, ii[MAX_DIMS];
  if (!x || !read_call(s, x->ndim, x->dtype, &l))
    return NULL;
  IrPrimExpr **d = op_manip_dims(s->ctx, x->ndim);
  for (int k = 0; k < x->ndim; k++)
    d[k] = op_manip_lit(s->ctx, x->shape[k]);
  if (!check_dims(s, &l, d))
    return NULL;
  for (int r = 0; r < l.nout; r++) {
    const Term *t = &l.terms[r];
    int64_t n = x->shape[t->param];
    shape[r] = t->kind == TERM_VAR   ? n
               : t->kind == TERM_DIV ? n / t->c + (n % t->c != 0)
               : t->kind == TERM_MOD ? t->c
                                     : n * t->c;
  }
  IrTensorData *out = op_manip_new_tensor(s, x->dtype, l.nout, shape);
  if (!out)
    return NULL;
  int64_t count = op_numel(out);
  for (int64_t flat = 0; flat < count; flat++) {
    if (source_index(&l, oi, x->shape, ii)) {
      int64_t si = 0;
      for (int k = 0; k < x->ndim; k++)
        si = si * x->shape[k] + ii[k];
      op_manip_copy_elem(out, flat, x, si);
    } else {
      op_set_f(out, flat, l.pad);
    }
    for (int r = l.nout - 1; r >= 0 && ++oi[r] == out->shape[r]; r--)
      oi[r] = 0;
  }
  return op_tensor_from_data(s->ctx, out);
}

/* ------------------------------------------------------------------ */
/* Lowering                                                            */
/* ------------------------------------------------------------------ */

/* a op b, folded when both are literals (every op here is on
 * non-negative indices and positive constants), 0 + b as b. */
static IrPrimExpr *
index_op(IrCtx *ctx, IrPrimKind k, IrPrimExpr *a, IrPrimExpr *b)
{
  int64_t x, y;
  if (k == IR_PE_ADD && ir_prim_is_int(a, &x) && x == 0)
    return b;
  if (ir_prim_is_int(a, &x) && ir_prim_is_int(b, &y)) {
    int64_t r = k == IR_PE_ADD        ? x + y
                : k == IR_PE_MUL      ? x * y
                : k == IR_PE_FLOORDIV ? x / y
                                      : x % y;
    return op_manip_lit(ctx, r);
  }
  return ir_prim_bin(ctx, k, a, b);
}

/* out[o] = x[source(o)], or the pad value where a split's joined index
 * passes its dim (a literal dim that c divides never does). */
IrExpr *
op_manip_legalize_layout_transform(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  IrCtx *ctx = lz->ctx;
  Layout l;
  OpPrim p;
  IrBuffer *x, *out;
  if (!op_prim_open(lz, &p, "te_layout_transform", s->call, result,
                    (OpPrimParam[]){{"A", &x}, {"T_layout_trans", &out}}, 2))
    return NULL;
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  if (!read_call(s, x->ndim, x->dtype, &l) || out->ndim != l.nout || !check_dims(s, &l, x->shape)) {
    op_prim_abort(&p);
    return NULL;
  }
  IrPrimExpr **xi = op_manip_dims(ctx, l.nin), *inside = NULL;
  for (int k = 0; k < l.nin; k++)
    xi[k] = op_manip_lit(ctx, 0);
  for (int r = 0; r < l.nout; r++) {
    const Term *t = &l.terms[r];
    IrPrimExpr *c = op_manip_lit(ctx, t->c);
    if (t->kind == TERM_VAR)
      xi[t->param] = o[r];
    else if (t->kind == TERM_DIV)
      xi[t->param] = index_op(ctx, IR_PE_ADD, xi[t->param], index_op(ctx, IR_PE_MUL, o[r], c));
    else if (t->kind == TERM_MOD)
      xi[t->param] = index_op(ctx, IR_PE_ADD, xi[t->param], o[r]);
    else {
      xi[t->param] = index_op(ctx, IR_PE_FLOORDIV, o[r], c);
      xi[t->inner] = index_op(ctx, IR_PE_FLOORMOD, o[r], c);
    }
  }
  for (int r = 0; r < l.nout; r++) {
    const Term *t = &l.terms[r];
    int64_t n;
    if (t->kind != TERM_DIV && !t->alone)
      continue;
    if (ir_prim_is_int(x->shape[t->param], &n) && (t->alone ? n == t->c : n % t->c == 0))
      continue; /* no padding along this dim */
    IrPrimExpr *lt = ir_prim_bin(ctx, IR_PE_LT, xi[t->param], x->shape[t->param]);
    inside = inside ? ir_prim_bin(ctx, IR_PE_AND, inside, lt) : lt;
  }
  IrStmt *store = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  *body = inside ? op_manip_store_or_fill(&p, inside, store, out, o, &l.pad) : store;
  return op_prim_finish(&p, s->call, result);
}
