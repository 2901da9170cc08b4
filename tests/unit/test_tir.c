/*
 * test_tir.c - ir's TIR helpers: the intrinsic table (ir/tir_intrin.c) that
 * the interpreter, the code generator and legalization share, and the
 * statement walk (ir/tir_walk.c): its order, SKIP and STOP.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../interp/interp.h"
#include "testutil.h"

static const char KERNEL[] =
    "# from tvm.script import ir as I\n"
    "# from tvm.script import tir as T\n"
    "# from tvm.script import relax as R\n"
    "\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    @T.prim_func(private=True)\n"
    "    def k(A: T.Buffer((T.int64(3),), \"float32\"), C: T.Buffer((T.int64(3),), "
    "\"float32\")):\n"
    "        for i in range(T.int64(3)):\n"
    "            with T.block(\"k\"):\n"
    "                v = T.axis.spatial(T.int64(3), i)\n"
    "                if A[v] != T.float32(0):\n"
    "                    C[v] = T.Cast(\"float32\", T.isnan(A[v])) + T.Cast(\"float32\", "
    "T.isinf(A[v])) * T.float32(4)\n"
    "                else:\n"
    "                    C[v] = T.float32(2)\n"
    "\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((3,), dtype=\"float32\")) -> R.Tensor((3,), dtype=\"float32\"):\n"
    "        cls = Module\n"
    "        gv = R.call_tir(cls.k, (x,), out_sinfo=R.Tensor((3,), dtype=\"float32\"))\n"
    "        return gv\n";

static const IrPrimFunc *
kernel(IrCtx *ctx, IrModule **m)
{
  *m = fe_parse_string(ctx, "kernel.py", KERNEL);
  if (!*m)
    ir_diag_print(ctx, stderr);
  assert_non_null(*m);
  for (int i = 0; i < (*m)->nglobals; i++)
    if ((*m)->globals[i].kind == IR_GLOBAL_PRIM)
      return (*m)->globals[i].u.prim;
  fail();
  return NULL;
}

/* --- the intrinsic table ---------------------------------------------------- */

static void
test_intrin_find(void **state)
{
  (void)state;
  const IrTirIntrin *exp_row = ir_tir_intrin_find("tir.exp", 1);
  assert_non_null(exp_row);
  assert_int_equal(exp_row->kind, IR_INTRIN_MATH);
  assert_true(exp_row->math1(0) == 1);
  assert_null(ir_tir_intrin_find("tir.exp", 2)); /* another arity is unknown */
  assert_null(ir_tir_intrin_find("exp", 1));     /* IR names only */
  assert_null(ir_tir_intrin_find("tir.foo", 1));
  assert_null(ir_tir_intrin_find(NULL, 1));
  /* an alias is the same row */
  assert_ptr_equal(ir_tir_intrin_find("tir.power", 2), ir_tir_intrin_find("tir.pow", 2));
  /* the limits take their dtype's name, or anything */
  assert_non_null(ir_tir_intrin_find("tir.max_value", 1));
  assert_non_null(ir_tir_intrin_find("tir.min_value", 0));
  assert_int_equal(ir_tir_intrin_find("tir.if_then_else", 3)->kind, IR_INTRIN_IF_THEN_ELSE);
  assert_null(ir_tir_intrin_find("tir.if_then_else", 2));
}

/* Every row can be evaluated and written as its kind needs. */
static void
test_intrin_rows(void **state)
{
  (void)state;
  static const char *const names[] = {
      "tir.exp",   "tir.exp2",  "tir.exp10",  "tir.log",      "tir.log2",         "tir.log10",
      "tir.log1p", "tir.expm1", "tir.sqrt",   "tir.rsqrt",    "tir.tanh",         "tir.sigmoid",
      "tir.erf",   "tir.fabs",  "tir.floor",  "tir.ceil",     "tir.round",        "tir.nearbyint",
      "tir.trunc", "tir.sin",   "tir.cos",    "tir.tan",      "tir.asin",         "tir.acos",
      "tir.atan",  "tir.sinh",  "tir.cosh",   "tir.fmod",     "tir.abs",          "tir.pow",
      "tir.isnan", "tir.isinf", "tir.likely", "tir.isfinite", "tir.if_then_else",
      "tir.asinh", "tir.acosh", "tir.atanh", "tir.atan2", "tir.bitwise_and", "tir.bitwise_or",
      "tir.bitwise_xor", "tir.bitwise_not", "tir.shift_left", "tir.shift_right",
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    const IrTirIntrin *r = NULL;
    for (int n = 0; n <= 3 && !r; n++)
      r = ir_tir_intrin_find(names[i], n);
    assert_non_null(r);
    if (r->kind == IR_INTRIN_MATH || r->kind == IR_INTRIN_ABS || r->kind == IR_INTRIN_POW) {
      assert_true(r->arity == 1 ? r->math1 != NULL : r->math2 != NULL);
      assert_non_null(r->c_form);
    }
    if (r->kind == IR_INTRIN_BITS)
      assert_true(r->bits != NULL && r->c_form != NULL && !r->c_float_only);
    if (r->kind == IR_INTRIN_ISINF || r->kind == IR_INTRIN_ISFINITE)
      assert_null(r->c_form); /* rt helpers */
    for (const char *c = r->c_form; c && *c; c++)
      if (*c == '@')
        assert_true(c[1] - '0' < r->arity);
  }
  assert_true(fabs(ir_tir_intrin_find("tir.sigmoid", 1)->math1(0) - 0.5) < 1e-15);
  assert_true(ir_tir_intrin_find("tir.round", 1)->math1(2.5) == 2); /* to even */
  /* shifts past the width give numpy's answers; uint64's top bit is not a sign */
  const IrTirIntrin *shl = ir_tir_intrin_find("tir.shift_left", 2);
  const IrTirIntrin *shr = ir_tir_intrin_find("tir.shift_right", 2);
  IrDType i8 = {IR_DT_INT, 8, 1}, u64 = {IR_DT_UINT, 64, 1};
  assert_true(shl->bits(i8, 3, 8) == 0 && shl->bits(i8, 3, -1) == 0 && shl->bits(i8, 3, 2) == 12);
  assert_true(shr->bits(i8, -8, 1) == -4 && shr->bits(i8, -8, 9) == -1 && shr->bits(i8, 8, -2) == 0);
  assert_true(shr->bits(u64, INT64_MIN, 63) == 1);
  assert_true(ir_tir_intrin_find("tir.bitwise_not", 1)->bits(IR_BOOL, 1, 0) == 0);
}

/* The interpreter once evaluated T.isnan as T.isfinite; the generated C
 * always had x != x. */
static void
test_interp_isnan(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m;
  kernel(ctx, &m);
  int64_t n = 3;
  IrLoc none = {0};
  Value *x = op_tensor_new(ctx, IR_F32, 1, &n, none);
  double in[] = {NAN, -INFINITY, 0}, want[] = {1, 4, 2};
  for (int i = 0; i < 3; i++)
    op_set_f(&x->u.tensor.t, i, in[i]);
  Value *r = interp_call(interp_new(ctx, m, NULL), "main", &x, 1);
  if (!r)
    ir_diag_print(ctx, stderr);
  assert_non_null(r);
  for (int i = 0; i < 3; i++)
    assert_true(op_get_f(&r->u.tensor.t, i) == want[i]);
  ir_ctx_free(ctx);
}

/* --- the walk ------------------------------------------------------------------ */

typedef struct {
  IrBuf trace;
  IrStmtKind skip; /* SKIP statements of this kind */
  IrStmtKind stop; /* STOP at the first of this kind */
} Trace;

static const char *const KIND[] = {
    [IR_ST_SEQ] = "seq",           [IR_ST_FOR] = "for",     [IR_ST_BLOCK] = "block",
    [IR_ST_STORE] = "store",       [IR_ST_LET] = "let",     [IR_ST_IF] = "if",
    [IR_ST_EVALUATE] = "evaluate", [IR_ST_ALLOC] = "alloc",
    [IR_ST_ASSERT] = "assert",
};

static IrWalkAction
trace_enter(const IrStmt *s, void *user)
{
  Trace *t = user;
  ir_buf_printf(&t->trace, "%s(", KIND[s->kind]);
  if (s->kind == t->stop)
    return IR_WALK_STOP;
  return s->kind == t->skip ? IR_WALK_SKIP : IR_WALK_CONTINUE;
}

static bool
trace_expr(const IrPrimExpr *e, const IrStmt *s, void *user)
{
  Trace *t = user;
  IrBuf text = {0};
  ir_prim_expr_print(e, &text);
  ir_buf_printf(&t->trace, "[%s]", text.data);
  ir_buf_free(&text);
  return false;
}

static void
trace_leave(const IrStmt *s, void *user)
{
  Trace *t = user;
  ir_buf_puts(&t->trace, ")");
}

static char *
walk_trace(const IrStmt *body, IrStmtKind skip, IrStmtKind stop, bool *stopped)
{
  Trace t = {{0}, skip, stop};
  IrTirVisitor v = {trace_enter, trace_expr, trace_leave, &t};
  *stopped = ir_tir_walk(body, &v);
  return t.trace.data;
}

static void
test_walk_order(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m;
  const IrPrimFunc *f = kernel(ctx, &m);
  bool stopped;
  IrStmtKind none = (IrStmtKind)-1;
  char *all = walk_trace(f->body, none, none, &stopped);
  assert_false(stopped);
  /* entered, then its expressions, then its children, then left */
  assert_string_equal(all, "for([0][3]block([0][3][i]if([A[v] != T.float32(0.0)]"
                           "store([v][T.Cast(\"float32\", T.isnan(A[v])) + T.Cast(\"float32\", "
                           "T.isinf(A[v])) * T.float32(4.0)])store([v][T.float32(2.0)]))))");
  free(all);
  char *skipped = walk_trace(f->body, IR_ST_IF, none, &stopped);
  assert_false(stopped);
  assert_string_equal(skipped, "for([0][3]block([0][3][i]if())");
  free(skipped);
  char *cut = walk_trace(f->body, none, IR_ST_STORE, &stopped);
  assert_true(stopped);
  assert_string_equal(cut, "for([0][3]block([0][3][i]if([A[v] != T.float32(0.0)]store(");
  free(cut);
  ir_ctx_free(ctx);
}

static bool
is_load(const IrPrimExpr *e, void *user)
{
  int *loads = user;
  *loads += e->kind == IR_PE_LOAD;
  return false;
}

static void
test_walk_helpers(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m;
  const IrPrimFunc *f = kernel(ctx, &m);
  assert_true(ir_stmt_stores_into(f->body, f->params[1].buffer));
  assert_false(ir_stmt_stores_into(f->body, f->params[0].buffer));
  const IrStmt *s = f->body; /* for > block > if > store */
  while (s->kind != IR_ST_IF)
    s = s->kind == IR_ST_FOR ? s->u.loop.body : s->u.block->body;
  const IrPrimExpr *value = s->u.branch.then_->u.store.value;
  int loads = 0;
  assert_false(ir_prim_walk(value, is_load, &loads));
  assert_int_equal(loads, 2);
  IrVec vars = {0};
  ir_prim_expr_vars(value, &vars);
  assert_int_equal(vars.len, 1); /* v */
  ir_vec_free(&vars);
  ir_ctx_free(ctx);
}

/* A store through a buffer declared over a parameter's data (a view of a
 * view here) stores into the parameter; a load through one does not. */
static void
test_stores_through_views(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = fe_parse_string(ctx, "views.py",
                                "@T.prim_func\n"
                                "def f(A: T.Buffer((2, 2), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
                                "    a = A.view(4)\n"
                                "    b = T.decl_buffer((2, 2), \"float32\", data=B.data)\n"
                                "    c = b.view(4)\n"
                                "    c[1] = a[1]\n");
  if (!m)
    ir_diag_print(ctx, stderr);
  assert_non_null(m);
  const IrPrimFunc *f = m->globals[0].u.prim;
  assert_true(ir_stmt_stores_into(f->body, f->params[1].buffer));
  assert_false(ir_stmt_stores_into(f->body, f->params[0].buffer));
  ir_ctx_free(ctx);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_intrin_find),  cmocka_unit_test(test_intrin_rows),
      cmocka_unit_test(test_interp_isnan), cmocka_unit_test(test_walk_order),
      cmocka_unit_test(test_walk_helpers), cmocka_unit_test(test_stores_through_views),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
