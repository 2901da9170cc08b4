/* opt.h - the passes (prefix opt_).  Each takes a const module and returns
 * a new one (sharing what it did not change), or NULL after reporting
 * errors in ctx; the input is never changed. */
#ifndef RXC_OPT_H
#define RXC_OPT_H

#include <stdio.h>

#include "../ir/ir.h"

/* ------------------------------------------------------------------ */
/* pass.c: the pass manager                                            */
/* ------------------------------------------------------------------ */

/* BindParams' input: main's weights, read by the driver (api/road.c). */
typedef struct {
  const IrNamedTensor *tensors; /* by the name of the parameter each binds */
  int n;
  const char *label; /* where they came from (the .npz path), as messages name it */
} OptWeights;

/* What every pass receives besides its input module. */
typedef struct {
  IrCtx *ctx;
  const OptWeights *weights; /* BindParams: main's weights, or NULL (none given) */
  const char *patterns;    /* FuseOpsByPattern: comma-separated pattern names,
                              NULL for the built-in set */
  int vector_bytes;        /* LegalizeOps: the target's vector width ([target]
                              vector_bytes), which sizes register tiles; 0: 64 */
  int kernels; /* LegalizeOps: call rt/'s kernels ([opt] kernels): OpKernels (ops/op.h) */
} OptContext;

/* What a pass may require of its input.  Each need is checked on the
 * module itself (not on which passes ran), and names the pass that
 * establishes it. */
typedef enum {
  OPT_NEEDS_LEGALIZED = 1 << 0,   /* no call of an op LegalizeOps lowers */
  OPT_NEEDS_NO_DATAFLOW = 1 << 1, /* no dataflow blocks: ToNonDataflow */
  OPT_NEEDS_IMPURE_OK = 1 << 2,   /* every Relax function may hold impure calls
                                     (pure=False or relax.force_pure):
                                     RemovePurityChecking */
  OPT_NEEDS_EXPLICIT = 1 << 3,    /* no R.call_tir left: CallTIRRewrite */
} OptNeeds;

typedef struct {
  const char *name;   /* TVM's name: "FoldConstant" */
  IrModule *(*run)(const OptContext *oc, const IrModule *m);
  unsigned needs;     /* OptNeeds of its input */
  bool idempotent;    /* running it twice equals running it once */
  const char *summary;
} OptPass;

const OptPass *opt_pass_find(const char *name);
const OptPass *opt_pass_at(int i); /* every pass, in table order; NULL past the end */
/* The first need of `needs` that m breaks (0 when none); *fix gets the name
 * of the pass that establishes it. */
unsigned opt_check_needs(const IrModule *m, unsigned needs, const char **fix);

typedef struct {
  bool verify_each;        /* check well-formedness after every pass */
  bool time_passes;        /* print each pass's wall time */
  const char *print_after; /* print the module after each run of this pass */
  FILE *log;               /* where timings and printed modules go (stderr) */
  IrDialect dialect;       /* of the module print_after prints (zero: v0.23) */
} OptInstruments;

/* Sequential: runs the passes in order.  A pass whose needs the module
 * breaks is refused with an error naming the pass to run first; with
 * verify_each, a pass whose output is ill-formed is named.  Returns the
 * result, or NULL after errors in oc->ctx.  m is never changed. */
IrModule *opt_run(const OptContext *oc, const IrModule *m, const OptPass *const *passes, int n,
                  const OptInstruments *ins);

/* pipeline.c: the default pipeline of -O0..-O2, declared in one place.
 * Writes up to max passes to out and returns how many there are.  level
 * is 0..OPT_LEVEL_MAX (the driver and the configuration refuse others). */
enum { OPT_LEVEL_MAX = 2 };
int opt_pipeline(int level, const OptPass **out, int max);

/* fuse_pattern.c: TVM's op pattern of a prim_func (0 elementwise,
 * 1 broadcast, 2 injective, 3 reduction, 4 conv/matmul-like, 7 opaque):
 * its "op_pattern" attribute when present, else found from its body.
 * FuseOps uses it, and the memory planner's in-place reuse. */
int opt_prim_pattern(const IrPrimFunc *f);

/* ------------------------------------------------------------------ */
/* The passes, one a file (TVM's names in comments)                    */
/* ------------------------------------------------------------------ */

/* normalize.c */
/* Fills in the struct info of every call (by each op's inference) and of
 * every var without an annotation; reports, naming the binding, a call the
 * op rejects (rank or dtype mismatch, provably incompatible shapes) and an
 * annotation that contradicts the inferred struct info. */
IrModule *opt_normalize(IrCtx *ctx, const IrModule *m);

/* legalize.c */
/* LegalizeOps: replaces every call of a high-level op by R.call_tir of a
 * generated T.prim_func (symbolic shapes stay symbolic).  Runs
 * opt_normalize first when call struct info is missing. */
IrModule *opt_legalize_ops(IrCtx *ctx, const IrModule *m);
/* The same for a target whose vectors are vector_bytes wide (0: 64), with
 * kernel calls where the lowerings have them when kernels ([opt] kernels). */
IrModule *opt_legalize_ops_for(IrCtx *ctx, const IrModule *m, int vector_bytes, int kernels);

/* Every pass below has the OptPass signature. */
IrModule *opt_pass_normalize(const OptContext *oc, const IrModule *m);          /* Normalize */
IrModule *opt_pass_legalize_ops(const OptContext *oc, const IrModule *m);      /* LegalizeOps */
IrModule *opt_bind_params(const OptContext *oc, const IrModule *m);            /* BindParams */
IrModule *opt_canonicalize_bindings(const OptContext *oc, const IrModule *m);  /* CanonicalizeBindings */
IrModule *opt_dead_code_elimination(const OptContext *oc, const IrModule *m);  /* DeadCodeElimination */
IrModule *opt_fold_constant(const OptContext *oc, const IrModule *m);          /* FoldConstant */
IrModule *opt_fake_quant_to_int(const OptContext *oc, const IrModule *m);      /* FakeQuantizationToInteger */
IrModule *opt_decompose_ops_for_inference(const OptContext *oc, const IrModule *m); /* DecomposeOpsForInference */
IrModule *opt_fuse_ops(const OptContext *oc, const IrModule *m);               /* FuseOps */
IrModule *opt_fuse_tir(const OptContext *oc, const IrModule *m);               /* FuseTIR */
IrModule *opt_fuse_ops_by_pattern(const OptContext *oc, const IrModule *m);    /* FuseOpsByPattern */
IrModule *opt_merge_composite_functions(const OptContext *oc, const IrModule *m); /* MergeCompositeFunctions */
IrModule *opt_remove_unused_outputs(const OptContext *oc, const IrModule *m);  /* RemoveUnusedOutputs */
IrModule *opt_realize_vdevice(const OptContext *oc, const IrModule *m);        /* RealizeVDevice */
IrModule *opt_to_non_dataflow(const OptContext *oc, const IrModule *m);        /* ToNonDataflow */
IrModule *opt_remove_purity_checking(const OptContext *oc, const IrModule *m); /* RemovePurityChecking */
IrModule *opt_call_tir_rewrite(const OptContext *oc, const IrModule *m);       /* CallTIRRewrite */
IrModule *opt_kill_after_last_use(const OptContext *oc, const IrModule *m);    /* KillAfterLastUse */
IrModule *opt_lift_workspaces(const OptContext *oc, const IrModule *m);        /* LiftWorkspaces */

#endif
