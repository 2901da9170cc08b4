/* wf_int.h - what the files of the well-formedness checker share: the
 * checker's state, a map from nodes to entries, and error reporting.  No other
 * file includes it. */
#ifndef RXC_WF_INT_H
#define RXC_WF_INT_H

#include "ir.h"

/* One entry of a WfMap: a node (var, buffer) and what the checker knows
 * about it. */
typedef struct {
  const void *key;  /* NULL: free slot */
  int state;        /* meaning chosen by the user of the map */
  int depth;        /* TIR: how many binders of this var enclose the point */
  const void *data; /* Relax: the IrFunction bound to a local function var */
} WfEntry;

/* A map from node pointers to entries, on the heap. */
typedef struct {
  IrMap index;      /* key -> its entry's index + 1 */
  WfEntry *entries; /* in the order added */
  size_t len, cap;  /* entries used and allocated */
} WfMap;

WfEntry *ir_wf_map_get(const WfMap *map, const void *key); /* NULL when absent */
WfEntry *ir_wf_map_put(WfMap *map, const void *key);       /* adds a zeroed entry */
void ir_wf_map_clear(WfMap *map);
void ir_wf_map_free(WfMap *map);

/* What part of a function an error is in; printed after the function. */
typedef enum {
  WF_AT_FUNCTION, /* nothing more */
  WF_AT_BINDING,  /* where_name: binding 'lv' */
  WF_AT_PARAM,    /* where_name: parameter 'x' */
  WF_AT_RESULT,   /* the return value */
  WF_AT_RET,      /* the return annotation */
  WF_AT_BLOCK,    /* where_name: TIR block 'C' */
} WfWhere;

/* Relax var states in WfChecker.vars.  A function's every binder is entered
 * PENDING before its body is walked, so a use can tell "before" from
 * "never". */
enum {
  WF_VAR_PENDING = 1, /* bound later in the function */
  WF_VAR_VISIBLE,     /* bound and in scope */
  WF_VAR_GONE,        /* bound, but its scope (branch, block, function) ended */
};

typedef struct {
  IrCtx *ctx;
  const IrModule *m;
  int nerrors;
  const char *func;       /* function being checked: "main", "main.f" (local) */
  WfWhere where;          /* part of the function being checked */
  const char *where_name; /* binding, parameter or block name */
  IrLoc loc;              /* binding or TIR statement being checked */
  IrLoc func_loc;         /* fallback location */
  const IrExpr *call;     /* innermost call being checked, or NULL */
  WfMap vars;             /* Relax vars (WF_VAR_*) or TIR binder vars */
  IrVec scope;            /* Relax vars bound, in order; TIR buffers in scope */
  bool in_dataflow;       /* inside a dataflow block */
  bool pure;              /* the function must be pure (no force_pure) */
} WfChecker;

/* Records "in function 'F'[, WHERE]: MESSAGE" at loc (at the function's loc
 * when loc is unknown) and counts it. */
void ir_wf_error(WfChecker *c, IrLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool ir_wf_loc_known(IrLoc loc);
const char *ir_wf_name(IrSym s); /* "?" for NULL */

/* wf_relax.c */
void ir_wf_check_function(WfChecker *c, const char *name, const IrFunction *f);

/* wf_sinfo.c */
/* Reports every struct info inside s that contradicts itself; what names
 * the struct info in the message ("annotation", "match_cast struct info"). */
void ir_wf_check_sinfo(WfChecker *c, const IrSInfo *s, IrLoc loc, const char *what);
bool ir_wf_sinfo_consistent(const IrSInfo *s);
/* Does the annotation contradict the value's struct info?  Both may be NULL
 * (then no).  On yes, writes the first difference into why. */
bool ir_wf_sinfo_contradicts(const IrSInfo *annotation, const IrSInfo *value, IrBuf *why);

/* wf_tir.c */
void ir_wf_check_prim_func(WfChecker *c, const char *name, const IrPrimFunc *f);

#endif
