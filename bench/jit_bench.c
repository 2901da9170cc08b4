/*
 * jit_bench.c - one model through the library API's JIT, for
 * bench/real_models.py: the time of rxc_jit_file (the file read, checked,
 * the pipeline, the plan, the C generated with the weights as a blob and
 * compiled by libtcc in memory: a callable entry), then the latency of
 * its entry "main" on one float32 input, as a user of api/rxc.h sees it.
 *
 *   jit_bench MODEL.onnx IN.bin OUT.bin NIN NOUT MIN_RUNS SECONDS
 *
 * NIN and NOUT count the floats of the one input and the one output.
 * rxc_jit_file is timed three times (once when the first takes over 2 s)
 * and the median kept; each model is freed but the last.  Then one
 * warm-up call, and calls until there are MIN_RUNS of them and they took
 * SECONDS; the median of their CPU times (the process's) and of their
 * wall times.  Writes the output of the last call to OUT.bin and prints
 * one JSON object: {"jit_s": .., "jit_reps": .., "ms": CPU, "wall_ms": ..,
 * "runs": ..}.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../api/rxc.h"

enum { MAX_RUNS = 1000, JIT_REPS = 3 };

static double
clock_s(clockid_t c)
{
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double
now(void)
{
  return clock_s(CLOCK_MONOTONIC);
}

static int
by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
  if (argc != 8) {
    fprintf(stderr, "usage: jit_bench MODEL.onnx IN.bin OUT.bin NIN NOUT MIN_RUNS SECONDS\n");
    return 2;
  }
  size_t nin = strtoull(argv[4], NULL, 10), nout = strtoull(argv[5], NULL, 10);
  int min_runs = atoi(argv[6]);
  double seconds = atof(argv[7]);
  float *in = malloc(nin * sizeof *in), *out = malloc(nout * sizeof *out);
  FILE *f = fopen(argv[2], "rb");
  if (!in || !out || !f || fread(in, sizeof *in, nin, f) != nin)
    return 2;
  fclose(f);

  static double jit[JIT_REPS], cpu[MAX_RUNS], wall[MAX_RUNS];
  RxcModel *m = NULL;
  int reps = 0;
  while (reps < JIT_REPS && (reps == 0 || jit[0] <= 2.0)) {
    rxc_model_free(m);
    double t0 = now();
    m = rxc_jit_file(argv[1], NULL, stderr);
    jit[reps++] = now() - t0;
    if (!m)
      return 1;
  }
  RxcEntry fn = rxc_model_entry(m, "main");
  int64_t dims[1] = {0};
  size_t bytes;
  if (!fn || rxc_model_arena_bytes_for(m, "main", dims, &bytes) != 0)
    return 3;
  void *arena = aligned_alloc(rxc_model_arena_align(m), bytes ? bytes : rxc_model_arena_align(m));
  void *tensors[] = {in, out};
  int rc = arena ? fn(arena, bytes, tensors, dims) : -1;
  if (rc != 0) {
    fprintf(stderr, "jit_bench: %s\n", rxc_model_strerror(rc));
    return 3;
  }
  int n = 0;
  double start = now();
  while (n < min_runs || (n < MAX_RUNS && now() - start < seconds)) {
    double w0 = now(), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    fn(arena, bytes, tensors, dims);
    cpu[n] = (clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1e3;
    wall[n++] = (now() - w0) * 1e3;
  }
  qsort(jit, (size_t)reps, sizeof *jit, by_value);
  qsort(cpu, (size_t)n, sizeof *cpu, by_value);
  qsort(wall, (size_t)n, sizeof *wall, by_value);
  f = fopen(argv[3], "wb");
  if (!f || fwrite(out, sizeof *out, nout, f) != nout)
    return 4;
  fclose(f);
  printf("{\"jit_s\": %.6f, \"jit_reps\": %d, \"ms\": %.6f, \"wall_ms\": %.6f, \"runs\": %d}\n",
         jit[reps / 2], reps, cpu[n / 2], wall[n / 2], n);
  free(arena);
  rxc_model_free(m);
  free(in);
  free(out);
  return 0;
}
