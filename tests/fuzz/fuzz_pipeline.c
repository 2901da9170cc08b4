/*
 * fuzz_pipeline.c - libFuzzer target for the whole compiler after the
 * reader: every input that parses and is well-formed goes the road
 * (api/road.h) through the -O2 pipeline (with the pass manager's
 * well-formedness check after each pass), the memory planner and C
 * generation into memory buffers.  Nothing is compiled or run.
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

#include "../../api/road.h"
#include "../../frontend/fe.h"

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
  if (!m || ir_error_count(ctx)) {
    ir_ctx_free(ctx);
    return 0;
  }
  CfgOptions cfg;
  cfg_defaults(&cfg);
  /* the planner's searches in a small budget: under the fuzzer's
   * instrumentation the default (1000) took 26 s on a 2.9 KB module that
   * plans in 0.8 s natively; the plans stay valid at any budget */
  cfg.memplan.budget_ms = 20;
  OptInstruments ins = {.verify_each = true};
  RxcRoadIn in = {.path = "fuzz.py", .module = m, .cfg = &cfg, .ins = &ins, .name = "fuzz"};
  RxcRoadOut road;
  bool ok = rxc_road(ctx, &in, RXC_STAGE_GENERATE, &road);
  if (pass_broke_module(ctx)) {
    ir_diag_print(ctx, stderr);
    abort();
  }
  CgOutput *out = road.out;
  if (ok != (out != NULL) || (out && ir_error_count(ctx))) {
    ir_diag_print(ctx, stderr);
    abort(); /* success reported beside errors */
  }
  cg_output_free(out);
  ir_ctx_free(ctx);
  return 0;
}
