"""gen_models.py - the sample models' TVMScript, written from one description.

Each model is a function that drives a relax_text.Builder; the same
description gives the TVMScript file samples/<name>.py (committed) and the
parameter list (names, shapes, how to seed them) that gen_weights.py and
train_digits.py fill.  Run from anywhere:

    python3 samples/tools/gen_models.py      # rewrites samples/<name>.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relax_text import Builder  # noqa: E402

SAMPLES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Test sets are evaluated in one call, so the batch bound covers the
# held-out digits (360 images).
DIGITS_BATCH_BOUND = 512


def digits_mlp():
    b = Builder("""
An MLP for the 8x8 handwritten digits of scikit-learn (load_digits): the
64 pixels (scaled to [0, 1]) -> Linear(64, 32) -> ReLU -> Linear(32, 10)
-> softmax.  Torch-style (out, in) weights, transposed by R.permute_dims.
The batch n is symbolic, at most %d.  Trained weights: digits_mlp.npz,
written by tools/train_digits.py.""" % DIGITS_BATCH_BOUND,
                "x", ("n", 64), {"n": DIGITS_BATCH_BOUND})
    h = b.relu(b.dense(b.input, "fc1", 32))
    return b, b.softmax(b.dense(h, "fc2", 10))


def digits_cnn():
    b = Builder("""
A small CNN for the 8x8 handwritten digits of scikit-learn: input
(n, 1, 8, 8) scaled to [0, 1] -> conv2d 3x3, 8 filters, padding 1 -> ReLU
-> 2x2 max pooling -> flatten to 128 -> Linear(128, 32) -> ReLU ->
Linear(32, 10) -> softmax.  The batch n is symbolic, at most %d.  Trained
weights: digits_cnn.npz, written by tools/train_digits.py.""" % DIGITS_BATCH_BOUND,
                "x", ("n", 1, 8, 8), {"n": DIGITS_BATCH_BOUND})
    y = b.relu(b.conv2d(b.input, "conv1", 8, 3, pad=1))
    y = b.pool2d(y, "max_pool2d", (2, 2), (2, 2))
    y = b.reshape(y, ("n", 128))
    y = b.relu(b.dense(y, "fc1", 32))
    return b, b.softmax(b.dense(y, "fc2", 10))


# MobileNetV2 (Sandler et al. 2018, table 2): expansion t, channels c,
# repeats n, first stride s.
MOBILENET_BLOCKS = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                    (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]


def inverted_residual(b, x, name, expand, cout, stride):
    cin = x[1][1]
    hidden = cin * expand
    y = x
    if expand != 1:
        y = b.relu6(b.conv2d(y, name + "_expand", hidden, 1))
    y = b.relu6(b.conv2d(y, name + "_dw", hidden, 3, stride=stride, pad=1, groups=hidden))
    y = b.conv2d(y, name + "_project", cout, 1)
    if stride == 1 and cin == cout:
        y = b.add(x, y)
    return y


def mobilenet_v2():
    b = Builder("""
MobileNetV2 1.0/224 (Sandler et al., "MobileNetV2: Inverted Residuals and
Linear Bottlenecks", 2018) for inference: a 3x3 stride-2 stem of 32
channels, 17 inverted residual blocks (1x1 expansion by 6, 3x3 depthwise
conv2d with groups, linear 1x1 projection, a residual add when the shape
is kept), a 1x1 conv to 1280, global average pooling and a dense layer to
1000 classes, softmax.  Batch norm is folded into each conv's weight and
bias; ReLU6 is R.clip(x, 0, 6).  NCHW float32, batch 1.  3.5 M weights
(14 MB), seeded by tools/gen_weights.py into mobilenet_v2.npz.""",
                "x", (1, 3, 224, 224))
    y = b.relu6(b.conv2d(b.input, "stem", 32, 3, stride=2, pad=1))
    index = 0
    for expand, cout, repeats, first_stride in MOBILENET_BLOCKS:
        for r in range(repeats):
            index += 1
            y = inverted_residual(b, y, "block%d" % index, expand, cout, first_stride if r == 0 else 1)
    y = b.relu6(b.conv2d(y, "head", 1280, 1))
    y = b.reshape(b.global_avg_pool(y), (1, 1280))
    return b, b.softmax(b.dense(y, "classifier", 1000))


def kws_dscnn():
    b = Builder("""
DS-CNN keyword spotting, the model of the MLPerf Tiny benchmark (after
Zhang et al., "Hello Edge", 2017): 49 frames x 10 MFCC features, a 10x4
stride-2 conv of 64 channels ("same" padding, as TensorFlow pads it: 4
top, 5 bottom, 1 left, 1 right), 4 depthwise-separable blocks (3x3
depthwise + 1x1 pointwise, 64 channels, ReLU after each), 25x5 average
pooling, a dense layer to 12 classes, softmax.  Batch norm folded into
conv weights and biases.  NCHW float32, batch 1.  Seeded weights:
kws_dscnn.npz from tools/gen_weights.py.""",
                "x", (1, 1, 49, 10))
    y = b.relu(b.conv2d(b.input, "conv1", 64, (10, 4), stride=2, pad=(4, 1, 5, 1)))
    for i in range(1, 5):
        y = b.relu(b.conv2d(y, "block%d_dw" % i, 64, 3, pad=1, groups=64))
        y = b.relu(b.conv2d(y, "block%d_pw" % i, 64, 1))
    y = b.pool2d(y, "avg_pool2d", (25, 5), (25, 5))
    y = b.reshape(y, (1, 64))
    return b, b.softmax(b.dense(y, "fc", 12))


def transformer_block():
    b = Builder("""
One transformer encoder block (post-norm, as in Vaswani et al. 2017 and
BERT): d_model 64, 4 heads of 16, multi-head scaled dot-product attention
(Q, K, V and output projections, softmax over keys, scale 1/sqrt(16)), a
residual add and layer norm, then an MLP 64 -> 256 -> 64 with GELU, a
residual add and layer norm.  Input (1, s, 64) with a symbolic sequence
length s of at most 128.  Seeded weights: transformer_block.npz from
tools/gen_weights.py.""",
                "x", (1, "s", 64), {"s": 128})
    x = b.input

    def heads(t, axes):
        return b.permute(b.reshape(t, (1, "s", 4, 16)), axes)

    q = heads(b.dense(x, "attn_q", 64), [0, 2, 1, 3])  # (1, 4, s, 16)
    k = heads(b.dense(x, "attn_k", 64), [0, 2, 3, 1])  # (1, 4, 16, s)
    v = heads(b.dense(x, "attn_v", 64), [0, 2, 1, 3])  # (1, 4, s, 16)
    scores = b.softmax(b.multiply_const(b.matmul(q, k), "0.25"))
    ctx = b.permute(b.matmul(scores, v), [0, 2, 1, 3])
    attn = b.dense(b.reshape(ctx, (1, "s", 64)), "attn_out", 64)
    h = b.layer_norm(b.add(x, attn), "ln1")
    mlp = b.dense(b.gelu(b.dense(h, "mlp_fc1", 256)), "mlp_fc2", 64)
    return b, b.layer_norm(b.add(h, mlp), "ln2")


MODELS = {
    "digits_mlp": digits_mlp,
    "digits_cnn": digits_cnn,
    "mobilenet_v2": mobilenet_v2,
    "kws_dscnn": kws_dscnn,
    "transformer_block": transformer_block,
}

# Models too slow for the TIR interpreter in `make check`: their files open
# with this line, which tests/unit/test_samples.c looks for.
LARGE = {"mobilenet_v2"}
LARGE_MARK = "# rxc: large"


def params(name):
    """[(name, shape, kind)] of model `name`'s weight parameters."""
    return MODELS[name]()[0].params


def main():
    for name, build in MODELS.items():
        b, result = build()
        header = LARGE_MARK if name in LARGE else ""
        path = os.path.join(SAMPLES, name + ".py")
        with open(path, "w") as f:
            f.write(b.text(result, header))
        print("wrote %s (%d weight parameters, %d bindings)" % (path, len(b.params), len(b.lines)))


if __name__ == "__main__":
    main()
