/*
 * diag.c - source files and the diagnostics sink of a context.
 *
 * Library code records errors here and returns; the driver prints them in
 * the form "file:line:col: error: message", the source line, and a caret.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ir_int.h"

/* Registers text, already the ctx's (arena) and NUL-terminated at len. */
static const IrSource *
source_adopt(IrCtx *ctx, const char *name, const char *text, size_t len)
{
  IrSource *src = ir_alloc(ctx, sizeof *src);
  src->name = ir_strdup(ctx, name, strlen(name));
  src->text = text;
  src->len = len;
  if (ctx->nsources == ctx->source_cap) {
    ctx->source_cap = ctx->source_cap ? ctx->source_cap * 2 : 4;
    IrSource **p = ir_xrealloc(ctx->sources, (size_t)ctx->source_cap * sizeof *p);
    ctx->sources = p;
  }
  ctx->sources[ctx->nsources++] = src;
  return src;
}

const IrSource *
ir_source_add(IrCtx *ctx, const char *name, const char *text, size_t len)
{
  return source_adopt(ctx, name, ir_strdup(ctx, text, len), len);
}

/* The rest of f after the first n bytes (already in head), chunk by
 * chunk: for a pipe, or a file that grew while read.  NULL after a read
 * error (errno says why); else arena text, NUL-terminated, its length in
 * *len. */
static char *
read_rest(IrCtx *ctx, FILE *f, const char *head, size_t n, size_t *len)
{
  IrBuf b = {0};
  ir_buf_put(&b, head, n);
  char chunk[65536];
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    ir_buf_put(&b, chunk, n);
  char *text = ferror(f) ? NULL : ir_strdup(ctx, b.data ? b.data : "", b.len);
  *len = b.len;
  ir_buf_free(&b);
  return text;
}

/* A regular file is read once into arena memory of its size, which
 * becomes the source text: a model's weights (tens of MB) are copied by
 * the kernel and by nothing else, and the arena gives a block that large
 * its own mapping with huge pages (see base.c), so few page faults. */
const IrSource *
ir_source_read(IrCtx *ctx, const char *path)
{
  IrLoc none = {0};
  FILE *f = fopen(path, "rb");
  if (!f) {
    ir_error(ctx, none, "cannot open '%s': %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  size_t size = 0, n = 0;
  char *text = NULL;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
      (uintmax_t)st.st_size < SIZE_MAX) {
    size = (size_t)st.st_size;
    text = ir_alloc(ctx, size + 1); /* zeroed: text[n] ends it */
    n = fread(text, 1, size, f);
  }
  int c = text && n == size && !ferror(f) ? getc(f) : EOF;
  if (c != EOF) { /* it grew: the rest as for a pipe */
    text[n++] = (char)c;
    text = read_rest(ctx, f, text, n, &n);
  } else if (!text) {
    text = read_rest(ctx, f, "", 0, &n);
  } else if (ferror(f)) {
    text = NULL;
  }
  int why = errno;
  fclose(f);
  if (!text) {
    ir_error(ctx, none, "cannot read '%s': %s", path, strerror(why));
    return NULL;
  }
  return source_adopt(ctx, path, text, n);
}

void
ir_diag_v(IrCtx *ctx, IrDiagLevel level, IrLoc loc, const char *fmt, va_list ap)
{
  IrBuf b = {0};
  ir_buf_vprintf(&b, fmt, ap);
  if (ctx->ndiags == ctx->diag_cap) {
    ctx->diag_cap = ctx->diag_cap ? ctx->diag_cap * 2 : 16;
    IrDiag *p = ir_xrealloc(ctx->diags, (size_t)ctx->diag_cap * sizeof *p);
    ctx->diags = p;
  }
  IrDiag *d = &ctx->diags[ctx->ndiags++];
  d->level = level;
  d->loc = loc;
  d->msg = ir_strdup(ctx, b.data ? b.data : "", b.len);
  ir_buf_free(&b);
  if (level == IR_DIAG_ERROR)
    ctx->nerrors++;
}

void
ir_error(IrCtx *ctx, IrLoc loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ir_diag_v(ctx, IR_DIAG_ERROR, loc, fmt, ap);
  va_end(ap);
}

void
ir_warning(IrCtx *ctx, IrLoc loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ir_diag_v(ctx, IR_DIAG_WARNING, loc, fmt, ap);
  va_end(ap);
}

void
ir_note(IrCtx *ctx, IrLoc loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ir_diag_v(ctx, IR_DIAG_NOTE, loc, fmt, ap);
  va_end(ap);
}

int
ir_error_count(const IrCtx *ctx)
{
  return ctx->nerrors;
}

int
ir_diag_count(const IrCtx *ctx)
{
  return ctx->ndiags;
}

const IrDiag *
ir_diag_get(const IrCtx *ctx, int i)
{
  return i >= 0 && i < ctx->ndiags ? &ctx->diags[i] : NULL;
}

void
ir_diag_clear(IrCtx *ctx)
{
  ctx->ndiags = 0;
  ctx->nerrors = 0;
}

/* Prints line `line` of src and a caret under column `col`; tabs in the
 * prefix are kept so the caret lines up. */
static void
print_source_line(const IrSource *src, int line, int col, FILE *out)
{
  const char *p = src->text, *end = src->text + src->len;
  for (int l = 1; l < line && p < end; p++)
    if (*p == '\n')
      l++;
  const char *eol = p;
  while (eol < end && *eol != '\n' && *eol != '\r')
    eol++;
  fprintf(out, "  %.*s\n  ", (int)(eol - p), p);
  for (int i = 1; i < col && p + i - 1 < eol; i++)
    fputc(p[i - 1] == '\t' ? '\t' : ' ', out);
  fputs("^\n", out);
}

void
ir_diag_print(const IrCtx *ctx, FILE *out)
{
  static const char *level_names[] = {"error", "warning", "note"};
  for (int i = 0; i < ctx->ndiags; i++) {
    const IrDiag *d = &ctx->diags[i];
    if (d->loc.src && d->loc.line > 0)
      fprintf(out, "%s:%d:%d: ", d->loc.src->name, d->loc.line, d->loc.col);
    else if (d->loc.src)
      fprintf(out, "%s: ", d->loc.src->name);
    else
      fputs("rxc: ", out);
    fprintf(out, "%s: %s\n", level_names[d->level], d->msg);
    if (d->loc.src && d->loc.line > 0)
      print_source_line(d->loc.src, d->loc.line, d->loc.col, out);
  }
}
