/*
 * main.c - the rxc driver: parses the command line, reads the
 * configuration and hands each verb its arguments.  rxc opt takes the
 * road (api/road.h) up to the passes:
 *
 *   model.py --read--> IrModule --check--> (the passes of --passes, -O or
 *            the configuration, weights bound) --> print
 *
 * Exit status: 0 success, 1 bad input (diagnostics on stderr), 2 bad usage,
 * 3 internal error.  Nothing is written on error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* rxc --help: the commands come from the verbs' own help (its usage lines,
 * then the summary below), so the two never disagree. */
static const char usage_head[] =
    "usage: rxc <command> [options] FILE...\n"
    "\n"
    "rxc compiles Relax tensor programs (TVMScript) to freestanding C.\n"
    "\n"
    "commands (rxc <command> --help says more):\n";

static const char usage_tail[] =
    "\n"
    "FILE may be an ONNX model (.onnx) wherever a module is read.  An output\n"
    "path's missing folders are created (-o a/b/out.py, compile -o a/b).\n"
    "\n"
    "options:\n"
    "  -O0, -O1, -O2        the pass pipeline of opt, plan, compile and run --via\n"
    "                       (default 2; there is no -O3: -O2 runs every pass that\n"
    "                       speeds up the generated code)\n"
    "  -h, --help           show help (also: rxc <command> --help)\n"
    "  --version            print the version\n"
    "  --config FILE        read the build configuration (INI; see config/default.ini)\n"
    "  --set SECTION.KEY=VALUE\n"
    "                       override one key of the configuration\n"
    "  --print-config       print the effective configuration and exit\n"
    "  --dialect v0.23|v0.26\n"
    "                       the TVMScript that opt and import print: the text that\n"
    "                       TVM v0.23 or v0.26 reads (default v0.26; [print] dialect)\n"
    "  -v, --verbose        report each step (passes with their times, plan, files)\n"
    "  -q, --quiet          print errors only\n"
    "\n"
    "Exit status: 0 success, 1 bad input (diagnostics on stderr), 2 bad usage,\n"
    "3 internal error.  On a terminal, long steps show progress on stderr.\n";

static const char check_help[] =
    "usage: rxc check FILE\n"
    "Parses FILE, checks that the module is well-formed and infers the struct\n"
    "info of every call (operator errors, contradicted annotations).  Prints\n"
    "every violation as file:line:col: error: ... and exits 1 if there is any.\n";

static const char opt_help[] =
    "usage: rxc opt FILE [-o OUT] [--passes A,B,C | -O0..-O2] [--params W.npz]\n"
    "               [--verify-each] [--time-passes] [--print-after=PASS]\n"
    "Parses FILE, runs the passes in order (--passes, or the default pipeline\n"
    "of -O0..-O2) and prints the module as TVMScript to OUT or stdout (the text\n"
    "TVM v0.26 reads, or v0.23 with --dialect v0.23).  Without\n"
    "--passes or -O0..-O2, the pipeline is the configuration's [opt] level (2\n"
    "unless --config or --set says otherwise) with its passes_add/passes_remove.\n"
    "A pass whose input lacks what it needs is refused with the name of the pass to\n"
    "run first.  --verify-each checks well-formedness after every pass and\n"
    "names the pass that broke it; --time-passes prints each pass's time and\n"
    "--print-after=PASS the module after PASS, on stderr.  --params binds\n"
    "main's weights for BindParams.  -O0 lowers only, -O1 also binds the\n"
    "weights, folds constants and drops dead code, -O2 also fuses; -O3 is\n"
    "refused: no pass beyond -O2's speeds up the generated code.  Passes:\n";

static const char equal_help[] =
    "usage: rxc equal A B\n"
    "Exits 0 when the modules in A and B are structurally equal (variables\n"
    "up to renaming, NaN equal to NaN); otherwise prints the first difference\n"
    "and exits 1.\n";

/* Each command: its help (which opens with its usage lines) and what it
 * does, in one line. */
static const struct {
  const char *help;
  const char *summary;
} commands[] = {
    {check_help, "parse and check well-formedness; report every violation"},
    {opt_help, "run passes and print the module as TVMScript"},
    {equal_help, "exit 0 when A and B are structurally equal, else 1"},
    {cli_run_help, "evaluate a function (interpreter, or the generated C)"},
    {cli_equiv_help, "exit 0 when A and B give the same outputs on random inputs"},
    {cli_plan_help, "print the static memory plan: storages, arena, lower bound, weights"},
    {cli_compile_help, "write the model as freestanding C: NAME.h, NAME.c"},
    {cli_import_help, "read an ONNX model and print it as TVMScript"},
    {cli_list_help, "print the supported operators, passes or ONNX operators"},
};

/* The usage lines at the head of help ("usage: rxc ..." and the lines
 * that continue it, indented), without "usage: rxc ", indented by two. */
static void
print_synopsis(const char *help, FILE *out)
{
  const size_t skip = strlen("usage: rxc ");
  const char *line = help;
  while (*line && (strncmp(line, "usage: rxc ", skip) == 0 || *line == ' ')) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    fprintf(out, "  %.*s\n", len > skip ? (int)(len - skip) : 0, line + (len > skip ? skip : len));
    line += len + (end != NULL);
  }
}

static void
print_usage(FILE *out)
{
  fputs(usage_head, out);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    print_synopsis(commands[i].help, out);
    fprintf(out, "%23s%s\n", "", commands[i].summary);
  }
  fputs(usage_tail, out);
}

/* For a verb that takes files only: prints help when asked (and returns
 * -1), refuses any option (EXIT_USAGE); EXIT_OK otherwise. */
static int
files_only(int argc, char **argv, const char *help)
{
  for (int i = 1; i < argc; i++) {
    if (cli_is_help(argv[i])) {
      fputs(help, stdout);
      cli_help_global();
      return -1;
    }
    if (argv[i][0] == '-' && argv[i][1] != '\0')
      return cli_usage_error("unknown option '%s'", argv[i]);
  }
  return EXIT_OK;
}

static int
cmd_check(int argc, char **argv)
{
  int status = files_only(argc, argv, check_help);
  if (status != EXIT_OK)
    return status < 0 ? EXIT_OK : status;
  if (argc != 2)
    return cli_usage_error("check takes one FILE%s", "");
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = cli_load(ctx, argv[1], true);
  if (m && !opt_normalize(ctx, m)) {
    ir_diag_print(ctx, stderr);
    m = NULL;
  }
  ir_ctx_free(ctx);
  return m ? EXIT_OK : EXIT_INPUT;
}

/* Prints the known passes, one a line, to out. */
static void
list_passes(FILE *out)
{
  for (int i = 0; opt_pass_at(i); i++)
    fprintf(out, "  %-24s %s\n", opt_pass_at(i)->name, opt_pass_at(i)->summary);
}

/* Parses "A,B,C" into pipeline; a usage error for an unknown or empty name. */
static int
parse_passes(const char *list, const OptPass **pipeline, int *npipeline)
{
  const char *p = list;
  while (*p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char name[64];
    const OptPass *found = NULL;
    if (len < sizeof name) {
      memcpy(name, p, len);
      name[len] = '\0';
      found = opt_pass_find(name);
    }
    if (!found || *npipeline == RXC_MAX_PASSES) {
      fprintf(stderr, "rxc: unknown pass '%.*s'; the passes are:\n", (int)len, p);
      list_passes(stderr);
      return EXIT_USAGE;
    }
    pipeline[(*npipeline)++] = found;
    p = end ? end + 1 : p + len;
  }
  return EXIT_OK;
}

/* Writes text to path (or stdout when path is NULL), through a temporary
 * file so that a failure leaves no partial output. */
static int
write_output(const char *path, const IrBuf *text)
{
  if (path)
    return cli_write_file(path, text) ? EXIT_OK : EXIT_INPUT;
  fwrite(text->data ? text->data : "", 1, text->len, stdout);
  return fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
}

typedef struct {
  const char *in, *out;
  const char *params; /* --params */
  const OptPass *pipeline[RXC_MAX_PASSES];
  int npipeline;
  bool have_passes; /* --passes given */
  bool have_level;  /* -O given */
  CfgOptions *cfg;  /* -O and --verify-each set its [opt] level and verify_each */
  OptInstruments ins;
} OptArgs;

/* Parses rxc opt's arguments; EXIT_OK, or a usage status (help: -1). */
static int
parse_opt_args(int argc, char **argv, OptArgs *a)
{
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (cli_is_help(arg)) {
      fputs(opt_help, stdout);
      list_passes(stdout);
      cli_help_global();
      return -1;
    } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--passes") == 0 ||
               strcmp(arg, "--params") == 0) {
      if (++i == argc)
        return cli_usage_error("%s needs a value", arg);
      if (arg[1] == 'o')
        a->out = argv[i];
      else if (strcmp(arg, "--params") == 0)
        a->params = argv[i];
      else if (a->have_passes || a->have_level)
        return cli_usage_error("give one --passes list or one -O level%s", "");
      else if (parse_passes(argv[i], a->pipeline, &a->npipeline) != EXIT_OK)
        return EXIT_USAGE;
      else
        a->have_passes = true;
    } else if (cli_is_level(arg)) {
      if (a->have_passes || a->have_level)
        return cli_usage_error("give one --passes list or one -O level (%s)", arg);
      if (cli_set_level(arg, a->cfg) != EXIT_OK)
        return EXIT_USAGE;
      a->have_level = true;
    } else if (strcmp(arg, "--verify-each") == 0) {
      a->cfg->opt.verify_each = true;
    } else if (strcmp(arg, "--time-passes") == 0) {
      a->ins.time_passes = true;
    } else if (strncmp(arg, "--print-after=", 14) == 0) {
      a->ins.print_after = arg + 14;
      if (!opt_pass_find(a->ins.print_after))
        return cli_usage_error("--print-after: unknown pass '%s'", a->ins.print_after);
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return cli_usage_error("opt: unknown option '%s'", arg);
    } else if (a->in) {
      return cli_usage_error("opt takes one FILE, got another: '%s'", arg);
    } else {
      a->in = arg;
    }
  }
  return a->in ? EXIT_OK : cli_usage_error("opt needs a FILE%s", "");
}

static int
cmd_opt(int argc, char **argv, CfgOptions *cfg)
{
  OptArgs a = {.cfg = cfg};
  int status = parse_opt_args(argc, argv, &a);
  if (status != EXIT_OK)
    return status < 0 ? EXIT_OK : status;
  a.ins.verify_each = cfg->opt.verify_each;
  a.ins.dialect = cfg->print.dialect;
  IrCtx *ctx = ir_ctx_new();
  CliStage st = {.ctx = ctx, .cfg = cfg, .path = a.in};
  RxcRoadIn in = {.path = a.in, .params = a.params, .cfg = cfg, .ins = &a.ins,
                  .passes = a.have_passes ? a.pipeline : NULL, .npasses = a.npipeline,
                  .step = cli_stage, .user = &st};
  RxcRoadOut road;
  IrModule *m = rxc_road(ctx, &in, RXC_STAGE_PASSES, &road) ? road.module : NULL;
  cli_road_diags(&st); /* errors, or the passes' warnings */
  status = EXIT_INPUT;
  if (m) {
    IrBuf text = {0};
    ir_module_print_dialect(m, cfg->print.dialect, &text);
    status = write_output(a.out, &text);
    ir_buf_free(&text);
  }
  ir_ctx_free(ctx);
  return status;
}

static int
cmd_equal(int argc, char **argv)
{
  int status = files_only(argc, argv, equal_help);
  if (status != EXIT_OK)
    return status < 0 ? EXIT_OK : status;
  if (argc != 3)
    return cli_usage_error("equal takes two files%s", "");
  IrCtx *ctx = ir_ctx_new();
  IrModule *a = cli_load(ctx, argv[1], false);
  IrModule *b = a ? cli_load(ctx, argv[2], false) : NULL;
  status = EXIT_INPUT;
  if (a && b) {
    IrBuf why = {0};
    if (ir_module_equal(a, b, &why)) {
      status = EXIT_OK;
    } else {
      printf("not equal: %s\n", why.data ? why.data : "(no detail)");
    }
    ir_buf_free(&why);
  }
  ir_ctx_free(ctx);
  return status;
}

/* Takes the global options out of argv (wherever they stand) and builds
 * the configuration: defaults, then --config FILE, then each --set
 * SECTION.KEY=VALUE in order, then --dialect D (print.dialect).  *print is
 * set by --print-config.  Prints
 * the errors and returns EXIT_INPUT for a bad file, EXIT_USAGE for a bad
 * option; EXIT_OK otherwise. */
static int
load_config(int *argc, char **argv, CfgOptions *cfg, bool *print)
{
  const char *path = NULL;
  const char *dialect = NULL; /* --dialect D: print.dialect, after every --set */
  int n = 1, verbosity = 0;
  for (int i = 1; i < *argc; i++) {
    if (strcmp(argv[i], "--print-config") == 0) {
      *print = true;
    } else if (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "--verbose") == 0) {
      verbosity = 1;
    } else if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0) {
      verbosity = -1;
    } else if (strcmp(argv[i], "--config") == 0) {
      if (i + 1 == *argc || path)
        return cli_usage_error("give one --config FILE%s", "");
      path = argv[++i];
    } else if (strcmp(argv[i], "--dialect") == 0) {
      if (i + 1 == *argc)
        return cli_usage_error("--dialect needs v0.23 or v0.26%s", "");
      dialect = argv[++i];
    } else {
      argv[n++] = argv[i];
    }
  }
  *argc = n;
  cfg_defaults(cfg);
  cfg->verbosity = verbosity;
  IrCtx *ctx = ir_ctx_new();
  int status = path && !cfg_load(ctx, path, cfg) ? EXIT_INPUT : EXIT_OK;
  n = 1;
  for (int i = 1; i < *argc && status == EXIT_OK; i++) {
    if (strcmp(argv[i], "--set") != 0)
      argv[n++] = argv[i];
    else if (i + 1 == *argc)
      status = cli_usage_error("--set needs SECTION.KEY=VALUE%s", "");
    else if (!cfg_set_arg(ctx, cfg, argv[++i]))
      status = EXIT_USAGE;
  }
  *argc = n;
  if (status == EXIT_OK && dialect && !cfg_set(ctx, cfg, "print", "dialect", dialect))
    status = EXIT_USAGE;
  ir_diag_print(ctx, stderr);
  ir_ctx_free(ctx);
  return status;
}

/* rxc --print-config: the effective configuration, as an INI file. */
static int
print_config(const CfgOptions *cfg)
{
  IrBuf text = {0};
  cfg_print(cfg, &text);
  int status = write_output(NULL, &text);
  ir_buf_free(&text);
  return status;
}

int
main(int argc, char **argv)
{
  CfgOptions cfg;
  bool print = false;
  int status = load_config(&argc, argv, &cfg, &print);
  if (status != EXIT_OK)
    return status;
  if (print && argc > 1)
    return cli_usage_error("--print-config takes no command, got '%s'", argv[1]);
  if (print)
    return print_config(&cfg);
  if (argc < 2) {
    print_usage(stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (cli_is_help(cmd)) {
    print_usage(stdout);
    return EXIT_OK;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("rxc %s\n", RXC_VERSION);
    return EXIT_OK;
  }
  if (strcmp(cmd, "check") == 0)
    return cmd_check(argc - 1, argv + 1);
  if (strcmp(cmd, "opt") == 0)
    return cmd_opt(argc - 1, argv + 1, &cfg);
  if (strcmp(cmd, "equal") == 0)
    return cmd_equal(argc - 1, argv + 1);
  if (strcmp(cmd, "run") == 0)
    return cmd_run(argc - 1, argv + 1, &cfg);
  if (strcmp(cmd, "equiv") == 0)
    return cmd_equiv(argc - 1, argv + 1);
  if (strcmp(cmd, "plan") == 0)
    return cmd_plan(argc - 1, argv + 1, &cfg);
  if (strcmp(cmd, "compile") == 0)
    return cmd_compile(argc - 1, argv + 1, &cfg);
  if (strcmp(cmd, "import") == 0)
    return cmd_import(argc - 1, argv + 1, cfg.print.dialect);
  if (strcmp(cmd, "list") == 0)
    return cmd_list(argc - 1, argv + 1);
  return cli_usage_error("unknown command '%s'", cmd);
}
