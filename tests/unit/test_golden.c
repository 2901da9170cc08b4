/*
 * test_golden.c - diagnostics against golden files.
 *
 * Every tests/bad/NAME.py (inputs the reader must reject) and
 * tests/wellformed/NAME.py (modules that parse but break a well-formedness
 * rule, named after the rule) is read and checked as `rxc check` does; the
 * diagnostics printed must equal NAME.err byte for byte, and there must be at
 * least one error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"

/* Returns the number of files that did not match. */
static int
run_dir(const char *dir, int *files)
{
  int n, failures = 0;
  char **paths = tu_list_py(dir, &n);
  for (int i = 0; i < n; i++) {
    IrCtx *ctx = ir_ctx_new();
    IrModule *m = fe_parse_file(ctx, paths[i]);
    if (m)
      ir_module_check(ctx, m);
    char *got = tu_diag_text(ctx);
    size_t len = strlen(paths[i]);
    char *err_path = malloc(len + 2);
    memcpy(err_path, paths[i], len - 3);
    strcpy(err_path + len - 3, ".err");
    char *want = tu_read_file(err_path);
    if (!want) {
      printf("%s: missing %s; the diagnostics were:\n%s", paths[i], err_path, got);
      failures++;
    } else if (ir_error_count(ctx) == 0 || strcmp(got, want) != 0) {
      printf("%s: diagnostics differ from %s\n--- want\n%s--- got\n%s", paths[i], err_path, want, got);
      failures++;
    }
    free(want);
    free(err_path);
    free(got);
    ir_ctx_free(ctx);
  }
  tu_free_list(paths, n);
  *files += n;
  return failures;
}

static void
test_bad_inputs(void **state)
{
  (void)state;
  int files = 0;
  assert_int_equal(run_dir("tests/bad", &files), 0);
  printf("  %d malformed inputs checked\n", files);
}

static void
test_wellformed_rules(void **state)
{
  (void)state;
  int files = 0;
  assert_int_equal(run_dir("tests/wellformed", &files), 0);
  printf("  %d ill-formed modules checked\n", files);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_inputs),
      cmocka_unit_test(test_wellformed_rules),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
