/*
 * kern.c - which precompiled copy of a kernel the libtcc JIT binds.
 *
 * tcc has no vector types and optimizes little, so a module it compiles
 * would run the scalar form of rt/'s kernels.  librxc carries them
 * compiled by the system compiler instead (kern_copy.c at -O3, once per
 * x86 level: the x86-64 baseline, v3's AVX2 and FMA, v4's AVX-512; one
 * copy at the build's flags on other machines), and jit.c binds each
 * kernel's name to the best copy this CPU runs, asked of
 * __builtin_cpu_supports each time a module is bound (a few loads: no
 * cached state).  Every copy gives the same bits (kern_copy.c).
 *
 * The v3 and v4 copies are built with exactly the features checked here
 * (the Makefile's KERN_FLAGS_*), so no copy can meet an instruction the
 * CPU lacks.
 */
#include <string.h>

#include "cg_int.h"

#define COPY(kernel, level, name)                                                                  \
  {                                                                                                \
    #kernel, level, (CgKernFn)cg_##name                                                            \
  }

static const CgKernCopy copies[] = {
#ifdef CG_KERN_X86
    COPY(rxc_k_gemm_f32, "x86-64-v4", kern_gemm_f32_v4),
    COPY(rxc_k_gemm_f32, "x86-64-v3", kern_gemm_f32_v3),
    COPY(rxc_k_gemm_f32, "x86-64", kern_gemm_f32_base),
    COPY(rxc_k_row_f32, "x86-64-v4", kern_row_f32_v4),
    COPY(rxc_k_row_f32, "x86-64-v3", kern_row_f32_v3),
    COPY(rxc_k_row_f32, "x86-64", kern_row_f32_base),
#else
    COPY(rxc_k_gemm_f32, "host", kern_gemm_f32_host),
    COPY(rxc_k_row_f32, "host", kern_row_f32_host),
#endif
};

enum { NCOPIES = (int)(sizeof copies / sizeof copies[0]) };

const CgKernCopy *
cg_kern_copies(int *n)
{
  *n = NCOPIES;
  return copies;
}

bool
cg_kern_usable(const CgKernCopy *copy)
{
#ifdef CG_KERN_X86
  __builtin_cpu_init(); /* idempotent; needed only before constructors ran */
  bool v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
            __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
  if (strcmp(copy->level, "x86-64-v3") == 0)
    return v3;
  if (strcmp(copy->level, "x86-64-v4") == 0)
    return v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl");
#endif
  (void)copy;
  return true;
}

CgKernFn
cg_kern_chosen(const char *kernel)
{
  for (int i = 0; i < NCOPIES; i++)
    if (strcmp(copies[i].kernel, kernel) == 0 && cg_kern_usable(&copies[i]))
      return copies[i].fn;
  return NULL;
}
