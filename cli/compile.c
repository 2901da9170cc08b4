/*
 * compile.c - rxc compile (write the generated C of a model), and what
 * rxc run --via tcc|cc shares with it: building a model into generated C
 * and calling a compiled entry on interpreter values.
 *
 *   FILE --rxc_road(read, check, passes, plan, generate)--> CgOutput
 *        --cg_write--> OUTDIR/NAME.h, NAME.c (rxc compile)
 *        --cg_jit_tcc | cg_jit_cc--> CgCompiled --NAME_FN_packed--> outputs (rxc run)
 *
 * Calling a packed entry needs its symbolic dims: they are bound from the
 * inputs' shapes (an input dim whose expression is a lone variable binds
 * it), every input dim is then checked against its expression (a wrong
 * shape would make the entry read past the caller's array), and the
 * outputs are allocated at the shapes their struct info gives.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char cli_compile_help[] =
    "usage: rxc compile FILE -o OUTDIR [--name NAME] [--params W.npz] [-O0..-O2]\n"
    "                   [--set codegen.weights=inline|separate|bytes|blob]\n"
    "                   [--set memplan.default_upper_bound=N]\n"
    "Parses FILE, runs the pipeline of the configuration's [opt] level (2\n"
    "unless --config, --set or -O0..-O2 say otherwise), plans memory and writes\n"
    "the generated C into OUTDIR: NAME.h and NAME.c (and NAME_weights.c with\n"
    "[codegen] weights = separate, NAME.weights.bin with weights = blob).  NAME\n"
    "is --name, else [codegen] prefix, else FILE's base name.  --params binds\n"
    "main's weights (BindParams), so they become constants of the output, in\n"
    "the form [codegen] weights says: inline, separate, bytes or blob.  A\n"
    "symbolic dim is bounded by its function's tir_var_upper_bound, else by\n"
    "[memplan] upper_bound.DIM or default_upper_bound; a dim with no bound makes\n"
    "the arena size a formula of the dims that NAME_FN_arena_bytes(dims...)\n"
    "computes at run time (the header then has no NAME_ARENA_BYTES; [memplan]\n"
    "require_static makes it an error).  OUTDIR's missing folders are created.\n"
    "Prints each file written and each entry's arena size (bytes, or that\n"
    "formula and the --set that bounds it).\n";


bool
cli_build(IrCtx *ctx, const char *file, const char *params, const char *name,
          const CfgOptions *cfg, bool jit, RxcRoadOut *b)
{
  CliStage st = {.ctx = ctx, .cfg = cfg, .path = file, .progress = true};
  RxcRoadIn in = {.path = file, .params = params, .cfg = cfg, .name = name,
                  .jit = jit, .step = cli_stage, .user = &st};
  bool ok = rxc_road(ctx, &in, RXC_STAGE_GENERATE, b);
  cli_progress_done(cfg);
  cli_road_diags(&st); /* errors, or the passes' and planner's warnings */
  ir_diag_clear(ctx);
  return ok;
}

/* ---- rxc compile ------------------------------------------------------- */

typedef struct {
  const char *in, *dir, *name, *params;
} CompileArgs;

static int
parse_compile_args(int argc, char **argv, CompileArgs *a, CfgOptions *cfg)
{
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (cli_is_help(arg)) {
      fputs(cli_compile_help, stdout);
      cli_help_global();
      return -1;
    } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--name") == 0 ||
               strcmp(arg, "--params") == 0) {
      if (++i == argc)
        return cli_usage_error("%s needs a value", arg);
      if (arg[1] == 'o')
        a->dir = argv[i];
      else if (arg[2] == 'n')
        a->name = argv[i];
      else
        a->params = argv[i];
    } else if (cli_is_level(arg)) {
      if (cli_set_level(arg, cfg) != EXIT_OK)
        return EXIT_USAGE;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return cli_usage_error("compile: unknown option '%s'", arg);
    } else if (a->in) {
      return cli_usage_error("compile takes one FILE, got another: '%s'", arg);
    } else {
      a->in = arg;
    }
  }
  if (!a->in)
    return cli_usage_error("compile needs a FILE%s", "");
  if (!a->dir)
    return cli_usage_error("compile needs -o OUTDIR%s", "");
  if (a->name && !rxc_is_identifier(a->name))
    return cli_usage_error("--name must be a C identifier, not '%s'", a->name);
  return EXIT_OK;
}

/* "NAME_FN: arena ... bytes" for rxc compile: the bytes, or without a bound
 * the formula of the dims (as rxc plan prints it) and the key that would
 * make it static. */
static void
print_arena(const RxcRoadOut *b, const CgEntry *e)
{
  const MpFunctionPlan *fp = NULL;
  for (int i = 0; i < b->plan->nfuncs && !fp; i++)
    if (b->plan->funcs[i].name == e->fn)
      fp = &b->plan->funcs[i];
  if (e->arena_bytes >= 0 || !fp || !fp->arena_expr) {
    printf("%s: arena %lld bytes (alignment %lld)\n", e->symbol, (long long)e->arena_bytes,
           (long long)b->out->arena_align);
    return;
  }
  IrBuf f = {0};
  ir_prim_expr_print(fp->arena_expr, &f);
  printf("%s: arena %s bytes (alignment %lld); give a bound for a static arena:", e->symbol,
         f.data ? f.data : "?", (long long)b->out->arena_align);
  for (int i = 0; i < fp->nunbounded; i++)
    printf("%s --set memplan.upper_bound.%s=N", i ? "," : "", fp->unbounded[i]);
  printf("\n");
  ir_buf_free(&f);
}

int
cmd_compile(int argc, char **argv, CfgOptions *cfg)
{
  CompileArgs a = {0};
  int status = parse_compile_args(argc, argv, &a, cfg);
  if (status != EXIT_OK)
    return status < 0 ? EXIT_OK : status;
  IrCtx *ctx = ir_ctx_new();
  RxcRoadOut b;
  status = EXIT_INPUT;
  if (cli_build(ctx, a.in, a.params, a.name, cfg, false, &b)) {
    if (cli_make_dirs(a.dir) && cg_write(ctx, b.out, a.dir)) {
      for (int i = 0; i < b.out->nfiles && cfg->verbosity >= 0; i++)
        printf("wrote %s/%s (%zu bytes)\n", a.dir, b.out->files[i].name, b.out->files[i].text.len);
      for (int i = 0; i < b.out->nentries && cfg->verbosity >= 0; i++)
        print_arena(&b, &b.out->entries[i]);
      status = EXIT_OK;
    }
    ir_diag_print(ctx, stderr);
    cg_output_free(b.out);
  }
  ir_ctx_free(ctx);
  return status;
}

/* ---- calling a compiled entry ------------------------------------------ */

/* Symbolic dims bound so far: var -> value. */
typedef struct {
  IrSym vars[64];
  int64_t values[64];
  int n;
} DimBinding;

/* IrDimLookup over a DimBinding. */
static bool
bound_value(void *user, IrSym name, int64_t *value)
{
  const DimBinding *db = user;
  for (int i = 0; i < db->n; i++)
    if (db->vars[i] == name) {
      *value = db->values[i];
      return true;
    }
  return false;
}

/* e over the bound vars; false when a var is unbound or the expression is
 * beyond integer arithmetic. */
static bool
eval_dim(const DimBinding *db, const IrPrimExpr *e, int64_t *out)
{
  return ir_prim_eval(e, bound_value, (void *)db, out);
}

/* Binds the lone-variable dims of each input's struct info to the
 * input's shape, then checks every input against its struct info (dtype,
 * rank, each dim).  The inputs are fn's parameters, in order (their
 * names and declarations for the messages).  False after an error in ctx. */
static bool
bind_inputs(IrCtx *ctx, const IrFunction *fn, const CgEntry *e, const IrTensorData *const *in,
            DimBinding *db)
{
  for (int i = 0; i < e->ninputs; i++) {
    const IrSInfo *s = e->inputs[i];
    char want[16], got[16];
    if (s->kind != IR_SI_TENSOR || s->u.tensor.ndim != in[i]->ndim ||
        s->u.tensor.dtype.code != in[i]->dtype.code || s->u.tensor.dtype.bits != in[i]->dtype.bits) {
      ir_error(ctx, fn->params[i]->loc, "input '%s': a %s tensor of rank %d, but %s wants %s of rank %d",
               fn->params[i]->u.var.name, ir_dtype_str(in[i]->dtype, got), in[i]->ndim, e->symbol,
               s->kind == IR_SI_TENSOR ? ir_dtype_str(s->u.tensor.dtype, want) : "?",
               s->kind == IR_SI_TENSOR ? s->u.tensor.ndim : -1);
      return false;
    }
    for (int k = 0; k < in[i]->ndim && s->u.tensor.shape; k++) {
      const IrPrimExpr *d = s->u.tensor.shape[k];
      int64_t v;
      if (d->kind == IR_PE_VAR && !eval_dim(db, d, &v) && db->n < 64) {
        db->vars[db->n] = d->u.var;
        db->values[db->n++] = in[i]->shape[k];
      }
    }
  }
  for (int i = 0; i < e->ninputs; i++)
    for (int k = 0; k < in[i]->ndim && e->inputs[i]->u.tensor.shape; k++) {
      int64_t v;
      if (!eval_dim(db, e->inputs[i]->u.tensor.shape[k], &v) || v != in[i]->shape[k]) {
        IrBuf want = {0};
        ir_sinfo_print(e->inputs[i], &want);
        ir_error(ctx, fn->params[i]->loc, "input '%s': dim %d is %lld, which does not fit %s",
                 fn->params[i]->u.var.name, k, (long long)in[i]->shape[k],
                 want.data ? want.data : "?");
        ir_buf_free(&want);
        return false;
      }
    }
  return true;
}

/* A zeroed tensor for output i at the shape its struct info gives under
 * db; NULL after an error. */
static Value *
output_tensor(IrCtx *ctx, const CgEntry *e, int i, const DimBinding *db)
{
  IrLoc none = {0};
  const IrSInfo *s = e->outputs[i];
  int64_t shape[64];
  bool ok = s->kind == IR_SI_TENSOR && s->u.tensor.ndim >= 0 && s->u.tensor.ndim <= 64 &&
            (s->u.tensor.shape || s->u.tensor.ndim == 0);
  for (int k = 0; ok && k < s->u.tensor.ndim; k++)
    ok = eval_dim(db, s->u.tensor.shape[k], &shape[k]);
  if (!ok) {
    ir_error(ctx, none, "output %d of %s: its shape does not follow from the inputs' shapes", i,
             e->symbol);
    return NULL;
  }
  return op_tensor_new(ctx, s->u.tensor.dtype, s->u.tensor.ndim, shape, none);
}

/* Output i, allocated at the bounds of the result dims, cut to the dims
 * the entry wrote (its elements are the first ones, row-major). */
static bool
cut_output(IrCtx *ctx, const CgEntry *e, int i, const DimBinding *db, IrTensorData *t)
{
  const IrSInfo *s = e->outputs[i];
  size_t n = 1;
  for (int k = 0; k < t->ndim; k++) {
    int64_t v;
    if (!eval_dim(db, s->u.tensor.shape[k], &v) || v < 0 || v > t->shape[k]) {
      IrLoc none = {0};
      ir_error(ctx, none, "output %d of %s: dim %d written back is out of its bound", i, e->symbol, k);
      return false;
    }
    t->shape[k] = v;
    n *= (size_t)v;
  }
  t->nbytes = n * (size_t)ir_dtype_bytes(t->dtype);
  return true;
}

/* The byte rxc run fills the outputs with before the call. */
enum { SENTINEL = 0xa5 };

/* Does an output block still hold only the sentinel? */
static bool
untouched(const void *block, size_t nbytes)
{
  const unsigned char *b = block;
  for (size_t i = 0; i < nbytes; i++)
    if (b[i] != SENTINEL)
      return false;
  return true;
}

/* Calls e's packed entry in c with an arena of the bytes its arena-bytes
 * function asks for these dims.  False after an error in ctx (the entry's
 * own error code through NAME_strerror). */
static bool
call_packed(IrCtx *ctx, CgCompiled *c, const RxcRoadOut *b, const CgEntry *e, void **tensors,
            const int64_t *dims)
{
  IrLoc none = {0};
  CgPackedFn fn = cg_compiled_entry(c, e->packed);
  if (!fn) {
    ir_error(ctx, none, "the compiled module has no entry '%s'", e->packed);
    return false;
  }
  CgArenaFn arena_fn = cg_compiled_arena_fn(c, e);
  if (!arena_fn) {
    ir_error(ctx, none, "the compiled module has no function '%s'", e->arena_fn);
    return false;
  }
  /* sized for these dims (an arena without a bound has no constant size);
   * the entry is told exactly the bytes allocated */
  size_t align = b->out->arena_align > 0 ? (size_t)b->out->arena_align : 16;
  size_t need = arena_fn(dims);
  size_t bytes = need + (align - need % align) % align;
  void *arena = bytes >= need ? aligned_alloc(align, bytes ? bytes : align) : NULL;
  if (!arena) {
    ir_error(ctx, none, "cannot allocate an arena of %zu bytes for %s", need, e->symbol);
    return false;
  }
  int rc = fn(arena, bytes, tensors, dims);
  free(arena);
  if (rc != 0) {
    typedef const char *(*StrerrorFn)(int);
    /* through void (*)(void): the generic function pointer type */
    StrerrorFn why =
        (StrerrorFn)(void (*)(void))cg_compiled_entry(c, ir_printf(ctx, "%s_strerror", b->name));
    ir_error(ctx, none, "%s returned %d: %s", e->packed, rc, why ? why(rc) : "(no strerror)");
    return false;
  }
  return true;
}

/* The outputs as the function's result: its return struct info's tuple
 * structure when it has one, with the outputs as leaves in order. */
static Value *
result_value(IrCtx *ctx, const IrSInfo *ret, Value **outputs, int n, int *next)
{
  if (ret && ret->kind == IR_SI_TUPLE) {
    Value **items = ir_alloc(ctx, sizeof *items * (size_t)(ret->u.tuple.n + 1));
    for (int i = 0; i < ret->u.tuple.n; i++)
      if (!(items[i] = result_value(ctx, ret->u.tuple.fields[i], outputs, n, next)))
        return NULL;
    return op_tuple_new(ctx, items, ret->u.tuple.n);
  }
  return *next < n ? outputs[(*next)++] : NULL;
}

Value *
cli_call_compiled(IrCtx *ctx, CgCompiled *c, const RxcRoadOut *b, const IrFunction *fn,
                  const CgEntry *e, const IrTensorData *const *inputs)
{
  DimBinding db = {.n = 0};
  if (!bind_inputs(ctx, fn, e, inputs, &db))
    return NULL;
  int nt = e->ninputs + e->noutputs;
  void **tensors = ir_alloc(ctx, sizeof *tensors * (size_t)(nt + 1));
  int64_t *dims = ir_alloc(ctx, sizeof *dims * (size_t)(e->ndims + e->nresult_dims + 1));
  Value **outputs = ir_alloc(ctx, sizeof *outputs * (size_t)(e->noutputs + 1));
  for (int i = 0; i < e->ninputs; i++)
    tensors[i] = inputs[i]->data;
  /* outputs whose dims are tensor data: sized at the bounds, cut to the
   * dims the entry writes back after its call */
  DimBinding at_bounds = db;
  for (int i = 0; i < e->nresult_dims && at_bounds.n < 64; i++) {
    at_bounds.vars[at_bounds.n] = e->result_dims[i]->u.var;
    at_bounds.values[at_bounds.n++] = e->result_bounds[i];
  }
  for (int i = 0; i < e->noutputs; i++) {
    if (!(outputs[i] = output_tensor(ctx, e, i, &at_bounds)))
      return NULL;
    tensors[e->ninputs + i] = outputs[i]->u.tensor.t.data;
  }
  for (int i = 0; i < e->ndims; i++)
    if (!eval_dim(&db, e->dims[i], &dims[i])) {
      IrLoc none = {0};
      ir_error(ctx, none, "dim %d of %s does not follow from the inputs' shapes", i, e->symbol);
      return NULL;
    }
  /* each tensor in a heap block of its own, so that a sanitizer or
   * valgrind sees any access of the generated code past its end (inside
   * the context's arena it would not); the outputs filled with a sentinel,
   * so that a refusal after a write to them shows */
  void **own = ir_xcalloc((size_t)nt + 1, sizeof *own);
  for (int i = 0; i < nt; i++) {
    const IrTensorData *t = i < e->ninputs ? inputs[i] : &outputs[i - e->ninputs]->u.tensor.t;
    own[i] = ir_xmalloc(t->nbytes);
    if (!t->nbytes)
      continue;
    if (i < e->ninputs)
      memcpy(own[i], tensors[i], t->nbytes);
    else
      memset(own[i], SENTINEL, t->nbytes);
  }
  bool ok = call_packed(ctx, c, b, e, own, dims);
  for (int i = e->ninputs; !ok && i < nt; i++)
    if (!untouched(own[i], outputs[i - e->ninputs]->u.tensor.t.nbytes)) {
      IrLoc none = {0};
      ir_error(ctx, none,
               "%s wrote output %d before refusing (the generated code must refuse "
               "before it writes an output)",
               e->symbol, i - e->ninputs);
    }
  for (int i = e->ninputs; ok && i < nt; i++) {
    const IrTensorData *t = &outputs[i - e->ninputs]->u.tensor.t;
    if (t->nbytes)
      memcpy(tensors[i], own[i], t->nbytes);
  }
  for (int i = 0; i < nt; i++)
    free(own[i]);
  free(own);
  if (!ok)
    return NULL;
  for (int i = 0; i < e->nresult_dims && db.n < 64; i++) {
    db.vars[db.n] = e->result_dims[i]->u.var;
    db.values[db.n++] = dims[e->ndims + i];
  }
  for (int i = 0; e->nresult_dims && i < e->noutputs; i++)
    if (!cut_output(ctx, e, i, &db, &outputs[i]->u.tensor.t))
      return NULL;
  int next = 0;
  const IrSInfo *ret = fn->ret && fn->ret->kind == IR_SI_TUPLE ? fn->ret : NULL;
  Value *r = ret ? result_value(ctx, ret, outputs, e->noutputs, &next) : NULL;
  if (r && next == e->noutputs)
    return r;
  return e->noutputs == 1 ? outputs[0] : op_tuple_new(ctx, outputs, e->noutputs);
}
