/* test_equal.c - structural equality and hashing: renaming of bound
 * variables, NaN and signed zero, attributes, the order of globals, the
 * path named for the first difference, and a seeded property test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../ir/ir.h"
#include "../../ops/op.h"

static const IrLoc L0 = {0};
static const IrDType F16 = {IR_DT_FLOAT, 16, 1};
static const IrDType I32 = {IR_DT_INT, 32, 1};

/* --- builders -------------------------------------------------------- */

static void **
list_of(IrCtx *ctx, int n, va_list ap)
{
  void **items = ir_alloc(ctx, sizeof *items * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    items[i] = va_arg(ap, void *);
  return items;
}

static IrExpr **
exprs(IrCtx *ctx, int n, ...)
{
  va_list ap;
  va_start(ap, n);
  void **items = list_of(ctx, n, ap);
  va_end(ap);
  return (IrExpr **)items;
}

static IrPrimExpr **
prims(IrCtx *ctx, int n, ...)
{
  va_list ap;
  va_start(ap, n);
  void **items = list_of(ctx, n, ap);
  va_end(ap);
  return (IrPrimExpr **)items;
}

static IrPrimExpr *
i64(IrCtx *ctx, int64_t v)
{
  return ir_prim_int(ctx, IR_I64, v);
}

/* A name with the renaming suffix of the test. */
static IrSym
nm(IrCtx *ctx, const char *base, const char *sfx)
{
  return ir_sym(ctx, ir_printf(ctx, "%s%s", base, sfx));
}

static IrExpr *
call2(IrCtx *ctx, IrOpId op, IrExpr *a, IrExpr *b)
{
  return ir_call_op(ctx, &op_def(op)->syn, exprs(ctx, 2, a, b), 2, NULL, L0);
}

static IrExpr *
const_f(IrCtx *ctx, IrDType t, uint64_t bits)
{
  IrExpr *e = ir_expr_new(ctx, IR_EX_CONST, L0);
  int size = t.bits / 8;
  unsigned char *data = ir_alloc(ctx, (size_t)size);
  for (int i = 0; i < size; i++)
    data[i] = (unsigned char)(bits >> (8 * i));
  e->u.constant.dtype = t;
  e->u.constant.ndim = 0;
  e->u.constant.data = data;
  e->u.constant.nbytes = (size_t)size;
  e->sinfo = ir_sinfo_tensor(ctx, NULL, 0, t, -1);
  return e;
}

static IrExpr *
seq_of(IrCtx *ctx, IrBinding *bindings, int n, bool dataflow, IrExpr *result)
{
  IrExpr *seq = ir_expr_new(ctx, IR_EX_SEQ, L0);
  IrBindingBlock *block = ir_alloc(ctx, sizeof *block);
  block->bindings = bindings;
  block->n = n;
  block->dataflow = dataflow;
  seq->u.seq.blocks = block;
  seq->u.seq.nblocks = 1;
  seq->u.seq.result = result;
  return seq;
}

static IrModule *
module_of(IrCtx *ctx, int n, IrGlobal *globals)
{
  IrModule *m = ir_alloc(ctx, sizeof *m);
  m->name = ir_sym(ctx, "Module");
  m->globals = ir_alloc(ctx, sizeof *m->globals * (size_t)n);
  memcpy(m->globals, globals, sizeof *globals * (size_t)n);
  m->nglobals = n;
  return m;
}

/* What varies between the modules of a test; {0} plus a suffix is the
 * reference module. */
typedef struct {
  const char *sfx;    /* appended to every bound name: a renaming */
  int dim1;           /* x's dim 1 minus 4 (so 0 is 4) */
  bool x_f16;         /* x is float16 instead of float32 */
  bool add_x_twice;   /* lv0 = R.add(x, x) instead of R.add(x, y) */
  bool y_own_var;     /* y's dim 0 is a second symbolic var m, not n */
  int axis_delta;     /* softmax axis is -1 + axis_delta */
  int num_input;      /* func attr "num_input" = 1 + num_input */
  bool gv_dataflow;   /* gv (the output) is a dataflow var */
  IrDType cdtype;     /* dtype of the constant c (void: float32 1.0) */
  uint64_t cbits;     /* bits of c, when cdtype is set */
  bool tir_set;       /* the prim_func adds tir_bits instead of 1.0 */
  uint64_t tir_bits;  /* bits of the prim_func's float64 constant */
  bool swap_index;    /* prim_func reads A[vj, vi] instead of A[vi, vj] */
  bool store_to_a;    /* prim_func stores to A instead of B */
  bool no_helper;     /* no prim_func add_one */
  bool reversed;      /* globals in the other order */
  const char *callee; /* call_tir's callee (NULL: "add_one") */
} Opt;

/*
 * @T.prim_func
 * def add_one(A: T.Buffer((4, 8), "float32"), B: T.Buffer((4, 8), "float32")):
 *     for i in range(4):
 *         for j in range(8):
 *             with T.block("B"):
 *                 vi, vj = T.axis.remap("SS", [i, j])
 *                 B[vi, vj] = A[vi, vj] + T.float32(1.0)
 */
static IrPrimFunc *
build_add_one(IrCtx *ctx, const Opt *o)
{
  IrPrimExpr *i = ir_prim_var(ctx, nm(ctx, "i", o->sfx), IR_I32);
  IrPrimExpr *j = ir_prim_var(ctx, nm(ctx, "j", o->sfx), IR_I32);
  IrPrimExpr *vi = ir_prim_var(ctx, nm(ctx, "vi", o->sfx), IR_I32);
  IrPrimExpr *vj = ir_prim_var(ctx, nm(ctx, "vj", o->sfx), IR_I32);
  IrBuffer *buf[2];
  for (int k = 0; k < 2; k++) {
    buf[k] = ir_alloc(ctx, sizeof *buf[k]);
    buf[k]->name = nm(ctx, k ? "B" : "A", o->sfx);
    buf[k]->dtype = IR_F32;
    buf[k]->shape = prims(ctx, 2, ir_prim_int(ctx, IR_I32, 4), ir_prim_int(ctx, IR_I32, 8));
    buf[k]->ndim = 2;
    buf[k]->scope = ir_sym(ctx, "global");
  }
  double c = 1.0;
  if (o->tir_set)
    memcpy(&c, &o->tir_bits, sizeof c);
  IrPrimExpr *load =
      ir_prim_load(ctx, buf[0], o->swap_index ? prims(ctx, 2, vj, vi) : prims(ctx, 2, vi, vj), 2);
  IrStmt *store = ir_stmt_new(ctx, IR_ST_STORE, L0);
  store->u.store.buffer = buf[o->store_to_a ? 0 : 1];
  store->u.store.indices = prims(ctx, 2, vi, vj);
  store->u.store.n = 2;
  IrDType ct = o->tir_set ? (IrDType){IR_DT_FLOAT, 64, 1} : IR_F32;
  store->u.store.value = ir_prim_bin(ctx, IR_PE_ADD, load, ir_prim_float(ctx, ct, c));
  IrTirBlock *block = ir_alloc(ctx, sizeof *block);
  block->name = ir_sym(ctx, "B");
  block->iters = ir_alloc(ctx, sizeof *block->iters * 2);
  block->niters = 2;
  IrPrimExpr *loop_vars[2] = {i, j}, *iter_vars[2] = {vi, vj};
  for (int k = 0; k < 2; k++) {
    block->iters[k].var = iter_vars[k];
    block->iters[k].dom.min = ir_prim_int(ctx, IR_I32, 0);
    block->iters[k].dom.extent = ir_prim_int(ctx, IR_I32, k ? 8 : 4);
    block->iters[k].kind = IR_ITER_SPATIAL;
    block->iters[k].binding = loop_vars[k];
  }
  block->body = store;
  IrStmt *body = ir_stmt_new(ctx, IR_ST_BLOCK, L0);
  body->u.block = block;
  for (int k = 1; k >= 0; k--) {
    IrStmt *loop = ir_stmt_new(ctx, IR_ST_FOR, L0);
    loop->u.loop.var = loop_vars[k];
    loop->u.loop.min = ir_prim_int(ctx, IR_I32, 0);
    loop->u.loop.extent = ir_prim_int(ctx, IR_I32, k ? 8 : 4);
    loop->u.loop.body = body;
    body = loop;
  }
  IrPrimFunc *f = ir_alloc(ctx, sizeof *f);
  f->params = ir_alloc(ctx, sizeof *f->params * 2);
  f->nparams = 2;
  for (int k = 0; k < 2; k++) {
    f->params[k].var = ir_prim_var(ctx, buf[k]->name, IR_HANDLE);
    f->params[k].buffer = buf[k];
  }
  f->body = body;
  return f;
}

static IrSInfo *
tensor_nx4(IrCtx *ctx, IrPrimExpr *n, int dim1, IrDType t)
{
  return ir_sinfo_tensor(ctx, prims(ctx, 2, n, i64(ctx, 4 + dim1)), 2, t, -1);
}

static IrBinding
bind(IrExpr *var, IrExpr *value)
{
  IrBinding b = {var, value, NULL, {0}};
  return b;
}

/*
 * @R.function
 * def main(x: R.Tensor(("n", 4), "float32"), y: R.Tensor(("n", 4), "float32")):
 *     R.func_attr({"num_input": 1})
 *     with R.dataflow():
 *         lv0 = R.add(x, y)
 *         c = R.const(1.0, "float32")
 *         lv1 = R.multiply(lv0, c)
 *         gv = R.nn.softmax(lv1, axis=-1)
 *         R.output(gv)
 *     lv2 = R.call_tir(cls.add_one, (gv,), out_sinfo=R.Tensor((4, 8), "float32"))
 *     return lv2
 */
static IrFunction *
build_main(IrCtx *ctx, const Opt *o)
{
  IrPrimExpr *n = ir_prim_var(ctx, nm(ctx, "n", o->sfx), IR_I64);
  IrPrimExpr *m = o->y_own_var ? ir_prim_var(ctx, nm(ctx, "m", o->sfx), IR_I64) : n;
  IrExpr *x = ir_var_new(ctx, nm(ctx, "x", o->sfx),
                         tensor_nx4(ctx, n, o->dim1, o->x_f16 ? F16 : IR_F32), false, L0);
  IrExpr *y = ir_var_new(ctx, nm(ctx, "y", o->sfx), tensor_nx4(ctx, m, 0, IR_F32), false, L0);
  IrSInfo *t = tensor_nx4(ctx, n, 0, IR_F32);
  IrExpr *lv0 = ir_var_new(ctx, nm(ctx, "lv0", o->sfx), t, true, L0);
  IrExpr *c =
      ir_var_new(ctx, nm(ctx, "c", o->sfx), ir_sinfo_tensor(ctx, NULL, 0, IR_F32, -1), true, L0);
  IrExpr *lv1 = ir_var_new(ctx, nm(ctx, "lv1", o->sfx), t, true, L0);
  IrExpr *gv = ir_var_new(ctx, nm(ctx, "gv", o->sfx), t, o->gv_dataflow, L0);
  IrSInfo *out = ir_sinfo_tensor(ctx, prims(ctx, 2, i64(ctx, 4), i64(ctx, 8)), 2, IR_F32, -1);
  IrExpr *lv2 = ir_var_new(ctx, nm(ctx, "lv2", o->sfx), out, false, L0);

  IrSym axis_key = ir_sym(ctx, "axis");
  IrAttr *axis = ir_attr_int(ctx, -1 + o->axis_delta);
  IrExpr *softmax = ir_call_op(ctx, &op_def(IR_OP_SOFTMAX)->syn, exprs(ctx, 1, lv1), 1,
                               ir_attr_dict(ctx, &axis_key, &axis, 1), L0);
  IrExpr *callee = ir_expr_new(ctx, IR_EX_GLOBAL, L0);
  callee->u.global = ir_sym(ctx, o->callee ? o->callee : "add_one");
  IrExpr *args = ir_expr_new(ctx, IR_EX_TUPLE, L0);
  args->u.tuple.items = exprs(ctx, 1, gv);
  args->u.tuple.n = 1;
  IrExpr *call_tir =
      ir_call_op(ctx, &op_def(IR_OP_CALL_TIR)->syn, exprs(ctx, 2, callee, args), 2, NULL, L0);
  call_tir->u.call.sinfo_args = ir_alloc(ctx, sizeof(IrSInfo *));
  call_tir->u.call.sinfo_args[0] = out;
  call_tir->u.call.nsinfo_args = 1;

  IrBinding *df = ir_alloc(ctx, sizeof *df * 4);
  df[0] = bind(lv0, call2(ctx, IR_OP_ADD, x, o->add_x_twice ? x : y));
  df[1] = bind(c, o->cdtype.code ? const_f(ctx, o->cdtype, o->cbits)
                                 : const_f(ctx, IR_F32, 0x3f800000));
  df[2] = bind(lv1, call2(ctx, IR_OP_MULTIPLY, lv0, c));
  df[3] = bind(gv, softmax);
  IrBinding *plain = ir_alloc(ctx, sizeof *plain);
  plain[0] = bind(lv2, call_tir);

  IrExpr *body = ir_expr_new(ctx, IR_EX_SEQ, L0);
  IrBindingBlock *blocks = ir_alloc(ctx, sizeof *blocks * 2);
  blocks[0] = (IrBindingBlock){df, 4, true, {0}};
  blocks[1] = (IrBindingBlock){plain, 1, false, {0}};
  body->u.seq.blocks = blocks;
  body->u.seq.nblocks = 2;
  body->u.seq.result = lv2;

  IrFunction *f = ir_alloc(ctx, sizeof *f);
  f->params = exprs(ctx, 2, x, y);
  f->nparams = 2;
  f->ret = out;
  f->body = body;
  f->pure = true;
  IrSym key = ir_sym(ctx, "num_input");
  IrAttr *value = ir_attr_int(ctx, 1 + o->num_input);
  f->attrs = ir_attr_dict(ctx, &key, &value, 1);
  return f;
}

static IrModule *
build(IrCtx *ctx, const Opt *o)
{
  IrGlobal g[2];
  g[0].name = ir_sym(ctx, "main");
  g[0].kind = IR_GLOBAL_RELAX;
  g[0].u.relax = build_main(ctx, o);
  g[1].name = ir_sym(ctx, "add_one");
  g[1].kind = IR_GLOBAL_PRIM;
  g[1].u.prim = build_add_one(ctx, o);
  if (o->reversed) {
    IrGlobal tmp = g[0];
    g[0] = g[1];
    g[1] = tmp;
  }
  return module_of(ctx, o->no_helper ? 1 : 2, o->reversed && o->no_helper ? g + 1 : g);
}

/* Builds the modules of a and b, each in its own context, and compares
 * them; *why gets the message (malloc'd, "" when equal).  Also checks
 * that each module equals itself and that equal modules hash alike. */
static bool
compare(const Opt *a, const Opt *b, char **why)
{
  IrCtx *ca = ir_ctx_new(), *cb = ir_ctx_new();
  IrModule *ma = build(ca, a), *mb = build(cb, b);
  IrBuf buf = {0};
  bool eq = ir_module_equal(ma, mb, &buf);
  assert_true(ir_module_equal(ma, ma, NULL));
  assert_true(ir_module_equal(mb, mb, NULL));
  assert_int_equal(ir_module_equal(mb, ma, NULL), eq); /* symmetric */
  if (eq) {
    assert_int_equal(buf.len, 0);
    assert_true(ir_module_hash(ma) == ir_module_hash(mb));
  } else {
    assert_true(buf.len > 0);
    assert_true(ir_module_hash(ma) != ir_module_hash(mb));
  }
  *why = strdup(buf.data ? buf.data : "");
  ir_buf_free(&buf);
  ir_ctx_free(ca);
  ir_ctx_free(cb);
  return eq;
}

/* b differs from the reference module; the message must be expected. */
static void
expect_unequal(const Opt *b, const char *expected)
{
  Opt a = {.sfx = ""};
  char *why;
  assert_false(compare(&a, b, &why));
  assert_string_equal(why, expected);
  free(why);
}

static void
expect_equal(const Opt *a, const Opt *b)
{
  char *why;
  bool eq = compare(a, b, &why);
  if (!eq)
    print_error("unexpected difference: %s\n", why);
  assert_true(eq);
  free(why);
}

/* --- module tests -------------------------------------------------------- */

static void
test_renamed_equal(void **state)
{
  (void)state;
  Opt a = {.sfx = ""}, b = {.sfx = "_renamed"};
  expect_equal(&a, &a);
  expect_equal(&a, &b);
}

static void
test_two_contexts_same_names(void **state)
{
  (void)state;
  IrCtx *c1 = ir_ctx_new(), *c2 = ir_ctx_new();
  Opt o = {.sfx = ""};
  IrModule *m1 = build(c1, &o), *m2 = build(c2, &o);
  /* the names are interned in two tables: different pointers, same text */
  assert_ptr_not_equal(m1->globals[0].name, m2->globals[0].name);
  assert_true(ir_module_equal(m1, m2, NULL));
  assert_true(ir_module_hash(m1) == ir_module_hash(m2));
  ir_ctx_free(c1);
  ir_ctx_free(c2);
}

static void
test_inconsistent_renaming(void **state)
{
  (void)state;
  Opt b = {.sfx = "", .add_x_twice = true};
  expect_unequal(&b, "function 'main': binding 'lv0' (block 0, binding 0): value: call R.add: "
                     "args[1]: var 'y' vs var 'x'");
}

static void
test_symbolic_vars(void **state)
{
  (void)state;
  Opt b = {.sfx = "", .y_own_var = true};
  expect_unequal(&b, "function 'main': param 1: struct info: dim 0: var 'n' vs var 'm'");
}

static void
test_shape_and_dtype(void **state)
{
  (void)state;
  Opt dim = {.sfx = "", .dim1 = 4};
  expect_unequal(&dim, "function 'main': param 0: struct info: dim 1: 4 vs 8");
  Opt dtype = {.sfx = "", .x_f16 = true};
  expect_unequal(&dtype, "function 'main': param 0: struct info: dtype: float32 vs float16");
}

static void
test_attributes(void **state)
{
  (void)state;
  Opt func = {.sfx = "", .num_input = 1};
  expect_unequal(&func, "function 'main': attrs: \"num_input\": 1 vs 2");
  Opt op = {.sfx = "", .axis_delta = 2};
  expect_unequal(&op, "function 'main': binding 'gv' (block 0, binding 3): value: "
                      "call R.nn.softmax: attrs: \"axis\": -1 vs 1");
}

static void
test_dataflow_var(void **state)
{
  (void)state;
  Opt b = {.sfx = "", .gv_dataflow = true};
  expect_unequal(&b, "function 'main': binding 'gv' (block 0, binding 3): var: "
                     "var vs dataflow var");
}

static void
test_globals(void **state)
{
  (void)state;
  Opt a = {.sfx = ""}, reversed = {.sfx = "2", .reversed = true};
  expect_equal(&a, &reversed);
  Opt missing = {.sfx = "", .no_helper = true};
  expect_unequal(&missing, "function 'add_one' missing in second module");
  Opt callee = {.sfx = "", .callee = "add_two"};
  expect_unequal(&callee, "function 'main': binding 'lv2' (block 1, binding 0): value: "
                          "call R.call_tir: args[0]: global 'add_one' vs global 'add_two'");
  /* the other way round names the other module */
  Opt missing_rev = {.sfx = "", .no_helper = true, .reversed = true};
  char *why;
  assert_false(compare(&missing_rev, &a, &why));
  assert_string_equal(why, "function 'add_one' missing in first module");
  free(why);
}

static void
test_prim_func(void **state)
{
  (void)state;
  Opt swap = {.sfx = "", .swap_index = true};
  expect_unequal(&swap, "function 'add_one': body: for 'i': for 'j': block 'B': store: value: "
                        "lhs of +: index 0: var 'vi' vs var 'vj'");
  Opt store = {.sfx = "", .store_to_a = true};
  expect_unequal(&store, "function 'add_one': body: for 'i': for 'j': block 'B': store: "
                         "buffer 'B' vs buffer 'A'");
}

static Opt
with_const(IrDType t, uint64_t bits)
{
  Opt o = {.sfx = "", .cdtype = t, .cbits = bits};
  return o;
}

static void
test_nan_constants(void **state)
{
  (void)state;
  /* float32: quiet, other payload, negative, signalling */
  uint64_t nans[] = {0x7fc00000, 0x7fc00001, 0xffc00000, 0x7f800001};
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      Opt a = with_const(IR_F32, nans[i]), b = with_const(IR_F32, nans[j]);
      b.sfx = "_b";
      expect_equal(&a, &b);
    }
  Opt h1 = with_const(F16, 0x7e00), h2 = with_const(F16, 0xfc01);
  expect_equal(&h1, &h2);
  IrDType bf16 = {IR_DT_BFLOAT, 16, 1}, f64 = {IR_DT_FLOAT, 64, 1};
  Opt b1 = with_const(bf16, 0x7fc0), b2 = with_const(bf16, 0x7f81);
  expect_equal(&b1, &b2);
  Opt d1 = with_const(f64, 0x7ff8000000000000ULL), d2 = with_const(f64, 0xfff0000000000001ULL);
  expect_equal(&d1, &d2);
  /* infinity is not NaN; integers have no NaN */
  Opt inf = with_const(F16, 0x7c00);
  char *why;
  assert_false(compare(&h1, &inf, &why));
  assert_string_equal(why, "function 'main': binding 'c' (block 0, binding 1): value: "
                           "element 0: bits 0x7e00 vs 0x7c00");
  free(why);
  Opt i1 = with_const(I32, 0x7fc00000), i2 = with_const(I32, 0x7fc00001);
  assert_false(compare(&i1, &i2, &why));
  free(why);
}

static void
test_float_constants(void **state)
{
  (void)state;
  Opt zero = with_const(IR_F32, 0x00000000), neg_zero = with_const(IR_F32, 0x80000000);
  char *why;
  assert_false(compare(&zero, &neg_zero, &why));
  assert_string_equal(why, "function 'main': binding 'c' (block 0, binding 1): value: "
                           "element 0: 0 vs -0 (bits 0x0 vs 0x80000000)");
  free(why);
  Opt two = with_const(IR_F32, 0x40000000);
  expect_unequal(&two, "function 'main': binding 'c' (block 0, binding 1): value: "
                       "element 0: 1 vs 2 (bits 0x3f800000 vs 0x40000000)");
  Opt f16 = with_const(F16, 0x3c00); /* 1.0 in float16 */
  expect_unequal(&f16, "function 'main': binding 'c' (block 0, binding 1): value: "
                       "dtype: float32 vs float16");
}

static void
test_tir_floats(void **state)
{
  (void)state;
  Opt n1 = {.sfx = "", .tir_set = true, .tir_bits = 0x7ff8000000000000ULL};
  Opt n2 = {.sfx = "_2", .tir_set = true, .tir_bits = 0xfff8000000000123ULL};
  expect_equal(&n1, &n2);
  Opt z = {.sfx = "", .tir_set = true, .tir_bits = 0};
  Opt nz = {.sfx = "", .tir_set = true, .tir_bits = 0x8000000000000000ULL};
  char *why;
  assert_false(compare(&z, &nz, &why));
  assert_string_equal(why, "function 'add_one': body: for 'i': for 'j': block 'B': store: value: "
                           "rhs of +: 0 vs -0 (bits 0x0000000000000000 vs 0x8000000000000000)");
  free(why);
}

/* The reference module with main's attrs replaced by {"eps": value}. */
static IrModule *
module_with_attr(IrCtx *ctx, IrAttr *value)
{
  Opt o = {.sfx = ""};
  IrModule *m = build(ctx, &o);
  IrSym key = ir_sym(ctx, "eps");
  m->globals[0].u.relax->attrs = ir_attr_dict(ctx, &key, &value, 1);
  return m;
}

static bool
attrs_equal(IrAttr *(*make_a)(IrCtx *), IrAttr *(*make_b)(IrCtx *), char **why)
{
  IrCtx *ca = ir_ctx_new(), *cb = ir_ctx_new();
  IrModule *ma = module_with_attr(ca, make_a(ca)), *mb = module_with_attr(cb, make_b(cb));
  IrBuf buf = {0};
  bool eq = ir_module_equal(ma, mb, &buf);
  if (eq)
    assert_true(ir_module_hash(ma) == ir_module_hash(mb));
  *why = strdup(buf.data ? buf.data : "");
  ir_buf_free(&buf);
  ir_ctx_free(ca);
  ir_ctx_free(cb);
  return eq;
}

static IrAttr *
nan_a(IrCtx *ctx)
{
  uint64_t bits = 0x7ff8000000000000ULL;
  double d;
  memcpy(&d, &bits, sizeof d);
  return ir_attr_float(ctx, d);
}

static IrAttr *
nan_b(IrCtx *ctx)
{
  uint64_t bits = 0xfff0000000000042ULL;
  double d;
  memcpy(&d, &bits, sizeof d);
  return ir_attr_float(ctx, d);
}

static IrAttr *
zero(IrCtx *ctx)
{
  return ir_attr_float(ctx, 0.0);
}

static IrAttr *
neg_zero(IrCtx *ctx)
{
  return ir_attr_float(ctx, -0.0);
}

static IrAttr *
list_12(IrCtx *ctx)
{
  IrAttr *items[2] = {ir_attr_int(ctx, 1), ir_attr_int(ctx, 2)};
  return ir_attr_list(ctx, items, 2);
}

static IrAttr *
list_13(IrCtx *ctx)
{
  IrAttr *items[2] = {ir_attr_int(ctx, 1), ir_attr_int(ctx, 3)};
  return ir_attr_list(ctx, items, 2);
}

static IrAttr *
str_a(IrCtx *ctx)
{
  return ir_attr_str(ctx, ir_sym(ctx, "NCHW"));
}

static void
test_float_attrs(void **state)
{
  (void)state;
  char *why;
  assert_true(attrs_equal(nan_a, nan_b, &why));
  free(why);
  assert_false(attrs_equal(zero, neg_zero, &why));
  assert_string_equal(why, "function 'main': attrs: \"eps\": 0 vs -0 "
                           "(bits 0x0000000000000000 vs 0x8000000000000000)");
  free(why);
  assert_false(attrs_equal(list_12, list_13, &why));
  assert_string_equal(why, "function 'main': attrs: \"eps\": [1]: 2 vs 3");
  free(why);
  assert_false(attrs_equal(list_12, str_a, &why));
  assert_string_equal(why, "function 'main': attrs: \"eps\": list vs str");
  free(why);
  assert_true(attrs_equal(str_a, str_a, &why));
  free(why);
}

/* lambda P0, P1: (P1 // C, P0) with parameters named a and b. */
static IrAttr *
index_map(IrCtx *ctx, const char *a, const char *b, int64_t c, bool swap)
{
  IrPrimExpr *p[2] = {ir_prim_var(ctx, ir_sym(ctx, a), IR_I64),
                      ir_prim_var(ctx, ir_sym(ctx, b), IR_I64)};
  IrPrimExpr *r[2] = {ir_prim_bin(ctx, IR_PE_FLOORDIV, p[swap ? 0 : 1], i64(ctx, c)),
                      p[swap ? 1 : 0]};
  return ir_attr_index_map(ctx, p, 2, r, 2);
}

static IrAttr *
map_ij(IrCtx *ctx)
{
  return index_map(ctx, "i", "j", 4, false);
}

static IrAttr *
map_ab(IrCtx *ctx)
{
  return index_map(ctx, "a", "b", 4, false);
}

static IrAttr *
map_ij_by_2(IrCtx *ctx)
{
  return index_map(ctx, "i", "j", 2, false);
}

static IrAttr *
map_ij_swapped(IrCtx *ctx)
{
  return index_map(ctx, "i", "j", 4, true);
}

/* Index maps: equal up to the names of their parameters, which they bind
 * (so even identity-mode comparison, CSE's, matches two calls). */
static void
test_index_map_attrs(void **state)
{
  (void)state;
  char *why;
  assert_true(attrs_equal(map_ij, map_ab, &why));
  free(why);
  assert_false(attrs_equal(map_ij, map_ij_by_2, &why));
  assert_string_equal(why, "function 'main': attrs: \"eps\": result 0: rhs of //: 4 vs 2");
  free(why);
  assert_false(attrs_equal(map_ij, map_ij_swapped, &why));
  free(why);
  assert_false(attrs_equal(map_ij, str_a, &why));
  assert_string_equal(why, "function 'main': attrs: \"eps\": index map vs str");
  free(why);
  IrCtx *ctx = ir_ctx_new();
  IrExpr *x = ir_var_new(ctx, ir_sym(ctx, "x"), NULL, false, L0);
  IrSym key = ir_sym(ctx, "index_map");
  IrAttr *m1 = map_ij(ctx), *m2 = map_ab(ctx);
  const IrOpDef *op = &op_def(IR_OP_LAYOUT_TRANSFORM)->syn;
  IrExpr *c1 = ir_call_op(ctx, op, exprs(ctx, 1, x), 1, ir_attr_dict(ctx, &key, &m1, 1), L0);
  IrExpr *c2 = ir_call_op(ctx, op, exprs(ctx, 1, x), 1, ir_attr_dict(ctx, &key, &m2, 1), L0);
  assert_true(ir_call_signature_equal(c1, NULL, c2, NULL));
  assert_true(ir_call_signature_hash(c1, NULL) == ir_call_signature_hash(c2, NULL));
  ir_ctx_free(ctx);
}

/* A missing key, and attrs NULL equal to the empty dict. */
static void
test_attr_keys(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  Opt o = {.sfx = ""};
  IrModule *a = build(ctx, &o), *b = build(ctx, &o);
  IrFunction *fb = b->globals[0].u.relax;
  fb->attrs = ir_attr_dict_set(ctx, fb->attrs, ir_sym(ctx, "global_symbol"),
                               ir_attr_str(ctx, ir_sym(ctx, "main")));
  IrBuf why = {0};
  assert_false(ir_module_equal(a, b, &why));
  assert_string_equal(why.data, "function 'main': attrs: key \"global_symbol\" missing in first");
  ir_buf_free(&why);
  a->globals[0].u.relax->attrs = NULL;
  fb->attrs = ir_attr_dict(ctx, NULL, NULL, 0);
  assert_true(ir_module_equal(a, b, NULL));
  assert_true(ir_module_hash(a) == ir_module_hash(b));
  ir_ctx_free(ctx);
}

/* The public scalar and struct-info comparisons: free vars by identity. */
static void
test_prim_and_sinfo_equal(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrPrimExpr *n = ir_prim_var(ctx, ir_sym(ctx, "n"), IR_I64);
  IrPrimExpr *n2 = ir_prim_var(ctx, ir_sym(ctx, "n"), IR_I64);
  IrPrimExpr *a = ir_prim_bin(ctx, IR_PE_ADD, n, i64(ctx, 1));
  IrPrimExpr *b = ir_prim_bin(ctx, IR_PE_ADD, n, i64(ctx, 1));
  IrPrimExpr *c = ir_prim_bin(ctx, IR_PE_ADD, n2, i64(ctx, 1));
  assert_true(ir_prim_expr_equal(a, b));
  assert_false(ir_prim_expr_equal(a, c)); /* same name, another variable */
  assert_false(ir_prim_expr_equal(a, ir_prim_bin(ctx, IR_PE_MUL, n, i64(ctx, 1))));
  assert_false(ir_prim_expr_equal(i64(ctx, 1), ir_prim_int(ctx, IR_I32, 1)));
  assert_true(
      ir_prim_expr_equal(ir_prim_float(ctx, IR_F32, NAN), ir_prim_float(ctx, IR_F32, -NAN)));
  assert_false(
      ir_prim_expr_equal(ir_prim_float(ctx, IR_F32, 0.0), ir_prim_float(ctx, IR_F32, -0.0)));
  IrSInfo *ta = tensor_nx4(ctx, n, 0, IR_F32), *tb = tensor_nx4(ctx, n, 0, IR_F32);
  assert_true(ir_sinfo_equal(ta, tb));
  assert_false(ir_sinfo_equal(ta, tensor_nx4(ctx, n2, 0, IR_F32)));
  assert_false(ir_sinfo_equal(ta, ir_sinfo_tensor(ctx, NULL, 2, IR_F32, -1)));
  assert_false(ir_sinfo_equal(ta, ir_sinfo_tensor(ctx, ta->u.tensor.shape, 2, IR_F32, 0)));
  IrSInfo *fa[2] = {ta, ir_sinfo_object(ctx)}, *fb[2] = {tb, ir_sinfo_object(ctx)};
  assert_true(ir_sinfo_equal(ir_sinfo_tuple(ctx, fa, 2), ir_sinfo_tuple(ctx, fb, 2)));
  assert_false(ir_sinfo_equal(ir_sinfo_tuple(ctx, fa, 2), ir_sinfo_tuple(ctx, fb, 1)));
  assert_true(ir_sinfo_equal(NULL, NULL));
  assert_false(ir_sinfo_equal(ta, NULL));
  ir_ctx_free(ctx);
}

/*
 * def main(x: R.Tensor(("n",), "float32"), c: R.Prim("bool")):
 *     if c:
 *         lv = R.add(x, x)
 *         y = lv
 *     else:
 *         y = R.multiply(x, x)
 *     @R.function
 *     def f(z: R.Tensor((n,), "float32")):
 *         return z                      # (or x, a captured var)
 *     w = R.match_cast(y, R.Tensor((k,), "float32"))   # (or (n,))
 *     t = (w, y)
 *     return t[0]
 */
static IrModule *
build_nested(IrCtx *ctx, const char *sfx, bool local_returns_x, bool cast_to_n)
{
  IrPrimExpr *n = ir_prim_var(ctx, nm(ctx, "n", sfx), IR_I64);
  IrPrimExpr *k = ir_prim_var(ctx, nm(ctx, "k", sfx), IR_I64);
  IrSInfo *tn = ir_sinfo_tensor(ctx, prims(ctx, 1, n), 1, IR_F32, -1);
  IrSInfo *tk = ir_sinfo_tensor(ctx, prims(ctx, 1, cast_to_n ? n : k), 1, IR_F32, -1);
  IrExpr *x = ir_var_new(ctx, nm(ctx, "x", sfx), tn, false, L0);
  IrExpr *c = ir_var_new(ctx, nm(ctx, "c", sfx), ir_sinfo_prim(ctx, IR_BOOL, NULL), false, L0);
  IrExpr *lv = ir_var_new(ctx, nm(ctx, "lv", sfx), tn, false, L0);
  IrExpr *y = ir_var_new(ctx, nm(ctx, "y", sfx), tn, false, L0);
  IrBinding *then_b = ir_alloc(ctx, sizeof *then_b);
  then_b[0] = bind(lv, call2(ctx, IR_OP_ADD, x, x));
  IrExpr *branch = ir_expr_new(ctx, IR_EX_IF, L0);
  branch->u.branch.cond = c;
  branch->u.branch.then_ = seq_of(ctx, then_b, 1, false, lv);
  branch->u.branch.else_ = seq_of(ctx, NULL, 0, false, call2(ctx, IR_OP_MULTIPLY, x, x));

  IrExpr *z = ir_var_new(ctx, nm(ctx, "z", sfx), tn, false, L0);
  IrFunction *local = ir_alloc(ctx, sizeof *local);
  local->params = exprs(ctx, 1, z);
  local->nparams = 1;
  local->body = seq_of(ctx, NULL, 0, false, local_returns_x ? x : z);
  local->pure = true;
  IrExpr *fn = ir_expr_new(ctx, IR_EX_FUNC, L0);
  fn->u.func = local;
  IrExpr *f = ir_var_new(ctx, nm(ctx, "f", sfx), NULL, false, L0);

  IrExpr *w = ir_var_new(ctx, nm(ctx, "w", sfx), tk, false, L0);
  IrExpr *tuple = ir_expr_new(ctx, IR_EX_TUPLE, L0);
  tuple->u.tuple.items = exprs(ctx, 2, w, y);
  tuple->u.tuple.n = 2;
  IrExpr *t = ir_var_new(ctx, nm(ctx, "t", sfx), NULL, false, L0);
  IrExpr *get = ir_expr_new(ctx, IR_EX_GET, L0);
  get->u.get.tuple = t;
  get->u.get.index = 0;

  IrBinding *bs = ir_alloc(ctx, sizeof *bs * 4);
  bs[0] = bind(y, branch);
  bs[1] = bind(f, fn);
  bs[2] = bind(w, y);
  bs[2].cast = tk;
  bs[3] = bind(t, tuple);
  IrFunction *main_fn = ir_alloc(ctx, sizeof *main_fn);
  main_fn->params = exprs(ctx, 2, x, c);
  main_fn->nparams = 2;
  main_fn->body = seq_of(ctx, bs, 4, false, get);
  main_fn->pure = true;
  IrGlobal g = {ir_sym(ctx, "main"), IR_GLOBAL_RELAX, {.relax = main_fn}};
  return module_of(ctx, 1, &g);
}

static void
test_nested(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *ref = build_nested(ctx, "", false, false);
  IrModule *renamed = build_nested(ctx, "_r", false, false);
  assert_true(ir_module_equal(ref, renamed, NULL));
  assert_true(ir_module_hash(ref) == ir_module_hash(renamed));
  IrBuf why = {0};
  assert_false(ir_module_equal(ref, build_nested(ctx, "", true, false), &why));
  assert_string_equal(why.data, "function 'main': binding 'f' (block 0, binding 1): value: "
                                "result: var 'z' vs var 'x'");
  ir_buf_free(&why);
  /* k is new at the match_cast: n there is a different dim */
  assert_false(ir_module_equal(ref, build_nested(ctx, "", false, true), &why));
  assert_string_equal(why.data, "function 'main': binding 'w' (block 0, binding 2): "
                                "match_cast: dim 0: var 'k' vs var 'n'");
  ir_buf_free(&why);
  ir_ctx_free(ctx);
}

/* --- property test: random modules from a seeded generator ---------------- */

/* The generator draws every choice from xorshift64 (same sequence on every
 * platform).  pick() choices are leaves that change no later structure;
 * the one numbered mutate_at is turned into a different value, so the
 * result differs from the unmutated module in exactly one leaf. */
typedef struct {
  uint64_t state; /* xorshift64 state, never 0 */
  int decisions;  /* pick() calls so far */
  int mutate_at;  /* the pick() to change, or -1 */
  IrCtx *ctx;
  const char *sfx;   /* renaming suffix of bound names */
  IrPrimExpr *n, *m; /* the symbolic vars of the current function */
} Gen;

static uint64_t
xorshift(Gen *g)
{
  uint64_t x = g->state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  g->state = x;
  return x;
}

/* A structural choice in [0, n): never mutated. */
static int
draw(Gen *g, int n)
{
  return (int)(xorshift(g) % (uint64_t)n);
}

/* A leaf choice in [0, n), n >= 2; the mutated one is another value. */
static int
pick(Gen *g, int n)
{
  assert_true(n >= 2);
  int r = draw(g, n);
  if (g->decisions++ == g->mutate_at)
    r = (r + 1) % n;
  return r;
}

/* A dim: 1..4, n, n * 2 or m.  n and m are never neighbours, because a
 * mutation from n to m where neither appeared before is only a renaming. */
static IrPrimExpr *
gen_dim(Gen *g)
{
  int r = pick(g, 7);
  if (r < 4)
    return i64(g->ctx, r + 1);
  if (r == 4)
    return g->n;
  if (r == 5)
    return ir_prim_bin(g->ctx, IR_PE_MUL, g->n, i64(g->ctx, 2));
  return g->m;
}

static IrSInfo *
gen_tensor(Gen *g)
{
  static const IrDType *const dtypes[] = {&IR_F32, &F16, &I32};
  int ndim = 1 + draw(g, 2);
  IrPrimExpr **dims = ir_alloc(g->ctx, sizeof *dims * (size_t)ndim);
  for (int i = 0; i < ndim; i++)
    dims[i] = gen_dim(g);
  return ir_sinfo_tensor(g->ctx, dims, ndim, *dtypes[pick(g, 3)], -1);
}

/* One of the vars so far (a leaf choice when there are several). */
static IrExpr *
gen_use(Gen *g, IrExpr **vars, int nvars)
{
  return vars[nvars >= 2 ? pick(g, nvars) : draw(g, 1)];
}

static IrExpr *
gen_value(Gen *g, IrExpr **vars, int nvars)
{
  static const IrOpId ops[] = {IR_OP_ADD, IR_OP_MULTIPLY, IR_OP_SUBTRACT, IR_OP_MAXIMUM};
  static const uint64_t consts[] = {0x0, 0x80000000, 0x3f800000, 0x40200000, 0x7fc00000};
  IrCtx *ctx = g->ctx;
  switch (draw(g, 3)) {
  case 0: {
    IrOpId op = ops[pick(g, 4)];
    IrExpr *a = gen_use(g, vars, nvars), *b = gen_use(g, vars, nvars);
    return call2(ctx, op, a, b);
  }
  case 1:
    return const_f(ctx, IR_F32, consts[pick(g, 5)]);
  default: {
    IrSym key = ir_sym(ctx, "axis");
    IrAttr *axis = ir_attr_int(ctx, pick(g, 3) - 1);
    return ir_call_op(ctx, &op_def(IR_OP_SOFTMAX)->syn, exprs(ctx, 1, gen_use(g, vars, nvars)), 1,
                      ir_attr_dict(ctx, &key, &axis, 1), L0);
  }
  }
}

static IrFunction *
gen_function(Gen *g)
{
  IrCtx *ctx = g->ctx;
  g->n = ir_prim_var(ctx, nm(ctx, "n", g->sfx), IR_I64);
  g->m = ir_prim_var(ctx, nm(ctx, "m", g->sfx), IR_I64);
  IrFunction *f = ir_alloc(ctx, sizeof *f);
  f->nparams = 1 + draw(g, 3);
  int nbind = 1 + draw(g, 4);
  IrExpr **vars = ir_alloc(ctx, sizeof *vars * (size_t)(f->nparams + nbind));
  for (int i = 0; i < f->nparams; i++)
    vars[i] = ir_var_new(ctx, nm(ctx, ir_printf(ctx, "p%d", i), g->sfx), gen_tensor(g), false, L0);
  f->params = vars;
  IrBinding *bindings = ir_alloc(ctx, sizeof *bindings * (size_t)nbind);
  for (int i = 0; i < nbind; i++) {
    int nvars = f->nparams + i;
    IrExpr *value = gen_value(g, vars, nvars);
    IrExpr *var = ir_var_new(ctx, nm(ctx, ir_printf(ctx, "lv%d", i), g->sfx), gen_tensor(g),
                             i + 1 < nbind, L0);
    bindings[i] = bind(var, value);
    vars[nvars] = var;
  }
  f->body = seq_of(ctx, bindings, nbind, true, vars[f->nparams + nbind - 1]);
  f->ret = gen_tensor(g);
  f->pure = true;
  if (draw(g, 2)) {
    IrSym key = ir_sym(ctx, "num_input");
    IrAttr *value = ir_attr_int(ctx, pick(g, 4));
    f->attrs = ir_attr_dict(ctx, &key, &value, 1);
  }
  return f;
}

/* for i0 in range(e0): [for i1 in range(e1):] B[i..] = A[i.. or swapped] op c */
static IrPrimFunc *
gen_prim_func(Gen *g)
{
  static const IrPrimKind kinds[] = {IR_PE_ADD, IR_PE_MUL, IR_PE_MAX};
  static const double consts[] = {0.0, -0.0, 1.5, NAN};
  IrCtx *ctx = g->ctx;
  int depth = 1 + draw(g, 2);
  IrPrimExpr *loop_vars[2] = {NULL, NULL}, *extents[2] = {NULL, NULL};
  IrBuffer *buf[2];
  for (int k = 0; k < depth; k++) {
    loop_vars[k] = ir_prim_var(ctx, nm(ctx, ir_printf(ctx, "i%d", k), g->sfx), IR_I32);
    extents[k] = ir_prim_int(ctx, IR_I32, 2 + pick(g, 3));
  }
  for (int k = 0; k < 2; k++) {
    buf[k] = ir_alloc(ctx, sizeof *buf[k]);
    buf[k]->name = nm(ctx, k ? "B" : "A", g->sfx);
    buf[k]->dtype = IR_F32;
    buf[k]->shape = prims(ctx, 2, extents[0], depth == 2 ? extents[1] : NULL);
    buf[k]->ndim = depth;
  }
  IrPrimExpr **load_idx = prims(ctx, 2, loop_vars[0], loop_vars[1]);
  if (depth == 2 && pick(g, 2))
    load_idx = prims(ctx, 2, loop_vars[1], loop_vars[0]);
  IrPrimExpr *load = ir_prim_load(ctx, buf[0], load_idx, depth);
  IrPrimKind kind = kinds[pick(g, 3)];
  IrStmt *body = ir_stmt_new(ctx, IR_ST_STORE, L0);
  body->u.store.buffer = buf[1];
  body->u.store.indices = prims(ctx, 2, loop_vars[0], loop_vars[1]);
  body->u.store.n = depth;
  body->u.store.value =
      ir_prim_bin(ctx, kind, load, ir_prim_float(ctx, IR_F32, consts[pick(g, 4)]));
  for (int k = depth - 1; k >= 0; k--) {
    IrStmt *loop = ir_stmt_new(ctx, IR_ST_FOR, L0);
    loop->u.loop.var = loop_vars[k];
    loop->u.loop.min = ir_prim_int(ctx, IR_I32, 0);
    loop->u.loop.extent = extents[k];
    loop->u.loop.body = body;
    body = loop;
  }
  IrPrimFunc *f = ir_alloc(ctx, sizeof *f);
  f->params = ir_alloc(ctx, sizeof *f->params * 2);
  f->nparams = 2;
  for (int k = 0; k < 2; k++) {
    f->params[k].var = ir_prim_var(ctx, buf[k]->name, IR_HANDLE);
    f->params[k].buffer = buf[k];
  }
  f->body = body;
  return f;
}

/* A random module: one or two Relax functions and maybe a prim_func. */
static IrModule *
gen_module(IrCtx *ctx, uint64_t seed, int mutate_at, const char *sfx, bool reversed, int *decisions)
{
  Gen g = {
      .state = seed * 0x9e3779b97f4a7c15ULL | 1, .mutate_at = mutate_at, .ctx = ctx, .sfx = sfx};
  IrGlobal globals[3];
  int n = 1 + draw(&g, 2);
  for (int i = 0; i < n; i++) {
    globals[i].name = ir_sym(ctx, i ? "f1" : "f0");
    globals[i].kind = IR_GLOBAL_RELAX;
    globals[i].u.relax = gen_function(&g);
  }
  if (draw(&g, 2)) {
    globals[n].name = ir_sym(ctx, "p0");
    globals[n].kind = IR_GLOBAL_PRIM;
    globals[n++].u.prim = gen_prim_func(&g);
  }
  for (int i = 0; reversed && i < n / 2; i++) {
    IrGlobal tmp = globals[i];
    globals[i] = globals[n - 1 - i];
    globals[n - 1 - i] = tmp;
  }
  *decisions = g.decisions;
  return module_of(ctx, n, globals);
}

static void
test_property(void **state)
{
  (void)state;
  for (uint64_t seed = 1; seed <= 50; seed++) {
    IrCtx *ca = ir_ctx_new(), *cb = ir_ctx_new(), *cc = ir_ctx_new();
    int decisions, d2, d3;
    IrModule *m = gen_module(ca, seed, -1, "", false, &decisions);
    IrModule *copy = gen_module(cb, seed, -1, "_r", true, &d2);
    assert_int_equal(decisions, d2);
    assert_true(decisions > 0);
    IrBuf why = {0};
    assert_true(ir_module_equal(m, m, NULL));
    if (!ir_module_equal(m, copy, &why))
      fail_msg("seed %d: renamed copy differs: %s", (int)seed, why.data);
    assert_true(ir_module_equal(copy, m, NULL));
    assert_true(ir_module_hash(m) == ir_module_hash(copy));
    assert_true(ir_module_hash(m) == ir_module_hash(m));
    /* one leaf changed, chosen by the seed */
    int at = (int)(seed * 7919 % (uint64_t)decisions);
    IrModule *mutated = gen_module(cc, seed, at, "_m", false, &d3);
    if (ir_module_equal(m, mutated, &why))
      fail_msg("seed %d: mutation %d of %d not detected", (int)seed, at, decisions);
    assert_true(why.len > 0);
    assert_false(ir_module_equal(mutated, m, NULL));
    assert_true(ir_module_hash(m) != ir_module_hash(mutated));
    ir_buf_free(&why);
    ir_ctx_free(ca);
    ir_ctx_free(cb);
    ir_ctx_free(cc);
  }
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_renamed_equal),
      cmocka_unit_test(test_two_contexts_same_names),
      cmocka_unit_test(test_inconsistent_renaming),
      cmocka_unit_test(test_symbolic_vars),
      cmocka_unit_test(test_shape_and_dtype),
      cmocka_unit_test(test_attributes),
      cmocka_unit_test(test_dataflow_var),
      cmocka_unit_test(test_globals),
      cmocka_unit_test(test_prim_func),
      cmocka_unit_test(test_nan_constants),
      cmocka_unit_test(test_float_constants),
      cmocka_unit_test(test_tir_floats),
      cmocka_unit_test(test_float_attrs),
      cmocka_unit_test(test_index_map_attrs),
      cmocka_unit_test(test_attr_keys),
      cmocka_unit_test(test_prim_and_sinfo_equal),
      cmocka_unit_test(test_nested),
      cmocka_unit_test(test_property),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
