/*
 * test_pass_mem.c - FoldConstant, CallTIRRewrite and KillAfterLastUse.
 *
 * Every module tests/passes/mem_NAME.py names its passes on its first line
 * ("# passes: A,B"); each pass in turn must leave its input's hash as it
 * was, give a well-formed module whose kills name vars (never constants,
 * never inside a dataflow block), give the same result when run again on
 * its output (the three passes are idempotent), and give the same outputs
 * in the interpreter on random inputs.  The final module must equal
 * mem_NAME.expected.py, checked by hand (see each file's header comment).
 * Further cases are inline below.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../interp/interp.h"
#include "../../opt/opt.h"
#include "testutil.h"

static void
print_diags(IrCtx *ctx)
{
  if (ir_error_count(ctx) == 0)
    return;
  char *d = tu_diag_text(ctx);
  printf("%s", d);
  free(d);
}

static IrModule *
parse_text(IrCtx *ctx, const char *name, const char *text)
{
  IrModule *m = fe_parse_string(ctx, name, text);
  print_diags(ctx);
  assert_non_null(m);
  assert_int_equal(ir_error_count(ctx), 0);
  return m;
}

static IrModule *
parse_file(IrCtx *ctx, const char *path)
{
  char *text = tu_read_file(path);
  assert_non_null(text);
  IrModule *m = parse_text(ctx, path, text);
  free(text);
  return m;
}

/* --- kills ------------------------------------------------------------------------ */

typedef struct {
  IrVec constants; /* vars bound to R.const */
  int kills;
  bool strict;     /* assert that every kill is legal */
} KillScan;

static bool
is_kill(const IrExpr *e)
{
  if (!e || e->kind != IR_EX_CALL || e->u.call.kind != IR_CALL_OP)
    return false;
  IrOpId id = e->u.call.op->id;
  return id == IR_OP_MEMORY_KILL_TENSOR || id == IR_OP_MEMORY_KILL_STORAGE ||
         id == IR_OP_VM_KILL_OBJECT;
}

static void scan_kills(KillScan *ks, const IrExpr *seq);

static void
scan_kill_binding(KillScan *ks, const IrBinding *b, bool dataflow)
{
  const IrExpr *v = b->value;
  if (v->kind == IR_EX_CONST)
    ir_vec_push(&ks->constants, b->var);
  if (v->kind == IR_EX_IF) {
    scan_kills(ks, v->u.branch.then_);
    scan_kills(ks, v->u.branch.else_);
  }
  if (v->kind == IR_EX_FUNC)
    scan_kills(ks, v->u.func->body);
  if (!is_kill(v))
    return;
  ks->kills++;
  if (!ks->strict)
    return;
  assert_false(dataflow); /* TVM #17340: a kill inside a dataflow block */
  assert_int_equal(v->u.call.nargs, 1);
  assert_int_equal(v->u.call.args[0]->kind, IR_EX_VAR);
  for (int i = 0; i < ks->constants.len; i++)
    assert_ptr_not_equal(ks->constants.items[i], v->u.call.args[0]);
}

static void
scan_kills(KillScan *ks, const IrExpr *seq)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++)
      scan_kill_binding(ks, &seq->u.seq.blocks[i].bindings[j], seq->u.seq.blocks[i].dataflow);
}

/* Checks every kill of m (when strict); returns how many there are. */
static int
scan_module_kills(const IrModule *m, bool strict)
{
  KillScan ks = {{0}, 0, strict};
  for (int i = 0; i < m->nglobals; i++)
    if (m->globals[i].kind == IR_GLOBAL_RELAX)
      scan_kills(&ks, m->globals[i].u.relax->body);
  ir_vec_free(&ks.constants);
  return ks.kills;
}

static int
check_kills(const IrModule *m)
{
  return scan_module_kills(m, true);
}

/* --- interpreter: same outputs before and after ------------------------------------------- */

/* A random tensor for a parameter, symbolic dims bound to dim: floats in
 * [-2, 2), ints in [-3, 3], bools 0/1. */
static Value *
random_arg(IrCtx *ctx, const IrSInfo *s, unsigned *seed, int64_t dim)
{
  assert_int_equal(s->kind, IR_SI_TENSOR);
  int64_t dims[8];
  assert_true(s->u.tensor.ndim >= 0 && s->u.tensor.ndim <= 8);
  for (int k = 0; k < s->u.tensor.ndim; k++)
    if (!ir_prim_is_int(s->u.tensor.shape[k], &dims[k]))
      dims[k] = dim;
  Value *v = op_tensor_new(ctx, s->u.tensor.dtype, s->u.tensor.ndim, dims, (IrLoc){0});
  IrTensorData *t = &v->u.tensor.t;
  for (int64_t i = 0; i < op_numel(t); i++) {
    *seed = *seed * 1103515245u + 12345u;
    unsigned r = (*seed >> 8) % 10000;
    if (t->dtype.code == IR_DT_FLOAT)
      op_set_f(t, i, (double)r / 2500.0 - 2.0);
    else
      op_set_i(t, i, t->dtype.code == IR_DT_BOOL ? r % 2 : (int64_t)(r % 7) - 3);
  }
  return v;
}

static bool
agree(const Value *a, const Value *b)
{
  if (a->kind != b->kind)
    return false;
  if (a->kind == VAL_TUPLE) {
    if (a->u.tuple.n != b->u.tuple.n)
      return false;
    for (int i = 0; i < a->u.tuple.n; i++)
      if (!agree(a->u.tuple.items[i], b->u.tuple.items[i]))
        return false;
    return true;
  }
  const IrTensorData *x = &a->u.tensor.t, *y = &b->u.tensor.t;
  if (a->kind != VAL_TENSOR || x->ndim != y->ndim || !ir_dtype_eq(x->dtype, y->dtype))
    return false;
  for (int k = 0; k < x->ndim; k++)
    if (x->shape[k] != y->shape[k])
      return false;
  for (int64_t i = 0; i < op_numel(x); i++)
    if (fabs(op_get_f(x, i) - op_get_f(y, i)) > 1e-6 + 1e-5 * fabs(op_get_f(y, i)))
      return false;
  return true;
}

/* main of before and after on four random inputs (both branches of an if
 * on a random bool are taken with high probability). */
static void
check_same_outputs(IrCtx *ctx, const IrModule *before, const IrModule *after)
{
  const IrGlobal *g = ir_module_find(before, ir_sym(ctx, "main"));
  assert_non_null(g);
  const IrFunction *f = g->u.relax;
  unsigned seed = 77;
  for (int trial = 0; trial < 4; trial++) {
    Value *args[8];
    assert_true(f->nparams <= 8);
    for (int i = 0; i < f->nparams; i++)
      args[i] = random_arg(ctx, f->params[i]->sinfo, &seed, 2 + trial);
    Value *x = interp_call(interp_new(ctx, before, NULL), "main", args, f->nparams);
    Value *y = interp_call(interp_new(ctx, after, NULL), "main", args, f->nparams);
    print_diags(ctx);
    assert_non_null(x);
    assert_non_null(y);
    assert_true(agree(y, x));
  }
}

/* --- one pass, every property --------------------------------------------------------------- */

static IrModule *
run_checked(IrCtx *ctx, const char *name, const IrModule *in)
{
  const OptPass *p = opt_pass_find(name);
  assert_non_null(p);
  OptContext oc = {.ctx = ctx};
  uint64_t hash = ir_module_hash(in);
  IrModule *out = p->run(&oc, in);
  print_diags(ctx);
  assert_non_null(out);
  assert_int_equal(ir_module_hash(in), hash); /* the input is never changed */
  assert_int_equal(ir_module_check(ctx, out), 0);
  print_diags(ctx);
  check_kills(out);
  IrModule *again = p->run(&oc, out);
  assert_non_null(again);
  IrBuf why = {0};
  if (p->idempotent && !ir_module_equal(again, out, &why))
    fail_msg("%s twice differs from once: %s", name, why.data);
  ir_buf_free(&why);
  check_same_outputs(ctx, in, out);
  return out;
}

/* Runs the passes named on path's first line and compares the result
 * with path's .expected.py. */
static void
check_module_file(const char *path)
{
  IrCtx *ctx = ir_ctx_new();
  char *text = tu_read_file(path);
  assert_non_null(text);
  const char *tag = "# passes: ";
  assert_true(strncmp(text, tag, strlen(tag)) == 0);
  char passes[256];
  size_t n = strcspn(text + strlen(tag), "\n");
  assert_true(n < sizeof passes);
  memcpy(passes, text + strlen(tag), n);
  passes[n] = '\0';
  IrModule *m = parse_text(ctx, path, text);
  free(text);
  for (char *name = strtok(passes, ","); name; name = strtok(NULL, ","))
    m = run_checked(ctx, name, m);
  char expected[512];
  snprintf(expected, sizeof expected, "%.*s.expected.py", (int)(strlen(path) - 3), path);
  IrModule *want = parse_file(ctx, expected);
  IrBuf why = {0};
  if (!ir_module_equal(m, want, &why)) {
    char *got = tu_print(m);
    printf("%s: got\n%s\n", path, got);
    free(got);
    fail_msg("%s differs from %s: %s", path, expected, why.data);
  }
  ir_buf_free(&why);
  ir_ctx_free(ctx);
}

static int
is_module(const struct dirent *d)
{
  size_t n = strlen(d->d_name);
  return strncmp(d->d_name, "mem_", 4) == 0 && n > 3 && strcmp(d->d_name + n - 3, ".py") == 0 &&
         (n < 12 || strcmp(d->d_name + n - 12, ".expected.py") != 0);
}

static void
test_module_files(void **state)
{
  struct dirent **ents = NULL;
  int n = scandir("tests/passes", &ents, is_module, alphasort);
  assert_true(n >= 7);
  for (int i = 0; i < n; i++) {
    char path[512];
    snprintf(path, sizeof path, "tests/passes/%s", ents[i]->d_name);
    printf("  %s\n", path);
    check_module_file(path);
    free(ents[i]);
  }
  free(ents);
}

/* --- inline cases ------------------------------------------------------------------------- */

static const char *const addone_module_head =
    "@I.ir_module\n"
    "class Module:\n"
    "    @T.prim_func(private=True)\n"
    "    def addone(A: T.Buffer((T.int64(4),), \"float32\"), B: T.Buffer((T.int64(4),), "
    "\"float32\")):\n"
    "        for i in range(T.int64(4)):\n"
    "            with T.block(\"b\"):\n"
    "                vi = T.axis.spatial(T.int64(4), i)\n"
    "                B[vi] = A[vi] + T.float32(1)\n\n";

static IrModule *
parse_main(IrCtx *ctx, const char *main_text)
{
  IrBuf b = {0};
  ir_buf_puts(&b, addone_module_head);
  ir_buf_puts(&b, main_text);
  IrModule *m = parse_text(ctx, "inline.py", b.data);
  ir_buf_free(&b);
  return m;
}

static const IrBinding *
main_binding(const IrModule *m, int block, int index)
{
  const IrGlobal *g = &m->globals[m->nglobals - 1];
  const IrExpr *body = g->u.relax->body;
  assert_true(block < body->u.seq.nblocks && index < body->u.seq.blocks[block].n);
  return &body->u.seq.blocks[block].bindings[index];
}

/* Integer division by zero: the kernel fails, the call stays, and no
 * diagnostic reaches the user. */
static void
test_fold_division_by_zero(void **state)
{
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_main(ctx, "    @R.function\n"
                                "    def main(x: R.Tensor((2,), dtype=\"int32\")):\n"
                                "        d = R.floor_divide(R.const([7, 8], \"int32\"), "
                                "R.const([0, 2], \"int32\"))\n"
                                "        e = R.add(d, x)\n"
                                "        return e\n");
  OptContext oc = {.ctx = ctx};
  IrModule *out = opt_fold_constant(&oc, m);
  assert_non_null(out);
  assert_int_equal(ir_diag_count(ctx), 0);
  const IrBinding *d = main_binding(out, 0, 0);
  assert_int_equal(d->value->kind, IR_EX_CALL);
  assert_int_equal(d->value->u.call.op->id, IR_OP_FLOOR_DIVIDE);
  const IrBinding *e = main_binding(out, 0, 1);
  assert_ptr_equal(e->value->u.call.args[0], d->var); /* not folded, not substituted */
  ir_ctx_free(ctx);
}

/* A kill of a var bound to a constant in the input is dropped by
 * FoldConstant, and KillAfterLastUse never kills such a var (nor a
 * parameter). */
static void
test_kill_of_constant(void **state)
{
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_main(ctx, "    @R.function(pure=False)\n"
                                "    def main(x: R.Tensor((4,), dtype=\"float32\")):\n"
                                "        c = R.const([1, 2, 3, 4], \"float32\")\n"
                                "        y = R.add(x, c)\n"
                                "        R.memory.kill_tensor(c)\n"
                                "        z = R.add(y, x)\n"
                                "        return z\n");
  OptContext oc = {.ctx = ctx};
  IrModule *folded = opt_fold_constant(&oc, m);
  assert_non_null(folded);
  assert_int_equal(check_kills(folded), 0); /* the kill of c is gone */
  assert_int_equal(scan_module_kills(m, false), 1); /* the input still has it */
  IrModule *killed = opt_kill_after_last_use(&oc, folded);
  assert_non_null(killed);
  assert_int_equal(check_kills(killed), 1); /* only y, after z */
  const IrBinding *k = main_binding(killed, 0, 3);
  assert_true(is_kill(k->value));
  assert_ptr_equal(k->value->u.call.args[0], main_binding(killed, 0, 1)->var);
  ir_ctx_free(ctx);
}

/* A call_tir_inplace output is its input: no allocation, the input is the
 * destination, and y is that input. */
static void
test_call_tir_inplace(void **state)
{
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_main(ctx, "    @R.function\n"
                                "    def main(x: R.Tensor((4,), dtype=\"float32\")):\n"
                                "        R.func_attr({\"relax.force_pure\": True})\n"
                                "        a = R.add(x, x)\n"
                                "        y = R.call_tir_inplace(Module.addone, (x, a), "
                                "inplace_indices=[1], out_sinfo=R.Tensor((4,), "
                                "dtype=\"float32\"))\n"
                                "        return y\n");
  /* R.add is not legalized: run the pass function directly */
  OptContext oc = {.ctx = ctx};
  IrModule *out = opt_call_tir_rewrite(&oc, m);
  assert_non_null(out);
  const IrBinding *call = main_binding(out, 0, 1);
  assert_int_equal(call->value->u.call.kind, IR_CALL_GLOBAL);
  assert_int_equal(call->value->u.call.nargs, 2);
  const IrBinding *a = main_binding(out, 0, 0);
  assert_ptr_equal(call->value->u.call.args[1], a->var);
  assert_ptr_equal(main_binding(out, 0, 2)->value, a->var);
  check_same_outputs(ctx, m, out);
  ir_ctx_free(ctx);
}

/* The lowered MLP through the memory pipeline. */
static void
test_mlp_pipeline(void **state)
{
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse_file(ctx, "samples/mlp_lowered.py");
  static const char *const names[] = {"ToNonDataflow", "RemovePurityChecking", "CallTIRRewrite",
                                      "KillAfterLastUse"};
  for (int i = 0; i < 4; i++)
    m = run_checked(ctx, names[i], m); /* a pass that fails fails the test */
  assert_true(check_kills(m) > 0);
  ir_ctx_free(ctx);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_module_files),
      cmocka_unit_test(test_fold_division_by_zero),
      cmocka_unit_test(test_kill_of_constant),
      cmocka_unit_test(test_call_tir_inplace),
      cmocka_unit_test(test_mlp_pipeline),
  };
  return cmocka_run_group_tests_name("pass_mem", tests, NULL, NULL);
}
