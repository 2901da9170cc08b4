"""train_digits.py - train digits_mlp and digits_cnn on scikit-learn's digits.

Data: sklearn.datasets.load_digits (1797 8x8 images of 0..16, shipped with
scikit-learn, python3-sklearn on Debian), scaled to [0, 1] and split by a
seeded permutation into 1437 training and 360 held-out images.  Training:
plain numpy, hand-written backprop of the forward passes in
digits_reference.py, Adam on softmax cross-entropy, minibatches of 32,
seeded, so a run gives the same weights on the same numpy.

Writes samples/digits_mlp.npz and samples/digits_cnn.npz (float32, named
like the models' Relax parameters) and samples/digits_test.npz (x_mlp:
(360, 64), x_cnn: (360, 1, 8, 8) float32; labels int64), and prints numpy's
accuracy on the held-out images.

    /usr/bin/python3 samples/tools/train_digits.py
"""
import os
import sys

import numpy as np
from sklearn.datasets import load_digits

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import digits_reference as ref  # noqa: E402

SEED = 7
TEST_SIZE = 360
EPOCHS = 30
BATCH = 32


def split():
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int64)
    order = np.random.RandomState(SEED).permutation(len(y))
    test, train = order[:TEST_SIZE], order[TEST_SIZE:]
    return x[train], y[train], x[test], y[test]


def dense_init(rng, cout, cin):
    return (rng.randn(cout, cin) * np.sqrt(2.0 / cin)).astype(np.float32)


def init_mlp(rng):
    return {"fc1_weight": dense_init(rng, 32, 64), "fc1_bias": np.zeros(32, np.float32),
            "fc2_weight": dense_init(rng, 10, 32), "fc2_bias": np.zeros(10, np.float32)}


def init_cnn(rng):
    return {"conv1_weight": (rng.randn(8, 1, 3, 3) * np.sqrt(2.0 / 9)).astype(np.float32),
            "conv1_bias": np.zeros(8, np.float32),
            "fc1_weight": dense_init(rng, 32, 128), "fc1_bias": np.zeros(32, np.float32),
            "fc2_weight": dense_init(rng, 10, 32), "fc2_bias": np.zeros(10, np.float32)}


def head_grads(w, prob, labels, h1, z1, inputs):
    """Gradients of the two dense layers; returns (grads, d inputs)."""
    n = len(labels)
    dz2 = prob.copy()
    dz2[np.arange(n), labels] -= 1
    dz2 /= n
    g = {"fc2_weight": dz2.T @ h1, "fc2_bias": dz2.sum(0)}
    dz1 = (dz2 @ w["fc2_weight"]) * (z1 > 0)
    g["fc1_weight"] = dz1.T @ inputs
    g["fc1_bias"] = dz1.sum(0)
    return g, dz1 @ w["fc1_weight"]


def mlp_grads(w, x, labels):
    prob, (inputs, z1, h1) = ref.mlp_forward(w, x)
    g, _ = head_grads(w, prob, labels, h1, z1, inputs)
    return g


def cnn_grads(w, x, labels):
    prob, (cols, conv, relu, pool, flat, z1, h1) = ref.cnn_forward(w, x)
    g, dflat = head_grads(w, prob, labels, h1, z1, flat)
    n = len(labels)
    dpool = dflat.reshape(n, 8, 4, 4)
    # max pooling passes the gradient to the (first) maximum of each window
    windows = relu.reshape(n, 8, 4, 2, 4, 2)
    mask = windows == pool[:, :, :, None, :, None]
    first = mask & (np.cumsum(np.cumsum(mask, axis=3), axis=5) == 1)
    drelu = (first * dpool[:, :, :, None, :, None]).reshape(n, 8, 8, 8)
    dconv = drelu * (conv > 0)                                    # (n, 8, 8, 8)
    dconv_nhwc = dconv.transpose(0, 2, 3, 1).reshape(-1, 8)       # (n*64, 8)
    g["conv1_weight"] = (dconv_nhwc.T @ cols.reshape(-1, 9)).reshape(8, 1, 3, 3)
    g["conv1_bias"] = dconv.sum(axis=(0, 2, 3))
    return g


def train(w, grads, x, y, rng, lr=0.003):
    """Adam (Kingma and Ba 2015) with the usual betas for EPOCHS epochs."""
    m = {k: np.zeros_like(v) for k, v in w.items()}
    v = {k: np.zeros_like(v) for k, v in w.items()}
    step = 0
    for _ in range(EPOCHS):
        order = rng.permutation(len(y))
        for start in range(0, len(y), BATCH):
            idx = order[start:start + BATCH]
            g = grads(w, x[idx], y[idx])
            step += 1
            for k in w:
                m[k] = 0.9 * m[k] + 0.1 * g[k]
                v[k] = 0.999 * v[k] + 0.001 * g[k] ** 2
                mhat = m[k] / (1 - 0.9 ** step)
                vhat = v[k] / (1 - 0.999 ** step)
                w[k] = (w[k] - lr * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)
    return w


def main():
    x_train, y_train, x_test, y_test = split()
    rng = np.random.RandomState(SEED)
    out = ref.SAMPLES
    np.savez_compressed(os.path.join(out, "digits_test.npz"), x_mlp=x_test,
             x_cnn=x_test.reshape(-1, 1, 8, 8), labels=y_test)
    jobs = [("digits_mlp", init_mlp, mlp_grads, x_train),
            ("digits_cnn", init_cnn, cnn_grads, x_train.reshape(-1, 1, 8, 8))]
    for model, init, grads, x in jobs:
        w = train(init(rng), grads, x, y_train, rng)
        np.savez(os.path.join(out, model + ".npz"), **w)
        pred = ref.predictions(model)
        print("%s: numpy accuracy on the %d held-out digits: %d/%d = %.4f"
              % (model, len(y_test), (pred == y_test).sum(), len(y_test), (pred == y_test).mean()))


if __name__ == "__main__":
    main()
