/*
 * wellformed.c - the well-formedness checker's entry point, its error
 * reporting and its pointer map.
 *
 * Key idea: the checker never stops at the first problem.  It walks every
 * global of the module (Relax functions in wf_relax.c, prim_funcs in
 * wf_tir.c, struct info in wf_sinfo.c) and records each violation as an
 * error that names the function and the binding (or parameter, return value,
 * TIR block), at the location of the offending binding or call.  Identity is
 * by pointer, so what the checker knows about a var or buffer lives in a
 * hash map keyed by the node.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wf_int.h"

/* --- pointer map ---------------------------------------------------- */

static size_t
slot_of(const void *key, size_t cap)
{
  uint64_t h = (uint64_t)(uintptr_t)key;
  h ^= h >> 29;
  h *= 0x9e3779b97f4a7c15u;
  return (size_t)(h >> 17) & (cap - 1);
}

WfEntry *
wf_map_get(const WfMap *map, const void *key)
{
  if (!map->cap || !key)
    return NULL;
  for (size_t i = slot_of(key, map->cap);; i = (i + 1) & (map->cap - 1)) {
    if (map->slots[i].key == key)
      return &map->slots[i];
    if (!map->slots[i].key)
      return NULL;
  }
}

static void
map_grow(WfMap *map)
{
  WfMap bigger = {calloc(map->cap ? map->cap * 2 : 64, sizeof(WfEntry)),
                  map->cap ? map->cap * 2 : 64, 0};
  if (!bigger.slots)
    abort();
  for (size_t i = 0; i < map->cap; i++) {
    if (!map->slots[i].key)
      continue;
    size_t j = slot_of(map->slots[i].key, bigger.cap);
    while (bigger.slots[j].key)
      j = (j + 1) & (bigger.cap - 1);
    bigger.slots[j] = map->slots[i];
    bigger.count++;
  }
  free(map->slots);
  *map = bigger;
}

WfEntry *
wf_map_put(WfMap *map, const void *key)
{
  WfEntry *e = wf_map_get(map, key);
  if (e)
    return e;
  if ((map->count + 1) * 2 > map->cap)
    map_grow(map);
  size_t i = slot_of(key, map->cap);
  while (map->slots[i].key)
    i = (i + 1) & (map->cap - 1);
  map->slots[i] = (WfEntry){key, 0, 0, NULL};
  map->count++;
  return &map->slots[i];
}

void
wf_map_clear(WfMap *map)
{
  if (map->cap)
    memset(map->slots, 0, map->cap * sizeof *map->slots);
  map->count = 0;
}

void
wf_map_free(WfMap *map)
{
  free(map->slots);
  *map = (WfMap){0};
}

/* --- errors ------------------------------------------------------------ */

bool
wf_loc_known(IrLoc loc)
{
  return loc.src || loc.line > 0;
}

const char *
wf_name(IrSym s)
{
  return s ? s : "?";
}

void
wf_error(WfChecker *c, IrLoc loc, const char *fmt, ...)
{
  IrBuf b = {0};
  ir_buf_printf(&b, "in function '%s'", wf_name(c->func));
  switch (c->where) {
  case WF_AT_FUNCTION:
    break;
  case WF_AT_BINDING:
    ir_buf_printf(&b, ", binding '%s'", wf_name(c->where_name));
    break;
  case WF_AT_PARAM:
    ir_buf_printf(&b, ", parameter '%s'", wf_name(c->where_name));
    break;
  case WF_AT_RESULT:
    ir_buf_puts(&b, ", return value");
    break;
  case WF_AT_RET:
    ir_buf_puts(&b, ", return annotation");
    break;
  case WF_AT_BLOCK:
    ir_buf_printf(&b, ", block '%s'", wf_name(c->where_name));
    break;
  }
  ir_buf_puts(&b, ": ");
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  ir_error(c->ctx, wf_loc_known(loc) ? loc : c->func_loc, "%s", b.data);
  ir_buf_free(&b);
  c->nerrors++;
}

/* --- entry point --------------------------------------------------------- */

int
ir_module_check(IrCtx *ctx, const IrModule *m)
{
  if (!m)
    return 0;
  WfChecker c = {.ctx = ctx, .m = m};
  for (int i = 0; i < m->nglobals; i++) {
    const IrGlobal *g = &m->globals[i];
    wf_map_clear(&c.vars);
    c.scope.len = 0;
    if (g->kind == IR_GLOBAL_RELAX && g->u.relax)
      wf_check_function(&c, wf_name(g->name), g->u.relax);
    else if (g->kind == IR_GLOBAL_PRIM && g->u.prim)
      wf_check_prim_func(&c, wf_name(g->name), g->u.prim);
  }
  wf_map_free(&c.vars);
  ir_vec_free(&c.scope);
  return c.nerrors;
}
