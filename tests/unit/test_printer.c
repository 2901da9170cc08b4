/*
 * test_printer.c - the TVMScript printer against hand-written expected text.
 *
 * Each test builds a module (or a lone expression or struct info) with the
 * constructors of ir/node.c, filling node fields directly where there is no
 * constructor, and compares the printed text with the text
 * docs/text-format.md specifies, written out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../ir/ir.h"
#include "../../ops/op.h"

static const IrLoc L = {0};
static const IrDType F16 = {IR_DT_FLOAT, 16, 1};
static const IrDType F64 = {IR_DT_FLOAT, 64, 1};
static const IrDType I8 = {IR_DT_INT, 8, 1};
static const IrDType U8 = {IR_DT_UINT, 8, 1};

#define HEADER                                                                                     \
  "# from tvm.script import ir as I\n"                                                             \
  "# from tvm.script import tir as T\n"                                                            \
  "# from tvm.script import relax as R\n"                                                          \
  "\n"                                                                                             \
  "@I.ir_module\n"                                                                                 \
  "class Module:\n"

/* --- builders -------------------------------------------------------------- */

static void **
array(IrCtx *c, int n, va_list ap)
{
  void **a = ir_alloc(c, sizeof(void *) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    a[i] = va_arg(ap, void *);
  return a;
}

static IrPrimExpr **
dims(IrCtx *c, int n, ...)
{
  va_list ap;
  va_start(ap, n);
  void **a = array(c, n, ap);
  va_end(ap);
  return (IrPrimExpr **)a;
}

static IrExpr **
exprs(IrCtx *c, int n, ...)
{
  va_list ap;
  va_start(ap, n);
  void **a = array(c, n, ap);
  va_end(ap);
  return (IrExpr **)a;
}

static IrSInfo **
sinfos(IrCtx *c, int n, ...)
{
  va_list ap;
  va_start(ap, n);
  void **a = array(c, n, ap);
  va_end(ap);
  return (IrSInfo **)a;
}

static IrPrimExpr *
i64(IrCtx *c, int64_t v)
{
  return ir_prim_int(c, IR_I64, v);
}

static IrPrimExpr *
i32(IrCtx *c, int64_t v)
{
  return ir_prim_int(c, IR_I32, v);
}

static IrSInfo *
tensor(IrCtx *c, IrDType t, IrPrimExpr **shape, int ndim)
{
  return ir_sinfo_tensor(c, shape, ndim, t, -1);
}

static IrExpr *
var(IrCtx *c, const char *name, IrSInfo *s)
{
  return ir_var_new(c, ir_sym(c, name), s, false, L);
}

static IrExpr *
dfvar(IrCtx *c, const char *name, IrSInfo *s)
{
  return ir_var_new(c, ir_sym(c, name), s, true, L);
}

static IrExpr *
op(IrCtx *c, const char *name, IrExpr **args, int n, IrAttr *attrs)
{
  const IrOpDef *def = &op_find(name)->syn;
  assert_non_null(def);
  return ir_call_op(c, def, args, n, attrs, L);
}

static IrAttr *
dict1(IrCtx *c, const char *key, IrAttr *value)
{
  IrSym k = ir_sym(c, key);
  return ir_attr_dict(c, &k, &value, 1);
}

/* Bindings: var0, value0, var1, value1, ... */
static IrBindingBlock
block(IrCtx *c, bool dataflow, int n, ...)
{
  va_list ap;
  IrBindingBlock b = {.n = n, .dataflow = dataflow};
  b.bindings = ir_alloc(c, sizeof *b.bindings * (size_t)n);
  va_start(ap, n);
  for (int i = 0; i < n; i++) {
    b.bindings[i].var = va_arg(ap, IrExpr *);
    b.bindings[i].value = va_arg(ap, IrExpr *);
  }
  va_end(ap);
  return b;
}

static IrExpr *
seq(IrCtx *c, IrBindingBlock *blocks, int n, IrExpr *result)
{
  IrExpr *e = ir_expr_new(c, IR_EX_SEQ, L);
  e->u.seq.blocks = ir_alloc(c, sizeof *blocks * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    e->u.seq.blocks[i] = blocks[i];
  e->u.seq.nblocks = n;
  e->u.seq.result = result;
  return e;
}

static IrFunction *
function(IrCtx *c, IrExpr **params, int n, IrSInfo *ret, IrExpr *body)
{
  IrFunction *f = ir_alloc(c, sizeof *f);
  f->params = params;
  f->nparams = n;
  f->ret = ret;
  f->body = body;
  f->pure = true;
  return f;
}

static IrModule *
module(IrCtx *c, int n)
{
  IrModule *m = ir_alloc(c, sizeof *m);
  m->name = ir_sym(c, "Module");
  m->globals = ir_alloc(c, sizeof *m->globals * (size_t)n);
  return m;
}

static void
add_relax(IrCtx *c, IrModule *m, const char *name, IrFunction *f)
{
  IrGlobal *g = &m->globals[m->nglobals++];
  g->name = ir_sym(c, name);
  g->kind = IR_GLOBAL_RELAX;
  g->u.relax = f;
}

static void
add_prim(IrCtx *c, IrModule *m, const char *name, IrPrimFunc *f)
{
  IrGlobal *g = &m->globals[m->nglobals++];
  g->name = ir_sym(c, name);
  g->kind = IR_GLOBAL_PRIM;
  g->u.prim = f;
}

static IrExpr *
global(IrCtx *c, const char *name)
{
  IrExpr *e = ir_expr_new(c, IR_EX_GLOBAL, L);
  e->u.global = ir_sym(c, name);
  return e;
}

static IrExpr *
tuple(IrCtx *c, IrExpr **items, int n)
{
  IrExpr *e = ir_expr_new(c, IR_EX_TUPLE, L);
  e->u.tuple.items = items;
  e->u.tuple.n = n;
  return e;
}

static IrExpr *
constant(IrCtx *c, IrDType t, const void *data, size_t nbytes, int ndim, ...)
{
  va_list ap;
  IrExpr *e = ir_expr_new(c, IR_EX_CONST, L);
  e->u.constant.dtype = t;
  e->u.constant.ndim = ndim;
  e->u.constant.shape = ir_alloc(c, sizeof(int64_t) * (size_t)(ndim ? ndim : 1));
  va_start(ap, ndim);
  for (int i = 0; i < ndim; i++)
    e->u.constant.shape[i] = va_arg(ap, int64_t);
  va_end(ap);
  e->u.constant.data = ir_alloc(c, nbytes ? nbytes : 1);
  memcpy(e->u.constant.data, data, nbytes);
  e->u.constant.nbytes = nbytes;
  return e;
}

/* --- comparing ------------------------------------------------------------- */

static void
expect_text(const char *got, const char *want)
{
  if (strcmp(got, want) != 0)
    printf("--- expected\n%s--- got\n%s---\n", want, got);
  assert_string_equal(got, want);
}

static void
expect_module(const IrModule *m, const char *want)
{
  IrBuf b = {0};
  ir_module_print(m, &b);
  ir_buf_put(&b, "", 0);
  expect_text(b.data, want);
  /* the same module prints the same bytes */
  IrBuf again = {0};
  ir_module_print(m, &again);
  assert_string_equal(b.data, again.data);
  ir_buf_free(&b);
  ir_buf_free(&again);
}

static void
expect_prim(const IrPrimExpr *e, const char *want)
{
  IrBuf b = {0};
  ir_prim_expr_print(e, &b);
  ir_buf_put(&b, "", 0);
  expect_text(b.data, want);
  ir_buf_free(&b);
}

static void
expect_sinfo(const IrSInfo *s, const char *want)
{
  IrBuf b = {0};
  ir_sinfo_print(s, &b);
  ir_buf_put(&b, "", 0);
  expect_text(b.data, want);
  ir_buf_free(&b);
}

/* --- Relax ------------------------------------------------------------------ */

static void
test_symbolic_shapes(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrPrimExpr *n = ir_prim_var(c, ir_sym(c, "n"), IR_I64);
  IrPrimExpr *m = ir_prim_var(c, ir_sym(c, "m"), IR_I64);
  IrPrimExpr *k = ir_prim_var(c, ir_sym(c, "k"), IR_I32);
  IrSInfo *xs = tensor(c, IR_F32, dims(c, 2, n, i64(c, 4)), 2);
  IrPrimExpr *two_n = ir_prim_bin(c, IR_PE_MUL, i64(c, 2), n);
  IrExpr *x = var(c, "x", xs);
  IrExpr *y = var(c, "y", tensor(c, IR_F32, dims(c, 1, two_n), 1));
  IrExpr *lv = var(c, "lv", xs);
  IrExpr *lv1 = var(c, "lv1", tensor(c, IR_F32, dims(c, 1, ir_prim_bin(c, IR_PE_ADD, m, k)), 1));
  IrExpr *s = var(c, "s", ir_sinfo_shape(c, dims(c, 2, m, i64(c, 1)), 2));
  IrBindingBlock b = block(c, false, 3, lv, op(c, "R.add", exprs(c, 2, x, x), 2, NULL), lv1,
                           op(c, "R.exp", exprs(c, 1, y), 1, NULL), s,
                           ir_shape_expr(c, dims(c, 2, m, i64(c, 1)), 2, L));
  IrFunction *f = function(c, exprs(c, 2, x, y), 2, xs, seq(c, &b, 1, lv));
  IrSym ub = ir_sym(c, "tir_var_upper_bound");
  f->attrs = dict1(c, ub, dict1(c, "n", ir_attr_int(c, 1024)));
  IrModule *mod = module(c, 1);
  add_relax(c, mod, "main", f);
  expect_module(
      mod,
      HEADER "    @R.function\n"
             "    def main(x: R.Tensor((\"n\", 4), dtype=\"float32\"), y: R.Tensor((\"2 * n\",), "
             "dtype=\"float32\")) -> R.Tensor((\"n\", 4), dtype=\"float32\"):\n"
             "        n = T.int64()\n"
             "        m = T.int64()\n"
             "        k = T.int32()\n"
             "        R.func_attr({\"tir_var_upper_bound\": {\"n\": 1024}})\n"
             "        lv: R.Tensor((n, 4), dtype=\"float32\") = R.add(x, x)\n"
             "        lv1: R.Tensor((m + k,), dtype=\"float32\") = R.exp(y)\n"
             "        s: R.Shape([m, 1]) = R.shape([m, 1])\n"
             "        return lv\n");
  ir_ctx_free(c);
}

static void
test_dataflow_and_tuples(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrSInfo *t4 = tensor(c, IR_F32, dims(c, 1, i64(c, 4)), 1);
  IrExpr *x = var(c, "x", t4);
  IrExpr *lv = dfvar(c, "lv", t4);
  IrExpr *lv1 = dfvar(c, "lv1", NULL);
  IrExpr *lv2 = dfvar(c, "lv2", NULL);
  IrExpr *lv3 = dfvar(c, "lv3", NULL);
  IrExpr *gv = var(c, "gv", t4);
  IrExpr *gv1 = var(c, "gv1", ir_sinfo_tuple(c, sinfos(c, 2, t4, ir_sinfo_object(c)), 2));
  IrExpr *get = ir_expr_new(c, IR_EX_GET, L);
  get->u.get.tuple = lv1;
  get->u.get.index = 1;
  IrBindingBlock blocks[2];
  blocks[0] = block(c, true, 6, lv, op(c, "R.exp", exprs(c, 1, x), 1, NULL), lv1,
                    tuple(c, exprs(c, 2, lv, x), 2), lv2, tuple(c, exprs(c, 1, x), 1), lv3,
                    tuple(c, NULL, 0), gv, get, gv1, tuple(c, exprs(c, 2, gv, lv2), 2));
  blocks[1] = block(c, true, 0);
  IrModule *mod = module(c, 1);
  add_relax(
      c, mod, "main",
      function(c, exprs(c, 1, x), 1, NULL, seq(c, blocks, 2, tuple(c, exprs(c, 2, gv, gv1), 2))));
  expect_module(
      mod,
      HEADER "    @R.function\n"
             "    def main(x: R.Tensor((4,), dtype=\"float32\")):\n"
             "        with R.dataflow():\n"
             "            lv: R.Tensor((4,), dtype=\"float32\") = R.exp(x)\n"
             "            lv1 = (lv, x)\n"
             "            lv2 = (x,)\n"
             "            lv3 = R.tuple()\n"
             "            gv: R.Tensor((4,), dtype=\"float32\") = lv1[1]\n"
             "            gv1: R.Tuple(R.Tensor((4,), dtype=\"float32\"), R.Object) = (gv, lv2)\n"
             "            R.output(gv, gv1)\n"
             "        with R.dataflow():\n"
             "            R.output()\n"
             "        return (gv, gv1)\n");
  ir_ctx_free(c);
}

static void
test_op_attributes(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrExpr *x = var(c, "x", tensor(c, IR_F32, NULL, 2));
  IrAttr *one = ir_attr_int(c, 1);
  IrSym keys[2] = {ir_sym(c, "keepdims"), ir_sym(c, "axis")};
  IrAttr *vals[2] = {ir_attr_bool(c, false), ir_attr_list(c, &one, 1)};
  IrAttr *conv_attrs = dict1(c, "groups", ir_attr_int(c, 2));
  IrExpr *a = var(c, "a", NULL), *b = var(c, "b", NULL), *d = var(c, "d", NULL);
  IrExpr *e = var(c, "e", NULL), *g = var(c, "g", NULL), *h = var(c, "h", NULL);
  IrExpr *i = var(c, "i", NULL), *j = var(c, "j", NULL), *k = var(c, "k", NULL);
  IrExpr *pp = op(c, "R.call_pure_packed", exprs(c, 2, NULL, x), 2, NULL);
  IrExpr *ext = ir_expr_new(c, IR_EX_EXTERN, L);
  ext->u.global = ir_sym(c, "my_func");
  pp->u.call.args[0] = ext;
  pp->u.call.sinfo_args = sinfos(c, 1, tensor(c, IR_F32, NULL, 2));
  pp->u.call.nsinfo_args = 1;
  IrSym hk[2] = {ir_sym(c, "dev_type"), ir_sym(c, "index")};
  IrAttr *hv[2] = {ir_attr_int(c, 1), ir_attr_int(c, 0)};
  IrBindingBlock blk = block(
      c, false, 9, a, op(c, "R.sum", exprs(c, 1, x), 1, ir_attr_dict(c, keys, vals, 2)), b,
      op(c, "R.nn.conv2d", exprs(c, 2, x, x), 2, conv_attrs), d,
      op(c, "R.astype", exprs(c, 1, x), 1, dict1(c, "dtype", ir_attr_str(c, ir_sym(c, "float16")))),
      e, op(c, "R.permute_dims", exprs(c, 1, x), 1, NULL), g, pp, h,
      op(c, "R.hint_on_device", exprs(c, 1, x), 1, ir_attr_dict(c, hk, hv, 2)), i,
      op(c, "R.nn.layer_norm", exprs(c, 3, x, x, x), 3,
         dict1(c, "epsilon", ir_attr_float(c, 1e-5))),
      j,
      op(c, "R.clip",
         exprs(c, 3, x, ir_prim_value(c, i64(c, 0), L),
               ir_prim_value(c, ir_prim_float(c, IR_F32, 6.0), L)),
         3, NULL),
      k,
      op(c, "R.concat", exprs(c, 1, tuple(c, exprs(c, 2, x, x), 2)), 1,
         dict1(c, "axis", ir_attr_int(c, -1))));
  IrModule *mod = module(c, 1);
  add_relax(c, mod, "f", function(c, exprs(c, 1, x), 1, NULL, seq(c, &blk, 1, k)));
  expect_module(
      mod, HEADER
      "    @R.function\n"
      "    def f(x: R.Tensor(dtype=\"float32\", ndim=2)):\n"
      "        a = R.sum(x, axis=[1], keepdims=False)\n"
      "        b = R.nn.conv2d(x, x, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], "
      "groups=2, data_layout=\"NCHW\", kernel_layout=\"OIHW\", out_layout=None, "
      "out_dtype=\"void\")\n"
      "        d = R.astype(x, dtype=\"float16\")\n"
      "        e = R.permute_dims(x, axes=None)\n"
      "        g = R.call_pure_packed(\"my_func\", x, sinfo_args=(R.Tensor(dtype=\"float32\", "
      "ndim=2),))\n"
      "        h = R.hint_on_device(x, R.device(dev_type=1, index=0))\n"
      "        i = R.nn.layer_norm(x, x, x, axes=None, epsilon=1e-05, center=True, scale=True)\n"
      "        j = R.clip(x, R.prim_value(0), R.prim_value(T.float32(6.0)))\n"
      "        k = R.concat((x, x), axis=-1)\n"
      "        return k\n");
  ir_ctx_free(c);
}

static void
test_effects_and_packed(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrExpr *x = var(c, "x", tensor(c, IR_F32, NULL, -1));
  IrExpr *u1 = var(c, "_", NULL), *u2 = var(c, "_", NULL),
         *u3 = var(c, "_", ir_sinfo_tuple(c, NULL, 0));
  IrExpr *p = var(c, "p", ir_sinfo_object(c));
  IrExpr *fmt = ir_str_imm(c, ir_sym(c, "x={}\n"), L);
  (void)fmt;
  IrExpr *print =
      op(c, "R.print", exprs(c, 1, x), 1, dict1(c, "format", ir_attr_str(c, ir_sym(c, "{}"))));
  IrExpr *cond = var(c, "cond", ir_sinfo_prim(c, IR_BOOL, NULL));
  IrExpr *as = op(c, "R.assert_op", exprs(c, 2, cond, x), 2,
                  dict1(c, "format", ir_attr_str(c, ir_sym(c, "x=\"{}\"\n"))));
  IrExpr *packed = ir_expr_new(c, IR_EX_CALL, L);
  IrExpr *ext = ir_expr_new(c, IR_EX_EXTERN, L);
  ext->u.global = ir_sym(c, "vm.builtin.f");
  packed->u.call.kind = IR_CALL_EXTERN;
  packed->u.call.callee = ext;
  packed->u.call.args = exprs(c, 2, x, ir_prim_value(c, i32(c, 3), L));
  packed->u.call.nargs = 2;
  packed->u.call.sinfo_args = sinfos(c, 1, ir_sinfo_object(c));
  packed->u.call.nsinfo_args = 1;
  IrBindingBlock blk = block(c, false, 4, u1, print, u2, as, p, packed, u3,
                             op(c, "R.memory.kill_tensor", exprs(c, 1, x), 1, NULL));
  IrFunction *f = function(c, exprs(c, 2, x, cond), 2, NULL, seq(c, &blk, 1, x));
  f->pure = false;
  f->is_private = true;
  IrModule *mod = module(c, 1);
  add_relax(c, mod, "effects", f);
  expect_module(
      mod,
      HEADER "    @R.function(pure=False, private=True)\n"
             "    def effects(x: R.Tensor(dtype=\"float32\"), cond: R.Prim(\"bool\")):\n"
             "        R.print(x, format=\"{}\")\n"
             "        R.assert_op(cond, x, format=\"x=\\\"{}\\\"\\n\")\n"
             "        p: R.Object = R.call_packed(\"vm.builtin.f\", x, R.prim_value(T.int32(3)), "
             "sinfo_args=(R.Object,))\n"
             "        _: R.Tuple = R.memory.kill_tensor(x)\n"
             "        return x\n");
  ir_ctx_free(c);
}

static void
test_memory_ops(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrPrimExpr *n = ir_prim_var(c, ir_sym(c, "n"), IR_I64);
  IrSInfo *xs = tensor(c, IR_F32, dims(c, 2, i64(c, 2), n), 2);
  IrExpr *x = var(c, "x", xs);
  IrExpr *storage = var(c, "storage", ir_sinfo_object(c));
  IrExpr *y = var(c, "y", xs);
  IrExpr *k1 = var(c, "_", NULL), *k2 = var(c, "_", NULL);
  IrExpr *alloc_storage =
      op(c, "R.memory.alloc_storage",
         exprs(c, 4, ir_shape_expr(c, dims(c, 1, i64(c, 32)), 1, L), ir_prim_value(c, i64(c, 0), L),
               ir_str_imm(c, ir_sym(c, "global"), L), ir_dtype_imm(c, IR_F32, L)),
         4, NULL);
  IrExpr *alloc_tensor = op(c, "R.memory.alloc_tensor",
                            exprs(c, 5, storage, ir_prim_value(c, i64(c, 0), L),
                                  ir_shape_expr(c, dims(c, 2, i64(c, 2), n), 2, L),
                                  ir_dtype_imm(c, IR_F32, L), ir_prim_value(c, i64(c, 0), L)),
                            5, NULL);
  IrBindingBlock blk = block(c, false, 4, storage, alloc_storage, y, alloc_tensor, k1,
                             op(c, "R.memory.kill_tensor", exprs(c, 1, y), 1, NULL), k2,
                             op(c, "R.memory.kill_storage", exprs(c, 1, storage), 1, NULL));
  IrFunction *f = function(c, exprs(c, 1, x), 1, NULL, seq(c, &blk, 1, x));
  f->pure = false;
  IrModule *mod = module(c, 1);
  add_relax(c, mod, "main", f);
  expect_module(
      mod,
      HEADER "    @R.function(pure=False)\n"
             "    def main(x: R.Tensor((2, \"n\"), dtype=\"float32\")):\n"
             "        n = T.int64()\n"
             "        storage: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), "
             "R.str(\"global\"), R.dtype(\"float32\"))\n"
             "        y: R.Tensor((2, n), dtype=\"float32\") = R.memory.alloc_tensor(storage, "
             "R.prim_value(0), R.shape([2, n]), R.dtype(\"float32\"), R.prim_value(0))\n"
             "        R.memory.kill_tensor(y)\n"
             "        R.memory.kill_storage(storage)\n"
             "        return x\n");
  ir_ctx_free(c);
}

/* A prim func "add" over 2x3 float32 buffers, T.Buffer params. */
static IrPrimFunc *
add_prim_func(IrCtx *c)
{
  IrPrimFunc *f = ir_alloc(c, sizeof *f);
  IrPrimParam *params = ir_alloc(c, sizeof *params * 3);
  const char *names[3] = {"A", "B", "C"};
  for (int i = 0; i < 3; i++) {
    IrBuffer *b = ir_alloc(c, sizeof *b);
    b->name = ir_sym(c, names[i]);
    b->dtype = IR_F32;
    b->shape = dims(c, 2, i64(c, 2), i64(c, 3));
    b->ndim = 2;
    b->scope = ir_sym(c, "global");
    params[i].var = ir_prim_var(c, b->name, IR_HANDLE);
    params[i].buffer = b;
  }
  IrStmt *store = ir_stmt_new(c, IR_ST_STORE, L);
  IrPrimExpr *zero = i64(c, 0);
  store->u.store.buffer = params[2].buffer;
  store->u.store.indices = dims(c, 2, zero, zero);
  store->u.store.n = 2;
  store->u.store.value =
      ir_prim_bin(c, IR_PE_ADD, ir_prim_load(c, params[0].buffer, dims(c, 2, zero, zero), 2),
                  ir_prim_load(c, params[1].buffer, dims(c, 2, zero, zero), 2));
  f->params = params;
  f->nparams = 3;
  f->body = store;
  f->is_private = true;
  return f;
}

static void
test_call_tir(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrPrimExpr *n = ir_prim_var(c, ir_sym(c, "n"), IR_I64);
  IrSInfo *t23 = tensor(c, IR_F32, dims(c, 2, i64(c, 2), i64(c, 3)), 2);
  IrExpr *x = var(c, "x", t23), *y = var(c, "y", t23);
  IrExpr *lv = var(c, "lv", t23), *lv1 = var(c, "lv1", NULL), *lv2 = var(c, "lv2", NULL);
  IrExpr *ct =
      op(c, "R.call_tir", exprs(c, 2, global(c, "add"), tuple(c, exprs(c, 2, x, y), 2)), 2, NULL);
  ct->u.call.sinfo_args = sinfos(c, 1, t23);
  ct->u.call.nsinfo_args = 1;
  IrExpr *ct2 = op(c, "R.call_tir",
                   exprs(c, 3, global(c, "add"), tuple(c, exprs(c, 1, x), 1),
                         ir_shape_expr(c, dims(c, 1, n), 1, L)),
                   3, NULL);
  ct2->u.call.sinfo_args = sinfos(c, 2, t23, tensor(c, IR_F32, dims(c, 1, n), 1));
  ct2->u.call.nsinfo_args = 2;
  IrExpr *gcall = ir_expr_new(c, IR_EX_CALL, L);
  gcall->u.call.kind = IR_CALL_GLOBAL;
  gcall->u.call.callee = global(c, "helper");
  gcall->u.call.args = exprs(c, 1, lv);
  gcall->u.call.nargs = 1;
  IrBindingBlock blk = block(c, false, 3, lv, ct, lv1, ct2, lv2, gcall);
  IrExpr *nvar = var(c, "s", ir_sinfo_shape(c, dims(c, 1, n), 1));
  IrExpr *hx = var(c, "x", t23);
  IrModule *mod = module(c, 3);
  add_relax(c, mod, "main", function(c, exprs(c, 3, x, y, nvar), 3, t23, seq(c, &blk, 1, lv)));
  add_relax(c, mod, "helper", function(c, exprs(c, 1, hx), 1, t23, seq(c, NULL, 0, hx)));
  add_prim(c, mod, "add", add_prim_func(c));
  expect_module(
      mod, HEADER
      "    @T.prim_func(private=True)\n"
      "    def add(A: T.Buffer((T.int64(2), T.int64(3)), \"float32\"), B: T.Buffer((T.int64(2), "
      "T.int64(3)), \"float32\"), C: T.Buffer((T.int64(2), T.int64(3)), \"float32\")):\n"
      "        C[T.int64(0), T.int64(0)] = A[T.int64(0), T.int64(0)] + B[T.int64(0), T.int64(0)]\n"
      "\n"
      "    @R.function\n"
      "    def helper(x: R.Tensor((2, 3), dtype=\"float32\")) -> R.Tensor((2, 3), "
      "dtype=\"float32\"):\n"
      "        return x\n"
      "\n"
      "    @R.function\n"
      "    def main(x: R.Tensor((2, 3), dtype=\"float32\"), y: R.Tensor((2, 3), "
      "dtype=\"float32\"), "
      "s: R.Shape([\"n\"])) -> R.Tensor((2, 3), dtype=\"float32\"):\n"
      "        n = T.int64()\n"
      "        cls = Module\n"
      "        lv: R.Tensor((2, 3), dtype=\"float32\") = R.call_tir(cls.add, (x, y), "
      "out_sinfo=R.Tensor((2, 3), dtype=\"float32\"))\n"
      "        lv1 = R.call_tir(cls.add, (x,), out_sinfo=[R.Tensor((2, 3), dtype=\"float32\"), "
      "R.Tensor((n,), dtype=\"float32\")], tir_vars=R.shape([n]))\n"
      "        lv2 = cls.helper(lv)\n"
      "        return lv\n");
  ir_ctx_free(c);
}

static void
test_constants(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  float f1 = 1.5f;
  int32_t m22[4] = {1, 2, -3, 4};
  uint8_t bools[2] = {1, 0};
  float specials[4] = {NAN, -INFINITY, INFINITY, 0.1f};
  uint16_t halves[4] = {0x3c00, 0x3555, 0xfc00, 0x8000}; /* 1, 0.333251953125, -inf, -0 */
  double d = 0.1;
  int64_t big = INT64_MIN;
  uint8_t u = 255;
  int8_t cube[8] = {0, 1, 2, 3, 4, 5, 6, -128};
  float empty[1];
  const char *names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
  IrExpr *consts[10] = {
      constant(c, IR_F32, &f1, 4, 0),
      constant(c, IR_I32, m22, 16, 2, (int64_t)2, (int64_t)2),
      constant(c, IR_BOOL, bools, 2, 1, (int64_t)2),
      constant(c, IR_F32, specials, 16, 1, (int64_t)4),
      constant(c, F16, halves, 8, 1, (int64_t)4),
      constant(c, F64, &d, 8, 0),
      constant(c, IR_I64, &big, 8, 1, (int64_t)1),
      constant(c, U8, &u, 1, 0),
      constant(c, I8, cube, 8, 3, (int64_t)2, (int64_t)2, (int64_t)2),
      constant(c, IR_F32, empty, 0, 2, (int64_t)0, (int64_t)3),
  };
  IrBindingBlock blk = {.n = 10};
  blk.bindings = ir_alloc(c, sizeof *blk.bindings * 10);
  for (int i = 0; i < 10; i++) {
    blk.bindings[i].var = var(c, names[i], NULL);
    blk.bindings[i].value = consts[i];
  }
  IrModule *mod = module(c, 1);
  add_relax(c, mod, "consts", function(c, NULL, 0, NULL, seq(c, &blk, 1, blk.bindings[0].var)));
  expect_module(mod,
                HEADER "    @R.function\n"
                       "    def consts():\n"
                       "        a = R.const(1.5, \"float32\")\n"
                       "        b = R.const([[1, 2], [-3, 4]], \"int32\")\n"
                       "        c = R.const([True, False], \"bool\")\n"
                       "        d = R.const([\"nan\", \"-inf\", \"inf\", 0.1], \"float32\")\n"
                       "        e = R.const([1.0, 0.333251953125, \"-inf\", -0.0], \"float16\")\n"
                       "        f = R.const(0.1, \"float64\")\n"
                       "        g = R.const([-9223372036854775808], \"int64\")\n"
                       "        h = R.const(255, \"uint8\")\n"
                       "        i = R.const([[[0, 1], [2, 3]], [[4, 5], [6, -128]]], \"int8\")\n"
                       "        # rxc: cannot print the binding of j: a constant of this shape\n"
                       "        return a\n");
  ir_ctx_free(c);
}

static void
test_if_else(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrSInfo *t4 = tensor(c, IR_F32, dims(c, 1, i64(c, 4)), 1);
  IrExpr *x = var(c, "x", t4);
  IrExpr *cond = var(c, "cond", ir_sinfo_prim(c, IR_BOOL, NULL));
  IrExpr *y = var(c, "y", t4);
  IrExpr *lv1 = var(c, "lv1", t4);
  IrBindingBlock then_blk = block(c, false, 1, lv1, op(c, "R.add", exprs(c, 2, x, x), 2, NULL));
  IrExpr *br = ir_expr_new(c, IR_EX_IF, L);
  br->u.branch.cond = cond;
  br->u.branch.then_ = seq(c, &then_blk, 1, lv1);
  br->u.branch.else_ = seq(c, NULL, 0, op(c, "R.multiply", exprs(c, 2, x, x), 2, NULL));
  IrBindingBlock blk = block(c, false, 1, y, br);
  IrModule *mod = module(c, 1);
  add_relax(c, mod, "main", function(c, exprs(c, 2, cond, x), 2, t4, seq(c, &blk, 1, y)));
  expect_module(mod, HEADER
                "    @R.function\n"
                "    def main(cond: R.Prim(\"bool\"), x: R.Tensor((4,), dtype=\"float32\")) -> "
                "R.Tensor((4,), dtype=\"float32\"):\n"
                "        if cond:\n"
                "            lv1: R.Tensor((4,), dtype=\"float32\") = R.add(x, x)\n"
                "            y: R.Tensor((4,), dtype=\"float32\") = lv1\n"
                "        else:\n"
                "            y: R.Tensor((4,), dtype=\"float32\") = R.multiply(x, x)\n"
                "        return y\n");
  ir_ctx_free(c);
}

static void
test_match_cast_and_local_function(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrPrimExpr *m = ir_prim_var(c, ir_sym(c, "m"), IR_I64);
  IrSInfo *tm = tensor(c, IR_F32, dims(c, 1, m), 1);
  IrExpr *x = var(c, "x", tensor(c, IR_F32, NULL, 1));
  IrExpr *lv = var(c, "lv", tm);
  IrExpr *z = var(c, "z", tm);
  IrExpr *inner_x = var(c, "a", tm);
  IrExpr *inner_r = var(c, "r", tm);
  IrBindingBlock inner_blk =
      block(c, false, 1, inner_r, op(c, "R.nn.relu", exprs(c, 1, inner_x), 1, NULL));
  IrFunction *inner = function(c, exprs(c, 1, inner_x), 1, tm, seq(c, &inner_blk, 1, inner_r));
  IrExpr *fval = ir_expr_new(c, IR_EX_FUNC, L);
  fval->u.func = inner;
  IrExpr *fvar = var(c, "relu_fn", ir_sinfo_func(c, sinfos(c, 1, tm), 1, tm, true));
  IrExpr *fcall = ir_expr_new(c, IR_EX_CALL, L);
  fcall->u.call.kind = IR_CALL_VAR;
  fcall->u.call.callee = fvar;
  fcall->u.call.args = exprs(c, 1, lv);
  fcall->u.call.nargs = 1;
  IrBindingBlock blk = block(c, false, 3, lv, x, fvar, fval, z, fcall);
  blk.bindings[0].cast = tm;
  IrModule *mod = module(c, 1);
  add_relax(c, mod, "main", function(c, exprs(c, 1, x), 1, NULL, seq(c, &blk, 1, z)));
  expect_module(
      mod,
      HEADER "    @R.function\n"
             "    def main(x: R.Tensor(dtype=\"float32\", ndim=1)):\n"
             "        m = T.int64()\n"
             "        lv: R.Tensor((m,), dtype=\"float32\") = R.match_cast(x, R.Tensor((m,), "
             "dtype=\"float32\"))\n"
             "        @R.function\n"
             "        def relu_fn(a: R.Tensor((\"m\",), dtype=\"float32\")) -> R.Tensor((\"m\",), "
             "dtype=\"float32\"):\n"
             "            r: R.Tensor((m,), dtype=\"float32\") = R.nn.relu(a)\n"
             "            return r\n"
             "        z: R.Tensor((m,), dtype=\"float32\") = relu_fn(lv)\n"
             "        return z\n");
  ir_ctx_free(c);
}

static void
test_module_attrs_and_vdevices(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrModule *mod = module(c, 2);
  mod->attrs = dict1(c, "system_lib_prefix", ir_attr_str(c, ir_sym(c, "lib_")));
  mod->vdevices = ir_alloc(c, sizeof *mod->vdevices * 3);
  mod->nvdevices = 3;
  IrSym tk[2] = {ir_sym(c, "kind"), ir_sym(c, "keys")};
  IrAttr *cpu = ir_attr_str(c, ir_sym(c, "cpu"));
  IrAttr *tv[2] = {ir_attr_str(c, ir_sym(c, "llvm")), ir_attr_list(c, &cpu, 1)};
  mod->vdevices[0] =
      (IrVDevice){ir_attr_dict(c, tk, tv, 2), ir_sym(c, "llvm"), 0, ir_sym(c, "global")};
  mod->vdevices[1] =
      (IrVDevice){ir_attr_str(c, ir_sym(c, "cuda")), ir_sym(c, "cuda"), 0, ir_sym(c, "global")};
  mod->vdevices[2] =
      (IrVDevice){ir_attr_str(c, ir_sym(c, "llvm")), ir_sym(c, "llvm"), 1, ir_sym(c, "local")};
  IrExpr *x = var(c, "x", ir_sinfo_tensor(c, dims(c, 2, i64(c, 2), i64(c, 3)), 2, IR_F32, 2));
  IrExpr *y = var(c, "y", ir_sinfo_tensor(c, NULL, -1, IR_VOID, 1));
  IrExpr *lv = var(c, "lv", NULL);
  IrBindingBlock blk =
      block(c, false, 1, lv,
            op(c, "R.to_vdevice", exprs(c, 1, x), 1, dict1(c, "dst_vdevice", ir_attr_int(c, 1))));
  add_relax(c, mod, "main", function(c, exprs(c, 2, x, y), 2, NULL, seq(c, &blk, 1, lv)));
  mod->globals[1].name = ir_sym(c, "ext");
  mod->globals[1].kind = IR_GLOBAL_EXTERN;
  mod->globals[1].u.extern_sym = ir_sym(c, "my_ext");
  mod->nglobals = 2;
  expect_module(
      mod, HEADER
      "    I.module_attrs({\"system_lib_prefix\": \"lib_\"})\n"
      "    I.module_global_infos({\"vdevice\": [I.vdevice({\"keys\": [\"cpu\"], \"kind\": "
      "\"llvm\"}, 0, "
      "\"global\"), I.vdevice(\"cuda\", 0, \"global\"), I.vdevice(\"llvm\", 1, \"local\")]})\n"
      "    ext = R.ExternFunc(\"my_ext\")\n"
      "\n"
      "    @R.function\n"
      "    def main(x: R.Tensor((2, 3), dtype=\"float32\", vdevice=\"llvm:1\"), "
      "y: R.Tensor(vdevice=\"cuda:0\")):\n"
      "        lv = R.to_vdevice(x, dst_vdevice=\"cuda:0\")\n"
      "        return lv\n");
  ir_ctx_free(c);
}

static void
test_global_order_and_renaming(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrModule *mod = module(c, 4);
  const char *names[3] = {"main", "b_fn", "a_fn"};
  for (int i = 0; i < 3; i++) {
    IrExpr *x = var(c, "x", ir_sinfo_object(c));
    IrExpr *x2 = var(c, "x", ir_sinfo_object(c)); /* same name, another var */
    IrExpr *cls = var(c, "cls", NULL);
    IrBindingBlock blk = block(c, false, 2, x2, x, cls, tuple(c, exprs(c, 2, x2, x), 2));
    add_relax(c, mod, names[i], function(c, exprs(c, 1, x), 1, NULL, seq(c, &blk, 1, cls)));
  }
  add_prim(c, mod, "z_prim", add_prim_func(c));
  IrBuf b = {0};
  ir_module_print(mod, &b);
  ir_buf_put(&b, "", 0);
  const char *prim = strstr(b.data, "def z_prim"), *a = strstr(b.data, "def a_fn");
  const char *bf = strstr(b.data, "def b_fn"), *mainf = strstr(b.data, "def main");
  assert_true(prim && a && bf && mainf);
  assert_true(prim < a && a < bf && bf < mainf);
  assert_non_null(strstr(b.data, "    def a_fn(x: R.Object):\n"
                                 "        x_1: R.Object = x\n"
                                 "        cls_ = (x_1, x)\n"
                                 "        return cls_\n"));
  ir_buf_free(&b);
  ir_ctx_free(c);
}

/* --- TIR -------------------------------------------------------------------- */

static IrBuffer *
buffer(IrCtx *c, const char *name, IrDType t, IrPrimExpr **shape, int ndim)
{
  IrBuffer *b = ir_alloc(c, sizeof *b);
  b->name = ir_sym(c, name);
  b->dtype = t;
  b->shape = shape;
  b->ndim = ndim;
  b->scope = ir_sym(c, "global");
  return b;
}

static IrStmt *
loop(IrCtx *c, IrPrimExpr *v, IrPrimExpr *min, IrPrimExpr *ext, IrForKind kind, IrStmt *body)
{
  IrStmt *s = ir_stmt_new(c, IR_ST_FOR, L);
  s->u.loop.var = v;
  s->u.loop.min = min;
  s->u.loop.extent = ext;
  s->u.loop.kind = kind;
  s->u.loop.body = body;
  return s;
}

static IrStmt *
store(IrCtx *c, IrBuffer *b, IrPrimExpr **idx, int n, IrPrimExpr *value)
{
  IrStmt *s = ir_stmt_new(c, IR_ST_STORE, L);
  s->u.store.buffer = b;
  s->u.store.indices = idx;
  s->u.store.n = n;
  s->u.store.value = value;
  return s;
}

/* A region of points v0, v1 (extent 1). */
static IrBufferRegion
points(IrCtx *c, IrBuffer *b, IrPrimExpr *v0, IrPrimExpr *v1)
{
  IrBufferRegion r = {b, ir_alloc(c, sizeof(IrRange) * 2), 2};
  r.ranges[0] = (IrRange){v0, i64(c, 1)};
  r.ranges[1] = (IrRange){v1, i64(c, 1)};
  return r;
}

static void
test_prim_func_matmul(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrPrimExpr *n = ir_prim_var(c, ir_sym(c, "n"), IR_I64);
  IrBuffer *A = buffer(c, "A", IR_F32, dims(c, 2, n, i64(c, 4)), 2);
  IrBuffer *B = buffer(c, "B", IR_F32, dims(c, 2, i64(c, 4), i64(c, 8)), 2);
  IrBuffer *C = buffer(c, "C", IR_F32, dims(c, 2, n, i64(c, 8)), 2);
  IrPrimExpr *i = ir_prim_var(c, ir_sym(c, "i"), IR_I64),
             *j = ir_prim_var(c, ir_sym(c, "j"), IR_I64);
  IrPrimExpr *k = ir_prim_var(c, ir_sym(c, "k"), IR_I64);
  IrPrimExpr *vi = ir_prim_var(c, ir_sym(c, "v_i"), IR_I64),
             *vj = ir_prim_var(c, ir_sym(c, "v_j"), IR_I64);
  IrPrimExpr *vk = ir_prim_var(c, ir_sym(c, "v_k"), IR_I64);
  IrTirBlock *blk = ir_alloc(c, sizeof *blk);
  blk->name = ir_sym(c, "C");
  blk->niters = 3;
  blk->iters = ir_alloc(c, sizeof *blk->iters * 3);
  blk->iters[0] = (IrIterVar){vi, {i64(c, 0), n}, IR_ITER_SPATIAL, i};
  blk->iters[1] = (IrIterVar){vj, {i64(c, 0), i64(c, 8)}, IR_ITER_SPATIAL, j};
  blk->iters[2] = (IrIterVar){vk, {i64(c, 0), i64(c, 4)}, IR_ITER_REDUCE, k};
  blk->has_access = true;
  blk->reads = ir_alloc(c, sizeof(IrBufferRegion) * 2);
  blk->reads[0] = points(c, A, vi, vk);
  blk->reads[1] = points(c, B, vk, vj);
  blk->nreads = 2;
  blk->writes = ir_alloc(c, sizeof(IrBufferRegion));
  blk->writes[0] = points(c, C, vi, vj);
  blk->nwrites = 1;
  blk->init = store(c, C, dims(c, 2, vi, vj), 2, ir_prim_float(c, IR_F32, 0.0));
  IrPrimExpr *prod = ir_prim_bin(c, IR_PE_MUL, ir_prim_load(c, A, dims(c, 2, vi, vk), 2),
                                 ir_prim_load(c, B, dims(c, 2, vk, vj), 2));
  blk->body = store(c, C, dims(c, 2, vi, vj), 2,
                    ir_prim_bin(c, IR_PE_ADD, ir_prim_load(c, C, dims(c, 2, vi, vj), 2), prod));
  IrStmt *bs = ir_stmt_new(c, IR_ST_BLOCK, L);
  bs->u.block = blk;
  IrStmt *body = loop(c, i, i64(c, 0), n, IR_FOR_SERIAL,
                      loop(c, j, i64(c, 0), i64(c, 8), IR_FOR_SERIAL,
                           loop(c, k, i64(c, 0), i64(c, 4), IR_FOR_SERIAL, bs)));
  IrPrimFunc *f = ir_alloc(c, sizeof *f);
  f->nparams = 3;
  f->params = ir_alloc(c, sizeof *f->params * 3);
  f->params[0] = (IrPrimParam){ir_prim_var(c, ir_sym(c, "a"), IR_HANDLE), A};
  f->params[1] = (IrPrimParam){ir_prim_var(c, ir_sym(c, "B"), IR_HANDLE), B};
  f->params[2] = (IrPrimParam){ir_prim_var(c, ir_sym(c, "c"), IR_HANDLE), C};
  f->attrs = dict1(c, "tir.noalias", ir_attr_bool(c, true));
  f->body = body;
  f->is_private = true;
  IrModule *mod = module(c, 1);
  add_prim(c, mod, "matmul", f);
  expect_module(mod,
                HEADER "    @T.prim_func(private=True)\n"
                       "    def matmul(a: T.handle, B: T.Buffer((T.int64(4), T.int64(8)), "
                       "\"float32\"), c: T.handle):\n"
                       "        T.func_attr({\"tir.noalias\": True})\n"
                       "        n = T.int64()\n"
                       "        A = T.match_buffer(a, (n, T.int64(4)), \"float32\")\n"
                       "        C = T.match_buffer(c, (n, T.int64(8)), \"float32\")\n"
                       "        for i, j, k in T.grid(n, T.int64(8), T.int64(4)):\n"
                       "            with T.block(\"C\"):\n"
                       "                v_i, v_j, v_k = T.axis.remap(\"SSR\", [i, j, k])\n"
                       "                T.reads(A[v_i, v_k], B[v_k, v_j])\n"
                       "                T.writes(C[v_i, v_j])\n"
                       "                with T.init():\n"
                       "                    C[v_i, v_j] = T.float32(0.0)\n"
                       "                C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * B[v_k, v_j]\n");
  ir_ctx_free(c);
}

static void
test_prim_func_explicit_axes(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrBuffer *A = buffer(c, "A", IR_F32, dims(c, 1, i32(c, 16)), 1);
  IrBuffer *buf = buffer(c, "A", IR_F32, dims(c, 1, i32(c, 16)), 1);
  IrBuffer *local = buffer(c, "B_local", IR_F32, dims(c, 1, i32(c, 4)), 1);
  local->scope = ir_sym(c, "local");
  IrPrimExpr *i = ir_prim_var(c, ir_sym(c, "i"), IR_I32),
             *j = ir_prim_var(c, ir_sym(c, "j"), IR_I32);
  IrPrimExpr *vi = ir_prim_var(c, ir_sym(c, "vi"), IR_I32),
             *vj = ir_prim_var(c, ir_sym(c, "vj"), IR_I32);
  IrTirBlock *blk = ir_alloc(c, sizeof *blk);
  blk->name = ir_sym(c, "B");
  blk->niters = 2;
  blk->iters = ir_alloc(c, sizeof *blk->iters * 2);
  blk->iters[0] = (IrIterVar){
      vi, {i32(c, 0), i32(c, 8)}, IR_ITER_SPATIAL, ir_prim_bin(c, IR_PE_FLOORDIV, i, i32(c, 2))};
  blk->iters[1] = (IrIterVar){vj, {i32(c, 2), i32(c, 4)}, IR_ITER_REDUCE, j};
  blk->has_access = true;
  blk->reads = ir_alloc(c, sizeof(IrBufferRegion));
  blk->reads[0] = (IrBufferRegion){buf, ir_alloc(c, sizeof(IrRange)), 1};
  blk->reads[0].ranges[0] = (IrRange){i32(c, 0), i32(c, 16)};
  blk->nreads = 1;
  blk->writes = ir_alloc(c, sizeof(IrBufferRegion));
  blk->writes[0] = (IrBufferRegion){buf, ir_alloc(c, sizeof(IrRange)), 1};
  blk->writes[0].ranges[0] = (IrRange){vi, ir_prim_var(c, ir_sym(c, "w"), IR_I32)};
  blk->nwrites = 1;
  blk->attrs = dict1(c, "meta", ir_attr_int(c, 1));
  blk->allocs = ir_alloc(c, sizeof(IrBuffer *));
  blk->allocs[0] = local;
  blk->nallocs = 1;
  blk->body = store(c, buf, dims(c, 1, vi), 1, ir_prim_load(c, local, dims(c, 1, vj), 1));
  IrStmt *bs = ir_stmt_new(c, IR_ST_BLOCK, L);
  bs->u.block = blk;
  IrStmt *inner = loop(c, j, i32(c, 2), i32(c, 4), IR_FOR_SERIAL, bs);
  IrStmt *outer = loop(c, i, i32(c, 0), i32(c, 16), IR_FOR_PARALLEL, inner);
  IrPrimFunc *f = ir_alloc(c, sizeof *f);
  f->nparams = 1;
  f->params = ir_alloc(c, sizeof *f->params);
  f->params[0] = (IrPrimParam){ir_prim_var(c, ir_sym(c, "A"), IR_HANDLE), A};
  f->body = outer;
  (void)buf;
  f->params[0].buffer = buf;
  IrModule *mod = module(c, 1);
  add_prim(c, mod, "axes", f);
  expect_module(mod, HEADER
                "    @T.prim_func\n"
                "    def axes(A: T.Buffer((16,), \"float32\")):\n"
                "        w = T.int32()\n"
                "        for i in T.parallel(16):\n"
                "            for j in range(2, 2 + 4):\n"
                "                with T.block(\"B\"):\n"
                "                    vi = T.axis.spatial(8, i // 2)\n"
                "                    vj = T.axis.reduce((2, 2 + 4), j)\n"
                "                    T.reads(A[0:16])\n"
                "                    T.writes(A[vi:vi + w])\n"
                "                    T.block_attr({\"meta\": 1})\n"
                "                    B_local = T.alloc_buffer((4,), \"float32\", scope=\"local\")\n"
                "                    A[vi] = B_local[vj]\n");
  ir_ctx_free(c);
}

static void
test_prim_func_statements(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrPrimExpr *n = ir_prim_var(c, ir_sym(c, "n"), IR_I32);
  IrPrimExpr *handle = ir_prim_var(c, ir_sym(c, "A"), IR_HANDLE);
  IrBuffer *A = buffer(c, "A", IR_F32, dims(c, 1, n), 1);
  IrBuffer *tmp = buffer(c, "tmp", IR_F32, dims(c, 1, n), 1);
  IrPrimExpr *i = ir_prim_var(c, ir_sym(c, "i"), IR_I32);
  IrPrimExpr *x = ir_prim_var(c, ir_sym(c, "x"), IR_I32);
  IrPrimExpr *cond =
      ir_prim_bin(c, IR_PE_AND, ir_prim_bin(c, IR_PE_LT, x, n),
                  ir_prim_bin(c, IR_PE_NOT, ir_prim_bin(c, IR_PE_EQ, x, i32(c, 3)), NULL));
  IrPrimExpr *exp_arg = ir_prim_cast(c, IR_F32, x);
  IrPrimExpr *e = ir_prim_call(c, IR_F32, ir_sym(c, "tir.exp"), dims(c, 1, exp_arg), 1);
  IrPrimExpr *sum = ir_prim_bin(c, IR_PE_ADD, ir_prim_load(c, A, dims(c, 1, i), 1),
                                ir_prim_float(c, IR_F32, 1.0));
  IrStmt *then_ = store(c, tmp, dims(c, 1, i), 1, ir_prim_bin(c, IR_PE_MUL, e, sum));
  IrStmt *eval = ir_stmt_new(c, IR_ST_EVALUATE, L);
  eval->u.eval =
      ir_prim_call(c, IR_F32, ir_sym(c, "tir.if_then_else"),
                   dims(c, 3, ir_prim_bin(c, IR_PE_GT, i, i32(c, 0)), ir_prim_float(c, IR_F32, NAN),
                        ir_prim_float(c, IR_F32, -INFINITY)),
                   3);
  IrStmt *branch = ir_stmt_new(c, IR_ST_IF, L);
  branch->u.branch.cond = cond;
  branch->u.branch.then_ = then_;
  branch->u.branch.else_ = eval;
  IrStmt *let = ir_stmt_new(c, IR_ST_LET, L);
  let->u.let.var = x;
  let->u.let.value = ir_prim_bin(c, IR_PE_ADD, i, i32(c, 1));
  let->u.let.body = branch;
  IrStmt *lp = loop(c, i, i32(c, 0), n, IR_FOR_SERIAL, let);
  lp->u.loop.annotations = dict1(c, "pragma_unroll", ir_attr_bool(c, true));
  IrStmt *alloc = ir_stmt_new(c, IR_ST_ALLOC, L);
  alloc->u.alloc.buffer = tmp;
  alloc->u.alloc.body = lp;
  IrPrimFunc *f = ir_alloc(c, sizeof *f);
  f->nparams = 2;
  f->params = ir_alloc(c, sizeof *f->params * 2);
  f->params[0] = (IrPrimParam){handle, A};
  f->params[1] = (IrPrimParam){n, NULL};
  f->body = alloc;
  IrModule *mod = module(c, 1);
  add_prim(c, mod, "stmts", f);
  expect_module(mod, HEADER
                "    @T.prim_func\n"
                "    def stmts(var_A: T.handle, n: T.int32):\n"
                "        A = T.match_buffer(var_A, (n,), \"float32\")\n"
                "        tmp = T.alloc_buffer((n,), \"float32\")\n"
                "        for i in T.serial(n, annotations={\"pragma_unroll\": True}):\n"
                "            x: T.int32 = i + 1\n"
                "            if x < n and not x == 3:\n"
                "                tmp[i] = T.exp(T.Cast(\"float32\", x)) * (A[i] + T.float32(1.0))\n"
                "            else:\n"
                "                T.evaluate(T.if_then_else(i > 0, T.float32(\"nan\"), "
                "T.float32(\"-inf\")))\n");
  ir_ctx_free(c);
}

static void
test_prim_literals_in_tir(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrBuffer *A = buffer(c, "A", IR_F32, dims(c, 1, i32(c, 8)), 1);
  IrPrimExpr *vals[8] = {
      i32(c, -1),
      ir_prim_cast(c, IR_F32, i64(c, 3)),
      ir_prim_cast(c, IR_F32, ir_prim_int(c, I8, -3)),
      ir_prim_cast(c, IR_F32, ir_prim_int(c, U8, 200)),
      ir_prim_cast(c, IR_F32, ir_prim_int(c, IR_BOOL, 1)),
      ir_prim_float(c, IR_F32, 0.5),
      ir_prim_cast(c, IR_F32, ir_prim_float(c, F16, 0.5)),
      ir_prim_float(c, IR_F32, (float)0.1),
  };
  IrStmt *seq = ir_stmt_new(c, IR_ST_SEQ, L);
  seq->u.seq.stmts = ir_alloc(c, sizeof(IrStmt *) * 8);
  seq->u.seq.n = 8;
  for (int k = 0; k < 8; k++)
    seq->u.seq.stmts[k] = store(c, A, dims(c, 1, i32(c, k)), 1, vals[k]);
  seq->u.seq.stmts[0] = store(c, A, dims(c, 1, i32(c, -1)), 1, ir_prim_float(c, IR_F32, 2.0));
  IrPrimFunc *f = ir_alloc(c, sizeof *f);
  f->nparams = 1;
  f->params = ir_alloc(c, sizeof *f->params);
  f->params[0] = (IrPrimParam){ir_prim_var(c, ir_sym(c, "A"), IR_HANDLE), A};
  f->body = seq;
  IrModule *mod = module(c, 1);
  add_prim(c, mod, "lits", f);
  expect_module(mod, HEADER "    @T.prim_func\n"
                            "    def lits(A: T.Buffer((8,), \"float32\")):\n"
                            "        A[-1] = T.float32(2.0)\n"
                            "        A[1] = T.Cast(\"float32\", T.int64(3))\n"
                            "        A[2] = T.Cast(\"float32\", T.int8(-3))\n"
                            "        A[3] = T.Cast(\"float32\", T.uint8(200))\n"
                            "        A[4] = T.Cast(\"float32\", T.bool(True))\n"
                            "        A[5] = T.float32(0.5)\n"
                            "        A[6] = T.Cast(\"float32\", T.float16(0.5))\n"
                            "        A[7] = T.float32(0.1)\n");
  ir_ctx_free(c);
}

static void
test_precedence(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrPrimExpr *a = ir_prim_var(c, ir_sym(c, "a"), IR_I64),
             *b = ir_prim_var(c, ir_sym(c, "b"), IR_I64);
  IrPrimExpr *x = ir_prim_var(c, ir_sym(c, "x"), IR_I64);
  IrPrimExpr *p = ir_prim_var(c, ir_sym(c, "p"), IR_BOOL),
             *q = ir_prim_var(c, ir_sym(c, "q"), IR_BOOL);
#define BIN(k, l, r) ir_prim_bin(c, IR_PE_##k, l, r)
  expect_prim(BIN(MUL, BIN(ADD, a, b), x), "(a + b) * x");
  expect_prim(BIN(ADD, a, BIN(MUL, b, x)), "a + b * x");
  expect_prim(BIN(SUB, a, BIN(SUB, b, x)), "a - (b - x)");
  expect_prim(BIN(SUB, BIN(SUB, a, b), x), "a - b - x");
  expect_prim(BIN(FLOORDIV, a, BIN(MUL, b, x)), "a // (b * x)");
  expect_prim(BIN(FLOORMOD, BIN(FLOORDIV, a, b), x), "a // b % x");
  expect_prim(BIN(EQ, BIN(LT, a, b), BIN(LT, b, x)), "(a < b) == (b < x)");
  expect_prim(BIN(NOT, BIN(LT, a, b), NULL), "not a < b");
  expect_prim(BIN(OR, BIN(AND, p, q), BIN(NOT, p, NULL)), "p and q or not p");
  expect_prim(BIN(AND, p, BIN(OR, q, p)), "p and (q or p)");
  expect_prim(BIN(NOT, BIN(AND, p, q), NULL), "not (p and q)");
  expect_prim(BIN(SUB, a, i64(c, -1)), "a - -1");
  expect_prim(BIN(MUL, i64(c, -1), a), "-1 * a");
  expect_prim(BIN(SUB, i64(c, 0), BIN(ADD, a, b)), "0 - (a + b)");
  expect_prim(BIN(MAX, BIN(ADD, a, b), BIN(MIN, a, x)), "T.max(a + b, T.min(a, x))");
  expect_prim(BIN(MOD, a, b), "T.truncmod(a, b)");
  expect_prim(BIN(MUL, BIN(MOD, a, b), x), "T.truncmod(a, b) * x");
  expect_prim(ir_prim_select(c, BIN(GE, a, b), a, b), "T.Select(a >= b, a, b)");
  expect_prim(BIN(DIV, ir_prim_cast(c, IR_F32, a), ir_prim_float(c, IR_F32, 2.0)),
              "T.Cast(\"float32\", a) / T.float32(2.0)");
  expect_prim(BIN(ADD, a, i32(c, 3)), "a + T.int32(3)"); /* lone exprs use the Relax literal rule */
  IrPrimExpr *mx = ir_prim_str(c, ir_sym(c, "float32"));
  expect_prim(ir_prim_call(c, IR_F32, ir_sym(c, "tir.max_value"), &mx, 1),
              "T.max_value(\"float32\")");
#undef BIN
  ir_ctx_free(c);
}

static void
test_float_text(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  const struct {
    double v;
    const char *want;
  } cases[] = {
      {0.1, "T.float64(0.1)"},
      {1e-05, "T.float64(1e-05)"},
      {1e20, "T.float64(1e+20)"},
      {-0.0, "T.float64(-0.0)"},
      {3.4028234663852886e+38, "T.float64(3.4028234663852886e+38)"},
      {100.0, "T.float64(100.0)"},
      {1e16, "T.float64(1e+16)"},
      {0.0001, "T.float64(0.0001)"},
      {123.456, "T.float64(123.456)"},
      {5e-324, "T.float64(5e-324)"},
      {1.7976931348623157e308, "T.float64(1.7976931348623157e+308)"},
      {1.0 / 3.0, "T.float64(0.3333333333333333)"},
      {INFINITY, "T.float64(\"inf\")"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    expect_prim(ir_prim_float(c, F64, cases[k].v), cases[k].want);
  /* a float32 literal holding a float value prints that float's shortest text */
  expect_prim(ir_prim_float(c, IR_F32, (double)FLT_MAX), "T.float32(3.4028235e+38)");
  expect_prim(ir_prim_float(c, IR_F32, (double)0.1f), "T.float32(0.1)");
  expect_prim(ir_prim_float(c, IR_F32, 0.1), "T.float32(0.1)");
  expect_prim(ir_prim_float(c, IR_F32, 1e-5), "T.float32(1e-05)");
  /* every printed text reads back to the same double */
  for (int k = 0; k < 2000; k++) {
    double v = ldexp((double)((unsigned)k * 2654435761u % 1000003u) + 0.37, k % 200 - 100);
    IrBuf b = {0};
    ir_prim_expr_print(ir_prim_float(c, F64, v), &b);
    ir_buf_put(&b, "", 0);
    assert_true(strncmp(b.data, "T.float64(", 10) == 0);
    assert_true(strtod(b.data + 10, NULL) == v);
    assert_true(strchr(b.data, '.') || strchr(b.data, 'e'));
    ir_buf_free(&b);
  }
  ir_ctx_free(c);
}

static void
test_sinfo_forms(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrPrimExpr *n = ir_prim_var(c, ir_sym(c, "n"), IR_I64);
  IrSInfo *t = tensor(c, IR_F32, dims(c, 2, i64(c, 2), n), 2);
  expect_sinfo(t, "R.Tensor((2, n), dtype=\"float32\")");
  expect_sinfo(tensor(c, IR_F32, NULL, 0), "R.Tensor(dtype=\"float32\", ndim=0)");
  expect_sinfo(tensor(c, IR_F32, dims(c, 0), 0), "R.Tensor((), dtype=\"float32\")");
  expect_sinfo(tensor(c, IR_VOID, dims(c, 2, i64(c, 2), n), 2), "R.Tensor((2, n))");
  expect_sinfo(tensor(c, IR_VOID, NULL, 2), "R.Tensor(ndim=2)");
  expect_sinfo(tensor(c, IR_VOID, NULL, -1), "R.Tensor");
  expect_sinfo(ir_sinfo_tensor(c, NULL, -1, IR_VOID, 1), "R.Tensor(vdevice=\"vdevice:1\")");
  expect_sinfo(ir_sinfo_tuple(c, NULL, 0), "R.Tuple");
  expect_sinfo(ir_sinfo_tuple(c, sinfos(c, 2, t, ir_sinfo_object(c)), 2),
               "R.Tuple(R.Tensor((2, n), dtype=\"float32\"), R.Object)");
  expect_sinfo(ir_sinfo_shape(c, dims(c, 2, i64(c, 2), n), 2), "R.Shape([2, n])");
  expect_sinfo(ir_sinfo_shape(c, NULL, 2), "R.Shape(ndim=2)");
  expect_sinfo(ir_sinfo_shape(c, NULL, -1), "R.Shape");
  expect_sinfo(ir_sinfo_prim(c, IR_I64, NULL), "R.Prim(\"int64\")");
  expect_sinfo(ir_sinfo_prim(c, IR_I64, n), "R.Prim(value=n)");
  expect_sinfo(ir_sinfo_func(c, sinfos(c, 1, t), 1, t, true),
               "R.Callable((R.Tensor((2, n), dtype=\"float32\"),), R.Tensor((2, n), "
               "dtype=\"float32\"), True)");
  expect_sinfo(ir_sinfo_func(c, NULL, -1, NULL, false), "R.Callable");
  IrSInfo *packed = ir_sinfo_func(c, NULL, -1, NULL, false);
  packed->u.func.packed = true;
  expect_sinfo(packed, "R.PackedFunc");
  ir_ctx_free(c);
}

static void
test_strings_and_attrs(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrSym keys[5] = {ir_sym(c, "s"), ir_sym(c, "f"), ir_sym(c, "none"), ir_sym(c, "nan"),
                   ir_sym(c, "l")};
  IrAttr *items[2] = {ir_attr_int(c, -5), ir_attr_float(c, 2.5)};
  IrAttr *vals[5] = {ir_attr_str(c, ir_sym(c, "a\\b\"c\nd\te\x01")), ir_attr_float(c, 0.5),
                     ir_attr_none(c), ir_attr_float(c, NAN), ir_attr_list(c, items, 2)};
  IrExpr *x = var(c, "x", ir_sinfo_object(c));
  IrFunction *f =
      function(c, exprs(c, 1, x), 1, NULL, seq(c, NULL, 0, ir_str_imm(c, ir_sym(c, "q\""), L)));
  f->attrs = ir_attr_dict(c, keys, vals, 5);
  IrModule *mod = module(c, 1);
  add_relax(c, mod, "main", f);
  expect_module(
      mod,
      HEADER "    @R.function\n"
             "    def main(x: R.Object):\n"
             "        R.func_attr({\"f\": 0.5, \"l\": [-5, 2.5], \"nan\": \"nan\", \"none\": None, "
             "\"s\": \"a\\\\b\\\"c\\nd\\te\\x01\"})\n"
             "        return R.str(\"q\\\"\")\n");
  ir_ctx_free(c);
}

/* What the text cannot say becomes a comment line, never a crash. */
static void
test_cannot_print(void **state)
{
  (void)state;
  IrCtx *c = ir_ctx_new();
  IrExpr *x = var(c, "x", ir_sinfo_object(c));
  IrExpr *a = var(c, "a", NULL), *b = var(c, "b", NULL), *d = var(c, "d", NULL);
  IrBindingBlock blk = block(c, false, 3, a, op(c, "R.exp", exprs(c, 2, x, x), 2, NULL), b,
                             seq(c, NULL, 0, x), d, tuple(c, exprs(c, 1, NULL), 1));
  IrModule *mod = module(c, 2);
  add_relax(c, mod, "main", function(c, exprs(c, 1, x), 1, NULL, seq(c, &blk, 1, x)));
  /* a let followed by another statement of the same list */
  IrBuffer *A = buffer(c, "A", IR_I32, dims(c, 1, i32(c, 4)), 1);
  IrPrimExpr *v = ir_prim_var(c, ir_sym(c, "v"), IR_I32);
  IrStmt *let = ir_stmt_new(c, IR_ST_LET, L);
  let->u.let.var = v;
  let->u.let.value = i32(c, 1);
  let->u.let.body = store(c, A, dims(c, 1, v), 1, v);
  IrStmt *list = ir_stmt_new(c, IR_ST_SEQ, L);
  list->u.seq.stmts = ir_alloc(c, sizeof(IrStmt *) * 2);
  list->u.seq.stmts[0] = let;
  list->u.seq.stmts[1] = store(c, A, dims(c, 1, i32(c, 0)), 1, i32(c, 2));
  list->u.seq.n = 2;
  IrPrimFunc *f = ir_alloc(c, sizeof *f);
  f->nparams = 1;
  f->params = ir_alloc(c, sizeof *f->params);
  f->params[0] = (IrPrimParam){ir_prim_var(c, ir_sym(c, "A"), IR_HANDLE), A};
  f->body = list;
  add_prim(c, mod, "p", f);
  expect_module(
      mod, HEADER
      "    @T.prim_func\n"
      "    def p(A: T.Buffer((4,), \"int32\")):\n"
      "        # rxc: cannot print a let before other statements of its list; its scope widens "
      "here\n"
      "        v: T.int32 = 1\n"
      "        A[v] = v\n"
      "        A[0] = 2\n"
      "\n"
      "    @R.function\n"
      "    def main(x: R.Object):\n"
      "        # rxc: cannot print the binding of a: an operator call with too many arguments\n"
      "        # rxc: cannot print the binding of b: a nested sequence expression\n"
      "        # rxc: cannot print the binding of d: a missing expression\n"
      "        return x\n");
  ir_ctx_free(c);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_symbolic_shapes),
      cmocka_unit_test(test_dataflow_and_tuples),
      cmocka_unit_test(test_op_attributes),
      cmocka_unit_test(test_effects_and_packed),
      cmocka_unit_test(test_memory_ops),
      cmocka_unit_test(test_call_tir),
      cmocka_unit_test(test_constants),
      cmocka_unit_test(test_if_else),
      cmocka_unit_test(test_match_cast_and_local_function),
      cmocka_unit_test(test_module_attrs_and_vdevices),
      cmocka_unit_test(test_global_order_and_renaming),
      cmocka_unit_test(test_prim_func_matmul),
      cmocka_unit_test(test_prim_func_explicit_axes),
      cmocka_unit_test(test_prim_func_statements),
      cmocka_unit_test(test_prim_literals_in_tir),
      cmocka_unit_test(test_precedence),
      cmocka_unit_test(test_float_text),
      cmocka_unit_test(test_sinfo_forms),
      cmocka_unit_test(test_strings_and_attrs),
      cmocka_unit_test(test_cannot_print),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
