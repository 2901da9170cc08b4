/* fe.h - front ends: TVMScript text in, IrModule out. */
#ifndef RXC_FE_H
#define RXC_FE_H

#include "../ir/ir.h"

/* parse.c */
/* Reads a TVMScript module (an @I.ir_module class, or a lone @R.function or
 * @T.prim_func, which becomes a module of one function).  On error, records
 * every diagnostic it can in ctx and returns NULL.  Never crashes on any
 * input: nesting is limited to FE_MAX_DEPTH. */
#define FE_MAX_DEPTH 256
IrModule *fe_parse(IrCtx *ctx, const IrSource *src);
IrModule *fe_parse_file(IrCtx *ctx, const char *path);
IrModule *fe_parse_string(IrCtx *ctx, const char *name, const char *text);

/* npy.c: numpy .npy and .npz files (little-endian, C order; .npz entries
 * stored uncompressed as np.savez writes them).  Readers report every
 * malformed file as an error naming it (never reading past the bytes
 * present) and return false / -1; the tensor data lives in ctx. */
typedef IrNamedTensor FeNpzEntry; /* name: the entry's without ".npy" */

bool fe_npy_parse(IrCtx *ctx, const char *name, const unsigned char *data, size_t len,
                  IrTensorData *out);
bool fe_npy_read(IrCtx *ctx, const char *path, IrTensorData *out);
/* Appends t as a version 1.0 .npy; false when .npy cannot hold its dtype. */
bool fe_npy_encode(const IrTensorData *t, IrBuf *out);
/* The entries of a .npz in archive order; their count, or -1 on error. */
int fe_npz_parse(IrCtx *ctx, const char *path, const unsigned char *data, size_t len,
                 FeNpzEntry **out);
int fe_npz_read(IrCtx *ctx, const char *path, FeNpzEntry **out);
/* Appends a zip of stored NAME.npy entries; false as fe_npy_encode. */
bool fe_npz_encode(const FeNpzEntry *entries, int n, IrBuf *out);
uint32_t fe_crc32(const unsigned char *p, size_t n); /* zip's CRC-32 */

/* onnx/onnx_read.c: an ONNX model (.onnx, protobuf) as a module with one
 * function main.  Initializers become constants, or with params, main's
 * trailing parameters (attribute num_input) whose values are returned in
 * *weights / *nweights (NAME as the parameter).  A dim_param is a symbolic
 * dim, bounded by dim_bound when > 0 (tir_var_upper_bound).  Errors: a
 * malformed file, or one "node 'name' (OpType): ..." per node that cannot
 * be mapped (every one of them); NULL then. */
typedef struct {
  bool params;        /* initializers as parameters, not constants */
  int64_t dim_bound;  /* > 0: upper bound of every symbolic dim */
} FeOnnxOptions;

IrModule *fe_onnx_read(IrCtx *ctx, const char *path, const FeOnnxOptions *opt,
                       FeNpzEntry **weights, int *nweights);
/* Whether path names an ONNX model (ends with ".onnx"). */
bool fe_is_onnx_path(const char *path);
/* onnx/onnx_ops.c: the i-th ONNX operator the importer converts (its
 * op_type), in table order, with *attrs set to the attributes it accepts
 * (comma-separated, "" for none); NULL past the end. */
const char *fe_onnx_op_at(int i, const char **attrs);

#endif
