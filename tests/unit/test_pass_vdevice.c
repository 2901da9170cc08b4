/*
 * test_pass_vdevice.c - RealizeVDevice.
 *
 * The modules of tests/passes/vdevice_*.py against their hand-written
 * .expected.py (devices propagated forward and backward, hints dropped or
 * turned into R.to_vdevice, tuple fields on two devices); conflicting
 * devices and unknown devices are errors naming the binding; and the
 * regression test of TVM's failure #4: the pass never changes its input,
 * so applying it directly, through Sequential (opt_run) and twice all give
 * equal modules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

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
parse(IrCtx *ctx, const char *path)
{
  IrModule *m = fe_parse_file(ctx, path);
  print_diags(ctx, path);
  assert_non_null(m);
  return m;
}

static IrModule *
realize(IrCtx *ctx, const IrModule *m)
{
  OptContext oc = {.ctx = ctx};
  return opt_realize_vdevice(&oc, m);
}

static void
assert_equal_modules(const IrModule *a, const IrModule *b, const char *what)
{
  IrBuf why = {0};
  bool equal = ir_module_equal(a, b, &why);
  if (!equal) {
    char *ta = tu_print(a), *tb = tu_print(b);
    printf("%s: %s\n--- got\n%s--- want\n%s", what, why.data ? why.data : "?", ta, tb);
    free(ta);
    free(tb);
  }
  ir_buf_free(&why);
  assert_true(equal);
}

/* in -> out equals the expected module; the input is unchanged. */
static void
compare_expected(const char *name)
{
  char in[256], want[256];
  snprintf(in, sizeof in, "tests/passes/vdevice_%s.py", name);
  snprintf(want, sizeof want, "tests/passes/vdevice_%s.expected.py", name);
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse(ctx, in), *expected = parse(ctx, want);
  uint64_t before = ir_module_hash(m);
  IrModule *out = realize(ctx, m);
  print_diags(ctx, in);
  assert_non_null(out);
  assert_int_equal(ir_module_check(ctx, out), 0);
  assert_equal_modules(out, expected, in);
  assert_true(ir_module_hash(m) == before);
  ir_ctx_free(ctx);
}

static void
test_multi_device(void **state)
{
  (void)state;
  compare_expected("multi_device");
}

static void
test_hint_becomes_transfer(void **state)
{
  (void)state;
  compare_expected("hint_transfer");
}

static void
test_tuple_return(void **state)
{
  (void)state;
  compare_expected("tuple_return");
}

/* The sample of tests/script: both hints name llvm:0, so x and y move
 * there and the hints become trivial bindings; to_vdevice stays. */
static void
test_script_sample(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *out = realize(ctx, parse(ctx, "tests/script/hint_on_device.py"));
  assert_non_null(out);
  const IrFunction *f = ir_module_find(out, ir_sym(ctx, "main"))->u.relax;
  assert_int_equal(f->params[0]->sinfo->u.tensor.vdevice, 0);
  assert_int_equal(f->params[1]->sinfo->u.tensor.vdevice, 0);
  const IrBindingBlock *blk = &f->body->u.seq.blocks[0];
  assert_int_equal(blk->n, 4);
  assert_ptr_equal(blk->bindings[0].value, f->params[0]);
  assert_ptr_equal(blk->bindings[1].value, f->params[1]);
  assert_int_equal(blk->bindings[2].var->sinfo->u.tensor.vdevice, 0);
  assert_int_equal(blk->bindings[3].value->u.call.op->id, IR_OP_TO_VDEVICE);
  ir_ctx_free(ctx);
}

/* An error, with the message holding each of the given words. */
static void
expect_error(const char *text, const char *w1, const char *w2)
{
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_parse_string(ctx, "bad.py", text);
  print_diags(ctx, "bad.py");
  assert_non_null(m);
  uint64_t before = ir_module_hash(m);
  assert_null(realize(ctx, m));
  assert_true(ir_error_count(ctx) > 0);
  char *d = tu_diag_text(ctx);
  if (!strstr(d, w1) || !strstr(d, w2))
    printf("diagnostics lack '%s' / '%s':\n%s", w1, w2, d);
  assert_non_null(strstr(d, w1));
  assert_non_null(strstr(d, w2));
  free(d);
  assert_true(ir_module_hash(m) == before);
  ir_ctx_free(ctx);
}

static const char conflict_text[] =
    "@I.ir_module\n"
    "class Module:\n"
    "    I.module_global_infos({\"vdevice\": [I.vdevice(\"llvm\", 0), I.vdevice(\"cuda\", 0)]})\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((2,), \"float32\", vdevice=\"llvm:0\"), y: R.Tensor((2,), "
    "\"float32\", vdevice=\"cuda:0\")):\n"
    "        a = R.exp(x)\n"
    "        z = R.add(a, y)\n"
    "        return z\n";

/* Backward: b is hinted onto cuda but flows into a binding with x, which
 * is on llvm. */
static const char hint_conflict_text[] =
    "@I.ir_module\n"
    "class Module:\n"
    "    I.module_global_infos({\"vdevice\": [I.vdevice(\"llvm\", 0), I.vdevice(\"cuda\", 0)]})\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((2,), \"float32\", vdevice=\"llvm:0\"), y: R.Tensor((2,), "
    "\"float32\")):\n"
    "        b = R.hint_on_device(y, R.device(dev_type=2, index=0))\n"
    "        c = R.negative(b)\n"
    "        w = R.multiply(x, c)\n"
    "        return w\n";

static const char unknown_device_text[] =
    "@I.ir_module\n"
    "class Module:\n"
    "    I.module_global_infos({\"vdevice\": [I.vdevice(\"llvm\", 0)]})\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((2,), \"float32\")):\n"
    "        q = R.hint_on_device(x, R.device(dev_type=2, index=0))\n"
    "        return q\n";

static void
test_conflicts_are_errors(void **state)
{
  (void)state;
  expect_error(conflict_text, "binding 'z'", "conflicts");
  expect_error(hint_conflict_text, "binding 'w'", "conflicts");
  expect_error(unknown_device_text, "binding 'q'", "dev_type=2");
}

/* TVM's failure #4: the pass changed its input in place, so the direct
 * and the Sequential application differed.  Here: the input's hash is
 * unchanged, direct == through opt_run == twice. */
static void
check_no_mutation(const char *path)
{
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse(ctx, path);
  uint64_t before = ir_module_hash(m);
  char *text_before = tu_print(m);
  IrModule *direct = realize(ctx, m);
  print_diags(ctx, path);
  assert_non_null(direct);
  assert_true(ir_module_hash(m) == before);
  char *text_after = tu_print(m);
  assert_string_equal(text_before, text_after);
  const OptPass *p = opt_pass_find("RealizeVDevice");
  assert_non_null(p);
  OptContext oc = {.ctx = ctx};
  OptInstruments ins = {true, false, NULL, NULL, IR_DIALECT_V0_23};
  IrModule *seq = opt_run(&oc, m, &p, 1, &ins);
  print_diags(ctx, path);
  assert_non_null(seq);
  assert_equal_modules(direct, seq, "direct vs Sequential");
  IrModule *twice = realize(ctx, direct);
  assert_non_null(twice);
  assert_equal_modules(twice, direct, "twice vs once");
  const OptPass *two[2] = {p, p};
  IrModule *seq2 = opt_run(&oc, m, two, 2, &ins);
  assert_non_null(seq2);
  assert_equal_modules(seq2, direct, "Sequential twice vs once");
  assert_true(ir_module_hash(m) == before);
  assert_false(ir_module_equal(m, direct, NULL)); /* the pass did something */
  free(text_before);
  free(text_after);
  ir_ctx_free(ctx);
}

static void
test_failure4_input_never_changed(void **state)
{
  (void)state;
  check_no_mutation("tests/script/hint_on_device.py");
  check_no_mutation("tests/passes/vdevice_multi_device.py");
  check_no_mutation("tests/passes/vdevice_hint_transfer.py");
  check_no_mutation("tests/passes/vdevice_tuple_return.py");
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_multi_device),
      cmocka_unit_test(test_hint_becomes_transfer),
      cmocka_unit_test(test_tuple_return),
      cmocka_unit_test(test_script_sample),
      cmocka_unit_test(test_conflicts_are_errors),
      cmocka_unit_test(test_failure4_input_never_changed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
