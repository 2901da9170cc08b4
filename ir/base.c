/*
 * base.c - the context's arena, interned symbols, vectors and buffers.
 *
 * The arena is a list of chunks; allocation bumps a pointer and nothing is
 * freed before the context is.  Symbols live in an open-addressing hash table
 * so that equal names are equal pointers.
 *
 * Chunks double from 64 KiB to 4 MiB as a context grows, so a small module
 * costs little and a large one (100,000 bindings: hundreds of MB through
 * the passes) few chunks.  From 2 MiB a chunk is its own mapping, aligned
 * to 2 MiB and advised for transparent huge pages where the system has
 * them: the kernel then zeroes it in 2 MiB faults instead of 4 KiB ones,
 * which were most of the time of a large compile on a virtual machine.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, madvise */
#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ir_int.h"

struct Chunk {
  Chunk *next;
  size_t used;   /* bytes used in data */
  size_t cap;    /* bytes in data */
  size_t mapped; /* bytes of its own mapping (munmap), or 0: calloc */
  _Alignas(16) char data[];
};

enum {
  CHUNK_BYTES = 64 * 1024,      /* the first chunk */
  CHUNK_MAX = 4 * 1024 * 1024,  /* chunks grow no larger (big blocks may) */
  HUGE_PAGE = 2 * 1024 * 1024,  /* chunks this large are mappings */
};

/* A zeroed chunk with cap bytes of data. */
static Chunk *
chunk_new(size_t cap)
{
  size_t bytes = sizeof(Chunk) + cap;
  Chunk *c = NULL;
  if (bytes >= HUGE_PAGE) {
    bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    char *p = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    if (p != MAP_FAILED) { /* keep the 2 MiB-aligned part of it */
      size_t head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
      if (head)
        munmap(p, head);
      if (HUGE_PAGE - head)
        munmap(p + head + bytes, HUGE_PAGE - head);
      c = (Chunk *)(p + head);
#ifdef MADV_HUGEPAGE
      madvise(c, bytes, MADV_HUGEPAGE);
#endif
      c->mapped = bytes;
    }
  }
  if (!c)
    c = ir_xcalloc(1, bytes); /* calloc's fresh pages need no memset */
  c->cap = cap;
  return c;
}

static void
chunk_free(Chunk *c)
{
  if (c->mapped)
    munmap(c, c->mapped);
  else
    free(c);
}

void
ir_unreachable(const char *file, int line)
{
  fprintf(stderr, "rxc: internal error: unreachable code reached at %s:%d\n", file, line);
  abort();
}

IrCtx *
ir_ctx_new(void)
{
  IrCtx *ctx = ir_xmalloc(sizeof *ctx);
  memset(ctx, 0, sizeof *ctx);
  return ctx;
}

void
ir_ctx_free(IrCtx *ctx)
{
  if (!ctx)
    return;
  for (Chunk *c = ctx->chunks, *next; c; c = next) {
    next = c->next;
    chunk_free(c);
  }
  free(ctx->sym_table);
  free(ctx->diags);
  free(ctx->sources);
  free(ctx);
}

void
ir_advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
  uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
  uintptr_t hi = ((uintptr_t)p + bytes) / HUGE_PAGE * HUGE_PAGE;
  if (hi > lo)
    madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}

IrArenaMark
ir_arena_mark(const IrCtx *ctx)
{
  const Chunk *c = ctx->chunks;
  IrArenaMark m = {c, c ? c->next : NULL, c ? c->used : 0, ctx->sym_count, ctx->ndiags,
                   ctx->nsources};
  return m;
}

/* Safe when the newest chunk is the one marked, no chunk went in behind
 * it, and nothing the context keeps (symbols, diagnostics, sources) was
 * allocated since: then what was allocated since is referenced only by
 * what the caller drops.  The bytes given back are zeroed again, as
 * ir_alloc promises. */
bool
ir_arena_rewind(IrCtx *ctx, IrArenaMark m)
{
  Chunk *c = ctx->chunks;
  if (!c || (const void *)c != m.chunk || (const void *)c->next != m.next ||
      ctx->sym_count != m.syms || ctx->ndiags != m.diags || ctx->nsources != m.sources ||
      c->used < m.used)
    return false;
  memset(c->data + m.used, 0, c->used - m.used);
  c->used = m.used;
  return true;
}

void
ir_arena_adopt(IrCtx *ctx, void *block, size_t bytes)
{
  if (bytes < sizeof(Chunk) + CHUNK_BYTES) {
    free(block);
    return;
  }
  Chunk *c = block;
  memset(c, 0, bytes);
  c->cap = bytes - sizeof *c;
  c->next = ctx->chunks;
  ctx->chunks = c;
}

size_t
ir_arena_bytes(const IrCtx *ctx)
{
  size_t n = 0;
  for (const Chunk *c = ctx->chunks; c; c = c->next)
    n += c->used;
  return n;
}

void *
ir_alloc(IrCtx *ctx, size_t size)
{
  size = (size + 15) & ~(size_t)15;
  Chunk *c = ctx->chunks;
  if (!c || c->cap - c->used < size) {
    /* the next chunk's whole size, header included, so that a mapping is
     * exactly its huge pages: a header past them would cost one more */
    size_t last = c ? sizeof *c + c->cap : CHUNK_BYTES / 2;
    size_t grow = 2 * last < CHUNK_MAX ? 2 * last : CHUNK_MAX;
    c = chunk_new(size > grow - sizeof *c ? size : grow - sizeof *c);
    if (size > grow / 4 && ctx->chunks) {
      /* a big block gets its own chunk behind the current one, so the
       * current chunk's free space is not wasted */
      c->next = ctx->chunks->next;
      ctx->chunks->next = c;
    } else {
      c->next = ctx->chunks;
      ctx->chunks = c;
    }
  }
  void *p = c->data + c->used;
  c->used += size; /* nothing is freed or reused, so p is still zero */
  return p;
}

char *
ir_strdup(IrCtx *ctx, const char *s, size_t len)
{
  char *p = ir_alloc(ctx, len + 1);
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *
ir_printf(IrCtx *ctx, const char *fmt, ...)
{
  IrBuf b = {0};
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  char *s = ir_strdup(ctx, b.data ? b.data : "", b.len);
  ir_buf_free(&b);
  return s;
}

static uint64_t
hash_bytes(const char *s, size_t len)
{
  uint64_t h = 1469598103934665603u; /* FNV-1a */
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211u;
  }
  return h;
}

static void
sym_grow(IrCtx *ctx)
{
  size_t cap = ctx->sym_cap ? ctx->sym_cap * 2 : 256;
  char **table = ir_xmalloc(cap * sizeof *table);
  memset(table, 0, cap * sizeof *table);
  for (size_t i = 0; i < ctx->sym_cap; i++) {
    char *s = ctx->sym_table[i];
    if (!s)
      continue;
    size_t j = hash_bytes(s, strlen(s)) & (cap - 1);
    while (table[j])
      j = (j + 1) & (cap - 1);
    table[j] = s;
  }
  free(ctx->sym_table);
  ctx->sym_table = table;
  ctx->sym_cap = cap;
}

IrSym
ir_sym_n(IrCtx *ctx, const char *s, size_t len)
{
  if ((ctx->sym_count + 1) * 2 > ctx->sym_cap)
    sym_grow(ctx);
  size_t j = hash_bytes(s, len) & (ctx->sym_cap - 1);
  for (char *t; (t = ctx->sym_table[j]); j = (j + 1) & (ctx->sym_cap - 1))
    if (strncmp(t, s, len) == 0 && t[len] == '\0')
      return t;
  char *t = ir_strdup(ctx, s, len);
  ctx->sym_table[j] = t;
  ctx->sym_count++;
  return t;
}

IrSym
ir_sym(IrCtx *ctx, const char *s)
{
  return ir_sym_n(ctx, s, strlen(s));
}

void
ir_vec_push(IrVec *v, void *item)
{
  if (v->len == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 8;
    v->items = ir_xrealloc(v->items, (size_t)v->cap * sizeof *v->items);
  }
  v->items[v->len++] = item;
}

void **
ir_vec_freeze(IrCtx *ctx, IrVec *v)
{
  void **out = NULL;
  if (v->len > 0) {
    out = ir_alloc(ctx, (size_t)v->len * sizeof *out);
    memcpy(out, v->items, (size_t)v->len * sizeof *out);
  }
  ir_vec_free(v);
  return out;
}

void
ir_vec_free(IrVec *v)
{
  free(v->items);
  v->items = NULL;
  v->len = v->cap = 0;
}

void
ir_buf_put(IrBuf *b, const void *data, size_t len)
{
  if (b->len + len + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + len + 1)
      cap *= 2;
    b->data = ir_xrealloc(b->data, cap);
    b->cap = cap;
  }
  if (len) /* data may be NULL then (an empty array), and memcpy's may not */
    memcpy(b->data + b->len, data, len);
  b->len += len;
  b->data[b->len] = '\0';
}

void
ir_buf_adopt(IrBuf *b, char *data, size_t len, size_t cap)
{
  assert(data && cap > len);
  free(b->data);
  b->data = data;
  b->len = len;
  b->cap = cap;
  b->data[len] = '\0';
}

void
ir_buf_puts(IrBuf *b, const char *s)
{
  ir_buf_put(b, s, strlen(s));
}

void
ir_buf_vprintf(IrBuf *b, const char *fmt, va_list ap)
{
  char small[256];
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(small, sizeof small, fmt, copy);
  va_end(copy);
  if (n < 0)
    return;
  if ((size_t)n < sizeof small) {
    ir_buf_put(b, small, (size_t)n);
    return;
  }
  char *big = ir_xmalloc((size_t)n + 1);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  ir_buf_put(b, big, (size_t)n);
  free(big);
}

void
ir_buf_printf(IrBuf *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

void
ir_buf_free(IrBuf *b)
{
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}
