/*
 * pooled.c - TVM's StaticPlanBlockMemory rule, for comparison: what the
 * arena would cost if storages were pooled as TVM pools them and then laid
 * one after another.
 *
 * The rule, as TVM's TokenAllocator1D::RequestReuse states it
 * (src/relax/transform/static_plan_block_memory.cc): free storages are
 * kept per kind (TVM: per storage scope and dtype) in a multimap ordered
 * by byte size.  A buffer of size bytes
 *  1. takes the smallest free storage of its kind whose size lies in
 *     [size, 16 * size] (among equal sizes, the one freed first);
 *  2. else takes the largest free storage of its kind whose size lies in
 *     [size / 16, size) (integer division; among equal sizes, the one
 *     freed last) and grows it to size;
 *  3. else gets a new storage of size bytes.
 * A storage is freed when its buffer's live interval ends; buffers are
 * taken in order of start (then id, then position), and the storages
 * freed at a step before the buffers starting at it are served.  Every
 * buffer lies at the offset of its storage; each storage is aligned to
 * the largest alignment of its buffers.
 */
#include "core_int.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int kind;
  int64_t size;     /* bytes: the largest buffer it held */
  int64_t align;    /* the largest alignment of its buffers */
  int64_t offset;   /* in the arena, once laid out */
  int64_t freed_at; /* sequence number of its last release; -1 while in use */
} Storage;

typedef struct {
  int64_t start, end;
  int id, index;
} Slot;

static int
slot_cmp(const void *pa, const void *pb)
{
  const Slot *a = pa, *b = pb;
  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  if (a->id != b->id)
    return a->id < b->id ? -1 : 1;
  return a->index - b->index;
}

/* Whether storage a is preferred to b (both in the range of one step of the
 * rule): smaller first for step 1, larger first for step 2; equal sizes in
 * multimap order, i.e. by release. */
static bool
preferred(const Storage *a, const Storage *b, bool grow)
{
  if (a->size != b->size)
    return grow ? a->size > b->size : a->size < b->size;
  return grow ? a->freed_at > b->freed_at : a->freed_at < b->freed_at;
}

/* The storage buffer b takes (TVM's RequestReuse), or -1 for a new one. */
static int
request_reuse(const Storage *st, int nst, const MpBuffer *b)
{
  int64_t size = b->size, most = size > INT64_MAX / 16 ? INT64_MAX : size * 16;
  int fit = -1, grow = -1;
  for (int i = 0; i < nst; i++) {
    const Storage *s = &st[i];
    if (s->freed_at < 0 || s->kind != b->kind)
      continue;
    if (s->size >= size && s->size <= most) {
      if (fit < 0 || preferred(s, &st[fit], false))
        fit = i;
    } else if (s->size >= size / 16 && s->size < size) {
      if (grow < 0 || preferred(s, &st[grow], true))
        grow = i;
    }
  }
  return fit >= 0 ? fit : grow;
}

/* Whether slot a is released before slot b: the earlier end, then the
 * earlier in start order. */
static bool
ends_before(const Slot *slots, int a, int b)
{
  return slots[a].end != slots[b].end ? slots[a].end < slots[b].end : a < b;
}

/* A binary min-heap of slot numbers by ends_before: the release order in
 * O(log n) a slot, where rescanning every slot passed for each release
 * was O(n^2). */
static void
heap_push(const Slot *slots, int *heap, int *n, int k)
{
  int i = (*n)++;
  for (; i > 0 && ends_before(slots, k, heap[(i - 1) / 2]); i = (i - 1) / 2)
    heap[i] = heap[(i - 1) / 2];
  heap[i] = k;
}

static int
heap_pop(const Slot *slots, int *heap, int *n)
{
  int top = heap[0], last = heap[--*n], i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= *n)
      break;
    if (c + 1 < *n && ends_before(slots, heap[c + 1], heap[c]))
      c++;
    if (!ends_before(slots, heap[c], last))
      break;
    heap[i] = heap[c];
    i = c;
  }
  heap[i] = last;
  return top;
}

/* Storages one after another; every buffer at its storage's offset. */
static int64_t
lay_out(MpBuffer *bufs, int n, Storage *st, int nst, const int *of)
{
  int64_t end = 0;
  for (int i = 0; i < nst; i++) {
    st[i].offset = mp_align_up(end, st[i].align);
    end = mp_add_sat(st[i].offset, st[i].size);
  }
  for (int i = 0; i < n; i++)
    bufs[i].offset = st[of[i]].offset;
  return mp_align_up(end, mp_max_align(bufs, n));
}

/* Plans bufs by the pooled rule above; returns the arena (the sum of the
 * storages, aligned). */
int64_t
mp_pooled(MpBuffer *bufs, int n)
{
  Slot *slots = ir_xcalloc((size_t)n, sizeof *slots);
  for (int i = 0; i < n; i++)
    slots[i] = (Slot){bufs[i].start, mp_live_end(&bufs[i]), bufs[i].id, i};
  qsort(slots, (size_t)n, sizeof *slots, slot_cmp);
  Storage *st = ir_xcalloc((size_t)n, sizeof *st);
  int *of = ir_xcalloc((size_t)n, sizeof *of); /* buffer index -> storage */
  int *ended = ir_xcalloc((size_t)n, sizeof *ended); /* heap of slots passed, unreleased */
  int nended = 0, nst = 0;
  int64_t releases = 0;
  for (int k = 0; k < n; k++) {
    /* Release, in order of end then start order, what ended by now. */
    while (nended > 0 && slots[ended[0]].end <= slots[k].start)
      st[of[slots[heap_pop(slots, ended, &nended)].index]].freed_at = releases++;
    const MpBuffer *b = &bufs[slots[k].index];
    int s = request_reuse(st, nst, b);
    if (s < 0) {
      s = nst++;
      st[s] = (Storage){.kind = b->kind, .size = b->size, .align = b->align};
    }
    st[s].freed_at = -1;
    st[s].size = b->size > st[s].size ? b->size : st[s].size;
    st[s].align = b->align > st[s].align ? b->align : st[s].align;
    of[slots[k].index] = s;
    heap_push(slots, ended, &nended, k);
  }
  int64_t arena = lay_out(bufs, n, st, nst, of);
  free(slots);
  free(st);
  free(of);
  free(ended);
  return arena;
}
