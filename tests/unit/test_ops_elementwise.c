/* test_ops_elementwise.c - struct-info inference (static, symbolic,
 * unknown) and reference kernels of the elementwise ops, against
 * hand-computed values: broadcasting of size-1 dims, TVM's truncating int
 * divide, floor semantics for negatives, NaN propagation, division by
 * zero, and transcendental functions at known points. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "elemtest.h"

#define F32 "dtype=\"float32\""

/* --- inference ----------------------------------------------------------- */

static void
test_infer_static(void **state)
{
  (void)state;
  OpFix f = opfix_new("@R.function\n"
                      "def main(a: R.Tensor((2, 3), " F32 "), b: R.Tensor((3,), " F32 "),\n"
                      "         c: R.Tensor((2, 1, 3), " F32 "), d: R.Tensor((4, 1), " F32 "),\n"
                      "         e: R.Tensor((), " F32 ")):\n"
                      "    add = R.add(a, b)\n"
                      "    mul = R.multiply(c, d)\n"
                      "    lt = R.less(a, b)\n"
                      "    ne = R.not_equal(d, e)\n"
                      "    sc = R.subtract(e, e)\n"
                      "    pv = R.power(a, R.prim_value(T.float32(2)))\n"
                      "    return add\n");
  assert_string_equal(opfix_infer(&f, "add"), "R.Tensor((2, 3), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "mul"), "R.Tensor((2, 4, 3), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "lt"), "R.Tensor((2, 3), dtype=\"bool\")");
  assert_string_equal(opfix_infer(&f, "ne"), "R.Tensor((4, 1), dtype=\"bool\")");
  assert_string_equal(opfix_infer(&f, "sc"), "R.Tensor((), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "pv"), "R.Tensor((2, 3), dtype=\"float32\")");
  opfix_free(&f);
}

static void
test_infer_symbolic(void **state)
{
  (void)state;
  OpFix f = opfix_new(
      "@R.function\n"
      "def main(x: R.Tensor((\"n\", 4), " F32 "), y: R.Tensor((1, 4), " F32 "),\n"
      "         z: R.Tensor((\"m\", 4), " F32 "), w: R.Tensor((\"n\", 1), " F32 "),\n"
      "         u: R.Tensor((\"n + 2\",), " F32 "), v: R.Tensor((\"n + 3\",), " F32 "),\n"
      "         s: R.Tensor((\"2 * n\",), " F32 "), t: R.Tensor((\"n + n\",), " F32 ")):\n"
      "    n = T.int64()\n"
      "    m = T.int64()\n"
      "    a = R.add(x, y)\n"
      "    b = R.add(y, x)\n"
      "    c = R.add(x, z)\n"
      "    d = R.maximum(w, y)\n"
      "    e = R.add(u, v)\n"
      "    g = R.add(s, t)\n"
      "    h = R.add(x, x)\n"
      "    return a\n");
  assert_string_equal(opfix_infer(&f, "a"), "R.Tensor((n, 4), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "b"), "R.Tensor((n, 4), dtype=\"float32\")");
  /* n against m: unknown, so the rank is kept and the shape dropped */
  assert_string_equal(opfix_infer(&f, "c"), "R.Tensor(dtype=\"float32\", ndim=2)");
  assert_string_equal(opfix_infer(&f, "d"), "R.Tensor((n, 4), dtype=\"float32\")");
  /* n + 2 and n + 3 are provably different and neither can be 1 */
  assert_string_equal(opfix_infer(&f, "e"),
                      "error: in binding 'e': R.add: cannot broadcast dimension n + 2 with "
                      "n + 3 (dimension 0 of the result)");
  /* 2 * n equals n + n only by arithmetic */
  assert_string_equal(opfix_infer(&f, "g"), "R.Tensor((2 * n,), dtype=\"float32\")");
  assert_string_equal(opfix_infer_with(&f, "g", true), "R.Tensor(dtype=\"float32\", ndim=1)");
  /* without arithmetic, syntactic equality still decides */
  assert_string_equal(opfix_infer_with(&f, "h", true), "R.Tensor((n, 4), dtype=\"float32\")");
  opfix_free(&f);
}

static void
test_infer_unknown(void **state)
{
  (void)state;
  OpFix f = opfix_new("@R.function\n"
                      "def main(a: R.Tensor((2, 3), " F32 "), o: R.Object, r: R.Tensor(ndim=2),\n"
                      "         q: R.Tensor(" F32 ", ndim=-1), p: R.Prim(\"float32\"),\n"
                      "         k: R.Prim(\"int64\")):\n"
                      "    a1 = R.add(a, o)\n"
                      "    a2 = R.add(a, r)\n"
                      "    a3 = R.multiply(r, r)\n"
                      "    a4 = R.add(q, a)\n"
                      "    a5 = R.add(p, p)\n"
                      "    a6 = R.exp(o)\n"
                      "    a7 = R.greater(k, k)\n"
                      "    a8 = R.sqrt(r)\n"
                      "    return a1\n");
  assert_string_equal(opfix_infer(&f, "a1"), "R.Tensor(dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "a2"), "R.Tensor(dtype=\"float32\", ndim=2)");
  assert_string_equal(opfix_infer(&f, "a3"), "R.Tensor(ndim=2)");
  assert_string_equal(opfix_infer(&f, "a4"), "R.Tensor(dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "a5"), "R.Prim(\"float32\")");
  /* an op of unknown input still gives a tensor (a prim is 0-d) */
  assert_string_equal(opfix_infer(&f, "a6"), "R.Tensor");
  assert_string_equal(opfix_infer(&f, "a7"), "R.Prim(\"bool\")");
  assert_string_equal(opfix_infer(&f, "a8"), "R.Tensor(ndim=2)");
  opfix_free(&f);
}

static void
test_infer_where_clip_astype(void **state)
{
  (void)state;
  OpFix f = opfix_new("@R.function\n"
                      "def main(c: R.Tensor((2, 1), \"bool\"), x: R.Tensor((3,), " F32 "),\n"
                      "         y: R.Tensor((1,), " F32 "), cb: R.Tensor((\"n\", 1), \"bool\"),\n"
                      "         i: R.Tensor((2, 3), \"int32\")):\n"
                      "    n = T.int64()\n"
                      "    w1 = R.where(c, x, y)\n"
                      "    w2 = R.where(cb, x, x)\n"
                      "    w3 = R.where(x, x, y)\n"
                      "    w4 = R.where(c, x, i)\n"
                      "    k1 = R.clip(i, R.prim_value(0), R.prim_value(5))\n"
                      "    k2 = R.clip(x, R.prim_value(T.float32(0)), R.prim_value(T.float32(1)))\n"
                      "    t1 = R.astype(x, dtype=\"int32\")\n"
                      "    t2 = R.astype(i, dtype=\"bool\")\n"
                      "    return w1\n");
  assert_string_equal(opfix_infer(&f, "w1"), "R.Tensor((2, 3), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "w2"), "R.Tensor((n, 3), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "w3"),
                      "error: in binding 'w3': R.where: the condition must be bool, not float32");
  assert_string_equal(opfix_infer(&f, "w4"),
                      "error: in binding 'w4': R.where: operand data types differ: float32 and "
                      "int32");
  assert_string_equal(opfix_infer(&f, "k1"), "R.Tensor((2, 3), dtype=\"int32\")");
  assert_string_equal(opfix_infer(&f, "k2"), "R.Tensor((3,), dtype=\"float32\")");
  assert_string_equal(opfix_infer(&f, "t1"), "R.Tensor((3,), dtype=\"int32\")");
  assert_string_equal(opfix_infer(&f, "t2"), "R.Tensor((2, 3), dtype=\"bool\")");
  opfix_free(&f);
}

static void
test_infer_errors(void **state)
{
  (void)state;
  OpFix f = opfix_new("@R.function\n"
                      "def main(a: R.Tensor((2, 3), " F32 "), b: R.Tensor((4,), " F32 "),\n"
                      "         i: R.Tensor((2, 3), \"int32\"), s: R.Shape([2, 3]),\n"
                      "         t: R.Tuple(R.Tensor((2,), " F32 "))):\n"
                      "    e1 = R.add(a, i)\n"
                      "    e2 = R.add(a, b)\n"
                      "    e3 = R.exp(i)\n"
                      "    e4 = R.add(a, s)\n"
                      "    e5 = R.negative(t)\n"
                      "    e6 = R.add(a, R.prim_value(1))\n"
                      "    ok1 = R.negative(i)\n"
                      "    ok2 = R.abs(i)\n"
                      "    return e1\n");
  assert_string_equal(
      opfix_infer(&f, "e1"),
      "error: in binding 'e1': R.add: operand data types differ: float32 and int32");
  assert_string_equal(opfix_infer(&f, "e2"),
                      "error: in binding 'e2': R.add: cannot broadcast dimension 3 with 4 "
                      "(dimension 1 of the result)");
  assert_string_equal(opfix_infer(&f, "e3"),
                      "error: in binding 'e3': R.exp: requires a float operand, not int32");
  assert_string_equal(opfix_infer(&f, "e4"),
                      "error: in binding 'e4': R.add: argument 2 must be a tensor or a prim "
                      "value, not a shape");
  assert_string_equal(opfix_infer(&f, "e5"),
                      "error: in binding 'e5': R.negative: argument 1 must be a tensor or a "
                      "prim value, not a tuple");
  /* R.prim_value(1) is int64: like TVM, no implicit promotion */
  assert_string_equal(
      opfix_infer(&f, "e6"),
      "error: in binding 'e6': R.add: operand data types differ: float32 and int64");
  assert_string_equal(opfix_infer(&f, "ok1"), "R.Tensor((2, 3), dtype=\"int32\")");
  assert_string_equal(opfix_infer(&f, "ok2"), "R.Tensor((2, 3), dtype=\"int32\")");
  opfix_free(&f);
}

/* --- kernels ------------------------------------------------------------- */

#define EVAL_HEAD "@R.function\ndef main(x: R.Tensor, y: R.Tensor, c: R.Tensor):\n"

static OpFix
eval_fix(void)
{
  return opfix_new(EVAL_HEAD "    add = R.add(x, y)\n"
                             "    sub = R.subtract(x, y)\n"
                             "    mul = R.multiply(x, y)\n"
                             "    div = R.divide(x, y)\n"
                             "    fdiv = R.floor_divide(x, y)\n"
                             "    pw = R.power(x, y)\n"
                             "    mx = R.maximum(x, y)\n"
                             "    mn = R.minimum(x, y)\n"
                             "    eq = R.equal(x, y)\n"
                             "    ne = R.not_equal(x, y)\n"
                             "    lt = R.less(x, y)\n"
                             "    le = R.less_equal(x, y)\n"
                             "    gt = R.greater(x, y)\n"
                             "    ge = R.greater_equal(x, y)\n"
                             "    wh = R.where(c, x, y)\n"
                             "    neg = R.negative(x)\n"
                             "    ab = R.abs(x)\n"
                             "    ex = R.exp(x)\n"
                             "    lg = R.log(x)\n"
                             "    sq = R.sqrt(x)\n"
                             "    rs = R.rsqrt(x)\n"
                             "    th = R.tanh(x)\n"
                             "    sg = R.sigmoid(x)\n"
                             "    ef = R.erf(x)\n"
                             "    cl = R.clip(x, R.prim_value(T.float32(0)), "
                             "R.prim_value(T.float32(1)))\n"
                             "    cli = R.clip(x, R.prim_value(-2), R.prim_value(3))\n"
                             "    ti = R.astype(x, dtype=\"int32\")\n"
                             "    tb = R.astype(x, dtype=\"bool\")\n"
                             "    tf = R.astype(x, dtype=\"float32\")\n"
                             "    t8 = R.astype(x, dtype=\"int8\")\n"
                             "    return add\n");
}

/* Runs binary binding name on x and y and checks the result. */
static void
check2(OpFix *f, const char *name, Value *x, Value *y, const char *dtype, int ndim,
       const int64_t *shape, const double *want, double tol)
{
  Value *args[2] = {x, y};
  opfix_expect(opfix_eval(f, name, args, NULL), dtype, ndim, shape, want, tol);
}

static void
check1(OpFix *f, const char *name, Value *x, const char *dtype, const double *want, double tol)
{
  Value *args[3] = {x, NULL, NULL};
  const IrExpr *call = opfix_call(f, name);
  for (int i = 1; i < call->u.call.nargs; i++) { /* clip's bounds */
    const IrPrimExpr *p = call->u.call.args[i]->u.prim;
    args[i] = p->kind == IR_PE_INT ? op_prim_int(f->ctx, p->dtype, p->u.int_value)
                                   : op_prim_float(f->ctx, p->dtype, p->u.float_value);
  }
  const IrTensorData *t = &x->u.tensor.t;
  opfix_expect(opfix_eval(f, name, args, NULL), dtype, t->ndim, t->shape, want, tol);
}

static void
test_eval_broadcast(void **state)
{
  (void)state;
  OpFix f = eval_fix();
  int64_t s21[] = {2, 1}, s3[] = {3}, s23[] = {2, 3};
  Value *x = opfix_tensor(&f, "float32", 2, s21, (double[]){1, 2});
  Value *y = opfix_tensor(&f, "float32", 1, s3, (double[]){10, 20, 30});
  check2(&f, "add", x, y, "float32", 2, s23, (double[]){11, 21, 31, 12, 22, 32}, 0);
  check2(&f, "sub", y, x, "float32", 2, s23, (double[]){9, 19, 29, 8, 18, 28}, 0);
  check2(&f, "mul", x, y, "float32", 2, s23, (double[]){10, 20, 30, 20, 40, 60}, 0);
  /* a 0-d tensor and a prim value broadcast everywhere */
  Value *z = opfix_tensor(&f, "float32", 0, NULL, (double[]){0.5});
  check2(&f, "mul", y, z, "float32", 1, s3, (double[]){5, 10, 15}, 0);
  check2(&f, "sub", op_prim_float(f.ctx, IR_F32, 100), y, "float32", 1, s3, (double[]){90, 80, 70},
         0);
  /* two prim values give a prim value */
  Value *args[2] = {op_prim_int(f.ctx, IR_I64, 7), op_prim_int(f.ctx, IR_I64, -2)};
  Value *p = opfix_eval(&f, "fdiv", args, NULL);
  assert_int_equal(p->kind, VAL_PRIM);
  assert_int_equal(p->u.prim.i, -4);
  /* incompatible concrete shapes */
  const char *err;
  int64_t s4[] = {4};
  Value *bad[2] = {opfix_tensor(&f, "float32", 2, s23, (double[]){0, 0, 0, 0, 0, 0}),
                   opfix_tensor(&f, "float32", 1, s4, (double[]){0, 0, 0, 0})};
  assert_null(opfix_eval(&f, "add", bad, &err));
  assert_string_equal(err, "in binding 'add': R.add: cannot broadcast shapes (2, 3) and (4,)");
  opfix_free(&f);
}

static void
test_eval_division(void **state)
{
  (void)state;
  OpFix f = eval_fix();
  int64_t s4[] = {4}, s2[] = {2};
  Value *a = opfix_tensor(&f, "int32", 1, s4, (double[]){7, -7, 7, -7});
  Value *b = opfix_tensor(&f, "int32", 1, s4, (double[]){2, 2, -2, -2});
  /* TVM's divide on ints truncates toward zero; floor_divide floors */
  check2(&f, "div", a, b, "int32", 1, s4, (double[]){3, -3, -3, 3}, 0);
  check2(&f, "fdiv", a, b, "int32", 1, s4, (double[]){3, -4, -4, 3}, 0);
  Value *fa = opfix_tensor(&f, "float32", 1, s4, (double[]){7, -7, 1, -1});
  Value *fb = opfix_tensor(&f, "float32", 1, s4, (double[]){2, 2, 0, 0});
  check2(&f, "div", fa, fb, "float32", 1, s4, (double[]){3.5, -3.5, INFINITY, -INFINITY}, 0);
  check2(&f, "fdiv", fa, fb, "float32", 1, s4, (double[]){3, -4, INFINITY, -INFINITY}, 0);
  /* int64 extremes wrap instead of trapping */
  Value *lo = opfix_tensor(&f, "int64", 1, s2, (double[]){0, 5});
  op_set_i(&lo->u.tensor.t, 0, INT64_MIN);
  Value *m1 = opfix_tensor(&f, "int64", 1, s2, (double[]){-1, -1});
  Value *out = opfix_eval(&f, "fdiv", (Value *[]){lo, m1}, NULL);
  assert_non_null(out);
  assert_int_equal(op_get_i(&out->u.tensor.t, 0), INT64_MIN);
  assert_int_equal(op_get_i(&out->u.tensor.t, 1), -5);
  /* integer division by zero is an error naming the binding */
  const char *err;
  Value *z = opfix_tensor(&f, "int32", 1, s2, (double[]){1, 0});
  Value *args[2] = {opfix_tensor(&f, "int32", 1, s2, (double[]){4, 4}), z};
  assert_null(opfix_eval(&f, "div", args, &err));
  assert_string_equal(err, "in binding 'div': R.divide: integer division by zero");
  ir_diag_clear(f.ctx);
  assert_null(opfix_eval(&f, "fdiv", args, &err));
  assert_string_equal(err, "in binding 'fdiv': R.floor_divide: integer division by zero");
  opfix_free(&f);
}

static void
test_eval_power_minmax_compare(void **state)
{
  (void)state;
  OpFix f = eval_fix();
  int64_t s3[] = {3}, s4[] = {4};
  Value *a = opfix_tensor(&f, "float32", 1, s3, (double[]){2, 9, 4});
  Value *b = opfix_tensor(&f, "float32", 1, s3, (double[]){0.5, 0.5, -1});
  check2(&f, "pw", a, b, "float32", 1, s3, (double[]){1.4142135623730951, 3, 0.25}, 1e-7);
  Value *ia = opfix_tensor(&f, "int32", 1, s3, (double[]){3, -2, 2});
  Value *ib = opfix_tensor(&f, "int32", 1, s3, (double[]){4, 3, -1});
  check2(&f, "pw", ia, ib, "int32", 1, s3, (double[]){81, -8, 0}, 0);
  /* maximum/minimum propagate NaN, as numpy */
  Value *n = opfix_tensor(&f, "float32", 1, s4, (double[]){NAN, 1, 5, -0.5});
  Value *m = opfix_tensor(&f, "float32", 1, s4, (double[]){0, NAN, 2, -1});
  check2(&f, "mx", n, m, "float32", 1, s4, (double[]){NAN, NAN, 5, -0.5}, 0);
  check2(&f, "mn", n, m, "float32", 1, s4, (double[]){NAN, NAN, 2, -1}, 0);
  Value *c = opfix_tensor(&f, "int32", 1, s3, (double[]){1, 2, 3});
  Value *d = opfix_tensor(&f, "int32", 1, s3, (double[]){2, 2, 2});
  check2(&f, "eq", c, d, "bool", 1, s3, (double[]){0, 1, 0}, 0);
  check2(&f, "ne", c, d, "bool", 1, s3, (double[]){1, 0, 1}, 0);
  check2(&f, "lt", c, d, "bool", 1, s3, (double[]){1, 0, 0}, 0);
  check2(&f, "le", c, d, "bool", 1, s3, (double[]){1, 1, 0}, 0);
  check2(&f, "gt", c, d, "bool", 1, s3, (double[]){0, 0, 1}, 0);
  check2(&f, "ge", c, d, "bool", 1, s3, (double[]){0, 1, 1}, 0);
  /* NaN compares unequal to everything, itself included */
  check2(&f, "eq", n, n, "bool", 1, s4, (double[]){0, 1, 1, 1}, 0);
  check2(&f, "lt", n, m, "bool", 1, s4, (double[]){0, 0, 0, 0}, 0);
  opfix_free(&f);
}

static void
test_eval_where(void **state)
{
  (void)state;
  OpFix f = eval_fix();
  int64_t s21[] = {2, 1}, s3[] = {3}, s23[] = {2, 3};
  Value *c = opfix_tensor(&f, "bool", 2, s21, (double[]){1, 0});
  Value *x = opfix_tensor(&f, "float32", 1, s3, (double[]){1, 2, 3});
  Value *y = opfix_tensor(&f, "float32", 0, NULL, (double[]){-1});
  Value *args[3] = {c, x, y};
  opfix_expect(opfix_eval(&f, "wh", args, NULL), "float32", 2, s23, (double[]){1, 2, 3, -1, -1, -1},
               0);
  opfix_free(&f);
}

static void
test_eval_unary(void **state)
{
  (void)state;
  OpFix f = eval_fix();
  int64_t s3[] = {3}, s4[] = {4};
  Value *i = opfix_tensor(&f, "int32", 1, s3, (double[]){-3, 4, -2147483648.0});
  check1(&f, "neg", i, "int32", (double[]){3, -4, -2147483648.0}, 0);
  check1(&f, "ab", i, "int32", (double[]){3, 4, -2147483648.0}, 0);
  Value *x = opfix_tensor(&f, "float32", 1, s3, (double[]){1, 4, 0.25});
  check1(&f, "neg", x, "float32", (double[]){-1, -4, -0.25}, 0);
  check1(&f, "ex", x, "float32",
         (double[]){2.718281828459045, 54.598150033144236, 1.2840254166877414}, 1e-7);
  check1(&f, "lg", x, "float32", (double[]){0, 1.3862943611198906, -1.3862943611198906}, 1e-7);
  check1(&f, "sq", x, "float32", (double[]){1, 2, 0.5}, 0);
  check1(&f, "rs", x, "float32", (double[]){1, 0.5, 2}, 0);
  Value *t = opfix_tensor(&f, "float32", 1, s4, (double[]){0, 1, -2, 0.5});
  check1(&f, "th", t, "float32",
         (double[]){0, 0.7615941559557649, -0.9640275800758169, 0.46211715726000974}, 1e-7);
  check1(&f, "sg", t, "float32",
         (double[]){0.5, 0.7310585786300049, 0.11920292202211755, 0.6224593312018546}, 1e-7);
  check1(&f, "ef", t, "float32",
         (double[]){0, 0.8427007929497149, -0.9953222650189527, 0.5204998778130465}, 1e-7);
  /* log of 0 and of a negative: -inf and NaN, no error */
  Value *z = opfix_tensor(&f, "float32", 1, (int64_t[]){2}, (double[]){0, -1});
  check1(&f, "lg", z, "float32", (double[]){-INFINITY, NAN}, 0);
  /* a transcendental op on ints is an error in the kernel too */
  const char *err;
  assert_null(opfix_eval(&f, "ex", (Value *[]){i}, &err));
  assert_string_equal(err, "in binding 'ex': R.exp: requires a float operand, not int32");
  opfix_free(&f);
}

static void
test_eval_clip_astype(void **state)
{
  (void)state;
  OpFix f = eval_fix();
  int64_t s5[] = {5};
  Value *x = opfix_tensor(&f, "float32", 1, s5, (double[]){-1, 0.5, 2, NAN, 1});
  check1(&f, "cl", x, "float32", (double[]){0, 0.5, 1, NAN, 1}, 0);
  Value *i = opfix_tensor(&f, "int32", 1, s5, (double[]){-5, -2, 0, 3, 9});
  check1(&f, "cli", i, "int32", (double[]){-2, -2, 0, 3, 3}, 0);
  /* float to int truncates toward zero; to bool is != 0 (NaN is true) */
  Value *y = opfix_tensor(&f, "float32", 1, s5, (double[]){1.7, -1.7, 2.5, 0, -0.0});
  check1(&f, "ti", y, "int32", (double[]){1, -1, 2, 0, 0}, 0);
  check1(&f, "tb", x, "bool", (double[]){1, 1, 1, 1, 1}, 0);
  check1(&f, "tb", y, "bool", (double[]){1, 1, 1, 0, 0}, 0);
  /* int to float is exact here; int32 to int8 wraps */
  check1(&f, "tf", i, "float32", (double[]){-5, -2, 0, 3, 9}, 0);
  Value *w = opfix_tensor(&f, "int32", 1, s5, (double[]){127, 128, 255, 256, -129});
  check1(&f, "t8", w, "int8", (double[]){127, -128, -1, 0, 127}, 0);
  opfix_free(&f);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_infer_static),     cmocka_unit_test(test_infer_symbolic),
      cmocka_unit_test(test_infer_unknown),    cmocka_unit_test(test_infer_where_clip_astype),
      cmocka_unit_test(test_infer_errors),     cmocka_unit_test(test_eval_broadcast),
      cmocka_unit_test(test_eval_division),    cmocka_unit_test(test_eval_power_minmax_compare),
      cmocka_unit_test(test_eval_where),       cmocka_unit_test(test_eval_unary),
      cmocka_unit_test(test_eval_clip_astype),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
