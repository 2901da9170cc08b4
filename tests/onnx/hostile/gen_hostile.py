#!/usr/bin/python3
"""Writes the hostile ONNX corpus of this folder: NAME.onnx, each with
NAME.err, the exact stderr rxc must print (exit status 1, nothing
written; run_hostile.py checks it).  The files are written byte by byte by
pb.py, so that malformed protobuf is possible and the corpus needs no onnx
package; they are committed, and this script is run again by hand only
when a case is added:

    cd tests/onnx/hostile && /usr/bin/python3 gen_hostile.py

ext_ok/ (external data read back: same module as the embedded weights) is
written by onnx's own save_model(save_as_external_data=True) when the onnx
package is there.
"""
import os
import struct
import sys

from pb import (attr_f, attr_g, attr_i, attr_ints, attr_s, cat, graph, i, key, ld, model, node,
                tensor, tensor_type, value_info, varint)

HERE = os.path.dirname(os.path.abspath(__file__))
FLOAT, STRING, INT64 = 1, 8, 7
EXTERNAL = 1
CASES = {}


def case(name, err):
    """Registers a writer of NAME.onnx whose stderr is the error err."""
    def wrap(fn):
        CASES[name] = (fn, err)
        return fn
    return wrap


def relu_model(inputs=None, nodes=None, outputs=None, inits=(), opsets=(("", 13),)):
    """x -> Relu -> y, with the parts given replaced."""
    inputs = [value_info("x")] if inputs is None else inputs
    nodes = [node("Relu", ["x"], ["y"], "relu")] if nodes is None else nodes
    outputs = [value_info("y")] if outputs is None else outputs
    return model(graph(nodes, inputs, outputs, inits), opsets)


def add_w(w):
    """y = x + w, w an initializer (the tensor under test)."""
    return relu_model(nodes=[node("Add", ["x", "w"], ["y"], "add")], inits=[w])


def f32s(n):
    return struct.pack("<%df" % n, *range(n))


def ext(location, offset=None, length=None, dims=(4,)):
    entries = [("location", location)]
    if offset is not None:
        entries.append(("offset", offset))
    if length is not None:
        entries.append(("length", length))
    return add_w(tensor("w", FLOAT, list(dims), external=entries, location=EXTERNAL))


# ---- tensors: sizes checked before anything is allocated ---------------

@case("init_huge_no_data", "tensor 'w': it holds 0 values, its shape needs 17592186044416")
def _():
    return add_w(tensor("w", FLOAT, [1 << 22, 1 << 22]))


@case("init_dims_overflow", "tensor 'w': bad dimension 1099511627776 (the element count overflows)")
def _():
    return add_w(tensor("w", FLOAT, [1 << 40, 1 << 40], raw=b""))


@case("init_zero_dim_overflow",
      "tensor 'w': bad dimension 4611686018427387904 (the element count overflows)")
def _():
    return add_w(tensor("w", FLOAT, [0, 1 << 62, 1 << 62], raw=b""))


@case("init_negative_dim", "tensor 'w': dimension 1 is -3")
def _():
    return add_w(tensor("w", FLOAT, [2, -3], raw=b""))


@case("init_raw_short", "tensor 'w': raw_data holds 8 bytes, its shape needs 16")
def _():
    return add_w(tensor("w", FLOAT, [4], raw=f32s(2)))


@case("init_raw_huge_dims", "tensor 'w': raw_data holds 16 bytes, its shape needs 4398046511104")
def _():
    return add_w(tensor("w", FLOAT, [1 << 20, 1 << 20], raw=f32s(4)))


@case("init_typed_count", "tensor 'w': it holds 3 values, its shape needs 4")
def _():
    return add_w(tensor("w", FLOAT, [4], floats=[1, 2, 3]))


@case("init_dtype_undefined", "tensor 'w': data type 0 is not supported")
def _():
    return add_w(tensor("w", 0, [4], raw=f32s(4)))


@case("init_dtype_string", "tensor 'w': data type 8 is not supported")
def _():
    return add_w(cat(tensor("w", STRING, [2]), ld(6, "ab"), ld(6, "cd")))


@case("init_dtype_unknown", "tensor 'w': data type 1000 is not supported")
def _():
    return add_w(tensor("w", 1000, [4], raw=f32s(4)))


@case("constant_huge",
      "tensor 'c': it holds 0 values, its shape needs 1125899906842624")
def _():
    c = tensor("c", FLOAT, [1 << 25, 1 << 25])
    return relu_model(nodes=[node("Constant", [], ["c"], "const", [cat(ld(1, "value"), ld(5, c),
                                                                       i(20, 4))]),
                             node("Add", ["x", "c"], ["y"], "add")])


def i64s(name, vals):
    return tensor(name, INT64, [len(vals)], raw=struct.pack("<%dq" % len(vals), *vals))


@case("constant_of_shape_huge",
      lambda data: "node 'cos' (ConstantOfShape): its result is larger than import may fold "
      "(%d bytes left)" % ((256 << 20) + 8 * len(data)))
def _():
    # import folds known values; 2^44 floats from a file of 200 bytes
    return relu_model(nodes=[node("ConstantOfShape", ["s"], ["c"], "cos"),
                             node("Add", ["x", "c"], ["y"], "add")],
                      inits=[i64s("s", [1 << 22, 1 << 22])])


@case("constant_of_shape_negative", "node 'cos' (ConstantOfShape): dimension 1 of the shape is -4")
def _():
    return relu_model(nodes=[node("ConstantOfShape", ["s"], ["c"], "cos"),
                             node("Add", ["x", "c"], ["y"], "add")], inits=[i64s("s", [2, -4])])


# ---- names: single assignment, defined before use ----------------------

@case("dup_node_output",
      "node 'second' (Relu): output 'y' is already computed by node 'first' (Relu) "
      "(ONNX assigns each name once)")
def _():
    return relu_model(nodes=[node("Relu", ["x"], ["y"], "first"),
                             node("Relu", ["x"], ["y"], "second")])


@case("output_is_input",
      "node 'relu' (Relu): output 'x' is already a graph input (ONNX assigns each name once)")
def _():
    return relu_model(nodes=[node("Relu", ["x"], ["x"], "relu"), node("Neg", ["x"], ["y"], "neg")])


@case("output_is_initializer",
      "node 'relu' (Relu): output 'w' is already an initializer (ONNX assigns each name once)")
def _():
    return relu_model(nodes=[node("Relu", ["x"], ["w"], "relu"),
                             node("Add", ["x", "w"], ["y"], "add")],
                      inits=[tensor("w", FLOAT, [2], raw=f32s(2))])


@case("dup_initializer", "initializer 'w' is given twice")
def _():
    w = tensor("w", FLOAT, [2], raw=f32s(2))
    return relu_model(nodes=[node("Add", ["x", "w"], ["y"], "add")], inits=[w, w])


@case("dup_graph_input", "graph input 'x' is declared twice")
def _():
    return relu_model(inputs=[value_info("x"), value_info("x")])


@case("undefined_input",
      "node 'relu' (Relu): input 'z' is not a graph input, an initializer nor the output of any "
      "node")
def _():
    return relu_model(nodes=[node("Relu", ["z"], ["y"], "relu")])


@case("cycle", "node 'a' (Relu) is on a cycle: its input 'c_out' depends on its own output")
def _():
    return relu_model(nodes=[node("Relu", ["c_out"], ["a_out"], "a"),
                             node("Relu", ["a_out"], ["b_out"], "b"),
                             node("Add", ["b_out", "x"], ["c_out"], "c"),
                             node("Relu", ["c_out"], ["y"], "last")])


@case("self_cycle", "node 'loop' (Add) is on a cycle: its input 'y' depends on its own output")
def _():
    return relu_model(nodes=[node("Add", ["x", "y"], ["y"], "loop")])


@case("not_topological",
      "node 'second' (Relu) reads 't' before node 'first' (Neg) computes it (ONNX nodes must be in "
      "topological order)")
def _():
    return relu_model(nodes=[node("Relu", ["t"], ["y"], "second"), node("Neg", ["x"], ["t"], "first")])


@case("long_name",
      "node #0 (Relu): a name of 10000 bytes ('vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv...'); rxc takes at "
      "most 4096")
def _():
    return relu_model(nodes=[node("Relu", ["x"], ["v" * 10000])],
                      outputs=[value_info("v" * 10000)])


@case("nul_in_name",
      "node 'second' (Relu): output 'a' is already computed by node 'first' (Relu) (ONNX assigns "
      "each name once)")
def _():
    # "a\0x" and "a\0y" differ in the file; C strings end at the NUL, so
    # both read as 'a' and must not silently become one value.
    return relu_model(nodes=[node("Relu", ["x"], ["a\0x"], "first"),
                             node("Relu", ["x"], ["a\0y"], "second"),
                             node("Add", ["a\0x", "a\0y"], ["y"], "add")])


# ---- the graph's form ----------------------------------------------------

@case("initializer_no_name", "initializer #0 has no name")
def _():
    return add_w(cat(i(1, 2), i(2, FLOAT), ld(9, f32s(2))))


@case("input_no_name", "graph input #0 has no name")
def _():
    return relu_model(inputs=[ld(2, tensor_type(FLOAT, [2]))])


@case("output_no_name", "graph output #0 has no name")
def _():
    return relu_model(outputs=[ld(2, tensor_type(FLOAT, [2]))])


@case("input_sequence_type", "graph input 'x': only tensor types are supported")
def _():
    return relu_model(inputs=[value_info("x", type_proto=ld(4, ld(1, tensor_type(FLOAT, [2]))))])


@case("sparse_initializer", "sparse initializer 's' is not supported")
def _():
    values = tensor("s", FLOAT, [1], raw=f32s(1))
    indices = tensor("", INT64, [1, 1], raw=struct.pack("<q", 0))
    sparse = cat(ld(1, values), ld(2, indices), i(3, 2))
    g = graph([node("Add", ["x", "s"], ["y"], "add")], [value_info("x")], [value_info("y")])
    return model(g + ld(15, sparse))


@case("node_no_op_type", "node 'n' () has no op_type")
def _():
    return relu_model(nodes=[cat(ld(1, "x"), ld(2, "y"), ld(3, "n"))])


@case("empty_graph", "the graph has no outputs")
def _():
    return model(graph([], [], []))


@case("output_not_computed", "graph output 'z' is not computed by any node")
def _():
    return relu_model(outputs=[value_info("y"), value_info("z")])


@case("node_no_outputs", "node 'relu' (Relu) has no outputs")
def _():
    return relu_model(nodes=[node("Relu", ["x"], [], "relu")])


@case("too_few_inputs", "node 'add' (Add) has 1 input; at opset 13 it takes 2")
def _():
    return relu_model(nodes=[node("Add", ["x"], ["y"], "add")])


@case("too_many_outputs", "node 'relu' (Relu) has 2 outputs; at opset 13 it gives 1")
def _():
    return relu_model(nodes=[node("Relu", ["x"], ["y", "y2"], "relu")])


@case("huge_input_count", "node 'relu' (Relu) has 20000 inputs; at opset 13 it takes 1")
def _():
    # a few bytes per repeated string: a count protobuf-c decodes cheaply
    # (a variadic Sum of 20000 inputs is valid and imports in a blink)
    return relu_model(nodes=[node("Relu", ["x"] * 20000, ["y"], "relu")])


@case("attr_wrong_type", "node 'tr' (Transpose): attribute 'perm' is FLOATS; ONNX defines it as INTS")
def _():
    perm = cat(ld(1, "perm"), key(7, 5), struct.pack("<f", 0.0), i(20, 6))
    return relu_model(nodes=[node("Transpose", ["x"], ["y"], "tr", [perm])])


@case("attr_string_for_int",
      "node 'sm' (Softmax): attribute 'axis' is STRING; ONNX defines it as INT")
def _():
    return relu_model(nodes=[node("Softmax", ["x"], ["y"], "sm", [attr_s("axis", "-1")])])


@case("input_negative_dim", "graph input 'x': dimension 1 is -5")
def _():
    return relu_model(inputs=[value_info("x", dims=[2, -5])])


@case("input_dims_overflow",
      "graph input 'x': dimension 1 is 1099511627776 (the element count overflows)")
def _():
    return relu_model(inputs=[value_info("x", dims=[1 << 40, 1 << 40])])


# ---- opsets and domains --------------------------------------------------

@case("opset_too_new", "opset 99 of the default domain is not supported (rxc reads opsets 1 to 17)")
def _():
    return relu_model(opsets=(("", 99),))


@case("opset_zero", "opset 0 of the default domain is not supported (rxc reads opsets 1 to 17)")
def _():
    return relu_model(opsets=(("ai.onnx", 0),))


@case("opset_twice", "opset_import names the default domain twice")
def _():
    return relu_model(opsets=(("", 13), ("ai.onnx", 11)))


@case("domain_unknown",
      "node 'custom' (Relu): operator domain 'com.example.secret' is not supported")
def _():
    return relu_model(nodes=[node("Relu", ["x"], ["y"], "custom", domain="com.example.secret")],
                      opsets=(("", 13), ("com.example.secret", 1)))


# ---- protobuf bytes ------------------------------------------------------

BAD_PROTOBUF = "not a valid ONNX model (the protobuf does not decode)"


@case("truncated", BAD_PROTOBUF)
def _():
    m = add_w(tensor("w", FLOAT, [2], raw=f32s(2)))
    return m[: len(m) * 2 // 3]


@case("bad_varint", BAD_PROTOBUF)
def _():
    return i(1, 8) + key(5, 0) + b"\xff" * 11  # an 11-byte varint (ir_version is field 1)


@case("wrong_wire_type", BAD_PROTOBUF)
def _():
    return i(1, 8) + key(7, 0) + varint(5)  # graph (a message) as a varint


@case("huge_length", BAD_PROTOBUF)
def _():
    return i(1, 8) + key(7, 2) + varint(1 << 62) + b"\x0a\x00"


@case("no_graph", BAD_PROTOBUF)
def _():
    return i(1, 8) + ld(8, cat(ld(1, ""), i(2, 13)))


DEEP = "messages nest more than 100 deep (a type or a subgraph within itself?); rxc refuses to " \
       "decode it"


@case("deep_types", DEEP)
def _():
    t = tensor_type(FLOAT, [2])
    for _ in range(5000):  # TypeProto.sequence_type.elem_type, each a few bytes
        t = ld(4, ld(1, t))
    return relu_model(inputs=[value_info("x", type_proto=t)])


@case("deep_subgraphs", DEEP)
def _():
    g = graph([node("Relu", ["x"], ["y"], "inner")], [], [value_info("y")])
    for k in range(500):  # If in the then_branch of an If ...
        g = graph([node("If", ["c"], ["y"], "if%d" % k, [attr_g("then_branch", g),
                                                        attr_g("else_branch", g[:0])])],
                  [], [value_info("y")])
    return relu_model(nodes=[node("If", ["x"], ["y"], "outer", [attr_g("then_branch", g)])])


# ---- external data: read inside the model's folder only ------------------

@case("ext_absolute",
      "tensor 'w': external data location '/etc/passwd' is not a relative path inside the model's "
      "folder")
def _():
    return ext("/etc/passwd")


@case("ext_dotdot",
      "tensor 'w': external data location '../secret.bin' is not a relative path inside the "
      "model's folder")
def _():
    return ext("../secret.bin")


@case("ext_dotdot_inner",
      "tensor 'w': external data location 'ext_data/../../hostile.bin' is not a relative path "
      "inside the model's folder")
def _():
    return ext("ext_data/../../hostile.bin")


@case("ext_symlink",
      "tensor 'w': external data location 'ext_link.bin' leaves the model's folder (it is "
      "/etc/passwd)")
def _():
    return ext("ext_link.bin")


@case("ext_missing",
      "tensor 'w': cannot find its external data 'not_there.bin': No such file or directory")
def _():
    return ext("not_there.bin")


@case("ext_directory", "tensor 'w': external data 'ext_dir' is not a regular file")
def _():
    return ext("ext_dir")


@case("ext_dot", "tensor 'w': external data '.' is not a regular file")
def _():
    return ext(".")


@case("ext_past_end",
      "tensor 'w': external data 'ext_data.bin' holds 16 bytes; offset 8 and length 16 ask past "
      "its end")
def _():
    return ext("ext_data.bin", offset="8", length="16")


@case("ext_offset_past_end",
      "tensor 'w': external data 'ext_data.bin' holds 16 bytes; offset 4096 and length -1 ask past "
      "its end")
def _():
    return ext("ext_data.bin", offset="4096")


@case("ext_wrong_length", "tensor 'w': external data 'ext_data.bin' gives 8 bytes, its shape needs 16")
def _():
    return ext("ext_data.bin", length="8")


@case("ext_huge_dims",
      "tensor 'w': external data 'ext_data.bin' gives 16 bytes, its shape needs 4398046511104")
def _():
    return ext("ext_data.bin", dims=(1 << 20, 1 << 20))


@case("ext_bad_offset",
      "tensor 'w': external data offset '12abc' or length '' is not a size")
def _():
    return ext("ext_data.bin", offset="12abc")


@case("ext_negative_length",
      "tensor 'w': external data offset '' or length '-16' is not a size")
def _():
    return ext("ext_data.bin", length="-16")


@case("ext_no_location", "tensor 'w': external data without a location")
def _():
    return add_w(tensor("w", FLOAT, [4], external=[("offset", "0")], location=EXTERNAL))


def write_ext_ok():
    """ext_ok/: a small model saved by onnx with its weights in weights.bin,
    and the same model with the weights inside (embedded.onnx)."""
    try:
        import numpy as np
        import onnx
        from onnx import helper, numpy_helper
    except ImportError:
        print("ext_ok/ left as it is: no onnx package")
        return
    d = os.path.join(HERE, "ext_ok")
    os.makedirs(d, exist_ok=True)
    w = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(3, 4) / 8, "w")
    b = numpy_helper.from_array(np.array([0.5, -1, 2, 4], dtype=np.float32), "b")
    g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["xw"], "mm"),
                           helper.make_node("Add", ["xw", "b"], ["y"], "add")], "ext",
                          [helper.make_tensor_value_info("x", 1, [2, 3])],
                          [helper.make_tensor_value_info("y", 1, [2, 4])], [w, b])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="gen")
    m.ir_version = 8
    onnx.save_model(m, os.path.join(d, "embedded.onnx"))
    if os.path.exists(os.path.join(d, "weights.bin")):
        os.remove(os.path.join(d, "weights.bin"))  # save_model appends to it
    onnx.save_model(m, os.path.join(d, "model.onnx"), save_as_external_data=True,
                    all_tensors_to_one_file=True, location="weights.bin", size_threshold=0)


def main():
    os.chdir(HERE)
    os.makedirs("ext_dir", exist_ok=True)
    with open("ext_dir/README", "w") as f:
        f.write("a folder where a tensor's external data file is expected\n")
    with open("ext_data.bin", "wb") as f:
        f.write(f32s(4))
    if not os.path.islink("ext_link.bin"):
        os.symlink("/etc/passwd", "ext_link.bin")
    for name, (fn, err) in sorted(CASES.items()):
        data = fn()
        with open(name + ".onnx", "wb") as f:
            f.write(data)
        with open(name + ".err", "w") as f:
            f.write("tests/onnx/hostile/%s.onnx: error: %s\n" % (name, err(data) if callable(err)
                                                                   else err))
    write_ext_ok()
    print("%d cases" % len(CASES))


if __name__ == "__main__":
    sys.exit(main())
