"""make_cases.py - writes the small ONNX models tests/unit/test_onnx.c
reads (committed; rerun after changing this file):

  unsupported.onnx  three nodes rxc cannot map (an unknown operator, an
                    unsupported attribute value, a 4-D Conv) among ones it
                    can: each must be named, in one run
  empty_axes.onnx   ReduceSum over an empty axes initializer (raw_data of
                    no bytes): every axis, keepdims
  params.onnx       Gemm + Relu with a symbolic batch "n" and two
                    initializers, for --params and --dim-bound
  dyn_shape.onnx    Shape (whole, and from start 1) and Size of an input
                    of symbolic batch "n": R.shape_to_tensor and R.size
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def unsupported():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 2, 2, 2, 2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    w = numpy_helper.from_array(np.ones((2, 2, 1, 1, 1, 1), np.float32), "w")
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="ok_relu"),
        helper.make_node("TfIdfVectorizer", ["a"], ["b"], name="bad_op"),
        helper.make_node("Resize", ["a", "", "s"], ["c"], name="bad_mode", mode="cubic"),
        helper.make_node("Conv", ["a", "w"], ["d"], name="bad_rank"),
        helper.make_node("Add", ["c", "d"], ["y"], name="after"),
    ]
    s = numpy_helper.from_array(np.ones(6, np.float32), "s")
    g = helper.make_graph(nodes, "unsupported", [x], [y], [w, s])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def params():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 2])
    w = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5, "w")
    b = numpy_helper.from_array(np.array([0.5, -1], np.float32), "b")
    nodes = [helper.make_node("Gemm", ["x", "w", "b"], ["h"], transB=1),
             helper.make_node("Relu", ["h"], ["y"])]
    g = helper.make_graph(nodes, "params", [x], [y], [w, b])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def empty_axes():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1])
    axes = numpy_helper.from_array(np.zeros(0, np.int64), "axes")
    nodes = [helper.make_node("ReduceSum", ["x", "axes"], ["y"], keepdims=1)]
    g = helper.make_graph(nodes, "empty_axes", [x], [y], [axes])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def dyn_shape():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3])
    s = helper.make_tensor_value_info("s", TensorProto.INT64, [2])
    t = helper.make_tensor_value_info("t", TensorProto.INT64, [1])
    z = helper.make_tensor_value_info("z", TensorProto.INT64, [])
    nodes = [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Shape", ["x"], ["t"], start=1),
             helper.make_node("Size", ["x"], ["z"])]
    g = helper.make_graph(nodes, "dyn_shape", [x], [s, t, z])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 15)])


if __name__ == "__main__":
    onnx.save(empty_axes(), os.path.join(HERE, "empty_axes.onnx"))
    onnx.save(unsupported(), os.path.join(HERE, "unsupported.onnx"))
    onnx.save(params(), os.path.join(HERE, "params.onnx"))
    onnx.save(dyn_shape(), os.path.join(HERE, "dyn_shape.onnx"))
