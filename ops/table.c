/*
 * table.c - maps every op to its implementation.  Each category file
 * (elementwise.c, reduce.c, manip.c, nn.c, linalg.c, builtin.c) answers for
 * the ops it defines; an op no file answers for has no hooks.
 */
#include <stdarg.h>

#include "op.h"

static const OpImpl none;

const OpImpl *
op_impl(IrOpId id)
{
  const OpImpl *(*const categories[])(IrOpId) = {
      op_elementwise_impl, op_reduce_impl, op_manip_impl,
      op_nn_impl,          op_linalg_impl, op_builtin_impl,
  };
  for (size_t i = 0; i < sizeof categories / sizeof categories[0]; i++) {
    const OpImpl *impl = categories[i](id);
    if (impl)
      return impl;
  }
  return &none;
}

void
op_error(IrCtx *ctx, IrLoc loc, IrSym binding, const IrOpDef *op, const char *fmt, ...)
{
  IrBuf b = {0};
  va_list ap;
  if (binding)
    ir_buf_printf(&b, "in binding '%s': ", binding);
  if (op)
    ir_buf_printf(&b, "R.%s: ", op->name + 6);
  va_start(ap, fmt);
  ir_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  ir_error(ctx, loc, "%s", b.data);
  ir_buf_free(&b);
}
