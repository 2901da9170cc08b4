/*
 * runtime.c - the runtime pieces every generated NAME.c carries, as text.
 *
 * Key idea: the pieces live as ordinary headers in rt/ (readable, tested as
 * C); the build turns each into a string-literal macro (rt/embed.awk writes
 * $(BUILD)/gen/rt_embed.h) and this file joins them by literal concatenation,
 * so the texts are constants of the binary: nothing is read at run time.
 * Each piece has its own include guard, so NAME.h may carry the types and
 * NAME.c the types again and the math, in either order.
 */
#include <string.h>

#include "cg.h"

#include "rt_embed.h"

const char *
cg_runtime_types_text(void)
{
  return RT_TYPES_TEXT;
}

/* Only a NAME.c with an R.print carries it. */
const char *
cg_runtime_print_text(void)
{
  return RT_PRINT_TEXT;
}

/* What the kernels share (rt_kern_base.h): carried once, before the
 * first kernel of a NAME.c calling any; each kernel's header includes it
 * only where its guard is not defined yet, which the text here makes
 * sure of, so NAME.c includes no file. */
const char *
cg_runtime_kernel_base_text(void)
{
  return RT_KERN_BASE_TEXT;
}

static const struct {
  const char *name;
  const char *text;
} kernels[] = {{"rxc_k_gemm_f32", RT_KERN_GEMM_TEXT},
               {"rxc_k_conv_f32", RT_KERN_GEMM_TEXT},
               {"rxc_k_gemm_i8i8_i32", RT_KERN_GEMM_INT_TEXT},
               {"rxc_k_gemm_u8i8_i32", RT_KERN_GEMM_INT_TEXT},
               {"rxc_k_gemm_i8u8_i32", RT_KERN_GEMM_INT_TEXT},
               {"rxc_k_gemm_i32i32_i32", RT_KERN_GEMM_INT_TEXT},
               {"rxc_k_im2col_f32", RT_KERN_COPY_TEXT},
               {"rxc_k_im2col_i8", RT_KERN_COPY_TEXT},
               {"rxc_k_im2col_u8", RT_KERN_COPY_TEXT},
               {"rxc_k_im2col_i32", RT_KERN_COPY_TEXT},
               {"rxc_k_row_f32", RT_KERN_ROW_TEXT}};

enum { NKERNELS = (int)(sizeof kernels / sizeof kernels[0]) };

/* The number of the kernel named name, or rather of the first kernel
 * with its text: a header of rt/ defining several kernels
 * (rt_kern_gemm_int.h, rt_kern_copy.h) is carried once by a NAME.c
 * calling several of them.  -1: none. */
int
cg_runtime_kernel(const char *name)
{
  for (int i = 0; i < NKERNELS; i++)
    if (strcmp(kernels[i].name, name) == 0) {
      for (int j = 0; j < i; j++)
        if (kernels[j].text == kernels[i].text || strcmp(kernels[j].text, kernels[i].text) == 0)
          return j;
      return i;
    }
  return -1;
}

const char *
cg_runtime_kernel_text(int i)
{
  return i >= 0 && i < NKERNELS ? kernels[i].text : NULL;
}

const char *
cg_runtime_text(bool system_libm)
{
  if (system_libm)
    return RT_TYPES_TEXT RT_MATH_BASE_TEXT RT_HALF_TEXT RT_LIBM_TEXT;
  return RT_TYPES_TEXT RT_MATH_BASE_TEXT RT_HALF_TEXT RT_MATH_EXP_TEXT RT_MATH_TRIG_TEXT;
}
