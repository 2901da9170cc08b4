/*
 * map.c - IrMap, the one pointer-keyed hash map, and the checked heap
 * allocation every module uses.
 *
 * Identity in the IR is by pointer (vars, buffers, interned symbols), so
 * most tables the compiler keeps are keyed by a node's address.  IrMap is
 * open addressing with linear probing over a power-of-two table kept at
 * most half full; the pointer is mixed (a multiply and the high bits
 * folded down) because nodes come from a bump arena at 16-byte steps,
 * whose low bits are all alike.  Keys are never removed one by one
 * (ir_map_clear empties the table), so probing needs no tombstones.
 *
 * The slots live on the heap, or in an arena when the map is made with
 * ir_map_init_arena (for tables as long-lived as the nodes, such as the
 * interpreter's frames, which closures capture): ir_map_free is then a
 * no-op and a grown table leaves its old slots in the arena.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* --- checked allocation ------------------------------------------------ */

/* Out of memory is not a user error and library code cannot return from
 * every allocation: say so and abort, as ir_alloc does. */
static void
out_of_memory(void)
{
  fprintf(stderr, "rxc: out of memory\n");
  abort();
}

void *
ir_xmalloc(size_t size)
{
  void *p = malloc(size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *
ir_xcalloc(size_t count, size_t size)
{
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *
ir_xrealloc(void *p, size_t size)
{
  p = realloc(p, size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *
ir_xaligned_alloc(size_t align, size_t size)
{
  assert(align > 0 && (align & (align - 1)) == 0);
  size_t bytes = size ? (size + align - 1) / align * align : align;
  void *p = bytes >= size ? aligned_alloc(align, bytes) : NULL;
  if (!p)
    out_of_memory();
  return p;
}

/* --- the map ----------------------------------------------------------- */

enum { MAP_MIN_CAP = 16 };

void
ir_map_init_arena(IrMap *m, IrCtx *ctx)
{
  memset(m, 0, sizeof *m);
  m->ctx = ctx;
}

/* The first slot to probe for key: Fibonacci hashing (Knuth, TAOCP 6.4)
 * of the address, the high bits being the well mixed ones. */
static size_t
slot_of(const void *key, size_t cap)
{
  uint64_t h = (uint64_t)(uintptr_t)key;
  h ^= h >> 32;
  h *= 0x9e3779b97f4a7c15u;
  return (size_t)(h >> 32) & (cap - 1);
}

/* Zeroed room for n entries of size bytes, from the map's store. */
static void *
map_alloc(const IrMap *m, size_t n, size_t size)
{
  return m->ctx ? ir_alloc(m->ctx, n * size) : ir_xcalloc(n, size);
}

/* The slot holding key, or the empty one where it would go. */
static size_t
find(const IrMap *m, const void *key)
{
  size_t i = slot_of(key, m->cap);
  while (m->keys[i] && m->keys[i] != key)
    i = (i + 1) & (m->cap - 1);
  return i;
}

static void
grow(IrMap *m)
{
  IrMap old = *m;
  m->cap = old.cap ? 2 * old.cap : MAP_MIN_CAP;
  m->keys = map_alloc(m, m->cap, sizeof *m->keys);
  m->values = map_alloc(m, m->cap, sizeof *m->values);
  for (size_t i = 0; i < old.cap; i++)
    if (old.keys[i]) {
      size_t j = find(m, old.keys[i]);
      m->keys[j] = old.keys[i];
      m->values[j] = old.values[i];
    }
  if (!m->ctx) {
    free(old.keys);
    free(old.values);
  }
}

void *
ir_map_get(const IrMap *m, const void *key)
{
  if (m->len == 0)
    return NULL;
  size_t i = find(m, key);
  return m->keys[i] ? m->values[i] : NULL;
}

bool
ir_map_has(const IrMap *m, const void *key)
{
  return m->len > 0 && m->keys[find(m, key)] != NULL;
}

void **
ir_map_slot(IrMap *m, const void *key)
{
  assert(key);
  if (2 * (m->len + 1) > m->cap)
    grow(m);
  size_t i = find(m, key);
  if (!m->keys[i]) {
    m->keys[i] = key;
    m->values[i] = NULL;
    m->len++;
  }
  return &m->values[i];
}

void
ir_map_put(IrMap *m, const void *key, void *value)
{
  *ir_map_slot(m, key) = value;
}

void
ir_map_clear(IrMap *m)
{
  if (m->len)
    memset(m->keys, 0, m->cap * sizeof *m->keys);
  m->len = 0;
}

void
ir_map_free(IrMap *m)
{
  if (!m->ctx) {
    free(m->keys);
    free(m->values);
  }
  IrCtx *ctx = m->ctx;
  memset(m, 0, sizeof *m);
  m->ctx = ctx;
}
