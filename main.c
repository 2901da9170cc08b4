/*
 * main.c - the rxc driver: parses the command line and runs the pipeline.
 *
 *   model.py --fe_parse--> IrModule --ir_module_check--> opt_normalize
 *            --> (the passes named by --passes) --> print
 *
 * Exit status: 0 success, 1 bad input (diagnostics on stderr), 2 bad usage,
 * 3 internal error.  Nothing is written on error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "frontend/fe.h"
#include "ir/ir.h"
#include "opt/opt.h"

static const char usage_text[] =
    "usage: rxc <command> [options] FILE...\n"
    "\n"
    "rxc compiles Relax tensor programs (TVMScript) to freestanding C.\n"
    "\n"
    "commands:\n"
    "  check FILE           parse and check well-formedness; report every violation\n"
    "  opt FILE [-o OUT] [--passes A,B]\n"
    "                       run passes and print the module as TVMScript\n"
    "  equal A B            exit 0 when A and B are structurally equal, else 1\n"
    "  run FILE --input NAME=x.npy... [--output out.npy]\n"
    "                       evaluate a function in the reference interpreter\n"
    "  equiv A B            exit 0 when A and B give the same outputs on random inputs\n"
    "\n"
    "options:\n"
    "  -h, --help           show help (also: rxc <command> --help)\n"
    "  --version            print the version\n";

static const char check_help[] =
    "usage: rxc check FILE\n"
    "Parses FILE, checks that the module is well-formed and infers the struct\n"
    "info of every call (operator errors, contradicted annotations).  Prints\n"
    "every violation as file:line:col: error: ... and exits 1 if there is any.\n";

static const char opt_help[] =
    "usage: rxc opt FILE [-o OUT] [--passes A,B,C]\n"
    "Parses FILE, runs the given passes in order and prints the module as\n"
    "TVMScript to OUT or stdout.  Passes: Normalize, LegalizeOps.\n";

/* The passes --passes can name, by their TVM names. */
typedef struct {
  const char *name;
  IrModule *(*run)(IrCtx *ctx, const IrModule *m);
} PassEntry;

static const PassEntry passes[] = {
    {"Normalize", opt_normalize},
    {"LegalizeOps", opt_legalize_ops},
};

#define NPASSES ((int)(sizeof passes / sizeof passes[0]))
#define MAX_PIPELINE 64

static const char equal_help[] =
    "usage: rxc equal A B\n"
    "Exits 0 when the modules in A and B are structurally equal (variables\n"
    "up to renaming, NaN equal to NaN); otherwise prints the first difference\n"
    "and exits 1.\n";

static int
cmd_check(int argc, char **argv)
{
  if (argc == 2 && cli_is_help(argv[1])) {
    fputs(check_help, stdout);
    return EXIT_OK;
  }
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

/* Parses "A,B,C" into pipeline (indices into passes); a usage error for an
 * unknown or empty name. */
static int
parse_passes(const char *list, int *pipeline, int *npipeline)
{
  const char *p = list;
  while (*p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    int found = -1;
    for (int i = 0; i < NPASSES; i++)
      if (strlen(passes[i].name) == len && strncmp(passes[i].name, p, len) == 0)
        found = i;
    if (found < 0 || *npipeline == MAX_PIPELINE) {
      fprintf(stderr, "rxc: unknown pass '%.*s' (known passes:", (int)len, p);
      for (int i = 0; i < NPASSES; i++)
        fprintf(stderr, " %s", passes[i].name);
      fputs(")\nTry 'rxc opt --help'.\n", stderr);
      return EXIT_USAGE;
    }
    pipeline[(*npipeline)++] = found;
    p = end ? end + 1 : p + len;
  }
  return EXIT_OK;
}

/* Runs the passes in order; prints the diagnostics and returns NULL when
 * one fails. */
static IrModule *
run_pipeline(IrCtx *ctx, IrModule *m, const int *pipeline, int n)
{
  for (int i = 0; i < n && m; i++) {
    m = passes[pipeline[i]].run(ctx, m);
    if (!m || ir_error_count(ctx) > 0) {
      ir_diag_print(ctx, stderr);
      return NULL;
    }
  }
  return m;
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

static int
cmd_opt(int argc, char **argv)
{
  const char *in = NULL, *out = NULL;
  int pipeline[MAX_PIPELINE], npipeline = 0;
  for (int i = 1; i < argc; i++) {
    if (cli_is_help(argv[i])) {
      fputs(opt_help, stdout);
      return EXIT_OK;
    } else if (strcmp(argv[i], "-o") == 0) {
      if (++i == argc)
        return cli_usage_error("-o needs a file name%s", "");
      out = argv[i];
    } else if (strcmp(argv[i], "--passes") == 0) {
      if (++i == argc)
        return cli_usage_error("--passes needs a list%s", "");
      if (parse_passes(argv[i], pipeline, &npipeline) != EXIT_OK)
        return EXIT_USAGE;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return cli_usage_error("opt: unknown option '%s'", argv[i]);
    } else if (in) {
      return cli_usage_error("opt takes one FILE, got another: '%s'", argv[i]);
    } else {
      in = argv[i];
    }
  }
  if (!in)
    return cli_usage_error("opt needs a FILE%s", "");
  IrCtx *ctx = ir_ctx_new();
  IrModule *m = cli_load(ctx, in, false);
  if (m)
    m = run_pipeline(ctx, m, pipeline, npipeline);
  int status = EXIT_INPUT;
  if (m) {
    IrBuf text = {0};
    ir_module_print(m, &text);
    status = write_output(out, &text);
    ir_buf_free(&text);
  }
  ir_ctx_free(ctx);
  return status;
}

static int
cmd_equal(int argc, char **argv)
{
  if (argc == 2 && cli_is_help(argv[1])) {
    fputs(equal_help, stdout);
    return EXIT_OK;
  }
  if (argc != 3)
    return cli_usage_error("equal takes two files%s", "");
  IrCtx *ctx = ir_ctx_new();
  IrModule *a = cli_load(ctx, argv[1], false);
  IrModule *b = a ? cli_load(ctx, argv[2], false) : NULL;
  int status = EXIT_INPUT;
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

int
main(int argc, char **argv)
{
  if (argc < 2) {
    fputs(usage_text, stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (cli_is_help(cmd)) {
    fputs(usage_text, stdout);
    return EXIT_OK;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("rxc %s\n", RXC_VERSION);
    return EXIT_OK;
  }
  if (strcmp(cmd, "check") == 0)
    return cmd_check(argc - 1, argv + 1);
  if (strcmp(cmd, "opt") == 0)
    return cmd_opt(argc - 1, argv + 1);
  if (strcmp(cmd, "equal") == 0)
    return cmd_equal(argc - 1, argv + 1);
  if (strcmp(cmd, "run") == 0)
    return cmd_run(argc - 1, argv + 1);
  if (strcmp(cmd, "equiv") == 0)
    return cmd_equiv(argc - 1, argv + 1);
  return cli_usage_error("unknown command '%s'", cmd);
}
