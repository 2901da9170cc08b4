/* ir_int.h - what the files of ir/ share and no other folder sees. */
#ifndef RXC_IR_INT_H
#define RXC_IR_INT_H

#include "ir.h"

typedef struct Chunk Chunk;

struct IrCtx {
  Chunk *chunks;      /* arena: newest first */
  char **sym_table;   /* open-addressing table of interned strings */
  size_t sym_cap;     /* power of two */
  size_t sym_count;
  IrDiag *diags;      /* heap array */
  int ndiags, diag_cap;
  int nerrors;
  IrSource **sources; /* heap array of arena-allocated sources */
  int nsources, source_cap;
};

#endif
