/*
 * gen_row.h - what gen_row.c (the nest and the glue of a row kernel
 * call) and gen_row_expr.c (its EXPR as the kernel's program) share, and
 * no other file: the state of one row, Row, and the analysis both run.
 * The module's interface is cg_int.h's cg_row_emit.
 */
#ifndef CG_GEN_ROW_H
#define CG_GEN_ROW_H

#include "../rt/rt_types.h"
#define RXC_KERN_EXTERN 1 /* the opcodes and the prototype only */
#include "../rt/rt_kern_row.h"

#include "cg_int.h"

enum {
  ROW_MAX_NODES = 512, /* distinct subexpressions of one EXPR */
  ROW_MAX_SLOTS = 128, /* loads, and scalars, of one EXPR (a byte in the program) */
  ROW_MAX_INSNS = 255, /* instructions of a program (its first byte) */
  ROW_MAX_DEPTH = 8,   /* loops of a nest */
  ROW_MAX_CHAIN = 128, /* terms of a sum split into calls */
  ROW_MAX_PIECES = 8,  /* calls of a split sum */
};

typedef struct {
  const IrPrimExpr *e; /* the subexpression (its first occurrence) */
  int op;              /* RXC_R_* */
  int a, b, c;         /* operand nodes, -1: none */
  int slot;            /* RXC_R_LOAD: its pointer slot; RXC_R_SCALAR: its scalar slot */
  int last;            /* the last node that reads it */
  int reg;             /* its register */
  bool dead;           /* folded into an RXC_R_MADDL: no instruction */
  bool hoisted;        /* RXC_R_SCALAR in the prologue: set once per call */
} RowNode;

typedef struct {
  CgGen *g;
  IrArith *arith;
  const IrPrimFunc *f;
  const IrStmt *loop[ROW_MAX_DEPTH]; /* the nest, outermost first, each all of its parent's body */
  IrPrimExpr *extent[ROW_MAX_DEPTH]; /* its iterations (a literal guard's count for j's) */
  bool fixed[ROW_MAX_DEPTH]; /* its extent is 1: its var is its min, not a loop of the call */
  int depth;
  int split;           /* loop[split..depth) run a row's elements (j), the others its rows (i) */
  const IrPrimExpr *j; /* the var of the row's innermost loop that is not fixed */
  const IrPrimExpr *i; /* the var of the rows' innermost loop that is not fixed, or NULL */
  const IrStmt *store; /* the loop's store */
  const IrPrimExpr *guard;   /* the condition of the if around it, or NULL */
  const IrBuffer *root;      /* the memory DST is declared over */
  bool aliased;              /* two buffer parameters may share bytes (CgPrim) */
  IrVec plain;               /* loads evaluated outside select arms (IrPrimExpr *) */
  const IrPrimExpr *assumed; /* an invariant select condition the program takes as known, or NULL */
  bool assumed_value;        /* its value: the program is its select's arm a (true) or b */
  const IrPrimExpr *top;     /* what the program computes: EXPR, or a piece of its sum (split) */
  const IrPrimExpr *cut;     /* the piece below top, which an earlier call stored in DST, or NULL */
  const IrPrimExpr *piece[ROW_MAX_PIECES]; /* a split sum's calls' tops, first call first */
  int pieces;                              /* 0: not split */
  const IrStmt
      *inlined; /* a loop whose scratch row EXPR computes in place of loading it, or NULL */
  RowNode node[ROW_MAX_NODES];
  int n;
  const IrPrimExpr *load[ROW_MAX_SLOTS]; /* the pointer slots */
  IrPrimExpr *stride[ROW_MAX_SLOTS];     /* their strides in j (int64) */
  IrPrimExpr *row_stride[ROW_MAX_SLOTS]; /* and in i (0 without an outer loop) */
  int nloads;
  const IrPrimExpr *scalar[ROW_MAX_SLOTS]; /* the scalar slots */
  int nscalars;
  int prologue; /* leading RXC_R_SCALAR instructions run once per call */
} Row;

/* gen_row_expr.c: what is j-invariant, affine, and where it points */
bool cg_row_uses(const IrPrimExpr *e, const IrPrimExpr *j); /* does e read var j? */
/* Does e depend on the loops of the nest (those not fixed)? */
bool cg_row_varies(const Row *r, const IrPrimExpr *e);
bool cg_row_is_f32(IrDType t); /* scalar float32 */
bool cg_row_is_int(IrDType t); /* scalar integer, signed or not */
/* The coefficient of j in integer expression e, an int64 expression, when
 * e is affine in j; NULL otherwise. */
IrPrimExpr *cg_row_coefficient(IrCtx *ctx, const IrPrimExpr *e, const IrPrimExpr *j);
/* The stride in var (j or i) of a load (or the store) of b at idx,
 * simplified; NULL when not affine. */
IrPrimExpr *cg_row_stride_of(Row *r, const IrBuffer *b, IrPrimExpr *const *idx, int n,
                             const IrPrimExpr *var);
/* Is e a choice that C writes with ?: (a select, or tir.if_then_else)?
 * *c, *a and *b get its condition and arms. */
bool cg_row_choice(const IrPrimExpr *e, const IrPrimExpr **c, const IrPrimExpr **a,
                   const IrPrimExpr **b);
/* ir_prim_walk callback, user the Row: does load e break the rules of
 * DST's memory (gen_row.c's file comment)? */
bool cg_row_load_conflicts(const IrPrimExpr *e, void *user);

/* gen_row_expr.c: EXPR as a program */
const IrPrimExpr *cg_row_bare(const IrPrimExpr *e); /* e without float32 to float32 casts */
int cg_row_instructions(const Row *r);              /* the program's instructions */
/* EXPR as a program (with r->assumed's value): its result's node, -1
 * when it has something the kernel does not do or does not fit. */
int cg_row_build(Row *r);

#endif /* CG_GEN_ROW_H */
