/*
 * rxc.c - the library API of rxc.h: a model to a callable function in one
 * call.  The road (road.c) reads, checks, optimizes, plans and generates
 * the C; this file loads the configuration, compiles the C in memory
 * (libtcc, or the system compiler) and hands out its entries.
 *
 * Key idea: an RxcModel owns its IrCtx; every diagnostic of the road is
 * printed to the caller's stream once, and nothing else escapes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rxc.h"
#include "road.h"

struct RxcModel {
  IrCtx *ctx;
  CgOutput *out;
  CgCompiled *compiled;
  const char **signatures; /* rxc_model_signature's text of each entry */
};

/* The road's step function of the JIT: loads the configuration and applies
 * the overrides once the module is read, so that a model that does not
 * parse is reported alone. */
typedef struct {
  IrCtx *ctx;
  const char *config;      /* the INI file, or NULL */
  const char *const *set;  /* section.key=value overrides after it, or NULL */
  CfgOptions *cfg;         /* the road's */
} JitStep;

static void
jit_step(void *user, RxcStage stage, const RxcRoadOut *so_far)
{
  JitStep *j = user;
  (void)so_far;
  if (stage != RXC_STAGE_CHECK)
    return;
  if (j->config)
    cfg_load(j->ctx, j->config, j->cfg);
  for (int i = 0; j->set && j->set[i] && ir_error_count(j->ctx) == 0; i++)
    cfg_set_arg(j->ctx, j->cfg, j->set[i]);
}

/* One tensor's line of rxc_model_signature: "KIND NAME DTYPE (d0, d1)". */
static void
tensor_line(IrBuf *o, const char *kind, const char *name, const IrSInfo *s)
{
  char dtype[16];
  ir_buf_printf(o, "%s %s %s (", kind, name, ir_dtype_str(s->u.tensor.dtype, dtype));
  for (int d = 0; d < s->u.tensor.ndim; d++) {
    ir_buf_puts(o, d ? ", " : "");
    ir_prim_expr_print(s->u.tensor.shape[d], o);
  }
  ir_buf_puts(o, s->u.tensor.ndim == 1 ? ",)\n" : ")\n");
}

/* rxc_model_signature's text of e (rxc.h gives its form), in ctx. */
static const char *
signature_text(IrCtx *ctx, const CgEntry *e)
{
  IrBuf o = {0};
  for (int i = 0; i < e->ninputs; i++)
    tensor_line(&o, "input", e->input_names[i], e->inputs[i]);
  for (int i = 0; i < e->ndims; i++)
    ir_buf_printf(&o, "dim %s\n", e->dims[i]->u.var);
  for (int i = 0; i < e->noutputs; i++)
    tensor_line(&o, "output", e->output_names[i], e->outputs[i]);
  for (int i = 0; i < e->nresult_dims; i++)
    ir_buf_printf(&o, "result_dim %s %lld\n", e->result_dims[i]->u.var,
                  (long long)e->result_bounds[i]);
  const char *text = ir_printf(ctx, "%s", o.data ? o.data : "");
  ir_buf_free(&o);
  return text;
}

/* The JIT of the model at path (text: its TVMScript, or NULL to read the
 * file); the new ctx goes with the model, or is freed on failure. */
static RxcModel *
jit(const char *path, const char *text, const RxcJitOptions *o, FILE *errors)
{
  RxcJitOptions none = {0};
  o = o ? o : &none;
  IrCtx *ctx = ir_ctx_new();
  CfgOptions cfg;
  cfg_defaults(&cfg);
  JitStep js = {ctx, o->config, o->set, &cfg};
  RxcRoadIn in = {.path = path, .text = text, .params = o->params, .cfg = &cfg,
                  .name = rxc_name_from_path(ctx, path), .jit = true, .step = jit_step,
                  .user = &js};
  RxcModel *r = ir_xcalloc(1, sizeof *r);
  RxcRoadOut b;
  if (rxc_road(ctx, &in, RXC_STAGE_GENERATE, &b)) {
    r->out = b.out;
    r->compiled = o->use_cc || cfg.jit.compiler == CFG_JIT_CC
                      ? cg_jit_cc(ctx, r->out, cfg.target.cc, cfg.jit.cc_flags)
                      : cg_jit_tcc(ctx, r->out);
  }
  if (errors)
    ir_diag_print(ctx, errors);
  if (!r->compiled || ir_error_count(ctx)) {
    r->ctx = ctx;
    rxc_model_free(r);
    return NULL;
  }
  r->ctx = ctx;
  r->signatures = ir_alloc(ctx, sizeof *r->signatures * (size_t)(r->out->nentries + 1));
  for (int i = 0; i < r->out->nentries; i++)
    r->signatures[i] = signature_text(ctx, &r->out->entries[i]);
  return r;
}

RxcModel *
rxc_jit_file(const char *path, const RxcJitOptions *o, FILE *errors)
{
  return jit(path, NULL, o, errors);
}

RxcModel *
rxc_jit_string(const char *name, const char *text, const RxcJitOptions *o, FILE *errors)
{
  return jit(name, text, o, errors);
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

int
rxc_model_arena_bytes_for(const RxcModel *m, const char *fn, const int64_t *dims, size_t *bytes)
{
  const CgEntry *e = find_entry(m, fn);
  CgArenaFn arena_fn = e ? cg_compiled_arena_fn(m->compiled, e) : NULL;
  if (!arena_fn)
    return RXC_ERR_NO_ENTRY;
  /* NULL dims give 0 bytes here and NAME_ERR_NULL from the entry */
  size_t need = arena_fn(dims), align = m->out->arena_align > 0 ? (size_t)m->out->arena_align : 1;
  /* a negative size (a negative dim) comes back above PTRDIFF_MAX */
  if (need > PTRDIFF_MAX - align)
    return RXC_ERR_ARENA;
  *bytes = need + (align - need % align) % align;
  return 0;
}

const char *
rxc_model_strerror(int code)
{
  if (code == 0)
    return "success";
  if (code == RXC_ERR_NO_ENTRY)
    return "no model, or no entry of that name";
  if (code == RXC_ERR_ARENA)
    return "the arena for these dims exceeds memory (a dim negative or too large)";
  const char *text = cg_error_message(code);
  return text ? text : "unknown error";
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

const char *
rxc_model_signature(const RxcModel *m, const char *fn)
{
  const CgEntry *e = find_entry(m, fn);
  return e ? m->signatures[e - m->out->entries] : NULL;
}

void
rxc_model_free(RxcModel *m)
{
  if (!m)
    return;
  cg_compiled_free(m->compiled); /* first: its code reads out's blob */
  cg_output_free(m->out);
  ir_ctx_free(m->ctx);
  free(m);
}
