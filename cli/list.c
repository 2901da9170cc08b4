/*
 * list.c - rxc list ops|passes|onnx: what rxc supports, as a table.
 *
 * Key idea: every row is read from the registry that owns the fact (the
 * operator table of ops/, the interpreter's and the code
 * generator's own queries, opt's pass table and pipelines, the ONNX
 * converter tables), nothing is listed by hand here, so README.md's
 * tables, generated from this output, stay true as rxc changes.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "../codegen/cg.h"
#include "../frontend/fe.h"
#include "../interp/interp.h"
#include "../ops/op.h"
#include "../opt/opt.h"

const char cli_list_help[] =
    "usage: rxc list ops|passes|onnx [PATTERN] [--format markdown|csv]\n"
    "Prints what rxc supports as a Markdown table (the default) or as CSV:\n"
    "  ops     every Relax operator, and whether rxc infers its struct info,\n"
    "          evaluates it in the interpreter, and compiles it to C: lowered\n"
    "          by LegalizeOps (when its operands' ranks are known), emitted by\n"
    "          the code generator itself, or turned into calls of prim_funcs\n"
    "          by CallTIRRewrite; \"no\" means rxc compile refuses it\n"
    "  passes  every pass of rxc opt, what it does, and which optimization\n"
    "          levels (0..3) run it\n"
    "  onnx    the ONNX operators rxc import converts, with the attributes\n"
    "          each accepts\n"
    "With PATTERN, only the rows whose name (first column) matches: a glob\n"
    "(*, ?, [...]) matches the whole name, other text any part of it; case is\n"
    "ignored, and an operator matches with or without its \"R.\" (rxc list ops\n"
    "conv, rxc list ops '*_backward', rxc list onnx 'Reduce*').  No row\n"
    "matching is exit status 1, with a message on stderr.\n"
    "README.md's tables are this output (tests/readme/readme.py checks them).\n";

/* Where rows go, in which form, and which rows. */
typedef struct {
  FILE *out;
  bool csv;                  /* CSV, else a Markdown table */
  const char *pattern;       /* PATTERN, or NULL: every row */
  const char *const *header; /* printed before the first row that matches */
  int nheader;               /* cells in header */
  int rows;                  /* rows printed */
} Table;

/* Writes one CSV field, quoted when it holds a comma or a quote. */
static void
csv_field(FILE *out, const char *s)
{
  if (!strpbrk(s, ",\"\n")) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

/* s in lower case, into buf of size n (cut to fit). */
static const char *
lower(const char *s, char *buf, size_t n)
{
  size_t i = 0;
  for (; s[i] && i + 1 < n; i++)
    buf[i] = (char)tolower((unsigned char)s[i]);
  buf[i] = '\0';
  return buf;
}

/* Does name match PATTERN: a glob (with *, ? or [) the whole name, other
 * text any part of it, case ignored?  An operator's name also without its
 * "R.". */
static bool
matches(const char *pattern, const char *name)
{
  char p[256], n[256];
  lower(pattern, p, sizeof p);
  lower(name, n, sizeof n);
  const char *bare = strncmp(n, "r.", 2) == 0 ? n + 2 : n;
  if (!strpbrk(p, "*?["))
    return strstr(n, p) != NULL;
  return fnmatch(p, n, 0) == 0 || fnmatch(p, bare, 0) == 0;
}

/* Prints one row of n cells: in Markdown, code cells (bit i of code set)
 * are set in backticks, and the header row is followed by its rule. */
static void
print_row(const Table *t, const char *const *cells, int n, unsigned code, bool header)
{
  for (int i = 0; i < n; i++) {
    if (t->csv) {
      fputs(i ? "," : "", t->out);
      csv_field(t->out, cells[i]);
    } else {
      const char *q = (code >> i) & 1 && cells[i][0] ? "`" : "";
      fprintf(t->out, "| %s%s%s ", q, cells[i], q);
    }
  }
  fputs(t->csv ? "\n" : "|\n", t->out);
  if (header && !t->csv) {
    for (int i = 0; i < n; i++)
      fputs("|---", t->out);
    fputs("|\n", t->out);
  }
}

/* The table's header: kept until the first row that matches, so that a
 * pattern matching nothing prints nothing. */
static void
table_header(Table *t, const char *const *cells, int n)
{
  t->header = cells;
  t->nheader = n;
}

/* One row of n cells (code: as print_row), when its name matches. */
static void
table_row(Table *t, const char *const *cells, int n, unsigned code)
{
  if (t->pattern && !matches(t->pattern, cells[0]))
    return;
  if (t->rows++ == 0)
    print_row(t, t->header, t->nheader, 0, true);
  print_row(t, cells, n, code, false);
}

/* How a call of op reaches C, or "no" when rxc compile refuses it. */
static const char *
op_compiled(IrOpId id)
{
  if (op_impl(id)->legalize)
    return "LegalizeOps";
  if (cg_op_native(id))
    return "built in";
  if (cg_op_prim_call(id)) /* a packed function's name only TVM's runtime resolves */
    return id == IR_OP_CALL_DPS_PACKED ? "CallTIRRewrite (prim_func callee)" : "CallTIRRewrite";
  return "no";
}

static void
list_ops(Table *t)
{
  static const char *const header[] = {"operator", "struct info", "interpreter", "C"};
  table_header(t, header, 4);
  for (int i = 0; i < IR_OP_COUNT; i++) {
    const IrOpDef *def = &op_def((IrOpId)i)->syn;
    const OpImpl *impl = op_impl(def->id);
    char name[96];
    snprintf(name, sizeof name, "R.%s", def->name + strlen("relax."));
    const char *cells[] = {
        name,
        impl->infer ? "yes" : "no",
        impl->eval                  ? "yes"
        : interp_op_native(def->id) ? "yes (prim_func callee)"
                                    : "no",
        op_compiled(def->id),
    };
    table_row(t, cells, 4, 1);
  }
}

/* Whether the -O level pipeline runs pass p. */
static bool
in_pipeline(int level, const OptPass *p)
{
  const OptPass *passes[64];
  int n = opt_pipeline(level, passes, 64);
  for (int i = 0; i < n && i < 64; i++)
    if (passes[i] == p)
      return true;
  return false;
}

static void
list_passes(Table *t)
{
  static const char *const header[] = {"pass", "what it does", "-O0", "-O1", "-O2"};
  _Static_assert(OPT_LEVEL_MAX == 2, "a column per level");
  table_header(t, header, 5);
  for (int i = 0; opt_pass_at(i); i++) {
    const OptPass *p = opt_pass_at(i);
    const char *cells[5] = {p->name, p->summary};
    for (int level = 0; level <= OPT_LEVEL_MAX; level++)
      cells[2 + level] = in_pipeline(level, p) ? "yes" : "";
    table_row(t, cells, 5, 1);
  }
}

static void
list_onnx(Table *t)
{
  static const char *const header[] = {"ONNX operator", "attributes"};
  table_header(t, header, 2);
  const char *type, *attrs;
  for (int i = 0; (type = fe_onnx_op_at(i, &attrs)); i++) {
    char spaced[512];
    size_t n = 0;
    /* "a,b" as "a, b": Markdown cells wrap at the spaces */
    for (const char *s = attrs; *s && n + 2 < sizeof spaced; s++) {
      spaced[n++] = *s;
      if (*s == ',' && !t->csv)
        spaced[n++] = ' ';
    }
    spaced[n] = '\0';
    const char *cells[] = {type, spaced};
    table_row(t, cells, 2, 1);
  }
}

/* The kinds of list, and what a row of each is called in messages. */
static const struct {
  const char *name, *rows;
  void (*list)(Table *t);
} lists[] = {
    {"ops", "operator", list_ops},
    {"passes", "pass", list_passes},
    {"onnx", "ONNX operator", list_onnx},
};

static int
find_list(const char *name)
{
  for (int i = 0; i < (int)(sizeof lists / sizeof lists[0]); i++)
    if (strcmp(name, lists[i].name) == 0)
      return i;
  return -1;
}

/* Parses rxc list's arguments into *what (an index of lists) and t;
 * EXIT_OK, or a usage status (help: -1). */
static int
parse_list_args(int argc, char **argv, int *what, Table *t)
{
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (cli_is_help(arg)) {
      fputs(cli_list_help, stdout);
      cli_help_global();
      return -1;
    } else if (strcmp(arg, "--format") == 0) {
      if (++i == argc)
        return cli_usage_error("%s needs a value", arg);
      if (strcmp(argv[i], "csv") != 0 && strcmp(argv[i], "markdown") != 0)
        return cli_usage_error("--format takes markdown or csv, not '%s'", argv[i]);
      t->csv = strcmp(argv[i], "csv") == 0;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return cli_usage_error("list: unknown option '%s'", arg);
    } else if (*what < 0 && find_list(arg) < 0) {
      return cli_usage_error("list takes ops, passes or onnx, not '%s'", arg);
    } else if (*what < 0) {
      *what = find_list(arg);
    } else if (t->pattern) {
      return cli_usage_error("list takes one PATTERN, got another: '%s'", arg);
    } else {
      t->pattern = arg;
    }
  }
  return *what < 0 ? cli_usage_error("list needs ops, passes or onnx%s", "") : EXIT_OK;
}

int
cmd_list(int argc, char **argv)
{
  int what = -1;
  Table t = {.out = stdout};
  int status = parse_list_args(argc, argv, &what, &t);
  if (status != EXIT_OK)
    return status < 0 ? EXIT_OK : status;
  lists[what].list(&t);
  if (t.pattern && t.rows == 0) {
    fprintf(stderr, "rxc: no %s matches '%s' (rxc list %s lists them all)\n", lists[what].rows,
            t.pattern, lists[what].name);
    return EXIT_INPUT;
  }
  return fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
}
