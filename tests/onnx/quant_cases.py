#!/usr/bin/python3
"""quant_cases.py - ONNX's integer and quantized linear operators in the
forms the backend tests leave out: int8 operands, zero points and scales
per output channel (or per column), grouped and strided convolutions, a
bias, saturation at both ends.

Each case is a one-node model built with onnx.helper; the expected output
comes from the numpy references below, written from ONNX's operator
documentation: operands widened to int32 less their zero points, an int32
product, and for QLinear* the result times a_scale * b_scale / y_scale in
float32, rounded half to even (np.rint), plus y's zero point, saturated.
onnx_cases.py runs each model through tcc and cc; integers must be exact.

usage: quant_cases.py [-v]      (RXC=build/rxc)
"""
import os
import sys
import zlib

import numpy as np
from onnx import helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_cases  # noqa: E402

ONNX_TYPE = {np.dtype(np.uint8): 2, np.dtype(np.int8): 3, np.dtype(np.int32): 6,
             np.dtype(np.float32): 1}


def conv_int32(x, w, group, stride, pad):
    """NCHW x (int32), OIHW w (int32), symmetric pad, no dilation."""
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, m, oh, ow), np.int64)
    per = m // group
    for o in range(m):
        g = o // per
        for i in range(oh):
            for j in range(ow):
                patch = x[:, g * cg:(g + 1) * cg, i * stride:i * stride + kh, j * stride:j * stride + kw]
                y[:, o, i, j] = np.sum(patch.astype(np.int64) * w[o].astype(np.int64), axis=(1, 2, 3))
    return y.astype(np.int32)


def requant(acc, scale, zp, axis):
    """Saturate(rint(acc * scale) + zp) in zp's type; scale float32 along axis."""
    shape = [1] * acc.ndim
    if np.ndim(scale) == 1 and scale.size > 1:
        shape[axis] = -1
        scale = scale.reshape(shape)
    y = np.rint(acc.astype(np.float32) * scale.astype(np.float32)) + np.float32(zp)
    info = np.iinfo(zp.dtype)
    return np.clip(y, info.min, info.max).astype(zp.dtype)


def along(v, axis, ndim):
    if np.ndim(v) == 1 and v.size > 1:
        shape = [1] * ndim
        shape[axis] = -1
        return v.reshape(shape)
    return v


def node_model(name, op, names, arrays, attrs, feeds):
    """A one-node model: inputs in feeds are graph inputs, the others initializers."""
    graph_in = [helper.make_tensor_value_info(k, ONNX_TYPE[arrays[k].dtype], list(arrays[k].shape))
                for k in names if k in feeds]
    inits = [numpy_helper.from_array(arrays[k], k) for k in names if k and k not in feeds]
    node = helper.make_node(op, names, ["y"], **attrs)
    g = helper.make_graph([node], name, graph_in, [helper.make_tensor_value_info("y", 0, None)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def ints(rng, shape, dtype):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, shape, dtype=np.int64).astype(dtype)


def qlinear_conv(name, dt, wdt, group, stride, pad, per_channel, bias):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    m, c = 4, 2 * group
    x = ints(rng, (1, c, 5, 6), dt)
    w = ints(rng, (m, c // group, 3, 3), wdt)
    xs, ys = np.float32(0.02), np.float32(0.9)
    ws = (rng.uniform(0.005, 0.03, m) if per_channel else rng.uniform(0.005, 0.03, 1)).astype(np.float32)
    if not per_channel:
        ws = ws.reshape(())
    xzp = np.array(ints(rng, (), dt) // 4, dt)
    wzp = np.zeros(m if per_channel else (), wdt)
    yzp = np.array(ints(rng, (), dt) // 4, dt)
    acc = conv_int32(x.astype(np.int32) - np.int32(xzp), w.astype(np.int32) - along(wzp.astype(np.int32), 0, 4),
                     group, stride, pad)
    arrays = {"x": x, "xs": np.array(xs), "xzp": xzp, "w": w, "ws": ws, "wzp": wzp, "ys": np.array(ys),
              "yzp": yzp}
    names = ["x", "xs", "xzp", "w", "ws", "wzp", "ys", "yzp"]
    if bias:
        arrays["b"] = rng.integers(-2000, 2000, m).astype(np.int32)
        names.append("b")
        acc = acc + along(arrays["b"], 1, 4)
    want = requant(acc, (xs * ws / ys).astype(np.float32) if per_channel else np.float32(xs * ws / ys),
                   yzp, 1)
    attrs = {"group": group, "strides": [stride, stride], "pads": [pad] * 4}
    return (name, node_model(name, "QLinearConv", names, arrays, attrs, {"x"}), {"x": x}, [want])


def qlinear_matmul(name, dt, per_column, y_scale=0.3):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    a, b = ints(rng, (2, 3, 5), dt), ints(rng, (5, 4), dt)
    azp, bzp, yzp = (np.array(ints(rng, (), dt) // 8, dt) for _ in range(3))
    as_, ys = np.float32(0.01), np.float32(y_scale)
    bs = rng.uniform(0.004, 0.02, 4 if per_column else 1).astype(np.float32)
    acc = (a.astype(np.int32) - np.int32(azp)) @ (b.astype(np.int32) - np.int32(bzp))
    want = requant(acc, (as_ * bs / ys).astype(np.float32), yzp, 2)
    arrays = {"a": a, "as": np.array(as_), "azp": azp, "b": b, "bs": bs, "bzp": bzp,
              "ys": np.array(ys), "yzp": yzp}
    names = ["a", "as", "azp", "b", "bs", "bzp", "ys", "yzp"]
    return (name, node_model(name, "QLinearMatMul", names, arrays, {}, {"a"}), {"a": a}, [want])


def matmul_integer(name, adt, bdt):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    a, b = ints(rng, (3, 6), adt), ints(rng, (6, 5), bdt)
    azp = np.array(ints(rng, (), adt) // 3, adt)
    bzp = ints(rng, (5,), bdt) // 3
    want = (a.astype(np.int32) - np.int32(azp)) @ (b.astype(np.int32) - bzp.astype(np.int32))
    arrays = {"a": a, "b": b, "azp": azp, "bzp": bzp}
    return (name, node_model(name, "MatMulInteger", ["a", "b", "azp", "bzp"], arrays, {}, {"a"}),
            {"a": a}, [want.astype(np.int32)])


def conv_integer(name, dt):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    x, w = ints(rng, (1, 2, 5, 5), dt), ints(rng, (3, 2, 2, 2), dt)
    xzp = np.array(ints(rng, (), dt) // 3, dt)
    wzp = ints(rng, (3,), dt) // 3
    want = conv_int32(x.astype(np.int32) - np.int32(xzp), w.astype(np.int32) - along(wzp.astype(np.int32), 0, 4),
                      1, 2, 1)
    arrays = {"x": x, "w": w, "xzp": xzp, "wzp": wzp}
    attrs = {"strides": [2, 2], "pads": [1, 1, 1, 1]}
    return (name, node_model(name, "ConvInteger", ["x", "w", "xzp", "wzp"], arrays, attrs, {"x"}),
            {"x": x}, [want])


RUNS = [
    qlinear_conv("qlinearconv_int8_per_channel_bias", np.int8, np.int8, 1, 1, 1, True, True),
    qlinear_conv("qlinearconv_uint8_grouped_strided", np.uint8, np.uint8, 2, 2, 0, False, False),
    qlinear_conv("qlinearconv_uint8_int8_weights", np.uint8, np.int8, 1, 1, 0, True, True),
    qlinear_matmul("qlinearmatmul_int8_per_column", np.int8, True),
    qlinear_matmul("qlinearmatmul_uint8_batched", np.uint8, False),
    qlinear_matmul("qlinearmatmul_int8_saturating", np.int8, True, y_scale=0.02),
    matmul_integer("matmulinteger_int8_uint8_column_zp", np.int8, np.uint8),
    conv_integer("convinteger_int8_channel_zp", np.int8),
]


if __name__ == "__main__":
    sys.exit(onnx_cases.run("quant cases", RUNS, "-v" in sys.argv))
