/*
 * kernel_conv.c - a float32 NCHW/OIHW conv2d (batch 1) three ways, for
 * bench/bench.py: rxc's generated entry k_main (built with -DSZ_ and C, H, W, O,
 * KH, KW, SH, SW, PT, PL, G, OH, OW and -include of the generated header),
 * an im2col + OpenBLAS cblas_sgemm baseline (one sgemm per group; the
 * im2col copy is inside the timing), and a naive direct loop nest.
 * Prints one JSON object as kernel_matmul.c does.
 */
#include <cblas.h>
#include <stdio.h>

#include "kernel_common.h"

#define CG (SZ_C / SZ_G)
#define OG (SZ_O / SZ_G)
#define KK (CG * SZ_KH * SZ_KW) /* rows of the im2col matrix of one group */
#define P (SZ_OH * SZ_OW)       /* its columns */

typedef struct {
  const float *x, *w;
  float *out, *col;
  void *arena;
} Env;

static void
run_rxc(void *p)
{
  Env *e = p;
  if (k_main(e->arena, k_main_ARENA_BYTES, e->x, e->w, e->out) != 0)
    abort();
}

/* x at channel c, input row y, column z; 0 in the padding. */
static float
pixel(const float *x, long c, long y, long z)
{
  return y < 0 || y >= SZ_H || z < 0 || z >= SZ_W ? 0.0f : x[(c * SZ_H + y) * SZ_W + z];
}

static void
im2col(const float *x, long g, float *col)
{
  for (long c = 0; c < CG; c++)
    for (long ky = 0; ky < SZ_KH; ky++)
      for (long kx = 0; kx < SZ_KW; kx++) {
        float *row = col + ((c * SZ_KH + ky) * SZ_KW + kx) * P;
        for (long y = 0; y < SZ_OH; y++)
          for (long z = 0; z < SZ_OW; z++)
            row[y * SZ_OW + z] = pixel(x, g * CG + c, y * SZ_SH - SZ_PT + ky, z * SZ_SW - SZ_PL + kx);
      }
}

static void
run_blas(void *p)
{
  Env *e = p;
  for (long g = 0; g < SZ_G; g++) {
    im2col(e->x, g, e->col);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, OG, P, KK, 1.0f, e->w + g * OG * KK,
                KK, e->col, P, 0.0f, e->out + g * OG * P, P);
  }
}

static void
run_naive(void *p)
{
  Env *e = p;
  for (long o = 0; o < SZ_O; o++)
    for (long y = 0; y < SZ_OH; y++)
      for (long z = 0; z < SZ_OW; z++) {
        float s = 0;
        long g = o / OG;
        for (long c = 0; c < CG; c++)
          for (long ky = 0; ky < SZ_KH; ky++)
            for (long kx = 0; kx < SZ_KW; kx++)
              s += pixel(e->x, g * CG + c, y * SZ_SH - SZ_PT + ky, z * SZ_SW - SZ_PL + kx) *
                   e->w[((o * CG + c) * SZ_KH + ky) * SZ_KW + kx];
        e->out[(o * SZ_OH + y) * SZ_OW + z] = s;
      }
}

int
main(void)
{
  unsigned seed = 7;
  float *x = random_floats((long)SZ_C * SZ_H * SZ_W, &seed), *w = random_floats((long)SZ_O * KK, &seed);
  float *out[3] = {random_floats((long)SZ_O * P, &seed), random_floats((long)SZ_O * P, &seed),
                   random_floats((long)SZ_O * P, &seed)};
  float *col = random_floats((long)KK * P, &seed);
  void *arena = aligned_alloc(64, k_main_ARENA_BYTES + 64);
  Env e[3] = {{x, w, out[0], col, arena}, {x, w, out[1], col, arena}, {x, w, out[2], col, arena}};
  double t_rxc = time_it(run_rxc, &e[0]), t_blas = time_it(run_blas, &e[1]);
  double t_naive = time_it(run_naive, &e[2]);
  printf("{\"rxc_s\": %.6g, \"openblas_s\": %.6g, \"naive_s\": %.6g, \"rxc_err\": %.3g, "
         "\"naive_err\": %.3g}\n",
         t_rxc, t_blas, t_naive, max_abs_diff(out[0], out[1], (long)SZ_O * P),
         max_abs_diff(out[2], out[1], (long)SZ_O * P));
  return 0;
}
