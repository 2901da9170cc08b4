/*
 * printer.c - prints a module as TVMScript, in TVM's style (mod.script()),
 * exactly as docs/text-format.md specifies; the reader reads it back.
 *
 * This file holds the module level (header, order of globals, module attrs
 * and vdevices) and what the Relax and TIR halves share: names, strings,
 * floats and attribute values.  print_relax.c prints Relax functions and
 * struct info, print_tir.c prim funcs and scalar expressions.
 *
 * Key ideas:
 *  - Output is a pure function of the module: globals are sorted, names are
 *    given in the order they are printed, hash tables only map (never
 *    iterate), so the same module gives the same bytes.
 *  - Each function has its own name map: distinct variables with one stored
 *    name print as "x", "x_1", ..., so the text reads back to the same
 *    bindings (TVM's printer does the same).
 *  - What the IR can hold but the text cannot say becomes a line
 *    "# rxc: cannot print ..." instead of a crash.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "print_int.h"

/* --- output ---------------------------------------------------------- */

void
ir_pr_puts(Printer *p, const char *s)
{
  ir_buf_puts(p->out, s);
}

void
ir_pr_printf(Printer *p, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(p->out, fmt, ap);
  va_end(ap);
}

void
ir_pr_indent(Printer *p)
{
  for (int i = 0; i < p->indent; i++)
    ir_buf_put(p->out, "    ", 4);
}

void
ir_pr_cannot(Printer *p, const char *fmt, ...)
{
  va_list ap;
  ir_pr_indent(p);
  ir_pr_puts(p, "# rxc: cannot print ");
  va_start(ap, fmt);
  ir_buf_vprintf(p->out, fmt, ap);
  va_end(ap);
  ir_pr_puts(p, "\n");
}

/* Python string literal: \\ \" \n \t escaped, other control bytes \xNN;
 * bytes from 0x80 pass through (UTF-8 stays UTF-8). */
void
ir_pr_string(Printer *p, const char *s)
{
  IrBuf *b = p->out;
  ir_buf_put(b, "\"", 1);
  for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
    if (*c == '\\')
      ir_buf_puts(b, "\\\\");
    else if (*c == '"')
      ir_buf_puts(b, "\\\"");
    else if (*c == '\n')
      ir_buf_puts(b, "\\n");
    else if (*c == '\t')
      ir_buf_puts(b, "\\t");
    else if (*c < 0x20 || *c == 0x7f)
      ir_buf_printf(b, "\\x%02x", *c);
    else
      ir_buf_put(b, c, 1);
  }
  ir_buf_put(b, "\"", 1);
}

void
ir_pr_dtype(Printer *p, IrDType t)
{
  char name[32];
  ir_pr_puts(p, ir_dtype_str(t, name));
}

/* --- floats ------------------------------------------------------------ */

static bool
reads_back(const char *text, double v, bool single)
{
  double r = strtod(text, NULL);
  if (single)
    return (float)r == (float)v;
  return r == v;
}

/* Lays out the significant digits "d1d2..." with decimal exponent e (value
 * d1.d2... * 10^e) as Python's repr does: positional when -4 <= e < 16,
 * else d.ddde+XX. */
static void
layout_digits(IrBuf *b, bool negative, const char *digits, int e)
{
  int n = (int)strlen(digits);
  if (negative)
    ir_buf_put(b, "-", 1);
  if (e < -4 || e >= 16) {
    ir_buf_put(b, digits, 1);
    if (n > 1) {
      ir_buf_put(b, ".", 1);
      ir_buf_put(b, digits + 1, (size_t)n - 1);
    }
    ir_buf_printf(b, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    return;
  }
  if (e < 0) {
    ir_buf_puts(b, "0.");
    for (int i = 0; i < -e - 1; i++)
      ir_buf_put(b, "0", 1);
    ir_buf_puts(b, digits);
    return;
  }
  if (e + 1 >= n) {
    ir_buf_puts(b, digits);
    for (int i = 0; i < e + 1 - n; i++)
      ir_buf_put(b, "0", 1);
    ir_buf_puts(b, ".0");
    return;
  }
  ir_buf_put(b, digits, (size_t)e + 1);
  ir_buf_put(b, ".", 1);
  ir_buf_puts(b, digits + e + 1);
}

void
ir_pr_float_text(IrBuf *b, double v, bool single)
{
  char text[64], digits[32];
  if (isnan(v)) {
    ir_buf_puts(b, "nan");
    return;
  }
  if (isinf(v)) {
    ir_buf_puts(b, v < 0 ? "-inf" : "inf");
    return;
  }
  /* the fewest significant digits that read back */
  int prec = 0;
  for (; prec < 17; prec++) {
    snprintf(text, sizeof text, "%.*e", prec, v);
    if (reads_back(text, v, single))
      break;
  }
  /* text is [-]d[.ddd]e[+-]XX */
  const char *s = text;
  bool negative = *s == '-';
  if (negative)
    s++;
  int n = 0;
  for (; *s && *s != 'e'; s++)
    if (*s != '.')
      digits[n++] = *s;
  while (n > 1 && digits[n - 1] == '0')
    n--;
  digits[n] = '\0';
  int e = *s == 'e' ? atoi(s + 1) : 0;
  layout_digits(b, negative, digits, e);
}

/* --- attribute values -------------------------------------------------- */

static void **name_slot(NameMap *m, const void *key, bool *found);
static char *sanitize(const char *stored);

/* The printed name of an index map's parameter: its own name, as in
 * TVM, whose every lambda is a frame of its own, so it neither takes a
 * name from the function nor is renamed by one; a name that is no Python
 * identifier is made one as any other var's. */
static const char *
lambda_param_name(Printer *p, const IrPrimExpr *v)
{
  char *clean = sanitize(v->u.var);
  bool as_is = strcmp(clean, v->u.var ? v->u.var : "") == 0;
  free(clean);
  if (p->raw_names || !as_is)
    return ir_pr_name(p, v, v->u.var);
  bool found;
  void **slot = name_slot(&p->names, v, &found);
  if (!found)
    *slot = (void *)v->u.var;
  return *slot;
}

/* T.index_map(lambda i, j: (i // T.int64(4), j, i % T.int64(4))), as TVM
 * prints an IndexMap; index_dtype (TVM's reader takes it, its printer leaves it to
 * the literals) is written when the parameters are not int64. */
static void
index_map(Printer *p, const IrAttr *a)
{
  int np = a->u.index_map.nparams, nr = a->u.index_map.nresults;
  ir_pr_puts(p, "T.index_map(lambda ");
  for (int i = 0; i < np; i++) {
    const IrPrimExpr *v = a->u.index_map.params[i];
    ir_pr_printf(p, "%s%s", i ? ", " : "", lambda_param_name(p, v));
  }
  ir_pr_puts(p, ": (");
  bool tir = p->tir;
  p->tir = true; /* TIR's literal rules, as TVM prints the body */
  for (int i = 0; i < nr; i++) {
    ir_pr_puts(p, i ? ", " : "");
    ir_pr_prim(p, a->u.index_map.results[i]);
  }
  p->tir = tir;
  ir_pr_puts(p, nr == 1 ? ",)" : ")");
  IrDType t = np ? a->u.index_map.params[0]->dtype : IR_I64;
  if (t.code != IR_I64.code || t.bits != IR_I64.bits) {
    ir_pr_puts(p, ", index_dtype=\"");
    ir_pr_dtype(p, t);
    ir_pr_puts(p, "\"");
  }
  ir_pr_puts(p, ")");
}

void
ir_pr_attr(Printer *p, const IrAttr *a)
{
  if (!a) {
    ir_pr_puts(p, "None");
    return;
  }
  switch (a->kind) {
  case IR_AT_NONE:
    ir_pr_puts(p, "None");
    break;
  case IR_AT_BOOL:
    ir_pr_puts(p, a->u.b ? "True" : "False");
    break;
  case IR_AT_INT:
    ir_pr_printf(p, "%lld", (long long)a->u.i);
    break;
  case IR_AT_FLOAT:
    if (isnan(a->u.f) || isinf(a->u.f)) {
      ir_pr_puts(p, "\"");
      ir_pr_float_text(p->out, a->u.f, false);
      ir_pr_puts(p, "\"");
    } else {
      ir_pr_float_text(p->out, a->u.f, false);
    }
    break;
  case IR_AT_STR:
    ir_pr_string(p, a->u.s);
    break;
  case IR_AT_PRIM:
    ir_pr_prim(p, a->u.prim);
    break;
  case IR_AT_INDEX_MAP:
    index_map(p, a);
    break;
  case IR_AT_LIST:
    ir_pr_puts(p, "[");
    for (int i = 0; i < a->u.list.n; i++) {
      ir_pr_puts(p, i ? ", " : "");
      ir_pr_attr(p, a->u.list.items[i]);
    }
    ir_pr_puts(p, "]");
    break;
  case IR_AT_DICT:
    ir_pr_puts(p, "{");
    for (int i = 0; i < a->u.list.n; i++) {
      const char *key = a->u.list.keys[i];
      ir_pr_puts(p, i ? ", " : "");
      if (p->dialect == IR_DIALECT_V0_26 && strncmp(key, "tir.", 4) == 0) {
        IrBuf renamed = {0}; /* v0.26 renamed tir to tirx, in attribute keys too */
        ir_buf_printf(&renamed, "tirx.%s", key + 4);
        ir_pr_string(p, renamed.data);
        ir_buf_free(&renamed);
      } else {
        ir_pr_string(p, key);
      }
      ir_pr_puts(p, ": ");
      ir_pr_attr(p, a->u.list.items[i]);
    }
    ir_pr_puts(p, "}");
    break;
  }
}

/* --- pointer sets -------------------------------------------------------- */

bool
ir_ptrset_has(const PtrSet *s, const void *key)
{
  return ir_map_has(&s->members, key);
}

bool
ir_ptrset_add(PtrSet *s, const void *key)
{
  void **slot = ir_map_slot(&s->members, key);
  if (*slot)
    return false;
  *slot = (void *)key;
  if (s->count == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->order = ir_xrealloc(s->order, s->cap * sizeof *s->order);
  }
  s->order[s->count++] = key;
  return true;
}

void
ir_ptrset_free(PtrSet *s)
{
  ir_map_free(&s->members);
  free(s->order);
  memset(s, 0, sizeof *s);
}

/* --- names ------------------------------------------------------------- */

/* key's name slot in m, added empty (NULL) when absent; *found says
 * whether key was there before. */
static void **
name_slot(NameMap *m, const void *key, bool *found)
{
  *found = ir_map_has(&m->bykey, key);
  return ir_map_slot(&m->bykey, key);
}

static const char *const python_words[] = {
    "False",   "None",     "True",     "and",    "as",   "assert", "async",  "await",
    "break",   "class",    "continue", "def",    "del",  "elif",   "else",   "except",
    "finally", "for",      "from",     "global", "if",   "import", "in",     "is",
    "lambda",  "nonlocal", "not",      "or",     "pass", "raise",  "return", "try",
    "while",   "with",     "yield",    "R",      "T",    "I",      "cls",    "range",
};

/* stored made into a Python identifier that no keyword or module alias
 * uses: bad bytes become '_', a leading digit gets a '_' before it. */
static char *
sanitize(const char *stored)
{
  const char *s = stored && *stored ? stored : "v";
  size_t n = strlen(s);
  char *out = ir_xcalloc(n + 3, 1);
  size_t k = 0;
  if (*s >= '0' && *s <= '9')
    out[k++] = '_';
  for (; *s; s++) {
    char c = *s;
    bool ok =
        c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out[k++] = ok ? c : '_';
  }
  for (size_t i = 0; i < sizeof python_words / sizeof python_words[0]; i++)
    if (strcmp(out, python_words[i]) == 0)
      out[k++] = '_';
  return out;
}

const char *
ir_pr_name(Printer *p, const void *key, const char *stored)
{
  if (p->raw_names)
    return stored && *stored ? stored : "v";
  bool found;
  void **slot = name_slot(&p->names, key, &found);
  if (found)
    return *slot;
  if (stored && strcmp(stored, "_") == 0) {
    *slot = "_"; /* every "_" is its own binding: never renamed */
    return *slot;
  }
  IrNames *used = &p->names.used;
  if (p->mod && p->mod->name && !ir_names_has(used, p->mod->name))
    ir_names_add(used, p->mod->name); /* no var takes the module's name */
  char *base = sanitize(stored);
  const char *name = ir_names_unique(used, base, "_");
  free(base);
  *slot = (void *)name;
  return name;
}

void
ir_pr_name_alias(Printer *p, const void *key2, const void *key1)
{
  if (p->raw_names)
    return;
  bool found1, found2;
  void *name = *name_slot(&p->names, key1, &found1);
  void **slot2 = name_slot(&p->names, key2, &found2);
  if (found1 && !found2)
    *slot2 = name;
}

void
ir_pr_names_reset(Printer *p)
{
  NameMap *m = &p->names;
  ir_names_free(&m->used);
  ir_map_free(&m->bykey);
  memset(m, 0, sizeof *m);
}

void
ir_pr_vdevice(Printer *p, int index)
{
  IrBuf text = {0};
  ir_vdevice_name(p->mod, index, &text);
  ir_pr_string(p, text.data);
  ir_buf_free(&text);
}

/* --- module -------------------------------------------------------------- */

static int
group_of(const IrGlobal *g)
{
  switch (g->kind) {
  case IR_GLOBAL_PRIM:
    return 0;
  case IR_GLOBAL_EXTERN:
    return 1;
  case IR_GLOBAL_RELAX:
    return strcmp(g->name ? g->name : "", "main") == 0 ? 3 : 2;
  }
  return 4;
}

static int
compare_globals(const void *pa, const void *pb)
{
  const IrGlobal *a = *(const IrGlobal *const *)pa, *b = *(const IrGlobal *const *)pb;
  int ga = group_of(a), gb = group_of(b);
  if (ga != gb)
    return ga < gb ? -1 : 1;
  int c = strcmp(a->name ? a->name : "", b->name ? b->name : "");
  if (c)
    return c;
  return a < b ? -1 : a > b; /* same name twice: keep module order */
}

static void
print_global_infos(Printer *p, const IrModule *m)
{
  ir_pr_indent(p);
  ir_pr_puts(p, "I.module_global_infos({\"vdevice\": [");
  for (int i = 0; i < m->nvdevices; i++) {
    const IrVDevice *v = &m->vdevices[i];
    ir_pr_puts(p, i ? ", I.vdevice(" : "I.vdevice(");
    if (v->target)
      ir_pr_attr(p, v->target);
    else
      ir_pr_string(p, v->kind);
    ir_pr_printf(p, ", %d, ", v->vdevice_id);
    ir_pr_string(p, v->memory_scope ? v->memory_scope : "global");
    ir_pr_puts(p, ")");
  }
  ir_pr_puts(p, "]})\n");
}

static void
print_global(Printer *p, const IrGlobal *g)
{
  ir_pr_names_reset(p);
  switch (g->kind) {
  case IR_GLOBAL_PRIM:
    ir_pr_prim_func(p, g->name, g->u.prim);
    break;
  case IR_GLOBAL_RELAX:
    ir_pr_relax_function(p, g->name, g->u.relax);
    break;
  case IR_GLOBAL_EXTERN:
    ir_pr_indent(p);
    ir_pr_printf(p, "%s = R.ExternFunc(", g->name);
    ir_pr_string(p, g->u.extern_sym);
    ir_pr_puts(p, ")\n");
    break;
  }
  ir_pr_names_reset(p);
}

/* Prints the whole module: the import comments, the class, then the
 * globals in the documented order, a blank line between two globals. */
bool
ir_module_print_dialect(const IrModule *m, IrDialect d, IrBuf *out)
{
  Printer p = {.out = out, .mod = m, .dialect = d};
  if (d == IR_DIALECT_V0_26) {
    ir_pr_scan_moves(&p);
    ir_pr_puts(&p, "# from tvm.script import ir as I\n"
                   "# from tvm.script import tirx as T\n"
                   "# from tvm.tirx.layout import Axis\n"
                   "# from tvm.script import relax as R\n\n");
  } else {
    ir_pr_puts(&p, "# from tvm.script import ir as I\n"
                   "# from tvm.script import tir as T\n"
                   "# from tvm.script import relax as R\n\n");
  }
  ir_pr_printf(&p, "@I.ir_module\nclass %s:\n", m->name ? m->name : "Module");
  p.indent = 1;
  if (m->attrs && !(m->attrs->kind == IR_AT_DICT && m->attrs->u.list.n == 0)) {
    ir_pr_indent(&p);
    ir_pr_puts(&p, "I.module_attrs(");
    ir_pr_attr(&p, m->attrs);
    ir_pr_puts(&p, ")\n");
  }
  if (m->nvdevices > 0)
    print_global_infos(&p, m);
  const IrGlobal **order = ir_xcalloc((size_t)m->nglobals, sizeof *order);
  for (int i = 0; i < m->nglobals; i++)
    order[i] = &m->globals[i];
  qsort(order, (size_t)m->nglobals, sizeof *order, compare_globals);
  for (int i = 0; i < m->nglobals; i++) {
    if (i > 0)
      ir_pr_puts(&p, "\n");
    print_global(&p, order[i]);
  }
  if (m->nglobals == 0 && !m->attrs && m->nvdevices == 0)
    ir_pr_puts(&p, "    pass\n");
  free(order);
  free(p.loops);
  for (int i = 0; i < m->nglobals; i++)
    free(ir_map_get(&p.moved, m->globals[i].name));
  ir_map_free(&p.moved);
  return !p.inexact;
}

void
ir_module_print(const IrModule *m, IrBuf *out)
{
  ir_module_print_dialect(m, IR_DIALECT_V0_23, out);
}

/* A lone expression prints with the Relax literal rule (int64 bare, as in
 * shapes, where most messages use it) and variables by their stored names. */
void
ir_prim_expr_print(const IrPrimExpr *e, IrBuf *out)
{
  Printer p = {.out = out, .raw_names = true};
  ir_pr_prim(&p, e);
}

/* Struct info as in a function body (dims bare); a vdevice prints as its
 * absolute index "vdevice:i", as there is no module to name its kind. */
void
ir_sinfo_print(const IrSInfo *s, IrBuf *out)
{
  Printer p = {.out = out, .raw_names = true};
  ir_pr_sinfo(&p, s);
}
