/*
 * test_interp.c - the reference interpreter on the modules of tests/interp/:
 * call_tir into prim_funcs, memory ops with their bounds checks, match_cast,
 * if/else, tuples, closures, calls, R.print and R.assert_op, argument
 * checks, and TIR semantics, against values computed by hand.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "../../interp/interp.h"
#include "testutil.h"

typedef struct {
  IrCtx *ctx;
  IrModule *m;
} Fixture;

static Fixture
load(const char *path)
{
  Fixture f;
  f.ctx = ir_ctx_new();
  f.m = fe_parse_file(f.ctx, path);
  if (!f.m)
    ir_diag_print(f.ctx, stderr);
  assert_non_null(f.m);
  assert_int_equal(ir_module_check(f.ctx, f.m), 0);
  return f;
}

/* A tensor of dtype t with the given values (row-major). */
static Value *
tensor(IrCtx *ctx, IrDType t, int ndim, const int64_t *shape, const double *values)
{
  IrLoc none = {0};
  Value *v = op_tensor_new(ctx, t, ndim, shape, none);
  assert_non_null(v);
  for (int64_t i = 0; i < op_numel(&v->u.tensor.t); i++)
    op_set_f(&v->u.tensor.t, i, values ? values[i] : 0);
  return v;
}

static Value *
vec_f32(IrCtx *ctx, int64_t n, const double *values)
{
  return tensor(ctx, IR_F32, 1, &n, values);
}

static Value *
bool_scalar(IrCtx *ctx, bool b)
{
  double v = b;
  return tensor(ctx, IR_BOOL, 0, NULL, &v);
}

static Value *
call(Fixture *f, const char *fn, Value **args, int n)
{
  Value *r = interp_call(interp_new(f->ctx, f->m, NULL), fn, args, n);
  if (!r)
    ir_diag_print(f->ctx, stderr);
  return r;
}

/* Calls fn expecting failure with every given fragment in the message. */
static void
expect_error(Fixture *f, const char *fn, Value **args, int n, const char *frag1, const char *frag2)
{
  Value *r = interp_call(interp_new(f->ctx, f->m, NULL), fn, args, n);
  char *text = tu_diag_text(f->ctx);
  if (r || !strstr(text, frag1) || (frag2 && !strstr(text, frag2)))
    printf("%s: got %s\n  diagnostics: %s\n", fn, r ? "a result" : "NULL", text);
  assert_null(r);
  assert_non_null(strstr(text, frag1));
  if (frag2)
    assert_non_null(strstr(text, frag2));
  free(text);
  ir_diag_clear(f->ctx);
}

static void
assert_values(const Value *v, int64_t n, const double *want)
{
  assert_non_null(v);
  assert_int_equal(v->kind, VAL_TENSOR);
  assert_int_equal(op_numel(&v->u.tensor.t), n);
  for (int64_t i = 0; i < n; i++) {
    double got = op_get_f(&v->u.tensor.t, i);
    if (!(fabs(got - want[i]) <= 1e-6 * (1 + fabs(want[i]))))
      printf("element %lld: got %.9g, want %.9g\n", (long long)i, got, want[i]);
    assert_true(fabs(got - want[i]) <= 1e-6 * (1 + fabs(want[i])));
  }
}

static void
done(Fixture *f)
{
  ir_ctx_free(f->ctx);
}

/* ---- kernel calls ---------------------------------------------------------- */

/* tests/interp/kernel_call.py: rxc_k_gemm_f32 adds A @ B to C's ones; a
 * call reaching past a buffer, one writing what it reads, and an unknown
 * kernel are refused before any kernel runs. */
static void
test_kernel_call(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/kernel_call.py");
  int64_t sa[] = {2, 3}, sb[] = {3, 4};
  double a[] = {1, 2, 3, -1, 0.5, 4};
  double b[] = {1, 0, 2, -1, 0.5, 1, 0, 3, -2, 1, 1, 0.25};
  Value *args[] = {tensor(f.ctx, IR_F32, 2, sa, a), tensor(f.ctx, IR_F32, 2, sb, b)};
  double want[8];
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 4; c++) {
      want[r * 4 + c] = 1;
      for (int t = 0; t < 3; t++)
        want[r * 4 + c] += a[r * 3 + t] * b[t * 4 + c];
    }
  assert_values(call(&f, "main", args, 2), 8, want);
  expect_error(&f, "past", args, 2, "rxc_k_gemm_f32: argument 1 reaches elements 0 to 11",
               "buffer 'C' of 8");
  expect_error(&f, "aliased", args, 2, "argument 1 writes elements argument 2 reaches", NULL);
  expect_error(&f, "nothing", args, 2, "unknown kernel 'rxc_k_nothing' with 1 argument", NULL);
  done(&f);
}

/* ---- call_tir ------------------------------------------------------------ */

static void
test_elementwise(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/kernels.py");
  int64_t shape[] = {2, 3};
  double x[] = {0, 1, 2, -3, 4.5, -0.25};
  Value *args[] = {tensor(f.ctx, IR_F32, 2, shape, x)};
  Value *r = call(&f, "elementwise", args, 1);
  double want[] = {1, 2, 3, -2, 5.5, 0.75};
  assert_values(r, 6, want);
  assert_int_equal(r->u.tensor.t.ndim, 2);
  assert_int_equal(r->u.tensor.t.shape[1], 3);
  done(&f);
}

static void
test_matmul_with_init(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/kernels.py");
  int64_t sa[] = {2, 3}, sb[] = {3, 2};
  double a[] = {1, 2, 3, 4, 5, 6}, b[] = {7, 8, 9, 10, 11, 12};
  Value *args[] = {tensor(f.ctx, IR_F32, 2, sa, a), tensor(f.ctx, IR_F32, 2, sb, b)};
  /* [1 2 3; 4 5 6] x [7 8; 9 10; 11 12] = [58 64; 139 154] */
  double want[] = {58, 64, 139, 154};
  Value *r = call(&f, "mm", args, 2);
  assert_values(r, 4, want);
  /* a second call must start from zero again (T.init, fresh outputs) */
  assert_values(call(&f, "mm", args, 2), 4, want);
  done(&f);
}

static void
test_symbolic_match_buffer(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/kernels.py");
  int64_t shape[] = {3, 2};
  double x[] = {1, 2, 3, 4, 5, 6};
  Value *args[] = {tensor(f.ctx, IR_F32, 2, shape, x)};
  double want[] = {2, 4, 6, 8, 10, 12};
  Value *r = call(&f, "flat", args, 1);
  assert_values(r, 6, want);
  assert_int_equal(r->u.tensor.t.shape[0], 6);
  /* out_sinfo n * 2 + 1 disagrees with the prim_func's B of n * 2 */
  expect_error(&f, "flat_wrong", args, 1, "in binding 'gv'", "buffer 'B' dimension 0");
  done(&f);
}

static void
test_out_of_bounds_tir(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/kernels.py");
  double x[] = {1, 2, 3, 4};
  Value *args[] = {vec_f32(f.ctx, 4, x)};
  expect_error(&f, "oob", args, 1, "index [4] of buffer 'A' is out of bounds for shape (4)",
               "in prim_func 'shift_bad'");
  done(&f);
}

/* ---- memory ops ------------------------------------------------------------ */

static void
test_storage_fits(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/memory.py");
  double x[] = {1.5, -2, 3, 4};
  for (int m = 1; m <= 4; m++) {
    Value *args[] = {vec_f32(f.ctx, m, x)};
    assert_values(call(&f, "main", args, 1), m, x);
  }
  double y[] = {7, 8};
  Value *args2[] = {vec_f32(f.ctx, 2, y)};
  /* 8 bytes at offset 12 of 16 do not fit */
  expect_error(&f, "offset", args2, 1,
               "in binding 'alloc': R.memory.alloc_tensor: tensor of 8 bytes at offset 12 does "
               "not fit in storage of 16 bytes",
               NULL);
  done(&f);
}

static void
test_storage_too_small(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/memory.py");
  Value *args[] = {vec_f32(f.ctx, 1024, NULL)};
  expect_error(&f, "main", args, 1,
               "in binding 'alloc': R.memory.alloc_tensor: tensor of 4096 bytes at offset 0 does "
               "not fit in storage of 16 bytes",
               NULL);
  Value *five[] = {vec_f32(f.ctx, 5, NULL)};
  expect_error(&f, "main", five, 1, "tensor of 20 bytes", NULL);
  Value *two[] = {vec_f32(f.ctx, 2, NULL)};
  expect_error(&f, "after_kill", two, 1, "in binding 'alloc'", "already killed");
  done(&f);
}

static void
test_builtin_alloc_tensor(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/memory.py");
  int64_t n = 3;
  Value *args[] = {tensor(f.ctx, IR_I32, 1, &n, NULL)};
  Value *r = call(&f, "fresh", args, 1);
  double want[] = {0, 0, 0, 0};
  assert_values(r, 4, want);
  assert_true(ir_dtype_eq(r->u.tensor.t.dtype, IR_I32));
  done(&f);
}

/* ---- Relax control --------------------------------------------------------- */

static void
test_if_else(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/control.py");
  double x[] = {1, 2, 3, 4}, plus[] = {2, 3, 4, 5};
  Value *yes[] = {bool_scalar(f.ctx, true), vec_f32(f.ctx, 4, x)};
  Value *no[] = {bool_scalar(f.ctx, false), vec_f32(f.ctx, 4, x)};
  assert_values(call(&f, "branch", yes, 2), 4, plus);
  assert_values(call(&f, "branch", no, 2), 4, x);
  done(&f);
}

static void
test_tuples(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/control.py");
  double x[] = {1, 2, 3, 4}, plus[] = {2, 3, 4, 5};
  Value *args[] = {vec_f32(f.ctx, 4, x)};
  Value *r = call(&f, "tuples", args, 1);
  assert_non_null(r);
  assert_int_equal(r->kind, VAL_TUPLE);
  assert_int_equal(r->u.tuple.n, 2);
  assert_values(r->u.tuple.items[0], 4, plus);
  assert_int_equal(r->u.tuple.items[1]->kind, VAL_TUPLE);
  assert_values(r->u.tuple.items[1]->u.tuple.items[0], 4, x);
  done(&f);
}

static void
test_closure_and_calls(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/control.py");
  double x[] = {1, 2, 3, 4}, want[] = {4, 5, 6, 7}; /* helper three times */
  Value *args[] = {vec_f32(f.ctx, 4, x)};
  assert_values(call(&f, "closure", args, 1), 4, want);
  done(&f);
}

static void
test_match_cast(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/control.py");
  Value *args[] = {vec_f32(f.ctx, 3, NULL)};
  Value *r = call(&f, "cast", args, 1);
  assert_non_null(r);
  assert_int_equal(r->kind, VAL_SHAPE);
  assert_int_equal(r->u.shape.n, 1);
  assert_int_equal(r->u.shape.dims[0], 3); /* n bound by the cast */
  expect_error(&f, "cast4", args, 1, "in binding 'y': R.match_cast",
               "dimension 0 is 3, expected 4");
  done(&f);
}

static void
test_print_and_assert(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/control.py");
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  double x[] = {1, 2, 3, 4};
  Value *args[] = {vec_f32(f.ctx, 4, x), bool_scalar(f.ctx, true)};
  Value *r = interp_call(interp_new(f.ctx, f.m, out), "effects", args, 2);
  fclose(out);
  assert_non_null(r);
  assert_string_equal(text, "x = tensor(float32, shape=(4,), [1, 2, 3, 4])\ndone\n");
  free(text);
  Value *bad[] = {vec_f32(f.ctx, 4, x), bool_scalar(f.ctx, false)};
  out = open_memstream(&text, &len);
  r = interp_call(interp_new(f.ctx, f.m, out), "effects", bad, 2);
  fclose(out);
  free(text);
  assert_null(r);
  char *diag = tu_diag_text(f.ctx);
  assert_non_null(strstr(diag, "R.assert_op: assertion failed: bad x = tensor(float32"));
  free(diag);
  done(&f);
}

static void
test_recursion_limit(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/control.py");
  Value *args[] = {vec_f32(f.ctx, 4, NULL)};
  expect_error(&f, "recurse", args, 1, "nested deeper than the interpreter's limit", NULL);
  done(&f);
}

/* ---- argument checks -------------------------------------------------------- */

static void
test_argument_checks(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/control.py");
  int64_t s32[] = {3, 2}, s92[] = {9, 2}, s3[] = {3};
  Value *ok[] = {tensor(f.ctx, IR_F32, 2, s32, NULL), vec_f32(f.ctx, 3, NULL)};
  assert_non_null(call(&f, "checks", ok, 2));
  Value *dtype[] = {tensor(f.ctx, IR_I32, 2, s32, NULL), vec_f32(f.ctx, 3, NULL)};
  expect_error(&f, "checks", dtype, 2, "argument 'x' of 'checks'",
               "dtype is int32, expected float32");
  Value *rank[] = {tensor(f.ctx, IR_F32, 1, s3, NULL), vec_f32(f.ctx, 3, NULL)};
  expect_error(&f, "checks", rank, 2, "argument 'x' of 'checks'", "rank is 1, expected 2");
  Value *incons[] = {tensor(f.ctx, IR_F32, 2, s32, NULL), vec_f32(f.ctx, 4, NULL)};
  expect_error(&f, "checks", incons, 2, "argument 'y' of 'checks'", "dimension 0 is 4, but n = 3");
  Value *big[] = {tensor(f.ctx, IR_F32, 2, s92, NULL), vec_f32(f.ctx, 9, NULL)};
  expect_error(&f, "checks", big, 2, "n = 9 is above its upper bound 8", NULL);
  expect_error(&f, "checks", ok, 1, "takes 2 arguments, got 1", NULL);
  expect_error(&f, "nosuch", ok, 2, "no function 'nosuch'", NULL);
  done(&f);
}

/* ---- TIR semantics ------------------------------------------------------------ */

static void
test_tir_integers(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/scalar.py");
  int64_t two = 2;
  double a[] = {-7, 2};
  Value *args[] = {tensor(f.ctx, IR_I64, 1, &two, a)};
  /* -7 // 2 = -4, -7 % 2 = 1, truncmod -1, truncdiv -3, int8(-280) = -24,
   * int32 max, if_then_else guard (A[2] never read), int(-7 * 2.5) = -17 */
  double want[] = {-4, 1, -1, -3, -24, 2147483647, 9, -17};
  assert_values(call(&f, "main", args, 1), 8, want);
  double z[] = {5, 0};
  Value *zero[] = {tensor(f.ctx, IR_I64, 1, &two, z)};
  expect_error(&f, "main", zero, 1, "integer division by zero", "in prim_func 'ints'");
  done(&f);
}

static void
test_tir_floats(void **state)
{
  (void)state;
  Fixture f = load("tests/interp/scalar.py");
  double x[] = {2.25};
  Value *args[] = {vec_f32(f.ctx, 1, x)};
  double want[] = {(float)exp(2.25),
                   1.5,
                   (float)tanh(2.25),
                   (float)(1 / (1 + exp(-2.25))),
                   -3,
                   3 /* round(2.75) */,
                   (float)(2.25 * 2.25 * 2.25),
                   1};
  assert_values(call(&f, "fmain", args, 1), 8, want);
  double sum[] = {1, 2, 3, 4.5}, want_sum[] = {10.5};
  Value *sargs[] = {vec_f32(f.ctx, 4, sum)};
  assert_values(call(&f, "lmain", sargs, 1), 1, want_sum);
  expect_error(&f, "umain", args, 1, "unknown intrinsic 'tir.frobnicate'", NULL);
  done(&f);
}

/* ---- the rxc binary: run and equiv ---------------------------------------------- */

static const char *
rxc(void)
{
  const char *p = getenv("RXC");
  return p && *p ? p : "build/rxc";
}

/* Runs `rxc args`; returns the exit status, with stdout and stderr. */
static int
run_rxc(const char *args, char **out, char **err)
{
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "%s %s >build/interp_cli.out 2>build/interp_cli.err </dev/null", rxc(),
           args);
  int status = system(cmd);
  *out = tu_read_file("build/interp_cli.out");
  *err = tu_read_file("build/interp_cli.err");
  assert_non_null(*out);
  assert_non_null(*err);
  assert_true(WIFEXITED(status));
  return WEXITSTATUS(status);
}

static void
expect_rxc(const char *args, int status, const char *in_out, const char *in_err)
{
  char *out, *err;
  int got = run_rxc(args, &out, &err);
  if (got != status || (in_out && !strstr(out, in_out)) || (in_err && !strstr(err, in_err)))
    printf("rxc %s\n  status %d (want %d)\n  stdout: %s\n  stderr: %s\n", args, got, status, out,
           err);
  assert_int_equal(got, status);
  if (in_out)
    assert_non_null(strstr(out, in_out));
  if (in_err)
    assert_non_null(strstr(err, in_err));
  free(out);
  free(err);
}

static void
write_npy(const char *path, IrDType t, int ndim, const int64_t *shape, const double *values)
{
  IrCtx *ctx = ir_ctx_new();
  Value *v = tensor(ctx, t, ndim, shape, values);
  IrBuf b = {0};
  assert_true(fe_npy_encode(&v->u.tensor.t, &b));
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(b.data, 1, b.len, f), b.len);
  fclose(f);
  ir_buf_free(&b);
  ir_ctx_free(ctx);
}

static void
test_cli_run(void **state)
{
  (void)state;
  int64_t shape[] = {2, 3};
  double x[] = {0, 1, 2, -3, 4.5, -0.25}, want[] = {1, 2, 3, -2, 5.5, 0.75};
  write_npy("build/interp_x.npy", IR_F32, 2, shape, x);
  remove("build/interp_out.npy");
  expect_rxc("run tests/interp/kernels.py --fn elementwise --input x=build/interp_x.npy "
             "--output build/interp_out.npy",
             0, NULL, NULL);
  IrCtx *ctx = ir_ctx_new();
  IrTensorData t;
  assert_true(fe_npy_read(ctx, "build/interp_out.npy", &t));
  assert_int_equal(t.ndim, 2);
  for (int i = 0; i < 6; i++)
    assert_true(op_get_f(&t, i) == want[i]);
  ir_ctx_free(ctx);
  /* printed when there is no --output */
  expect_rxc("run tests/interp/kernels.py --fn elementwise --input x=build/interp_x.npy", 0,
             "float32 (2, 3)\n[[1, 2, 3],\n [-2, 5.5, 0.75]]", NULL);
  /* a tuple result goes to .npz entries 0 and 1_0 */
  double v4[] = {1, 2, 3, 4};
  int64_t four = 4;
  write_npy("build/interp_v.npy", IR_F32, 1, &four, v4);
  remove("build/interp_t.npz");
  expect_rxc("run tests/interp/control.py --fn tuples --input x=build/interp_v.npy "
             "--output build/interp_t.npz",
             0, NULL, NULL);
  ctx = ir_ctx_new();
  FeNpzEntry *e;
  assert_int_equal(fe_npz_read(ctx, "build/interp_t.npz", &e), 2);
  assert_string_equal(e[0].name, "0");
  assert_string_equal(e[1].name, "1_0");
  assert_true(op_get_f(&e[0].t, 3) == 5 && op_get_f(&e[1].t, 3) == 4);
  ir_ctx_free(ctx);
}

static void
test_cli_run_errors(void **state)
{
  (void)state;
  expect_rxc("run --help", 0, "usage: rxc run", NULL);
  expect_rxc("run", 2, NULL, "run needs a FILE");
  expect_rxc("run tests/interp/kernels.py --via gcc", 2, NULL, "unknown --via");
  expect_rxc("run tests/interp/kernels.py --bogus", 2, NULL, "unknown option '--bogus'");
  expect_rxc("run tests/interp/kernels.py --fn mm --input x=build/interp_x.npy", 1, NULL,
             "missing input for parameter 'w'");
  expect_rxc("run tests/interp/kernels.py --fn mm --input q=build/interp_x.npy", 1, NULL,
             "no parameter 'q'");
  expect_rxc("run tests/interp/kernels.py --fn elementwise --input x=build/nonexistent.npy", 1,
             NULL, "build/nonexistent.npy: error: cannot open file: No such file or directory");
  /* an error leaves no output file; a tuple needs .npz */
  remove("build/interp_bad.npy");
  expect_rxc("run tests/interp/kernels.py --fn oob --input x=build/interp_v.npy "
             "--output build/interp_bad.npy",
             1, NULL, "out of bounds");
  expect_rxc("run tests/interp/control.py --fn tuples --input x=build/interp_v.npy "
             "--output build/interp_bad.npy",
             1, NULL, "must name a .npz file");
  FILE *f = fopen("build/interp_bad.npy", "rb");
  assert_null(f);
}

static void
test_cli_equiv(void **state)
{
  (void)state;
  expect_rxc("equiv --help", 0, "usage: rxc equiv", NULL);
  expect_rxc("equiv tests/interp/equiv_a.py", 2, NULL, "two files");
  expect_rxc("equiv tests/interp/equiv_a.py tests/interp/equiv_b.py --trials x", 2, NULL,
             "needs a number");
  expect_rxc("equiv tests/interp/equiv_a.py tests/interp/equiv_b.py", 0, "equivalent (3 trials",
             NULL);
  expect_rxc("equiv tests/interp/equiv_a.py tests/interp/equiv_b.py --dim n=5 --trials 2", 0,
             "max abs diff 0\n", NULL);
  expect_rxc("equiv tests/interp/equiv_a.py tests/interp/equiv_c.py", 1, "DIFFERENT", NULL);
  /* 2.001 vs 2 on inputs in [-1, 1]: the difference is at most 0.001 */
  expect_rxc("equiv tests/interp/equiv_a.py tests/interp/equiv_c.py --atol 0.0011 --rtol 0", 0,
             "equivalent", NULL);
  expect_rxc("equiv tests/interp/equiv_a.py tests/interp/equiv_c.py --dim n=7", 1, NULL,
             "n = 7 is above its upper bound 6");
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_elementwise),
      cmocka_unit_test(test_matmul_with_init),
      cmocka_unit_test(test_symbolic_match_buffer),
      cmocka_unit_test(test_out_of_bounds_tir),
      cmocka_unit_test(test_storage_fits),
      cmocka_unit_test(test_storage_too_small),
      cmocka_unit_test(test_builtin_alloc_tensor),
      cmocka_unit_test(test_if_else),
      cmocka_unit_test(test_tuples),
      cmocka_unit_test(test_closure_and_calls),
      cmocka_unit_test(test_match_cast),
      cmocka_unit_test(test_print_and_assert),
      cmocka_unit_test(test_recursion_limit),
      
      cmocka_unit_test(test_argument_checks),
      cmocka_unit_test(test_tir_integers),
      cmocka_unit_test(test_tir_floats),
      cmocka_unit_test(test_kernel_call),
      cmocka_unit_test(test_cli_run),
      cmocka_unit_test(test_cli_run_errors),
      cmocka_unit_test(test_cli_equiv),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
