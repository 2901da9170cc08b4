/*
 * test_jit.c - the libtcc JIT (codegen/jit.c) on hand-written outputs that
 * follow cg.h's packed convention: compile in memory, call, release; tcc's
 * errors as diagnostics (compile errors with their file and line, a wrong
 * library directory noticed at relocation, an undefined symbol); two
 * threads compiling at once; many compile/call/free rounds (leaks show
 * under `make SAN=1 check`).  Then the command line, through $RXC:
 * rxc compile, and rxc run --via tcc against --via interp on samples/mlp.py
 * (skipped, saying so, while the C generator is a stub).  Last, the
 * library API (api/rxc.h) on an MLP whose batch dim has no bound: the
 * arena sized for the call's dims, configuration overrides (a bound, an
 * unknown dim, require_static), and rxc_model_strerror's texts.
 */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <sys/wait.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../api/rxc.h"
#include "../../codegen/cg_int.h"
#include "../../ops/op.h"
#include "testutil.h"

/* the kernel as the interpreter compiles it (interp/tir.c) */
#include "../../rt/rt_types.h"
#include "../../rt/rt_math_base.h"
#include "../../rt/rt_kern_gemm.h"

/* m.h: a define the .c uses, so splicing the header is observable. */
static const char header_text[] = "#ifndef M_H\n"
                                  "#define M_H\n"
                                  "#include <stddef.h>\n"
                                  "#define M_BIAS 0.5f\n"
                                  "extern const float m_weights[4];\n"
                                  "int m_main_packed(void *arena, size_t n, void *const *t,\n"
                                  "                  const long long *d);\n"
                                  "#endif\n";

/* out[i] = a[i] + b[i] + M_BIAS (+ m_weights[i % 4] when the weights are
 * in their own file); -1 when the arena is smaller than 16 bytes. */
static const char add_text[] = "#include \"m.h\"\n"
                               "#include \"m.h\"\n"
                               "int m_main_packed(void *arena, size_t n, void *const *t,\n"
                               "                  const long long *d)\n"
                               "{\n"
                               "  const float *a = t[0], *b = t[1];\n"
                               "  float *out = t[2];\n"
                               "  if (!arena || n < 16)\n"
                               "    return -1;\n"
                               "  for (long long i = 0; i < d[0]; i++)\n"
                               "    out[i] = a[i] + b[i] + M_BIAS + WEIGHT(i);\n"
                               "  return 0;\n"
                               "}\n";

static const char weights_text[] = "#include \"m.h\"\n"
                                   "const float m_weights[4] = {0x1p0f, 0x1p1f, 0x1p2f, 0x1p3f};\n";

/* A CgOutput of m.h and m.c (c_text after a WEIGHT definition), plus
 * m_weights.c when weights is set. */
static CgOutput *
module_new(const char *c_text, bool weights)
{
  CgOutput *out = calloc(1, sizeof *out);
  out->files[0].name = "m.h";
  ir_buf_puts(&out->files[0].text, header_text);
  out->files[1].name = "m.c";
  ir_buf_puts(&out->files[1].text, weights ? "#define WEIGHT(i) m_weights[(i) % 4]\n"
                                           : "#define WEIGHT(i) 0.0f\n");
  ir_buf_puts(&out->files[1].text, c_text);
  out->nfiles = 2;
  if (weights) {
    out->files[2].name = "m_weights.c";
    ir_buf_puts(&out->files[2].text, weights_text);
    out->nfiles = 3;
  }
  out->arena_align = 16;
  return out;
}

static void
module_free(CgOutput *out)
{
  cg_output_free(out); /* the buffers and out itself */
}

/* Calls m_main_packed of c on {1,2,3,...} + {10,20,30,...} and checks
 * out against want (n elements). */
static void
check_add(CgCompiled *c, int n, const float *want)
{
  CgPackedFn fn = cg_compiled_entry(c, "m_main_packed");
  assert_non_null(fn);
  float a[8], b[8], out[8] = {0};
  unsigned char arena[16] = {0};
  for (int i = 0; i < n; i++) {
    a[i] = (float)(i + 1);
    b[i] = (float)(10 * (i + 1));
  }
  int64_t dims[1] = {n};
  void *tensors[3] = {a, b, out};
  assert_int_equal(fn(arena, sizeof arena, tensors, dims), 0);
  for (int i = 0; i < n; i++)
    assert_true(out[i] == want[i]);
  assert_int_equal(fn(arena, sizeof arena - 1, tensors, dims), -1);
}

static void
test_compile_and_call(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CgOutput *out = module_new(add_text, false);
  CgCompiled *c = cg_jit_tcc(ctx, out);
  ir_diag_print(ctx, stderr);
  assert_non_null(c);
  assert_int_equal(ir_diag_count(ctx), 0);
  const float want[3] = {11.5f, 22.5f, 33.5f};
  check_add(c, 3, want);
  assert_null(cg_compiled_entry(c, "m_other_packed"));
  cg_compiled_free(c);
  module_free(out);
  ir_ctx_free(ctx);
}

/* The weights in their own translation unit, linked with the code. */
static void
test_separate_weights(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CgOutput *out = module_new(add_text, true);
  CgCompiled *c = cg_jit_tcc(ctx, out);
  ir_diag_print(ctx, stderr);
  assert_non_null(c);
  const float want[5] = {12.5f, 24.5f, 37.5f, 52.5f, 56.5f};
  check_add(c, 5, want);
  cg_compiled_free(c);
  module_free(out);
  ir_ctx_free(ctx);
}

/* weights = blob's convention: m_set_weights keeps the pointer (0 when the
 * blob is 8 bytes holding 4 and 8 as floats, else -8), the entry adds the
 * two floats and tells where it read them.  The JIT must have handed
 * over a 64-byte aligned address before returning: the blob's own when it
 * is aligned (as cg_generate makes it), else a copy. */
static const char blob_text[] =
    "#include \"m.h\"\n"
    "static const float *w;\n"
    "static unsigned long long at;\n"
    "int m_set_weights(const void *p, size_t n)\n"
    "{\n"
    "  w = 0;\n"
    "  at = (unsigned long long)p;\n"
    "  if (!p || n != 8 || ((const float *)p)[0] != 4.0f)\n"
    "    return -8;\n"
    "  w = p;\n"
    "  return 0;\n"
    "}\n"
    "int m_main_packed(void *arena, size_t n, void *const *t, const long long *d)\n"
    "{\n"
    "  float *out = t[0];\n"
    "  (void)arena, (void)n, (void)d;\n"
    "  if (!w)\n"
    "    return -8;\n"
    "  out[0] = w[0] + w[1];\n"
    "  *(unsigned long long *)t[1] = at;\n"
    "  return 0;\n"
    "}\n";

/* The module with the blob {first, 8} at a 64-byte aligned address plus
 * skew (*block: the allocation, for blob_module_free). */
static CgOutput *
blob_module(float first, size_t skew, char **block)
{
  CgOutput *out = module_new(blob_text, false);
  float w[2] = {first, 8.0f};
  *block = ir_xaligned_alloc(64, 128);
  memcpy(*block + skew, w, sizeof w);
  (*block)[skew + sizeof w] = '\0';
  out->files[2].name = "m.weights.bin";
  out->files[2].text = (IrBuf){*block + skew, sizeof w, 128 - skew};
  out->nfiles = 3;
  out->blob = 2;
  out->set_weights = "m_set_weights";
  return out;
}

static void
blob_module_free(CgOutput *out, char *block)
{
  out->files[2].text.data = block; /* what free() takes */
  module_free(out);
}

static void
test_blob_weights(void **state)
{
  (void)state;
  for (int cc = 0; cc < 2; cc++)
    for (size_t skew = 0; skew <= 16; skew += 16) {
      IrCtx *ctx = ir_ctx_new();
      char *block;
      CgOutput *out = blob_module(4.0f, skew, &block);
      CgCompiled *c = cc ? cg_jit_cc(ctx, out, "cc", "-O0") : cg_jit_tcc(ctx, out);
      ir_diag_print(ctx, stderr);
      assert_non_null(c);
      float res[2] = {0};
      unsigned long long at = 0;
      void *tensors[2] = {res, &at};
      assert_int_equal(cg_compiled_entry(c, "m_main_packed")(NULL, 0, tensors, NULL), 0);
      assert_true(res[0] == 12.0f);
      assert_int_equal(at % 64, 0);
      /* aligned: read where it is, not copied; else an aligned copy */
      if (skew == 0)
        assert_true(at == (uintptr_t)block);
      else
        assert_true(at != (uintptr_t)(block + skew));
      cg_compiled_free(c);
      blob_module_free(out, block); /* after the code that read it */
      /* a blob the code refuses: no compiled module, and an error */
      out = blob_module(5.0f, skew, &block);
      assert_null(cc ? cg_jit_cc(ctx, out, "cc", "-O0") : cg_jit_tcc(ctx, out));
      assert_non_null(strstr(ir_diag_get(ctx, 0)->msg, "m_set_weights refused"));
      blob_module_free(out, block);
      ir_ctx_free(ctx);
    }
}

/* A syntax error: NULL, and tcc's message located in m.c (line 4 of the
 * text after the WEIGHT line, so line 5). */
static void
test_compile_error(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CgOutput *out = module_new("#include \"m.h\"\n"
                             "int m_main_packed(void *arena, size_t n, void *const *t,\n"
                             "                  const long long *d)\n"
                             "{ return 0 + ; }\n",
                             false);
  assert_null(cg_jit_tcc(ctx, out));
  assert_true(ir_error_count(ctx) >= 1);
  const IrDiag *d = ir_diag_get(ctx, 0);
  assert_int_equal(d->level, IR_DIAG_ERROR);
  assert_non_null(strstr(d->msg, "tcc: "));
  assert_non_null(d->loc.src);
  assert_string_equal(d->loc.src->name, "m.c");
  assert_int_equal(d->loc.line, 5);
  module_free(out);
  ir_ctx_free(ctx);
}

/* An error inside the header is located in m.h, not in the spliced text. */
static void
test_error_in_header(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CgOutput *out = module_new(add_text, false);
  out->files[0].text.len = 0;
  ir_buf_puts(&out->files[0].text, "#include <stddef.h>\n\ntypedef int int;\n");
  assert_null(cg_jit_tcc(ctx, out));
  assert_true(ir_error_count(ctx) >= 1);
  const IrDiag *d = ir_diag_get(ctx, 0);
  assert_non_null(d->loc.src);
  assert_string_equal(d->loc.src->name, "m.h");
  assert_int_equal(d->loc.line, 3);
  module_free(out);
  ir_ctx_free(ctx);
}

/* A module that includes no system header, so a wrong library directory
 * is noticed only when tcc_relocate looks for libtcc1.a. */
static void
test_wrong_lib_path(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CgOutput *out = calloc(1, sizeof *out);
  out->files[0].name = "m.c";
  ir_buf_puts(&out->files[0].text, "int m_main_packed(void *a, unsigned long n, void *const *t,\n"
                                   "                  const long long *d) { return 7; }\n");
  out->nfiles = 1;
  assert_null(cg_jit_tcc_at(ctx, out, "/nonexistent/tcc"));
  assert_true(ir_error_count(ctx) >= 1);
  assert_non_null(strstr(ir_diag_get(ctx, 0)->msg, "libtcc1.a"));
  /* the same module with the default directory compiles */
  ir_diag_clear(ctx);
  CgCompiled *c = cg_jit_tcc(ctx, out);
  assert_non_null(c);
  CgPackedFn fn = cg_compiled_entry(c, "m_main_packed");
  assert_non_null(fn);
  assert_int_equal(fn(NULL, 0, NULL, NULL), 7);
  cg_compiled_free(c);
  module_free(out);
  ir_ctx_free(ctx);
}

/* A call to a function defined nowhere compiles and fails to link. */
static void
test_undefined_symbol(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CgOutput *out = module_new("#include \"m.h\"\n"
                             "int rxc_no_such_function(int);\n"
                             "int m_main_packed(void *arena, size_t n, void *const *t,\n"
                             "                  const long long *d)\n"
                             "{ return rxc_no_such_function(1); }\n",
                             false);
  assert_null(cg_jit_tcc(ctx, out));
  assert_true(ir_error_count(ctx) >= 1);
  assert_non_null(strstr(ir_diag_get(ctx, 0)->msg, "rxc_no_such_function"));
  module_free(out);
  ir_ctx_free(ctx);
}

/* A module calling rt/'s gemm kernel, as generated code does: the
 * runtime's text and the kernel's, an entry calling it, and a function
 * returning the address its calls go to. */
static const char kernel_entry_text[] =
    "int m_main_packed(void *arena, size_t n, void *const *t, const long long *d)\n"
    "{\n"
    "  (void)arena;\n"
    "  (void)n;\n"
    "  rxc_k_gemm_f32(t[2], t[0], d[1], 1, t[1], d[2], d[1], d[0], d[2]);\n"
    "  return 0;\n"
    "}\n"
    "void *m_kernel_address(void) { return (void *)&rxc_k_gemm_f32; }\n";

/* The JIT compiles no kernel body: the module's calls go to the copy
 * kern.c chooses for this CPU (precompiled at -O3), not to a definition
 * compiled by tcc from the text, and give the bits of the kernel compiled
 * here at the interpreter's flags (interp/tir.c's copy): 19 rows, 87
 * columns (64 + 16 + 4 + 3), k of 37. */
static void
test_kernel_bound(void **state)
{
  (void)state;
  enum { ROWS = 19, K = 37, COLS = 87 };
  IrCtx *ctx = ir_ctx_new();
  CgOutput *out = calloc(1, sizeof *out);
  out->files[0].name = "m.c";
  ir_buf_puts(&out->files[0].text, cg_runtime_text(false));
  ir_buf_puts(&out->files[0].text, "#include <stddef.h>\n");
  ir_buf_puts(&out->files[0].text, cg_runtime_kernel_text(cg_runtime_kernel("rxc_k_gemm_f32")));
  ir_buf_puts(&out->files[0].text, kernel_entry_text);
  out->nfiles = 1;
  out->arena_align = 16;
  CgCompiled *c = cg_jit_tcc(ctx, out);
  ir_diag_print(ctx, stderr);
  assert_non_null(c);
  void *(*address)(void) = (void *(*)(void))cg_tcc_symbol(c->tcc, "m_kernel_address");
  assert_non_null(address);
  CgKernFn chosen = cg_kern_chosen("rxc_k_gemm_f32");
  assert_non_null(chosen);
  assert_ptr_equal(address(), (void *)chosen);

  static float a[ROWS * K], b[K * COLS], want[ROWS * COLS], got[ROWS * COLS];
  uint32_t st = 12345;
  for (int i = 0; i < ROWS * K + K * COLS + ROWS * COLS; i++) {
    st = st * 1664525u + 1013904223u;
    float v = (float)((int32_t)(st >> 8) - (1 << 23)) / (float)(1 << 21);
    float *p = i < ROWS * K              ? &a[i]
               : i < ROWS * K + K * COLS ? &b[i - ROWS * K]
                                         : &want[i - ROWS * K - K * COLS];
    *p = v;
  }
  memcpy(got, want, sizeof got);
  rxc_k_gemm_f32(want, a, K, 1, b, COLS, K, ROWS, COLS);
  void *tensors[3] = {a, b, got};
  int64_t dims[3] = {ROWS, K, COLS};
  unsigned char arena[16];
  assert_int_equal(cg_compiled_entry(c, "m_main_packed")(arena, sizeof arena, tensors, dims), 0);
  assert_memory_equal(got, want, sizeof got);
  cg_compiled_free(c);
  module_free(out);
  ir_ctx_free(ctx);
}

/* An output with no .c file is an error, not an empty module. */
static void
test_no_c_file(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CgOutput *out = module_new(add_text, false);
  out->nfiles = 1;
  assert_null(cg_jit_tcc(ctx, out));
  assert_int_equal(ir_error_count(ctx), 1);
  out->nfiles = 2;
  module_free(out);
  ir_ctx_free(ctx);
}

/* One thread's work: compile its module (weights or not) 20 times, call
 * it and check the sums; returns the number of failures. */
static void *
compile_many(void *arg)
{
  bool weights = arg != NULL;
  long failures = 0;
  const float want[2][4] = {{11.5f, 22.5f, 33.5f, 44.5f}, {12.5f, 24.5f, 37.5f, 52.5f}};
  for (int round = 0; round < 20; round++) {
    IrCtx *ctx = ir_ctx_new();
    CgOutput *out = module_new(add_text, weights);
    CgCompiled *c = cg_jit_tcc(ctx, out);
    CgPackedFn fn = c ? cg_compiled_entry(c, "m_main_packed") : NULL;
    float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, sum[4] = {0};
    void *tensors[3] = {a, b, sum};
    int64_t dims[1] = {4};
    _Alignas(16) unsigned char arena[16];
    if (!fn || fn(arena, sizeof arena, tensors, dims) != 0 ||
        memcmp(sum, want[weights], sizeof sum) != 0)
      failures++;
    cg_compiled_free(c);
    module_free(out);
    ir_ctx_free(ctx);
  }
  return (void *)failures;
}

static void
test_two_threads(void **state)
{
  (void)state;
  pthread_t t1, t2;
  void *r1, *r2;
  static int marker;
  assert_int_equal(pthread_create(&t1, NULL, compile_many, NULL), 0);
  assert_int_equal(pthread_create(&t2, NULL, compile_many, &marker), 0);
  assert_int_equal(pthread_join(t1, &r1), 0);
  assert_int_equal(pthread_join(t2, &r2), 0);
  assert_int_equal((long)r1, 0);
  assert_int_equal((long)r2, 0);
}

/* Compile, call, free, 100 times in one context: nothing may leak (ASan)
 * and every round works. */
static void
test_repeat(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CgOutput *out = module_new(add_text, true);
  const float want[2] = {12.5f, 24.5f};
  for (int i = 0; i < 100; i++) {
    CgCompiled *c = cg_jit_tcc(ctx, out);
    assert_non_null(c);
    check_add(c, 2, want);
    cg_compiled_free(c);
  }
  assert_int_equal(ir_diag_count(ctx), 0);
  module_free(out);
  ir_ctx_free(ctx);
}

/* ---- the command line ------------------------------------------------- */

static const char *
rxc(void)
{
  const char *p = getenv("RXC");
  return p && *p ? p : "build/rxc";
}

/* Runs `rxc args`; the exit status, with stderr in *err (malloc'd). */
static int
run_rxc(const char *args, char **err)
{
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "%s %s >build/jit.out 2>build/jit.err </dev/null", rxc(), args);
  int status = system(cmd);
  *err = tu_read_file("build/jit.err");
  assert_non_null(*err);
  assert_true(WIFEXITED(status));
  return WEXITSTATUS(status);
}

static void
expect_rxc(const char *args, int status, const char *in_err)
{
  char *err;
  int got = run_rxc(args, &err);
  if (got != status || (in_err && !strstr(err, in_err)))
    printf("rxc %s\n  status %d (want %d)\n  stderr: %s\n", args, got, status, err);
  assert_int_equal(got, status);
  if (in_err)
    assert_non_null(strstr(err, in_err));
  free(err);
}

static void
test_cli_usage(void **state)
{
  (void)state;
  expect_rxc("compile --help", 0, NULL);
  expect_rxc("compile", 2, "compile needs a FILE");
  expect_rxc("compile samples/mlp.py", 2, "needs -o OUTDIR");
  expect_rxc("compile samples/mlp.py -o build/x --name 9lives", 2, "C identifier");
  expect_rxc("compile samples/mlp.py -o build/x --bogus", 2, "unknown option '--bogus'");
  expect_rxc("run samples/mlp.py --via gcc", 2, "unknown --via 'gcc'");
  expect_rxc("compile tests/cli/no_such_file.py -o build/x", 1, NULL);
}

/* rxc compiles samples/mlp.py (a generator that cannot is a failure, not
 * a skip: issue 33). */
static void
generator_ready(void)
{
  char *err;
  int status = run_rxc("compile samples/mlp.py -o build/jit_mlp_c", &err);
  if (status != 0)
    printf("rxc compile samples/mlp.py failed:\n%s\n", err);
  free(err);
  assert_int_equal(status, 0);
}

/* Writes build/jit_w.npz (mlp's weights) and build/jit_x{1,3,64,65}.npy
 * (batches of 1, 3, 64 and 65 images), seeded. */
static void
write_mlp_inputs(void)
{
  const char *py =
      "/usr/bin/python3 -c 'import numpy as np; r = np.random.default_rng(7); "
      "f = lambda *s: r.uniform(-1, 1, s).astype(np.float32); "
      "np.savez(\"build/jit_w.npz\", fc1_weight=f(32, 784), fc1_bias=f(32), "
      "fc2_weight=f(10, 32), fc2_bias=f(10)); "
      "[np.save(\"build/jit_x%d.npy\" % n, f(n, 784)) for n in (1, 3, 64, 65)]'";
  assert_int_equal(system(py), 0);
}

/* Every element of a and b within 1e-5 relative (1e-6 absolute near 0). */
static void
assert_close(const char *pa, const char *pb)
{
  IrCtx *ctx = ir_ctx_new();
  IrTensorData a, b;
  assert_true(fe_npy_read(ctx, pa, &a));
  assert_true(fe_npy_read(ctx, pb, &b));
  assert_int_equal(a.ndim, b.ndim);
  for (int k = 0; k < a.ndim; k++)
    assert_int_equal(a.shape[k], b.shape[k]);
  for (int64_t i = 0; i < op_numel(&a); i++) {
    double x = op_get_f(&a, i), y = op_get_f(&b, i);
    if (!(fabs(x - y) <= 1e-6 + 1e-5 * fabs(y)))
      fail_msg("%s and %s differ at %lld: %.9g vs %.9g", pa, pb, (long long)i, x, y);
  }
  ir_ctx_free(ctx);
}

/* rxc run --via tcc equals --via interp on mlp, at batch 1, 3 and the
 * upper bound 64; a batch above the bound is refused by the entry. */
static void
test_cli_mlp_via_tcc(void **state)
{
  (void)state;
  generator_ready();
  write_mlp_inputs();
  char args[512], interp[64], tcc[64];
  for (int n = 1; n <= 64; n = n == 1 ? 3 : n == 3 ? 64 : 65) {
    snprintf(interp, sizeof interp, "build/jit_interp%d.npy", n);
    snprintf(tcc, sizeof tcc, "build/jit_tcc%d.npy", n);
    snprintf(args, sizeof args,
             "run samples/mlp.py --params build/jit_w.npz --input inp_0=build/jit_x%d.npy -o %s", n,
             interp);
    expect_rxc(args, 0, NULL);
    snprintf(args, sizeof args,
             "run samples/mlp.py --via tcc --params build/jit_w.npz --input inp_0=build/jit_x%d.npy "
             "-o %s",
             n, tcc);
    expect_rxc(args, 0, NULL);
    assert_close(tcc, interp);
  }
  expect_rxc("run samples/mlp.py --via tcc --params build/jit_w.npz --input inp_0=build/jit_x65.npy "
             "-o build/jit_tcc65.npy",
             1, "returned");
  assert_int_equal(access("build/jit_tcc65.npy", F_OK), -1);
}

/* ---- the library API (api/rxc.h) on a batch dim without a bound ---------- */

/* y = relu(x @ w) @ w2 with x: (n, 4), n unbounded: the arena holds the
 * (n, 8) float32 intermediate, 32 * n bytes rounded up to 64. */
static const char api_mlp[] =
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((\"n\", 4), dtype=\"float32\"), w: R.Tensor((4, 8), dtype=\"float32\"),\n"
    "             w2: R.Tensor((8, 2), dtype=\"float32\")) -> R.Tensor((\"n\", 2), dtype=\"float32\"):\n"
    "        n = T.int64()\n"
    "        with R.dataflow():\n"
    "            lv = R.matmul(x, w)\n"
    "            lv1 = R.nn.relu(lv)\n"
    "            gv = R.matmul(lv1, w2)\n"
    "            R.output(gv)\n"
    "        return gv\n";

/* The model of api_mlp with the overrides set (NULL-terminated, or NULL);
 * what it printed goes to *errors (heap). */
static RxcModel *
api_model(const char *const *set, char **errors)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  assert_non_null(f);
  RxcJitOptions o = {.set = set};
  RxcModel *m = rxc_jit_string("api_mlp.py", api_mlp, &o, f);
  fclose(f);
  *errors = text;
  return m;
}

/* Runs main at batch n with an arena of bytes (aligned); returns its code
 * and checks y against the same arithmetic in C when it is 0. */
static int
api_call(RxcModel *m, int64_t n, size_t bytes)
{
  float x[7][4], w[4][8], w2[8][2], y[7][2];
  assert_true(n <= 7);
  for (int i = 0; i < 32; i++)
    w[i / 8][i % 8] = (float)((i * 7) % 11 - 5) / 4;
  for (int i = 0; i < 16; i++)
    w2[i / 2][i % 2] = (float)((i * 5) % 7 - 3) / 2;
  for (int i = 0; i < 28; i++)
    x[i / 4][i % 4] = (float)((i * 3) % 13 - 6) / 3;
  void *tensors[] = {x, w, w2, y};
  int64_t dims[] = {n};
  size_t align = rxc_model_arena_align(m);
  void *arena = aligned_alloc(align, (bytes / align + 1) * align); /* a multiple, as C11 wants */
  int rc = rxc_model_entry(m, "main")(arena, bytes, tensors, dims);
  free(arena);
  for (int i = 0; rc == 0 && i < n; i++)
    for (int j = 0; j < 2; j++) {
      double want = 0;
      for (int k = 0; k < 8; k++) {
        double h = 0;
        for (int l = 0; l < 4; l++)
          h += (double)x[i][l] * w[l][k];
        want += (h > 0 ? h : 0) * w2[k][j];
      }
      assert_true(fabs(y[i][j] - want) <= 1e-5 + 1e-5 * fabs(want));
    }
  return rc;
}

/* Without a bound: no static size, the size for the call's dims from
 * rxc_model_arena_bytes_for, one byte less refused by the entry. */
static void
test_api_unbounded(void **state)
{
  (void)state;
  char *errors;
  RxcModel *m = api_model(NULL, &errors);
  assert_non_null(m);
  assert_string_equal(errors, "");
  free(errors);
  assert_int_equal(rxc_model_arena_bytes(m, "main"), 0);
  assert_null(strstr(rxc_model_header(m), "_ARENA_BYTES 0u"));
  assert_non_null(strstr(rxc_model_header(m), "api_mlp_main_arena_bytes(n) bytes (no upper bound on n)"));
  for (int64_t n = 1; n <= 7; n += 3) {
    size_t bytes = 0;
    int64_t dims[] = {n};
    assert_int_equal(rxc_model_arena_bytes_for(m, "main", dims, &bytes), 0);
    assert_int_equal(bytes, (size_t)(32 * n + 63) / 64 * 64);
    assert_int_equal(api_call(m, n, bytes), 0);
    assert_int_equal(api_call(m, n, (size_t)(32 * n) - 1), -2);
  }
  size_t bytes = 5;
  int64_t negative[] = {-1000};
  assert_int_equal(rxc_model_arena_bytes_for(m, "main", negative, &bytes), RXC_ERR_ARENA);
  assert_int_equal(rxc_model_arena_bytes_for(m, "nope", negative, &bytes), RXC_ERR_NO_ENTRY);
  assert_int_equal(rxc_model_arena_bytes_for(NULL, "main", negative, &bytes), RXC_ERR_NO_ENTRY);
  assert_int_equal(bytes, 5);
  rxc_model_free(m);
}

/* --set through the options: a bound makes the arena static (the size at
 * the bound whatever the dims), and a dim above it is refused. */
static void
test_api_set_bound(void **state)
{
  (void)state;
  const char *const set[] = {"memplan.upper_bound.n=6", "memplan.require_static=true", NULL};
  char *errors;
  RxcModel *m = api_model(set, &errors);
  assert_non_null(m);
  assert_string_equal(errors, "");
  free(errors);
  assert_int_equal(rxc_model_arena_bytes(m, "main"), 192); /* 32 * 6, a multiple of 64 */
  assert_non_null(strstr(rxc_model_header(m), "#define api_mlp_main_ARENA_BYTES 192u"));
  assert_non_null(strstr(rxc_model_header(m), "#define api_mlp_ARENA_BYTES 192u"));
  size_t bytes = 0;
  int64_t dims[] = {2};
  assert_int_equal(rxc_model_arena_bytes_for(m, "main", dims, &bytes), 0);
  assert_int_equal(bytes, 192);
  assert_int_equal(api_call(m, 2, bytes), 0);
  assert_int_equal(api_call(m, 7, bytes), -4); /* NAME_ERR_DIM: above the bound */
  rxc_model_free(m);
}

/* Overrides that are wrong: an unknown dim (listing the model's), a
 * static arena asked for without a bound (naming the fix), a bad key. */
static void
test_api_set_errors(void **state)
{
  (void)state;
  struct {
    const char *set[3];
    const char *want;
  } cases[] = {
      {{"memplan.upper_bound.batch=4", NULL},
       "api_mlp.py: error: [memplan] upper_bound.batch names no dim of the model; its dims are: "
       "'n'\n"},
      {{"memplan.require_static=true", NULL},
       "dim 'n', which has no upper bound, and [memplan] require_static asks for a static arena: "
       "bound it with --set memplan.upper_bound.n=N"},
      {{"memplan.upper_bound.n=4", "memplan.no_such_key=1"}, "no_such_key"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *errors;
    assert_null(api_model(cases[i].set, &errors));
    if (!strstr(errors, cases[i].want))
      fail_msg("case %zu: '%s' not in:\n%s", i, cases[i].want, errors);
    free(errors);
  }
}

/* Every code has its text: the entries' and the API's own. */
static void
test_api_strerror(void **state)
{
  (void)state;
  assert_string_equal(rxc_model_strerror(0), "success");
  assert_string_equal(rxc_model_strerror(-1), "a NULL pointer argument");
  assert_string_equal(rxc_model_strerror(-2), "arena_bytes is smaller than the entry's arena");
  assert_string_equal(rxc_model_strerror(-4), "a symbolic dim is outside its bounds");
  assert_non_null(strstr(rxc_model_strerror(-9), "an assertion is false"));
  assert_non_null(strstr(rxc_model_strerror(-10), "poison mode"));
  assert_string_equal(rxc_model_strerror(-11), "unknown error");
  assert_string_equal(rxc_model_strerror(1), "unknown error");
  assert_string_equal(rxc_model_strerror(RXC_ERR_NO_ENTRY), "no model, or no entry of that name");
  assert_non_null(strstr(rxc_model_strerror(RXC_ERR_ARENA), "exceeds memory"));
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_compile_and_call), cmocka_unit_test(test_separate_weights),
      cmocka_unit_test(test_blob_weights),
      cmocka_unit_test(test_compile_error),    cmocka_unit_test(test_error_in_header),
      cmocka_unit_test(test_wrong_lib_path),   cmocka_unit_test(test_undefined_symbol),
      cmocka_unit_test(test_no_c_file),        cmocka_unit_test(test_two_threads),
      cmocka_unit_test(test_repeat),           cmocka_unit_test(test_cli_usage),
      cmocka_unit_test(test_cli_mlp_via_tcc),  cmocka_unit_test(test_kernel_bound),
      cmocka_unit_test(test_api_unbounded),    cmocka_unit_test(test_api_set_bound),
      cmocka_unit_test(test_api_set_errors),   cmocka_unit_test(test_api_strerror),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
