/* runtime.c - stub: the runtime text is generated from rt/ later. */
#include "cg.h"

const char *
cg_runtime_text(bool system_libm)
{
  (void)system_libm;
  return "";
}
