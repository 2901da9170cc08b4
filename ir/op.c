/*
 * op.c - the operator registry: for each op of ops.def, its Python parameter
 * names, how each is stored (argument or attribute) and its default, as
 * TVMScript text.  The reader uses the table to accept both the printed
 * positional form and the hand-written keyword form of a call; the printer
 * uses it to print attributes as keywords in a fixed order.
 */
#include <string.h>

#include "ir.h"

#define E(n) {n, IR_PARAM_EXPR, NULL}
#define A(n, d) {n, IR_PARAM_ATTR, d}
#define UNARY {E("x")}, 1
#define BINARY {E("x1"), E("x2")}, 2

static const IrOpDef ops[IR_OP_COUNT] = {
    {IR_OP_ADD, "relax.add", false, BINARY},
    {IR_OP_SUBTRACT, "relax.subtract", false, BINARY},
    {IR_OP_MULTIPLY, "relax.multiply", false, BINARY},
    {IR_OP_DIVIDE, "relax.divide", false, BINARY},
    {IR_OP_FLOOR_DIVIDE, "relax.floor_divide", false, BINARY},
    {IR_OP_POWER, "relax.power", false, BINARY},
    {IR_OP_MAXIMUM, "relax.maximum", false, BINARY},
    {IR_OP_MINIMUM, "relax.minimum", false, BINARY},
    {IR_OP_EQUAL, "relax.equal", false, BINARY},
    {IR_OP_NOT_EQUAL, "relax.not_equal", false, BINARY},
    {IR_OP_LESS, "relax.less", false, BINARY},
    {IR_OP_LESS_EQUAL, "relax.less_equal", false, BINARY},
    {IR_OP_GREATER, "relax.greater", false, BINARY},
    {IR_OP_GREATER_EQUAL, "relax.greater_equal", false, BINARY},
    {IR_OP_WHERE, "relax.where", false, {E("condition"), E("x1"), E("x2")}, 3},
    {IR_OP_NEGATIVE, "relax.negative", false, UNARY},
    {IR_OP_ABS, "relax.abs", false, UNARY},
    {IR_OP_EXP, "relax.exp", false, UNARY},
    {IR_OP_LOG, "relax.log", false, UNARY},
    {IR_OP_SQRT, "relax.sqrt", false, UNARY},
    {IR_OP_RSQRT, "relax.rsqrt", false, UNARY},
    {IR_OP_TANH, "relax.tanh", false, UNARY},
    {IR_OP_SIGMOID, "relax.sigmoid", false, UNARY},
    {IR_OP_ERF, "relax.erf", false, UNARY},
    {IR_OP_CLIP, "relax.clip", false,
     {E("x"), {"min", IR_PARAM_PRIM, NULL}, {"max", IR_PARAM_PRIM, NULL}}, 3},
    {IR_OP_ASTYPE, "relax.astype", false, {E("x"), A("dtype", NULL)}, 2},
    {IR_OP_RELU, "relax.nn.relu", false, {E("data")}, 1},
    {IR_OP_GELU, "relax.nn.gelu", false, {E("data")}, 1},
    {IR_OP_SILU, "relax.nn.silu", false, {E("data")}, 1},
    {IR_OP_SOFTMAX, "relax.nn.softmax", false, {E("data"), A("axis", "-1")}, 2},
    {IR_OP_LOG_SOFTMAX, "relax.nn.log_softmax", false, {E("data"), A("axis", "-1")}, 2},
    {IR_OP_LAYER_NORM, "relax.nn.layer_norm", false,
     {E("data"), E("gamma"), E("beta"), A("axes", NULL), A("epsilon", "1e-05"),
      A("center", "True"), A("scale", "True")},
     7},
    {IR_OP_BATCH_NORM, "relax.nn.batch_norm", false,
     {E("data"), E("gamma"), E("beta"), E("moving_mean"), E("moving_var"), A("axis", NULL),
      A("epsilon", "1e-05"), A("center", "True"), A("scale", "True"), A("momentum", "0.10000000000000001"),
      A("training", "True")},
     11},
    {IR_OP_CONV2D, "relax.nn.conv2d", false,
     {E("data"), E("weight"), A("strides", "[1, 1]"), A("padding", "[0, 0, 0, 0]"),
      A("dilation", "[1, 1]"), A("groups", "1"), A("data_layout", "\"NCHW\""),
      A("kernel_layout", "\"OIHW\""), A("out_layout", "None"), A("out_dtype", "\"void\"")},
     10},
    {IR_OP_MAX_POOL2D, "relax.nn.max_pool2d", false,
     {E("data"), A("pool_size", "[1, 1]"), A("strides", "[1, 1]"), A("padding", "[0, 0, 0, 0]"),
      A("dilation", "[1, 1]"), A("ceil_mode", "False"), A("count_include_pad", "False"),
      A("layout", "\"NCHW\""), A("out_layout", "None")},
     9},
    {IR_OP_AVG_POOL2D, "relax.nn.avg_pool2d", false,
     {E("data"), A("pool_size", "[1, 1]"), A("strides", "[1, 1]"), A("padding", "[0, 0, 0, 0]"),
      A("dilation", "[1, 1]"), A("ceil_mode", "False"), A("count_include_pad", "False"),
      A("layout", "\"NCHW\""), A("out_layout", "None")},
     9},
    {IR_OP_ADAPTIVE_AVG_POOL2D, "relax.nn.adaptive_avg_pool2d", false,
     {E("data"), A("output_size", "None"), A("layout", "\"NCHW\""), A("out_layout", "None")}, 4},
    {IR_OP_DROPOUT, "relax.nn.dropout", false, {E("data"), A("rate", "0.5")}, 2},
    {IR_OP_MATMUL, "relax.matmul", false, {E("x1"), E("x2"), A("out_dtype", "\"void\"")}, 3},
    {IR_OP_PERMUTE_DIMS, "relax.permute_dims", false, {E("x"), A("axes", "None")}, 2},
    {IR_OP_RESHAPE, "relax.reshape", false, {E("x"), {"shape", IR_PARAM_SHAPE, NULL}}, 2},
    {IR_OP_FLATTEN, "relax.flatten", false, {E("x")}, 1},
    {IR_OP_EXPAND_DIMS, "relax.expand_dims", false, {E("x"), A("axis", NULL)}, 2},
    {IR_OP_SQUEEZE, "relax.squeeze", false, {E("x"), A("axis", "None")}, 2},
    {IR_OP_CONCAT, "relax.concat", false, {{"tensors", IR_PARAM_TUPLE, NULL}, A("axis", "0")}, 2},
    {IR_OP_SPLIT, "relax.split", false,
     {E("x"), A("indices_or_sections", NULL), A("axis", "0")}, 3},
    {IR_OP_STRIDED_SLICE, "relax.strided_slice", false,
     {E("x"), A("axes", NULL), A("begin", NULL), A("end", NULL), A("strides", "None"),
      A("assume_inbound", "False")},
     6},
    {IR_OP_TAKE, "relax.take", false, {E("x"), E("indices"), A("axis", "None"), A("mode", "\"fast\"")}, 4},
    {IR_OP_BROADCAST_TO, "relax.broadcast_to", false, {E("x"), {"shape", IR_PARAM_SHAPE, NULL}}, 2},
    {IR_OP_SUM, "relax.sum", false, {E("x"), A("axis", "None"), A("keepdims", "False")}, 3},
    {IR_OP_MEAN, "relax.mean", false, {E("x"), A("axis", "None"), A("keepdims", "False")}, 3},
    {IR_OP_MAX, "relax.max", false, {E("x"), A("axis", "None"), A("keepdims", "False")}, 3},
    {IR_OP_MIN, "relax.min", false, {E("x"), A("axis", "None"), A("keepdims", "False")}, 3},
    {IR_OP_ARGMAX, "relax.argmax", false, {E("x"), A("axis", "None"), A("keepdims", "False")}, 3},
    {IR_OP_SHAPE_OF, "relax.shape_of", false, {E("expr")}, 1},
    {IR_OP_MEMORY_ALLOC_STORAGE, "relax.memory.alloc_storage", false,
     {{"size", IR_PARAM_SHAPE, NULL}, {"virtual_device_index", IR_PARAM_PRIM, "0"},
      {"storage_scope", IR_PARAM_STR, "\"global\""}, {"dtype", IR_PARAM_DTYPE, "\"float32\""}},
     4},
    {IR_OP_MEMORY_ALLOC_TENSOR, "relax.memory.alloc_tensor", false,
     {E("storage"), {"offset", IR_PARAM_PRIM, NULL}, {"shape", IR_PARAM_SHAPE, NULL},
      {"dtype", IR_PARAM_DTYPE, NULL}, {"runtime_device_ind", IR_PARAM_PRIM, "0"}},
     5},
    {IR_OP_MEMORY_KILL_STORAGE, "relax.memory.kill_storage", true, {E("storage")}, 1},
    {IR_OP_MEMORY_KILL_TENSOR, "relax.memory.kill_tensor", true, {E("tensor")}, 1},
    {IR_OP_BUILTIN_ALLOC_TENSOR, "relax.builtin.alloc_tensor", false,
     {{"shape", IR_PARAM_SHAPE, NULL}, {"dtype", IR_PARAM_DTYPE, NULL},
      {"runtime_device_index", IR_PARAM_PRIM, NULL}, {"storage_scope", IR_PARAM_STR, "\"global\""}},
     4},
    {IR_OP_VM_ALLOC_STORAGE, "relax.vm.alloc_storage", false,
     {{"size", IR_PARAM_SHAPE, NULL}, {"runtime_device_index", IR_PARAM_PRIM, NULL},
      {"dtype", IR_PARAM_DTYPE, NULL}, {"storage_scope", IR_PARAM_STR, "\"global\""}},
     4},
    {IR_OP_VM_ALLOC_TENSOR, "relax.vm.alloc_tensor", false,
     {E("storage"), {"offset", IR_PARAM_PRIM, NULL}, {"shape", IR_PARAM_SHAPE, NULL},
      {"dtype", IR_PARAM_DTYPE, NULL}, {"runtime_device_ind", IR_PARAM_PRIM, "0"}},
     5},
    {IR_OP_VM_KILL_OBJECT, "relax.vm.kill_object", true, {E("obj")}, 1},
    {IR_OP_VM_CALL_TIR_DYN, "relax.vm.call_tir_dyn", true, {E("func"), {"args", IR_PARAM_TUPLE, NULL}}, 2},
    {IR_OP_CALL_TIR, "relax.call_tir", false,
     {E("gvar"), {"args", IR_PARAM_TUPLE, NULL}, {"out_sinfo", IR_PARAM_SINFO, NULL},
      {"tir_vars", IR_PARAM_SHAPE, "None"}},
     4},
    {IR_OP_CALL_TIR_INPLACE, "relax.call_tir_inplace", false,
     {E("gvar"), {"args", IR_PARAM_TUPLE, NULL}, A("inplace_indices", NULL),
      {"out_sinfo", IR_PARAM_SINFO, NULL}, {"tir_vars", IR_PARAM_SHAPE, "None"}},
     5},
    {IR_OP_CALL_DPS_PACKED, "relax.call_dps_packed", false,
     {E("func"), {"args", IR_PARAM_TUPLE, NULL}, {"out_sinfo", IR_PARAM_SINFO, NULL}}, 3},
    {IR_OP_CALL_PURE_PACKED, "relax.call_pure_packed", false,
     {E("func"), {"args", IR_PARAM_VARARGS, NULL}, {"sinfo_args", IR_PARAM_SINFO, NULL}}, 3},
    {IR_OP_HINT_ON_DEVICE, "relax.hint_on_device", false,
     {E("data"), A("dev_type", NULL), A("index", "0"), A("memory_scope", "\"global\"")}, 4},
    {IR_OP_TO_VDEVICE, "relax.to_vdevice", false, {E("data"), A("dst_vdevice", NULL)}, 2},
    {IR_OP_PRINT, "relax.print", true, {{"values", IR_PARAM_VARARGS, NULL}, A("format", "\"\"")}, 2},
    {IR_OP_ASSERT_OP, "relax.assert_op", true,
     {E("condition"), {"format_args", IR_PARAM_VARARGS, NULL}, A("format", "\"\"")}, 3},
};

const IrOpDef *
ir_op_get(IrOpId id)
{
  if ((int)id < 0 || id >= IR_OP_COUNT)
    return NULL;
  return &ops[id];
}

const IrOpDef *
ir_op_find(const char *name)
{
  char full[64];

  if (strncmp(name, "R.", 2) == 0) {
    if (strlen(name) + 5 >= sizeof full)
      return NULL;
    strcpy(full, "relax.");
    strcat(full, name + 2);
    name = full;
  }
  for (int i = 0; i < IR_OP_COUNT; i++)
    if (strcmp(ops[i].name, name) == 0)
      return &ops[i];
  return NULL;
}
