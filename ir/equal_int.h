/*
 * equal_int.h - the walker shared by the files of structural equality
 * (equal.c: modules and Relax; equal_tir.c: loop level; equal_walk.c: the
 * walker itself, leaves and attributes).
 *
 * Key idea: one traversal serves both equality and hashing.  Every walk
 * function takes a pair (a, b).  In WALK_EQUAL mode it compares them and
 * returns false at the first difference.  In WALK_HASH mode it is called with
 * b == a, mixes every value it would compare into the hash, and always
 * returns true.  Because both modes visit the same fields in the same order,
 * equal inputs mix identical sequences: the hash is consistent with equality
 * by construction.
 *
 * Bound variables (Relax vars, TIR vars, buffers) are matched by a bijection
 * built in traversal order: the first meeting of (a, b) maps a->b and b->a,
 * later meetings must agree both ways.  The hash mixes a variable's
 * first-occurrence index instead of its identity, so renaming changes
 * neither result.
 */
#ifndef RXC_EQUAL_INT_H
#define RXC_EQUAL_INT_H

#include "ir.h"

typedef enum {
  WALK_EQUAL, /* compare a with b */
  WALK_HASH,  /* b == a; mix a into h */
} WalkMode;

typedef struct {
  WalkMode mode;
  bool identity; /* vars and buffers compare by pointer (free vars) */
  IrMap a2b;     /* WALK_EQUAL: a's bound objects to b's */
  IrMap b2a;     /* WALK_EQUAL: the inverse */
  IrMap index;   /* WALK_HASH: bound object -> first-occurrence index + 1 */
  uintptr_t next_index;
  uint64_t h; /* WALK_HASH: running hash */
  IrBuf *why; /* WALK_EQUAL: where to explain the first difference */
  IrBuf path; /* frames "function 'f': param 0: ..." (only with why) */
} Walk;

/* What meeting a bound object pair found. */
typedef enum {
  BIND_NEW,  /* first meeting: the caller compares/hashes its details */
  BIND_SAME, /* met before, consistently */
  BIND_BAD,  /* inconsistent with an earlier meeting */
} BindResult;

/* --- equal_walk.c: the walker, leaves, attributes ------------------ */

void ir_walk_init(Walk *w, WalkMode mode, IrBuf *why);
void ir_walk_free(Walk *w);
void ir_walk_reset_vars(Walk *w); /* forget bound vars (per global function) */
void ir_walk_mix(Walk *w, uint64_t v);
void ir_walk_mix_str(Walk *w, const char *s);
BindResult ir_walk_bind(Walk *w, const void *a, const void *b);
size_t ir_path_push(Walk *w, const char *fmt, ...);
void ir_path_pop(Walk *w, size_t saved);
bool ir_mismatch(Walk *w, const char *fmt, ...);

bool ir_same_int(Walk *w, int64_t a, int64_t b, const char *what);
bool ir_same_bool(Walk *w, bool a, bool b, const char *what, const char *yes, const char *no);
bool ir_same_dtype(Walk *w, IrDType a, IrDType b, const char *what);
bool ir_same_str(Walk *w, const char *a, const char *b, const char *what);
bool ir_same_double(Walk *w, double a, double b, const char *what);
bool ir_same_count(Walk *w, int a, int b, const char *what);
bool ir_same_presence(Walk *w, const void *a, const void *b, const char *what);
bool ir_walk_attr(Walk *w, const IrAttr *a, const IrAttr *b);
bool ir_walk_attr_dict(Walk *w, const IrAttr *a, const IrAttr *b, const char *what);
bool ir_double_is_nan(double d);

/* --- equal_tir.c: the loop level ----------------------------------- */

bool ir_walk_prim(Walk *w, const IrPrimExpr *a, const IrPrimExpr *b);
bool ir_walk_prims(Walk *w, IrPrimExpr *const *a, IrPrimExpr *const *b, int n, const char *label);
bool ir_walk_prim_func(Walk *w, const IrPrimFunc *a, const IrPrimFunc *b);
void ir_describe_prim(const IrPrimExpr *e, IrBuf *out);

/* --- equal.c: the graph level ---------------------------------------- */

bool ir_walk_sinfo(Walk *w, const IrSInfo *a, const IrSInfo *b);

#endif
