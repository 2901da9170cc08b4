/*
 * test_roundtrip.c - print and parse are inverses.
 *
 * For every module in tests/script/ and samples/: it parses, is
 * well-formed and its annotations agree with operator inference; printing it and reading the text back gives a structurally
 * equal module with the same hash; printing that again gives the same text
 * (a fixed point after one round).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../opt/opt.h"
#include "testutil.h"

/* Returns true when path round-trips; prints why not otherwise. */
static bool
round_trip(const char *path)
{
  IrCtx *ctx = ir_ctx_new();
  bool ok = false;
  char *text1 = NULL, *text2 = NULL, *diags = NULL;
  IrModule *m1 = fe_parse_file(ctx, path);
  if (!m1 || ir_module_check(ctx, m1) > 0 || !opt_normalize(ctx, m1))
    goto done;
  text1 = tu_print(m1);
  IrModule *m2 = fe_parse_string(ctx, path, text1);
  if (!m2)
    goto done;
  IrBuf why = {0};
  if (!ir_module_equal(m1, m2, &why)) {
    printf("%s: reparsed module differs: %s\n", path, why.data ? why.data : "?");
    ir_buf_free(&why);
    goto done;
  }
  if (ir_module_hash(m1) != ir_module_hash(m2)) {
    printf("%s: equal modules hash differently\n", path);
    goto done;
  }
  text2 = tu_print(m2);
  if (strcmp(text1, text2) != 0) {
    printf("%s: printing is not a fixed point\n--- first\n%s--- second\n%s", path, text1, text2);
    goto done;
  }
  ok = true;
done:
  if (ir_error_count(ctx) > 0) {
    diags = tu_diag_text(ctx);
    printf("%s: errors:\n%s", path, diags);
    if (text1)
      printf("--- printed text was\n%s", text1);
  }
  free(diags);
  free(text1);
  free(text2);
  ir_ctx_free(ctx);
  return ok;
}

static int
run_dir(const char *dir, int *files)
{
  int n, failures = 0;
  char **paths = tu_list_py(dir, &n);
  for (int i = 0; i < n; i++)
    failures += !round_trip(paths[i]);
  tu_free_list(paths, n);
  *files += n;
  return failures;
}

static void
test_script_corpus(void **state)
{
  (void)state;
  int files = 0;
  assert_int_equal(run_dir("tests/script", &files), 0);
  printf("  %d modules round-tripped\n", files);
}

static void
test_samples(void **state)
{
  (void)state;
  int files = 0;
  assert_int_equal(run_dir("samples", &files), 0);
  printf("  %d samples round-tripped\n", files);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_script_corpus),
      cmocka_unit_test(test_samples),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
