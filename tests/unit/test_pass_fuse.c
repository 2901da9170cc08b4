/*
 * test_pass_fuse.c - FuseOps and FuseTIR.
 *
 * Structure checks on the modules of tests/passes/fuse_*.py (LegalizeOps
 * output, see the comment at the top of each), the op patterns read from
 * TIR, and for every one of those modules and every sample (through
 * Normalize, LegalizeOps first): the input's hash is unchanged by each
 * pass, the results are well-formed, print and read back equal, each pass
 * run twice equals once, no Primitive function is left after FuseTIR, and
 * the interpreter gives bit-identical outputs (and R.print text) before
 * (after LegalizeOps) and after for every public function, on random inputs with two sizes of
 * each symbolic dim.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../interp/interp.h"
#include "../../opt/fuse_int.h"
#include "../../opt/opt.h"
#include "testutil.h"

static void
print_diags(IrCtx *ctx, const char *what)
{
  if (ir_error_count(ctx) == 0)
    return;
  char *d = tu_diag_text(ctx);
  printf("%s:\n%s", what, d);
  free(d);
}

static IrModule *
load(IrCtx *ctx, const char *path)
{
  IrModule *m = fe_parse_file(ctx, path);
  print_diags(ctx, path);
  assert_non_null(m);
  return m;
}

static IrModule *
run_pass(IrCtx *ctx, const char *name, const IrModule *m)
{
  const OptPass *p = opt_pass_find(name);
  assert_non_null(p);
  OptContext oc = {.ctx = ctx};
  IrModule *out = p->run(&oc, m);
  print_diags(ctx, name);
  assert_non_null(out);
  return out;
}

static const IrFunction *
relax_fn(IrCtx *ctx, const IrModule *m, const char *name)
{
  const IrGlobal *g = ir_module_find(m, ir_sym(ctx, name));
  if (!g || g->kind != IR_GLOBAL_RELAX)
    return NULL;
  return g->u.relax;
}

static const IrPrimFunc *
prim_fn(IrCtx *ctx, const IrModule *m, const char *name)
{
  const IrGlobal *g = ir_module_find(m, ir_sym(ctx, name));
  if (!g || g->kind != IR_GLOBAL_PRIM)
    return NULL;
  return g->u.prim;
}

/* The only block of f's body. */
static const IrBindingBlock *
only_block(const IrFunction *f)
{
  assert_non_null(f);
  assert_int_equal(f->body->u.seq.nblocks, 1);
  return &f->body->u.seq.blocks[0];
}

/* "call_tir:NAME" or "call:NAME" for a binding's value. */
static const char *
callee_of(IrCtx *ctx, const IrBinding *b)
{
  const IrExpr *c = b->value;
  assert_int_equal(c->kind, IR_EX_CALL);
  if (c->u.call.kind == IR_CALL_GLOBAL)
    return ir_printf(ctx, "call:%s", c->u.call.callee->u.global);
  assert_int_equal(c->u.call.op->id, IR_OP_CALL_TIR);
  return ir_printf(ctx, "call_tir:%s", c->u.call.args[0]->u.global);
}

/* Asserts f's only block calls exactly the listed callees, in order. */
static void
expect_calls(IrCtx *ctx, const IrFunction *f, const char *const *callees, int n)
{
  const IrBindingBlock *blk = only_block(f);
  assert_int_equal(blk->n, n);
  for (int i = 0; i < n; i++)
    assert_string_equal(callee_of(ctx, &blk->bindings[i]), callees[i]);
}

/* A Primitive function as FuseOps makes them. */
static void
expect_primitive(const IrFunction *f)
{
  assert_non_null(f);
  const IrAttr *p = ir_attr_get(f->attrs, "Primitive");
  assert_non_null(p);
  assert_int_equal(p->kind, IR_AT_BOOL);
  assert_true(p->u.b);
  assert_null(ir_attr_get(f->attrs, "global_symbol"));
  assert_true(f->is_private);
  assert_true(f->pure);
  assert_true(only_block(f)->dataflow);
}

/* The top-level statements of a prim_func as the reader lists them. */
static IrVec
top_items(const IrPrimFunc *f)
{
  IrVec items = {0};
  opt_fuse_flatten(&items, f->body);
  return items;
}

static int
count_allocs(const IrPrimFunc *f, IrDType t)
{
  IrVec items = top_items(f);
  int n = 0;
  for (int i = 0; i < items.len; i++) {
    const IrStmt *s = items.items[i];
    n += s->kind == IR_ST_ALLOC && ir_dtype_eq(s->u.alloc.buffer->dtype, t);
  }
  ir_vec_free(&items);
  return n;
}

static int
count_kind(const IrModule *m, IrGlobalKind kind)
{
  int n = 0;
  for (int i = 0; i < m->nglobals; i++)
    n += m->globals[i].kind == kind;
  return n;
}

/* --- random inputs and the interpreter ------------------------------------ */

static int64_t
var_value(const IrFunction *f, const char *name, int64_t want)
{
  const IrAttr *bounds = ir_attr_get(f->attrs, "tir_var_upper_bound");
  const IrAttr *ub = bounds ? ir_attr_get(bounds, name) : NULL;
  return ub && ub->kind == IR_AT_INT && ub->u.i < want ? ub->u.i : want;
}

static int64_t
dim_value(const IrFunction *f, const IrPrimExpr *e, int64_t want)
{
  int64_t v;
  if (ir_prim_is_int(e, &v))
    return v;
  switch (e->kind) {
  case IR_PE_VAR:
    return var_value(f, e->u.var, want);
  case IR_PE_ADD:
    return dim_value(f, e->u.bin.a, want) + dim_value(f, e->u.bin.b, want);
  case IR_PE_MUL:
    return dim_value(f, e->u.bin.a, want) * dim_value(f, e->u.bin.b, want);
  default:
    fail_msg("unexpected parameter dim of kind %d", e->kind);
    return 0;
  }
}

static Value *
random_arg(IrCtx *ctx, const IrFunction *f, const IrSInfo *s, unsigned *seed, int64_t want)
{
  assert_int_equal(s->kind, IR_SI_TENSOR);
  assert_true(s->u.tensor.ndim >= 0 && s->u.tensor.ndim <= 8);
  int64_t dims[8];
  for (int k = 0; k < s->u.tensor.ndim; k++)
    dims[k] = dim_value(f, s->u.tensor.shape[k], want);
  Value *v = op_tensor_new(ctx, s->u.tensor.dtype, s->u.tensor.ndim, dims, (IrLoc){0});
  assert_non_null(v);
  IrTensorData *t = &v->u.tensor.t;
  for (int64_t i = 0; i < op_numel(t); i++) {
    *seed = *seed * 1103515245u + 12345u;
    double r = (double)((*seed >> 8) % 10000);
    if (t->dtype.code == IR_DT_FLOAT)
      op_set_f(t, i, r / 2500.0 - 2.0);
    else
      op_set_i(t, i, (int64_t)r % 7 - 3);
  }
  return v;
}

/* Bit-identical values (NaN matches NaN); fusion changes no arithmetic. */
static bool
identical(const Value *a, const Value *b)
{
  if (!a || !b || a->kind != b->kind)
    return false;
  if (a->kind == VAL_TUPLE) {
    bool same = a->u.tuple.n == b->u.tuple.n;
    for (int i = 0; same && i < a->u.tuple.n; i++)
      same = identical(a->u.tuple.items[i], b->u.tuple.items[i]);
    return same;
  }
  if (a->kind != VAL_TENSOR)
    return false;
  const IrTensorData *x = &a->u.tensor.t, *y = &b->u.tensor.t;
  if (!ir_dtype_eq(x->dtype, y->dtype) || x->ndim != y->ndim || x->nbytes != y->nbytes)
    return false;
  for (int k = 0; k < x->ndim; k++)
    if (x->shape[k] != y->shape[k])
      return false;
  for (int64_t i = 0; i < op_numel(x); i++) {
    double p = op_get_f(x, i), q = op_get_f(y, i);
    if (!(p == q || (isnan(p) && isnan(q))))
      return false;
  }
  return true;
}

/* Calls name in both modules on the same inputs; returns the results and
 * compares what R.print wrote. */
static void
run_both(IrCtx *ctx, const IrModule *before, const IrModule *after, const char *name, int64_t want,
         unsigned seed, Value **x, Value **y)
{
  const IrFunction *f = relax_fn(ctx, before, name);
  Value *args[256];
  assert_true(f->nparams <= 256);
  for (int i = 0; i < f->nparams; i++)
    args[i] = random_arg(ctx, f, f->params[i]->sinfo, &seed, want);
  char *out1 = NULL, *out2 = NULL;
  size_t len1 = 0, len2 = 0;
  FILE *p1 = open_memstream(&out1, &len1), *p2 = open_memstream(&out2, &len2);
  *x = interp_call(interp_new(ctx, before, p1), name, args, f->nparams);
  *y = interp_call(interp_new(ctx, after, p2), name, args, f->nparams);
  fclose(p1);
  fclose(p2);
  print_diags(ctx, name);
  assert_non_null(*x);
  assert_non_null(*y);
  assert_string_equal(out1 ? out1 : "", out2 ? out2 : "");
  free(out1);
  free(out2);
}

/* Every public Relax function of before gives identical results in after,
 * with symbolic dims 3 and 1. */
static void
check_same_outputs(IrCtx *ctx, const char *path, const IrModule *before, const IrModule *after)
{
  for (int g = 0; g < before->nglobals; g++) {
    const IrGlobal *gl = &before->globals[g];
    if (gl->kind != IR_GLOBAL_RELAX || gl->u.relax->is_private)
      continue;
    for (int trial = 0; trial < 2; trial++) {
      Value *x, *y;
      run_both(ctx, before, after, gl->name, trial ? 1 : 3, 77u + (unsigned)trial, &x, &y);
      if (!identical(x, y))
        printf("%s: %s: outputs differ after fusion (trial %d)\n", path, gl->name, trial);
      assert_true(identical(x, y));
    }
  }
}

/* --- the generic checks --------------------------------------------------- */

static void
expect_equal(const IrModule *a, const IrModule *b, const char *what)
{
  IrBuf why = {0};
  bool eq = ir_module_equal(a, b, &why);
  if (!eq)
    printf("%s: %s\n", what, why.data ? why.data : "?");
  ir_buf_free(&why);
  assert_true(eq);
}

static void
expect_round_trip(IrCtx *ctx, const IrModule *m, const char *what)
{
  assert_int_equal(ir_module_check(ctx, m), 0);
  char *text = tu_print(m);
  IrModule *back = fe_parse_string(ctx, "printed.py", text);
  print_diags(ctx, what);
  assert_non_null(back);
  expect_equal(m, back, what);
  free(text);
}

/* pass applied to m: m unchanged, result well-formed, printable, and
 * applying it again gives an equal module. */
static IrModule *
checked_pass(IrCtx *ctx, const char *pass, const IrModule *m, const char *path)
{
  uint64_t h = ir_module_hash(m);
  IrModule *out = run_pass(ctx, pass, m);
  assert_true(ir_module_hash(m) == h);
  IrModule *again = run_pass(ctx, pass, m);
  expect_equal(out, again, "the same input twice");
  expect_round_trip(ctx, out, path);
  IrModule *twice = run_pass(ctx, pass, out);
  expect_equal(out, twice, "twice against once");
  return out;
}

static bool
has_primitive(const IrModule *m)
{
  for (int i = 0; i < m->nglobals; i++)
    if (m->globals[i].kind == IR_GLOBAL_RELAX &&
        ir_attr_get(m->globals[i].u.relax->attrs, "Primitive"))
      return true;
  return false;
}

static void
check_module(const char *path, bool legalize)
{
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, path);
  IrModule *legal = legalize ? run_pass(ctx, "LegalizeOps", run_pass(ctx, "Normalize", m)) : m;
  IrModule *fused = checked_pass(ctx, "FuseOps", legal, path);
  IrModule *tir = checked_pass(ctx, "FuseTIR", fused, path);
  assert_false(has_primitive(tir));
  /* against the legalized module: LegalizeOps's float32 sums differ from
   * the reference kernels' float64 ones, fusion itself changes nothing */
  check_same_outputs(ctx, path, legal, fused);
  check_same_outputs(ctx, path, legal, tir);
  ir_ctx_free(ctx);
}

static void
test_every_fuse_module(void **state)
{
  (void)state;
  int n;
  char **paths = tu_list_py("tests/passes", &n);
  int seen = 0;
  for (int i = 0; i < n; i++)
    if (strstr(paths[i], "/fuse_")) {
      check_module(paths[i], false);
      seen++;
    }
  assert_true(seen >= 6);
  tu_free_list(paths, n);
}

static void
test_every_sample(void **state)
{
  (void)state;
  int n;
  char **paths = tu_list_py("samples", &n);
  assert_true(n >= 3);
  for (int i = 0; i < n; i++)
    if (!tu_sample_is_large(paths[i])) /* too slow for the interpreter here */
      check_module(paths[i], true);
  tu_free_list(paths, n);
}

/* --- structure ------------------------------------------------------------- */

static void
test_conv2d_add_relu(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/fuse_conv2d_add_relu.py");
  IrModule *fo = run_pass(ctx, "FuseOps", m);
  const IrFunction *g = relax_fn(ctx, fo, "fused_conv2d_add_relu");
  expect_primitive(g);
  static const char *const members[] = {"call_tir:conv2d", "call_tir:add", "call_tir:relu"};
  expect_calls(ctx, g, members, 3);
  assert_int_equal(g->nparams, 3);
  static const char *const main_calls[] = {"call:fused_conv2d_add_relu"};
  const IrFunction *mainf = relax_fn(ctx, fo, "main");
  expect_calls(ctx, mainf, main_calls, 1);
  const IrExpr *call = only_block(mainf)->bindings[0].value;
  for (int i = 0; i < 3; i++)
    assert_ptr_equal(call->u.call.args[i], mainf->params[i]);

  IrModule *ft = run_pass(ctx, "FuseTIR", fo);
  const IrPrimFunc *pf = prim_fn(ctx, ft, "fused_conv2d_add_relu");
  assert_non_null(pf);
  assert_int_equal(pf->nparams, 4); /* x, w, b, then the result */
  /* T_conv2d and T_add are read where they are written: add and relu join
   * the conv's loop nest (fuse_tir_inline.c) and no intermediate is left */
  assert_int_equal(count_allocs(pf, IR_F32), 0);
  assert_null(ir_module_find(ft, ir_sym(ctx, "conv2d")));
  assert_null(ir_module_find(ft, ir_sym(ctx, "relu")));
  assert_int_equal(count_kind(ft, IR_GLOBAL_PRIM), 1);
  assert_int_equal(count_kind(ft, IR_GLOBAL_RELAX), 1);
  static const char *const after[] = {"call_tir:fused_conv2d_add_relu"};
  expect_calls(ctx, relax_fn(ctx, ft, "main"), after, 1);
  ir_ctx_free(ctx);
}

static void
test_matmul_add_gelu(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/fuse_matmul_add_gelu.py");
  IrModule *fo = run_pass(ctx, "FuseOps", m);
  static const char *const members[] = {"call_tir:matmul", "call_tir:add", "call_tir:gelu"};
  expect_calls(ctx, relax_fn(ctx, fo, "fused_matmul_add_gelu"), members, 3);
  IrModule *ft = run_pass(ctx, "FuseTIR", fo);
  const IrPrimFunc *pf = prim_fn(ctx, ft, "fused_matmul_add_gelu");
  assert_non_null(pf);
  /* the matmul's float64 accumulator is inlined as it was */
  assert_int_equal(count_allocs(pf, (IrDType){IR_DT_FLOAT, 64, 1}), 1);
  assert_int_equal(count_allocs(pf, IR_F32), 0); /* add and gelu joined the matmul's nest */
  ir_ctx_free(ctx);
}

/* fuse_join.py: exp's result is read transposed, so it stays a buffer and
 * the transpose keeps its own nest; add and relu read their input where
 * the nest before writes it, so they join it and leave no buffer. */
static void
test_join_nests(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/fuse_join.py");
  IrModule *ft = run_pass(ctx, "FuseTIR", run_pass(ctx, "FuseOps", m));
  const IrPrimFunc *pf = prim_fn(ctx, ft, "fused_exp_transpose_add_relu");
  assert_non_null(pf);
  assert_int_equal(count_allocs(pf, IR_F32), 1);
  IrVec items = top_items(pf);
  int nests = 0;
  for (int i = 0; i < items.len; i++) {
    const IrStmt *s = items.items[i];
    if (s->kind == IR_ST_ALLOC)
      assert_string_equal(s->u.alloc.buffer->name, "T_exp");
    nests += s->kind == IR_ST_FOR;
  }
  assert_int_equal(nests, 2); /* exp's, then transpose, add and relu together */
  ir_vec_free(&items);
  ir_ctx_free(ctx);
}

/* fuse_join_silu.py: x = a + b read by the sigmoid and by the product
 * x * sigmoid(x).  The product joins the sigmoid's nest, then that nest
 * joins the add's (each intermediate tried in turn): one nest and no
 * buffer, with the bits of the unfused module. */
static void
test_join_two_consumers(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  const char *path = "tests/passes/fuse_join_silu.py";
  IrModule *m = load(ctx, path);
  IrModule *ft = checked_pass(ctx, "FuseTIR", run_pass(ctx, "FuseOps", m), path);
  const IrPrimFunc *pf = prim_fn(ctx, ft, "fused_add_sigmoid_multiply");
  assert_non_null(pf);
  assert_int_equal(count_allocs(pf, IR_F32), 0);
  IrVec items = top_items(pf);
  int nests = 0;
  for (int i = 0; i < items.len; i++)
    nests += ((const IrStmt *)items.items[i])->kind == IR_ST_FOR;
  assert_int_equal(nests, 1);
  ir_vec_free(&items);
  check_same_outputs(ctx, path, m, ft);
  ir_ctx_free(ctx);
}

static void
test_two_consumers(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/fuse_two_consumers.py");
  IrModule *fo = run_pass(ctx, "FuseOps", m);
  /* main: lv1 is an output too, so relu is not pulled into its group */
  static const char *const mainc[] = {"call:fused_matmul_add", "call_tir:relu"};
  expect_calls(ctx, relax_fn(ctx, fo, "main"), mainc, 2);
  static const char *const mm[] = {"call_tir:matmul", "call_tir:add"};
  expect_calls(ctx, relax_fn(ctx, fo, "fused_matmul_add"), mm, 2);
  /* reduce_consumer: exp feeds a sum that cannot join, so nothing fuses */
  assert_ptr_equal(relax_fn(ctx, fo, "reduce_consumer"), relax_fn(ctx, m, "reduce_consumer"));
  /* diamond: both consumers of a are in the group */
  static const char *const dia[] = {"call_tir:add1", "call_tir:relu2", "call_tir:exp1",
                                    "call_tir:multiply"};
  expect_calls(ctx, relax_fn(ctx, fo, "fused_add1_relu2_exp1_multiply"), dia, 4);
  static const char *const diac[] = {"call:fused_add1_relu2_exp1_multiply"};
  expect_calls(ctx, relax_fn(ctx, fo, "diamond"), diac, 1);
  assert_int_equal(count_kind(fo, IR_GLOBAL_RELAX), 5);
  ir_ctx_free(ctx);
}

/* dedup_groups.py: the two alike matmul -> relu groups are one function,
 * each call with its own inputs; the third (another shape) its own; the
 * outputs are the legalized module's. */
static void
test_alike_groups_share(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  const char *path = "tests/passes/dedup_groups.py";
  IrModule *m = load(ctx, path);
  IrModule *legal = run_pass(ctx, "LegalizeOps", run_pass(ctx, "Normalize", m));
  IrModule *fo = checked_pass(ctx, "FuseOps", legal, path);
  static const char *const mainc[] = {"call:fused_matmul_relu", "call:fused_matmul_relu",
                                      "call:fused_matmul1_relu1"};
  const IrFunction *f = relax_fn(ctx, fo, "main");
  expect_calls(ctx, f, mainc, 3);
  expect_primitive(relax_fn(ctx, fo, "fused_matmul_relu"));
  expect_primitive(relax_fn(ctx, fo, "fused_matmul1_relu1"));
  assert_int_equal(count_kind(fo, IR_GLOBAL_RELAX), 3);
  const IrBindingBlock *blk = only_block(f);
  const IrExpr *second = blk->bindings[1].value;
  assert_ptr_equal(second->u.call.args[0], blk->bindings[0].var);
  assert_ptr_equal(second->u.call.args[1], f->params[1]);
  IrModule *tir = checked_pass(ctx, "FuseTIR", fo, path);
  check_same_outputs(ctx, path, legal, fo);
  check_same_outputs(ctx, path, legal, tir);
  ir_ctx_free(ctx);
}

static void
test_impure_call_splits(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/fuse_impure.py");
  IrModule *fo = run_pass(ctx, "FuseOps", m);
  assert_ptr_equal(relax_fn(ctx, fo, "main"), relax_fn(ctx, m, "main"));
  assert_null(ir_module_find(fo, ir_sym(ctx, "fused_add_relu")));
  static const char *const np[] = {"call_tir:add1", "call_tir:relu1"};
  expect_calls(ctx, relax_fn(ctx, fo, "fused_add1_relu1"), np, 2);
  const IrBindingBlock *blk = only_block(relax_fn(ctx, fo, "no_print"));
  assert_int_equal(blk->n, 2); /* the fused call, then the print */
  assert_string_equal(callee_of(ctx, &blk->bindings[0]), "call:fused_add1_relu1");
  ir_ctx_free(ctx);
}

static void
test_symbolic_batch(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/fuse_symbolic.py");
  IrModule *fo = run_pass(ctx, "FuseOps", m);
  static const char *const mainc[] = {"call:fused_matmul_add_relu", "call:fused_reshape_add1_exp"};
  expect_calls(ctx, relax_fn(ctx, fo, "main"), mainc, 2);
  const IrFunction *g = relax_fn(ctx, fo, "fused_reshape_add1_exp");
  expect_primitive(g);
  /* the function's own n, not main's */
  /* x (which binds n) before y (whose dim n * 8 uses it) */
  assert_string_equal(g->params[0]->u.var.name, "x");
  assert_string_equal(g->params[1]->u.var.name, "y");
  const IrPrimExpr *n = g->params[0]->sinfo->u.tensor.shape[0];
  assert_int_equal(n->kind, IR_PE_VAR);
  const IrFunction *mainf = relax_fn(ctx, fo, "main");
  assert_ptr_not_equal(n, mainf->params[0]->sinfo->u.tensor.shape[0]);

  IrModule *ft = run_pass(ctx, "FuseTIR", fo);
  const IrPrimFunc *pf = prim_fn(ctx, ft, "fused_reshape_add1_exp");
  assert_non_null(pf);
  assert_int_equal(pf->nparams, 3); /* x, y, result: n comes from x's shape */
  const IrPrimExpr *tn = pf->params[0].buffer->shape[0];
  assert_int_equal(tn->kind, IR_PE_VAR);
  assert_string_equal(tn->u.var, "n");
  const IrPrimExpr *y0 = pf->params[1].buffer->shape[0];
  assert_int_equal(y0->kind, IR_PE_MUL);
  assert_ptr_equal(y0->u.bin.a, tn);
  assert_ptr_equal(pf->params[2].buffer->shape[0], tn);
  IrVec items = top_items(pf);
  int allocs = 0;
  for (int i = 0; i < items.len; i++) {
    const IrStmt *s = items.items[i];
    if (s->kind == IR_ST_ALLOC) {
      assert_ptr_equal(s->u.alloc.buffer->shape[0], tn);
      allocs++;
    }
    if (s->kind == IR_ST_FOR) /* every loop nest runs to the unified n */
      assert_ptr_equal(s->u.loop.extent, tn);
  }
  assert_int_equal(allocs, 0); /* each consumer joined its producer's nest */
  ir_vec_free(&items);
  ir_ctx_free(ctx);
}

static void
test_block_style_classified(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/fuse_blocks.py");
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, m, "mm")), FUSE_OUT_EWISE);
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, m, "bias")), FUSE_BROADCAST);
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, m, "act")), FUSE_ELEMWISE);
  IrModule *ft = run_pass(ctx, "FuseTIR", run_pass(ctx, "FuseOps", m));
  const IrPrimFunc *pf = prim_fn(ctx, ft, "fused_mm_bias_act");
  assert_non_null(pf);
  assert_int_equal(count_kind(ft, IR_GLOBAL_PRIM), 1);
  ir_ctx_free(ctx);
}

/* Patterns of what LegalizeOps emits, and of the op_pattern attribute. */
static void
test_patterns(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *conv = load(ctx, "tests/passes/fuse_conv2d_add_relu.py");
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, conv, "conv2d")), FUSE_OUT_EWISE);
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, conv, "add")), FUSE_BROADCAST);
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, conv, "relu")), FUSE_ELEMWISE);
  IrModule *sym = load(ctx, "tests/passes/fuse_symbolic.py");
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, sym, "reshape")), FUSE_INJECTIVE);
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, sym, "add1")), FUSE_ELEMWISE);
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, sym, "matmul")), FUSE_OUT_EWISE);
  IrModule *two = load(ctx, "tests/passes/fuse_two_consumers.py");
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, two, "sum")), FUSE_COMM_REDUCE);
  IrModule *cnn = run_pass(ctx, "LegalizeOps", load(ctx, "samples/tiny_cnn.py"));
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, cnn, "transpose")), FUSE_INJECTIVE);
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, cnn, "max_pool2d")), FUSE_COMM_REDUCE);
  /* mlp_lowered.py carries TVM's attribute: softmax is 4 there */
  IrModule *low = load(ctx, "samples/mlp_lowered.py");
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, low, "softmax")), FUSE_OUT_EWISE);
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, low, "transpose")), FUSE_INJECTIVE);
  ir_ctx_free(ctx);
}

static bool
is_kernel_call(const IrPrimExpr *e, const IrStmt *s, void *user)
{
  (void)s;
  (void)user;
  return ir_tir_kernel_of(e) != NULL;
}

static bool
calls_kernel(const IrPrimFunc *f)
{
  IrTirVisitor v = {.expr = is_kernel_call};
  return f && ir_tir_walk(f->body, &v);
}

/* [opt] kernels: the matmul's tile is a kernel call, which the pattern
 * analysis reads as the loops it replaces (out-elementwise-fusable), so
 * add and relu still fuse into it and FuseTIR keeps the call; a kernel
 * writing a parameter (tests/script/call_extern_kernel.py) is opaque. */
static void
test_kernel_patterns(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_parse_string(
      ctx, "dense.py",
      "@I.ir_module\nclass Module:\n    @R.function\n"
      "    def main(x: R.Tensor((37, 64), dtype=\"float32\"), w: R.Tensor((64, 40), "
      "dtype=\"float32\"), b: R.Tensor((40,), dtype=\"float32\")) -> R.Tensor((37, 40), "
      "dtype=\"float32\"):\n"
      "        with R.dataflow():\n            lv = R.matmul(x, w)\n"
      "            lv1 = R.add(lv, b)\n            gv = R.nn.relu(lv1)\n"
      "            R.output(gv)\n        return gv\n");
  assert_non_null(m);
  IrModule *lz = opt_legalize_ops_for(ctx, m, 0, true);
  assert_non_null(lz);
  const IrPrimFunc *mm = prim_fn(ctx, lz, "matmul");
  assert_true(calls_kernel(mm));
  assert_int_equal(opt_fuse_pattern_of(mm), FUSE_OUT_EWISE);
  assert_false(calls_kernel(prim_fn(ctx, opt_legalize_ops(ctx, m), "matmul"))); /* off: loops */
  IrModule *ft = run_pass(ctx, "FuseTIR", run_pass(ctx, "FuseOps", lz));
  assert_int_equal(count_kind(ft, IR_GLOBAL_PRIM), 1);
  assert_true(calls_kernel(prim_fn(ctx, ft, "fused_matmul_add_relu")));
  IrModule *own = load(ctx, "tests/script/call_extern_kernel.py");
  assert_true(calls_kernel(prim_fn(ctx, own, "matmul")));
  assert_int_equal(opt_fuse_pattern_of(prim_fn(ctx, own, "matmul")), FUSE_OPAQUE);
  ir_ctx_free(ctx);
}

/* FuseOps asks for legalized input; the pass manager names LegalizeOps. */
static void
test_needs_legalized(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "samples/mlp.py");
  const OptPass *p = opt_pass_find("FuseOps");
  OptContext oc = {.ctx = ctx};
  OptInstruments ins = {false, false, NULL, stderr, IR_DIALECT_V0_23};
  assert_null(opt_run(&oc, m, &p, 1, &ins));
  char *text = tu_diag_text(ctx);
  assert_non_null(strstr(text, "LegalizeOps"));
  free(text);
  ir_ctx_free(ctx);
}

/* The output comparison can fail: relu and no relu differ. */
static void
test_difference_is_caught(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *a = load(ctx, "tests/passes/fuse_impure.py");
  Value *x, *y;
  run_both(ctx, a, a, "no_print", 3, 5u, &x, &y);
  assert_true(identical(x, y));
  Value *z = op_tensor_new(ctx, IR_F32, x->u.tensor.t.ndim, x->u.tensor.t.shape, (IrLoc){0});
  assert_false(identical(x, z)); /* relu(2x) of random data is not all zero */
  ir_ctx_free(ctx);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_conv2d_add_relu),        cmocka_unit_test(test_matmul_add_gelu),
      cmocka_unit_test(test_two_consumers),          cmocka_unit_test(test_alike_groups_share),
      cmocka_unit_test(test_impure_call_splits),     cmocka_unit_test(test_symbolic_batch),
      cmocka_unit_test(test_block_style_classified), cmocka_unit_test(test_patterns),
      cmocka_unit_test(test_kernel_patterns),        cmocka_unit_test(test_needs_legalized),
      cmocka_unit_test(test_difference_is_caught),   cmocka_unit_test(test_join_nests),
      cmocka_unit_test(test_join_two_consumers),     cmocka_unit_test(test_every_fuse_module),
      cmocka_unit_test(test_every_sample),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
