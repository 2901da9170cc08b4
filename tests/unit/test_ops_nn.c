/* test_ops_nn.c - the nn ops: struct-info inference (static, symbolic,
 * unknown inputs, errors with their exact messages) and reference kernels
 * against hand-computed values and against naive references written here
 * independently of ops/ (a padded-array 7-loop conv2d, padded-array pools). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "nn_testutil.h"

#define F32 "\"float32\""
#define T4(a, b, c, d) "R.Tensor((" #a ", " #b ", " #c ", " #d "), " F32 ")"

/* Asserts the inferred struct info (or error) of one call. */
static void
expect_infer(const char *params, const char *decls, const char *call, const char *want)
{
  char *got = nt_infer(params, decls, call);
  if (strcmp(got, want) != 0)
    print_error("call %s\n  got:  %s\n  want: %s\n", call, got, want);
  assert_string_equal(got, want);
  free(got);
}

#define SYM_NHW "n = T.int64()\nh = T.int64()\nw = T.int64()"

/* ------------------------------------------------------------------ */
/* Inference                                                           */
/* ------------------------------------------------------------------ */

static void
test_infer_activations(void **state)
{
  (void)state;
  expect_infer("x: R.Tensor((\"n\", 3), \"float32\")", "n = T.int64()", "R.nn.relu(x)",
               "R.Tensor((n, 3), dtype=\"float32\")");
  expect_infer("x: R.Tensor((2, 3), \"int32\")", "", "R.nn.relu(x)",
               "R.Tensor((2, 3), dtype=\"int32\")");
  expect_infer("x: R.Tensor((2, 3), \"float32\")", "", "R.nn.silu(x)",
               "R.Tensor((2, 3), dtype=\"float32\")");
  expect_infer("x: R.Tensor((2, 3), \"int32\")", "", "R.nn.gelu(x)",
               "error: in binding 'y': R.nn.gelu: requires a float tensor, not int32");
  expect_infer("x: R.Object", "", "R.nn.gelu(x)", "R.Tensor");
  expect_infer("x: R.Shape([2])", "", "R.nn.relu(x)",
               "error: in binding 'y': R.nn.relu: data must be a tensor, not R.Shape");
}

static void
test_infer_softmax(void **state)
{
  (void)state;
  expect_infer("x: R.Tensor((\"n\", 4), \"float32\")", "n = T.int64()", "R.nn.softmax(x, axis=0)",
               "R.Tensor((n, 4), dtype=\"float32\")");
  expect_infer("x: R.Tensor((\"n\", 4), \"float32\")", "n = T.int64()", "R.nn.log_softmax(x)",
               "R.Tensor((n, 4), dtype=\"float32\")");
  expect_infer(
      "x: R.Tensor((2, 4), \"float32\")", "", "R.nn.softmax(x, axis=2)",
      "error: in binding 'y': R.nn.softmax: axis 2 is out of range for a tensor of rank 2");
  expect_infer("x: R.Tensor((2, 4), \"float32\")", "", "R.nn.log_softmax(x, axis=-3)",
               "error: in binding 'y': R.nn.log_softmax: axis -3 is out of range for a tensor of "
               "rank 2");
  expect_infer("x: R.Tensor((2, 4), \"int64\")", "", "R.nn.softmax(x)",
               "error: in binding 'y': R.nn.softmax: requires a float tensor, not int64");
}

#define LN_PARAMS(G, B)                                                                            \
  "x: R.Tensor((\"n\", 64), \"float32\"), g: R.Tensor(" G ", \"float32\"), b: R.Tensor(" B         \
  ", \"float32\")"

static void
test_infer_layer_norm(void **state)
{
  (void)state;
  expect_infer(LN_PARAMS("(64,)", "(64,)"), "n = T.int64()", "R.nn.layer_norm(x, g, b, axes=[-1])",
               "R.Tensor((n, 64), dtype=\"float32\")");
  expect_infer(LN_PARAMS("(32,)", "(64,)"), "n = T.int64()", "R.nn.layer_norm(x, g, b, axes=[-1])",
               "error: in binding 'y': R.nn.layer_norm: gamma has length 32 at dim 0, but data has "
               "64 on axis 1");
  expect_infer(LN_PARAMS("(64, 1)", "(64,)"), "n = T.int64()", "R.nn.layer_norm(x, g, b, axes=[1])",
               "error: in binding 'y': R.nn.layer_norm: gamma must have rank 1 (one dim per "
               "normalized axis), not 2");
  expect_infer(LN_PARAMS("(\"n\", 64)", "(\"n\", 64)"), "n = T.int64()",
               "R.nn.layer_norm(x, g, b, axes=[1, -1])",
               "error: in binding 'y': R.nn.layer_norm: axis 1 is repeated");
  /* a length that cannot be decided: rank and dtype only, as TVM */
  expect_infer(LN_PARAMS("(\"m\",)", "(64,)"), "n = T.int64()\nm = T.int64()",
               "R.nn.layer_norm(x, g, b, axes=[-1])", "R.Tensor(dtype=\"float32\", ndim=2)");
  expect_infer(LN_PARAMS("(\"n\", 64)", "(\"n\", 64)"), "n = T.int64()",
               "R.nn.layer_norm(x, g, b, axes=[0, 1])", "R.Tensor((n, 64), dtype=\"float32\")");
}

#define BN_PARAMS(X, G)                                                                            \
  "x: R.Tensor(" X ", \"float32\"), g: R.Tensor(" G "), b: R.Tensor((4,), \"float32\"), "          \
  "m: R.Tensor((4,), \"float32\"), v: R.Tensor((4,), \"float32\")"

static void
test_infer_batch_norm_dropout(void **state)
{
  (void)state;
  expect_infer(BN_PARAMS("(\"n\", 4, 6, 6)", "(4,), \"float32\""), "n = T.int64()",
               "R.nn.batch_norm(x, g, b, m, v, axis=1, training=False)",
               "R.Tuple(R.Tensor((n, 4, 6, 6), dtype=\"float32\"), R.Tensor((4,), "
               "dtype=\"float32\"), R.Tensor((4,), dtype=\"float32\"))");
  expect_infer(BN_PARAMS("(1, \"c\", 6, 6)", "(4,), \"float32\""), "c = T.int64()",
               "R.nn.batch_norm(x, g, b, m, v, axis=1)",
               "R.Tuple(R.Tensor(dtype=\"float32\", ndim=4), R.Tensor(dtype=\"float32\", "
               "ndim=1), R.Tensor(dtype=\"float32\", ndim=1))");
  expect_infer(BN_PARAMS("(1, 4, 6, 6)", "(4,), \"float16\""), "",
               "R.nn.batch_norm(x, g, b, m, v, axis=1)",
               "error: in binding 'y': R.nn.batch_norm: gamma has dtype float16, but data has "
               "dtype float32");
  expect_infer(BN_PARAMS("(1, 4, 6, 6)", "(4,), \"float32\""), "",
               "R.nn.batch_norm(x, g, b, m, v, axis=2)",
               "error: in binding 'y': R.nn.batch_norm: gamma has length 4 at dim 0, but data has "
               "6 on axis 2");
  expect_infer("x: R.Tensor((\"n\", 3), \"float32\")", "n = T.int64()",
               "R.nn.dropout(x, rate=0.25)",
               "R.Tuple(R.Tensor((n, 3), dtype=\"float32\"), R.Tensor((n, 3), "
               "dtype=\"float32\"))");
}

static void
test_infer_conv2d_static(void **state)
{
  (void)state;
  const char *p = "x: " T4(1, 3, 8, 8) ", k: " T4(4, 3, 3, 3);
  expect_infer(p, "", "R.nn.conv2d(x, k)", "R.Tensor((1, 4, 6, 6), dtype=\"float32\")");
  expect_infer(p, "", "R.nn.conv2d(x, k, padding=[1, 1, 1, 1])",
               "R.Tensor((1, 4, 8, 8), dtype=\"float32\")");
  expect_infer(p, "", "R.nn.conv2d(x, k, strides=[2, 2], padding=1)",
               "R.Tensor((1, 4, 4, 4), dtype=\"float32\")");
  /* padding [top, left, bottom, right]; dilation 2 spans 5 */
  expect_infer(p, "", "R.nn.conv2d(x, k, padding=[0, 1, 2, 3], dilation=2)",
               "R.Tensor((1, 4, 6, 8), dtype=\"float32\")");
  expect_infer(p, "", "R.nn.conv2d(x, k, padding=[2, 0])",
               "R.Tensor((1, 4, 10, 6), dtype=\"float32\")");
  expect_infer(p, "", "R.nn.conv2d(x, k, out_dtype=\"float16\")",
               "R.Tensor((1, 4, 6, 6), dtype=\"float16\")");
  expect_infer(p, "", "R.nn.conv2d(x, k, out_layout=\"NHWC\")",
               "R.Tensor((1, 6, 6, 4), dtype=\"float32\")");
  /* groups and depthwise */
  expect_infer("x: " T4(1, 4, 8, 8) ", k: " T4(8, 2, 3, 3), "", "R.nn.conv2d(x, k, groups=2)",
               "R.Tensor((1, 8, 6, 6), dtype=\"float32\")");
  expect_infer("x: " T4(1, 4, 8, 8) ", k: " T4(4, 1, 3, 3), "",
               "R.nn.conv2d(x, k, padding=1, groups=4)",
               "R.Tensor((1, 4, 8, 8), dtype=\"float32\")");
  /* NHWC data, HWIO and OHWI kernels */
  expect_infer("x: " T4(1, 8, 8, 3) ", k: " T4(3, 3, 3, 4), "",
               "R.nn.conv2d(x, k, data_layout=\"NHWC\", kernel_layout=\"HWIO\")",
               "R.Tensor((1, 6, 6, 4), dtype=\"float32\")");
  expect_infer(
      "x: " T4(1, 8, 8, 3) ", k: " T4(4, 3, 3, 3), "",
      "R.nn.conv2d(x, k, data_layout=\"NHWC\", kernel_layout=\"OHWI\", out_layout=\"NCHW\")",
      "R.Tensor((1, 4, 6, 6), dtype=\"float32\")");
}

static void
test_infer_conv2d_symbolic(void **state)
{
  (void)state;
  const char *p = "x: R.Tensor((\"n\", 3, \"h\", \"w\"), \"float32\"), k: " T4(4, 3, 3, 3);
  expect_infer(p, SYM_NHW, "R.nn.conv2d(x, k, padding=1)",
               "R.Tensor((n, 4, h, w), dtype=\"float32\")");
  /* (h + 2 - 2 - 1) // 2 + 1 == (h + 1) // 2 */
  expect_infer(p, SYM_NHW, "R.nn.conv2d(x, k, strides=2, padding=1)",
               "R.Tensor((n, 4, (h + 1) // 2, (w + 1) // 2), dtype=\"float32\")");
  expect_infer(p, SYM_NHW, "R.nn.conv2d(x, k)",
               "R.Tensor((n, 4, h - 2, w - 2), dtype=\"float32\")");
  /* channels that cannot be decided are trusted, as in TVM */
  expect_infer("x: R.Tensor((1, \"c\", 8, 8), \"float32\"), k: " T4(4, 3, 3, 3), "c = T.int64()",
               "R.nn.conv2d(x, k)", "R.Tensor((1, 4, 6, 6), dtype=\"float32\")");
  /* c is a dim of z, so c >= 0 and c + 5 can never be 3 */
  expect_infer("x: R.Tensor((1, \"c + 5\", 8, 8), \"float32\"), k: " T4(
                   4, 3, 3, 3) ", z: R.Tensor((\"c\",), \"float32\")",
               "c = T.int64()", "R.nn.conv2d(x, k)",
               "error: in binding 'y': R.nn.conv2d: data has c + 5 channels, but weight has 3 "
               "input channels times 1 groups = 3");
  /* symbolic kernel extent: 8 - (r - 1) - 1 + 1, in the arithmetic's canonical form */
  expect_infer("x: " T4(1, 3, 8, 8) ", k: R.Tensor((4, 3, \"r\", \"r\"), \"float32\")",
               "r = T.int64()", "R.nn.conv2d(x, k)",
               "R.Tensor((1, 4, r * -1 + 9, r * -1 + 9), dtype=\"float32\")");
}

static void
test_infer_conv2d_unknown_and_errors(void **state)
{
  (void)state;
  const char *k = ", k: " T4(4, 3, 3, 3);
  char p[256];
  snprintf(p, sizeof p, "x: R.Tensor(ndim=4, dtype=\"float32\")%s", k);
  expect_infer(p, "", "R.nn.conv2d(x, k)", "R.Tensor(dtype=\"float32\", ndim=4)");
  snprintf(p, sizeof p, "x: R.Object%s", k);
  expect_infer(p, "", "R.nn.conv2d(x, k)", "R.Tensor(ndim=4)");
  expect_infer("x: " T4(1, 3, 8, 8) ", k: " T4(4, 2, 3, 3), "", "R.nn.conv2d(x, k)",
               "error: in binding 'y': R.nn.conv2d: data has 3 channels, but weight has 2 input "
               "channels times 1 groups = 2");
  expect_infer("x: " T4(1, 4, 8, 8) ", k: " T4(5, 2, 3, 3), "", "R.nn.conv2d(x, k, groups=2)",
               "error: in binding 'y': R.nn.conv2d: weight has 5 output channels, not divisible "
               "by 2 groups");
  expect_infer("x: R.Tensor((1, 3, 8), \"float32\")"
               ", k: " T4(4, 3, 3, 3),
               "", "R.nn.conv2d(x, k)",
               "error: in binding 'y': R.nn.conv2d: data must have rank 4, not 3");
  expect_infer("x: " T4(1, 3, 8, 8) ", k: R.Tensor((4, 3, 3, 3), \"float16\")", "",
               "R.nn.conv2d(x, k)",
               "error: in binding 'y': R.nn.conv2d: operands have different dtypes float32 and "
               "float16");
  expect_infer("x: " T4(1, 3, 8, 8) ", k: " T4(4, 3, 3, 3), "",
               "R.nn.conv2d(x, k, data_layout=\"NCHW4c\")",
               "error: in binding 'y': R.nn.conv2d: data_layout \"NCHW4c\" is not supported (a "
               "permutation of NCHW is)");
  expect_infer("x: " T4(1, 3, 8, 8) ", k: " T4(4, 3, 3, 3), "",
               "R.nn.conv2d(x, k, padding=[1, 1, 1])",
               "error: in binding 'y': R.nn.conv2d: padding must have 1, 2 or 4 values, not 3");
  expect_infer("x: " T4(1, 3, 8, 8) ", k: " T4(4, 3, 3, 3), "", "R.nn.conv2d(x, k, strides=[0, 1])",
               "error: in binding 'y': R.nn.conv2d: strides must be positive, got [0, 1]");
}

static void
test_infer_pools(void **state)
{
  (void)state;
  const char *p = "x: " T4(1, 4, 28, 28);
  expect_infer(p, "", "R.nn.max_pool2d(x, pool_size=[2, 2], strides=[2, 2])",
               "R.Tensor((1, 4, 14, 14), dtype=\"float32\")");
  /* ceil_mode: (8 + 1 - 2 - 1 + 1) // 2 + 1 = 4 */
  expect_infer("x: " T4(1, 8, 8, 8), "",
               "R.nn.avg_pool2d(x, pool_size=3, strides=2, padding=[1, 1, 0, 0], ceil_mode=True)",
               "R.Tensor((1, 8, 4, 4), dtype=\"float32\")");
  /* ceil_mode drops a last window that would start past the input */
  expect_infer("x: " T4(1, 1, 4, 4), "",
               "R.nn.max_pool2d(x, pool_size=1, strides=2, ceil_mode=True)",
               "R.Tensor((1, 1, 2, 2), dtype=\"float32\")");
  expect_infer("x: " T4(1, 1, 5, 5), "",
               "R.nn.max_pool2d(x, pool_size=2, strides=2, ceil_mode=True)",
               "R.Tensor((1, 1, 3, 3), dtype=\"float32\")");
  expect_infer("x: " T4(1, 28, 28, 4), "",
               "R.nn.max_pool2d(x, pool_size=3, strides=1, padding=1, layout=\"NHWC\")",
               "R.Tensor((1, 28, 28, 4), dtype=\"float32\")");
  expect_infer("x: R.Tensor((\"n\", 3, \"h\", \"w\"), \"float32\")", SYM_NHW,
               "R.nn.max_pool2d(x, pool_size=3, strides=2, ceil_mode=True)",
               "R.Tensor((n, 3, h // 2, w // 2), dtype=\"float32\")");
  expect_infer("x: R.Tensor((\"n\", 3, \"h\", \"w\"), \"float32\")", SYM_NHW,
               "R.nn.avg_pool2d(x, pool_size=2, strides=2)",
               "R.Tensor((n, 3, h // 2, w // 2), dtype=\"float32\")");
  expect_infer("x: R.Tensor(ndim=4, dtype=\"float32\")", "", "R.nn.avg_pool2d(x)",
               "R.Tensor(dtype=\"float32\", ndim=4)");
  expect_infer("x: R.Tensor((2, 2), \"float32\")", "", "R.nn.max_pool2d(x)",
               "error: in binding 'y': R.nn.max_pool2d: data must have rank 4, not 2");
  /* adaptive */
  expect_infer("x: R.Tensor((\"n\", 3, \"h\", \"w\"), \"float32\")", SYM_NHW,
               "R.nn.adaptive_avg_pool2d(x)", "R.Tensor((n, 3, h, w), dtype=\"float32\")");
  expect_infer("x: R.Tensor((\"n\", 3, \"h\", \"w\"), \"float32\")", SYM_NHW,
               "R.nn.adaptive_avg_pool2d(x, output_size=[1, 1])",
               "R.Tensor((n, 3, 1, 1), dtype=\"float32\")");
  expect_infer("x: " T4(1, 9, 9, 3), "",
               "R.nn.adaptive_avg_pool2d(x, output_size=[2, 3], layout=\"NHWC\")",
               "R.Tensor((1, 2, 3, 3), dtype=\"float32\")");
  expect_infer("x: " T4(1, 3, 9, 9), "", "R.nn.adaptive_avg_pool2d(x, output_size=[0, 3])",
               "error: in binding 'y': R.nn.adaptive_avg_pool2d: output_size must be positive, got "
               "0");
}

/* ------------------------------------------------------------------ */
/* Kernels: hand-computed values                                       */
/* ------------------------------------------------------------------ */

/* Evaluates a one-input call on a float32 tensor and checks the result's
 * shape and values against want (within tol). */
static void
expect_eval1(const char *param_shape, const char *call, int ndim, const int64_t *shape,
             const double *in, const char *want_shape, const double *want, double tol)
{
  char params[128];
  snprintf(params, sizeof params, "x: R.Tensor(%s, \"float32\")", param_shape);
  NtCall c = nt_parse(params, "", call);
  assert_non_null(c.call);
  Value *args[1] = {nt_tensor(c.ctx, ndim, shape, in)};
  Value *out = nt_eval(&c, args);
  assert_non_null(out);
  if (out->kind == VAL_TUPLE)
    out = out->u.tuple.items[0];
  char *s = nt_shape_str(out);
  assert_string_equal(s, want_shape);
  free(s);
  assert_true(nt_max_diff(out, want) <= tol);
  ir_ctx_free(c.ctx);
}

static void
test_eval_activations(void **state)
{
  (void)state;
  int64_t sh[1] = {4};
  double x[4] = {-1, 0, 1, -2};
  double relu[4] = {0, 0, 1, 0};
  double gelu[4] = {-0.15865525393145707, 0, 0.8413447460685429, -0.04550026389635842};
  double silu[4] = {-0.2689414213699951, 0, 0.7310585786300049, -0.2384058440442351};
  expect_eval1("(4,)", "R.nn.relu(x)", 1, sh, x, "(4)", relu, 0);
  expect_eval1("(4,)", "R.nn.gelu(x)", 1, sh, x, "(4)", gelu, 1e-7);
  expect_eval1("(4,)", "R.nn.silu(x)", 1, sh, x, "(4)", silu, 1e-7);
}

static void
test_eval_softmax(void **state)
{
  (void)state;
  int64_t sh[2] = {2, 3};
  double x[6] = {1, 2, 3, 1000, 1000, 1000};
  double sm[6] = {
      0.09003057317038046, 0.24472847105479764, 0.6652409557748219, 1.0 / 3, 1.0 / 3, 1.0 / 3};
  double lsm[6] = {-2.4076059644443806, -1.4076059644443806, -0.4076059644443806,
                   -log(3.0),           -log(3.0),           -log(3.0)};
  expect_eval1("(2, 3)", "R.nn.softmax(x)", 2, sh, x, "(2, 3)", sm, 1e-7);
  expect_eval1("(2, 3)", "R.nn.log_softmax(x, axis=1)", 2, sh, x, "(2, 3)", lsm, 1e-6);
  /* axis 0 over columns of equal pairs: 1000 vs 1 dominates */
  double col[6] = {0, 0, 0, 1, 1, 1};
  expect_eval1("(2, 3)", "R.nn.softmax(x, axis=0)", 2, sh, x, "(2, 3)", col, 1e-7);

  /* random rows sum to one along the chosen axis */
  NtRng r = {0x9e3779b97f4a7c15ull};
  int64_t sh3[3] = {3, 4, 5};
  double *v = nt_random(&r, 60);
  NtCall c = nt_parse("x: R.Tensor((3, 4, 5), \"float32\")", "", "R.nn.softmax(x, axis=1)");
  Value *args[1] = {nt_tensor(c.ctx, 3, sh3, v)};
  Value *out = nt_eval(&c, args);
  assert_non_null(out);
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < 5; k++) {
      double sum = 0;
      for (int j = 0; j < 4; j++)
        sum += op_get_f(&out->u.tensor.t, i * 20 + j * 5 + k);
      assert_true(fabs(sum - 1) < 1e-6);
    }
  }
  free(v);
  ir_ctx_free(c.ctx);
}

/* Runs layer_norm on x (shape sh) with gamma, beta of shape gsh. */
static Value *
run_norm(NtCall *c, int ndim, const int64_t *sh, const double *x, int gn, const int64_t *gsh,
         const double *g, const double *b)
{
  Value *args[3] = {nt_tensor(c->ctx, ndim, sh, x), nt_tensor(c->ctx, gn, gsh, g),
                    nt_tensor(c->ctx, gn, gsh, b)};
  return nt_eval(c, args);
}

static void
test_eval_layer_norm(void **state)
{
  (void)state;
  int64_t sh[2] = {2, 4}, gsh[1] = {4};
  double x[8] = {5, 5, 5, 5, 1, 2, 3, 4};
  double g[4] = {1, 2, 3, 4}, b[4] = {0.5, -1, 2, 0};
  NtCall c = nt_parse("x: R.Tensor((2, 4), \"float32\"), g: R.Tensor((4,), \"float32\"), "
                      "b: R.Tensor((4,), \"float32\")",
                      "", "R.nn.layer_norm(x, g, b, axes=[-1])");
  Value *out = run_norm(&c, 2, sh, x, 1, gsh, g, b);
  assert_non_null(out);
  /* a constant row normalizes to 0: the result is beta */
  double s = 1 / sqrt(1.25 + 1e-5);
  double want[8] = {0.5,        -1, 2, 0, -1.5 * s * 1 + 0.5, -0.5 * s * 2 - 1, 0.5 * s * 3 + 2,
                    1.5 * s * 4};
  assert_true(nt_max_diff(out, want) < 1e-6);
  ir_ctx_free(c.ctx);

  /* two axes, no scale and no center: each (2, 3) block has mean 0, var 1 */
  int64_t sh3[3] = {2, 2, 3}, gsh2[2] = {2, 3};
  NtRng r = {12345};
  double *v = nt_random(&r, 12), ones[6] = {9, 9, 9, 9, 9, 9};
  c = nt_parse("x: R.Tensor((2, 2, 3), \"float32\"), g: R.Tensor((2, 3), \"float32\"), "
               "b: R.Tensor((2, 3), \"float32\")",
               "", "R.nn.layer_norm(x, g, b, axes=[1, 2], epsilon=0.0, center=False, scale=False)");
  out = run_norm(&c, 3, sh3, v, 2, gsh2, ones, ones);
  assert_non_null(out);
  for (int i = 0; i < 2; i++) {
    double m = 0, q = 0;
    for (int j = 0; j < 6; j++)
      m += op_get_f(&out->u.tensor.t, i * 6 + j) / 6;
    for (int j = 0; j < 6; j++)
      q += pow(op_get_f(&out->u.tensor.t, i * 6 + j) - m, 2) / 6;
    assert_true(fabs(m) < 1e-6 && fabs(q - 1) < 1e-5);
  }
  free(v);
  ir_ctx_free(c.ctx);
}

static void
test_eval_batch_norm(void **state)
{
  (void)state;
  const char *params = "x: R.Tensor((1, 2, 1, 2), \"float32\"), g: R.Tensor((2,), \"float32\"), "
                       "b: R.Tensor((2,), \"float32\"), m: R.Tensor((2,), \"float32\"), "
                       "v: R.Tensor((2,), \"float32\")";
  int64_t sh[4] = {1, 2, 1, 2}, csh[1] = {2};
  double x[4] = {1, 3, 2, 4}, g[2] = {2, 1}, b[2] = {0, 1}, m[2] = {1, 2}, v[2] = {4, 0.25};
  for (int training = 0; training < 2; training++) {
    NtCall c = nt_parse(params, "",
                        training ? "R.nn.batch_norm(x, g, b, m, v, axis=1, epsilon=0.0)"
                                 : "R.nn.batch_norm(x, g, b, m, v, axis=1, epsilon=0.0, "
                                   "training=False)");
    Value *args[5] = {nt_tensor(c.ctx, 4, sh, x), nt_tensor(c.ctx, 1, csh, g),
                      nt_tensor(c.ctx, 1, csh, b), nt_tensor(c.ctx, 1, csh, m),
                      nt_tensor(c.ctx, 1, csh, v)};
    Value *out = nt_eval(&c, args);
    assert_non_null(out);
    assert_int_equal(out->kind, VAL_TUPLE);
    assert_int_equal(out->u.tuple.n, 3);
    /* inference: moving stats; training: batch stats (means 2, 3; vars 1, 1)
     * and moving stats moved by momentum 0.1 */
    double inf_out[4] = {0, 2, 1, 5}, tr_out[4] = {-2, 2, 0, 2};
    double tr_m[2] = {1.1, 2.1}, tr_v[2] = {3.7, 0.325};
    assert_true(nt_max_diff(out->u.tuple.items[0], training ? tr_out : inf_out) < 1e-6);
    assert_true(nt_max_diff(out->u.tuple.items[1], training ? tr_m : m) < 1e-6);
    assert_true(nt_max_diff(out->u.tuple.items[2], training ? tr_v : v) < 1e-6);
    ir_ctx_free(c.ctx);
  }
}

static void
test_eval_dropout(void **state)
{
  (void)state;
  int64_t sh[1] = {3};
  double x[3] = {1.5, -2, 0}, ones[3] = {1, 1, 1};
  NtCall c = nt_parse("x: R.Tensor((3,), \"float32\")", "", "R.nn.dropout(x, rate=0.5)");
  Value *args[1] = {nt_tensor(c.ctx, 1, sh, x)};
  Value *out = nt_eval(&c, args);
  assert_non_null(out);
  assert_int_equal(out->kind, VAL_TUPLE);
  assert_true(nt_max_diff(out->u.tuple.items[0], x) == 0);
  assert_true(nt_max_diff(out->u.tuple.items[1], ones) == 0);
  ir_ctx_free(c.ctx);
}

static void
test_eval_conv2d_hand(void **state)
{
  (void)state;
  /* all-ones 3x3 image and kernel, padding 1: corners see 4, edges 6 */
  int64_t sh[4] = {1, 1, 3, 3};
  double ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  NtCall c =
      nt_parse("x: " T4(1, 1, 3, 3) ", k: " T4(1, 1, 3, 3), "", "R.nn.conv2d(x, k, padding=1)");
  Value *args[2] = {nt_tensor(c.ctx, 4, sh, ones), nt_tensor(c.ctx, 4, sh, ones)};
  Value *out = nt_eval(&c, args);
  double want[9] = {4, 6, 4, 6, 9, 6, 4, 6, 4};
  assert_non_null(out);
  assert_true(nt_max_diff(out, want) == 0);
  ir_ctx_free(c.ctx);

  /* stride 2 and a 2x2 kernel dilated by 4 on 0..24: one output, the sum of
   * the corners x[0][0] + x[0][4] + x[4][0] + x[4][4] = 0 + 4 + 20 + 24 */
  int64_t sh5[4] = {1, 1, 5, 5}, ksh[4] = {1, 1, 2, 2};
  double v[25], k1[4] = {1, 1, 1, 1};
  for (int i = 0; i < 25; i++)
    v[i] = i;
  c = nt_parse("x: " T4(1, 1, 5, 5) ", k: " T4(1, 1, 2, 2), "",
               "R.nn.conv2d(x, k, strides=2, dilation=4)");
  Value *a2[2] = {nt_tensor(c.ctx, 4, sh5, v), nt_tensor(c.ctx, 4, ksh, k1)};
  out = nt_eval(&c, a2);
  double want1[1] = {48};
  assert_non_null(out);
  char *s = nt_shape_str(out);
  assert_string_equal(s, "(1, 1, 1, 1)");
  free(s);
  assert_true(nt_max_diff(out, want1) == 0);
  ir_ctx_free(c.ctx);
}

static void
test_eval_conv2d_channel_mismatch(void **state)
{
  (void)state;
  /* the annotation says 3 channels; the value has 2: the kernel checks */
  int64_t xs[4] = {1, 2, 4, 4}, ks[4] = {4, 3, 3, 3};
  NtCall c = nt_parse("x: " T4(1, 3, 4, 4) ", k: " T4(4, 3, 3, 3), "", "R.nn.conv2d(x, k)");
  Value *args[2] = {nt_tensor(c.ctx, 4, xs, NULL), nt_tensor(c.ctx, 4, ks, NULL)};
  assert_null(nt_eval(&c, args));
  assert_string_equal(ir_diag_get(c.ctx, 0)->msg,
                      "in binding 'y': R.nn.conv2d: data has 2 channels; weight has 4 output and 3 "
                      "input channels; 1 groups");
  ir_ctx_free(c.ctx);
}

/* ------------------------------------------------------------------ */
/* conv2d against a naive reference                                    */
/* ------------------------------------------------------------------ */

typedef struct {
  int n, c, h, w, o, kh, kw, groups, sh, sw, pad[4], dh, dw;
} ConvCase;

/* The reference: pad the input into a zeroed array first, then the seven
 * loops with no bounds tests.  NCHW data, OIHW kernel. */
static double *
ref_conv2d(const ConvCase *k, const double *x, const double *wt, int *oh, int *ow)
{
  int ph = k->h + k->pad[0] + k->pad[2], pw = k->w + k->pad[1] + k->pad[3];
  double *padded = calloc((size_t)(k->n * k->c * ph * pw), sizeof *padded);
  for (int n = 0; n < k->n; n++)
    for (int c = 0; c < k->c; c++)
      for (int y = 0; y < k->h; y++)
        for (int z = 0; z < k->w; z++)
          padded[((n * k->c + c) * ph + y + k->pad[0]) * pw + z + k->pad[1]] =
              x[((n * k->c + c) * k->h + y) * k->w + z];
  *oh = (ph - k->dh * (k->kh - 1) - 1) / k->sh + 1;
  *ow = (pw - k->dw * (k->kw - 1) - 1) / k->sw + 1;
  int cg = k->c / k->groups, og = k->o / k->groups;
  double *out = calloc((size_t)(k->n * k->o * *oh * *ow), sizeof *out);
  for (int n = 0; n < k->n; n++)
    for (int o = 0; o < k->o; o++)
      for (int y = 0; y < *oh; y++)
        for (int z = 0; z < *ow; z++)
          for (int ci = 0; ci < cg; ci++)
            for (int a = 0; a < k->kh; a++)
              for (int b = 0; b < k->kw; b++)
                out[((n * k->o + o) * *oh + y) * *ow + z] +=
                    padded[((n * k->c + (o / og) * cg + ci) * ph + y * k->sh + a * k->dh) * pw +
                           z * k->sw + b * k->dw] *
                    wt[((o * cg + ci) * k->kh + a) * k->kw + b];
  free(padded);
  return out;
}

/* Transposes a 4-D array: out[idx permuted] = in[idx]; perm[i] is the
 * source dim of destination dim i. */
static double *
transpose4(const double *in, const int *dims, const int *perm, int *out_dims)
{
  int n = dims[0] * dims[1] * dims[2] * dims[3], idx[4];
  double *out = malloc(sizeof *out * (size_t)n);
  for (int i = 0; i < 4; i++)
    out_dims[i] = dims[perm[i]];
  for (idx[0] = 0; idx[0] < dims[0]; idx[0]++)
    for (idx[1] = 0; idx[1] < dims[1]; idx[1]++)
      for (idx[2] = 0; idx[2] < dims[2]; idx[2]++)
        for (idx[3] = 0; idx[3] < dims[3]; idx[3]++) {
          int src = ((idx[0] * dims[1] + idx[1]) * dims[2] + idx[2]) * dims[3] + idx[3];
          int dst = ((idx[perm[0]] * out_dims[1] + idx[perm[1]]) * out_dims[2] + idx[perm[2]]) *
                        out_dims[3] +
                    idx[perm[3]];
          out[dst] = in[src];
        }
  return out;
}

/* Runs conv2d with the case's attributes in the given layouts on x, w
 * (already in those layouts) and returns the result; also checks that
 * inference gives the kernel's shape. */
static Value *
run_conv(IrCtx **ctx, const ConvCase *k, const char *dl, const char *kl, const int *xd,
         const int *kd, const double *x, const double *wt)
{
  char params[256], call[512];
  snprintf(params, sizeof params,
           "x: R.Tensor((%d, %d, %d, %d), " F32 "), k: R.Tensor((%d, %d, "
           "%d, %d), " F32 ")",
           xd[0], xd[1], xd[2], xd[3], kd[0], kd[1], kd[2], kd[3]);
  snprintf(call, sizeof call,
           "R.nn.conv2d(x, k, strides=[%d, %d], padding=[%d, %d, %d, %d], dilation=[%d, %d], "
           "groups=%d, data_layout=\"%s\", kernel_layout=\"%s\")",
           k->sh, k->sw, k->pad[0], k->pad[1], k->pad[2], k->pad[3], k->dh, k->dw, k->groups, dl,
           kl);
  char *inferred = nt_infer(params, "", call);
  NtCall c = nt_parse(params, "", call);
  assert_non_null(c.call);
  int64_t xs[4] = {xd[0], xd[1], xd[2], xd[3]}, ks[4] = {kd[0], kd[1], kd[2], kd[3]};
  Value *args[2] = {nt_tensor(c.ctx, 4, xs, x), nt_tensor(c.ctx, 4, ks, wt)};
  Value *out = nt_eval(&c, args);
  assert_non_null(out);
  char *shape = nt_shape_str(out), want[300];
  snprintf(want, sizeof want, "R.Tensor(%s, dtype=\"float32\")", shape);
  assert_string_equal(inferred, want);
  free(shape);
  free(inferred);
  *ctx = c.ctx;
  return out;
}

static void
test_eval_conv2d_reference(void **state)
{
  (void)state;
  static const ConvCase cases[] = {
      {1, 3, 5, 5, 4, 3, 3, 1, 1, 1, {0, 0, 0, 0}, 1, 1}, /* plain */
      {2, 3, 6, 5, 2, 3, 3, 1, 1, 1, {1, 1, 1, 1}, 1, 1}, /* padding at borders */
      {1, 2, 7, 6, 3, 3, 2, 1, 2, 2, {1, 0, 2, 1}, 1, 1}, /* stride 2, asymmetric pad */
      {1, 2, 7, 7, 2, 3, 3, 1, 1, 1, {2, 2, 2, 2}, 2, 2}, /* dilation 2 */
      {1, 4, 5, 5, 6, 3, 3, 2, 1, 1, {1, 1, 1, 1}, 1, 1}, /* groups 2 */
      {2, 4, 6, 6, 4, 3, 3, 4, 2, 1, {1, 1, 1, 1}, 1, 2}, /* depthwise */
      {1, 3, 4, 4, 2, 1, 1, 1, 3, 3, {0, 0, 0, 0}, 1, 1}, /* 1x1, stride 3 */
  };
  NtRng r = {0x2545f4914f6cdd1dull};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const ConvCase *k = &cases[i];
    int xd[4] = {k->n, k->c, k->h, k->w}, kd[4] = {k->o, k->c / k->groups, k->kh, k->kw};
    double *x = nt_random(&r, xd[0] * xd[1] * xd[2] * xd[3]);
    double *wt = nt_random(&r, kd[0] * kd[1] * kd[2] * kd[3]);
    int oh, ow;
    double *want = ref_conv2d(k, x, wt, &oh, &ow);
    IrCtx *ctx;
    Value *out = run_conv(&ctx, k, "NCHW", "OIHW", xd, kd, x, wt);
    assert_int_equal(out->u.tensor.t.shape[2], oh);
    assert_int_equal(out->u.tensor.t.shape[3], ow);
    assert_true(nt_max_diff(out, want) < 1e-5);
    ir_ctx_free(ctx);

    /* the same in NHWC with HWIO and with OHWI kernels: the transposed result */
    static const int to_nhwc[4] = {0, 2, 3, 1}, to_hwio[4] = {2, 3, 1, 0},
                     to_ohwi[4] = {0, 2, 3, 1};
    int xt_d[4], kt_d[4], od[4] = {k->n, k->o, oh, ow}, ot_d[4];
    double *xt = transpose4(x, xd, to_nhwc, xt_d);
    double *want_t = transpose4(want, od, to_nhwc, ot_d);
    for (int form = 0; form < 2; form++) {
      double *kt = transpose4(wt, kd, form ? to_ohwi : to_hwio, kt_d);
      out = run_conv(&ctx, k, "NHWC", form ? "OHWI" : "HWIO", xt_d, kt_d, xt, kt);
      assert_true(nt_max_diff(out, want_t) < 1e-5);
      ir_ctx_free(ctx);
      free(kt);
    }
    free(xt);
    free(want_t);
    free(x);
    free(wt);
    free(want);
  }
}

/* ------------------------------------------------------------------ */
/* Pools                                                               */
/* ------------------------------------------------------------------ */

static void
test_eval_pools_hand(void **state)
{
  (void)state;
  double v[25];
  for (int i = 0; i < 25; i++)
    v[i] = i;
  int64_t s4[4] = {1, 1, 4, 4}, s5[4] = {1, 1, 5, 5}, s3[4] = {1, 1, 3, 3}, s2[4] = {1, 1, 2, 2};
  double m4[4] = {5, 7, 13, 15};
  expect_eval1("(1, 1, 4, 4)", "R.nn.max_pool2d(x, pool_size=2, strides=2)", 4, s4, v,
               "(1, 1, 2, 2)", m4, 0);
  /* ceil_mode keeps the partial last windows */
  double m5c[9] = {6, 8, 9, 16, 18, 19, 21, 23, 24}, m5[4] = {6, 8, 16, 18};
  expect_eval1("(1, 1, 5, 5)", "R.nn.max_pool2d(x, pool_size=2, strides=2, ceil_mode=True)", 4, s5,
               v, "(1, 1, 3, 3)", m5c, 0);
  expect_eval1("(1, 1, 5, 5)", "R.nn.max_pool2d(x, pool_size=2, strides=2)", 4, s5, v,
               "(1, 1, 2, 2)", m5, 0);
  /* max pooling pads with -inf, not 0 */
  double neg[4] = {-1, -2, -3, -4}, mneg[9] = {-1, -1, -2, -1, -1, -2, -3, -3, -4};
  expect_eval1("(1, 1, 2, 2)", "R.nn.max_pool2d(x, pool_size=2, padding=1)", 4, s2, neg,
               "(1, 1, 3, 3)", mneg, 0);
  /* avg with padding: count_include_pad decides the divisor */
  double ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  double inc[9] = {4. / 9, 6. / 9, 4. / 9, 6. / 9, 1, 6. / 9, 4. / 9, 6. / 9, 4. / 9};
  expect_eval1("(1, 1, 3, 3)", "R.nn.avg_pool2d(x, pool_size=3, padding=1)", 4, s3, ones,
               "(1, 1, 3, 3)", ones, 1e-7);
  expect_eval1("(1, 1, 3, 3)", "R.nn.avg_pool2d(x, pool_size=3, padding=1, count_include_pad=True)",
               4, s3, ones, "(1, 1, 3, 3)", inc, 1e-7);
  /* ceil_mode windows past the padded input count only what they cover */
  double a_ceil[4] = {2, 3.5, 6.5, 8};
  expect_eval1("(1, 1, 3, 3)",
               "R.nn.avg_pool2d(x, pool_size=2, strides=2, ceil_mode=True, count_include_pad=True)",
               4, s3, v, "(1, 1, 2, 2)", a_ceil, 1e-7);
  double a_pad_inc[4] = {0, 0.75, 2.25, 6}, a_pad_exc[4] = {0, 1.5, 4.5, 6};
  expect_eval1("(1, 1, 3, 3)",
               "R.nn.avg_pool2d(x, pool_size=2, strides=2, padding=1, ceil_mode=True, "
               "count_include_pad=True)",
               4, s3, v, "(1, 1, 2, 2)", a_pad_inc, 1e-7);
  expect_eval1("(1, 1, 3, 3)",
               "R.nn.avg_pool2d(x, pool_size=2, strides=2, padding=1, ceil_mode=True)", 4, s3, v,
               "(1, 1, 2, 2)", a_pad_exc, 1e-7);
  /* dilation 2: the window {0, 2} x {0, 2} */
  double dil[1] = {(0 + 2 + 10 + 12) / 4.0};
  expect_eval1("(1, 1, 5, 5)", "R.nn.avg_pool2d(x, pool_size=2, strides=3, dilation=2)", 4, s5, v,
               "(1, 1, 1, 1)", dil, 1e-7);
}

static void
test_eval_pools_nhwc(void **state)
{
  (void)state;
  /* 2 channels, NHWC: channel 0 holds 0..15, channel 1 holds -(0..15) */
  double x[32], want[8];
  for (int i = 0; i < 16; i++) {
    x[2 * i] = i;
    x[2 * i + 1] = -i;
  }
  double m[4] = {5, 7, 13, 15}, mneg[4] = {0, -2, -8, -10};
  for (int i = 0; i < 4; i++) {
    want[2 * i] = m[i];
    want[2 * i + 1] = mneg[i];
  }
  int64_t sh[4] = {1, 4, 4, 2};
  expect_eval1("(1, 4, 4, 2)", "R.nn.max_pool2d(x, pool_size=2, strides=2, layout=\"NHWC\")", 4, sh,
               x, "(1, 2, 2, 2)", want, 0);
  /* the same with an NCHW output: channel-major */
  double want_nchw[8] = {5, 7, 13, 15, 0, -2, -8, -10};
  expect_eval1("(1, 4, 4, 2)",
               "R.nn.max_pool2d(x, pool_size=2, strides=2, layout=\"NHWC\", out_layout=\"NCHW\")",
               4, sh, x, "(1, 2, 2, 2)", want_nchw, 0);
}

static void
test_eval_adaptive(void **state)
{
  (void)state;
  double v[25];
  for (int i = 0; i < 25; i++)
    v[i] = i;
  int64_t s5[4] = {1, 1, 5, 5};
  /* rows/cols [0, 3) and [2, 5): block means r * 5 + c at mean r, c */
  double two[4] = {6, 8, 16, 18}, one[1] = {12};
  expect_eval1("(1, 1, 5, 5)", "R.nn.adaptive_avg_pool2d(x, output_size=[2, 2])", 4, s5, v,
               "(1, 1, 2, 2)", two, 1e-6);
  expect_eval1("(1, 1, 5, 5)", "R.nn.adaptive_avg_pool2d(x, output_size=1)", 4, s5, v,
               "(1, 1, 1, 1)", one, 1e-6);
  expect_eval1("(1, 1, 5, 5)", "R.nn.adaptive_avg_pool2d(x)", 4, s5, v, "(1, 1, 5, 5)", v, 0);
  /* 5 -> 3: [0, 2), [1, 4), [3, 5) on rows; 5 -> 1 on cols (mean col 2) */
  double three[3] = {0.5 * 5 + 2, 2 * 5 + 2, 3.5 * 5 + 2};
  expect_eval1("(1, 1, 5, 5)", "R.nn.adaptive_avg_pool2d(x, output_size=[3, 1])", 4, s5, v,
               "(1, 1, 3, 1)", three, 1e-6);
}

/* ------------------------------------------------------------------ */
/* The corpus: inference agrees with every annotation written there    */
/* ------------------------------------------------------------------ */

static bool
is_checked_op(IrOpId id)
{
  return (id >= IR_OP_RELU && id <= IR_OP_DROPOUT) || id == IR_OP_MATMUL;
}

/* Infers every nn/matmul call bound at the top level of f's body and
 * compares with the binding's annotation when there is one; returns how
 * many calls were checked. */
static int
check_function(IrCtx *ctx, const char *path, IrFunction *f)
{
  IrArith *arith = ir_arith_new(ctx);
  int checked = 0;
  ir_arith_bound_function(arith, f);
  for (int i = 0; i < f->body->u.seq.nblocks; i++) {
    IrBindingBlock *blk = &f->body->u.seq.blocks[i];
    for (int j = 0; j < blk->n; j++) {
      IrBinding *b = &blk->bindings[j];
      const IrExpr *call = b->value;
      if (call->kind != IR_EX_CALL || call->u.call.kind != IR_CALL_OP ||
          !is_checked_op(call->u.call.op->id))
        continue;
      IrSInfo *args[8];
      for (int k = 0; k < call->u.call.nargs && k < 8; k++)
        args[k] = call->u.call.args[k]->sinfo ? call->u.call.args[k]->sinfo : ir_sinfo_object(ctx);
      OpInfer in = {ctx, arith, NULL, b->var->u.var.name, call->loc, NULL};
      IrSInfo *got = op_call_infer(&in, call, args);
      if (!got)
        ir_diag_print(ctx, stderr);
      assert_non_null(got);
      if (b->var->sinfo && !ir_sinfo_equal(got, b->var->sinfo)) {
        IrBuf g = {0}, w = {0};
        ir_sinfo_print(got, &g);
        ir_sinfo_print(b->var->sinfo, &w);
        print_error("%s: %s: inferred %s, annotated %s\n", path, b->var->u.var.name, g.data,
                    w.data);
        fail();
      }
      checked++;
    }
  }
  return checked;
}

static void
test_infer_matches_corpus(void **state)
{
  (void)state;
  static const char *const files[] = {
      "tests/script/op_batch_norm.py",
      "tests/script/op_conv2d_defaults.py",
      "tests/script/op_conv2d_pool.py",
      "tests/script/op_layer_norm.py",
      "tests/script/op_matmul_astype_clip.py",
      "tests/script/op_softmax_reductions.py",
      "samples/mlp.py",
      "samples/tiny_cnn.py",
  };
  int checked = 0;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    IrCtx *ctx = ir_ctx_new();
    IrModule *m = fe_parse_file(ctx, files[i]);
    if (!m)
      ir_diag_print(ctx, stderr);
    assert_non_null(m);
    for (int g = 0; g < m->nglobals; g++)
      if (m->globals[g].kind == IR_GLOBAL_RELAX)
        checked += check_function(ctx, files[i], m->globals[g].u.relax);
    ir_ctx_free(ctx);
  }
  assert_true(checked >= 15);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_infer_activations),
      cmocka_unit_test(test_infer_softmax),
      cmocka_unit_test(test_infer_layer_norm),
      cmocka_unit_test(test_infer_batch_norm_dropout),
      cmocka_unit_test(test_infer_conv2d_static),
      cmocka_unit_test(test_infer_conv2d_symbolic),
      cmocka_unit_test(test_infer_conv2d_unknown_and_errors),
      cmocka_unit_test(test_infer_pools),
      cmocka_unit_test(test_eval_activations),
      cmocka_unit_test(test_eval_softmax),
      cmocka_unit_test(test_eval_layer_norm),
      cmocka_unit_test(test_eval_batch_norm),
      cmocka_unit_test(test_eval_dropout),
      cmocka_unit_test(test_eval_conv2d_hand),
      cmocka_unit_test(test_eval_conv2d_channel_mismatch),
      cmocka_unit_test(test_eval_conv2d_reference),
      cmocka_unit_test(test_eval_pools_hand),
      cmocka_unit_test(test_eval_pools_nhwc),
      cmocka_unit_test(test_eval_adaptive),
      cmocka_unit_test(test_infer_matches_corpus),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
