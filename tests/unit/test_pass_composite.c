/*
 * test_pass_composite.c - FuseOpsByPattern, MergeCompositeFunctions and
 * RemoveUnusedOutputs, on the modules of tests/passes/.
 *
 * Every pass is checked for the properties every pass owes (input hash
 * unchanged, output well-formed, twice equals once, the interpreter gives
 * the same outputs before and after on random inputs), then for what it
 * must do, counted by hand from the modules: which functions appear, with
 * which attributes, which indices the callers read.  The regression tests
 * rebuild TVM's two failures: composite calls outside `main` with a shape
 * node shared by two functions (MergeCompositeFunctions), and tuple
 * results used whole (RemoveUnusedOutputs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../interp/interp.h"
#include "../../opt/opt.h"
#include "testutil.h"

typedef IrModule *(*PassFn)(const OptContext *oc, const IrModule *m);

static IrModule *
load(IrCtx *ctx, const char *path)
{
  IrModule *m = fe_parse_file(ctx, path);
  if (!m || ir_error_count(ctx) > 0) {
    char *d = tu_diag_text(ctx);
    printf("%s", d);
    free(d);
  }
  assert_non_null(m);
  return m;
}

static const IrFunction *
find_func(const IrModule *m, const char *name)
{
  for (int i = 0; i < m->nglobals; i++)
    if (strcmp(m->globals[i].name, name) == 0 && m->globals[i].kind == IR_GLOBAL_RELAX)
      return m->globals[i].u.relax;
  return NULL;
}

/* The string attribute key of f, or NULL. */
static const char *
str_attr(const IrFunction *f, const char *key)
{
  const IrAttr *a = ir_attr_get(f->attrs, key);
  return a && a->kind == IR_AT_STR ? a->u.s : NULL;
}

/* Number of Relax globals whose attribute key is value (any value: NULL). */
static int
count_with_attr(const IrModule *m, const char *key, const char *value)
{
  int n = 0;
  for (int i = 0; i < m->nglobals; i++) {
    if (m->globals[i].kind != IR_GLOBAL_RELAX)
      continue;
    const char *s = str_attr(m->globals[i].u.relax, key);
    if (s && (!value || strcmp(s, value) == 0))
      n++;
  }
  return n;
}

/* The binding of var `name` in the top-level blocks of f. */
static const IrBinding *
find_binding(const IrFunction *f, const char *name)
{
  const IrExpr *seq = f->body;
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++) {
      const IrBinding *b = &seq->u.seq.blocks[i].bindings[j];
      if (b->var && strcmp(b->var->u.var.name, name) == 0)
        return b;
    }
  return NULL;
}

/* Calls in the top-level blocks of f of globals whose attribute key is
 * set, and calls of op (IR_OP_COUNT: none counted). */
static int
count_calls(const IrModule *m, const IrFunction *f, const char *key, IrOpId op)
{
  int n = 0;
  const IrExpr *seq = f->body;
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++) {
      const IrExpr *v = seq->u.seq.blocks[i].bindings[j].value;
      if (!v || v->kind != IR_EX_CALL)
        continue;
      if (v->u.call.kind == IR_CALL_OP && v->u.call.op->id == op)
        n++;
      if (key && v->u.call.kind == IR_CALL_GLOBAL) {
        const IrFunction *callee = find_func(m, v->u.call.callee->u.global);
        if (callee && ir_attr_get(callee->attrs, key))
          n++;
      }
    }
  return n;
}

/* --- running both modules on random inputs ------------------------------------ */

static uint64_t
next_random(uint64_t *state)
{
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return *state >> 11;
}

/* A random value for a parameter with static tensor struct info. */
static Value *
random_value(IrCtx *ctx, const IrSInfo *s, uint64_t *state)
{
  if (s->kind == IR_SI_TUPLE) {
    Value **items = ir_alloc(ctx, (size_t)(s->u.tuple.n + 1) * sizeof *items);
    for (int i = 0; i < s->u.tuple.n; i++)
      items[i] = random_value(ctx, s->u.tuple.fields[i], state);
    return op_tuple_new(ctx, items, s->u.tuple.n);
  }
  assert_int_equal(s->kind, IR_SI_TENSOR);
  int64_t dims[8];
  for (int i = 0; i < s->u.tensor.ndim; i++)
    assert_true(ir_prim_is_int(s->u.tensor.shape[i], &dims[i]));
  IrLoc none = {0};
  Value *v = op_tensor_new(ctx, s->u.tensor.dtype, s->u.tensor.ndim, dims, none);
  IrTensorData *t = &v->u.tensor.t;
  for (int64_t i = 0; i < op_numel(t); i++)
    op_set_f(t, i, (double)(next_random(state) % 2001) / 1000.0 - 1.0);
  return v;
}

static void
assert_values_equal(const Value *a, const Value *b)
{
  assert_non_null(a);
  assert_non_null(b);
  assert_int_equal(a->kind, b->kind);
  if (a->kind == VAL_TUPLE) {
    assert_int_equal(a->u.tuple.n, b->u.tuple.n);
    for (int i = 0; i < a->u.tuple.n; i++)
      assert_values_equal(a->u.tuple.items[i], b->u.tuple.items[i]);
    return;
  }
  assert_int_equal(a->kind, VAL_TENSOR);
  assert_int_equal(a->u.tensor.t.nbytes, b->u.tensor.t.nbytes);
  assert_memory_equal(a->u.tensor.t.data, b->u.tensor.t.data, a->u.tensor.t.nbytes);
}

/* Every public function of before (Codegen ones aside) gives bit-equal
 * outputs in after on the same random inputs; three trials each. */
static void
assert_same_outputs(IrCtx *ctx, const IrModule *before, const IrModule *after)
{
  Interp *ia = interp_new(ctx, before, NULL), *ib = interp_new(ctx, after, NULL);
  int ran = 0;
  for (int i = 0; i < before->nglobals; i++) {
    const IrGlobal *g = &before->globals[i];
    if (g->kind != IR_GLOBAL_RELAX || g->u.relax->is_private || ir_attr_get(g->u.relax->attrs, "Codegen"))
      continue;
    for (uint64_t trial = 0; trial < 3; trial++) {
      uint64_t state = 12345 + trial * 77;
      const IrFunction *f = g->u.relax;
      Value **args = ir_alloc(ctx, (size_t)(f->nparams + 1) * sizeof *args);
      for (int p = 0; p < f->nparams; p++)
        args[p] = random_value(ctx, f->params[p]->sinfo, &state);
      Value *ra = interp_call(ia, g->name, args, f->nparams);
      Value *rb = interp_call(ib, g->name, args, f->nparams);
      if (!ra || !rb) {
        char *d = tu_diag_text(ctx);
        printf("%s: %s", g->name, d);
        free(d);
      }
      assert_values_equal(ra, rb);
      ran++;
    }
  }
  assert_true(ran > 0);
}

/* Runs pass on m and checks what every pass owes; returns the output. */
static IrModule *
run_checked(IrCtx *ctx, const IrModule *m, PassFn pass, const char *patterns)
{
  OptContext oc = {.ctx = ctx, .patterns = patterns};
  uint64_t hash = ir_module_hash(m);
  char *text = tu_print(m);
  IrModule *once = pass(&oc, m);
  if (!once) {
    char *d = tu_diag_text(ctx);
    printf("%s", d);
    free(d);
  }
  assert_non_null(once);
  assert_true(ir_module_hash(m) == hash);
  char *text_after = tu_print(m);
  assert_string_equal(text, text_after);
  free(text);
  free(text_after);
  int errors = ir_module_check(ctx, once);
  if (errors) {
    char *d = tu_diag_text(ctx);
    printf("%s", d);
    free(d);
  }
  assert_int_equal(errors, 0);
  IrModule *twice = pass(&oc, once);
  assert_non_null(twice);
  IrBuf why = {0};
  bool equal = ir_module_equal(once, twice, &why);
  if (!equal)
    printf("twice != once: %s\n", why.data);
  assert_true(equal);
  ir_buf_free(&why);
  /* the printed output reads back equal */
  char *printed = tu_print(once);
  IrModule *back = fe_parse_string(ctx, "printed.py", printed);
  assert_non_null(back);
  equal = ir_module_equal(once, back, &why);
  if (!equal)
    printf("reprint differs: %s\n%s", why.data, printed);
  assert_true(equal);
  ir_buf_free(&why);
  free(printed);
  assert_same_outputs(ctx, m, once);
  return once;
}

/* --- FuseOpsByPattern ---------------------------------------------------------- */

/* conv2d+bias+relu, matmul+add(+relu, +gelu) and permute_dims+matmul, in
 * three functions: six composite functions with their pattern names. */
static void
test_fuse_three_functions(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/composite_three_funcs.py");
  IrModule *out = run_checked(ctx, m, opt_fuse_ops_by_pattern, NULL);
  assert_int_equal(count_with_attr(out, "Composite", NULL), 6);
  assert_int_equal(count_with_attr(out, "Composite", "rxc.conv2d_bias_relu"), 2);
  assert_int_equal(count_with_attr(out, "Composite", "rxc.matmul_add_gelu"), 1);
  assert_int_equal(count_with_attr(out, "Composite", "rxc.matmul_add_relu"), 1);
  assert_int_equal(count_with_attr(out, "Composite", "rxc.matmul_add"), 1);
  assert_int_equal(count_with_attr(out, "Composite", "rxc.dense"), 1);
  const IrFunction *conv = find_func(out, "conv_block");
  assert_int_equal(count_calls(out, conv, "Composite", IR_OP_CONV2D), 1);
  assert_int_equal(count_calls(out, conv, NULL, IR_OP_CONV2D), 0);
  assert_int_equal(count_calls(out, find_func(out, "dense_block"), "Composite", IR_OP_COUNT), 2);
  const IrFunction *main_fn = find_func(out, "main");
  assert_int_equal(count_calls(out, main_fn, "Composite", IR_OP_COUNT), 3);
  /* what stays: the reshape, the add of the two branches, the call */
  assert_int_equal(count_calls(out, main_fn, NULL, IR_OP_ADD), 1);
  /* the chain's last var stays bound, to the composite call */
  const IrBinding *lv2 = find_binding(main_fn, "lv2");
  assert_non_null(lv2);
  assert_int_equal(lv2->value->u.call.kind, IR_CALL_GLOBAL);
  assert_null(find_binding(main_fn, "lv0"));
  const IrFunction *callee = find_func(out, lv2->value->u.call.callee->u.global);
  assert_true(callee->is_private);
  assert_string_equal(str_attr(callee, "Composite"), "rxc.conv2d_bias_relu");
  const IrAttr *prim = ir_attr_get(callee->attrs, "Primitive");
  assert_true(prim && prim->kind == IR_AT_BOOL && prim->u.b);
  assert_int_equal(callee->nparams, 3);
  assert_true(callee->body->u.seq.blocks[0].dataflow);
  assert_int_equal(callee->body->u.seq.blocks[0].n, 3);
  ir_ctx_free(ctx);
}

/* An intermediate used outside the chain keeps the chain apart. */
static void
test_fuse_needs_single_use(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/composite_shared_use.py");
  IrModule *out = run_checked(ctx, m, opt_fuse_ops_by_pattern, NULL);
  assert_int_equal(count_with_attr(out, "Composite", NULL), 0);
  assert_true(ir_module_equal(out, opt_normalize(ctx, m), NULL));
  ir_ctx_free(ctx);
}

/* --patterns selects: conv2d_relu alone matches nothing here (the bias add
 * sits between), matmul_add alone takes the matmul+add heads of main's two
 * chains and dense_block's; an unknown name is an error. */
static void
test_fuse_selected_patterns(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/composite_three_funcs.py");
  IrModule *a = run_checked(ctx, m, opt_fuse_ops_by_pattern, "rxc.conv2d_relu");
  assert_int_equal(count_with_attr(a, "Composite", NULL), 0);
  IrModule *b = run_checked(ctx, m, opt_fuse_ops_by_pattern, "rxc.matmul_add");
  assert_int_equal(count_with_attr(b, "Composite", "rxc.matmul_add"), 3);
  assert_int_equal(count_with_attr(b, "Composite", NULL), 3);
  OptContext oc = {.ctx = ctx, .patterns = "rxc.matmul_add,rxc.nope"};
  assert_null(opt_fuse_ops_by_pattern(&oc, m));
  assert_true(ir_error_count(ctx) > 0);
  char *d = tu_diag_text(ctx);
  assert_non_null(strstr(d, "unknown pattern 'rxc.nope'"));
  free(d);
  ir_ctx_free(ctx);
}

/* --- MergeCompositeFunctions ------------------------------------------------------ */

/* The shape node of conv_block's reshape, made the one main's reshape uses:
 * the same IrExpr in two functions. */
static void
share_shape_node(IrModule *m)
{
  const IrBinding *a = find_binding(find_func(m, "conv_block"), "gv");
  const IrBinding *b = find_binding(find_func(m, "main"), "lv3");
  assert_non_null(a);
  assert_non_null(b);
  assert_int_equal(a->value->u.call.args[1]->kind, IR_EX_SHAPE);
  b->value->u.call.args[1] = a->value->u.call.args[1];
}

/* Regression for TVM's failure #2: composite calls in three functions (TVM
 * handled only main: "Variable could not be found in any group") and one
 * R.shape node shared by two of them (TVM: "Check failed:
 * (!group_map.count(obj))").  Every function gets its Codegen calls. */
static void
test_merge_every_function_shared_shape(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/composite_three_funcs.py");
  share_shape_node(m);
  OptContext oc = {.ctx = ctx};
  IrModule *fused = opt_fuse_ops_by_pattern(&oc, m);
  assert_non_null(fused);
  /* the sharing survives fusion: still one node in two functions */
  assert_ptr_equal(find_binding(find_func(fused, "conv_block"), "gv")->value->u.call.args[1],
                   find_binding(find_func(fused, "main"), "lv3")->value->u.call.args[1]);
  IrModule *out = run_checked(ctx, fused, opt_merge_composite_functions, NULL);
  const char *funcs[] = {"conv_block", "dense_block", "main"};
  const int codegen_calls[] = {1, 1, 3};
  for (int i = 0; i < 3; i++) {
    const IrFunction *f = find_func(out, funcs[i]);
    assert_int_equal(count_calls(out, f, "Composite", IR_OP_COUNT), 0);
    assert_int_equal(count_calls(out, f, "Codegen", IR_OP_COUNT), codegen_calls[i]);
  }
  /* dense_block's two composite calls form one group: 5 Codegen functions;
   * the Composite globals now live inside them only */
  assert_int_equal(count_with_attr(out, "Codegen", "rxc"), 5);
  assert_int_equal(count_with_attr(out, "Composite", NULL), 0);
  const IrFunction *dense = find_func(out, "rxc_dense_block_0");
  assert_non_null(dense);
  assert_false(dense->is_private);
  assert_int_equal(dense->nparams, 4);
  const IrBindingBlock *blk = &dense->body->u.seq.blocks[0];
  assert_int_equal(blk->n, 4); /* two local functions, two calls */
  assert_int_equal(blk->bindings[0].value->kind, IR_EX_FUNC);
  assert_string_equal(str_attr(blk->bindings[0].value->u.func, "Composite"), "rxc.dense");
  assert_int_equal(blk->bindings[2].value->u.call.kind, IR_CALL_VAR);
  ir_ctx_free(ctx);
}

/* Grouping in main: c1 and c2 merge though p, not offloaded, reads c1
 * between them (p moves after the merged call); c3 would close a cycle
 * through q, so it is a group of its own.  In `other`, a plain block's
 * call and an if branch's call each get a Codegen function. */
static void
test_merge_groups_and_cycles(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/composite_groups.py");
  IrModule *out = run_checked(ctx, m, opt_merge_composite_functions, NULL);
  /* main: {c1, c2} and {c3}; other: y, and the branch's call */
  assert_int_equal(count_with_attr(out, "Codegen", "rxc"), 4);
  assert_int_equal(count_with_attr(out, "Composite", NULL), 0);
  const IrFunction *g0 = find_func(out, "rxc_main_0");
  assert_non_null(g0);
  assert_int_equal(g0->nparams, 2); /* x, w */
  assert_int_equal(g0->ret->kind, IR_SI_TUPLE);
  assert_int_equal(g0->ret->u.tuple.n, 2); /* c1 (read by p) and c2 */
  const IrFunction *main_fn = find_func(out, "main");
  /* p reads c1, so it moved after the merged call and its gets */
  const IrBindingBlock *blk = &main_fn->body->u.seq.blocks[0];
  assert_string_equal(blk->bindings[1].var->u.var.name, "c1");
  assert_string_equal(blk->bindings[3].var->u.var.name, "p");
  const IrBinding *c3 = find_binding(main_fn, "c3");
  assert_string_equal(c3->value->u.call.callee->u.global, "rxc_main_1");
  ir_ctx_free(ctx);
}

/* --- RemoveUnusedOutputs -------------------------------------------------------- */

static int
ret_len(const IrModule *m, const char *name)
{
  const IrFunction *f = find_func(m, name);
  assert_non_null(f);
  assert_int_equal(f->ret->kind, IR_SI_TUPLE);
  return f->ret->u.tuple.n;
}

static int
get_index(const IrModule *m, const char *func, const char *var)
{
  const IrBinding *b = find_binding(find_func(m, func), var);
  assert_non_null(b);
  assert_int_equal(b->value->kind, IR_EX_GET);
  return b->value->u.get.index;
}

/* Partly used results shrink and the callers' gets are renumbered. */
static void
test_unused_partial(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/unused_partial.py");
  IrModule *out = run_checked(ctx, m, opt_remove_unused_outputs, NULL);
  assert_int_equal(ret_len(out, "three"), 2);
  assert_int_equal(ret_len(out, "pair"), 1);
  assert_int_equal(get_index(out, "main", "t0"), 0);
  assert_int_equal(get_index(out, "main", "t2"), 1);
  assert_int_equal(get_index(out, "main", "u1"), 0);
  /* three's result keeps a and c */
  const IrExpr *r = find_func(out, "three")->body->u.seq.result;
  assert_string_equal(r->u.tuple.items[0]->u.var.name, "a");
  assert_string_equal(r->u.tuple.items[1]->u.var.name, "c");
  ir_ctx_free(ctx);
}

/* Regression for TVM's failure #3: a result returned whole, passed to a
 * call, put in a tuple, or bound to another var keeps every element (TVM
 * replaced the live ones by NaN).  Nothing changes. */
static void
test_unused_whole_uses_keep_all(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/unused_whole.py");
  IrModule *out = run_checked(ctx, m, opt_remove_unused_outputs, NULL);
  const char *names[] = {"ret_whole", "passed_on", "in_tuple", "aliased"};
  for (int i = 0; i < 4; i++)
    assert_int_equal(ret_len(out, names[i]), 2);
  assert_true(ir_module_equal(m, out, NULL));
  ir_ctx_free(ctx);
}

/* Used in one caller and not another: only what some caller reads stays;
 * a whole use in any caller keeps all. */
static void
test_unused_across_callers(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = load(ctx, "tests/passes/unused_callers.py");
  IrModule *out = run_checked(ctx, m, opt_remove_unused_outputs, NULL);
  assert_int_equal(ret_len(out, "split"), 1);
  assert_int_equal(get_index(out, "first", "b"), 0);
  assert_int_equal(ret_len(out, "kept"), 2);
  assert_int_equal(get_index(out, "first", "k0"), 0);
  /* the call took the new struct info; so did first's annotated var */
  const IrBinding *t = find_binding(find_func(out, "main"), "t");
  assert_null(t->var->sinfo); /* not annotated in the text */
  assert_int_equal(t->value->sinfo->u.tuple.n, 1);
  ir_ctx_free(ctx);
}

/* Public functions never lose outputs. */
static void
test_unused_public_kept(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_parse_string(ctx, "pub.py",
                                "@I.ir_module\n"
                                "class Module:\n"
                                "    @R.function\n"
                                "    def two(x: R.Tensor((3,), dtype=\"float32\")) -> R.Tuple(R.Tensor((3,), dtype=\"float32\"), R.Tensor((3,), dtype=\"float32\")):\n"
                                "        a = R.add(x, x)\n"
                                "        return (a, x)\n"
                                "\n"
                                "    @R.function\n"
                                "    def main(x: R.Tensor((3,), dtype=\"float32\")) -> R.Tensor((3,), dtype=\"float32\"):\n"
                                "        cls = Module\n"
                                "        t = cls.two(x)\n"
                                "        t0 = t[0]\n"
                                "        return t0\n");
  assert_non_null(m);
  IrModule *out = run_checked(ctx, m, opt_remove_unused_outputs, NULL);
  assert_int_equal(ret_len(out, "two"), 2);
  assert_true(ir_module_equal(m, out, NULL));
  ir_ctx_free(ctx);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fuse_three_functions),
      cmocka_unit_test(test_fuse_needs_single_use),
      cmocka_unit_test(test_fuse_selected_patterns),
      cmocka_unit_test(test_merge_every_function_shared_shape),
      cmocka_unit_test(test_merge_groups_and_cycles),
      cmocka_unit_test(test_unused_partial),
      cmocka_unit_test(test_unused_whole_uses_keep_all),
      cmocka_unit_test(test_unused_across_callers),
      cmocka_unit_test(test_unused_public_kept),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
