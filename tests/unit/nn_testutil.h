/* nn_testutil.h - helpers of test_ops_nn.c and test_ops_linalg.c: parse a
 * one-call function, run an op's inference on its arguments' annotations,
 * run its kernel on tensors made from double arrays, a fixed-seed random
 * source for reference comparisons. */
#ifndef RXC_NN_TESTUTIL_H
#define RXC_NN_TESTUTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../frontend/fe.h"
#include "../../ir/ir.h"
#include "../../ops/op.h"

/* One parsed call "y = CALL" in a function of the given params. */
typedef struct {
  IrCtx *ctx;
  IrFunction *fn;
  const IrExpr *call; /* NULL when the text did not parse */
  IrSym binding;
  IrLoc loc;
} NtCall;

/* decls: lines such as "n = T.int64()" (each ending in "\n"), or "". */
static inline NtCall
nt_parse(const char *params, const char *decls, const char *call)
{
  NtCall c = {0};
  IrBuf text = {0};
  c.ctx = ir_ctx_new();
  ir_buf_printf(&text, "@R.function\ndef main(%s):\n", params);
  for (const char *p = decls; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    ir_buf_printf(&text, "    %.*s\n", (int)len, p);
    p += len + (nl ? 1 : 0);
  }
  ir_buf_printf(&text, "    y = %s\n    return y\n", call);
  IrModule *m = fe_parse_string(c.ctx, "t.py", text.data);
  ir_buf_free(&text);
  if (!m) {
    ir_diag_print(c.ctx, stderr);
    return c;
  }
  c.fn = m->globals[0].u.relax;
  IrBinding *b = &c.fn->body->u.seq.blocks[0].bindings[0];
  c.call = b->value;
  c.binding = b->var->u.var.name;
  c.loc = b->value->loc;
  return c;
}

/* The struct info inferred for the call, printed, or "error: MSG" with the
 * first diagnostic; malloc'd. */
static inline char *
nt_infer(const char *params, const char *decls, const char *call)
{
  NtCall c = nt_parse(params, decls, call);
  if (!c.call) {
    ir_ctx_free(c.ctx);
    return strdup("parse error");
  }
  IrArith *arith = ir_arith_new(c.ctx);
  ir_arith_bound_function(arith, c.fn);
  OpInfer in = {c.ctx, arith, NULL, c.binding, c.loc, NULL};
  IrSInfo *args[8];
  for (int i = 0; i < c.call->u.call.nargs && i < 8; i++) {
    IrSInfo *s = c.call->u.call.args[i]->sinfo;
    args[i] = s ? s : ir_sinfo_object(c.ctx);
  }
  IrSInfo *r = op_call_infer(&in, c.call, args);
  IrBuf b = {0};
  if (r)
    ir_sinfo_print(r, &b);
  else if (ir_diag_count(c.ctx) > 0)
    ir_buf_printf(&b, "error: %s", ir_diag_get(c.ctx, 0)->msg);
  else
    ir_buf_puts(&b, "NULL without an error");
  char *s = strdup(b.data ? b.data : "");
  ir_buf_free(&b);
  ir_ctx_free(c.ctx);
  return s;
}

/* A float32 tensor of the given shape filled from vals (or zeros). */
static inline Value *
nt_tensor(IrCtx *ctx, int ndim, const int64_t *shape, const double *vals)
{
  IrLoc loc = {0};
  Value *v = op_tensor_new(ctx, IR_F32, ndim, shape, loc);
  if (vals)
    for (int64_t i = 0, n = op_numel(&v->u.tensor.t); i < n; i++)
      op_set_f(&v->u.tensor.t, i, vals[i]);
  return v;
}

/* Runs the call's kernel; NULL after an error. */
static inline Value *
nt_eval(NtCall *c, Value **args)
{
  OpEval ev = {c->ctx, c->binding, c->loc, NULL};
  return op_call_eval(&ev, c->call, args);
}

/* xorshift64: the same numbers on every run. */
typedef struct {
  uint64_t s;
} NtRng;

static inline double
nt_uniform(NtRng *r)
{
  r->s ^= r->s << 13;
  r->s ^= r->s >> 7;
  r->s ^= r->s << 17;
  return (double)(r->s >> 11) / 9007199254740992.0 * 2.0 - 1.0; /* [-1, 1) */
}

static inline double *
nt_random(NtRng *r, int64_t n)
{
  double *v = malloc(sizeof *v * (size_t)(n ? n : 1));
  for (int64_t i = 0; i < n; i++)
    v[i] = (float)nt_uniform(r); /* representable in float32 */
  return v;
}

/* The largest |got[i] - want[i]| over a tensor value. */
static inline double
nt_max_diff(const Value *got, const double *want)
{
  double worst = 0;
  for (int64_t i = 0, n = op_numel(&got->u.tensor.t); i < n; i++) {
    double d = fabs(op_get_f(&got->u.tensor.t, i) - want[i]);
    if (isnan(d))
      return INFINITY;
    if (d > worst)
      worst = d;
  }
  return worst;
}

/* The value's shape printed as "(2, 3)". */
static inline char *
nt_shape_str(const Value *v)
{
  char buf[256];
  int len = snprintf(buf, sizeof buf, "(");
  for (int i = 0; i < v->u.tensor.t.ndim; i++)
    len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%lld", i ? ", " : "",
                    (long long)v->u.tensor.t.shape[i]);
  snprintf(buf + len, sizeof buf - (size_t)len, ")");
  return strdup(buf);
}

#endif
