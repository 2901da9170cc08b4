/*
 * rxc.h - rxc as a library: compile a Relax module (TVMScript text) into a
 * function in memory and call it.
 *
 *   RxcModel *m = rxc_jit_file("mlp.py", NULL, stderr);
 *   RxcEntry fn = rxc_model_entry(m, "main");
 *   void *arena = aligned_alloc(rxc_model_arena_align(m), rxc_model_arena_bytes(m, "main"));
 *   void *tensors[] = {x, y};        // inputs, then outputs, in signature order
 *   int64_t dims[] = {n};            // the symbolic dims, in signature order
 *   int rc = fn(arena, rxc_model_arena_bytes(m, "main"), tensors, dims);  // 0 or < 0
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
                         [jit] cc_flags) instead of libtcc in memory */
} RxcJitOptions;

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
/* The arena bytes fn needs at the upper bounds of its dims (0 if no fn). */
size_t rxc_model_arena_bytes(const RxcModel *m, const char *fn);
size_t rxc_model_arena_align(const RxcModel *m);
/* The generated header's text. */
const char *rxc_model_header(const RxcModel *m);
void rxc_model_free(RxcModel *m);

#endif
