/*
 * cc.c - cg_jit_cc: the generated files compiled by the system compiler
 * into a shared object in a temporary directory, then dlopen'ed.
 *
 * Key idea: the compiler runs through posix_spawnp with an argv built from
 * the configured command and flags (split at blanks, no shell), its output
 * captured in a file of the temporary directory and turned into a
 * diagnostic when it fails.  cg_compiled_free unloads the library and
 * removes the directory.  Both compilers' results take a blob's weights
 * the same way (cg_compiled_bind): as memory, never as C text, and the
 * output's own memory when it is aligned, so the output must outlive
 * the compiled code.
 *
 * The JIT's target is the host, so [jit] cc_flags = auto (the default)
 * asks cc for the host's best code: cg_cc_flags compiles a one-line file
 * with -O3 -march=native once per cc command and remembers the answer,
 * in the one piece of process state here (a lock-guarded cache: the
 * answer is the same for every compilation, so sharing it is safe).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cg_int.h"

extern char **environ;

enum { MAX_ARGS = 64 };

/* Appends the blank-separated words of s to argv (copies in the ctx arena). */
static void
split_words(IrCtx *ctx, const char *s, char **argv, int *argc)
{
  while (s && *s) {
    while (*s == ' ' || *s == '\t')
      s++;
    size_t n = strcspn(s, " \t");
    if (n && *argc < MAX_ARGS - 1)
      argv[(*argc)++] = ir_strdup(ctx, s, n);
    s += n;
  }
}

/* Runs argv with stdout and stderr into log; true when it exits with 0. */
static bool
run(char **argv, const char *log)
{
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    return false;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void remove_tree(const char *dir);

static const char best_flags[] = "-O3 -march=native";
static const char safe_flags[] = "-O2";

/* Whether cc compiles a small C file with best_flags (in a temporary
 * directory of its own, removed after). */
static bool
takes_best_flags(const char *cc)
{
  const char *tmp = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/rxc-probe-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir))
    return false;
  char src[4200], obj[4200], log[4200];
  snprintf(src, sizeof src, "%s/probe.c", dir);
  snprintf(obj, sizeof obj, "%s/probe.o", dir);
  snprintf(log, sizeof log, "%s/cc.log", dir);
  FILE *f = fopen(src, "w");
  bool ok = f && fputs("int rxc_probe(int x);\nint rxc_probe(int x) { return x + 1; }\n", f) >= 0;
  ok = f && fclose(f) == 0 && ok;
  if (ok) {
    IrCtx *ctx = ir_ctx_new(); /* only for split_words' copies */
    char *argv[MAX_ARGS];
    int argc = 0;
    split_words(ctx, cc && *cc ? cc : "cc", argv, &argc);
    split_words(ctx, best_flags, argv, &argc);
    argv[argc++] = "-c";
    argv[argc++] = src;
    argv[argc++] = "-o";
    argv[argc++] = obj;
    argv[argc] = NULL;
    ok = run(argv, log);
    ir_ctx_free(ctx);
  }
  remove_tree(dir);
  return ok;
}

enum { PROBE_CACHE = 8 };

const char *
cg_cc_flags(const char *cc, const char *flags)
{
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static struct {
    char cc[256];      /* the command probed ("" = free slot) */
    const char *flags; /* best_flags or safe_flags */
  } cache[PROBE_CACHE];
  if (!flags || strcmp(flags, "auto") != 0)
    return flags ? flags : "";
  cc = cc && *cc ? cc : "cc";
  const char *found = NULL;
  pthread_mutex_lock(&lock);
  int i = 0;
  for (; i < PROBE_CACHE && cache[i].cc[0] && !found; i++)
    if (strcmp(cache[i].cc, cc) == 0)
      found = cache[i].flags;
  if (!found) {
    found = takes_best_flags(cc) ? best_flags : safe_flags;
    if (i < PROBE_CACHE && strlen(cc) < sizeof cache[i].cc) {
      strcpy(cache[i].cc, cc);
      cache[i].flags = found;
    }
  }
  pthread_mutex_unlock(&lock);
  return found;
}

static bool
compile(IrCtx *ctx, const CgOutput *out, const char *dir, const char *cc, const char *flags)
{
  IrLoc none = {0};
  char *argv[MAX_ARGS];
  int argc = 0;
  split_words(ctx, cc && *cc ? cc : "cc", argv, &argc);
  split_words(ctx, cg_cc_flags(cc, flags), argv, &argc);
  split_words(ctx, "-shared -fPIC -o", argv, &argc);
  argv[argc++] = ir_printf(ctx, "%s/lib.so", dir);
  for (int i = 0; i < out->nfiles && argc < MAX_ARGS - 2; i++)
    if (strstr(out->files[i].name, ".c"))
      argv[argc++] = ir_printf(ctx, "%s/%s", dir, out->files[i].name);
  argv[argc++] = "-lm";
  argv[argc] = NULL;
  const char *log = ir_printf(ctx, "%s/cc.log", dir);
  if (run(argv, log))
    return true;
  char *text = NULL;
  FILE *f = fopen(log, "rb");
  if (f) {
    IrBuf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
      ir_buf_put(&b, chunk, n);
    fclose(f);
    text = b.data;
  }
  ir_error(ctx, none, "the C compiler '%s' failed on the generated code%s%s", argv[0],
           text ? ":\n" : "", text ? text : "");
  free(text);
  return false;
}

CgCompiled *
cg_jit_cc(IrCtx *ctx, const CgOutput *out, const char *cc, const char *flags)
{
  IrLoc none = {0};
  const char *tmp = getenv("TMPDIR");
  char *dir = NULL;
  if (asprintf(&dir, "%s/rxc-cc-XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0 || !mkdtemp(dir)) {
    ir_error(ctx, none, "cannot create a temporary directory: %s", strerror(errno));
    free(dir);
    return NULL;
  }
  CgCompiled *c = NULL;
  if (cg_write(ctx, out, dir) && compile(ctx, out, dir, cc, flags)) {
    char *so = ir_printf(ctx, "%s/lib.so", dir);
    void *dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
      ir_error(ctx, none, "cannot load '%s': %s", so, dlerror());
    } else {
      c = ir_xcalloc(1, sizeof *c);
      c->dl = dl;
      c->dir = dir;
      if (cg_compiled_bind(ctx, c, out))
        return c;
      cg_compiled_free(c);
      return NULL;
    }
  }
  remove_tree(dir);
  free(dir);
  return NULL;
}

CgPackedFn
cg_compiled_entry(CgCompiled *c, const char *symbol)
{
  if (!c)
    return NULL;
  void *p = c->dl ? dlsym(c->dl, symbol) : c->tcc ? cg_tcc_symbol(c->tcc, symbol) : NULL;
  CgPackedFn fn;
  memcpy(&fn, &p, sizeof fn); /* object to function pointer without the cast ISO C lacks */
  return fn;
}

CgArenaFn
cg_compiled_arena_fn(CgCompiled *c, const CgEntry *e)
{
  void *p = NULL;
  if (c && e)
    p = c->dl ? dlsym(c->dl, e->arena_fn) : c->tcc ? cg_tcc_symbol(c->tcc, e->arena_fn) : NULL;
  CgArenaFn fn;
  memcpy(&fn, &p, sizeof fn); /* as cg_compiled_entry */
  return fn;
}

typedef int (*SetWeightsFn)(const void *weights, size_t bytes);

bool
cg_compiled_bind(IrCtx *ctx, CgCompiled *c, const CgOutput *out)
{
  IrLoc none = {0};
  if (!out->set_weights)
    return true;
  const IrBuf *blob = &out->files[out->blob].text;
  void *p = c->dl ? dlsym(c->dl, out->set_weights) : cg_tcc_symbol(c->tcc, out->set_weights);
  SetWeightsFn set;
  memcpy(&set, &p, sizeof set);
  if (!p) {
    ir_error(ctx, none, "the compiled code has no set_weights");
    return false;
  }
  /* 64: the blob's own alignment, whatever the widest element.  The blob
   * cg_generate made is aligned so (gen_weights.c) and is handed over as
   * it is: a copy would cost a model's weights again, in fresh pages. */
  const void *weights = blob->data;
  if ((uintptr_t)blob->data % 64 != 0) {
    c->weights = ir_xaligned_alloc(64, blob->len);
    memcpy(c->weights, blob->data, blob->len);
    weights = c->weights;
  }
  int rc = set(weights, blob->len);
  if (rc != 0)
    ir_error(ctx, none, "%s refused the weights it was generated with (%d)", out->set_weights, rc);
  return rc == 0;
}

/* Removes every file of dir, then dir. */
static void
remove_tree(const char *dir)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  char path[4096];
  while (d && (e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
  if (d)
    closedir(d);
  rmdir(dir);
}

void
cg_compiled_free(CgCompiled *c)
{
  if (!c)
    return;
  if (c->dl)
    dlclose(c->dl);
  if (c->tcc)
    cg_tcc_free(c->tcc);
  if (c->dir)
    remove_tree(c->dir);
  free(c->dir);
  free(c->weights);
  free(c);
}
