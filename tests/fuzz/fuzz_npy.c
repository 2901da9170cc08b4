/*
 * fuzz_npy.c - libFuzzer target for the .npy and .npz readers
 * (frontend/npy.c): the same bytes go to both.
 *
 * Key idea: a reader must never read past the bytes it is given and must
 * answer every malformed file with an error; what it accepts must encode
 * and decode back to the same shape (a second, independent path through
 * the encoder).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../frontend/fe.h"
#include "../../ir/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* t encodes as .npy and reads back with the same dtype and shape. */
static void
check_round_trip(IrCtx *ctx, const IrTensorData *t)
{
  IrBuf b = {0};
  if (fe_npy_encode(t, &b) && b.len > 0) {
    IrTensorData u;
    if (!fe_npy_parse(ctx, "again.npy", (const unsigned char *)b.data, b.len, &u) ||
        u.ndim != t->ndim || memcmp(u.shape, t->shape, sizeof *t->shape * (size_t)t->ndim) != 0)
      abort();
  }
  ir_buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  IrCtx *ctx = ir_ctx_new();
  IrTensorData t;
  if (fe_npy_parse(ctx, "fuzz.npy", data, size, &t))
    check_round_trip(ctx, &t);
  FeNpzEntry *entries = NULL;
  int n = fe_npz_parse(ctx, "fuzz.npz", data, size, &entries);
  for (int i = 0; i < n; i++)
    check_round_trip(ctx, &entries[i].t);
  ir_ctx_free(ctx);
  return 0;
}
