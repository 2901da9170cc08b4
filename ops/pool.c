/*
 * pool.c - legalization of the pools (max_pool2d, avg_pool2d,
 * adaptive_avg_pool2d) to TIR; inference and kernels are in conv.c.
 */
#include "conv_int.h"

/* The pools: max over the window's positions inside the input (starting
 * at the dtype's lowest value), or the sum over them divided by the
 * count of positions inside the input (or, with count_include_pad,
 * inside the padded input), at least 1.  acc holds sum/max and count. */
static IrStmt *
pool_body(OpPrim *p, const Window *w, bool max, IrBuffer *acc, IrPrimExpr *v, IrPrimExpr **pos,
          IrPrimExpr **ext)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *one = op_nn_lit(ctx, op_nn_f64_type(), 1.0);
  IrStmt *count = op_nn_acc_set(p, acc, 1, ir_prim_bin(ctx, IR_PE_ADD, op_nn_acc(p, acc, 1), one));
  IrStmt *st[2];
  st[0] = op_nn_acc_set(p, acc, 0,
                        ir_prim_bin(ctx, max ? IR_PE_MAX : IR_PE_ADD, op_nn_acc(p, acc, 0), v));
  if (max)
    return op_nn_if(p, op_conv_inside(ctx, w, pos, ext), st[0]);
  if (!w->count_include_pad) {
    st[1] = count;
    return op_nn_if(p, op_conv_inside(ctx, w, pos, ext), op_nn_seq(p, st, 2));
  }
  /* count_include_pad: positions before the padded input cannot occur;
   * past it only with ceil_mode */
  IrPrimExpr *padded = NULL;
  for (int a = 0; a < 2 && w->ceil_mode; a++)
    padded = op_nn_and(ctx, padded,
                       ir_prim_bin(ctx, IR_PE_LT, pos[a],
                                   op_nn_add(ctx, ext[a], op_nn_index(ctx, w->pad[a + 2]))));
  st[1] = op_nn_if(p, op_conv_inside(ctx, w, pos, ext), st[0]);
  st[0] = op_nn_if(p, padded, count);
  return op_nn_seq(p, st, 2);
}

IrExpr *
op_nn_legalize_pool2d(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  NnSite s = op_nn_site_legalize(lz, call);
  IrCtx *ctx = lz->ctx;
  IrDType f64 = op_nn_f64_type();
  bool max = call->u.call.op->id == IR_OP_MAX_POOL2D;
  const char *name = max ? "max_pool2d" : "avg_pool2d";
  Window w;
  OpPrim p;
  BufView x, out;
  IrPrimExpr *o[4], **r;
  if (!op_conv_parse_window(&s, &w))
    return NULL;
  op_prim_begin(lz, &p, name);
  IrStmt **slot = op_conv_begin(&p, &w, call, result, name, &x, &out, o);
  if (!slot)
    return NULL;
  IrBuffer *acc = op_nn_acc_new(&p, max ? 1 : 2);
  IrPrimExpr *extent[2] = {op_nn_index(ctx, w.size[0]), op_nn_index(ctx, w.size[1])};
  IrStmt *loops, **body = op_prim_loop_nest(&p, extent, 2, &r, &loops);
  IrPrimExpr *pos[2] = {op_conv_input_pos(ctx, &w, 0, o[2], r[0]), op_conv_input_pos(ctx, &w, 1, o[3], r[1])};
  IrPrimExpr *ext[2] = {op_conv_dim(&x, 2), op_conv_dim(&x, 3)};
  *body = pool_body(&p, &w, max, acc, op_conv_load(&p, &x, o[0], o[1], pos[0], pos[1]), pos, ext);
  IrStmt *init[2] = {op_nn_acc_set(&p, acc, 0, op_nn_lit(ctx, f64, max ? op_conv_lowest(x.b->dtype) : 0.0)),
                     max ? NULL : op_nn_acc_set(&p, acc, 1, op_nn_lit(ctx, f64, 0.0))};
  IrPrimExpr *v = max ? op_nn_acc(&p, acc, 0)
                      : ir_prim_bin(ctx, IR_PE_DIV, op_nn_acc(&p, acc, 0),
                                    ir_prim_bin(ctx, IR_PE_MAX, op_nn_acc(&p, acc, 1),
                                                op_nn_lit(ctx, f64, 1.0)));
  *slot = op_conv_element(&p, op_nn_seq(&p, init, max ? 1 : 2), loops, op_conv_store(&p, &out, o, v));
  return op_prim_finish(&p, call, result);
}

/* One bound of an adaptive window, bound by a let around body:
 * start = (i * in) // out, end = ((i + 1) * in + out - 1) // out. */
static IrStmt *
let_bound(OpPrim *p, IrPrimExpr *var, IrPrimExpr *value, IrStmt *body)
{
  IrStmt *s = ir_stmt_new(p->lz->ctx, IR_ST_LET, p->lz->loc);
  s->u.let.var = var;
  s->u.let.value = value;
  s->u.let.body = body;
  return s;
}

IrExpr *
op_nn_legalize_adaptive_pool2d(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  NnSite s = op_nn_site_legalize(lz, call);
  IrCtx *ctx = lz->ctx;
  IrDType f64 = op_nn_f64_type();
  Window w;
  OpPrim p;
  BufView x, out;
  IrPrimExpr *o[4], **r, *start[2], *end[2], *span[2];
  if (!op_conv_parse_window(&s, &w))
    return NULL;
  op_prim_begin(lz, &p, "adaptive_avg_pool2d");
  IrStmt **slot = op_conv_begin(&p, &w, call, result, "adaptive_pool_avg", &x, &out, o);
  if (!slot)
    return NULL;
  IrBuffer *acc = op_nn_acc_new(&p, 1);
  static const char *const names[2][2] = {{"y0", "y1"}, {"x0", "x1"}};
  for (int a = 0; a < 2; a++) {
    start[a] = ir_prim_var(ctx, ir_sym(ctx, names[a][0]), IR_I64);
    end[a] = ir_prim_var(ctx, ir_sym(ctx, names[a][1]), IR_I64);
    span[a] = op_nn_sub(ctx, end[a], start[a]);
  }
  IrStmt *loops, **body = op_prim_loop_nest(&p, span, 2, &r, &loops);
  IrPrimExpr *v =
      op_conv_load(&p, &x, o[0], o[1], op_nn_add(ctx, start[0], r[0]), op_nn_add(ctx, start[1], r[1]));
  *body = op_nn_acc_set(&p, acc, 0, ir_prim_bin(ctx, IR_PE_ADD, op_nn_acc(&p, acc, 0), v));
  IrPrimExpr *count = ir_prim_bin(ctx, IR_PE_MAX, op_nn_f64(ctx, op_nn_mul(ctx, span[0], span[1])),
                                  op_nn_lit(ctx, f64, 1.0));
  IrStmt *stmt =
      op_conv_element(&p, op_nn_acc_set(&p, acc, 0, op_nn_lit(ctx, f64, 0.0)), loops,
              op_conv_store(&p, &out, o, ir_prim_bin(ctx, IR_PE_DIV, op_nn_acc(&p, acc, 0), count)));
  for (int a = 1; a >= 0; a--) {
    IrPrimExpr *in = op_conv_dim(&x, 2 + a), *n_out = op_conv_dim(&out, 2 + a), *i = o[2 + a];
    IrPrimExpr *hi = op_nn_sub(
        ctx, op_nn_add(ctx, op_nn_mul(ctx, op_nn_add(ctx, i, op_nn_index(ctx, 1)), in), n_out),
        op_nn_index(ctx, 1));
    stmt = let_bound(&p, end[a], op_nn_floordiv(ctx, hi, n_out), stmt);
    stmt = let_bound(&p, start[a], op_nn_floordiv(ctx, op_nn_mul(ctx, i, in), n_out), stmt);
  }
  *slot = stmt;
  return op_prim_finish(&p, call, result);
}
