/*
 * create.c - creation ops: R.full, R.full_like, R.ones, R.ones_like,
 * R.zeros, R.zeros_like, R.eye, R.eye_like, R.arange, R.hamming_window,
 * R.tril, R.triu (TVM's src/relax/op/tensor/create.cc).
 *
 * Key idea: every op here computes each output element from its index
 * alone (tril and triu also read the input there), so one description of
 * "the value at an index" serves twice: the kernel evaluates it per
 * element in double (int64 where every operand is an integer) and rounds
 * once at the store, and the lowering writes the same expression in TIR
 * inside one loop nest over the output shape.  The output shape comes
 * from the call's struct info, so symbolic dims (a shape var, a prim
 * value n) stay symbolic in the prim_func.
 *
 * TVM's rules, and where rxc departs from them:
 *   - dtype=None: full takes the fill value's dtype, the *_like ops x's;
 *     ones, zeros and hamming_window need a dtype; eye's default is
 *     float32; arange's None is int64 when start, end and step are all
 *     integers, else float32 (the rule of TVM's Python R.arange).
 *   - arange's length is numpy's, ceil((end - start) / step) and 0 for an
 *     empty range (computed in double for float bounds: what TVM's
 *     legalization of literal bounds, np.arange, gives, where its struct
 *     info rounds through float32).  With symbolic integer bounds it is
 *     TVM's floordiv(end - start + step - 1, step) for a positive step,
 *     counted the other way for a literal negative step (where TVM's
 *     formula is wrong), and with max(..., 0) where that may be negative
 *     (TVM leaves a negative dim, which fails at allocation); a symbolic
 *     step must be positive (checked at run time).
 *   - eye's m and arange's end are required: TVM's printer always writes
 *     them, and a reader default cannot refer to another argument.
 */
#include <math.h>
#include <string.h>

#include "op.h"
#include "tir_build.h"

/* The kinds of element of full, ones, zeros (Create.fill). */
typedef enum {
  FILL_VALUE, /* full, full_like: the fill value */
  FILL_ONE,   /* ones, ones_like */
  FILL_ZERO,  /* zeros, zeros_like */
} Fill;

/* The lowering's value at output index o (the builder, the output and
 * the call at hand); NULL to give up. */
typedef IrPrimExpr *(*ValueFn)(OpPrim *p, const IrExpr *call, IrBuffer *out, IrPrimExpr **o);

/* What an entry's .data says about its op. */
typedef struct {
  const char *name; /* the prim_func's name (TVM's primfunc_name_hint) */
  ValueFn value;    /* the value of each element (legalize_create) */
  Fill fill;        /* full, ones, zeros and their _like forms */
  bool upper;       /* triu (tril: false) */
} Create;

static const Create *
row_of(const IrExpr *call)
{
  return op_of(call->u.call.op)->data;
}

/* The dtype attribute: *t set from it, or to fallback when it is None or
 * absent.  False after an error for any other value. */
static bool
dtype_attr(const OpSite *s, IrDType fallback, IrDType *t)
{
  const IrAttr *a = op_attr(s->call, "dtype");
  *t = fallback;
  if (!a || a->kind == IR_AT_NONE)
    return true;
  if (a->kind == IR_AT_STR && ir_dtype_parse(a->u.s, strlen(a->u.s), t) && t->lanes == 1)
    return true;
  return op_fail(s, "the dtype attribute must name a data type");
}

/* The value of a prim argument: the R.prim_value itself, or what the
 * struct info of a var knows of it; NULL when unknown. */
static IrPrimExpr *
prim_of(const IrExpr *arg)
{
  if (arg->kind == IR_EX_PRIM)
    return arg->u.prim;
  const IrSInfo *s = arg->sinfo;
  return s && s->kind == IR_SI_PRIM ? s->u.prim.value : NULL;
}

static IrPrimExpr *
as_f64(IrCtx *ctx, IrPrimExpr *e)
{
  IrDType f64 = {IR_DT_FLOAT, 64, 1};
  int64_t v;
  if (ir_prim_is_int(e, &v))
    return ir_prim_float(ctx, f64, (double)v);
  if (e->kind == IR_PE_FLOAT)
    return ir_prim_float(ctx, f64, e->u.float_value);
  return ir_dtype_eq(e->dtype, f64) ? e : ir_prim_cast(ctx, f64, e);
}

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

static bool
check_nargs(OpInfer *in, const OpSite *site, int n)
{
  if (site->call->u.call.nargs == n)
    return true;
  return op_fail(site, "takes %d arguments, not %d", n, site->call->u.call.nargs);
}

/* A tensor argument's struct info (R.Object: a tensor of unknown rank and
 * dtype); NULL after an error for any other kind. */
static IrSInfo *
tensor_arg(OpInfer *in, const OpSite *site, IrSInfo *si, const char *what)
{
  if (si->kind == IR_SI_TENSOR)
    return si;
  if (si->kind == IR_SI_OBJECT)
    return ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
  return op_fail_null(site, "%s must be a tensor, but it is %s", what, op_sinfo_text(in->ctx, si));
}

/* The fill value of full and full_like: a tensor of rank 0. */
static IrSInfo *
fill_arg(OpInfer *in, const OpSite *site, IrSInfo *si)
{
  IrSInfo *f = tensor_arg(in, site, si, "fill_value");
  if (f && f->u.tensor.ndim > 0)
    return op_fail_null(site, "fill_value must be a tensor of rank 0, but it has rank %d",
                        f->u.tensor.ndim);
  return f;
}

/* A prim argument's value (NULL when unknown); false after an error when
 * the argument is no prim value or not of an integer dtype (int_only). */
static bool
prim_arg(OpInfer *in, const OpSite *site, IrSInfo **args, int i, const char *what, bool int_only,
         IrPrimExpr **value)
{
  IrSInfo *si = args[i];
  *value = NULL;
  if (si && si->kind == IR_SI_OBJECT)
    return true;
  if (!si || si->kind != IR_SI_PRIM)
    return op_fail(site, "%s must be a prim value", what);
  IrDType t = si->u.prim.dtype;
  if (int_only && t.code != IR_DT_VOID && !ir_dtype_is_int(t)) {
    char b[16];
    return op_fail(site, "%s must be an integer, not of dtype %s", what, ir_dtype_str(t, b));
  }
  *value = prim_of(site->call->u.call.args[i]);
  return true;
}

/* A dim given by a prim argument: an int64 expression, or NULL when
 * unknown; a literal below zero is an error. */
static bool
dim_arg(OpInfer *in, const OpSite *site, IrSInfo **args, int i, const char *what, IrPrimExpr **dim)
{
  int64_t v;
  if (!prim_arg(in, site, args, i, what, true, dim))
    return false;
  if (*dim && ir_prim_is_int(*dim, &v) && v < 0)
    return op_fail(site, "%s is negative (%lld)", what, (long long)v);
  *dim = *dim ? op_prim_i64(in->ctx, *dim) : NULL;
  return true;
}

/* The shape argument of full, ones and zeros: its values from an R.shape
 * literal or its struct info (NULL when unknown, *n -1 when even the
 * length is). */
static bool
shape_arg(OpInfer *in, const OpSite *site, IrSInfo *si, IrPrimExpr ***values, int *n)
{
  const IrExpr *e = site->call->u.call.args[0];
  *values = NULL;
  *n = -1;
  if (e->kind == IR_EX_SHAPE) {
    *values = e->u.shape.values;
    *n = e->u.shape.n;
  } else if (si->kind == IR_SI_SHAPE) {
    *n = si->u.shape.ndim;
    if (*n >= 0 && ir_sinfo_shape_len(si) == *n)
      *values = si->u.shape.values;
  } else if (si->kind != IR_SI_OBJECT) {
    return op_fail(site, "shape must be a shape, but it is %s", op_sinfo_text(in->ctx, si));
  }
  return true;
}

/* R.full(shape, fill_value, dtype), R.ones(shape, dtype), R.zeros(...). */
static IrSInfo *
infer_full(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  Fill kind = row_of(site->call)->fill;
  IrSInfo *f = NULL;
  IrPrimExpr **shape;
  int ndim;
  IrDType t;
  if (!check_nargs(in, site, kind == FILL_VALUE ? 2 : 1) ||
      !shape_arg(in, site, args[0], &shape, &ndim) ||
      (kind == FILL_VALUE && !(f = fill_arg(in, site, args[1]))) ||
      !dtype_attr(site, f ? f->u.tensor.dtype : IR_VOID, &t))
    return NULL;
  if (kind != FILL_VALUE && t.code == IR_DT_VOID)
    return op_fail_null(site, "needs a dtype");
  return ir_sinfo_tensor(in->ctx, shape, ndim, t, f ? f->u.tensor.vdevice : -1);
}

/* x's struct info with the dtype replaced when one is given. */
static IrSInfo *
like_x(OpInfer *in, const OpSite *s, IrSInfo *x)
{
  IrDType t;
  if (!dtype_attr(s, x->u.tensor.dtype, &t))
    return NULL;
  return ir_sinfo_tensor(in->ctx, x->u.tensor.shape, x->u.tensor.ndim, t, x->u.tensor.vdevice);
}

/* R.full_like(x, fill_value, dtype), R.ones_like(x, dtype), ... */
static IrSInfo *
infer_full_like(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  Fill kind = row_of(s->call)->fill;
  IrSInfo *x;
  if (!check_nargs(in, s, kind == FILL_VALUE ? 2 : 1) ||
      !(x = tensor_arg(in, s, args[0], "x")) ||
      (kind == FILL_VALUE && !fill_arg(in, s, args[1])))
    return NULL;
  return like_x(in, s, x);
}

/* R.eye(n, m, k, dtype): an n x m tensor. */
static IrSInfo *
infer_eye(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrPrimExpr **dims = ir_alloc(in->ctx, 2 * sizeof *dims), *k;
  IrDType f32 = IR_F32, t;
  if (!check_nargs(in, s, 3) || !dim_arg(in, s, args, 0, "n", &dims[0]) ||
      !dim_arg(in, s, args, 1, "m", &dims[1]) || !prim_arg(in, s, args, 2, "k", true, &k) ||
      !dtype_attr(s, f32, &t))
    return NULL;
  return ir_sinfo_tensor(in->ctx, dims[0] && dims[1] ? dims : NULL, 2, t, -1);
}

/* The (x, k) of eye_like, tril and triu: x a tensor of rank 2 (or more,
 * when more is allowed) and k an integer prim value; NULL after an
 * error. */
static IrSInfo *
matrix_and_k(OpInfer *in, const OpSite *site, IrSInfo **args, bool more)
{
  IrSInfo *x;
  IrPrimExpr *k;
  if (!check_nargs(in, site, 2) || !(x = tensor_arg(in, site, args[0], "x")) ||
      !prim_arg(in, site, args, 1, "k", true, &k))
    return NULL;
  int r = x->u.tensor.ndim;
  if (r >= 0 && (more ? r < 2 : r != 2))
    return op_fail_null(site, "x must have rank 2%s, but it has rank %d", more ? " or more" : "",
                        r);
  return x;
}

/* R.eye_like(x, k, dtype): x's struct info, dtype replaced. */
static IrSInfo *
infer_eye_like(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrSInfo *x = matrix_and_k(in, s, args, false);
  return x ? like_x(in, s, x) : NULL;
}

/* numpy's arange length for literal bounds: ceil((end - start) / step),
 * 0 for an empty range; exact in int64 when all three are integers.
 * False for a zero step or a length past int64. */
static bool
arange_count(bool ints, int64_t is, int64_t ie, int64_t ist, double s, double e, double st,
             int64_t *n)
{
  if (ints) {
    /* the distance and the step as magnitudes (exact in uint64), the
     * step's sign deciding which way the range runs */
    bool up = ist > 0;
    if (ist == 0 || (up ? ie <= is : ie >= is)) {
      *n = 0;
      return ist != 0;
    }
    uint64_t d = up ? (uint64_t)ie - (uint64_t)is : (uint64_t)is - (uint64_t)ie;
    uint64_t step = up ? (uint64_t)ist : 0 - (uint64_t)ist;
    *n = (int64_t)((d - 1) / step + 1); /* at most d: below 2^64, and ... */
    return *n > 0;                      /* ... past int64 when negative */
  }
  double c = ceil((e - s) / st);
  if (st == 0 || isnan(c) || c > 9.0e18)
    return false;
  *n = c > 0 ? (int64_t)c : 0;
  return true;
}

/* The numbers of a prim value: *i for an integer literal, *f for either;
 * false when it is no literal. */
static bool
literal(const IrPrimExpr *e, int64_t *i, double *f)
{
  if (e && ir_prim_is_int(e, i)) {
    *f = (double)*i;
    return true;
  }
  if (e && e->kind == IR_PE_FLOAT) {
    *f = e->u.float_value;
    *i = 0;
    return true;
  }
  return false;
}

/* The symbolic length of an integer arange; NULL when unknown. */
static IrPrimExpr *
arange_len(OpInfer *in, IrPrimExpr *s, IrPrimExpr *e, IrPrimExpr *st)
{
  IrCtx *ctx = in->ctx;
  IrPrimExpr *one = ir_prim_int(ctx, IR_I64, 1), *n;
  int64_t step;
  s = op_prim_i64(ctx, s), e = op_prim_i64(ctx, e), st = op_prim_i64(ctx, st);
  if (ir_prim_is_int(st, &step) && step < 0) { /* (start - end - step - 1) // -step */
    n = ir_prim_bin(ctx, IR_PE_SUB, ir_prim_bin(ctx, IR_PE_SUB, s, e), st);
    n = ir_prim_bin(ctx, IR_PE_FLOORDIV, ir_prim_bin(ctx, IR_PE_SUB, n, one),
                    ir_prim_int(ctx, IR_I64, -step));
  } else {
    if (!ir_prim_is_int(st, NULL))
      op_assume(in, ir_prim_bin(ctx, IR_PE_GE, st, one)); /* TVM's formula needs it */
    n = ir_prim_bin(ctx, IR_PE_ADD, ir_prim_bin(ctx, IR_PE_SUB, e, s), st);
    n = ir_prim_bin(ctx, IR_PE_FLOORDIV, ir_prim_bin(ctx, IR_PE_SUB, n, one), st);
  }
  n = ir_prim_bin(ctx, IR_PE_MAX, n, ir_prim_int(ctx, IR_I64, 0)); /* empty, as numpy */
  return in->arith ? ir_arith_simplify(in->arith, n) : n;
}

/* Are start, end and step all of integer dtypes (their struct info's)? */
static bool
arange_ints(const IrExpr *call)
{
  for (int i = 0; i < 3; i++) {
    const IrSInfo *si = call->u.call.args[i]->sinfo;
    if (!si || si->kind != IR_SI_PRIM || !ir_dtype_is_int(si->u.prim.dtype))
      return false;
  }
  return true;
}

/* R.arange(start, end, step, dtype): a vector. */
static IrSInfo *
infer_arange(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  IrPrimExpr *v[3], **dim = ir_alloc(in->ctx, sizeof *dim);
  const char *names[3] = {"start", "end", "step"};
  int64_t iv[3];
  double fv[3];
  int lits = 0;
  IrDType t;
  if (!check_nargs(in, s, 3))
    return NULL;
  for (int i = 0; i < 3; i++) {
    if (!prim_arg(in, s, args, i, names[i], false, &v[i]))
      return NULL;
    lits += literal(v[i], &iv[i], &fv[i]);
  }
  bool ints = arange_ints(s->call);
  if (!dtype_attr(s, ints ? IR_I64 : IR_F32, &t))
    return NULL;
  if (lits == 3) {
    int64_t n;
    if (!arange_count(ints, iv[0], iv[1], iv[2], fv[0], fv[1], fv[2], &n))
      return op_fail_null(s, fv[2] == 0 ? "step is zero" : "the range has too many elements");
    *dim = ir_prim_int(in->ctx, IR_I64, n);
  } else if (ints && v[0] && v[1] && v[2]) {
    *dim = arange_len(in, v[0], v[1], v[2]);
  } else {
    dim = NULL; /* float bounds, or a bound not known: the length is not */
  }
  return ir_sinfo_tensor(in->ctx, dim, 1, t, -1);
}

/* R.hamming_window(window_size, periodic, alpha, beta, dtype). */
static IrSInfo *
infer_hamming_window(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  IrPrimExpr **dim = ir_alloc(in->ctx, sizeof *dim), *unused;
  IrDType t;
  int64_t n;
  char b[16];
  if (!check_nargs(in, site, 4) || !prim_arg(in, site, args, 0, "window_size", true, dim) ||
      !prim_arg(in, site, args, 1, "periodic", false, &unused) ||
      !prim_arg(in, site, args, 2, "alpha", false, &unused) ||
      !prim_arg(in, site, args, 3, "beta", false, &unused) || !dtype_attr(site, IR_VOID, &t))
    return NULL;
  if (!ir_dtype_is_float(t))
    return op_fail_null(site, "needs a float dtype, not %s", ir_dtype_str(t, b));
  if (*dim && ir_prim_is_int(*dim, &n) && n < 1)
    return op_fail_null(site, "window_size must be at least 1, not %lld", (long long)n);
  if (*dim) {
    *dim = op_prim_i64(in->ctx, *dim);
    op_assume(in, ir_prim_bin(in->ctx, IR_PE_GE, *dim, ir_prim_int(in->ctx, IR_I64, 1)));
  }
  return ir_sinfo_tensor(in->ctx, *dim ? dim : NULL, 1, t, -1);
}

/* R.tril(x, k), R.triu(x, k): x's struct info; x has rank 2 or more. */
static IrSInfo *
infer_trilu(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  return matrix_and_k(in, s, args, true);
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

static void
eval_fail(OpEval *ev, const OpSite *site, const char *msg)
{
  op_report(site, "%s", msg);
}

/* The prim value of argument i, or NULL after an error. */
static const Value *
eval_prim(OpEval *ev, const OpSite *s, Value **args, int i)
{
  if (args[i]->kind == VAL_PRIM)
    return args[i];
  eval_fail(ev, s, "expects a prim value");
  return NULL;
}

static double
prim_f(const Value *v)
{
  return ir_dtype_is_float(v->u.prim.dtype) ? v->u.prim.f : (double)v->u.prim.i;
}

/* The output tensor of the dtype the call's struct info or attributes
 * give (the kernel sees the same attributes inference saw). */
static Value *
eval_output(OpEval *ev, const OpSite *s, IrDType fallback, int ndim, const int64_t *shape)
{
  IrDType t;
  if (!dtype_attr(s, fallback, &t))
    return NULL;
  if (t.code == IR_DT_VOID) {
    eval_fail(ev, s, "needs a dtype");
    return NULL;
  }
  return op_tensor_new(ev->ctx, t, ndim, shape, ev->loc);
}

/* out[...] = v: from a double, or an int64 when !fl. */
static void
fill_all(IrTensorData *out, bool fl, double f, int64_t i)
{
  int64_t n = op_numel(out);
  for (int64_t k = 0; k < n; k++) {
    if (fl)
      op_set_f(out, k, f);
    else
      op_set_i(out, k, i);
  }
}

static Value *
eval_full(OpEval *ev, const OpSite *site, Value **args)
{
  Fill kind = row_of(site->call)->fill;
  bool like = args[0]->kind == VAL_TENSOR;
  const IrTensorData *fill = NULL;
  IrDType fallback = IR_VOID;
  if (kind == FILL_VALUE) {
    if (args[1]->kind != VAL_TENSOR || args[1]->u.tensor.t.ndim != 0) {
      eval_fail(ev, site, "fill_value must be a tensor of rank 0");
      return NULL;
    }
    fill = &args[1]->u.tensor.t;
    fallback = fill->dtype;
  }
  if (like) /* full_like too: x's dtype, not the fill value's */
    fallback = args[0]->u.tensor.t.dtype;
  Value *v;
  if (like)
    v = eval_output(ev, site, fallback, args[0]->u.tensor.t.ndim, args[0]->u.tensor.t.shape);
  else if (args[0]->kind == VAL_SHAPE)
    v = eval_output(ev, site, fallback, args[0]->u.shape.n, args[0]->u.shape.dims);
  else {
    eval_fail(ev, site, "expects a shape or a tensor");
    return NULL;
  }
  if (!v)
    return NULL;
  if (fill)
    fill_all(&v->u.tensor.t, ir_dtype_is_float(fill->dtype), op_get_f(fill, 0), op_get_i(fill, 0));
  else
    fill_all(&v->u.tensor.t, false, 0, kind == FILL_ONE);
  return v;
}

/* out[i, j] = j - i == k: the dims from n and m or from x. */
static Value *
eval_eye(OpEval *ev, const OpSite *s, Value **args)
{
  bool like = s->call->u.call.op->id == IR_OP_EYE_LIKE;
  const Value *k = eval_prim(ev, s, args, like ? 1 : 2);
  int64_t dims[2];
  Value *v;
  if (!k)
    return NULL;
  if (like) {
    if (args[0]->kind != VAL_TENSOR || args[0]->u.tensor.t.ndim != 2) {
      eval_fail(ev, s, "x must be a tensor of rank 2");
      return NULL;
    }
    memcpy(dims, args[0]->u.tensor.t.shape, sizeof dims);
    v = eval_output(ev, s, args[0]->u.tensor.t.dtype, 2, dims);
  } else {
    const Value *n = eval_prim(ev, s, args, 0), *m = eval_prim(ev, s, args, 1);
    if (!n || !m)
      return NULL;
    dims[0] = n->u.prim.i;
    dims[1] = m->u.prim.i;
    v = eval_output(ev, s, IR_F32, 2, dims);
  }
  if (!v)
    return NULL;
  for (int64_t i = 0; i < dims[0]; i++)
    for (int64_t j = 0; j < dims[1]; j++)
      op_set_i(&v->u.tensor.t, i * dims[1] + j, j - i == k->u.prim.i);
  return v;
}

/* out[i] = start + step * i: in int64 when all three are integers (TVM's
 * cast(dtype, start + step * i)), else in double. */
static Value *
eval_arange(OpEval *ev, const OpSite *site, Value **args)
{
  const Value *s = eval_prim(ev, site, args, 0), *e = eval_prim(ev, site, args, 1),
              *st = eval_prim(ev, site, args, 2);
  int64_t n;
  if (!s || !e || !st)
    return NULL;
  bool ints =
      !ir_dtype_is_float(s->u.prim.dtype) && !ir_dtype_is_float(e->u.prim.dtype) && !ir_dtype_is_float(st->u.prim.dtype);
  if (!arange_count(ints, s->u.prim.i, e->u.prim.i, st->u.prim.i, prim_f(s), prim_f(e), prim_f(st),
                    &n)) {
    eval_fail(ev, site, prim_f(st) == 0 ? "step is zero" : "the range has too many elements");
    return NULL;
  }
  const IrPrimExpr *written = prim_of(site->call->u.call.args[2]);
  if (ints && st->u.prim.i < 1 && !(written && ir_prim_is_int(written, NULL))) {
    eval_fail(ev, site, "a symbolic step must be at least 1"); /* inference assumed it */
    return NULL;
  }
  Value *v = eval_output(ev, site, ints ? IR_I64 : IR_F32, 1, &n);
  if (!v)
    return NULL;
  for (int64_t i = 0; i < n; i++) {
    if (ints)
      op_set_i(&v->u.tensor.t, i,
               (int64_t)((uint64_t)s->u.prim.i + (uint64_t)st->u.prim.i * (uint64_t)i));
    else
      op_set_f(&v->u.tensor.t, i, prim_f(s) + prim_f(st) * (double)i);
  }
  return v;
}

#define TWO_PI 6.283185307179586

/* w[i] = alpha - beta * cos(2 pi i / (M - 1)), M = N + 1 when periodic,
 * and [1] for N = 1. */
static Value *
eval_hamming_window(OpEval *ev, const OpSite *s, Value **args)
{
  const Value *n = eval_prim(ev, s, args, 0), *periodic = eval_prim(ev, s, args, 1),
              *alpha = eval_prim(ev, s, args, 2), *beta = eval_prim(ev, s, args, 3);
  if (!n || !periodic || !alpha || !beta)
    return NULL;
  if (n->u.prim.i < 1) {
    eval_fail(ev, s, "window_size must be at least 1");
    return NULL;
  }
  Value *v = eval_output(ev, s, IR_VOID, 1, &n->u.prim.i);
  if (!v)
    return NULL;
  int64_t denom = prim_f(periodic) != 0 ? n->u.prim.i : n->u.prim.i - 1;
  for (int64_t i = 0; i < n->u.prim.i; i++) {
    double w = prim_f(alpha) - prim_f(beta) * cos(TWO_PI * (double)i / (double)denom);
    op_set_f(&v->u.tensor.t, i, n->u.prim.i == 1 ? 1.0 : w);
  }
  return v;
}

/* tril keeps x where j - i <= k, triu where j - i >= k; 0 elsewhere. */
static Value *
eval_trilu(OpEval *ev, const OpSite *s, Value **args)
{
  bool upper = row_of(s->call)->upper;
  const Value *k = eval_prim(ev, s, args, 1);
  if (!k)
    return NULL;
  if (args[0]->kind != VAL_TENSOR || args[0]->u.tensor.t.ndim < 2) {
    eval_fail(ev, s, "x must be a tensor of rank 2 or more");
    return NULL;
  }
  const IrTensorData *x = &args[0]->u.tensor.t;
  Value *v = op_tensor_new(ev->ctx, x->dtype, x->ndim, x->shape, ev->loc);
  if (!v)
    return NULL;
  int64_t rows = x->shape[x->ndim - 2], cols = x->shape[x->ndim - 1], n = op_numel(x);
  size_t size = (size_t)ir_dtype_bytes(x->dtype);
  for (int64_t e = 0; e < n; e++) {
    int64_t j = e % cols, i = e / cols % rows, d = j - i;
    if (upper ? d >= k->u.prim.i : d <= k->u.prim.i) /* the bytes: every dtype exact */
      memcpy((char *)v->u.tensor.t.data + e * size, (const char *)x->data + e * size, size);
  }
  return v;
}

/* ------------------------------------------------------------------ */
/* Legalization                                                        */
/* ------------------------------------------------------------------ */

/* x as a value of dtype t: literals folded (a float to an int truncates,
 * anything to bool is != 0, as op_set_f/op_set_i store), else a cast. */
static IrPrimExpr *
convert(IrCtx *ctx, IrDType t, IrPrimExpr *x)
{
  if (ir_dtype_eq(x->dtype, t))
    return x;
  bool fl = x->kind == IR_PE_FLOAT;
  if (fl || x->kind == IR_PE_INT) {
    double f = fl ? x->u.float_value : (double)x->u.int_value;
    if (ir_dtype_is_float(t))
      return ir_prim_float(ctx, t, f);
    if (t.code == IR_DT_BOOL)
      return ir_prim_int(ctx, t, f != 0);
    return ir_prim_int(ctx, t, fl ? (int64_t)f : x->u.int_value);
  }
  if (t.code == IR_DT_BOOL)
    return ir_prim_bin(ctx, IR_PE_NE, x, convert(ctx, x->dtype, ir_prim_int(ctx, IR_I64, 0)));
  return ir_prim_cast(ctx, t, x);
}

/* full: a constant fill value folds into the code; any other is read. */
static IrPrimExpr *
value_full(OpPrim *p, const IrExpr *call, IrBuffer *out, IrPrimExpr **o)
{
  IrCtx *ctx = p->lz->ctx;
  Fill kind = row_of(call)->fill;
  (void)out, (void)o;
  if (kind != FILL_VALUE)
    return ir_prim_int(ctx, IR_I64, kind == FILL_ONE);
  const IrExpr *arg = call->u.call.args[1];
  if (arg->kind == IR_EX_CONST) {
    const IrTensorData *c = &arg->u.constant;
    if (ir_dtype_is_float(c->dtype))
      return ir_prim_float(ctx, (IrDType){IR_DT_FLOAT, 64, 1}, op_get_f(c, 0));
    return ir_prim_int(ctx, IR_I64, op_get_i(c, 0));
  }
  IrBuffer *fill = op_prim_input(p, arg, "fill_value");
  return fill && fill->ndim == 0 ? op_prim_load(p, fill, NULL) : NULL;
}

/* The TIR form of prim argument i (its Relax vars mapped), or NULL. */
static IrPrimExpr *
prim_in(OpPrim *p, const IrExpr *call, int i)
{
  IrPrimExpr *e = i < call->u.call.nargs ? prim_of(call->u.call.args[i]) : NULL;
  return e ? op_prim_dim(p, e) : NULL;
}

/* eye: select(j - i == k, 1, 0). */
static IrPrimExpr *
value_eye(OpPrim *p, const IrExpr *call, IrBuffer *out, IrPrimExpr **o)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *k = prim_in(p, call, call->u.call.op->id == IR_OP_EYE_LIKE ? 1 : 2);
  if (!k || out->ndim != 2)
    return NULL;
  IrPrimExpr *d = ir_prim_bin(ctx, IR_PE_SUB, op_prim_i64(ctx, o[1]), op_prim_i64(ctx, o[0]));
  return ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_EQ, d, op_prim_i64(ctx, k)),
                        ir_prim_int(ctx, IR_I64, 1), ir_prim_int(ctx, IR_I64, 0));
}

/* arange: start + step * i, in int64 when all are integers, else in
 * float64. */
static IrPrimExpr *
value_arange(OpPrim *p, const IrExpr *call, IrBuffer *out, IrPrimExpr **o)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *s = prim_in(p, call, 0), *st = prim_in(p, call, 2);
  (void)out;
  if (!s || !st)
    return NULL;
  if (arange_ints(call))
    return ir_prim_bin(ctx, IR_PE_ADD, op_prim_i64(ctx, s),
                       ir_prim_bin(ctx, IR_PE_MUL, op_prim_i64(ctx, st), op_prim_i64(ctx, o[0])));
  return ir_prim_bin(ctx, IR_PE_ADD, as_f64(ctx, s),
                     ir_prim_bin(ctx, IR_PE_MUL, as_f64(ctx, st), as_f64(ctx, o[0])));
}

/* hamming_window in float64, as the kernel computes it; the divisor is
 * kept at 1 or more so that N = 1 (which selects 1) divides by nothing
 * worse. */
static IrPrimExpr *
value_hamming(OpPrim *p, const IrExpr *call, IrBuffer *out, IrPrimExpr **o)
{
  IrCtx *ctx = p->lz->ctx;
  IrDType f64 = {IR_DT_FLOAT, 64, 1};
  IrPrimExpr *n = prim_in(p, call, 0), *periodic = prim_in(p, call, 1);
  IrPrimExpr *alpha = prim_in(p, call, 2), *beta = prim_in(p, call, 3);
  (void)out;
  if (!n || !periodic || !alpha || !beta)
    return NULL;
  n = op_prim_i64(ctx, n);
  IrPrimExpr *one = ir_prim_int(ctx, IR_I64, 1);
  IrPrimExpr *denom =
      ir_prim_select(ctx, convert(ctx, IR_BOOL, periodic), n, ir_prim_bin(ctx, IR_PE_SUB, n, one));
  denom = as_f64(ctx, ir_prim_bin(ctx, IR_PE_MAX, denom, one));
  IrPrimExpr **angle = ir_alloc(ctx, sizeof *angle); /* the call keeps its args */
  *angle = ir_prim_bin(
      ctx, IR_PE_DIV,
      ir_prim_bin(ctx, IR_PE_MUL, ir_prim_float(ctx, f64, TWO_PI), as_f64(ctx, o[0])), denom);
  IrPrimExpr *w = ir_prim_bin(ctx, IR_PE_SUB, as_f64(ctx, alpha),
                              ir_prim_bin(ctx, IR_PE_MUL, as_f64(ctx, beta),
                                          ir_prim_intrin(ctx, f64, "tir.cos", angle, 1)));
  return ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_EQ, n, one), ir_prim_float(ctx, f64, 1.0), w);
}

/* tril/triu: select(j - i <= k (>= k for triu), x[o], 0). */
static IrPrimExpr *
value_trilu(OpPrim *p, const IrExpr *call, IrBuffer *out, IrPrimExpr **o)
{
  IrCtx *ctx = p->lz->ctx;
  bool upper = row_of(call)->upper;
  IrBuffer *x = op_prim_input(p, call->u.call.args[0], "A");
  IrPrimExpr *k = prim_in(p, call, 1);
  if (!x || !k || x->ndim != out->ndim || out->ndim < 2)
    return NULL;
  int r = out->ndim - 2;
  IrPrimExpr *d = ir_prim_bin(ctx, IR_PE_SUB, op_prim_i64(ctx, o[r + 1]), op_prim_i64(ctx, o[r]));
  IrPrimExpr *keep = ir_prim_bin(ctx, upper ? IR_PE_GE : IR_PE_LE, d, op_prim_i64(ctx, k));
  return ir_prim_select(ctx, keep, op_prim_load(p, x, o),
                        convert(ctx, x->dtype, ir_prim_int(ctx, IR_I64, 0)));
}

/* The legalize hook of every op of this file: the prim_func of its row's
 * name storing its row's value into every element of one output of struct
 * info result; NULL (nothing made) when the output's shape or dtype is not
 * known or the value gives up. */
static IrExpr *
legalize_create(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  const Create *row = row_of(s->call);
  OpPrim p;
  op_prim_begin(lz, &p, row->name);
  IrBuffer *out = op_prim_output(&p, result, ir_printf(lz->ctx, "T_%s", row->name));
  IrPrimExpr **o, *v = NULL;
  IrStmt **body = out ? op_prim_loops(&p, out->shape, out->ndim, &o) : NULL;
  if (body)
    v = row->value(&p, s->call, out, o);
  if (!v) {
    op_prim_abort(&p);
    return NULL;
  }
  *body = op_prim_store(&p, out, o, convert(lz->ctx, out->dtype, v));
  return op_prim_finish(&p, s->call, result);
}

/* ------------------------------------------------------------------ */
/* Table                                                               */
/* ------------------------------------------------------------------ */

#define E OP_ARG
#define A OP_ATTR
/* clang-format off */
#define PARAM(name, kind, fallback) {name, IR_PARAM_##kind, fallback}
/* An entry's Create row: ROW(name, value), ROW(name, value, .upper = u) */
#define ROW(name_, ...) .data = &(const Create){.name = name_, .value = __VA_ARGS__}
/* clang-format on */

/* full, ones and zeros, each with its _like form */
static const Create full = {"full", value_full, FILL_VALUE, false},
                    ones = {"ones", value_full, FILL_ONE, false},
                    zeros = {"zeros", value_full, FILL_ZERO, false};

static const OpDef defs[] = {
    OP(IR_OP_FULL, "relax.full",
       .syn.params = {PARAM("shape", SHAPE, NULL), E("fill_value"), A("dtype", "None")},
       .syn.nparams = 3, .impl = {infer_full, eval_full, legalize_create}, .data = &full),
    OP(IR_OP_FULL_LIKE, "relax.full_like",
       .syn.params = {E("x"), E("fill_value"), A("dtype", "None")}, .syn.nparams = 3,
       .impl = {infer_full_like, eval_full, legalize_create}, .data = &full),
    OP(IR_OP_ONES, "relax.ones", .syn.params = {PARAM("shape", SHAPE, NULL), A("dtype", NULL)},
       .syn.nparams = 2, .impl = {infer_full, eval_full, legalize_create}, .data = &ones),
    OP(IR_OP_ONES_LIKE, "relax.ones_like", .syn.params = {E("x"), A("dtype", "None")},
       .syn.nparams = 2, .impl = {infer_full_like, eval_full, legalize_create}, .data = &ones),
    OP(IR_OP_ZEROS, "relax.zeros", .syn.params = {PARAM("shape", SHAPE, NULL), A("dtype", NULL)},
       .syn.nparams = 2, .impl = {infer_full, eval_full, legalize_create}, .data = &zeros),
    OP(IR_OP_ZEROS_LIKE, "relax.zeros_like", .syn.params = {E("x"), A("dtype", "None")},
       .syn.nparams = 2, .impl = {infer_full_like, eval_full, legalize_create}, .data = &zeros),
    OP(IR_OP_EYE, "relax.eye",
       .syn.params = {PARAM("n", PRIM, NULL), PARAM("m", PRIM, NULL), PARAM("k", PRIM, "0"),
                      A("dtype", "\"float32\"")},
       .syn.nparams = 4, .impl = {infer_eye, eval_eye, legalize_create}, ROW("eye", value_eye)),
    OP(IR_OP_EYE_LIKE, "relax.eye_like",
       .syn.params = {E("x"), PARAM("k", PRIM, "0"), A("dtype", "None")}, .syn.nparams = 3,
       .impl = {infer_eye_like, eval_eye, legalize_create}, ROW("eye", value_eye)),
    OP(IR_OP_ARANGE, "relax.arange",
       .syn.params = {PARAM("start", PRIM, NULL), PARAM("end", PRIM, NULL),
                      PARAM("step", PRIM, "1"), A("dtype", "None")},
       .syn.nparams = 4, .impl = {infer_arange, eval_arange, legalize_create},
       ROW("arange", value_arange)),
    OP(IR_OP_HAMMING_WINDOW, "relax.hamming_window",
       .syn.params = {PARAM("window_size", PRIM, NULL), PARAM("periodic", PRIM, NULL),
                      PARAM("alpha", PRIM, NULL), PARAM("beta", PRIM, NULL), A("dtype", NULL)},
       .syn.nparams = 5, .impl = {infer_hamming_window, eval_hamming_window, legalize_create},
       ROW("hamming_window", value_hamming)),
    OP(IR_OP_TRIL, "relax.tril", .syn.params = {E("x"), PARAM("k", PRIM, "0")}, .syn.nparams = 2,
       .impl = {infer_trilu, eval_trilu, legalize_create},
       ROW("tril", value_trilu, .upper = false)),
    OP(IR_OP_TRIU, "relax.triu", .syn.params = {E("x"), PARAM("k", PRIM, "0")}, .syn.nparams = 2,
       .impl = {infer_trilu, eval_trilu, legalize_create}, ROW("triu", value_trilu, .upper = true)),
};

const OpTable op_create_table = {defs, sizeof defs / sizeof defs[0]};
