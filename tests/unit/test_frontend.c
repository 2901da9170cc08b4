/* test_frontend.c - the TVMScript reader: snippets parsed and the IR
 * checked against hand-written expectations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "testutil.h"

/* Parses text; fails the test (printing diagnostics) when it does not parse. */
static IrModule *
parse_ok(IrCtx *ctx, const char *text)
{
  IrModule *m = fe_parse_string(ctx, "t.py", text);
  if (!m) {
    char *d = tu_diag_text(ctx);
    printf("%s", d);
    free(d);
  }
  assert_non_null(m);
  return m;
}

static const IrFunction *
relax(const IrModule *m, const char *name)
{
  for (int i = 0; i < m->nglobals; i++)
    if (strcmp(m->globals[i].name, name) == 0) {
      assert_int_equal(m->globals[i].kind, IR_GLOBAL_RELAX);
      return m->globals[i].u.relax;
    }
  fail_msg("no global %s", name);
  return NULL;
}

static const IrPrimFunc *
prim(const IrModule *m, const char *name)
{
  for (int i = 0; i < m->nglobals; i++)
    if (strcmp(m->globals[i].name, name) == 0) {
      assert_int_equal(m->globals[i].kind, IR_GLOBAL_PRIM);
      return m->globals[i].u.prim;
    }
  fail_msg("no global %s", name);
  return NULL;
}

/* The i-th binding of block b of a function body. */
static const IrBinding *
binding(const IrFunction *f, int b, int i)
{
  assert_true(b < f->body->u.seq.nblocks);
  assert_true(i < f->body->u.seq.blocks[b].n);
  return &f->body->u.seq.blocks[b].bindings[i];
}

#define HEAD "@R.function\ndef main(x: R.Tensor((2, 3), dtype=\"float32\")):\n"

static void
test_module_and_globals(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_ok(ctx, "# from tvm.script import relax as R\n"
                              "@I.ir_module\nclass Mod:\n"
                              "    @R.function\n"
                              "    def main(x: R.Tensor((2,), dtype=\"float32\")):\n"
                              "        cls = Mod\n"
                              "        y = cls.later(x)\n"
                              "        z = Mod.later(y)\n"
                              "        w = later(z)\n"
                              "        return w\n"
                              "    ext = R.ExternFunc(\"sym\")\n"
                              "    @R.function(private=True, pure=False)\n"
                              "    def later(x: R.Tensor((2,), dtype=\"float32\")):\n"
                              "        return x\n");
  assert_string_equal(m->name, "Mod");
  assert_int_equal(m->nglobals, 3);
  assert_string_equal(m->globals[1].name, "ext");
  assert_int_equal(m->globals[1].kind, IR_GLOBAL_EXTERN);
  assert_string_equal(m->globals[1].u.extern_sym, "sym");
  const IrFunction *later = relax(m, "later");
  assert_true(later->is_private);
  assert_false(later->pure);
  const IrFunction *f = relax(m, "main");
  assert_true(f->pure);
  for (int i = 0; i < 3; i++) {
    const IrExpr *call = binding(f, 0, i)->value;
    assert_int_equal(call->kind, IR_EX_CALL);
    assert_int_equal(call->u.call.kind, IR_CALL_GLOBAL);
    assert_string_equal(call->u.call.callee->u.global, "later");
    assert_null(call->sinfo);
  }
  /* each call takes the var bound just before it */
  assert_ptr_equal(binding(f, 0, 1)->value->u.call.args[0], binding(f, 0, 0)->var);
  assert_ptr_equal(f->body->u.seq.result, binding(f, 0, 2)->var);
  ir_ctx_free(ctx);

  ctx = ir_ctx_new();
  m = parse_ok(ctx, "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    T.evaluate(0)\n");
  assert_string_equal(m->name, "Module");
  assert_int_equal(m->nglobals, 1);
  assert_int_equal(prim(m, "f")->params[0].buffer->ndim, 1);
  ir_ctx_free(ctx);
}

static void
test_symbolic_vars_shared(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_ok(ctx, "@R.function\n"
                              "def main(x: R.Tensor((\"n\", \"2 * n\"), dtype=\"float32\"),\n"
                              "         y: R.Tensor((\"n\",), \"float16\")) -> R.Tensor((\"n\",)):\n"
                              "    n = T.int64()\n"
                              "    z: R.Tensor((n, 2 * n + 1), dtype=\"float32\") = R.add(x, x)\n"
                              "    return z\n");
  const IrFunction *f = relax(m, "main");
  IrPrimExpr *n = f->params[0]->sinfo->u.tensor.shape[0];
  assert_int_equal(n->kind, IR_PE_VAR);
  assert_true(ir_dtype_eq(n->dtype, IR_I64));
  const IrPrimExpr *two_n = f->params[0]->sinfo->u.tensor.shape[1];
  assert_int_equal(two_n->kind, IR_PE_MUL);
  assert_ptr_equal(two_n->u.bin.b, n);
  assert_true(ir_dtype_eq(two_n->u.bin.a->dtype, IR_I64)); /* bare 2 took n's dtype */
  assert_ptr_equal(f->params[1]->sinfo->u.tensor.shape[0], n);
  IrDType f16 = {IR_DT_FLOAT, 16, 1};
  assert_true(ir_dtype_eq(f->params[1]->sinfo->u.tensor.dtype, f16));
  assert_ptr_equal(f->ret->u.tensor.shape[0], n);
  assert_true(ir_dtype_eq(f->ret->u.tensor.dtype, IR_VOID));
  const IrSInfo *zs = binding(f, 0, 0)->var->sinfo;
  assert_ptr_equal(zs->u.tensor.shape[0], n);
  const IrPrimExpr *sum = zs->u.tensor.shape[1];
  assert_int_equal(sum->kind, IR_PE_ADD);
  assert_int_equal(sum->u.bin.a->kind, IR_PE_MUL);
  assert_ptr_equal(sum->u.bin.a->u.bin.b, n);
  assert_int_equal(sum->u.bin.b->u.int_value, 1);
  assert_true(ir_dtype_eq(sum->u.bin.b->dtype, IR_I64));
  ir_ctx_free(ctx);
}

static void
test_dataflow_and_sinfo(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_ok(
      ctx, "@I.ir_module\nclass Module:\n"
           "    @T.prim_func(private=True)\n"
           "    def add(A: T.Buffer((2, 3), \"float32\"), B: T.Buffer((2, 3), \"float32\")):\n"
           "        T.evaluate(0)\n"
           "    @R.function\n"
           "    def main(x: R.Tensor((2, 3), dtype=\"float32\")):\n"
           "        cls = Module\n"
           "        with R.dataflow():\n"
           "            lv = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((2, 3), dtype=\"float32\"))\n"
           "            lv2 = R.call_tir(cls.add, x, [R.Tensor((2, 3), \"float32\"), R.Tensor((3,), \"int32\")])\n"
           "            gv = R.add(lv, lv)\n"
           "            R.output(gv)\n"
           "        c = R.const([[1, 2, 3], [4, 5, 6]], \"int32\")\n"
           "        t = (c, x)\n"
           "        g = t[1]\n"
           "        p = R.call_packed(\"f\", c, sinfo_args=(R.Prim(\"int64\"),))\n"
           "        R.print(p, format=\"{}\")\n"
           "        return gv\n");
  const IrFunction *f = relax(m, "main");
  assert_int_equal(f->body->u.seq.nblocks, 2);
  assert_true(f->body->u.seq.blocks[0].dataflow);
  assert_false(f->body->u.seq.blocks[1].dataflow);
  const IrBinding *lv = binding(f, 0, 0), *lv2 = binding(f, 0, 1), *gv = binding(f, 0, 2);
  assert_true(lv->var->u.var.dataflow);
  assert_false(gv->var->u.var.dataflow);
  assert_int_equal(lv->value->u.call.op->id, IR_OP_CALL_TIR);
  assert_int_equal(lv->value->u.call.nargs, 2); /* gvar, args; tir_vars left out */
  assert_int_equal(lv->value->u.call.args[1]->kind, IR_EX_TUPLE);
  assert_int_equal(lv->var->sinfo->kind, IR_SI_TENSOR);
  assert_int_equal(lv->var->sinfo->u.tensor.ndim, 2);
  /* single non-tuple arg wrapped, positional out_sinfo list -> tuple sinfo */
  assert_int_equal(lv2->value->u.call.args[1]->u.tuple.n, 1);
  assert_int_equal(lv2->value->u.call.nsinfo_args, 2);
  assert_int_equal(lv2->var->sinfo->kind, IR_SI_TUPLE);
  assert_int_equal(lv2->var->sinfo->u.tuple.fields[1]->u.tensor.dtype.bits, 32);
  assert_null(gv->var->sinfo); /* op inference is later */
  const IrBinding *c = binding(f, 1, 0), *t = binding(f, 1, 1), *g = binding(f, 1, 2);
  assert_int_equal(c->var->sinfo->kind, IR_SI_TENSOR);
  assert_int_equal(c->var->sinfo->u.tensor.shape[1]->u.int_value, 3);
  assert_int_equal(c->value->u.constant.nbytes, 24);
  assert_int_equal(((int32_t *)c->value->u.constant.data)[5], 6);
  assert_int_equal(t->var->sinfo->kind, IR_SI_TUPLE);
  assert_ptr_equal(g->var->sinfo, f->params[0]->sinfo);
  const IrBinding *p = binding(f, 1, 3), *pr = binding(f, 1, 4);
  assert_int_equal(p->value->u.call.kind, IR_CALL_EXTERN);
  assert_string_equal(p->value->u.call.callee->u.global, "f");
  assert_int_equal(p->var->sinfo->kind, IR_SI_PRIM);
  assert_string_equal(pr->var->u.var.name, "_");
  assert_null(pr->var->sinfo);
  assert_string_equal(ir_attr_get(pr->value->u.call.attrs, "format")->u.s, "{}");
  ir_ctx_free(ctx);
}

/* Field-by-field equality of two leaf call arguments. */
static void
assert_same_leaf(const IrExpr *a, const IrExpr *b)
{
  assert_int_equal(a->kind, b->kind);
  switch (a->kind) {
  case IR_EX_SHAPE:
    assert_int_equal(a->u.shape.n, b->u.shape.n);
    for (int i = 0; i < a->u.shape.n; i++) {
      assert_int_equal(a->u.shape.values[i]->u.int_value, b->u.shape.values[i]->u.int_value);
      assert_true(ir_dtype_eq(a->u.shape.values[i]->dtype, b->u.shape.values[i]->dtype));
    }
    break;
  case IR_EX_PRIM:
    assert_int_equal(a->u.prim->kind, b->u.prim->kind);
    assert_int_equal(a->u.prim->u.int_value, b->u.prim->u.int_value);
    assert_true(ir_dtype_eq(a->u.prim->dtype, b->u.prim->dtype));
    break;
  case IR_EX_STR:
    assert_ptr_equal(a->u.str, b->u.str);
    break;
  case IR_EX_DTYPE:
    assert_true(ir_dtype_eq(a->u.dtype, b->u.dtype));
    break;
  case IR_EX_VAR:
    assert_ptr_equal(a, b);
    break;
  default:
    fail_msg("unexpected leaf kind %d", a->kind);
  }
}

static void
test_memory_ops_both_forms(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_ok(
      ctx, "@R.function(pure=False)\n"
           "def main(x: R.Tensor((2, 3), dtype=\"float32\")):\n"
           "    n = T.int64()\n"
           "    s1 = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str(\"global\"), R.dtype(\"float32\"))\n"
           "    s2 = R.memory.alloc_storage(R.shape([32]), virtual_device_index=0, storage_scope=\"global\", dtype=\"float32\")\n"
           "    s3 = R.memory.alloc_storage([32])\n"
           "    t1 = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([2, 3]), R.dtype(\"float32\"), R.prim_value(0))\n"
           "    t2 = R.memory.alloc_tensor(s1, 0, (2, 3), \"float32\")\n"
           "    R.memory.kill_tensor(t1)\n"
           "    _ = R.memory.kill_storage(s1)\n"
           "    v = R.vm.alloc_storage(R.shape([8]), 0, \"uint8\")\n"
           "    return x\n");
  const IrFunction *f = relax(m, "main");
  const IrExpr *s[3];
  for (int i = 0; i < 3; i++) {
    s[i] = binding(f, 0, i)->value;
    assert_int_equal(s[i]->u.call.op->id, IR_OP_MEMORY_ALLOC_STORAGE);
    assert_int_equal(s[i]->u.call.nargs, 4);
  }
  for (int k = 0; k < 4; k++) {
    assert_same_leaf(s[0]->u.call.args[k], s[1]->u.call.args[k]);
    assert_same_leaf(s[0]->u.call.args[k], s[2]->u.call.args[k]); /* defaults */
  }
  assert_true(ir_dtype_eq(s[0]->u.call.args[1]->u.prim->dtype, IR_I64));
  assert_string_equal(s[0]->u.call.args[2]->u.str, "global");
  const IrExpr *t1 = binding(f, 0, 3)->value, *t2 = binding(f, 0, 4)->value;
  assert_int_equal(t2->u.call.nargs, 5); /* runtime_device_ind from its default */
  for (int k = 0; k < 5; k++)
    assert_same_leaf(t1->u.call.args[k], t2->u.call.args[k]);
  const IrBinding *k1 = binding(f, 0, 5), *k2 = binding(f, 0, 6);
  assert_string_equal(k1->var->u.var.name, "_");
  assert_string_equal(k2->var->u.var.name, "_");
  assert_null(k2->var->sinfo);
  assert_true(k1->value->u.call.op->impure);
  const IrExpr *v = binding(f, 0, 7)->value;
  assert_int_equal(v->u.call.op->id, IR_OP_VM_ALLOC_STORAGE);
  assert_int_equal(v->u.call.args[2]->kind, IR_EX_DTYPE); /* different order from memory.* */
  assert_string_equal(v->u.call.args[3]->u.str, "global");
  ir_ctx_free(ctx);
}

static void
test_op_attrs_from_defaults(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_ok(ctx, HEAD "    a = R.sum(x)\n"
                                   "    b = R.nn.conv2d(x, x, strides=(2, 2))\n"
                                   "    c = R.nn.softmax(x, 0)\n"
                                   "    d = R.hint_on_device(x, R.device(dev_type=1, index=0))\n"
                                   "    e = R.nn.layer_norm(x, x, x, axes=[-1], epsilon=1e-3)\n"
                                   "    return x\n");
  const IrFunction *f = relax(m, "main");
  const IrAttr *sum = binding(f, 0, 0)->value->u.call.attrs;
  assert_int_equal(sum->u.list.n, 2);
  assert_int_equal(ir_attr_get(sum, "axis")->kind, IR_AT_NONE);
  assert_int_equal(ir_attr_get(sum, "keepdims")->kind, IR_AT_BOOL);
  assert_false(ir_attr_get(sum, "keepdims")->u.b);
  const IrAttr *conv = binding(f, 0, 1)->value->u.call.attrs;
  assert_int_equal(conv->u.list.n, 8);
  assert_int_equal(ir_attr_get(conv, "strides")->u.list.items[1]->u.i, 2);
  assert_int_equal(ir_attr_get(conv, "padding")->u.list.n, 4);
  assert_string_equal(ir_attr_get(conv, "data_layout")->u.s, "NCHW");
  assert_string_equal(ir_attr_get(conv, "out_dtype")->u.s, "void");
  assert_int_equal(ir_attr_get(conv, "out_layout")->kind, IR_AT_NONE);
  assert_int_equal(ir_attr_get(binding(f, 0, 2)->value->u.call.attrs, "axis")->u.i, 0);
  const IrAttr *dev = binding(f, 0, 3)->value->u.call.attrs;
  assert_int_equal(ir_attr_get(dev, "dev_type")->u.i, 1);
  assert_int_equal(ir_attr_get(dev, "index")->u.i, 0);
  assert_string_equal(ir_attr_get(dev, "memory_scope")->u.s, "global");
  const IrAttr *ln = binding(f, 0, 4)->value->u.call.attrs;
  assert_true(ir_attr_get(ln, "epsilon")->u.f == 1e-3);
  assert_int_equal(ir_attr_get(ln, "axes")->u.list.items[0]->u.i, -1);
  assert_true(ir_attr_get(ln, "center")->u.b);
  ir_ctx_free(ctx);
}

static uint16_t
half_at(const IrExpr *c, int i)
{
  const unsigned char *d = c->u.constant.data;
  return (uint16_t)(d[2 * i] | d[2 * i + 1] << 8);
}

static void
test_constants(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_ok(ctx, HEAD "    a = R.const([1.0, -2.0, 65504.0, 0.1, 6e-8], \"float16\")\n"
                                   "    b = R.const(\"nan\", \"float32\")\n"
                                   "    c = R.const(-float(\"inf\"), \"float64\")\n"
                                   "    d = R.const(True, \"bool\")\n"
                                   "    e = R.const([-128, 255], \"int16\")\n"
                                   "    g = R.const(1.5)\n"
                                   "    return x\n");
  const IrFunction *f = relax(m, "main");
  const IrExpr *a = binding(f, 0, 0)->value;
  assert_int_equal(a->u.constant.nbytes, 10);
  assert_int_equal(half_at(a, 0), 0x3c00);
  assert_int_equal(half_at(a, 1), 0xc000);
  assert_int_equal(half_at(a, 2), 0x7bff);
  assert_int_equal(half_at(a, 3), 0x2e66); /* 0.1 rounds to 0x2e66 */
  assert_int_equal(half_at(a, 4), 0x0001); /* smallest subnormal */
  float nan_value;
  memcpy(&nan_value, binding(f, 0, 1)->value->u.constant.data, 4);
  assert_true(isnan(nan_value));
  assert_int_equal(binding(f, 0, 1)->value->u.constant.ndim, 0);
  assert_int_equal(binding(f, 0, 1)->var->sinfo->u.tensor.ndim, 0);
  double minus_inf;
  memcpy(&minus_inf, binding(f, 0, 2)->value->u.constant.data, 8);
  assert_true(isinf(minus_inf) && minus_inf < 0);
  assert_int_equal(((unsigned char *)binding(f, 0, 3)->value->u.constant.data)[0], 1);
  const int16_t *e = binding(f, 0, 4)->value->u.constant.data;
  assert_int_equal(e[0], -128);
  assert_int_equal(e[1], 255);
  assert_true(ir_dtype_eq(binding(f, 0, 5)->value->u.constant.dtype, IR_F32));
  ir_ctx_free(ctx);
}

static const char tir_text[] =
    "@T.prim_func\n"
    "def mm(a: T.handle, B: T.Buffer((T.int64(4), T.int64(8)), \"float16\"), c: T.handle):\n"
    "    T.func_attr({\"tirx.noalias\": True})\n"
    "    n = T.int64()\n"
    "    A = T.match_buffer(a, (n, T.int64(4)), \"float16\")\n"
    "    C = T.match_buffer(c, (n, T.int64(8)), \"float16\")\n"
    "    for i, j, k in T.grid(n, T.int64(8), T.int64(4)):\n"
    "        with T.block(\"C\"):\n"
    "            v_i, v_j, v_k = T.axis.remap(\"SSR\", [i, j, k])\n"
    "            T.reads(A[v_i, 0:4], B[v_k:v_k + 2, 2:8])\n"
    "            T.writes(C[v_i, v_j])\n"
    "            with T.init():\n"
    "                C[v_i, v_j] = 0.5\n"
    "            C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * B[v_k, v_j]\n"
    "    for x in T.parallel(2, 10):\n"
    "        with T.sblock(\"D\"):\n"
    "            vx = T.axis.spatial((2, 10), x)\n"
    "            t: T.int32 = 3\n"
    "            T.evaluate(T.max(vx + 1, 2) // 2 % 3 < 1 and not vx == 4 or vx > -5)\n";

static void
test_prim_func(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_ok(ctx, tir_text);
  const IrPrimFunc *f = prim(m, "mm");
  assert_int_equal(f->nparams, 3);
  assert_true(ir_attr_get(f->attrs, "tir.noalias")->u.b);
  IrBuffer *A = f->params[0].buffer, *B = f->params[1].buffer;
  assert_string_equal(A->name, "A");
  assert_int_equal(f->params[0].var->dtype.code, IR_DT_HANDLE);
  IrPrimExpr *n = A->shape[0];
  assert_ptr_equal(f->params[2].buffer->shape[0], n);
  assert_int_equal(f->body->kind, IR_ST_SEQ);
  const IrStmt *li = f->body->u.seq.stmts[0];
  assert_int_equal(li->kind, IR_ST_FOR);
  assert_ptr_equal(li->u.loop.extent, n);
  assert_true(ir_dtype_eq(li->u.loop.var->dtype, IR_I64));
  const IrStmt *lj = li->u.loop.body, *lk = lj->u.loop.body;
  const IrTirBlock *blk = lk->u.loop.body->u.block;
  assert_string_equal(blk->name, "C");
  assert_int_equal(blk->niters, 3);
  assert_int_equal(blk->iters[2].kind, IR_ITER_REDUCE);
  assert_ptr_equal(blk->iters[0].dom.extent, n);
  assert_ptr_equal(blk->iters[1].dom.extent, lj->u.loop.extent);
  assert_ptr_equal(blk->iters[2].binding, lk->u.loop.var);
  /* regions: point, 0:4 -> 4, v_k:v_k + 2 -> 2, 2:8 -> 8 - 2 */
  assert_int_equal(blk->nreads, 2);
  assert_int_equal(blk->reads[0].ranges[0].extent->u.int_value, 1);
  assert_int_equal(blk->reads[0].ranges[1].extent->u.int_value, 4);
  assert_int_equal(blk->reads[1].ranges[0].extent->u.int_value, 2);
  assert_ptr_equal(blk->reads[1].ranges[0].min, blk->iters[2].var);
  assert_int_equal(blk->reads[1].ranges[1].extent->kind, IR_PE_SUB);
  assert_true(blk->has_access);
  /* bare 0.5 stored into a float16 buffer is a float16 literal */
  const IrStmt *init = blk->init;
  assert_int_equal(init->kind, IR_ST_STORE);
  assert_int_equal(init->u.store.value->dtype.bits, 16);
  assert_ptr_equal(init->u.store.buffer, f->params[2].buffer);
  const IrStmt *st = blk->body;
  assert_int_equal(st->u.store.value->kind, IR_PE_ADD);
  assert_ptr_equal(st->u.store.value->u.bin.b->u.bin.b->u.load.buffer, B);
  /* second loop: range(2, 10) -> min 2, extent 10 - 2; block axis domain */
  const IrStmt *lx = f->body->u.seq.stmts[1];
  assert_int_equal(lx->u.loop.kind, IR_FOR_PARALLEL);
  assert_int_equal(lx->u.loop.min->u.int_value, 2);
  assert_int_equal(lx->u.loop.extent->kind, IR_PE_SUB);
  assert_true(ir_dtype_eq(lx->u.loop.var->dtype, IR_I32));
  const IrTirBlock *d = lx->u.loop.body->u.block;
  assert_int_equal(d->iters[0].dom.min->u.int_value, 2);
  const IrStmt *let = d->body;
  assert_int_equal(let->kind, IR_ST_LET);
  assert_int_equal(let->u.let.body->kind, IR_ST_EVALUATE);
  const IrPrimExpr *e = let->u.let.body->u.eval;
  assert_int_equal(e->kind, IR_PE_OR);
  assert_int_equal(e->u.bin.a->kind, IR_PE_AND);
  const IrPrimExpr *lt = e->u.bin.a->u.bin.a;
  assert_int_equal(lt->kind, IR_PE_LT);
  assert_int_equal(lt->u.bin.a->kind, IR_PE_FLOORMOD);
  assert_int_equal(lt->u.bin.a->u.bin.a->kind, IR_PE_FLOORDIV);
  assert_int_equal(lt->u.bin.a->u.bin.a->u.bin.a->kind, IR_PE_MAX);
  assert_int_equal(e->u.bin.a->u.bin.b->kind, IR_PE_NOT);
  assert_int_equal(e->u.bin.b->u.bin.b->u.int_value, -5);
  ir_ctx_free(ctx);
}

static void
test_literal_dtypes(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_ok(ctx, "@T.prim_func\n"
                              "def f(A: T.Buffer((T.int64(4),), \"float32\"), n: T.int64):\n"
                              "    for i in range(n):\n"
                              "        A[i + 1] = A[i] * 2 + T.float32(\"nan\") - T.Cast(\"float32\", -i)\n");
  const IrPrimFunc *f = prim(m, "f");
  const IrStmt *loop = f->body;
  const IrStmt *s = loop->u.loop.body;
  const IrPrimExpr *idx = s->u.store.indices[0];
  assert_true(ir_dtype_eq(idx->u.bin.b->dtype, IR_I64)); /* i + 1 with int64 i */
  const IrPrimExpr *v = s->u.store.value; /* ((A[i] * 2) + nan) - cast(0 - i) */
  assert_int_equal(v->kind, IR_PE_SUB);
  const IrPrimExpr *two = v->u.bin.a->u.bin.a->u.bin.b;
  assert_int_equal(two->kind, IR_PE_FLOAT);
  assert_true(ir_dtype_eq(two->dtype, IR_F32));
  assert_true(isnan(v->u.bin.a->u.bin.b->u.float_value));
  const IrPrimExpr *neg = v->u.bin.b->u.bin.a;
  assert_int_equal(neg->kind, IR_PE_SUB);
  assert_true(ir_dtype_eq(neg->u.bin.a->dtype, IR_I64));
  ir_ctx_free(ctx);

  /* bare ints: int64 in Relax shapes, int32 in TIR */
  ctx = ir_ctx_new();
  m = parse_ok(ctx, HEAD "    s = R.shape([4, 5])\n    return x\n");
  assert_true(ir_dtype_eq(binding(relax(m, "main"), 0, 0)->value->u.shape.values[0]->dtype, IR_I64));
  ir_ctx_free(ctx);
}

/* Float literals: a float32 immediate holds a float32 value; a bare literal
 * meeting a float64 keeps its double value; attribute floats are doubles. */
static void
test_float_literal_precision(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_ok(ctx, "@T.prim_func\n"
                              "def f(A: T.Buffer((4,), \"float64\"), B: T.Buffer((4,), \"float32\")):\n"
                              "    A[0] = A[1] + 0.1\n"
                              "    A[1] = T.float64(0.1)\n"
                              "    A[2] = -0.1 + A[1]\n"
                              "    B[0] = B[1] + 0.1\n"
                              "    B[1] = T.float32(-3.4028234663852886e+38)\n");
  const IrStmt *body = prim(m, "f")->body;
  assert_int_equal(body->kind, IR_ST_SEQ);
  const IrStmt *const *st = (const IrStmt *const *)body->u.seq.stmts;
  assert_true(st[0]->u.store.value->u.bin.b->u.float_value == 0.1);
  assert_true(st[1]->u.store.value->u.float_value == 0.1);
  assert_true(st[2]->u.store.value->u.bin.a->u.float_value == -0.1);
  assert_true(st[3]->u.store.value->u.bin.b->u.float_value == (double)0.1f);
  assert_true(st[4]->u.store.value->u.float_value == (double)-3.4028234663852886e+38f);
  ir_ctx_free(ctx);

  ctx = ir_ctx_new();
  m = parse_ok(ctx, HEAD "    R.func_attr({\"eps\": 0.1, \"neg\": -1e-05})\n    return x\n");
  assert_true(ir_attr_get(relax(m, "main")->attrs, "eps")->u.f == 0.1);
  assert_true(ir_attr_get(relax(m, "main")->attrs, "neg")->u.f == -1e-05);
  ir_ctx_free(ctx);
}

/* range(a, b) and slices a:b have extent b - a (a regression: it was
 * a - b, which round-trips but is wrong). */
static void
test_range_extents(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_ok(ctx, "@T.prim_func\n"
                              "def f(A: T.Buffer((16,), \"float32\")):\n"
                              "    for i in range(4, 16):\n"
                              "        A[i] = T.float32(0.0)\n"
                              "    for j in T.serial(2, 2 + 3):\n"
                              "        A[j] = T.float32(1.0)\n");
  const IrStmt *const *st = (const IrStmt *const *)prim(m, "f")->body->u.seq.stmts;
  int64_t v;
  assert_true(ir_prim_is_int(st[0]->u.loop.min, &v) && v == 4);
  const IrPrimExpr *ext = st[0]->u.loop.extent;
  assert_int_equal(ext->kind, IR_PE_SUB);
  assert_true(ir_prim_is_int(ext->u.bin.a, &v) && v == 16);
  assert_true(ir_prim_is_int(ext->u.bin.b, &v) && v == 4);
  assert_true(ir_prim_is_int(st[1]->u.loop.extent, &v) && v == 3);
  ir_ctx_free(ctx);
}

/* global_symbol equal to the function's name is implied and dropped. */
static void
test_implied_global_symbol(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_ok(ctx, "@I.ir_module\nclass M:\n"
                              "    @R.function\n"
                              "    def main(x: R.Tensor((2,), dtype=\"float32\")):\n"
                              "        R.func_attr({\"global_symbol\": \"main\", \"k\": 1})\n"
                              "        return x\n"
                              "    @R.function\n"
                              "    def g(x: R.Tensor((2,), dtype=\"float32\")):\n"
                              "        R.func_attr({\"global_symbol\": \"other\"})\n"
                              "        return x\n");
  assert_null(ir_attr_get(relax(m, "main")->attrs, "global_symbol"));
  assert_int_equal(ir_attr_get(relax(m, "main")->attrs, "k")->u.i, 1);
  assert_string_equal(ir_attr_get(relax(m, "g")->attrs, "global_symbol")->u.s, "other");
  ir_ctx_free(ctx);
}

static void
test_if_else_and_local_function(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_ok(ctx, "@R.function\n"
                              "def main(c: R.Tensor((), \"bool\"), x: R.Tensor((4,), \"float32\")):\n"
                              "    if c:\n"
                              "        lv = R.add(x, x)\n"
                              "        y: R.Tensor((4,), dtype=\"float32\") = lv\n"
                              "    else:\n"
                              "        y: R.Tensor((4,), dtype=\"float32\") = R.multiply(x, x)\n"
                              "    @R.function\n"
                              "    def inner(a: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
                              "        return a\n"
                              "    z = inner(y)\n"
                              "    return (y, z)\n");
  const IrFunction *f = relax(m, "main");
  const IrBinding *b = binding(f, 0, 0);
  assert_string_equal(b->var->u.var.name, "y");
  assert_int_equal(b->var->sinfo->kind, IR_SI_TENSOR);
  assert_int_equal(b->value->kind, IR_EX_IF);
  const IrExpr *then_ = b->value->u.branch.then_;
  assert_int_equal(then_->u.seq.nblocks, 1);
  assert_int_equal(then_->u.seq.blocks[0].n, 1);
  assert_ptr_equal(then_->u.seq.result, then_->u.seq.blocks[0].bindings[0].var);
  assert_int_equal(b->value->u.branch.else_->u.seq.nblocks, 0);
  assert_int_equal(b->value->u.branch.else_->u.seq.result->kind, IR_EX_CALL);
  const IrBinding *inner = binding(f, 0, 1), *z = binding(f, 0, 2);
  assert_int_equal(inner->value->kind, IR_EX_FUNC);
  assert_int_equal(inner->var->sinfo->kind, IR_SI_FUNC);
  assert_int_equal(z->value->u.call.kind, IR_CALL_VAR);
  assert_ptr_equal(z->value->u.call.callee, inner->var);
  assert_ptr_equal(z->value->u.call.args[0], b->var);
  assert_int_equal(f->body->u.seq.result->kind, IR_EX_TUPLE);
  ir_ctx_free(ctx);
}

static void
test_sinfo_forms(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_ok(
      ctx, "@I.ir_module\nclass Module:\n"
           "    I.module_global_infos({\"vdevice\": [I.vdevice(\"llvm\"), I.vdevice({\"kind\": \"cuda\"}, 0, \"global\"), I.vdevice(\"llvm -mcpu=x\", 1)]})\n"
           "    @R.function\n"
           "    def main(a: R.Tensor(ndim=2), b: R.Tensor, c: R.Tuple(R.Tensor, R.Object),\n"
           "             d: R.Shape([1, 2]), e: R.Prim(\"int64\"), f: R.Any, g: R.Callable,\n"
           "             h: R.Tensor((2, 3), \"float32\", \"llvm:1\"), i: R.Tensor([2], \"float32\", \"cuda\"),\n"
           "             j: R.Tensor(\"int8\"), k: R.Tuple([R.Shape(ndim=3)]), l: R.Tensor(dtype=\"float32\", ndim=-1),\n"
           "             o: R.Callable((R.Tensor((2,), \"float32\"),), R.Tensor((2,), \"float32\"), False),\n"
           "             p: R.Tuple, q: R.Prim(value=3)):\n"
           "        return a\n");
  const IrFunction *f = relax(m, "main");
  assert_int_equal(m->nvdevices, 3);
  assert_string_equal(m->vdevices[2].kind, "llvm");
  assert_int_equal(m->vdevices[2].vdevice_id, 1);
  IrSInfo *s[16];
  for (int i = 0; i < f->nparams; i++)
    s[i] = f->params[i]->sinfo;
  assert_int_equal(s[0]->u.tensor.ndim, 2);
  assert_null(s[0]->u.tensor.shape);
  assert_int_equal(s[1]->u.tensor.ndim, -1);
  assert_int_equal(s[2]->u.tuple.n, 2);
  assert_int_equal(s[2]->u.tuple.fields[1]->kind, IR_SI_OBJECT);
  assert_int_equal(s[3]->u.shape.ndim, 2);
  assert_true(ir_dtype_eq(s[4]->u.prim.dtype, IR_I64));
  assert_int_equal(s[5]->kind, IR_SI_OBJECT);
  assert_int_equal(s[6]->u.func.nparams, -1);
  assert_int_equal(s[7]->u.tensor.vdevice, 2);
  assert_int_equal(s[8]->u.tensor.vdevice, 1);
  assert_int_equal(s[8]->u.tensor.ndim, 1);
  assert_int_equal(s[9]->u.tensor.dtype.bits, 8);
  assert_int_equal(s[10]->u.tuple.fields[0]->u.shape.ndim, 3);
  assert_int_equal(s[11]->u.tensor.ndim, -1);
  assert_int_equal(s[12]->u.func.nparams, 1);
  assert_false(s[12]->u.func.pure);
  assert_true(ir_sinfo_is_void(s[13]));
  assert_int_equal(s[14]->u.prim.value->u.int_value, 3);
  ir_ctx_free(ctx);
}

/* Input that must be rejected; the first error is msg at line:col (col 0:
 * any column). */
static void
expect_error(const char *text, int line, int col, const char *msg)
{
  IrCtx *ctx = ir_ctx_new();
  assert_null(fe_parse_string(ctx, "t.py", text));
  assert_true(ir_error_count(ctx) >= 1);
  const IrDiag *d = ir_diag_get(ctx, 0);
  if (strstr(d->msg, msg) == NULL || d->loc.line != line || (col && d->loc.col != col))
    fail_msg("got %d:%d: %s; want %d:%d: %s", d->loc.line, d->loc.col, d->msg, line, col, msg);
  ir_ctx_free(ctx);
}

static void
test_errors_and_limits(void **state)
{
  (void)state;
  expect_error(HEAD "    y = R.add(x, q)\n    return y\n", 3, 18, "name 'q' is not defined");
  expect_error(HEAD "    y = R.nn.foo(x)\n    return y\n", 3, 9, "unknown operator 'R.nn.foo'");
  expect_error(HEAD "    y = R.add(x, x\n    return y\n", 3, 14, "'(' was never closed");
  expect_error("", 1, 1, "no function in file");
  expect_error("@R.function\ndef f(x: R.Tensor):\n    return x\n\x01", 4, 1, "unexpected byte 0x01");
  /* deep nesting: brackets, unary operators, indentation; none may crash */
  IrBuf b = {0};
  ir_buf_puts(&b, HEAD "    y = R.add(x, ");
  for (int i = 0; i < 100000; i++)
    ir_buf_puts(&b, "(");
  expect_error(b.data, 3, 0, "nested too deeply");
  ir_buf_free(&b);
  ir_buf_puts(&b, "@T.prim_func\ndef f(A: T.Buffer((4,), \"int32\")):\n    A[0] = ");
  for (int i = 0; i < 100000; i++)
    ir_buf_puts(&b, "-");
  ir_buf_puts(&b, "1\n");
  expect_error(b.data, 3, 0, "nested too deeply");
  ir_buf_free(&b);
  ir_buf_puts(&b, "@T.prim_func\ndef f(A: T.Buffer((4,), \"int32\")):\n");
  for (int i = 1; i < 2000; i++) {
    for (int k = 0; k < i; k++)
      ir_buf_puts(&b, " ");
    ir_buf_puts(&b, "if 1:\n");
  }
  IrCtx *ctx = ir_ctx_new();
  assert_null(fe_parse_string(ctx, "t.py", b.data));
  assert_int_equal(ir_error_count(ctx), 1);
  ir_ctx_free(ctx);
  ir_buf_free(&b);
  /* several independent name errors are all reported */
  ctx = ir_ctx_new();
  assert_null(fe_parse_string(ctx, "t.py", HEAD "    y = R.add(a, b)\n    z = R.foo(y)\n    return c\n"));
  assert_int_equal(ir_error_count(ctx), 4);
  ir_ctx_free(ctx);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_module_and_globals),
      cmocka_unit_test(test_symbolic_vars_shared),
      cmocka_unit_test(test_dataflow_and_sinfo),
      cmocka_unit_test(test_memory_ops_both_forms),
      cmocka_unit_test(test_op_attrs_from_defaults),
      cmocka_unit_test(test_constants),
      cmocka_unit_test(test_prim_func),
      cmocka_unit_test(test_literal_dtypes),
      cmocka_unit_test(test_float_literal_precision),
      cmocka_unit_test(test_range_extents), cmocka_unit_test(test_implied_global_symbol),
      cmocka_unit_test(test_if_else_and_local_function),
      cmocka_unit_test(test_sinfo_forms),
      cmocka_unit_test(test_errors_and_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
