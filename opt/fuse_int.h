/* fuse_int.h - what the files of FuseOps and FuseTIR share: the op-pattern
 * classification of prim_funcs (fuse_pattern.c) and the copy of TIR bodies
 * under a substitution (fuse_tir_copy.c).  Only opt/fuse_*.c include it. */
#ifndef RXC_FUSE_INT_H
#define RXC_FUSE_INT_H

#include "opt_int.h"

/* TVM's OpPatternKind, with its numbers (T.func_attr "op_pattern"). */
typedef enum {
  FUSE_ELEMWISE = 0,    /* out[i] = f(in[i]) for every input */
  FUSE_BROADCAST = 1,   /* inputs read at a subsequence of out's index (or 0) */
  FUSE_INJECTIVE = 2,   /* one store per output element, any input index */
  FUSE_COMM_REDUCE = 3, /* reduction (sum, max, pooling, softmax) */
  FUSE_OUT_EWISE = 4,   /* multiply-accumulate: conv2d, matmul */
  FUSE_OPAQUE = 7,      /* anything else: never fused */
} FusePattern;

/* fuse_pattern.c */
/* f's "op_pattern" attribute when it has one, else the pattern found by
 * analysing its body (see fuse_pattern.c); FUSE_OPAQUE when in doubt. */
FusePattern opt_fuse_pattern_of(const IrPrimFunc *f);

/* fuse_group.c */
/* The call that replaces a group: a new private Relax function with
 * {"Primitive": True} made of the members (bindings of R.call_tir, in
 * order; the last one's var is the result), named fused_<prim names>
 * (unique in names, which holds every global's name and gets the new
 * one), appended to new_globals and added to made, called with inputs
 * (IrExpr*: the members' arguments bound outside the group).  When made
 * has a function equal to the group's, the call is of that one, and
 * nothing is added (TVM's BlockBuilder deduplicates alike). */
IrExpr *opt_fuse_make_group(IrCtx *ctx, IrNames *names, IrFuncSet *made, IrVec *new_globals,
                            const IrBinding **members, int n, const IrVec *inputs);

/* fuse_tir_copy.c */
/* Copies TIR statements with every loop, let and block var and every
 * allocated buffer made anew (so one prim_func's body can be inlined twice
 * into one function), and free vars and buffers replaced through map. */
typedef struct {
  IrCtx *ctx;
  IrMap map;     /* old TIR var or buffer -> new (vars: IrPrimExpr, buffers: IrBuffer) */
  IrVec *names;  /* IrSym: buffer names taken in the function being built */
  IrVec *blocks; /* IrSym: block names taken there */
  bool unmapped; /* a free var or buffer without an entry in map was met */
} FuseCopy;

/* s copied; check c->unmapped afterwards. */
IrStmt *opt_fuse_copy_stmt(FuseCopy *c, const IrStmt *s);
IrPrimExpr *opt_fuse_copy_expr(FuseCopy *c, const IrPrimExpr *e);
/* base, base_1, base_2, ...: the first name not in names; added to names. */
IrSym opt_fuse_unique_name(IrCtx *ctx, IrVec *names, const char *base);
/* A new buffer like b (shape copied through c) named uniquely. */
IrBuffer *opt_fuse_copy_buffer(FuseCopy *c, const IrBuffer *b);
/* The statement that reads back from printing items in order: a binder
 * (let, alloc) holds the rest of the list as its body; lists of one are
 * the statement itself.  Binders among items are changed in place (they
 * must be new nodes). */
IrStmt *opt_fuse_build_list(IrCtx *ctx, IrStmt **items, int n);
/* fuse_tir_inline.c: joins each loop nest of items (flat, as
 * opt_fuse_flatten makes them) that reads an intermediate of allocs only where
 * the nest before it has just written it into that nest; the intermediate
 * is dropped from both lists' use and from allocs. */
void opt_fuse_join_nests(IrCtx *ctx, IrVec *items, IrVec *allocs);
/* Appends the items of s as the reader sees them: a seq's statements, a
 * binder followed by the items of its body. */
void opt_fuse_flatten(IrVec *items, IrStmt *s);

#endif
