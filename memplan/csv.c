/*
 * csv.c - planning problems as MiniMalloc's CSV: a header line naming the
 * columns, then one buffer a line.
 *
 *   id,lower,upper,size[,alignment][,offset]
 *   0,0,3,1024
 *
 * lower and upper are the buffer's live steps, half-open [lower, upper)
 * as MiniMalloc reads them; size is in bytes; alignment (optional, 1 when
 * absent) a power of two.  An offset column, when present, is read and
 * ignored: a solution can be read back as a problem.  The writer emits the
 * same columns, alignment only when some buffer needs more than 1, and
 * offset with a plan.  Every error names file:line:col.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mp.h"

enum { COL_ID, COL_LOWER, COL_UPPER, COL_SIZE, COL_ALIGN, COL_OFFSET, NCOLS };

static const char *const col_names[NCOLS] = {"id", "lower", "upper", "size", "alignment", "offset"};

typedef struct {
  IrCtx *ctx;
  const IrSource *src;
  const char *p;  /* the cursor */
  const char *line_start;
  int line;
} CsvReader;

static IrLoc
here(const CsvReader *r)
{
  return (IrLoc){r->src, r->line, (int)(r->p - r->line_start) + 1};
}

/* The field at the cursor, up to a comma or the end of the line: its
 * bounds in *b, *e (blanks trimmed); the cursor stays on the separator. */
static void
field(CsvReader *r, const char **b, const char **e)
{
  while (*r->p == ' ' || *r->p == '\t')
    r->p++;
  *b = r->p;
  while (*r->p && *r->p != ',' && *r->p != '\n' && *r->p != '\r')
    r->p++;
  *e = r->p;
  while (*e > *b && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
    (*e)--;
}

static void
next_line(CsvReader *r)
{
  while (*r->p && *r->p != '\n')
    r->p++;
  if (*r->p == '\n')
    r->p++;
  r->line_start = r->p;
  r->line++;
}

/* The header: which column each field is; false after an error. */
static bool
read_header(CsvReader *r, int *cols, int *ncols)
{
  bool seen[NCOLS] = {false};
  *ncols = 0;
  for (;;) {
    const char *b, *e;
    IrLoc at = here(r);
    field(r, &b, &e);
    int c = 0;
    while (c < NCOLS && !((size_t)(e - b) == strlen(col_names[c]) &&
                          strncmp(b, col_names[c], (size_t)(e - b)) == 0))
      c++;
    if (c == NCOLS || seen[c] || *ncols == NCOLS) {
      ir_error(r->ctx, at, "%s column '%.*s' in the header (expected id,lower,upper,size and "
               "optionally alignment and offset)", c < NCOLS ? "repeated" : "unknown",
               (int)(e - b), b);
      return false;
    }
    seen[c] = true;
    cols[(*ncols)++] = c;
    if (*r->p != ',')
      break;
    r->p++;
  }
  for (int c = COL_ID; c <= COL_SIZE; c++)
    if (!seen[c]) {
      ir_error(r->ctx, (IrLoc){r->src, r->line, 1}, "the header has no '%s' column",
               col_names[c]);
      return false;
    }
  next_line(r);
  return true;
}

/* One integer field into *v; false after an error. */
static bool
read_int(CsvReader *r, int col, int64_t *v)
{
  const char *b, *e;
  IrLoc at = here(r);
  field(r, &b, &e);
  char *end;
  errno = 0;
  long long x = b < e ? strtoll(b, &end, 10) : 0;
  if (b == e || end != e || errno == ERANGE) {
    ir_error(r->ctx, at, "'%s' must be an integer, not '%.*s'", col_names[col], (int)(e - b), b);
    return false;
  }
  *v = x;
  return true;
}

/* Checks one buffer's values; false after an error at the line. */
static bool
check_buffer(CsvReader *r, const int64_t *v)
{
  IrLoc at = {r->src, r->line, 1};
  if (v[COL_ID] < INT32_MIN || v[COL_ID] > INT32_MAX)
    ir_error(r->ctx, at, "id %lld does not fit an int", (long long)v[COL_ID]);
  else if (v[COL_LOWER] < 0 || v[COL_UPPER] < v[COL_LOWER])
    ir_error(r->ctx, at, "lower %lld and upper %lld are not a live interval (0 <= lower <= upper)",
             (long long)v[COL_LOWER], (long long)v[COL_UPPER]);
  else if (v[COL_SIZE] <= 0)
    ir_error(r->ctx, at, "size must be at least 1 byte, not %lld", (long long)v[COL_SIZE]);
  else if (v[COL_ALIGN] <= 0 || (v[COL_ALIGN] & (v[COL_ALIGN] - 1)) != 0)
    ir_error(r->ctx, at, "alignment must be a power of two, not %lld", (long long)v[COL_ALIGN]);
  else
    return true;
  return false;
}

/* One data line into *b; false after an error. */
static bool
read_buffer(CsvReader *r, const int *cols, int ncols, MpBuffer *b)
{
  int64_t v[NCOLS] = {[COL_ALIGN] = 1};
  for (int i = 0; i < ncols; i++) {
    if (i > 0) {
      if (*r->p != ',') {
        ir_error(r->ctx, here(r), "expected %d fields, found %d", ncols, i);
        return false;
      }
      r->p++;
    }
    if (!read_int(r, cols[i], &v[cols[i]]))
      return false;
  }
  if (*r->p == ',') {
    ir_error(r->ctx, here(r), "more fields than the header's %d", ncols);
    return false;
  }
  if (!check_buffer(r, v))
    return false;
  *b = (MpBuffer){.id = (int)v[COL_ID], .start = v[COL_LOWER], .end = v[COL_UPPER],
                  .size = v[COL_SIZE], .align = v[COL_ALIGN]};
  return true;
}

static bool
blank_line(const char *p)
{
  while (*p == ' ' || *p == '\t' || *p == '\r')
    p++;
  return *p == '\n' || *p == '\0';
}

MpBuffer *
mp_csv_read(IrCtx *ctx, const char *path, int *n)
{
  *n = 0;
  const IrSource *src = ir_source_read(ctx, path);
  if (!src)
    return NULL;
  CsvReader r = {ctx, src, src->text, src->text, 1};
  int cols[NCOLS], ncols;
  if (blank_line(r.p)) {
    ir_error(ctx, here(&r), "expected a header line (id,lower,upper,size)");
    return NULL;
  }
  if (!read_header(&r, cols, &ncols))
    return NULL;
  int cap = 64;
  MpBuffer *bufs = ir_xmalloc((size_t)cap * sizeof *bufs);
  for (; *r.p; next_line(&r)) {
    if (blank_line(r.p))
      continue;
    if (*n == cap) {
      cap *= 2;
      bufs = ir_xrealloc(bufs, (size_t)cap * sizeof *bufs);
    }
    if (!read_buffer(&r, cols, ncols, &bufs[*n]))
      break;
    (*n)++;
  }
  if (ir_error_count(ctx) > 0 || *r.p) {
    free(bufs);
    *n = 0;
    return NULL;
  }
  return bufs;
}

void
mp_csv_write(const MpBuffer *bufs, int n, bool offsets, IrBuf *out)
{
  bool align = false;
  for (int i = 0; i < n; i++)
    align |= bufs[i].align > 1;
  ir_buf_printf(out, "id,lower,upper,size%s%s\n", align ? ",alignment" : "",
                offsets ? ",offset" : "");
  for (int i = 0; i < n; i++) {
    const MpBuffer *b = &bufs[i];
    ir_buf_printf(out, "%d,%lld,%lld,%lld", b->id, (long long)b->start, (long long)b->end,
                  (long long)b->size);
    if (align)
      ir_buf_printf(out, ",%lld", (long long)b->align);
    if (offsets)
      ir_buf_printf(out, ",%lld", (long long)b->offset);
    ir_buf_printf(out, "\n");
  }
}
