/* test_ops_reduce.c - struct-info inference (static, symbolic, unknown
 * rank) and kernels of R.sum, R.mean, R.max, R.min, R.argmax against
 * hand-computed values: negative and repeated axes, keepdims, int means,
 * NaN propagation, ties, double accumulation, empty reductions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "elemtest.h"

#define F32 "dtype=\"float32\""

static void
test_infer_static(void **state)
{
  (void)state;
  OpFix f = opfix_new("@R.function\n"
                      "def main(x: R.Tensor((2, 3, 4), " F32 "), i: R.Tensor((5,), \"int32\")):\n"
                      "    s1 = R.sum(x, axis=[1])\n"
                      "    s2 = R.sum(x, axis=[1], keepdims=True)\n"
                      "    s3 = R.sum(x)\n"
                      "    s4 = R.mean(x, keepdims=True)\n"
                      "    s5 = R.max(x, axis=[-1, 0])\n"
                      "    s6 = R.min(i, axis=[0])\n"
                      "    a1 = R.argmax(x, axis=1)\n"
                      "    a2 = R.argmax(x)\n"
                      "    a3 = R.argmax(x, axis=-1, keepdims=True)\n"
                      "    return s1\n");
  assert_string_equal(opfix_infer(&f, "s1"), "R.Tensor((2, 4), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "s2"), "R.Tensor((2, 1, 4), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "s3"), "R.Tensor((), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "s4"), "R.Tensor((1, 1, 1), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "s5"), "R.Tensor((3,), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "s6"), "R.Tensor((), dtype=\"int32\")");
  assert_string_equal(opfix_infer(&f, "a1"), "R.Tensor((2, 4), dtype=\"int64\")");
  assert_string_equal(opfix_infer(&f, "a2"), "R.Tensor((), dtype=\"int64\")");
  assert_string_equal(opfix_infer(&f, "a3"), "R.Tensor((2, 3, 1), dtype=\"int64\")");
  opfix_free(&f);
}

static void
test_infer_symbolic_and_unknown(void **state)
{
  (void)state;
  OpFix f = opfix_new("@R.function\n"
                      "def main(x: R.Tensor((\"n\", 4), " F32 "), u: R.Tensor(" F32 "),\n"
                      "         r: R.Tensor(" F32 ", ndim=3), o: R.Object):\n"
                      "    n = T.int64()\n"
                      "    s1 = R.sum(x, axis=[0])\n"
                      "    s2 = R.max(x, axis=[1], keepdims=True)\n"
                      "    s3 = R.mean(x, axis=[-1])\n"
                      "    u1 = R.sum(u)\n"
                      "    u2 = R.sum(u, axis=[0])\n"
                      "    u3 = R.sum(u, keepdims=True)\n"
                      "    r1 = R.min(r, axis=[0])\n"
                      "    r2 = R.argmax(r, axis=0, keepdims=True)\n"
                      "    o1 = R.max(o)\n"
                      "    return s1\n");
  assert_string_equal(opfix_infer(&f, "s1"), "R.Tensor((4,), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "s2"), "R.Tensor((n, 1), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "s3"), "R.Tensor((n,), dtype=\"float32\")");
  /* unknown rank: a full reduction is still 0-d */
  assert_string_equal(opfix_infer(&f, "u1"), "R.Tensor((), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "u2"), "R.Tensor(dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "u3"), "R.Tensor(dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "r1"), "R.Tensor(dtype=\"float32\", ndim=2)");
  assert_string_equal(opfix_infer(&f, "r2"), "R.Tensor(dtype=\"int64\", ndim=3)");
  assert_string_equal(opfix_infer(&f, "o1"), "R.Tensor(())");
  opfix_free(&f);
}

static void
test_infer_errors(void **state)
{
  (void)state;
  OpFix f = opfix_new("@R.function\n"
                      "def main(x: R.Tensor((2, 3, 4), " F32 "), e: R.Tensor((2, 0), " F32 "),\n"
                      "         s: R.Shape([2])):\n"
                      "    b1 = R.sum(x, axis=[3])\n"
                      "    b2 = R.sum(x, axis=[-4])\n"
                      "    b3 = R.mean(x, axis=[1, -2])\n"
                      "    b4 = R.argmax(x, axis=[0])\n"
                      "    b5 = R.argmax(x, axis=5)\n"
                      "    b6 = R.max(e, axis=[1])\n"
                      "    b7 = R.mean(e)\n"
                      "    b8 = R.sum(s)\n"
                      "    ok1 = R.sum(e, axis=[1])\n"
                      "    ok2 = R.max(e, axis=[0])\n"
                      "    return b1\n");
  assert_string_equal(opfix_infer(&f, "b1"),
                      "error: in binding 'b1': R.sum: axis 3 is out of range for a tensor of "
                      "rank 3");
  assert_string_equal(opfix_infer(&f, "b2"),
                      "error: in binding 'b2': R.sum: axis -4 is out of range for a tensor of "
                      "rank 3");
  assert_string_equal(opfix_infer(&f, "b3"), "error: in binding 'b3': R.mean: axis 1 is repeated");
  assert_string_equal(opfix_infer(&f, "b4"),
                      "error: in binding 'b4': R.argmax: axis must be one integer or None");
  assert_string_equal(opfix_infer(&f, "b5"),
                      "error: in binding 'b5': R.argmax: axis 5 is out of range for a tensor of "
                      "rank 3");
  assert_string_equal(opfix_infer(&f, "b6"),
                      "error: in binding 'b6': R.max: empty reduction: axis 1 has size 0");
  assert_string_equal(opfix_infer(&f, "b7"),
                      "error: in binding 'b7': R.mean: empty reduction: axis 1 has size 0");
  assert_string_equal(opfix_infer(&f, "b8"),
                      "error: in binding 'b8': R.sum: the argument must be a tensor");
  assert_string_equal(opfix_infer(&f, "ok1"), "R.Tensor((2,), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "ok2"), "R.Tensor((0,), dtype=\"float32\")");
  opfix_free(&f);
}

/* op_axis (infer_util.c), the helper other op categories use. */
static void
test_op_axis(void **state)
{
  (void)state;
  OpFix f = opfix_new("@R.function\ndef main(x: R.Tensor):\n    s = R.sum(x)\n    return s\n");
  const IrExpr *call = opfix_call(&f, "s");
  OpInfer in = {f.ctx, f.arith, f.mod, ir_sym(f.ctx, "s"), call->loc, NULL};
  int out = -7;
  assert_true(op_axis(&in, call, -1, 3, &out));
  assert_int_equal(out, 2);
  assert_true(op_axis(&in, call, -3, 3, &out));
  assert_int_equal(out, 0);
  assert_true(op_axis(&in, call, 2, 3, &out));
  assert_int_equal(out, 2);
  assert_int_equal(ir_error_count(f.ctx), 0);
  assert_false(op_axis(&in, call, 3, 3, &out));
  assert_false(op_axis(&in, call, -4, 3, &out));
  assert_int_equal(ir_error_count(f.ctx), 2);
  assert_string_equal(ir_diag_get(f.ctx, 0)->msg,
                      "in binding 's': R.sum: axis 3 is out of range for a tensor of rank 3");
  assert_non_null(op_attr(call, "keepdims"));
  assert_null(op_attr(call, "no_such_attr"));
  opfix_free(&f);
}

/* --- kernels ------------------------------------------------------------- */

static OpFix
eval_fix(void)
{
  return opfix_new("@R.function\ndef main(x: R.Tensor):\n"
                   "    sum1 = R.sum(x, axis=[1])\n"
                   "    sum0 = R.sum(x, axis=[-2])\n"
                   "    sum = R.sum(x)\n"
                   "    sumk = R.sum(x, axis=[1], keepdims=True)\n"
                   "    sum02 = R.sum(x, axis=[0, 2])\n"
                   "    mean0 = R.mean(x, axis=[0])\n"
                   "    mean1 = R.mean(x, axis=[1])\n"
                   "    mean = R.mean(x)\n"
                   "    max1 = R.max(x, axis=[1])\n"
                   "    min0 = R.min(x, axis=[0])\n"
                   "    min = R.min(x)\n"
                   "    am1 = R.argmax(x, axis=1)\n"
                   "    am = R.argmax(x)\n"
                   "    amk = R.argmax(x, axis=-2, keepdims=True)\n"
                   "    return sum\n");
}

static void
check(OpFix *f, const char *name, Value *x, const char *dtype, int ndim, const int64_t *shape,
      const double *want)
{
  opfix_expect(opfix_eval(f, name, (Value *[]){x}, NULL), dtype, ndim, shape, want, 1e-7);
}

static void
test_eval_float(void **state)
{
  (void)state;
  OpFix f = eval_fix();
  int64_t s23[] = {2, 3}, s2[] = {2}, s3[] = {3}, s21[] = {2, 1}, s13[] = {1, 3};
  Value *x = opfix_tensor(&f, "float32", 2, s23, (double[]){1, 5, 3, 4, 2, 6});
  check(&f, "sum1", x, "float32", 1, s2, (double[]){9, 12});
  check(&f, "sum0", x, "float32", 1, s3, (double[]){5, 7, 9});
  check(&f, "sum", x, "float32", 0, NULL, (double[]){21});
  check(&f, "sumk", x, "float32", 2, s21, (double[]){9, 12});
  check(&f, "mean0", x, "float32", 1, s3, (double[]){2.5, 3.5, 4.5});
  check(&f, "mean", x, "float32", 0, NULL, (double[]){3.5});
  check(&f, "max1", x, "float32", 1, s2, (double[]){5, 6});
  check(&f, "min0", x, "float32", 1, s3, (double[]){1, 2, 3});
  check(&f, "am1", x, "int64", 1, s2, (double[]){1, 2});
  check(&f, "am", x, "int64", 0, NULL, (double[]){5});
  check(&f, "amk", x, "int64", 2, s13, (double[]){1, 0, 1});
  /* two reduced axes out of three: (2, 2, 2) holding 0..7 */
  Value *c =
      opfix_tensor(&f, "float32", 3, (int64_t[]){2, 2, 2}, (double[]){0, 1, 2, 3, 4, 5, 6, 7});
  check(&f, "sum02", c, "float32", 1, s2, (double[]){10, 18});
  /* accumulation in double: float32 would lose the 1 against 1e8 */
  Value *d = opfix_tensor(&f, "float32", 1, s3, (double[]){1e8, 1, -1e8});
  check(&f, "sum", d, "float32", 0, NULL, (double[]){1});
  /* argmax keeps the first of equal maxima */
  Value *t = opfix_tensor(&f, "float32", 1, s3, (double[]){3, 7, 7});
  check(&f, "am", t, "int64", 0, NULL, (double[]){1});
  opfix_free(&f);
}

static void
test_eval_nan_and_ints(void **state)
{
  (void)state;
  OpFix f = eval_fix();
  int64_t s23[] = {2, 3}, s2[] = {2};
  /* numpy: max/min/sum propagate NaN; argmax points at the first NaN */
  Value *x = opfix_tensor(&f, "float32", 2, s23, (double[]){1, NAN, 3, 4, 2, 6});
  check(&f, "max1", x, "float32", 1, s2, (double[]){NAN, 6});
  check(&f, "min", x, "float32", 0, NULL, (double[]){NAN});
  check(&f, "sum1", x, "float32", 1, s2, (double[]){NAN, 12});
  check(&f, "am1", x, "int64", 1, s2, (double[]){1, 2});
  Value *y = opfix_tensor(&f, "float32", 1, (int64_t[]){4}, (double[]){5, 9, NAN, NAN});
  check(&f, "am", y, "int64", 0, NULL, (double[]){2});
  /* int mean: the int sum truncating-divided by the count, in the int dtype */
  Value *i = opfix_tensor(&f, "int32", 2, (int64_t[]){2, 2}, (double[]){1, -6, 3, 4});
  check(&f, "mean1", i, "int32", 1, s2, (double[]){-2, 3});
  check(&f, "sum1", i, "int32", 1, s2, (double[]){-5, 7});
  check(&f, "max1", i, "int32", 1, s2, (double[]){1, 4});
  check(&f, "min", i, "int32", 0, NULL, (double[]){-6});
  check(&f, "am1", i, "int64", 1, s2, (double[]){0, 1});
  opfix_free(&f);
}

static void
test_eval_empty(void **state)
{
  (void)state;
  OpFix f = eval_fix();
  const char *err;
  Value *e = opfix_tensor(&f, "float32", 2, (int64_t[]){2, 0}, NULL);
  /* the sum of nothing is 0; the others have no value */
  check(&f, "sum1", e, "float32", 1, (int64_t[]){2}, (double[]){0, 0});
  assert_null(opfix_eval(&f, "max1", (Value *[]){e}, &err));
  assert_string_equal(err, "in binding 'max1': R.max: empty reduction: axis 1 has size 0");
  ir_diag_clear(f.ctx);
  assert_null(opfix_eval(&f, "mean", (Value *[]){e}, &err));
  assert_string_equal(err, "in binding 'mean': R.mean: empty reduction: axis 1 has size 0");
  ir_diag_clear(f.ctx);
  assert_null(opfix_eval(&f, "am1", (Value *[]){e}, &err));
  assert_string_equal(err, "in binding 'am1': R.argmax: empty reduction: axis 1 has size 0");
  ir_diag_clear(f.ctx);
  /* reducing the non-empty axis of an empty tensor is fine: no elements out */
  check(&f, "min0", e, "float32", 1, (int64_t[]){0}, NULL);
  /* a bad axis is caught by the kernel as well */
  Value *v = opfix_tensor(&f, "float32", 1, (int64_t[]){3}, (double[]){1, 2, 3});
  assert_null(opfix_eval(&f, "sum1", (Value *[]){v}, &err));
  assert_string_equal(err,
                      "in binding 'sum1': R.sum: axis 1 is out of range for a tensor of rank 1");
  opfix_free(&f);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_infer_static), cmocka_unit_test(test_infer_symbolic_and_unknown),
      cmocka_unit_test(test_infer_errors), cmocka_unit_test(test_op_axis),
      cmocka_unit_test(test_eval_float),   cmocka_unit_test(test_eval_nan_and_ints),
      cmocka_unit_test(test_eval_empty),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
