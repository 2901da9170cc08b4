/*
 * test_hostile.c - hostile inputs to the rxc command (issue 9): each must
 * be answered by a diagnostic and exit status 1, and nothing written.
 *
 * Every tests/hostile/NAME.py comes with NAME.cmd (one line: the rxc
 * arguments) and NAME.err (the exact stderr).  The data files the commands
 * name (build/hostile/: .npy and .npz files with wrong shapes, wrong dtypes, truncated
 * files) are written here first from tensors built in C, so that their
 * damage is explicit.  Runs the binary named by $RXC (build/rxc).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "testutil.h"

static const char *
rxc(void)
{
  const char *p = getenv("RXC");
  return p && *p ? p : "build/rxc";
}

/* A zero tensor of the given dtype and shape (data freed by the caller). */
static IrTensorData
zeros(IrDType dt, int ndim, int64_t *shape)
{
  IrTensorData t = {.dtype = dt, .ndim = ndim, .shape = shape};
  t.nbytes = (size_t)ir_dtype_bytes(dt);
  for (int i = 0; i < ndim; i++)
    t.nbytes *= (size_t)shape[i];
  t.data = calloc(1, t.nbytes);
  return t;
}

/* Writes the first `keep` bytes of buf (all when keep < 0) to path. */
static void
write_bytes(const char *path, const IrBuf *buf, long keep)
{
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  size_t n = keep < 0 ? buf->len : (size_t)keep;
  assert_int_equal(fwrite(buf->data, 1, n, f), n);
  fclose(f);
}

/* t as the entry "w" of an .npz; only its first half when halve. */
static void
write_npz(const char *path, IrCtx *ctx, IrTensorData t, bool halve)
{
  FeNpzEntry e = {.name = ir_sym(ctx, "w"), .t = t};
  IrBuf b = {0};
  assert_true(fe_npz_encode(&e, 1, &b));
  write_bytes(path, &b, halve ? (long)b.len / 2 : -1);
  ir_buf_free(&b);
}

/* t as an .npy, its last `cut` bytes dropped. */
static void
write_npy(const char *path, IrTensorData t, long cut)
{
  IrBuf b = {0};
  assert_true(fe_npy_encode(&t, &b));
  write_bytes(path, &b, cut > 0 ? (long)b.len - cut : -1);
  ir_buf_free(&b);
}

/* The data files the commands of tests/hostile/ name. */
static void
write_data(void)
{
  IrCtx *ctx = ir_ctx_new();
  mkdir("build", 0755);
  mkdir("build/hostile", 0755);
  IrDType f32 = {IR_DT_FLOAT, 32, 1}, i32 = {IR_DT_INT, 32, 1};
  int64_t s43[] = {4, 3}, s34[] = {3, 4}, s24[] = {2, 4}, s4[] = {4};
  IrTensorData ok = zeros(f32, 2, s43), shape = zeros(f32, 2, s34), dtype = zeros(i32, 2, s43);
  IrTensorData x = zeros(f32, 2, s24), v4 = zeros(f32, 1, s4);
  write_npz("build/hostile/w_ok.npz", ctx, ok, false);
  write_npy("build/hostile/w_ok.npy", ok, 0);
  write_npz("build/hostile/w_shape.npz", ctx, shape, false);
  write_npz("build/hostile/w_dtype.npz", ctx, dtype, false);
  write_npz("build/hostile/w_trunc.npz", ctx, ok, true);
  write_npy("build/hostile/x_trunc.npy", x, 5);        /* 5 bytes short */
  write_npy("build/hostile/v4.npy", v4, 0);
  free(ok.data), free(shape.data), free(dtype.data), free(x.data), free(v4.data);
  ir_ctx_free(ctx);
}

/* Runs one case; true when it behaved (status 1, stderr as NAME.err, no
 * output directory written). */
static bool
run_case(const char *py)
{
  size_t len = strlen(py);
  char base[1024], cmd[4096];
  snprintf(base, sizeof base, "%.*s", (int)(len - 3), py);
  snprintf(cmd, sizeof cmd, "%s.cmd", base);
  char *args = tu_read_file(cmd);
  snprintf(cmd, sizeof cmd, "%s.err", base);
  char *want = tu_read_file(cmd);
  if (!args || !want) {
    printf("%s: missing .cmd or .err\n", py);
    free(args), free(want);
    return false;
  }
  args[strcspn(args, "\n")] = '\0';
  system("rm -rf build/hostile/out");
  snprintf(cmd, sizeof cmd, "%s %s >/dev/null 2>build/hostile/stderr </dev/null", rxc(), args);
  int status = system(cmd);
  char *got = tu_read_file("build/hostile/stderr");
  struct stat st;
  bool wrote = stat("build/hostile/out", &st) == 0;
  bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 1 && got && strcmp(got, want) == 0 && !wrote;
  if (!ok)
    printf("rxc %s\n  status %d (want 1)%s\n--- want stderr\n%s--- got\n%s", args,
           WIFEXITED(status) ? WEXITSTATUS(status) : -1, wrote ? ", wrote build/hostile/out" : "",
           want, got ? got : "(none)\n");
  free(args), free(want), free(got);
  return ok;
}

static void
test_hostile_inputs(void **state)
{
  (void)state;
  write_data();
  int n, failures = 0;
  char **paths = tu_list_py("tests/hostile", &n);
  assert_true(n >= 12);
  for (int i = 0; i < n; i++)
    failures += !run_case(paths[i]);
  tu_free_list(paths, n);
  printf("hostile inputs: %d cases, %d failed\n", n, failures);
  assert_int_equal(failures, 0);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hostile_inputs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
