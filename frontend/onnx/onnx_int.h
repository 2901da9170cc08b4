/*
 * onnx_int.h - what the files of frontend/onnx/ share: the importer's
 * state, the values it tracks per ONNX name, and the emit helpers the
 * operator converters build Relax calls with.
 *
 * Key ideas:
 *  - Every ONNX value is an OxVal: the Relax var holding it (with its
 *    inferred struct info), or, when known at import time (an initializer,
 *    a Constant node, a shape computation over static shapes), its data.
 *    Known values are bound to a var only when a call that is not folded
 *    uses them, so shape arithmetic never reaches the module.
 *  - fe_ox_emit infers the struct info of each call as it is built (the op's
 *    own inference), so converters can read ranks and static dims; a call
 *    whose arguments are all known is evaluated by the op's reference
 *    kernel instead (constant folding at import).
 *  - A converter that cannot map a node reports it with fe_ox_unsupported and
 *    returns false; the importer goes on with the next node, so every
 *    unsupported node is named in one run.
 */
#ifndef RXC_ONNX_INT_H
#define RXC_ONNX_INT_H

#include "onnx.pb-c.h"

#include "../../ops/op.h"
#include "../fe.h"

typedef struct {
  IrSym name;               /* ONNX value name */
  IrExpr *expr;             /* the Relax var holding it; NULL for a known value not yet bound */
  IrSInfo *sinfo;           /* its struct info (a tensor, or a tuple for split) */
  const IrTensorData *data; /* the value when known at import time, else NULL */
} OxVal;

typedef struct {
  IrCtx *ctx;
  IrLoc loc;                    /* the .onnx file: "model.onnx: error: ..." */
  const char *path;             /* the .onnx file's path, for its external data */
  const FeOnnxOptions *opt;
  int64_t opset;                /* of the default domain */
  IrArith *arith;               /* bounds of the symbolic dims */
  IrMap by_name;                /* IrSym -> the latest OxVal* of that ONNX name */
  IrMap used_names;             /* IrSym of every Relax var made -> itself */
  IrMap next_suffix;            /* IrSym of a name given twice -> the next _k to try */
  IrMap known_vars;             /* IrExpr* var bound to a known value -> its IrTensorData* */
  IrMap arena_blocks;           /* blocks protobuf-c decoded into ctx's arena -> themselves */
  int64_t fold_budget;          /* bytes import-time folding may still make */
  IrBinding *bindings;          /* heap: the dataflow block being built */
  int nbindings, cap;
  const Onnx__NodeProto *node;  /* the node being converted */
  IrSym node_name;              /* its name, or "#i" when it has none */
  OxVal **outs;                 /* the node's results, set by the converter */
} OxImp;

/* onnx_build.c */
OxVal *fe_ox_lookup(OxImp *im, IrSym name);
/* Appends var = value to the dataflow block. */
void fe_ox_bind(OxImp *im, IrExpr *var, IrExpr *value);
/* Records a known value (an initializer or folded result) under name. */
OxVal *fe_ox_known(OxImp *im, IrSym name, const IrTensorData *data);
/* The expression standing for v in a call: its var, bound now from the
 * known data if needed. */
IrExpr *fe_ox_use(OxImp *im, OxVal *v);
/* Binds op(args) with attrs to a new var named after hint and infers its
 * struct info; when every argument is known, evaluates it instead.  NULL
 * after an error (reported). */
OxVal *fe_ox_emit(OxImp *im, const char *hint, IrOpId op, IrExpr **args, int nargs, IrAttr *attrs);
/* Takes the bytes of a known tensor of dtype t and shape from what
 * import-time folding may still make; false (nothing reported) when the
 * shape has a negative dim or the bytes exceed it. */
bool fe_ox_fold_reserve(OxImp *im, IrDType t, const int64_t *shape, int n);
/* The same with tensor arguments only. */
OxVal *fe_ox_call(OxImp *im, IrOpId op, OxVal **args, int nargs, IrAttr *attrs);
OxVal *fe_ox_call1(OxImp *im, IrOpId op, OxVal *x, IrAttr *attrs);
OxVal *fe_ox_call2(OxImp *im, IrOpId op, OxVal *a, OxVal *b);
/* Field i of a tuple value, bound to a var. */
OxVal *fe_ox_tuple_get(OxImp *im, OxVal *t, int i);
/* A 0-d (rank 0) or rank-1 known tensor. */
OxVal *fe_ox_scalar(OxImp *im, IrDType t, double v);
/* A 0-d known tensor of x's dtype; NULL when x is. */
OxVal *fe_ox_like(OxImp *im, OxVal *x, double v);
/* The calls several converters build (NULL when an operand is):
 * R.astype(x, t) (x itself when it is t already); R.matmul(a, b) with
 * out_dtype "void"; x[begin:end:step] along one axis, R.strided_slice;
 * x viewed as 2-D, the dims before axis times the rest (onnx_ops.c). */
OxVal *fe_ox_astype(OxImp *im, OxVal *x, IrDType t);
OxVal *fe_ox_matmul(OxImp *im, OxVal *a, OxVal *b);
OxVal *fe_ox_slice(OxImp *im, OxVal *x, int64_t axis, int64_t begin, int64_t end, int64_t step);
OxVal *fe_ox_flatten_2d(OxImp *im, OxVal *x, int64_t axis);
OxVal *fe_ox_ints(OxImp *im, const int64_t *v, int n);
/* A Relax var name derived from an ONNX name: a Python identifier, not a
 * keyword nor R/T/I, distinct from every name given before. */
IrSym fe_ox_var_name(OxImp *im, const char *onnx_name);
/* Reports "node 'name' (OpType): msg" for the current node; false. */
bool fe_ox_unsupported(OxImp *im, const char *fmt, ...);
/* An attribute dict from alternating keys and values, NULL-terminated. */
IrAttr *fe_ox_attrs(IrCtx *ctx, ...);
IrAttr *fe_ox_attr_ints(IrCtx *ctx, const int64_t *v, int n);

/* Struct info of a value: its rank (-1 unknown), dtype, dim i as a
 * constant (false when symbolic or unknown). */
int fe_ox_rank(const OxVal *v);
IrDType fe_ox_dtype(const OxVal *v);
bool fe_ox_dim(const OxVal *v, int i, int64_t *out);
IrPrimExpr *fe_ox_dim_expr(const OxVal *v, int i);

/* The node's attributes. */
const Onnx__AttributeProto *fe_ox_attr(const Onnx__NodeProto *n, const char *name);
int64_t fe_ox_attr_i(const Onnx__NodeProto *n, const char *name, int64_t fallback);
double fe_ox_attr_f(const Onnx__NodeProto *n, const char *name, double fallback);
/* The ints of an attribute (NULL, *n = -1 when absent). */
const int64_t *fe_ox_attr_is(const Onnx__NodeProto *n, const char *name, int *count);
/* The string of an attribute, or fallback. */
const char *fe_ox_attr_s(OxImp *im, const Onnx__NodeProto *n, const char *name,
                         const char *fallback);
/* Reads the ints of a known int64/int32 tensor input into *out (arena);
 * false after reporting when it is not known. */
bool fe_ox_known_ints(OxImp *im, const OxVal *v, const char *what, int64_t **out, int *n);

/* onnx_ops.c */
/* R.reshape(x, dims) (a -1 entry left to the op); folds when x is known. */
OxVal *fe_ox_reshape(OxImp *im, OxVal *x, IrPrimExpr **dims, int n);
/* x (rank 4) reshaped to split, permuted by perm, reshaped to joined:
 * DepthToSpace and SpaceToDepth. */
OxVal *fe_ox_regroup(OxImp *im, OxVal *x, IrPrimExpr *const split[6], const int64_t perm[6],
                     IrPrimExpr *const joined[4]);
/* The inputs as a Relax tuple (of constants when all are known, so a call
 * on it folds); NULL after reporting an omitted input. */
IrExpr *fe_ox_tuple(OxImp *im, OxVal **in, int nin);
/* b aligned to a for the broadcast/axis attributes of opset < 7. */
OxVal *fe_ox_legacy_broadcast(OxImp *im, OxVal *a, OxVal *b);

/* onnx_act.c */
/* The activation of ONNX name (case-insensitive) applied to x; NULL
 * after reporting an unknown name. */
OxVal *fe_ox_act(OxImp *im, const char *name, double alpha, double beta, OxVal *x);
/* How many of alpha, beta the activation name reads (-1: unknown), and
 * their defaults. */
int fe_ox_act_find(const char *name, double *alpha, double *beta);

/* onnx_wire.c */
/* Whether the protobuf bytes nest no deeper than protobuf-c can decode
 * without exhausting the stack; false after reporting. */
bool fe_ox_wire_check(OxImp *im, const uint8_t *data, size_t len);

/* onnx_check.c */
/* Checks the decoded model before any node is converted: the opsets, each
 * name assigned once and defined before use (no cycle), each node's input
 * and output counts and attribute types as its schema says, the graph
 * inputs' dims, the graph outputs computed.  False after reporting the
 * first problem, naming the node, tensor or value. */
bool fe_ox_model_check(OxImp *im, const Onnx__ModelProto *model);
/* The oldest and newest default-domain opsets rxc converts. */
#define OX_OPSET_MIN 1
#define OX_OPSET_MAX 17

/* onnx_extern.c */
/* Reads the external data of t (data_location EXTERNAL) into out->data
 * (out->nbytes set): a file named by a relative path inside the model's
 * folder, from offset for length bytes.  Any other location is refused
 * before it is opened.  False after reporting, naming the tensor. */
bool fe_ox_extern_read(OxImp *im, const Onnx__TensorProto *t, IrTensorData *out);

/* onnx_schema.c (generated by gen_schema.py from onnx's operator schemas) */
typedef struct {
  const char *op_type;
  int since;          /* the opset from which these counts hold */
  int min_in, max_in; /* inputs, omitted optional ones included */
  int min_out, max_out;
} OxArity;
typedef struct {
  const char *op_type; /* NULL: the attribute has this type for every operator */
  const char *name;
  Onnx__AttributeProto__AttributeType type;
} OxAttrType;
extern const OxArity fe_ox_arities[];       /* by operator and opset; NULL op_type ends it */
extern const OxAttrType fe_ox_attr_types[]; /* NULL name ends it */

/* onnx_read.c */
/* An ONNX data type as an IrDType; false for types rxc lacks (string,
 * complex, bfloat16 stored as ints are kept as bfloat16). */
bool fe_ox_dtype_of(int32_t onnx_type, IrDType *out);
/* An ONNX TensorProto as tensor data in the arena; false after an error. */
bool fe_ox_tensor_read(OxImp *im, const Onnx__TensorProto *t, IrTensorData *out);

/* onnx_ops.c, onnx_nn.c, onnx_act.c, onnx_rnn.c, onnx_quant.c: the
 * converters.  Each reads im->node and its
 * inputs in (NULL for an omitted optional input) and sets im->outs[k]. */
typedef bool (*OxConvert)(OxImp *im, OxVal **in, int nin);
typedef struct {
  const char *op_type;
  OxConvert convert;
  const char *attrs; /* the attributes it understands, comma-separated */
} OxOp;
const OxOp *fe_ox_find_op(const char *op_type);
const OxOp *fe_ox_tensor_ops(void); /* onnx_ops.c; ends with a NULL op_type */
const OxOp *fe_ox_nn_ops(void);     /* onnx_nn.c */
const OxOp *fe_ox_act_ops(void);    /* onnx_act.c */
const OxOp *fe_ox_rnn_ops(void);    /* onnx_rnn.c */
const OxOp *fe_ox_quant_ops(void);  /* onnx_quant.c */
/* Conv (onnx_nn.c), for the integer convolutions of onnx_quant.c. */
bool fe_ox_conv(OxImp *im, OxVal **in, int nin);

#endif
