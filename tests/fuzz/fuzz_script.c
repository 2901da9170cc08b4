/*
 * fuzz_script.c - libFuzzer target for the TVMScript reader: parse the
 * input, check well-formedness of what parses, print it, and parse the
 * printed text again (the printer's output must always read back).
 *
 * Key idea: every stage must either succeed or leave errors in the ctx;
 * a crash, a sanitizer report, or printed text that does not parse is a
 * bug.  The round trip is checked only for modules that are well-formed,
 * since the printer's contract (docs/text-format.md) covers those.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../frontend/fe.h"
#include "../../ir/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  IrCtx *ctx = ir_ctx_new();
  const IrSource *src = ir_source_add(ctx, "fuzz.py", (const char *)data, size);
  IrModule *m = fe_parse(ctx, src);
  if (m && ir_error_count(ctx) == 0 && ir_module_check(ctx, m) == 0) {
    IrBuf text = {0};
    ir_module_print(m, &text);
    IrModule *again = fe_parse_string(ctx, "printed.py", text.data ? text.data : "");
    if (!again) {
      ir_diag_print(ctx, stderr);
      fprintf(stderr, "printed module does not parse:\n%s\n", text.data ? text.data : "");
      abort();
    }
    ir_buf_free(&text);
  }
  ir_ctx_free(ctx);
  return 0;
}
