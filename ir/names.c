/*
 * names.c - IrNames: a set of distinct names that hands out fresh ones
 * (base, base1 or base_1, ...), for every place that names things anew:
 * legalized kernels, C identifiers, the planner's report.
 *
 * Key idea: the names sit in an open-addressing hash table, and each keeps
 * the last suffix handed out after it, so asking a thousand times for
 * "alloc" costs a thousand tries, not half a million.  Names are never
 * removed, so resuming at the last suffix finds the smallest free one.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* The slot of name: the one holding it, or the free one it would take. */
static int
slot_of(const IrNames *s, const char *name)
{
  uint32_t h = 2166136261u; /* FNV-1a */
  for (const char *p = name; *p; p++)
    h = (h ^ (unsigned char)*p) * 16777619u;
  int i = (int)(h & (uint32_t)(s->slot_cap - 1));
  while (s->slots[i] && strcmp(s->names[s->slots[i] - 1], name) != 0)
    i = (i + 1) & (s->slot_cap - 1);
  return i;
}

bool
ir_names_has(const IrNames *s, const char *name)
{
  return s->n > 0 && s->slots[slot_of(s, name)] != 0;
}

/* Adds name (absent) and returns its index. */
static int
add(IrNames *s, const char *name)
{
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 32;
    s->names = ir_xrealloc(s->names, sizeof *s->names * (size_t)s->cap);
    s->next = ir_xrealloc(s->next, sizeof *s->next * (size_t)s->cap);
    s->slot_cap = 4 * s->cap;
    free(s->slots);
    s->slots = ir_xcalloc((size_t)s->slot_cap, sizeof *s->slots);
    for (int k = 0; k < s->n; k++)
      s->slots[slot_of(s, s->names[k])] = k + 1;
  }
  size_t len = strlen(name);
  char *copy = ir_xmalloc(len + 1);
  memcpy(copy, name, len + 1);
  s->names[s->n] = copy;
  s->next[s->n] = 0;
  s->slots[slot_of(s, copy)] = s->n + 1;
  return s->n++;
}

void
ir_names_add(IrNames *s, const char *name)
{
  if (!ir_names_has(s, name))
    add(s, name);
}

const char *
ir_names_unique(IrNames *s, const char *base, const char *sep)
{
  int owner = s->n > 0 ? s->slots[slot_of(s, base)] : 0;
  if (!owner) {
    int i = add(s, base); /* before reading s->names: add may move it */
    return s->names[i];
  }
  size_t len = strlen(base) + strlen(sep) + 24;
  char *name = ir_xrealloc(NULL, len);
  int k = s->next[owner - 1];
  do
    snprintf(name, len, "%s%s%d", base, sep, ++k);
  while (ir_names_has(s, name));
  s->next[owner - 1] = k; /* base's suffixes up to k are taken */
  int i = add(s, name);
  free(name);
  return s->names[i];
}

void
ir_names_free(IrNames *s)
{
  for (int i = 0; i < s->n; i++)
    free(s->names[i]);
  free(s->names);
  free(s->next);
  free(s->slots);
  memset(s, 0, sizeof *s);
}
