"""export_onnx.py - the digits samples as ONNX models, built with onnx's
helper API from the trained weights (samples/digits_*.npz) and the
architecture of samples/digits_*.py, so the ONNX path can be checked
against the TVMScript one (check_digits.py --onnx).

    /usr/bin/python3 samples/tools/export_onnx.py OUTDIR

writes OUTDIR/digits_mlp.onnx, OUTDIR/digits_cnn.onnx and
OUTDIR/digits_cnn_int8.onnx (QDQ form; opset 13, the batch a symbolic dim
"n", the weights as initializers).
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


def cnn_int8():
    """digits_cnn_int8 in ONNX's QDQ form: QuantizeLinear/DequantizeLinear
    pairs on the activations, the int8 weights and int32 biases
    DequantizeLinear'd per output channel (quantize_digits.py)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 1, 8, 8])

    def qdq(v, t):
        return [helper.make_node("QuantizeLinear", [v, t + "_scale", t + "_zp"], [v + "_q"]),
                helper.make_node("DequantizeLinear", [v + "_q", t + "_scale", t + "_zp"], [v + "_dq"])]

    def deq(layer):
        return [helper.make_node("DequantizeLinear", [layer + "_weight", layer + "_wscale", layer + "_wzero"],
                                 [layer + "_w"], axis=0),
                helper.make_node("DequantizeLinear", [layer + "_bias", layer + "_bscale", layer + "_bzero"],
                                 [layer + "_b"], axis=0)]
    nodes = qdq("x", "x") + deq("conv1") + [
        helper.make_node("Conv", ["x_dq", "conv1_w", "conv1_b"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"])] + qdq("r1", "conv1") + [
        helper.make_node("MaxPool", ["r1_dq"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["p1"], ["f1"], axis=1)] + deq("fc1") + [
        helper.make_node("Gemm", ["f1", "fc1_w", "fc1_b"], ["z1"], transB=1),
        helper.make_node("Relu", ["z1"], ["h1"])] + qdq("h1", "fc1") + deq("fc2") + [
        helper.make_node("Gemm", ["h1_dq", "fc2_w", "fc2_b"], ["z2"], transB=1)] + qdq("z2", "fc2") + [
        helper.make_node("Softmax", ["z2_dq"], ["probabilities"], axis=-1)]
    return nodes, x


def int8_weights(model):
    """The .npz entries as initializers, with the zero zero points."""
    z = np.load(os.path.join(SAMPLES, model + ".npz"))
    out = [numpy_helper.from_array(z[k], k) for k in z.files]
    for layer in ("conv1", "fc1", "fc2"):
        n = z[layer + "_wscale"].shape[0]
        out.append(numpy_helper.from_array(np.zeros(n, np.int8), layer + "_wzero"))
        out.append(numpy_helper.from_array(np.zeros(n, np.int32), layer + "_bzero"))
    return out


def export(model, build, outdir):
    nodes, x = build()
    y = helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["n", 10])
    inits = int8_weights(model) if model.endswith("_int8") else weights(model)
    graph = helper.make_graph(nodes, model, [x], [y], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                          producer_name="rxc samples/tools/export_onnx.py")
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(outdir, model + ".onnx"))


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else SAMPLES
    os.makedirs(outdir, exist_ok=True)
    export("digits_mlp", mlp, outdir)
    export("digits_cnn", cnn, outdir)
    export("digits_cnn_int8", cnn_int8, outdir)


if __name__ == "__main__":
    main()
