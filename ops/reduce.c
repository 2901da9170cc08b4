/* reduce.c - stub: no op of this category is implemented yet. */
#include "op.h"

const OpImpl *
op_reduce_impl(IrOpId id)
{
  (void)id;
  return NULL;
}
