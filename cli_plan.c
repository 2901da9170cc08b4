/*
 * cli_plan.c - rxc plan: the static memory plan of a model, as text, JSON
 * or an SVG chart.
 *
 *   FILE --cli_load--> IrModule --opt_run(cfg_pipeline)--> explicit memory
 *        --mp_plan_module--> MpPlan --mp_plan_print--> stdout or -o OUT
 *
 * The pipeline is the configuration's (-O overrides its level), so the plan
 * shown is the plan the code generator would use with the same options.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "config/cfg.h"
#include "memplan/mp.h"
#include "opt/opt.h"

static const char plan_help[] =
    "usage: rxc plan FILE [--params W.npz] [--format text|json|svg] [-o OUT]\n"
    "                [-O0..-O3] [--fn NAME] [--algorithm NAME]\n"
    "Parses FILE, runs the pipeline of the configuration's [opt] level (2\n"
    "unless --config, --set or -O says otherwise; every level ends with\n"
    "CallTIRRewrite and KillAfterLastUse) and plans each public Relax\n"
    "function's storages into one arena.  Prints, per function, each storage\n"
    "(binding, bytes, live steps, offset), the arena size, the lower bound\n"
    "(the most bytes live at one step), the naive sum of all storages, the\n"
    "size under TVM's StaticPlanBlockMemory rule (pooled), their ratios, the\n"
    "in-place reuses and the runtime size checks, to OUT or stdout.\n"
    "  --format text   a table (the default)\n"
    "  --format json   the same figures as one JSON object\n"
    "  --format svg    the arena as a steps x bytes chart, one rectangle a storage\n"
    "  --params W.npz  main's weights, bound by BindParams\n"
    "  --fn NAME       only the function NAME\n"
    "  --algorithm A   best, greedy_size, greedy_breadth, exact or pooled (TVM's\n"
    "                  rule, for comparison); overrides [memplan] algorithm\n"
    "The [memplan] section of the configuration sets the algorithm, the\n"
    "arena limit and the upper bounds of symbolic dims; [target] alignment\n"
    "the alignment.\n";

#define MAX_PIPELINE 64

typedef struct {
  const char *in, *out, *fn;
  MpFormat format;
  CfgOptions *cfg; /* -O sets its [opt] level */
  OptContext oc;
} PlanArgs;

/* One option that takes a value: -o, --params, --format, --fn. */
static int
plan_option(const char *opt, const char *value, PlanArgs *a)
{
  if (strcmp(opt, "-o") == 0) {
    a->out = value;
  } else if (strcmp(opt, "--params") == 0) {
    a->oc.params_path = value;
  } else if (strcmp(opt, "--fn") == 0) {
    a->fn = value;
  } else if (strcmp(opt, "--algorithm") == 0) {
    IrCtx *ctx = ir_ctx_new();
    bool ok = cfg_set(ctx, a->cfg, "memplan", "algorithm", value);
    ir_diag_print(ctx, stderr);
    ir_ctx_free(ctx);
    return ok ? EXIT_OK : EXIT_USAGE;
  } else if (strcmp(value, "text") == 0) {
    a->format = MP_FORMAT_TEXT;
  } else if (strcmp(value, "json") == 0) {
    a->format = MP_FORMAT_JSON;
  } else if (strcmp(value, "svg") == 0) {
    a->format = MP_FORMAT_SVG;
  } else {
    return cli_usage_error("--format takes text, json or svg, not '%s'", value);
  }
  return EXIT_OK;
}

/* Parses rxc plan's arguments; EXIT_OK, or a usage status (help: -1). */
static int
parse_plan_args(int argc, char **argv, PlanArgs *a)
{
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (cli_is_help(arg)) {
      fputs(plan_help, stdout);
      return -1;
    } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--params") == 0 ||
               strcmp(arg, "--format") == 0 || strcmp(arg, "--fn") == 0 ||
               strcmp(arg, "--algorithm") == 0) {
      if (++i == argc)
        return cli_usage_error("%s needs a value", arg);
      if (plan_option(arg, argv[i], a) != EXIT_OK)
        return EXIT_USAGE;
    } else if (arg[0] == '-' && arg[1] == 'O' && arg[2] >= '0' && arg[2] <= '3' && !arg[3]) {
      a->cfg->opt.level = arg[2] - '0';
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return cli_usage_error("plan: unknown option '%s'", arg);
    } else if (a->in) {
      return cli_usage_error("plan takes one FILE, got another: '%s'", arg);
    } else {
      a->in = arg;
    }
  }
  return a->in ? EXIT_OK : cli_usage_error("plan needs a FILE%s", "");
}

/* Narrows p to the function named fn (a view sharing p's storage); false
 * after a message when there is none. */
static bool
select_function(MpPlan *p, const char *fn)
{
  for (int i = 0; i < p->nfuncs; i++)
    if (p->funcs[i].name && strcmp(p->funcs[i].name, fn) == 0) {
      p->funcs = &p->funcs[i];
      p->nfuncs = 1;
      p->arena_bytes = p->funcs[0].arena_bytes;
      return true;
    }
  fprintf(stderr, "rxc: error: no planned function '%s'; the functions are:", fn);
  for (int i = 0; i < p->nfuncs; i++)
    fprintf(stderr, " %s", p->funcs[i].name ? p->funcs[i].name : "?");
  fputs("\n", stderr);
  return false;
}

/* The report of p to a->out or stdout. */
static int
write_report(const PlanArgs *a, const MpPlan *p)
{
  IrBuf text = {0};
  mp_plan_print(p, a->format, &text);
  int status = EXIT_OK;
  if (a->out) {
    status = cli_write_file(a->out, &text) ? EXIT_OK : EXIT_INPUT;
  } else {
    fwrite(text.data ? text.data : "", 1, text.len, stdout);
    status = fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
  }
  ir_buf_free(&text);
  return status;
}

/* Loads, lowers and plans a->in; NULL after printing the diagnostics. */
static MpPlan *
plan_file(IrCtx *ctx, PlanArgs *a)
{
  const OptPass *pipeline[MAX_PIPELINE];
  int n = cfg_pipeline(a->cfg, pipeline, MAX_PIPELINE);
  OptInstruments ins = {.verify_each = a->cfg->opt.verify_each};
  a->oc.ctx = ctx;
  IrModule *m = cli_load(ctx, a->in, true); /* the passes assume well-formed input */
  if (m)
    m = opt_run(&a->oc, m, pipeline, n, &ins);
  MpPlan *p = m && ir_error_count(ctx) == 0 ? mp_plan_module(ctx, m, a->cfg) : NULL;
  ir_diag_print(ctx, stderr); /* errors, or the passes' and planner's warnings */
  return ir_error_count(ctx) > 0 ? NULL : p;
}

int
cmd_plan(int argc, char **argv, CfgOptions *cfg)
{
  PlanArgs a = {.cfg = cfg, .format = MP_FORMAT_TEXT};
  int status = parse_plan_args(argc, argv, &a);
  if (status != EXIT_OK)
    return status < 0 ? EXIT_OK : status;
  IrCtx *ctx = ir_ctx_new();
  MpPlan *p = plan_file(ctx, &a);
  status = EXIT_INPUT;
  if (p) {
    MpPlan view = *p;
    if (!a.fn || select_function(&view, a.fn))
      status = write_report(&a, &view);
  }
  ir_ctx_free(ctx);
  return status;
}
