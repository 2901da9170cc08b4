"""selftest.py - checks the numpy references of refs.py themselves.

Each check runs a reference on a tiny input whose answer was computed by
hand (written out below), so a wrong reference cannot make a wrong kernel
look right.  conv2d is also compared with a direct-loop version for
several attribute combinations, and the NHWC paths with the NCHW ones.
"""
import math

import numpy as np

import refs


def _close(got, want, exact=False):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return f"shape {got.shape}, want {want.shape}"
    ok = np.array_equal(got, want) if exact else np.allclose(got, want, rtol=1e-6, atol=1e-6)
    return None if ok else f"got {got.tolist()}, want {want.tolist()}"


def _grid(n, h, w=None):
    return np.arange(n * h * (w or h), dtype=np.float32).reshape(1, n, h, w or h)


def _conv():
    x = np.arange(1, 10, dtype=np.float32).reshape(1, 1, 3, 3)
    w = np.ones((1, 1, 2, 2), np.float32)
    yield "conv2d 3x3 by ones 2x2", _close(refs.conv2d(x, w)[0, 0], [[12, 16], [24, 28]])
    yield "conv2d pad 1 stride 2", _close(refs.conv2d(x, w, (2, 2), [1])[0, 0], [[1, 5], [11, 28]])
    # padding [top, left, bottom, right] = [1, 0, 0, 0]: rows -1..2, cols 0..2
    yield "conv2d pad4 top only", _close(refs.conv2d(x, w, padding=[1, 0, 0, 0])[0, 0],
                                         [[3, 5], [12, 16], [24, 28]])
    rng = np.random.default_rng(1)
    for strides, padding, dilation, groups in [((1, 1), [0], (1, 1), 1), ((2, 1), [1, 2], (1, 2), 1),
                                                ((2, 2), [0, 1, 2, 1], (2, 1), 2), ((1, 2), [1], (1, 1), 4)]:
        x = rng.standard_normal((2, 4, 7, 6)).astype(np.float32)
        w = rng.standard_normal((8, 4 // groups, 3, 2)).astype(np.float32)
        got = refs.conv2d(x, w, strides, padding, dilation, groups)
        want = refs.conv2d_naive(x, w, strides, padding, dilation, groups)
        yield f"conv2d vs loops {strides} {padding} {dilation} g{groups}", _close(got, want)
        nhwc = refs.conv2d(x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0), strides, padding,
                           dilation, groups, layout="NHWC")
        yield f"conv2d NHWC {strides} g{groups}", _close(nhwc.transpose(0, 3, 1, 2), want)


def _pool():
    x = _grid(1, 4)
    yield "max_pool2d k2 s2", _close(refs.pool2d(x, "max", [2, 2], [2, 2])[0, 0], [[5, 7], [13, 15]])
    yield "avg_pool2d k2 s2", _close(refs.pool2d(x, "avg", [2, 2], [2, 2])[0, 0], [[2.5, 4.5], [10.5, 12.5]])
    # k3 s2 pad 1 on 4x4: window (0,0) holds 0,1,4,5; (0,1) holds 1,2,3,5,6,7
    avg = refs.pool2d(x, "avg", [3, 3], [2, 2], [1])[0, 0]
    yield "avg_pool2d pad excluded", _close(avg[0], [2.5, 4.0])
    incl = refs.pool2d(x, "avg", [3, 3], [2, 2], [1], count_include_pad=True)[0, 0]
    yield "avg_pool2d pad included", _close(incl[0], [10 / 9, 24 / 9])
    yield "max_pool2d pad", _close(refs.pool2d(x, "max", [3, 3], [2, 2], [1])[0, 0], [[5, 7], [13, 15]])
    # ceil_mode on 5x5, k2 s2: 3x3 windows, the last one holds only x[4, 4] = 24
    y = _grid(1, 5)
    for kind in ("max", "avg"):
        for incl in (False, True):
            got = refs.pool2d(y, kind, [2, 2], [2, 2], ceil_mode=True, count_include_pad=incl)[0, 0]
            yield f"{kind}_pool2d ceil incl={incl}", _close(got[2], [21 if kind == "max" else 20.5, 23 if kind == "max" else 22.5, 24])
    # dilation 2, k2, 5x5: window (0,0) holds 0, 2, 10, 12
    yield "max_pool2d dilation", _close(refs.pool2d(y, "max", [2, 2], dilation=(2, 2))[0, 0, 0, 0], 12)
    yield "avg_pool2d dilation", _close(refs.pool2d(y, "avg", [2, 2], dilation=(2, 2))[0, 0, 0, 0], 6)
    yield "avg_pool2d NHWC", _close(refs.pool2d(y.transpose(0, 2, 3, 1), "avg", [2, 2], [2, 2], layout="NHWC")[0, :, :, 0],
                                    [[3, 5], [13, 15]])
    z = np.arange(5, dtype=np.float32).reshape(1, 1, 1, 5)
    yield "adaptive_avg_pool2d [1, 2]", _close(refs.adaptive_avg_pool2d(z, [1, 2])[0, 0], [[1, 3]])
    yield "adaptive_avg_pool2d one value", _close(refs.adaptive_avg_pool2d(_grid(1, 4), [1])[0, 0], [[7.5]])


def _nn():
    yield "softmax", _close(refs.softmax(np.array([0, math.log(3)], np.float32)), [0.25, 0.75])
    yield "log_softmax", _close(refs.log_softmax(np.array([0, math.log(3)], np.float32)),
                                [math.log(0.25), math.log(0.75)])
    yield "softmax axis 0", _close(refs.softmax(np.array([[0, 5], [0, 5]], np.float32), 0),
                                   [[0.5, 0.5], [0.5, 0.5]])
    one = np.ones(2, np.float32)
    yield "layer_norm", _close(refs.layer_norm(np.array([1, 3], np.float32), one, 0 * one, [-1], 0.0), [-1, 1])
    yield "layer_norm scale", _close(refs.layer_norm(np.array([1, 3], np.float32), 2 * one, one, [0], 0.0), [-1, 3])
    x = np.array([3, 5], np.float32).reshape(1, 2, 1, 1)
    bn = refs.batch_norm(x, np.array([1, 2]), np.array([0, 1]), np.array([1, 1]), np.array([4, 16]), 1, 0.0)
    yield "batch_norm", _close(bn.reshape(-1), [1, 3])
    yield "gelu", _close(refs.gelu(np.array([-1.0, 0.0, 1.0])), [-0.15865525393145707, 0, 0.8413447460685429])
    yield "sigmoid", _close(refs.sigmoid(np.array([0.0, math.log(3)])), [0.5, 0.75])


def _elementwise():
    a, b = np.array([-7, 7, 6], np.int32), np.array([2, -2, 3], np.int32)
    yield "floor_divide int", _close(refs.floor_divide(a, b), np.array([-4, -4, 2], np.int32), True)
    yield "floor_divide float", _close(refs.floor_divide(a.astype(np.float32), b.astype(np.float32)),
                                       np.array([-4, -4, 2], np.float32), True)
    f = np.array([-1.7, 1.7, 0.0, -0.2], np.float32)
    yield "astype trunc", _close(refs.astype(f, "int32"), np.array([-1, 1, 0, 0], np.int32), True)
    yield "astype bool", _close(refs.astype(f, "bool"), np.array([True, True, False, True]), True)
    yield "clip", _close(refs.clip(f, -0.5, 0.5), [-0.5, 0.5, 0, -0.2])


def _manip():
    r = np.arange(6)
    yield "strided_slice neg", _close(refs.strided_slice(r, [0], [-1], [-5], [-2]), [5, 3], True)
    yield "strided_slice clamp", _close(refs.strided_slice(r, [0], [-100], [100], None), r, True)
    yield "strided_slice reverse", _close(refs.strided_slice(r, [0], [4], [-100], [-1]), [4, 3, 2, 1, 0], True)
    five = np.arange(10, 15)
    yield "take wrap", _close(refs.take(five, np.array([-1, 5, 7]), 0, "wrap"), [14, 10, 12], True)
    yield "take clip", _close(refs.take(five, np.array([-1, 5]), 0, "clip"), [10, 14], True)
    yield "take none", _close(refs.take(np.array([[1, 2], [3, 4]]), np.array([3, 0]), None), [4, 1], True)
    parts = refs.split(np.arange(5), [1, 3])
    yield "split indices", _close(np.array([len(p) for p in parts] + [parts[1][0]]), [1, 2, 2, 1], True)
    m = np.array([[1, 5, 2], [7, 0, 3]], np.float32)
    yield "argmax none", _close(refs.argmax(m), np.int64(3), True)
    yield "argmax axis", _close(refs.argmax(m, 1), np.array([1, 0], np.int64), True)
    yield "argmax keep", _close(refs.argmax(m, None, True), np.array([[3]], np.int64), True)
    yield "mean keep", _close(refs.reduce(np.mean, [-1], True)(m), [[8 / 3], [10 / 3]])
    yield "sum none", _close(refs.reduce(np.sum)(m), 18)
    yield "matmul 1d", _close(refs.matmul(np.array([1, 2], np.float32), np.array([3, 4], np.float32)), 11)
    yield "expand_dims neg", _close(refs.expand_dims(m, [0, -1]).shape, [1, 2, 3, 1], True)
    yield "pad4", _close(refs.pad4([1, 2]), [1, 2, 1, 2], True)


CHECKS = (_conv, _pool, _nn, _elementwise, _manip)


def count():
    return sum(1 for group in CHECKS for _ in group())


def run():
    """The failing checks, as 'name: message' strings."""
    return [f"{name}: {msg}" for group in CHECKS for name, msg in group() if msg]
