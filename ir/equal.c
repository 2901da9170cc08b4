/*
 * equal.c - structural equality and hashing of modules, Relax functions,
 * expressions and struct info; the public entry points.
 *
 * Equal means equal up to a consistent renaming of bound variables (see
 * equal_int.h for the bijection and for how one traversal serves both
 * equality and hashing).  Names of variables are never compared; names of
 * global functions are, as text, because the two modules may come from two
 * contexts.  A module is a map from names to functions: the order of its
 * globals does not matter, and each global function is compared with a
 * fresh bijection, so the result does not depend on that order either.
 */
#include <stdlib.h>
#include <string.h>

#include "equal_int.h"

/* --- struct info ------------------------------------------------------- */

static const char *const sinfo_kind_names[] = {
    [IR_SI_OBJECT] = "R.Object", [IR_SI_PRIM] = "R.Prim",   [IR_SI_SHAPE] = "R.Shape",
    [IR_SI_TENSOR] = "R.Tensor", [IR_SI_TUPLE] = "R.Tuple", [IR_SI_FUNC] = "R.Callable",
};

/* Reports two struct infos as printed (when the printer prints), else by
 * kind. */
static bool
sinfo_differs(Walk *w, const IrSInfo *a, const IrSInfo *b)
{
  if (!w->why)
    return false;
  IrBuf da = {0}, db = {0};
  if (a)
    ir_sinfo_print(a, &da);
  if (b)
    ir_sinfo_print(b, &db);
  if (da.len && db.len)
    ir_mismatch(w, "%s vs %s", da.data, db.data);
  else
    ir_mismatch(w, "%s vs %s", a ? sinfo_kind_names[a->kind] : "none",
                b ? sinfo_kind_names[b->kind] : "none");
  ir_buf_free(&da);
  ir_buf_free(&db);
  return false;
}

/* Shape values of a tensor or shape: NULL when unknown. */
static bool
walk_dims(Walk *w, IrPrimExpr *const *a, IrPrimExpr *const *b, int ndim)
{
  return ir_same_presence(w, a, b, "shape") && (!a || ir_walk_prims(w, a, b, ndim, "dim %d"));
}

static bool
walk_sinfo_list(Walk *w, IrSInfo *const *a, IrSInfo *const *b, int n, const char *label)
{
  for (int i = 0; i < n; i++) {
    size_t saved = ir_path_push(w, label, i);
    if (!ir_walk_sinfo(w, a[i], b[i]))
      return false;
    ir_path_pop(w, saved);
  }
  return true;
}

/* Struct info; NULL (unknown) only equals NULL. */
bool
ir_walk_sinfo(Walk *w, const IrSInfo *a, const IrSInfo *b)
{
  if (!a || !b) {
    ir_walk_mix(w, 0x51u);
    return a == b || sinfo_differs(w, a, b);
  }
  if (w->mode == WALK_EQUAL && a->kind != b->kind)
    return sinfo_differs(w, a, b);
  ir_walk_mix(w, a->kind);
  switch (a->kind) {
  case IR_SI_OBJECT:
    return true;
  case IR_SI_PRIM:
    return ir_same_dtype(w, a->u.prim.dtype, b->u.prim.dtype, "dtype") &&
           ir_same_presence(w, a->u.prim.value, b->u.prim.value, "value") &&
           ir_walk_prim(w, a->u.prim.value, b->u.prim.value);
  case IR_SI_SHAPE:
    return ir_same_int(w, a->u.shape.ndim, b->u.shape.ndim, "ndim") &&
           ir_same_int(w, a->shape_len, b->shape_len, "written dims") &&
           walk_dims(w, a->u.shape.values, b->u.shape.values, ir_sinfo_shape_len(a));
  case IR_SI_TENSOR:
    return ir_same_int(w, a->u.tensor.ndim, b->u.tensor.ndim, "ndim") &&
           ir_same_dtype(w, a->u.tensor.dtype, b->u.tensor.dtype, "dtype") &&
           ir_same_int(w, a->shape_len, b->shape_len, "written dims") &&
           walk_dims(w, a->u.tensor.shape, b->u.tensor.shape, ir_sinfo_shape_len(a)) &&
           ir_same_int(w, a->u.tensor.vdevice, b->u.tensor.vdevice, "vdevice");
  case IR_SI_TUPLE:
    return ir_same_count(w, a->u.tuple.n, b->u.tuple.n, "fields") &&
           walk_sinfo_list(w, a->u.tuple.fields, b->u.tuple.fields, a->u.tuple.n, "field %d");
  case IR_SI_FUNC:
    return ir_same_bool(w, a->u.func.packed, b->u.func.packed, NULL, "R.PackedFunc",
                        "R.Callable") &&
           ir_same_int(w, a->u.func.nparams, b->u.func.nparams, "parameters") &&
           walk_sinfo_list(w, a->u.func.params, b->u.func.params, a->u.func.nparams, "param %d") &&
           ir_same_presence(w, a->u.func.ret, b->u.func.ret, "return") &&
           ir_walk_sinfo(w, a->u.func.ret, b->u.func.ret) &&
           ir_same_bool(w, a->u.func.pure, b->u.func.pure, "purity", "pure", "impure") &&
           ir_same_str(w, a->u.func.derive_func, b->u.func.derive_func, "derive_func");
  }
  UNREACHABLE();
  return false;
}

/* Struct info under the frame what. */
static bool
walk_sinfo_at(Walk *w, const IrSInfo *a, const IrSInfo *b, const char *what)
{
  size_t saved = ir_path_push(w, "%s", what);
  if (!ir_walk_sinfo(w, a, b))
    return false;
  ir_path_pop(w, saved);
  return true;
}

/* --- constants --------------------------------------------------------- */

/* An element of little-endian tensor data. */
static uint64_t
read_element(const unsigned char *p, int size)
{
  uint64_t v = 0;
  for (int i = size - 1; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

/* Is bits a NaN of float type t (float16/32/64, bfloat16)? */
static bool
bits_are_nan(uint64_t bits, IrDType t)
{
  uint64_t exp, mant;
  if (t.code == IR_DT_BFLOAT && t.bits == 16) {
    exp = 0x7f80, mant = 0x007f;
  } else if (t.code != IR_DT_FLOAT) {
    return false;
  } else if (t.bits == 16) {
    exp = 0x7c00, mant = 0x03ff;
  } else if (t.bits == 32) {
    exp = 0x7f800000, mant = 0x007fffff;
  } else if (t.bits == 64) {
    exp = 0x7ff0000000000000ULL, mant = 0x000fffffffffffffULL;
  } else {
    return false;
  }
  return (bits & exp) == exp && (bits & mant) != 0;
}

static bool
element_differs(Walk *w, IrDType t, size_t index, uint64_t a, uint64_t b)
{
  if (t.code == IR_DT_FLOAT && (t.bits == 32 || t.bits == 64)) {
    double da, db;
    if (t.bits == 32) {
      uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
      float fa, fb;
      memcpy(&fa, &ua, sizeof fa);
      memcpy(&fb, &ub, sizeof fb);
      da = fa, db = fb;
    } else {
      memcpy(&da, &a, sizeof da);
      memcpy(&db, &b, sizeof db);
    }
    return ir_mismatch(w, "element %zu: %.17g vs %.17g (bits 0x%llx vs 0x%llx)", index, da, db,
                       (unsigned long long)a, (unsigned long long)b);
  }
  return ir_mismatch(w, "element %zu: bits 0x%llx vs 0x%llx", index, (unsigned long long)a,
                     (unsigned long long)b);
}

/* Data bit for bit, element by element, except that NaNs of float types
 * are all equal (and hash alike). */
static bool
walk_const_data(Walk *w, const IrTensorData *a, const IrTensorData *b)
{
  int size = a->dtype.bits >= 8 ? a->dtype.bits / 8 : 1;
  const unsigned char *pa = a->data, *pb = b->data;
  size_t n = a->nbytes / (size_t)size;
  if (size > 8)
    return ir_mismatch(w, "unsupported element size %d", size);
  for (size_t i = 0; i < n; i++) {
    uint64_t ea = read_element(pa + i * (size_t)size, size);
    bool nan_a = bits_are_nan(ea, a->dtype);
    if (w->mode == WALK_HASH) {
      ir_walk_mix(w, nan_a ? 0x7ff8u : ea);
      continue;
    }
    uint64_t eb = read_element(pb + i * (size_t)size, size);
    if (ea != eb && !(nan_a && bits_are_nan(eb, b->dtype)))
      return element_differs(w, a->dtype, i, ea, eb);
  }
  return true;
}

static bool
walk_const(Walk *w, const IrTensorData *a, const IrTensorData *b)
{
  if (!ir_same_dtype(w, a->dtype, b->dtype, "dtype") || !ir_same_count(w, a->ndim, b->ndim, "ndim"))
    return false;
  for (int i = 0; i < a->ndim; i++) {
    size_t saved = ir_path_push(w, "dim %d", i);
    if (!ir_same_int(w, a->shape[i], b->shape[i], NULL))
      return false;
    ir_path_pop(w, saved);
  }
  if (!ir_same_int(w, (int64_t)a->nbytes, (int64_t)b->nbytes, "bytes"))
    return false;
  return walk_const_data(w, a, b);
}

/* --- expressions -------------------------------------------------------- */

/* "R.add" for the op "relax.add". */
static const char *
script_op_name(const IrOpDef *op, char *buf, size_t size)
{
  if (strncmp(op->name, "relax.", 6) == 0)
    snprintf(buf, size, "R.%s", op->name + 6);
  else
    snprintf(buf, size, "%s", op->name);
  return buf;
}

static const char *
name_or(const char *name)
{
  return name ? name : "?";
}

static void describe_expr(const IrExpr *e, IrBuf *out);

static void
describe_callee(const IrExpr *call, IrBuf *out)
{
  char buf[64];
  if (call->u.call.kind == IR_CALL_OP)
    ir_buf_puts(out, script_op_name(call->u.call.op, buf, sizeof buf));
  else if (call->u.call.callee)
    describe_expr(call->u.call.callee, out);
  else
    ir_buf_puts(out, "?");
}

/* A short description for messages. */
static void
describe_expr(const IrExpr *e, IrBuf *out)
{
  static const char *const simple[] = {
      [IR_EX_CONST] = "constant", [IR_EX_SHAPE] = "R.shape", [IR_EX_PRIM] = "R.prim_value",
      [IR_EX_SEQ] = "sequence",   [IR_EX_IF] = "if",         [IR_EX_FUNC] = "local function",
  };
  char buf[32];
  if (!e) {
    ir_buf_puts(out, "nothing");
    return;
  }
  switch (e->kind) {
  case IR_EX_VAR:
    ir_buf_printf(out, "%svar '%s'", e->u.var.dataflow ? "dataflow " : "", name_or(e->u.var.name));
    return;
  case IR_EX_TUPLE:
    ir_buf_printf(out, "tuple of %d", e->u.tuple.n);
    return;
  case IR_EX_GET:
    ir_buf_printf(out, "tuple item [%d]", e->u.get.index);
    return;
  case IR_EX_CALL:
    ir_buf_puts(out, "call ");
    describe_callee(e, out);
    return;
  case IR_EX_STR:
    ir_buf_printf(out, "R.str(\"%s\")", name_or(e->u.str));
    return;
  case IR_EX_DTYPE:
    ir_buf_printf(out, "R.dtype(\"%s\")", ir_dtype_str(e->u.dtype, buf));
    return;
  case IR_EX_GLOBAL:
    ir_buf_printf(out, "global '%s'", name_or(e->u.global));
    return;
  case IR_EX_EXTERN:
    ir_buf_printf(out, "R.ExternFunc(\"%s\")", name_or(e->u.global));
    return;
  default:
    ir_buf_puts(out, simple[e->kind]);
    return;
  }
}

static bool
expr_differs(Walk *w, const IrExpr *a, const IrExpr *b, const char *note)
{
  if (!w->why)
    return false;
  IrBuf da = {0}, db = {0};
  describe_expr(a, &da);
  describe_expr(b, &db);
  ir_mismatch(w, "%s vs %s%s", da.data, db.data, note);
  ir_buf_free(&da);
  ir_buf_free(&db);
  return false;
}

static bool walk_expr(Walk *w, const IrExpr *a, const IrExpr *b);
static bool walk_function(Walk *w, const IrFunction *a, const IrFunction *b);

/* An expression under the frame what. */
static bool
walk_expr_at(Walk *w, const IrExpr *a, const IrExpr *b, const char *what)
{
  size_t saved = ir_path_push(w, "%s", what);
  if (!walk_expr(w, a, b))
    return false;
  ir_path_pop(w, saved);
  return true;
}

/* A Relax var, defined or used: matched by the bijection; its dataflow-ness
 * and struct info are compared at the first meeting. */
static bool
walk_relax_var(Walk *w, const IrExpr *a, const IrExpr *b)
{
  switch (ir_walk_bind(w, a, b)) {
  case BIND_SAME:
    return true;
  case BIND_BAD: {
    bool same_name = a->u.var.name && b->u.var.name && strcmp(a->u.var.name, b->u.var.name) == 0;
    return expr_differs(w, a, b, same_name ? " (different variables)" : "");
  }
  case BIND_NEW:
    break;
  }
  return ir_same_bool(w, a->u.var.dataflow, b->u.var.dataflow, NULL, "dataflow var", "var") &&
         walk_sinfo_at(w, a->sinfo, b->sinfo, "struct info");
}

static bool
walk_expr_list(Walk *w, IrExpr *const *a, IrExpr *const *b, int n, const char *label)
{
  for (int i = 0; i < n; i++) {
    size_t saved = ir_path_push(w, label, i);
    if (!walk_expr(w, a[i], b[i]))
      return false;
    ir_path_pop(w, saved);
  }
  return true;
}

/* A call: the callee first (so a different op is reported as such), then
 * under the frame "call <callee>" the arguments, attributes, sinfo_args. */
static bool
walk_call(Walk *w, const IrExpr *a, const IrExpr *b)
{
  if (w->mode == WALK_EQUAL && (a->u.call.kind != b->u.call.kind ||
                                (a->u.call.kind == IR_CALL_OP && a->u.call.op != b->u.call.op)))
    return expr_differs(w, a, b, "");
  ir_walk_mix(w, a->u.call.kind);
  if (a->u.call.kind == IR_CALL_OP)
    ir_walk_mix(w, a->u.call.op->id);
  else if (!walk_expr_at(w, a->u.call.callee, b->u.call.callee, "callee"))
    return false;
  IrBuf frame = {0};
  if (w->why) {
    ir_buf_puts(&frame, "call ");
    describe_callee(a, &frame);
  }
  size_t saved = ir_path_push(w, "%s", frame.data ? frame.data : "");
  ir_buf_free(&frame);
  bool ok = ir_same_count(w, a->u.call.nargs, b->u.call.nargs, "arguments") &&
            walk_expr_list(w, a->u.call.args, b->u.call.args, a->u.call.nargs, "args[%d]") &&
            ir_walk_attr_dict(w, a->u.call.attrs, b->u.call.attrs, "attrs") &&
            ir_same_count(w, a->u.call.nsinfo_args, b->u.call.nsinfo_args, "sinfo_args") &&
            walk_sinfo_list(w, a->u.call.sinfo_args, b->u.call.sinfo_args, a->u.call.nsinfo_args,
                            "sinfo_args[%d]");
  if (ok)
    ir_path_pop(w, saved);
  return ok;
}

/* A binding: value, match_cast struct info, then the var it defines. */
static bool
walk_binding(Walk *w, const IrBinding *a, const IrBinding *b, int block, int index)
{
  size_t saved = ir_path_push(w, "binding '%s' (block %d, binding %d)",
                              a->var ? name_or(a->var->u.var.name) : "?", block, index);
  bool ok = walk_expr_at(w, a->value, b->value, "value") &&
            ir_same_bool(w, a->cast != NULL, b->cast != NULL, NULL, "R.match_cast", "binding") &&
            (!a->cast || walk_sinfo_at(w, a->cast, b->cast, "match_cast")) &&
            walk_expr_at(w, a->var, b->var, "var");
  if (ok)
    ir_path_pop(w, saved);
  return ok;
}

static bool
walk_seq(Walk *w, const IrExpr *a, const IrExpr *b)
{
  if (!ir_same_count(w, a->u.seq.nblocks, b->u.seq.nblocks, "binding blocks"))
    return false;
  for (int i = 0; i < a->u.seq.nblocks; i++) {
    const IrBindingBlock *ba = &a->u.seq.blocks[i], *bb = &b->u.seq.blocks[i];
    size_t saved = ir_path_push(w, "block %d", i);
    if (!ir_same_bool(w, ba->dataflow, bb->dataflow, NULL, "dataflow block", "binding block") ||
        !ir_same_count(w, ba->n, bb->n, "bindings"))
      return false;
    ir_path_pop(w, saved);
    for (int j = 0; j < ba->n; j++)
      if (!walk_binding(w, &ba->bindings[j], &bb->bindings[j], i, j))
        return false;
  }
  return walk_expr_at(w, a->u.seq.result, b->u.seq.result, "result");
}

/* The kind-specific part of an expression.  Struct info is compared for
 * vars (their annotation) only: on other expressions it is derived. */
static bool
walk_expr_kind(Walk *w, const IrExpr *a, const IrExpr *b)
{
  switch (a->kind) {
  case IR_EX_VAR:
    return walk_relax_var(w, a, b);
  case IR_EX_CONST:
    return walk_const(w, &a->u.constant, &b->u.constant);
  case IR_EX_TUPLE:
    return ir_same_count(w, a->u.tuple.n, b->u.tuple.n, "tuple size") &&
           walk_expr_list(w, a->u.tuple.items, b->u.tuple.items, a->u.tuple.n, "field %d");
  case IR_EX_GET:
    return ir_same_int(w, a->u.get.index, b->u.get.index, "index") &&
           walk_expr(w, a->u.get.tuple, b->u.get.tuple);
  case IR_EX_CALL:
    return walk_call(w, a, b);
  case IR_EX_SHAPE:
    return ir_same_count(w, a->u.shape.n, b->u.shape.n, "ndim") &&
           ir_walk_prims(w, a->u.shape.values, b->u.shape.values, a->u.shape.n, "dim %d");
  case IR_EX_PRIM:
    return ir_walk_prim(w, a->u.prim, b->u.prim);
  case IR_EX_STR:
    return ir_same_str(w, a->u.str, b->u.str, NULL);
  case IR_EX_DTYPE:
    return ir_same_dtype(w, a->u.dtype, b->u.dtype, NULL);
  case IR_EX_GLOBAL:
  case IR_EX_EXTERN:
    if (w->mode == WALK_EQUAL && strcmp(name_or(a->u.global), name_or(b->u.global)) != 0)
      return expr_differs(w, a, b, "");
    if (!ir_same_str(w, a->u.global, b->u.global, NULL))
      return false;
    /* an extern's R.Callable is part of it (its purity, its derive_func) */
    return a->kind == IR_EX_GLOBAL ||
           (ir_same_presence(w, a->sinfo, b->sinfo, "struct info") &&
            (!a->sinfo || walk_sinfo_at(w, a->sinfo, b->sinfo, "struct info")));
  case IR_EX_SEQ:
    return walk_seq(w, a, b);
  case IR_EX_IF:
    return walk_expr_at(w, a->u.branch.cond, b->u.branch.cond, "condition") &&
           walk_expr_at(w, a->u.branch.then_, b->u.branch.then_, "then") &&
           walk_expr_at(w, a->u.branch.else_, b->u.branch.else_, "else");
  case IR_EX_FUNC:
    return walk_function(w, a->u.func, b->u.func);
  }
  UNREACHABLE();
  return false;
}

/* An expression; NULL only equals NULL. */
static bool
walk_expr(Walk *w, const IrExpr *a, const IrExpr *b)
{
  if (!a || !b) {
    ir_walk_mix(w, 0xe0u);
    return a == b || expr_differs(w, a, b, "");
  }
  if (w->mode == WALK_EQUAL && a->kind != b->kind)
    return expr_differs(w, a, b, "");
  ir_walk_mix(w, a->kind);
  return walk_expr_kind(w, a, b);
}

/* A Relax function (global or local): params, return struct info, purity,
 * privacy, attributes, body. */
static bool
walk_function(Walk *w, const IrFunction *a, const IrFunction *b)
{
  if (!ir_same_count(w, a->nparams, b->nparams, "parameters"))
    return false;
  for (int i = 0; i < a->nparams; i++) {
    size_t saved = ir_path_push(w, "param %d", i);
    if (!walk_expr(w, a->params[i], b->params[i]))
      return false;
    ir_path_pop(w, saved);
  }
  return walk_sinfo_at(w, a->ret, b->ret, "return struct info") &&
         ir_same_bool(w, a->pure, b->pure, "purity", "pure", "impure") &&
         ir_same_bool(w, a->is_private, b->is_private, "private", "private", "public") &&
         ir_walk_attr_dict(w, a->attrs, b->attrs, "attrs") && walk_expr(w, a->body, b->body);
}

/* --- modules ------------------------------------------------------------ */

static const char *const global_kind_names[] = {
    [IR_GLOBAL_RELAX] = "Relax function",
    [IR_GLOBAL_PRIM] = "prim_func",
    [IR_GLOBAL_EXTERN] = "extern function",
};

/* One global, with a fresh bijection: what is bound in one function is
 * never confused with what is bound in another. */
static bool
walk_global_value(Walk *w, const IrGlobal *a, const IrGlobal *b)
{
  if (w->mode == WALK_EQUAL && a->kind != b->kind)
    return ir_mismatch(w, "%s vs %s", global_kind_names[a->kind], global_kind_names[b->kind]);
  ir_walk_mix(w, a->kind);
  switch (a->kind) {
  case IR_GLOBAL_RELAX:
    return walk_function(w, a->u.relax, b->u.relax);
  case IR_GLOBAL_PRIM:
    return ir_walk_prim_func(w, a->u.prim, b->u.prim);
  case IR_GLOBAL_EXTERN:
    return ir_same_str(w, a->u.extern_sym, b->u.extern_sym, "symbol");
  }
  return false;
}

static bool
walk_global(Walk *w, const IrGlobal *a, const IrGlobal *b)
{
  ir_walk_reset_vars(w);
  ir_walk_mix_str(w, a->name);
  size_t saved = ir_path_push(w, "function '%s'", name_or(a->name));
  bool ok = walk_global_value(w, a, b);
  if (ok)
    ir_path_pop(w, saved);
  return ok;
}

static int
compare_global_names(const void *x, const void *y)
{
  const IrGlobal *a = *(const IrGlobal *const *)x, *b = *(const IrGlobal *const *)y;
  return strcmp(a->name, b->name);
}

/* The globals of m sorted by name (malloc'd). */
static const IrGlobal **
sorted_globals(const IrModule *m)
{
  const IrGlobal **s = ir_xmalloc(sizeof *s * (size_t)(m->nglobals ? m->nglobals : 1));
  for (int i = 0; i < m->nglobals; i++)
    s[i] = &m->globals[i];
  qsort(s, (size_t)m->nglobals, sizeof *s, compare_global_names);
  return s;
}

/* The globals as maps from name to function: merged by name, so the first
 * difference reported is the first in name order whatever the order read. */
static bool
walk_globals_equal(Walk *w, const IrModule *a, const IrModule *b)
{
  const IrGlobal **sa = sorted_globals(a), **sb = sorted_globals(b);
  int i = 0, j = 0;
  bool ok = true;
  while (ok && (i < a->nglobals || j < b->nglobals)) {
    int c = i == a->nglobals ? 1 : j == b->nglobals ? -1 : strcmp(sa[i]->name, sb[j]->name);
    if (c < 0)
      ok = ir_mismatch(w, "function '%s' missing in second module", sa[i]->name);
    else if (c > 0)
      ok = ir_mismatch(w, "function '%s' missing in first module", sb[j]->name);
    else
      ok = walk_global(w, sa[i++], sb[j++]);
  }
  free(sa);
  free(sb);
  return ok;
}

static bool
walk_vdevices(Walk *w, const IrModule *a, const IrModule *b)
{
  if (!ir_same_count(w, a->nvdevices, b->nvdevices, "vdevices"))
    return false;
  for (int i = 0; i < a->nvdevices; i++) {
    const IrVDevice *va = &a->vdevices[i], *vb = &b->vdevices[i];
    size_t saved = ir_path_push(w, "vdevice %d", i);
    if (!ir_walk_attr(w, va->target, vb->target) || !ir_same_str(w, va->kind, vb->kind, "kind") ||
        !ir_same_int(w, va->vdevice_id, vb->vdevice_id, "vdevice_id") ||
        !ir_same_str(w, va->memory_scope, vb->memory_scope, "memory_scope"))
      return false;
    ir_path_pop(w, saved);
  }
  return true;
}

/* The module's name (the class name in the text) is not compared: it names
 * the container, not what the module computes. */
bool
ir_module_equal(const IrModule *a, const IrModule *b, IrBuf *why)
{
  Walk w;
  ir_walk_init(&w, WALK_EQUAL, why);
  bool ok = walk_vdevices(&w, a, b) && ir_walk_attr_dict(&w, a->attrs, b->attrs, "module attrs") &&
            walk_globals_equal(&w, a, b);
  ir_walk_free(&w);
  return ok;
}

/* Mixes the same fields as ir_module_equal compares; the globals' hashes,
 * each computed from a fresh start, are summed so their order does not
 * matter. */
uint64_t
ir_module_hash(const IrModule *m)
{
  Walk w;
  ir_walk_init(&w, WALK_HASH, NULL);
  walk_vdevices(&w, m, m);
  ir_walk_attr_dict(&w, m->attrs, m->attrs, "module attrs");
  uint64_t module_part = w.h, sum = 0;
  for (int i = 0; i < m->nglobals; i++) {
    w.h = 0x510e527fade682d1ULL;
    walk_global(&w, &m->globals[i], &m->globals[i]);
    sum += w.h;
  }
  w.h = module_part;
  ir_walk_mix(&w, (uint64_t)m->nglobals);
  ir_walk_mix(&w, sum);
  uint64_t h = w.h;
  ir_walk_free(&w);
  return h;
}

/* A global's function alone, its name aside: what deduplication compares
 * (TVM's BlockBuilder keeps one of structurally equal functions).  Globals
 * the functions name (callees) compare by name. */
bool
ir_global_value_equal(const IrGlobal *a, const IrGlobal *b)
{
  Walk w;
  ir_walk_init(&w, WALK_EQUAL, NULL);
  bool ok = walk_global_value(&w, a, b);
  ir_walk_free(&w);
  return ok;
}

uint64_t
ir_global_value_hash(const IrGlobal *g)
{
  Walk w;
  ir_walk_init(&w, WALK_HASH, NULL);
  walk_global_value(&w, g, g);
  uint64_t h = w.h;
  ir_walk_free(&w);
  return h;
}

/* What an op's lowering sees of a call whose arguments are all vars: the
 * op, its attributes and sinfo_args, each argument's struct info and the
 * result's, in one walk shared by the hash and the equality. */
static bool
walk_call_signature(Walk *w, const IrExpr *a, const IrSInfo *ra, const IrExpr *b,
                    const IrSInfo *rb)
{
  if (w->mode == WALK_EQUAL && (a->u.call.op != b->u.call.op || a->u.call.nargs != b->u.call.nargs))
    return false;
  ir_walk_mix(w, (uint64_t)(uintptr_t)a->u.call.op);
  ir_walk_mix(w, (uint64_t)a->u.call.nargs);
  for (int i = 0; i < a->u.call.nargs; i++)
    if (!ir_walk_sinfo(w, a->u.call.args[i]->sinfo, b->u.call.args[i]->sinfo))
      return false;
  return ir_walk_attr_dict(w, a->u.call.attrs, b->u.call.attrs, "attrs") &&
         ir_same_count(w, a->u.call.nsinfo_args, b->u.call.nsinfo_args, "sinfo_args") &&
         walk_sinfo_list(w, a->u.call.sinfo_args, b->u.call.sinfo_args, a->u.call.nsinfo_args,
                         "sinfo_args[%d]") &&
         ir_walk_sinfo(w, ra, rb);
}

bool
ir_call_signature_equal(const IrExpr *a, const IrSInfo *ra, const IrExpr *b, const IrSInfo *rb)
{
  Walk w;
  ir_walk_init(&w, WALK_EQUAL, NULL);
  w.identity = true;
  bool ok = walk_call_signature(&w, a, ra, b, rb);
  ir_walk_free(&w);
  return ok;
}

uint64_t
ir_call_signature_hash(const IrExpr *call, const IrSInfo *result)
{
  Walk w;
  ir_walk_init(&w, WALK_HASH, NULL);
  w.identity = true;
  walk_call_signature(&w, call, result, call, result);
  uint64_t h = w.h;
  ir_walk_free(&w);
  return h;
}

/* The set's buckets are keyed by the hash (made odd, so never NULL); a
 * bucket chains the globals whose hashes share that key. */
typedef struct FuncNode FuncNode;
struct FuncNode {
  const IrGlobal *g;
  FuncNode *next;
};

const IrGlobal *
ir_func_set_find(IrFuncSet *s, const IrGlobal *g, uint64_t *hash)
{
  *hash = ir_global_value_hash(g) | 1;
  for (FuncNode *n = ir_map_get(&s->buckets, (const void *)(uintptr_t)*hash); n; n = n->next)
    if (ir_global_value_equal(n->g, g))
      return n->g;
  return NULL;
}

void
ir_func_set_add(IrFuncSet *s, const IrGlobal *g, uint64_t hash)
{
  FuncNode *n = ir_xmalloc(sizeof *n);
  void **slot = ir_map_slot(&s->buckets, (const void *)(uintptr_t)hash);
  n->g = g;
  n->next = *slot;
  *slot = n;
  ir_vec_push(&s->nodes, n);
}

void
ir_func_set_free(IrFuncSet *s)
{
  for (int i = 0; i < s->nodes.len; i++)
    free(s->nodes.items[i]);
  ir_vec_free(&s->nodes);
  ir_map_free(&s->buckets);
}

/* Free variables compare by identity: both sides live in one context. */
bool
ir_prim_expr_equal(const IrPrimExpr *a, const IrPrimExpr *b)
{
  Walk w;
  ir_walk_init(&w, WALK_EQUAL, NULL);
  w.identity = true;
  bool ok = ir_walk_prim(&w, a, b);
  ir_walk_free(&w);
  return ok;
}

bool
ir_sinfo_equal(const IrSInfo *a, const IrSInfo *b)
{
  Walk w;
  ir_walk_init(&w, WALK_EQUAL, NULL);
  w.identity = true;
  bool ok = ir_walk_sinfo(&w, a, b);
  ir_walk_free(&w);
  return ok;
}
