/*
 * jit.c - compiles generated C in memory with libtcc: the only file that
 * includes <libtcc.h>.
 *
 * Key ideas:
 *  - No file system.  Each generated .c becomes one string in which every
 *    `#include "X"` naming a generated file (NAME.h) is replaced by that
 *    file's text between #line directives, so tcc compiles exactly what
 *    cg_write would write, and its messages name NAME.c / NAME.h and their
 *    lines.  Those messages become diagnostics in the caller's context,
 *    located in the generated text (registered as a source on first use).
 *  - One lock.  libtcc 0.9.27 keeps global state (the state being compiled,
 *    its error function, the preprocessor's tables), so every call into it
 *    - create, compile, relocate, look up, delete - holds tcc_lock.  This
 *    is the module's one mutable global, and it exists to protect libtcc's.
 *  - A wrong library directory (libtcc1.a) is only noticed by
 *    tcc_relocate, which therefore is checked like compilation.
 *  - Kernels precompiled, not compiled.  The text of rt/'s kernels
 *    (rxc_k_gemm_f32) is compiled with RXC_KERN_EXTERN defined, which
 *    leaves their prototypes only, and each name is bound to the copy
 *    librxc carries for this CPU (kern.c): tcc compiles the loops around
 *    the kernels, the system compiler's -O3 the kernels themselves.
 */
#include <assert.h>
#include <libtcc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cg_int.h"

static pthread_mutex_t tcc_lock = PTHREAD_MUTEX_INITIALIZER;

enum { MAX_FILES = (int)(sizeof(((CgOutput *)0)->files) / sizeof(CgFile)) };

/* Where tcc's messages go while one compilation runs. */
typedef struct {
  IrCtx *ctx;
  const CgOutput *out;
  const IrSource *sources[MAX_FILES]; /* generated files registered so far */
  int errors;                         /* error messages received */
} TccSink;

/* ---- tcc's messages as diagnostics ------------------------------------ */

/* The index of the generated file named by the first len bytes of name,
 * or -1. */
static int
find_file(const CgOutput *out, const char *name, size_t len)
{
  for (int i = 0; i < out->nfiles; i++)
    if (strlen(out->files[i].name) == len && memcmp(out->files[i].name, name, len) == 0)
      return i;
  return -1;
}

/* The location of "FILE:LINE: " at the start of line (advancing *rest past
 * it) when FILE is a generated file; else no location. */
static IrLoc
message_location(TccSink *sink, const char *line, const char **rest)
{
  IrLoc loc = {0};
  const char *colon = strchr(line, ':');
  char *end;
  if (!colon || colon[1] < '0' || colon[1] > '9')
    return loc;
  long number = strtol(colon + 1, &end, 10);
  int file = find_file(sink->out, line, (size_t)(colon - line));
  if (file < 0 || *end != ':' || number < 1 || number > 1000000000)
    return loc;
  const CgFile *f = &sink->out->files[file];
  if (!sink->sources[file])
    sink->sources[file] = ir_source_add(sink->ctx, f->name, f->text.data ? f->text.data : "",
                                        f->text.len);
  loc.src = sink->sources[file];
  loc.line = (int)number;
  loc.col = 1;
  *rest = end + 1 + (end[1] == ' ');
  return loc;
}

/* tcc's error function: the last line of msg is the message ("FILE:LINE:
 * error: text", or "tcc: error: text"); lines before it ("In file
 * included from ...") become notes. */
static void
on_tcc_message(void *opaque, const char *msg)
{
  TccSink *sink = opaque;
  const char *last = strrchr(msg, '\n');
  last = last ? last + 1 : msg;
  const char *text = last;
  IrLoc loc = message_location(sink, last, &text);
  bool warning = strncmp(text, "warning: ", 9) == 0;
  if (strncmp(text, "tcc: ", 5) == 0)
    text += 5;
  if (strncmp(text, "error: ", 7) == 0 || warning)
    text += warning ? 9 : 7;
  if (warning) {
    ir_warning(sink->ctx, loc, "tcc: %s", text);
  } else {
    ir_error(sink->ctx, loc, "tcc: %s", text);
    sink->errors++;
  }
  IrLoc none = {0};
  for (const char *p = msg; p < last;) {
    const char *nl = strchr(p, '\n');
    ir_note(sink->ctx, none, "%.*s", (int)(nl - p), p);
    p = nl + 1;
  }
}

/* Installed once a compilation is over: libtcc must not call back into a
 * sink that no longer exists. */
static void
ignore_tcc_message(void *opaque, const char *msg)
{
  (void)opaque;
  (void)msg;
}

/* ---- one translation unit in memory ------------------------------------ */

/* The generated file named by an `#include "X"` line, or -1. */
static int
included_file(const CgOutput *out, const char *line, size_t len)
{
  size_t i = 0;
  while (i < len && (line[i] == ' ' || line[i] == '\t'))
    i++;
  if (i == len || line[i] != '#')
    return -1;
  for (i++; i < len && (line[i] == ' ' || line[i] == '\t'); i++)
    ;
  if (len - i < 7 || memcmp(line + i, "include", 7) != 0)
    return -1;
  for (i += 7; i < len && (line[i] == ' ' || line[i] == '\t'); i++)
    ;
  const char *name = line + i + 1;
  const char *close = i < len && line[i] == '"' ? memchr(name, '"', len - i - 1) : NULL;
  return close ? find_file(out, name, (size_t)(close - name)) : -1;
}

/* Appends file to tu with the generated files it includes spliced in
 * (each at most once: `seen` bits), #line directives keeping every line
 * attributed to its own file. */
static void
splice_file(const CgOutput *out, int file, unsigned *seen, IrBuf *tu)
{
  const CgFile *f = &out->files[file];
  const char *text = f->text.data ? f->text.data : "";
  const char *end = text + f->text.len;
  int line = 1;
  *seen |= 1u << file;
  ir_buf_printf(tu, "#line 1 \"%s\"\n", f->name);
  for (const char *p = text; p < end; line++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
    int inc = included_file(out, p, len);
    if (inc >= 0) {
      if (!(*seen & (1u << inc)))
        splice_file(out, inc, seen, tu);
      ir_buf_printf(tu, "#line %d \"%s\"\n", line + 1, f->name);
    } else {
      ir_buf_put(tu, p, len);
      ir_buf_puts(tu, "\n");
    }
    p += len + (nl != NULL);
  }
}

static bool
is_c_file(const CgFile *f)
{
  size_t n = strlen(f->name);
  return n > 2 && strcmp(f->name + n - 2, ".c") == 0;
}

/* ---- compiling --------------------------------------------------------- */

/* Binds each kernel's name to the copy kern.c chooses for this CPU, which
 * the text's prototypes (RXC_KERN_EXTERN) call.  Holds tcc_lock, which
 * also serializes __builtin_cpu_init. */
static bool
bind_kernels(TCCState *s)
{
  int n;
  const CgKernCopy *copies = cg_kern_copies(&n);
  for (int i = 0; i < n; i++)
    if (cg_kern_chosen(copies[i].kernel) == copies[i].fn &&
        tcc_add_symbol(s, copies[i].kernel, (const void *)copies[i].fn) < 0)
      return false;
  return true;
}

/* Compiles every .c of out into s and relocates it; false after errors in
 * sink (tcc's, or ours when tcc said nothing).  Holds tcc_lock. */
static bool
compile_locked(TCCState *s, const CgOutput *out, TccSink *sink)
{
  IrLoc none = {0};
  bool ok = tcc_set_output_type(s, TCC_OUTPUT_MEMORY) == 0;
  int compiled = 0;
  for (int i = 0; ok && i < out->nfiles; i++) {
    if (!is_c_file(&out->files[i]))
      continue;
    IrBuf tu = {0};
    unsigned seen = 0;
    splice_file(out, i, &seen, &tu);
    ok = tcc_compile_string(s, tu.data ? tu.data : "") == 0;
    ir_buf_free(&tu);
    compiled++;
  }
  if (ok && compiled == 0) {
    ir_error(sink->ctx, none, "tcc: the generated output has no .c file to compile");
    return false;
  }
  ok = ok && bind_kernels(s) && tcc_relocate(s, TCC_RELOCATE_AUTO) >= 0;
  if (!ok && sink->errors == 0)
    ir_error(sink->ctx, none, "tcc: compiling the generated code failed");
  return ok;
}

CgCompiled *
cg_jit_tcc_at(IrCtx *ctx, const CgOutput *out, const char *lib_path)
{
  IrLoc none = {0};
  TccSink sink = {.ctx = ctx, .out = out};
  CgCompiled *c = NULL;
  assert(out->nfiles <= MAX_FILES);
  pthread_mutex_lock(&tcc_lock);
  TCCState *s = tcc_new();
  if (!s) {
    ir_error(ctx, none, "tcc: cannot create a compilation state");
  } else {
    if (lib_path)
      tcc_set_lib_path(s, lib_path);
    tcc_define_symbol(s, "RXC_KERN_EXTERN", "1");
    tcc_set_error_func(s, &sink, on_tcc_message);
    bool ok = compile_locked(s, out, &sink);
    tcc_set_error_func(s, NULL, ignore_tcc_message);
    c = ok ? ir_xcalloc(1, sizeof *c) : NULL;
    if (!c) {
      tcc_delete(s);
    } else {
      c->tcc = s;
    }
  }
  pthread_mutex_unlock(&tcc_lock);
  if (c && !cg_compiled_bind(ctx, c, out)) {
    cg_compiled_free(c);
    c = NULL;
  }
  return c;
}

CgCompiled *
cg_jit_tcc(IrCtx *ctx, const CgOutput *out)
{
  return cg_jit_tcc_at(ctx, out, NULL);
}

void *
cg_tcc_symbol(void *tcc, const char *name)
{
  pthread_mutex_lock(&tcc_lock);
  void *p = tcc_get_symbol(tcc, name);
  pthread_mutex_unlock(&tcc_lock);
  return p;
}

void
cg_tcc_free(void *tcc)
{
  if (!tcc)
    return;
  pthread_mutex_lock(&tcc_lock);
  tcc_delete(tcc);
  pthread_mutex_unlock(&tcc_lock);
}
