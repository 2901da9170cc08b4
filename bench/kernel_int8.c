/*
 * kernel_int8.c - one matmul or conv2d computed by rxc's generated code in
 * float32 and in int8 (int8 x int8 -> int32: issue 23's quantized
 * kernels), for bench/bench.py: the same one-op module compiled twice,
 * with entries f_main (float32) and q_main (int8 operands, out_dtype
 * "int32"), each header given by -include.  Built with -DSZ_M= -DSZ_K=
 * -DSZ_N= for C[M, N] = A[M, K] B[K, N], or with -DSZ_CONV and conv2d's
 * macros (those of kernel_conv.c; groups 1 or depthwise).  Prints one
 * JSON object: seconds per call of each, and whether the int8 result
 * equals the float32 one exactly (the operands are small integers in
 * [-8, 8) for both, so every float32 sum is exact, below 2^24).
 */
#include <stdio.h>

#include "kernel_common.h"

#ifdef SZ_CONV
#define SZ_A ((long)SZ_C * SZ_H * SZ_W)
#define SZ_B ((long)SZ_O * (SZ_C / SZ_G) * SZ_KH * SZ_KW)
#define SZ_OUT ((long)SZ_O * SZ_OH * SZ_OW)
#else
#define SZ_A ((long)SZ_M * SZ_K)
#define SZ_B ((long)SZ_K * SZ_N)
#define SZ_OUT ((long)SZ_M * SZ_N)
#endif

typedef struct {
  const void *a, *b;
  void *c;
  void *arena;
} Env;

static void
run_f32(void *p)
{
  Env *e = p;
  if (f_main(e->arena, f_main_ARENA_BYTES, e->a, e->b, e->c) != 0)
    abort();
}

static void
run_int8(void *p)
{
  Env *e = p;
  if (q_main(e->arena, q_main_ARENA_BYTES, e->a, e->b, e->c) != 0)
    abort();
}

/* n small integers in [-8, 8) as float32 (into f) and int8 (into q). */
static void
small_ints(long n, float **f, signed char **q, unsigned *seed)
{
  *f = aligned_alloc(64, ((size_t)n * sizeof(float) + 63) / 64 * 64);
  *q = aligned_alloc(64, ((size_t)n + 63) / 64 * 64);
  for (long i = 0; i < n; i++) {
    int v = (int)(rand_r(seed) % 16) - 8;
    (*f)[i] = (float)v;
    (*q)[i] = (signed char)v;
  }
}

int
main(void)
{
  unsigned seed = 7;
  float *fa, *fb, *fc = aligned_alloc(64, ((size_t)SZ_OUT * 4 + 63) / 64 * 64);
  signed char *qa, *qb;
  int *qc = aligned_alloc(64, ((size_t)SZ_OUT * 4 + 63) / 64 * 64);
  small_ints(SZ_A, &fa, &qa, &seed);
  small_ints(SZ_B, &fb, &qb, &seed);
  size_t bytes = f_main_ARENA_BYTES > q_main_ARENA_BYTES ? f_main_ARENA_BYTES : q_main_ARENA_BYTES;
  void *arena = aligned_alloc(64, (bytes + 64) / 64 * 64);
  Env f = {fa, fb, fc, arena}, q = {qa, qb, qc, arena};
  double t_f32 = time_it(run_f32, &f), t_int8 = time_it(run_int8, &q);
  long differ = 0;
  for (long i = 0; i < SZ_OUT; i++)
    differ += (float)qc[i] != fc[i];
  printf("{\"f32_s\": %.6g, \"int8_s\": %.6g, \"differ\": %ld}\n", t_f32, t_int8, differ);
  return 0;
}
