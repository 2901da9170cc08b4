/*
 * test_roundtrip.c - print and parse are inverses.
 *
 * For every module in tests/script/ and samples/, in each output dialect
 * (v0.23, v0.26): it parses, is well-formed and its annotations agree with
 * operator inference; printing it and reading the text back gives a
 * structurally equal module with the same hash; printing that again gives
 * the same text (a fixed point after one round).  Where v0.26 says the
 * module in another form (call_tir's tir_vars moved into its arguments,
 * R.Prim(value=...) annotations down to their dtype),
 * the module read back must itself round-trip to an equal module and the
 * same text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../opt/opt.h"
#include "testutil.h"

static char *
print_in(const IrModule *m, IrDialect d, bool *exact)
{
  IrBuf b = {0};
  *exact = ir_module_print_dialect(m, d, &b);
  if (!b.data)
    ir_buf_put(&b, "", 0);
  return b.data;
}

/* Returns true when path round-trips in dialect d; prints why not otherwise. */
static bool
round_trip(const char *path, IrDialect d)
{
  IrCtx *ctx = ir_ctx_new();
  bool ok = false, exact, again;
  const char *dname = d == IR_DIALECT_V0_26 ? "v0.26" : "v0.23";
  char *text1 = NULL, *text2 = NULL, *diags = NULL;
  IrModule *m1 = fe_parse_file(ctx, path);
  if (!m1 || ir_module_check(ctx, m1) > 0 || !opt_normalize(ctx, m1))
    goto done;
  text1 = print_in(m1, d, &exact);
  IrModule *m2 = fe_parse_string(ctx, path, text1);
  if (!m2)
    goto done;
  if (!exact) { /* another form: m2 is the module to round-trip, in the same text */
    char *first = text1;
    m1 = m2;
    text1 = print_in(m1, d, &exact);
    bool same = strcmp(first, text1) == 0;
    free(first);
    if (!exact || !same) {
      printf("%s (%s): the module read back prints %s\n", path, dname,
             exact ? "another text" : "in another form again");
      goto done;
    }
    m2 = fe_parse_string(ctx, path, text1);
    if (!m2)
      goto done;
  }
  IrBuf why = {0};
  if (!ir_module_equal(m1, m2, &why)) {
    printf("%s (%s): reparsed module differs: %s\n", path, dname, why.data ? why.data : "?");
    ir_buf_free(&why);
    goto done;
  }
  if (ir_module_hash(m1) != ir_module_hash(m2)) {
    printf("%s (%s): equal modules hash differently\n", path, dname);
    goto done;
  }
  text2 = print_in(m2, d, &again);
  if (strcmp(text1, text2) != 0 || !again) {
    printf("%s (%s): printing is not a fixed point\n--- first\n%s--- second\n%s", path, dname,
           text1, text2);
    goto done;
  }
  ok = true;
done:
  if (ir_error_count(ctx) > 0) {
    diags = tu_diag_text(ctx);
    printf("%s (%s): errors:\n%s", path, dname, diags);
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
    failures += !round_trip(paths[i], IR_DIALECT_V0_23) + !round_trip(paths[i], IR_DIALECT_V0_26);
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
