"""export_onnx.py - the digits samples as ONNX models, built with onnx's
helper API from the trained weights (samples/digits_*.npz) and the
architecture of samples/digits_*.py, so the ONNX path can be checked
against the TVMScript one (check_digits.py --onnx).

    /usr/bin/python3 samples/tools/export_onnx.py OUTDIR

writes OUTDIR/digits_mlp.onnx and OUTDIR/digits_cnn.onnx (opset 13, the
batch a symbolic dim "n", the weights as initializers).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SAMPLES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def weights(model):
    z = np.load(os.path.join(SAMPLES, model + ".npz"))
    return [numpy_helper.from_array(z[k].astype(np.float32), k) for k in z.files]


def classifier(h):
    """fc1 -> ReLU -> fc2 -> softmax on h (torch-style (out, in) weights)."""
    return [
        helper.make_node("Gemm", [h, "fc1_weight", "fc1_bias"], ["fc1"], transB=1),
        helper.make_node("Relu", ["fc1"], ["relu1"]),
        helper.make_node("Gemm", ["relu1", "fc2_weight", "fc2_bias"], ["fc2"], transB=1),
        helper.make_node("Softmax", ["fc2"], ["probabilities"], axis=-1),
    ]


def mlp():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 64])
    return classifier("x"), x


def cnn():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 1, 8, 8])
    nodes = [
        helper.make_node("Conv", ["x", "conv1_weight", "conv1_bias"], ["conv1"],
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["conv1"], ["relu0"]),
        helper.make_node("MaxPool", ["relu0"], ["pool"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["pool"], ["flat"], axis=1),
    ]
    return nodes + classifier("flat"), x


def export(model, build, outdir):
    nodes, x = build()
    y = helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["n", 10])
    graph = helper.make_graph(nodes, model, [x], [y], weights(model))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                          producer_name="rxc samples/tools/export_onnx.py")
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(outdir, model + ".onnx"))


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else SAMPLES
    os.makedirs(outdir, exist_ok=True)
    export("digits_mlp", mlp, outdir)
    export("digits_cnn", cnn, outdir)


if __name__ == "__main__":
    main()
