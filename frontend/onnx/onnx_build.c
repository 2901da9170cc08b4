/*
 * onnx_build.c - the helpers the ONNX converters build Relax with: the
 * table of ONNX values, bindings with inferred struct info, folding of
 * calls over known values by the ops' reference kernels, names, node
 * attributes and diagnostics.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_int.h"

OxVal *
fe_ox_lookup(OxImp *im, IrSym name)
{
  return name ? ir_map_get(&im->by_name, name) : NULL;
}

OxVal *
fe_ox_known(OxImp *im, IrSym name, const IrTensorData *data)
{
  OxVal *v = ir_alloc(im->ctx, sizeof *v);
  v->name = name;
  v->data = data;
  if (data) {
    IrPrimExpr **dims = ir_alloc(im->ctx, sizeof *dims * (size_t)(data->ndim ? data->ndim : 1));
    for (int i = 0; i < data->ndim; i++)
      dims[i] = ir_prim_int(im->ctx, IR_I64, data->shape[i]);
    v->sinfo = ir_sinfo_tensor(im->ctx, dims, data->ndim, data->dtype, -1);
  }
  if (name)
    ir_map_put(&im->by_name, name, v);
  return v;
}

static bool
is_python_reserved(const char *s)
{
  static const char *const words[] = {
      "False",   "None",     "True",     "and",    "as",   "assert", "async",   "await",
      "break",   "class",    "continue", "def",    "del",  "elif",   "else",    "except",
      "finally", "for",      "from",     "global", "if",   "import", "in",      "is",
      "lambda",  "nonlocal", "not",      "or",     "pass", "raise",  "return",  "try",
      "while",   "with",     "yield",    "R",      "T",    "I",      "metadata"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strcmp(s, words[i]) == 0)
      return true;
  return false;
}

static bool
name_used(const OxImp *im, IrSym s)
{
  return ir_map_has(&im->used_names, s);
}

IrSym
fe_ox_var_name(OxImp *im, const char *onnx_name)
{
  IrBuf b = {0};
  if (!isalpha((unsigned char)onnx_name[0]) && onnx_name[0] != '_')
    ir_buf_puts(&b, "v_");
  for (const char *p = onnx_name; *p; p++)
    ir_buf_put(&b, isalnum((unsigned char)*p) ? p : "_", 1);
  if (is_python_reserved(b.data))
    ir_buf_puts(&b, "_");
  IrSym base = ir_sym(im->ctx, b.data), s = base;
  /* the suffixes below next_suffix's are taken: a graph of N nodes of
   * one name costs N lookups, not N^2 / 2 */
  uintptr_t k = (uintptr_t)ir_map_get(&im->next_suffix, base);
  for (k = k ? k : 1; name_used(im, s); k++)
    s = ir_sym(im->ctx, ir_printf(im->ctx, "%s_%d", b.data, (int)k));
  if (s != base)
    ir_map_put(&im->next_suffix, base, (void *)k);
  ir_buf_free(&b);
  ir_map_put(&im->used_names, s, (void *)s);
  return s;
}

bool
fe_ox_unsupported(OxImp *im, const char *fmt, ...)
{
  IrBuf b = {0};
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  ir_error(im->ctx, im->loc, "node '%s' (%s): %s", im->node_name, im->node->op_type, b.data);
  ir_buf_free(&b);
  return false;
}

void
fe_ox_bind(OxImp *im, IrExpr *var, IrExpr *value)
{
  if (im->nbindings == im->cap) {
    im->cap = im->cap ? 2 * im->cap : 64;
    im->bindings = ir_xrealloc(im->bindings, sizeof *im->bindings * (size_t)im->cap);
  }
  im->bindings[im->nbindings++] = (IrBinding){var, value, NULL, im->loc};
}

/* A constant expression holding d. */
static IrExpr *
const_expr(OxImp *im, const IrTensorData *d, IrSInfo *s)
{
  IrExpr *c = ir_expr_new(im->ctx, IR_EX_CONST, im->loc);
  c->u.constant = *d;
  c->sinfo = s;
  return c;
}

IrExpr *
fe_ox_use(OxImp *im, OxVal *v)
{
  if (!v->expr) {
    v->expr =
        ir_var_new(im->ctx, fe_ox_var_name(im, v->name ? v->name : "c"), v->sinfo, true, im->loc);
    fe_ox_bind(im, v->expr, const_expr(im, v->data, v->sinfo));
    ir_map_put(&im->known_vars, v->expr, (void *)v->data);
  }
  return v->expr;
}

/* The known value an argument stands for, as an interpreter value; NULL
 * when it is not known at import time. */
static Value *
known_arg(OxImp *im, const IrExpr *e)
{
  if (e->kind == IR_EX_CONST)
    return op_tensor_from_data(im->ctx, &e->u.constant);
  if (e->kind == IR_EX_PRIM && e->u.prim->kind == IR_PE_INT)
    return op_prim_int(im->ctx, e->u.prim->dtype, e->u.prim->u.int_value);
  if (e->kind == IR_EX_PRIM && e->u.prim->kind == IR_PE_FLOAT)
    return op_prim_float(im->ctx, e->u.prim->dtype, e->u.prim->u.float_value);
  if (e->kind == IR_EX_SHAPE) {
    int64_t *dims = ir_alloc(im->ctx, sizeof *dims * (size_t)(e->u.shape.n ? e->u.shape.n : 1));
    for (int i = 0; i < e->u.shape.n; i++)
      if (!ir_prim_is_int(e->u.shape.values[i], &dims[i]))
        return NULL;
    return op_shape_new(im->ctx, dims, e->u.shape.n);
  }
  if (e->kind == IR_EX_TUPLE) {
    Value **items = ir_alloc(im->ctx, sizeof *items * (size_t)(e->u.tuple.n ? e->u.tuple.n : 1));
    for (int i = 0; i < e->u.tuple.n; i++)
      if (!(items[i] = known_arg(im, e->u.tuple.items[i])))
        return NULL;
    return op_tuple_new(im->ctx, items, e->u.tuple.n);
  }
  const IrTensorData *d = e->kind == IR_EX_VAR ? ir_map_get(&im->known_vars, e) : NULL;
  return d ? op_tensor_from_data(im->ctx, d) : NULL;
}

/* Evaluates call when every argument is known: the folded value, or NULL
 * (not known, or a result other than a tensor). */
static OxVal *
fold(OxImp *im, const IrExpr *call, const OpImpl *impl)
{
  int n = call->u.call.nargs;
  Value **args = ir_alloc(im->ctx, sizeof *args * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    if (!(args[i] = known_arg(im, call->u.call.args[i])))
      return NULL;
  OpEval ev = {im->ctx, NULL, im->loc, NULL};
  Value *r = op_call_eval(&ev, call, args);
  if (!r || r->kind != VAL_TENSOR)
    return NULL;
  IrTensorData *d = ir_alloc(im->ctx, sizeof *d);
  *d = r->u.tensor.t;
  return fe_ox_known(im, NULL, d);
}

bool
fe_ox_fold_reserve(OxImp *im, IrDType t, const int64_t *shape, int n)
{
  int64_t bytes = ir_dtype_bytes(t);
  for (int i = 0; i < n; i++) {
    if (shape[i] < 0 || (shape[i] > 0 && bytes > im->fold_budget / shape[i]))
      return false;
    bytes *= shape[i];
  }
  if (bytes > im->fold_budget)
    return false;
  im->fold_budget -= bytes;
  return true;
}

/* Whether a folded result of struct info s fits what is left of
 * im->fold_budget (taken from it when it does).  A result of unknown
 * shape is allowed: its size follows from the known inputs'. */
static bool
fold_affordable(OxImp *im, const IrSInfo *s)
{
  if (s->kind != IR_SI_TENSOR || !s->u.tensor.shape || s->u.tensor.dtype.code == IR_DT_VOID)
    return true;
  int64_t *dims = ir_alloc(im->ctx, sizeof *dims * (size_t)(s->u.tensor.ndim + 1));
  for (int i = 0; i < s->u.tensor.ndim; i++)
    if (!ir_prim_is_int(s->u.tensor.shape[i], &dims[i]))
      return true;
  return fe_ox_fold_reserve(im, s->u.tensor.dtype, dims, s->u.tensor.ndim);
}

OxVal *
fe_ox_emit(OxImp *im, const char *hint, IrOpId op, IrExpr **args, int nargs, IrAttr *attrs)
{
  IrExpr **argv = ir_alloc(im->ctx, sizeof *argv * (size_t)(nargs ? nargs : 1));
  memcpy(argv, args, sizeof *argv * (size_t)nargs);
  IrExpr *call = ir_call_op(im->ctx, &op_def(op)->syn, argv, nargs, attrs, im->loc);
  const OpImpl *impl = op_impl(op);
  IrSInfo **sargs = ir_alloc(im->ctx, sizeof *sargs * (size_t)(nargs ? nargs : 1));
  for (int i = 0; i < nargs; i++)
    sargs[i] = argv[i]->sinfo ? argv[i]->sinfo : ir_sinfo_object(im->ctx);
  OpInfer in = {im->ctx, im->arith, NULL, NULL, im->loc, NULL};
  IrSInfo *s = op_call_infer(&in, call, sargs);
  if (!s) {
    fe_ox_unsupported(im, "the %s call it maps to is rejected (see above)", op_def(op)->syn.name);
    return NULL;
  }
  int before = ir_error_count(im->ctx);
  /* a dequantized weight stays R.dequantize of its integers, for
   * FakeQuantizationToInteger (FoldConstant folds it when that pass
   * leaves it) */
  OxVal *folded = op == IR_OP_DEQUANTIZE || !fold_affordable(im, s) ? NULL : fold(im, call, impl);
  if (ir_error_count(im->ctx) > before)
    return NULL;
  if (folded)
    return folded;
  call->sinfo = s;
  OxVal *v = fe_ox_known(im, NULL, NULL);
  v->sinfo = s;
  v->expr = ir_var_new(im->ctx, fe_ox_var_name(im, hint), s, true, im->loc);
  fe_ox_bind(im, v->expr, call);
  return v;
}

/* A name hint for the current node's first output. */
static const char *
out_hint(const OxImp *im)
{
  return im->node && im->node->n_output > 0 && im->node->output[0][0] ? im->node->output[0] : "lv";
}

OxVal *
fe_ox_call(OxImp *im, IrOpId op, OxVal **args, int nargs, IrAttr *attrs)
{
  IrExpr **argv = ir_alloc(im->ctx, sizeof *argv * (size_t)(nargs ? nargs : 1));
  for (int i = 0; i < nargs; i++) {
    /* a known argument goes in as a constant so the call may fold */
    argv[i] = args[i]->expr ? args[i]->expr : const_expr(im, args[i]->data, args[i]->sinfo);
  }
  bool all_known = true;
  for (int i = 0; i < nargs; i++)
    all_known = all_known && args[i]->data;
  if (!all_known)
    for (int i = 0; i < nargs; i++)
      argv[i] = fe_ox_use(im, args[i]);
  return fe_ox_emit(im, out_hint(im), op, argv, nargs, attrs);
}

OxVal *
fe_ox_call1(OxImp *im, IrOpId op, OxVal *x, IrAttr *attrs)
{
  return x ? fe_ox_call(im, op, &x, 1, attrs) : NULL;
}

OxVal *
fe_ox_like(OxImp *im, OxVal *x, double v)
{
  return x ? fe_ox_scalar(im, fe_ox_dtype(x), v) : NULL;
}

OxVal *
fe_ox_astype(OxImp *im, OxVal *x, IrDType t)
{
  char buf[16];
  if (!x || ir_dtype_eq(fe_ox_dtype(x), t))
    return x;
  return fe_ox_call1(im, IR_OP_ASTYPE, x,
                     fe_ox_attrs(im->ctx, "dtype",
                                 ir_attr_str(im->ctx, ir_sym(im->ctx, ir_dtype_str(t, buf))),
                                 NULL));
}

OxVal *
fe_ox_matmul(OxImp *im, OxVal *a, OxVal *b)
{
  OxVal *args[2] = {a, b};
  IrAttr *attrs =
      fe_ox_attrs(im->ctx, "out_dtype", ir_attr_str(im->ctx, ir_sym(im->ctx, "void")), NULL);
  return a && b ? fe_ox_call(im, IR_OP_MATMUL, args, 2, attrs) : NULL;
}

OxVal *
fe_ox_slice(OxImp *im, OxVal *x, int64_t axis, int64_t begin, int64_t end, int64_t step)
{
  IrCtx *ctx = im->ctx;
  return fe_ox_call1(im, IR_OP_STRIDED_SLICE, x,
                     fe_ox_attrs(ctx, "axes", fe_ox_attr_ints(ctx, &axis, 1), "begin",
                                 fe_ox_attr_ints(ctx, &begin, 1), "end",
                                 fe_ox_attr_ints(ctx, &end, 1), "strides",
                                 fe_ox_attr_ints(ctx, &step, 1), "assume_inbound",
                                 ir_attr_bool(ctx, false), NULL));
}

OxVal *
fe_ox_call2(OxImp *im, IrOpId op, OxVal *a, OxVal *b)
{
  OxVal *args[2] = {a, b};
  return a && b ? fe_ox_call(im, op, args, 2, NULL) : NULL;
}

OxVal *
fe_ox_tuple_get(OxImp *im, OxVal *t, int i)
{
  IrExpr *get = ir_expr_new(im->ctx, IR_EX_GET, im->loc);
  get->u.get.tuple = fe_ox_use(im, t);
  get->u.get.index = i;
  get->sinfo = t->sinfo->u.tuple.fields[i];
  OxVal *v = fe_ox_known(im, NULL, NULL);
  v->sinfo = get->sinfo;
  const char *hint = im->node && (size_t)i < im->node->n_output ? im->node->output[i] : "lv";
  v->expr = ir_var_new(im->ctx, fe_ox_var_name(im, hint), v->sinfo, true, im->loc);
  fe_ox_bind(im, v->expr, get);
  return v;
}

OxVal *
fe_ox_scalar(OxImp *im, IrDType t, double v)
{
  IrTensorData *d = ir_alloc(im->ctx, sizeof *d);
  d->dtype = t;
  d->shape = ir_alloc(im->ctx, sizeof(int64_t));
  d->nbytes = (size_t)ir_dtype_bytes(t);
  d->data = ir_alloc(im->ctx, d->nbytes);
  op_set_f(d, 0, v);
  return fe_ox_known(im, NULL, d);
}

OxVal *
fe_ox_ints(OxImp *im, const int64_t *v, int n)
{
  IrTensorData *d = ir_alloc(im->ctx, sizeof *d);
  d->dtype = IR_I64;
  d->ndim = 1;
  d->shape = ir_alloc(im->ctx, sizeof(int64_t));
  d->shape[0] = n;
  d->nbytes = sizeof(int64_t) * (size_t)n;
  d->data = ir_alloc(im->ctx, d->nbytes ? d->nbytes : 1);
  if (n)
    memcpy(d->data, v, d->nbytes);
  return fe_ox_known(im, NULL, d);
}

IrAttr *
fe_ox_attrs(IrCtx *ctx, ...)
{
  IrSym keys[16];
  IrAttr *values[16];
  int n = 0;
  va_list ap;
  va_start(ap, ctx);
  for (const char *k; n < 16 && (k = va_arg(ap, const char *)) != NULL; n++) {
    keys[n] = ir_sym(ctx, k);
    values[n] = va_arg(ap, IrAttr *);
  }
  va_end(ap);
  return ir_attr_dict(ctx, keys, values, n);
}

IrAttr *
fe_ox_attr_ints(IrCtx *ctx, const int64_t *v, int n)
{
  IrAttr **items = ir_alloc(ctx, sizeof *items * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    items[i] = ir_attr_int(ctx, v[i]);
  return ir_attr_list(ctx, items, n);
}

int
fe_ox_rank(const OxVal *v)
{
  return v->sinfo && v->sinfo->kind == IR_SI_TENSOR ? v->sinfo->u.tensor.ndim : -1;
}

IrDType
fe_ox_dtype(const OxVal *v)
{
  return v->sinfo && v->sinfo->kind == IR_SI_TENSOR ? v->sinfo->u.tensor.dtype : IR_VOID;
}

IrPrimExpr *
fe_ox_dim_expr(const OxVal *v, int i)
{
  if (fe_ox_rank(v) <= i || !v->sinfo->u.tensor.shape)
    return NULL;
  return v->sinfo->u.tensor.shape[i];
}

bool
fe_ox_dim(const OxVal *v, int i, int64_t *out)
{
  IrPrimExpr *d = fe_ox_dim_expr(v, i);
  return d && ir_prim_is_int(d, out);
}

const Onnx__AttributeProto *
fe_ox_attr(const Onnx__NodeProto *n, const char *name)
{
  for (size_t i = 0; i < n->n_attribute; i++)
    if (n->attribute[i]->name && strcmp(n->attribute[i]->name, name) == 0)
      return n->attribute[i];
  return NULL;
}

int64_t
fe_ox_attr_i(const Onnx__NodeProto *n, const char *name, int64_t fallback)
{
  const Onnx__AttributeProto *a = fe_ox_attr(n, name);
  return a ? a->i : fallback;
}

double
fe_ox_attr_f(const Onnx__NodeProto *n, const char *name, double fallback)
{
  const Onnx__AttributeProto *a = fe_ox_attr(n, name);
  return a ? a->f : fallback;
}

const int64_t *
fe_ox_attr_is(const Onnx__NodeProto *n, const char *name, int *count)
{
  const Onnx__AttributeProto *a = fe_ox_attr(n, name);
  *count = a ? (int)a->n_ints : -1;
  return a ? a->ints : NULL;
}

const char *
fe_ox_attr_s(OxImp *im, const Onnx__NodeProto *n, const char *name, const char *fallback)
{
  const Onnx__AttributeProto *a = fe_ox_attr(n, name);
  if (!a)
    return fallback;
  return ir_strdup(im->ctx, (const char *)a->s.data, a->s.len);
}

bool
fe_ox_known_ints(OxImp *im, const OxVal *v, const char *what, int64_t **out, int *n)
{
  if (!v || !v->data || v->data->ndim > 1 ||
      (v->data->dtype.code != IR_DT_INT && v->data->dtype.code != IR_DT_UINT))
    return fe_ox_unsupported(im, "%s must be a constant integer vector", what);
  int64_t len = op_numel(v->data);
  *out = ir_alloc(im->ctx, sizeof **out * (size_t)(len ? len : 1));
  for (int64_t i = 0; i < len; i++)
    (*out)[i] = op_get_i(v->data, i);
  *n = (int)len;
  return true;
}
