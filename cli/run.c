/*
 * run.c - rxc run (evaluate a function on tensors read from .npy/.npz
 * files) and rxc equiv (run the same function of two modules on the same
 * random inputs and compare every output element).
 *
 * Both go through the reference interpreter; rxc run --via tcc|cc instead
 * builds the model into C (compile.c), compiles it in process (libtcc)
 * or with the system compiler, and calls the entry.  Exit statuses follow main.c:
 * 0 success (equiv: the modules agree), 1 bad input or a difference,
 * 2 bad usage; nothing is written on error (outputs go through a temporary
 * file renamed into place).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../frontend/fe.h"
#include "../interp/interp.h"


#define MAX_ITEMS 256 /* --input / --dim options */

const char cli_run_help[] =
    "usage: rxc run FILE [--fn NAME] [--input NAME=PATH.npy]... [--params PATH.npz]\n"
    "               [--output PATH | -o PATH] [--via interp|tcc|cc] [-O0..-O2] [--print]\n"
    "               [--dump DIR]\n"
    "Evaluates the Relax function NAME (default main) of FILE in the reference\n"
    "interpreter.  Each parameter is read from --input NAME=PATH.npy (an R.Prim\n"
    "parameter may be given as NAME=NUMBER, an R.Shape one as NAME=2,3), else\n"
    "from the entry of the --params archive named like it.  The result is\n"
    "written to --output as .npy (a tuple needs a .npz path: entries \"0\", \"1\",\n"
    "nested tuples \"0_1\"), or printed to stdout without --output (or with\n"
    "--print).  --via tcc compiles the model's generated C in memory with\n"
    "libtcc and calls it instead of interpreting; --via cc does the same with\n"
    "the system compiler ([target] cc, [jit] cc_flags).  Both run the\n"
    "configuration's pipeline (-O0..-O2 set its level) with --params bound as\n"
    "constants, and shape the outputs from the inputs' shapes.  --dump DIR\n"
    "(interpreter only) writes every tensor binding as DIR/NAME.npy (a name\n"
    "met again gets _1, _2, ...) and their order to DIR/order.txt; in a module\n"
    "with explicit memory, a tensor a kernel writes is written after the\n"
    "kernel, not at its allocation.  Run on `rxc opt`'s output, the names and\n"
    "values are what the generated C's NAME_TRACE hook sees.\n";

const char cli_equiv_help[] =
    "usage: rxc equiv A.py B.py [--fn NAME] [--trials N] [--dim NAME=VALUE]...\n"
    "                 [--seed S] [--rtol R] [--atol A]\n"
    "Runs function NAME (default main) of both modules on the same random\n"
    "inputs (floats in [-1, 1], ints in [-5, 5], bools; a fixed seed), shaped\n"
    "by A's parameters: a symbolic dim takes its --dim value, else its\n"
    "tir_var_upper_bound clipped to 8, else 4.  Compares every output element\n"
    "(NaN equals NaN; |a - b| <= atol + rtol * |b|; defaults: 3 trials,\n"
    "rtol 1e-5, atol 1e-6) and prints the largest differences.  Exits 0 when\n"
    "the modules agree, 1 when they differ or on error, 2 on bad usage.\n";

/* The options of rxc equiv; each takes a value. */
static bool
is_equiv_option(const char *s)
{
  static const char *const names[] = {"--fn", "--dim", "--trials", "--seed", "--rtol", "--atol"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(s, names[i]) == 0)
      return true;
  return false;
}

static bool
ends_with(const char *s, const char *suffix)
{
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static const IrFunction *
find_function(IrCtx *ctx, const IrModule *m, const char *name, const char *path)
{
  const IrGlobal *g = ir_module_find(m, ir_sym(ctx, name));
  if (!g || g->kind != IR_GLOBAL_RELAX) {
    fprintf(stderr, "rxc: error: %s has no Relax function '%s'\n", path, name);
    return NULL;
  }
  return g->u.relax;
}

/* ---- output ---------------------------------------------------------------- */

/* A leaf value as tensor data: tensors as they are, shapes as int64
 * vectors, prim values as 0-d tensors; false for other kinds. */
static bool
as_tensor(IrCtx *ctx, const Value *v, IrTensorData *out)
{
  IrLoc none = {0};
  Value *t = NULL;
  if (v->kind == VAL_TENSOR) {
    *out = v->u.tensor.t;
    return true;
  }
  if (v->kind == VAL_SHAPE) {
    int64_t n = v->u.shape.n;
    t = op_tensor_new(ctx, IR_I64, 1, &n, none);
    for (int i = 0; i < v->u.shape.n; i++)
      op_set_i(&t->u.tensor.t, i, v->u.shape.dims[i]);
  } else if (v->kind == VAL_PRIM) {
    t = op_tensor_new(ctx, v->u.prim.dtype, 0, NULL, none);
    if (v->u.prim.dtype.code == IR_DT_FLOAT)
      op_set_f(&t->u.tensor.t, 0, v->u.prim.f);
    else
      op_set_i(&t->u.tensor.t, 0, v->u.prim.i);
  }
  if (!t)
    return false;
  *out = t->u.tensor.t;
  return true;
}

/* Flattens v into named leaves: "0", "1", nested "0_1"; a lone value is
 * named "0".  False when a leaf cannot be a tensor. */
static bool
flatten(IrCtx *ctx, const Value *v, const char *prefix, IrVec *names, IrVec *leaves)
{
  if (v->kind == VAL_TUPLE) {
    for (int i = 0; i < v->u.tuple.n; i++) {
      char *name = prefix ? ir_printf(ctx, "%s_%d", prefix, i) : ir_printf(ctx, "%d", i);
      if (!flatten(ctx, v->u.tuple.items[i], name, names, leaves))
        return false;
    }
    return true;
  }
  IrTensorData *t = ir_alloc(ctx, sizeof *t);
  if (!as_tensor(ctx, v, t))
    return false;
  ir_vec_push(names, (void *)(prefix ? prefix : "0"));
  ir_vec_push(leaves, t);
  return true;
}

static bool
write_result(IrCtx *ctx, const Value *v, const char *path)
{
  IrVec names = {0}, leaves = {0};
  IrBuf data = {0};
  bool ok = flatten(ctx, v, NULL, &names, &leaves);
  if (!ok)
    fprintf(stderr, "rxc: error: the result holds a value that is not a tensor\n");
  else if (ends_with(path, ".npz")) {
    FeNpzEntry *e = ir_alloc(ctx, sizeof *e * (size_t)(leaves.len + 1));
    for (int i = 0; i < leaves.len; i++) {
      e[i].name = names.items[i];
      e[i].t = *(IrTensorData *)leaves.items[i];
    }
    ok = fe_npz_encode(e, leaves.len, &data);
  } else if (v->kind == VAL_TUPLE) {
    fprintf(stderr, "rxc: error: the result is a tuple; --output must name a .npz file\n");
    ok = false;
  } else {
    ok = fe_npy_encode(leaves.items[0], &data);
  }
  if (ok && data.len == 0)
    fprintf(stderr, "rxc: error: the result's dtype cannot be written to .npy\n");
  ok = ok && data.len > 0 && cli_write_file(path, &data);
  ir_buf_free(&data);
  ir_vec_free(&names);
  ir_vec_free(&leaves);
  return ok;
}

/* Prints a tensor as nested lists, numpy style, every element. */
static void
print_elements(const IrTensorData *t, int dim, int64_t *at, FILE *out)
{
  if (dim == t->ndim) {
    if (t->dtype.code == IR_DT_FLOAT || t->dtype.code == IR_DT_BFLOAT)
      fprintf(out, "%.9g", op_get_f(t, *at));
    else if (t->dtype.code == IR_DT_BOOL)
      fputs(op_get_i(t, *at) ? "True" : "False", out);
    else
      fprintf(out, "%lld", (long long)op_get_i(t, *at));
    (*at)++;
    return;
  }
  fputc('[', out);
  for (int64_t i = 0; i < t->shape[dim]; i++) {
    if (i)
      fputs(dim + 1 == t->ndim ? ", " : ",\n ", out);
    print_elements(t, dim + 1, at, out);
  }
  fputc(']', out);
}

static void
print_result(IrCtx *ctx, const Value *v, FILE *out)
{
  IrVec names = {0}, leaves = {0};
  if (!flatten(ctx, v, NULL, &names, &leaves)) {
    IrBuf b = {0};
    op_value_print(v, &b);
    fprintf(out, "%s\n", b.data ? b.data : "");
    ir_buf_free(&b);
  }
  for (int i = 0; i < leaves.len; i++) {
    const IrTensorData *t = leaves.items[i];
    char dt[16];
    if (v->kind == VAL_TUPLE)
      fprintf(out, "%s: ", (const char *)names.items[i]);
    fprintf(out, "%s (", ir_dtype_str(t->dtype, dt));
    for (int k = 0; k < t->ndim; k++)
      fprintf(out, k ? ", %lld" : "%lld", (long long)t->shape[k]);
    fputs(t->ndim == 1 ? ",)\n" : ")\n", out);
    int64_t at = 0;
    print_elements(t, 0, &at, out);
    fputc('\n', out);
  }
  ir_vec_free(&names);
  ir_vec_free(&leaves);
}

/* ---- rxc run ---------------------------------------------------------------- */

typedef enum {
  VIA_INTERP, /* the reference interpreter */
  VIA_TCC,    /* generated C compiled in memory by libtcc */
  VIA_CC,     /* generated C compiled by the system compiler */
} RunVia;

typedef struct {
  const char *file, *fn, *params, *output;
  const char *dump; /* --dump DIR */
  const char *inputs[MAX_ITEMS]; /* NAME=PATH */
  int ninputs;
  bool print;
  RunVia via;
} RunArgs;

static int
parse_run_args(int argc, char **argv, RunArgs *a, CfgOptions *cfg)
{
  memset(a, 0, sizeof *a);
  a->fn = "main";
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    bool has_value = i + 1 < argc;
    if (cli_is_help(s)) {
      fputs(cli_run_help, stdout);
      cli_help_global();
      return -1;
    } else if (strcmp(s, "--print") == 0) {
      a->print = true;
    } else if (cli_is_level(s)) {
      if (cli_set_level(s, cfg) != EXIT_OK)
        return EXIT_USAGE;
    } else if (strcmp(s, "--fn") == 0 || strcmp(s, "--input") == 0 || strcmp(s, "--params") == 0 ||
               strcmp(s, "--output") == 0 || strcmp(s, "-o") == 0 || strcmp(s, "--via") == 0 ||
               strcmp(s, "--dump") == 0) {
      if (!has_value)
        return cli_usage_error("%s needs a value", s);
      const char *v = argv[++i];
      if (strcmp(s, "--fn") == 0)
        a->fn = v;
      else if (strcmp(s, "--params") == 0)
        a->params = v;
      else if (strcmp(s, "--dump") == 0)
        a->dump = v;
      else if (strcmp(s, "--output") == 0 || strcmp(s, "-o") == 0)
        a->output = v;
      else if (strcmp(s, "--via") == 0) {
        if (strcmp(v, "interp") == 0)
          a->via = VIA_INTERP;
        else if (strcmp(v, "tcc") == 0)
          a->via = VIA_TCC;
        else if (strcmp(v, "cc") == 0)
          a->via = VIA_CC;
        else
          return cli_usage_error("unknown --via '%s' (interp, tcc or cc)", v);
      } else if (strcmp(s, "--input") == 0) {
        if (!strchr(v, '=') || v[0] == '=')
          return cli_usage_error("--input wants NAME=PATH, got '%s'", v);
        if (a->ninputs == MAX_ITEMS)
          return cli_usage_error("too many --input options%s", "");
        a->inputs[a->ninputs++] = v;
      }
    } else if (s[0] == '-' && s[1] != '\0') {
      return cli_usage_error("run: unknown option '%s'", s);
    } else if (a->file) {
      return cli_usage_error("run takes one FILE, got another: '%s'", s);
    } else {
      a->file = s;
    }
  }
  if (!a->file)
    return cli_usage_error("run needs a FILE%s", "");
  if (a->dump && a->via != VIA_INTERP)
    return cli_usage_error("--dump needs --via interp (the generated C's NAME_TRACE hook is its "
                           "counterpart)%s", "");
  return EXIT_OK;
}

/* A parameter's value from text: NUMBER for R.Prim, "2,3" for R.Shape, else
 * a .npy path.  NULL after an error in ctx. */
static Value *
input_value(IrCtx *ctx, const IrExpr *param, const char *text)
{
  const IrSInfo *s = param->sinfo;
  IrLoc none = {0};
  if (s && (s->kind == IR_SI_PRIM || s->kind == IR_SI_SHAPE) && !ends_with(text, ".npy")) {
    int64_t dims[64];
    int n = 0;
    char *end = (char *)text;
    if (s->kind == IR_SI_PRIM && s->u.prim.dtype.code == IR_DT_FLOAT) {
      double d = strtod(text, &end);
      if (*text && !*end)
        return op_prim_float(ctx, s->u.prim.dtype, d);
    } else {
      for (const char *p = text; *p && n < 64; p = *end == ',' ? end + 1 : end) {
        dims[n++] = strtoll(p, &end, 10);
        if (end == p || (*end && *end != ','))
          break;
      }
      if (*text && !*end && s->kind == IR_SI_PRIM && n == 1)
        return op_prim_int(ctx, s->u.prim.dtype.code ? s->u.prim.dtype : IR_I64, dims[0]);
      if (*text && !*end && s->kind == IR_SI_SHAPE)
        return op_shape_new(ctx, dims, n);
    }
    ir_error(ctx, none, "input '%s': cannot read '%s' as a %s", param->u.var.name, text,
             s->kind == IR_SI_PRIM ? "number" : "shape (like 2,3)");
    return NULL;
  }
  IrTensorData t;
  if (!fe_npy_read(ctx, text, &t))
    return NULL;
  return op_tensor_from_data(ctx, &t);
}

/* Fills args[] from --input and --params; false after printing errors. */
static bool
gather_inputs(IrCtx *ctx, const IrFunction *fn, const RunArgs *a, Value **args)
{
  FeNpzEntry *entries = NULL;
  int nentries = a->params ? fe_npz_read(ctx, a->params, &entries) : 0;
  IrLoc none = {0};
  for (int k = 0; k < a->ninputs && nentries >= 0; k++) {
    const char *eq = strchr(a->inputs[k], '=');
    IrSym name = ir_sym_n(ctx, a->inputs[k], (size_t)(eq - a->inputs[k]));
    int i = 0;
    while (i < fn->nparams && fn->params[i]->u.var.name != name)
      i++;
    if (i == fn->nparams)
      ir_error(ctx, none, "--input %s: the function has no parameter '%s'", a->inputs[k], name);
    else if (!args[i])
      args[i] = input_value(ctx, fn->params[i], eq + 1);
  }
  IrBuf missing = {0};
  if (ir_error_count(ctx)) /* an --input could not be read: it is not also missing */
    nentries = -1;
  for (int i = 0; i < fn->nparams && nentries >= 0; i++)
    for (int k = 0; k < nentries && !args[i]; k++)
      if (entries[k].name == fn->params[i]->u.var.name)
        args[i] = op_tensor_from_data(ctx, &entries[k].t);
  for (int i = 0; i < fn->nparams && nentries >= 0; i++)
    if (!args[i])
      ir_buf_printf(&missing, "%s'%s'", missing.len ? ", " : "", fn->params[i]->u.var.name);
  if (missing.len)
    ir_error(ctx, none, "missing input for parameter%s %s (give --input NAME=PATH.npy or --params)",
             strchr(missing.data, ',') ? "s" : "", missing.data);
  ir_buf_free(&missing);
  if (ir_error_count(ctx)) {
    ir_diag_print(ctx, stderr);
    return false;
  }
  return true;
}

/* The entry of the public function name in b's output, or NULL after an
 * error. */
static const CgEntry *
find_entry(IrCtx *ctx, const RxcRoadOut *b, const char *name)
{
  IrSym fn = ir_sym(ctx, name);
  for (int i = 0; i < b->out->nentries; i++)
    if (b->out->entries[i].fn == fn)
      return &b->out->entries[i];
  IrLoc none = {0};
  ir_error(ctx, none, "the generated C has no entry for '%s'", name);
  return NULL;
}

/* The tensor arguments of fn in signature order (the entry's inputs);
 * NULL after an error when a parameter is not a tensor or the count
 * differs from the entry's. */
static const IrTensorData **
entry_inputs(IrCtx *ctx, const IrFunction *fn, Value **args, const CgEntry *e)
{
  IrLoc none = {0};
  const IrTensorData **in = ir_alloc(ctx, sizeof *in * (size_t)(fn->nparams + 1));
  int n = 0;
  for (int i = 0; i < fn->nparams; i++) {
    if (args[i]->kind != VAL_TENSOR) {
      ir_error(ctx, fn->params[i]->loc,
               "parameter '%s' is not a tensor: the compiled entry takes tensors only",
               fn->params[i]->u.var.name);
      return NULL;
    }
    in[n++] = &args[i]->u.tensor.t;
  }
  if (n != e->ninputs) {
    ir_error(ctx, none, "%s takes %d tensors, the function %d parameters", e->symbol, e->ninputs,
             n);
    return NULL;
  }
  return in;
}

/* rxc run --via tcc|cc: builds, compiles and calls the model; NULL after
 * printing errors. */
static Value *
run_compiled(IrCtx *ctx, const RunArgs *a, const CfgOptions *cfg)
{
  RxcRoadOut b;
  if (!cli_build(ctx, a->file, a->params, NULL, cfg, true, &b))
    return NULL;
  Value *r = NULL;
  const IrFunction *fn = find_function(ctx, b.module, a->fn, a->file);
  Value **args = fn ? ir_alloc(ctx, sizeof *args * (size_t)(fn->nparams + 1)) : NULL;
  if (fn && gather_inputs(ctx, fn, a, args)) {
    const CgEntry *e = find_entry(ctx, &b, a->fn);
    const IrTensorData **in = e ? entry_inputs(ctx, fn, args, e) : NULL;
    CgCompiled *c = NULL;
    if (in)
      cli_progress(cfg, "compiling %s.c with %s", b.name,
                   a->via == VIA_TCC ? "libtcc" : cfg->target.cc);
    if (in && a->via == VIA_TCC)
      c = cg_jit_tcc(ctx, b.out);
    else if (in)
      c = cg_jit_cc(ctx, b.out, cfg->target.cc, cfg->jit.cc_flags);
    if (c)
      cli_progress(cfg, "running %s", e->symbol);
    r = c ? cli_call_compiled(ctx, c, &b, fn, e, in) : NULL;
    cli_progress_done(cfg);
    if (c)
      cg_compiled_free(c);
    ir_diag_print(ctx, stderr);
  }
  cg_output_free(b.out);
  return r;
}

/* --dump DIR: every tensor binding the interpreter evaluates, as
 * DIR/NAME.npy (a name met again gets _1, _2, ... as the printer does),
 * and DIR/order.txt listing the files in evaluation order. */
typedef struct {
  IrCtx *ctx;
  const char *dir;
  IrVec seen;  /* IrSym: names written, with repeats */
  IrBuf order; /* order.txt */
  bool ok;
} Dump;

static bool
dump_open(Dump *d)
{
  if (!cli_make_dirs(d->dir))
    return d->ok = false;
  return true;
}

static void
dump_value(void *user, IrSym name, const Value *v)
{
  Dump *d = user;
  int again = 0;
  for (int i = 0; i < d->seen.len; i++)
    again += d->seen.items[i] == (void *)name;
  ir_vec_push(&d->seen, (void *)name);
  char file[512];
  if (again)
    snprintf(file, sizeof file, "%s_%d.npy", name, again);
  else
    snprintf(file, sizeof file, "%s.npy", name);
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", d->dir, file);
  IrBuf data = {0};
  if (d->ok && fe_npy_encode(&v->u.tensor.t, &data) && data.len && cli_write_file(path, &data))
    ir_buf_printf(&d->order, "%s\n", file);
  else if (d->ok && v->u.tensor.t.data)
    d->ok = false, fprintf(stderr, "rxc: error: cannot write '%s'\n", path);
  ir_buf_free(&data);
}

static bool
dump_close(Dump *d)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/order.txt", d->dir);
  bool ok = d->ok && cli_write_file(path, &d->order);
  ir_vec_free(&d->seen);
  ir_buf_free(&d->order);
  return ok;
}

int
cmd_run(int argc, char **argv, CfgOptions *cfg)
{
  RunArgs a;
  int status = parse_run_args(argc, argv, &a, cfg);
  if (status != EXIT_OK)
    return status < 0 ? EXIT_OK : status;
  if (a.output && !ends_with(a.output, ".npy") && !ends_with(a.output, ".npz"))
    return cli_usage_error("--output must end in .npy or .npz: '%s'", a.output);
  IrCtx *ctx = ir_ctx_new();
  if (a.via != VIA_INTERP) {
    Value *r = run_compiled(ctx, &a, cfg);
    if (r && (!a.output || a.print))
      print_result(ctx, r, stdout);
    status = r && (!a.output || write_result(ctx, r, a.output)) ? EXIT_OK : EXIT_INPUT;
    ir_ctx_free(ctx);
    return status;
  }
  IrModule *m = cli_load(ctx, a.file, true);
  const IrFunction *fn = m ? find_function(ctx, m, a.fn, a.file) : NULL;
  status = EXIT_INPUT;
  if (fn) {
    Value **args = ir_alloc(ctx, sizeof *args * (size_t)(fn->nparams + 1));
    Value *r = NULL;
    if (gather_inputs(ctx, fn, &a, args)) {
      Interp *in = interp_new(ctx, m, stdout);
      Dump d = {ctx, a.dump, {0}, {0}, true};
      if (a.dump && !dump_open(&d))
        ir_diag_print(ctx, stderr);
      else {
        if (a.dump)
          interp_set_trace(in, dump_value, &d);
        r = interp_call(in, a.fn, args, fn->nparams);
      }
      if (a.dump && !dump_close(&d))
        r = NULL;
      if (!r)
        ir_diag_print(ctx, stderr);
    }
    if (r && (!a.output || a.print))
      print_result(ctx, r, stdout);
    if (r && (!a.output || write_result(ctx, r, a.output)))
      status = EXIT_OK;
  }
  ir_ctx_free(ctx);
  return status;
}

/* ---- rxc equiv: random inputs ------------------------------------------------ */

typedef struct {
  const char *a, *b, *fn;
  int trials;
  uint64_t seed;
  double rtol, atol;
  const char *dims[MAX_ITEMS]; /* NAME=VALUE */
  int ndims;
} EquivArgs;

/* xorshift64*: a fixed, portable sequence for a seed. */
static uint64_t
next_random(uint64_t *state)
{
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1Du;
}

/* The value of a symbolic dim variable: --dim, else its upper bound clipped
 * to 8, else 4. */
static int64_t
dim_value(const EquivArgs *ea, const IrFunction *fn, IrSym name)
{
  size_t n = strlen(name);
  for (int i = 0; i < ea->ndims; i++)
    if (strncmp(ea->dims[i], name, n) == 0 && ea->dims[i][n] == '=')
      return strtoll(ea->dims[i] + n + 1, NULL, 10);
  const IrAttr *b = ir_attr_get(ir_attr_get(fn->attrs, "tir_var_upper_bound"), name);
  if (b && b->kind == IR_AT_INT)
    return b->u.i < 8 ? b->u.i : 8;
  return 4;
}

/* What dim_value reads, as an IrDimLookup's user. */
typedef struct {
  const EquivArgs *ea;
  const IrFunction *fn;
} DimSource;

static bool
lookup_dim(void *user, IrSym name, int64_t *value)
{
  const DimSource *d = user;
  *value = dim_value(d->ea, d->fn, name);
  return true;
}

/* Evaluates a dimension expression over dim_value; false if unsupported. */
static bool
eval_dim(const EquivArgs *ea, const IrFunction *fn, const IrPrimExpr *e, int64_t *out)
{
  DimSource d = {ea, fn};
  return ir_prim_eval(e, lookup_dim, &d, out);
}

static void
fill_random(IrTensorData *t, uint64_t *state)
{
  int64_t n = op_numel(t);
  for (int64_t i = 0; i < n; i++) {
    uint64_t r = next_random(state);
    if (t->dtype.code == IR_DT_FLOAT || t->dtype.code == IR_DT_BFLOAT)
      op_set_f(t, i, (double)(r >> 11) * 0x1.0p-53 * 2.0 - 1.0);
    else if (t->dtype.code == IR_DT_BOOL)
      op_set_i(t, i, (int64_t)(r >> 63));
    else if (t->dtype.code == IR_DT_UINT)
      op_set_i(t, i, (int64_t)((r >> 32) % 6));
    else
      op_set_i(t, i, (int64_t)((r >> 32) % 11) - 5);
  }
}

/* A random value for a parameter; NULL after a message on stderr. */
static Value *
random_input(IrCtx *ctx, const EquivArgs *ea, const IrFunction *fn, const IrExpr *param,
             uint64_t *state)
{
  const IrSInfo *s = param->sinfo;
  IrLoc none = {0};
  int64_t dims[64];
  if (s && s->kind == IR_SI_TENSOR && s->u.tensor.dtype.code != IR_DT_VOID &&
      s->u.tensor.ndim >= 0 && s->u.tensor.ndim <= 64) {
    bool ok = true;
    for (int i = 0; i < s->u.tensor.ndim && ok; i++)
      ok = !s->u.tensor.shape ? (dims[i] = 4, true)
                              : eval_dim(ea, fn, s->u.tensor.shape[i], &dims[i]);
    Value *v = ok ? op_tensor_new(ctx, s->u.tensor.dtype, s->u.tensor.ndim, dims, none) : NULL;
    if (v)
      fill_random(&v->u.tensor.t, state);
    if (v)
      return v;
  } else if (s && s->kind == IR_SI_SHAPE && s->u.shape.values && s->u.shape.ndim <= 64) {
    bool ok = true;
    for (int i = 0; i < s->u.shape.ndim && ok; i++)
      ok = eval_dim(ea, fn, s->u.shape.values[i], &dims[i]);
    if (ok)
      return op_shape_new(ctx, dims, s->u.shape.ndim);
  } else if (s && s->kind == IR_SI_PRIM && s->u.prim.dtype.code != IR_DT_VOID) {
    if (s->u.prim.value && eval_dim(ea, fn, s->u.prim.value, &dims[0]))
      return op_prim_int(ctx, s->u.prim.dtype, dims[0]);
    double r = (double)(next_random(state) >> 11) * 0x1.0p-53 * 2.0 - 1.0;
    if (s->u.prim.dtype.code == IR_DT_FLOAT)
      return op_prim_float(ctx, s->u.prim.dtype, r);
    return op_prim_int(ctx, s->u.prim.dtype, (int64_t)(next_random(state) >> 32) % 11 - 5);
  }
  ir_diag_print(ctx, stderr);
  fprintf(stderr, "rxc: error: cannot make a random input for parameter '%s'\n", param->u.var.name);
  return NULL;
}

static Value *
copy_value(IrCtx *ctx, const Value *v)
{
  if (v->kind != VAL_TENSOR)
    return (Value *)v;
  IrLoc none = {0};
  const IrTensorData *t = &v->u.tensor.t;
  Value *c = op_tensor_new(ctx, t->dtype, t->ndim, t->shape, none);
  memcpy(c->u.tensor.t.data, t->data, t->nbytes);
  return c;
}

/* ---- rxc equiv: comparison ------------------------------------------------------ */

typedef struct {
  double abs, rel; /* largest differences seen */
  char abs_at[160], rel_at[160];
  bool differ; /* some element out of tolerance, or a structure mismatch */
} Diff;

static void
where(char *buf, size_t cap, const char *name, const IrTensorData *t, int64_t i, double a, double b)
{
  char idx[96] = "";
  size_t len = 0;
  int64_t rest = i, at[64] = {0};
  for (int k = t->ndim - 1; k >= 0 && k < 64; k--) {
    at[k] = t->shape[k] ? rest % t->shape[k] : 0;
    rest = t->shape[k] ? rest / t->shape[k] : 0;
  }
  for (int k = 0; k < t->ndim && k < 64 && len < sizeof idx - 24; k++)
    len += (size_t)snprintf(idx + len, sizeof idx - len, k ? ", %lld" : "%lld", (long long)at[k]);
  snprintf(buf, cap, "output %s [%s] (A: %.9g, B: %.9g)", name, idx, a, b);
}

static void
compare_tensors(const char *name, const IrTensorData *x, const IrTensorData *y, const EquivArgs *ea,
                Diff *d)
{
  bool same_shape = x->ndim == y->ndim;
  for (int k = 0; same_shape && k < x->ndim; k++)
    same_shape = x->shape[k] == y->shape[k];
  if (!same_shape) {
    printf("output %s: shapes differ\n", name);
    d->differ = true;
    return;
  }
  int64_t n = op_numel(x);
  for (int64_t i = 0; i < n; i++) {
    double a = op_get_f(x, i), b = op_get_f(y, i);
    if ((a != a && b != b) || a == b)
      continue;
    double diff = fabs(a - b), rel = b != 0 ? diff / fabs(b) : INFINITY;
    if (diff != diff)
      diff = rel = INFINITY;
    if (!(diff <= ea->atol + ea->rtol * fabs(b)))
      d->differ = true;
    if (diff > d->abs) {
      d->abs = diff;
      where(d->abs_at, sizeof d->abs_at, name, x, i, a, b);
    }
    if (rel > d->rel) {
      d->rel = rel;
      where(d->rel_at, sizeof d->rel_at, name, x, i, a, b);
    }
  }
}

static void
compare(IrCtx *ctx, const Value *a, const Value *b, const EquivArgs *ea, Diff *d)
{
  IrVec na = {0}, la = {0}, nb = {0}, lb = {0};
  bool ok = flatten(ctx, a, NULL, &na, &la) && flatten(ctx, b, NULL, &nb, &lb);
  if (!ok || la.len != lb.len) {
    printf("the results differ in structure\n");
    d->differ = true;
  }
  for (int i = 0; ok && i < la.len && i < lb.len; i++)
    compare_tensors(na.items[i], la.items[i], lb.items[i], ea, d);
  ir_vec_free(&na);
  ir_vec_free(&la);
  ir_vec_free(&nb);
  ir_vec_free(&lb);
}

static int
parse_equiv_args(int argc, char **argv, EquivArgs *e)
{
  memset(e, 0, sizeof *e);
  e->fn = "main";
  e->trials = 3;
  e->seed = 1;
  e->rtol = 1e-5;
  e->atol = 1e-6;
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if (cli_is_help(s)) {
      fputs(cli_equiv_help, stdout);
      cli_help_global();
      return -1;
    }
    if (s[0] == '-' && s[1] != '\0') {
      if (!is_equiv_option(s))
        return cli_usage_error("equiv: unknown option '%s'", s);
      if (i + 1 == argc)
        return cli_usage_error("%s needs a value", s);
      const char *v = argv[++i];
      char *end;
      if (strcmp(s, "--fn") == 0) {
        e->fn = v;
        continue;
      }
      if (strcmp(s, "--dim") == 0) {
        const char *eq = strchr(v, '=');
        if (!eq || eq == v || (strtoll(eq + 1, &end, 10), *end || end == eq + 1) ||
            e->ndims == MAX_ITEMS)
          return cli_usage_error("--dim wants NAME=VALUE, got '%s'", v);
        e->dims[e->ndims++] = v;
        continue;
      }
      double d = strtod(v, &end);
      if (!*v || *end)
        return cli_usage_error("%s needs a number", s);
      if (strcmp(s, "--trials") == 0 && d >= 1 && d <= 1000000 && d == floor(d))
        e->trials = (int)d;
      else if (strcmp(s, "--seed") == 0 && d >= 0 && d == floor(d))
        e->seed = (uint64_t)d;
      else if (strcmp(s, "--rtol") == 0 && d >= 0)
        e->rtol = d;
      else if (strcmp(s, "--atol") == 0 && d >= 0)
        e->atol = d;
      else
        return cli_usage_error("bad value for %s", s);
    } else if (!e->a) {
      e->a = s;
    } else if (!e->b) {
      e->b = s;
    } else {
      return cli_usage_error("equiv takes two files, got a third: '%s'", s);
    }
  }
  if (!e->b)
    return cli_usage_error("equiv takes two files%s", "");
  return EXIT_OK;
}

/* One trial: random inputs, both runs, comparison into d.  False on error. */
static bool
trial(IrCtx *ctx, const EquivArgs *ea, IrModule *ma, IrModule *mb, const IrFunction *fa,
      uint64_t *state, Diff *d)
{
  int n = fa->nparams;
  Value **xa = ir_alloc(ctx, sizeof *xa * (size_t)(n + 1));
  Value **xb = ir_alloc(ctx, sizeof *xb * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    if (!(xa[i] = random_input(ctx, ea, fa, fa->params[i], state)))
      return false;
    xb[i] = copy_value(ctx, xa[i]);
  }
  Value *ra = interp_call(interp_new(ctx, ma, stdout), ea->fn, xa, n);
  Value *rb = ra ? interp_call(interp_new(ctx, mb, stdout), ea->fn, xb, n) : NULL;
  if (!ra || !rb) {
    ir_diag_print(ctx, stderr);
    fprintf(stderr, "rxc: error: %s failed on the random inputs\n", ra ? ea->b : ea->a);
    return false;
  }
  compare(ctx, ra, rb, ea, d);
  return true;
}

int
cmd_equiv(int argc, char **argv)
{
  EquivArgs ea;
  int status = parse_equiv_args(argc, argv, &ea);
  if (status != EXIT_OK)
    return status < 0 ? EXIT_OK : status;
  IrCtx *ctx = ir_ctx_new();
  IrModule *ma = cli_load(ctx, ea.a, true);
  IrModule *mb = ma ? cli_load(ctx, ea.b, true) : NULL;
  const IrFunction *fa = mb ? find_function(ctx, ma, ea.fn, ea.a) : NULL;
  const IrFunction *fb = fa ? find_function(ctx, mb, ea.fn, ea.b) : NULL;
  status = EXIT_INPUT;
  if (fb && fb->nparams != fa->nparams)
    fprintf(stderr, "rxc: error: '%s' takes %d parameters in %s but %d in %s\n", ea.fn, fa->nparams,
            ea.a, fb->nparams, ea.b);
  else if (fb) {
    Diff d = {0};
    uint64_t state = ea.seed * 0x9E3779B97F4A7C15u + 0x2545F4914F6CDD1Du;
    bool ok = true;
    for (int t = 0; t < ea.trials && ok; t++)
      ok = trial(ctx, &ea, ma, mb, fa, &state, &d);
    if (ok) {
      printf("max abs diff %.3g%s%s\n", d.abs, d.abs > 0 ? " at " : "", d.abs > 0 ? d.abs_at : "");
      printf("max rel diff %.3g%s%s\n", d.rel, d.rel > 0 ? " at " : "", d.rel > 0 ? d.rel_at : "");
      printf("%s (%d trial%s, rtol %g, atol %g)\n", d.differ ? "DIFFERENT" : "equivalent",
             ea.trials, ea.trials == 1 ? "" : "s", ea.rtol, ea.atol);
      status = d.differ ? EXIT_INPUT : EXIT_OK;
    }
  }
  ir_ctx_free(ctx);
  return status;
}
