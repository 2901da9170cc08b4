/*
 * npy.c - numpy's .npy and .npz files, read into and written from
 * IrTensorData.
 *
 * A .npy file is a magic string, a version, a header length, a Python dict
 * literal ({'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), })
 * padded with spaces to a multiple of 64 bytes, then the raw elements.  A
 * .npz file is a zip archive of .npy files (np.savez stores them
 * uncompressed).  Key idea: every read goes through a bounded cursor over
 * bytes already in memory, and every length the file states is checked
 * against the bytes actually there before it is used, so a malformed file
 * is an error naming the file and the problem, never an over-read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"

/* ---- element types ---------------------------------------------------- */

static const struct {
  const char *descr; /* without the byte-order character */
  const char *dtype;
} npy_types[] = {
    {"f4", "float32"}, {"f8", "float64"}, {"f2", "float16"}, {"i1", "int8"},
    {"i2", "int16"},   {"i4", "int32"},   {"i8", "int64"},   {"u1", "uint8"},
    {"u2", "uint16"},  {"u4", "uint32"},  {"u8", "uint64"},  {"b1", "bool"},
};

/* The dtype of a descr like "<f4"; false when unsupported (msg says why). */
static bool
descr_dtype(const char *descr, IrDType *out, const char **msg)
{
  size_t len = strlen(descr);
  if (len != 3) {
    *msg = "unsupported dtype";
    return false;
  }
  char order = descr[0];
  bool one_byte = descr[2] == '1';
  if (order == '>' && !one_byte) {
    *msg = "big-endian data is not supported";
    return false;
  }
  if (order != '<' && order != '|' && !(order == '>' && one_byte)) {
    *msg = "unsupported byte order";
    return false;
  }
  for (size_t i = 0; i < sizeof npy_types / sizeof npy_types[0]; i++)
    if (strcmp(descr + 1, npy_types[i].descr) == 0)
      return ir_dtype_parse(npy_types[i].dtype, strlen(npy_types[i].dtype), out);
  *msg = "unsupported dtype";
  return false;
}

/* The descr of a dtype, or NULL when .npy cannot hold it. */
static const char *
dtype_descr(IrDType t, char *buf)
{
  char name[16];
  ir_dtype_str(t, name);
  for (size_t i = 0; i < sizeof npy_types / sizeof npy_types[0]; i++)
    if (strcmp(name, npy_types[i].dtype) == 0) {
      buf[0] = npy_types[i].descr[1] == '1' ? '|' : '<';
      strcpy(buf + 1, npy_types[i].descr);
      return buf;
    }
  return NULL;
}

/* ---- the header dict --------------------------------------------------- */

typedef struct {
  const char *p, *end;
} Cursor;

static void
skip_space(Cursor *c)
{
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n'))
    c->p++;
}

static bool
accept(Cursor *c, char ch)
{
  skip_space(c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return true;
  }
  return false;
}

/* A quoted string into buf (at most cap-1 bytes). */
static bool
read_string(Cursor *c, char *buf, size_t cap)
{
  skip_space(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
    return false;
  char quote = *c->p++;
  size_t n = 0;
  while (c->p < c->end && *c->p != quote) {
    if (n + 1 >= cap)
      return false;
    buf[n++] = *c->p++;
  }
  buf[n] = '\0';
  return accept(c, quote);
}

static bool
read_word(Cursor *c, const char *word)
{
  skip_space(c);
  size_t n = strlen(word);
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
    return false;
  c->p += n;
  return true;
}

/* (d0, d1, ...) with a trailing comma allowed; dims are non-negative. */
static bool
read_shape(Cursor *c, int64_t *dims, int *ndim, int max)
{
  *ndim = 0;
  if (!accept(c, '('))
    return false;
  while (!accept(c, ')')) {
    skip_space(c);
    int64_t v = 0;
    if (c->p >= c->end || *c->p < '0' || *c->p > '9' || *ndim == max)
      return false;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
      if (v > (INT64_MAX - 9) / 10)
        return false;
      v = v * 10 + (*c->p++ - '0');
    }
    if (c->p < c->end && *c->p == 'L')
      c->p++;
    dims[(*ndim)++] = v;
    if (!accept(c, ',') && !(skip_space(c), c->p < c->end && *c->p == ')'))
      return false;
  }
  return true;
}

#define NPY_MAX_DIMS 32

typedef struct {
  char descr[16];
  bool fortran;
  int64_t shape[NPY_MAX_DIMS];
  int ndim;
  int seen; /* bits: 1 descr, 2 fortran_order, 4 shape */
} Header;

/* Parses the dict literal; *msg says what is wrong on failure. */
static bool
parse_header(Cursor *c, Header *h, const char **msg)
{
  *msg = "malformed header";
  memset(h, 0, sizeof *h);
  if (!accept(c, '{'))
    return false;
  while (!accept(c, '}')) {
    char key[32];
    if (!read_string(c, key, sizeof key) || !accept(c, ':'))
      return false;
    if (strcmp(key, "descr") == 0) {
      if (!read_string(c, h->descr, sizeof h->descr)) {
        *msg = "unsupported dtype (not a simple type string)";
        return false;
      }
      h->seen |= 1;
    } else if (strcmp(key, "fortran_order") == 0) {
      if (read_word(c, "True"))
        h->fortran = true;
      else if (!read_word(c, "False"))
        return false;
      h->seen |= 2;
    } else if (strcmp(key, "shape") == 0) {
      if (!read_shape(c, h->shape, &h->ndim, NPY_MAX_DIMS)) {
        *msg = "malformed shape in header";
        return false;
      }
      h->seen |= 4;
    } else {
      return false;
    }
    if (!accept(c, ',')) {
      if (!accept(c, '}'))
        return false;
      break;
    }
  }
  if (h->seen != 7) {
    *msg = "header lacks descr, fortran_order or shape";
    return false;
  }
  return true;
}

/* ---- .npy -------------------------------------------------------------- */

static IrLoc
file_loc(IrCtx *ctx, const char *name)
{
  IrLoc loc = {ir_source_add(ctx, name, "", 0), 0, 0};
  return loc;
}

static uint32_t
le32(const unsigned char *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t
le16(const unsigned char *p)
{
  return (uint16_t)(p[0] | p[1] << 8);
}

/* Checks the header against the data that follows and fills out. */
static bool
npy_tensor(IrCtx *ctx, IrLoc loc, const Header *h, const unsigned char *data, size_t len,
           IrTensorData *out)
{
  const char *msg;
  if (h->fortran) {
    ir_error(ctx, loc, "fortran_order arrays are not supported (save a C-ordered array)");
    return false;
  }
  if (!descr_dtype(h->descr, &out->dtype, &msg)) {
    ir_error(ctx, loc, "%s: '%s'", msg, h->descr);
    return false;
  }
  size_t bytes = (size_t)ir_dtype_bytes(out->dtype);
  uint64_t count = 1;
  for (int i = 0; i < h->ndim; i++) {
    if (h->shape[i] != 0 && count > (uint64_t)(SIZE_MAX / 2) / bytes / (uint64_t)h->shape[i]) {
      ir_error(ctx, loc, "shape in header is too large");
      return false;
    }
    count *= (uint64_t)h->shape[i];
  }
  if (count * bytes != len) {
    ir_error(ctx, loc, "header says %llu bytes of data, file has %zu",
             (unsigned long long)(count * bytes), len);
    return false;
  }
  out->ndim = h->ndim;
  out->shape = ir_alloc(ctx, sizeof(int64_t) * (size_t)(h->ndim ? h->ndim : 1));
  memcpy(out->shape, h->shape, sizeof(int64_t) * (size_t)h->ndim);
  out->nbytes = len;
  out->data = ir_alloc(ctx, len ? len : 1);
  memcpy(out->data, data, len);
  return true;
}

bool
fe_npy_parse(IrCtx *ctx, const char *name, const unsigned char *data, size_t len, IrTensorData *out)
{
  IrLoc loc = file_loc(ctx, name);
  if (len < 10 || memcmp(data, "\x93NUMPY", 6) != 0) {
    ir_error(ctx, loc, "not a .npy file (bad magic)");
    return false;
  }
  int major = data[6];
  size_t start = major == 1 ? 10 : 12;
  if (major < 1 || major > 3) {
    ir_error(ctx, loc, "unsupported .npy format version %d.%d", major, data[7]);
    return false;
  }
  if (len < start) {
    ir_error(ctx, loc, "truncated .npy header");
    return false;
  }
  size_t hlen = major == 1 ? le16(data + 8) : le32(data + 8);
  if (hlen > len - start) {
    ir_error(ctx, loc, "truncated .npy header (%zu bytes stated, %zu present)", hlen, len - start);
    return false;
  }
  Cursor c = {(const char *)data + start, (const char *)data + start + hlen};
  Header h;
  const char *msg;
  if (!parse_header(&c, &h, &msg)) {
    ir_error(ctx, loc, "%s", msg);
    return false;
  }
  return npy_tensor(ctx, loc, &h, data + start + hlen, len - start - hlen, out);
}

/* Reads a whole file into a malloc'd buffer; NULL after an error. */
static unsigned char *
slurp(IrCtx *ctx, const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    ir_error(ctx, file_loc(ctx, path), "cannot open file: %s", strerror(errno));
    return NULL;
  }
  IrBuf b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    ir_buf_put(&b, chunk, n);
  bool bad = ferror(f);
  int why = errno;
  fclose(f);
  if (bad) {
    ir_buf_free(&b);
    ir_error(ctx, file_loc(ctx, path), "cannot read file: %s", strerror(why));
    return NULL;
  }
  *len = b.len;
  if (!b.data)
    b.data = ir_xcalloc(1, 1);
  return (unsigned char *)b.data;
}

bool
fe_npy_read(IrCtx *ctx, const char *path, IrTensorData *out)
{
  size_t len;
  unsigned char *data = slurp(ctx, path, &len);
  if (!data)
    return false;
  bool ok = fe_npy_parse(ctx, path, data, len, out);
  free(data);
  return ok;
}

bool
fe_npy_encode(const IrTensorData *t, IrBuf *out)
{
  char descr[8];
  if (!dtype_descr(t->dtype, descr))
    return false;
  IrBuf h = {0};
  ir_buf_printf(&h, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int i = 0; i < t->ndim; i++) /* Python's repr of a tuple */
    ir_buf_printf(&h, i ? ", %lld" : "%lld", (long long)t->shape[i]);
  ir_buf_puts(&h, t->ndim == 1 ? ",), }" : "), }");
  while ((10 + h.len + 1) % 64 != 0)
    ir_buf_puts(&h, " ");
  ir_buf_puts(&h, "\n");
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
  pre[8] = (unsigned char)(h.len & 0xff);
  pre[9] = (unsigned char)(h.len >> 8);
  ir_buf_put(out, pre, sizeof pre);
  ir_buf_put(out, h.data, h.len);
  ir_buf_put(out, t->data, t->nbytes);
  ir_buf_free(&h);
  return true;
}

/* ---- .npz -------------------------------------------------------------- */

uint32_t
fe_crc32(const unsigned char *p, size_t n)
{
  uint32_t crc = 0xffffffffu;
  for (size_t i = 0; i < n; i++) {
    crc ^= p[i];
    for (int k = 0; k < 8; k++)
      crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
  }
  return ~crc;
}

static uint64_t
le64(const unsigned char *p)
{
  return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* One central-directory entry, with its zip64 sizes resolved. */
typedef struct {
  int method;
  uint32_t crc;
  uint64_t csize, usize, offset;
  const unsigned char *name;
  size_t name_len;
} ZipEntry;

/* Reads the entry at d (bounded by end); returns its length or 0. */
static size_t
zip_entry(const unsigned char *d, const unsigned char *end, ZipEntry *e)
{
  if (end - d < 46 || le32(d) != 0x02014b50)
    return 0;
  size_t nl = le16(d + 28), xl = le16(d + 30), cl = le16(d + 32);
  if ((size_t)(end - d) < 46 + nl + xl + cl)
    return 0;
  e->method = le16(d + 10);
  e->crc = le32(d + 16);
  e->csize = le32(d + 20);
  e->usize = le32(d + 24);
  e->offset = le32(d + 42);
  e->name = d + 46;
  e->name_len = nl;
  const unsigned char *x = d + 46 + nl, *xend = x + xl;
  while (xend - x >= 4) { /* zip64 extra field: only the saturated values */
    size_t id = le16(x), sz = le16(x + 2);
    const unsigned char *v = x + 4;
    if ((size_t)(xend - v) < sz)
      break;
    if (id == 1) {
      uint64_t *f[3] = {&e->usize, &e->csize, &e->offset};
      for (int i = 0; i < 3; i++)
        if (*f[i] == 0xffffffffu && v + 8 <= x + 4 + sz) {
          *f[i] = le64(v);
          v += 8;
        }
    }
    x += 4 + sz;
  }
  return 46 + nl + xl + cl;
}

/* Finds the end-of-central-directory record; false when absent. */
static bool
zip_directory(const unsigned char *data, size_t len, size_t *dir, size_t *count)
{
  if (len < 22)
    return false;
  size_t i = len - 22, stop = len > 22 + 65535 ? len - 22 - 65535 : 0;
  for (;; i--) {
    if (le32(data + i) == 0x06054b50) {
      *count = le16(data + i + 10);
      *dir = le32(data + i + 16);
      return *dir <= i;
    }
    if (i == stop)
      return false;
  }
}

/* The data of entry e, checked; NULL after an error. */
static const unsigned char *
zip_data(IrCtx *ctx, IrLoc loc, const unsigned char *data, size_t len, const ZipEntry *e,
         const char *name)
{
  if (e->method != 0) {
    ir_error(ctx, loc,
             "entry '%s' is compressed (method %d); only uncompressed archives "
             "(np.savez, not np.savez_compressed) are supported",
             name, e->method);
    return NULL;
  }
  if (e->offset > len || len - e->offset < 30 || le32(data + e->offset) != 0x04034b50) {
    ir_error(ctx, loc, "entry '%s': bad local header", name);
    return NULL;
  }
  uint64_t start = e->offset + 30 + le16(data + e->offset + 26) + le16(data + e->offset + 28);
  if (e->csize != e->usize || start > len || len - start < e->usize) {
    ir_error(ctx, loc, "entry '%s' is truncated", name);
    return NULL;
  }
  if (fe_crc32(data + start, (size_t)e->usize) != e->crc) {
    ir_error(ctx, loc, "entry '%s': CRC mismatch (corrupt archive)", name);
    return NULL;
  }
  return data + start;
}

int
fe_npz_parse(IrCtx *ctx, const char *path, const unsigned char *data, size_t len, FeNpzEntry **out)
{
  IrLoc loc = file_loc(ctx, path);
  size_t dir, count;
  if (!zip_directory(data, len, &dir, &count)) {
    ir_error(ctx, loc, "not a .npz file (no zip directory)");
    return -1;
  }
  FeNpzEntry *entries = ir_alloc(ctx, sizeof *entries * (count ? count : 1));
  const unsigned char *p = data + dir, *end = data + len;
  for (size_t i = 0; i < count; i++) {
    ZipEntry e;
    size_t n = zip_entry(p, end, &e);
    if (!n) {
      ir_error(ctx, loc, "malformed zip directory (entry %zu)", i);
      return -1;
    }
    p += n;
    size_t nl = e.name_len;
    if (nl > 4 && memcmp(e.name + nl - 4, ".npy", 4) == 0)
      nl -= 4;
    IrSym name = ir_sym_n(ctx, (const char *)e.name, nl);
    const unsigned char *bytes = zip_data(ctx, loc, data, len, &e, name);
    if (!bytes)
      return -1;
    char *what = ir_printf(ctx, "%s[%s]", path, name);
    entries[i].name = name;
    if (!fe_npy_parse(ctx, what, bytes, (size_t)e.usize, &entries[i].t))
      return -1;
  }
  *out = entries;
  return (int)count;
}

int
fe_npz_read(IrCtx *ctx, const char *path, FeNpzEntry **out)
{
  size_t len;
  unsigned char *data = slurp(ctx, path, &len);
  if (!data)
    return -1;
  int n = fe_npz_parse(ctx, path, data, len, out);
  free(data);
  return n;
}

static void
put16(IrBuf *b, unsigned v)
{
  unsigned char p[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
  ir_buf_put(b, p, 2);
}

static void
put32(IrBuf *b, uint32_t v)
{
  put16(b, v & 0xffff);
  put16(b, v >> 16);
}

/* A zip header (local or central) for a stored entry. */
static void
zip_header(IrBuf *b, bool central, const char *name, uint32_t crc, size_t size, size_t offset)
{
  put32(b, central ? 0x02014b50 : 0x04034b50);
  if (central)
    put16(b, 20); /* made by */
  put16(b, 20);   /* needed to extract */
  put16(b, 0);    /* flags */
  put16(b, 0);    /* method: stored */
  put16(b, 0);    /* time */
  put16(b, 0x21); /* date: 1980-01-01 */
  put32(b, crc);
  put32(b, (uint32_t)size);
  put32(b, (uint32_t)size);
  put16(b, (unsigned)strlen(name) + 4);
  put16(b, 0); /* extra */
  if (central) {
    put16(b, 0); /* comment */
    put16(b, 0); /* disk */
    put16(b, 0); /* internal attributes */
    put32(b, 0); /* external attributes */
    put32(b, (uint32_t)offset);
  }
  ir_buf_puts(b, name);
  ir_buf_puts(b, ".npy");
}

bool
fe_npz_encode(const FeNpzEntry *entries, int n, IrBuf *out)
{
  IrBuf dir = {0};
  for (int i = 0; i < n; i++) {
    IrBuf npy = {0};
    if (!fe_npy_encode(&entries[i].t, &npy) || npy.len > 0xffffffffu || out->len > 0xffffffffu) {
      ir_buf_free(&npy);
      ir_buf_free(&dir);
      return false;
    }
    uint32_t crc = fe_crc32((const unsigned char *)npy.data, npy.len);
    zip_header(&dir, true, entries[i].name, crc, npy.len, out->len);
    zip_header(out, false, entries[i].name, crc, npy.len, 0);
    ir_buf_put(out, npy.data, npy.len);
    ir_buf_free(&npy);
  }
  size_t dir_offset = out->len;
  ir_buf_put(out, dir.data, dir.len);
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, (unsigned)n);
  put16(out, (unsigned)n);
  put32(out, (uint32_t)dir.len);
  put32(out, (uint32_t)dir_offset);
  put16(out, 0);
  ir_buf_free(&dir);
  return true;
}
