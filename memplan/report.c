/*
 * report.c - the memory plan as a person (text), a program (JSON) or a
 * picture (SVG) reads it.
 *
 * Key idea: all three formats print the same figures, taken as they are
 * from the MpPlan; nothing is recomputed here except the ratios.  A size
 * below zero means "unbounded" (the plan could not give a number: the
 * arena is then an expression of the dims), and a ratio whose terms are not
 * both known prints as "-" (text) or null (JSON).  Live steps are closed
 * intervals [start, end], as MpStorage states.  The output is a function of
 * the plan only: the same plan gives the same bytes.
 */
#include "mp_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Shared                                                              */
/* ------------------------------------------------------------------ */

static const char *
var_name(const IrExpr *var)
{
  return var && var->kind == IR_EX_VAR ? var->u.var.name : "?";
}

/* The storages' names as the printer gives them: distinct vars that share
 * a name print as "x", "x_1", "x_2", ... in binding order (the order the
 * storages are listed in), so the report names what `rxc opt` prints. */
MpNames
mp_storage_names(const MpStorage *storages, int n)
{
  MpNames nm = {ir_xcalloc((size_t)n + 1, sizeof *nm.names), n, {0}};
  for (int i = 0; i < n; i++)
    nm.names[i] = ir_names_unique(&nm.set, var_name(storages[i].var), "_");
  return nm;
}

/* The names the report gives the storages: the binding that produced each
 * one's bytes (MpStorage.tensor: what the source calls it), else the
 * storage's own var; made distinct the same way. */
static MpNames
binding_names(const MpStorage *storages, int n)
{
  MpNames nm = {ir_xcalloc((size_t)n + 1, sizeof *nm.names), n, {0}};
  for (int i = 0; i < n; i++) {
    const IrExpr *v = storages[i].tensor ? storages[i].tensor : storages[i].var;
    nm.names[i] = ir_names_unique(&nm.set, var_name(v), "_");
  }
  return nm;
}

void
mp_storage_names_free(MpNames *nm)
{
  free(nm->names);
  ir_names_free(&nm->set);
}

/* Is e a size that only the dims decide (not a plain integer)? */
static bool
is_symbolic(const IrPrimExpr *e)
{
  return e && !ir_prim_is_int(e, NULL);
}

/* e printed as TVMScript, into a fresh buffer the caller frees. */
static IrBuf
prim_text(const IrPrimExpr *e)
{
  IrBuf b = {0};
  ir_prim_expr_print(e, &b);
  if (!b.data)
    ir_buf_put(&b, "", 0);
  return b;
}

/* num/den to two decimals; false when either term is unknown (< 0) or the
 * denominator is zero, and then nothing is written. */
static bool
put_ratio(IrBuf *out, int64_t num, int64_t den)
{
  if (num < 0 || den <= 0)
    return false;
  ir_buf_printf(out, "%.2f", (double)num / (double)den);
  return true;
}

/* ------------------------------------------------------------------ */
/* Text                                                                */
/* ------------------------------------------------------------------ */

static void
text_bytes(IrBuf *out, const char *label, int64_t bytes)
{
  if (bytes < 0)
    ir_buf_printf(out, "  %-18s unbounded\n", label);
  else
    ir_buf_printf(out, "  %-18s %lld bytes\n", label, (long long)bytes);
}

static void
text_ratio(IrBuf *out, const char *label, int64_t num, int64_t den)
{
  ir_buf_printf(out, "  %-18s ", label);
  if (!put_ratio(out, num, den))
    ir_buf_puts(out, "-");
  ir_buf_puts(out, "\n");
}

/* Column widths of the storage table: at least the header's. */
static int
name_width(const MpNames *nm, const char *header)
{
  int width = (int)strlen(header);
  for (int i = 0; i < nm->n; i++) {
    int n = (int)strlen(nm->names[i]);
    width = n > width ? n : width;
  }
  return width;
}

/* One row of the storage table: binding, storage, bytes, live steps,
 * offset, then the symbolic size and "in-place" when they apply. */
static void
text_storage(IrBuf *out, const MpStorage *s, const char *const names[2], const int width[2])
{
  ir_buf_printf(out, "  %-*s %-*s ", width[0], names[0], width[1], names[1]);
  if (s->bytes_max < 0)
    ir_buf_printf(out, "%10s", "unbounded");
  else
    ir_buf_printf(out, "%10lld", (long long)s->bytes_max);
  char live[48];
  snprintf(live, sizeof live, "%lld..%lld", (long long)s->start, (long long)s->end);
  ir_buf_printf(out, "  %-10s ", live);
  if (s->offset_expr) {
    IrBuf t = prim_text(s->offset_expr);
    ir_buf_printf(out, "%s", t.data);
    ir_buf_free(&t);
  } else {
    ir_buf_printf(out, "%10lld", (long long)s->offset);
  }
  if (is_symbolic(s->bytes)) {
    IrBuf t = prim_text(s->bytes);
    ir_buf_printf(out, "  bytes = %s", t.data);
    ir_buf_free(&t);
  }
  if (s->inplace)
    ir_buf_puts(out, "  in-place");
  ir_buf_puts(out, "\n");
}

/* The storages, each named by the binding that produced its bytes and by
 * its own var (what `rxc opt` prints). */
static void
text_table(IrBuf *out, const MpFunctionPlan *f)
{
  if (f->nstorages == 0) {
    ir_buf_puts(out, "  no storage in the arena\n");
    return;
  }
  MpNames bn = binding_names(f->storages, f->nstorages);
  MpNames sn = mp_storage_names(f->storages, f->nstorages);
  int width[2] = {name_width(&bn, "binding"), name_width(&sn, "storage")};
  ir_buf_printf(out, "  %-*s %-*s %10s  %-10s %10s\n", width[0], "binding", width[1], "storage",
                "bytes", "live", "offset");
  for (int i = 0; i < f->nstorages; i++) {
    const char *names[2] = {bn.names[i], sn.names[i]};
    text_storage(out, &f->storages[i], names, width);
  }
  mp_storage_names_free(&bn);
  mp_storage_names_free(&sn);
}

static void
text_checks(IrBuf *out, const MpFunctionPlan *f)
{
  ir_buf_printf(out, "  %-18s %d\n", "runtime checks", f->nchecks);
  for (int i = 0; i < f->nchecks; i++) {
    IrBuf t = prim_text(f->checks[i].cond);
    ir_buf_printf(out, "    %s: %s\n", t.data, f->checks[i].what ? f->checks[i].what : "");
    ir_buf_free(&t);
  }
}

static void
text_function(IrBuf *out, const MpFunctionPlan *f)
{
  ir_buf_printf(out, "function %s\n", f->name ? f->name : "?");
  text_table(out, f);
  if (f->arena_expr) {
    IrBuf t = prim_text(f->arena_expr);
    ir_buf_printf(out, "  %-18s %s bytes (computed at run time)\n", "arena", t.data);
    ir_buf_free(&t);
    for (int i = 0; i < f->nunbounded; i++) /* as rxc compile says it */
      ir_buf_printf(out, "%s --set memplan.upper_bound.%s=N%s",
                    i ? "," : "  give a bound for a static arena:", f->unbounded[i],
                    i + 1 == f->nunbounded ? "\n" : "");
  } else {
    text_bytes(out, "arena", f->arena_bytes);
  }
  text_bytes(out, "lower bound", f->lower_bound);
  text_bytes(out, "naive sum", f->naive_sum);
  text_bytes(out, "pooled (TVM)", f->pooled_bytes);
  text_ratio(out, "arena/lower bound", f->arena_bytes, f->lower_bound);
  text_ratio(out, "naive/arena", f->naive_sum, f->arena_bytes);
  text_ratio(out, "pooled/arena", f->pooled_bytes, f->arena_bytes);
  ir_buf_printf(out, "  %-18s %d\n", "in-place reuses", f->ninplace);
  text_checks(out, f);
}

static void
print_text(const MpPlan *p, IrBuf *out)
{
  ir_buf_printf(out, "memory plan: %d function%s, alignment %lld bytes, ", p->nfuncs,
                p->nfuncs == 1 ? "" : "s", (long long)p->align);
  if (p->arena_bytes < 0)
    ir_buf_puts(out, "largest arena unbounded\n");
  else
    ir_buf_printf(out, "largest arena %lld bytes\n", (long long)p->arena_bytes);
  ir_buf_printf(out, "weights (flash): %lld bytes of constants, held as static const\n",
                (long long)p->weights_bytes);
  for (int i = 0; i < p->nfuncs; i++) {
    ir_buf_puts(out, "\n");
    text_function(out, &p->funcs[i]);
  }
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

/* s as a JSON string (quotes, backslashes and control bytes escaped);
 * NULL prints null. */
static void
json_str(IrBuf *out, const char *s)
{
  if (!s) {
    ir_buf_puts(out, "null");
    return;
  }
  ir_buf_puts(out, "\"");
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    if (*c == '"' || *c == '\\')
      ir_buf_printf(out, "\\%c", *c);
    else if (*c < 0x20)
      ir_buf_printf(out, "\\u%04x", *c);
    else
      ir_buf_put(out, c, 1);
  }
  ir_buf_puts(out, "\"");
}

/* A size in bytes; unbounded (< 0) prints null. */
static void
json_bytes(IrBuf *out, const char *key, int64_t v)
{
  ir_buf_printf(out, "\"%s\": ", key);
  if (v < 0)
    ir_buf_puts(out, "null");
  else
    ir_buf_printf(out, "%lld", (long long)v);
}

static void
json_expr(IrBuf *out, const char *key, const IrPrimExpr *e)
{
  ir_buf_printf(out, "\"%s\": ", key);
  if (!e) {
    ir_buf_puts(out, "null");
    return;
  }
  IrBuf t = prim_text(e);
  json_str(out, t.data);
  ir_buf_free(&t);
}

static void
json_ratio(IrBuf *out, const char *key, int64_t num, int64_t den)
{
  ir_buf_printf(out, "\"%s\": ", key);
  if (!put_ratio(out, num, den))
    ir_buf_puts(out, "null");
}

static void
json_storage(IrBuf *out, const MpStorage *s, const char *binding, const char *storage)
{
  ir_buf_puts(out, "{\"binding\": ");
  json_str(out, binding);
  ir_buf_puts(out, ", \"storage\": ");
  json_str(out, storage);
  ir_buf_puts(out, ", ");
  json_bytes(out, "bytes", s->bytes_max);
  ir_buf_puts(out, ", ");
  json_expr(out, "bytes_expr", is_symbolic(s->bytes) ? s->bytes : NULL);
  ir_buf_printf(out, ", \"start\": %lld, \"end\": %lld, ", (long long)s->start,
                (long long)s->end);
  if (s->offset_expr)
    ir_buf_puts(out, "\"offset\": null, ");
  else
    ir_buf_printf(out, "\"offset\": %lld, ", (long long)s->offset);
  json_expr(out, "offset_expr", s->offset_expr);
  ir_buf_printf(out, ", \"inplace\": %s}", s->inplace ? "true" : "false");
}

static void
json_check(IrBuf *out, const MpCheck *c)
{
  ir_buf_puts(out, "{");
  json_expr(out, "cond", c->cond);
  ir_buf_puts(out, ", \"what\": ");
  json_str(out, c->what);
  ir_buf_puts(out, ", \"file\": ");
  json_str(out, c->loc.src ? c->loc.src->name : NULL);
  ir_buf_printf(out, ", \"line\": %d, \"col\": %d}", c->loc.line, c->loc.col);
}

static void
json_figures(IrBuf *out, const MpFunctionPlan *f)
{
  ir_buf_puts(out, "      ");
  json_bytes(out, "arena_bytes", f->arena_bytes);
  ir_buf_puts(out, ",\n      ");
  json_expr(out, "arena_expr", f->arena_expr);
  ir_buf_puts(out, ",\n      ");
  json_bytes(out, "lower_bound", f->lower_bound);
  ir_buf_puts(out, ",\n      ");
  json_bytes(out, "naive_sum", f->naive_sum);
  ir_buf_puts(out, ",\n      ");
  json_bytes(out, "pooled_bytes", f->pooled_bytes);
  ir_buf_puts(out, ",\n      ");
  json_ratio(out, "arena_over_lower_bound", f->arena_bytes, f->lower_bound);
  ir_buf_puts(out, ",\n      ");
  json_ratio(out, "naive_over_arena", f->naive_sum, f->arena_bytes);
  ir_buf_puts(out, ",\n      ");
  json_ratio(out, "pooled_over_arena", f->pooled_bytes, f->arena_bytes);
  ir_buf_printf(out, ",\n      \"inplace_reuses\": %d,\n", f->ninplace);
}

static void
json_function(IrBuf *out, const MpFunctionPlan *f)
{
  ir_buf_puts(out, "    {\n      \"name\": ");
  json_str(out, f->name);
  ir_buf_puts(out, ",\n      \"storages\": [");
  MpNames bn = binding_names(f->storages, f->nstorages);
  MpNames sn = mp_storage_names(f->storages, f->nstorages);
  for (int i = 0; i < f->nstorages; i++) {
    ir_buf_puts(out, i ? ",\n        " : "\n        ");
    json_storage(out, &f->storages[i], bn.names[i], sn.names[i]);
  }
  mp_storage_names_free(&bn);
  mp_storage_names_free(&sn);
  ir_buf_puts(out, f->nstorages ? "\n      ],\n" : "],\n");
  json_figures(out, f);
  ir_buf_puts(out, "      \"checks\": [");
  for (int i = 0; i < f->nchecks; i++) {
    ir_buf_puts(out, i ? ",\n        " : "\n        ");
    json_check(out, &f->checks[i]);
  }
  ir_buf_puts(out, f->nchecks ? "\n      ]\n    }" : "]\n    }");
}

static void
print_json(const MpPlan *p, IrBuf *out)
{
  ir_buf_printf(out, "{\n  \"align\": %lld,\n  ", (long long)p->align);
  json_bytes(out, "arena_bytes", p->arena_bytes);
  ir_buf_printf(out, ",\n  \"weights_bytes\": %lld", (long long)p->weights_bytes);
  ir_buf_puts(out, ",\n  \"functions\": [");
  for (int i = 0; i < p->nfuncs; i++) {
    ir_buf_puts(out, i ? ",\n" : "\n");
    json_function(out, &p->funcs[i]);
  }
  ir_buf_puts(out, p->nfuncs ? "\n  ]\n}\n" : "]\n}\n");
}

/* ------------------------------------------------------------------ */
/* SVG: one panel a function, steps across, bytes up                   */
/* ------------------------------------------------------------------ */

enum {
  SVG_WIDTH = 760,  /* pixels of the whole picture */
  SVG_LEFT = 90,    /* room for the byte labels */
  SVG_RIGHT = 20,
  SVG_TOP = 40,     /* room for the panel's title */
  SVG_PLOT = 260,   /* height of the plot area */
  SVG_BOTTOM = 50,  /* room for the step labels */
  SVG_PANEL = SVG_TOP + SVG_PLOT + SVG_BOTTOM,
  SVG_CHAR = 7,     /* width of a label character, roughly, at 11px */
};

static const char *const svg_fills[] = {
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
};

/* The scales of one panel: steps [0, steps) across, bytes [0, top) up. */
typedef struct {
  int64_t steps; /* > 0 */
  int64_t top;   /* > 0 */
  double y0;     /* pixel row of the panel's top */
} SvgScale;

/* Can s be drawn: a known size at a known offset? */
static bool
svg_drawable(const MpStorage *s)
{
  return s->bytes_max > 0 && !s->offset_expr && s->offset >= 0 && s->end >= s->start;
}

static double
svg_x(const SvgScale *sc, int64_t step)
{
  return SVG_LEFT + (double)step * (SVG_WIDTH - SVG_LEFT - SVG_RIGHT) / (double)sc->steps;
}

static double
svg_y(const SvgScale *sc, int64_t bytes)
{
  return sc->y0 + SVG_TOP + SVG_PLOT - (double)bytes * SVG_PLOT / (double)sc->top;
}

/* Text with &, < and > escaped (names are identifiers, but be safe). */
static void
svg_escaped(IrBuf *out, const char *s)
{
  for (; *s; s++) {
    if (*s == '&')
      ir_buf_puts(out, "&amp;");
    else if (*s == '<')
      ir_buf_puts(out, "&lt;");
    else if (*s == '>')
      ir_buf_puts(out, "&gt;");
    else if (*s == '"')
      ir_buf_puts(out, "&quot;");
    else
      ir_buf_put(out, s, 1);
  }
}

static SvgScale
svg_scale(const MpFunctionPlan *f, double y0)
{
  SvgScale sc = {.steps = 1, .top = 1, .y0 = y0};
  if (f->arena_bytes > sc.top)
    sc.top = f->arena_bytes;
  if (f->lower_bound > sc.top)
    sc.top = f->lower_bound;
  for (int i = 0; i < f->nstorages; i++) {
    const MpStorage *s = &f->storages[i];
    if (!svg_drawable(s))
      continue;
    if (s->end + 1 > sc.steps)
      sc.steps = s->end + 1;
    if (s->offset + s->bytes_max > sc.top)
      sc.top = s->offset + s->bytes_max;
  }
  return sc;
}

/* The frame, the ticks and the axis labels of one panel. */
static void
svg_axes(IrBuf *out, const SvgScale *sc)
{
  double bottom = svg_y(sc, 0), right = svg_x(sc, sc->steps);
  ir_buf_printf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                SVG_LEFT, bottom, right, bottom);
  ir_buf_printf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\"/>\n",
                SVG_LEFT, bottom, SVG_LEFT, svg_y(sc, sc->top));
  int64_t every = (sc->steps + 9) / 10; /* at most ten step labels */
  double half = (svg_x(sc, 1) - svg_x(sc, 0)) / 2;
  for (int64_t t = 0; t < sc->steps; t += every) /* a step is a column */
    ir_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%lld</text>\n",
                  svg_x(sc, t) + half, bottom + 15, (long long)t);
  for (int i = 0; i <= 4; i++) {
    int64_t b = sc->top * i / 4;
    ir_buf_printf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%lld</text>\n",
                  SVG_LEFT - 5, svg_y(sc, b) + 4, (long long)b);
  }
  ir_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">steps</text>\n",
                (SVG_LEFT + right) / 2, bottom + 35);
  ir_buf_printf(out,
                "<text x=\"15\" y=\"%.1f\" text-anchor=\"middle\" "
                "transform=\"rotate(-90 15 %.1f)\">bytes</text>\n",
                svg_y(sc, sc->top / 2), svg_y(sc, sc->top / 2));
}

/* One storage: a rectangle over its live steps and its bytes, with a
 * tooltip naming its binding and storage var, and its binding inside when
 * the name fits. */
static void
svg_storage(IrBuf *out, const SvgScale *sc, const MpStorage *s, const char *name,
            const char *storage, int index)
{
  double x = svg_x(sc, s->start), w = svg_x(sc, s->end + 1) - x;
  double y = svg_y(sc, s->offset + s->bytes_max), h = svg_y(sc, s->offset) - y;
  ir_buf_printf(out,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                "stroke=\"#333\"><title>",
                x, y, w, h, svg_fills[index % (int)(sizeof svg_fills / sizeof svg_fills[0])]);
  svg_escaped(out, name);
  ir_buf_puts(out, " (");
  svg_escaped(out, storage);
  ir_buf_printf(out, "): %lld bytes at offset %lld, steps %lld..%lld%s</title></rect>\n",
                (long long)s->bytes_max, (long long)s->offset, (long long)s->start,
                (long long)s->end, s->inplace ? ", in place" : "");
  if ((double)strlen(name) * SVG_CHAR + 4 <= w && h >= 13) {
    ir_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x + w / 2,
                  y + h / 2 + 4);
    svg_escaped(out, name);
    ir_buf_puts(out, "</text>\n");
  }
}

/* The lower bound as a dashed line across the panel, labelled. */
static void
svg_lower_bound(IrBuf *out, const SvgScale *sc, int64_t lower)
{
  if (lower < 0)
    return;
  double y = svg_y(sc, lower);
  ir_buf_printf(out,
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c00\" "
                "stroke-dasharray=\"6 4\"/>\n",
                SVG_LEFT, y, svg_x(sc, sc->steps), y);
  ir_buf_printf(out,
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#c00\">lower bound "
                "%lld</text>\n",
                svg_x(sc, sc->steps), y - 3, (long long)lower);
}

static void
svg_title(IrBuf *out, const MpFunctionPlan *f, double y0, int undrawn)
{
  ir_buf_printf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"13\">", SVG_LEFT, y0 + 20);
  svg_escaped(out, f->name ? f->name : "?");
  if (f->arena_bytes >= 0)
    ir_buf_printf(out, ": arena %lld bytes", (long long)f->arena_bytes);
  if (f->arena_bytes >= 0 && f->lower_bound >= 0)
    ir_buf_printf(out, ", lower bound %lld", (long long)f->lower_bound);
  else
    ir_buf_puts(out, ": arena unbounded (computed at run time)");
  if (undrawn > 0)
    ir_buf_printf(out, "; %d symbolic storage%s not drawn", undrawn, undrawn == 1 ? "" : "s");
  ir_buf_puts(out, "</text>\n");
}

static void
svg_function(IrBuf *out, const MpFunctionPlan *f, double y0)
{
  SvgScale sc = svg_scale(f, y0);
  int undrawn = 0;
  for (int i = 0; i < f->nstorages; i++)
    undrawn += !svg_drawable(&f->storages[i]);
  svg_title(out, f, y0, undrawn);
  svg_axes(out, &sc);
  MpNames bn = binding_names(f->storages, f->nstorages);
  MpNames sn = mp_storage_names(f->storages, f->nstorages);
  for (int i = 0; i < f->nstorages; i++)
    if (svg_drawable(&f->storages[i]))
      svg_storage(out, &sc, &f->storages[i], bn.names[i], sn.names[i], i);
  mp_storage_names_free(&bn);
  mp_storage_names_free(&sn);
  svg_lower_bound(out, &sc, f->lower_bound);
}

static void
print_svg(const MpPlan *p, IrBuf *out)
{
  int panels = p->nfuncs > 0 ? p->nfuncs : 1;
  int height = panels * SVG_PANEL;
  ir_buf_printf(out,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "viewBox=\"0 0 %d %d\" font-family=\"monospace\" font-size=\"11\">\n",
                SVG_WIDTH, height, SVG_WIDTH, height);
  ir_buf_printf(out, "<title>rxc memory plan (weights: %lld bytes)</title>\n",
                (long long)p->weights_bytes);
  if (p->nfuncs == 0)
    ir_buf_printf(out, "<text x=\"%d\" y=\"%d\">no function to plan</text>\n", SVG_LEFT,
                  SVG_TOP);
  for (int i = 0; i < p->nfuncs; i++)
    svg_function(out, &p->funcs[i], (double)i * SVG_PANEL);
  ir_buf_puts(out, "</svg>\n");
}

/* ------------------------------------------------------------------ */

void
mp_plan_print(const MpPlan *p, MpFormat format, IrBuf *out)
{
  switch (format) {
  case MP_FORMAT_TEXT:
    print_text(p, out);
    break;
  case MP_FORMAT_JSON:
    print_json(p, out);
    break;
  case MP_FORMAT_SVG:
    print_svg(p, out);
    break;
  }
}
