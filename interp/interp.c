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
  return f;
}

static size_t
slot_of(const void *key, int cap)
{
  uintptr_t h = (uintptr_t)key;
  h ^= h >> 17;
  h *= (uintptr_t)0x9E3779B97F4A7C15u;
  return (size_t)(h >> 7) & (size_t)(cap - 1);
}

/* Doubles the table (the old one stays in the arena, unused). */
static void
grow(IrCtx *ctx, Table *f)
{
  int cap = f->cap ? f->cap * 2 : 16;
  const void **keys = ir_alloc(ctx, sizeof *keys * (size_t)cap);
  void **values = ir_alloc(ctx, sizeof *values * (size_t)cap);
  for (int i = 0; i < f->cap; i++) {
    if (!f->keys[i])
      continue;
    size_t s = slot_of(f->keys[i], cap);
    while (keys[s])
      s = (s + 1) & (size_t)(cap - 1);
    keys[s] = f->keys[i];
    values[s] = f->values[i];
  }
  f->keys = keys;
  f->values = values;
  f->cap = cap;
}

static void
table_set(IrCtx *ctx, Table *f, const void *key, void *value)
{
  if (2 * (f->len + 1) > f->cap)
    grow(ctx, f);
  size_t s = slot_of(key, f->cap);
  while (f->keys[s] && f->keys[s] != key)
    s = (s + 1) & (size_t)(f->cap - 1);
  if (!f->keys[s])
    f->len++;
  f->keys[s] = key;
  f->values[s] = value;
}

static void *
table_get(const Table *t, const void *key)
{
  if (!t->cap)
    return NULL;
  size_t s = slot_of(key, t->cap);
  while (t->keys[s]) {
    if (t->keys[s] == key)
      return t->values[s];
    s = (s + 1) & (size_t)(t->cap - 1);
  }
  return NULL;
}

void
interp_frame_set(IrCtx *ctx, Frame *f, const IrExpr *var, Value *value)
{
  table_set(ctx, &f->vars, var, value);
}

Value *
interp_frame_get(const Frame *f, const IrExpr *var)
{
  for (; f; f = f->parent) {
    Value *v = table_get(&f->vars, var);
    if (v)
      return v;
  }
  return NULL;
}

bool
interp_sym_get(const Frame *f, const IrPrimExpr *var, int64_t *out)
{
  for (; f; f = f->parent) {
    const Value *v = table_get(&f->syms, var);
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
  table_set(in->ctx, &f->syms, var, op_prim_int(in->ctx, IR_I64, v));
}

bool
scalar_is_float(IrDType t)
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
