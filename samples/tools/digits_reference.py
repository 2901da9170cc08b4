"""digits_reference.py - numpy's predictions of the digits models.

The forward passes of digits_mlp and digits_cnn in float32 numpy, from the
weights in samples/<model>.npz, written to match the TVMScript op for op
(x @ W.T + b, NCHW conv2d with padding 1, 2x2 max pooling, softmax).
train_digits.py trains through the same functions; check_digits.py
compares rxc's predictions with these.

    python3 samples/tools/digits_reference.py   # accuracy of both models
"""
import os

import numpy as np

SAMPLES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def im2col3x3(x):
    """(n, c, h, w) -> (n, h, w, c*9): the 3x3 patches of x padded by 1,
    ordered like an OIHW weight's (c, kh, kw)."""
    n, c, h, w = x.shape
    p = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    cols = np.empty((n, h, w, c, 3, 3), dtype=x.dtype)
    for i in range(3):
        for j in range(3):
            cols[:, :, :, :, i, j] = p[:, :, i:i + h, j:j + w].transpose(0, 2, 3, 1)
    return cols.reshape(n, h, w, c * 9)


def mlp_forward(w, x):
    """Returns (probabilities, cache of activations for backprop)."""
    z1 = x @ w["fc1_weight"].T + w["fc1_bias"]
    h1 = np.maximum(z1, 0)
    z2 = h1 @ w["fc2_weight"].T + w["fc2_bias"]
    return softmax(z2), (x, z1, h1)


def cnn_forward(w, x):
    """x: (n, 1, 8, 8).  Returns (probabilities, cache)."""
    n = x.shape[0]
    cols = im2col3x3(x)                                   # (n, 8, 8, 9)
    kernel = w["conv1_weight"].reshape(8, -1)             # (8, 9)
    conv = (cols @ kernel.T).transpose(0, 3, 1, 2) + w["conv1_bias"].reshape(1, 8, 1, 1)
    relu = np.maximum(conv, 0)                            # (n, 8, 8, 8)
    pool = relu.reshape(n, 8, 4, 2, 4, 2).max(axis=(3, 5))  # (n, 8, 4, 4)
    flat = pool.reshape(n, 128)
    z1 = flat @ w["fc1_weight"].T + w["fc1_bias"]
    h1 = np.maximum(z1, 0)
    z2 = h1 @ w["fc2_weight"].T + w["fc2_bias"]
    return softmax(z2), (cols, conv, relu, pool, flat, z1, h1)


def quantize(x, scale, zp):
    """R.quantize to int8: rint(x / scale) (the quotient in float32) + zp."""
    q = np.rint((x / np.float32(scale)).astype(np.float32)).astype(np.int64) + int(zp)
    return np.clip(q, -128, 127).astype(np.int8)


def dequantize(q, scale, zp, axis=None, ndim=None):
    """R.dequantize: (q - zp) * scale in float64, rounded to float32 once;
    scale per channel along axis when it is a vector."""
    s = np.asarray(scale, np.float64)
    if s.ndim == 1:
        s = s.reshape([-1 if d == axis else 1 for d in range(ndim)])
    return ((q.astype(np.float64) - int(zp)) * s).astype(np.float32)


def fake_quant(p, x, t):
    return dequantize(quantize(x, p[t + "_scale"], p[t + "_zp"]), p[t + "_scale"], p[t + "_zp"])


def cnn_int8_forward(p, x):
    """digits_cnn_int8 (quantize_digits.py): the float CNN with its tensors
    quantized as the QDQ module does, op for op."""
    n = x.shape[0]
    w = {}
    for layer in ("conv1", "fc1", "fc2"):
        wq = p[layer + "_weight"]
        w[layer + "_weight"] = dequantize(wq, p[layer + "_wscale"], 0, 0, wq.ndim)
        w[layer + "_bias"] = dequantize(p[layer + "_bias"], p[layer + "_bscale"], 0, 0, 1)
    xd = fake_quant(p, x, "x")
    cols = im2col3x3(xd)
    conv = (cols @ w["conv1_weight"].reshape(8, -1).T).transpose(0, 3, 1, 2) + w["conv1_bias"].reshape(1, 8, 1, 1)
    a1 = fake_quant(p, np.maximum(conv, 0), "conv1")
    flat = a1.reshape(n, 8, 4, 2, 4, 2).max(axis=(3, 5)).reshape(n, 128)
    a2 = fake_quant(p, np.maximum(flat @ w["fc1_weight"].T + w["fc1_bias"], 0), "fc1")
    a3 = fake_quant(p, a2 @ w["fc2_weight"].T + w["fc2_bias"], "fc2")
    return softmax(a3), None


def requantize(acc, m, zp, lo, hi, dtype=np.int8):
    """clip(zp + round(acc * m), lo, hi) in integers, as rxc's
    FakeQuantizationToInteger computes a layer's output: m = M * 2^-S with
    M < 2^31 an integer (m * 2^S rounded half up) and one S for all
    channels, the largest m's (31 - its binary exponent), unless that leaves
    some M below 2^20 or makes one 2^31 (then an S per channel); the product
    rounded to nearest, ties up: (acc * M + 2^(S-1)) >> S."""
    m = np.asarray(m, np.float64)
    e = np.frexp(m)[1]
    shift = np.full(m.shape, 31 - e.max(), np.int64)
    big = np.floor(np.ldexp(m, shift) + 0.5).astype(np.int64)
    if (big < 1 << 20).any() or (big == 1 << 31).any():
        shift = (31 - e).astype(np.int64)
        big = np.floor(np.ldexp(m, shift) + 0.5).astype(np.int64)
        shift = np.where(big == 1 << 31, shift - 1, shift)
        big = np.where(big == 1 << 31, 1 << 30, big)
    t = acc.astype(np.int64) * big
    r = (t + (np.int64(1) << (shift - 1))) // (np.int64(1) << shift)
    return np.clip(r + zp, lo, hi).astype(dtype)


def cnn_int8_integer_forward(p, x):
    """digits_cnn_int8 as integer arithmetic: each layer sums (xq - zx) * wq
    in integers, adds the int32 bias and requantizes (requantize); what the
    compiled model computes after FakeQuantizationToInteger."""
    n = x.shape[0]
    s = {t: (np.float64(np.float32(p[t + "_scale"])), int(p[t + "_zp"])) for t in ("x", "conv1", "fc1", "fc2")}

    def layer(a, t_in, t_out, name, acc, relu):
        m = s[t_in][0] * p[name + "_wscale"].astype(np.float64) / s[t_out][0]
        zp = s[t_out][1]
        return requantize(acc + p[name + "_bias"].astype(np.int64).reshape(a), m.reshape(a), zp,
                          zp if relu else -128, 127)

    xq = quantize(x, p["x_scale"], p["x_zp"]).astype(np.int64) - s["x"][1]
    cols = im2col3x3(xq)  # pads xq - zx with 0: the real 0
    conv = (cols @ p["conv1_weight"].astype(np.int64).reshape(8, -1).T).transpose(0, 3, 1, 2)
    a1 = layer((1, 8, 1, 1), "x", "conv1", "conv1", conv, True)
    flat = a1.reshape(n, 8, 4, 2, 4, 2).max(axis=(3, 5)).reshape(n, 128).astype(np.int64) - s["conv1"][1]
    a2 = layer((1, 32), "conv1", "fc1", "fc1", flat @ p["fc1_weight"].astype(np.int64).T, True)
    a2 = a2.astype(np.int64) - s["fc1"][1]
    a3 = layer((1, 10), "fc1", "fc2", "fc2", a2 @ p["fc2_weight"].astype(np.int64).T, False)
    return softmax(dequantize(a3, p["fc2_scale"], p["fc2_zp"])), a3


FORWARD = {"digits_mlp": mlp_forward, "digits_cnn": cnn_forward, "digits_cnn_int8": cnn_int8_forward}
# the quantized models' integer forward (their second result: int8 logits)
INTEGER_FORWARD = {"digits_cnn_int8": cnn_int8_integer_forward}


def params(model):
    return dict(np.load(os.path.join(SAMPLES, model + ".npz")))


def test_input(model, test):
    """The held-out images in the model's input layout."""
    return test["x_mlp"] if model == "digits_mlp" else test["x_cnn"]


def probabilities(model):
    """numpy's output for the held-out digits, from the .npz."""
    w = dict(np.load(os.path.join(SAMPLES, model + ".npz")))
    test = np.load(os.path.join(SAMPLES, "digits_test.npz"))
    prob, _ = FORWARD[model](w, test_input(model, test))
    return prob


def predictions(model):
    """numpy's predicted classes of the held-out digits."""
    return probabilities(model).argmax(axis=1)


def main():
    labels = np.load(os.path.join(SAMPLES, "digits_test.npz"))["labels"]
    for model in FORWARD:
        pred = predictions(model)
        print("%s: numpy accuracy %d/%d = %.4f" % (model, (pred == labels).sum(), len(labels),
                                                  (pred == labels).mean()))


if __name__ == "__main__":
    main()
