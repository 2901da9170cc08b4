/* cli.c - helpers every verb of the command line uses: usage errors,
 * -O levels, loading a module with its diagnostics, the road's step
 * function (diagnostics and progress between stages), writing output
 * files whole. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
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
        "--dialect v0.23|v0.26, -v/--verbose, -q/--quiet.\n",
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
cli_is_level(const char *arg)
{
  return arg[0] == '-' && arg[1] == 'O' && arg[2] >= '0' && arg[2] <= '9' && !arg[3];
}

int
cli_set_level(const char *arg, CfgOptions *cfg)
{
  int level = arg[2] - '0';
  if (level > OPT_LEVEL_MAX)
    return cli_usage_error("%s: the levels are -O0, -O1 and -O2 (-O2 runs every pass that "
                           "speeds up the generated code)", arg);
  cfg->opt.level = level;
  return EXIT_OK;
}

void
cli_stage(void *user, RxcStage stage, const RxcRoadOut *so_far)
{
  CliStage *s = user;
  const CfgOptions *cfg = s->cfg;
  if (stage == RXC_STAGE_READ && s->progress) {
    cli_progress(cfg, "reading %s", s->path);
  } else if (stage == RXC_STAGE_CHECK) {
    /* the reader's warnings; its errors stop the road before this */
    ir_diag_print(s->ctx, stderr);
    ir_diag_clear(s->ctx);
    if (s->progress && cfg->verbosity > 0)
      cli_progress(cfg, "read: %.1f MB of IR", (double)ir_arena_bytes(s->ctx) / 1e6);
    if (s->progress)
      cli_progress(cfg, "optimizing (-O%d)", cfg->opt.level);
  } else if (stage == RXC_STAGE_PLAN && s->progress) {
    cli_progress(cfg, "planning memory");
  } else if (stage == RXC_STAGE_GENERATE && s->progress) {
    const MpPlan *p = so_far->plan;
    if (p && cfg->verbosity > 0)
      cli_progress(cfg, "arena %lld bytes (lower bound %lld)", (long long)p->arena_bytes,
                   (long long)(p->nfuncs ? p->funcs[0].lower_bound : 0));
    cli_progress(cfg, "generating C");
  }
}

void
cli_road_diags(const CliStage *st)
{
  ir_diag_print(st->ctx, stderr);
}

/* mkdir -p on the first len bytes of path: each missing folder from the
 * top down.  False after a message naming the folder and the OS's reason. */
static bool
make_dirs(const char *path, size_t len)
{
  char *dir = ir_xmalloc(len + 1);
  memcpy(dir, path, len);
  dir[len] = '\0';
  bool ok = true;
  for (size_t i = 1; ok && i <= len; i++) {
    if (i < len && dir[i] != '/')
      continue;
    dir[i] = '\0';
    struct stat st;
    if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0 && errno != EEXIST) {
      fprintf(stderr, "rxc: error: cannot create folder '%s': %s\n", dir, strerror(errno));
      ok = false;
    }
    if (i < len)
      dir[i] = '/';
  }
  free(dir);
  return ok;
}

bool
cli_make_dirs(const char *dir)
{
  return make_dirs(dir, strlen(dir));
}

bool
cli_write_file(const char *path, const IrBuf *data)
{
  const char *slash = strrchr(path, '/');
  if (slash && slash > path && !make_dirs(path, (size_t)(slash - path)))
    return false;
  struct stat st;
  bool special = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
  size_t n = strlen(path) + 8;
  char *tmp = ir_xmalloc(n);
  snprintf(tmp, n, "%s.tmp", path);
  errno = 0;
  FILE *f = fopen(special ? path : tmp, "wb");
  bool ok = f && fwrite(data->data ? data->data : "", 1, data->len, f) == data->len;
  if (f && fclose(f) != 0)
    ok = false;
  if (ok && !special && rename(tmp, path) != 0)
    ok = false;
  if (!ok) {
    int why = errno;
    fprintf(stderr, "rxc: error: cannot write '%s'%s%s\n", path, why ? ": " : "",
            why ? strerror(why) : "");
    if (!special)
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
