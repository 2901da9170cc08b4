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
#include "onnx.pb-c.h"
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

/* --- a large initializer, kept where protobuf-c decoded it ------------- */

enum { BIG_N = 128 }; /* W is BIG_N x BIG_N floats: 64 KiB, B BIG_N */

/* The messages of a float graph input or output of shape [d0, d1]. */
typedef struct {
  Onnx__TensorShapeProto__Dimension dims[2], *dimp[2];
  Onnx__TensorShapeProto shape;
  Onnx__TypeProto__Tensor tensor;
  Onnx__TypeProto type;
  Onnx__ValueInfoProto vi;
} ValueInfo;

static Onnx__ValueInfoProto *
value_info(ValueInfo *v, const char *name, int64_t d0, int64_t d1)
{
  for (int a = 0; a < 2; a++) {
    v->dims[a] = (Onnx__TensorShapeProto__Dimension)ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
    v->dims[a].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
    v->dims[a].dim_value = a ? d1 : d0;
    v->dimp[a] = &v->dims[a];
  }
  v->shape = (Onnx__TensorShapeProto)ONNX__TENSOR_SHAPE_PROTO__INIT;
  v->shape.n_dim = 2;
  v->shape.dim = v->dimp;
  v->tensor = (Onnx__TypeProto__Tensor)ONNX__TYPE_PROTO__TENSOR__INIT;
  v->tensor.has_elem_type = true;
  v->tensor.elem_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
  v->tensor.shape = &v->shape;
  v->type = (Onnx__TypeProto)ONNX__TYPE_PROTO__INIT;
  v->type.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  v->type.tensor_type = &v->tensor;
  v->vi = (Onnx__ValueInfoProto)ONNX__VALUE_INFO_PROTO__INIT;
  v->vi.name = (char *)name;
  v->vi.type = &v->type;
  return &v->vi;
}

static void
initializer(Onnx__TensorProto *t, const char *name, int64_t *dims, size_t ndims, float *data,
            size_t n)
{
  *t = (Onnx__TensorProto)ONNX__TENSOR_PROTO__INIT;
  t->name = (char *)name;
  t->n_dims = ndims;
  t->dims = dims;
  t->has_data_type = true;
  t->data_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
  t->has_raw_data = true;
  t->raw_data.len = n * sizeof *data;
  t->raw_data.data = (uint8_t *)data;
}

/* Y = X @ W + B written to a temporary file (path: its name); W holds
 * W[i][j] = i * BIG_N + j, B[j] = -j. */
static void
write_big_model(char *path, float *w, float *b)
{
  for (int i = 0; i < BIG_N * BIG_N; i++)
    w[i] = (float)i;
  for (int j = 0; j < BIG_N; j++)
    b[j] = (float)-j;
  int64_t wdims[2] = {BIG_N, BIG_N}, bdims[1] = {BIG_N};
  Onnx__TensorProto tw, tb;
  initializer(&tw, "W", wdims, 2, w, BIG_N * BIG_N);
  initializer(&tb, "B", bdims, 1, b, BIG_N);
  Onnx__TensorProto *inits[2] = {&tw, &tb};
  char *mm_in[2] = {"X", "W"}, *mm_out[1] = {"T"}, *add_in[2] = {"T", "B"}, *add_out[1] = {"Y"};
  Onnx__NodeProto mm = ONNX__NODE_PROTO__INIT, add = ONNX__NODE_PROTO__INIT;
  mm.n_input = 2, mm.input = mm_in, mm.n_output = 1, mm.output = mm_out, mm.op_type = "MatMul";
  add.n_input = 2, add.input = add_in, add.n_output = 1, add.output = add_out, add.op_type = "Add";
  Onnx__NodeProto *nodes[2] = {&mm, &add};
  ValueInfo vx, vy;
  Onnx__ValueInfoProto *in[1] = {value_info(&vx, "X", 1, BIG_N)};
  Onnx__ValueInfoProto *out[1] = {value_info(&vy, "Y", 1, BIG_N)};
  Onnx__GraphProto g = ONNX__GRAPH_PROTO__INIT;
  g.name = "big", g.n_node = 2, g.node = nodes, g.n_initializer = 2, g.initializer = inits;
  g.n_input = 1, g.input = in, g.n_output = 1, g.output = out;
  Onnx__OperatorSetIdProto opset = ONNX__OPERATOR_SET_ID_PROTO__INIT;
  opset.domain = "", opset.has_version = true, opset.version = 17;
  Onnx__OperatorSetIdProto *opsets[1] = {&opset};
  Onnx__ModelProto m = ONNX__MODEL_PROTO__INIT;
  m.has_ir_version = true, m.ir_version = 8, m.n_opset_import = 1, m.opset_import = opsets;
  m.graph = &g;
  size_t len = onnx__model_proto__get_packed_size(&m);
  uint8_t *bytes = malloc(len);
  assert_int_equal(onnx__model_proto__pack(&m, bytes), len);
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, bytes, len), (ssize_t)len);
  close(fd);
  free(bytes);
}

/* W's 64 KiB of raw_data go to the arena as protobuf-c decodes them and
 * the constant keeps them there; B's are copied.  Both must hold the
 * file's values after the message is freed (the sanitizers' build reads
 * them), as constants and as --params weights: Y = X @ W + B for X one
 * at column 3 is row 3 of W plus B. */
static void
test_big_initializer(void **state)
{
  (void)state;
  char path[] = "/tmp/rxc-onnx-big-XXXXXX";
  static float w[BIG_N * BIG_N], b[BIG_N];
  write_big_model(path, w, b);
  float x[BIG_N] = {0};
  x[3] = 1;
  for (int params = 0; params < 2; params++) {
    IrCtx *ctx = ir_ctx_new();
    FeOnnxOptions opt = {.params = params, .dim_bound = 8};
    FeNpzEntry *wt = NULL;
    int nw = 0;
    IrModule *m = fe_onnx_read(ctx, path, &opt, &wt, &nw);
    ir_diag_print(ctx, stderr);
    assert_non_null(m);
    assert_int_equal(ir_module_check(ctx, m), 0);
    Value *args[3] = {tensor(ctx, x, 1, BIG_N)};
    if (params) {
      assert_int_equal(nw, 2);
      assert_int_equal(wt[0].t.nbytes, sizeof w);
      assert_memory_equal(wt[0].t.data, w, sizeof w);
      assert_memory_equal(wt[1].t.data, b, sizeof b);
      assert_true((uintptr_t)wt[0].t.data % 16 == 0);
      args[1] = op_tensor_from_data(ctx, &wt[0].t);
      args[2] = op_tensor_from_data(ctx, &wt[1].t);
    }
    Value *r = interp_call(interp_new(ctx, m, NULL), "main", args, 1 + 2 * params);
    assert_non_null(r);
    assert_int_equal(op_numel(&r->u.tensor.t), BIG_N);
    for (int j = 0; j < BIG_N; j++)
      assert_float_equal(op_get_f(&r->u.tensor.t, j), 3 * BIG_N, 0); /* (3 * BIG_N + j) + -j */
    ir_ctx_free(ctx);
  }
  remove(path);
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
      cmocka_unit_test(test_big_initializer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
