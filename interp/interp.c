/*
 * interp.c - the interpreter's entry points and its environments.
 *
 * A Frame maps the variables of one Relax call to their values: Relax vars
 * (IrExpr nodes) and symbolic vars (IrPrimExpr nodes), both keyed by node
 * pointer because identity is by pointer in the IR.  A local function
 * captures the frame it was defined in; calling it makes a frame whose
 * parent is that one, so lookups fall through to the captured values.
 */
#include <string.h>

#include "interp_int.h"

Frame *
interp_frame_new(IrCtx *ctx, Frame *parent)
{
  Frame *f = ir_alloc(ctx, sizeof *f);
  f->parent = parent;
  ir_map_init_arena(&f->vars, ctx); /* a closure keeps its frame as long as ctx lives */
  ir_map_init_arena(&f->syms, ctx);
  return f;
}

void
interp_frame_set(IrCtx *ctx, Frame *f, const IrExpr *var, Value *value)
{
  (void)ctx; /* the frame's maps know their arena */
  ir_map_put(&f->vars, var, value);
}

Value *
interp_frame_get(const Frame *f, const IrExpr *var)
{
  for (; f; f = f->parent) {
    Value *v = ir_map_get(&f->vars, var);
    if (v)
      return v;
  }
  return NULL;
}

bool
interp_sym_get(const Frame *f, const IrPrimExpr *var, int64_t *out)
{
  for (; f; f = f->parent) {
    const Value *v = ir_map_get(&f->syms, var);
    if (v) {
      *out = v->u.prim.i;
      return true;
    }
  }
  return false;
}

void
interp_sym_set(Interp *in, Frame *f, const IrPrimExpr *var, int64_t v)
{
  void **slot = ir_map_slot(&f->syms, var);
  if (!*slot) { /* a new var: remember the order for interp_check_bounds */
    if (f->nsyms == f->sym_cap) {
      f->sym_cap = f->sym_cap ? 2 * f->sym_cap : 8;
      const IrPrimExpr **order = ir_alloc(in->ctx, sizeof *order * (size_t)f->sym_cap);
      if (f->nsyms)
        memcpy(order, f->sym_order, sizeof *order * (size_t)f->nsyms);
      f->sym_order = order;
    }
    f->sym_order[f->nsyms++] = var;
  }
  *slot = op_prim_int(in->ctx, IR_I64, v);
}

bool
interp_scalar_is_float(IrDType t)
{
  return t.code == IR_DT_FLOAT || t.code == IR_DT_BFLOAT;
}

Interp *
interp_new(IrCtx *ctx, const IrModule *m, FILE *print_out)
{
  Interp *in = ir_alloc(ctx, sizeof *in);
  in->ctx = ctx;
  in->mod = m;
  in->print_out = print_out ? print_out : stdout;
  in->trace = NULL;
  return in;
}

void
interp_set_trace(Interp *in, InterpTrace fn, void *user)
{
  in->trace = fn;
  in->trace_user = user;
}

Value *
interp_call(Interp *in, const char *name, Value **args, int nargs)
{
  IrLoc none = {0};
  const IrGlobal *g = ir_module_find(in->mod, ir_sym(in->ctx, name));
  if (!g) {
    ir_error(in->ctx, none, "the module has no function '%s'", name);
    return NULL;
  }
  if (g->kind != IR_GLOBAL_RELAX) {
    ir_error(in->ctx, none, "'%s' is not a Relax function", name);
    return NULL;
  }
  in->depth = 0;
  in->binding = NULL;
  in->loc = g->u.relax->loc;
  Value *r = interp_function(in, g->u.relax, g->name, NULL, args, nargs);
  if (in->printed.len) {
    fwrite(in->printed.data, 1, in->printed.len, in->print_out);
    in->printed.len = 0;
  }
  ir_buf_free(&in->printed);
  return r;
}
