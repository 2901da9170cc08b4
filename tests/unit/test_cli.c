/*
 * test_cli.c - the rxc command as a user meets it: verbs, exit statuses
 * (0 ok, 1 bad input, 2 bad usage), diagnostics on stderr, results on
 * stdout or in files, and no output file when the input is bad.
 *
 * Runs the binary named by $RXC (build/rxc by default) through the shell.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../frontend/fe.h"
#include "testutil.h"

static const char *
rxc(void)
{
  const char *p = getenv("RXC");
  return p && *p ? p : "build/rxc";
}

/* Runs `rxc args`, capturing stdout and stderr; returns the exit status. */
static int
run(const char *args, char **out, char **err)
{
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "%s %s >build/cli.out 2>build/cli.err </dev/null", rxc(), args);
  int status = system(cmd);
  *out = tu_read_file("build/cli.out");
  *err = tu_read_file("build/cli.err");
  assert_non_null(*out);
  assert_non_null(*err);
  assert_true(WIFEXITED(status));
  return WEXITSTATUS(status);
}

static void
expect(const char *args, int status, const char *in_out, const char *in_err)
{
  char *out, *err;
  int got = run(args, &out, &err);
  if (got != status || (in_out && !strstr(out, in_out)) || (in_err && !strstr(err, in_err)))
    printf("rxc %s\n  status %d (want %d)\n  stdout: %s\n  stderr: %s\n", args, got, status, out, err);
  assert_int_equal(got, status);
  if (in_out)
    assert_non_null(strstr(out, in_out));
  if (in_err)
    assert_non_null(strstr(err, in_err));
  free(out);
  free(err);
}

static void
test_help_and_version(void **state)
{
  (void)state;
  expect("--version", 0, "rxc " RXC_VERSION, NULL);
  expect("--help", 0, "usage: rxc", NULL);
  expect("check --help", 0, "usage: rxc check", NULL);
  expect("opt --help", 0, "usage: rxc opt", NULL);
  expect("equal --help", 0, "usage: rxc equal", NULL);
}

static void
test_usage_errors(void **state)
{
  (void)state;
  expect("", 2, NULL, "usage: rxc");
  expect("frobnicate", 2, NULL, "unknown command 'frobnicate'");
  expect("check", 2, NULL, "check takes one FILE");
  expect("opt tests/cli/a.py --bogus", 2, NULL, "unknown option '--bogus'");
  expect("equal tests/cli/a.py", 2, NULL, "two files");
  /* there is no -O3 (-O2 runs every pass that speeds up the code): each
   * verb that takes a level refuses it rather than run -O2 under its name */
  static const char *const level_verbs[] = {"opt tests/cli/a.py", "plan tests/cli/a.py",
                                            "compile tests/cli/a.py -o build/o3",
                                            "run tests/cli/a.py --via tcc"};
  for (size_t i = 0; i < sizeof level_verbs / sizeof level_verbs[0]; i++) {
    char args[128];
    snprintf(args, sizeof args, "%s -O3", level_verbs[i]);
    expect(args, 2, NULL, "rxc: -O3: the levels are -O0, -O1 and -O2");
  }
  expect("--set opt.level=3 opt tests/cli/a.py", 2, NULL, "expected an integer from 0 to 2");
}

static void
test_check(void **state)
{
  (void)state;
  expect("check tests/cli/a.py", 0, NULL, NULL);
  expect("check tests/cli/bad.py", 1, NULL, "tests/cli/bad.py:5:16: error:");
  expect("check tests/cli/no_such_file.py", 1, NULL, "cannot open");
}

/* Every malformed input and every ill-formed module: status 1, and a
 * diagnostic in the file:line:col form on stderr. */
static void
test_bad_inputs_exit_1(void **state)
{
  (void)state;
  static const char *dirs[] = {"tests/bad", "tests/wellformed"};
  for (int d = 0; d < 2; d++) {
    int n;
    char **paths = tu_list_py(dirs[d], &n);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
      char args[1024], prefix[1024];
      snprintf(args, sizeof args, "check %s", paths[i]);
      snprintf(prefix, sizeof prefix, "%s:", paths[i]);
      expect(args, 1, NULL, prefix);
    }
    tu_free_list(paths, n);
  }
}

static void
test_opt_prints_and_writes(void **state)
{
  (void)state;
  expect("opt tests/cli/a.py --passes Normalize", 0, "def main(", NULL);
  unlink("build/cli-opt.py");
  expect("opt tests/cli/a.py --passes Normalize -o build/cli-opt.py", 0, NULL, NULL);
  char *text = tu_read_file("build/cli-opt.py");
  assert_non_null(text);
  assert_non_null(strstr(text, "R.multiply(lv, lv)"));
  free(text);
  /* the printed module reads back to an equal one */
  expect("equal tests/cli/a.py build/cli-opt.py", 0, NULL, NULL);
  /* bad input: status 1 and no output file, not even a partial one */
  unlink("build/cli-bad.py");
  expect("opt tests/cli/bad.py --passes Normalize -o build/cli-bad.py", 1, NULL, "error:");
  struct stat st;
  assert_int_not_equal(stat("build/cli-bad.py", &st), 0);
  assert_int_not_equal(stat("build/cli-bad.py.tmp", &st), 0);
}

/* A model that does not read: every verb reports each error once (the
 * road's drivers printed the reader's errors twice until 2026-11). */
static void
test_read_errors_once(void **state)
{
  (void)state;
  const char *verbs[] = {"check", "opt", "plan", "compile -o build/cli-once", "run --via cc"};
  const char *models[] = {"tests/cli/bad.py", "tests/onnx/unsupported.onnx"};
  for (size_t m = 0; m < sizeof models / sizeof *models; m++) {
    for (size_t v = 0; v < sizeof verbs / sizeof *verbs; v++) {
      char args[256], *out, *err;
      snprintf(args, sizeof args, "%s %s", verbs[v], models[m]);
      assert_int_equal(run(args, &out, &err), 1);
      const char *first = strstr(err, "error:");
      assert_non_null(first);
      const char *line_end = strchr(first, '\n');
      size_t len = line_end ? (size_t)(line_end - first) : strlen(first);
      char line[512];
      snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), first);
      if (strstr(first + 1, line))
        printf("rxc %s printed twice: %s\n", args, line);
      assert_null(strstr(first + 1, line));
      free(out);
      free(err);
    }
  }
}

static void
test_equal(void **state)
{
  (void)state;
  expect("equal tests/cli/a.py tests/cli/a.py", 0, NULL, NULL);
  expect("equal tests/cli/a.py tests/cli/a_renamed.py", 0, NULL, NULL);
  expect("equal tests/cli/a.py tests/cli/b.py", 1, "not equal", NULL);
  expect("equal tests/cli/a.py tests/cli/bad.py", 1, NULL, "error:");
  /* TIR assert: "msg" is ("RuntimeError", ["msg"]); kind and parts count */
  expect("equal tests/cli/assert_string.py tests/cli/assert_tuple.py", 0, NULL, NULL);
  expect("equal tests/cli/assert_tuple.py tests/cli/assert_kind.py", 1,
         "assert: error kind: \"RuntimeError\" vs \"ValueError\"", NULL);
  expect("equal tests/cli/assert_tuple.py tests/cli/assert_part.py", 1,
         "assert: message parts: 1 vs 2", NULL);
  /* a loop bound to another thread axis is another module */
  char *text = tu_read_file("tests/script/tir_thread_binding.py");
  char *at = strstr(text, "thread=\"threadIdx.x");
  assert_non_null(at);
  at[strlen("thread=\"threadIdx.")] = 'y';
  FILE *f = fopen("build/cli-thread-y.py", "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  free(text);
  expect("equal tests/script/tir_thread_binding.py build/cli-thread-y.py", 1,
         "thread 'threadIdx.x' vs 'threadIdx.y'", NULL);
}

static void
write_f32(const char *path, int64_t rows, int64_t cols, const float *v)
{
  int64_t shape[2] = {rows, cols};
  IrTensorData t = {IR_F32, 2, shape, (void *)v, sizeof(float) * (size_t)(rows * cols)};
  IrBuf b = {0};
  assert_true(fe_npy_encode(&t, &b));
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(b.data, 1, b.len, f), b.len);
  fclose(f);
  ir_buf_free(&b);
}

/* TVM v0.26's metadata section (tests/metadata/gen_metadata.py wrote the
 * modules from these values): each constant reads back with its dtype,
 * shape and values, the section before the module or after it, and the
 * generated C computes with them too. */
static void
test_metadata_constants(void **state)
{
  (void)state;
  const char *const files[] = {"tests/script/tvm26_metadata.py",
                               "tests/script/tvm26_metadata_after.py"};
  for (int i = 0; i < 2; i++) {
    char args[256];
    snprintf(args, sizeof args, "run %s", files[i]);
    expect(args, 0, "float32 (2, 3)\n[[1.5, -2, 0.25],\n [3, 4, -0.125]]", NULL);
    snprintf(args, sizeof args, "run %s --fn ints", files[i]);
    expect(args, 0, "int64 (4,)\n[7, -1, 1099511627776, 0]", NULL);
  }
  bool x[3] = {true, true, false};
  int64_t shape[1] = {3};
  IrTensorData t = {IR_BOOL, 1, shape, x, sizeof x};
  IrBuf b = {0};
  assert_true(fe_npy_encode(&t, &b));
  FILE *f = fopen("build/metadata_x.npy", "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(b.data, 1, b.len, f), b.len);
  fclose(f);
  ir_buf_free(&b);
  /* x and [True, False, True] */
  expect("run tests/script/tvm26_metadata.py --fn flags --input x=build/metadata_x.npy", 0,
         "bool (3,)\n[True, False, False]", NULL);
  expect("run tests/script/tvm26_metadata.py --fn flags --via tcc --input x=build/metadata_x.npy",
         0, "bool (3,)\n[True, False, False]", NULL);
}

/* rxc run --dump DIR: each tensor binding of the interpreter as a .npy,
 * in order (tests/cli/a.py: lv = x + y, gv = lv * lv). */
static void
test_run_dump(void **state)
{
  (void)state;
  float x[8], y[4] = {1, 1, 1, 1};
  for (int i = 0; i < 8; i++)
    x[i] = (float)i;
  write_f32("build/dump_x.npy", 2, 4, x);
  write_f32("build/dump_y.npy", 1, 4, y);
  unlink("build/dump/lv.npy");
  expect("run tests/cli/a.py --input x=build/dump_x.npy --input y=build/dump_y.npy "
         "--dump build/dump -o build/dump_out.npy", 0, NULL, NULL);
  char *order = tu_read_file("build/dump/order.txt");
  assert_non_null(order);
  assert_string_equal(order, "lv.npy\ngv.npy\n");
  free(order);
  IrCtx *ctx = ir_ctx_new();
  IrTensorData lv, gv;
  assert_true(fe_npy_read(ctx, "build/dump/lv.npy", &lv));
  assert_true(fe_npy_read(ctx, "build/dump/gv.npy", &gv));
  assert_int_equal(lv.ndim, 2);
  assert_int_equal(lv.shape[0], 2);
  for (int i = 0; i < 8; i++) {
    assert_true(((float *)lv.data)[i] == (float)(i + 1));
    assert_true(((float *)gv.data)[i] == (float)((i + 1) * (i + 1)));
  }
  ir_ctx_free(ctx);
  expect("run tests/cli/a.py --via cc --dump build/dump", 2, NULL, "--dump needs --via interp");
}

/* -q: errors only; -v: every step; neither, on a pipe: results only. */
static void
test_verbosity(void **state)
{
  (void)state;
  char *out, *err;
  assert_int_equal(run("compile samples/digits_mlp.py -o build/verb", &out, &err), 0);
  assert_non_null(strstr(out, "wrote build/verb/digits_mlp.c"));
  assert_string_equal(err, ""); /* stderr is not a terminal: no progress */
  free(out);
  free(err);
  assert_int_equal(run("-q compile samples/digits_mlp.py -o build/verb", &out, &err), 0);
  assert_string_equal(out, "");
  assert_string_equal(err, "");
  free(out);
  free(err);
  assert_int_equal(run("compile --verbose samples/digits_mlp.py -o build/verb", &out, &err), 0);
  assert_non_null(strstr(err, "rxc: planning memory"));
  assert_non_null(strstr(err, "rxc: LiftWorkspaces ")); /* each pass with its time */
  free(out);
  free(err);
  expect("-q compile samples/nothing.py -o build/verb", 1, NULL, "nothing.py");
}

/* Every verb of rxc --help. */
static const char *const verbs[] = {"check", "opt",     "equal",  "run", "equiv",
                                    "plan",  "compile", "import", "list"};
#define NVERBS (sizeof verbs / sizeof verbs[0])

/* Each verb: --help exits 0 with its usage line, and rxc --help lists it;
 * an unknown option is bad usage (2) with a message naming it, whether
 * or not a value follows. */
static void
test_verb_help_and_unknown_options(void **state)
{
  (void)state;
  char args[128], want[64];
  for (size_t v = 0; v < NVERBS; v++) {
    snprintf(args, sizeof args, "%s --help", verbs[v]);
    snprintf(want, sizeof want, "usage: rxc %s", verbs[v]);
    expect(args, 0, want, NULL);
    snprintf(want, sizeof want, "\n  %s ", verbs[v]);
    expect("--help", 0, want, NULL);
    snprintf(args, sizeof args, "%s --no-such-flag", verbs[v]);
    expect(args, 2, NULL, "unknown option '--no-such-flag'");
    snprintf(args, sizeof args, "%s --no-such-flag 1", verbs[v]);
    expect(args, 2, NULL, "unknown option '--no-such-flag'");
  }
}

/* The options a help text names: words starting with - or -- and a letter,
 * after a space, bracket, bar, slash or comma ("-O0..-O3" gives -O0,
 * "--print-after=PASS" itself).  Returns how many it wrote to names. */
static int
help_options(const char *help, char names[][64], int max)
{
  int n = 0;
  for (const char *p = help; *p && n < max; p++) {
    bool start = p == help || strchr(" \n[(|/,", p[-1]);
    const char *q = p + (p[0] == '-') + (p[0] == '-' && p[1] == '-');
    if (!start || *p != '-' || !((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')))
      continue;
    size_t len = strspn(p, "-=_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
    if (len >= 64)
      continue;
    memcpy(names[n], p, len);
    names[n][len] = '\0';
    n++;
    p += len - 1;
  }
  return n;
}

/* Every option a verb's --help names is one the verb accepts: given alone
 * (no FILE) it may be refused for a missing value or FILE, never as an
 * unknown option. */
static void
test_help_names_accepted_options(void **state)
{
  (void)state;
  static char names[128][64];
  for (size_t v = 0; v < NVERBS; v++) {
    char args[160], *out, *err;
    snprintf(args, sizeof args, "%s --help", verbs[v]);
    assert_int_equal(run(args, &out, &err), 0);
    int n = help_options(out, names, 128);
    assert_true(n >= 4); /* at least the global options */
    free(out);
    free(err);
    for (int i = 0; i < n; i++) {
      snprintf(args, sizeof args, "%s %.63s", verbs[v], names[i]);
      int status = run(args, &out, &err);
      if (strstr(err, "unknown option") || status > 2)
        printf("rxc %s: status %d, %s\n", args, status, err);
      assert_null(strstr(err, "unknown option"));
      assert_true(status <= 2);
      free(out);
      free(err);
    }
  }
}

/* rxc list: rows read from the registries, and true: what it marks "no"
 * for C, rxc compile refuses; what it marks compiled, compiles. */
static void
test_list(void **state)
{
  (void)state;
  expect("list ops", 0, "| `R.nn.conv2d` | yes | yes | LegalizeOps |", NULL);
  expect("list ops", 0, "| `R.memory.alloc_storage` | yes | yes | built in |", NULL);
  expect("list ops", 0, "| `R.call_tir_inplace` | yes | yes (prim_func callee) | CallTIRRewrite |",
         NULL);
  expect("list ops", 0, "| `R.call_pure_packed` | yes | no | no |", NULL);
  expect("compile tests/script/call_pure_packed.py -o build/list_out", 1, NULL,
         "does not support this call");
  expect("list ops", 0, "| `R.print` | yes | yes | built in |", NULL);
  expect("compile tests/script/print_assert.py -o build/list_out", 0, "wrote", NULL);
  expect("compile tests/script/call_tir_inplace.py -o build/list_out", 0, "wrote", NULL);
  expect("list ops", 0, "| `R.vm.alloc_storage` | yes | yes | CallTIRRewrite |", NULL);
  expect("compile tests/codegen/tvm_memory_forms.py -o build/list_out", 0, "wrote", NULL);
  expect("list ops", 0, "| `R.assert_op` | yes | yes | built in |", NULL);
  expect("compile tests/codegen/device_effects.py -o build/list_out", 0, "wrote", NULL);
  expect("compile tests/script/tir_thread_binding.py -o build/list_out", 1, NULL,
         "bound to GPU thread axis 'blockIdx.x'");
  expect("compile tests/script/memory_view_dtype_var.py -o build/list_out", 1, NULL,
         "R.memory.view cannot be compiled");
  /* the summary rxc opt --help prints, and FuseOps in -O2 only */
  expect("opt --help", 0, "group elementwise chains with their producer", NULL);
  expect("list passes", 0,
         "| `FuseOps` | group elementwise chains with their producer |  |  | yes |\n", NULL);
  expect("list onnx --format csv", 0, "\nConv,\"auto_pad,dilations,group,kernel_shape,pads,strides\"\n",
         NULL);
  expect("list", 2, NULL, "list needs ops, passes or onnx");
  expect("list kernels", 2, NULL, "not 'kernels'");
  expect("list ops --format html", 2, NULL, "--format takes markdown or csv");
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_help_and_version), cmocka_unit_test(test_usage_errors),
      cmocka_unit_test(test_check), cmocka_unit_test(test_bad_inputs_exit_1),            cmocka_unit_test(test_opt_prints_and_writes),
      cmocka_unit_test(test_read_errors_once),
      cmocka_unit_test(test_equal), cmocka_unit_test(test_run_dump),
      cmocka_unit_test(test_metadata_constants),
      cmocka_unit_test(test_verbosity), cmocka_unit_test(test_verb_help_and_unknown_options),
      cmocka_unit_test(test_help_names_accepted_options), cmocka_unit_test(test_list),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
