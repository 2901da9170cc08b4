/*
 * test_legalize.c - LegalizeOps on the modules of tests/legalize/.
 *
 * Every module: the output is well-formed, has no call left of an op with
 * a legalize hook, prints and reads back structurally equal (the new
 * prim_funcs included), the input is unchanged, and the interpreter gives
 * the same results before and after on random inputs.  Then the generated
 * prim_funcs' structure, checked by hand: loop extents are the symbolic
 * dims, broadcasting reads index 0 for size-1 dims, a var no input shape
 * binds is a scalar param passed by tir_vars, names do not clash with
 * existing globals, a reduction initializes then accumulates in float64.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>

#include "../../interp/interp.h"
#include "../../ops/tir_build.h"
#include "../../opt/opt.h"
#include "testutil.h"

static int count_in_seq(const IrExpr *seq);

/* Calls of ops that have a legalize hook (which LegalizeOps lowers) in an
 * expression. */
static int
count_in_expr(const IrExpr *e)
{
  if (!e)
    return 0;
  switch (e->kind) {
  case IR_EX_CALL:
    return e->u.call.kind == IR_CALL_OP && op_impl(e->u.call.op->id)->legalize != NULL;
  case IR_EX_IF:
    return count_in_seq(e->u.branch.then_) + count_in_seq(e->u.branch.else_);
  case IR_EX_FUNC:
    return count_in_seq(e->u.func->body);
  default:
    return 0;
  }
}

static int
count_in_seq(const IrExpr *seq)
{
  int n = count_in_expr(seq->u.seq.result);
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++)
      n += count_in_expr(seq->u.seq.blocks[i].bindings[j].value);
  return n;
}

static int
count_lowerable(const IrModule *m)
{
  int n = 0;
  for (int i = 0; i < m->nglobals; i++)
    if (m->globals[i].kind == IR_GLOBAL_RELAX)
      n += count_in_seq(m->globals[i].u.relax->body);
  return n;
}

static void
print_diags(IrCtx *ctx, const char *path)
{
  if (ir_error_count(ctx) == 0)
    return;
  char *d = tu_diag_text(ctx);
  printf("%s:\n%s", path, d);
  free(d);
}

/* The module checks, loses its lowerable calls, and round-trips. */
static void
check_module(const char *path)
{
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_parse_file(ctx, path);
  assert_non_null(m);
  assert_int_equal(ir_module_check(ctx, m), 0);
  assert_true(count_lowerable(m) > 0);
  uint64_t before = ir_module_hash(m);
  IrModule *out = opt_legalize_ops(ctx, m);
  print_diags(ctx, path);
  assert_non_null(out);
  assert_int_equal(ir_module_check(ctx, out), 0);
  print_diags(ctx, path);
  assert_int_equal(count_lowerable(out), 0);
  assert_true(out->nglobals > m->nglobals);
  assert_true(ir_module_hash(m) == before);
  /* printed and read back: structurally equal, same hash */
  char *text = tu_print(out);
  IrModule *back = fe_parse_string(ctx, "printed.py", text);
  print_diags(ctx, path);
  assert_non_null(back);
  IrBuf why = {0};
  bool equal = ir_module_equal(out, back, &why);
  if (!equal)
    printf("%s: reread differs: %s\n%s", path, why.data ? why.data : "?", text);
  assert_true(equal);
  assert_true(ir_module_hash(out) == ir_module_hash(back));
  /* a second run on the same input gives an equal module */
  IrModule *again = opt_legalize_ops(ctx, m);
  assert_non_null(again);
  assert_true(ir_module_equal(out, again, NULL));
  ir_buf_free(&why);
  free(text);
  ir_ctx_free(ctx);
}

static void
test_every_module(void **state)
{
  (void)state;
  int n;
  char **paths = tu_list_py("tests/legalize", &n);
  assert_true(n >= 4);
  for (int i = 0; i < n; i++)
    check_module(paths[i]);
  tu_free_list(paths, n);
}

/* --- structure of the generated functions ---------------------------------- */

static const IrGlobal *
global(const IrModule *m, const char *name)
{
  for (int i = 0; i < m->nglobals; i++)
    if (strcmp(m->globals[i].name, name) == 0)
      return &m->globals[i];
  fail_msg("no global %s", name);
  return NULL;
}

static IrModule *
legalize_file(IrCtx *ctx, const char *path)
{
  IrModule *m = fe_parse_file(ctx, path);
  assert_non_null(m);
  IrModule *out = opt_legalize_ops(ctx, m);
  print_diags(ctx, path);
  assert_non_null(out);
  return out;
}

static void
assert_int_literal(const IrPrimExpr *e, int64_t v)
{
  int64_t x;
  assert_non_null(e);
  assert_true(ir_prim_is_int(e, &x));
  assert_int_equal(x, v);
}

/* add(x: (n, 4), y: (1, 4)): loops over (n, 4) with n the var of A's and
 * the output's shape; B is read at [0, i1]. */
static void
test_broadcast_add(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *out = legalize_file(ctx, "tests/legalize/binary_broadcast.py");
  const IrPrimFunc *f = global(out, "add")->u.prim;
  assert_int_equal(f->nparams, 3);
  IrBuffer *a = f->params[0].buffer, *b = f->params[1].buffer, *c = f->params[2].buffer;
  assert_non_null(a);
  assert_non_null(b);
  assert_non_null(c);
  assert_int_equal(f->params[0].var->dtype.code, IR_DT_HANDLE);
  assert_int_equal(a->shape[0]->kind, IR_PE_VAR);
  assert_string_equal(a->shape[0]->u.var, "n");
  assert_ptr_equal(c->shape[0], a->shape[0]); /* one TIR var for n */
  assert_int_literal(b->shape[0], 1);
  assert_int_literal(b->shape[1], 4);
  const IrStmt *outer = f->body;
  assert_int_equal(outer->kind, IR_ST_FOR);
  assert_ptr_equal(outer->u.loop.extent, a->shape[0]);
  const IrStmt *inner = outer->u.loop.body;
  assert_int_equal(inner->kind, IR_ST_FOR);
  assert_int_literal(inner->u.loop.extent, 4);
  const IrStmt *store = inner->u.loop.body;
  assert_int_equal(store->kind, IR_ST_STORE);
  assert_ptr_equal(store->u.store.buffer, c);
  const IrPrimExpr *v = store->u.store.value;
  assert_int_equal(v->kind, IR_PE_ADD);
  const IrPrimExpr *la = v->u.bin.a, *lb = v->u.bin.b;
  assert_ptr_equal(la->u.load.buffer, a);
  assert_ptr_equal(la->u.load.indices[0], outer->u.loop.var);
  assert_ptr_equal(la->u.load.indices[1], inner->u.loop.var);
  assert_ptr_equal(lb->u.load.buffer, b);
  assert_int_literal(lb->u.load.indices[0], 0);
  assert_ptr_equal(lb->u.load.indices[1], inner->u.loop.var);
  /* the call: R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((n, 4), ...)) */
  const IrExpr *call = global(out, "main")->u.relax->body->u.seq.blocks[0].bindings[0].value;
  assert_int_equal(call->u.call.op->id, IR_OP_CALL_TIR);
  assert_int_equal(call->u.call.nargs, 2);
  assert_string_equal(call->u.call.args[0]->u.global, "add");
  assert_int_equal(call->u.call.args[1]->u.tuple.n, 2);
  assert_string_equal(call->u.call.args[1]->u.tuple.items[1]->u.var.name, "y");
  assert_int_equal(call->u.call.nsinfo_args, 1);
  ir_ctx_free(ctx);
}

/* multiply(z: (n, 1), w: (4,)) -> (n, 4): z is read at [i0, 0], w (one
 * dim, aligned to the last) at [i1]; less gives a bool buffer. */
static void
test_broadcast_multiply_and_compare(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *out = legalize_file(ctx, "tests/legalize/binary_broadcast.py");
  const IrPrimFunc *f = global(out, "multiply")->u.prim;
  const IrStmt *outer = f->body, *inner = outer->u.loop.body;
  assert_string_equal(f->params[0].buffer->shape[0]->u.var, "n");
  assert_ptr_equal(outer->u.loop.extent, f->params[0].buffer->shape[0]);
  assert_int_literal(inner->u.loop.extent, 4);
  const IrPrimExpr *v = inner->u.loop.body->u.store.value;
  assert_int_equal(v->kind, IR_PE_MUL);
  assert_ptr_equal(v->u.bin.a->u.load.indices[0], outer->u.loop.var);
  assert_int_literal(v->u.bin.a->u.load.indices[1], 0);
  assert_int_equal(v->u.bin.b->u.load.n, 1);
  assert_ptr_equal(v->u.bin.b->u.load.indices[0], inner->u.loop.var);
  const IrPrimFunc *less = global(out, "less")->u.prim;
  assert_int_equal(less->params[2].buffer->dtype.code, IR_DT_BOOL);
  const IrPrimExpr *cmp = less->body->u.loop.body->u.loop.body->u.store.value;
  assert_int_equal(cmp->kind, IR_PE_LT);
  ir_ctx_free(ctx);
}

/* x: (2 * n,): n stands alone in no input dim, so the prim_func takes it
 * as a trailing int64 scalar and the call passes tir_vars=R.shape([n]). */
static void
test_tir_vars(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *out = legalize_file(ctx, "tests/legalize/output_only_var.py");
  const IrPrimFunc *f = global(out, "add")->u.prim;
  assert_int_equal(f->nparams, 4);
  assert_null(f->params[3].buffer);
  IrPrimExpr *n = f->params[3].var;
  assert_string_equal(n->u.var, "n");
  assert_true(ir_dtype_eq(n->dtype, IR_I64));
  const IrPrimExpr *dim = f->params[0].buffer->shape[0];
  assert_int_equal(dim->kind, IR_PE_MUL);
  assert_true(dim->u.bin.a == n || dim->u.bin.b == n);
  assert_ptr_equal(f->body->u.loop.extent, f->params[2].buffer->shape[0]);
  assert_true(ir_prim_expr_equal(f->body->u.loop.extent, dim));
  const IrFunction *main_fn = global(out, "main")->u.relax;
  const IrExpr *call = main_fn->body->u.seq.blocks[0].bindings[0].value;
  assert_int_equal(call->u.call.nargs, 3);
  const IrExpr *tir_vars = call->u.call.args[2];
  assert_int_equal(tir_vars->kind, IR_EX_SHAPE);
  assert_int_equal(tir_vars->u.shape.n, 1);
  /* main's own n, the var of s: R.Shape(["n"]) */
  assert_ptr_equal(tir_vars->u.shape.values[0], main_fn->params[0]->sinfo->u.shape.values[0]);
  ir_ctx_free(ctx);
}

/* A global already named exp: the new one is exp1; the existing call_tir,
 * the local function call and ops inside branches and closures are
 * handled. */
static void
test_names_and_nesting(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *out = legalize_file(ctx, "tests/legalize/control_flow.py");
  assert_int_equal(global(out, "exp")->kind, IR_GLOBAL_PRIM);
  assert_int_equal(global(out, "exp1")->kind, IR_GLOBAL_PRIM);
  assert_int_equal(global(out, "negative")->kind, IR_GLOBAL_PRIM);
  assert_int_equal(global(out, "subtract")->kind, IR_GLOBAL_PRIM);
  const IrExpr *body = global(out, "main")->u.relax->body;
  const IrBinding *e = &body->u.seq.blocks[0].bindings[0];
  assert_string_equal(e->value->u.call.args[0]->u.global, "exp"); /* kept */
  const IrBinding *y = &body->u.seq.blocks[0].bindings[1];
  const IrExpr *then_result = y->value->u.branch.then_->u.seq.result;
  assert_int_equal(then_result->u.call.op->id, IR_OP_CALL_TIR);
  assert_string_equal(then_result->u.call.args[0]->u.global, "exp1");
  ir_ctx_free(ctx);
}

/* dedup.py: alike calls share one prim_func, each call_tir keeps its own
 * arguments in their order (the memo of lowerings replaces them by
 * position, also when a var comes twice). */
static const IrExpr *
call_tuple(const IrExpr *body, int binding)
{
  const IrExpr *v = body->u.seq.blocks[0].bindings[binding].value;
  assert_int_equal(v->u.call.op->id, IR_OP_CALL_TIR);
  return v->u.call.args[1];
}

static void
test_dedup(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *out = legalize_file(ctx, "tests/legalize/dedup.py");
  int prims = 0;
  for (int i = 0; i < out->nglobals; i++)
    prims += out->globals[i].kind == IR_GLOBAL_PRIM;
  assert_int_equal(prims, 4); /* add (4,), add (2, 4), add (n,), multiply */
  const IrFunction *f = global(out, "main")->u.relax;
  const IrExpr *body = f->body;
  const char *callee[] = {"add", "add", "add", "add1", "multiply", "add2", "add2"};
  for (int i = 0; i < 7; i++)
    assert_string_equal(body->u.seq.blocks[0].bindings[i].value->u.call.args[0]->u.global,
                        callee[i]);
  const IrExpr *lv = body->u.seq.blocks[0].bindings[0].var;
  const IrExpr *lv1 = body->u.seq.blocks[0].bindings[1].var;
  const IrExpr *t0 = call_tuple(body, 0), *t1 = call_tuple(body, 1), *t2 = call_tuple(body, 2);
  assert_ptr_equal(t0->u.tuple.items[0], f->params[0]); /* (x, y) */
  assert_ptr_equal(t0->u.tuple.items[1], f->params[1]);
  assert_ptr_equal(t1->u.tuple.items[0], lv); /* (lv, lv) */
  assert_ptr_equal(t1->u.tuple.items[1], lv);
  assert_ptr_equal(t2->u.tuple.items[0], f->params[1]); /* (y, lv1) */
  assert_ptr_equal(t2->u.tuple.items[1], lv1);
  assert_ptr_equal(call_tuple(body, 6)->u.tuple.items[0], f->params[4]); /* (b, b) */
  ir_ctx_free(ctx);
}

/* sum(x: (n, 4) float16, axis=[1], keepdims=True): a float64 accumulator
 * around a loop over n; per row: set to 0.0, add the element (bound to v,
 * widened to float64) over the 4 columns, store it cast to float16 at
 * [i0, 0].  (A float32 sum over one axis sums in float32 lanes instead.) */
static void
test_reduce_structure(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *out = legalize_file(ctx, "tests/legalize/reduce_generic.py");
  const IrPrimFunc *f = global(out, "sum")->u.prim;
  assert_int_equal(f->nparams, 2);
  IrBuffer *a = f->params[0].buffer, *res = f->params[1].buffer;
  assert_string_equal(a->shape[0]->u.var, "n");
  assert_ptr_equal(res->shape[0], a->shape[0]);
  assert_int_literal(res->shape[1], 1);
  const IrStmt *alloc = f->body;
  assert_int_equal(alloc->kind, IR_ST_ALLOC);
  IrBuffer *acc = alloc->u.alloc.buffer;
  assert_true(acc->dtype.code == IR_DT_FLOAT && acc->dtype.bits == 64);
  const IrStmt *rows = alloc->u.alloc.body;
  assert_int_equal(rows->kind, IR_ST_FOR);
  assert_ptr_equal(rows->u.loop.extent, a->shape[0]);
  const IrStmt *row = rows->u.loop.body;
  assert_int_equal(row->kind, IR_ST_SEQ);
  assert_int_equal(row->u.seq.n, 3);
  const IrStmt *init = row->u.seq.stmts[0], *cols = row->u.seq.stmts[1],
               *store = row->u.seq.stmts[2];
  assert_ptr_equal(init->u.store.buffer, acc);
  assert_int_equal(init->u.store.value->kind, IR_PE_FLOAT);
  assert_true(init->u.store.value->u.float_value == 0.0);
  assert_int_literal(cols->u.loop.extent, 4);
  const IrStmt *let = cols->u.loop.body;
  assert_int_equal(let->kind, IR_ST_LET);
  const IrPrimExpr *load = let->u.let.value->u.bin.a;
  assert_int_equal(let->u.let.value->kind, IR_PE_CAST);
  assert_ptr_equal(load->u.load.buffer, a);
  assert_ptr_equal(load->u.load.indices[0], rows->u.loop.var);
  assert_ptr_equal(load->u.load.indices[1], cols->u.loop.var);
  const IrPrimExpr *sum = let->u.let.body->u.store.value;
  assert_int_equal(sum->kind, IR_PE_ADD);
  assert_ptr_equal(sum->u.bin.a->u.load.buffer, acc);
  assert_ptr_equal(sum->u.bin.b, let->u.let.var);
  assert_ptr_equal(store->u.store.buffer, res);
  assert_ptr_equal(store->u.store.indices[0], rows->u.loop.var);
  assert_int_literal(store->u.store.indices[1], 0);
  assert_int_equal(store->u.store.value->kind, IR_PE_CAST);
  assert_true(store->u.store.value->dtype.code == IR_DT_FLOAT &&
              store->u.store.value->dtype.bits == 16);
  ir_ctx_free(ctx);
}

static Value *
tensor_of(IrCtx *ctx, IrDType t, int ndim, const int64_t *shape, const double *v)
{
  Value *x = op_tensor_new(ctx, t, ndim, shape, (IrLoc){0});
  for (int64_t i = 0; i < op_numel(&x->u.tensor.t); i++)
    op_set_f(&x->u.tensor.t, i, v[i]);
  return x;
}

/* The legalized reductions on hand-picked values: the int mean truncates
 * (-4 / 3 is -1), argmax keeps the first of a tie and the first NaN, max
 * propagates NaN, the int sum. */
static void
test_reduce_values(void **state)
{
  (void)state;
  static const char text[] =
      "@R.function\n"
      "def main(y: R.Tensor((2, 3), dtype=\"int32\"), x: R.Tensor((4,), dtype=\"float32\")):\n"
      "    a = R.mean(y, axis=[1])\n"
      "    b = R.argmax(y, axis=0)\n"
      "    c = R.argmax(x)\n"
      "    d = R.max(x)\n"
      "    e = R.sum(y)\n"
      "    return (a, b, c, d, e)\n";
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_parse_string(ctx, "values.py", text);
  assert_non_null(m);
  IrModule *out = opt_legalize_ops(ctx, m);
  print_diags(ctx, "values.py");
  assert_non_null(out);
  assert_int_equal(count_lowerable(out), 0);
  static const int64_t ys[] = {2, 3}, xs[] = {4};
  static const double yv[] = {-5, 0, 1, 7, 1, 1};
  const double xv[] = {1, NAN, 3, NAN};
  Value *args[2] = {tensor_of(ctx, IR_I32, 2, ys, yv), tensor_of(ctx, IR_F32, 1, xs, xv)};
  Value *r = interp_call(interp_new(ctx, out, NULL), "main", args, 2);
  print_diags(ctx, "values.py");
  assert_non_null(r);
  assert_int_equal(r->u.tuple.n, 5);
  const IrTensorData *a = &r->u.tuple.items[0]->u.tensor.t, *b = &r->u.tuple.items[1]->u.tensor.t;
  assert_int_equal(a->dtype.code, IR_DT_INT);
  assert_int_equal(op_get_i(a, 0), -1);
  assert_int_equal(op_get_i(a, 1), 3);
  assert_true(ir_dtype_eq(b->dtype, IR_I64));
  assert_int_equal(op_get_i(b, 0), 1);
  assert_int_equal(op_get_i(b, 1), 1);
  assert_int_equal(op_get_i(b, 2), 0);
  assert_int_equal(op_get_i(&r->u.tuple.items[2]->u.tensor.t, 0), 1);
  assert_true(isnan(op_get_f(&r->u.tuple.items[3]->u.tensor.t, 0)));
  assert_int_equal(op_get_i(&r->u.tuple.items[4]->u.tensor.t, 0), 5);
  ir_ctx_free(ctx);
}

/* What LegalizeOps cannot lower stays: an op whose result shape is
 * unknown, an op without a hook (R.print). */
static void
test_kept_calls(void **state)
{
  (void)state;
  static const char text[] =
      "@R.function(pure=False)\n"
      "def main(x: R.Tensor(dtype=\"float32\", ndim=2), y: R.Tensor((2, 3), dtype=\"float32\")):\n"
      "    a = R.add(x, x)\n"
      "    R.print(y, format=\"{}\")\n"
      "    b: R.Tensor((2, 3), dtype=\"float32\") = R.exp(y)\n"
      "    return (a, b)\n";
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_parse_string(ctx, "kept.py", text);
  assert_non_null(m);
  IrModule *out = opt_legalize_ops(ctx, m);
  print_diags(ctx, "kept.py");
  assert_non_null(out);
  assert_int_equal(out->nglobals, 2); /* main and exp */
  const IrBindingBlock *blk = &global(out, "main")->u.relax->body->u.seq.blocks[0];
  assert_int_equal(blk->bindings[0].value->u.call.op->id, IR_OP_ADD);
  assert_int_equal(blk->bindings[1].value->u.call.op->id, IR_OP_PRINT);
  assert_int_equal(blk->bindings[2].value->u.call.op->id, IR_OP_CALL_TIR);
  assert_int_equal(ir_module_check(ctx, out), 0);
  ir_ctx_free(ctx);
}

/* --- interpreter before == interpreter after ---------------------------------- */

/* A symbolic dim's value: every var is 3 (within every bound used here). */
static int64_t
dim_value(const IrPrimExpr *e)
{
  int64_t v;
  if (ir_prim_is_int(e, &v))
    return v;
  switch (e->kind) {
  case IR_PE_VAR:
    return 3;
  case IR_PE_ADD:
    return dim_value(e->u.bin.a) + dim_value(e->u.bin.b);
  case IR_PE_SUB:
    return dim_value(e->u.bin.a) - dim_value(e->u.bin.b);
  case IR_PE_MUL:
    return dim_value(e->u.bin.a) * dim_value(e->u.bin.b);
  default:
    fail_msg("unexpected dim kind %d", e->kind);
    return 0;
  }
}

/* A random argument for a parameter (tensors in [-2, 2], bools 0/1, the
 * scalar bool condition alternating with the trial). */
static Value *
random_arg(IrCtx *ctx, const IrSInfo *s, unsigned *seed, int trial)
{
  if (s->kind == IR_SI_SHAPE) {
    int64_t dims[8];
    for (int k = 0; k < s->u.shape.ndim; k++)
      dims[k] = dim_value(s->u.shape.values[k]);
    return op_shape_new(ctx, dims, s->u.shape.ndim);
  }
  assert_int_equal(s->kind, IR_SI_TENSOR);
  int64_t dims[8];
  for (int k = 0; k < s->u.tensor.ndim; k++)
    dims[k] = dim_value(s->u.tensor.shape[k]);
  Value *v = op_tensor_new(ctx, s->u.tensor.dtype, s->u.tensor.ndim, dims, (IrLoc){0});
  IrTensorData *t = &v->u.tensor.t;
  for (int64_t i = 0; i < op_numel(t); i++) {
    *seed = *seed * 1103515245u + 12345u;
    double r = (double)((*seed >> 8) % 10000) / 2500.0 - 2.0;
    if (t->dtype.code == IR_DT_BOOL)
      op_set_i(t, i, t->ndim == 0 ? trial % 2 : r > 0);
    else
      op_set_f(t, i, r);
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
    if (isnan(p) && isnan(q))
      continue;
    if (isnan(p) || isnan(q) || fabs(p - q) > 1e-5 * fmax(1.0, fabs(p))) {
      printf("element %lld: %.9g before, %.9g after\n", (long long)i, p, q);
      return false;
    }
  }
  return true;
}

/* Did evaluation stop at an op whose kernel is not written yet? */
static bool
not_implemented(const IrCtx *ctx)
{
  for (int i = 0; i < ir_diag_count(ctx); i++)
    if (strstr(ir_diag_get(ctx, i)->msg, "not implemented"))
      return true;
  return false;
}

static void
check_equivalent(const char *path)
{
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_parse_file(ctx, path);
  assert_non_null(m);
  IrModule *out = opt_legalize_ops(ctx, m);
  assert_non_null(out);
  const IrFunction *f = ir_module_find(m, ir_sym(ctx, "main"))->u.relax;
  unsigned seed = 12345;
  for (int trial = 0; trial < 4; trial++) {
    Value *args[8];
    assert_true(f->nparams <= 8);
    for (int i = 0; i < f->nparams; i++)
      args[i] = random_arg(ctx, f->params[i]->sinfo, &seed, trial);
    Value *before = interp_call(interp_new(ctx, m, NULL), "main", args, f->nparams);
    if (!before && not_implemented(ctx)) /* a missing kernel fails, never skips (issue 33) */
      fail_msg("%s: an op has no reference kernel: nothing to compare the lowering with", path);
    Value *after = interp_call(interp_new(ctx, out, NULL), "main", args, f->nparams);
    print_diags(ctx, path);
    bool agree = values_agree(before, after);
    if (!agree)
      printf("%s: trial %d: the results differ\n", path, trial);
    assert_true(agree);
  }
  ir_ctx_free(ctx);
}

/* Every module computes the same before and after LegalizeOps. */
static void
test_interp_agrees(void **state)
{
  (void)state;
  int n;
  char **paths = tu_list_py("tests/legalize", &n);
  for (int i = 0; i < n; i++)
    check_equivalent(paths[i]);
  tu_free_list(paths, n);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_module),
      cmocka_unit_test(test_broadcast_add),
      cmocka_unit_test(test_broadcast_multiply_and_compare),
      cmocka_unit_test(test_tir_vars),
      cmocka_unit_test(test_names_and_nesting),
      cmocka_unit_test(test_dedup),
      cmocka_unit_test(test_reduce_structure),
      cmocka_unit_test(test_reduce_values),
      cmocka_unit_test(test_kept_calls),
      cmocka_unit_test(test_interp_agrees),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
