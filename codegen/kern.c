/*
 * kern.c - which precompiled copy of a kernel the libtcc JIT binds.
 *
 * tcc has no vector types and optimizes little, so a module it compiles
 * would run the scalar form of rt/'s kernels.  librxc carries them
 * compiled by the system compiler instead (kern_copy.c at -O3, once per
 * x86 level: the x86-64 baseline, v3's AVX2 and FMA, v4's AVX-512; one
 * copy at the build's flags on other machines; the 8-bit products also
 * v4 with AVX-512 VNNI, whose vpdpbusd sums four byte products a lane),
 * and jit.c binds each kernel's name to the best copy this CPU runs, asked of
 * __builtin_cpu_supports each time a module is bound (a few loads: no
 * cached state).  Every copy gives the same bits (kern_copy.c).
 *
 * The v3, v4 and vnni copies are built with exactly the features checked
 * here (the Makefile's KERN_FLAGS_*), so no copy can meet an instruction
 * the CPU lacks.
 */
#include <string.h>

#include "cg_int.h"

#define COPY(kernel, level, name)                                                                  \
  {                                                                                                \
    "rxc_k_" #kernel, level, (CgKernFn)cg_kern_##kernel##_##name                                   \
  }

static const CgKernCopy copies[] = {
#ifdef CG_KERN_X86
    COPY(gemm_f32, "x86-64-v4", v4),
    COPY(gemm_f32, "x86-64-v3", v3),
    COPY(gemm_f32, "x86-64", base),
    COPY(conv_f32, "x86-64-v4", v4),
    COPY(conv_f32, "x86-64-v3", v3),
    COPY(conv_f32, "x86-64", base),
    /* the 8-bit products: v4 with VNNI's vpdpbusd first */
    COPY(gemm_i8i8_i32, "x86-64-v4+vnni", vnni),
    COPY(gemm_i8i8_i32, "x86-64-v4", v4),
    COPY(gemm_i8i8_i32, "x86-64-v3", v3),
    COPY(gemm_i8i8_i32, "x86-64", base),
    COPY(gemm_u8i8_i32, "x86-64-v4+vnni", vnni),
    COPY(gemm_u8i8_i32, "x86-64-v4", v4),
    COPY(gemm_u8i8_i32, "x86-64-v3", v3),
    COPY(gemm_u8i8_i32, "x86-64", base),
    COPY(gemm_i8u8_i32, "x86-64-v4+vnni", vnni),
    COPY(gemm_i8u8_i32, "x86-64-v4", v4),
    COPY(gemm_i8u8_i32, "x86-64-v3", v3),
    COPY(gemm_i8u8_i32, "x86-64", base),
    COPY(gemm_i32i32_i32, "x86-64-v4", v4),
    COPY(gemm_i32i32_i32, "x86-64-v3", v3),
    COPY(gemm_i32i32_i32, "x86-64", base),
    /* copies: the baseline's SSE2 moves memory as fast as wider ones */
    COPY(im2col_f32, "x86-64", base),
    COPY(im2col_i8, "x86-64", base),
    COPY(im2col_u8, "x86-64", base),
    COPY(im2col_i32, "x86-64", base),
    /* the row kernel ([codegen] rows, under tcc) */
    COPY(row_f32, "x86-64-v4", v4),
    COPY(row_f32, "x86-64-v3", v3),
    COPY(row_f32, "x86-64", base),
#else
    COPY(gemm_f32, "host", host),
    COPY(conv_f32, "host", host),
    COPY(row_f32, "host", host),
    COPY(gemm_i8i8_i32, "host", host),
    COPY(gemm_u8i8_i32, "host", host),
    COPY(gemm_i8u8_i32, "host", host),
    COPY(gemm_i32i32_i32, "host", host),
    COPY(im2col_f32, "host", host),
    COPY(im2col_i8, "host", host),
    COPY(im2col_u8, "host", host),
    COPY(im2col_i32, "host", host),
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
  bool v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
            __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
            __builtin_cpu_supports("avx512vl");
  if (strcmp(copy->level, "x86-64-v4") == 0)
    return v4;
  if (strcmp(copy->level, "x86-64-v4+vnni") == 0)
    return v4 && __builtin_cpu_supports("avx512vnni");
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
