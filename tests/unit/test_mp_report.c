/*
 * test_mp_report.c - the memory plan's report (memplan/report.c) and the
 * rxc plan verb.
 *
 * The report tests build an MpPlan by hand (a bounded function with a
 * symbolic storage, an in-place reuse and a runtime check; a function whose
 * arena is an expression of an unbounded dim) and compare the text with
 * text written out by hand, parse the JSON back with Python, and check the
 * SVG's rectangles (coordinates computed by hand) and its well-formedness
 * with a small tag checker.  The CLI tests run $RXC (build/rxc by default).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../memplan/mp.h"
#include "testutil.h"

/* ------------------------------------------------------------------ */
/* A plan by hand                                                      */
/* ------------------------------------------------------------------ */

typedef struct {
  IrCtx *ctx;
  MpStorage main_st[3];
  MpStorage dyn_st[3];
  MpCheck check;
  MpFunctionPlan funcs[2];
  MpPlan plan;
} Fixture;

static IrPrimExpr *
int64(IrCtx *ctx, int64_t v)
{
  return ir_prim_int(ctx, IR_I64, v);
}

static MpStorage
storage(IrCtx *ctx, const char *name, int64_t bytes, int64_t start, int64_t end, int64_t offset)
{
  IrLoc none = {0};
  MpStorage s = {0};
  s.var = ir_var_new(ctx, ir_sym(ctx, name), NULL, false, none);
  s.bytes = int64(ctx, bytes);
  s.bytes_max = bytes;
  s.start = start;
  s.end = end;
  s.offset = offset;
  return s;
}

/* main: storage 4096 B at 0 over steps 0..1; storage1 n * 128 B (2048 at
 * n <= 16) at 4096 over 1..2; storage2 1024 B at 0 over 2..3, in place.
 * Live at step 1: 4096 + 2048 = 6144 = the lower bound = the arena.  The
 * bindings lv and lv1 produced the first two; nothing names the third, so
 * it goes by its storage's name. */
static void
build_main(Fixture *f, IrPrimExpr *n)
{
  IrCtx *ctx = f->ctx;
  f->main_st[0] = storage(ctx, "storage", 4096, 0, 1, 0);
  f->main_st[1] = storage(ctx, "storage1", 2048, 1, 2, 4096);
  f->main_st[1].bytes = ir_prim_bin(ctx, IR_PE_MUL, n, int64(ctx, 128));
  f->main_st[2] = storage(ctx, "storage2", 1024, 2, 3, 0);
  f->main_st[2].inplace = true;
  IrLoc none = {0};
  f->main_st[0].tensor = ir_var_new(ctx, ir_sym(ctx, "lv"), NULL, false, none);
  f->main_st[1].tensor = ir_var_new(ctx, ir_sym(ctx, "lv1"), NULL, false, none);
  IrPrimExpr *m = ir_prim_var(ctx, ir_sym(ctx, "m"), IR_I64);
  f->check.cond = ir_prim_bin(ctx, IR_PE_LE, m, int64(ctx, 4));
  f->check.what = "binding 'alloc': tensor of m * 4 bytes in storage of 16 bytes";
  MpFunctionPlan *fp = &f->funcs[0];
  fp->name = ir_sym(ctx, "main");
  fp->storages = f->main_st;
  fp->nstorages = 3;
  fp->checks = &f->check;
  fp->nchecks = 1;
  fp->arena_bytes = 6144;
  fp->lower_bound = 6144;
  fp->naive_sum = 7168;
  fp->pooled_bytes = 8192;
  fp->ninplace = 1;
}

/* dyn: n has no bound.  s0 64 B at 0; s1 n * 64 B at 64; s2 256 B at
 * n * 64 + 64; the arena is n * 64 + 320 bytes, known at run time. */
static void
build_dyn(Fixture *f, IrPrimExpr *n)
{
  IrCtx *ctx = f->ctx;
  IrPrimExpr *n64 = ir_prim_bin(ctx, IR_PE_MUL, n, int64(ctx, 64));
  f->dyn_st[0] = storage(ctx, "s0", 64, 0, 0, 0);
  f->dyn_st[1] = storage(ctx, "s1", -1, 0, 1, 64);
  f->dyn_st[1].bytes = n64;
  f->dyn_st[2] = storage(ctx, "s2", 256, 1, 2, -1);
  f->dyn_st[2].offset_expr = ir_prim_bin(ctx, IR_PE_ADD, n64, int64(ctx, 64));
  MpFunctionPlan *fp = &f->funcs[1];
  fp->name = ir_sym(ctx, "dyn");
  fp->storages = f->dyn_st;
  fp->nstorages = 3;
  fp->arena_bytes = -1;
  fp->arena_expr = ir_prim_bin(ctx, IR_PE_ADD, n64, int64(ctx, 320));
  fp->lower_bound = -1;
  fp->naive_sum = -1;
  fp->pooled_bytes = -1;
}

static int
setup(void **state)
{
  Fixture *f = calloc(1, sizeof *f);
  f->ctx = ir_ctx_new();
  IrPrimExpr *n = ir_prim_var(f->ctx, ir_sym(f->ctx, "n"), IR_I64);
  build_main(f, n);
  build_dyn(f, n);
  f->plan.funcs = f->funcs;
  f->plan.nfuncs = 2;
  f->plan.arena_bytes = 6144;
  f->plan.align = 64;
  f->plan.weights_bytes = 9640;
  *state = f;
  return 0;
}

static int
teardown(void **state)
{
  Fixture *f = *state;
  ir_ctx_free(f->ctx);
  free(f);
  return 0;
}

/* The report of p in format, as a malloc'd string. */
static char *
report(const MpPlan *p, MpFormat format)
{
  IrBuf b = {0};
  mp_plan_print(p, format, &b);
  assert_non_null(b.data);
  return b.data;
}

/* ------------------------------------------------------------------ */
/* Text                                                                */
/* ------------------------------------------------------------------ */

static const char expected_text[] =
    "memory plan: 2 functions, alignment 64 bytes, largest arena 6144 bytes\n"
    "weights (flash): 9640 bytes of constants, held as static const\n"
    "\n"
    "function main\n"
    "  binding  storage       bytes  live           offset\n"
    "  lv       storage        4096  0..1                0\n"
    "  lv1      storage1       2048  1..2             4096  bytes = n * 128\n"
    "  storage2 storage2       1024  2..3                0  in-place\n"
    "  arena              6144 bytes\n"
    "  lower bound        6144 bytes\n"
    "  naive sum          7168 bytes\n"
    "  pooled (TVM)       8192 bytes\n"
    "  arena/lower bound  1.00\n"
    "  naive/arena        1.17\n"
    "  pooled/arena       1.33\n"
    "  in-place reuses    1\n"
    "  runtime checks     1\n"
    "    m <= 4: binding 'alloc': tensor of m * 4 bytes in storage of 16 bytes\n"
    "\n"
    "function dyn\n"
    "  binding storage      bytes  live           offset\n"
    "  s0      s0              64  0..0                0\n"
    "  s1      s1       unbounded  0..1               64  bytes = n * 64\n"
    "  s2      s2             256  1..2       n * 64 + 64\n"
    "  arena              n * 64 + 320 bytes (computed at run time)\n"
    "  lower bound        unbounded\n"
    "  naive sum          unbounded\n"
    "  pooled (TVM)       unbounded\n"
    "  arena/lower bound  -\n"
    "  naive/arena        -\n"
    "  pooled/arena       -\n"
    "  in-place reuses    0\n"
    "  runtime checks     0\n";

static void
test_text(void **state)
{
  Fixture *f = *state;
  char *text = report(&f->plan, MP_FORMAT_TEXT);
  if (strcmp(text, expected_text) != 0)
    printf("got:\n%s\nwant:\n%s\n", text, expected_text);
  assert_string_equal(text, expected_text);
  free(text);
}

static void
test_text_no_function(void **state)
{
  (void)state;
  MpPlan empty = {.align = 8, .arena_bytes = 0};
  char *text = report(&empty, MP_FORMAT_TEXT);
  assert_string_equal(text, "memory plan: 0 functions, alignment 8 bytes, largest arena 0 bytes\n"
                            "weights (flash): 0 bytes of constants, held as static const\n");
  free(text);
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

/* Runs python3 with script on the JSON text (redirect appended to the
 * command); true when it exits 0. */
static bool
python_runs(const char *json, const char *script, const char *redirect)
{
  const char *path = "build/test_mp_report.json";
  FILE *out = fopen(path, "wb");
  assert_non_null(out);
  fputs(json, out);
  fclose(out);
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 -c '%s' < %s%s", script, path, redirect);
  int status = system(cmd);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Does python3 run script on the JSON text without error? */
static bool
python_accepts(const char *json, const char *script)
{
  return python_runs(json, script, "");
}

/* True when script fails on the JSON text; Python's complaint hidden (for
 * documents meant to fail). */
static bool
python_refuses(const char *json, const char *script)
{
  return !python_runs(json, script, " 2>/dev/null");
}

static void
test_json(void **state)
{
  Fixture *f = *state;
  char *json = report(&f->plan, MP_FORMAT_JSON);
  assert_true(python_accepts(json, "import json,sys; json.load(sys.stdin)"));
  /* the figures, read back */
  assert_true(python_accepts(
      json, "import json,sys\n"
            "d = json.load(sys.stdin)\n"
            "assert d[\"align\"] == 64 and d[\"arena_bytes\"] == 6144\n"
            "assert d[\"weights_bytes\"] == 9640\n"
            "m, y = d[\"functions\"]\n"
            "assert m[\"name\"] == \"main\" and y[\"name\"] == \"dyn\"\n"
            "s = m[\"storages\"]\n"
            "assert [x[\"binding\"] for x in s] == [\"lv\", \"lv1\", \"storage2\"]\n"
            "assert [x[\"storage\"] for x in s] == [\"storage\", \"storage1\", \"storage2\"]\n"
            "assert [x[\"bytes\"] for x in s] == [4096, 2048, 1024]\n"
            "assert [x[\"offset\"] for x in s] == [0, 4096, 0]\n"
            "assert s[1][\"bytes_expr\"] == \"n * 128\" and s[0][\"bytes_expr\"] is None\n"
            "assert (s[1][\"start\"], s[1][\"end\"]) == (1, 2) and s[2][\"inplace\"]\n"
            "assert (m[\"arena_bytes\"], m[\"lower_bound\"]) == (6144, 6144)\n"
            "assert (m[\"naive_sum\"], m[\"pooled_bytes\"]) == (7168, 8192)\n"
            "assert m[\"arena_over_lower_bound\"] == 1.0 and m[\"naive_over_arena\"] == 1.17\n"
            "assert m[\"pooled_over_arena\"] == 1.33 and m[\"inplace_reuses\"] == 1\n"
            "assert m[\"checks\"][0][\"cond\"] == \"m <= 4\"\n"
            "assert m[\"checks\"][0][\"what\"].startswith(\"binding \\x27alloc\\x27\")\n"
            "assert y[\"arena_bytes\"] is None and y[\"arena_expr\"] == \"n * 64 + 320\"\n"
            "assert y[\"naive_over_arena\"] is None and y[\"checks\"] == []\n"
            "assert y[\"storages\"][2][\"offset\"] is None\n"
            "assert y[\"storages\"][2][\"offset_expr\"] == \"n * 64 + 64\"\n"
            "assert y[\"storages\"][1][\"bytes\"] is None\n"));
  /* a quote and a newline in a message stay valid JSON */
  f->check.what = "say \"no\"\n\\";
  char *odd = report(&f->plan, MP_FORMAT_JSON);
  assert_true(python_accepts(odd, "import json,sys\n"
                                  "d = json.load(sys.stdin)\n"
                                  "w = d[\"functions\"][0][\"checks\"][0][\"what\"]\n"
                                  "assert w == \"say \\\"no\\\"\\n\\\\\", w\n"));
  /* and a broken document is refused: the check can fail */
  assert_true(python_refuses("{\"a\": 1,}", "import json,sys; json.load(sys.stdin)"));
  free(odd);
  free(json);
}

/* ------------------------------------------------------------------ */
/* SVG                                                                 */
/* ------------------------------------------------------------------ */

/* A small well-formedness check: every tag closed in order, attribute
 * values quoted, one root element, no stray '<' or '&' in text.  On a
 * problem returns false and why says what. */
static bool
xml_well_formed(const char *s, const char **why)
{
  enum { DEPTH = 64 };
  const char *open[DEPTH];
  size_t len[DEPTH];
  int depth = 0, roots = 0;
  while (*s) {
    if (*s == '&') {
      if (strncmp(s, "&amp;", 5) && strncmp(s, "&lt;", 4) && strncmp(s, "&gt;", 4) &&
          strncmp(s, "&quot;", 6))
        return *why = "bad entity", false;
      s++;
      continue;
    }
    if (*s != '<') {
      s++;
      continue;
    }
    if (strncmp(s, "<?", 2) == 0 || strncmp(s, "<!--", 4) == 0) {
      const char *end = strstr(s, s[1] == '?' ? "?>" : "-->");
      if (!end)
        return *why = "unclosed declaration", false;
      s = end + 2;
      continue;
    }
    bool closing = s[1] == '/';
    const char *name = s + 1 + closing;
    size_t n = strcspn(name, " \t\n/>");
    if (n == 0)
      return *why = "empty tag name", false;
    const char *p = name + n;
    bool quoted = false;
    while (*p && (quoted || *p != '>')) {
      if (*p == '"')
        quoted = !quoted;
      else if (*p == '<' && !quoted)
        return *why = "'<' inside a tag", false;
      p++;
    }
    if (!*p)
      return *why = "unclosed tag", false;
    bool self_closing = p[-1] == '/';
    if (closing) {
      if (depth == 0 || len[depth - 1] != n || strncmp(open[depth - 1], name, n) != 0)
        return *why = "mismatched closing tag", false;
      depth--;
    } else if (!self_closing) {
      if (depth == 0)
        roots++;
      if (depth == DEPTH)
        return *why = "too deep", false;
      open[depth] = name;
      len[depth++] = n;
    } else if (depth == 0) {
      roots++;
    }
    s = p + 1;
  }
  if (depth != 0)
    return *why = "unclosed element", false;
  if (roots != 1)
    return *why = "not one root element", false;
  return true;
}

static int
count(const char *s, const char *what)
{
  int n = 0;
  for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
    n++;
  return n;
}

static void
test_xml_checker_rejects(void **state)
{
  (void)state;
  const char *why = NULL;
  assert_true(xml_well_formed("<?xml version=\"1.0\"?>\n<a><b x=\"1>2\"/>t&amp;</a>\n", &why));
  assert_false(xml_well_formed("<a><b></a></b>", &why));
  assert_false(xml_well_formed("<a><b></a>", &why));
  assert_false(xml_well_formed("<a/><b/>", &why));
  assert_false(xml_well_formed("<a>x & y</a>", &why));
}

static void
test_svg_bounded(void **state)
{
  Fixture *f = *state;
  MpPlan one = f->plan;
  one.nfuncs = 1; /* main only: every storage drawable */
  char *svg = report(&one, MP_FORMAT_SVG);
  const char *why = "";
  if (!xml_well_formed(svg, &why))
    printf("%s\n%s\n", why, svg);
  assert_true(xml_well_formed(svg, &why));
  assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
  assert_int_equal(count(svg, "<rect "), 3);
  /* storage2 over steps 2..3 (two of the four steps 0..3), bytes 0..1024
   * of 6144, in a plot 650 px wide from x = 90 and 260 px high above
   * y = 300: x = 90 + 2 * 162.5, y = 300 - 1024 * 260 / 6144 = 256.67 */
  assert_non_null(
      strstr(svg, "<rect x=\"415.0\" y=\"256.7\" width=\"325.0\" height=\"43.3\""));
  /* storage: steps 0..1, bytes 0..4096: y = 300 - 173.33 */
  assert_non_null(strstr(svg, "<rect x=\"90.0\" y=\"126.7\" width=\"325.0\" height=\"173.3\""));
  assert_non_null(strstr(svg, ">lv</text>")); /* named by the binding that produced it */
  assert_non_null(strstr(svg, ">lv1</text>"));
  assert_non_null(strstr(svg, ">steps</text>"));
  assert_non_null(strstr(svg, ">bytes</text>"));
  assert_non_null(strstr(svg, "stroke-dasharray"));
  assert_non_null(strstr(svg, ">lower bound 6144</text>"));
  char *again = report(&one, MP_FORMAT_SVG);
  assert_string_equal(svg, again); /* deterministic */
  free(again);
  free(svg);
}

static void
test_svg_symbolic(void **state)
{
  Fixture *f = *state;
  char *svg = report(&f->plan, MP_FORMAT_SVG);
  const char *why = "";
  assert_true(xml_well_formed(svg, &why));
  /* s1 (unbounded) and s2 (symbolic offset) cannot be drawn */
  assert_int_equal(count(svg, "<rect "), 4);
  assert_non_null(strstr(svg, "dyn: arena unbounded (computed at run time); 2 symbolic storages not drawn"));
  assert_non_null(strstr(svg, "height=\"700\""));
  free(svg);
}

/* Distinct vars that share a name are told apart as the printer does:
 * "storage", "storage_1", "storage_2" in binding order. */
static void
test_duplicate_names(void **state)
{
  Fixture *f = *state;
  IrLoc none = {0};
  for (int i = 1; i < 3; i++)
    f->main_st[i].var = ir_var_new(f->ctx, ir_sym(f->ctx, "storage"), NULL, false, none);
  f->main_st[1].tensor = ir_var_new(f->ctx, ir_sym(f->ctx, "lv"), NULL, false, none);
  f->plan.nfuncs = 1;
  char *text = report(&f->plan, MP_FORMAT_TEXT);
  assert_non_null(strstr(text, "\n  binding storage        bytes  live           offset\n"
                               "  lv      storage         4096  0..1                0\n"
                               "  lv_1    storage_1       2048  1..2             4096  bytes = n * 128\n"
                               "  storage storage_2       1024  2..3                0  in-place\n"));
  free(text);
  char *json = report(&f->plan, MP_FORMAT_JSON);
  assert_true(python_accepts(json, "import json,sys\n"
                                   "d = json.load(sys.stdin)\n"
                                   "s = d[\"functions\"][0][\"storages\"]\n"
                                   "b = [x[\"storage\"] for x in s]\n"
                                   "assert b == [\"storage\", \"storage_1\", \"storage_2\"], b\n"
                                   "b = [x[\"binding\"] for x in s]\n"
                                   "assert b == [\"lv\", \"lv_1\", \"storage\"], b\n"));
  free(json);
  char *svg = report(&f->plan, MP_FORMAT_SVG);
  assert_non_null(strstr(svg, "<title>storage (storage_2): 1024 bytes at offset 0, steps 2..3, in place</title>"));
  free(svg);
}

/* ------------------------------------------------------------------ */
/* rxc plan                                                            */
/* ------------------------------------------------------------------ */

static const char *
rxc(void)
{
  const char *p = getenv("RXC");
  return p && *p ? p : "build/rxc";
}

/* Runs `rxc args`; returns the exit status, stdout and stderr. */
static int
run(const char *args, char **out, char **err)
{
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "%s %s >build/plan-cli.out 2>build/plan-cli.err </dev/null", rxc(),
           args);
  int status = system(cmd);
  *out = tu_read_file("build/plan-cli.out");
  *err = tu_read_file("build/plan-cli.err");
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
test_cli_help_and_usage(void **state)
{
  (void)state;
  expect("plan --help", 0, "usage: rxc plan FILE", NULL);
  expect("plan --help", 0, "--format json", NULL);
  expect("--help", 0, "plan FILE", NULL);
  expect("plan", 2, NULL, "plan needs a FILE");
  expect("plan samples/mlp.py --format xml", 2, NULL, "--format takes text, json, svg or csv");
  expect("plan samples/mlp.py --bogus", 2, NULL, "unknown option '--bogus'");
  expect("plan samples/mlp.py -o", 2, NULL, "-o needs a value");
  expect("plan samples/mlp.py samples/mlp.py", 2, NULL, "plan takes one FILE");
  expect("plan tests/cli/no_such_file.py", 1, NULL, "cannot open");
  expect("plan tests/cli/bad.py", 1, NULL, "tests/cli/bad.py:5:16: error:");
}

/* rxc plan --lifetimes: a bare problem in MiniMalloc's CSV; and a model's
 * problem written by --emit-lifetimes and read back. */
static void
test_cli_lifetimes(void **state)
{
  (void)state;
  /* [0,2) 4, [1,3) 4, [2,4) 4, [0,4) 2: at most 10 bytes live at once;
   * 0 and 2 share bytes, 1 and 3 stack above them */
  expect("plan --lifetimes tests/memplan/lifetimes_small.csv --format csv", 0,
         "id,lower,upper,size,offset\n0,0,2,4,0\n1,1,3,4,4\n2,2,4,4,0\n3,0,4,2,8\n", NULL);
  expect("plan --lifetimes tests/memplan/lifetimes_small.csv", 0, "arena        10 bytes", NULL);
  expect("plan --lifetimes tests/memplan/lifetimes_small.csv --format json --capacity 10", 0,
         "\"arena\": 10, \"lower_bound\": 10", NULL);
  expect("plan --lifetimes tests/memplan/lifetimes_small.csv --capacity 8", 0,
         "capacity     8 bytes: does NOT fit", NULL);
  expect("plan --lifetimes tests/memplan/lifetimes_bad.csv", 1, NULL,
         "tests/memplan/lifetimes_bad.csv:3:5: error: 'upper' must be an integer, not 'x'");
  expect("plan --lifetimes tests/memplan/no_such.csv", 1, NULL, "no_such.csv");
  expect("plan --lifetimes tests/memplan/lifetimes_small.csv --format svg", 2, NULL,
         "--lifetimes takes");
  expect("plan samples/mlp.py --capacity 8", 2, NULL, "--capacity goes with --lifetimes");
  char path[] = "/tmp/rxc_test_lifetimesXXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  char args[256];
  snprintf(args, sizeof args, "plan samples/mlp.py --emit-lifetimes %s", path);
  expect(args, 0, "function main", NULL);
  snprintf(args, sizeof args, "plan --lifetimes %s --format json", path);
  /* the model's arena and lower bound, as its own report gives them */
  expect(args, 0, "\"arena\": 109568, \"lower_bound\": 109568", NULL);
  expect("plan samples/mlp.py --format csv", 0, "id,lower,upper,size,alignment,offset\n", NULL);
  remove(path);
}

/* The figures of samples/mlp.py. */
static void
test_cli_plan_mlp(void **state)
{
  (void)state;
  char *out, *err;
  int status = run("plan samples/mlp.py", &out, &err);
  if (status != 0)
    printf("status %d\nstderr: %s\n", status, err);
  assert_int_equal(status, 0);
  static const char *figures[] = {"function main", "arena ", "lower bound ", "naive sum ",
                                  "pooled (TVM) ", "arena/lower bound ", "naive/arena "};
  for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
    assert_non_null(strstr(out, figures[i]));
  free(out);
  free(err);
  /* JSON and SVG into files; --fn selects one function */
  unlink("build/plan-mlp.json");
  expect("plan samples/mlp.py --format json -o build/plan-mlp.json --fn main", 0, NULL, NULL);
  char *json = tu_read_file("build/plan-mlp.json");
  assert_non_null(json);
  assert_true(python_accepts(json, "import json,sys\n"
                                   "d = json.load(sys.stdin)\n"
                                   "assert [f[\"name\"] for f in d[\"functions\"]] == [\"main\"]\n"));
  free(json);
  expect("plan samples/mlp.py --format svg -O1", 0, "<svg xmlns=", NULL);
  expect("plan samples/mlp.py --fn nothing_here", 1, NULL, "no planned function 'nothing_here'");
  /* TVM's rule for comparison: its arena is the pooled figure */
  expect("plan samples/mlp.py --algorithm pooled", 0, "arena              112704 bytes", NULL);
  expect("plan samples/mlp.py --algorithm fastest", 2, NULL, "bad value 'fastest'");
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_text, setup, teardown),
      cmocka_unit_test(test_text_no_function),
      cmocka_unit_test_setup_teardown(test_duplicate_names, setup, teardown),
      cmocka_unit_test_setup_teardown(test_json, setup, teardown),
      cmocka_unit_test(test_xml_checker_rejects),
      cmocka_unit_test_setup_teardown(test_svg_bounded, setup, teardown),
      cmocka_unit_test_setup_teardown(test_svg_symbolic, setup, teardown),
      cmocka_unit_test(test_cli_help_and_usage),
      cmocka_unit_test(test_cli_plan_mlp),
      cmocka_unit_test(test_cli_lifetimes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
