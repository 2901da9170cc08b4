/* test_ops_linalg.c - R.matmul: numpy's promotion of 1-D operands, batch
 * broadcasting, symbolic shapes, errors with exact messages, and the
 * kernel against hand values and a naive broadcast reference written here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "nn_testutil.h"

static void
expect_matmul(const char *a, const char *b, const char *decls, const char *call, const char *want)
{
  char params[256];
  snprintf(params, sizeof params, "a: R.Tensor(%s), b: R.Tensor(%s)", a, b);
  char *got = nt_infer(params, decls, call);
  if (strcmp(got, want) != 0)
    print_error("%s x %s\n  got:  %s\n  want: %s\n", a, b, got, want);
  assert_string_equal(got, want);
  free(got);
}

#define MM "R.matmul(a, b)"
#define F "\"float32\""

static void
test_infer_static(void **state)
{
  (void)state;
  expect_matmul("(2, 3), " F, "(3, 4), " F, "", MM, "R.Tensor((2, 4), dtype=\"float32\")");
  expect_matmul("(3,), " F, "(3, 4), " F, "", MM, "R.Tensor((4,), dtype=\"float32\")");
  expect_matmul("(2, 3), " F, "(3,), " F, "", MM, "R.Tensor((2,), dtype=\"float32\")");
  expect_matmul("(3,), " F, "(3,), " F, "", MM, "R.Tensor((), dtype=\"float32\")");
  expect_matmul("(2, 1, 3, 4), " F, "(5, 4, 2), " F, "", MM,
                "R.Tensor((2, 5, 3, 2), dtype=\"float32\")");
  expect_matmul("(3,), " F, "(7, 3, 2), " F, "", MM, "R.Tensor((7, 2), dtype=\"float32\")");
  expect_matmul("(7, 2, 3), " F, "(3,), " F, "", MM, "R.Tensor((7, 2), dtype=\"float32\")");
  expect_matmul("(2, 3), \"int32\"", "(3, 4), \"int32\"", "", "R.matmul(a, b, out_dtype=\"int64\")",
                "R.Tensor((2, 4), dtype=\"int64\")");
}

static void
test_infer_symbolic(void **state)
{
  (void)state;
  expect_matmul("(\"n\", 3), " F, "(3, \"m\"), " F, "n = T.int64()\nm = T.int64()", MM,
                "R.Tensor((n, m), dtype=\"float32\")");
  expect_matmul("(\"s\", \"n\", \"k\"), " F, "(1, \"k\", 8), " F,
                "s = T.int64()\nn = T.int64()\nk = T.int64()", MM,
                "R.Tensor((s, n, 8), dtype=\"float32\")");
  /* batch dims s and t cannot be matched: rank only, as TVM */
  expect_matmul("(\"s\", 2, 3), " F, "(\"t\", 3, 4), " F, "s = T.int64()\nt = T.int64()", MM,
                "R.Tensor(dtype=\"float32\", ndim=3)");
  /* an inner dim k against 3 is trusted */
  expect_matmul("(2, \"k\"), " F, "(3, 4), " F, "k = T.int64()", MM,
                "R.Tensor((2, 4), dtype=\"float32\")");
}

static void
test_infer_unknown(void **state)
{
  (void)state;
  expect_matmul("ndim=3, dtype=\"float32\"", "(3, 4), " F, "", MM,
                "R.Tensor(dtype=\"float32\", ndim=3)");
  expect_matmul("(2, 3), " F, "dtype=\"float32\"", "", MM, "R.Tensor(dtype=\"float32\")");
  expect_matmul("(2, 3)", "(3, 4), " F, "", MM, "R.Tensor((2, 4))");
  char *got = nt_infer("a: R.Object, b: R.Tensor((3,), \"float32\")", "", MM);
  assert_string_equal(got, "R.Tensor");
  free(got);
}

static void
test_infer_errors(void **state)
{
  (void)state;
  expect_matmul("(2, 3), " F, "(4, 5), " F, "", MM,
                "error: in binding 'y': R.matmul: inner dims differ: x1 has 3, x2 has 4");
  expect_matmul("(3,), " F, "(4,), " F, "", MM,
                "error: in binding 'y': R.matmul: inner dims differ: x1 has 3, x2 has 4");
  expect_matmul("(2, 3, 4), " F, "(3, 4, 5), " F, "", MM,
                "error: in binding 'y': R.matmul: cannot broadcast dimension 2 with 3 (dimension "
                "0 of the result)");
  expect_matmul("(2, 3), " F, "(3, 4), \"int32\"", "", MM,
                "error: in binding 'y': R.matmul: operands have different dtypes float32 and "
                "int32");
  expect_matmul("(), " F, "(3, 4), " F, "", MM,
                "error: in binding 'y': R.matmul: operands must have rank at least 1, not 0 and 2");
  /* n + 1 can never equal n */
  expect_matmul("(2, \"n + 1\"), " F, "(\"n\", 4), " F, "n = T.int64()", MM,
                "error: in binding 'y': R.matmul: inner dims differ: x1 has n + 1, x2 has n");
}

/* Evaluates matmul on a (shape sa) and b (shape sb). */
static Value *
run(NtCall *c, int na, const int64_t *sa, const double *a, int nb, const int64_t *sb,
    const double *b)
{
  Value *args[2] = {nt_tensor(c->ctx, na, sa, a), nt_tensor(c->ctx, nb, sb, b)};
  return nt_eval(c, args);
}

static void
test_eval_hand(void **state)
{
  (void)state;
  /* [1 2 3] x [[1 2], [3 4], [5 6]] = [22 28] */
  int64_t sa[1] = {3}, sb[2] = {3, 2};
  double a[3] = {1, 2, 3}, b[6] = {1, 2, 3, 4, 5, 6}, want[2] = {22, 28};
  NtCall c = nt_parse("a: R.Tensor((3,), \"float32\"), b: R.Tensor((3, 2), \"float32\")", "", MM);
  Value *out = run(&c, 1, sa, a, 2, sb, b);
  assert_non_null(out);
  char *s = nt_shape_str(out);
  assert_string_equal(s, "(2)");
  free(s);
  assert_true(nt_max_diff(out, want) == 0);
  ir_ctx_free(c.ctx);

  /* [[1 2 3], [4 5 6]] x [1 0 -1] = [-2 -2]; and vector . vector = 14 */
  int64_t sm[2] = {2, 3};
  double m[6] = {1, 2, 3, 4, 5, 6}, v[3] = {1, 0, -1}, want2[2] = {-2, -2}, dot[1] = {14};
  c = nt_parse("a: R.Tensor((2, 3), \"float32\"), b: R.Tensor((3,), \"float32\")", "", MM);
  out = run(&c, 2, sm, m, 1, sa, v);
  assert_non_null(out);
  assert_true(nt_max_diff(out, want2) == 0);
  ir_ctx_free(c.ctx);
  c = nt_parse("a: R.Tensor((3,), \"float32\"), b: R.Tensor((3,), \"float32\")", "", MM);
  out = run(&c, 1, sa, a, 1, sa, a);
  assert_non_null(out);
  assert_int_equal(out->u.tensor.t.ndim, 0);
  assert_true(nt_max_diff(out, dot) == 0);
  ir_ctx_free(c.ctx);
}

static void
test_eval_batched_broadcast(void **state)
{
  (void)state;
  /* (2, 1, 3, 4) x (5, 4, 2) -> (2, 5, 3, 2), against a direct loop */
  int64_t sa[4] = {2, 1, 3, 4}, sb[3] = {5, 4, 2};
  NtRng r = {0xdeadbeefcafef00dull};
  double *a = nt_random(&r, 24), *b = nt_random(&r, 40), want[60];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 5; j++)
      for (int p = 0; p < 3; p++)
        for (int q = 0; q < 2; q++) {
          double acc = 0;
          for (int k = 0; k < 4; k++)
            acc += a[(i * 3 + p) * 4 + k] * b[(j * 4 + k) * 2 + q];
          want[((i * 5 + j) * 3 + p) * 2 + q] = acc;
        }
  NtCall c = nt_parse("a: R.Tensor((2, 1, 3, 4), \"float32\"), b: R.Tensor((5, 4, 2), \"float32\")",
                      "", MM);
  Value *out = run(&c, 4, sa, a, 3, sb, b);
  assert_non_null(out);
  char *s = nt_shape_str(out);
  assert_string_equal(s, "(2, 5, 3, 2)");
  free(s);
  assert_true(nt_max_diff(out, want) < 1e-6);
  ir_ctx_free(c.ctx);
  free(a);
  free(b);
}

static void
test_eval_errors(void **state)
{
  (void)state;
  /* values that break the annotation are checked by the kernel */
  int64_t sa[2] = {2, 3}, sb[2] = {4, 2};
  NtCall c = nt_parse("a: R.Tensor((2, 3), \"float32\"), b: R.Tensor((3, 2), \"float32\")", "", MM);
  assert_null(run(&c, 2, sa, NULL, 2, sb, NULL));
  assert_string_equal(ir_diag_get(c.ctx, 0)->msg,
                      "in binding 'y': R.matmul: inner dims differ: x1 has 3, x2 has 4");
  ir_ctx_free(c.ctx);
  int64_t ba[3] = {2, 2, 3}, bb[3] = {3, 3, 2};
  c = nt_parse("a: R.Tensor((2, 2, 3), \"float32\"), b: R.Tensor((2, 3, 2), \"float32\")", "", MM);
  assert_null(run(&c, 3, ba, NULL, 3, bb, NULL));
  assert_string_equal(ir_diag_get(c.ctx, 0)->msg,
                      "in binding 'y': R.matmul: batch dims 2 and 3 do not broadcast");
  ir_ctx_free(c.ctx);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_infer_static),  cmocka_unit_test(test_infer_symbolic),
      cmocka_unit_test(test_infer_unknown), cmocka_unit_test(test_infer_errors),
      cmocka_unit_test(test_eval_hand),     cmocka_unit_test(test_eval_batched_broadcast),
      cmocka_unit_test(test_eval_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
