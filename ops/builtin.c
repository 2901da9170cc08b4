/*
 * builtin.c - memory, device, effect and cross-level ops: R.memory.*,
 * R.builtin.alloc_tensor, R.vm.*, R.hint_on_device, R.to_vdevice, R.print,
 * R.assert_op, the struct info of R.call_tir and its relatives, R.shape_of,
 * R.null_value and the closures (R.make_closure, R.invoke_closure,
 * R.invoke_pure_closure).
 *
 * In generated C (README.md: device and effect operators): LegalizeOps
 * drops R.hint_on_device and R.to_vdevice (one device); R.assert_op and
 * R.print have no lowering, the code generator emits them where they sit
 * (codegen/gen_effect.c); CallTIRRewrite maps R.builtin.alloc_tensor and
 * the R.vm allocation ops onto the R.memory ones, which memplan/ plans.
 *
 * Key idea: a tensor made by alloc_tensor is a view into the bytes of its
 * storage, and the view is refused (an error naming the binding and both
 * sizes) unless it fits, so no later kernel can touch memory outside the
 * storage.  R.call_tir and the packed calls are evaluated by the interpreter
 * itself, which has the module; here they only have inference.
 *
 * What has no meaning without TVM's runtime has inference only (the
 * interpreter and the code generator refuse it, README.md says why): a packed
 * function (call_dps_packed, call_pure_packed, call_inplace_packed,
 * call_builtin_with_ctx) is named by a string that only TVM's runtime
 * resolves (a call_dps_packed of a prim_func of the module runs, and
 * compiles as R.call_tir does); a closure (make_closure, invoke_closure) is a VM object that
 * LambdaLift makes, and rxc's generated code has no function values;
 * R.null_value is the runtime's null object, an argument to such calls.
 */
#include <stdlib.h>
#include <string.h>

#include "op.h"

#define STORAGE_MAX ((uint64_t)1 << 34) /* bytes the interpreter will allocate */

/* ---- helpers ------------------------------------------------------------- */

static IrSInfo *
void_sinfo(IrCtx *ctx)
{
  return ir_sinfo_tuple(ctx, NULL, 0);
}

static Value *
void_value(IrCtx *ctx)
{
  return op_tuple_new(ctx, NULL, 0);
}

/* The tensor struct info of a (shape, dtype) pair of call arguments. */
static IrSInfo *
tensor_of(OpInfer *in, const OpSite *site, int shape_arg, int dtype_arg, IrSInfo **args)
{
  const IrExpr *const *a = (const IrExpr *const *)site->call->u.call.args;
  int n = site->call->u.call.nargs;
  IrDType dt = IR_VOID;
  if (dtype_arg < n && a[dtype_arg]->kind == IR_EX_DTYPE)
    dt = a[dtype_arg]->u.dtype;
  if (shape_arg >= n)
    return op_fail_null(site, "missing shape argument");
  const IrSInfo *s = args[shape_arg];
  if (a[shape_arg]->kind == IR_EX_SHAPE)
    return ir_sinfo_tensor(in->ctx, a[shape_arg]->u.shape.values, a[shape_arg]->u.shape.n, dt, -1);
  if (s->kind == IR_SI_SHAPE)
    return ir_sinfo_tensor(in->ctx, s->u.shape.values, s->u.shape.ndim, dt, -1);
  if (s->kind == IR_SI_OBJECT)
    return ir_sinfo_tensor(in->ctx, NULL, -1, dt, -1);
  return op_fail_null(site, "the shape argument is not a shape");
}

static const IrAttr *
attr(const IrExpr *call, const char *name)
{
  return ir_attr_get(call->u.call.attrs, name);
}

/* ---- inference ------------------------------------------------------------ */

static IrSInfo *
infer_object(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  return ir_sinfo_object(in->ctx);
}

static IrSInfo *
infer_void(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  return void_sinfo(in->ctx);
}

static IrSInfo *
infer_view(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  return tensor_of(in, s, 2, 3, args); /* storage, offset, shape, dtype */
}

static IrSInfo *
infer_builtin_alloc(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  return tensor_of(in, s, 0, 1, args); /* shape, dtype, device, scope */
}

static IrSInfo *
infer_identity(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  if (site->call->u.call.nargs < 1)
    return op_fail_null(site, "needs an argument");
  return args[0];
}

/* The index of the vdevice R.to_vdevice's dst_vdevice names: an index, or
 * "kind", "kind:i" (the i-th of that kind), "vdevice:i"; -1 when none. */
static int
dst_vdevice(const IrModule *m, const IrAttr *a)
{
  if (!m || !a)
    return -1;
  if (a->kind == IR_AT_INT)
    return a->u.i >= 0 && a->u.i < m->nvdevices ? (int)a->u.i : -1;
  if (a->kind != IR_AT_STR)
    return -1;
  const char *s = a->u.s, *colon = strchr(s, ':');
  size_t klen = colon ? (size_t)(colon - s) : strlen(s);
  int want = colon ? atoi(colon + 1) : 0;
  if (klen == 7 && strncmp(s, "vdevice", 7) == 0)
    return want >= 0 && want < m->nvdevices ? want : -1;
  for (int i = 0, seen = 0; i < m->nvdevices; i++)
    if (m->vdevices[i].kind && strlen(m->vdevices[i].kind) == klen &&
        strncmp(m->vdevices[i].kind, s, klen) == 0 && seen++ == want)
      return i;
  return -1;
}

/* s on vdevice dev: s itself when it is not a tensor, is there already or
 * dev is -1 (no such vdevice, which RealizeVDevice reports). */
static IrSInfo *
on_vdevice(OpInfer *in, IrSInfo *s, int dev)
{
  if (!s || s->kind != IR_SI_TENSOR || dev < 0 || s->u.tensor.vdevice == dev)
    return s;
  IrSInfo *copy = ir_alloc(in->ctx, sizeof *copy);
  *copy = *s;
  copy->u.tensor.vdevice = dev;
  return copy;
}

/* R.to_vdevice: the input's struct info on the destination vdevice (as
 * TVM's InferToVDeviceStructInfo). */
static IrSInfo *
infer_to_vdevice(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  IrSInfo *s = infer_identity(in, site, args);
  return on_vdevice(in, s, dst_vdevice(in->mod, attr(site->call, "dst_vdevice")));
}

/* R.hint_on_device: the input's struct info on the hinted vdevice (the
 * first of the module with that device type and vdevice_id), so that what
 * Normalize infers after a hint agrees with what RealizeVDevice makes of
 * it.  (TVM's inference keeps the input's vdevice here.) */
static IrSInfo *
infer_hint_on_device(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  IrSInfo *s = infer_identity(in, site, args);
  const IrAttr *type = attr(site->call, "dev_type"), *index = attr(site->call, "index");
  if (!in->mod || !type || type->kind != IR_AT_INT)
    return s;
  int64_t id = index && index->kind == IR_AT_INT ? index->u.i : 0;
  return on_vdevice(in, s, ir_module_find_vdevice(in->mod, type->u.i, id));
}

/* R.call_tir, call_tir_inplace, call_dps_packed, call_pure_packed: the
 * declared output struct info (a tuple when there are several). */
static IrSInfo *
infer_out_sinfo(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  int n = s->call->u.call.nsinfo_args;
  if (n == 0)
    return op_fail_null(s, "needs out_sinfo");
  if (n == 1)
    return s->call->u.call.sinfo_args[0];
  return ir_sinfo_tuple(in->ctx, s->call->u.call.sinfo_args, n);
}

/* Two tensor struct infos with a known fact that differs (dtype, rank, or
 * a dim that is a literal on both sides). */
static bool
tensors_differ(const IrSInfo *a, const IrSInfo *b)
{
  if (!a || !b || a->kind != IR_SI_TENSOR || b->kind != IR_SI_TENSOR)
    return false;
  IrDType da = a->u.tensor.dtype, db = b->u.tensor.dtype;
  if (da.code != IR_DT_VOID && db.code != IR_DT_VOID && !ir_dtype_eq(da, db))
    return true;
  if (a->u.tensor.ndim < 0 || b->u.tensor.ndim < 0)
    return false;
  if (a->u.tensor.ndim != b->u.tensor.ndim)
    return true;
  for (int i = 0; a->u.tensor.shape && b->u.tensor.shape && i < a->u.tensor.ndim; i++) {
    int64_t x, y;
    if (ir_prim_is_int(a->u.tensor.shape[i], &x) && ir_prim_is_int(b->u.tensor.shape[i], &y) &&
        x != y)
      return true;
  }
  return false;
}

/* R.call_tir_inplace: out_sinfo, and each in-place output is the argument
 * it overwrites, so their known facts must agree (TVM checks the same);
 * CallTIRRewrite binds the output to the argument itself. */
static IrSInfo *
infer_call_tir_inplace(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  IrSInfo *out = infer_out_sinfo(in, site, args);
  const IrSInfo *t = site->call->u.call.nargs > 1 ? args[1] : NULL;
  int nout = site->call->u.call.nsinfo_args;
  for (int k = 0; out && t && k < nout; k++) {
    int64_t i = op_inplace_index(site->call, k);
    int nin = t->kind == IR_SI_TUPLE ? t->u.tuple.n : 1;
    if (i < 0)
      continue;
    const IrSInfo *arg = i >= nin ? NULL : t->kind == IR_SI_TUPLE ? t->u.tuple.fields[i] : t;
    if (i >= nin)
      return op_fail_null(site, "in-place output %d names argument %lld of %d", k, (long long)i,
                          nin);
    const IrSInfo *want = site->call->u.call.sinfo_args[k];
    if (in->assume && arg && arg->kind == IR_SI_TENSOR && want->kind == IR_SI_TENSOR &&
        arg->u.tensor.shape && want->u.tensor.shape && arg->u.tensor.ndim == want->u.tensor.ndim)
      for (int d = 0; d < want->u.tensor.ndim; d++) /* the output is the argument */
        op_assume_equal(in, arg->u.tensor.shape[d], want->u.tensor.shape[d]);
    if (tensors_differ(arg, site->call->u.call.sinfo_args[k])) {
      IrBuf a = {0}, o = {0};
      ir_sinfo_print(arg, &a);
      ir_sinfo_print(site->call->u.call.sinfo_args[k], &o);
      op_report(site, "in-place output %d is %s but argument %lld, which it overwrites, is %s", k,
                o.data, (long long)i, a.data);
      ir_buf_free(&a);
      ir_buf_free(&o);
      return NULL;
    }
  }
  return out;
}

/* R.shape_of(x): x's shape as a shape value, as known as x's struct info. */
static IrSInfo *
infer_shape_of(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  const IrSInfo *s = site->call->u.call.nargs == 1 ? args[0] : NULL;
  if (s && s->kind == IR_SI_TENSOR)
    return ir_sinfo_shape(in->ctx, s->shape_len ? NULL : s->u.tensor.shape, s->u.tensor.ndim);
  if (s && s->kind == IR_SI_OBJECT)
    return ir_sinfo_shape(in->ctx, NULL, -1);
  return op_fail_null(site, "expects one tensor argument");
}

/* R.call_builtin_with_ctx: its sinfo_args, void without; R.invoke_closure:
 * an object without, a tuple of several. */
static IrSInfo *
infer_sinfo_args(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  int n = s->call->u.call.nsinfo_args;
  if (n == 1)
    return s->call->u.call.sinfo_args[0];
  if (n > 1)
    return ir_sinfo_tuple(in->ctx, s->call->u.call.sinfo_args, n);
  return s->call->u.call.op->id == IR_OP_CALL_BUILTIN_WITH_CTX ? void_sinfo(in->ctx)
                                                            : ir_sinfo_object(in->ctx);
}

static IrSInfo *
infer_assert(OpInfer *in, const OpSite *s, IrSInfo **args)
{
  const IrSInfo *c = s->call->u.call.nargs ? args[0] : NULL;
  bool bad = !c;
  if (c && c->kind == IR_SI_TENSOR)
    bad = (c->u.tensor.dtype.code != IR_DT_VOID && c->u.tensor.dtype.code != IR_DT_BOOL) ||
          (c->u.tensor.ndim > 0);
  else if (c && c->kind == IR_SI_PRIM)
    bad = c->u.prim.dtype.code != IR_DT_VOID && c->u.prim.dtype.code != IR_DT_BOOL;
  if (bad)
    return op_fail_null(s, "the condition must be a bool scalar");
  return void_sinfo(in->ctx);
}

/* ---- kernels -------------------------------------------------------------- */

/* alloc_storage: zeroed bytes; size is args[0], the dtype args[dtype_arg]. */
static Value *
storage_new(OpEval *ev, const OpSite *s, Value **args, int dtype_arg)
{
  const Value *size = args[0];
  if (size->kind != VAL_SHAPE || size->u.shape.n != 1 || size->u.shape.dims[0] < 0 ||
      (uint64_t)size->u.shape.dims[0] > STORAGE_MAX) {
    return op_fail_null(s, "the size must be one non-negative byte count (at most 2^34)");
  }
  size_t n = (size_t)size->u.shape.dims[0];
  Value *v = ir_alloc(ev->ctx, sizeof *v);
  v->kind = VAL_STORAGE;
  v->u.storage.bytes = ir_alloc(ev->ctx, n ? n : 1);
  v->u.storage.nbytes = n;
  if (dtype_arg < s->call->u.call.nargs && args[dtype_arg]->kind == VAL_DTYPE)
    v->u.storage.dtype = args[dtype_arg]->u.dtype;
  return v;
}

static Value *
eval_memory_alloc_storage(OpEval *ev, const OpSite *s, Value **args)
{
  return storage_new(ev, s, args, 3); /* size, device, scope, dtype */
}

static Value *
eval_vm_alloc_storage(OpEval *ev, const OpSite *s, Value **args)
{
  return storage_new(ev, s, args, 2); /* size, device, dtype, scope */
}

/* Bytes of a tensor of shape s and dtype t, or -1 when it overflows. */
static int64_t
tensor_bytes(const Value *s, IrDType t)
{
  int64_t n = ir_dtype_bytes(t);
  for (int i = 0; i < s->u.shape.n; i++) {
    int64_t d = s->u.shape.dims[i];
    if (d < 0 || (d > 0 && n > INT64_MAX / d))
      return -1;
    n *= d;
  }
  return n;
}

static Value *
eval_alloc_tensor(OpEval *ev, const OpSite *s, Value **args)
{
  Value *st = args[0];
  if (s->call->u.call.nargs < 4 || st->kind != VAL_STORAGE || args[1]->kind != VAL_PRIM ||
      args[2]->kind != VAL_SHAPE || args[3]->kind != VAL_DTYPE) {
    return op_fail_null(s, "expects storage, offset, shape and dtype");
  }
  if (st->u.storage.killed)
    return op_fail_null(s, "the storage was already killed");
  int64_t offset = args[1]->u.prim.i;
  int64_t bytes = tensor_bytes(args[2], args[3]->u.dtype);
  int64_t have = (int64_t)st->u.storage.nbytes;
  if (bytes < 0 || offset < 0 || offset > have || bytes > have - offset)
    return op_fail_null(s,
                        "tensor of %lld bytes at offset %lld does not fit in storage of %lld bytes",
                        (long long)bytes, (long long)offset, (long long)have);
  IrTensorData d;
  d.dtype = args[3]->u.dtype;
  d.ndim = args[2]->u.shape.n;
  d.shape = args[2]->u.shape.dims;
  d.data = st->u.storage.bytes + offset;
  d.nbytes = (size_t)bytes;
  Value *v = op_tensor_from_data(ev->ctx, &d);
  v->u.tensor.storage = st;
  return v;
}

static Value *
eval_kill(OpEval *ev, const OpSite *s, Value **args)
{
  if (s->call->u.call.nargs > 0 && args[0]->kind == VAL_STORAGE)
    args[0]->u.storage.killed = true;
  return void_value(ev->ctx);
}

static Value *
eval_builtin_alloc_tensor(OpEval *ev, const OpSite *s, Value **args)
{
  if (s->call->u.call.nargs < 2 || args[0]->kind != VAL_SHAPE || args[1]->kind != VAL_DTYPE)
    return op_fail_null(s, "expects a shape and a dtype");
  return op_tensor_new(ev->ctx, args[1]->u.dtype, args[0]->u.shape.n, args[0]->u.shape.dims,
                       ev->loc);
}

static Value *
eval_identity(OpEval *ev, const OpSite *s, Value **args)
{
  return args[0];
}

/* Replaces each "{}" of format by the next value (values left over are
 * appended, separated by spaces; an empty format prints the values so).
 * codegen/gen_effect.c writes the same text in generated C. */
static void
format_values(const char *format, Value **values, int n, IrBuf *out)
{
  int next = 0;
  size_t start = out->len; /* out may hold earlier lines */
  for (const char *p = format; *p; p++) {
    if (p[0] == '{' && p[1] == '}' && next < n) {
      op_value_print(values[next++], out);
      p++;
    } else {
      ir_buf_put(out, p, 1);
    }
  }
  for (; next < n; next++) {
    if (out->len > start)
      ir_buf_puts(out, " ");
    op_value_print(values[next], out);
  }
}

static const char *
format_of(const IrExpr *call)
{
  const IrAttr *f = attr(call, "format");
  return f && f->kind == IR_AT_STR ? f->u.s : "";
}

static Value *
eval_print(OpEval *ev, const OpSite *s, Value **args)
{
  format_values(format_of(s->call), args, s->call->u.call.nargs, ev->print_out);
  ir_buf_puts(ev->print_out, "\n");
  return void_value(ev->ctx);
}

static Value *
eval_assert(OpEval *ev, const OpSite *site, Value **args)
{
  const Value *c = site->call->u.call.nargs ? args[0] : NULL;
  int truth = -1;
  if (c && c->kind == VAL_PRIM)
    truth = c->u.prim.i != 0 || c->u.prim.f != 0;
  else if (c && c->kind == VAL_TENSOR && c->u.tensor.t.ndim == 0)
    truth = op_get_f(&c->u.tensor.t, 0) != 0;
  if (truth < 0)
    return op_fail_null(site, "the condition must be a bool scalar");
  if (!truth) {
    IrBuf msg = {0};
    format_values(format_of(site->call), args + 1, site->call->u.call.nargs - 1, &msg);
    op_report(site, "assertion failed%s%s", msg.len ? ": " : "", msg.len ? msg.data : "");
    ir_buf_free(&msg);
    return NULL;
  }
  return void_value(ev->ctx);
}

static Value *
eval_shape_of(OpEval *ev, const OpSite *s, Value **args)
{
  if (args[0]->kind != VAL_TENSOR)
    return op_fail_null(s, "expects a tensor");
  return op_shape_new(ev->ctx, args[0]->u.tensor.t.shape, args[0]->u.tensor.t.ndim);
}

/* R.shape_of of a tensor whose shape is known: that R.shape. */
static IrExpr *
legalize_shape_of(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  if (!result || result->kind != IR_SI_SHAPE || !result->u.shape.values)
    return NULL;
  return ir_shape_expr(lz->ctx, result->u.shape.values, result->u.shape.ndim, s->call->loc);
}

/* The argument itself: R.memory.ensure_zero_offset (an rxc tensor always
 * starts at its data pointer), the R.grad markers, R.builtin.stop_lift_params (lifting params is
 * TVM's LiftTransformParams, which rxc does not run), R.hint_on_device and
 * R.to_vdevice.  TVM's RealizeVDevice turns a hint into nothing or a
 * to_vdevice, and its LowerRuntimeBuiltin turns to_vdevice into a copy
 * between devices (vm.builtin.to_device); generated C runs on one device,
 * where that copy is the value itself. */
static IrExpr *
legalize_identity(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  (void)lz, (void)result;
  return s->call->u.call.nargs == 1 ? (IrExpr *)s->call->u.call.args[0] : NULL;
}

/* R.call_tir_with_grad: the R.call_tir it is once its gradient's name
 * (for TVM's Gradient pass) is no longer needed, as TVM's LegalizeOps. */
static IrExpr *
legalize_call_tir_with_grad(OpLegalize *lz, const OpSite *s, IrSInfo *result)
{
  (void)result;
  IrExpr *e = ir_call_op(lz->ctx, &op_def(IR_OP_CALL_TIR)->syn, s->call->u.call.args,
                         s->call->u.call.nargs, NULL, s->call->loc);
  e->u.call.sinfo_args = s->call->u.call.sinfo_args;
  e->u.call.nsinfo_args = s->call->u.call.nsinfo_args;
  e->sinfo = s->call->sinfo;
  return e;
}

/* R.builtin.stop_lift_params: a tensor's struct info (TVM's unary rule). */
static IrSInfo *
infer_tensor_identity(OpInfer *in, const OpSite *site, IrSInfo **args)
{
  if (site->call->u.call.nargs == 1 && (args[0]->kind == IR_SI_TENSOR || args[0]->kind == IR_SI_OBJECT))
    return args[0]->kind == IR_SI_TENSOR ? args[0]
                                         : ir_sinfo_tensor(in->ctx, NULL, -1, IR_VOID, -1);
  return op_fail_null(site, "expects one tensor argument");
}

/* ---- the table -------------------------------------------------------------- */

#define E OP_ARG
#define A OP_ATTR
/* clang-format off */
#define PARAM(name, kind, fallback) {name, IR_PARAM_##kind, fallback}
/* clang-format on */

static const OpDef defs[] = {
    OP(IR_OP_SHAPE_OF, "relax.shape_of", .syn.params = {E("expr")}, .syn.nparams = 1,
       .impl = {infer_shape_of, eval_shape_of, legalize_shape_of}),
    OP(IR_OP_NULL_VALUE, "relax.null_value", .syn.nparams = 0, .impl = {infer_object, NULL, NULL},
       .flags = OP_NO_FOLD),
    /* memory */
    OP(IR_OP_MEMORY_ALLOC_STORAGE, "relax.memory.alloc_storage",
       .syn.params = {PARAM("size", SHAPE, NULL), PARAM("virtual_device_index", PRIM, "0"),
                      PARAM("storage_scope", STR, "\"global\""),
                      PARAM("dtype", DTYPE, "\"float32\"")},
       .syn.nparams = 4, .impl = {infer_object, eval_memory_alloc_storage, NULL},
       .flags = OP_NO_FOLD),
    OP(IR_OP_MEMORY_ALLOC_TENSOR, "relax.memory.alloc_tensor",
       .syn.params = {E("storage"), PARAM("offset", PRIM, NULL), PARAM("shape", SHAPE, NULL),
                      PARAM("dtype", DTYPE, NULL), PARAM("runtime_device_ind", PRIM, "0")},
       .syn.nparams = 5, .impl = {infer_view, eval_alloc_tensor, NULL}, .flags = OP_NO_FOLD),
    OP(IR_OP_MEMORY_KILL_STORAGE, "relax.memory.kill_storage", .syn.impure = true,
       .syn.params = {E("storage")}, .syn.nparams = 1, .impl = {infer_void, eval_kill, NULL},
       .flags = OP_KILL),
    OP(IR_OP_MEMORY_KILL_TENSOR, "relax.memory.kill_tensor", .syn.impure = true,
       .syn.params = {E("tensor")}, .syn.nparams = 1, .impl = {infer_void, eval_kill, NULL},
       .flags = OP_KILL),
    OP(IR_OP_MEMORY_ENSURE_ZERO_OFFSET, "relax.memory.ensure_zero_offset",
       .syn.params = {E("data")}, .syn.nparams = 1,
       .impl = {infer_identity, eval_identity, legalize_identity}),
    OP(IR_OP_BUILTIN_ALLOC_TENSOR, "relax.builtin.alloc_tensor",
       .syn.params = {PARAM("shape", SHAPE, NULL), PARAM("dtype", DTYPE, NULL),
                      PARAM("runtime_device_index", PRIM, NULL),
                      PARAM("storage_scope", STR, "\"global\"")},
       .syn.nparams = 4, .impl = {infer_builtin_alloc, eval_builtin_alloc_tensor, NULL},
       .flags = OP_NO_FOLD),
    OP(IR_OP_BUILTIN_STOP_LIFT_PARAMS, "relax.builtin.stop_lift_params", .syn.params = {E("x")},
       .syn.nparams = 1, .impl = {infer_tensor_identity, eval_identity, legalize_identity}),
    /* R.grad's markers for TVM's Gradient pass (no gradient, a checkpoint
     * stage's start and end): the value itself, as TVM lowers them */
    OP(IR_OP_GRAD_NO_GRAD, "relax.grad.no_grad", .syn.params = {E("x")}, .syn.nparams = 1,
       .impl = {infer_identity, eval_identity, legalize_identity}),
    OP(IR_OP_GRAD_START_CHECKPOINT, "relax.grad.start_checkpoint", .syn.params = {E("x")},
       .syn.nparams = 1, .impl = {infer_identity, eval_identity, legalize_identity}),
    OP(IR_OP_GRAD_END_CHECKPOINT, "relax.grad.end_checkpoint", .syn.params = {E("x")},
       .syn.nparams = 1, .impl = {infer_identity, eval_identity, legalize_identity}),
    OP(IR_OP_VM_ALLOC_STORAGE, "relax.vm.alloc_storage",
       .syn.params = {PARAM("size", SHAPE, NULL), PARAM("runtime_device_index", PRIM, NULL),
                      PARAM("dtype", DTYPE, NULL), PARAM("storage_scope", STR, "\"global\"")},
       .syn.nparams = 4, .impl = {infer_object, eval_vm_alloc_storage, NULL}, .flags = OP_NO_FOLD),
    OP(IR_OP_VM_ALLOC_TENSOR, "relax.vm.alloc_tensor",
       .syn.params = {E("storage"), PARAM("offset", PRIM, NULL), PARAM("shape", SHAPE, NULL),
                      PARAM("dtype", DTYPE, NULL), PARAM("runtime_device_ind", PRIM, "0")},
       .syn.nparams = 5, .impl = {infer_view, eval_alloc_tensor, NULL}, .flags = OP_NO_FOLD),
    OP(IR_OP_VM_KILL_OBJECT, "relax.vm.kill_object", .syn.impure = true, .syn.params = {E("obj")},
       .syn.nparams = 1, .impl = {infer_void, eval_kill, NULL}, .flags = OP_KILL),
    OP(IR_OP_VM_CALL_TIR_DYN, "relax.vm.call_tir_dyn", .syn.impure = true,
       .syn.params = {E("func"), PARAM("args", TUPLE, NULL)}, .syn.nparams = 2,
       .impl = {infer_void, NULL, NULL}),
    /* calls into other levels (R.call_tir and the packed calls are
     * evaluated by the interpreter, which has the module) */
    OP(IR_OP_CALL_TIR, "relax.call_tir",
       .syn.params = {E("gvar"), PARAM("args", TUPLE, NULL), PARAM("out_sinfo", SINFO, NULL),
                      PARAM("tir_vars", SHAPE, "None")},
       .syn.nparams = 4, .impl = {infer_out_sinfo, NULL, NULL}),
    OP(IR_OP_CALL_TIR_INPLACE, "relax.call_tir_inplace",
       .syn.params = {E("gvar"), PARAM("args", TUPLE, NULL), A("inplace_indices", NULL),
                      PARAM("out_sinfo", SINFO, NULL), PARAM("tir_vars", SHAPE, "None")},
       .syn.nparams = 5, .impl = {infer_call_tir_inplace, NULL, NULL}),
    /* R.call_tir naming the TE gradient TVM's Gradient pass would use */
    OP(IR_OP_CALL_TIR_WITH_GRAD, "relax.call_tir_with_grad",
       .syn.params = {E("gvar"), PARAM("args", TUPLE, NULL), PARAM("out_sinfo", SINFO, NULL),
                      A("te_grad_name", NULL), A("te_grad_kwargs", "{}")},
       .syn.nparams = 5, .impl = {infer_out_sinfo, NULL, legalize_call_tir_with_grad}),
    OP(IR_OP_CALL_DPS_PACKED, "relax.call_dps_packed",
       .syn.params = {E("func"), PARAM("args", TUPLE, NULL), PARAM("out_sinfo", SINFO, NULL)},
       .syn.nparams = 3, .impl = {infer_out_sinfo, NULL, NULL}, .flags = OP_NO_FOLD),
    OP(IR_OP_CALL_PURE_PACKED, "relax.call_pure_packed",
       .syn.params = {E("func"), PARAM("args", VARARGS, NULL), PARAM("sinfo_args", SINFO, NULL)},
       .syn.nparams = 3, .impl = {infer_out_sinfo, NULL, NULL}, .flags = OP_NO_FOLD),
    /* the calls below need TVM's runtime (the top of the file) */
    OP(IR_OP_CALL_INPLACE_PACKED, "relax.call_inplace_packed",
       .syn.params = {E("func"), PARAM("args", VARARGS, NULL), A("inplace_indices", NULL),
                      PARAM("sinfo_args", SINFO, NULL)},
       .syn.nparams = 4, .impl = {infer_out_sinfo, NULL, NULL}, .flags = OP_NO_FOLD),
    OP(IR_OP_CALL_BUILTIN_WITH_CTX, "relax.call_builtin_with_ctx", .syn.impure = true,
       .syn.params = {E("func"), PARAM("args", TUPLE, NULL), PARAM("sinfo_args", SINFO, "None")},
       .syn.nparams = 3, .impl = {infer_sinfo_args, NULL, NULL}, .flags = OP_NO_FOLD),
    OP(IR_OP_MAKE_CLOSURE, "relax.make_closure",
       .syn.params = {E("func"), PARAM("args", TUPLE, NULL)}, .syn.nparams = 2,
       .impl = {infer_object, NULL, NULL}, .flags = OP_NO_FOLD),
    OP(IR_OP_INVOKE_CLOSURE, "relax.invoke_closure", .syn.impure = true,
       .syn.params = {E("closure"), PARAM("args", TUPLE, NULL), PARAM("sinfo_args", SINFO, NULL)},
       .syn.nparams = 3, .impl = {infer_sinfo_args, NULL, NULL}, .flags = OP_NO_FOLD),
    OP(IR_OP_INVOKE_PURE_CLOSURE, "relax.invoke_pure_closure",
       .syn.params = {E("closure"), PARAM("args", TUPLE, NULL), PARAM("sinfo_args", SINFO, NULL)},
       .syn.nparams = 3, .impl = {infer_sinfo_args, NULL, NULL}, .flags = OP_NO_FOLD),
    /* devices and effects */
    OP(IR_OP_HINT_ON_DEVICE, "relax.hint_on_device",
       .syn.params = {E("data"), A("dev_type", NULL), A("index", "0"),
                      A("memory_scope", "\"global\"")},
       .syn.nparams = 4, .impl = {infer_hint_on_device, eval_identity, legalize_identity}, .flags = OP_NO_FOLD),
    OP(IR_OP_TO_VDEVICE, "relax.to_vdevice", .syn.params = {E("data"), A("dst_vdevice", NULL)},
       .syn.nparams = 2, .impl = {infer_to_vdevice, eval_identity, legalize_identity}, .flags = OP_NO_FOLD),
    OP(IR_OP_PRINT, "relax.print", .syn.impure = true,
       .syn.params = {PARAM("values", VARARGS, NULL), A("format", "\"\"")}, .syn.nparams = 2,
       .impl = {infer_void, eval_print, NULL}),
    OP(IR_OP_ASSERT_OP, "relax.assert_op", .syn.impure = true,
       .syn.params = {E("condition"), PARAM("format_args", VARARGS, NULL), A("format", "\"\"")},
       .syn.nparams = 3, .impl = {infer_assert, eval_assert, NULL}),
};

const OpTable op_builtin_table = {defs, sizeof defs / sizeof defs[0]};

int64_t
op_inplace_index(const IrExpr *call, int k)
{
  const IrAttr *a = ir_attr_get(call->u.call.attrs, "inplace_indices");
  if (!a)
    return -1;
  if (a->kind == IR_AT_INT)
    return k == 0 ? a->u.i : -1;
  if (a->kind == IR_AT_LIST && k < a->u.list.n && a->u.list.items[k]->kind == IR_AT_INT)
    return a->u.list.items[k]->u.i;
  return -1;
}
