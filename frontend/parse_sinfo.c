/*
 * parse_sinfo.c - struct info annotations: R.Tensor, R.Tuple, R.Shape,
 * R.Prim, R.Object/R.Any, R.Callable, R.PackedFunc.
 *
 * Key idea: arguments are read as TVM's Python constructors take them,
 * positional or keyword, with the reader leniencies of docs/text-format.md
 * (positional dtype, list shapes, dtype only, ndim=-1, positional vdevice).
 */
#include <stdlib.h>
#include <string.h>

#include "fe_int.h"

/* "(a, b)" or "[a, b]" of symbolic dims; *n set.  Never NULL. */
IrPrimExpr **
fe_shape_list(Parser *P, int *n)
{
  const Tok *open = fe_peek(P);
  const char *close = fe_is_op(open, "[") ? "]" : ")";
  if (!fe_is_op(open, "[") && !fe_is_op(open, "("))
    fe_expect_op(P, "(");
  fe_next(P);
  FeVec dims = {0};
  while (!fe_is_op(fe_peek(P), close)) {
    fe_vec_ptr(P, &dims, fe_prim_as(P, fe_texpr(P), P->int_default));
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, close);
  *n = dims.len;
  return dims.len ? dims.data : ir_alloc(P->ctx, sizeof(IrPrimExpr *));
}

/* The index of a vdevice named "kind", "kind:i", "kind:i:scope" or
 * "vdevice:i" in the module's global infos; -1 after an error. */
static int
vdevice_index(Parser *P, const Tok *t)
{
  const char *s = t->sym, *colon = strchr(s, ':');
  size_t klen = colon ? (size_t)(colon - s) : strlen(s);
  int want = colon ? atoi(colon + 1) : 0;
  const IrVDevice *v = P->vdevices.data;
  if (klen == 7 && strncmp(s, "vdevice", 7) == 0) {
    if (want >= 0 && want < P->vdevices.len)
      return want;
  } else {
    for (int i = 0, seen = 0; i < P->vdevices.len; i++)
      if (strlen(v[i].kind) == klen && strncmp(v[i].kind, s, klen) == 0 && seen++ == want)
        return i;
  }
  fe_error(P, t, "unknown vdevice '%s' (not in I.module_global_infos)", s);
  return -1;
}

/* Completes struct info whose shape may have been written beside an ndim:
 * ndim defaults to the shape's length, and a contradicting ndim is kept with
 * shape_len for the well-formedness check to report. */
static IrSInfo *
with_shape(IrSInfo *s, bool has_shape, int nshape)
{
  int *ndim = s->kind == IR_SI_TENSOR ? &s->u.tensor.ndim : &s->u.shape.ndim;
  if (!has_shape)
    return s;
  if (*ndim == -1)
    *ndim = nshape;
  else if (*ndim != nshape)
    s->shape_len = nshape;
  return s;
}

typedef struct {
  IrPrimExpr **shape;
  int nshape; /* entries written in shape */
  int ndim;   /* ndim= as written, -1 when absent */
  IrDType dtype;
  int vdevice;
} TensorArgs;

/* One argument of R.Tensor(...); slot is its position or keyword. */
static void
tensor_arg(Parser *P, TensorArgs *a, const char *slot)
{
  const Tok *t = fe_peek(P);
  if (strcmp(slot, "shape") == 0) {
    if (fe_is_name(t, "None"))
      fe_next(P);
    else
      a->shape = fe_shape_list(P, &a->nshape);
  } else if (strcmp(slot, "dtype") == 0) {
    if (fe_is_name(t, "None")) /* dtype=None: unknown, as "void" */
      fe_next(P);
    else
      a->dtype = fe_dtype_str(P);
  } else if (strcmp(slot, "ndim") == 0) {
    int64_t nd;
    if (!fe_int_literal(P, true, &nd))
      fe_fail(P, t, "expected an integer for ndim");
    if (nd < -1 || nd > 1000000)
      fe_fail(P, t, "ndim %lld is out of range", (long long)nd);
    a->ndim = (int)nd;
  } else if (strcmp(slot, "vdevice") == 0) {
    a->vdevice = vdevice_index(P, fe_expect_kind(P, TK_STR, "a vdevice string"));
  } else {
    fe_fail(P, t, "unexpected keyword argument '%s' for R.Tensor", slot);
  }
}

static IrSInfo *
tensor(Parser *P)
{
  TensorArgs a = {NULL, 0, -1, IR_VOID, -1};
  static const char *const positional[] = {"shape", "dtype", "vdevice"};
  if (!fe_accept_op(P, "("))
    return ir_sinfo_tensor(P->ctx, NULL, -1, IR_VOID, -1);
  for (int i = 0; !fe_is_op(fe_peek(P), ")"); i++) {
    const Tok *t = fe_peek(P);
    if (t->kind == TK_NAME && fe_is_op(fe_peek_at(P, 1), "=")) {
      fe_next(P);
      fe_next(P);
      tensor_arg(P, &a, t->sym);
    } else {
      if (i == 0 && t->kind == TK_STR)
        i = 1; /* R.Tensor("float32") */
      if (i > 2)
        fe_fail(P, t, "too many arguments for R.Tensor");
      tensor_arg(P, &a, positional[i]);
    }
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, ")");
  return with_shape(ir_sinfo_tensor(P->ctx, a.shape, a.ndim, a.dtype, a.vdevice), a.shape != NULL,
                    a.nshape);
}

static IrSInfo *
tuple(Parser *P)
{
  FeVec fields = {0};
  if (fe_accept_op(P, "(")) {
    bool list = fe_accept_op(P, "[");
    const char *close = list ? "]" : ")";
    while (!fe_is_op(fe_peek(P), close)) {
      fe_vec_ptr(P, &fields, fe_sinfo(P));
      if (!fe_accept_op(P, ","))
        break;
    }
    fe_expect_op(P, close);
    if (list)
      fe_expect_op(P, ")");
  }
  return ir_sinfo_tuple(P->ctx, fields.data, fields.len);
}

static IrSInfo *
shape(Parser *P)
{
  if (!fe_accept_op(P, "("))
    return ir_sinfo_shape(P->ctx, NULL, -1);
  IrPrimExpr **values = NULL;
  int ndim = -1, nvalues = 0;
  if (!fe_is_name(fe_peek(P), "ndim")) {
    if (fe_is_name(fe_peek(P), "values")) {
      fe_next(P);
      fe_expect_op(P, "=");
    }
    values = fe_shape_list(P, &nvalues);
    fe_accept_op(P, ",");
  }
  if (fe_is_name(fe_peek(P), "ndim")) {
    fe_next(P);
    fe_expect_op(P, "=");
    int64_t nd;
    if (!fe_int_literal(P, true, &nd) || nd < -1 || nd > 1000000)
      fe_fail(P, fe_peek(P), "expected an integer for ndim");
    ndim = (int)nd;
  }
  fe_expect_op(P, ")");
  return with_shape(ir_sinfo_shape(P->ctx, values, ndim), values != NULL, nvalues);
}

static IrSInfo *
prim(Parser *P)
{
  fe_expect_op(P, "(");
  IrSInfo *s;
  const Tok *t = fe_peek(P);
  if (fe_is_name(t, "value")) {
    fe_next(P);
    fe_expect_op(P, "=");
    IrPrimExpr *v = fe_prim(P);
    s = ir_sinfo_prim(P->ctx, v->dtype, v);
  } else {
    if (fe_is_name(t, "dtype")) {
      fe_next(P);
      fe_expect_op(P, "=");
    }
    s = ir_sinfo_prim(P->ctx, fe_dtype_str(P), NULL);
  }
  fe_expect_op(P, ")");
  return s;
}

/* `T.int64`, `T.float32`, ...: R.Prim(dtype) as TVM v0.26 prints it; NULL
 * for other names. */
static IrSInfo *
prim_dtype_name(Parser *P, const char *name)
{
  IrDType dt;
  if (strncmp(name, "T.", 2) != 0 || !ir_dtype_parse(name + 2, strlen(name + 2), &dt))
    return NULL;
  return ir_sinfo_prim(P->ctx, dt, NULL);
}

/* `x.ty`: the struct info of Relax var x, as TVM's tests write it; NULL
 * for other names. */
static IrSInfo *
var_ty(Parser *P, const char *name)
{
  size_t len = strlen(name);
  if (len < 4 || strcmp(name + len - 3, ".ty") != 0 || memchr(name, '.', len - 3))
    return NULL;
  FeEntry *e = fe_scope_find(P, ir_sym_n(P->ctx, name, len - 3));
  return e && e->kind == SYM_RVAR ? e->rvar->sinfo : NULL;
}

/* R.Callable((params...), ret, purity) or keywords params=, ret=, purity=;
 * an opaque one may name its derive_func= (a string). */
static IrSInfo *
callable(Parser *P)
{
  if (!fe_accept_op(P, "("))
    return ir_sinfo_func(P->ctx, NULL, -1, NULL, true);
  FeVec params = {0};
  bool have_params = false, pure = true;
  IrSInfo *ret = NULL;
  const Tok *derive = NULL;
  for (int i = 0; !fe_is_op(fe_peek(P), ")"); i++) {
    const Tok *t = fe_peek(P);
    if (t->kind == TK_NAME && fe_is_op(fe_peek_at(P, 1), "=")) {
      fe_next(P);
      fe_next(P);
      i = fe_is_name(t, "params") ? 0 : fe_is_name(t, "ret") ? 1 : fe_is_name(t, "purity") ? 2 : -1;
      if (i < 0 && fe_is_name(t, "derive_func")) {
        derive = fe_expect_kind(P, TK_STR, "the derive function's name (a string)");
        if (!fe_accept_op(P, ","))
          break;
        continue;
      }
      if (i < 0)
        fe_fail(P, t, "unexpected keyword argument '%s' for R.Callable", t->sym);
    }
    if (i == 0) {
      have_params = true;
      bool list = fe_is_op(fe_peek(P), "[");
      fe_expect_op(P, list ? "[" : "(");
      while (!fe_is_op(fe_peek(P), list ? "]" : ")")) {
        fe_vec_ptr(P, &params, fe_sinfo(P));
        if (!fe_accept_op(P, ","))
          break;
      }
      fe_expect_op(P, list ? "]" : ")");
    } else if (i == 1) {
      ret = fe_sinfo(P);
    } else if (i == 2) {
      const Tok *b = fe_expect_name(P);
      if (!fe_is_name(b, "True") && !fe_is_name(b, "False"))
        fe_fail(P, b, "expected True or False but found '%s'", b->sym);
      pure = fe_is_name(b, "True");
    } else {
      fe_fail(P, t, "too many arguments for R.Callable");
    }
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, ")");
  if (derive && (have_params || ret))
    fe_fail(P, derive, "derive_func is for an R.Callable without params and ret");
  IrSInfo *s = ir_sinfo_func(P->ctx, params.data, have_params ? params.len : -1, ret, pure);
  s->u.func.derive_func = derive ? derive->sym : NULL;
  return s;
}

bool
fe_at_sinfo(const Parser *P)
{
  static const char *const names[] = {"R.Tensor", "R.Tuple",    "R.Shape",      "R.Prim",
                                      "R.Object", "R.Any",      "R.Callable",   "R.PackedFunc"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (fe_peek_dotted(P, names[i]))
      return true;
  return false;
}

IrSInfo *
fe_sinfo(Parser *P)
{
  const Tok *at;
  fe_enter(P);
  const char *name = fe_dotted(P, &at);
  IrSInfo *s = NULL;
  if (strcmp(name, "R.Tensor") == 0)
    s = tensor(P);
  else if (strcmp(name, "R.Tuple") == 0)
    s = tuple(P);
  else if (strcmp(name, "R.Shape") == 0)
    s = shape(P);
  else if (strcmp(name, "R.Prim") == 0)
    s = prim(P);
  else if (strcmp(name, "R.Object") == 0 || strcmp(name, "R.Any") == 0) {
    s = ir_sinfo_object(P->ctx);
    if (fe_accept_op(P, "(")) /* R.Any() */
      fe_expect_op(P, ")");
  }
  else if (strcmp(name, "R.Callable") == 0)
    s = callable(P);
  else if (strcmp(name, "R.PackedFunc") == 0) {
    s = ir_sinfo_func(P->ctx, NULL, -1, NULL, false);
    s->u.func.packed = true;
  } else if ((s = prim_dtype_name(P, name)) == NULL && (s = var_ty(P, name)) == NULL)
    fe_fail(P, at, "unknown struct info '%s'", name);
  fe_leave(P);
  return s;
}
