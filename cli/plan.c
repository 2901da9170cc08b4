/*
 * plan.c - rxc plan: the static memory plan of a model, as text, JSON
 * or an SVG chart.
 *
 *   FILE --rxc_road(read, check, passes, plan)--> MpPlan
 *        --mp_plan_print--> stdout or -o OUT
 *
 * The pipeline is the configuration's (-O overrides its level), so the plan
 * shown is the plan the code generator would use with the same options.
 *
 * With --lifetimes, the input is a bare problem in MiniMalloc's CSV
 * (memplan/csv.c) and the IR is skipped:
 *
 *   FILE.csv --mp_csv_read--> MpBuffer[] --mp_solve_stats--> offsets
 *            --mp_validate--> CSV with an offset column, text or JSON
 *
 * --emit-lifetimes writes a model's problem (what the core placed) in
 * that format, so a model can be benchmarked as a bare problem.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char cli_plan_help[] =
    "usage: rxc plan FILE [--params W.npz] [--format text|json|svg|csv] [-o OUT]\n"
    "                [-O0..-O2] [--fn NAME] [--algorithm NAME] [--emit-lifetimes F.csv]\n"
    "       rxc plan --lifetimes F.csv [--capacity BYTES] [--algorithm NAME]\n"
    "                [--format text|json|csv] [-o OUT]\n"
    "Parses FILE, runs the pipeline of the configuration's [opt] level (2\n"
    "unless --config, --set or -O0..-O2 say otherwise; every level ends with\n"
    "CallTIRRewrite and KillAfterLastUse) and plans each public Relax\n"
    "function's storages into one arena.  Prints the weights (flash): the bytes\n"
    "of the constants the generated C holds as static const (weights bound by\n"
    "--params count; weights left as parameters do not); then, per function,\n"
    "each storage (the binding that produced its bytes, the storage var `rxc\n"
    "opt` prints, bytes, live steps, offset), the arena size, the lower bound\n"
    "(the most bytes live at one step), the naive sum of all storages, the\n"
    "size under TVM's StaticPlanBlockMemory rule (pooled), their ratios, the\n"
    "in-place reuses and the runtime size checks, to OUT or stdout.\n"
    "  --format text   a table (the default)\n"
    "  --format json   the same figures as one JSON object\n"
    "  --format svg    the arena as a steps x bytes chart, one rectangle a storage\n"
    "  --format csv    the function's problem with an offset column (below)\n"
    "  --params W.npz  main's weights, bound by BindParams\n"
    "  --fn NAME       only the function NAME\n"
    "  --algorithm A   best, greedy_size, greedy_breadth, greedy_length,\n"
    "                  greedy_area, greedy_glow, best_fit, local, exact or pooled\n"
    "                  (TVM's rule, for comparison); overrides [memplan] algorithm\n"
    "  --emit-lifetimes F.csv  also write the function's problem as CSV\n"
    "  --lifetimes F.csv  plan a bare problem in MiniMalloc's CSV format\n"
    "                  (id,lower,upper,size[,alignment]; intervals half-open)\n"
    "  --capacity B    with --lifetimes: stop at the first plan within B bytes\n"
    "                  (else at the lower bound)\n"
    "The [memplan] section of the configuration sets the algorithm, the\n"
    "searches' budget (budget_ms, counted in work: the same input always gives\n"
    "the same plan), the arena limit and the upper bounds of symbolic dims;\n"
    "[target] alignment the alignment.\n";

typedef struct {
  const char *in, *out, *fn;
  const char *emit;  /* --emit-lifetimes */
  bool lifetimes;    /* in is a CSV problem */
  bool csv;          /* --format csv */
  int64_t capacity;  /* --capacity, 0 when absent */
  MpFormat format;
  const char *params; /* --params */
  CfgOptions *cfg; /* -O sets its [opt] level */
} PlanArgs;

/* One option that takes a value: -o, --params, --format, --fn. */
static int
plan_option(const char *opt, const char *value, PlanArgs *a)
{
  if (strcmp(opt, "-o") == 0) {
    a->out = value;
  } else if (strcmp(opt, "--params") == 0) {
    a->params = value;
  } else if (strcmp(opt, "--fn") == 0) {
    a->fn = value;
  } else if (strcmp(opt, "--emit-lifetimes") == 0) {
    a->emit = value;
  } else if (strcmp(opt, "--lifetimes") == 0) {
    if (a->in)
      return cli_usage_error("plan takes one FILE, got another: '%s'", value);
    a->in = value;
    a->lifetimes = true;
  } else if (strcmp(opt, "--capacity") == 0) {
    char *end;
    long long c = strtoll(value, &end, 10);
    if (!*value || *end || c <= 0)
      return cli_usage_error("--capacity takes a number of bytes >= 1, not '%s'", value);
    a->capacity = c;
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
  } else if (strcmp(value, "csv") == 0) {
    a->csv = true;
  } else {
    return cli_usage_error("--format takes text, json, svg or csv, not '%s'", value);
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
      fputs(cli_plan_help, stdout);
      cli_help_global();
      return -1;
    } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--params") == 0 ||
               strcmp(arg, "--format") == 0 || strcmp(arg, "--fn") == 0 ||
               strcmp(arg, "--algorithm") == 0 || strcmp(arg, "--emit-lifetimes") == 0 ||
               strcmp(arg, "--lifetimes") == 0 || strcmp(arg, "--capacity") == 0) {
      if (++i == argc)
        return cli_usage_error("%s needs a value", arg);
      if (plan_option(arg, argv[i], a) != EXIT_OK)
        return EXIT_USAGE;
    } else if (cli_is_level(arg)) {
      if (cli_set_level(arg, a->cfg) != EXIT_OK)
        return EXIT_USAGE;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return cli_usage_error("plan: unknown option '%s'", arg);
    } else if (a->in) {
      return cli_usage_error("plan takes one FILE, got another: '%s'", arg);
    } else {
      a->in = arg;
    }
  }
  if (!a->in)
    return cli_usage_error("plan needs a FILE%s", "");
  if (a->lifetimes && (a->emit || a->fn || a->params || a->format == MP_FORMAT_SVG))
    return cli_usage_error("--lifetimes takes --capacity, --algorithm, --format text|json|csv "
                           "and -o%s", "");
  if (a->capacity && !a->lifetimes)
    return cli_usage_error("--capacity goes with --lifetimes%s", "");
  return EXIT_OK;
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

/* text to a->out or stdout; the exit status. */
static int
write_output(const PlanArgs *a, IrBuf *text)
{
  int status;
  if (a->out) {
    status = cli_write_file(a->out, text) ? EXIT_OK : EXIT_INPUT;
  } else {
    fwrite(text->data ? text->data : "", 1, text->len, stdout);
    status = fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
  }
  ir_buf_free(text);
  return status;
}

/* The one function --format csv and --emit-lifetimes describe; NULL after
 * a message when p has several (and no --fn chose one). */
static const MpFunctionPlan *
single_function(const MpPlan *p)
{
  if (p->nfuncs == 1)
    return &p->funcs[0];
  fprintf(stderr, "rxc: error: %d functions are planned: choose one with --fn\n", p->nfuncs);
  return NULL;
}

/* --emit-lifetimes: the function's problem, without offsets. */
static int
emit_lifetimes(const PlanArgs *a, const MpPlan *p)
{
  const MpFunctionPlan *f = single_function(p);
  if (!f)
    return EXIT_INPUT;
  IrBuf text = {0};
  mp_csv_write(f->problem, f->nproblem, false, &text);
  bool ok = cli_write_file(a->emit, &text);
  ir_buf_free(&text);
  return ok ? EXIT_OK : EXIT_INPUT;
}

/* The report of p to a->out or stdout. */
static int
write_report(const PlanArgs *a, const MpPlan *p)
{
  if (a->emit && emit_lifetimes(a, p) != EXIT_OK)
    return EXIT_INPUT;
  IrBuf text = {0};
  if (a->csv) {
    const MpFunctionPlan *f = single_function(p);
    if (!f)
      return EXIT_INPUT;
    mp_csv_write(f->problem, f->nproblem, true, &text);
    return write_output(a, &text);
  }
  mp_plan_print(p, a->format, &text);
  return write_output(a, &text);
}

/* Reads, lowers and plans a->in; NULL after printing the diagnostics. */
static MpPlan *
plan_file(IrCtx *ctx, PlanArgs *a)
{
  OptInstruments ins = {.verify_each = a->cfg->opt.verify_each};
  CliStage st = {.ctx = ctx, .cfg = a->cfg, .path = a->in};
  RxcRoadIn in = {.path = a->in, .params = a->params, .cfg = a->cfg, .ins = &ins,
                  .step = cli_stage, .user = &st};
  RxcRoadOut road;
  bool ok = rxc_road(ctx, &in, RXC_STAGE_PLAN, &road);
  cli_road_diags(&st); /* errors, or the passes' and planner's warnings */
  return ok ? road.plan : NULL;
}

/* The figures of a solved bare problem. */
typedef struct {
  int64_t arena, lower, naive;
  MpStats st;
} LifetimeFigures;

/* The text or JSON report of a solved bare problem. */
static void
print_lifetimes(const PlanArgs *a, const LifetimeFigures *x, int n, IrBuf *out)
{
  const char *chosen = mp_algorithm_name(x->st.chosen);
  const char *fits = x->arena <= a->capacity ? "true" : "false";
  if (a->format == MP_FORMAT_JSON) {
    ir_buf_printf(out, "{\"problem\": \"%s\", \"buffers\": %d, \"algorithm\": \"%s\", "
                  "\"chosen\": \"%s\", \"arena\": %lld, \"lower_bound\": %lld, "
                  "\"naive_sum\": %lld, \"work\": %lld, \"optimal\": %s",
                  a->in, n, mp_algorithm_name(mp_algorithm_of(a->cfg->memplan.algorithm)), chosen,
                  (long long)x->arena, (long long)x->lower, (long long)x->naive,
                  (long long)x->st.work, x->st.optimal ? "true" : "false");
    if (a->capacity)
      ir_buf_printf(out, ", \"capacity\": %lld, \"fits\": %s", (long long)a->capacity, fits);
    ir_buf_printf(out, "}\n");
    return;
  }
  ir_buf_printf(out, "problem      %s (%d buffers)\n", a->in, n);
  ir_buf_printf(out, "algorithm    %s (plan kept: %s)\n",
                mp_algorithm_name(mp_algorithm_of(a->cfg->memplan.algorithm)), chosen);
  ir_buf_printf(out, "arena        %lld bytes\n", (long long)x->arena);
  ir_buf_printf(out, "lower bound  %lld bytes (arena / lower bound = %.4f)%s\n",
                (long long)x->lower, x->lower ? (double)x->arena / (double)x->lower : 1.0,
                x->st.optimal ? ", optimal" : "");
  if (a->capacity)
    ir_buf_printf(out, "capacity     %lld bytes: %s\n", (long long)a->capacity,
                  x->arena <= a->capacity ? "fits" : "does NOT fit");
  ir_buf_printf(out, "naive sum    %lld bytes\n", (long long)x->naive);
  ir_buf_printf(out, "work         %lld units\n", (long long)x->st.work);
}

/* rxc plan --lifetimes: read, solve, validate, write. */
static int
plan_lifetimes(const PlanArgs *a)
{
  IrCtx *ctx = ir_ctx_new();
  int n;
  MpBuffer *bufs = mp_csv_read(ctx, a->in, &n);
  ir_diag_print(ctx, stderr);
  int status = EXIT_INPUT;
  if (bufs || (ir_error_count(ctx) == 0 && n == 0)) {
    MpOptions o = {.algorithm = mp_algorithm_of(a->cfg->memplan.algorithm),
                   .budget_ms = a->cfg->memplan.budget_ms, .capacity = a->capacity};
    LifetimeFigures x = {.lower = mp_lower_bound(bufs, n), .naive = mp_naive_sum(bufs, n)};
    x.arena = mp_solve_stats(bufs, n, &o, &x.st);
    IrBuf why = {0}, text = {0};
    if (!mp_validate(bufs, n, x.arena, &why)) {
      fprintf(stderr, "rxc: internal error: invalid plan: %s\n", why.data);
      status = EXIT_INTERNAL;
    } else {
      if (a->csv)
        mp_csv_write(bufs, n, true, &text);
      else
        print_lifetimes(a, &x, n, &text);
      status = write_output(a, &text);
    }
    ir_buf_free(&why);
  }
  free(bufs);
  ir_ctx_free(ctx);
  return status;
}

int
cmd_plan(int argc, char **argv, CfgOptions *cfg)
{
  PlanArgs a = {.cfg = cfg, .format = MP_FORMAT_TEXT};
  int status = parse_plan_args(argc, argv, &a);
  if (status != EXIT_OK)
    return status < 0 ? EXIT_OK : status;
  if (a.lifetimes)
    return plan_lifetimes(&a);
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
