/*
 * conv_dw.c - the float32 fast path of a depthwise conv2d (groups equal to
 * the input channels, one filter per channel).
 */
#include "conv_int.h"

bool
op_conv_depthwise(OpPrim *p, const Window *w, BufView *x, BufView *k, BufView *out)
{
  (void)p, (void)w, (void)x, (void)k, (void)out;
  return false;
}
