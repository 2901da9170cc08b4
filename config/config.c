/*
 * config.c - the build configuration: defaults, one INI file read with
 * inih, command-line overrides, and printing the effective options.
 *
 * Key idea: one table (keys[]) names every key, its section, its value type
 * and the field it sets.  Loading a file, `--set section.key=value` and
 * printing all walk that table, so a key cannot be read one way and printed
 * another, and the printed text reads back to the same options.
 *
 * inih gives the handler neither line numbers nor more than the first
 * syntax error, so cfg_load feeds it the file through its own line reader:
 * the reader counts lines (the handler runs right after the reader returned
 * the key's line) and can stand a blank line in for one inih rejected.  The
 * file is parsed once per syntax error to find them all (each round blanks
 * the line inih named), then a last round reports every error in line
 * order and sets the options.  This is the only file that includes <ini.h>.
 *
 * passes_add and passes_remove hold pass names, checked against opt's
 * table here (where the file and column of a bad name are known); the
 * road (api/road.c) turns them into the pipeline it runs.
 */
#include <errno.h>
#include <ini.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "../opt/opt.h" /* the pass names passes_add/passes_remove may hold */

typedef enum {
  KEY_ENUM,   /* enum field; words[i] spells value i */
  KEY_INT,    /* int field in [min, max] */
  KEY_ALIGN,  /* int field: a power of two in [min, max] */
  KEY_WIDTH,  /* int field: a power of two in [min, max], or words[0] ("auto") for 0 */
  KEY_INT64,  /* int64_t field in [min, max] */
  KEY_BYTES,  /* int64_t field in [min, max]; suffix k, M, G multiplies by 1024^n */
  KEY_BOOL,   /* bool field; printed as words[0] (false) or words[1] (true) */
  KEY_IDENT,  /* char[CFG_NAME_MAX]: a C identifier, or empty */
  KEY_TEXT,   /* char[CFG_TEXT_MAX]: one line of text */
  KEY_PASSES, /* char[CFG_MAX_PASSES][CFG_NAME_MAX]: pass names, the count at count_offset */
} KeyType;

typedef struct {
  const char *section; /* "opt" */
  const char *name;    /* "level" */
  KeyType type;
  size_t offset;            /* of the field in CfgOptions */
  size_t count_offset;      /* KEY_PASSES: of the int count */
  const char *const *words; /* KEY_ENUM, KEY_BOOL: NULL-terminated spellings */
  int64_t min, max;         /* KEY_INT, KEY_ALIGN, KEY_INT64, KEY_BYTES */
} CfgKey;

/* Enum fields are written through int *: each enum must be int-sized. */
_Static_assert(sizeof(CfgTargetKind) == sizeof(int), "enum size");
_Static_assert(sizeof(CfgIsa) == sizeof(int), "enum size");
_Static_assert(sizeof(CfgPlanAlgorithm) == sizeof(int), "enum size");
_Static_assert(sizeof(CfgWeights) == sizeof(int), "enum size");
_Static_assert(sizeof(CfgLibm) == sizeof(int), "enum size");
_Static_assert(sizeof(CfgJitCompiler) == sizeof(int), "enum size");
_Static_assert(sizeof(CfgRows) == sizeof(int), "enum size");

static const char *const sections[] = {"target", "opt", "memplan", "codegen", "jit", "print", NULL};

static const char *const kind_words[] = {"host", "cortex-m", "riscv", NULL};
static const char *const isa_words[] = {"none",      "native",    "x86-64",   "x86-64-v2",
                                        "x86-64-v3", "x86-64-v4", "armv7e-m", NULL}; /* CfgIsa's order */
static const char *const auto_words[] = {"auto", NULL};
static const char *const plan_words[] = {"best",          "greedy_size", "greedy_breadth",
                                         "exact",         "pooled",      "greedy_length",
                                         "greedy_area",   "greedy_glow", "best_fit",
                                         "local",         NULL};
static const char *const weights_words[] = {"inline", "separate", "bytes", "blob", NULL};
static const char *const libm_words[] = {"builtin", "system", NULL};
static const char *const rows_words[] = {"auto", "on", "off", NULL}; /* CfgRows' order */
static const char *const jit_words[] = {"tcc", "cc", NULL};
static const char *const bool_words[] = {"false", "true", NULL};
static const char *const onoff_words[] = {"off", "on", NULL};
static const char *const dialect_words[] = {"v0.23", "v0.26", NULL}; /* IrDialect's order */

#define FIELD(f) offsetof(CfgOptions, f)

static const CfgKey keys[] = {
    {"target", "kind", KEY_ENUM, FIELD(target.kind), 0, kind_words, 0, 0},
    {"target", "alignment", KEY_ALIGN, FIELD(target.alignment), 0, NULL, 1, 4096},
    {"target", "vector_bytes", KEY_WIDTH, FIELD(target.vector_bytes), 0, auto_words, 1, 256},
    {"target", "isa", KEY_ENUM, FIELD(target.isa), 0, isa_words, 0, 0},
    {"target", "cc", KEY_TEXT, FIELD(target.cc), 0, NULL, 0, 0},
    {"opt", "level", KEY_INT, FIELD(opt.level), 0, NULL, 0, OPT_LEVEL_MAX},
    {"opt", "passes_add", KEY_PASSES, FIELD(opt.passes_add), FIELD(opt.npasses_add), NULL, 0, 0},
    {"opt", "passes_remove", KEY_PASSES, FIELD(opt.passes_remove), FIELD(opt.npasses_remove), NULL,
     0, 0},
    {"opt", "verify_each", KEY_BOOL, FIELD(opt.verify_each), 0, bool_words, 0, 0},
    {"opt", "kernels", KEY_BOOL, FIELD(opt.kernels), 0, bool_words, 0, 0},
    {"memplan", "algorithm", KEY_ENUM, FIELD(memplan.algorithm), 0, plan_words, 0, 0},
    {"memplan", "arena_limit", KEY_BYTES, FIELD(memplan.arena_limit), 0, NULL, 0, INT64_MAX},
    {"memplan", "default_upper_bound", KEY_INT64, FIELD(memplan.default_upper_bound), 0, NULL, 0,
     INT64_MAX},
    {"memplan", "budget_ms", KEY_INT64, FIELD(memplan.budget_ms), 0, NULL, 1, 3600000},
    {"memplan", "require_static", KEY_BOOL, FIELD(memplan.require_static), 0, bool_words, 0, 0},
    {"codegen", "prefix", KEY_IDENT, FIELD(codegen.prefix), 0, NULL, 0, 0},
    {"codegen", "weights", KEY_ENUM, FIELD(codegen.weights), 0, weights_words, 0, 0},
    {"codegen", "libm", KEY_ENUM, FIELD(codegen.libm), 0, libm_words, 0, 0},
    {"codegen", "checks", KEY_BOOL, FIELD(codegen.checks), 0, onoff_words, 0, 0},
    {"codegen", "poison", KEY_BOOL, FIELD(codegen.poison), 0, bool_words, 0, 0},
    {"codegen", "rows", KEY_ENUM, FIELD(codegen.rows), 0, rows_words, 0, 0},
    {"jit", "compiler", KEY_ENUM, FIELD(jit.compiler), 0, jit_words, 0, 0},
    {"jit", "cc_flags", KEY_TEXT, FIELD(jit.cc_flags), 0, NULL, 0, 0},
    {"print", "dialect", KEY_ENUM, FIELD(print.dialect), 0, dialect_words, 0, 0},
};

enum { NKEYS = (int)(sizeof keys / sizeof keys[0]) };

/* [memplan] upper_bound.NAME: not in keys[], because NAME is free. */
static const char bound_prefix[] = "upper_bound.";
enum { BOUND_PREFIX_LEN = sizeof bound_prefix - 1 };

void
cfg_defaults(CfgOptions *o)
{
  memset(o, 0, sizeof *o);
  o->target.kind = CFG_TARGET_HOST;
  o->target.alignment = 64;
  o->target.vector_bytes = 0;
  o->target.isa = CFG_ISA_NONE;
  strcpy(o->target.cc, "cc");
  o->opt.level = 2;
  o->opt.kernels = true;
  o->memplan.algorithm = CFG_PLAN_BEST;
  o->memplan.budget_ms = 1000;
  o->codegen.weights = CFG_WEIGHTS_INLINE;
  o->codegen.libm = CFG_LIBM_BUILTIN;
  o->codegen.checks = true;
  o->jit.compiler = CFG_JIT_TCC;
  strcpy(o->jit.cc_flags, "auto");
  o->print.dialect = IR_DIALECT_DEFAULT;
}

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

static bool
is_blank(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static bool
is_ident(const char *s)
{
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return false;
  for (s++; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_'))
      return false;
  return true;
}

static int
word_index(const char *const *words, const char *s)
{
  for (int i = 0; words[i]; i++)
    if (strcmp(words[i], s) == 0)
      return i;
  return -1;
}

/* Parses a decimal integer, with a k/M/G suffix (x1024^n) when suffix is
 * set; false on anything else or on overflow of int64_t. */
static bool
parse_int64(const char *s, bool suffix, int64_t *out)
{
  if (!((s[0] >= '0' && s[0] <= '9') || (s[0] == '-' && s[1] >= '0' && s[1] <= '9')))
    return false;
  errno = 0;
  char *end;
  long long v = strtoll(s, &end, 10);
  if (errno == ERANGE)
    return false;
  int64_t mult = 1;
  if (suffix && *end && strchr("kKmMgG", *end)) {
    mult = *end == 'k' || *end == 'K'   ? 1024
           : *end == 'm' || *end == 'M' ? 1024 * 1024
                                        : 1024 * 1024 * 1024;
    end++;
  }
  if (*end || v > INT64_MAX / mult || v < INT64_MIN / mult)
    return false;
  *out = (int64_t)v * mult;
  return true;
}

static bool
parse_bool(const char *s, bool *out)
{
  static const char *const yes[] = {"true", "on", "yes", "1", NULL};
  static const char *const no[] = {"false", "off", "no", "0", NULL};
  if (word_index(yes, s) >= 0)
    *out = true;
  else if (word_index(no, s) >= 0)
    *out = false;
  else
    return false;
  return true;
}

/* Whether s can be written as a value and read back unchanged: no control
 * character, and nothing inih would take for an inline comment. */
static bool
is_text(const char *s)
{
  if (strlen(s) >= CFG_TEXT_MAX || s[0] == ';')
    return false;
  for (const char *p = s; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f || (*p == ';' && is_blank(p[-1])))
      return false;
  return true;
}

/* What a value of key k must be, for the error message. */
static void
expectation(const CfgKey *k, IrBuf *b)
{
  switch (k->type) {
  case KEY_ENUM:
    ir_buf_puts(b, "one of ");
    for (int i = 0; k->words[i]; i++)
      ir_buf_printf(b, "%s%s", i ? ", " : "", k->words[i]);
    break;
  case KEY_BOOL:
    ir_buf_puts(b, "a boolean: true/false, on/off, yes/no or 1/0");
    break;
  case KEY_INT:
    ir_buf_printf(b, "an integer from %lld to %lld", (long long)k->min, (long long)k->max);
    break;
  case KEY_ALIGN:
    ir_buf_printf(b, "a power of two from %lld to %lld", (long long)k->min, (long long)k->max);
    break;
  case KEY_WIDTH:
    ir_buf_printf(b, "a power of two from %lld to %lld, or %s", (long long)k->min,
                  (long long)k->max, k->words[0]);
    break;
  case KEY_INT64:
    ir_buf_printf(b, "an integer >= %lld", (long long)k->min);
    break;
  case KEY_BYTES:
    ir_buf_printf(b, "a byte count >= %lld (suffix k, M or G: KiB, MiB, GiB)", (long long)k->min);
    break;
  case KEY_IDENT:
    ir_buf_printf(b, "a C identifier of at most %d characters, or nothing", CFG_NAME_MAX - 1);
    break;
  case KEY_TEXT:
    ir_buf_printf(b, "one line of at most %d characters, without ' ;' (a comment)",
                  CFG_TEXT_MAX - 1);
    break;
  case KEY_PASSES:
    ir_buf_puts(b, "pass names separated by commas");
    break;
  }
}

static void
bad_value(IrCtx *ctx, IrLoc loc, const CfgKey *k, const char *value)
{
  IrBuf want = {0};
  expectation(k, &want);
  ir_error(ctx, loc, "bad value '%s' for key '%s' in section [%s]: expected %s", value, k->name,
           k->section, want.data);
  ir_buf_free(&want);
}

/* A note listing every pass, after an unknown pass name. */
static void
note_passes(IrCtx *ctx, IrLoc loc)
{
  IrBuf b = {0};
  for (int i = 0; opt_pass_at(i); i++)
    ir_buf_printf(&b, "%s%s", i ? ", " : "", opt_pass_at(i)->name);
  IrLoc file = {.src = loc.src};
  ir_note(ctx, file, "the passes are %s", b.data);
  ir_buf_free(&b);
}

/* Whether the len bytes at p name a pass (opt's table: the names are
 * checked here, where the key's file and column are known; the road
 * resolves them to passes when it runs the pipeline). */
static bool
is_pass(const char *p, size_t len)
{
  char name[CFG_NAME_MAX];
  if (len >= sizeof name)
    return false;
  memcpy(name, p, len);
  name[len] = '\0';
  return opt_pass_find(name) != NULL;
}

/* Parses a comma-separated list of pass names into list/count.  loc is the
 * value's; an unknown name is reported at its own column. */
static bool
parse_passes(IrCtx *ctx, IrLoc loc, const CfgKey *k, const char *value,
             char (*list)[CFG_NAME_MAX], int *count)
{
  char names[CFG_MAX_PASSES][CFG_NAME_MAX];
  int n = 0;
  const char *p = value;
  while (is_blank(*p))
    p++;
  while (*p) {
    while (is_blank(*p))
      p++;
    size_t len = strcspn(p, ",");
    size_t trimmed = len;
    while (trimmed > 0 && is_blank(p[trimmed - 1]))
      trimmed--;
    if (trimmed == 0) {
      bad_value(ctx, loc, k, value);
      return false;
    }
    IrLoc at = loc;
    if (at.line > 0)
      at.col += (int)(p - value);
    if (!is_pass(p, trimmed)) {
      ir_error(ctx, at, "unknown pass '%.*s' in key '%s' of section [%s]", (int)trimmed, p, k->name,
               k->section);
      note_passes(ctx, loc);
      return false;
    }
    if (n == CFG_MAX_PASSES) {
      ir_error(ctx, at, "too many passes in key '%s' (at most %d)", k->name, CFG_MAX_PASSES);
      return false;
    }
    memcpy(names[n], p, trimmed);
    names[n++][trimmed] = '\0';
    p += len;
    if (*p == ',' && !p[1 + strspn(p + 1, " \t")]) {
      bad_value(ctx, loc, k, value); /* a trailing comma */
      return false;
    }
    if (*p)
      p++;
  }
  memcpy(list, names, sizeof names);
  *count = n;
  return true;
}

/* Sets field k of o from value; reports a bad value at loc and returns
 * false, leaving the field unchanged. */
static bool
apply_key(IrCtx *ctx, CfgOptions *o, const CfgKey *k, const char *value, IrLoc loc)
{
  char *field = (char *)o + k->offset;
  int64_t v = 0;
  bool b = false;
  bool ok = true;
  switch (k->type) {
  case KEY_ENUM:
    v = word_index(k->words, value);
    ok = v >= 0;
    if (ok)
      *(int *)field = (int)v;
    break;
  case KEY_INT:
  case KEY_ALIGN:
  case KEY_WIDTH:
    if (k->type == KEY_WIDTH && strcmp(value, k->words[0]) == 0) {
      *(int *)field = 0;
      break;
    }
    ok = parse_int64(value, false, &v) && v >= k->min && v <= k->max &&
         (k->type == KEY_INT || (v & (v - 1)) == 0);
    if (ok)
      *(int *)field = (int)v;
    break;
  case KEY_INT64:
  case KEY_BYTES:
    ok = parse_int64(value, k->type == KEY_BYTES, &v) && v >= k->min && v <= k->max;
    if (ok)
      *(int64_t *)field = v;
    break;
  case KEY_BOOL:
    ok = parse_bool(value, &b);
    if (ok)
      *(bool *)field = b;
    break;
  case KEY_IDENT:
    ok = (!*value || is_ident(value)) && strlen(value) < CFG_NAME_MAX;
    if (ok)
      strcpy(field, value);
    break;
  case KEY_TEXT:
    ok = is_text(value);
    if (ok)
      strcpy(field, value);
    break;
  case KEY_PASSES:
    return parse_passes(ctx, loc, k, value, (char (*)[CFG_NAME_MAX])(void *)field,
                        (int *)(void *)((char *)o + k->count_offset));
  }
  if (!ok)
    bad_value(ctx, loc, k, value);
  return ok;
}

/* The index of dim's bound in o, or -1. */
static int
find_bound(const CfgOptions *o, const char *dim)
{
  for (int i = 0; i < o->memplan.nupper_bounds; i++)
    if (strcmp(o->memplan.upper_bounds[i].name, dim) == 0)
      return i;
  return -1;
}

/* Sets [memplan] upper_bound.DIM (replacing an earlier bound of DIM). */
static bool
apply_bound(IrCtx *ctx, CfgOptions *o, const char *dim, const char *value, IrLoc kloc, IrLoc vloc)
{
  if (!is_ident(dim) || strlen(dim) >= CFG_NAME_MAX) {
    ir_error(ctx, kloc, "bad dimension name '%s' in key '%s%s': expected an identifier", dim,
             bound_prefix, dim);
    return false;
  }
  int64_t v;
  if (!parse_int64(value, false, &v) || v < 1) {
    ir_error(ctx, vloc,
             "bad value '%s' for key '%s%s' in section [memplan]: expected an integer >= 1", value,
             bound_prefix, dim);
    return false;
  }
  int i = find_bound(o, dim);
  if (i < 0 && o->memplan.nupper_bounds == CFG_MAX_BOUNDS) {
    ir_error(ctx, kloc, "too many upper_bound entries (at most %d)", CFG_MAX_BOUNDS);
    return false;
  }
  if (i < 0) {
    i = o->memplan.nupper_bounds++;
    strcpy(o->memplan.upper_bounds[i].name, dim);
  }
  o->memplan.upper_bounds[i].bound = v;
  return true;
}

static const CfgKey *
find_key(const char *section, const char *name)
{
  for (int i = 0; i < NKEYS; i++)
    if (strcmp(keys[i].section, section) == 0 && strcmp(keys[i].name, name) == 0)
      return &keys[i];
  return NULL;
}

static bool
is_bound_key(const char *section, const char *name)
{
  return strcmp(section, "memplan") == 0 && strncmp(name, bound_prefix, BOUND_PREFIX_LEN) == 0;
}

static void
unknown_section(IrCtx *ctx, IrLoc loc, const char *section)
{
  ir_error(ctx, loc, "unknown section [%s]", section);
  IrLoc file = {.src = loc.src};
  ir_note(ctx, file, "the sections are [target], [opt], [memplan], [codegen], [jit]");
}

static void
unknown_key(IrCtx *ctx, IrLoc loc, const char *section, const char *name)
{
  ir_error(ctx, loc, "unknown key '%s' in section [%s]", name, section);
  IrBuf b = {0};
  for (int i = 0; i < NKEYS; i++)
    if (strcmp(keys[i].section, section) == 0)
      ir_buf_printf(&b, "%s%s", b.len ? ", " : "", keys[i].name);
  if (strcmp(section, "memplan") == 0)
    ir_buf_printf(&b, ", %sNAME", bound_prefix);
  IrLoc file = {.src = loc.src};
  ir_note(ctx, file, "the keys of [%s] are %s", section, b.data);
  ir_buf_free(&b);
}

/* Sets section.name = value in o (section known); kloc and vloc locate the
 * key and the value for errors. */
static bool
set_at(IrCtx *ctx, CfgOptions *o, const char *section, const char *name, const char *value,
       IrLoc kloc, IrLoc vloc)
{
  if (is_bound_key(section, name))
    return apply_bound(ctx, o, name + BOUND_PREFIX_LEN, value, kloc, vloc);
  const CfgKey *k = find_key(section, name);
  if (!k) {
    unknown_key(ctx, kloc, section, name);
    return false;
  }
  return apply_key(ctx, o, k, value, vloc);
}

bool
cfg_set(IrCtx *ctx, CfgOptions *o, const char *section, const char *key, const char *value)
{
  IrLoc none = {0};
  if (word_index(sections, section) < 0) {
    unknown_section(ctx, none, section);
    return false;
  }
  while (is_blank(*value))
    value++;
  size_t len = strlen(value);
  while (len > 0 && is_blank(value[len - 1]))
    len--;
  char *trimmed = ir_xmalloc(len + 1);
  memcpy(trimmed, value, len);
  trimmed[len] = '\0';
  CfgOptions copy = *o;
  bool ok = set_at(ctx, &copy, section, key, trimmed, none, none);
  if (ok)
    *o = copy;
  free(trimmed);
  return ok;
}

bool
cfg_set_arg(IrCtx *ctx, CfgOptions *o, const char *arg)
{
  IrLoc none = {0};
  const char *dot = strchr(arg, '.');
  const char *eq = strchr(arg, '=');
  if (!dot || !eq || dot > eq || dot == arg || eq == dot + 1) {
    ir_error(ctx, none, "bad --set '%s': expected section.key=value", arg);
    return false;
  }
  char section[CFG_NAME_MAX], key[CFG_NAME_MAX + 16];
  size_t slen = (size_t)(dot - arg), klen = (size_t)(eq - dot - 1);
  if (slen >= sizeof section || klen >= sizeof key) {
    ir_error(ctx, none, "bad --set '%s': section or key too long", arg);
    return false;
  }
  memcpy(section, arg, slen);
  section[slen] = '\0';
  memcpy(key, dot + 1, klen);
  key[klen] = '\0';
  return cfg_set(ctx, o, section, key, eq + 1);
}

/* ------------------------------------------------------------------ */
/* Loading a file                                                      */
/* ------------------------------------------------------------------ */

enum { MAX_SYNTAX_ERRORS = 20 };

/* What the reader and the handler share while inih parses one file. */
typedef struct {
  IrCtx *ctx;
  CfgOptions *o;                 /* the copy being filled */
  const IrSource *src;           /* the file, for locations */
  char *text;                    /* copy of src->text with syntax-error lines blanked */
  size_t pos;                    /* next byte of text to read */
  int line;                      /* number of the line last handed to inih */
  const char *line_text;         /* that line in src->text */
  const char *line_body;         /* line_text after a byte order mark */
  bool report;                   /* last round: report errors and set options */
  bool after_key;                /* inih remembers a key: an indented line continues it */
  bool continuation;             /* the current line is such a continuation */
  bool section_ok;               /* the current section is known (or none yet) */
  int syntax[MAX_SYNTAX_ERRORS]; /* lines inih rejected, ascending */
  int nsyntax;
  int key_line[NKEYS];            /* where each key was set, 0 = not yet */
  int bound_line[CFG_MAX_BOUNDS]; /* where each upper bound was set */
} Loader;

static IrLoc
loc_at(const Loader *st, const char *p)
{
  IrLoc loc = {.src = st->src, .line = st->line, .col = (int)(p - st->line_text) + 1};
  return loc;
}

static bool
is_syntax_line(const Loader *st, int line)
{
  for (int i = 0; i < st->nsyntax; i++)
    if (st->syntax[i] == line)
      return true;
  return false;
}

/* Reports the error of a line inih rejected, saying what is wrong. */
static void
report_syntax(Loader *st, const char *p)
{
  if (*p == '[')
    ir_error(st->ctx, loc_at(st, p), "syntax error: '[' without a closing ']'");
  else
    ir_error(st->ctx, loc_at(st, p),
             "syntax error: expected 'key = value', '[section]' or a comment");
}

/* Follows the section headers inih will see, as inih finds them: a line
 * whose first non-blank is '[' (unless it continues a value), closed by
 * the first ']' before an inline comment.  Reports unknown sections. */
static void
track_section(Loader *st, const char *p, const char *eol)
{
  st->continuation = st->after_key && p > st->line_body && p < eol && *p != ';' && *p != '#';
  if (st->continuation || p == eol || *p != '[')
    return;
  const char *close = p + 1;
  bool was_space = false;
  while (close < eol && *close != ']' && !(was_space && *close == ';')) {
    was_space = is_blank(*close);
    close++;
  }
  if (close == eol || *close != ']')
    return; /* a syntax error */
  st->after_key = false;
  char name[CFG_NAME_MAX];
  int len = (int)(close - p - 1);
  snprintf(name, sizeof name, "%.*s", len, p + 1);
  st->section_ok = len < CFG_NAME_MAX && word_index(sections, name) >= 0;
  if (!st->section_ok)
    ir_error(st->ctx, loc_at(st, p), "unknown section [%.*s]", len, p + 1);
  if (!st->section_ok)
    ir_note(st->ctx, (IrLoc){.src = st->src},
            "the sections are [target], [opt], [memplan], [codegen], [jit]");
}

/* inih's line reader over st->text: one whole line per call.  A line too
 * long for inih's buffer, or one it rejected in an earlier round, is given
 * as an empty line (and reported in the last round). */
static char *
read_line(char *str, int num, void *stream)
{
  Loader *st = stream;
  if (st->pos >= st->src->len)
    return NULL;
  const char *start = st->text + st->pos;
  const char *nl = memchr(start, '\n', st->src->len - st->pos);
  size_t n = nl ? (size_t)(nl - start) + 1 : st->src->len - st->pos;
  st->line++;
  st->line_text = st->src->text + st->pos;
  st->line_body = st->line_text;
  if (st->line == 1 && n >= 3 && memcmp(start, "\xEF\xBB\xBF", 3) == 0)
    st->line_body += 3; /* inih skips a UTF-8 byte order mark */
  st->pos += n;
  st->continuation = false;
  bool too_long = n + 1 >= (size_t)num;
  const char *p = st->line_body, *eol = st->line_text + (nl ? n - 1 : n);
  while (p < eol && is_blank(*p))
    p++;
  if (st->report && too_long)
    ir_error(st->ctx, loc_at(st, st->line_text), "line longer than %d characters", num - 3);
  else if (st->report && is_syntax_line(st, st->line))
    report_syntax(st, p);
  else if (st->report)
    track_section(st, p, eol);
  if (too_long) {
    strcpy(str, "\n");
    return str;
  }
  memcpy(str, start, n);
  str[n] = '\0';
  return str;
}

/* Reports a key given twice in the file; records where it was set. */
static bool
first_setting(Loader *st, const char *section, const char *name, IrLoc kloc)
{
  int *where = NULL;
  const CfgKey *k = find_key(section, name);
  if (k) {
    where = &st->key_line[k - keys];
  } else if (is_bound_key(section, name)) {
    int i = find_bound(st->o, name + BOUND_PREFIX_LEN);
    if (i < 0)
      return true; /* new: recorded by the caller after it is set */
    where = &st->bound_line[i];
  }
  if (!where || *where == 0)
    return true;
  ir_error(st->ctx, kloc, "duplicate key '%s' in section [%s]", name, section);
  ir_note(st->ctx, (IrLoc){.src = st->src, .line = *where, .col = 1}, "first set here");
  return false;
}

static void
record_setting(Loader *st, const char *section, const char *name)
{
  const CfgKey *k = find_key(section, name);
  if (k)
    st->key_line[k - keys] = st->line;
  else if (is_bound_key(section, name) && find_bound(st->o, name + BOUND_PREFIX_LEN) >= 0)
    st->bound_line[find_bound(st->o, name + BOUND_PREFIX_LEN)] = st->line;
}

/* inih's handler: one key of the current line.  Always returns 1, so the
 * only errors inih counts are syntax errors. */
static int
handle_key(void *user, const char *section, const char *name, const char *value)
{
  Loader *st = user;
  if (!st->report)
    return 1;
  const char *key = st->line_body;
  while (is_blank(*key))
    key++;
  IrLoc kloc = loc_at(st, key);
  if (st->continuation) {
    ir_error(st->ctx, kloc,
             "indented line continues the value of key '%s'; start each key at the "
             "beginning of its line",
             name);
    return 1;
  }
  st->after_key = true;
  if (!st->section_ok)
    return 1; /* reported at its header */
  if (!*section) {
    ir_error(st->ctx, kloc, "key '%s' outside any section; put it under its [section]", name);
    return 1;
  }
  const char *v = key + strcspn(key, "=:");
  if (*v)
    v++;
  while (*v != '\n' && is_blank(*v))
    v++;
  if (first_setting(st, section, name, kloc) &&
      set_at(st->ctx, st->o, section, name, value, kloc, loc_at(st, v)))
    record_setting(st, section, name);
  return 1;
}

/* Blanks line `line` of text (keeping its newline). */
static void
blank_line(char *text, int line)
{
  char *p = text;
  for (int l = 1; l < line && *p; p++)
    if (*p == '\n')
      l++;
  for (; *p && *p != '\n'; p++)
    *p = ' ';
}

/* Runs inih over st->text once; returns inih's result. */
static int
parse_round(Loader *st, bool report)
{
  st->pos = 0;
  st->line = 0;
  st->report = report;
  st->after_key = false;
  st->section_ok = true;
  return ini_parse_stream(read_line, st, handle_key, st);
}

bool
cfg_load(IrCtx *ctx, const char *path, CfgOptions *o)
{
  const IrSource *src = ir_source_read(ctx, path);
  if (!src)
    return false;
  int errors = ir_error_count(ctx);
  CfgOptions copy = *o;
  Loader st = {.ctx = ctx, .o = &copy, .src = src};
  st.text = ir_xmalloc(src->len + 1);
  memcpy(st.text, src->text, src->len + 1);
  int bad;
  while ((bad = parse_round(&st, false)) > 0 && st.nsyntax < MAX_SYNTAX_ERRORS &&
         !is_syntax_line(&st, bad)) {
    st.syntax[st.nsyntax++] = bad;
    blank_line(st.text, bad);
  }
  parse_round(&st, true);
  if (bad > 0 && st.nsyntax == MAX_SYNTAX_ERRORS)
    ir_note(ctx, (IrLoc){.src = src}, "more syntax errors not shown");
  free(st.text);
  if (ir_error_count(ctx) > errors)
    return false;
  *o = copy;
  return true;
}

/* ------------------------------------------------------------------ */
/* Printing                                                            */
/* ------------------------------------------------------------------ */

static void
print_value(const CfgOptions *o, const CfgKey *k, IrBuf *out)
{
  const char *field = (const char *)o + k->offset;
  switch (k->type) {
  case KEY_ENUM:
    ir_buf_puts(out, k->words[*(const int *)field]);
    break;
  case KEY_WIDTH:
    if (*(const int *)field == 0) {
      ir_buf_puts(out, k->words[0]);
      break;
    }
    ir_buf_printf(out, "%d", *(const int *)field);
    break;
  case KEY_INT:
  case KEY_ALIGN:
    ir_buf_printf(out, "%d", *(const int *)field);
    break;
  case KEY_INT64:
  case KEY_BYTES:
    ir_buf_printf(out, "%lld", (long long)*(const int64_t *)field);
    break;
  case KEY_BOOL:
    ir_buf_puts(out, k->words[*(const bool *)field]);
    break;
  case KEY_IDENT:
  case KEY_TEXT:
    ir_buf_puts(out, field);
    break;
  case KEY_PASSES: {
    const char(*list)[CFG_NAME_MAX] = (const char(*)[CFG_NAME_MAX])(const void *)field;
    int n = *(const int *)(const void *)((const char *)o + k->count_offset);
    for (int i = 0; i < n; i++)
      ir_buf_printf(out, "%s%s", i ? ", " : "", list[i]);
    break;
  }
  }
}

void
cfg_print(const CfgOptions *o, IrBuf *out)
{
  ir_buf_puts(out, "; rxc configuration (rxc --print-config); read it back with --config\n");
  for (int s = 0; sections[s]; s++) {
    ir_buf_printf(out, "\n[%s]\n", sections[s]);
    for (int i = 0; i < NKEYS; i++) {
      if (strcmp(keys[i].section, sections[s]) != 0)
        continue;
      IrBuf value = {0};
      print_value(o, &keys[i], &value);
      ir_buf_printf(out, "%s =%s%s\n", keys[i].name, value.len ? " " : "",
                    value.len ? value.data : "");
      ir_buf_free(&value);
    }
    if (strcmp(sections[s], "memplan") == 0)
      for (int i = 0; i < o->memplan.nupper_bounds; i++)
        ir_buf_printf(out, "%s%s = %lld\n", bound_prefix, o->memplan.upper_bounds[i].name,
                      (long long)o->memplan.upper_bounds[i].bound);
  }
}

/* ------------------------------------------------------------------ */
/* The instruction set                                                 */
/* ------------------------------------------------------------------ */

/* The x86-64-vN levels as the psABI defines them, by the features the
 * compiler's __builtin_cpu_supports names (gcc and clang both know these):
 * CMPXCHG16B, LAHF/SAHF, MOVBE, LZCNT, XSAVE and OSXSAVE have no portable
 * name there and are implied in practice by the features checked (every CPU
 * with AVX2 has them).  A level is the host's when all of its features and
 * the previous level's are. */
CfgIsa
cfg_isa_host(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__TINYC__)
  __builtin_cpu_init();
  if (!(__builtin_cpu_supports("sse3") && __builtin_cpu_supports("ssse3") &&
        __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("sse4.2") &&
        __builtin_cpu_supports("popcnt")))
    return CFG_ISA_X86_64;
  if (!(__builtin_cpu_supports("avx") && __builtin_cpu_supports("avx2") &&
        __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi") &&
        __builtin_cpu_supports("bmi2")))
    return CFG_ISA_X86_64_V2;
  if (!(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl")))
    return CFG_ISA_X86_64_V3;
  return CFG_ISA_X86_64_V4;
#else
  return CFG_ISA_NONE; /* no level rxc knows how to detect on this host */
#endif
}

CfgIsa
cfg_isa(const CfgOptions *o)
{
  return o->target.isa == CFG_ISA_NATIVE ? cfg_isa_host() : o->target.isa;
}

const char *
cfg_isa_name(CfgIsa isa)
{
  return isa_words[isa];
}

int
cfg_vector_bytes(const CfgOptions *o)
{
  if (o->target.vector_bytes > 0)
    return o->target.vector_bytes;
  switch (cfg_isa(o)) {
  case CFG_ISA_X86_64:
  case CFG_ISA_X86_64_V2:
    return 16;
  case CFG_ISA_X86_64_V3:
    return 32;
  case CFG_ISA_ARMV7E_M:
    return 4;
  default:
    return 64; /* none (and v4): the width rxc always used, AVX-512's */
  }
}
