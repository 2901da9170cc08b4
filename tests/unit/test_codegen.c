/*
 * test_codegen.c - the generated C (codegen/gen*.c) against the
 * interpreter: every sample (but the large ones) and the operator models
 * of tests/legalize, tests/memplan and tests/codegen go through -O2, the
 * plan and cg_generate, are compiled by the system compiler (cg_jit_cc,
 * -O2) and called through their packed entries on random inputs, with the
 * symbolic dims at 1 and at their upper bounds; the outputs must agree with
 * the interpreter's on the original module (|a - b| <= 1e-6 + 1e-5 |b|;
 * for a module with a matmul or conv2d, whose legalized forms sum in
 * float32 where the reference kernels sum in float64, tu_close_f32_sums).
 * The arena and the outputs are surrounded by canary bytes that must
 * survive every call.
 *
 * Also: the output compiles with gcc and clang -std=c99 -Wall -Wextra
 * -Werror -pedantic -ffreestanding; it is deterministic; wrong calls (arena
 * one byte short, misaligned, a dim above its bound, inconsistent dims,
 * NULL pointers) return their error code and write nothing; the integer
 * kernels of a quantized block (tests/codegen/int8_kernels.py) hold no
 * floating point.
 *
 * The generated C carries rt/'s math (cg_runtime_text), so these runs test
 * it too.
 *
 * [target] isa: NAME.c names its level and carries its pragmas (none: the
 * same bytes as without the key), and gives the interpreter's results
 * under libtcc, gcc -O2 and clang -O2 with its checks intact; [jit]
 * cc_flags = auto picks -O3 -march=native only where the compiler takes it.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../api/road.h"
#include "../../codegen/cg.h"
#include "../../config/cfg.h"
#include "../../interp/interp.h"
#include "../../memplan/mp.h"
#include "../../opt/opt.h"
#include "testutil.h"

enum { CANARY = 64 }; /* bytes on each side of the arena and of each output */

/* A module through -O<level> and the plan, generated; the original in *orig and
 * the optimized one in *opt.  NULL with the diagnostics printed on error. */
static CgOutput *
generate_at(IrCtx *ctx, const char *path, const char *params, const CfgOptions *cfg, int level,
            const IrModule **orig, const IrModule **opt)
{
  /* the interpreter runs the module with its weights bound: BindParams
   * alone, then the level's pipeline on that, both through the road */
  const OptPass *bind = opt_pass_find("BindParams");
  RxcRoadIn first = {.path = path, .params = params, .cfg = cfg, .passes = &bind, .npasses = 1};
  RxcRoadOut r;
  assert_true(rxc_road(ctx, &first, params ? RXC_STAGE_PASSES : RXC_STAGE_READ, &r));
  const OptPass *passes[64];
  int n = opt_pipeline(level, passes, 64);
  RxcRoadIn in = {.path = path, .module = r.module, .cfg = cfg, .passes = passes,
                  .npasses = n, .name = "model"};
  *orig = r.module;
  bool ok = rxc_road(ctx, &in, RXC_STAGE_GENERATE, &r);
  if (!ok)
    ir_diag_print(ctx, stderr);
  assert_non_null(r.plan);
  *opt = r.module;
  return r.out;
}

static CgOutput *
generate(IrCtx *ctx, const char *path, const char *params, const CfgOptions *cfg,
         const IrModule **orig, const IrModule **opt)
{
  return generate_at(ctx, path, params, cfg, 2, orig, opt);
}

/* --- evaluating shapes ------------------------------------------------------ */

typedef struct {
  const char *names[16];
  int64_t values[16];
  int n;
} Dims;

/* IrDimLookup over d. */
static bool
dim_value(void *user, IrSym name, int64_t *value)
{
  const Dims *d = user;
  for (int i = 0; i < d->n; i++)
    if (strcmp(d->names[i], name) == 0) {
      *value = d->values[i];
      return true;
    }
  return false;
}

static bool
eval_dim(const IrPrimExpr *e, const Dims *d, int64_t *out)
{
  return ir_prim_eval(e, dim_value, (void *)d, out);
}

static int64_t
numel(const IrSInfo *s, const Dims *d, int64_t *shape)
{
  int64_t n = 1;
  for (int i = 0; i < s->u.tensor.ndim; i++) {
    assert_true(eval_dim(s->u.tensor.shape[i], d, &shape[i]));
    n *= shape[i];
  }
  return n;
}

/* --- a call ----------------------------------------------------------------- */

typedef struct {
  unsigned char *arena_mem; /* CANARY + arena + CANARY, 64-aligned */
  size_t arena_bytes;
  unsigned char *out_mem[32];
  size_t out_bytes[32];
  Value *in_vals[128]; /* inputs of the typed signature */
  int nin;
  void *tensors[136];
  int64_t dims[16];
} Call;

static void
fill_random(IrTensorData *t, unsigned *seed)
{
  int64_t n = op_numel(t);
  for (int64_t i = 0; i < n; i++) {
    *seed = *seed * 1103515245u + 12345u;
    double r = (double)((*seed >> 8) & 0xffff) / 65535.0;
    if (t->dtype.code == IR_DT_FLOAT)
      op_set_f(t, i, 2 * r - 1);
    else if (t->dtype.code == IR_DT_BOOL)
      op_set_i(t, i, r > 0.5);
    else
      op_set_i(t, i, (int64_t)(r * 10) - (t->dtype.code == IR_DT_UINT ? 0 : 5));
  }
}

/* Prepares inputs, an arena and outputs for entry e at dims d. */
static void
call_prepare(IrCtx *ctx, const CgEntry *e, const Dims *d, Call *c, unsigned seed)
{
  memset(c, 0, sizeof *c);
  /* an arena that depends on unbounded dims: plenty for the dims used here */
  c->arena_bytes = (size_t)(e->arena_bytes >= 0 ? e->arena_bytes : 1 << 20);
  assert_int_equal(posix_memalign((void **)&c->arena_mem, 64, c->arena_bytes + 2 * CANARY), 0);
  memset(c->arena_mem, 0xa5, c->arena_bytes + 2 * CANARY);
  for (int i = 0; i < e->ninputs; i++) {
    int64_t shape[16];
    numel(e->inputs[i], d, shape);
    Value *v = op_tensor_new(ctx, e->inputs[i]->u.tensor.dtype, e->inputs[i]->u.tensor.ndim, shape,
                             (IrLoc){0});
    assert_non_null(v);
    fill_random(&v->u.tensor.t, &seed);
    c->in_vals[i] = v;
    c->tensors[i] = v->u.tensor.t.data;
  }
  c->nin = e->ninputs;
  for (int i = 0; i < e->noutputs; i++) {
    int64_t shape[16];
    size_t bytes = (size_t)numel(e->outputs[i], d, shape) *
                   (size_t)ir_dtype_bytes(e->outputs[i]->u.tensor.dtype);
    c->out_bytes[i] = bytes;
    c->out_mem[i] = malloc(bytes + 2 * CANARY);
    memset(c->out_mem[i], 0x5a, bytes + 2 * CANARY);
    c->tensors[e->ninputs + i] = c->out_mem[i] + CANARY;
  }
  for (int i = 0; i < e->ndims; i++)
    assert_true(eval_dim(e->dims[i], d, &c->dims[i]));
}

static bool
all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
  for (size_t i = 0; i < n; i++)
    if (p[i] != v)
      return false;
  return true;
}

/* The canaries are intact (and with untouched, the arena and outputs too). */
static void
call_check_canaries(const Call *c, int noutputs, bool untouched)
{
  const unsigned char *a = c->arena_mem;
  assert_true(all_bytes(a, CANARY, 0xa5));
  assert_true(all_bytes(a + CANARY + c->arena_bytes, CANARY, 0xa5));
  if (untouched)
    assert_true(all_bytes(a + CANARY, c->arena_bytes, 0xa5));
  for (int i = 0; i < noutputs; i++) {
    assert_true(all_bytes(c->out_mem[i], CANARY, 0x5a));
    assert_true(all_bytes(c->out_mem[i] + CANARY + c->out_bytes[i], CANARY, 0x5a));
    if (untouched)
      assert_true(all_bytes(c->out_mem[i] + CANARY, c->out_bytes[i], 0x5a));
  }
}

static void
call_free(Call *c, int noutputs)
{
  free(c->arena_mem);
  for (int i = 0; i < noutputs; i++)
    free(c->out_mem[i]);
}

static int
call_run(CgPackedFn fn, Call *c)
{
  return fn(c->arena_mem + CANARY, c->arena_bytes, c->tensors, c->dims);
}

/* --- comparing with the interpreter --------------------------------------- */

static bool
close_enough(double a, double b)
{
  if (a != a || b != b)
    return a != a && b != b;
  if (a == b)
    return true;
  double d = a - b;
  return (d < 0 ? -d : d) <= 1e-6 + 1e-5 * (b < 0 ? -b : b);
}

/* Does m call R.matmul or R.nn.conv2d (whose generated code sums in
 * float32)? */
static bool
sums_in_f32(const IrModule *m)
{
  char *text = tu_print(m);
  bool found = strstr(text, "R.matmul(") || strstr(text, "R.nn.conv2d(");
  free(text);
  return found;
}

static void
compare(const char *what, const IrTensorData *want, const void *got, bool sums32)
{
  IrTensorData g = *want;
  g.data = (void *)got;
  int64_t n = op_numel(want);
  double scale = sums32 && want->dtype.code == IR_DT_FLOAT ? tu_tensor_scale(want) : 0;
  for (int64_t i = 0; i < n; i++) {
    double x = want->dtype.code == IR_DT_FLOAT ? op_get_f(&g, i) : 0;
    double y = want->dtype.code == IR_DT_FLOAT ? op_get_f(want, i) : 0;
    bool ok = want->dtype.code == IR_DT_FLOAT
                  ? (sums32 ? tu_close_f32_sums(x, y, scale) : close_enough(x, y))
                                              : op_get_i(&g, i) == op_get_i(want, i);
    if (!ok) {
      print_error("%s: element %lld: generated %.9g, interpreter %.9g\n", what, (long long)i,
                  op_get_f(&g, i), op_get_f(want, i));
      fail();
    }
  }
}

/* The interpreter's arguments for the original function: tensors in the
 * order of the entry's inputs, shapes and prims from the dims. */
static int
interp_args(IrCtx *ctx, const IrFunction *f, const Call *c, const Dims *d, Value **args)
{
  int k = 0;
  for (int i = 0; i < f->nparams; i++) {
    const IrSInfo *s = f->params[i]->sinfo;
    if (s->kind == IR_SI_SHAPE) {
      int64_t v[16];
      for (int j = 0; j < s->u.shape.ndim; j++)
        assert_true(eval_dim(s->u.shape.values[j], d, &v[j]));
      args[i] = op_shape_new(ctx, v, s->u.shape.ndim);
    } else if (s->kind == IR_SI_PRIM) {
      int64_t v;
      assert_true(eval_dim(s->u.prim.value, d, &v));
      args[i] = op_prim_int(ctx, s->u.prim.dtype, v);
    } else {
      args[i] = c->in_vals[k++];
    }
  }
  return f->nparams;
}

static void
check_against_interp(IrCtx *ctx, const char *path, const IrModule *orig, const CgEntry *e,
                     const Call *c, const Dims *d)
{
  const IrFunction *f = ir_module_find(orig, e->fn)->u.relax;
  Value *args[128];
  int n = interp_args(ctx, f, c, d, args);
  Interp *in = interp_new(ctx, orig, NULL);
  bool sums32 = sums_in_f32(orig);
  Value *r = interp_call(in, e->fn, args, n);
  if (!r)
    ir_diag_print(ctx, stderr);
  assert_non_null(r);
  for (int i = 0; i < e->noutputs; i++) {
    const Value *v = r->kind == VAL_TUPLE ? r->u.tuple.items[i] : r;
    assert_int_equal(v->kind, VAL_TENSOR);
    char what[512];
    snprintf(what, sizeof what, "%s %s output %d", path, e->fn, i);
    compare(what, &v->u.tensor.t, c->tensors[e->ninputs + i], sums32);
  }
}

/* The upper bound of every dim of e (1 when there is none). */
static void
dims_at(const IrModule *opt, const CgEntry *e, bool upper, Dims *d)
{
  IrCtx *ctx = ir_ctx_new();
  IrArith *a = ir_arith_new(ctx);
  ir_arith_bound_function(a, ir_module_find(opt, e->fn)->u.relax);
  d->n = e->ndims;
  for (int i = 0; i < e->ndims; i++) {
    int64_t lo, hi;
    d->names[i] = e->dims[i]->u.var;
    d->values[i] = upper && ir_arith_range(a, e->dims[i], &lo, &hi) && hi < 4096 ? hi : 1;
  }
  ir_ctx_free(ctx);
}

/* out compiled by via: "tcc" (libtcc in memory) or a compiler command run
 * with -O2 (cg_jit_cc). */
static CgCompiled *
compile_via(IrCtx *ctx, const CgOutput *out, const char *via)
{
  return strcmp(via, "tcc") == 0 ? cg_jit_tcc(ctx, out) : cg_jit_cc(ctx, out, via, "-O2");
}

/* Generates path, compiles it with via (compile_via), and compares every
 * entry with the interpreter at dims 1 and at the upper bounds. */
static void
run_model_via(const char *path, const char *params, const CfgOptions *cfg, int level,
              const char *via)
{
  IrCtx *ctx = ir_ctx_new();
  const IrModule *orig, *opt;
  CgOutput *out = generate_at(ctx, path, params, cfg, level, &orig, &opt);
  assert_non_null(out);
  /* LiftWorkspaces: the samples' kernels keep no scratch outside the arena */
  for (int i = 0; i < out->nfiles && strncmp(path, "samples/", 8) == 0; i++)
    assert_null(strstr(out->files[i].text.data, "outside the arena"));
  CgCompiled *comp = compile_via(ctx, out, via);
  if (!comp)
    ir_diag_print(ctx, stderr);
  assert_non_null(comp);
  for (int k = 0; k < out->nentries; k++) {
    const CgEntry *e = &out->entries[k];
    CgPackedFn fn = cg_compiled_entry(comp, e->packed);
    assert_non_null(fn);
    for (int upper = 0; upper < 2; upper++) {
      Dims d;
      dims_at(opt, e, upper, &d);
      Call c;
      call_prepare(ctx, e, &d, &c, 7u + (unsigned)upper);
      int rc = call_run(fn, &c);
      if (rc)
        print_error("%s: error %d\n", path, rc);
      assert_int_equal(rc, 0);
      call_check_canaries(&c, e->noutputs, false);
      check_against_interp(ctx, path, orig, e, &c, &d);
      call_free(&c, e->noutputs);
    }
  }
  cg_compiled_free(comp);
  cg_output_free(out);
  ir_ctx_free(ctx);
}

static void
run_model_at(const char *path, const char *params, const CfgOptions *cfg, int level)
{
  run_model_via(path, params, cfg, level, "cc");
}

static void
run_model(const char *path, const char *params, const CfgOptions *cfg)
{
  run_model_at(path, params, cfg, 2);
}

/* Models the generator cannot take yet, with the reason. */
static const char *const UNSUPPORTED[][2] = {
    {"tests/legalize/control_flow.py", "a local Relax function"},
};

/* Models with tests of their own (their upper bounds fail a check on purpose). */
static const char *const SEPARATE[] = {"tests/codegen/fit_check.py",
                                       "tests/codegen/match_cast_twice.py",
                                       "tests/codegen/data_dims.py"};

static bool
unsupported(const char *path)
{
  for (size_t i = 0; i < sizeof UNSUPPORTED / sizeof UNSUPPORTED[0]; i++)
    if (strcmp(path, UNSUPPORTED[i][0]) == 0)
      return true;
  return false;
}

static void
run_dir(const char *dir, int *count)
{
  int n;
  char **paths = tu_list_py(dir, &n);
  CfgOptions cfg;
  cfg_defaults(&cfg);
  for (int i = 0; i < n; i++) {
    bool separate = false;
    for (size_t k = 0; k < sizeof SEPARATE / sizeof SEPARATE[0]; k++)
      separate = separate || strcmp(paths[i], SEPARATE[k]) == 0;
    if (tu_sample_is_large(paths[i]) || unsupported(paths[i]) || separate)
      continue;
    printf("  %s\n", paths[i]);
    run_model(paths[i], NULL, &cfg);
    (*count)++;
  }
  tu_free_list(paths, n);
}

static void
test_samples(void **state)
{
  (void)state;
  int count = 0;
  run_dir("samples", &count);
  assert_true(count >= 5);
}

static void
test_op_models(void **state)
{
  (void)state;
  int count = 0;
  run_dir("tests/legalize", &count);
  run_dir("tests/memplan", &count);
  run_dir("tests/codegen", &count);
  assert_true(count >= 15);
}

/* -O0 keeps blocks (iterator bindings, T.init), -O1 and -O2 other forms. */
static void
test_levels(void **state)
{
  (void)state;
  const char *paths[] = {"samples/mlp_lowered.py", "samples/digits_cnn.py",
                         "tests/legalize/reduce_symbolic.py",
                         "tests/legalize/manip_concat_split.py"};
  CfgOptions cfg;
  cfg_defaults(&cfg);
  for (int level = 0; level <= OPT_LEVEL_MAX; level++)
    for (int i = 0; i < 4; i++)
      run_model_at(paths[i], NULL, &cfg, level);
}

/* An unsupported construct is an error, not a crash. */
static void
test_unsupported(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CfgOptions cfg;
  cfg_defaults(&cfg);
  const IrModule *orig, *opt;
  ir_diag_clear(ctx);
  CgOutput *out = generate(ctx, "tests/legalize/control_flow.py", NULL, &cfg, &orig, &opt);
  assert_null(out);
  char *text = tu_diag_text(ctx);
  assert_non_null(strstr(text, "local functions"));
  free(text);
  ir_ctx_free(ctx);
}

/* Weights as constants, inline and in NAME_weights.c. */
static void
test_weights(void **state)
{
  (void)state;
  CfgOptions cfg;
  cfg_defaults(&cfg);
  run_model("samples/digits_mlp.py", "samples/digits_mlp.npz", &cfg);
  cfg.codegen.weights = CFG_WEIGHTS_SEPARATE;
  run_model("samples/digits_mlp.py", "samples/digits_mlp.npz", &cfg);
  IrCtx *ctx = ir_ctx_new();
  const IrModule *orig, *opt;
  CgOutput *out =
      generate(ctx, "samples/digits_mlp.py", "samples/digits_mlp.npz", &cfg, &orig, &opt);
  assert_non_null(out);
  assert_int_equal(out->nfiles, 3);
  assert_string_equal(out->files[2].name, "model_weights.c");
  /* 64*32 + 32 + 32*10 + 10 float32 weights */
  assert_non_null(strstr(out->files[0].text.data, "#define model_WEIGHTS_BYTES 9640u"));
  assert_non_null(strstr(out->files[1].text.data, "extern const union model_c0_t"));
  cg_output_free(out);
  ir_ctx_free(ctx);
}

/* x + c with c's 8 values, for test_blob. */
static const char BLOB_MODEL[] =
    "from tvm.script import ir as I\n"
    "from tvm.script import relax as R\n\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((8,), \"float32\")) -> R.Tensor((8,), \"float32\"):\n"
    "        with R.dataflow():\n"
    "            y = R.add(x, R.const([%s], \"float32\"))\n"
    "            R.output(y)\n"
    "        return y\n";

static CgOutput *
blob_generate(IrCtx *ctx, const char *values)
{
  CfgOptions cfg;
  cfg_defaults(&cfg);
  RxcRoadIn in = {.path = "blob.py",
                  .text = ir_printf(ctx, BLOB_MODEL, values),
                  .cfg = &cfg,
                  .name = "m",
                  .jit = true};
  RxcRoadOut r;
  bool ok = rxc_road(ctx, &in, RXC_STAGE_GENERATE, &r);
  ir_diag_print(ctx, stderr);
  assert_true(ok);
  assert_true(r.out->set_weights != NULL);
  return r.out;
}

/* weights = blob: the blob is made 64-byte aligned (the JIT hands it to
 * the code as it is), its constant after the 64-byte header and zeros
 * after that; two models whose weights differ in one word differ in the
 * header's hash alone, and each one's code refuses the other's blob. */
static void
test_blob(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CgOutput *a = blob_generate(ctx, "1, 2, 3, 4, 5, 6, 7, 8");
  CgOutput *b = blob_generate(ctx, "1, 2, 3, 4, 5, 6, 7, 9");
  const IrBuf *ba = &a->files[a->blob].text, *bb = &b->files[b->blob].text;
  assert_true((uintptr_t)ba->data % 64 == 0 && (uintptr_t)bb->data % 64 == 0);
  assert_int_equal(ba->len, 128);
  assert_int_equal(bb->len, 128);
  const float want[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  assert_memory_equal(ba->data + 64, want, sizeof want);
  for (size_t i = 64 + sizeof want; i < ba->len; i++)
    assert_int_equal(ba->data[i], 0);
  assert_memory_equal(ba->data, bb->data, 16);              /* magic, size */
  assert_memory_not_equal(ba->data + 16, bb->data + 16, 8); /* hash */
  assert_memory_equal(ba->data + 24, bb->data + 24, 8);     /* layout */
  CgCompiled *c = cg_jit_tcc(ctx, a);
  assert_non_null(c);
  cg_compiled_free(c);
  IrBuf own = a->files[a->blob].text;
  a->files[a->blob].text = *bb; /* a's code, b's blob */
  assert_null(cg_jit_tcc(ctx, a));
  assert_non_null(strstr(ir_diag_get(ctx, ir_diag_count(ctx) - 1)->msg, "m_set_weights refused"));
  a->files[a->blob].text = own;
  cg_output_free(a);
  cg_output_free(b);
  ir_ctx_free(ctx);
}

/* Loads of read-only scalars at literal indices are hoisted to the
 * kernel's entry (codegen/gen_tir.c): the loop reads only locals. */
static void
test_hoisted_scalars(void **state)
{
  (void)state;
  CfgOptions cfg;
  cfg_defaults(&cfg);
  IrCtx *ctx = ir_ctx_new();
  const IrModule *orig, *opt;
  CgOutput *out = generate(ctx, "tests/codegen/hoist_scalars.py", NULL, &cfg, &orig, &opt);
  assert_non_null(out);
  const char *c = out->files[1].text.data;
  const char *lo = strstr(c, "const float lo_0 = lo[0];");
  const char *hi = strstr(c, "const float hi_0 = hi[0];");
  assert_non_null(lo);
  assert_non_null(hi);
  const char *loop = strstr(lo, "for (");
  assert_non_null(loop);
  assert_null(strstr(loop, "lo[0]"));
  assert_null(strstr(loop, "hi[0]"));
  assert_null(strstr(c, "(void)lo;"));
  cg_output_free(out);
  ir_ctx_free(ctx);
}

/* --- strict compilers ---------------------------------------------------- */

static bool
have(const char *cc)
{
  char cmd[256];
  snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", cc);
  return system(cmd) == 0;
}

/* Compiles every .c of out with cc and the strict flags in a fresh directory. */
static void
strict_compile(IrCtx *ctx, const CgOutput *out, const char *cc, const char *what)
{
  char dir[] = "/tmp/rxc-strict-XXXXXX";
  assert_non_null(mkdtemp(dir));
  assert_true(cg_write(ctx, out, dir));
  for (int i = 0; i < out->nfiles; i++) {
    const char *name = out->files[i].name;
    if (!strstr(name, ".c"))
      continue;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "%s -std=c99 -Wall -Wextra -Werror -pedantic -ffreestanding -c -o /dev/null %s/%s", cc,
             dir, name);
    int rc = system(cmd);
    if (rc)
      print_error("%s: %s failed (%s)\n", what, cc, cmd);
    assert_int_equal(rc, 0);
  }
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);
}

/* The text just after the first a in from, or NULL. */
static const char *
after(const char *from, const char *a)
{
  const char *at = from ? strstr(from, a) : NULL;
  return at ? at + strlen(a) : NULL;
}

/* Refusals that depend on values (tests/codegen/value_checks.py): each
 * checking kernel returns int and runs its check loop, vectorizable (an
 * and-ed local, no early exit), before its first store; the entry returns
 * NAME_ERR_ASSERT; z and y, computed before the last kernel that may
 * refuse (floor_divide), live in the arena and are copied into out0 and
 * out1 at the end, while q, written by that kernel, is the caller's
 * buffer. */
static void
test_value_checks(void **state)
{
  (void)state;
  CfgOptions cfg;
  cfg_defaults(&cfg);
  IrCtx *ctx = ir_ctx_new();
  const IrModule *orig, *opt;
  CgOutput *out = generate(ctx, "tests/codegen/value_checks.py", NULL, &cfg, &orig, &opt);
  assert_non_null(out);
  const char *c = out->files[1].text.data;
  const char *take = after(c, "static int\nmodel_take(");
  assert_non_null(take);
  const char *check = strstr(take, "all_ok &= ");
  assert_non_null(check);
  assert_true(check < strstr(take, "T_take["));
  assert_non_null(strstr(check, "if (!all_ok) /* assert: RuntimeError: index out of range */"));
  const char *div = after(c, "static int\nmodel_floor_divide(");
  assert_non_null(div);
  check = strstr(div, "all_ok &= ((B[");
  assert_non_null(check);
  assert_true(check < strstr(div, "T_floor_divide["));
  assert_non_null(strstr(c, "static void\nmodel_exp(")); /* no check: stays void */
  const char *entry = after(c, "\nmodel_main(void *arena");
  assert_non_null(entry);
  assert_non_null(strstr(entry, "return model_ERR_ASSERT;"));
  assert_null(strstr(entry, "(char *)out0"));
  assert_null(strstr(entry, "(char *)out1"));
  assert_non_null(strstr(entry, "(char *)out2; /* the caller's output */"));
  assert_non_null(strstr(entry, "rxc_copy(out0, "));
  assert_non_null(strstr(entry, "rxc_copy(out1, "));
  if (have("gcc"))
    strict_compile(ctx, out, "gcc", "value_checks");
  cg_output_free(out);
  ir_ctx_free(ctx);
}

static void
test_strict(void **state)
{
  (void)state;
  const char *ccs[] = {"gcc", "clang"};
  const char *dirs[] = {"samples", "tests/legalize", "tests/memplan", "tests/codegen"};
  for (int k = 0; k < 2; k++) {
    if (!have(ccs[k])) { /* platform: gcc or clang may be absent (make deps installs both) */
      if (tu_require_all())
        fail_msg("SKIPPED (REQUIRE_ALL=1 makes it a failure): %s not on PATH", ccs[k]);
      printf("SKIPPED: %s not on PATH\n", ccs[k]);
      continue;
    }
    for (int j = 0; j < 4; j++) {
      int n;
      char **paths = tu_list_py(dirs[j], &n);
      for (int i = 0; i < n; i++) {
        if (unsupported(paths[i]))
          continue;
        IrCtx *ctx = ir_ctx_new();
        CfgOptions cfg;
        cfg_defaults(&cfg);
        const IrModule *orig, *opt;
        CgOutput *out = generate(ctx, paths[i], NULL, &cfg, &orig, &opt);
        assert_non_null(out);
        strict_compile(ctx, out, ccs[k], paths[i]);
        cg_output_free(out);
        ir_ctx_free(ctx);
      }
      tu_free_list(paths, n);
    }
  }
}

/* Same input, same bytes. */
static void
test_deterministic(void **state)
{
  (void)state;
  const char *paths[] = {"samples/mlp.py", "samples/transformer_block.py",
                         "tests/legalize/manip_concat_split.py"};
  for (int i = 0; i < 3; i++) {
    CgOutput *out[2];
    IrCtx *ctx[2];
    for (int k = 0; k < 2; k++) {
      ctx[k] = ir_ctx_new();
      CfgOptions cfg;
      cfg_defaults(&cfg);
      const IrModule *orig, *opt;
      out[k] = generate(ctx[k], paths[i], NULL, &cfg, &orig, &opt);
      assert_non_null(out[k]);
    }
    assert_int_equal(out[0]->nfiles, out[1]->nfiles);
    for (int f = 0; f < out[0]->nfiles; f++) {
      assert_int_equal(out[0]->files[f].text.len, out[1]->files[f].text.len);
      assert_memory_equal(out[0]->files[f].text.data, out[1]->files[f].text.data,
                          out[0]->files[f].text.len);
    }
    for (int k = 0; k < 2; k++) {
      cg_output_free(out[k]);
      ir_ctx_free(ctx[k]);
    }
  }
}

/* --- wrong calls ------------------------------------------------------------ */

typedef struct {
  IrCtx *ctx;
  CgOutput *out;
  CgCompiled *comp;
  CgPackedFn fn;
  const CgEntry *e;
  const IrModule *orig, *opt;
} Compiled;

/* path generated for [target] isa (a word of the key) and compiled by cc
 * -O2; its first entry found. */
static void
compile_one_isa(const char *path, const char *isa, Compiled *c)
{
  CfgOptions cfg;
  cfg_defaults(&cfg);
  c->ctx = ir_ctx_new();
  assert_true(cfg_set(c->ctx, &cfg, "target", "isa", isa));
  c->out = generate(c->ctx, path, NULL, &cfg, &c->orig, &c->opt);
  assert_non_null(c->out);
  c->comp = cg_jit_cc(c->ctx, c->out, "cc", "-O2");
  assert_non_null(c->comp);
  c->e = &c->out->entries[0];
  c->fn = cg_compiled_entry(c->comp, c->e->packed);
  assert_non_null(c->fn);
}

static void
compile_one(const char *path, Compiled *c)
{
  compile_one_isa(path, "none", c);
}

static void
compiled_free(Compiled *c)
{
  cg_compiled_free(c->comp);
  cg_output_free(c->out);
  ir_ctx_free(c->ctx);
}

/* The error code of NAME_ERR_<name>, read from the generated header. */
static int
error_code(const Compiled *c, const char *name)
{
  char key[64];
  snprintf(key, sizeof key, "#define model_ERR_%s (", name);
  const char *p = strstr(c->out->files[0].text.data, key);
  assert_non_null(p);
  return atoi(p + strlen(key));
}

static void
expect_error(Compiled *c, Call *call, void *arena, size_t bytes, const char *name)
{
  int rc = c->fn(arena, bytes, call->tensors, call->dims);
  assert_int_equal(rc, error_code(c, name));
  call_check_canaries(call, c->e->noutputs, true);
}

static void
test_wrong_calls(void **state)
{
  (void)state;
  Compiled c;
  compile_one("samples/mlp.py", &c);
  Dims d = {{"n"}, {3}, 1};
  Call call;
  call_prepare(c.ctx, c.e, &d, &call, 11);
  unsigned char *arena = call.arena_mem + CANARY;
  /* the plan of samples/mlp.py: 100352 + 8192 for the transposed weight and
   * the hidden layer, and 1024 for the matmul's 8x32 float32 tile (ops/gemm.c;
   * the fused kernel computes the add and relu where the matmul stores, so
   * no intermediate of it is left) */
  assert_true(call.arena_bytes == 109568);
  expect_error(&c, &call, arena, call.arena_bytes - 1, "ARENA_SIZE");
  expect_error(&c, &call, arena + 4, call.arena_bytes, "ARENA_ALIGN");
  expect_error(&c, &call, NULL, call.arena_bytes, "NULL");
  call.dims[0] = 65; /* tir_var_upper_bound n: 64 */
  expect_error(&c, &call, arena, call.arena_bytes, "DIM");
  call.dims[0] = -1;
  expect_error(&c, &call, arena, call.arena_bytes, "DIM");
  call.dims[0] = 3;
  void *saved = call.tensors[0];
  call.tensors[0] = NULL;
  expect_error(&c, &call, arena, call.arena_bytes, "NULL");
  call.tensors[0] = saved;
  saved = call.tensors[5];
  call.tensors[5] = NULL;
  expect_error(&c, &call, arena, call.arena_bytes, "NULL");
  call.tensors[5] = saved;
  assert_int_equal(c.fn(arena, call.arena_bytes, NULL, call.dims), error_code(&c, "NULL"));
  assert_int_equal(c.fn(arena, call.arena_bytes, call.tensors, NULL), error_code(&c, "NULL"));
  /* and then a good call writes the output, within its canaries */
  assert_int_equal(call_run(c.fn, &call), 0);
  call_check_canaries(&call, 1, false);
  check_against_interp(c.ctx, "samples/mlp.py", c.orig, c.e, &call, &d);
  call_free(&call, c.e->noutputs);
  compiled_free(&c);
}

/* tests/codegen/tail.py: out has n - m elements, so m > n is inconsistent. */
static void
test_inconsistent_dims(void **state)
{
  (void)state;
  Compiled c;
  compile_one("tests/codegen/tail.py", &c);
  assert_int_equal(c.e->ndims, 2);
  Dims d = {{"n", "m"}, {5, 3}, 2};
  Call call;
  call_prepare(c.ctx, c.e, &d, &call, 3);
  call.dims[0] = 3; /* n = 3, m = 3 gives an empty output; n = 3, m = 5 a negative one */
  call.dims[1] = 5;
  expect_error(&c, &call, call.arena_mem + CANARY, call.arena_bytes, "SHAPE");
  call.dims[0] = 5;
  call.dims[1] = 3;
  assert_int_equal(call_run(c.fn, &call), 0);
  call_check_canaries(&call, 1, false);
  check_against_interp(c.ctx, "tests/codegen/tail.py", c.orig, c.e, &call, &d);
  call_free(&call, c.e->noutputs);
  compiled_free(&c);
}

/* One call of a module of run-time shape relations: with ok, the entry
 * computes what the interpreter computes; without, both refuse, the entry
 * with NAME_ERR_MATCH and nothing written. */
typedef struct {
  int64_t dims[11];
  bool ok;
} RelationCase;

static void
check_relations(const char *path, const char *const *names, int ndims, const RelationCase *cases,
                size_t ncases)
{
  Compiled c;
  compile_one(path, &c);
  assert_int_equal(c.e->ndims, ndims);
  for (size_t i = 0; i < ncases; i++) {
    Dims d = {{NULL}, {0}, ndims};
    for (int k = 0; k < ndims; k++) {
      d.names[k] = names[k];
      d.values[k] = cases[i].dims[k];
    }
    Call call;
    call_prepare(c.ctx, c.e, &d, &call, 17 + (unsigned)i);
    if (cases[i].ok) {
      assert_int_equal(call_run(c.fn, &call), 0);
      call_check_canaries(&call, c.e->noutputs, false);
      check_against_interp(c.ctx, path, c.orig, c.e, &call, &d);
    } else {
      expect_error(&c, &call, call.arena_mem + CANARY, call.arena_bytes, "MATCH");
      const IrFunction *f = ir_module_find(c.orig, c.e->fn)->u.relax;
      Value *args[128];
      int n = interp_args(c.ctx, f, &call, &d, args);
      int before = ir_error_count(c.ctx);
      assert_null(interp_call(interp_new(c.ctx, c.orig, NULL), c.e->fn, args, n));
      assert_true(ir_error_count(c.ctx) > before);
    }
    call_free(&call, c.e->noutputs);
  }
  compiled_free(&c);
}

/* tests/codegen/relations.py, dead_relation.py and call_tir_args.py (issue
 * 16): each shape
 * relation broken alone is refused by the entry and by the interpreter;
 * with every relation kept the call computes, broadcasting a 1 either way. */
static void
test_relations(void **state)
{
  (void)state;
  static const char *const names[] = {"n", "k", "m", "p", "q", "t", "u", "s", "v", "i", "j"};
  static const RelationCase cases[] = {
      {{2, 3, 3, 4, 4, 5, 5, 2, 2, 3, 3}, true},
      {{2, 3, 3, 4, 1, 5, 5, 2, 2, 1, 3}, true},  /* b broadcasts; batch of ba */
      {{2, 3, 3, 1, 4, 5, 5, 0, 0, 3, 1}, true},  /* a broadcasts; empty reshape; batch of bb */
      {{2, 3, 3, 1, 0, 5, 5, 2, 2, 1, 0}, true},  /* 1 with 0 gives 0 */
      {{2, 3, 2, 4, 4, 5, 5, 2, 2, 3, 3}, false}, /* matmul: k != m */
      {{2, 3, 3, 4, 3, 5, 5, 2, 2, 3, 3}, false}, /* add: 4 with 3 */
      {{2, 3, 3, 4, 0, 5, 5, 2, 2, 3, 3}, false}, /* add: 4 with 0 */
      {{2, 3, 3, 4, 4, 5, 6, 2, 2, 3, 3}, false}, /* match_cast: t != u */
      {{2, 3, 3, 4, 4, 5, 5, 2, 3, 3, 3}, false}, /* reshape: 4 elements into 6 */
      {{2, 3, 3, 4, 4, 5, 5, 2, 2, 2, 3}, false}, /* matmul batch: 2 with 3 */
  };
  check_relations("tests/codegen/relations.py", names, 11, cases, sizeof cases / sizeof cases[0]);
  static const char *const dead_names[] = {"n", "m", "p", "k", "q"};
  static const RelationCase dead_cases[] = {
      {{2, 3, 2, 3, 2}, true},
      {{2, 3, 2, 3, 3}, false}, /* the dead reshape: 12 elements into 18 */
      {{2, 3, 2, 2, 2}, false}, /* concat: 3 columns with 2 */
  };
  check_relations("tests/codegen/dead_relation.py", dead_names, 5, dead_cases,
                  sizeof dead_cases / sizeof dead_cases[0]);
  static const char *const twice_names[] = {"n"};
  static const RelationCase twice_cases[] = {{{3}, true}, {{2}, false}, {{4}, false}};
  check_relations("tests/codegen/match_cast_twice.py", twice_names, 1, twice_cases,
                  sizeof twice_cases / sizeof twice_cases[0]);
  static const char *const tir_names[] = {"n", "m", "p"};
  static const RelationCase tir_cases[] = {
      {{3, 3, 3}, true},
      {{3, 2, 3}, false}, /* addk's b is (n,) */
      {{3, 3, 2}, false}, /* inc overwrites z of (n,) declared (p,) */
  };
  check_relations("tests/codegen/call_tir_args.py", tir_names, 3, tir_cases,
                  sizeof tir_cases / sizeof tir_cases[0]);
}

/* The plan's runtime check: issue 5's module with m up to 8 needs m <= 4. */
static void
test_plan_check(void **state)
{
  (void)state;
  Compiled c;
  compile_one("tests/codegen/fit_check.py", &c);
  for (int64_t m = 4; m <= 5; m++) {
    Dims d = {{"m"}, {m}, 1};
    Call call;
    call_prepare(c.ctx, c.e, &d, &call, 5);
    if (m == 5) {
      expect_error(&c, &call, call.arena_mem + CANARY, call.arena_bytes, "CHECK");
    } else {
      assert_int_equal(call_run(c.fn, &call), 0);
      call_check_canaries(&call, 1, false);
      check_against_interp(c.ctx, "tests/codegen/fit_check.py", c.orig, c.e, &call, &d);
    }
    call_free(&call, c.e->noutputs);
  }
  compiled_free(&c);
}

/* A dim bound in the body from tensor data (tests/codegen/data_dims.py:
 * k = t[0], tir_var_upper_bound 8): read after t, checked against
 * [0, 8] before anything depending on it is written; the entry returns
 * the sum of 2 * ones(k) when it holds, NAME_ERR_DIM otherwise. */
static void
test_data_dims(void **state)
{
  (void)state;
  Compiled c;
  compile_one("tests/codegen/data_dims.py", &c);
  static const int64_t ks[] = {0, 5, 8, 9, -1, INT64_MAX};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
    Dims d = {{NULL}, {0}, 0};
    Call call;
    call_prepare(c.ctx, c.e, &d, &call, 3);
    *(int64_t *)call.in_vals[0]->u.tensor.t.data = ks[i];
    if (ks[i] < 0 || ks[i] > 8) {
      expect_error(&c, &call, call.arena_mem + CANARY, call.arena_bytes, "DIM");
    } else {
      assert_int_equal(call_run(c.fn, &call), 0);
      call_check_canaries(&call, 1, false);
      assert_true(*(float *)call.tensors[c.e->ninputs] == 2.0f * (float)ks[i]);
    }
    call_free(&call, c.e->noutputs);
  }
  compiled_free(&c);
}

/* NAME_FN_arena_bytes(dims) gives the arena an entry needs: computed from
 * the dims when a dim is unbounded (tests/memplan/symbolic.py: 128 bytes at
 * m = 10, 896 at m = 100, planned by hand in test_mp_plan), the planned
 * constant otherwise. */
static void
test_arena_bytes_function(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CfgOptions cfg;
  cfg_defaults(&cfg);
  const IrModule *orig, *opt;
  CgOutput *out = generate(ctx, "tests/memplan/symbolic.py", NULL, &cfg, &orig, &opt);
  assert_non_null(out);
  CgCompiled *comp = cg_jit_cc(ctx, out, "cc", "-O2");
  assert_non_null(comp);
  size_t (*bytes)(long long) = NULL;
  CgPackedFn f = cg_compiled_entry(comp, "model_main_arena_bytes");
  assert_non_null(f);
  memcpy(&bytes, &f, sizeof bytes); /* a function pointer of another type */
  assert_int_equal(bytes(10), 128);
  assert_int_equal(bytes(100), 896);
  cg_compiled_free(comp);
  cg_output_free(out);
  ir_ctx_free(ctx);
}

/* The first mark of floating point in c from its first kernel (the
 * comment "T.prim_func ...") on:
 * a float type or helper of the generated C, or a floating literal (a
 * number token with a '.', or a decimal one with an exponent or an f
 * suffix); NULL when there is none.  *kernels gets how many kernels. */
static const char *
first_float(const char *c, int *kernels)
{
  static const char *const words[] = {"float", "double", "rxc_f32", "rxc_f64", "rxc_f16",
                                      "rxc_bf16", "_f32", "_f64"};
  const char *start = strstr(c, "/* T.prim_func");
  *kernels = 0;
  for (const char *k = start; k; k = strstr(k + 1, "/* T.prim_func"))
    (*kernels)++;
  for (const char *p = start; p && *p; p++) {
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
      if (strncmp(p, words[w], strlen(words[w])) == 0)
        return p;
    bool starts = isdigit((unsigned char)*p) && (p == c || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'));
    if (!starts)
      continue;
    bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    const char *q = p;
    for (; isalnum((unsigned char)*q) || *q == '_' || *q == '.'; q++)
      if (*q == '.' || (!hex && (*q == 'e' || *q == 'E' || *q == 'f' || *q == 'F')))
        return p;
    p = q - 1;
  }
  return NULL;
}

/* tests/codegen/int8_kernels.py (issue 23: pad, int8 conv2d into int32
 * with its requantization in int64, a depthwise conv2d, max_pool2d, an
 * int8 matmul): its kernels and entries hold no floating point at all, so
 * an int8 model runs on a core without an FPU.  The same check finds the
 * float in a float32 model, so it is not blind. */
static void
test_int_kernels(void **state)
{
  (void)state;
  CfgOptions cfg;
  cfg_defaults(&cfg);
  const char *paths[] = {"tests/codegen/int8_kernels.py", "samples/digits_cnn.py"};
  for (int i = 0; i < 2; i++) {
    IrCtx *ctx = ir_ctx_new();
    const IrModule *orig, *opt;
    CgOutput *out = generate(ctx, paths[i], NULL, &cfg, &orig, &opt);
    assert_non_null(out);
    int kernels;
    const char *f = first_float(out->files[1].text.data, &kernels);
    if (i == 0 && f)
      print_error("%s: floating point in its kernels: %.80s\n", paths[i], f);
    assert_true(i == 0 ? f == NULL : f != NULL);
    assert_true(kernels >= (i == 0 ? 4 : 1));
    cg_output_free(out);
    ir_ctx_free(ctx);
  }
}

/* --- [target] isa ------------------------------------------------------- */

/* samples/mlp.py's NAME.c generated for isa; the text in ctx. */
static const char *
isa_text(IrCtx *ctx, const char *isa)
{
  CfgOptions cfg;
  cfg_defaults(&cfg);
  assert_true(cfg_set(ctx, &cfg, "target", "isa", isa));
  const IrModule *orig, *opt;
  CgOutput *out = generate(ctx, "samples/mlp.py", NULL, &cfg, &orig, &opt);
  assert_non_null(out);
  assert_string_equal(out->files[1].name, "model.c");
  const char *text = ir_printf(ctx, "%s", out->files[1].text.data);
  cg_output_free(out);
  return text;
}

static int
count(const char *text, const char *what)
{
  int n = 0;
  for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
    n++;
  return n;
}

/* What NAME.c says for each isa: none is the output without the key, to
 * the byte; an x86 level names itself (first comment, RXC_ISA) and pushes
 * gcc's target and -O3 options and clang's target attribute over the code,
 * popped at the end, with the level's features and no more; armv7e-m only
 * names itself. */
static void
test_isa_text(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CfgOptions cfg;
  cfg_defaults(&cfg);
  const IrModule *orig, *opt;
  CgOutput *out = generate(ctx, "samples/mlp.py", NULL, &cfg, &orig, &opt);
  const char *none = isa_text(ctx, "none");
  assert_string_equal(none, out->files[1].text.data);
  cg_output_free(out);
  assert_null(strstr(none, "RXC_ISA"));
  assert_null(strstr(none, "#pragma GCC"));
  static const struct {
    const char *isa;
    const char *has, *lacks; /* a feature of the level, one of the next */
    int times;               /* pragmas that name has: gcc's and clang's, or gcc's */
  } levels[] = {{"x86-64-v2", "\"sse3,ssse3,sse4.1,sse4.2,popcnt\"", "avx", 2},
                {"x86-64-v3", ",avx2,", "avx512", 2},
                {"x86-64-v4", ",avx512f,avx512bw,avx512cd,avx512dq,avx512vl\"", "avx10", 1}};
  for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
    const char *t = isa_text(ctx, levels[i].isa);
    assert_non_null(strstr(t, ir_printf(ctx, " * Written for the instruction set %s: see "
                                             "RXC_ISA below. */\n",
                                        levels[i].isa)));
    assert_non_null(strstr(t, ir_printf(ctx, "#define RXC_ISA \"%s\"\n", levels[i].isa)));
    assert_int_equal(count(t, "#pragma GCC push_options\n"), 1);
    assert_int_equal(count(t, "#pragma GCC pop_options\n"), 1);
    assert_int_equal(count(t, "#pragma GCC optimize(\"O3\")\n"), 1);
    assert_int_equal(count(t, "#pragma clang attribute push(__attribute__((target("), 1);
    assert_int_equal(count(t, "#pragma clang attribute pop\n"), 1);
    assert_int_equal(count(t, levels[i].has), levels[i].times);
    /* clang gets v3's features at most (AVX-512 made it gather) */
    const char *clang = strstr(t, "#pragma clang attribute push");
    assert_non_null(clang);
    assert_true(strncmp(strchr(clang, '"'), "\"sse3,ssse3,sse4.1,sse4.2,popcnt", 32) == 0);
    assert_true(strstr(clang, "avx512") == NULL || strstr(clang, "avx512") > strchr(clang, '\n'));
    assert_null(strstr(t, levels[i].lacks));
    /* the pop closes the file: after the last function */
    assert_true(strstr(t, "#pragma GCC pop_options") > strstr(t, "model_strerror"));
  }
  const char *base = isa_text(ctx, "x86-64");
  assert_non_null(strstr(base, "#define RXC_ISA \"x86-64\"\n"));
  assert_int_equal(count(base, "#pragma GCC optimize(\"O3\")\n"), 1);
  assert_null(strstr(base, "#pragma GCC target"));
  assert_null(strstr(base, "#pragma clang"));
  const char *m4 = isa_text(ctx, "armv7e-m");
  assert_non_null(strstr(m4, "#define RXC_ISA \"armv7e-m\"\n"));
  assert_null(strstr(m4, "#pragma GCC"));
  assert_null(strstr(m4, "#pragma clang attribute"));
  /* native: the level of this machine, named as such */
  const char *native = isa_text(ctx, "native");
  if (cfg_isa_host() == CFG_ISA_NONE) {
    assert_string_equal(native, none);
  } else {
    const char *level = cfg_isa_name(cfg_isa_host());
    /* the same text as the level's but for the comment's "isa = native" */
    const char *said = "([target] isa = native, the machine rxc ran on)";
    const char *at = strstr(native, said);
    assert_non_null(at);
    const char *as_level = ir_printf(ctx, "%.*s([target] isa = %s)%s", (int)(at - native), native,
                                     level, at + strlen(said));
    assert_string_equal(as_level, isa_text(ctx, level));
  }
  ir_ctx_free(ctx);
}

/* The .c of each isa compiles clean (gcc and clang, strict flags) and
 * computes what the interpreter does under libtcc, gcc -O2 and clang -O2;
 * its checks still refuse bad calls. */
static void
test_isa_runs(void **state)
{
  (void)state;
  const char *isas[] = {"native", "x86-64-v2", "x86-64", "armv7e-m"};
  const char *paths[] = {"samples/mlp.py", "samples/transformer_block.py",
                         "tests/codegen/int8_kernels.py"};
  const char *vias[] = {"tcc", "gcc", "clang"};
  for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
    if (strncmp(isas[i], "x86-64-v", 8) == 0 && cfg_isa_host() < CFG_ISA_X86_64_V2)
      continue; /* the host could not run it (an x86 one; elsewhere it is plain C) */
    CfgOptions cfg;
    cfg_defaults(&cfg);
    IrCtx *ctx = ir_ctx_new();
    assert_true(cfg_set(ctx, &cfg, "target", "isa", isas[i]));
    for (size_t v = 0; v < sizeof vias / sizeof vias[0]; v++) {
      if (strcmp(vias[v], "tcc") && !have(vias[v])) {
        if (tu_require_all())
          fail_msg("SKIPPED (REQUIRE_ALL=1 makes it a failure): %s not on PATH", vias[v]);
        continue;
      }
      for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
        printf("  isa %s, %s: %s\n", isas[i], vias[v], paths[k]);
        run_model_via(paths[k], NULL, &cfg, 2, vias[v]);
      }
      if (strcmp(vias[v], "tcc")) {
        const IrModule *orig, *opt;
        CgOutput *out = generate(ctx, "samples/transformer_block.py", NULL, &cfg, &orig, &opt);
        strict_compile(ctx, out, vias[v], isas[i]);
        cg_output_free(out);
      }
    }
    ir_ctx_free(ctx);
    Compiled c;
    compile_one_isa("samples/mlp.py", isas[i], &c);
    Dims d = {{"n"}, {3}, 1};
    Call call;
    call_prepare(c.ctx, c.e, &d, &call, 11);
    unsigned char *arena = call.arena_mem + CANARY;
    expect_error(&c, &call, arena, call.arena_bytes - 1, "ARENA_SIZE");
    expect_error(&c, &call, arena + 4, call.arena_bytes, "ARENA_ALIGN");
    call.dims[0] = 65;
    expect_error(&c, &call, arena, call.arena_bytes, "DIM");
    call_free(&call, c.e->noutputs);
    compiled_free(&c);
  }
}

/* --- [jit] cc_flags = auto ------------------------------------------------ */

/* Writes an executable build/NAME (its path in path): a compiler that logs its arguments to
 * build/NAME.log, refuses -march=native when refuse is set, else runs cc. */
static const char *
fake_cc(const char *name, bool refuse, char path[static 256])
{
  snprintf(path, 256, "build/%s", name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "#!/bin/sh\necho \"$*\" >> build/%s.log\n", name);
  if (refuse)
    fputs("case \" $* \" in *' -march=native '*) echo 'bad -march' >&2; exit 1;; esac\n", f);
  fputs("exec cc \"$@\"\n", f);
  assert_int_equal(fclose(f), 0);
  assert_int_equal(chmod(path, 0755), 0);
  char log[300];
  snprintf(log, sizeof log, "build/%s.log", name);
  remove(log);
  return path;
}

/* The lines of build/NAME.log. */
static int
log_lines(const char *name, char **text)
{
  char log[300];
  snprintf(log, sizeof log, "build/%s.log", name);
  *text = tu_read_file(log);
  assert_non_null(*text);
  return count(*text, "\n");
}

/* Explicit flags are the user's; auto is -O3 -march=native when the
 * compiler takes them (asked once per compiler command), else -O2, and
 * cg_jit_cc compiles with what auto gave. */
static void
test_cc_flags(void **state)
{
  (void)state;
  assert_string_equal(cg_cc_flags("cc", "-O1 -g"), "-O1 -g");
  assert_string_equal(cg_cc_flags("cc", ""), "");
  /* an independent answer: does cc take the flags? */
  int takes = system("echo 'int f(void);' | cc -O3 -march=native -x c -c -o build/cc-probe.o - "
                     ">/dev/null 2>&1");
  assert_string_equal(cg_cc_flags("cc", "auto"), takes == 0 ? "-O3 -march=native" : "-O2");
  char *log;
  char picky_path[256], easy_path[256];
  const char *picky = fake_cc("cc-picky", true, picky_path);
  assert_string_equal(cg_cc_flags(picky, "auto"), "-O2");
  assert_string_equal(cg_cc_flags(picky, "auto"), "-O2");
  assert_int_equal(log_lines("cc-picky", &log), 1); /* probed once */
  free(log);
  const char *easy = fake_cc("cc-easy", false, easy_path);
  assert_string_equal(cg_cc_flags(easy, "auto"), "-O3 -march=native");
  assert_int_equal(log_lines("cc-easy", &log), 1);
  free(log);
  /* the JIT's compile takes them, and the model runs */
  IrCtx *ctx = ir_ctx_new();
  CfgOptions cfg;
  cfg_defaults(&cfg);
  const IrModule *orig, *opt;
  CgOutput *out = generate(ctx, "samples/mlp.py", NULL, &cfg, &orig, &opt);
  const char *ccs[] = {picky, easy}, *names[] = {"cc-picky", "cc-easy"};
  const char *want[] = {"-O2 -shared", "-O3 -march=native -shared"};
  for (int i = 0; i < 2; i++) {
    CgCompiled *comp = cg_jit_cc(ctx, out, ccs[i], cfg.jit.cc_flags);
    assert_non_null(comp);
    assert_non_null(cg_compiled_entry(comp, out->entries[0].packed));
    cg_compiled_free(comp);
    assert_int_equal(log_lines(names[i], &log), 2);
    assert_non_null(strstr(strchr(log, '\n') + 1, want[i]));
    free(log);
  }
  cg_output_free(out);
  ir_ctx_free(ctx);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_wrong_calls), cmocka_unit_test(test_inconsistent_dims),
      cmocka_unit_test(test_hoisted_scalars), cmocka_unit_test(test_value_checks),
      cmocka_unit_test(test_int_kernels),
      cmocka_unit_test(test_isa_text),     cmocka_unit_test(test_isa_runs),
      cmocka_unit_test(test_cc_flags),
      cmocka_unit_test(test_arena_bytes_function),
      cmocka_unit_test(test_plan_check),    cmocka_unit_test(test_data_dims),
      cmocka_unit_test(test_relations),  cmocka_unit_test(test_deterministic),
      cmocka_unit_test(test_unsupported), cmocka_unit_test(test_weights), cmocka_unit_test(test_blob),
      cmocka_unit_test(test_samples),     cmocka_unit_test(test_levels),
      cmocka_unit_test(test_op_models),   cmocka_unit_test(test_strict),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
