"""quantize_digits.py - digits_cnn quantized post-training to int8
(issue 23): writes samples/digits_cnn_int8.npz and samples/digits_cnn_int8.py
and prints the accuracy of both models on the 360 held-out digits.

The scheme is TFLite's for int8 models:
  - weights int8, symmetric (zero point 0), one scale per output channel:
    max |w| over the channel / 127;
  - biases int32 of scale input_scale * weight_scale (zero point 0);
  - activations int8, asymmetric, one scale and zero point per tensor,
    from the range (0 included) each takes over the 1437 training images,
    the float model run in numpy: the input (fixed: [0, 1]), conv1 after
    ReLU, fc1 after ReLU, and fc2's logits.  Max pooling and flatten keep
    their input's scale.
The model is written in QDQ form: each quantized tensor is an
R.quantize / R.dequantize pair, the weights and biases R.dequantize'd from
their int8/int32 parameters, the ops between them in float32; softmax
takes the dequantized logits.  The parameters in the .npz are the int8
weights with their float32 scales, the int32 biases with theirs, and each
activation's scale (float32) and zero point (int8), all bound as constants
by --params.  digits_reference.py's
cnn_int8_forward computes the same in numpy.

    /usr/bin/python3 samples/tools/quantize_digits.py
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import digits_reference as ref  # noqa: E402
import train_digits  # noqa: E402

SAMPLES = ref.SAMPLES
BOUND = 512


def act_qparams(lo, hi):
    """int8 scale and zero point for the range [lo, hi] (0 included)."""
    lo, hi = min(float(lo), 0.0), max(float(hi), 0.0)
    scale = np.float32((hi - lo) / 255.0) if hi > lo else np.float32(1.0)
    zp = int(np.clip(np.rint(-128 - lo / float(scale)), -128, 127))
    return scale, zp


def weight_qparams(w):
    """Per-output-channel symmetric int8 of w (channel axis 0)."""
    m = np.abs(w.reshape(w.shape[0], -1)).max(axis=1)
    scale = np.where(m > 0, m / 127.0, 1.0).astype(np.float32)
    q = np.clip(np.rint(w / scale.reshape((-1,) + (1,) * (w.ndim - 1))), -127, 127).astype(np.int8)
    return q, scale


def quantize(w, x_train):
    """The parameters (npz entries) and the activation qparams."""
    _, cache = ref.cnn_forward(w, x_train)
    _, conv, relu, pool, flat, z1, h1 = cache
    logits = h1 @ w["fc2_weight"].T + w["fc2_bias"]
    acts = {"x": (np.float32(1 / 255.0), -128), "conv1": act_qparams(0, relu.max()),
            "fc1": act_qparams(0, h1.max()), "fc2": act_qparams(logits.min(), logits.max())}
    params = {}
    inputs = {"conv1": "x", "fc1": "conv1", "fc2": "fc1"}
    for layer in ("conv1", "fc1", "fc2"):
        q, s = weight_qparams(w[layer + "_weight"])
        bscale = (acts[inputs[layer]][0] * s).astype(np.float32)
        params[layer + "_weight"] = q
        params[layer + "_wscale"] = s
        params[layer + "_bias"] = np.rint(w[layer + "_bias"] / bscale).astype(np.int32)
        params[layer + "_bscale"] = bscale
    for t, (scale, zp) in acts.items():
        params[t + "_scale"] = np.array(scale, np.float32)
        params[t + "_zp"] = np.array(zp, np.int8)
    return params, acts


def module_text(acts):
    """The TVMScript of the model; acts gives the activations' names."""
    def q(name, v, t):
        return [f'{name}q: R.Tensor({{shape}}, dtype="int8") = R.quantize({v}, {t}_scale, {t}_zp, axis=-1, '
                'out_dtype="int8")',
                f'{name}: R.Tensor({{shape}}, dtype="float32") = R.dequantize({name}q, {t}_scale, {t}_zp, '
                'axis=-1, out_dtype="float32")']

    def deq(name, layer, what, shape):
        """The layer's weight (int8) or bias (int32) dequantized along axis 0."""
        dt, scale = ("int8", "wscale") if what == "weight" else ("int32", "bscale")
        return (f'{name}: R.Tensor({shape}, dtype="float32") = R.dequantize({layer}_{what}, {layer}_{scale}, '
                f'R.const(0, "{dt}"), axis=0, out_dtype="float32")')

    body = []
    body += [s.format(shape="(n, 1, 8, 8)") for s in q("xd", "x", "x")]
    body.append(deq("w1", "conv1", "weight", "(8, 1, 3, 3)"))
    body.append(deq("b1", "conv1", "bias", "(8,)"))
    body.append('c1: R.Tensor((n, 8, 8, 8), dtype="float32") = R.nn.conv2d(xd, w1, strides=[1, 1], '
                'padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", '
                'out_layout="NCHW", out_dtype="void")')
    body.append('b1r: R.Tensor((1, 8, 1, 1), dtype="float32") = R.reshape(b1, R.shape([1, 8, 1, 1]))')
    body.append('c1b: R.Tensor((n, 8, 8, 8), dtype="float32") = R.add(c1, b1r)')
    body.append('r1: R.Tensor((n, 8, 8, 8), dtype="float32") = R.nn.relu(c1b)')
    body += [s.format(shape="(n, 8, 8, 8)") for s in q("a1", "r1", "conv1")]
    body.append('p1: R.Tensor((n, 8, 4, 4), dtype="float32") = R.nn.max_pool2d(a1, pool_size=[2, 2], '
                'strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, '
                'count_include_pad=False, layout="NCHW", out_layout="NCHW")')
    body.append('f1: R.Tensor((n, 128), dtype="float32") = R.reshape(p1, R.shape([n, 128]))')
    for layer, x, out, cin, cout, relu in (("fc1", "f1", "a2", 128, 32, True), ("fc2", "a2", "a3", 32, 10, False)):
        body.append(deq(f"w_{layer}", layer, "weight", f"({cout}, {cin})"))
        body.append(deq(f"b_{layer}", layer, "bias", f"({cout},)"))
        body.append(f'wt_{layer}: R.Tensor(({cin}, {cout}), dtype="float32") = R.permute_dims(w_{layer}, axes=None)')
        body.append(f'm_{layer}: R.Tensor((n, {cout}), dtype="float32") = R.matmul({x}, wt_{layer}, out_dtype="void")')
        body.append(f'z_{layer}: R.Tensor((n, {cout}), dtype="float32") = R.add(m_{layer}, b_{layer})')
        y = f"z_{layer}"
        if relu:
            body.append(f'h_{layer}: R.Tensor((n, {cout}), dtype="float32") = R.nn.relu(z_{layer})')
            y = f"h_{layer}"
        body += [s.format(shape=f"(n, {cout})") for s in q(out, y, layer)]
    body.append('gv: R.Tensor((n, 10), dtype="float32") = R.nn.softmax(a3, axis=-1)')
    params = []
    for t in acts:
        params += [f'{t}_scale: R.Tensor((), dtype="float32")', f'{t}_zp: R.Tensor((), dtype="int8")']
    for layer, wshape, cout in (("conv1", "(8, 1, 3, 3)", 8), ("fc1", "(32, 128)", 32), ("fc2", "(10, 32)", 10)):
        params += [f'{layer}_weight: R.Tensor({wshape}, dtype="int8")',
                   f'{layer}_wscale: R.Tensor(({cout},), dtype="float32")',
                   f'{layer}_bias: R.Tensor(({cout},), dtype="int32")',
                   f'{layer}_bscale: R.Tensor(({cout},), dtype="float32")']
    head = '''# rxc: quantized
# digits_cnn quantized post-training to int8 (samples/tools/quantize_digits.py,
# which writes this file and digits_cnn_int8.npz): int8 weights with one
# scale per output channel, int32 biases, int8 activations with one scale
# and zero point per tensor, calibrated on the training images.  QDQ form:
# each quantized tensor is an R.quantize / R.dequantize pair and the ops
# between them compute in float32.  The batch n is symbolic, at most %d.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 1, 8, 8), dtype="float32"), %s) -> R.Tensor(("n", 10), dtype="float32"):
        n = T.int64()
        R.func_attr({"num_input": 1, "tir_var_upper_bound": {"n": %d}})
        with R.dataflow():
''' % (BOUND, ", ".join(params), BOUND)
    lines = ["            " + b for b in body] + ["            R.output(gv)", "        return gv", ""]
    return head + "\n".join(lines)


def main():
    w = dict(np.load(os.path.join(SAMPLES, "digits_cnn.npz")))
    x_train, y_train, x_test, y_test = train_digits.split()
    x_train = x_train.reshape(-1, 1, 8, 8)
    params, acts = quantize(w, x_train)
    np.savez(os.path.join(SAMPLES, "digits_cnn_int8.npz"), **params)
    with open(os.path.join(SAMPLES, "digits_cnn_int8.py"), "w") as f:
        f.write(module_text(acts))
    test = np.load(os.path.join(SAMPLES, "digits_test.npz"))
    fl = ref.cnn_forward(w, test["x_cnn"])[0].argmax(1)
    qi = ref.cnn_int8_forward(params, test["x_cnn"])[0].argmax(1)
    print("float32: %.2f%%, int8: %.2f%% of %d held-out digits (numpy)" % (
        100 * np.mean(fl == test["labels"]), 100 * np.mean(qi == test["labels"]), len(fl)))


if __name__ == "__main__":
    main()
