/*
 * pass.c - the pass manager: the table of passes, the needs a pass has of
 * its input, and Sequential with its instruments.
 *
 * Key idea: a need is a property of the module, checked on the module
 * itself ("has no dataflow blocks"), never a record of which passes ran,
 * so any order of passes either works or is refused with the name of the
 * pass to run first — never an ill-formed result.
 */
#include <string.h>
#include <time.h>

#include "../ops/op.h"
#include "opt.h"

static const OptPass passes[] = {
    {"Normalize", opt_pass_normalize, 0, true, "fill in struct info from operator inference"},
    {"BindParams", opt_bind_params, 0, true, "bind main's weight parameters from --params"},
    {"CanonicalizeBindings", opt_canonicalize_bindings, 0, true, "forward trivial bindings"},
    {"DeadCodeElimination", opt_dead_code_elimination, 0, true,
     "drop unused bindings and unreachable functions"},
    {"FakeQuantizationToInteger", opt_fake_quant_to_int, 0, true,
     "quantized conv2d/matmul layers of a QDQ model as integer arithmetic"},
    {"DecomposeOpsForInference", opt_decompose_ops_for_inference, 0, true,
     "inference batch_norm as a per-channel scale and shift"},
    {"FoldConstant", opt_fold_constant, 0, true, "evaluate calls of constants"},
    {"LegalizeOps", opt_pass_legalize_ops, 0, true, "lower ops to R.call_tir of T.prim_funcs"},
    {"FuseOps", opt_fuse_ops, OPT_NEEDS_LEGALIZED, true, "group elementwise chains with their producer"},
    {"FuseTIR", opt_fuse_tir, 0, true, "merge each fused group into one T.prim_func"},
    {"FuseOpsByPattern", opt_fuse_ops_by_pattern, 0, true,
     "group calls matching a pattern into Composite functions"},
    {"MergeCompositeFunctions", opt_merge_composite_functions, 0, true,
     "merge Composite groups into Codegen functions"},
    {"RemoveUnusedOutputs", opt_remove_unused_outputs, 0, true,
     "drop tuple outputs no caller uses"},
    {"RealizeVDevice", opt_realize_vdevice, 0, true, "propagate vdevices, drop device hints"},
    {"ToNonDataflow", opt_to_non_dataflow, 0, true, "turn dataflow blocks into plain blocks"},
    {"RemovePurityChecking", opt_remove_purity_checking, 0, true,
     "mark functions force_pure so impure calls may follow"},
    {"CallTIRRewrite", opt_call_tir_rewrite,
     OPT_NEEDS_LEGALIZED | OPT_NEEDS_NO_DATAFLOW | OPT_NEEDS_IMPURE_OK, true,
     "make R.call_tir outputs explicit allocations"},
    {"LiftWorkspaces", opt_lift_workspaces, OPT_NEEDS_EXPLICIT | OPT_NEEDS_IMPURE_OK, true,
     "allocate kernels' scratch buffers in their callers (so in the arena)"},
    {"KillAfterLastUse", opt_kill_after_last_use, OPT_NEEDS_IMPURE_OK, true,
     "kill tensors and storages after their last use"},
};

enum { NPASSES = (int)(sizeof passes / sizeof passes[0]) };

const OptPass *
opt_pass_find(const char *name)
{
  for (int i = 0; i < NPASSES; i++)
    if (strcmp(passes[i].name, name) == 0)
      return &passes[i];
  return NULL;
}

const OptPass *
opt_pass_at(int i)
{
  return i >= 0 && i < NPASSES ? &passes[i] : NULL;
}

IrModule *
opt_pass_normalize(const OptContext *oc, const IrModule *m)
{
  return opt_normalize(oc->ctx, m);
}

IrModule *
opt_pass_legalize_ops(const OptContext *oc, const IrModule *m)
{
  return opt_legalize_ops_for(oc->ctx, m, oc->vector_bytes, oc->kernels);
}

/* --- needs ----------------------------------------------------------- */

typedef struct {
  unsigned broken; /* needs found broken so far */
} NeedScan;

static void scan_seq(NeedScan *s, const IrExpr *seq);

static void
scan_value(NeedScan *s, const IrExpr *v)
{
  if (v->kind == IR_EX_IF) {
    scan_seq(s, v->u.branch.then_);
    scan_seq(s, v->u.branch.else_);
  } else if (v->kind == IR_EX_FUNC) {
    scan_seq(s, v->u.func->body);
  } else if (v->kind == IR_EX_CALL && v->u.call.kind == IR_CALL_OP) {
    IrOpId id = v->u.call.op->id;
    if (op_impl(id)->legalize)
      s->broken |= OPT_NEEDS_LEGALIZED;
    if (id == IR_OP_CALL_TIR || id == IR_OP_CALL_TIR_INPLACE || id == IR_OP_CALL_DPS_PACKED)
      s->broken |= OPT_NEEDS_EXPLICIT;
  }
}

static void
scan_seq(NeedScan *s, const IrExpr *seq)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++) {
    const IrBindingBlock *b = &seq->u.seq.blocks[i];
    if (b->dataflow)
      s->broken |= OPT_NEEDS_NO_DATAFLOW;
    for (int j = 0; j < b->n; j++)
      scan_value(s, b->bindings[j].value);
  }
  scan_value(s, seq->u.seq.result);
}

static bool
may_be_impure(const IrFunction *f)
{
  const IrAttr *force = ir_attr_get(f->attrs, "relax.force_pure");
  return !f->pure || (force && force->kind == IR_AT_BOOL && force->u.b);
}

unsigned
opt_check_needs(const IrModule *m, unsigned needs, const char **fix)
{
  static const struct {
    unsigned need;
    const char *fix;
  } fixes[] = {
      {OPT_NEEDS_LEGALIZED, "LegalizeOps"},
      {OPT_NEEDS_NO_DATAFLOW, "ToNonDataflow"},
      {OPT_NEEDS_IMPURE_OK, "RemovePurityChecking"},
      {OPT_NEEDS_EXPLICIT, "CallTIRRewrite"},
  };
  NeedScan s = {0};
  for (int i = 0; i < m->nglobals; i++) {
    const IrGlobal *g = &m->globals[i];
    if (g->kind != IR_GLOBAL_RELAX)
      continue;
    scan_seq(&s, g->u.relax->body);
    if (!may_be_impure(g->u.relax))
      s.broken |= OPT_NEEDS_IMPURE_OK;
  }
  for (size_t i = 0; i < sizeof fixes / sizeof fixes[0]; i++)
    if (needs & s.broken & fixes[i].need) {
      *fix = fixes[i].fix;
      return fixes[i].need;
    }
  return 0;
}

/* --- Sequential -------------------------------------------------------- */

static const char *
need_text(unsigned need)
{
  switch (need) {
  case OPT_NEEDS_LEGALIZED:
    return "ops lowered to R.call_tir";
  case OPT_NEEDS_NO_DATAFLOW:
    return "no dataflow blocks";
  case OPT_NEEDS_IMPURE_OK:
    return "functions that may hold impure calls";
  default:
    return "explicit outputs (no R.call_tir)";
  }
}

static double
now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The first binding of seq whose value is a call LegalizeOps left as it
 * was (an op it can lower in general), or NULL. */
static const IrBinding *
first_unlowered(const IrExpr *seq)
{
  for (int i = 0; seq && i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++) {
      const IrBinding *b = &seq->u.seq.blocks[i].bindings[j];
      const IrExpr *v = b->value;
      const IrBinding *inner = NULL;
      if (v->kind == IR_EX_IF && !(inner = first_unlowered(v->u.branch.then_)))
        inner = first_unlowered(v->u.branch.else_);
      if (inner)
        return inner;
      if (v->kind == IR_EX_CALL && v->u.call.kind == IR_CALL_OP && op_impl(v->u.call.op->id)->legalize)
        return b;
    }
  return NULL;
}

/* LegalizeOps ran and left an op call: the input asks for something the
 * lowering cannot do, so the error names the binding, not a pass. */
static void
report_unlowered(const OptContext *oc, const IrModule *m)
{
  for (int i = 0; i < m->nglobals; i++) {
    const IrGlobal *g = &m->globals[i];
    const IrBinding *b = g->kind == IR_GLOBAL_RELAX ? first_unlowered(g->u.relax->body) : NULL;
    if (!b)
      continue;
    IrBuf what = {0};
    ir_sinfo_print(b->value->sinfo ? b->value->sinfo : b->var->sinfo, &what);
    ir_error(oc->ctx, b->value->loc,
             "in binding '%s': R.%s cannot be compiled: it has no lowering to loops for a result "
             "of %s (a shape or dtype the inputs do not determine)",
             b->var ? b->var->u.var.name : "_",
             strncmp(b->value->u.call.op->name, "relax.", 6) == 0 ? b->value->u.call.op->name + 6
                                                                  : b->value->u.call.op->name,
             what.data ? what.data : "unknown struct info");
    ir_buf_free(&what);
    return;
  }
}

/* Runs one pass with its checks; NULL after errors.  legalized: LegalizeOps
 * ran before it in this pipeline. */
static IrModule *
run_one(const OptContext *oc, const IrModule *m, const OptPass *p, const OptInstruments *ins,
        FILE *log, bool legalized)
{
  IrLoc none = {0};
  const char *fix = NULL;
  unsigned broken = opt_check_needs(m, p->needs, &fix);
  if (broken == OPT_NEEDS_LEGALIZED && legalized) {
    report_unlowered(oc, m);
    return NULL;
  }
  if (broken) {
    ir_error(oc->ctx, none, "pass %s needs %s: run %s before it", p->name, need_text(broken), fix);
    return NULL;
  }
  double start = now_ms();
  size_t bytes = ir_arena_bytes(oc->ctx);
  IrModule *out = p->run(oc, m);
  if (ins && ins->time_passes)
    fprintf(log, "rxc: %-24s %9.3f ms %+9.1f MB\n", p->name, now_ms() - start,
            (double)(ir_arena_bytes(oc->ctx) - bytes) / 1e6);
  if (!out)
    return NULL;
  if (ins && ins->verify_each && ir_module_check(oc->ctx, out) > 0) {
    ir_error(oc->ctx, none, "pass %s produced an ill-formed module (errors above)", p->name);
    return NULL;
  }
  if (ins && ins->print_after && strcmp(ins->print_after, p->name) == 0) {
    IrBuf text = {0};
    ir_module_print_dialect(out, ins->dialect, &text);
    fprintf(log, "# after %s\n%s", p->name, text.data ? text.data : "");
    ir_buf_free(&text);
  }
  return out;
}

IrModule *
opt_run(const OptContext *oc, const IrModule *m, const OptPass *const *list, int n,
        const OptInstruments *ins)
{
  FILE *log = ins && ins->log ? ins->log : stderr;
  IrModule *cur = (IrModule *)m;
  bool legalized = false;
  for (int i = 0; i < n && cur; i++) {
    cur = run_one(oc, cur, list[i], ins, log, legalized);
    legalized = legalized || strcmp(list[i]->name, "LegalizeOps") == 0;
  }
  return cur;
}
