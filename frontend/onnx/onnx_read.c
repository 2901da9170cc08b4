/*
 * onnx_read.c - an ONNX model file to a Relax module.
 *
 * The file is decoded by protobuf-c (onnx.proto compiled by protoc-c at
 * build time), then walked once in graph order: graph inputs become main's
 * parameters (a dim_param a symbolic dim, the same name the same var),
 * initializers known values (or, with --params, trailing parameters), and
 * each node goes through its converter (onnx_ops.c, onnx_nn.c), which
 * binds Relax calls in one dataflow block.  The graph outputs are main's
 * result.  Everything decoded is copied into the context's arena, so the
 * protobuf message is freed before returning; but protobuf-c puts each
 * large block it decodes, a tensor's raw_data, in the arena in the first
 * place (model_alloc), and the constant holds that block: the weights are
 * not copied once more.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx_int.h"

#define FOLD_BUDGET_MIN ((int64_t)256 << 20) /* bytes of folded constants any model may make */

bool
fe_is_onnx_path(const char *path)
{
  size_t n = strlen(path);
  return n >= 5 && strcmp(path + n - 5, ".onnx") == 0;
}

bool
fe_ox_dtype_of(int32_t onnx_type, IrDType *out)
{
  static const struct {
    int32_t onnx;
    IrDType t;
  } map[] = {
      {1, {IR_DT_FLOAT, 32, 1}}, {2, {IR_DT_UINT, 8, 1}},   {3, {IR_DT_INT, 8, 1}},
      {4, {IR_DT_UINT, 16, 1}},  {5, {IR_DT_INT, 16, 1}},   {6, {IR_DT_INT, 32, 1}},
      {7, {IR_DT_INT, 64, 1}},   {9, {IR_DT_BOOL, 1, 1}},   {10, {IR_DT_FLOAT, 16, 1}},
      {11, {IR_DT_FLOAT, 64, 1}}, {12, {IR_DT_UINT, 32, 1}}, {13, {IR_DT_UINT, 64, 1}},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (map[i].onnx == onnx_type) {
      *out = map[i].t;
      return true;
    }
  return false;
}

/* The number of values in the typed repeated field of t that holds
 * elements of dt (the field typed_data copies from). */
static size_t
typed_count(const Onnx__TensorProto *t, IrDType dt, int64_t numel)
{
  if (dt.code == IR_DT_FLOAT && dt.bits == 32)
    return t->n_float_data;
  if (dt.code == IR_DT_FLOAT && dt.bits == 64)
    return t->n_double_data;
  if (dt.code == IR_DT_INT && dt.bits == 64)
    return t->n_int64_data;
  if (dt.code == IR_DT_UINT && dt.bits >= 32 &&
      (dt.bits == 64 || (size_t)numel == t->n_uint64_data))
    return t->n_uint64_data;
  return t->n_int32_data; /* float16 as bits, the narrower ints, bool */
}

/* Copies the typed repeated field of t into d->data (nbytes set, and the
 * field's count checked by typed_count). */
static void
typed_data(const Onnx__TensorProto *t, IrTensorData *d, int64_t numel)
{
  IrDType dt = d->dtype;
  bool from_u64 = dt.code == IR_DT_UINT && dt.bits >= 32 && (size_t)numel == t->n_uint64_data;
  for (int64_t i = 0; i < numel; i++) {
    if (dt.code == IR_DT_FLOAT && dt.bits == 32)
      op_set_f(d, i, t->float_data[i]);
    else if (dt.code == IR_DT_FLOAT && dt.bits == 64)
      op_set_f(d, i, t->double_data[i]);
    else if (dt.code == IR_DT_FLOAT && dt.bits == 16)
      ((uint16_t *)d->data)[i] = (uint16_t)t->int32_data[i];
    else if (dt.code == IR_DT_INT && dt.bits == 64)
      op_set_i(d, i, t->int64_data[i]);
    else if (from_u64)
      op_set_i(d, i, (int64_t)t->uint64_data[i]);
    else
      op_set_i(d, i, t->int32_data[i]);
  }
}

/* Reads t's dims into out->shape and sets *numel; false after reporting
 * a negative dim or dims whose element count (zero dims aside) overflows
 * int64 once multiplied by the element size. */
static bool
tensor_shape(OxImp *im, const Onnx__TensorProto *t, const char *name, IrTensorData *out,
             int64_t *numel)
{
  int64_t nonzero = 1, count = 1;
  out->ndim = (int)t->n_dims;
  out->shape = ir_alloc(im->ctx, sizeof(int64_t) * (t->n_dims ? t->n_dims : 1));
  for (size_t i = 0; i < t->n_dims; i++) {
    int64_t d = t->dims[i];
    if (d < 0) {
      ir_error(im->ctx, im->loc, "tensor '%s': dimension %zu is %lld", name, i, (long long)d);
      return false;
    }
    if (d > 0 && nonzero > INT64_MAX / 16 / d) {
      ir_error(im->ctx, im->loc, "tensor '%s': bad dimension %lld (the element count overflows)",
               name, (long long)d);
      return false;
    }
    nonzero *= d ? d : 1;
    count *= d;
    out->shape[i] = d;
  }
  *numel = count;
  return true;
}

/* The data of t when it can be the constant's as it is: raw_data that
 * protobuf-c decoded into the arena (model_alloc), which lives as long as
 * ctx, is 16-byte aligned and is read by nothing else (the message is
 * freed after the import).  NULL: copy it. */
static void *
raw_data_in_arena(const OxImp *im, const Onnx__TensorProto *t)
{
  return t->has_raw_data && t->raw_data.data && ir_map_has(&im->arena_blocks, t->raw_data.data)
             ? t->raw_data.data
             : NULL;
}

bool
fe_ox_tensor_read(OxImp *im, const Onnx__TensorProto *t, IrTensorData *out)
{
  const char *name = t->name ? t->name : "";
  int64_t numel;
  memset(out, 0, sizeof *out);
  if (!fe_ox_dtype_of(t->data_type, &out->dtype)) {
    ir_error(im->ctx, im->loc, "tensor '%s': data type %d is not supported", name,
             (int)t->data_type);
    return false;
  }
  if (!tensor_shape(im, t, name, out, &numel))
    return false;
  out->nbytes = (size_t)numel * (size_t)ir_dtype_bytes(out->dtype);
  if (t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
    return fe_ox_extern_read(im, t, out);
  /* the data must be in the file: check its amount before allocating */
  if (t->has_raw_data && t->raw_data.len != out->nbytes) {
    ir_error(im->ctx, im->loc, "tensor '%s': raw_data holds %zu bytes, its shape needs %zu", name,
             t->raw_data.len, out->nbytes);
    return false;
  }
  size_t have = typed_count(t, out->dtype, numel);
  if (!t->has_raw_data && numel > 0 && have != (size_t)numel) {
    ir_error(im->ctx, im->loc, "tensor '%s': it holds %zu values, its shape needs %lld", name, have,
             (long long)numel);
    return false;
  }
  out->data = out->nbytes ? raw_data_in_arena(im, t) : NULL;
  if (out->data)
    return true;
  out->data = ir_alloc(im->ctx, out->nbytes ? out->nbytes : 1);
  if (t->has_raw_data && out->nbytes) /* an empty tensor may have no bytes at all */
    memcpy(out->data, t->raw_data.data, out->nbytes);
  else if (!t->has_raw_data)
    typed_data(t, out, numel);
  return true;
}

/* The struct info of a graph input or output from its declared type; a
 * dim_param is the symbolic var of that name (shared), an absent dim a
 * fresh var.  NULL after an error. */
static IrSInfo *
value_info_sinfo(OxImp *im, const Onnx__ValueInfoProto *v, IrVec *dim_vars)
{
  const Onnx__TypeProto *tp = v->type;
  if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type) {
    ir_error(im->ctx, im->loc, "graph input '%s': only tensor types are supported", v->name);
    return NULL;
  }
  IrDType dt;
  if (!fe_ox_dtype_of(tp->tensor_type->elem_type, &dt)) {
    ir_error(im->ctx, im->loc, "graph input '%s': data type %d is not supported", v->name,
             (int)tp->tensor_type->elem_type);
    return NULL;
  }
  const Onnx__TensorShapeProto *sh = tp->tensor_type->shape;
  if (!sh)
    return ir_sinfo_tensor(im->ctx, NULL, -1, dt, -1);
  IrPrimExpr **dims = ir_alloc(im->ctx, sizeof *dims * (sh->n_dim ? sh->n_dim : 1));
  int64_t numel = 1;
  for (size_t i = 0; i < sh->n_dim; i++) {
    const Onnx__TensorShapeProto__Dimension *d = sh->dim[i];
    if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
      if (d->dim_value < 0 || (d->dim_value > 0 && numel > INT64_MAX / 16 / d->dim_value)) {
        ir_error(im->ctx, im->loc, "graph input '%s': dimension %zu is %lld%s", v->name, i,
                 (long long)d->dim_value, d->dim_value < 0 ? "" : " (the element count overflows)");
        return NULL;
      }
      numel *= d->dim_value ? d->dim_value : 1;
      dims[i] = ir_prim_int(im->ctx, IR_I64, d->dim_value);
      continue;
    }
    IrSym name = d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM
                     ? fe_ox_var_name(im, d->dim_param)
                     : fe_ox_var_name(im, "dim");
    for (int k = 0; k < dim_vars->len && !dims[i]; k++)
      if (((IrPrimExpr *)dim_vars->items[k])->u.var == name)
        dims[i] = dim_vars->items[k];
    if (!dims[i]) {
      dims[i] = ir_prim_var(im->ctx, name, IR_I64);
      ir_vec_push(dim_vars, dims[i]);
    }
  }
  return ir_sinfo_tensor(im->ctx, dims, (int)sh->n_dim, dt, -1);
}

/* Whether name is an initializer of g. */
static const Onnx__TensorProto *
find_initializer(const Onnx__GraphProto *g, const char *name)
{
  for (size_t i = 0; i < g->n_initializer; i++)
    if (g->initializer[i]->name && strcmp(g->initializer[i]->name, name) == 0)
      return g->initializer[i];
  return NULL;
}

/* A parameter of main named after an ONNX value. */
static IrExpr *
add_param(OxImp *im, IrVec *params, const char *onnx_name, IrSInfo *s)
{
  IrExpr *var = ir_var_new(im->ctx, fe_ox_var_name(im, onnx_name), s, false, im->loc);
  OxVal *v = fe_ox_known(im, ir_sym(im->ctx, onnx_name), NULL);
  v->expr = var;
  v->sinfo = s;
  ir_vec_push(params, var);
  return var;
}

/* The graph inputs that are not initializers (those with --params too). */
static bool
read_inputs(OxImp *im, const Onnx__GraphProto *g, IrVec *params, IrVec *dim_vars)
{
  bool ok = true;
  for (size_t i = 0; i < g->n_input; i++) {
    const Onnx__ValueInfoProto *v = g->input[i];
    if (!v->name || find_initializer(g, v->name))
      continue;
    IrSInfo *s = value_info_sinfo(im, v, dim_vars);
    if (s)
      add_param(im, params, v->name, s);
    ok = ok && s;
  }
  return ok;
}

/* The initializers: known values, or parameters with their data in
 * weights. */
static bool
read_initializers(OxImp *im, const Onnx__GraphProto *g, IrVec *params, IrVec *weights)
{
  bool ok = true;
  for (size_t i = 0; i < g->n_initializer; i++) {
    const Onnx__TensorProto *t = g->initializer[i];
    IrTensorData *d = ir_alloc(im->ctx, sizeof *d);
    if (!t->name || !fe_ox_tensor_read(im, t, d)) {
      ok = false;
      continue;
    }
    if (!im->opt->params) {
      fe_ox_known(im, ir_sym(im->ctx, t->name), d);
      continue;
    }
    IrPrimExpr **dims = ir_alloc(im->ctx, sizeof *dims * (size_t)(d->ndim ? d->ndim : 1));
    for (int k = 0; k < d->ndim; k++)
      dims[k] = ir_prim_int(im->ctx, IR_I64, d->shape[k]);
    IrExpr *var = add_param(im, params, t->name, ir_sinfo_tensor(im->ctx, dims, d->ndim, d->dtype, -1));
    FeNpzEntry *e = ir_alloc(im->ctx, sizeof *e);
    e->name = var->u.var.name;
    e->t = *d;
    ir_vec_push(weights, e);
  }
  return ok;
}

/* Converts one node: looks its converter up, checks its attributes, reads
 * its inputs and records its outputs.  A node whose input is missing
 * because an earlier node failed is skipped silently. */
static void
convert_node(OxImp *im, const Onnx__NodeProto *n, int index)
{
  im->node = n;
  im->node_name = n->name && n->name[0] ? ir_sym(im->ctx, n->name) : ir_printf(im->ctx, "#%d", index);
  const OxOp *op = fe_ox_find_op(n->op_type ? n->op_type : "");
  if (n->domain && n->domain[0] && strcmp(n->domain, "ai.onnx") != 0) {
    fe_ox_unsupported(im, "operator domain '%s' is not supported", n->domain);
    return;
  }
  if (!op) {
    fe_ox_unsupported(im, "operator not supported");
    return;
  }
  for (size_t i = 0; i < n->n_attribute; i++) {
    const char *a = n->attribute[i]->name ? n->attribute[i]->name : "";
    const char *p = strstr(op->attrs, a);
    size_t len = strlen(a);
    while (p && !((p == op->attrs || p[-1] == ',') && (p[len] == ',' || !p[len])))
      p = strstr(p + 1, a);
    if (!p || !a[0]) {
      fe_ox_unsupported(im, "attribute '%s' is not supported", a);
      return;
    }
  }
  int nin = (int)n->n_input;
  OxVal **in = ir_alloc(im->ctx, sizeof *in * (size_t)(nin ? nin : 1));
  for (int i = 0; i < nin; i++) {
    if (!n->input[i][0])
      continue; /* an omitted optional input */
    if (!(in[i] = fe_ox_lookup(im, ir_sym(im->ctx, n->input[i]))) || !in[i]->sinfo)
      return;
  }
  im->outs = ir_alloc(im->ctx, sizeof *im->outs * (n->n_output ? n->n_output : 1));
  if (!op->convert(im, in, nin))
    return;
  for (size_t k = 0; k < n->n_output; k++) {
    if (!n->output[k][0] || !im->outs[k])
      continue;
    OxVal *v = fe_ox_known(im, ir_sym(im->ctx, n->output[k]), NULL);
    *v = *im->outs[k];
    v->name = ir_sym(im->ctx, n->output[k]);
  }
}

/* main's result: the graph outputs (a tuple when there are several),
 * bound to a non-dataflow var.  NULL after an error. */
static IrExpr *
graph_result(OxImp *im, const Onnx__GraphProto *g)
{
  IrExpr **items = ir_alloc(im->ctx, sizeof *items * (g->n_output ? g->n_output : 1));
  IrSInfo **fields = ir_alloc(im->ctx, sizeof *fields * (g->n_output ? g->n_output : 1));
  for (size_t i = 0; i < g->n_output; i++) {
    OxVal *v = g->output[i]->name ? fe_ox_lookup(im, ir_sym(im->ctx, g->output[i]->name)) : NULL;
    if (!v || !v->sinfo) {
      if (ir_error_count(im->ctx) == 0)
        ir_error(im->ctx, im->loc, "graph output '%s' is not computed by any node",
                 g->output[i]->name ? g->output[i]->name : "");
      return NULL;
    }
    items[i] = fe_ox_use(im, v);
    fields[i] = v->sinfo;
  }
  IrExpr *value = items[0];
  IrSInfo *s = fields[0];
  if (g->n_output == 1 && value->kind == IR_EX_VAR && value->u.var.dataflow) {
    value->u.var.dataflow = false; /* ours, not yet shared: the output itself */
    return value;
  }
  if (g->n_output != 1) {
    value = ir_expr_new(im->ctx, IR_EX_TUPLE, im->loc);
    value->u.tuple.items = items;
    value->u.tuple.n = (int)g->n_output;
    s = value->sinfo = ir_sinfo_tuple(im->ctx, fields, (int)g->n_output);
  }
  IrExpr *gv = ir_var_new(im->ctx, fe_ox_var_name(im, "gv"), s, false, im->loc);
  fe_ox_bind(im, gv, value);
  return gv;
}

/* main's attributes: num_input with --params, the dims' upper bound. */
static IrAttr *
function_attrs(OxImp *im, int ninputs, int nparams, IrVec *dim_vars)
{
  IrSym keys[2];
  IrAttr *values[2];
  int n = 0;
  if (nparams > ninputs) {
    keys[n] = ir_sym(im->ctx, "num_input");
    values[n++] = ir_attr_int(im->ctx, ninputs);
  }
  if (im->opt->dim_bound > 0 && dim_vars->len > 0) {
    IrSym *dk = ir_alloc(im->ctx, sizeof *dk * (size_t)dim_vars->len);
    IrAttr **dv = ir_alloc(im->ctx, sizeof *dv * (size_t)dim_vars->len);
    for (int i = 0; i < dim_vars->len; i++) {
      dk[i] = ((IrPrimExpr *)dim_vars->items[i])->u.var;
      dv[i] = ir_attr_int(im->ctx, im->opt->dim_bound);
    }
    keys[n] = ir_sym(im->ctx, "tir_var_upper_bound");
    values[n++] = ir_attr_dict(im->ctx, dk, dv, dim_vars->len);
  }
  return n ? ir_attr_dict(im->ctx, keys, values, n) : NULL;
}

/* The module of one function main from the converted graph. */
static IrModule *
build_module(OxImp *im, IrVec *params, int ninputs, IrVec *dim_vars, IrExpr *result)
{
  IrCtx *ctx = im->ctx;
  IrBindingBlock *block = ir_alloc(ctx, sizeof *block);
  block->bindings = ir_alloc(ctx, sizeof *block->bindings * (size_t)im->nbindings);
  memcpy(block->bindings, im->bindings, sizeof *block->bindings * (size_t)im->nbindings);
  block->n = im->nbindings;
  block->dataflow = true;
  block->loc = im->loc;
  IrFunction *f = ir_alloc(ctx, sizeof *f);
  f->nparams = params->len;
  f->params = (IrExpr **)ir_vec_freeze(ctx, params);
  f->ret = result->sinfo;
  f->body = ir_expr_new(ctx, IR_EX_SEQ, im->loc);
  f->body->u.seq.blocks = block;
  f->body->u.seq.nblocks = 1;
  f->body->u.seq.result = result;
  f->attrs = function_attrs(im, ninputs, f->nparams, dim_vars);
  f->pure = true;
  f->loc = im->loc;
  IrModule *m = ir_alloc(ctx, sizeof *m);
  m->name = ir_sym(ctx, "Module");
  m->globals = ir_alloc(ctx, sizeof *m->globals);
  m->globals[0] = (IrGlobal){ir_sym(ctx, "main"), IR_GLOBAL_RELAX, {.relax = f}};
  m->nglobals = 1;
  return m;
}

/* The default domain's opset of model (1 when none is declared). */
static int64_t
default_opset(const Onnx__ModelProto *model)
{
  int64_t v = 1;
  for (size_t i = 0; i < model->n_opset_import; i++) {
    const Onnx__OperatorSetIdProto *o = model->opset_import[i];
    if ((!o->domain || !o->domain[0] || strcmp(o->domain, "ai.onnx") == 0) && o->has_version)
      v = o->version;
  }
  return v;
}

/* Converts the decoded graph; NULL after errors. */
static IrModule *
convert_graph(OxImp *im, const Onnx__GraphProto *g, FeNpzEntry **weights, int *nweights)
{
  IrVec params = {0}, dims = {0}, wts = {0};
  bool ok = read_inputs(im, g, &params, &dims);
  int ninputs = params.len;
  for (int i = 0; i < dims.len; i++)
    ir_arith_bound(im->arith, dims.items[i], 0,
                   im->opt->dim_bound > 0 ? im->opt->dim_bound : INT64_MAX);
  ok = read_initializers(im, g, &params, &wts) && ok;
  for (size_t i = 0; ok && i < g->n_node; i++)
    convert_node(im, g->node[i], (int)i);
  IrExpr *result = ok && ir_error_count(im->ctx) == 0 ? graph_result(im, g) : NULL;
  IrModule *m = NULL;
  if (result && ir_error_count(im->ctx) == 0) {
    m = build_module(im, &params, ninputs, &dims, result);
    if (weights) {
      *nweights = wts.len;
      *weights = ir_alloc(im->ctx, sizeof **weights * (size_t)(wts.len ? wts.len : 1));
      for (int i = 0; i < wts.len; i++)
        (*weights)[i] = *(FeNpzEntry *)wts.items[i];
    }
  }
  ir_vec_free(&params);
  ir_vec_free(&dims);
  ir_vec_free(&wts);
  return m;
}

enum { ARENA_BLOCK = 64 * 1024 }; /* bytes from which model_alloc uses the arena */

/* protobuf-c's allocator for the model (data: the OxImp).  A block of
 * ARENA_BLOCK bytes or more comes from ctx's arena and is recorded, so
 * that fe_ox_tensor_read can keep a tensor's raw_data instead of copying
 * it; model_free leaves such a block to the ctx, the heap's others it
 * frees.  The arena's fresh pages need no clearing, and its large blocks
 * are huge pages (base.c).  What else reaches that size (protobuf-c's
 * scratch arrays for a message of thousands of fields) stays with the
 * ctx too: far less than the weights. */
static void *
model_alloc(void *data, size_t size)
{
  OxImp *im = data;
  if (size < ARENA_BLOCK)
    return malloc(size);
  void *p = ir_alloc(im->ctx, size);
  ir_map_put(&im->arena_blocks, p, p);
  return p;
}

static void
model_free(void *data, void *p)
{
  OxImp *im = data;
  if (p && !ir_map_has(&im->arena_blocks, p))
    free(p);
}

IrModule *
fe_onnx_read(IrCtx *ctx, const char *path, const FeOnnxOptions *opt, FeNpzEntry **weights,
             int *nweights)
{
  static const FeOnnxOptions defaults = {false, 0};
  const IrSource *src = ir_source_read(ctx, path);
  if (!src)
    return NULL;
  OxImp im = {.ctx = ctx, .loc = {src, 0, 0}, .path = path, .opt = opt ? opt : &defaults};
  if (!fe_ox_wire_check(&im, (const uint8_t *)src->text, src->len))
    return NULL;
  ProtobufCAllocator alloc = {model_alloc, model_free, &im};
  Onnx__ModelProto *model = onnx__model_proto__unpack(&alloc, src->len, (const uint8_t *)src->text);
  if (!model || !model->graph) {
    ir_error(ctx, im.loc, "not a valid ONNX model (the protobuf does not decode)");
    if (model)
      onnx__model_proto__free_unpacked(model, &alloc);
    ir_map_free(&im.arena_blocks);
    return NULL;
  }
  /* folding turns known values into bigger ones (Expand, Tile,
   * ConstantOfShape): a few times the file, never what a file of a few
   * bytes asks for */
  im.fold_budget = FOLD_BUDGET_MIN + 8 * (int64_t)src->len;
  im.opset = default_opset(model);
  im.arith = ir_arith_new(ctx);
  IrModule *m =
      fe_ox_model_check(&im, model) ? convert_graph(&im, model->graph, weights, nweights) : NULL;
  onnx__model_proto__free_unpacked(model, &alloc);
  ir_map_free(&im.arena_blocks);
  free(im.bindings);
  ir_map_free(&im.by_name);
  ir_map_free(&im.used_names);
  ir_map_free(&im.next_suffix);
  ir_map_free(&im.known_vars);
  return m;
}
