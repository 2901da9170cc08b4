/*
 * table.c - the operator table: an op's entry by id or by name.
 *
 * Key idea: each category file holds its entries in id order, and
 * ops/op_ids.awk numbered the ids through the same files in the same order
 * (the Makefile's OP_TABLE_SRCS), so an id is found by counting through
 * the category tables, with no table filled at run time (the library is
 * used from threads) and no id written twice.
 */
#include <assert.h>
#include <string.h>

#include "op.h"

/* In the order of OP_TABLE_SRCS. */
static const OpTable *const tables[] = {
    &op_elementwise_table, &op_nn_table,     &op_linalg_table,  &op_manip_table,
    &op_create_table,      &op_reduce_table, &op_sort_table,    &op_builtin_table,
    &op_core_table,        &op_qdq_table,    &op_image_table,   &op_vision_table,
};

const OpDef *
op_def(IrOpId id)
{
  if ((int)id < 0 || id >= IR_OP_COUNT)
    return NULL;
  int i = (int)id;
  for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++) {
    if (i < tables[k]->n) {
      const OpDef *d = &tables[k]->defs[i];
      assert(d->syn.id == id); /* the table and the generated enum agree */
      return d;
    }
    i -= tables[k]->n;
  }
  UNREACHABLE();
  return NULL;
}

const OpDef *
op_find(const char *name)
{
  size_t skip = 0;
  if (strncmp(name, "R.", 2) == 0)
    skip = strlen("relax."); /* compare the rest of each IR name with name + 2 */
  for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++) {
    for (int i = 0; i < tables[k]->n; i++) {
      const char *full = tables[k]->defs[i].syn.name;
      if (skip ? strcmp(full + skip, name + 2) == 0 : strcmp(full, name) == 0)
        return &tables[k]->defs[i];
    }
  }
  return NULL;
}

const OpImpl *
op_impl(IrOpId id)
{
  static const OpImpl none;
  const OpDef *d = op_def(id);
  return d ? &d->impl : &none;
}

bool
op_checks_data(const IrExpr *call)
{
  const IrOpDef *syn = call->u.call.op;
  if (!(op_of(syn)->flags & OP_CHECKS_DATA))
    return false;
  if (syn->id != IR_OP_DIVIDE && syn->id != IR_OP_FLOOR_DIVIDE && syn->id != IR_OP_MOD &&
      syn->id != IR_OP_FLOOR_MOD)
    return true;
  for (int i = 0; i < call->u.call.nargs; i++) { /* a float operand: a float division */
    const IrSInfo *s = call->u.call.args[i]->sinfo; /* unknown: maybe an integer one */
    IrDTypeCode c = s && s->kind == IR_SI_TENSOR ? s->u.tensor.dtype.code
                    : s && s->kind == IR_SI_PRIM ? s->u.prim.dtype.code
                                                 : IR_DT_VOID;
    if (c == IR_DT_FLOAT || c == IR_DT_BFLOAT)
      return false;
  }
  return true;
}

IrSInfo *
op_call_infer(OpInfer *in, const IrExpr *call, IrSInfo **args)
{
  const OpImpl *impl = op_impl(call->u.call.op->id);
  OpSite s = op_site_infer(in, call);
  return impl->infer ? impl->infer(in, &s, args) : NULL;
}

Value *
op_call_eval(OpEval *ev, const IrExpr *call, Value **args)
{
  const OpImpl *impl = op_impl(call->u.call.op->id);
  OpSite s = op_site_eval(ev, call);
  return impl->eval ? impl->eval(ev, &s, args) : NULL;
}

IrExpr *
op_call_legalize(OpLegalize *lz, const IrExpr *call, IrSInfo *result)
{
  const OpImpl *impl = op_impl(call->u.call.op->id);
  OpSite s = op_site_legalize(lz, call);
  return impl->legalize ? impl->legalize(lz, &s, result) : NULL;
}
