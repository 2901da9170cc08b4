/*
 * rxc.h - rxc as a library: compile a Relax module (TVMScript text) into a
 * function in memory and call it.
 *
 *   RxcModel *m = rxc_jit_file("mlp.py", NULL, stderr);
 *   RxcEntry fn = rxc_model_entry(m, "main");
 *   void *tensors[] = {x, y};        // inputs, then outputs, in signature order
 *   int64_t dims[] = {n};            // the symbolic dims, in signature order
 *   size_t bytes;                    // the arena for these dims
 *   int rc = rxc_model_arena_bytes_for(m, "main", dims, &bytes);
 *   void *arena = aligned_alloc(rxc_model_arena_align(m), bytes);  // bytes: a multiple
 *   rc = rc ? rc : fn(arena, bytes, tensors, dims);                 // 0 or < 0
 *   if (rc) fprintf(stderr, "%s\n", rxc_model_strerror(rc));
 *   rxc_model_free(m);
 *
 * rxc_model_header() is the generated NAME.h: it documents each entry's
 * tensors, dims and error codes (and its result_dims: dims that are tensor
 * data, which the entry writes to dims[] after the signature's, so dims
 * then needs room for them; the outputs using them are sized at their
 * bounds).  Link with `pkg-config --libs --static
 * rxc` (librxc.a needs -linih -lprotobuf-c -ltcc -ldl -lpthread -lm).
 *
 * This header includes only the C library's: a program that includes it
 * sees rxc's public types (RxcModel is opaque) and no name of the
 * compiler's internals, so nothing of them can clash with its own.
 */
#ifndef RXC_H
#define RXC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
  const char *params; /* a .npz of weights bound as constants, or NULL */
  const char *config; /* an INI file (config/default.ini documents it), or NULL */
  bool use_cc;        /* compile with the system compiler (the configuration's
                         [jit] cc_flags; by default the host's best, -O3
                         -march=native) instead of libtcc in memory */
  const char *const *set; /* overrides "section.key=value", as rxc --set,
                             applied in order after config (e.g.
                             "memplan.upper_bound.n=64"): a NULL-terminated
                             array, or NULL */
} RxcJitOptions;

/* The API's own error codes.  An entry returns 0 or one of the generated
 * header's NAME_ERR_* codes (-1 .. -9: NULL pointer, arena size, arena
 * alignment, dim, shape, check, match, weights, assert); rxc_model_strerror
 * gives the text of both kinds. */
#define RXC_ERR_NO_ENTRY (-100) /* no model, or no entry of that name */
#define RXC_ERR_ARENA (-101)    /* the arena for these dims exceeds memory (a dim
                                   negative or absurdly large) */

typedef struct RxcModel RxcModel;

/* An entry: the packed form of NAME_FN of the generated header. */
typedef int (*RxcEntry)(void *arena, size_t arena_bytes, void *const *tensors,
                        const int64_t *dims);

/* Reads the model (TVMScript, or ONNX for a path ending in .onnx), checks
 * it, runs the configured pipeline, plans and compiles; NULL after an
 * error, whose diagnostics go to errors (file:line:col: error: ...; none
 * when errors is NULL).  o may be NULL. */
RxcModel *rxc_jit_file(const char *path, const RxcJitOptions *o, FILE *errors);
RxcModel *rxc_jit_string(const char *name, const char *text, const RxcJitOptions *o,
                         FILE *errors);
/* The entry of Relax function fn, or NULL when there is none. */
RxcEntry rxc_model_entry(const RxcModel *m, const char *fn);
/* The arena bytes fn needs at the upper bounds of its dims: its static
 * arena (NAME_FN_ARENA_BYTES).  0 if there is no fn, or if fn's arena grows
 * with a dim that has no upper bound: rxc_model_arena_bytes_for sizes that. */
size_t rxc_model_arena_bytes(const RxcModel *m, const char *fn);
/* The arena bytes fn needs for these dims (those of the call, in signature
 * order), rounded up to a multiple of rxc_model_arena_align: what
 * NAME_FN_arena_bytes(dims...) computes, so it works with and without
 * bounds.  Returns 0 and sets *bytes, or RXC_ERR_NO_ENTRY, RXC_ERR_ARENA
 * (*bytes unchanged).  Dims outside their bounds are the entry's to
 * refuse (NAME_ERR_DIM). */
int rxc_model_arena_bytes_for(const RxcModel *m, const char *fn, const int64_t *dims,
                              size_t *bytes);
/* The text of an entry's return code or of an RXC_ERR_* code ("success"
 * for 0, "unknown error" for others); a static string. */
const char *rxc_model_strerror(int code);
size_t rxc_model_arena_align(const RxcModel *m);
/* The generated header's text. */
const char *rxc_model_header(const RxcModel *m);
/* What a caller that cannot read C (a binding such as python/rxc.py) needs
 * to call fn: a text that lives with m, one line per item, in the packed
 * call's order, fields separated by one space; NULL when there is no fn.
 *   input NAME DTYPE SHAPE    tensors[i], i = 0, 1, ...
 *   dim NAME                  dims[j], the symbolic dims
 *   output NAME DTYPE SHAPE   tensors[ninputs + k]
 *   result_dim NAME BOUND     dims[ndims + r], written by the entry
 * NAME: a tensor's name in NAME.h, a dim's as the shapes spell it.  DTYPE:
 * "float32", "int8", "bool" (1 byte), "float16" and "bfloat16" (uint16_t
 * bit patterns), ...  SHAPE, the rest of the line: a TVMScript (Python)
 * tuple, "(n, 2)", "(3,)", "()", each item an integer literal, a dim's
 * NAME or an integer expression of them in TVMScript's notation (+ - *
 * // % and / truncating, T.truncmod, T.min, T.max, T.Select, T.Cast,
 * comparisons, and/or/not), with the generated C's integer arithmetic.
 * The inputs give the dims that stand alone in their shapes (any other
 * is the caller's to give: an R.Shape or R.Prim parameter's); an output
 * whose shape uses a result_dim is sized with it at its BOUND, and holds
 * the first elements, row-major, of a tensor of the shape the entry's
 * result dims make. */
const char *rxc_model_signature(const RxcModel *m, const char *fn);
void rxc_model_free(RxcModel *m);

#endif
