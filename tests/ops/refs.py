"""refs.py - numpy references for the operators of issue 3.

Each function takes numpy arrays (and the op's attributes as Python values)
and returns what the op must compute.  Floating results are computed in
float64 and rounded once to the input dtype, which is the reference the
interpreter promises ("accumulation in double"); the tolerances of the cases
absorb the float32 arithmetic of legalized kernels.  The window-based
references (conv2d, pools) follow TVM's definitions: padding lists of 1, 2
or 4 values mean [all], [top/bottom, left/right], [top, left, bottom, right].
"""
import math

import numpy as np

_erf = np.vectorize(math.erf, otypes=[np.float64])


def f64(a):
    return np.asarray(a, dtype=np.float64)


def like(result, a):
    """result rounded to the dtype of a (float32 usually)."""
    return np.asarray(result).astype(a.dtype)


def unary(fn):
    """An elementwise float op computed in double."""
    return lambda x: like(fn(f64(x)), x)


def binary(fn):
    return lambda x, y: like(fn(f64(x), f64(y)), x) if x.dtype.kind == "f" else fn(x, y).astype(x.dtype)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def gelu(x):
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def erf(x):
    return _erf(x)


def floor_divide(x, y):
    if x.dtype.kind == "f":
        return like(np.floor(f64(x) / f64(y)), x)
    return np.floor_divide(x, y).astype(x.dtype)


def softmax(x, axis=-1):
    z = f64(x)
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return like(e / e.sum(axis=axis, keepdims=True), x)


def log_softmax(x, axis=-1):
    z = f64(x)
    z = z - z.max(axis=axis, keepdims=True)
    return like(z - np.log(np.exp(z).sum(axis=axis, keepdims=True)), x)


def layer_norm(x, gamma, beta, axes, epsilon=1e-5):
    z = f64(x)
    axes = tuple(a % x.ndim for a in axes)
    mean = z.mean(axis=axes, keepdims=True)
    var = ((z - mean) ** 2).mean(axis=axes, keepdims=True)
    return like((z - mean) / np.sqrt(var + epsilon) * f64(gamma) + f64(beta), x)


def batch_norm(x, gamma, beta, mean, var, axis=1, epsilon=1e-5):
    """Inference batch norm with the moving statistics."""
    shape = [1] * x.ndim
    shape[axis % x.ndim] = -1
    r = lambda a: f64(a).reshape(shape)
    return like((f64(x) - r(mean)) / np.sqrt(r(var) + epsilon) * r(gamma) + r(beta), x)


def pad4(padding):
    """TVM's 2-D padding: 1, 2 or 4 values -> (top, left, bottom, right)."""
    p = list(padding)
    if len(p) == 1:
        return p * 4
    if len(p) == 2:
        return [p[0], p[1], p[0], p[1]]
    return p


def conv2d(x, w, strides=(1, 1), padding=(0,), dilation=(1, 1), groups=1, layout="NCHW"):
    """conv2d of NCHW/OIHW data, or NHWC/HWIO (transposed to the former)."""
    if layout == "NHWC":
        out = conv2d(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), strides, padding, dilation,
                     groups)
        return out.transpose(0, 2, 3, 1)
    top, left, bottom, right = pad4(padding)
    xp = np.pad(f64(x), ((0, 0), (0, 0), (top, bottom), (left, right)))
    n, c, h, wd = xp.shape
    o, cg, kh, kw = w.shape
    (sh, sw), (dh, dw) = strides, dilation
    oh = (h - (kh - 1) * dh - 1) // sh + 1
    ow = (wd - (kw - 1) * dw - 1) // sw + 1
    win = np.empty((n, c, oh, ow, kh, kw))
    for i in range(kh):
        for j in range(kw):
            win[..., i, j] = xp[:, :, i * dh:i * dh + (oh - 1) * sh + 1:sh,
                                j * dw:j * dw + (ow - 1) * sw + 1:sw]
    out = np.empty((n, o, oh, ow))
    og = o // groups
    for g in range(groups):
        out[:, g * og:(g + 1) * og] = np.einsum("ncijkl,ockl->noij", win[:, g * cg:(g + 1) * cg],
                                                f64(w[g * og:(g + 1) * og]))
    return like(out, x)


def conv2d_naive(x, w, strides, padding, dilation, groups):
    """The same as conv2d by direct loops (NCHW/OIHW), for the self-test."""
    top, left, bottom, right = pad4(padding)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    oh = (h + top + bottom - (kh - 1) * dilation[0] - 1) // strides[0] + 1
    ow = (wd + left + right - (kw - 1) * dilation[1] - 1) // strides[1] + 1
    out = np.zeros((n, o, oh, ow))
    og = o // groups
    for b, oc, i, j in np.ndindex(n, o, oh, ow):
        g = oc // og
        for ic, a, e in np.ndindex(cg, kh, kw):
            hi = i * strides[0] - top + a * dilation[0]
            wi = j * strides[1] - left + e * dilation[1]
            if 0 <= hi < h and 0 <= wi < wd:
                out[b, oc, i, j] += float(x[b, g * cg + ic, hi, wi]) * float(w[oc, ic, a, e])
    return out.astype(x.dtype)


def _pool_taps(size, out, k, s, d, before, after):
    """For each output index, the input positions of the window, and how many
    of them lie in the padded input (the count_include_pad divisor)."""
    taps = []
    for i in range(out):
        pos = [i * s - before + t * d for t in range(k)]
        inside = [p for p in pos if 0 <= p < size]
        padded = [p for p in pos if -before <= p < size + after]
        taps.append((inside, len(padded)))
    return taps


def _pool_out(size, k, s, d, before, after, ceil_mode):
    span = size + before + after - ((k - 1) * d + 1)
    out = (span + (s - 1 if ceil_mode else 0)) // s + 1
    # ceil_mode drops a last window starting past the input and its left
    # padding (TVM's pooling.cc, as PyTorch)
    return out - 1 if ceil_mode and (out - 1) * s >= size + before else out


def lowest(dtype):
    """The start value of a max: the dtype's smallest, -inf for floats."""
    return -np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min


def pool2d(x, kind, pool_size, strides=(1, 1), padding=(0,), dilation=(1, 1), ceil_mode=False,
           count_include_pad=False, layout="NCHW"):
    """max_pool2d / avg_pool2d as TVM defines them (padding never enters a
    max; avg divides by the taps inside the input, or inside the padded
    input when count_include_pad; ceil_mode adds windows, not divisor)."""
    if layout == "NHWC":
        return pool2d(x.transpose(0, 3, 1, 2), kind, pool_size, strides, padding, dilation,
                      ceil_mode, count_include_pad).transpose(0, 2, 3, 1)
    top, left, bottom, right = pad4(padding)
    n, c, h, w = x.shape
    oh = _pool_out(h, pool_size[0], strides[0], dilation[0], top, bottom, ceil_mode)
    ow = _pool_out(w, pool_size[1], strides[1], dilation[1], left, right, ceil_mode)
    rows = _pool_taps(h, oh, pool_size[0], strides[0], dilation[0], top, bottom)
    cols = _pool_taps(w, ow, pool_size[1], strides[1], dilation[1], left, right)
    out = np.empty((n, c, oh, ow))
    z = f64(x)
    for i, (hr, hn) in enumerate(rows):
        for j, (wc, wn) in enumerate(cols):
            block = z[:, :, hr][:, :, :, wc]
            if kind == "max":
                # a window of padding alone (padding wider than the window)
                # keeps the start value,
                # the dtype's lowest (-inf for floats; TVM starts at the lowest
                # finite value, so rxc differs from TVM there)
                out[:, :, i, j] = block.max(axis=(2, 3)) if block.size else lowest(x.dtype)
            else:
                count = hn * wn if count_include_pad else len(hr) * len(wc)
                out[:, :, i, j] = block.sum(axis=(2, 3)) / max(count, 1)
    return like(out, x)


def adaptive_avg_pool2d(x, output_size=None, layout="NCHW"):
    """Window i of n over size h is [floor(i*h/n), ceil((i+1)*h/n))."""
    if layout == "NHWC":
        return adaptive_avg_pool2d(x.transpose(0, 3, 1, 2), output_size).transpose(0, 2, 3, 1)
    h, w = x.shape[2:]
    if output_size is None:
        output_size = (h, w)
    elif len(output_size) == 1:
        output_size = (output_size[0], output_size[0])
    oh, ow = output_size
    z = f64(x)
    out = np.empty(x.shape[:2] + (oh, ow))
    for i in range(oh):
        h0, h1 = (i * h) // oh, -((-(i + 1) * h) // oh)
        for j in range(ow):
            w0, w1 = (j * w) // ow, -((-(j + 1) * w) // ow)
            out[:, :, i, j] = z[:, :, h0:h1, w0:w1].mean(axis=(2, 3))
    return like(out, x)


def matmul(x, y):
    if x.dtype.kind == "f":
        return like(np.matmul(f64(x), f64(y)), x)
    return np.matmul(x, y).astype(x.dtype)


def reduce(fn, axis=None, keepdims=False):
    """sum/mean/max/min over axis (None = all); floats in double."""
    ax = None if axis is None else tuple(axis)

    def run(x):
        z = f64(x) if x.dtype.kind == "f" else x
        return np.asarray(fn(z, axis=ax, keepdims=keepdims)).astype(x.dtype)
    return run


def argmax(x, axis=None, keepdims=False):
    if axis is None:
        r = np.argmax(x)
        return np.asarray(r, dtype=np.int64).reshape((1,) * x.ndim if keepdims else ())
    return np.argmax(x, axis=axis, keepdims=keepdims).astype(np.int64)


def strided_slice(x, axes, begin, end, strides=None):
    """Python slicing per axis (TVM clamps begin/end the same way)."""
    idx = [slice(None)] * x.ndim
    for k, a in enumerate(axes):
        idx[a] = slice(begin[k], end[k], 1 if strides is None else strides[k])
    return x[tuple(idx)]


def take(x, indices, axis=None, mode="fast"):
    npmode = {"fast": "raise", "wrap": "wrap", "clip": "clip"}[mode]
    return np.take(x, indices, axis=axis, mode=npmode)


def split(x, indices_or_sections, axis=0):
    return tuple(np.split(x, indices_or_sections, axis=axis))


def squeeze(x, axis=None):
    return np.squeeze(x, axis=None if axis is None else tuple(axis))


def expand_dims(x, axis):
    return np.expand_dims(x, tuple(axis) if isinstance(axis, list) else axis)


def clip(x, lo, hi):
    if x.dtype.kind == "f":
        return like(np.clip(f64(x), lo, hi), x)
    return np.clip(x, lo, hi).astype(x.dtype)


def astype(x, dtype):
    """float -> int truncates toward zero, anything -> bool is != 0."""
    if dtype == "bool":
        return x != 0
    return x.astype(dtype)
