/*
 * fuzz_pipeline.c - libFuzzer target for the whole compiler after the
 * reader: every input that parses and is well-formed goes through the
 * -O2 pipeline (with the pass manager's well-formedness check after each
 * pass), the memory planner and C generation into memory buffers.
 * Nothing is compiled or run.
 *
 * Key idea: a well-formed module either compiles or is refused with
 * errors; a crash, a sanitizer report, a pass that breaks well-formedness
 * (verify_each turns it into an error naming the pass, so it is flagged
 * here by abort), or "success" with errors recorded is a bug.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../codegen/cg.h"
#include "../../config/cfg.h"
#include "../../frontend/fe.h"
#include "../../ir/ir.h"
#include "../../memplan/mp.h"
#include "../../opt/opt.h"

enum { MAX_PIPELINE = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* True when a diagnostic says a pass produced an ill-formed module (opt's
 * own message, not a user string that happens to hold the words: the
 * fuzzer wrote out_layout="Nill-formedCHW"). */
static bool
pass_broke_module(const IrCtx *ctx)
{
  for (int i = 0; i < ir_diag_count(ctx); i++) {
    const char *msg = ir_diag_get(ctx, i)->msg;
    if (strncmp(msg, "pass ", 5) == 0 && strstr(msg, " produced an ill-formed module"))
      return true;
  }
  return false;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  IrCtx *ctx = ir_ctx_new();
  const IrSource *src = ir_source_add(ctx, "fuzz.py", (const char *)data, size);
  IrModule *m = fe_parse(ctx, src);
  if (!m || ir_error_count(ctx) || ir_module_check(ctx, m) || ir_error_count(ctx)) {
    ir_ctx_free(ctx);
    return 0;
  }
  CfgOptions cfg;
  cfg_defaults(&cfg);
  /* the planner's searches in a small budget: under the fuzzer's
   * instrumentation the default (1000) took 26 s on a 2.9 KB module that
   * plans in 0.8 s natively; the plans stay valid at any budget */
  cfg.memplan.budget_ms = 20;
  const OptPass *pipeline[MAX_PIPELINE];
  int n = cfg_pipeline(&cfg, pipeline, MAX_PIPELINE);
  OptInstruments ins = {.verify_each = true};
  OptContext oc = {.ctx = ctx};
  m = opt_run(&oc, m, pipeline, n, &ins);
  if (pass_broke_module(ctx)) {
    ir_diag_print(ctx, stderr);
    abort();
  }
  MpPlan *plan = m && !ir_error_count(ctx) ? mp_plan_module(ctx, m, &cfg) : NULL;
  CgOutput *out = plan && !ir_error_count(ctx) ? cg_generate(ctx, m, plan, &cfg, "fuzz") : NULL;
  if (out && ir_error_count(ctx)) {
    ir_diag_print(ctx, stderr);
    abort(); /* success reported beside errors */
  }
  cg_output_free(out);
  ir_ctx_free(ctx);
  return 0;
}
