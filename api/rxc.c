/*
 * rxc.c - the library API of rxc.h: the whole road from TVMScript to a
 * callable function (parse, the configured pipeline, plan, generate, JIT)
 * in one call.
 *
 * Key idea: an RxcModel owns its IrCtx; every diagnostic of the road is
 * printed to the caller's stream once, and nothing else escapes.
 * rxc_build is the road after parsing that the command line takes too.
 */
#include <stdlib.h>
#include <string.h>

#include "rxc.h"

enum { MAX_PIPELINE = 64 };

struct RxcModel {
  IrCtx *ctx;
  CgOutput *out;
  CgCompiled *compiled;
};

bool
rxc_build(IrCtx *ctx, IrModule *m, const char *params, const CfgOptions *cfg,
          const char *name, RxcStepFn step, void *user, RxcBuild *b)
{
  const OptPass *pipeline[MAX_PIPELINE];
  int n = cfg_pipeline(cfg, pipeline, MAX_PIPELINE);
  OptInstruments ins = {.verify_each = cfg->opt.verify_each, .time_passes = cfg->verbosity > 0};
  OptContext oc = {.ctx = ctx, .params_path = params};
  memset(b, 0, sizeof *b);
  if (step)
    step(user, RXC_STEP_OPTIMIZE, b);
  if (m && ir_error_count(ctx) == 0)
    ir_module_check(ctx, m); /* the passes assume well-formed input */
  if (m && ir_error_count(ctx) == 0)
    b->module = opt_run(&oc, m, pipeline, n, &ins);
  if (step)
    step(user, RXC_STEP_PLAN, b);
  if (b->module && ir_error_count(ctx) == 0)
    b->plan = mp_plan_module(ctx, b->module, cfg);
  if (step)
    step(user, RXC_STEP_GENERATE, b);
  if (b->plan && ir_error_count(ctx) == 0)
    b->out = cg_generate(ctx, b->module, b->plan, cfg, name);
  if (b->out && ir_error_count(ctx) == 0)
    return true;
  cg_output_free(b->out);
  b->out = NULL;
  return false;
}

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

/* The JIT of a module parsed into ctx (m NULL after a parse error); ctx
 * goes with the model, or is freed on failure. */
static RxcModel *
jit(IrCtx *ctx, IrModule *m, const char *name, const RxcJitOptions *o, FILE *errors)
{
  RxcJitOptions none = {0};
  o = o ? o : &none;
  CfgOptions cfg;
  cfg_defaults(&cfg);
  if (m && o->config)
    cfg_load(ctx, o->config, &cfg);
  RxcModel *r = calloc(1, sizeof *r);
  RxcBuild b;
  if (r && m && ir_error_count(ctx) == 0 && rxc_build(ctx, m, o->params, &cfg, name, NULL, NULL, &b)) {
    r->out = b.out;
    r->compiled = o->use_cc || cfg.jit.compiler == CFG_JIT_CC
                      ? cg_jit_cc(ctx, r->out, cfg.target.cc, cfg.jit.cc_flags)
                      : cg_jit_tcc(ctx, r->out);
  }
  if (errors)
    ir_diag_print(ctx, errors);
  if (!r || !r->compiled || ir_error_count(ctx)) {
    if (r)
      r->ctx = ctx, rxc_model_free(r);
    else
      ir_ctx_free(ctx);
    return NULL;
  }
  r->ctx = ctx;
  return r;
}

RxcModel *
rxc_jit_file(const char *path, const RxcJitOptions *o, FILE *errors)
{
  IrCtx *ctx = ir_ctx_new();
  return jit(ctx, fe_parse_file(ctx, path), rxc_name_from_path(ctx, path), o, errors);
}

RxcModel *
rxc_jit_string(const char *name, const char *text, const RxcJitOptions *o, FILE *errors)
{
  IrCtx *ctx = ir_ctx_new();
  return jit(ctx, fe_parse_string(ctx, name, text), rxc_name_from_path(ctx, name), o, errors);
}

static const CgEntry *
find_entry(const RxcModel *m, const char *fn)
{
  for (int i = 0; m && i < m->out->nentries; i++)
    if (strcmp(m->out->entries[i].fn, fn) == 0)
      return &m->out->entries[i];
  return NULL;
}

RxcEntry
rxc_model_entry(const RxcModel *m, const char *fn)
{
  const CgEntry *e = find_entry(m, fn);
  return e ? cg_compiled_entry(m->compiled, e->packed) : NULL;
}

size_t
rxc_model_arena_bytes(const RxcModel *m, const char *fn)
{
  const CgEntry *e = find_entry(m, fn);
  return e && e->arena_bytes > 0 ? (size_t)e->arena_bytes : 0;
}

size_t
rxc_model_arena_align(const RxcModel *m)
{
  return m ? (size_t)m->out->arena_align : 0;
}

const char *
rxc_model_header(const RxcModel *m)
{
  return m ? m->out->files[0].text.data : NULL;
}

void
rxc_model_free(RxcModel *m)
{
  if (!m)
    return;
  cg_compiled_free(m->compiled);
  cg_output_free(m->out);
  ir_ctx_free(m->ctx);
  free(m);
}
