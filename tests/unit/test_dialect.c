/*
 * test_dialect.c - the printer's two output dialects (docs/text-format.md,
 * "Output dialects") against hand-written lines.
 *
 * tests/script/dialect_spellings.py and dialect_tir_vars.py hold every
 * construct whose spelling differs; test_roundtrip.c round-trips them (and
 * every other module) in both dialects.  Here each is printed in each
 * dialect after Normalize and must hold the lines written below, which
 * follow TVM's printers of v0.23.0 and v0.26.0 (src/script/printer/ and
 * src/relax/script/printer/, src/tirx/script/printer/), and must not hold
 * the other dialect's spelling.  Then the command line: --dialect, its
 * default, a bad name, and `rxc equiv` of the two printouts of the module
 * whose tir_vars v0.26 moves (the same outputs on random inputs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sys/wait.h>

#include "../../opt/opt.h"
#include "testutil.h"

/* path after Normalize, printed in dialect d; *exact as the printer says. */
static char *
printed(const char *path, IrDialect d, bool *exact)
{
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_parse_file(ctx, path);
  assert_non_null(m);
  assert_true(opt_normalize(ctx, m));
  IrBuf b = {0};
  *exact = ir_module_print_dialect(m, d, &b);
  ir_buf_put(&b, "", 0);
  ir_ctx_free(ctx);
  return b.data;
}

/* Every line of want (NULL-terminated) is a whole line of text, after its
 * indentation; no word of refuse appears anywhere. */
static void
expect_lines(const char *text, const char *const *want, const char *const *refuse)
{
  for (int i = 0; want[i]; i++) {
    const char *at = strstr(text, want[i]);
    size_t n = strlen(want[i]);
    bool whole =
        at && (at == text || at[-1] == ' ' || at[-1] == '\n') && (at[n] == '\n' || at[n] == '\0');
    if (!whole)
      printf("missing line: %s\n--- in\n%s", want[i], text);
    assert_true(whole);
  }
  for (int i = 0; refuse[i]; i++) {
    if (strstr(text, refuse[i]))
      printf("unexpected: %s\n--- in\n%s", refuse[i], text);
    assert_null(strstr(text, refuse[i]));
  }
}

static const char spellings[] = "tests/script/dialect_spellings.py";
static const char tir_vars[] = "tests/script/dialect_tir_vars.py";

static void
test_spellings_v023(void **state)
{
  (void)state;
  static const char *const want[] = {
      "# from tvm.script import tir as T",
      "@T.prim_func(private=True)",
      "def scaled(a: T.handle, out: T.Buffer((T.int64(4),), \"float32\")):",
      "T.func_attr({\"tir.noalias\": True})",
      "A = T.match_buffer(a, (T.int64(4),), \"float32\")",
      "with T.block(\"scaled\"):",
      "T.block_attr({\"note\": 1})",
      "tmp = T.alloc_buffer((T.int64(1),), \"float32\", scope=\"local\")",
      "half: T.float32 = A[v_i] * T.float32(0.5)",
      "def main(x: R.Tensor((4,), dtype=\"float32\"), o: R.Object, k: R.Prim(\"int64\")) -> "
      "R.Tuple(R.Tensor((4,), dtype=\"float32\"), R.Prim(\"int64\")):",
      "y: R.Tensor((4,), dtype=\"float32\") = R.call_tir(cls.scaled, (x,), "
      "out_sinfo=R.Tensor((4,), dtype=\"float32\"))",
      "z: R.Tensor((4,), dtype=\"float32\") = R.call_packed(\"my_func\", y, o, "
      "sinfo_args=(R.Tensor((4,), dtype=\"float32\"),))",
      "w: R.Tensor((4,), dtype=\"float32\") = R.call_pure_packed(\"my_pure\", z, "
      "sinfo_args=(R.Tensor((4,), dtype=\"float32\"),))",
      "v: R.Tensor((4,), dtype=\"float32\") = R.call_dps_packed(\"my_dps\", (w,), "
      "out_sinfo=R.Tensor((4,), dtype=\"float32\"))",
      "c: R.Prim(\"int64\") = R.prim_value(3)",
      "d: R.Prim(\"int32\") = R.prim_value(T.int32(2))",
      "e: R.Prim(value=5) = R.prim_value(5)",
      NULL};
  static const char *const refuse[] = {"tirx",   "s_tir",   "sblock", "T.let",
                                       "out_ty", "ty_args", "R.Any",  NULL};
  bool exact;
  char *text = printed(spellings, IR_DIALECT_V0_23, &exact);
  assert_true(exact);
  expect_lines(text, want, refuse);
  free(text);
}

static void
test_spellings_v026(void **state)
{
  (void)state;
  static const char *const want[] = {
      "# from tvm.script import tirx as T",
      "# from tvm.tirx.layout import Axis",
      "@T.prim_func(private=True, s_tir=True)",
      "def scaled(A: T.Buffer((T.int64(4),), \"float32\"), out: T.Buffer((T.int64(4),), "
      "\"float32\")):",
      "T.func_attr({\"tirx.noalias\": True})",
      "with T.sblock(\"scaled\"):",
      "T.sblock_attr({\"note\": 1})",
      "tmp = T.sblock_alloc_buffer((T.int64(1),), \"float32\", scope=\"local\")",
      "half: T.let[T.float32] = A[v_i] * T.float32(0.5)",
      "def main(x: R.Tensor((4,), dtype=\"float32\"), o: R.Any, k: T.int64) -> "
      "R.Tuple(R.Tensor((4,), dtype=\"float32\"), T.int64):",
      "y: R.Tensor((4,), dtype=\"float32\") = R.call_tir(cls.scaled, (x,), "
      "out_ty=R.Tensor((4,), dtype=\"float32\"))",
      "z: R.Tensor((4,), dtype=\"float32\") = R.call_packed(\"my_func\", y, o, "
      "ty_args=(R.Tensor((4,), dtype=\"float32\"),))",
      "w: R.Tensor((4,), dtype=\"float32\") = R.call_pure_packed(\"my_pure\", z, "
      "ty_args=(R.Tensor((4,), dtype=\"float32\"),))",
      "v: R.Tensor((4,), dtype=\"float32\") = R.call_dps_packed(\"my_dps\", (w,), "
      "out_ty=R.Tensor((4,), dtype=\"float32\"))",
      "c: T.int64 = 3",
      "d: T.int32 = T.int32(2)",
      "e: R.Prim(value=5) = 5", /* a value v0.26 cannot spell is kept */
      NULL};
  static const char *const refuse[] = {"import tir ",  "T.handle",      "T.match_buffer", "T.block",
                                       "out_sinfo",    "sinfo_args",    "R.Object",       "R.Prim(\"",
                                       "R.prim_value", ": T.float32 =", "\"tir.",         NULL};
  bool exact;
  char *text = printed(spellings, IR_DIALECT_V0_26, &exact);
  assert_true(exact); /* e's struct info keeps its value: R.Prim(value=5) */
  expect_lines(text, want, refuse);
  free(text);
}

static void
test_tir_vars_v023(void **state)
{
  (void)state;
  static const char *const want[] = {
      "def head(a: T.handle, b: T.handle, c: T.handle, m: T.int64):",
      "def bump(a: T.handle, k: T.int64):",
      "gv: R.Tuple(R.Tensor((m,), dtype=\"float32\"), R.Tensor((n,), dtype=\"float32\")) = "
      "R.call_tir(cls.head, (x,), out_sinfo=[R.Tensor((m,), dtype=\"float32\"), "
      "R.Tensor((n,), dtype=\"float32\")], tir_vars=R.shape([m]))",
      "z: R.Tensor((n,), dtype=\"float32\") = R.call_tir_inplace(cls.bump, (y,), "
      "inplace_indices=[0], out_sinfo=R.Tensor((n,), dtype=\"float32\"), tir_vars=R.shape([m]))",
      NULL};
  static const char *const refuse[] = {"(x, m)", "(y, m)", NULL};
  bool exact;
  char *text = printed(tir_vars, IR_DIALECT_V0_23, &exact);
  assert_true(exact);
  expect_lines(text, want, refuse);
  free(text);
}

/* v0.26: the scalars follow the inputs, in the call and in the signature;
 * a dim whose var the signature has not shown is quoted, and declared in
 * the body. */
static void
test_tir_vars_v026(void **state)
{
  (void)state;
  static const char *const want[] = {
      "def head(A: T.Buffer((\"n\",), \"float32\"), m: T.int64, B: T.Buffer((m,), \"float32\"), "
      "C: T.Buffer((n,), \"float32\")):",
      "n = T.int64()",
      "def bump(A: T.Buffer((\"n\",), \"float32\"), k: T.int64):",
      "gv: R.Tuple(R.Tensor((m,), dtype=\"float32\"), R.Tensor((n,), dtype=\"float32\")) = "
      "R.call_tir(cls.head, (x, m), out_ty=[R.Tensor((m,), dtype=\"float32\"), "
      "R.Tensor((n,), dtype=\"float32\")])",
      "z: R.Tensor((n,), dtype=\"float32\") = R.call_tir_inplace(cls.bump, (y, m), "
      "inplace_indices=[0], out_ty=R.Tensor((n,), dtype=\"float32\"))",
      NULL};
  static const char *const refuse[] = {"tir_vars", "R.shape([m])", NULL};
  bool exact;
  char *text = printed(tir_vars, IR_DIALECT_V0_26, &exact);
  assert_false(exact); /* the module read back has its scalars in the tuples */
  expect_lines(text, want, refuse);
  free(text);
}

/* A prim func also called directly keeps its parameter order in v0.26,
 * and its call_tir its tir_vars: moving them would feed the direct call's
 * arguments to the wrong parameters. */
static void
test_tir_vars_kept_when_called_directly(void **state)
{
  (void)state;
  static const char *const want[] = {
      "def fill(B: T.Buffer((\"m\",), \"float32\"), m: T.int64):", "cls.fill(out, m)",
      "a: R.Tensor((m,), dtype=\"float32\") = R.call_tir(cls.fill, R.tuple(), "
      "out_ty=R.Tensor((m,), dtype=\"float32\"), tir_vars=R.shape([m]))",
      NULL};
  static const char *const refuse[] = {"(m,), out_ty", "def fill(m: T.int64", NULL};
  bool exact;
  char *text = printed("tests/script/dialect_tir_vars_kept.py", IR_DIALECT_V0_26, &exact);
  assert_true(exact);
  expect_lines(text, want, refuse);
  free(text);
}

static char *
run_rxc(const char *args, int *status)
{
  char cmd[1024];
  const char *rxc = getenv("RXC");
  snprintf(cmd, sizeof cmd, "%s %s >build/dialect.out 2>&1 </dev/null",
           rxc && *rxc ? rxc : "build/rxc", args);
  int st = system(cmd);
  assert_true(WIFEXITED(st));
  *status = WEXITSTATUS(st);
  char *out = tu_read_file("build/dialect.out");
  assert_non_null(out);
  return out;
}

/* rxc opt prints v0.26 unless told; --dialect and [print] dialect choose,
 * for --print-after too; a bad name is a usage error naming the choices. */
static void
test_cli(void **state)
{
  (void)state;
  int st;
  char *out = run_rxc("opt --passes Normalize tests/script/dialect_spellings.py", &st);
  assert_int_equal(st, 0);
  assert_non_null(strstr(out, "with T.sblock(\"scaled\"):"));
  free(out);
  out = run_rxc("opt --dialect v0.23 --passes Normalize tests/script/dialect_spellings.py", &st);
  assert_int_equal(st, 0);
  assert_non_null(strstr(out, "with T.block(\"scaled\"):"));
  free(out);
  out = run_rxc("--set print.dialect=v0.23 opt --passes Normalize "
                "tests/script/dialect_spellings.py",
                &st);
  assert_int_equal(st, 0);
  assert_non_null(strstr(out, "with T.block(\"scaled\"):"));
  free(out);
  out = run_rxc("opt --dialect v0.23 --passes Normalize --print-after=Normalize "
                "tests/script/dialect_spellings.py -o build/dialect_after.py",
                &st);
  assert_int_equal(st, 0);
  assert_non_null(strstr(out, "# after Normalize"));
  assert_non_null(strstr(out, "with T.block(\"scaled\"):"));
  free(out);
  out = run_rxc("opt --passes Normalize --print-after=Normalize "
                "tests/script/dialect_spellings.py -o build/dialect_after.py",
                &st);
  assert_int_equal(st, 0);
  assert_non_null(strstr(out, "with T.sblock(\"scaled\"):"));
  free(out);
  out = run_rxc("opt --dialect v0.25 tests/script/dialect_spellings.py", &st);
  assert_int_equal(st, 2);
  assert_non_null(strstr(out, "v0.23, v0.26"));
  free(out);
}

/* The module whose tir_vars v0.26 moves computes the same in both texts:
 * a parameter bound to the wrong argument would read other elements or
 * fail the shape checks. */
static void
test_moved_tir_vars_compute_the_same(void **state)
{
  (void)state;
  int st;
  free(run_rxc("opt --dialect v0.23 --passes Normalize tests/script/dialect_tir_vars.py "
               "-o build/dialect_v023.py",
               &st));
  assert_int_equal(st, 0);
  free(run_rxc("opt --dialect v0.26 --passes Normalize tests/script/dialect_tir_vars.py "
               "-o build/dialect_v026.py",
               &st));
  assert_int_equal(st, 0);
  char *out = run_rxc("equiv build/dialect_v023.py build/dialect_v026.py --dim n=5 --dim m=3", &st);
  if (st != 0)
    printf("%s", out);
  assert_int_equal(st, 0);
  free(out);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spellings_v023),
      cmocka_unit_test(test_spellings_v026),
      cmocka_unit_test(test_tir_vars_v023),
      cmocka_unit_test(test_tir_vars_v026),
      cmocka_unit_test(test_tir_vars_kept_when_called_directly),
      cmocka_unit_test(test_cli),
      cmocka_unit_test(test_moved_tir_vars_compute_the_same),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
