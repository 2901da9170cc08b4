/*
 * model_bench.c - times one sample model end to end, for bench/bench.py:
 * rxc's own time from TVMScript to C (rxc_road: read, check, the pipeline
 * with the weights bound, the plan, generation; in process, so no process
 * start),
 * the time gcc -O2 and libtcc take to compile the generated C (through
 * codegen's cg_jit_cc and cg_jit_tcc, as `rxc run --via cc|tcc` does),
 * and the latency of one call of the generated main under gcc -O2, gcc
 * -O3 -march=native and libtcc, on random inputs.
 *
 *   model_bench MODEL.py [WEIGHTS.npz|-] [DIM=VALUE ...]
 *
 * prints one JSON object.  Each figure is the median of REPS runs (a
 * compile of a C file over 1 MiB: one run); a
 * latency run calls the entry enough times to last about 20 ms and takes
 * the mean per call.  Symbolic dims not given take 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../api/road.h"

enum { REPS = 5, MAX_DIMS = 16, MAX_TENSORS = 256 };

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

static double
median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct {
  const char *name[MAX_DIMS];
  int64_t value[MAX_DIMS];
  int n;
} Dims;

/* IrDimLookup over the dims given on the command line; 1 for the others. */
static bool
dim_value(void *user, IrSym name, int64_t *value)
{
  const Dims *d = user;
  *value = 1;
  for (int i = 0; i < d->n; i++)
    if (strcmp(d->name[i], name) == 0)
      *value = d->value[i];
  return true;
}

/* The value of a shape entry over the dims (1 when it has none). */
static int64_t
eval(const Dims *d, const IrPrimExpr *e)
{
  int64_t v;
  return ir_prim_eval(e, dim_value, (void *)d, &v) ? v : 1;
}

/* A tensor of struct info s, filled with values in [-1, 1). */
static void *
new_tensor(const Dims *d, const IrSInfo *s, unsigned *seed)
{
  const __typeof__(s->u.tensor) *t = &s->u.tensor;
  int64_t n = 1;
  for (int i = 0; i < t->ndim; i++)
    n *= eval(d, t->shape[i]);
  size_t bytes = (size_t)(n > 0 ? n : 1) * (t->dtype.bits > 8 ? t->dtype.bits / 8 : 1);
  unsigned char *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (t->dtype.code == IR_DT_FLOAT && t->dtype.bits == 32) {
    for (int64_t i = 0; i < n; i++)
      ((float *)p)[i] = (float)(rand_r(seed) % 2000) / 1000.0f - 1.0f;
  } else {
    memset(p, 0, bytes);
  }
  return p;
}

/* Median seconds per call of entry fn, or -1 when it returns an error. */
static double
latency(CgPackedFn fn, void *arena, size_t bytes, void **tensors, const int64_t *dims)
{
  if (fn(arena, bytes, tensors, dims) != 0)
    return -1;
  double t0 = now();
  int calls = 1;
  fn(arena, bytes, tensors, dims);
  double one = now() - t0;
  if (one < 0.02)
    calls = (int)(0.02 / (one > 1e-7 ? one : 1e-7)) + 1;
  double runs[REPS];
  for (int r = 0; r < REPS; r++) {
    t0 = now();
    for (int c = 0; c < calls; c++)
      fn(arena, bytes, tensors, dims);
    runs[r] = (now() - t0) / calls;
  }
  return median(runs, REPS);
}

/* The model through the road to C, named "bm"; false after printing the
 * diagnostics. */
static bool
build(IrCtx *ctx, const char *model, const char *params, const CfgOptions *cfg, RxcRoadOut *b)
{
  RxcRoadIn in = {.path = model, .params = params, .cfg = cfg, .name = "bm", .jit = true};
  bool ok = rxc_road(ctx, &in, RXC_STAGE_GENERATE, b);
  ir_diag_print(ctx, stderr);
  return ok;
}

/* The median time of REPS builds from TVMScript to C. */
static double
build_time(const char *model, const char *params, const CfgOptions *cfg)
{
  double runs[REPS];
  for (int r = 0; r < REPS; r++) {
    IrCtx *ctx = ir_ctx_new();
    RxcRoadOut b;
    double t0 = now();
    bool ok = build(ctx, model, params, cfg, &b);
    runs[r] = now() - t0;
    if (ok)
      cg_output_free(b.out);
    ir_ctx_free(ctx);
    if (!ok)
      return -1;
  }
  return median(runs, REPS);
}

typedef struct {
  const char *label;
  const char *flags; /* NULL: libtcc */
} Compiler;

/* Compiles out REPS times with c (each timed; the last one kept), prints
 * "label": {"compile_s": .., "latency_s": ..}. */
static bool
bench_compiler(IrCtx *ctx, const RxcRoadOut *b, const Compiler *c, void **tensors,
               const int64_t *dims, bool last)
{
  double runs[REPS];
  CgCompiled *done = NULL;
  /* a large file (MobileNetV2's weights) takes gcc tens of seconds: once */
  int reps = b->out->files[1].text.len > (1u << 20) ? 1 : REPS;
  for (int r = 0; r < reps; r++) {
    if (done)
      cg_compiled_free(done);
    double t0 = now();
    done = c->flags ? cg_jit_cc(ctx, b->out, "gcc", c->flags) : cg_jit_tcc(ctx, b->out);
    runs[r] = now() - t0;
    if (!done)
      return false;
  }
  const CgEntry *e = &b->out->entries[0];
  CgPackedFn fn = cg_compiled_entry(done, e->packed);
  CgArenaFn arena_fn = cg_compiled_arena_fn(done, e);
  /* sized for these dims: an arena without a bound has no constant size */
  size_t bytes = arena_fn ? (arena_fn(dims) + 63) / 64 * 64 : 0;
  void *arena = aligned_alloc(64, bytes ? bytes : 64);
  double lat = fn && arena_fn && arena ? latency(fn, arena, bytes, tensors, dims) : -1;
  free(arena);
  printf("    \"%s\": {\"compile_s\": %.6g, \"latency_s\": %.6g}%s\n", c->label, median(runs, reps),
         lat, last ? "" : ",");
  cg_compiled_free(done);
  return lat >= 0;
}

int
main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: model_bench MODEL.py [WEIGHTS.npz|-] [DIM=VALUE ...]\n");
    return 2;
  }
  const char *params = argc > 2 && strcmp(argv[2], "-") != 0 ? argv[2] : NULL;
  Dims d = {.n = 0};
  for (int i = 3; i < argc && d.n < MAX_DIMS; i++) {
    char *eq = strchr(argv[i], '=');
    if (!eq)
      continue;
    *eq = '\0';
    d.name[d.n] = argv[i];
    d.value[d.n++] = strtoll(eq + 1, NULL, 10);
  }
  CfgOptions cfg;
  cfg_defaults(&cfg);
  double build_s = build_time(argv[1], params, &cfg);
  IrCtx *ctx = ir_ctx_new();
  RxcRoadOut b;
  if (build_s < 0 || !build(ctx, argv[1], params, &cfg, &b))
    return 1;
  const CgEntry *e = &b.out->entries[0];
  void *tensors[MAX_TENSORS];
  int64_t dims[MAX_DIMS];
  unsigned seed = 1;
  int nt = e->ninputs + e->noutputs;
  if (nt > MAX_TENSORS || e->ndims > MAX_DIMS)
    return 1;
  for (int i = 0; i < nt; i++)
    tensors[i] = new_tensor(&d, i < e->ninputs ? e->inputs[i] : e->outputs[i - e->ninputs], &seed);
  for (int i = 0; i < e->ndims; i++)
    dims[i] = eval(&d, e->dims[i]);
  printf("{\n  \"model\": \"%s\",\n  \"rxc_to_c_s\": %.6g,\n  \"arena_bytes\": %lld,\n"
         "  \"c_bytes\": %zu,\n  \"compilers\": {\n",
         argv[1], build_s, (long long)e->arena_bytes, b.out->files[1].text.len);
  static const Compiler comps[] = {{"tcc", NULL},
                                   {"gcc -O2", "-O2"},
                                   {"gcc -O3 -march=native", "-O3 -march=native"}};
  bool ok = true;
  for (int i = 0; i < 3; i++)
    ok = bench_compiler(ctx, &b, &comps[i], tensors, dims, i == 2) && ok;
  printf("  }\n}\n");
  for (int i = 0; i < nt; i++)
    free(tensors[i]);
  cg_output_free(b.out);
  ir_ctx_free(ctx);
  return ok ? 0 : 1;
}
