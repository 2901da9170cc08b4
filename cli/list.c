/*
 * list.c - rxc list ops|passes|onnx: what rxc supports, as a table.
 *
 * Key idea: every row is read from the registry that owns the fact (the
 * operator table of ops/, the interpreter's and the code
 * generator's own queries, opt's pass table and pipelines, the ONNX
 * converter tables), nothing is listed by hand here, so README.md's
 * tables, generated from this output, stay true as rxc changes.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "../codegen/cg.h"
#include "../frontend/fe.h"
#include "../interp/interp.h"
#include "../ops/op.h"
#include "../opt/opt.h"

static const char list_help[] =
    "usage: rxc list ops|passes|onnx [--format markdown|csv]\n"
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
    "README.md's tables are this output (tests/readme/readme.py checks them).\n";

/* Where rows go, and in which form. */
typedef struct {
  FILE *out;
  bool csv; /* CSV, else a Markdown table */
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

/* One row of n cells.  In Markdown, code cells (bit i of code set) are set
 * in backticks, and the header row is followed by its rule. */
static void
table_row(const Table *t, const char *const *cells, int n, unsigned code, bool header)
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
list_ops(const Table *t)
{
  static const char *const header[] = {"operator", "struct info", "interpreter", "C"};
  table_row(t, header, 4, 0, true);
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
    table_row(t, cells, 4, 1, false);
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
list_passes(const Table *t)
{
  static const char *const header[] = {"pass", "what it does", "-O0", "-O1", "-O2"};
  _Static_assert(OPT_LEVEL_MAX == 2, "a column per level");
  table_row(t, header, 5, 0, true);
  for (int i = 0; opt_pass_at(i); i++) {
    const OptPass *p = opt_pass_at(i);
    const char *cells[5] = {p->name, p->summary};
    for (int level = 0; level <= OPT_LEVEL_MAX; level++)
      cells[2 + level] = in_pipeline(level, p) ? "yes" : "";
    table_row(t, cells, 5, 1, false);
  }
}

static void
list_onnx(const Table *t)
{
  static const char *const header[] = {"ONNX operator", "attributes"};
  table_row(t, header, 2, 0, true);
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
    table_row(t, cells, 2, 1, false);
  }
}

int
cmd_list(int argc, char **argv)
{
  const char *what = NULL;
  Table t = {.out = stdout};
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (cli_is_help(arg)) {
      fputs(list_help, stdout);
      cli_help_global();
      return EXIT_OK;
    } else if (strcmp(arg, "--format") == 0) {
      if (++i == argc)
        return cli_usage_error("%s needs a value", arg);
      if (strcmp(argv[i], "csv") != 0 && strcmp(argv[i], "markdown") != 0)
        return cli_usage_error("--format takes markdown or csv, not '%s'", argv[i]);
      t.csv = strcmp(argv[i], "csv") == 0;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return cli_usage_error("list: unknown option '%s'", arg);
    } else if (what) {
      return cli_usage_error("list takes one of ops, passes, onnx; got another: '%s'", arg);
    } else if (strcmp(arg, "ops") == 0 || strcmp(arg, "passes") == 0 || strcmp(arg, "onnx") == 0) {
      what = arg;
    } else {
      return cli_usage_error("list takes ops, passes or onnx, not '%s'", arg);
    }
  }
  if (!what)
    return cli_usage_error("list needs ops, passes or onnx%s", "");
  if (what[0] == 'o' && what[1] == 'p')
    list_ops(&t);
  else if (what[0] == 'p')
    list_passes(&t);
  else
    list_onnx(&t);
  return fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
}
