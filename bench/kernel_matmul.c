/*
 * kernel_matmul.c - C[M, N] = A[M, K] B[K, N] in float32 three ways, for
 * bench/bench.py: rxc's generated entry (built with -DSZ_M= -DSZ_N= -DSZ_K= and
 * -include of the generated header, entry k_main), OpenBLAS's cblas_sgemm
 * (run with OPENBLAS_NUM_THREADS=1) and a naive i-j-k triple loop.
 * Prints one JSON object: seconds per call of each, and the largest
 * difference of rxc's and the naive result from OpenBLAS's.
 */
#include <cblas.h>
#include <stdio.h>

#include "kernel_common.h"

typedef struct {
  const float *a, *b;
  float *c;
  void *arena;
} Env;

static void
run_rxc(void *p)
{
  Env *e = p;
  if (k_main(e->arena, k_main_ARENA_BYTES, e->a, e->b, e->c) != 0)
    abort();
}

static void
run_blas(void *p)
{
  Env *e = p;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, SZ_M, SZ_N, SZ_K, 1.0f, e->a, SZ_K, e->b, SZ_N, 0.0f,
              e->c, SZ_N);
}

static void
run_naive(void *p)
{
  Env *e = p;
  for (long i = 0; i < SZ_M; i++)
    for (long j = 0; j < SZ_N; j++) {
      float s = 0;
      for (long k = 0; k < SZ_K; k++)
        s += e->a[i * SZ_K + k] * e->b[k * SZ_N + j];
      e->c[i * SZ_N + j] = s;
    }
}

int
main(void)
{
  unsigned seed = 7;
  float *a = random_floats((long)SZ_M * SZ_K, &seed), *b = random_floats((long)SZ_K * SZ_N, &seed);
  float *c[3] = {random_floats((long)SZ_M * SZ_N, &seed), random_floats((long)SZ_M * SZ_N, &seed),
                 random_floats((long)SZ_M * SZ_N, &seed)};
  void *arena = aligned_alloc(64, k_main_ARENA_BYTES + 64);
  Env e[3] = {{a, b, c[0], arena}, {a, b, c[1], arena}, {a, b, c[2], arena}};
  double t_rxc = time_it(run_rxc, &e[0]), t_blas = time_it(run_blas, &e[1]);
  double t_naive = time_it(run_naive, &e[2]);
  printf("{\"rxc_s\": %.6g, \"openblas_s\": %.6g, \"naive_s\": %.6g, \"rxc_err\": %.3g, "
         "\"naive_err\": %.3g}\n",
         t_rxc, t_blas, t_naive, max_abs_diff(c[0], c[1], (long)SZ_M * SZ_N),
         max_abs_diff(c[2], c[1], (long)SZ_M * SZ_N));
  return 0;
}
