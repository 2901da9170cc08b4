/*
 * wellformed.c - the well-formedness checker's entry point, its error
 * reporting and its map of what is known per node.
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

/* --- the map of what is known per node ------------------------------- */

/* The entries sit in one heap array, which the IrMap indexes (key ->
 * index + 1): clearing the map per global reuses both. */

WfEntry *
ir_wf_map_get(const WfMap *map, const void *key)
{
  if (!key)
    return NULL;
  size_t k = (size_t)(uintptr_t)ir_map_get(&map->index, key);
  return k ? &map->entries[k - 1] : NULL;
}

WfEntry *
ir_wf_map_put(WfMap *map, const void *key)
{
  void **slot = ir_map_slot(&map->index, key);
  if (*slot)
    return &map->entries[(size_t)(uintptr_t)*slot - 1];
  if (map->len == map->cap) {
    map->cap = map->cap ? 2 * map->cap : 64;
    map->entries = ir_xrealloc(map->entries, map->cap * sizeof *map->entries);
  }
  map->entries[map->len] = (WfEntry){key, 0, 0, NULL};
  *slot = (void *)(uintptr_t)++map->len;
  return &map->entries[map->len - 1];
}

void
ir_wf_map_clear(WfMap *map)
{
  ir_map_clear(&map->index);
  map->len = 0;
}

void
ir_wf_map_free(WfMap *map)
{
  ir_map_free(&map->index);
  free(map->entries);
  *map = (WfMap){0};
}

/* --- errors ------------------------------------------------------------ */

bool
ir_wf_loc_known(IrLoc loc)
{
  return loc.src || loc.line > 0;
}

const char *
ir_wf_name(IrSym s)
{
  return s ? s : "?";
}

void
ir_wf_error(WfChecker *c, IrLoc loc, const char *fmt, ...)
{
  IrBuf b = {0};
  ir_buf_printf(&b, "in function '%s'", ir_wf_name(c->func));
  switch (c->where) {
  case WF_AT_FUNCTION:
    break;
  case WF_AT_BINDING:
    ir_buf_printf(&b, ", binding '%s'", ir_wf_name(c->where_name));
    break;
  case WF_AT_PARAM:
    ir_buf_printf(&b, ", parameter '%s'", ir_wf_name(c->where_name));
    break;
  case WF_AT_RESULT:
    ir_buf_puts(&b, ", return value");
    break;
  case WF_AT_RET:
    ir_buf_puts(&b, ", return annotation");
    break;
  case WF_AT_BLOCK:
    ir_buf_printf(&b, ", block '%s'", ir_wf_name(c->where_name));
    break;
  }
  ir_buf_puts(&b, ": ");
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  ir_error(c->ctx, ir_wf_loc_known(loc) ? loc : c->func_loc, "%s", b.data);
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
    ir_wf_map_clear(&c.vars);
    c.scope.len = 0;
    if (g->kind == IR_GLOBAL_RELAX && g->u.relax)
      ir_wf_check_function(&c, ir_wf_name(g->name), g->u.relax);
    else if (g->kind == IR_GLOBAL_PRIM && g->u.prim)
      ir_wf_check_prim_func(&c, ir_wf_name(g->name), g->u.prim);
  }
  ir_wf_map_free(&c.vars);
  ir_vec_free(&c.scope);
  return c.nerrors;
}
