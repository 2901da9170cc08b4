/*
 * cg.h - C code generation and in-process compilation (prefix cg_).
 *
 * For a module named NAME, after the pipeline (explicit memory) and the
 * memory plan, cg_generate writes NAME.h and NAME.c (and NAME_weights.c
 * with [codegen] weights = separate): C99, freestanding, no libc header
 * (only the compiler's <stddef.h>), the runtime pieces of rt/ copied in.
 *
 * Generated API, per public Relax function FN (DESIGN.md "Generated C"):
 *   int NAME_FN(void *arena, size_t arena_bytes,
 *               const T *in0, ..., int64_t dim0, ..., T *out0, ...);
 *   size_t NAME_FN_arena_bytes(int64_t dim0, ...);  arena bytes for these dims
 *   const char *NAME_strerror(int err);
 *   #define NAME_ARENA_BYTES, NAME_ARENA_ALIGN, NAME_WEIGHTS_BYTES
 * and, for callers that cannot spell the typed signature (the JIT, tests),
 *   int NAME_FN_packed(void *arena, size_t arena_bytes,
 *                      void *const *tensors, const int64_t *dims);
 *   size_t NAME_FN_arena_bytes_packed(const int64_t *dims);
 * where tensors are the inputs then the outputs in the order of the typed
 * signature and dims the symbolic dims in that order.  NAME_FN_ARENA_BYTES
 * (and NAME_ARENA_BYTES) exist only where the arena has a bound: an entry
 * whose arena grows with a dim without an upper bound has no such macro,
 * and its caller sizes the arena with NAME_FN_arena_bytes(dims...).  T is the dtype's C
 * type (rxc_f32 is float, rxc_i64 int64_t, ...); a float16 tensor is
 * rxc_f16 and a bfloat16 one rxc_bf16, both uint16_t bit patterns (IEEE
 * binary16; the upper half of a float), since C has no 16-bit float: the
 * generated code widens them to float to compute and rounds each stored
 * value to nearest even (rt/rt_half.h).
 */
#ifndef RXC_CG_H
#define RXC_CG_H

#include "../config/cfg.h"
#include "../ir/ir.h"
#include "../memplan/mp.h"

/* One generated file. */
typedef struct {
  const char *name; /* "NAME.c" (arena string) */
  IrBuf text;
} CgFile;

/* What a caller needs to know about one entry. */
typedef struct {
  IrSym fn;              /* the Relax function */
  const char *symbol;    /* "NAME_FN" */
  const char *packed;    /* "NAME_FN_packed" */
  int ninputs, noutputs; /* tensors, in signature order */
  const IrSInfo **inputs;  /* tensor struct info of each input */
  const IrSInfo **outputs; /* of each output */
  const char **input_names;  /* each input's C name, as NAME.h documents it */
  const char **output_names; /* each output's ("out", or "out0", "out1", ...), likewise */
  int ndims;
  IrPrimExpr **dims;     /* the symbolic dims, in signature order */
  /* Dims of the outputs that are tensor data (R.tensor_to_shape +
   * R.match_cast in the body): the caller sizes those outputs with each
   * at its bound, and the entry writes the actual values to its last
   * parameter (the packed form: dims[ndims + j]). */
  int nresult_dims;
  IrPrimExpr **result_dims;
  int64_t *result_bounds;
  int64_t arena_bytes;   /* at the upper bounds; -1 when the arena grows with
                            a dim without an upper bound */
  const char *arena_fn;  /* "NAME_FN_arena_bytes_packed": the arena bytes for
                            the dims of a packed call (CgArenaFn) */
} CgEntry;

typedef struct {
  CgFile files[3];       /* NAME.h, NAME.c, and NAME_weights.c when separate
                            or the bytes of NAME.weights.bin when blob */
  int nfiles;
  int blob;                /* weights = blob: the index of NAME.weights.bin */
  const char *set_weights; /* weights = blob: "NAME_set_weights", else NULL */
  CgEntry *entries;
  int nentries;
  int64_t arena_align;
} CgOutput;

/* gen.c: generates the files of m (explicit memory) with plan p.  NULL
 * after errors in ctx.  Deterministic. */
CgOutput *cg_generate(IrCtx *ctx, const IrModule *m, const MpPlan *p, const CfgOptions *cfg,
                      const char *name);
void cg_output_free(CgOutput *out); /* its IrBufs and out itself (heap) */
/* The text of a generated entry's error code (NAME_ERR_*: -1, -2, ...), as
 * NAME_strerror gives it; NULL for any other code. */
const char *cg_error_message(int code);
/* Writes the files into dir (through temporaries: nothing partial). */
bool cg_write(IrCtx *ctx, const CgOutput *out, const char *dir);

/* gen_entry.c: which op calls C generation accepts in its input (after
 * the pipeline), for rxc list.  cg_op_native: the code generator emits
 * the call itself (the R.memory ops).  cg_op_prim_call: CallTIRRewrite
 * turns the call into a call of a prim_func of the module, which it emits
 * (R.call_tir, R.call_tir_inplace).  Every other op must be lowered by
 * LegalizeOps first, or C generation refuses it. */
bool cg_op_native(IrOpId id);
bool cg_op_prim_call(IrOpId id);

/* runtime.c (embedded at build time from rt/): the runtime pieces every
 * NAME.c carries: fixed-width types and the math functions rxc_expf,
 * rxc_exp, ... (rt/README.md lists them), all `static inline`; with
 * system_libm the inexact ones wrap <math.h> instead. */
const char *cg_runtime_text(bool system_libm);
const char *cg_runtime_print_text(void); /* rt_print.h: with an R.print only */
/* The kernels (ir/tir_kernel.c) by number: the number of the one named
 * name (of the first with the same text, where one header of rt/ defines
 * several), or -1; its definition's text (rt/rt_kern_*.h) for a number,
 * or NULL past the last.  Only a NAME.c calling a kernel carries its
 * text, once. */
int cg_runtime_kernel(const char *name);
const char *cg_runtime_kernel_text(int i);
/* rt_kern_base.h: what the kernels share, once before the first one. */
const char *cg_runtime_kernel_base_text(void);
/* Only the fixed-width types (rxc_i8 .. rxc_u64, rxc_f32, rxc_f64), for
 * NAME.h; guarded, so that NAME.c may carry cg_runtime_text too. */
const char *cg_runtime_types_text(void);

/* jit.c (libtcc) and cc.c (system compiler + dlopen): a compiled module.
 * Its code reads a blob's weights from out's own blob (no copy), so the
 * CgOutput (and the IrCtx holding it) must outlive the CgCompiled. */
typedef struct CgCompiled CgCompiled;
typedef int (*CgPackedFn)(void *arena, size_t arena_bytes, void *const *tensors,
                          const int64_t *dims);
/* NAME_FN_arena_bytes_packed: the arena NAME_FN_packed needs for dims. */
typedef size_t (*CgArenaFn)(const int64_t *dims);

/* Compiles the generated files in memory with libtcc (serialized: libtcc
 * 0.9.27 keeps global state); NULL after errors (tcc's messages become
 * diagnostics in ctx). */
CgCompiled *cg_jit_tcc(IrCtx *ctx, const CgOutput *out);
/* Compiles with the system compiler (cc and flags, e.g. "cc", "-O2"; flags
 * "auto" are cg_cc_flags') into a shared object in a temporary directory
 * and loads it. */
CgCompiled *cg_jit_cc(IrCtx *ctx, const CgOutput *out, const char *cc, const char *flags);
/* The flags cg_jit_cc gives cc: flags itself, unless they are "auto" ([jit]
 * cc_flags' default): then the host's best, "-O3 -march=native" when cc
 * compiles a small file with them, else "-O2".  The probe runs once per
 * cc command in a process (cached, thread-safe); a static string. */
const char *cg_cc_flags(const char *cc, const char *flags);
/* The packed entry of symbol ("NAME_FN_packed"), or NULL. */
CgPackedFn cg_compiled_entry(CgCompiled *c, const char *symbol);
/* The arena-bytes function of an entry (CgEntry.arena_fn), or NULL. */
CgArenaFn cg_compiled_arena_fn(CgCompiled *c, const CgEntry *e);
void cg_compiled_free(CgCompiled *c);

#endif
