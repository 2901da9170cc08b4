/*
 * road.c - the one road from a model to C: read, check, passes, plan,
 * generate, stopping after the stage the caller asks for (road.h).
 *
 * Key idea: every driver (rxc opt, plan, compile, run --via, the library
 * API, the benchmark) takes this road, so a module goes through the same
 * stages in the same order whichever way it is compiled, and the
 * configuration's pass names are turned into passes in one place.  The
 * road loads the weights itself and hands BindParams tensors; passes do
 * no I/O.
 */
#include <string.h>

#include "../frontend/fe.h"
#include "../ops/op.h"
#include "road.h"

const char *
rxc_name_from_path(IrCtx *ctx, const char *path)
{
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strcspn(base, ".");
  char *name = ir_printf(ctx, "%s%.*s", base[0] >= '0' && base[0] <= '9' ? "m" : "", (int)n, base);
  for (char *p = name; *p; p++)
    if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (*p >= '0' && *p <= '9')))
      *p = '_';
  return *name ? name : "model";
}

bool
rxc_is_identifier(const char *s)
{
  if (!*s || (*s >= '0' && *s <= '9'))
    return false;
  for (; *s; s++)
    if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9')))
      return false;
  return true;
}

/* The pass named name, or NULL after an error naming the key it came from
 * (cfg_load and cfg_set check names, so only a hand-built CfgOptions
 * gets here). */
static const OptPass *
resolve(IrCtx *ctx, const char *name, const char *key)
{
  const OptPass *p = opt_pass_find(name);
  if (!p) {
    IrLoc none = {0};
    ir_error(ctx, none, "unknown pass '%s' in key '%s' of section [opt]", name, key);
  }
  return p;
}

int
rxc_road_pipeline(IrCtx *ctx, const CfgOptions *cfg, const OptPass **out, int max)
{
  const OptPass *removed[CFG_MAX_PASSES], *base[RXC_MAX_PASSES];
  for (int i = 0; i < cfg->opt.npasses_remove; i++)
    if (!(removed[i] = resolve(ctx, cfg->opt.passes_remove[i], "passes_remove")))
      return -1;
  int nbase = opt_pipeline(cfg->opt.level, base, RXC_MAX_PASSES), n = 0;
  for (int i = 0; i < nbase && i < RXC_MAX_PASSES && n < max; i++) {
    bool drop = false;
    for (int k = 0; k < cfg->opt.npasses_remove; k++)
      drop = drop || removed[k] == base[i];
    if (!drop)
      out[n++] = base[i];
  }
  for (int i = 0; i < cfg->opt.npasses_add && n < max; i++)
    if (!(out[n++] = resolve(ctx, cfg->opt.passes_add[i], "passes_add")))
      return -1;
  return n;
}

/* READ: the module of in (its text, its file: ONNX by the extension,
 * else TVMScript, or the module given); NULL after errors. */
static IrModule *
read_module(IrCtx *ctx, const RxcRoadIn *in)
{
  if (in->module)
    return in->module;
  if (in->text)
    return fe_parse_string(ctx, in->path, in->text);
  if (fe_is_onnx_path(in->path))
    return fe_onnx_read(ctx, in->path, NULL, NULL, NULL);
  return fe_parse_file(ctx, in->path);
}

/* LegalizeOps's kernels (OpKernels): off, on, or on for libtcc's C when
 * the road builds for the JIT with libtcc (ops/op.h says why that C
 * differs). */
static int
kernels_for(const RxcRoadIn *in)
{
  if (!in->cfg->opt.kernels)
    return OP_KERNELS_OFF;
  return in->jit && in->cfg->jit.compiler == CFG_JIT_TCC ? OP_KERNELS_TCC : OP_KERNELS_ON;
}

/* PASSES: the pipeline on m, with the weights of in->params read first
 * when it binds them; NULL after errors. */
static IrModule *
run_passes(IrCtx *ctx, const RxcRoadIn *in, IrModule *m)
{
  const OptPass *own[RXC_MAX_PASSES];
  const OptPass *const *passes = in->passes;
  int n = in->npasses;
  if (!passes) {
    passes = own;
    if ((n = rxc_road_pipeline(ctx, in->cfg, own, RXC_MAX_PASSES)) < 0)
      return NULL;
  }
  OptWeights w = {.label = in->params};
  bool binds = false;
  for (int i = 0; i < n; i++)
    binds = binds || strcmp(passes[i]->name, "BindParams") == 0;
  if (binds && in->params) {
    FeNpzEntry *entries = NULL;
    if ((w.n = fe_npz_read(ctx, in->params, &entries)) < 0)
      return NULL;
    w.tensors = entries;
  }
  OptContext oc = {.ctx = ctx,
                   .weights = binds && in->params ? &w : NULL,
                   .vector_bytes = cfg_vector_bytes(in->cfg),
                   .kernels = kernels_for(in)};
  OptInstruments cfg_ins = {.verify_each = in->cfg->opt.verify_each,
                            .time_passes = in->cfg->verbosity > 0};
  return opt_run(&oc, m, passes, n, in->ins ? in->ins : &cfg_ins);
}

/* Tells in->step that stage starts; false when the stage must not run
 * (an error so far, or one the step function recorded). */
static bool
enter(IrCtx *ctx, const RxcRoadIn *in, RxcStage stage, RxcStage stop_after, const RxcRoadOut *out)
{
  if (stage > stop_after || ir_error_count(ctx) > 0)
    return false;
  if (in->step)
    in->step(in->user, stage, out);
  return ir_error_count(ctx) == 0;
}

bool
rxc_road(IrCtx *ctx, const RxcRoadIn *in, RxcStage stop_after, RxcRoadOut *out)
{
  memset(out, 0, sizeof *out);
  out->name = in->name                     ? in->name
              : in->cfg->codegen.prefix[0] ? in->cfg->codegen.prefix
                                           : rxc_name_from_path(ctx, in->path);
  if (stop_after >= RXC_STAGE_GENERATE && !rxc_is_identifier(out->name)) {
    IrLoc none = {0};
    ir_error(ctx, none, "the module name '%s' is not a C identifier (give --name)", out->name);
    return false;
  }
  if (enter(ctx, in, RXC_STAGE_READ, stop_after, out))
    out->module = read_module(ctx, in);
  if (out->module && enter(ctx, in, RXC_STAGE_CHECK, stop_after, out))
    ir_module_check(ctx, out->module); /* the passes assume well-formed input */
  if (out->module && enter(ctx, in, RXC_STAGE_PASSES, stop_after, out))
    out->module = run_passes(ctx, in, out->module);
  if (out->module && enter(ctx, in, RXC_STAGE_PLAN, stop_after, out))
    out->plan = mp_plan_module(ctx, out->module, in->cfg);
  if (out->plan && enter(ctx, in, RXC_STAGE_GENERATE, stop_after, out)) {
    CfgOptions cfg = *in->cfg;
    if (in->jit)
      cfg.codegen.weights = CFG_WEIGHTS_BLOB;
    out->out = cg_generate(ctx, out->module, out->plan, &cfg, out->name);
  }
  if (ir_error_count(ctx) == 0)
    return true;
  cg_output_free(out->out);
  out->out = NULL;
  return false;
}
