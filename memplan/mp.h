/*
 * mp.h - the static memory planner (prefix mp_).
 *
 * Two layers.  The core (core.c, validate.c) knows nothing of the IR: it
 * places buffers with live intervals into one arena and checks a placement
 * independently.  The IR side (plan.c) reads a Relax function after
 * CallTIRRewrite and KillAfterLastUse (alloc_storage / alloc_tensor /
 * kill_*), derives each storage's lifetime and byte size at the upper
 * bounds of the symbolic dims, decides every "tensor fits its storage"
 * question with ir/arith (always: nothing emitted; never: a compile-time
 * error; depends: a runtime precondition), and asks the core for offsets.
 */
#ifndef RXC_MP_H
#define RXC_MP_H

#include "../config/cfg.h"
#include "../ir/ir.h"

/* ------------------------------------------------------------------ */
/* core.c, validate.c: buffers in one arena                            */
/* ------------------------------------------------------------------ */

typedef struct {
  int id;         /* the caller's identifier */
  int64_t start;  /* first step at which it is live */
  int64_t end;    /* one past the last step (half-open, as MiniMalloc) */
  int64_t size;   /* bytes, > 0 */
  int64_t align;  /* a power of two >= 1 */
  int kind;       /* pooled algorithm only: buffers of different kinds
                     (e.g. dtypes) never share a storage */
  int64_t offset; /* out: byte offset in the arena, a multiple of align */
} MpBuffer;

typedef enum {
  MP_ALGO_BEST,          /* the smallest of every algorithm below but pooled */
  MP_ALGO_GREEDY_SIZE,   /* largest first, first-fit among overlapping ones */
  MP_ALGO_GREEDY_BREADTH,/* by start time, first-fit */
  MP_ALGO_EXACT,         /* greedy_size, then the exact search (search.c) */
  MP_ALGO_POOLED,        /* TVM's StaticPlanBlockMemory rule, for comparison */
  MP_ALGO_GREEDY_LENGTH, /* longest lifetime first, first-fit */
  MP_ALGO_GREEDY_AREA,   /* largest size x lifetime first, first-fit */
  MP_ALGO_GREEDY_GLOW,   /* Glow's order (busiest step, its largest), first-fit */
  MP_ALGO_BEST_FIT,      /* largest first, each in the smallest gap it fits */
  MP_ALGO_LOCAL,         /* the best greedy, then the order-swap local search */
} MpAlgorithm;

enum { MP_NALGORITHMS = MP_ALGO_LOCAL + 1 };

typedef struct {
  MpAlgorithm algorithm;
  int64_t budget_ms;     /* budget of the searches, <= 0: the default; counted
                            in work (MP_WORK_PER_MS units a millisecond), never
                            in wall time, so results do not depend on the
                            machine */
  int64_t capacity;      /* > 0: stop at the first plan whose arena is at most
                            this (MiniMalloc's problems); 0: at the lower bound */
} MpOptions;

/* What mp_solve_stats found out. */
typedef struct {
  MpAlgorithm chosen;    /* the algorithm whose plan was kept (best: the
                            first to reach the smallest arena) */
  int64_t work;          /* units of work spent */
  bool optimal;          /* the arena is the rounded lower bound, or the exact
                            search proved nothing smaller fits */
} MpStats;

/* Assigns every buffer an offset; returns the arena size in bytes (the
 * highest end of a placed buffer, rounded up to the largest alignment).
 * Deterministic: the same input gives the same offsets. */
int64_t mp_solve(MpBuffer *bufs, int n, const MpOptions *o);
/* mp_solve, and what it found out in *st (when non-NULL). */
int64_t mp_solve_stats(MpBuffer *bufs, int n, const MpOptions *o, MpStats *st);
/* The name of an algorithm as [memplan] algorithm spells it ("best"). */
const char *mp_algorithm_name(MpAlgorithm a);
/* The largest total of bytes live at one step: no plan can be smaller. */
int64_t mp_lower_bound(const MpBuffer *bufs, int n);
/* The sum of all sizes (each aligned): one buffer after another. */
int64_t mp_naive_sum(const MpBuffer *bufs, int n);
/* Independent check of a placement: every buffer inside [0, arena),
 * offsets aligned, no two buffers live at one step overlapping in bytes.
 * On failure writes the first problem to why (when non-NULL). */
bool mp_validate(const MpBuffer *bufs, int n, int64_t arena, IrBuf *why);

/* ------------------------------------------------------------------ */
/* plan.c: the plan of a module                                        */
/* ------------------------------------------------------------------ */

/* A storage of the function and where it lives. */
typedef struct {
  const IrExpr *var;     /* the var bound to R.memory.alloc_storage */
  const IrExpr *tensor;  /* the binding that produced its bytes: the first
                            tensor carved from it, under the name a later
                            `y = x` gave it (the source's name); NULL when no
                            tensor views it */
  IrPrimExpr *bytes;     /* its size; symbolic dims allowed */
  int64_t bytes_max;     /* its size at the upper bounds (-1: unbounded) */
  int64_t offset;        /* in the arena (when bounded) */
  IrPrimExpr *offset_expr; /* symbolic offset when a dim is unbounded, else NULL */
  int64_t start, end;    /* live steps: [first alloc_tensor, last use of any
                            tensor viewing it] */
  bool inplace;          /* shares an input's bytes that die here */
  bool output;           /* flows into the function's result: written into
                            the caller's buffer, never in the arena (such
                            storages are in MpFunctionPlan.outputs only) */
} MpStorage;

/* A condition the generated entry (and the interpreter) checks before
 * anything is written, e.g. m <= 4. */
typedef struct {
  IrPrimExpr *cond;      /* must be true */
  const char *what;      /* "binding 'alloc': tensor of m * 4 bytes in storage of 16 bytes" */
  IrLoc loc;
} MpCheck;

typedef struct {
  IrSym name;            /* the Relax function */
  MpStorage *storages;
  int nstorages;
  MpCheck *checks;
  int nchecks;
  int64_t arena_bytes;   /* at the upper bounds; -1 when unbounded */
  IrPrimExpr *arena_expr;/* arena size as an expression of the dims when
                            some dim is unbounded, else NULL */
  IrSym *unbounded;      /* with arena_expr: the dims it depends on that
                            have no upper bound, by name */
  int nunbounded;
  IrSym *dims;           /* every symbolic dim of the function, by name */
  int ndims;
  int64_t lower_bound;   /* bytes */
  int64_t naive_sum;     /* bytes */
  int64_t pooled_bytes;  /* TVM's StaticPlanBlockMemory rule, for comparison */
  int ninplace;          /* storages reused in place */
  MpStorage *outputs;    /* storages of the result: not in the arena, no
                            offset; the caller provides their bytes */
  int noutputs;
  MpBuffer *problem;     /* what the core placed (bounded storages, one
                            buffer an in-place group; id: the storage's
                            index among all), with offsets: what
                            `rxc plan --emit-lifetimes` writes */
  int nproblem;
} MpFunctionPlan;

typedef struct {
  MpFunctionPlan *funcs; /* one per public Relax function */
  int nfuncs;
  int64_t arena_bytes;   /* the largest of the functions' arenas */
  int64_t align;         /* arena alignment (from the configuration) */
  int64_t weights_bytes; /* the module's constants (each once): what the
                            generated C holds as static const (flash) */
} MpPlan;

/* Plans every public Relax function of m (which must have explicit memory:
 * CallTIRRewrite and KillAfterLastUse ran).  A tensor that provably never
 * fits its storage, or a plan above cfg's arena_limit, is an error
 * (naming the function, the binding and the sizes); so is an arena that
 * depends on a dim without an upper bound under [memplan] require_static
 * (naming the dim and the key that bounds it), and an upper_bound.NAME of
 * the configuration that names no dim of the planned functions (listing
 * theirs).  Returns NULL then. */
MpPlan *mp_plan_module(IrCtx *ctx, const IrModule *m, const CfgOptions *cfg);
/* lifetime.c: the steps a binding sequence takes (one per binding, an if's
 * branches included), as MpStorage.start and .end count them. */
int64_t mp_count_steps(const IrExpr *seq);
/* The algorithm a [memplan] algorithm value names. */
MpAlgorithm mp_algorithm_of(CfgPlanAlgorithm a);

/* csv.c: problems in MiniMalloc's CSV format (id,lower,upper,size and
 * optionally alignment and offset columns; intervals half-open) */
/* Reads the problem at path: the buffers (heap: free()) and their number
 * in *n; NULL after reporting errors at file:line:col through ctx. */
MpBuffer *mp_csv_read(IrCtx *ctx, const char *path, int *n);
/* Writes bufs as CSV (an alignment column when some buffer needs one; an
 * offset column when offsets is true). */
void mp_csv_write(const MpBuffer *bufs, int n, bool offsets, IrBuf *out);

/* report.c */
typedef enum {
  MP_FORMAT_TEXT,
  MP_FORMAT_JSON,
  MP_FORMAT_SVG,
} MpFormat;

void mp_plan_print(const MpPlan *p, MpFormat format, IrBuf *out);

#endif
