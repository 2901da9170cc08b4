/*
 * test_normalize.c - Normalize fills in struct info and rejects
 * contradicted annotations, without changing its input.
 *
 * Expectations are written by hand as printed struct info; each module is
 * small enough to check by eye.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../opt/opt.h"
#include "testutil.h"

static const IrBinding *find_in_seq(const IrExpr *seq, const char *name);

/* The binding of var `name` anywhere in f (if branches, local functions). */
static const IrBinding *
find_in_binding(const IrBinding *b, const char *name)
{
  if (b->var && b->var->u.var.name && strcmp(b->var->u.var.name, name) == 0)
    return b;
  const IrExpr *v = b->value;
  if (v && v->kind == IR_EX_IF) {
    const IrBinding *r = find_in_seq(v->u.branch.then_, name);
    return r ? r : find_in_seq(v->u.branch.else_, name);
  }
  if (v && v->kind == IR_EX_FUNC)
    return find_in_seq(v->u.func->body, name);
  return NULL;
}

static const IrBinding *
find_in_seq(const IrExpr *seq, const char *name)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++) {
      const IrBinding *r = find_in_binding(&seq->u.seq.blocks[i].bindings[j], name);
      if (r)
        return r;
    }
  return NULL;
}

static const IrBinding *
find_binding(const IrModule *m, const char *func, const char *name)
{
  const IrGlobal *g = NULL;
  for (int i = 0; i < m->nglobals; i++)
    if (strcmp(m->globals[i].name, func) == 0)
      g = &m->globals[i];
  assert_non_null(g);
  const IrBinding *b = find_in_seq(g->u.relax->body, name);
  assert_non_null(b);
  return b;
}

/* The struct info printed, compared with the expected text. */
static void
assert_sinfo(const IrSInfo *s, const char *expected)
{
  assert_non_null(s);
  IrBuf b = {0};
  ir_sinfo_print(s, &b);
  if (strcmp(b.data, expected) != 0)
    printf("got %s, expected %s\n", b.data, expected);
  assert_string_equal(b.data, expected);
  ir_buf_free(&b);
}

static IrModule *
parse(IrCtx *ctx, const char *text)
{
  IrModule *m = fe_parse_string(ctx, "test.py", text);
  if (!m || ir_error_count(ctx) > 0) {
    char *d = tu_diag_text(ctx);
    printf("%s", d);
    free(d);
  }
  assert_non_null(m);
  return m;
}

static const char calls_text[] =
    "@I.ir_module\n"
    "class Module:\n"
    "    @T.prim_func(private=True)\n"
    "    def two(A: T.Buffer((T.int64(3), T.int64(4)), \"float32\"), B: T.Buffer((T.int64(3), T.int64(4)), \"float32\"), C: T.Buffer((T.int64(2),), \"int32\")):\n"
    "        T.evaluate(0)\n"
    "\n"
    "    @R.function\n"
    "    def dup(x: R.Tensor((\"n\", 4), dtype=\"float32\")) -> R.Tensor((\"n * 2\", 4), dtype=\"float32\"):\n"
    "        n = T.int64()\n"
    "        y = R.concat((x, x), axis=0)\n"
    "        return y\n"
    "\n"
    "    @R.function\n"
    "    def half(x: R.Tensor((\"n * 2\",), dtype=\"float32\")) -> R.Tensor((\"n\",), dtype=\"float32\"):\n"
    "        n = T.int64()\n"
    "        cls = Module\n"
    "        y = R.call_tir(cls.two, (x,), out_sinfo=R.Tensor((n,), dtype=\"float32\"))\n"
    "        return y\n"
    "\n"
    "    @R.function\n"
    "    def main(a: R.Tensor((\"m\", 4), dtype=\"float32\"), b: R.Tensor((6,), dtype=\"float32\"), c: R.Tensor((), dtype=\"bool\")):\n"
    "        m = T.int64()\n"
    "        cls = Module\n"
    "        d = cls.dup(a)\n"
    "        h = cls.half(b)\n"
    "        t = (d, b)\n"
    "        g = t[1]\n"
    "        k = R.call_tir(cls.two, (a,), out_sinfo=[R.Tensor((m, 4), dtype=\"float32\"), R.Tensor((2,), dtype=\"int32\")])\n"
    "        if c:\n"
    "            u = d\n"
    "        else:\n"
    "            u = cls.dup(d)\n"
    "        if c:\n"
    "            v = b\n"
    "        else:\n"
    "            v = b\n"
    "\n"
    "        @R.function\n"
    "        def inner(p: R.Tensor((3, 4), dtype=\"float32\")):\n"
    "            q = cls.dup(p)\n"
    "            return q\n"
    "\n"
    "        r = inner(a)\n"
    "        return (d, h, g, k, u, v, r)\n";

/* Calls of module functions take the callee's return annotation with its
 * symbolic vars bound from the argument shapes (m -> m * 2); a var that
 * stands in no param dim alone (half's n) leaves the shape unknown. */
static void
test_module_function_calls(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse(ctx, calls_text);
  IrModule *n = opt_normalize(ctx, m);
  assert_non_null(n);
  assert_int_equal(ir_error_count(ctx), 0);
  assert_sinfo(find_binding(n, "main", "d")->var->sinfo, "R.Tensor((m * 2, 4), dtype=\"float32\")");
  assert_sinfo(find_binding(n, "main", "d")->value->sinfo, "R.Tensor((m * 2, 4), dtype=\"float32\")");
  assert_sinfo(find_binding(n, "main", "h")->var->sinfo, "R.Tensor(dtype=\"float32\", ndim=1)");
  /* inside a local function, with the local function's own shapes */
  assert_sinfo(find_binding(n, "main", "q")->var->sinfo, "R.Tensor((6, 4), dtype=\"float32\")");
  /* a call of a local function: its return annotation is unknown */
  assert_null(find_binding(n, "main", "r")->var->sinfo);
  ir_ctx_free(ctx);
}

/* Tuples, tuple-get, call_tir (out_sinfo, several outputs) and if. */
static void
test_tuple_call_tir_if(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *n = opt_normalize(ctx, parse(ctx, calls_text));
  assert_non_null(n);
  assert_sinfo(find_binding(n, "main", "t")->var->sinfo,
               "R.Tuple(R.Tensor((m * 2, 4), dtype=\"float32\"), R.Tensor((6,), dtype=\"float32\"))");
  assert_sinfo(find_binding(n, "main", "g")->var->sinfo, "R.Tensor((6,), dtype=\"float32\")");
  const IrBinding *k = find_binding(n, "main", "k");
  assert_sinfo(k->value->sinfo,
               "R.Tuple(R.Tensor((m, 4), dtype=\"float32\"), R.Tensor((2,), dtype=\"int32\"))");
  assert_sinfo(k->var->sinfo,
               "R.Tuple(R.Tensor((m, 4), dtype=\"float32\"), R.Tensor((2,), dtype=\"int32\"))");
  /* branches (m * 2, 4) and (m * 4, 4): the rank and dtype they share */
  assert_sinfo(find_binding(n, "main", "u")->var->sinfo, "R.Tensor(dtype=\"float32\", ndim=2)");
  /* equal branches: their struct info */
  assert_sinfo(find_binding(n, "main", "v")->var->sinfo, "R.Tensor((6,), dtype=\"float32\")");
  assert_int_equal(ir_module_check(ctx, n), 0);
  ir_ctx_free(ctx);
}

/* The input is unchanged (same hash), a second run changes nothing, and
 * the output prints and reads back equal. */
static void
test_pure_and_idempotent(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse(ctx, calls_text);
  uint64_t before = ir_module_hash(m);
  char *text_before = tu_print(m);
  IrModule *n1 = opt_normalize(ctx, m);
  assert_non_null(n1);
  assert_true(ir_module_hash(m) == before);
  char *text_after = tu_print(m);
  assert_string_equal(text_before, text_after);
  assert_false(ir_module_equal(m, n1, NULL)); /* d, h, t... got struct info */
  IrModule *n2 = opt_normalize(ctx, n1);
  IrBuf why = {0};
  assert_true(ir_module_equal(n1, n2, &why));
  assert_true(ir_module_hash(n1) == ir_module_hash(n2));
  char *text = tu_print(n1);
  IrModule *back = fe_parse_string(ctx, "printed.py", text);
  assert_non_null(back);
  assert_true(ir_module_equal(n1, back, &why));
  ir_buf_free(&why);
  free(text);
  free(text_before);
  free(text_after);
  ir_ctx_free(ctx);
}

/* An annotation that contradicts a call_tir's out_sinfo or a callee's
 * return annotation is an error naming the function and the binding. */
static void
test_contradicting_annotation(void **state)
{
  (void)state;
  static const char text[] =
      "@I.ir_module\n"
      "class Module:\n"
      "    @R.function\n"
      "    def helper(x: R.Tensor((\"n\",), dtype=\"float32\")) -> R.Tensor((\"n + 1\",), dtype=\"float32\"):\n"
      "        n = T.int64()\n"
      "        y = R.concat((x, R.const([0.0], \"float32\")), axis=0)\n"
      "        return y\n"
      "\n"
      "    @R.function\n"
      "    def main(x: R.Tensor((\"k\",), dtype=\"float32\")):\n"
      "        k = T.int64()\n"
      "        cls = Module\n"
      "        good: R.Tensor((k + 1,), dtype=\"float32\") = cls.helper(x)\n"
      "        loose: R.Tensor(ndim=1) = cls.helper(x)\n"
      "        bad: R.Tensor((k,), dtype=\"float32\") = cls.helper(x)\n"
      "        worse: R.Tensor((4,), dtype=\"int32\") = R.call_tir(cls.helper, (x,), out_sinfo=R.Tensor((4,), dtype=\"float32\"))\n"
      "        return x\n";
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse(ctx, text);
  assert_null(opt_normalize(ctx, m));
  assert_int_equal(ir_error_count(ctx), 2);
  const IrDiag *d0 = ir_diag_get(ctx, 0);
  assert_non_null(strstr(d0->msg, "in function 'main', binding 'bad'"));
  assert_non_null(strstr(d0->msg, "dim 0"));
  assert_int_equal(d0->loc.line, 15);
  const IrDiag *d1 = ir_diag_get(ctx, 1);
  assert_non_null(strstr(d1->msg, "in function 'main', binding 'worse'"));
  assert_non_null(strstr(d1->msg, "dtype int32 vs float32"));
  ir_ctx_free(ctx);
}

/* Op calls take their op's inference, with the enclosing function's
 * symbolic vars (broadcasting (n, 4) with (1, 4) gives (n, 4)); an op that
 * rejects its call is an error naming the binding. */
static void
test_op_inference(void **state)
{
  (void)state;
  static const char text[] =
      "@R.function\n"
      "def main(x: R.Tensor((\"n\", 4), dtype=\"float32\"), y: R.Tensor((1, 4), dtype=\"float32\")):\n"
      "    n = T.int64()\n"
      "    a = R.add(x, y)\n"
      "    b = R.less(a, x)\n"
      "    return b\n";
  IrCtx *ctx = ir_ctx_new();
  IrModule *n = opt_normalize(ctx, parse(ctx, text));
  assert_non_null(n);
  assert_sinfo(find_binding(n, "main", "a")->var->sinfo, "R.Tensor((n, 4), dtype=\"float32\")");
  assert_sinfo(find_binding(n, "main", "a")->value->sinfo, "R.Tensor((n, 4), dtype=\"float32\")");
  assert_sinfo(find_binding(n, "main", "b")->var->sinfo, "R.Tensor((n, 4), dtype=\"bool\")");
  static const char bad[] =
      "@R.function\n"
      "def main(x: R.Tensor((\"n\", 4), dtype=\"float32\"), z: R.Tensor((3,), dtype=\"float32\")):\n"
      "    n = T.int64()\n"
      "    c = R.add(x, z)\n"
      "    return c\n";
  assert_null(opt_normalize(ctx, parse(ctx, bad)));
  assert_int_equal(ir_error_count(ctx), 1);
  assert_non_null(strstr(ir_diag_get(ctx, 0)->msg, "in binding 'c': R.add"));
  assert_int_equal(ir_diag_get(ctx, 0)->loc.line, 4);
  ir_ctx_free(ctx);
}

/* rxc check runs Normalize: the contradiction above is reported by check. */
static void
test_check_reports(void **state)
{
  (void)state;
  const char *rxc = getenv("RXC");
  if (!rxc)
    rxc = "build/rxc";
  const char *path = "build/test_normalize_bad.py";
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("@I.ir_module\n"
        "class Module:\n"
        "    @R.function\n"
        "    def helper(x: R.Tensor((4,), dtype=\"float32\")) -> R.Tensor((4,), dtype=\"float32\"):\n"
        "        return x\n"
        "\n"
        "    @R.function\n"
        "    def main(x: R.Tensor((4,), dtype=\"float32\")):\n"
        "        cls = Module\n"
        "        y: R.Tensor((5,), dtype=\"float32\") = cls.helper(x)\n"
        "        return y\n",
        f);
  fclose(f);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "%s check %s 2>&1", rxc, path);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  IrBuf out = {0};
  char chunk[512];
  size_t len;
  while ((len = fread(chunk, 1, sizeof chunk, p)) > 0)
    ir_buf_put(&out, chunk, len);
  int status = pclose(p);
  assert_int_not_equal(status, 0);
  assert_non_null(out.data);
  assert_non_null(strstr(out.data, "binding 'y'"));
  ir_buf_free(&out);
  remove(path);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_module_function_calls),
      cmocka_unit_test(test_tuple_call_tir_if),
      cmocka_unit_test(test_pure_and_idempotent),
      cmocka_unit_test(test_contradicting_annotation),
      cmocka_unit_test(test_op_inference),
      cmocka_unit_test(test_check_reports),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
