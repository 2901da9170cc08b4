/*
 * node.c - constructors for IR nodes, attribute values and struct info.
 *
 * Constructors allocate in the context's arena and fill every field; callers
 * treat the result as immutable from then on.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* --- attributes ---------------------------------------------------- */

static IrAttr *
attr_new(IrCtx *ctx, IrAttrKind kind)
{
  IrAttr *a = ir_alloc(ctx, sizeof *a);
  a->kind = kind;
  return a;
}

IrAttr *
ir_attr_none(IrCtx *ctx)
{
  return attr_new(ctx, IR_AT_NONE);
}

IrAttr *
ir_attr_bool(IrCtx *ctx, bool b)
{
  IrAttr *a = attr_new(ctx, IR_AT_BOOL);
  a->u.b = b;
  return a;
}

IrAttr *
ir_attr_int(IrCtx *ctx, int64_t i)
{
  IrAttr *a = attr_new(ctx, IR_AT_INT);
  a->u.i = i;
  return a;
}

IrAttr *
ir_attr_float(IrCtx *ctx, double f)
{
  IrAttr *a = attr_new(ctx, IR_AT_FLOAT);
  a->u.f = f;
  return a;
}

IrAttr *
ir_attr_str(IrCtx *ctx, IrSym s)
{
  IrAttr *a = attr_new(ctx, IR_AT_STR);
  a->u.s = s;
  return a;
}

IrAttr *
ir_attr_prim(IrCtx *ctx, IrPrimExpr *e)
{
  IrAttr *a = attr_new(ctx, IR_AT_PRIM);
  a->u.prim = e;
  return a;
}

static IrPrimExpr **
prims_copy(IrCtx *ctx, IrPrimExpr **items, int n)
{
  IrPrimExpr **copy = ir_alloc(ctx, sizeof(IrPrimExpr *) * (size_t)(n ? n : 1));
  if (n > 0)
    memcpy(copy, items, sizeof(IrPrimExpr *) * (size_t)n);
  return copy;
}

IrAttr *
ir_attr_index_map(IrCtx *ctx, IrPrimExpr **params, int nparams, IrPrimExpr **results,
                  int nresults)
{
  IrAttr *a = attr_new(ctx, IR_AT_INDEX_MAP);
  a->u.index_map.params = prims_copy(ctx, params, nparams);
  a->u.index_map.nparams = nparams;
  a->u.index_map.results = prims_copy(ctx, results, nresults);
  a->u.index_map.nresults = nresults;
  return a;
}

IrAttr *
ir_attr_list(IrCtx *ctx, IrAttr **items, int n)
{
  IrAttr *a = attr_new(ctx, IR_AT_LIST);
  a->u.list.items = ir_alloc(ctx, sizeof(IrAttr *) * (size_t)(n ? n : 1));
  if (n > 0) /* items may be NULL when n is 0 */
    memcpy(a->u.list.items, items, sizeof(IrAttr *) * (size_t)n);
  a->u.list.n = n;
  return a;
}

IrAttr *
ir_attr_dict(IrCtx *ctx, IrSym *keys, IrAttr **values, int n)
{
  IrAttr *a = attr_new(ctx, IR_AT_DICT);
  IrSym *k = ir_alloc(ctx, sizeof *k * (size_t)(n ? n : 1));
  IrAttr **v = ir_alloc(ctx, sizeof *v * (size_t)(n ? n : 1));
  int m = 0;
  /* insertion sort: dicts are small; a repeated key keeps the last value */
  for (int i = 0; i < n; i++) {
    int j = 0;
    while (j < m && strcmp(k[j], keys[i]) < 0)
      j++;
    if (j < m && strcmp(k[j], keys[i]) == 0) {
      v[j] = values[i];
      continue;
    }
    memmove(k + j + 1, k + j, sizeof *k * (size_t)(m - j));
    memmove(v + j + 1, v + j, sizeof *v * (size_t)(m - j));
    k[j] = keys[i];
    v[j] = values[i];
    m++;
  }
  a->u.list.keys = k;
  a->u.list.items = v;
  a->u.list.n = m;
  return a;
}

const IrAttr *
ir_attr_get(const IrAttr *dict, const char *key)
{
  if (!dict || dict->kind != IR_AT_DICT)
    return NULL;
  for (int i = 0; i < dict->u.list.n; i++)
    if (strcmp(dict->u.list.keys[i], key) == 0)
      return dict->u.list.items[i];
  return NULL;
}

IrAttr *
ir_attr_dict_set(IrCtx *ctx, const IrAttr *dict, IrSym key, IrAttr *value)
{
  int n = dict && dict->kind == IR_AT_DICT ? dict->u.list.n : 0;
  IrSym *keys = ir_xmalloc(sizeof *keys * (size_t)(n + 1));
  IrAttr **values = ir_xmalloc(sizeof *values * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    keys[i] = dict->u.list.keys[i];
    values[i] = dict->u.list.items[i];
  }
  keys[n] = key;
  values[n] = value;
  IrAttr *out = ir_attr_dict(ctx, keys, values, n + 1);
  free(keys);
  free(values);
  return out;
}

IrAttr *
ir_attr_dict_remove(IrCtx *ctx, const IrAttr *dict, const char *key)
{
  int n = dict && dict->kind == IR_AT_DICT ? dict->u.list.n : 0, m = 0;
  IrSym *keys = ir_alloc(ctx, sizeof *keys * (size_t)(n ? n : 1));
  IrAttr **values = ir_alloc(ctx, sizeof *values * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    if (strcmp(dict->u.list.keys[i], key) == 0)
      continue;
    keys[m] = dict->u.list.keys[i];
    values[m++] = dict->u.list.items[i];
  }
  return m ? ir_attr_dict(ctx, keys, values, m) : NULL;
}

/* --- scalar expressions ------------------------------------------- */

static IrPrimExpr *
prim_new(IrCtx *ctx, IrPrimKind kind, IrDType t)
{
  IrPrimExpr *e = ir_alloc(ctx, sizeof *e);
  e->kind = kind;
  e->dtype = t;
  return e;
}

IrPrimExpr *
ir_prim_int(IrCtx *ctx, IrDType t, int64_t v)
{
  IrPrimExpr *e = prim_new(ctx, IR_PE_INT, t);
  e->u.int_value = v;
  return e;
}

IrPrimExpr *
ir_prim_float(IrCtx *ctx, IrDType t, double v)
{
  IrPrimExpr *e = prim_new(ctx, IR_PE_FLOAT, t);
  e->u.float_value = ir_float_round(t, v); /* a float32 immediate holds a float32 value */
  return e;
}

IrPrimExpr *
ir_prim_str(IrCtx *ctx, IrSym s)
{
  IrPrimExpr *e = prim_new(ctx, IR_PE_STR, IR_HANDLE);
  e->u.str = s;
  return e;
}

IrPrimExpr *
ir_prim_var(IrCtx *ctx, IrSym name, IrDType t)
{
  IrPrimExpr *e = prim_new(ctx, IR_PE_VAR, t);
  e->u.var = name;
  return e;
}

static bool
is_bool_kind(IrPrimKind k)
{
  return (k >= IR_PE_EQ && k <= IR_PE_GE) || k == IR_PE_AND || k == IR_PE_OR || k == IR_PE_NOT;
}

IrPrimExpr *
ir_prim_bin(IrCtx *ctx, IrPrimKind kind, IrPrimExpr *a, IrPrimExpr *b)
{
  IrDType t = is_bool_kind(kind) ? IR_BOOL : a->dtype;
  IrPrimExpr *e = prim_new(ctx, kind, t);
  e->u.bin.a = a;
  e->u.bin.b = b;
  return e;
}

IrPrimExpr *
ir_prim_cast(IrCtx *ctx, IrDType t, IrPrimExpr *a)
{
  IrPrimExpr *e = prim_new(ctx, IR_PE_CAST, t);
  e->u.bin.a = a;
  return e;
}

IrPrimExpr *
ir_prim_select(IrCtx *ctx, IrPrimExpr *c, IrPrimExpr *a, IrPrimExpr *b)
{
  IrPrimExpr *e = prim_new(ctx, IR_PE_SELECT, a->dtype);
  e->u.select.cond = c;
  e->u.select.a = a;
  e->u.select.b = b;
  return e;
}

IrPrimExpr *
ir_prim_call(IrCtx *ctx, IrDType t, IrSym op, IrPrimExpr **args, int n)
{
  IrPrimExpr *e = prim_new(ctx, IR_PE_CALL, t);
  e->u.call.op = op;
  e->u.call.args = args;
  e->u.call.n = n;
  return e;
}

IrPrimExpr *
ir_prim_load(IrCtx *ctx, IrBuffer *buf, IrPrimExpr **idx, int n)
{
  IrPrimExpr *e = prim_new(ctx, IR_PE_LOAD, buf->dtype);
  e->u.load.buffer = buf;
  e->u.load.indices = idx;
  e->u.load.n = n;
  return e;
}

bool
ir_prim_is_int(const IrPrimExpr *e, int64_t *value)
{
  if (!e || e->kind != IR_PE_INT)
    return false;
  if (value)
    *value = e->u.int_value;
  return true;
}

IrStmt *
ir_stmt_new(IrCtx *ctx, IrStmtKind kind, IrLoc loc)
{
  IrStmt *s = ir_alloc(ctx, sizeof *s);
  s->kind = kind;
  s->loc = loc;
  return s;
}

/* --- struct info ---------------------------------------------------- */

static IrSInfo *
sinfo_new(IrCtx *ctx, IrSInfoKind kind)
{
  IrSInfo *s = ir_alloc(ctx, sizeof *s);
  s->kind = kind;
  return s;
}

IrSInfo *
ir_sinfo_object(IrCtx *ctx)
{
  return sinfo_new(ctx, IR_SI_OBJECT);
}

IrSInfo *
ir_sinfo_prim(IrCtx *ctx, IrDType t, IrPrimExpr *value)
{
  IrSInfo *s = sinfo_new(ctx, IR_SI_PRIM);
  s->u.prim.dtype = t;
  s->u.prim.value = value;
  return s;
}

IrSInfo *
ir_sinfo_shape(IrCtx *ctx, IrPrimExpr **values, int ndim)
{
  IrSInfo *s = sinfo_new(ctx, IR_SI_SHAPE);
  s->u.shape.values = values;
  s->u.shape.ndim = ndim;
  return s;
}

IrSInfo *
ir_sinfo_tensor(IrCtx *ctx, IrPrimExpr **shape, int ndim, IrDType t, int vdevice)
{
  IrSInfo *s = sinfo_new(ctx, IR_SI_TENSOR);
  s->u.tensor.shape = shape;
  s->u.tensor.ndim = ndim;
  s->u.tensor.dtype = t;
  s->u.tensor.vdevice = vdevice;
  return s;
}

IrSInfo *
ir_sinfo_tuple(IrCtx *ctx, IrSInfo **fields, int n)
{
  IrSInfo *s = sinfo_new(ctx, IR_SI_TUPLE);
  s->u.tuple.fields = fields;
  s->u.tuple.n = n;
  return s;
}

IrSInfo *
ir_sinfo_func(IrCtx *ctx, IrSInfo **params, int nparams, IrSInfo *ret, bool pure)
{
  IrSInfo *s = sinfo_new(ctx, IR_SI_FUNC);
  s->u.func.params = params;
  s->u.func.nparams = nparams;
  s->u.func.ret = ret;
  s->u.func.pure = pure;
  return s;
}

const char *
ir_sinfo_kind_name(IrSInfoKind k)
{
  switch (k) {
  case IR_SI_OBJECT:
    return "R.Object";
  case IR_SI_PRIM:
    return "R.Prim";
  case IR_SI_SHAPE:
    return "R.Shape";
  case IR_SI_TENSOR:
    return "R.Tensor";
  case IR_SI_TUPLE:
    return "R.Tuple";
  case IR_SI_FUNC:
    return "R.Callable";
  }
  return "?";
}

bool
ir_sinfo_is_void(const IrSInfo *s)
{
  return s && s->kind == IR_SI_TUPLE && s->u.tuple.n == 0;
}

int
ir_sinfo_shape_len(const IrSInfo *s)
{
  if (s->shape_len)
    return s->shape_len;
  return s->kind == IR_SI_TENSOR ? s->u.tensor.ndim : s->kind == IR_SI_SHAPE ? s->u.shape.ndim : 0;
}

/* --- Relax expressions ---------------------------------------------- */

IrExpr *
ir_expr_new(IrCtx *ctx, IrExprKind kind, IrLoc loc)
{
  IrExpr *e = ir_alloc(ctx, sizeof *e);
  e->kind = kind;
  e->loc = loc;
  return e;
}

IrExpr *
ir_var_new(IrCtx *ctx, IrSym name, IrSInfo *sinfo, bool dataflow, IrLoc loc)
{
  IrExpr *e = ir_expr_new(ctx, IR_EX_VAR, loc);
  e->sinfo = sinfo;
  e->u.var.name = name;
  e->u.var.dataflow = dataflow;
  return e;
}

IrExpr *
ir_call_op(IrCtx *ctx, const IrOpDef *op, IrExpr **args, int nargs, IrAttr *attrs, IrLoc loc)
{
  IrExpr *e = ir_expr_new(ctx, IR_EX_CALL, loc);
  e->u.call.kind = IR_CALL_OP;
  e->u.call.op = op;
  e->u.call.args = args;
  e->u.call.nargs = nargs;
  e->u.call.attrs = attrs;
  return e;
}

IrExpr *
ir_shape_expr(IrCtx *ctx, IrPrimExpr **values, int n, IrLoc loc)
{
  IrExpr *e = ir_expr_new(ctx, IR_EX_SHAPE, loc);
  e->u.shape.values = values;
  e->u.shape.n = n;
  e->sinfo = ir_sinfo_shape(ctx, values, n);
  return e;
}

IrExpr *
ir_const_new(IrCtx *ctx, const IrTensorData *t, IrLoc loc)
{
  IrExpr *e = ir_expr_new(ctx, IR_EX_CONST, loc);
  e->u.constant = *t;
  IrPrimExpr **dims = ir_alloc(ctx, sizeof *dims * (size_t)(t->ndim + 1));
  for (int i = 0; i < t->ndim; i++)
    dims[i] = ir_prim_int(ctx, IR_I64, t->shape[i]);
  e->sinfo = ir_sinfo_tensor(ctx, dims, t->ndim, t->dtype, -1);
  return e;
}

IrExpr *
ir_prim_value(IrCtx *ctx, IrPrimExpr *v, IrLoc loc)
{
  IrExpr *e = ir_expr_new(ctx, IR_EX_PRIM, loc);
  e->u.prim = v;
  e->sinfo = ir_sinfo_prim(ctx, v->dtype, v);
  return e;
}

IrBinding *
ir_relation_check_new(IrCtx *ctx, IrSym name, IrPrimExpr *cond, bool dataflow, IrLoc loc)
{
  IrSInfo *want = ir_sinfo_prim(ctx, IR_BOOL, ir_prim_int(ctx, IR_BOOL, 1));
  IrBinding *b = ir_alloc(ctx, sizeof *b);
  b->var = ir_var_new(ctx, name, want, dataflow, loc);
  b->value = ir_prim_value(ctx, cond, loc);
  b->cast = want;
  b->loc = loc;
  return b;
}

const IrPrimExpr *
ir_binding_relation(const IrBinding *b)
{
  const IrSInfo *c = b->cast;
  int64_t one;
  if (!c || c->kind != IR_SI_PRIM || !c->u.prim.value || !b->value || b->value->kind != IR_EX_PRIM ||
      c->u.prim.value->dtype.code != IR_DT_BOOL || !ir_prim_is_int(c->u.prim.value, &one) || one != 1)
    return NULL;
  return b->value->u.prim;
}

IrExpr *
ir_str_imm(IrCtx *ctx, IrSym s, IrLoc loc)
{
  IrExpr *e = ir_expr_new(ctx, IR_EX_STR, loc);
  e->u.str = s;
  e->sinfo = ir_sinfo_object(ctx);
  return e;
}

IrExpr *
ir_dtype_imm(IrCtx *ctx, IrDType t, IrLoc loc)
{
  IrExpr *e = ir_expr_new(ctx, IR_EX_DTYPE, loc);
  e->u.dtype = t;
  e->sinfo = ir_sinfo_object(ctx);
  return e;
}

bool
ir_expr_is_leaf(const IrExpr *e)
{
  switch (e->kind) {
  case IR_EX_VAR:
  case IR_EX_CONST:
  case IR_EX_SHAPE:
  case IR_EX_PRIM:
  case IR_EX_STR:
  case IR_EX_DTYPE:
  case IR_EX_GLOBAL:
  case IR_EX_EXTERN:
    return true;
  case IR_EX_TUPLE:
    /* a tuple of leaves is still normal form, as in Relax */
    for (int i = 0; i < e->u.tuple.n; i++)
      if (!ir_expr_is_leaf(e->u.tuple.items[i]))
        return false;
    return true;
  default:
    return false;
  }
}

const IrGlobal *
ir_module_find(const IrModule *m, IrSym name)
{
  for (int i = 0; i < m->nglobals; i++)
    if (m->globals[i].name == name)
      return &m->globals[i];
  return NULL;
}

void
ir_module_index(const IrModule *m, IrMap *index)
{
  for (int i = m->nglobals - 1; i >= 0; i--) /* the first of a name wins */
    ir_map_put(index, m->globals[i].name, (void *)&m->globals[i]);
}

/* DLPack's device type of a target kind, -1 if unknown. */
static int
device_type(const char *kind)
{
  static const struct {
    const char *kind;
    int type;
  } types[] = {{"llvm", 1}, {"c", 1}, {"cuda", 2}, {"nvptx", 2}, {"opencl", 4},
               {"vulkan", 7}, {"metal", 8}, {"rocm", 10}, {"webgpu", 15}, {"hexagon", 16}};
  for (size_t i = 0; kind && i < sizeof types / sizeof types[0]; i++)
    if (strcmp(types[i].kind, kind) == 0)
      return types[i].type;
  return -1;
}

int
ir_module_find_vdevice(const IrModule *m, int64_t dev_type, int64_t vdevice_id)
{
  for (int i = 0; m && i < m->nvdevices; i++)
    if (device_type(m->vdevices[i].kind) == dev_type && m->vdevices[i].vdevice_id == vdevice_id)
      return i;
  return -1;
}

void
ir_vdevice_name(const IrModule *m, int i, IrBuf *out)
{
  if (!m || i < 0 || i >= m->nvdevices || !m->vdevices[i].kind) {
    ir_buf_printf(out, "vdevice:%d", i);
    return;
  }
  int nth = 0;
  for (int j = 0; j < i; j++)
    if (m->vdevices[j].kind && strcmp(m->vdevices[j].kind, m->vdevices[i].kind) == 0)
      nth++;
  ir_buf_printf(out, "%s:%d", m->vdevices[i].kind, nth);
}
