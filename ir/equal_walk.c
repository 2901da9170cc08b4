/*
 * equal_walk.c - the walker of structural equality and hashing: the
 * bijection of bound variables (in IrMaps), hash mixing, the path of the
 * first difference, leaf comparisons and attribute values.
 *
 * Every same_* helper compares two leaf values (WALK_EQUAL) or mixes the
 * first into the hash (WALK_HASH); see equal_int.h for why one traversal
 * does both.  Floats follow one rule everywhere: equal when the bits are
 * equal or both are NaN, so -0.0 differs from 0.0 and every NaN hashes alike.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "equal_int.h"

/* --- the walker --------------------------------------------------------- */

void
ir_walk_init(Walk *w, WalkMode mode, IrBuf *why)
{
  memset(w, 0, sizeof *w);
  w->mode = mode;
  w->why = mode == WALK_EQUAL ? why : NULL;
  w->h = 0x6a09e667f3bcc909ULL;
}

void
ir_walk_free(Walk *w)
{
  ir_map_free(&w->a2b);
  ir_map_free(&w->b2a);
  ir_map_free(&w->index);
  ir_buf_free(&w->path);
}

void
ir_walk_reset_vars(Walk *w)
{
  ir_map_clear(&w->a2b);
  ir_map_clear(&w->b2a);
  ir_map_clear(&w->index);
  w->next_index = 0;
}

/* splitmix64's finalizer: every input bit affects every output bit. */
static uint64_t
scramble(uint64_t x)
{
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/* Order-sensitive: mixing u then v differs from v then u. */
void
ir_walk_mix(Walk *w, uint64_t v)
{
  w->h = scramble(w->h ^ (v + 0x9e3779b97f4a7c15ULL));
}

void
ir_walk_mix_str(Walk *w, const char *s)
{
  uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
  if (!s) {
    ir_walk_mix(w, 0x5eed);
    return;
  }
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
  ir_walk_mix(w, h);
}

/* Meets the bound objects a and b (a Relax var, a TIR var or a buffer).
 * WALK_HASH mixes the first-occurrence index of a.  WALK_EQUAL extends or
 * checks the bijection; in identity mode a and b must be the same object. */
BindResult
ir_walk_bind(Walk *w, const void *a, const void *b)
{
  if (w->mode == WALK_HASH) {
    uintptr_t got = (uintptr_t)ir_map_get(&w->index, a); /* index + 1, 0: absent */
    if (got) {
      ir_walk_mix(w, 0xb0u + got - 1);
      return BIND_SAME;
    }
    ir_map_put(&w->index, a, (void *)(w->next_index + 1));
    ir_walk_mix(w, 0xf1u + w->next_index++);
    return BIND_NEW;
  }
  if (w->identity)
    return a == b ? BIND_SAME : BIND_BAD;
  const void *got = ir_map_get(&w->a2b, a);
  if (got)
    return got == b ? BIND_SAME : BIND_BAD;
  if (ir_map_has(&w->b2a, b))
    return BIND_BAD;
  ir_map_put(&w->a2b, a, (void *)b);
  ir_map_put(&w->b2a, b, (void *)a);
  return BIND_NEW;
}

/* --- the path of the first difference ------------------------------------ */

/* Appends a frame to the path; returns what ir_path_pop restores. */
size_t
ir_path_push(Walk *w, const char *fmt, ...)
{
  if (!w->why)
    return 0;
  size_t saved = w->path.len;
  if (saved)
    ir_buf_puts(&w->path, ": ");
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(&w->path, fmt, ap);
  va_end(ap);
  return saved;
}

void
ir_path_pop(Walk *w, size_t saved)
{
  if (!w->why)
    return;
  w->path.len = saved;
  if (w->path.data)
    w->path.data[saved] = '\0';
}

/* Writes "path: detail" to why (when asked for) and returns false, so a
 * caller can `return mismatch(...)`. */
bool
ir_mismatch(Walk *w, const char *fmt, ...)
{
  if (!w->why)
    return false;
  if (w->path.len) {
    ir_buf_put(w->why, w->path.data, w->path.len);
    ir_buf_puts(w->why, ": ");
  }
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(w->why, fmt, ap);
  va_end(ap);
  return false;
}

/* "what: " or nothing. */
#define WHAT(what) (what) ? (what) : "", (what) ? ": " : ""

/* --- leaves ------------------------------------------------------------- */

bool
ir_same_int(Walk *w, int64_t a, int64_t b, const char *what)
{
  if (w->mode == WALK_HASH) {
    ir_walk_mix(w, (uint64_t)a);
    return true;
  }
  if (a == b)
    return true;
  return ir_mismatch(w, "%s%s%" PRId64 " vs %" PRId64, WHAT(what), a, b);
}

/* yes/no name the two values in the message ("dataflow var", "var"). */
bool
ir_same_bool(Walk *w, bool a, bool b, const char *what, const char *yes, const char *no)
{
  if (w->mode == WALK_HASH) {
    ir_walk_mix(w, a ? 0x7u : 0x3u);
    return true;
  }
  if (a == b)
    return true;
  return ir_mismatch(w, "%s%s%s vs %s", WHAT(what), a ? yes : no, b ? yes : no);
}

bool
ir_same_dtype(Walk *w, IrDType a, IrDType b, const char *what)
{
  if (w->mode == WALK_HASH) {
    ir_walk_mix(w, (uint64_t)a.code << 32 | (uint64_t)a.bits << 16 | a.lanes);
    return true;
  }
  if (ir_dtype_eq(a, b))
    return true;
  char sa[32], sb[32];
  return ir_mismatch(w, "%s%s%s vs %s", WHAT(what), ir_dtype_str(a, sa), ir_dtype_str(b, sb));
}

/* Interned strings of two modules may come from two contexts: compare the
 * text, never the pointers.  NULL equals only NULL. */
bool
ir_same_str(Walk *w, const char *a, const char *b, const char *what)
{
  if (w->mode == WALK_HASH) {
    ir_walk_mix_str(w, a);
    return true;
  }
  if (a == b || (a && b && strcmp(a, b) == 0))
    return true;
  return ir_mismatch(w, "%s%s%s%s%s vs %s%s%s", WHAT(what), a ? "\"" : "", a ? a : "none",
                     a ? "\"" : "", b ? "\"" : "", b ? b : "none", b ? "\"" : "");
}

bool
ir_double_is_nan(double d)
{
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return (bits & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL &&
         (bits & 0x000fffffffffffffULL) != 0;
}

/* Bitwise equal, or both NaN (any payload, any sign). */
bool
ir_same_double(Walk *w, double a, double b, const char *what)
{
  uint64_t ba, bb;
  memcpy(&ba, &a, sizeof ba);
  memcpy(&bb, &b, sizeof bb);
  bool nan_a = ir_double_is_nan(a);
  if (w->mode == WALK_HASH) {
    ir_walk_mix(w, nan_a ? 0x7ff8000000000000ULL : ba);
    return true;
  }
  if (ba == bb || (nan_a && ir_double_is_nan(b)))
    return true;
  return ir_mismatch(w, "%s%s%.17g vs %.17g (bits 0x%016" PRIx64 " vs 0x%016" PRIx64 ")",
                     WHAT(what), a, b, ba, bb);
}

bool
ir_same_count(Walk *w, int a, int b, const char *what)
{
  return ir_same_int(w, a, b, what);
}

/* Both present or both absent; the message says which is which. */
bool
ir_same_presence(Walk *w, const void *a, const void *b, const char *what)
{
  return ir_same_bool(w, a != NULL, b != NULL, what, "present", "absent");
}

/* --- attribute values ------------------------------------------------------ */

static const char *const attr_kind_names[] = {
    [IR_AT_NONE] = "None", [IR_AT_BOOL] = "bool", [IR_AT_INT] = "int",   [IR_AT_FLOAT] = "float",
    [IR_AT_STR] = "str",   [IR_AT_LIST] = "list", [IR_AT_DICT] = "dict", [IR_AT_PRIM] = "expr",
    [IR_AT_INDEX_MAP] = "index map",
};

/* An index map: its parameters are bound by the map itself, so they match
 * by the bijection even where free vars compare by identity (two calls
 * with the same lambda are the same call to CSE); the results follow. */
static bool
walk_index_map(Walk *w, const IrAttr *a, const IrAttr *b)
{
  int np = a->u.index_map.nparams, nr = a->u.index_map.nresults;
  if (!ir_same_count(w, np, b->u.index_map.nparams, "parameters") ||
      !ir_same_count(w, nr, b->u.index_map.nresults, "results"))
    return false;
  bool identity = w->identity;
  w->identity = false;
  bool ok = ir_walk_prims(w, a->u.index_map.params, b->u.index_map.params, np, "param %d") &&
            ir_walk_prims(w, a->u.index_map.results, b->u.index_map.results, nr, "result %d");
  w->identity = identity;
  return ok;
}

/* The pairs of two dicts, keys compared by text (both are sorted by
 * construction, so pairwise comparison is order-independent). */
static bool
walk_dict_pairs(Walk *w, const IrAttr *a, const IrAttr *b)
{
  int na = a ? a->u.list.n : 0, nb = b ? b->u.list.n : 0;
  ir_walk_mix(w, IR_AT_DICT);
  for (int i = 0; i < na && i < nb; i++) {
    const char *ka = a->u.list.keys[i], *kb = b->u.list.keys[i];
    if (w->mode == WALK_EQUAL && strcmp(ka, kb) != 0) {
      int c = strcmp(ka, kb);
      return ir_mismatch(w, "key \"%s\" missing in %s", c < 0 ? ka : kb,
                         c < 0 ? "second" : "first");
    }
    ir_walk_mix_str(w, ka);
    size_t saved = ir_path_push(w, "\"%s\"", ka);
    if (!ir_walk_attr(w, a->u.list.items[i], b->u.list.items[i]))
      return false;
    ir_path_pop(w, saved);
  }
  if (na != nb) {
    const IrAttr *longer = na > nb ? a : b;
    return ir_mismatch(w, "key \"%s\" missing in %s", longer->u.list.keys[na < nb ? na : nb],
                       na > nb ? "second" : "first");
  }
  ir_walk_mix(w, (uint64_t)na);
  return true;
}

/* A dict-valued slot (function, call, block attributes): NULL means the
 * empty dict, so `R.func_attr({})` equals no attributes at all. */
bool
ir_walk_attr_dict(Walk *w, const IrAttr *a, const IrAttr *b, const char *what)
{
  bool dicts = (!a || a->kind == IR_AT_DICT) && (!b || b->kind == IR_AT_DICT);
  size_t saved = ir_path_push(w, "%s", what);
  bool ok = dicts ? walk_dict_pairs(w, a, b) : ir_walk_attr(w, a, b);
  if (ok)
    ir_path_pop(w, saved);
  return ok;
}

/* An attribute value; NULL only equals NULL. */
bool
ir_walk_attr(Walk *w, const IrAttr *a, const IrAttr *b)
{
  if (!a || !b) {
    ir_walk_mix(w, 0xa77);
    return a == b || ir_mismatch(w, "%s vs %s", a ? "value" : "nothing", b ? "value" : "nothing");
  }
  if (w->mode == WALK_EQUAL && a->kind != b->kind)
    return ir_mismatch(w, "%s vs %s", attr_kind_names[a->kind], attr_kind_names[b->kind]);
  ir_walk_mix(w, a->kind);
  switch (a->kind) {
  case IR_AT_NONE:
    return true;
  case IR_AT_BOOL:
    return ir_same_bool(w, a->u.b, b->u.b, NULL, "True", "False");
  case IR_AT_INT:
    return ir_same_int(w, a->u.i, b->u.i, NULL);
  case IR_AT_FLOAT:
    return ir_same_double(w, a->u.f, b->u.f, NULL);
  case IR_AT_STR:
    return ir_same_str(w, a->u.s, b->u.s, NULL);
  case IR_AT_PRIM:
    return ir_walk_prim(w, a->u.prim, b->u.prim);
  case IR_AT_INDEX_MAP:
    return walk_index_map(w, a, b);
  case IR_AT_DICT:
    return walk_dict_pairs(w, a, b);
  case IR_AT_LIST:
    if (!ir_same_count(w, a->u.list.n, b->u.list.n, "length"))
      return false;
    for (int i = 0; i < a->u.list.n; i++) {
      size_t saved = ir_path_push(w, "[%d]", i);
      if (!ir_walk_attr(w, a->u.list.items[i], b->u.list.items[i]))
        return false;
      ir_path_pop(w, saved);
    }
    return true;
  }
  UNREACHABLE();
  return false;
}
