/*
 * kernel_common.h - what the kernel drivers share: a clock, a median, and
 * the timing of one way to compute a kernel (median of REPS runs, 3 when a
 * call takes over 0.2 s, each run repeating the call until it lasts about
 * 20 ms).
 */
#ifndef BENCH_KERNEL_COMMON_H
#define BENCH_KERNEL_COMMON_H

#include <stdlib.h>
#include <time.h>

enum { REPS = 5 };

static double
now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int
by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median seconds per call of run(env). */
static double
time_it(void (*run)(void *env), void *env)
{
  run(env);
  double t0 = now();
  run(env);
  double one = now() - t0;
  int calls = one < 0.02 ? (int)(0.02 / (one > 1e-7 ? one : 1e-7)) + 1 : 1;
  int reps = one > 0.2 ? 3 : REPS; /* slow loops (the naive 1024^3): 3 runs */
  double runs[REPS];
  for (int r = 0; r < reps; r++) {
    t0 = now();
    for (int c = 0; c < calls; c++)
      run(env);
    runs[r] = (now() - t0) / calls;
  }
  qsort(runs, (size_t)reps, sizeof *runs, by_value);
  return runs[reps / 2];
}

static float *
random_floats(long n, unsigned *seed)
{
  float *p = aligned_alloc(64, ((size_t)n * sizeof(float) + 63) / 64 * 64);
  for (long i = 0; i < n; i++)
    p[i] = (float)(rand_r(seed) % 2000) / 1000.0f - 1.0f;
  return p;
}

static double
max_abs_diff(const float *a, const float *b, long n)
{
  double m = 0;
  for (long i = 0; i < n; i++) {
    double d = (double)a[i] - (double)b[i];
    if (d < 0)
      d = -d;
    if (d > m)
      m = d;
  }
  return m;
}

#endif
