/* print_int.h - what the printer's files (printer.c, print_relax.c,
 * print_tir.c) share: the printer state, naming, and text helpers.
 * No other folder includes it. */
#ifndef RXC_PRINT_INT_H
#define RXC_PRINT_INT_H

#include "ir.h"

/* A set of pointers, plus the order of insertion (what is printed
 * follows it, never the map's slots). */
typedef struct {
  IrMap members;      /* key -> key */
  const void **order; /* heap: inserted keys in order */
  size_t count, cap;  /* entries of order used and allocated */
} PtrSet;

bool ir_ptrset_add(PtrSet *s, const void *key); /* true when newly added */
bool ir_ptrset_has(const PtrSet *s, const void *key);
void ir_ptrset_free(PtrSet *s);

/* Printed names of the nodes of one function: each variable or buffer gets
 * its own name, the stored one when free, else "name_1", "name_2", ... */
typedef struct {
  IrMap bykey;  /* node -> its name (char *, borrowed from used) */
  IrNames used; /* the names taken, each base's last suffix kept, so that
                 * naming N vars "alloc" costs O(N) tries, not O(N^2) */
} NameMap;

typedef struct {
  IrBuf *out;
  const IrModule *mod; /* NULL when printing a lone node */
  int indent;          /* nesting depth, 4 spaces each */
  bool tir;            /* literal rules of TIR (int32 bare) not Relax (int64 bare) */
  bool sig;            /* in a Relax signature: symbolic dims as strings */
  bool raw_names;      /* lone node: names as stored, no map */
  IrDialect dialect;   /* which TVM's TVMScript (ir.h) */
  IrMap moved;         /* v0.26: prim func name -> its ScalarMove (heap) */
  bool inexact;        /* some tir_vars were moved: the text is another form */
  NameMap names;
  const IrStmt **loops; /* enclosing TIR loops, innermost last */
  int nloops, loop_cap;
} Printer;

/* printer.c */
void ir_pr_puts(Printer *p, const char *s);
void ir_pr_printf(Printer *p, const char *fmt, ...);
void ir_pr_indent(Printer *p); /* starts a line at the current depth */
/* A whole line "# rxc: cannot print WHAT" at the current depth. */
void ir_pr_cannot(Printer *p, const char *fmt, ...);
void ir_pr_string(Printer *p, const char *s); /* a quoted Python string */
void ir_pr_dtype(Printer *p, IrDType t);      /* "float32" without quotes */
/* Shortest text that reads back to v (as a float when single), always
 * with '.' or 'e'; NaN and infinities as nan, inf, -inf (unquoted). */
void ir_pr_float_text(IrBuf *b, double v, bool single);
void ir_pr_attr(Printer *p, const IrAttr *a);
/* The printed name of node key, given its stored name. */
const char *ir_pr_name(Printer *p, const void *key, const char *stored);
/* Names key2 as key1 is named (a buffer and its parameter var). */
void ir_pr_name_alias(Printer *p, const void *key2, const void *key1);
void ir_pr_names_reset(Printer *p);
/* "kind:i" for vdevice index i of the module; "vdevice:i" without one. */
void ir_pr_vdevice(Printer *p, int index);

/* How v0.26 says a call_tir with tir_vars: the scalars follow the inputs
 * in the argument tuple, so the prim func's parameters print as inputs,
 * scalars, outputs instead of inputs, outputs, scalars. */
typedef struct {
  int ninputs;   /* tensor arguments of the calls */
  int nscalars;  /* tir_vars of the calls: the last nscalars parameters */
  bool conflict; /* calls disagree, one has no tuple, or the prim func is
                    used otherwise (a direct call): not moved */
} ScalarMove;

/* print_relax.c */
/* Fills p->moved from every call_tir and call_tir_inplace of the module. */
void ir_pr_scan_moves(Printer *p);
/* The move of prim func name, NULL when its parameters keep their order. */
const ScalarMove *ir_pr_move(const Printer *p, IrSym name);
void ir_pr_sinfo(Printer *p, const IrSInfo *s);
void ir_pr_relax_function(Printer *p, IrSym name, const IrFunction *f);

/* print_tir.c */
void ir_pr_prim(Printer *p, const IrPrimExpr *e);
void ir_pr_prim_func(Printer *p, IrSym name, const IrPrimFunc *f);

#endif
