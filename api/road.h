/* road.h - the road from a model to C, in one function (prefix rxc_):
 *
 *   FILE.py | FILE.onnx | text | module
 *     --READ--> IrModule --CHECK--> well-formed --PASSES--> the pipeline,
 *     weights bound --PLAN--> MpPlan --GENERATE--> CgOutput (C text)
 *
 * rxc_road runs the stages in that order and stops after the one asked
 * for: `rxc opt` after PASSES, `rxc plan` after PLAN, `rxc compile`, `rxc
 * run --via`, the library API (rxc.c: the JIT compiles the C) and the
 * benchmark after GENERATE.  The input is always checked, because every
 * pass assumes well-formed input.  Internal: the command line and the
 * library use it; users of the library see rxc.h only. */
#ifndef RXC_ROAD_H
#define RXC_ROAD_H

#include <stdbool.h>

#include "../codegen/cg.h"
#include "../config/cfg.h"
#include "../ir/ir.h"
#include "../memplan/mp.h"
#include "../opt/opt.h"

enum { RXC_MAX_PASSES = 64 }; /* passes in one pipeline */

typedef enum {
  RXC_STAGE_READ,     /* parse TVMScript or import ONNX: out->module */
  RXC_STAGE_CHECK,    /* well-formedness and struct info (ir_module_check) */
  RXC_STAGE_PASSES,   /* the pipeline, main's weights bound: out->module */
  RXC_STAGE_PLAN,     /* the static memory plan: out->plan */
  RXC_STAGE_GENERATE, /* the C files: out->out */
} RxcStage;

/* What the road has built so far. */
typedef struct {
  const char *name; /* NAME of the generated files and symbols */
  IrModule *module; /* as read, then after the passes */
  MpPlan *plan;     /* after PLAN */
  CgOutput *out;    /* after GENERATE; the caller frees it (cg_output_free) */
} RxcRoadOut;

/* Told before each stage starts, with what is built so far.  It may
 * record errors in ctx (the road then stops) or print and clear the
 * diagnostics so far. */
typedef void (*RxcStageFn)(void *user, RxcStage stage, const RxcRoadOut *so_far);

/* Where the road starts and what it is given. */
typedef struct {
  const char *path;             /* the model (.py TVMScript, .onnx ONNX); names it in messages */
  const char *text;             /* TVMScript to read instead of the file at path, or NULL */
  IrModule *module;             /* a module already read (READ does nothing), or NULL */
  const char *params;           /* a .npz of main's weights for BindParams, or NULL */
  const CfgOptions *cfg;        /* read at each stage (a step function may change it) */
  const OptPass *const *passes; /* with npasses: the pipeline (rxc opt --passes);
                                   NULL: cfg's (rxc_road_pipeline) */
  int npasses;
  const OptInstruments *ins; /* NULL: cfg's verify_each, and each pass timed on
                                stderr when cfg->verbosity > 0 */
  const char *name;          /* NAME of the C; NULL: cfg's [codegen] prefix, else
                                the base name of path (rxc_name_from_path) */
  bool jit;                  /* for a JIT (cg_jit_tcc, cg_jit_cc): GENERATE writes the
                                weights as a blob whatever cfg says, which the JIT
                                hands to the code as memory (no C text to compile) */
  RxcStageFn step;           /* may be NULL */
  void *user;                /* step's */
} RxcRoadIn;

/* road.c */
/* Runs the stages of in from READ to stop_after (each stage only when the
 * ones before it left no error in ctx) and fills *out.  The weights are
 * read from in->params (fe_npz_read) only when the pipeline runs
 * BindParams, before its first pass.  Returns false after errors in ctx;
 * out then holds what was built (out->out is NULL).  Prints nothing but
 * the instruments' output (--time-passes, --print-after) on their log. */
bool rxc_road(IrCtx *ctx, const RxcRoadIn *in, RxcStage stop_after, RxcRoadOut *out);
/* cfg's pipeline: opt_pipeline(level) without passes_remove, then
 * passes_add, resolved by name.  Writes up to max passes to out and
 * returns how many; -1 after an error in ctx (a name no pass has). */
int rxc_road_pipeline(IrCtx *ctx, const CfgOptions *cfg, const OptPass **out, int max);
/* Whether s is a C identifier (a NAME of generated C). */
bool rxc_is_identifier(const char *s);
/* A C identifier from path's base name without its extension ("m" before a
 * leading digit, other characters as '_'; "model" when nothing is left). */
const char *rxc_name_from_path(IrCtx *ctx, const char *path);

#endif
