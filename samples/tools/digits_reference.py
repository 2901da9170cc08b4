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


FORWARD = {"digits_mlp": mlp_forward, "digits_cnn": cnn_forward}


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
