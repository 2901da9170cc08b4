/* cli.c - helpers every verb of the command line uses: usage errors,
 * loading a module with its diagnostics, writing output files whole. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../frontend/fe.h"

int
cli_usage_error(const char *fmt, const char *arg)
{
  fputs("rxc: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'rxc --help'.\n", stderr);
  return EXIT_USAGE;
}

bool
cli_is_help(const char *arg)
{
  return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

void
cli_help_global(void)
{
  fputs("Global options (rxc --help): --config FILE, --set SECTION.KEY=VALUE,\n"
        "-v/--verbose, -q/--quiet.\n",
        stdout);
}

IrModule *
cli_load(IrCtx *ctx, const char *path, bool check)
{
  IrModule *m = fe_is_onnx_path(path) ? fe_onnx_read(ctx, path, NULL, NULL, NULL)
                                       : fe_parse_file(ctx, path);
  if (m && check)
    ir_module_check(ctx, m);
  if (ir_error_count(ctx) > 0) {
    ir_diag_print(ctx, stderr);
    return NULL;
  }
  ir_diag_print(ctx, stderr); /* warnings */
  ir_diag_clear(ctx);
  return m;
}

bool
cli_write_file(const char *path, const IrBuf *data)
{
  size_t n = strlen(path) + 8;
  char *tmp = malloc(n);
  if (!tmp)
    return false;
  snprintf(tmp, n, "%s.tmp", path);
  FILE *f = fopen(tmp, "wb");
  bool ok = f && fwrite(data->data ? data->data : "", 1, data->len, f) == data->len;
  if (f && fclose(f) != 0)
    ok = false;
  if (ok && rename(tmp, path) != 0)
    ok = false;
  if (!ok) {
    fprintf(stderr, "rxc: error: cannot write '%s'\n", path);
    remove(tmp);
  }
  free(tmp);
  return ok;
}

/* --- progress ------------------------------------------------------------ */

void
cli_progress(const CfgOptions *cfg, const char *fmt, ...)
{
  bool tty = isatty(STDERR_FILENO);
  if (cfg->verbosity < 0 || (!tty && cfg->verbosity == 0))
    return;
  va_list ap;
  va_start(ap, fmt);
  fputs(tty && cfg->verbosity == 0 ? "\rrxc: " : "rxc: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputs(tty && cfg->verbosity == 0 ? "...\033[K" : "\n", stderr);
  va_end(ap);
  fflush(stderr);
}

void
cli_progress_done(const CfgOptions *cfg)
{
  if (cfg->verbosity == 0 && isatty(STDERR_FILENO))
    fputs("\r\033[K", stderr);
}
