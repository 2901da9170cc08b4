/*
 * test_pass_small.c - BindParams, CanonicalizeBindings, DeadCodeElimination,
 * ToNonDataflow and RemovePurityChecking.
 *
 * Expectations: tests/passes/small_*.py, each run through the pass its
 * table entry names and compared structurally with NAME.expected.py (each
 * read line by line against the rules in the module's header comment).
 * Properties, for every module and every one of the five passes: the
 * input's hash does not change, the output is well-formed, a second run
 * gives an equal module, and the interpreter gives the same results (and
 * the same R.print output) before and after on random inputs.  BindParams
 * compares main with the weights given against main with them bound.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <unistd.h>

#include "../../interp/interp.h"
#include "../../opt/opt.h"
#include "testutil.h"

typedef IrModule *(*PassFn)(const OptContext *oc, const IrModule *m);

static const struct {
  const char *name;
  PassFn run;
} small_passes[] = {
    {"BindParams", opt_bind_params},
    {"CanonicalizeBindings", opt_canonicalize_bindings},
    {"DeadCodeElimination", opt_dead_code_elimination},
    {"ToNonDataflow", opt_to_non_dataflow},
    {"RemovePurityChecking", opt_remove_purity_checking},
};
enum { NPASSES = (int)(sizeof small_passes / sizeof small_passes[0]) };

static void
print_diags(IrCtx *ctx, const char *what)
{
  if (ir_error_count(ctx) == 0)
    return;
  char *d = tu_diag_text(ctx);
  printf("%s:\n%s", what, d);
  free(d);
}

static IrModule *
parse(IrCtx *ctx, const char *path)
{
  IrModule *m = fe_parse_file(ctx, path);
  print_diags(ctx, path);
  assert_non_null(m);
  return m;
}

/* --- the weights of small_bind_weights.py ------------------------------------ */

/* w: (8, 4) float32 = i / 10, b: (4,) float32 = 1, and, when extra, an
 * entry "extra" no param takes; or, when bad, w of shape (8, 5) and b of
 * dtype int32.  Written to a temporary .npz whose path goes to path. */
static void
write_weights(IrCtx *ctx, char *path, bool extra, bool bad)
{
  static int64_t w_shape[2] = {8, 4}, w_bad_shape[2] = {8, 5}, b_shape[1] = {4}, e_shape[1] = {2};
  FeNpzEntry e[3];
  memset(e, 0, sizeof e);
  e[0].name = ir_sym(ctx, "w");
  e[0].t = (IrTensorData){IR_F32, 2, bad ? w_bad_shape : w_shape, NULL, 0};
  e[1].name = ir_sym(ctx, "b");
  e[1].t = (IrTensorData){bad ? IR_I32 : IR_F32, 1, b_shape, NULL, 0};
  e[2].name = ir_sym(ctx, "extra");
  e[2].t = (IrTensorData){IR_F32, 1, e_shape, NULL, 0};
  for (int k = 0; k < 3; k++) {
    int64_t n = 1;
    for (int d = 0; d < e[k].t.ndim; d++)
      n *= e[k].t.shape[d];
    e[k].t.nbytes = (size_t)n * 4;
    e[k].t.data = ir_alloc(ctx, e[k].t.nbytes);
    for (int64_t i = 0; i < n; i++)
      if (k == 0)
        op_set_f(&e[k].t, i, (float)i / 10.0f);
      else
        op_set_f(&e[k].t, i, k == 1 ? 1.0 : 0.0);
  }
  IrBuf buf = {0};
  assert_true(fe_npz_encode(e, extra ? 3 : 2, &buf));
  strcpy(path, "/tmp/rxc_small_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, buf.data, buf.len), (ssize_t)buf.len);
  close(fd);
  ir_buf_free(&buf);
}

/* --- expectations ------------------------------------------------------------ */

/* BindParams' weights from the .npz at path, as the road reads them. */
static const OptWeights *
read_weights(IrCtx *ctx, const char *path)
{
  OptWeights *w = ir_alloc(ctx, sizeof *w);
  FeNpzEntry *entries = NULL;
  w->n = fe_npz_read(ctx, path, &entries);
  assert_true(w->n >= 0);
  w->tensors = entries;
  w->label = path;
  return w;
}

static const struct {
  const char *name; /* tests/passes/NAME.py and NAME.expected.py */
  PassFn run;
  bool weights; /* BindParams with the weights of write_weights */
} cases[] = {
    {"small_dce_impure", opt_dead_code_elimination, false},
    {"small_dce_chain", opt_dead_code_elimination, false},
    {"small_dce_checks_data", opt_dead_code_elimination, false},
    {"small_dce_concat_unknown", opt_dead_code_elimination, false},
    {"small_canon_dataflow", opt_canonicalize_bindings, false},
    {"small_nondf_vars", opt_to_non_dataflow, false},
    {"small_purity_packed", opt_remove_purity_checking, false},
    {"small_bind_weights", opt_bind_params, true},
};

static void
test_expected(void **state)
{
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    IrCtx *ctx = ir_ctx_new();
    char in_path[256], want_path[256], npz[64] = "";
    snprintf(in_path, sizeof in_path, "tests/passes/%s.py", cases[i].name);
    snprintf(want_path, sizeof want_path, "tests/passes/%s.expected.py", cases[i].name);
    if (cases[i].weights)
      write_weights(ctx, npz, false, false);
    OptContext oc = {.ctx = ctx, .weights = npz[0] ? read_weights(ctx, npz) : NULL};
    IrModule *out = cases[i].run(&oc, parse(ctx, in_path));
    print_diags(ctx, in_path);
    assert_non_null(out);
    IrBuf why = {0};
    bool equal = ir_module_equal(out, parse(ctx, want_path), &why);
    if (!equal) {
      char *text = tu_print(out);
      printf("%s: differs from the expectation: %s\n%s", in_path, why.data ? why.data : "?", text);
      free(text);
    }
    assert_true(equal);
    ir_buf_free(&why);
    if (npz[0])
      unlink(npz);
    ir_ctx_free(ctx);
  }
}

/* --- the interpreter before and after ---------------------------------------- */

/* A random argument for a parameter: every symbolic or unknown dim is 3, tensors in
 * [-2, 2], a bool scalar alternating with the trial. */
static Value *
random_arg(IrCtx *ctx, const IrSInfo *s, unsigned *seed, int trial)
{
  assert_int_equal(s->kind, IR_SI_TENSOR);
  int64_t dims[8];
  for (int k = 0; k < s->u.tensor.ndim; k++)
    if (!s->u.tensor.shape || !ir_prim_is_int(s->u.tensor.shape[k], &dims[k]))
      dims[k] = 3;
  Value *v = op_tensor_new(ctx, s->u.tensor.dtype, s->u.tensor.ndim, dims, (IrLoc){0});
  IrTensorData *t = &v->u.tensor.t;
  for (int64_t i = 0; i < op_numel(t); i++) {
    *seed = *seed * 1103515245u + 12345u;
    double r = (double)((*seed >> 8) % 10000) / 2500.0 - 2.0;
    op_set_f(t, i, t->dtype.code == IR_DT_BOOL ? (t->ndim == 0 ? trial % 2 : r > 0) : r);
  }
  return v;
}

static bool
values_agree(const Value *a, const Value *b)
{
  if (!a || !b || a->kind != b->kind)
    return false;
  if (a->kind == VAL_TUPLE) {
    if (a->u.tuple.n != b->u.tuple.n)
      return false;
    for (int i = 0; i < a->u.tuple.n; i++)
      if (!values_agree(a->u.tuple.items[i], b->u.tuple.items[i]))
        return false;
    return true;
  }
  if (a->kind != VAL_TENSOR)
    return false;
  const IrTensorData *x = &a->u.tensor.t, *y = &b->u.tensor.t;
  if (!ir_dtype_eq(x->dtype, y->dtype) || op_numel(x) != op_numel(y))
    return false;
  for (int64_t i = 0; i < op_numel(x); i++) {
    double p = op_get_f(x, i), q = op_get_f(y, i);
    if (!(isnan(p) && isnan(q)) && p != q) {
      printf("element %lld: %.9g before, %.9g after\n", (long long)i, p, q);
      return false;
    }
  }
  return true;
}

/* main of m called with args; the result, and what R.print wrote in
 * *printed (malloc'd).  NULL when the interpreter cannot run it. */
static Value *
run_main(IrCtx *ctx, const IrModule *m, Value **args, int n, char **printed)
{
  size_t len = 0;
  FILE *out = open_memstream(printed, &len);
  Value *v = interp_call(interp_new(ctx, m, out), "main", args, n);
  fclose(out);
  return v;
}

/* Same results and prints before and after on four random inputs; false
 * when the interpreter cannot run the input (an extern call). */
static bool
check_interp(IrCtx *ctx, const IrModule *before, const IrModule *after, const char *what)
{
  const IrGlobal *g = ir_module_find(before, ir_sym(ctx, "main"));
  if (!g || g->kind != IR_GLOBAL_RELAX)
    return false;
  const IrFunction *f = g->u.relax;
  unsigned seed = 2024;
  for (int trial = 0; trial < 4; trial++) {
    Value *args[8];
    assert_true(f->nparams <= 8);
    for (int i = 0; i < f->nparams; i++)
      args[i] = random_arg(ctx, f->params[i]->sinfo, &seed, trial);
    char *p0 = NULL, *p1 = NULL;
    int errors = ir_error_count(ctx);
    Value *v0 = run_main(ctx, before, args, f->nparams, &p0);
    if (!v0) {
      free(p0);
      ir_diag_clear(ctx);
      assert_true(errors == 0);
      return false;
    }
    Value *v1 = run_main(ctx, after, args, f->nparams, &p1);
    print_diags(ctx, what);
    bool agree = values_agree(v0, v1) && strcmp(p0, p1) == 0;
    if (!agree)
      printf("%s: trial %d differs (printed \"%s\" vs \"%s\")\n", what, trial, p0, p1);
    assert_true(agree);
    free(p0);
    free(p1);
  }
  return true;
}

/* --- properties of every module under every pass ----------------------------- */

static bool
is_expectation(const char *path)
{
  size_t n = strlen(path);
  return n > 12 && strcmp(path + n - 12, ".expected.py") == 0;
}

/* Runs one pass on one module and checks the properties; whether the
 * interpreter compared outputs. */
static bool
check_properties(const char *path, int p)
{
  IrCtx *ctx = ir_ctx_new();
  char what[300];
  snprintf(what, sizeof what, "%s under %s", path, small_passes[p].name);
  IrModule *m = parse(ctx, path);
  assert_int_equal(ir_module_check(ctx, m), 0);
  uint64_t hash = ir_module_hash(m);
  OptContext oc = {.ctx = ctx};
  IrModule *once = small_passes[p].run(&oc, m);
  print_diags(ctx, what);
  assert_non_null(once);
  assert_true(ir_module_hash(m) == hash);
  assert_int_equal(ir_module_check(ctx, once), 0);
  print_diags(ctx, what);
  uint64_t once_hash = ir_module_hash(once);
  IrModule *twice = small_passes[p].run(&oc, once);
  assert_non_null(twice);
  IrBuf why = {0};
  bool same = ir_module_equal(once, twice, &why);
  if (!same)
    printf("%s: a second run differs: %s\n", what, why.data ? why.data : "?");
  assert_true(same);
  assert_true(ir_module_hash(once) == once_hash);
  ir_buf_free(&why);
  bool ran = check_interp(ctx, m, once, what);
  ir_ctx_free(ctx);
  return ran;
}

static void
test_properties(void **state)
{
  (void)state;
  int n, compared = 0, modules = 0;
  char **paths = tu_list_py("tests/passes", &n);
  for (int i = 0; i < n; i++) {
    if (strncmp(paths[i], "tests/passes/small_", 19) != 0 || is_expectation(paths[i]))
      continue;
    modules++;
    for (int p = 0; p < NPASSES; p++)
      compared += check_properties(paths[i], p);
  }
  tu_free_list(paths, n);
  assert_true(modules >= 6);
  assert_true(compared >= 4 * NPASSES); /* all but the modules with extern calls */
}

/* --- BindParams ----------------------------------------------------------------- */

/* main(x, w, b) with the weights given equals main(x) with them bound; the
 * properties hold with the weights too. */
static void
test_bind_interp(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  char npz[64];
  write_weights(ctx, npz, false, false);
  FeNpzEntry *entries = NULL;
  assert_int_equal(fe_npz_read(ctx, npz, &entries), 2);
  IrModule *m = parse(ctx, "tests/passes/small_bind_weights.py");
  uint64_t hash = ir_module_hash(m);
  OptContext oc = {.ctx = ctx, .weights = read_weights(ctx, npz)};
  IrModule *out = opt_bind_params(&oc, m);
  assert_non_null(out);
  assert_true(ir_module_hash(m) == hash);
  assert_int_equal(ir_module_check(ctx, out), 0);
  assert_true(ir_module_equal(out, opt_bind_params(&oc, out), NULL));
  assert_int_equal(ir_module_find(out, ir_sym(ctx, "main"))->u.relax->nparams, 1);
  unsigned seed = 7;
  for (int trial = 0; trial < 3; trial++) {
    int64_t shape[2] = {trial + 1, 8};
    Value *x = op_tensor_new(ctx, IR_F32, 2, shape, (IrLoc){0});
    for (int64_t i = 0; i < op_numel(&x->u.tensor.t); i++) {
      seed = seed * 1103515245u + 12345u;
      op_set_f(&x->u.tensor.t, i, (double)((seed >> 8) % 1000) / 250.0 - 2.0);
    }
    Value *given[3] = {x, op_tensor_from_data(ctx, &entries[0].t),
                       op_tensor_from_data(ctx, &entries[1].t)};
    char *p0 = NULL, *p1 = NULL;
    Value *v0 = run_main(ctx, m, given, 3, &p0);
    Value *v1 = run_main(ctx, out, given, 1, &p1);
    print_diags(ctx, "bind");
    assert_true(values_agree(v0, v1));
    free(p0);
    free(p1);
  }
  unlink(npz);
  ir_ctx_free(ctx);
}

/* A wrong shape and a wrong dtype are errors naming the param, its
 * annotation and the data; an entry no param takes is a warning. */
static void
test_bind_errors(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  char npz[64];
  write_weights(ctx, npz, false, true);
  IrModule *m = parse(ctx, "tests/passes/small_bind_weights.py");
  OptContext oc = {.ctx = ctx, .weights = read_weights(ctx, npz)};
  assert_null(opt_bind_params(&oc, m));
  assert_int_equal(ir_error_count(ctx), 2);
  char *text = tu_diag_text(ctx);
  assert_non_null(
      strstr(text, "parameter 'w' of main is annotated R.Tensor((n, 4), dtype=\"float32\""));
  assert_non_null(strstr(text, "has shape (8, 5) and dtype float32"));
  assert_non_null(strstr(text, "parameter 'b' of main"));
  assert_non_null(strstr(text, "dtype int32"));
  free(text);
  unlink(npz);
  ir_diag_clear(ctx);

  write_weights(ctx, npz, true, false);
  oc.weights = read_weights(ctx, npz);
  IrModule *out = opt_bind_params(&oc, m);
  assert_non_null(out);
  assert_int_equal(ir_error_count(ctx), 0);
  assert_int_equal(ir_diag_count(ctx), 1);
  assert_int_equal(ir_diag_get(ctx, 0)->level, IR_DIAG_WARNING);
  assert_non_null(strstr(ir_diag_get(ctx, 0)->msg, "'extra'"));
  unlink(npz);

  OptContext none = {.ctx = ctx};
  assert_true(ir_module_equal(opt_bind_params(&none, m), m, NULL));
  ir_ctx_free(ctx);
}

/* --- ToNonDataflow and RemovePurityChecking -------------------------------------- */

static int
count_dataflow(const IrExpr *seq, int *vars)
{
  int blocks = 0;
  for (int i = 0; i < seq->u.seq.nblocks; i++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[i];
    blocks += blk->dataflow;
    for (int j = 0; j < blk->n; j++) {
      const IrBinding *b = &blk->bindings[j];
      *vars += b->var && b->var->u.var.dataflow;
      if (b->value->kind == IR_EX_FUNC)
        blocks += count_dataflow(b->value->u.func->body, vars);
      if (b->value->kind == IR_EX_IF)
        blocks += count_dataflow(b->value->u.branch.then_, vars) +
                  count_dataflow(b->value->u.branch.else_, vars);
    }
  }
  return blocks;
}

/* The DataflowVars are new Var nodes; the input keeps its own. */
static void
test_non_dataflow_vars(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse(ctx, "tests/passes/small_nondf_vars.py");
  OptContext oc = {.ctx = ctx};
  IrModule *out = opt_to_non_dataflow(&oc, m);
  assert_non_null(out);
  const IrExpr *in_body = ir_module_find(m, ir_sym(ctx, "main"))->u.relax->body;
  const IrExpr *out_body = ir_module_find(out, ir_sym(ctx, "main"))->u.relax->body;
  int vars = 0;
  assert_int_equal(count_dataflow(in_body, &vars), 3);
  assert_int_equal(vars, 4); /* lv0, lv1, z, lv2 */
  vars = 0;
  assert_int_equal(count_dataflow(out_body, &vars), 0);
  assert_int_equal(vars, 0);
  const IrBinding *lv0_in = &in_body->u.seq.blocks[0].bindings[0];
  const IrBinding *lv0_out = &out_body->u.seq.blocks[0].bindings[0];
  assert_ptr_not_equal(lv0_in->var, lv0_out->var);
  assert_true(lv0_in->var->u.var.dataflow);
  assert_string_equal(lv0_out->var->u.var.name, "lv0");
  /* lv1 = R.multiply(lv0, x) uses the new lv0 */
  const IrExpr *lv1 = out_body->u.seq.blocks[0].bindings[1].value;
  assert_ptr_equal(lv1->u.call.args[0], lv0_out->var);
  ir_ctx_free(ctx);
}

static int
count_pure_packed(const IrExpr *seq)
{
  int n = 0;
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++) {
      const IrExpr *v = seq->u.seq.blocks[i].bindings[j].value;
      if (v->kind == IR_EX_CALL && v->u.call.kind == IR_CALL_OP)
        n += v->u.call.op->id == IR_OP_CALL_PURE_PACKED;
      if (v->kind == IR_EX_FUNC)
        n += count_pure_packed(v->u.func->body);
    }
  return n;
}

/* After ToNonDataflow no call_pure_packed is left: the one from the
 * dataflow block is an extern call with the same struct info. */
static void
test_purity_after_non_dataflow(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse(ctx, "tests/passes/small_purity_packed.py");
  OptContext oc = {.ctx = ctx};
  IrModule *out = opt_remove_purity_checking(&oc, opt_to_non_dataflow(&oc, m));
  assert_non_null(out);
  assert_int_equal(ir_module_check(ctx, out), 0);
  const IrFunction *f = ir_module_find(out, ir_sym(ctx, "main"))->u.relax;
  assert_int_equal(count_pure_packed(ir_module_find(m, ir_sym(ctx, "main"))->u.relax->body), 3);
  assert_int_equal(count_pure_packed(f->body), 0);
  const IrExpr *lv = f->body->u.seq.blocks[0].bindings[0].value;
  assert_int_equal(lv->u.call.kind, IR_CALL_EXTERN);
  assert_string_equal(lv->u.call.callee->u.global, "ext_exp");
  assert_int_equal(lv->u.call.nargs, 1);
  assert_int_equal(lv->u.call.nsinfo_args, 1);
  const IrAttr *a = ir_attr_get(f->attrs, "relax.force_pure");
  assert_non_null(a);
  assert_true(a->kind == IR_AT_BOOL && a->u.b);
  assert_null(
      ir_attr_get(ir_module_find(out, ir_sym(ctx, "side"))->u.relax->attrs, "relax.force_pure"));
  ir_ctx_free(ctx);
}

/* --- DeadCodeElimination ------------------------------------------------------------- */

/* Without a public function every function stays; a private main stays. */
static void
test_dce_entries(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_parse_string(ctx, "private.py",
                                "@I.ir_module\n"
                                "class Module:\n"
                                "    @R.function(private=True)\n"
                                "    def f(x: R.Tensor((2,), dtype=\"float32\")):\n"
                                "        return x\n"
                                "    @R.function(private=True)\n"
                                "    def g(x: R.Tensor((2,), dtype=\"float32\")):\n"
                                "        return x\n");
  assert_non_null(m);
  OptContext oc = {.ctx = ctx};
  assert_int_equal(opt_dead_code_elimination(&oc, m)->nglobals, 2);
  IrModule *m2 = fe_parse_string(ctx, "private_main.py",
                                 "@I.ir_module\n"
                                 "class Module:\n"
                                 "    @R.function(private=True)\n"
                                 "    def main(x: R.Tensor((2,), dtype=\"float32\")):\n"
                                 "        return x\n"
                                 "    @R.function(private=True)\n"
                                 "    def g(x: R.Tensor((2,), dtype=\"float32\")):\n"
                                 "        return x\n");
  assert_non_null(m2);
  IrModule *out = opt_dead_code_elimination(&oc, m2);
  assert_int_equal(out->nglobals, 1);
  assert_string_equal(out->globals[0].name, "main");
  ir_ctx_free(ctx);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_expected),          cmocka_unit_test(test_properties),
      cmocka_unit_test(test_bind_interp),       cmocka_unit_test(test_bind_errors),
      cmocka_unit_test(test_non_dataflow_vars), cmocka_unit_test(test_purity_after_non_dataflow),
      cmocka_unit_test(test_dce_entries),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
