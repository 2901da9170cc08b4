/*
 * test_legalize_manip.c - the lowerings of the manipulation ops
 * (ops/manip_legalize.c), checked by hand: the shape of the generated
 * prim_funcs (outputs of split, symbolic vars, tir_vars) and the values
 * the interpreter computes with them on small inputs whose results are
 * worked out below, including where the lowering must differ from a naive
 * copy (take's "fast" mode asserts, broadcast_to of a symbolic dim of 1).
 * The modules of tests/legalize/manip_*.py cover every op on random
 * inputs (test_legalize.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../interp/interp.h"
#include "../../ops/tir_build.h"
#include "../../opt/opt.h"
#include "testutil.h"

#define HEADER                                                                                     \
  "# from tvm.script import ir as I\n# from tvm.script import tir as T\n"                          \
  "# from tvm.script import relax as R\n\n@I.ir_module\nclass Module:\n    @R.function\n"

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
parse(IrCtx *ctx, const char *text)
{
  IrModule *m = fe_parse_string(ctx, "test.py", text);
  print_diags(ctx);
  assert_non_null(m);
  return m;
}

static IrModule *
legalize(IrCtx *ctx, const IrModule *m)
{
  IrModule *out = opt_legalize_ops(ctx, m);
  print_diags(ctx);
  assert_non_null(out);
  assert_int_equal(ir_module_check(ctx, out), 0);
  return out;
}

static const IrGlobal *
global(const IrModule *m, const char *name)
{
  for (int i = 0; i < m->nglobals; i++)
    if (strcmp(m->globals[i].name, name) == 0)
      return &m->globals[i];
  fail_msg("no global %s", name);
  return NULL;
}

/* The value bound by binding j of main's first block. */
static const IrExpr *
binding_value(const IrModule *m, int j)
{
  return global(m, "main")->u.relax->body->u.seq.blocks[0].bindings[j].value;
}

static Value *
tensor(IrCtx *ctx, IrDType t, int ndim, const int64_t *shape, const double *values)
{
  Value *v = op_tensor_new(ctx, t, ndim, shape, (IrLoc){0});
  for (int64_t i = 0; i < op_numel(&v->u.tensor.t); i++)
    op_set_f(&v->u.tensor.t, i, values[i]);
  return v;
}

static void
assert_tensor(const Value *v, int ndim, const int64_t *shape, const double *values)
{
  assert_non_null(v);
  assert_int_equal(v->kind, VAL_TENSOR);
  const IrTensorData *t = &v->u.tensor.t;
  assert_int_equal(t->ndim, ndim);
  for (int d = 0; d < ndim; d++)
    assert_int_equal(t->shape[d], shape[d]);
  for (int64_t i = 0; i < op_numel(t); i++)
    assert_true(op_get_f(t, i) == values[i]);
}

/* split(x: (n, 5), [1, 3], axis=1): one prim_func with A and three output
 * buffers (n, 1), (n, 2), (n, 2), all with the one TIR var n that A binds
 * (so no scalar parameter); the call's out_sinfo has three entries.  With
 * x = [[0..4], [5..9]] the pieces are [[0], [5]], [[1, 2], [6, 7]],
 * [[3, 4], [8, 9]]. */
static void
test_split_outputs(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m =
      parse(ctx, HEADER "    def main(x: R.Tensor((\"n\", 5), dtype=\"float32\")):\n"
                        "        with R.dataflow():\n"
                        "            gv = R.split(x, indices_or_sections=[1, 3], axis=1)\n"
                        "            R.output(gv)\n"
                        "        return gv\n");
  IrModule *out = legalize(ctx, m);
  const IrExpr *call = binding_value(out, 0);
  assert_int_equal(call->u.call.op->id, IR_OP_CALL_TIR);
  assert_int_equal(call->u.call.nargs, 2); /* no tir_vars */
  assert_int_equal(call->u.call.nsinfo_args, 3);
  const IrPrimFunc *f = global(out, "split")->u.prim;
  assert_int_equal(f->nparams, 4);
  const IrBuffer *a = f->params[0].buffer;
  const int64_t widths[3] = {1, 2, 2};
  for (int k = 0; k < 3; k++) {
    const IrBuffer *piece = f->params[k + 1].buffer;
    int64_t w;
    assert_ptr_equal(piece->shape[0], a->shape[0]);
    assert_true(ir_prim_is_int(piece->shape[1], &w));
    assert_int_equal(w, widths[k]);
  }
  const double x[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  Value *arg = tensor(ctx, IR_F32, 2, (int64_t[]){2, 5}, x);
  Value *r = interp_call(interp_new(ctx, out, NULL), "main", &arg, 1);
  print_diags(ctx);
  assert_non_null(r);
  assert_int_equal(r->kind, VAL_TUPLE);
  assert_int_equal(r->u.tuple.n, 3);
  assert_tensor(r->u.tuple.items[0], 2, (int64_t[]){2, 1}, (double[]){0, 5});
  assert_tensor(r->u.tuple.items[1], 2, (int64_t[]){2, 2}, (double[]){1, 2, 6, 7});
  assert_tensor(r->u.tuple.items[2], 2, (int64_t[]){2, 2}, (double[]){3, 4, 8, 9});
  ir_ctx_free(ctx);
}

/* take(x, i) in mode fast: the kernel rejects an index out of range, and
 * so does the lowering, by an assert in a check loop that comes first, before
 * the loop that writes (its reads still clamp, never out of bounds); a
 * negative index counts from the end as in the kernel.  x = [10, 20, 30,
 * 40]: i = [-1, 2, 0] gives [40, 30, 10] both ways; i = [4, -5] is an
 * error both ways. */
static void
test_take_fast_refuses(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse(ctx, HEADER "    def main(x: R.Tensor((4,), dtype=\"float32\"), "
                                  "i: R.Tensor((\"k\",), dtype=\"int32\")):\n"
                                  "        with R.dataflow():\n"
                                  "            gv = R.take(x, i, axis=0)\n"
                                  "            R.output(gv)\n"
                                  "        return gv\n");
  IrModule *out = legalize(ctx, m);
  const double xs[4] = {10, 20, 30, 40};
  Value *args[2] = {tensor(ctx, IR_F32, 1, (int64_t[]){4}, xs),
                    tensor(ctx, IR_I32, 1, (int64_t[]){3}, (double[]){-1, 2, 0})};
  const double want[3] = {40, 30, 10};
  assert_tensor(interp_call(interp_new(ctx, m, NULL), "main", args, 2), 1, (int64_t[]){3}, want);
  assert_tensor(interp_call(interp_new(ctx, out, NULL), "main", args, 2), 1, (int64_t[]){3}, want);
  print_diags(ctx);
  const IrStmt *body = global(out, "take")->u.prim->body;
  assert_int_equal(body->kind, IR_ST_SEQ);
  const IrStmt *check = body->u.seq.stmts[0];
  assert_int_equal(check->kind, IR_ST_FOR);
  assert_int_equal(check->u.loop.body->kind, IR_ST_ASSERT);
  assert_int_equal(ir_error_count(ctx), 0);
  args[1] = tensor(ctx, IR_I32, 1, (int64_t[]){2}, (double[]){4, -5});
  assert_null(interp_call(interp_new(ctx, out, NULL), "main", args, 2));
  assert_int_equal(ir_error_count(ctx), 1);
  assert_null(interp_call(interp_new(ctx, m, NULL), "main", args, 2));
  assert_int_equal(ir_error_count(ctx), 2);
  args[1] = tensor(ctx, IR_I32, 1, (int64_t[]){1}, (double[]){-5});
  assert_null(interp_call(interp_new(ctx, out, NULL), "main", args, 2));
  assert_int_equal(ir_error_count(ctx), 3);
  ir_ctx_free(ctx);
}

/* reshape(x: (n, 4), (2, n * 2)): the output buffer and the flat index
 * arithmetic use the TIR var n that A's shape binds (the same node), so
 * the call passes no tir_vars.  With n = 3 the row-major data is kept. */
static void
test_reshape_symbolic(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse(ctx, HEADER "    def main(x: R.Tensor((\"n\", 4), dtype=\"float32\")):\n"
                                  "        n = T.int64()\n"
                                  "        with R.dataflow():\n"
                                  "            gv = R.reshape(x, R.shape([2, n * 2]))\n"
                                  "            R.output(gv)\n"
                                  "        return gv\n");
  IrModule *out = legalize(ctx, m);
  assert_int_equal(binding_value(out, 0)->u.call.nargs, 2);
  const IrPrimFunc *f = global(out, "reshape")->u.prim;
  assert_int_equal(f->nparams, 2);
  const IrPrimExpr *n = f->params[0].buffer->shape[0];
  const IrPrimExpr *dim1 = f->params[1].buffer->shape[1];
  assert_int_equal(n->kind, IR_PE_VAR);
  assert_int_equal(dim1->kind, IR_PE_MUL);
  assert_ptr_equal(dim1->u.bin.a, n);
  double x[12];
  for (int i = 0; i < 12; i++)
    x[i] = i;
  Value *arg = tensor(ctx, IR_F32, 2, (int64_t[]){3, 4}, x);
  assert_tensor(interp_call(interp_new(ctx, out, NULL), "main", &arg, 1), 2, (int64_t[]){2, 6}, x);
  print_diags(ctx);
  ir_ctx_free(ctx);
}

/* broadcast_to(x: (k,), (2, m)): m is bound by no input of the prim_func,
 * so it is a scalar parameter passed by tir_vars; k may be 1 or m, which
 * the lowered code decides at run time as the kernel does, after the check
 * "k == m or k == 1" that LegalizeOps puts before the call.  x = [7] with
 * m = 3 gives [[7, 7, 7], [7, 7, 7]]; x = [1, 2, 3] gives its rows; x =
 * [1, 2] is refused by the check, as R.broadcast_to itself refuses it. */
static void
test_broadcast_symbolic_one(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse(ctx, HEADER "    def main(x: R.Tensor((\"k\",), dtype=\"float32\"), "
                                  "y: R.Tensor((\"m\",), dtype=\"float32\")):\n"
                                  "        m = T.int64()\n"
                                  "        with R.dataflow():\n"
                                  "            gv = R.broadcast_to(x, R.shape([2, m]))\n"
                                  "            R.output(gv)\n"
                                  "        return gv\n");
  IrModule *out = legalize(ctx, m);
  const IrBinding *check = &global(out, "main")->u.relax->body->u.seq.blocks[0].bindings[0];
  assert_non_null(check->cast);
  assert_int_equal(check->value->kind, IR_EX_PRIM);
  const IrExpr *call = binding_value(out, 1);
  assert_int_equal(call->u.call.nargs, 3);
  assert_int_equal(call->u.call.args[2]->u.shape.n, 1);
  assert_int_equal(global(out, "broadcast_to")->u.prim->nparams, 3);
  Value *y = tensor(ctx, IR_F32, 1, (int64_t[]){3}, (double[]){0, 0, 0});
  Value *args[2] = {tensor(ctx, IR_F32, 1, (int64_t[]){1}, (double[]){7}), y};
  assert_tensor(interp_call(interp_new(ctx, out, NULL), "main", args, 2), 2, (int64_t[]){2, 3},
                (double[]){7, 7, 7, 7, 7, 7});
  args[0] = tensor(ctx, IR_F32, 1, (int64_t[]){3}, (double[]){1, 2, 3});
  assert_tensor(interp_call(interp_new(ctx, out, NULL), "main", args, 2), 2, (int64_t[]){2, 3},
                (double[]){1, 2, 3, 1, 2, 3});
  print_diags(ctx);
  args[0] = tensor(ctx, IR_F32, 1, (int64_t[]){2}, (double[]){1, 2});
  int before = ir_error_count(ctx);
  assert_null(interp_call(interp_new(ctx, out, NULL), "main", args, 2));
  assert_int_equal(ir_error_count(ctx), before + 1);
  ir_ctx_free(ctx);
}

/* concat of a tuple held in a var has no leaves for call_tir's inputs:
 * the call stays, and the module stays well-formed. */
static void
test_concat_tuple_var_kept(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = parse(ctx, HEADER "    def main(x: R.Tensor((2,), dtype=\"float32\")):\n"
                                  "        with R.dataflow():\n"
                                  "            t = (x, x)\n"
                                  "            gv = R.concat(t, axis=0)\n"
                                  "            R.output(gv)\n"
                                  "        return gv\n");
  IrModule *out = legalize(ctx, m);
  assert_int_equal(binding_value(out, 1)->u.call.op->id, IR_OP_CONCAT);
  assert_int_equal(out->nglobals, 1);
  ir_ctx_free(ctx);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_split_outputs),         cmocka_unit_test(test_take_fast_refuses),
      cmocka_unit_test(test_reshape_symbolic),      cmocka_unit_test(test_broadcast_symbolic_one),
      cmocka_unit_test(test_concat_tuple_var_kept),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
