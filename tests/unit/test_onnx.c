/*
 * test_onnx.c - the ONNX importer (frontend/onnx): every unsupported node
 * named in one run, malformed protobuf rejected without a crash (every
 * truncation and a flipped byte at every offset of a small model), and a
 * small model's values through the interpreter against hand-computed
 * ones, with initializers as constants and as --params parameters.
 * The models are made by tests/onnx/make_cases.py.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../interp/interp.h"
#include "../../ops/op.h"
#include "testutil.h"

#define PARAMS_ONNX "tests/onnx/params.onnx"

static void
test_unsupported_all_at_once(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  assert_null(fe_onnx_read(ctx, "tests/onnx/unsupported.onnx", NULL, NULL, NULL));
  char *text = tu_diag_text(ctx);
  assert_int_equal(ir_error_count(ctx), 3);
  assert_non_null(strstr(text, "tests/onnx/unsupported.onnx: error: node 'bad_op' (TfIdfVectorizer): "
                               "operator not supported"));
  assert_non_null(strstr(text, "node 'bad_mode' (Resize): mode 'cubic' is not supported"));
  assert_non_null(strstr(text, "node 'bad_rank' (Conv): only 1-D, 2-D and 3-D inputs"));
  assert_null(strstr(text, "'ok_relu'"));
  assert_null(strstr(text, "'after'")); /* its inputs failed: not reported again */
  free(text);
  ir_ctx_free(ctx);
}

/* Reads bytes written to a temporary file; a NULL result must come with
 * an error. */
static void
read_bytes(const unsigned char *data, size_t len)
{
  char path[] = "/tmp/rxc-onnx-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, data, len), (ssize_t)len);
  close(fd);
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_onnx_read(ctx, path, NULL, NULL, NULL);
  assert_true(m != NULL || ir_error_count(ctx) > 0);
  ir_ctx_free(ctx);
  remove(path);
}

static void
test_malformed(void **state)
{
  (void)state;
  size_t len;
  unsigned char *bytes = tu_read_bytes(PARAMS_ONNX, &len);
  assert_non_null(bytes);
  for (size_t n = 0; n < len; n++) /* every truncation */
    read_bytes(bytes, n);
  for (size_t i = 0; i < len; i++) { /* a flipped byte at every offset */
    bytes[i] ^= 0xa5;
    read_bytes(bytes, len);
    bytes[i] ^= 0xa5;
  }
  free(bytes);
  IrCtx *ctx = ir_ctx_new();
  assert_null(fe_onnx_read(ctx, "tests/onnx/make_cases.py", NULL, NULL, NULL));
  char *text = tu_diag_text(ctx);
  assert_non_null(strstr(text, "make_cases.py: error: not a valid ONNX model"));
  free(text);
  ir_ctx_free(ctx);
}

/* relu(x w^T + b) for w = [[-2.5, -1.5, -0.5], [0.5, 1.5, 2.5]], b = [0.5, -1],
 * by hand. */
static const float X[2][3] = {{1, 2, 3}, {-1, 0, 4}};
static const float WANT[2][2] = {{0, 10}, {1, 8.5f}};

static Value *
tensor(IrCtx *ctx, const float *data, int rows, int cols)
{
  int64_t shape[2] = {rows, cols};
  IrLoc none = {0};
  Value *v = op_tensor_new(ctx, IR_F32, 2, shape, none);
  memcpy(v->u.tensor.t.data, data, sizeof(float) * (size_t)(rows * cols));
  return v;
}

static void
check_result(const Value *r)
{
  assert_non_null(r);
  assert_int_equal(r->kind, VAL_TENSOR);
  assert_int_equal(r->u.tensor.t.shape[0], 2);
  assert_int_equal(r->u.tensor.t.shape[1], 2);
  for (int i = 0; i < 4; i++)
    assert_float_equal(op_get_f(&r->u.tensor.t, i), WANT[i / 2][i % 2], 1e-6);
}

static void
test_constants(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_onnx_read(ctx, PARAMS_ONNX, NULL, NULL, NULL);
  assert_non_null(m);
  assert_int_equal(m->globals[0].u.relax->nparams, 1);
  assert_int_equal(ir_module_check(ctx, m), 0);
  Value *args[1] = {tensor(ctx, &X[0][0], 2, 3)};
  check_result(interp_call(interp_new(ctx, m, NULL), "main", args, 1));
  ir_ctx_free(ctx);
}

static void
test_params(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  FeOnnxOptions opt = {.params = true, .dim_bound = 8};
  FeNpzEntry *w = NULL;
  int nw = 0;
  IrModule *m = fe_onnx_read(ctx, PARAMS_ONNX, &opt, &w, &nw);
  assert_non_null(m);
  const IrFunction *f = m->globals[0].u.relax;
  assert_int_equal(f->nparams, 3);
  assert_int_equal(nw, 2);
  assert_string_equal(w[0].name, "w");
  assert_string_equal(w[1].name, "b");
  assert_int_equal(ir_attr_get(f->attrs, "num_input")->u.i, 1);
  assert_int_equal(ir_attr_get(ir_attr_get(f->attrs, "tir_var_upper_bound"), "n")->u.i, 8);
  Value *args[3] = {tensor(ctx, &X[0][0], 2, 3), op_tensor_from_data(ctx, &w[0].t),
                    op_tensor_from_data(ctx, &w[1].t)};
  check_result(interp_call(interp_new(ctx, m, NULL), "main", args, 3));
  ir_ctx_free(ctx);
}

/* An initializer of no elements (raw_data of no bytes): ReduceSum over
 * every axis, keeping dims: [[1, 2], [3, 4]] sums to [[10]]. */
static void
test_empty_initializer(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_onnx_read(ctx, "tests/onnx/empty_axes.onnx", NULL, NULL, NULL);
  assert_non_null(m);
  const float x[4] = {1, 2, 3, 4};
  Value *args[1] = {tensor(ctx, x, 2, 2)};
  Value *r = interp_call(interp_new(ctx, m, NULL), "main", args, 1);
  assert_non_null(r);
  assert_int_equal(r->u.tensor.t.ndim, 2);
  assert_int_equal(op_numel(&r->u.tensor.t), 1);
  assert_float_equal(op_get_f(&r->u.tensor.t, 0), 10, 0);
  ir_ctx_free(ctx);
}

/* Shape and Size of an input with a symbolic batch: R.shape_to_tensor of
 * the dims (all, and from start 1, which is static) and R.size; for 2 rows
 * of 3: [2, 3], [3], 6. */
static void
test_dynamic_shape(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_onnx_read(ctx, "tests/onnx/dyn_shape.onnx", NULL, NULL, NULL);
  assert_non_null(m);
  assert_int_equal(ir_module_check(ctx, m), 0);
  Value *args[1] = {tensor(ctx, &X[0][0], 2, 3)};
  Value *r = interp_call(interp_new(ctx, m, NULL), "main", args, 1);
  assert_non_null(r);
  assert_int_equal(r->kind, VAL_TUPLE);
  assert_int_equal(r->u.tuple.n, 3);
  const IrTensorData *s = &r->u.tuple.items[0]->u.tensor.t, *t = &r->u.tuple.items[1]->u.tensor.t;
  assert_int_equal(op_numel(s), 2);
  assert_int_equal(op_get_i(s, 0), 2);
  assert_int_equal(op_get_i(s, 1), 3);
  assert_int_equal(op_numel(t), 1);
  assert_int_equal(op_get_i(t, 0), 3);
  assert_int_equal(op_get_i(&r->u.tuple.items[2]->u.tensor.t, 0), 6);
  ir_ctx_free(ctx);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_unsupported_all_at_once),
      cmocka_unit_test(test_malformed),
      cmocka_unit_test(test_constants),
      cmocka_unit_test(test_params),
      cmocka_unit_test(test_empty_initializer),
      cmocka_unit_test(test_dynamic_shape),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
