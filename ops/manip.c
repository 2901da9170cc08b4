/*
 * manip.c - the table of the tensor manipulation ops: permute_dims,
 * reshape, flatten, batch_flatten, expand_dims, squeeze, broadcast_to
 * (hooks in manip_shape.c); concat, split, stack, strided_slice, take
 * (manip_join.c); repeat, tile, flip, one_hot, pad, pixel_shuffle
 * (manip_copy.c); the index ops gather_elements, gather_nd, index_tensor,
 * index_put, scatter_elements, scatter_nd, slice_scatter (manip_index.c);
 * dynamic_strided_slice, memory.view, reverse_sequence, meshgrid and the
 * collapse_sums (manip_extra.c); layout_transform (manip_layout.c).
 *
 * Inference works on symbolic dims: results are built with ir_prim_bin and
 * put in canonical form by ir_arith_simplify, and a check fails only when
 * ir/arith proves it false (an unknown outcome is allowed, as in TVM; the
 * kernel then checks the concrete values).  Unknown input struct info gives
 * the most precise result still possible: a tensor of known ndim without a
 * shape, or of unknown ndim.
 *
 * This file holds the ops' entries, the attribute readers that an op's
 * inference, kernel and lowering share, and the helpers the family files
 * share (manip_int.h); each family file holds its ops' three hooks:
 * manip_shape.c, manip_join.c, manip_copy.c, manip_index.c,
 * manip_layout.c, manip_extra.c.
 */
#include <string.h>

#include "manip_int.h"
#include "tir_build.h"

/* ------------------------------------------------------------------ */
/* Attributes and axes (shared by inference and kernels)               */
/* ------------------------------------------------------------------ */

static bool
attr_int_item(const IrAttr *a, int64_t *out)
{
  if (a->kind == IR_AT_INT) {
    *out = a->u.i;
    return true;
  }
  return a->kind == IR_AT_PRIM && ir_prim_is_int(a->u.prim, out);
}

/* Reads an attribute holding an int or a list of ints into *out (arena),
 * *n entries.  None (or absent) gives *n = -1 when allow_none; otherwise it
 * is an error, as is any other value.  False after an error. */
bool
op_manip_attr_ints(const OpSite *s, const char *name, bool allow_none, int64_t **out, int *n)
{
  const IrAttr *a = op_attr(s->call, name);
  *out = NULL;
  *n = -1;
  if (!a || a->kind == IR_AT_NONE) {
    if (!allow_none)
      op_report(s, "attribute '%s' is required", name);
    return allow_none;
  }
  int count = a->kind == IR_AT_LIST ? a->u.list.n : 1;
  *out = ir_alloc(s->ctx, sizeof(int64_t) * (size_t)(count ? count : 1));
  for (int i = 0; i < count; i++) {
    const IrAttr *item = a->kind == IR_AT_LIST ? a->u.list.items[i] : a;
    if (!attr_int_item(item, &(*out)[i]))
      return op_fail(s, "attribute '%s' must be an integer or a list of integers", name);
  }
  *n = count;
  return true;
}

/* One axis in [0, ndim) from a possibly negative one (op_axis's rule and
 * message, for kernels too). */
bool
op_manip_norm_axis(const OpSite *s, int64_t axis, int ndim, int *out)
{
  if (axis < -(int64_t)ndim || axis >= ndim)
    return op_fail(s, "axis %lld is out of range for a tensor of rank %d", (long long)axis, ndim);
  *out = (int)(axis < 0 ? axis + ndim : axis);
  return true;
}

/* Normalizes n axes into out (arena); a repeated axis is an error. */
bool
op_manip_norm_axes(const OpSite *s, const int64_t *axes, int n, int ndim, int **out)
{
  *out = ir_alloc(s->ctx, sizeof(int) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    if (!op_manip_norm_axis(s, axes[i], ndim, &(*out)[i]))
      return false;
    for (int j = 0; j < i; j++)
      if ((*out)[j] == (*out)[i])
        return op_fail(s, "axis %d is repeated", (*out)[i]);
  }
  return true;
}

/* The "axis" attribute: one integer, or None (*none set) where none is
 * not NULL; with none NULL, None is an error.  With ndim < 0 the axis is
 * left unchecked (*axis -1). */
bool
op_manip_axis_attr(const OpSite *s, int ndim, int *axis, bool *none)
{
  int64_t *ax;
  int n;
  *axis = -1;
  if (none)
    *none = false;
  if (!op_manip_attr_ints(s, "axis", none != NULL, &ax, &n))
    return false;
  if (n < 0) {
    *none = true;
    return true;
  }
  if (n != 1)
    return op_fail(s, "axis must be one integer");
  return ndim < 0 || op_manip_norm_axis(s, ax[0], ndim, axis);
}

/* ------------------------------------------------------------------ */
/* Inference helpers                                                   */
/* ------------------------------------------------------------------ */

IrPrimExpr *
op_manip_simp(OpInfer *in, IrPrimExpr *e)
{
  return in->arith ? ir_arith_simplify(in->arith, e) : e;
}

IrPrimExpr *
op_manip_bin(OpInfer *in, IrPrimKind kind, IrPrimExpr *a, IrPrimExpr *b)
{
  return ir_prim_bin(in->ctx, kind, a, b);
}

/* The simplified product of n dims, leaving out index skip (-1: none). */
IrPrimExpr *
op_manip_product(OpInfer *in, IrPrimExpr **d, int n, int skip)
{
  IrPrimExpr *p = op_manip_lit(in->ctx, 1);
  for (int i = 0; i < n; i++)
    if (i != skip)
      p = op_manip_bin(in, IR_PE_MUL, p, d[i]);
  return op_manip_simp(in, p);
}

/* A tensor of the same dtype and vdevice as x. */
IrSInfo *
op_manip_like(OpInfer *in, const IrSInfo *x, IrPrimExpr **shape, int ndim)
{
  return ir_sinfo_tensor(in->ctx, shape, ndim, x->u.tensor.dtype, x->u.tensor.vdevice);
}

/* The struct info of a tensor argument: R.Object counts as a tensor of
 * unknown ndim and dtype; a shape that contradicts ndim counts as unknown.
 * NULL after an error for any other kind. */
IrSInfo *
op_manip_tensor_arg(const OpSite *s, IrSInfo *si, const char *what)
{
  if (si && si->kind == IR_SI_TENSOR) {
    if (si->u.tensor.ndim >= 0 && ir_sinfo_shape_len(si) == si->u.tensor.ndim)
      return si;
    return ir_sinfo_tensor(s->ctx, NULL, si->u.tensor.ndim, si->u.tensor.dtype,
                           si->u.tensor.vdevice);
  }
  if (!si || si->kind == IR_SI_OBJECT)
    return ir_sinfo_tensor(s->ctx, NULL, -1, IR_VOID, -1);
  return op_fail_null(s, "%s must be a tensor, but it is %s", what, op_sinfo_text(s->ctx, si));
}

/* The rank of the call's first argument, which a lowering reads the
 * attributes against; -1 when it is not a tensor of known rank (the call
 * then stays). */
int
op_manip_arg_rank(const OpSite *s)
{
  const IrSInfo *x = s->call->u.call.args[0]->sinfo;
  return x && x->kind == IR_SI_TENSOR ? x->u.tensor.ndim : -1;
}

/* ------------------------------------------------------------------ */
/* Kernel helpers                                                      */
/* ------------------------------------------------------------------ */

/* The tensor of a value; NULL after an error when it is not one. */
IrTensorData *
op_manip_tensor_val(const OpSite *s, Value *v, const char *what)
{
  if (!v || v->kind != VAL_TENSOR)
    return op_fail_null(s, "%s must be a tensor", what);
  if (v->u.tensor.t.ndim > MAX_DIMS)
    return op_fail_null(s, "%s has %d dimensions, more than the %d supported", what,
                        v->u.tensor.t.ndim, MAX_DIMS);
  return &v->u.tensor.t;
}

IrTensorData *
op_manip_new_tensor(const OpSite *s, IrDType t, int ndim, const int64_t *shape)
{
  Value *v = op_tensor_new(s->ctx, t, ndim, shape, s->loc);
  return v ? &v->u.tensor.t : NULL;
}

Value *
op_manip_as_value(const OpSite *s, IrTensorData *t)
{
  return t ? op_tensor_from_data(s->ctx, t) : NULL;
}

void
op_manip_copy_elem(IrTensorData *dst, int64_t di, const IrTensorData *src, int64_t si)
{
  size_t bytes = (size_t)ir_dtype_bytes(src->dtype);
  memcpy((char *)dst->data + (size_t)di * bytes, (const char *)src->data + (size_t)si * bytes,
         bytes);
}

Value *
op_manip_gather_new(const OpSite *s, const IrTensorData *x, int ndim, const int64_t *shape,
                    IndexMap map, const void *env)
{
  IrTensorData *out = op_manip_new_tensor(s, x->dtype, ndim, shape);
  if (!out)
    return NULL;
  int64_t oi[MAX_DIMS] = {0}, ii[MAX_DIMS];
  int64_t count = op_numel(out);
  for (int64_t flat = 0; flat < count; flat++) {
    map(env, x->ndim, oi, ii);
    int64_t si = 0;
    for (int d = 0; d < x->ndim; d++)
      si = si * x->shape[d] + ii[d];
    op_manip_copy_elem(out, flat, x, si);
    for (int d = out->ndim - 1; d >= 0 && ++oi[d] == out->shape[d]; d--)
      oi[d] = 0;
  }
  return op_tensor_from_data(s->ctx, out);
}

/* ------------------------------------------------------------------ */
/* Lowering helpers                                                    */
/* ------------------------------------------------------------------ */

bool
op_manip_is_lit(const IrPrimExpr *e, int64_t v)
{
  int64_t x;
  return ir_prim_is_int(e, &x) && x == v;
}

static int64_t
floor_div(int64_t a, int64_t b)
{
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Folds a op b when both are literals (no overflow or division by zero
 * possible for the values that reach here: dims and indices of tensors
 * that exist); false otherwise. */
static bool
fold(IrPrimKind k, int64_t a, int64_t b, int64_t *r)
{
  switch (k) {
  case IR_PE_ADD:
    *r = a + b;
    return true;
  case IR_PE_SUB:
    *r = a - b;
    return true;
  case IR_PE_MUL:
    *r = a * b;
    return true;
  case IR_PE_FLOORDIV:
    if (b == 0 || (a == INT64_MIN && b == -1))
      return false;
    *r = floor_div(a, b);
    return true;
  case IR_PE_FLOORMOD:
    if (b == 0 || b == -1)
      return false;
    *r = a - floor_div(a, b) * b;
    return true;
  case IR_PE_MIN:
    *r = a < b ? a : b;
    return true;
  case IR_PE_MAX:
    *r = a > b ? a : b;
    return true;
  default:
    return false;
  }
}

/* a op b, with literals folded and the identities x+0, x-0, x*1, x//1,
 * x%1 and x*0 applied. */
IrPrimExpr *
op_manip_arith(IrCtx *ctx, IrPrimKind k, IrPrimExpr *a, IrPrimExpr *b)
{
  int64_t x, y, r;
  if (ir_prim_is_int(a, &x) && ir_prim_is_int(b, &y) && fold(k, x, y, &r))
    return op_manip_lit(ctx, r);
  if ((k == IR_PE_ADD || k == IR_PE_SUB) && op_manip_is_lit(b, 0))
    return a;
  if (k == IR_PE_ADD && op_manip_is_lit(a, 0))
    return b;
  if ((k == IR_PE_MUL || k == IR_PE_FLOORDIV) && op_manip_is_lit(b, 1))
    return a;
  if (k == IR_PE_MUL && op_manip_is_lit(a, 1))
    return b;
  if ((k == IR_PE_MUL && (op_manip_is_lit(a, 0) || op_manip_is_lit(b, 0))) ||
      (k == IR_PE_FLOORMOD && op_manip_is_lit(b, 1)))
    return op_manip_lit(ctx, 0);
  return ir_prim_bin(ctx, k, a, b);
}

/* The index in a shape of row-major flat position flat (which must be
 * below the shape's element count: dim 0 takes no modulo). */
IrPrimExpr **
op_manip_unflatten_index(IrCtx *ctx, IrPrimExpr *flat, IrPrimExpr **dims, int n)
{
  IrPrimExpr **idx = op_manip_dims(ctx, n);
  for (int k = n - 1; k >= 0; k--) {
    idx[k] = k == 0 ? flat : op_manip_arith(ctx, IR_PE_FLOORMOD, flat, dims[k]);
    flat = op_manip_arith(ctx, IR_PE_FLOORDIV, flat, dims[k]);
  }
  return idx;
}

/* op_prim_open with inputs A (the call's first argument) and, when b is
 * not NULL, B (its second), and the output T_<name>. */
bool
op_manip_prim_open(OpLegalize *lz, OpPrim *p, const OpSite *s, IrSInfo *result, const char *name,
                   IrBuffer **a, IrBuffer **b, IrBuffer **out)
{
  const char *out_name = ir_printf(lz->ctx, "T_%s", name);
  if (!b)
    return op_prim_open(lz, p, name, s->call, result, (OpPrimParam[]){{"A", a}, {out_name, out}},
                        2);
  return op_prim_open(lz, p, name, s->call, result,
                      (OpPrimParam[]){{"A", a}, {"B", b}, {out_name, out}}, 3);
}

/* The prim_func "name" with input x = the call's first argument and one
 * output T_<name> of struct info result, copying x[map(o)] to out[o];
 * NULL (nothing made) when x's or the result's shape is not known. */
IrExpr *
op_manip_lower_gather(OpLegalize *lz, const OpSite *s, IrSInfo *result, const char *name,
                      IndexFn map, const void *env)
{
  OpPrim p;
  IrBuffer *x, *out;
  if (!op_manip_prim_open(lz, &p, s, result, name, &x, NULL, &out))
    return NULL;
  IrPrimExpr **o;
  IrStmt **body = op_prim_loops(&p, out->shape, out->ndim, &o);
  IrPrimExpr **xi = map(&p, x, out, o, env);
  if (!xi)
    return op_prim_give_up(&p);
  *body = op_prim_store(&p, out, o, op_prim_load(&p, x, xi));
  return op_prim_finish(&p, s->call, result);
}

/* The hooks are in the family files: manip_shape.c, manip_join.c,
 * manip_copy.c, manip_index.c, manip_layout.c, manip_extra.c. */
#define E OP_ARG
#define A OP_ATTR

static const OpDef defs[] = {
    OP(IR_OP_PERMUTE_DIMS, "relax.permute_dims", .syn.params = {E("x"), A("axes", "None")},
       .syn.nparams = 2,
       .impl = {op_manip_infer_permute_dims, op_manip_eval_permute_dims,
                op_manip_legalize_permute_dims}),
    OP(IR_OP_LAYOUT_TRANSFORM, "relax.layout_transform",
       .syn.params = {E("x"), A("index_map", NULL), A("pad_value", "None")}, .syn.nparams = 3,
       .impl = {op_manip_infer_layout_transform, op_manip_eval_layout_transform,
                op_manip_legalize_layout_transform}),
    OP(IR_OP_RESHAPE, "relax.reshape", .syn.params = {E("x"), {"shape", IR_PARAM_SHAPE, NULL}},
       .syn.nparams = 2,
       .impl = {op_manip_infer_reshape, op_manip_eval_reshape, op_manip_legalize_reshape}),
    OP(IR_OP_FLATTEN, "relax.flatten", .syn.params = {E("x")}, .syn.nparams = 1,
       .impl = {op_manip_infer_flatten, op_manip_eval_flatten, op_manip_legalize_reshape}),
    OP(IR_OP_BATCH_FLATTEN, "relax.nn.batch_flatten", .syn.params = {E("data")}, .syn.nparams = 1,
       .impl = {op_manip_infer_flatten, op_manip_eval_flatten, op_manip_legalize_reshape}),
    OP(IR_OP_EXPAND_DIMS, "relax.expand_dims", .syn.params = {E("x"), A("axis", NULL)},
       .syn.nparams = 2,
       .impl = {op_manip_infer_expand_dims, op_manip_eval_expand_dims,
                op_manip_legalize_expand_dims}),
    OP(IR_OP_SQUEEZE, "relax.squeeze", .syn.params = {E("x"), A("axis", "None")}, .syn.nparams = 2,
       .impl = {op_manip_infer_squeeze, op_manip_eval_squeeze, op_manip_legalize_squeeze}),
    OP(IR_OP_CONCAT, "relax.concat",
       .syn.params = {{"tensors", IR_PARAM_TUPLE, NULL}, A("axis", "0")}, .syn.nparams = 2,
       .impl = {op_manip_infer_concat, op_manip_eval_concat, op_manip_legalize_concat}),
    OP(IR_OP_SPLIT, "relax.split",
       .syn.params = {E("x"), A("indices_or_sections", NULL), A("axis", "0")}, .syn.nparams = 3,
       .impl = {op_manip_infer_split, op_manip_eval_split, op_manip_legalize_split}),
    OP(IR_OP_STRIDED_SLICE, "relax.strided_slice",
       .syn.params = {E("x"), A("axes", NULL), A("begin", NULL), A("end", NULL),
                      A("strides", "None"), A("assume_inbound", "False")},
       .syn.nparams = 6,
       .impl = {op_manip_infer_strided_slice, op_manip_eval_strided_slice,
                op_manip_legalize_strided_slice}),
    OP(IR_OP_TAKE, "relax.take",
       .syn.params = {E("x"), E("indices"), A("axis", "None"), A("mode", "\"fast\"")},
       .syn.nparams = 4, .impl = {op_manip_infer_take, op_manip_eval_take, op_manip_legalize_take},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_BROADCAST_TO, "relax.broadcast_to",
       .syn.params = {E("x"), {"shape", IR_PARAM_SHAPE, NULL}}, .syn.nparams = 2,
       .impl = {op_manip_infer_broadcast_to, op_manip_eval_broadcast_to,
                op_manip_legalize_broadcast_to}),
    OP(IR_OP_STACK, "relax.stack",
       .syn.params = {{"tensors", IR_PARAM_TUPLE, NULL}, A("axis", "0")}, .syn.nparams = 2,
       .impl = {op_manip_infer_stack, op_manip_eval_stack, op_manip_legalize_stack}),
    OP(IR_OP_REPEAT, "relax.repeat",
       .syn.params = {E("data"), A("repeats", NULL), A("axis", "None")}, .syn.nparams = 3,
       .impl = {op_manip_infer_repeat, op_manip_eval_repeat, op_manip_legalize_repeat}),
    OP(IR_OP_TILE, "relax.tile", .syn.params = {E("data"), A("repeats", NULL)}, .syn.nparams = 2,
       .impl = {op_manip_infer_tile, op_manip_eval_tile, op_manip_legalize_tile}),
    OP(IR_OP_FLIP, "relax.flip", .syn.params = {E("data"), A("axis", NULL)}, .syn.nparams = 2,
       .impl = {op_manip_infer_flip, op_manip_eval_flip, op_manip_legalize_flip}),
    OP(IR_OP_ONE_HOT, "relax.one_hot",
       .syn.params = {E("indices"),
                      {"on_value", IR_PARAM_PRIM, NULL},
                      {"off_value", IR_PARAM_PRIM, NULL},
                      A("depth", NULL),
                      A("axis", "-1")},
       .syn.nparams = 5,
       .impl = {op_manip_infer_one_hot, op_manip_eval_one_hot, op_manip_legalize_one_hot}),
    OP(IR_OP_PAD, "relax.nn.pad",
       .syn.params = {E("data"), A("pad_width", NULL), A("pad_mode", "\"constant\""),
                      A("pad_value", "0.0")},
       .syn.nparams = 4, .impl = {op_manip_infer_pad, op_manip_eval_pad, op_manip_legalize_pad}),
    OP(IR_OP_PIXEL_SHUFFLE, "relax.nn.pixel_shuffle",
       .syn.params = {E("data"), A("upscale_factor", NULL)}, .syn.nparams = 2,
       .impl = {op_manip_infer_pixel_shuffle, op_manip_eval_pixel_shuffle,
                op_manip_legalize_pixel_shuffle}),
    OP(IR_OP_DYNAMIC_STRIDED_SLICE, "relax.dynamic_strided_slice",
       .syn.params = {E("x"), E("begin"), E("end"), E("strides")}, .syn.nparams = 4,
       .impl = {op_manip_infer_dynamic_strided_slice, op_manip_eval_dynamic_strided_slice,
                op_manip_legalize_dynamic_strided_slice}),
    OP(IR_OP_MEMORY_VIEW, "relax.memory.view",
       .syn.params = {E("data"),
                      {"shape", IR_PARAM_EXPR, "R.tuple()"},
                      {"dtype", IR_PARAM_EXPR, "R.tuple()"},
                      {"relative_byte_offset", IR_PARAM_EXPR, "R.tuple()"}},
       .syn.nparams = 4, .impl = {op_manip_infer_view, op_manip_eval_view, op_manip_legalize_view}),
    OP(IR_OP_REVERSE_SEQUENCE, "relax.reverse_sequence",
       .syn.params = {E("data"), E("seq_lengths"), A("seq_axis", "1"), A("batch_axis", "0")},
       .syn.nparams = 4,
       .impl = {op_manip_infer_reverse_sequence, op_manip_eval_reverse_sequence,
                op_manip_legalize_reverse_sequence}),
    OP(IR_OP_MESHGRID, "relax.meshgrid",
       .syn.params = {{"tensors", IR_PARAM_TUPLE, NULL}, A("indexing", "\"ij\"")}, .syn.nparams = 2,
       .impl = {op_manip_infer_meshgrid, op_manip_eval_meshgrid, op_manip_legalize_meshgrid}),
    OP(IR_OP_COLLAPSE_SUM_LIKE, "relax.collapse_sum_like",
       .syn.params = {E("data"), E("collapse_target")}, .syn.nparams = 2,
       .impl = {op_manip_infer_collapse_sum_like, op_manip_eval_collapse_sum,
                op_manip_legalize_collapse_sum}),
    OP(IR_OP_COLLAPSE_SUM_TO, "relax.collapse_sum_to",
       .syn.params = {E("data"), {"shape", IR_PARAM_SHAPE, NULL}}, .syn.nparams = 2,
       .impl = {op_manip_infer_collapse_sum_to, op_manip_eval_collapse_sum,
                op_manip_legalize_collapse_sum}),
    OP(IR_OP_GATHER_ELEMENTS, "relax.gather_elements",
       .syn.params = {E("data"), E("indices"), A("axis", "0")}, .syn.nparams = 3,
       .impl = {op_manip_infer_gather_elements, op_manip_eval_gather_elements,
                op_manip_legalize_gather_elements},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_GATHER_ND, "relax.gather_nd",
       .syn.params = {E("data"), E("indices"), A("batch_dims", "0")}, .syn.nparams = 3,
       .impl = {op_manip_infer_gather_nd, op_manip_eval_gather_nd, op_manip_legalize_gather_nd},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_INDEX_TENSOR, "relax.index_tensor",
       .syn.params = {E("data"), {"indices", IR_PARAM_TUPLE, NULL}}, .syn.nparams = 2,
       .impl = {op_manip_infer_index_tensor, op_manip_eval_index_tensor,
                op_manip_legalize_index_tensor},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_INDEX_PUT, "relax.index_put",
       .syn.params =
           {E("data"), {"indices", IR_PARAM_TUPLE, NULL}, E("values"), A("accumulate", "False")},
       .syn.nparams = 4,
       .impl = {op_manip_infer_index_put, op_manip_eval_index_put, op_manip_legalize_index_put},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_SCATTER_ELEMENTS, "relax.scatter_elements",
       .syn.params = {E("data"), E("indices"), E("updates"), A("axis", "0"),
                      A("reduction", "\"update\"")},
       .syn.nparams = 5,
       .impl = {op_manip_infer_scatter_elements, op_manip_eval_scatter_elements,
                op_manip_legalize_scatter_elements},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_SCATTER_ND, "relax.scatter_nd",
       .syn.params = {E("data"), E("indices"), E("updates"), A("reduction", "\"update\"")},
       .syn.nparams = 4,
       .impl = {op_manip_infer_scatter_nd, op_manip_eval_scatter_nd, op_manip_legalize_scatter_nd},
       .flags = OP_CHECKS_DATA),
    OP(IR_OP_SLICE_SCATTER, "relax.slice_scatter",
       .syn.params = {E("input_tensor"),
                      E("src"),
                      {"start", IR_PARAM_PRIM, NULL},
                      {"end", IR_PARAM_PRIM, NULL},
                      {"step", IR_PARAM_PRIM, NULL},
                      A("axis", "0")},
       .syn.nparams = 6,
       .impl = {op_manip_infer_slice_scatter, op_manip_eval_slice_scatter,
                op_manip_legalize_slice_scatter}),
};

const OpTable op_manip_table = {defs, sizeof defs / sizeof defs[0]};
