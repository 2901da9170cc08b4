/* import.c - rxc import: an ONNX model to TVMScript (and, with
 * --params, its initializers to a .npz that rxc compile/run --params
 * bind back). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../frontend/fe.h"

const char cli_import_help[] =
    "usage: rxc import MODEL.onnx [-o OUT.py] [--params W.npz] [--dim-bound N]\n"
    "Reads an ONNX model and prints it as a Relax module (TVMScript) to OUT or\n"
    "stdout.  Initializers become constants, or with --params, parameters of\n"
    "main after the graph inputs, their values written to W.npz.  Graph inputs\n"
    "with a symbolic dim (dim_param) get a symbolic var of that name, bounded\n"
    "by --dim-bound N (tir_var_upper_bound) when given.  Every node that cannot\n"
    "be mapped is reported, as model.onnx: error: node 'name' (OpType): ...\n"
    "The text is what TVM v0.26 reads, or v0.23 with --dialect v0.23.\n";

typedef struct {
  const char *in, *out, *params;
  FeOnnxOptions opt;
  IrDialect dialect; /* of the printed module */
} ImportArgs;

static int
parse_import_args(int argc, char **argv, ImportArgs *a)
{
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (cli_is_help(arg)) {
      fputs(cli_import_help, stdout);
      cli_help_global();
      return -1;
    } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--params") == 0 ||
               strcmp(arg, "--dim-bound") == 0) {
      if (++i == argc)
        return cli_usage_error("%s needs a value", arg);
      if (arg[1] == 'o') {
        a->out = argv[i];
      } else if (strcmp(arg, "--params") == 0) {
        a->params = argv[i];
        a->opt.params = true;
      } else {
        char *end;
        a->opt.dim_bound = strtoll(argv[i], &end, 10);
        if (*end || a->opt.dim_bound <= 0)
          return cli_usage_error("--dim-bound needs a positive integer, got '%s'", argv[i]);
      }
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return cli_usage_error("import: unknown option '%s'", arg);
    } else if (a->in) {
      return cli_usage_error("import takes one MODEL.onnx, got another: '%s'", arg);
    } else {
      a->in = arg;
    }
  }
  return a->in ? EXIT_OK : cli_usage_error("import needs a MODEL.onnx%s", "");
}

/* Writes the module (and the weights) whole, or nothing. */
static int
write_import(const ImportArgs *a, const IrModule *m, const FeNpzEntry *w, int nw)
{
  IrBuf text = {0}, npz = {0};
  ir_module_print_dialect(m, a->dialect, &text);
  int status = EXIT_OK;
  if (a->params && !fe_npz_encode(w, nw, &npz)) {
    fprintf(stderr, "rxc: error: a weight's data type cannot be written to .npz\n");
    status = EXIT_INPUT;
  }
  if (status == EXIT_OK && a->params && !cli_write_file(a->params, &npz))
    status = EXIT_INPUT;
  if (status == EXIT_OK && a->out && !cli_write_file(a->out, &text))
    status = EXIT_INPUT;
  if (status == EXIT_OK && !a->out) {
    fwrite(text.data ? text.data : "", 1, text.len, stdout);
    status = fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
  }
  ir_buf_free(&text);
  ir_buf_free(&npz);
  return status;
}

int
cmd_import(int argc, char **argv, IrDialect dialect)
{
  ImportArgs a = {.dialect = dialect};
  int status = parse_import_args(argc, argv, &a);
  if (status != EXIT_OK)
    return status < 0 ? EXIT_OK : status;
  IrCtx *ctx = ir_ctx_new();
  FeNpzEntry *w = NULL;
  int nw = 0;
  IrModule *m = fe_onnx_read(ctx, a.in, &a.opt, &w, &nw);
  ir_diag_print(ctx, stderr);
  status = m && ir_error_count(ctx) == 0 ? write_import(&a, m, w, nw) : EXIT_INPUT;
  ir_ctx_free(ctx);
  return status;
}
