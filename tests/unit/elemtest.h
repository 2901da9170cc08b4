/* elemtest.h - helpers of the op tests (test_ops_elementwise.c,
 * test_ops_reduce.c): parse a small function, run an op's inference on one
 * of its bindings and print the result, run its kernel on hand-made
 * values, compare tensors with expected numbers. */
#ifndef RXC_ELEMTEST_H
#define RXC_ELEMTEST_H

#include <math.h>

#include "../../ops/op.h"
#include "testutil.h"

typedef struct {
  IrCtx *ctx;
  IrModule *mod;
  const IrFunction *fn; /* "main" */
  IrArith *arith;       /* with main's bounds */
} OpFix;

/* Parses text (a lone @R.function main); fails the test on a parse error. */
static inline OpFix
opfix_new(const char *text)
{
  OpFix f = {0};
  f.ctx = ir_ctx_new();
  f.mod = fe_parse_string(f.ctx, "t.py", text);
  if (!f.mod) {
    char *d = tu_diag_text(f.ctx);
    fail_msg("parse failed:\n%s", d);
    free(d);
  }
  const IrGlobal *g = ir_module_find(f.mod, ir_sym(f.ctx, "main"));
  assert_non_null(g);
  f.fn = g->u.relax;
  f.arith = ir_arith_new(f.ctx);
  ir_arith_bound_function(f.arith, f.fn);
  return f;
}

static inline void
opfix_free(OpFix *f)
{
  ir_ctx_free(f->ctx);
}

/* The call bound to the var named name in main's body. */
static inline const IrExpr *
opfix_call(OpFix *f, const char *name)
{
  const IrExpr *body = f->fn->body;
  for (int b = 0; b < body->u.seq.nblocks; b++) {
    const IrBindingBlock *blk = &body->u.seq.blocks[b];
    for (int i = 0; i < blk->n; i++)
      if (strcmp(blk->bindings[i].var->u.var.name, name) == 0) {
        assert_int_equal(blk->bindings[i].value->kind, IR_EX_CALL);
        return blk->bindings[i].value;
      }
  }
  fail_msg("no binding %s", name);
  return NULL;
}

/* The struct info inference sees for an argument: a var's annotation, a
 * prim value's dtype, else unknown. */
static inline IrSInfo *
opfix_arg_sinfo(OpFix *f, const IrExpr *arg)
{
  if (arg->sinfo)
    return arg->sinfo;
  if (arg->kind == IR_EX_PRIM)
    return ir_sinfo_prim(f->ctx, arg->u.prim->dtype, NULL);
  return ir_sinfo_object(f->ctx);
}

/* Runs the op's inference on binding name (with arith, or none when
 * no_arith); returns the printed struct info, or "error: MESSAGE" with
 * the first diagnostic (then cleared).  Static buffer: use before the
 * next call. */
static inline const char *
opfix_infer_with(OpFix *f, const char *name, bool no_arith)
{
  static char text[512];
  const IrExpr *call = opfix_call(f, name);
  IrSInfo *args[8];
  assert_true(call->u.call.nargs <= 8);
  for (int i = 0; i < call->u.call.nargs; i++)
    args[i] = opfix_arg_sinfo(f, call->u.call.args[i]);
  OpInfer in = {f->ctx, no_arith ? NULL : f->arith, f->mod, ir_sym(f->ctx, name), call->loc, NULL};
  const OpImpl *impl = op_impl(call->u.call.op->id);
  assert_non_null(impl->infer);
  IrSInfo *s = op_call_infer(&in, call, args);
  if (!s) {
    assert_true(ir_error_count(f->ctx) > 0);
    snprintf(text, sizeof text, "error: %s", ir_diag_get(f->ctx, 0)->msg);
    ir_diag_clear(f->ctx);
    return text;
  }
  assert_int_equal(ir_error_count(f->ctx), 0);
  IrBuf b = {0};
  ir_sinfo_print(s, &b);
  snprintf(text, sizeof text, "%s", b.data ? b.data : "");
  ir_buf_free(&b);
  return text;
}

static inline const char *
opfix_infer(OpFix *f, const char *name)
{
  return opfix_infer_with(f, name, false);
}

/* Runs the op's kernel on binding name with the given argument values;
 * NULL after an error (the first message is left in *err when err). */
static inline Value *
opfix_eval(OpFix *f, const char *name, Value **args, const char **err)
{
  const IrExpr *call = opfix_call(f, name);
  OpEval ev = {f->ctx, ir_sym(f->ctx, name), call->loc, NULL};
  const OpImpl *impl = op_impl(call->u.call.op->id);
  assert_non_null(impl->eval);
  Value *v = op_call_eval(&ev, call, args);
  if (err)
    *err = v ? NULL : ir_diag_get(f->ctx, 0)->msg;
  if (!v)
    assert_true(ir_error_count(f->ctx) > 0);
  return v;
}

/* A tensor of dtype name with the given shape and row-major values. */
static inline Value *
opfix_tensor(OpFix *f, const char *dtype, int ndim, const int64_t *shape, const double *vals)
{
  IrDType t;
  assert_true(ir_dtype_parse(dtype, strlen(dtype), &t));
  int64_t no_dims[1] = {0};
  Value *v = op_tensor_new(f->ctx, t, ndim, shape ? shape : no_dims, (IrLoc){0});
  assert_non_null(v);
  int64_t n = op_numel(&v->u.tensor.t);
  for (int64_t i = 0; i < n; i++)
    op_set_f(&v->u.tensor.t, i, vals[i]);
  return v;
}

/* Asserts v is a tensor of the dtype, shape and values (within relative
 * tolerance tol; NaN matches NaN). */
static inline void
opfix_expect(const Value *v, const char *dtype, int ndim, const int64_t *shape, const double *vals,
             double tol)
{
  char dt[16];
  assert_non_null(v);
  assert_int_equal(v->kind, VAL_TENSOR);
  const IrTensorData *t = &v->u.tensor.t;
  assert_string_equal(ir_dtype_str(t->dtype, dt), dtype);
  assert_int_equal(t->ndim, ndim);
  for (int d = 0; d < ndim; d++)
    assert_int_equal(t->shape[d], shape[d]);
  int64_t n = op_numel(t);
  for (int64_t i = 0; i < n; i++) {
    double got = op_get_f(t, i), want = vals[i];
    if (isnan(want) && isnan(got))
      continue;
    if (!(fabs(got - want) <= tol * fabs(want) + 1e-300) && got != want)
      fail_msg("element %lld: got %.17g, want %.17g", (long long)i, got, want);
  }
}

#endif
