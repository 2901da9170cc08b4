"""cases.py - the operator cases run by run_ops.py.

A Case is one Relax function `main` whose dataflow block holds one op call
(`gv = CALL`, or `lv = CALL; gv = lv[GET]` for ops returning a tuple of
which one element is checked), the inputs it takes, and a numpy reference
computing gv from those inputs.  An ErrorCase is a module `rxc check` must
reject with a message containing one of the given words.  A RunErrorCase is
a valid module that `rxc run` must refuse for the given inputs.
"""
import glob
import importlib
import os

import numpy as np

import refs

F32, I32, I64, BOOL = "float32", "int32", "int64", "bool"
F16, F64 = "float16", "float64"


class Input:
    """A parameter: concrete shape for the data, signature dims (ints or
    symbolic names) for the annotation, and how to draw its values."""

    def __init__(self, name, shape, dtype=F32, kind="normal", sig=None):
        self.name, self.shape, self.dtype, self.kind = name, tuple(shape), dtype, kind
        self.sig = tuple(shape) if sig is None else tuple(sig)


def inp(name, shape, dtype=F32, kind="normal", sig=None):
    return Input(name, shape, dtype, kind, sig)


class Case:
    """pre: bindings before gv's (`lv = ...` lines) in the dataflow block;
    tvars: symbolic vars declared in the body (`k = T.int64()`), for a
    match_cast to bind; at_edges: run the symbolic edges (off where a
    relation between the dims does not hold with every dim at its bound or
    at 1)."""

    def __init__(self, name, call, inputs, ref, rtol=1e-5, atol=1e-6, get=None, tuple_out=False,
                 upper=None, pre=(), tvars=(), at_edges=True):
        self.name, self.call, self.inputs, self.ref = name, call, inputs, ref
        self.rtol, self.atol, self.get, self.tuple_out, self.upper = rtol, atol, get, tuple_out, upper
        self.pre, self.tvars, self.at_edges = tuple(pre), tuple(tvars), at_edges


class ErrorCase:
    """words: the message must contain one of them (case-insensitive);
    names_binding: it must also name the binding ('gv')."""

    def __init__(self, name, call, inputs, words, names_binding=True, upper=None, annot=None):
        self.name, self.call, self.inputs, self.words = name, call, inputs, words
        self.names_binding, self.upper, self.get, self.annot = names_binding, upper, None, annot


class RunErrorCase:
    """A valid module; running it on inputs of `shapes` must fail (exit 1):
    in the interpreter with a message containing one of words, in the
    generated C (tcc, cc, cc with sanitizers) with any clean refusal.  pre,
    tvars and get as for Case."""

    def __init__(self, name, call, inputs, shapes, words, upper=None, pre=(), tvars=(), get=None):
        self.name, self.call, self.inputs, self.shapes = name, call, inputs, shapes
        self.words, self.upper, self.get = words, upper, get
        self.pre, self.tvars = tuple(pre), tuple(tvars)


def x_(shape, dtype=F32, kind="normal", sig=None):
    return inp("x", shape, dtype, kind, sig)


def y_(shape, dtype=F32, kind="normal", sig=None):
    return inp("y", shape, dtype, kind, sig)


def int_power(a, b):
    """Integer power as C truncates pow(a, b): exact for b >= 0."""
    if b < 0:
        return 1 if a == 1 else (-1 if b % 2 else 1) if a == -1 else 0
    return a ** b


def elementwise_cases():
    c = []
    binops = {
        "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
        "maximum": np.maximum, "minimum": np.minimum,
    }
    for op, fn in binops.items():
        kind = "nonzero" if op == "divide" else "normal"
        c.append(Case(op, f"R.{op}(x, y)", [x_((2, 3)), y_((2, 3), kind=kind)], refs.binary(fn)))
    # broadcasting of size-1 dims, rank extension, 0-d operands
    c.append(Case("add_bcast_size1", "R.add(x, y)", [x_((2, 1, 4)), y_((3, 1))], refs.binary(np.add)))
    c.append(Case("multiply_bcast_rank", "R.multiply(x, y)", [x_((2, 3, 4)), y_((4,))],
                  refs.binary(np.multiply)))
    c.append(Case("subtract_scalar_rhs", "R.subtract(x, y)", [x_((2, 3)), y_(())],
                  refs.binary(np.subtract)))
    c.append(Case("divide_scalar_lhs", "R.divide(x, y)", [x_(()), y_((3, 2), kind="nonzero")],
                  refs.binary(np.divide)))
    c.append(Case("add_scalar_scalar", "R.add(x, y)", [x_(()), y_(())], refs.binary(np.add)))
    c.append(Case("add_const", 'R.add(x, R.const(2.5, "float32"))', [x_((2, 3))],
                  lambda x: refs.like(refs.f64(x) + 2.5, x)))
    c.append(Case("power", "R.power(x, y)", [x_((2, 3), kind="pos"), y_((2, 3))],
                  refs.binary(np.power)))
    c.append(Case("power_bcast", "R.power(x, y)", [x_((3, 1), kind="pos"), y_((1, 4))],
                  refs.binary(np.power)))
    # x ** 2 with a constant 2 lowers to x * x (elementwise.c): negative
    # bases, a 2 that broadcasts, and a 2 of a tensor
    c.append(Case("power_const_two", 'R.power(x, R.const(2.0, "float32"))', [x_((3, 5))],
                  lambda x: refs.like(refs.f64(x) ** 2, x)))
    c.append(Case("power_const_two_tensor", 'R.power(x, R.const([[2.0], [2.0]], "float32"))',
                  [x_((3, 1, 4))], lambda x: refs.like(np.broadcast_to(refs.f64(x) ** 2, (3, 2, 4)), x)))
    c.append(Case("power_const_not_two", 'R.power(x, R.const([2.0, 3.0], "float32"))', [x_((3, 2))],
                  lambda x: refs.like(refs.f64(x) ** np.array([2.0, 3.0]), x)))
    # integers: by squaring, a negative exponent truncates the real result
    # (0, but 1 and +-1 for bases 1 and -1); the TIR interpreter once gave 0
    c.append(Case("power_int", "R.power(x, y)", [x_((4, 5), "int32", kind="smallint"),
                                                  y_((4, 5), "int32", kind="smallint")],
                  lambda x, y: np.array([int_power(int(a), int(b)) for a, b in
                                         zip(x.ravel(), y.ravel())], np.int64)
                  .astype(np.int32).reshape(x.shape)))
    c.append(Case("floor_divide_f32", "R.floor_divide(x, y)",
                  [x_((3, 4), kind="smallint"), y_((3, 4), kind="nonzero")], refs.floor_divide))
    c.append(Case("floor_divide_i32", "R.floor_divide(x, y)",
                  [x_((3, 4), I32, "smallint"), y_((3, 4), I32, "nonzero")], refs.floor_divide))
    c.append(Case("add_i32", "R.add(x, y)", [x_((2, 3), I32, "smallint"), y_((3,), I32, "smallint")],
                  refs.binary(np.add)))
    c.append(Case("multiply_i64", "R.multiply(x, y)",
                  [x_((2, 3), I64, "smallint"), y_((2, 1), I64, "smallint")], refs.binary(np.multiply)))
    c.append(Case("maximum_i32", "R.maximum(x, y)",
                  [x_((4,), I32, "smallint"), y_((), I32, "smallint")], refs.binary(np.maximum)))
    c.append(Case("subtract_i32", "R.subtract(x, y)",
                  [x_((2, 2), I32, "smallint"), y_((2, 2), I32, "smallint")], refs.binary(np.subtract)))
    # comparisons give bool
    cmps = {"equal": np.equal, "not_equal": np.not_equal, "less": np.less, "less_equal": np.less_equal,
            "greater": np.greater, "greater_equal": np.greater_equal}
    for op, fn in cmps.items():
        c.append(Case(op, f"R.{op}(x, y)", [x_((3, 4), kind="smallint"), y_((3, 4), kind="smallint")], fn))
    c.append(Case("less_bcast", "R.less(x, y)", [x_((3, 1), kind="smallint"), y_((4,), kind="smallint")],
                  np.less))
    c.append(Case("equal_i32", "R.equal(x, y)",
                  [x_((5,), I32, "smallint"), y_((5,), I32, "smallint")], np.equal))
    c.append(Case("greater_scalar", "R.greater(x, y)", [x_((2, 3)), y_(())], np.greater))
    c.append(Case("where", "R.where(c, x, y)", [inp("c", (2, 3), BOOL, "bool"), x_((2, 3)), y_((2, 3))],
                  lambda c_, x, y: np.where(c_, x, y)))
    c.append(Case("where_bcast", "R.where(c, x, y)",
                  [inp("c", (3, 1), BOOL, "bool"), x_((1, 4)), y_(())], lambda c_, x, y: np.where(c_, x, y)))
    c.append(Case("where_i32", "R.where(c, x, y)",
                  [inp("c", (4,), BOOL, "bool"), x_((4,), I32, "smallint"), y_((4,), I32, "smallint")],
                  lambda c_, x, y: np.where(c_, x, y)))
    # unary
    unops = {
        "negative": (np.negative, "normal"), "abs": (np.abs, "normal"), "exp": (np.exp, "normal"),
        "log": (np.log, "pos"), "sqrt": (np.sqrt, "pos"), "rsqrt": (lambda v: 1 / np.sqrt(v), "pos"),
        "tanh": (np.tanh, "normal"), "sigmoid": (refs.sigmoid, "normal"), "erf": (refs.erf, "normal"),
    }
    for op, (fn, kind) in unops.items():
        c.append(Case(op, f"R.{op}(x)", [x_((2, 3, 4), kind=kind)], refs.unary(fn)))
    c.append(Case("negative_i32", "R.negative(x)", [x_((5,), I32, "smallint")], np.negative))
    c.append(Case("abs_i32", "R.abs(x)", [x_((5,), I32, "smallint")], np.abs))
    c.append(Case("exp_scalar", "R.exp(x)", [x_(())], refs.unary(np.exp)))
    c.append(Case("log_special", "R.log(x)", [x_((4,), kind="special")], refs.unary(np.log)))
    c.append(Case("divide_by_zero", "R.divide(x, y)", [x_((4,), kind="special"), y_((4,), kind="zeros")],
                  refs.binary(np.divide)))
    c.append(Case("exp_overflow", "R.exp(x)", [x_((3, 4), kind="large")], refs.unary(np.exp)))
    # clip
    c.append(Case("clip_float", "R.clip(x, R.prim_value(T.float32(-0.5)), R.prim_value(T.float32(0.5)))",
                  [x_((3, 4))], lambda x: refs.clip(x, -0.5, 0.5)))
    c.append(Case("clip_int_bounds", "R.clip(x, 0, 1)", [x_((3, 4))], lambda x: refs.clip(x, 0, 1)))
    c.append(Case("clip_i32", "R.clip(x, min=-1, max=2)", [x_((6,), I32, "smallint")],
                  lambda x: refs.clip(x, -1, 2)))
    # astype
    c.append(Case("astype_f32_i32", 'R.astype(x, dtype="int32")', [x_((3, 4), kind="wide")],
                  lambda x: refs.astype(x, I32)))
    c.append(Case("astype_f32_i64", 'R.astype(x, "int64")', [x_((3, 4), kind="wide")],
                  lambda x: refs.astype(x, I64)))
    c.append(Case("astype_i32_f32", 'R.astype(x, dtype="float32")', [x_((3, 4), I32, "smallint")],
                  lambda x: refs.astype(x, F32)))
    c.append(Case("astype_f32_bool", 'R.astype(x, dtype="bool")', [x_((3, 4), kind="smallint")],
                  lambda x: refs.astype(x, BOOL)))
    c.append(Case("astype_i32_bool", 'R.astype(x, dtype="bool")', [x_((6,), I32, "smallint")],
                  lambda x: refs.astype(x, BOOL)))
    c.append(Case("astype_bool_f32", 'R.astype(x, dtype="float32")', [x_((6,), BOOL, "bool")],
                  lambda x: refs.astype(x, F32)))
    c.append(Case("astype_i64_i32", 'R.astype(x, dtype="int32")', [x_((6,), I64, "smallint")],
                  lambda x: refs.astype(x, I32)))
    return c


def leaky(v, alpha):
    """R.nn.leakyrelu on float64 values: v where v >= 0, alpha * v elsewhere."""
    return np.where(v >= 0, v, alpha * v)


def nn_cases():
    c = []
    for op, fn in {"relu": lambda v: np.maximum(v, 0), "gelu": refs.gelu, "silu": lambda v: v * refs.sigmoid(v)}.items():
        c.append(Case(op, f"R.nn.{op}(x)", [x_((2, 3, 4))], refs.unary(fn)))
    c.append(Case("leakyrelu", "R.nn.leakyrelu(x)", [x_((2, 3, 4))], refs.unary(lambda v: leaky(v, 0.01))))
    c.append(Case("leakyrelu_alpha", "R.nn.leakyrelu(x, alpha=0.2)", [x_((7,), kind="wide")],
                  refs.unary(lambda v: leaky(v, 0.2))))
    c.append(Case("leakyrelu_4d_alpha_int", "R.nn.leakyrelu(x, alpha=2)", [x_((1, 2, 3, 3))],
                  refs.unary(lambda v: leaky(v, 2.0))))
    c.append(Case("leakyrelu_special", "R.nn.leakyrelu(x, alpha=0.5)", [x_((4,), kind="special")],
                  refs.unary(lambda v: leaky(v, 0.5))))
    c.append(Case("leakyrelu_nan", "R.nn.leakyrelu(x, alpha=0.5)", [x_((4,), kind="nan")],
                  refs.unary(lambda v: leaky(v, 0.5))))
    c.append(Case("leakyrelu_f64", "R.nn.leakyrelu(x, alpha=0.3)", [x_((3, 5), F64)],
                  refs.unary(lambda v: leaky(v, 0.3))))
    c.append(Case("leakyrelu_scalar", "R.nn.leakyrelu(x, alpha=0.1)", [x_(())], refs.unary(lambda v: leaky(v, 0.1))))
    c.append(Case("softmax", "R.nn.softmax(x)", [x_((3, 5))], refs.softmax, atol=1e-6))
    c.append(Case("softmax_axis0", "R.nn.softmax(x, axis=0)", [x_((3, 5))],
                  lambda x: refs.softmax(x, 0)))
    c.append(Case("softmax_axis_neg2", "R.nn.softmax(x, axis=-2)", [x_((2, 3, 4))],
                  lambda x: refs.softmax(x, -2)))
    c.append(Case("softmax_large", "R.nn.softmax(x)", [x_((3, 5), kind="large")], refs.softmax))
    # float32 rows in 16 lanes (nn.c): whole chunks and a tail,
    # exactly one chunk, a strided axis, a row of attention's width
    c.append(Case("softmax_lanes_tail", "R.nn.softmax(x)", [x_((3, 37))], refs.softmax))
    c.append(Case("softmax_lanes_one", "R.nn.softmax(x)", [x_((2, 16))], refs.softmax))
    c.append(Case("softmax_lanes_axis0", "R.nn.softmax(x, axis=0)", [x_((40, 3))],
                  lambda x: refs.softmax(x, 0)))
    c.append(Case("softmax_lanes_4d", "R.nn.softmax(x)", [x_((1, 2, 3, 64), kind="large")],
                  refs.softmax))
    c.append(Case("log_softmax_lanes", "R.nn.log_softmax(x)", [x_((3, 37))], refs.log_softmax,
                  atol=1e-5))
    c.append(Case("log_softmax", "R.nn.log_softmax(x)", [x_((3, 5))], refs.log_softmax, atol=1e-5))
    c.append(Case("log_softmax_axis_neg3", "R.nn.log_softmax(x, axis=-3)", [x_((2, 3, 4))],
                  lambda x: refs.log_softmax(x, -3), atol=1e-5))
    c.append(Case("layer_norm", "R.nn.layer_norm(x, g, b, axes=[-1])",
                  [x_((2, 3, 8)), inp("g", (8,)), inp("b", (8,))],
                  lambda x, g, b: refs.layer_norm(x, g, b, [-1]), atol=1e-5))
    c.append(Case("layer_norm_two_axes", "R.nn.layer_norm(x, g, b, axes=[1, 2], epsilon=0.001)",
                  [x_((2, 3, 4)), inp("g", (3, 4)), inp("b", (3, 4))],
                  lambda x, g, b: refs.layer_norm(x, g, b, [1, 2], 1e-3), atol=1e-5))
    c.append(Case("log_softmax_large", "R.nn.log_softmax(x, axis=1)", [x_((2, 5), kind="large")],
                  lambda x: refs.log_softmax(x, 1), atol=1e-4))
    c.append(Case("layer_norm_no_center_scale", "R.nn.layer_norm(x, g, b, axes=[-1], center=False, scale=False)",
                  [x_((3, 6)), inp("g", (6,)), inp("b", (6,))],
                  lambda x, g, b: refs.layer_norm(x, np.ones_like(g), np.zeros_like(b), [-1]), atol=1e-5))
    bn_in = lambda shape, ch: [x_(shape), inp("g", (ch,)), inp("b", (ch,)), inp("m", (ch,)),
                               inp("v", (ch,), kind="pos")]
    c.append(Case("batch_norm", "R.nn.batch_norm(x, g, b, m, v, axis=1, training=False)",
                  bn_in((2, 3, 4, 4), 3), refs.batch_norm, get=0, atol=1e-5))
    c.append(Case("batch_norm_nhwc_eps", "R.nn.batch_norm(x, g, b, m, v, axis=-1, epsilon=0.01, training=False)",
                  bn_in((2, 4, 4, 3), 3), lambda *a: refs.batch_norm(*a, axis=-1, epsilon=0.01),
                  get=0, atol=1e-5))
    c.append(Case("batch_norm_no_center_scale",
                  "R.nn.batch_norm(x, g, b, m, v, axis=1, center=False, scale=False, training=False)",
                  bn_in((1, 2, 3, 3), 2),
                  lambda x, g, b, m, v: refs.batch_norm(x, np.ones_like(g), np.zeros_like(b), m, v), get=0,
                  atol=1e-5))
    c.append(Case("dropout", "R.nn.dropout(x, rate=0.5)", [x_((3, 4))], lambda x: x, get=0))
    return c


def conv_case(name, xs, ws, ref_kw, attrs, layout="NCHW", atol=1e-5):
    kw = dict(ref_kw)
    text = ", ".join(f"{k}={v}" for k, v in attrs.items())
    if layout == "NHWC":
        text += ', data_layout="NHWC", kernel_layout="HWIO"'
    return Case(name, f"R.nn.conv2d(x, w, {text})" if text else "R.nn.conv2d(x, w)",
                [x_(xs), inp("w", ws)], lambda x, w: refs.conv2d(x, w, layout=layout, **kw),
                atol=atol)


def conv_cases():
    c = [conv_case("conv2d", (1, 3, 5, 5), (4, 3, 3, 3), {}, {})]
    c.append(conv_case("conv2d_stride_pad1", (2, 3, 6, 7), (4, 3, 3, 3),
                       {"strides": (2, 2), "padding": [1]}, {"strides": [2, 2], "padding": [1]}))
    c.append(conv_case("conv2d_pad2", (1, 2, 5, 5), (3, 2, 3, 2),
                       {"padding": [1, 2]}, {"padding": [1, 2]}))
    c.append(conv_case("conv2d_pad4_asym", (1, 2, 6, 5), (2, 2, 3, 3),
                       {"padding": [0, 1, 2, 3], "strides": (1, 2)},
                       {"strides": [1, 2], "padding": [0, 1, 2, 3]}))
    c.append(conv_case("conv2d_dilation", (1, 2, 7, 7), (3, 2, 3, 3),
                       {"dilation": (2, 1), "padding": [1]}, {"padding": [1], "dilation": [2, 1]}))
    c.append(conv_case("conv2d_groups", (1, 4, 5, 5), (6, 2, 3, 3),
                       {"groups": 2, "padding": [1]}, {"padding": [1], "groups": 2}))
    c.append(conv_case("conv2d_depthwise", (2, 3, 5, 5), (3, 1, 3, 3),
                       {"groups": 3, "padding": [1], "strides": (2, 2)},
                       {"strides": [2, 2], "padding": [1], "groups": 3}))
    c.append(conv_case("conv2d_nhwc", (1, 5, 5, 3), (3, 3, 3, 4),
                       {"padding": [1]}, {"padding": [1]}, layout="NHWC"))
    c.append(conv_case("conv2d_nhwc_stride_groups", (2, 6, 7, 4), (3, 3, 2, 6),
                       {"strides": (2, 2), "padding": [0, 1, 1, 0], "groups": 2},
                       {"strides": [2, 2], "padding": [0, 1, 1, 0], "groups": 2}, layout="NHWC"))
    c.append(conv_case("conv2d_nhwc_depthwise", (1, 5, 5, 4), (3, 3, 1, 4),
                       {"padding": [1], "groups": 4, "dilation": (1, 2)},
                       {"padding": [1], "dilation": [1, 2], "groups": 4}, layout="NHWC"))
    # the float32 gemm schedule of groups-1 convs (ops/conv_gemm.c): bands of
    # output rows packed into panels; output channels and panel widths past
    # whole 8x16 tiles (the padded columns computed, not stored), padding on
    # the panels' edges, windows wider than the input, rows read only as padding
    c.append(conv_case("conv2d_tile_pointwise", (2, 5, 3, 19), (11, 5, 1, 1), {}, {}))
    c.append(conv_case("conv2d_tile_full", (1, 3, 9, 23), (17, 3, 3, 3),
                       {"strides": (2, 2), "padding": [1]}, {"strides": [2, 2], "padding": [1]}))
    c.append(conv_case("conv2d_tile_ones", (1, 1, 1, 1), (1, 1, 1, 1), {}, {}))
    c.append(conv_case("conv2d_tile_wide_kernel", (1, 2, 7, 37), (9, 2, 2, 5),
                       {"padding": [0, 2, 1, 2]}, {"padding": [0, 2, 1, 2]}))
    c.append(conv_case("conv2d_band_rows", (2, 3, 12, 6), (9, 3, 3, 3),
                       {"padding": [1]}, {"padding": [1]}))
    c.append(conv_case("conv2d_band_stride_dilation", (1, 4, 13, 11), (10, 4, 3, 3),
                       {"strides": (2, 3), "padding": [2, 1, 0, 2], "dilation": (2, 2)},
                       {"strides": [2, 3], "padding": [2, 1, 0, 2], "dilation": [2, 2]}))
    c.append(conv_case("conv2d_window_past_input", (1, 2, 2, 3), (3, 2, 5, 7),
                       {"padding": [2, 3]}, {"padding": [2, 3]}))
    # sums split by input channels (chunks of a panel within 512 KiB; partial
    # sums in scratch): a full conv in 3 chunks, a pointwise one in 3; float32
    # sums of thousands of terms against numpy's float64 ones
    c.append(conv_case("conv2d_chunks_full", (1, 2700, 4, 4), (9, 2700, 3, 3),
                       {"padding": [1]}, {"padding": [1]}, atol=2e-3))
    c.append(conv_case("conv2d_chunks_pointwise", (1, 384, 32, 32), (5, 384, 1, 1), {}, {},
                       atol=1e-4))
    c.append(conv_case("conv2d_pad_rows_only", (1, 2, 4, 5), (8, 2, 7, 1),
                       {"padding": [4, 0, 5, 0], "strides": (3, 1)},
                       {"strides": [3, 1], "padding": [4, 0, 5, 0]}))
    return c + depthwise_cases()


def dw_case(name, xs, ws, strides=(1, 1), padding=(0,), dilation=(1, 1)):
    """A float32 NCHW conv2d with groups = input channels (ops/conv_dw.c)."""
    attrs = {"strides": list(strides), "padding": list(padding), "dilation": list(dilation),
             "groups": xs[1]}
    return conv_case(name, xs, ws, dict(attrs, strides=strides, dilation=dilation), attrs)


def depthwise_cases():
    # the depthwise schedule (ops/conv_dw.c): the padded, stride-phase-split
    # copy of each plane, short stride-1 rows computed flat and wide ones
    # row by row (reading the input itself without padding), phases with no
    # input column, windows wider than the input or wholly in the padding,
    # channel multipliers
    return [
        dw_case("conv2d_dw_s1_p1", (1, 8, 9, 20), (8, 1, 3, 3), padding=[1]),
        dw_case("conv2d_dw_s1_p0", (2, 5, 7, 19), (5, 1, 3, 3)),
        dw_case("conv2d_dw_s1_wide", (1, 3, 5, 40), (3, 1, 3, 3), padding=[1]),
        dw_case("conv2d_dw_s1_wide_p0", (1, 2, 4, 37), (2, 1, 3, 3)),
        dw_case("conv2d_dw_s2_p1", (2, 6, 11, 13), (6, 1, 3, 3), strides=(2, 2), padding=[1]),
        dw_case("conv2d_dw_s2_p0", (1, 4, 9, 10), (4, 1, 3, 3), strides=(2, 2)),
        dw_case("conv2d_dw_s2_wide", (1, 3, 7, 70), (3, 1, 3, 3), strides=(2, 2), padding=[1]),
        dw_case("conv2d_dw_s21_wide_p0", (1, 2, 9, 36), (2, 1, 3, 3), strides=(2, 1)),
        dw_case("conv2d_dw_s3_p2", (1, 3, 10, 17), (3, 1, 3, 3), strides=(3, 3), padding=[2]),
        dw_case("conv2d_dw_asym", (1, 3, 6, 9), (3, 1, 3, 3), strides=(1, 2), padding=[0, 1, 2, 3]),
        dw_case("conv2d_dw_dilation", (1, 4, 10, 12), (4, 1, 3, 3), padding=[2, 3], dilation=(2, 3)),
        dw_case("conv2d_dw_dilation_s2", (1, 2, 11, 15), (2, 1, 3, 3), strides=(2, 2), padding=[1],
                dilation=(2, 2)),
        dw_case("conv2d_dw_5x5", (1, 6, 13, 17), (6, 1, 5, 5), strides=(2, 2), padding=[2]),
        dw_case("conv2d_dw_5x5_s1", (2, 3, 8, 21), (3, 1, 5, 5), padding=[2]),
        dw_case("conv2d_dw_1x5", (1, 4, 3, 11), (4, 1, 1, 5), padding=[0, 2]),
        dw_case("conv2d_dw_7x1", (1, 4, 9, 6), (4, 1, 7, 1), padding=[3, 0]),
        dw_case("conv2d_dw_narrow", (1, 3, 2, 2), (3, 1, 3, 3), padding=[1]),
        dw_case("conv2d_dw_column", (1, 3, 4, 1), (3, 1, 3, 3), padding=[1]),
        dw_case("conv2d_dw_empty_phase", (1, 2, 5, 1), (2, 1, 3, 3), strides=(3, 3), padding=[2]),
        dw_case("conv2d_dw_all_pad", (1, 2, 4, 5), (2, 1, 3, 3), padding=[3]),
        dw_case("conv2d_dw_mult2", (1, 3, 6, 7), (6, 1, 3, 3), padding=[1]),
        dw_case("conv2d_dw_mult3_s2", (2, 2, 7, 8), (6, 1, 3, 3), strides=(2, 2), padding=[1, 0, 0, 1]),
        Case("conv2d_dw_bias_clip",
             "R.clip(lv1, R.prim_value(0), R.prim_value(6))",
             [x_((1, 8, 10, 12)), inp("w", (8, 1, 3, 3)), inp("b", (1, 8, 1, 1))],
             lambda x, w, b: np.clip(refs.conv2d(x, w, strides=(2, 2), padding=[1], groups=8) + b, 0, 6),
             pre=["lv = R.nn.conv2d(x, w, strides=[2, 2], padding=[1], groups=8)", "lv1 = R.add(lv, b)"],
             atol=1e-5),
        Case("conv2d_dw_mult2_bias_relu", "R.nn.relu(lv1)",
             [x_((1, 3, 6, 7)), inp("w", (6, 1, 3, 3)), inp("b", (1, 6, 1, 1))],
             lambda x, w, b: np.maximum(refs.conv2d(x, w, padding=[1], groups=3) + b, 0),
             pre=["lv = R.nn.conv2d(x, w, padding=[1], groups=3)", "lv1 = R.add(lv, b)"], atol=1e-5),
    ] + dw_nest_cases()


def no_row(case):
    """The case, which must store its sums straight into the output (one
    nest a plane, which the fused epilogue joins): no row scratch."""
    case.legal_lacks = ("row = T.alloc_buffer",)
    return case


def dw_epilogue_case(name, act, ref, xs, ws, strides, padding):
    """A depthwise conv2d of long rows with a bias and an activation fused
    into its store."""
    g = xs[1]
    conv = f"R.nn.conv2d(x, w, strides={list(strides)}, padding={list(padding)}, groups={g})"
    return no_row(Case(name, act, [x_(xs), inp("w", ws), inp("b", (1, ws[0], 1, 1))],
                       lambda x, w, b: ref(refs.conv2d(x, w, strides=strides, padding=padding,
                                                       groups=g) + b),
                       pre=["lv = " + conv, "lv1 = R.add(lv, b)"], atol=1e-5))


def dw_flat_silu_case():
    """A flat depthwise conv (a 5x5 window, stride 2: rows of 7) with a
    bias and SiLU fused: its sums go into the row scratch, are packed row
    after row into dense (the C for gcc and clang: ops/conv_dw.c), and the
    store with the epilogue reads them in order."""
    conv = "R.nn.conv2d(x, w, strides=[2, 2], padding=[2, 2, 2, 2], groups=4)"
    silu = lambda v: v / (1 + np.exp(-v))
    case = Case("conv2d_dw_flat_5x5_silu", "R.multiply(lv1, lv2)",
                [x_((1, 4, 13, 14)), inp("w", (4, 1, 5, 5)), inp("b", (1, 4, 1, 1))],
                lambda x, w, b: silu(refs.conv2d(x, w, strides=(2, 2), padding=[2, 2, 2, 2],
                                                 groups=4) + b),
                pre=["lv = " + conv, "lv1 = R.add(lv, b)", "lv2 = R.sigmoid(lv1)"], atol=1e-5)
    case.legal_has = ("row = T.alloc_buffer", "dense = T.alloc_buffer")
    return case


def dw_nest_cases():
    # rows of 32 or more are one nest a plane, sums stored into the output
    # where a fused epilogue joins; shorter ones keep the flat row scratch
    flat = dw_case("conv2d_dw_flat_row", (1, 3, 6, 9), (3, 1, 3, 3), padding=[1])
    flat.legal_has = ("row = T.alloc_buffer",)
    return [
        flat,
        dw_flat_silu_case(),
        no_row(dw_case("conv2d_dw_nest_5x5", (1, 4, 6, 40), (4, 1, 5, 5), padding=[2])),
        no_row(dw_case("conv2d_dw_nest_s2_p0", (2, 3, 7, 67), (3, 1, 3, 3), strides=(2, 2))),
        dw_epilogue_case("conv2d_dw_nest_s2_bias_clip", "R.clip(lv1, R.prim_value(0), R.prim_value(6))",
                         lambda v: np.clip(v, 0, 6), (1, 4, 9, 70), (4, 1, 3, 3), (2, 2), [1]),
        dw_epilogue_case("conv2d_dw_nest_mult2_5x5_s2_relu", "R.nn.relu(lv1)",
                         lambda v: np.maximum(v, 0), (1, 2, 8, 80), (4, 1, 5, 5), (2, 2), [2]),
        dw_epilogue_case("conv2d_dw_nest_5x5_s1_relu", "R.nn.relu(lv1)",
                         lambda v: np.maximum(v, 0), (1, 3, 5, 36), (3, 1, 5, 5), (1, 1), [2]),
    ]


def pool_case(name, op, xs, ref_kw, attrs, layout="NCHW", atol=1e-6):
    text = ", ".join(f"{k}={v}" for k, v in attrs.items())
    if layout == "NHWC":
        text += ', layout="NHWC"'
    kind = "max" if op == "max_pool2d" else "avg"
    return Case(name, f"R.nn.{op}(x, {text})", [x_(xs)],
                lambda x: refs.pool2d(x, kind, layout=layout, **ref_kw), atol=atol)


def pool_cases():
    t = lambda b: "True" if b else "False"
    c = []
    specs = [  # name, pool, strides, padding, dilation, ceil_mode, count_include_pad, shape
        ("k2s2", [2, 2], [2, 2], [0], [1, 1], False, False, (1, 2, 6, 6)),
        ("k3s2_pad1", [3, 3], [2, 2], [1], [1, 1], False, False, (1, 2, 7, 7)),
        ("k3s2_pad1_incl", [3, 3], [2, 2], [1], [1, 1], False, True, (1, 2, 7, 7)),
        ("k3s2_ceil", [3, 3], [2, 2], [0], [1, 1], True, False, (1, 2, 6, 6)),
        ("k3s2_pad4_ceil_incl", [3, 3], [2, 2], [1, 0, 0, 1], [1, 1], True, True, (2, 2, 6, 7)),
        ("k2_dil2_pad2", [2, 2], [1, 1], [1, 2], [2, 2], False, False, (1, 1, 5, 5)),
        ("k2s1_pad1_incl", [2, 3], [1, 2], [1], [1, 1], False, True, (1, 3, 4, 5)),
    ]
    for name, ps, st, pad, dil, ceil, incl, shape in specs:
        attrs = {"pool_size": ps, "strides": st, "padding": pad, "dilation": dil,
                 "ceil_mode": t(ceil), "count_include_pad": t(incl)}
        kw = {"pool_size": ps, "strides": st, "padding": pad, "dilation": dil, "ceil_mode": ceil,
              "count_include_pad": incl}
        for op in ("max_pool2d", "avg_pool2d"):
            if op == "max_pool2d" and incl:
                continue
            c.append(pool_case(f"{op}_{name}", op, shape, kw, attrs))
    c.append(Case("max_pool2d_neg_pad", "R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1])",
                  [x_((1, 2, 5, 5), kind="neg")], lambda x: refs.pool2d(x, "max", [3, 3], [2, 2], [1])))
    c.append(Case("avg_pool2d_pad_ceil_excl",
                  "R.nn.avg_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 0, 0, 1], ceil_mode=True)",
                  [x_((1, 2, 6, 7))], lambda x: refs.pool2d(x, "avg", [3, 3], [2, 2], [1, 0, 0, 1], ceil_mode=True)))
    c.append(pool_case("max_pool2d_nhwc", "max_pool2d", (1, 6, 6, 3),
                       {"pool_size": [2, 2], "strides": [2, 2], "padding": [1]},
                       {"pool_size": [2, 2], "strides": [2, 2], "padding": [1]}, layout="NHWC"))
    c.append(pool_case("avg_pool2d_nhwc", "avg_pool2d", (1, 5, 5, 2),
                       {"pool_size": [3, 3], "padding": [1]},
                       {"pool_size": [3, 3], "padding": [1]}, layout="NHWC"))
    # the float32 pools of static extents (ops/pool.c, pool_blocks: the
    # plane in blocks of windows that meet the input alike); models'
    # pools, then borders on both sides, rows narrower than the window (no
    # interior), strides past the window
    fast = [  # name, pool, strides, padding, dilation, ceil_mode, count_include_pad, shape
        ("squeezenet", [3, 3], [2, 2], [0], [1, 1], True, False, (1, 3, 13, 13)),
        ("resnet", [3, 3], [2, 2], [1], [1, 1], False, False, (1, 2, 12, 12)),
        ("ceil_both_pad", [3, 2], [2, 3], [1, 1, 1, 0], [1, 1], True, False, (1, 2, 9, 9)),
        ("ceil_both_pad_incl", [3, 2], [2, 3], [1, 1, 1, 0], [1, 1], True, True, (1, 2, 9, 9)),
        ("narrow", [3, 3], [1, 1], [1], [1, 1], False, False, (1, 2, 5, 2)),
        ("narrow_incl", [3, 3], [1, 1], [1], [1, 1], False, True, (1, 2, 5, 2)),
        ("narrow_ceil", [4, 4], [3, 3], [1, 2, 0, 1], [1, 1], True, False, (2, 1, 3, 1)),
        ("stride_past_window", [2, 2], [3, 3], [0], [1, 1], False, False, (1, 2, 8, 10)),
        ("whole_plane", [7, 7], [1, 1], [0], [1, 1], False, False, (1, 4, 7, 7)),
        ("dil_pad_ceil", [3, 2], [2, 2], [2, 1], [2, 3], True, False, (1, 2, 11, 10)),
    ]
    for name, ps, st, pad, dil, ceil, incl, shape in fast:
        attrs = {"pool_size": ps, "strides": st, "padding": pad, "dilation": dil,
                 "ceil_mode": t(ceil), "count_include_pad": t(incl)}
        kw = {"pool_size": ps, "strides": st, "padding": pad, "dilation": dil, "ceil_mode": ceil,
              "count_include_pad": incl}
        for op in ("max_pool2d", "avg_pool2d"):
            if not (op == "max_pool2d" and incl):
                c.append(pool_case(f"{op}_row_{name}", op, shape, kw, attrs))
    c.append(pool_case("max_pool2d_row_nhwc", "max_pool2d", (1, 9, 9, 2),
                       {"pool_size": [3, 3], "strides": [2, 2], "ceil_mode": True},
                       {"pool_size": [3, 3], "strides": [2, 2], "ceil_mode": "True"}, layout="NHWC"))
    # padding wider than the window: the first windows hold padding alone
    # (refs.pool2d crashed on them); ceil_mode drops a last window that
    # would start past the input
    c.append(Case("max_pool2d_empty_window",
                  "R.nn.max_pool2d(x, pool_size=[2, 2], strides=[2, 2], padding=[2, 3, 0, 0])",
                  [x_((1, 2, 4, 5))], lambda x: refs.pool2d(x, "max", [2, 2], [2, 2], [2, 3, 0, 0])))
    c.append(Case("max_pool2d_ceil_last_dropped",
                  "R.nn.max_pool2d(x, pool_size=[2, 2], strides=[3, 3], padding=[0, 0, 2, 2], ceil_mode=True)",
                  [x_((1, 2, 4, 4))], lambda x: refs.pool2d(x, "max", [2, 2], [3, 3], [0, 0, 2, 2], ceil_mode=True)))
    c.append(Case("max_pool2d_row_neg_ceil", "R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], ceil_mode=True)",
                  [x_((1, 2, 8, 8), kind="neg")], lambda x: refs.pool2d(x, "max", [3, 3], [2, 2], ceil_mode=True)))
    ad = lambda name, xs, size_text, size, layout="NCHW": Case(
        name, f"R.nn.adaptive_avg_pool2d(x, output_size={size_text}"
        + (', layout="NHWC")' if layout == "NHWC" else ")"),
        [x_(xs)], lambda x: refs.adaptive_avg_pool2d(x, size, layout), atol=1e-6)
    c.append(ad("adaptive_avg_pool2d_global", (2, 3, 5, 4), "[1, 1]", [1, 1]))
    c.append(ad("adaptive_avg_pool2d_uneven", (1, 2, 7, 5), "[3, 2]", [3, 2]))
    c.append(ad("adaptive_avg_pool2d_one_value", (1, 2, 6, 6), "[4]", [4]))
    c.append(ad("adaptive_avg_pool2d_none", (1, 2, 3, 3), "None", None))
    c.append(ad("adaptive_avg_pool2d_upsample", (1, 1, 3, 2), "[5, 4]", [5, 4]))
    c.append(ad("adaptive_avg_pool2d_nhwc", (1, 5, 7, 3), "[2, 3]", [2, 3], "NHWC"))
    return c


def linalg_cases():
    mm = lambda name, xs, ys, dtype=F32, kind="normal": Case(
        name, "R.matmul(x, y)", [x_(xs, dtype, kind), y_(ys, dtype, kind)], refs.matmul, atol=1e-5)
    c = [mm("matmul_2d", (3, 4), (4, 5)),
         mm("matmul_1d_2d", (4,), (4, 3)),
         mm("matmul_2d_1d", (2, 4), (4,)),
         mm("matmul_1d_1d", (4,), (4,)),
         mm("matmul_batched", (2, 3, 4), (2, 4, 5)),
         mm("matmul_batch_bcast", (2, 1, 3, 4), (5, 4, 2)),
         mm("matmul_batch_2d", (3, 2, 4), (4, 3)),
         mm("matmul_1d_batched", (4,), (2, 4, 3)),
         mm("matmul_i32", (2, 3), (3, 2), I32, "smallint"),
         # the float32 register tiles (ops/gemm.c: 8 rows x 16 columns, one-row
         # tiles of 128 columns): rows and columns past whole tiles, primes, 1
         mm("matmul_tile_edges", (19, 37), (37, 17)),
         mm("matmul_tile_primes", (13, 7), (7, 131)),
         mm("matmul_tile_ones", (1, 1), (1, 1)),
         mm("matmul_tile_k1", (9, 1), (1, 33)),
         mm("matmul_tile_batched_x1", (2, 11, 5), (5, 23)),
         # x2 with batch dims (attention's Q K^T, P V) on the tiles too
         mm("matmul_tile_batched_x2", (3, 19, 37), (3, 37, 17)),
         mm("matmul_tile_batch_bcast", (2, 1, 11, 20), (3, 20, 33)),
         mm("matmul_tile_x1_2d_x2_batched", (11, 20), (3, 20, 17)),
         # batch dims joined to the rows (x2 2-D): one-row batches, two batch dims
         mm("matmul_tile_flat_rows1", (13, 1, 20), (20, 33)),
         mm("matmul_tile_flat_2batch", (2, 3, 9, 20), (20, 17)),
         mm("matmul_tile_flat_ones", (1, 5, 1, 3, 7), (7, 18))]
    c.append(Case("permute_dims", "R.permute_dims(x, axes=[1, 0, 2])", [x_((2, 3, 4))],
                  lambda x: x.transpose(1, 0, 2)))
    c.append(Case("permute_dims_reverse", "R.permute_dims(x)", [x_((2, 3, 4))], lambda x: x.transpose()))
    c.append(Case("permute_dims_neg", "R.permute_dims(x, axes=[-1, 0, -2])", [x_((2, 3, 4), I32, "smallint")],
                  lambda x: x.transpose(2, 0, 1)))
    c.append(Case("reshape", "R.reshape(x, (4, 6))", [x_((2, 3, 4))], lambda x: x.reshape(4, 6)))
    # indices simplified by the loop ranges: heads split and joined, and a
    # reshape that is not a split or join of dims
    c.append(Case("reshape_split_heads", "R.reshape(x, (5, 1, 3, 4))", [x_((5, 1, 12))],
                  lambda x: x.reshape(5, 1, 3, 4)))
    c.append(Case("reshape_join_heads", "R.reshape(x, (5, 12))", [x_((5, 3, 4))],
                  lambda x: x.reshape(5, 12)))
    c.append(Case("reshape_mixed", "R.reshape(x, (3, 10))", [x_((5, 6))], lambda x: x.reshape(3, 10)))
    c.append(Case("reshape_minus1", "R.reshape(x, (2, -1))", [x_((2, 3, 4))], lambda x: x.reshape(2, -1)))
    c.append(Case("reshape_scalar", "R.reshape(x, ())", [x_((1, 1))], lambda x: x.reshape(())))
    c.append(Case("flatten", "R.flatten(x)", [x_((2, 3, 4))], lambda x: x.reshape(-1)))
    c.append(Case("expand_dims", "R.expand_dims(x, axis=1)", [x_((2, 3))], lambda x: refs.expand_dims(x, 1)))
    c.append(Case("expand_dims_multi_neg", "R.expand_dims(x, axis=[0, -1])", [x_((2, 3))],
                  lambda x: refs.expand_dims(x, [0, -1])))
    c.append(Case("expand_dims_scalar", "R.expand_dims(x, axis=0)", [x_(())], lambda x: refs.expand_dims(x, 0)))
    c.append(Case("squeeze_to_scalar", "R.squeeze(x)", [x_((1, 1))], lambda x: refs.squeeze(x)))
    c.append(Case("squeeze_all", "R.squeeze(x)", [x_((1, 3, 1, 2))], lambda x: refs.squeeze(x)))
    c.append(Case("squeeze_axis", "R.squeeze(x, axis=[-2])", [x_((1, 3, 1, 2))],
                  lambda x: refs.squeeze(x, [-2])))
    c.append(Case("concat", "R.concat((x, y), axis=1)", [x_((2, 3)), y_((2, 2))],
                  lambda x, y: np.concatenate([x, y], axis=1)))
    c.append(Case("concat_neg_three", "R.concat((x, y, z), axis=-3)",
                  [x_((1, 2, 3)), y_((2, 2, 3)), inp("z", (1, 2, 3))],
                  lambda x, y, z: np.concatenate([x, y, z], axis=0)))
    c.append(Case("split_sections", "R.split(x, indices_or_sections=3, axis=1)", [x_((2, 6))],
                  lambda x: refs.split(x, 3, 1), tuple_out=True))
    c.append(Case("split_indices", "R.split(x, indices_or_sections=[1, 3], axis=-1)", [x_((2, 5))],
                  lambda x: refs.split(x, [1, 3], -1), tuple_out=True))
    c.append(Case("split_one", "R.split(x, indices_or_sections=1)", [x_((3, 2))],
                  lambda x: refs.split(x, 1, 0), tuple_out=True))
    c.append(Case("split_indices_beyond", "R.split(x, indices_or_sections=[3, 10], axis=1)", [x_((2, 5))],
                  lambda x: refs.split(x, [3, 10], 1), tuple_out=True))
    c.append(Case("concat_empty", "R.concat((x, y), axis=1)", [x_((2, 3)), y_((2, 0))],
                  lambda x, y: np.concatenate([x, y], axis=1)))
    ss = lambda name, shape, axes, b, e, s: Case(
        name, f"R.strided_slice(x, axes={axes}, begin={b}, end={e}"
        + (f", strides={s})" if s is not None else ")"),
        [x_(shape)], lambda x: refs.strided_slice(x, axes, b, e, s))
    c.append(ss("strided_slice", (4, 5), [0, 1], [1, 0], [3, 5], [1, 2]))
    c.append(ss("strided_slice_neg_stride", (6, 3), [0], [-1], [-5], [-2]))
    c.append(ss("strided_slice_reverse_all", (5,), [0], [4], [-100], [-1]))
    c.append(ss("strided_slice_clamp", (4, 5), [1, 0], [-100, 2], [100, 100], None))
    c.append(ss("strided_slice_neg_axis", (2, 3, 6), [-1], [1], [-1], [3]))
    c.append(Case("take_axis0", "R.take(x, i, axis=0)", [x_((5, 3)), inp("i", (4,), I64, "index5")],
                  lambda x, i: refs.take(x, i, 0)))
    c.append(Case("take_axis_neg", "R.take(x, i, axis=-1)", [x_((2, 5)), inp("i", (2, 2), I32, "index5")],
                  lambda x, i: refs.take(x, i, -1)))
    c.append(Case("take_axis_none", "R.take(x, i)", [x_((2, 3)), inp("i", (5,), I64, "index6")],
                  lambda x, i: refs.take(x, i, None)))
    c.append(Case("take_wrap", 'R.take(x, i, axis=0, mode="wrap")',
                  [x_((5, 2)), inp("i", (6,), I64, "wildindex")], lambda x, i: refs.take(x, i, 0, "wrap")))
    c.append(Case("take_clip", 'R.take(x, i, axis=0, mode="clip")',
                  [x_((5, 2)), inp("i", (6,), I64, "wildindex")], lambda x, i: refs.take(x, i, 0, "clip")))
    c.append(Case("broadcast_to", "R.broadcast_to(x, (2, 3, 4))", [x_((3, 1))],
                  lambda x: np.broadcast_to(x, (2, 3, 4))))
    c.append(Case("broadcast_to_scalar", "R.broadcast_to(x, (2, 2))", [x_((), I32, "smallint")],
                  lambda x: np.broadcast_to(x, (2, 2))))
    return c


def reduce_cases():
    c = []
    fns = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min}
    forms = [  # suffix, attribute text, axis, keepdims
        ("all", "", None, False), ("axis1", "axis=[1]", [1], False),
        ("neg_keep", "axis=[-1, 0], keepdims=True", [-1, 0], True), ("all_keep", "keepdims=True", None, True)]
    for op, fn in fns.items():
        for suffix, text, axis, keep in forms:
            call = f"R.{op}(x, {text})" if text else f"R.{op}(x)"
            c.append(Case(f"{op}_{suffix}", call, [x_((2, 3, 4))], refs.reduce(fn, axis, keep), atol=1e-5))
    # float32 sums over one dim in 16 lanes (reduce.c): chunks and a tail,
    # a strided dim, LayerNorm's mean over the last dim, a short dim
    c.append(Case("sum_lanes_tail", "R.sum(x, axis=[1])", [x_((3, 37))], refs.reduce(np.sum, [1]),
                  atol=1e-5))
    c.append(Case("sum_lanes_axis0", "R.sum(x, axis=[0])", [x_((40, 3))], refs.reduce(np.sum, [0]),
                  atol=1e-5))
    c.append(Case("mean_lanes_keep", "R.mean(x, axis=[-1], keepdims=True)", [x_((1, 5, 64))],
                  refs.reduce(np.mean, [-1], True), atol=1e-5))
    c.append(Case("mean_lanes_short", "R.mean(x, axis=[2])", [x_((2, 3, 5))], refs.reduce(np.mean, [2]),
                  atol=1e-5))
    c.append(Case("sym_mean_lanes", "R.mean(x, axis=[1])", [inp("x", (3, 21), sig=(3, "n"))],
                  refs.reduce(np.mean, [1]), atol=1e-5, upper={"n": 40}))
    c.append(Case("sum_i32", "R.sum(x, axis=[0])", [x_((3, 4), I32, "smallint")], refs.reduce(np.sum, [0])))
    c.append(Case("max_i32", "R.max(x, axis=[-1])", [x_((3, 4), I32, "smallint")], refs.reduce(np.max, [-1])))
    c.append(Case("sum_scalar", "R.sum(x)", [x_(())], refs.reduce(np.sum)))
    c.append(Case("argmax_ties", "R.argmax(x, axis=1)", [x_((4, 6), I32, "smallint")], lambda x: refs.argmax(x, 1)))
    c.append(Case("argmax_none", "R.argmax(x)", [x_((3, 4))], lambda x: refs.argmax(x)))
    c.append(Case("argmax_axis", "R.argmax(x, axis=1)", [x_((3, 4, 2))], lambda x: refs.argmax(x, 1)))
    c.append(Case("argmax_neg_keep", "R.argmax(x, axis=-3, keepdims=True)", [x_((3, 4, 2))],
                  lambda x: refs.argmax(x, -3, True)))
    c.append(Case("argmax_none_keep", "R.argmax(x, keepdims=True)", [x_((3, 4))],
                  lambda x: refs.argmax(x, None, True)))
    c.append(Case("argmax_i32", "R.argmax(x, axis=0)", [x_((5, 3), I32, "distinct")],
                  lambda x: refs.argmax(x, 0)))
    return c


def symbolic_cases():
    up = {"n": 16}
    n4 = lambda name="x", rows=5, cols=4: inp(name, (rows, cols), sig=("n", cols))
    return [
        Case("sym_add_bcast", "R.add(x, y)", [n4(), y_((1, 4))], refs.binary(np.add), upper=up),
        Case("sym_sum", "R.sum(x, axis=[0])", [n4()], refs.reduce(np.sum, [0]), atol=1e-5, upper=up),
        Case("sym_softmax", "R.nn.softmax(x, axis=0)", [n4(rows=7)], lambda x: refs.softmax(x, 0), upper=up),
        Case("sym_softmax_lanes", "R.nn.softmax(x)", [inp("x", (3, 21), sig=(3, "n"))], refs.softmax,
             upper={"n": 40}),
        Case("sym_matmul", "R.matmul(x, y)", [n4(), y_((4, 3))], refs.matmul, atol=1e-5, upper=up),
        Case("sym_matmul_tiles", "R.matmul(x, y)", [n4(rows=11, cols=20), y_((20, 37))], refs.matmul,
             atol=1e-5, upper={"n": 40}),
        Case("sym_conv2d_tiles", "R.nn.conv2d(x, w, padding=[1])",
             [inp("x", (3, 2, 4, 17), sig=("n", 2, 4, 17)), inp("w", (9, 2, 3, 3))],
             lambda x, w: refs.conv2d(x, w, padding=[1]), atol=1e-5, upper={"n": 4}),
        Case("sym_conv2d_dw_batch", "R.nn.conv2d(x, w, strides=[2, 2], padding=[1], groups=3)",
             [inp("x", (2, 3, 7, 9), sig=("n", 3, 7, 9)), inp("w", (3, 1, 3, 3))],
             lambda x, w: refs.conv2d(x, w, strides=(2, 2), padding=[1], groups=3), atol=1e-5,
             upper={"n": 4}),
        Case("sym_conv2d_width", "R.nn.conv2d(x, w)",
             [inp("x", (1, 2, 4, 7), sig=(1, 2, 4, "n")), inp("w", (3, 2, 1, 1))],
             lambda x, w: refs.conv2d(x, w), atol=1e-5, upper={"n": 16}),
        Case("sym_leakyrelu", "R.nn.leakyrelu(x, alpha=0.25)", [n4(rows=6)], refs.unary(lambda v: leaky(v, 0.25)),
             upper=up),
        Case("sym_leakyrelu_two_vars", "R.nn.leakyrelu(x)", [inp("x", (3, 2, 5), sig=("n", 2, "m"))],
             refs.unary(lambda v: leaky(v, 0.01)), upper={"n": 8, "m": 8}),
        Case("sym_permute", "R.permute_dims(x)", [n4(rows=3)], lambda x: x.T, upper=up),
        Case("sym_reshape", "R.reshape(x, (-1,))", [n4(rows=2)], lambda x: x.reshape(-1), upper=up),
        Case("sym_reshape_expr", "R.reshape(x, R.shape([n * 2, 2]))", [n4(rows=3)], lambda x: x.reshape(-1, 2),
             upper=up),
        Case("sym_two_vars", "R.multiply(x, y)", [inp("x", (3, 2), sig=("n", "m")), inp("y", (3, 1), sig=("n", 1))],
             refs.binary(np.multiply), upper={"n": 8, "m": 8}),
        Case("sym_concat", "R.concat((x, y), axis=0)", [n4(rows=2), inp("y", (3, 4), sig=("k", 4))], lambda x, y: np.concatenate([x, y]),
             upper={"n": 16, "k": 16}),
    ]


# Symbolic dims whose relation (equal, or broadcastable, or a product)
# cannot be proved at compile time: the generated C must check it at run
# time, as the interpreter does.  These are the valid inputs; run_error_cases
# has the refused ones.
BINOPS = {"add": (np.add, "normal"), "subtract": (np.subtract, "normal"),
          "multiply": (np.multiply, "normal"), "divide": (np.divide, "nonzero"),
          "floor_divide": (refs.floor_divide, "nonzero"), "power": (np.power, "normal"),
          "maximum": (np.maximum, "normal"), "minimum": (np.minimum, "normal"),
          "equal": (np.equal, "smallint"), "not_equal": (np.not_equal, "smallint"),
          "less": (np.less, "smallint"), "less_equal": (np.less_equal, "smallint"),
          "greater": (np.greater, "smallint"), "greater_equal": (np.greater_equal, "smallint")}
# binary ops whose valid broadcasts (n == m, n == 1, m == 1, 0 against 1)
# run through every half; the others have their refusal only
BINOP_FAMILIES = ("add", "multiply", "less", "maximum")
UP_NMK = {"n": 16, "m": 16, "k": 16}


def sym(name, shape, sig, dtype=F32, kind="normal"):
    return inp(name, shape, dtype, kind, sig)


def binop_inputs(op, n, m):
    """x: R.Tensor(("n",)), y: R.Tensor(("m",)) of n and m elements."""
    fn, kind = BINOPS[op]
    xkind = "pos" if op == "power" else ("smallint" if kind == "nonzero" else kind)
    return [sym("x", (n,), ("n",), kind=xkind), sym("y", (m,), ("m",), kind=kind)]


def bn_inputs(c, mismatched=None, k=None):
    """batch_norm's data (2, n, 2, 2) and its four (n,) vectors; the one
    named by mismatched has its own dim k (k elements)."""
    vec = lambda name, kind="normal": sym(name, (k if name == mismatched else c,),
                                          ("k",) if name == mismatched else ("n",), kind=kind)
    return [sym("x", (2, c, 2, 2), (2, "n", 2, 2)), vec("g"), vec("b"), vec("m"), vec("v", "pos")]


MATCH_NEW_VAR = ['lv = R.match_cast(x, R.Tensor((k,), dtype="float32"))',
                 'lv1 = R.match_cast(y, R.Tensor((k,), dtype="float32"))', "lv2 = R.multiply(lv, lv1)"]


def relation_cases():
    up = UP_NMK
    c = [
        Case("sym_match_cast_static", 'R.match_cast(x, R.Tensor((4,), dtype="float32"))',
             [sym("x", (4,), ("n",))], lambda x: x, upper=up, at_edges=False),
        Case("sym_match_cast_bound", 'R.match_cast(y, R.Tensor((n,), dtype="float32"))',
             [sym("x", (3,), ("n",)), sym("y", (3,), ("m",))], lambda x, y: y, upper=up),
        Case("sym_match_cast_new_var", "R.sum(lv2)", [sym("x", (3,), ("n",)), sym("y", (3,), ("m",))],
             lambda x, y: refs.like(np.sum(refs.f64(x) * refs.f64(y)), x), atol=1e-5, upper=up,
             pre=MATCH_NEW_VAR, tvars=["k"]),
        Case("sym_match_cast_square", "R.sum(lv)", [sym("x", (3, 3), ("n", "m"))],
             lambda x: refs.like(np.sum(refs.f64(x)), x), atol=1e-5, upper=up,
             pre=['lv = R.match_cast(x, R.Tensor((k, k), dtype="float32"))'], tvars=["k"]),
        Case("sym_reshape_other_dim", "R.reshape(x, R.shape([m, 2]))",
             [sym("x", (6,), ("n",)), sym("y", (3,), ("m",))], lambda x, y: x.reshape(3, 2),
             upper=up, at_edges=False),
        Case("sym_reshape_minus1", "R.reshape(x, (-1, 4))", [sym("x", (8,), ("n",))], lambda x: x.reshape(-1, 4),
             upper=up, at_edges=False),
        Case("sym_matmul_inner", "R.matmul(x, y)", [sym("x", (3, 4), ("n", "k")), sym("y", (4, 2), ("m", 2))],
             refs.matmul, atol=1e-5, upper=up),
        Case("sym_matmul_1d", "R.matmul(x, y)", [sym("x", (5,), ("n",)), sym("y", (5,), ("m",))],
             refs.matmul, atol=1e-5, upper=up),
    ]
    c.append(Case("sym_matmul_flat_rows", "R.matmul(x, y)",
                  [sym("x", (5, 1, 20), ("n", 1, 20)), inp("y", (20, 33))], refs.matmul, atol=1e-5,
                  upper=up))
    c.append(Case("sym_matmul_flat_two", "R.matmul(x, y)",
                  [sym("x", (3, 5, 20), ("n", 5, 20)), inp("y", (20, 17))], refs.matmul, atol=1e-5,
                  upper=up))
    for tag, n, m in (("equal", 2, 2), ("x1", 1, 3), ("y1", 3, 1)):
        c.append(Case(f"sym_matmul_tiles_batch_{tag}", "R.matmul(x, y)",
                      [sym("x", (n, 9, 20), ("n", 9, 20)), sym("y", (m, 20, 17), ("m", 20, 17))],
                      refs.matmul, atol=1e-5, upper=up, at_edges=tag == "equal"))
    for tag, n, m in (("equal", 2, 2), ("x1", 1, 3), ("y1", 3, 1)):
        c.append(Case(f"sym_matmul_batch_{tag}", "R.matmul(x, y)",
                      [sym("x", (n, 2, 3), ("n", 2, 3)), sym("y", (m, 3, 4), ("m", 3, 4))], refs.matmul,
                      atol=1e-5, upper=up, at_edges=tag == "equal"))
    for op, (fn, kind) in BINOPS.items():
        ref = fn if kind == "smallint" else refs.binary(fn)  # comparisons give bool
        shapes = ((("equal", 5, 5), ("x1", 1, 5), ("y1", 5, 1), ("x0_y1", 0, 1), ("x1_y0", 1, 0))
                  if op in BINOP_FAMILIES else (("x1", 1, 5),))
        for tag, n, m in shapes:
            c.append(Case(f"sym_{op}_{tag}", f"R.{op}(x, y)", binop_inputs(op, n, m), ref, upper=up,
                          at_edges=tag == "equal"))
    c += [
        Case("sym_add_rank_y1", "R.add(x, y)", [sym("x", (2, 3), ("n", "m")), sym("y", (1,), ("k",))],
             refs.binary(np.add), upper=up, at_edges=False),
        Case("sym_where_equal", "R.where(c, x, y)",
             [sym("c", (3,), ("n",), BOOL, "bool"), sym("x", (3,), ("m",)), sym("y", (3,), ("k",))],
             lambda c_, x, y: np.where(c_, x, y), upper=up),
        Case("sym_where_bcast", "R.where(c, x, y)",
             [sym("c", (1,), ("n",), BOOL, "bool"), sym("x", (4,), ("m",)), sym("y", (1,), ("k",))],
             lambda c_, x, y: np.where(c_, x, y), upper=up, at_edges=False),
        Case("sym_concat_other_dim", "R.concat((x, y), axis=0)",
             [sym("x", (2, 3), (2, "n")), sym("y", (1, 3), (1, "m"))],
             lambda x, y: np.concatenate([x, y]), upper=up),
        Case("sym_conv2d_channels", "R.nn.conv2d(x, w)", [sym("x", (1, 2, 5, 5), (1, "n", 5, 5)),
                                                          sym("w", (3, 2, 3, 3), (3, "m", 3, 3))],
             lambda x, w: refs.conv2d(x, w), atol=1e-5, upper=up),
        Case("sym_conv2d_groups", "R.nn.conv2d(x, w, groups=2)", [sym("x", (1, 4, 5, 5), (1, "n", 5, 5)),
                                                                  sym("w", (4, 2, 3, 3), (4, "m", 3, 3))],
             lambda x, w: refs.conv2d(x, w, groups=2), atol=1e-5, upper=up, at_edges=False),
        Case("sym_conv2d_window", "R.nn.conv2d(x, w)", [sym("x", (1, 2, 3, 5), (1, 2, "n", 5)),
                                                        sym("w", (3, 2, 3, 3), (3, 2, 3, 3))],
             lambda x, w: refs.conv2d(x, w), atol=1e-5, upper=up, at_edges=False),
        Case("sym_max_pool2d_window", "R.nn.max_pool2d(x, pool_size=[3, 3])",
             [sym("x", (1, 2, 3, 4), (1, 2, "n", 4))],
             lambda x: refs.pool2d(x, "max", [3, 3]), upper=up, at_edges=False),
        Case("sym_layer_norm", "R.nn.layer_norm(x, g, b, axes=[-1])",
             [sym("x", (2, 4), (2, "n")), sym("g", (4,), ("m",)), sym("b", (4,), ("k",))],
             lambda x, g, b: refs.layer_norm(x, g, b, [-1]), atol=1e-5, upper=up),
        Case("sym_batch_norm", "R.nn.batch_norm(x, g, b, m, v, axis=1, training=False)",
             bn_inputs(3, "v", 3), refs.batch_norm, get=0, atol=1e-5, upper={"n": 16, "k": 16}),
        Case("sym_broadcast_to_equal", "R.broadcast_to(x, (2, 4))", [sym("x", (4,), ("n",))],
             lambda x: np.broadcast_to(x, (2, 4)), upper=up, at_edges=False),
        Case("sym_broadcast_to_one", "R.broadcast_to(x, (2, 4))", [sym("x", (1,), ("n",))],
             lambda x: np.broadcast_to(x, (2, 4)), upper=up, at_edges=False),
        Case("sym_broadcast_to_sym", "R.broadcast_to(x, R.shape([2, m]))",
             [sym("x", (1,), ("n",)), sym("y", (3,), ("m",))], lambda x, y: np.broadcast_to(x, (2, 3)),
             upper=up, at_edges=False),
        Case("sym_squeeze_one", "R.squeeze(x, axis=[0])", [sym("x", (1, 3), ("n", 3))],
             lambda x: refs.squeeze(x, [0]), upper=up, at_edges=False),
    ]
    return c


def float16_cases():
    """float16: the generated C keeps half bits in memory and computes in
    float, rounding each stored value once; the references compute in
    double and round once to float16, so single operations agree to the
    bit and the tolerance (half an ulp of float16 is 2.4e-4 relative) only
    covers the float-precision functions and the rounding of accumulations."""
    h = lambda name, call, inputs, ref: Case(name, call, inputs, ref, rtol=1e-3, atol=1e-4)
    c = []
    binops = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
              "maximum": np.maximum, "minimum": np.minimum}
    for op, fn in binops.items():
        kind = "nonzero" if op == "divide" else "wide"
        c.append(h(f"{op}_f16", f"R.{op}(x, y)", [x_((3, 4), F16, "wide"), y_((3, 4), F16, kind)],
                   refs.binary(fn)))
    c.append(h("add_bcast_f16", "R.add(x, y)", [x_((2, 1, 4), F16), y_((3, 1), F16)], refs.binary(np.add)))
    c.append(h("add_const_f16", 'R.add(x, R.const(0.1, "float16"))', [x_((2, 3), F16)],
               lambda x: refs.like(refs.f64(x) + np.float64(np.float16(0.1)), x)))
    c.append(h("multiply_overflow_f16", "R.multiply(x, y)", [x_((3, 4), F16, "huge"), y_((3, 4), F16, "wide")],
               refs.binary(np.multiply)))
    c.append(h("divide_by_zero_f16", "R.divide(x, y)", [x_((4,), F16, "special"), y_((4,), F16, "zeros")],
               refs.binary(np.divide)))
    c.append(h("maximum_nan_f16", "R.maximum(x, y)", [x_((4,), F16, "nan"), y_((4,), F16, "special")],
               refs.binary(np.maximum)))
    unops = {"negative": (np.negative, "wide"), "abs": (np.abs, "wide"), "exp": (np.exp, "normal"),
             "sqrt": (np.sqrt, "pos"), "tanh": (np.tanh, "normal"), "sigmoid": (refs.sigmoid, "normal"),
             "log": (np.log, "pos")}
    for op, (fn, kind) in unops.items():
        c.append(h(f"{op}_f16", f"R.{op}(x)", [x_((2, 3, 4), F16, kind)], refs.unary(fn)))
    c.append(h("exp_overflow_f16", "R.exp(x)", [x_((3, 4), F16, "large")], refs.unary(np.exp)))
    c.append(h("relu_f16", "R.nn.relu(x)", [x_((2, 3), F16)], refs.unary(lambda v: np.maximum(v, 0))))
    c.append(h("leakyrelu_f16", "R.nn.leakyrelu(x, alpha=0.1)", [x_((2, 3, 4), F16, "wide")],
               refs.unary(lambda v: leaky(v, 0.1))))
    c.append(h("less_f16", "R.less(x, y)", [x_((3, 4), F16, "smallint"), y_((3, 4), F16, "smallint")], np.less))
    c.append(h("equal_f16", "R.equal(x, y)", [x_((3, 4), F16, "smallint"), y_((3, 4), F16, "smallint")], np.equal))
    c.append(h("where_f16", "R.where(c, x, y)", [inp("c", (2, 3), BOOL, "bool"), x_((2, 3), F16), y_((2, 3), F16)],
               lambda c_, x, y: np.where(c_, x, y)))
    c.append(h("clip_f16", "R.clip(x, R.prim_value(T.float16(-0.5)), R.prim_value(T.float16(0.5)))",
               [x_((3, 4), F16)], lambda x: refs.clip(x, -0.5, 0.5)))
    casts = [("f32_f16", F32, F16, "huge"), ("f16_f32", F16, F32, "wide"), ("f64_f16", F64, F16, "ties"),
             ("f16_f64", F16, F64, "special"), ("f16_i32", F16, I32, "wide"), ("i32_f16", I32, F16, "smallint"),
             ("i64_f16", I64, F16, "bigint"), ("f16_bool", F16, BOOL, "smallint"),
             ("subnormal_f32_f16", F32, F16, "tiny")]
    for name, src, dst, kind in casts:
        c.append(h(f"astype_{name}", f'R.astype(x, dtype="{dst}")', [x_((3, 4) if kind != "special" else (4,), src, kind)],
                   lambda x, dst=dst: refs.astype(x, dst)))
    c.append(h("sum_f16", "R.sum(x, axis=[1])", [x_((3, 4), F16)], refs.reduce(np.sum, [1])))
    c.append(h("max_f16", "R.max(x, axis=[0])", [x_((3, 4), F16)], refs.reduce(np.max, [0])))
    c.append(h("reshape_f16", "R.reshape(x, (4, 3))", [x_((3, 4), F16)], lambda x: x.reshape(4, 3)))
    c.append(h("concat_f16", "R.concat((x, y), axis=0)", [x_((2, 3), F16), y_((1, 3), F16)],
               lambda x, y: np.concatenate([x, y])))
    return c


def quiet(fn):
    """fn with numpy's warnings off: NaN and inf results are meant."""
    def run(*a):
        with np.errstate(all="ignore"):
            return fn(*a)
    return run


def tvm_sign(v):
    """topi.sign: x > 0 ? 1 : x < 0 ? -1 : 0, so NaN gives 0 (numpy's NaN)."""
    return np.where(v > 0, 1, np.where(v < 0, -1, 0)).astype(v.dtype)


INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
# issue 20's unary float ops: numpy function, the kind of inputs in its domain
MATH1 = {"sin": (np.sin, "wide"), "cos": (np.cos, "wide"), "tan": (np.tan, "normal"),
         "asin": (np.arcsin, "unit"), "acos": (np.arccos, "unit"), "atan": (np.arctan, "wide"),
         "sinh": (np.sinh, "normal"), "cosh": (np.cosh, "normal"), "asinh": (np.arcsinh, "wide"),
         "acosh": (np.arccosh, "ge1"), "atanh": (np.arctanh, "unit"), "ceil": (np.ceil, "wide"),
         "floor": (np.floor, "wide"), "round": (np.rint, "wide"), "trunc": (np.trunc, "wide"),
         "sign": (tvm_sign, "normal"), "square": (np.square, "wide")}
TESTS = {"isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite}
MATH2 = {"atan2": np.arctan2, "log_add_exp": np.logaddexp, "mod": np.fmod, "floor_mod": np.mod}


def more_elementwise_cases():
    """Issue 20's elementwise ops: every dtype each takes, the special
    values (NaN, infinities, signed zeros, the ties of round), integers over
    their whole range (wrapping), shift amounts past the width (numpy's
    answers), broadcasting and symbolic dims."""
    c = []
    h = lambda name, call, inputs, ref: Case(name, call, inputs, ref, rtol=1e-3, atol=1e-4)
    for op, (fn, kind) in MATH1.items():
        ref = refs.unary(quiet(fn))
        c.append(Case(op, f"R.{op}(x)", [x_((2, 3, 4), kind=kind)], ref))
        c.append(Case(f"{op}_f64", f"R.{op}(x)", [x_((7,), F64, kind)], ref))
        c.append(h(f"{op}_f16", f"R.{op}(x)", [x_((3, 4), F16, kind)], ref))
        c.append(Case(f"{op}_edge", f"R.{op}(x)", [x_((14,), kind="edge")], ref))
    c.append(Case("sinh_overflow", "R.sinh(x)", [x_((3, 4), kind="large")], refs.unary(quiet(np.sinh))))
    c.append(Case("cosh_overflow", "R.cosh(x)", [x_((3, 4), kind="large")], refs.unary(quiet(np.cosh))))
    c.append(Case("tan_edge_f64", "R.tan(x)", [x_((14,), F64, "edge")], refs.unary(quiet(np.tan))))
    c.append(Case("round_ties_f16", "R.round(x)", [x_((14,), F16, "edge")], refs.unary(np.rint)))
    # integers: ceil, floor, round and trunc are the identity; sign and square wrap
    for op in ("ceil", "floor", "round", "trunc"):
        c.append(Case(f"{op}_i32", f"R.{op}(x)", [x_((2, 5), I32, "anyint")], lambda x: x))
    c.append(Case("round_u8", "R.round(x)", [x_((6,), "uint8", "anyint")], lambda x: x))
    for dt in ("int8", "int32", "int64", "uint8"):
        c.append(Case(f"sign_{dt}", "R.sign(x)", [x_((9,), dt, "anyint")], lambda x: np.sign(x).astype(x.dtype)))
    c.append(Case("square_i8", "R.square(x)", [x_((9,), "int8", "anyint")], np.square))
    c.append(Case("square_i32", "R.square(x)", [x_((2, 4), I32, "anyint")], np.square))
    c.append(Case("square_u16", "R.square(x)", [x_((9,), "uint16", "anyint")], np.square))
    c.append(Case("square_i64", "R.square(x)", [x_((9,), I64, "anyint")], np.square))
    # isnan, isinf, isfinite: bool of floats; constant on integers
    for op, fn in TESTS.items():
        c.append(Case(op, f"R.{op}(x)", [x_((14,), kind="edge")], fn))
        c.append(Case(f"{op}_f64", f"R.{op}(x)", [x_((2, 7), F64, "edge")], fn))
        c.append(h(f"{op}_f16", f"R.{op}(x)", [x_((14,), F16, "edge")], fn))
        c.append(Case(f"{op}_i32", f"R.{op}(x)", [x_((5,), I32, "anyint")], fn))
        c.append(Case(f"{op}_scalar", f"R.{op}(x)", [x_((), kind="normal")], fn))
    c.append(Case("logical_not", "R.logical_not(x)", [x_((3, 4), BOOL)], np.logical_not))
    for dt in ("int8", "uint16", "int32", "int64", "uint64", BOOL):
        c.append(Case(f"bitwise_not_{dt}", "R.bitwise_not(x)", [x_((7,), dt, "anyint")], np.invert))
    # binary float ops
    for op, fn in MATH2.items():
        ref = refs.binary(quiet(fn))
        ykind = "nonzero" if "mod" in op else "wide"
        c.append(Case(op, f"R.{op}(x, y)", [x_((2, 3), kind="wide"), y_((2, 3), kind=ykind)], ref))
        c.append(Case(f"{op}_bcast", f"R.{op}(x, y)", [x_((3, 1), kind="wide"), y_((4,), kind=ykind)], ref))
        c.append(Case(f"{op}_f64", f"R.{op}(x, y)", [x_((5,), F64, "wide"), y_((5,), F64, ykind)], ref))
        c.append(h(f"{op}_f16", f"R.{op}(x, y)", [x_((3, 4), F16, "wide"), y_((3, 4), F16, ykind)], ref))
        c.append(Case(f"{op}_edge", f"R.{op}(x, y)", [x_((14, 1), kind="edge"), y_((1, 14), kind="edge")], ref))
    c.append(Case("log_add_exp_large", "R.log_add_exp(x, y)", [x_((3, 4), kind="large"), y_((3, 4), kind="large")],
                  refs.binary(np.logaddexp)))
    c.append(Case("floor_mod_scalar", 'R.floor_mod(x, R.const(-2.5, "float32"))', [x_((7,), kind="wide")],
                  lambda x: refs.like(np.mod(refs.f64(x), -2.5), x)))
    # integer remainders: truncated (mod, C's %) and floored (floor_mod)
    for op, fn in (("mod", np.fmod), ("floor_mod", np.mod)):
        for dt in ("int8", "int32", "int64", "uint8", "uint32"):
            c.append(Case(f"{op}_{dt}", f"R.{op}(x, y)", [x_((4, 5), dt, "anyint"), y_((4, 5), dt, "nonzero")], fn))
        c.append(Case(f"{op}_i32_small", f"R.{op}(x, y)", [x_((3, 4), I32, "smallint"), y_((4,), I32, "nonzero")], fn))
        c.append(Case(f"{op}_i32_const", f'R.{op}(x, R.const(-3, "int32"))', [x_((7,), I32, "anyint")],
                      lambda x, fn=fn: fn(x, np.int32(-3))))
    # uint64 past INT64_MAX (about half of "anyint"'s draws) orders and
    # divides as unsigned, though rxc holds it in int64's bits
    for op, fn in (("less", np.less), ("greater_equal", np.greater_equal),
                   ("maximum", np.maximum), ("minimum", np.minimum)):
        c.append(Case(f"{op}_u64", f"R.{op}(x, y)", [x_((4, 5), "uint64", "anyint"), y_((4, 5), "uint64", "anyint")], fn))
    for op in ("floor_divide", "divide"):
        c.append(Case(f"{op}_u64", f"R.{op}(x, y)", [x_((4, 5), "uint64", "anyint"), y_((4, 5), "uint64", "nonzero")],
                      np.floor_divide))
    # bitwise and logical ops
    for op, fn in (("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
                   ("bitwise_xor", np.bitwise_xor)):
        for dt in ("int8", "int16", "int32", "int64", "uint8", "uint64", BOOL):
            c.append(Case(f"{op}_{dt}", f"R.{op}(x, y)", [x_((3, 4), dt, "anyint"), y_((3, 4), dt, "anyint")], fn))
        c.append(Case(f"{op}_bcast", f"R.{op}(x, y)", [x_((3, 1), I32, "anyint"), y_((5,), I32, "anyint")], fn))
    for op, fn in (("left_shift", np.left_shift), ("right_shift", np.right_shift)):
        for dt in INTS:
            c.append(Case(f"{op}_{dt}", f"R.{op}(x, y)", [x_((4, 6), dt, "anyint"), y_((4, 6), dt, "shiftamt")], fn))
            # built by gcc -O3 -march=native too (where the system compiler
            # runs them): gcc 12 if-converts a select form of the shift
            # into vector code that loses values (ops/elementwise.c)
            c[-1].sets = ("jit.cc_flags=-O3 -march=native",)
        c.append(Case(f"{op}_bcast", f"R.{op}(x, y)", [x_((3, 1), I32, "anyint"), y_((1, 40), I32, "shiftamt")], fn))
        c.append(Case(f"{op}_const", f'R.{op}(x, R.const(3, "int8"))', [x_((9,), "int8", "anyint")],
                      lambda x, fn=fn: fn(x, np.int8(3))))
    for op, fn in (("logical_and", np.logical_and), ("logical_or", np.logical_or),
                   ("logical_xor", np.logical_xor)):
        c.append(Case(op, f"R.{op}(x, y)", [x_((3, 4), BOOL), y_((3, 4), BOOL)], fn))
        c.append(Case(f"{op}_bcast", f"R.{op}(x, y)", [x_((3, 1), BOOL), y_((1, 5), BOOL)], fn))
    # symbolic dims
    up = {"n": 8, "m": 8}
    c += [
        Case("sym_atan", "R.atan(x)", [sym("x", (3, 4), ("n", 4))], refs.unary(np.arctan), upper=up),
        Case("sym_round", "R.round(x)", [sym("x", (2, 7), ("n", "m"), kind="edge")], refs.unary(np.rint), upper=up),
        Case("sym_isinf", "R.isinf(x)", [sym("x", (5,), ("n",), kind="edge")], np.isinf, upper=up),
        Case("sym_atan2", "R.atan2(x, y)", [sym("x", (3, 4), ("n", 4)), sym("y", (1, 4), (1, 4))],
             refs.binary(np.arctan2), upper=up),
        Case("sym_floor_mod_i32", "R.floor_mod(x, y)",
             [sym("x", (4, 3), ("n", "m"), I32, "anyint"), sym("y", (4, 3), ("n", "m"), I32, "nonzero")],
             np.mod, upper=up),
        Case("sym_right_shift", "R.right_shift(x, y)",
             [sym("x", (6,), ("n",), "int16", "anyint"), sym("y", (6,), ("n",), "int16", "shiftamt")],
             np.right_shift, upper=up),
        Case("sym_logical_or", "R.logical_or(x, y)", [sym("x", (2, 3), ("n", 3), BOOL), sym("y", (1, 3), (1, 3), BOOL)],
             np.logical_or, upper=up),
        Case("sym_bitwise_not", "R.bitwise_not(x)", [sym("x", (4,), ("n",), "uint8", "anyint")], np.invert,
             upper=up),
    ]
    return c


def more_elementwise_error_cases():
    """What inference refuses of issue 20's ops: TVM's inference refuses
    ints for the float math; its legalization the other dtypes (tir's
    bitwise ops and shifts on floats, logical ops on non-bool), which rxc
    refuses up front."""
    f = lambda shape, dtype=F32, name="x": inp(name, shape, dtype)
    fl, it = ["float"], ["integer"]
    return [
        ErrorCase("err_sin_int", "R.sin(x)", [f((2, 3), I32)], fl),
        ErrorCase("err_acosh_bool", "R.acosh(x)", [f((2,), BOOL)], fl),
        ErrorCase("err_atan2_int", "R.atan2(x, y)", [f((2,), I32), f((2,), I32, "y")], fl),
        ErrorCase("err_log_add_exp_int", "R.log_add_exp(x, y)", [f((2,), I64), f((2,), I64, "y")], fl),
        ErrorCase("err_bitwise_and_float", "R.bitwise_and(x, y)", [f((2,)), f((2,), name="y")], it),
        ErrorCase("err_bitwise_not_float", "R.bitwise_not(x)", [f((2,))], it),
        ErrorCase("err_left_shift_float", "R.left_shift(x, y)", [f((2,)), f((2,), name="y")], it),
        ErrorCase("err_right_shift_bool", "R.right_shift(x, y)", [f((2,), BOOL), f((2,), BOOL, "y")], it),
        ErrorCase("err_logical_and_int", "R.logical_and(x, y)", [f((2,), I32), f((2,), I32, "y")], ["bool"]),
        ErrorCase("err_logical_not_float", "R.logical_not(x)", [f((2,))], ["bool"]),
        ErrorCase("err_floor_mod_dtype", "R.floor_mod(x, y)", [f((2,), I32), f((2,), name="y")], ["dtype"]),
        ErrorCase("err_mod_broadcast", "R.mod(x, y)", [f((2, 3)), f((4, 3), name="y")], ["broadcast"]),
    ]


def more_elementwise_run_error_cases():
    """The broadcasting of issue 20's binary ops, refused at run time."""
    up = UP_NMK
    pair = lambda dt, kind: [sym("x", (3,), ("n",), dt, kind), sym("y", (4,), ("m",), dt, kind)]
    return [RunErrorCase(f"run_err_{op}_bcast", f"R.{op}(x, y)", pair(dt, kind), {},
                         ["cannot broadcast", "broadcast"], upper=up)
            for op, dt, kind in (("atan2", F32, "normal"), ("floor_mod", I32, "nonzero"),
                                 ("bitwise_xor", "uint8", "anyint"), ("left_shift", I32, "shiftamt"),
                                 ("logical_and", BOOL, "bool"))] + [
        # an integer divisor 0 (the last element: the C refuses before it
        # writes anything, rxc run --via checks the output is untouched)
        RunErrorCase(f"run_err_{op}_zero_{dt}", f"R.{op}(x, y)",
                     [inp("x", shape, dt, "smallint"), inp("y", yshape, dt, "zerolast")], {},
                     ["division by zero"])
        for op, dt, shape, yshape in (("divide", I32, (2, 3), (2, 3)), ("floor_divide", I32, (2, 3), (3,)),
                                      ("mod", I64, (4,), (4,)), ("floor_mod", I64, (3, 2), (3, 1)),
                                      ("floor_divide", "int8", (3,), ()))] + [
        RunErrorCase("run_err_floor_divide_zero_sym", "R.floor_divide(x, y)",
                     [sym("x", (3, 2), ("n", 2), I32, "smallint"), sym("y", (2,), ("m",), I32, "zerolast")], {},
                     ["division by zero"], upper=up),
        RunErrorCase("run_err_mod_zero_after_output", "(a, b)",
                     [inp("x", (2, 3), I32, "smallint"), inp("y", (2, 3), I32, "zerolast")], {},
                     ["division by zero"], pre=("a = R.add(x, x)", "b = R.mod(a, y)"))]


def one_hot_ref(i, depth, axis, on, off, dtype):
    """topi's one_hot: on where the index equals j in [0, depth), else off
    (a negative or too large index gives a row of off)."""
    hit = i[..., None] == np.arange(depth)
    out = np.where(hit, np.asarray(on, dtype), np.asarray(off, dtype)).astype(dtype)
    return np.moveaxis(out, -1, axis if axis >= 0 else axis + out.ndim)


def manip_more_cases():
    """flip, tile, repeat, stack, one_hot (issue 20)."""
    c = []
    up = {"n": 16}
    # flip
    c.append(Case("flip_axis0", "R.flip(x, axis=0)", [x_((3, 4))], lambda x: np.flip(x, 0)))
    c.append(Case("flip_neg", "R.flip(x, axis=-1)", [x_((2, 3, 5), I32, "smallint")], lambda x: np.flip(x, -1)))
    c.append(Case("flip_i64_mid", "R.flip(x, axis=1)", [x_((2, 4, 3), I64, "bigint")], lambda x: np.flip(x, 1)))
    c.append(Case("flip_bool", "R.flip(x, axis=0)", [x_((5,), BOOL, "bool")], lambda x: np.flip(x, 0)))
    c.append(Case("flip_empty", "R.flip(x, axis=1)", [x_((2, 0))], lambda x: np.flip(x, 1)))
    c.append(Case("flip_sym", "R.flip(x, axis=0)", [sym("x", (5, 4), ("n", 4))], lambda x: np.flip(x, 0), upper=up))
    # tile
    c.append(Case("tile_same_rank", "R.tile(x, repeats=[2, 3])", [x_((2, 3))], lambda x: np.tile(x, (2, 3))))
    c.append(Case("tile_more_reps", "R.tile(x, repeats=[2, 1, 2])", [x_((3,), I32, "smallint")],
                  lambda x: np.tile(x, (2, 1, 2))))
    c.append(Case("tile_fewer_reps", "R.tile(x, repeats=2)", [x_((2, 3, 2), I64, "bigint")],
                  lambda x: np.tile(x, 2)))
    c.append(Case("tile_ones", "R.tile(x, repeats=[1, 1])", [x_((2, 3), BOOL, "bool")], lambda x: np.tile(x, (1, 1))))
    c.append(Case("tile_zero", "R.tile(x, repeats=[0, 2])", [x_((2, 3))], lambda x: np.tile(x, (0, 2))))
    c.append(Case("tile_empty_dim", "R.tile(x, repeats=[2, 2])", [x_((0, 3))], lambda x: np.tile(x, (2, 2))))
    c.append(Case("tile_scalar", "R.tile(x, repeats=[3])", [x_(())], lambda x: np.tile(x, 3)))
    c.append(Case("tile_sym", "R.tile(x, repeats=[2, 3])", [sym("x", (3, 4), ("n", 4))],
                  lambda x: np.tile(x, (2, 3)), upper=up))
    # repeat
    c.append(Case("repeat_flat", "R.repeat(x, repeats=2)", [x_((2, 3))], lambda x: np.repeat(x, 2)))
    c.append(Case("repeat_axis0", "R.repeat(x, repeats=3, axis=0)", [x_((2, 3), I32, "smallint")],
                  lambda x: np.repeat(x, 3, 0)))
    c.append(Case("repeat_neg_axis", "R.repeat(x, repeats=2, axis=-1)", [x_((2, 2, 3), I64, "bigint")],
                  lambda x: np.repeat(x, 2, -1)))
    c.append(Case("repeat_one", "R.repeat(x, repeats=1, axis=1)", [x_((2, 3), BOOL, "bool")],
                  lambda x: np.repeat(x, 1, 1)))
    c.append(Case("repeat_zero", "R.repeat(x, repeats=0, axis=1)", [x_((2, 3))], lambda x: np.repeat(x, 0, 1)))
    c.append(Case("repeat_scalar_flat", "R.repeat(x, repeats=3)", [x_(())], lambda x: np.repeat(x, 3)))
    c.append(Case("repeat_sym", "R.repeat(x, repeats=2, axis=0)", [sym("x", (3, 4), ("n", 4))],
                  lambda x: np.repeat(x, 2, 0), upper=up))
    c.append(Case("repeat_sym_flat", "R.repeat(x, repeats=2)", [sym("x", (3, 4), ("n", 4))],
                  lambda x: np.repeat(x, 2), upper=up))
    # stack
    c.append(Case("stack_axis0", "R.stack((x, y))", [x_((2, 3)), y_((2, 3))], lambda x, y: np.stack([x, y])))
    c.append(Case("stack_last", "R.stack((x, y, z), axis=-1)",
                  [x_((2, 3), I32, "smallint"), y_((2, 3), I32, "smallint"), inp("z", (2, 3), I32, "smallint")],
                  lambda x, y, z: np.stack([x, y, z], -1)))
    c.append(Case("stack_mid", "R.stack((x, y), axis=1)", [x_((2, 3), BOOL, "bool"), y_((2, 3), BOOL, "bool")],
                  lambda x, y: np.stack([x, y], 1)))
    c.append(Case("stack_one", "R.stack((x,), axis=0)", [x_((3,), I64, "bigint")], lambda x: np.stack([x])))
    c.append(Case("stack_scalars", "R.stack((x, y))", [x_(()), y_(())], lambda x, y: np.stack([x, y])))
    c.append(Case("stack_empty", "R.stack((x, y), axis=1)", [x_((0, 2)), y_((0, 2))],
                  lambda x, y: np.stack([x, y], 1)))
    c.append(Case("stack_sym", "R.stack((x, y), axis=1)", [sym("x", (3, 4), ("n", 4)), sym("y", (3, 4), ("n", 4))],
                  lambda x, y: np.stack([x, y], 1), upper=up))
    # one_hot
    oh = lambda on, off, t: f"R.prim_value(T.{t}({on})), R.prim_value(T.{t}({off}))"
    c.append(Case("one_hot_last", f"R.one_hot(i, {oh(1.0, 0.0, 'float32')}, depth=5)",
                  [inp("i", (2, 3), I64, "index5")], lambda i: one_hot_ref(i, 5, -1, 1.0, 0.0, F32)))
    c.append(Case("one_hot_axis0_wild", f"R.one_hot(i, {oh(7, -2, 'int32')}, depth=6, axis=0)",
                  [inp("i", (4, 2), I32, "wildindex")], lambda i: one_hot_ref(i, 6, 0, 7, -2, I32)))
    c.append(Case("one_hot_mid_neg", f"R.one_hot(i, {oh(3, 1, 'int64')}, depth=4, axis=-2)",
                  [inp("i", (3, 2), I64, "wildindex")], lambda i: one_hot_ref(i, 4, -2, 3, 1, I64)))
    c.append(Case("one_hot_bool", "R.one_hot(i, R.prim_value(T.bool(True)), R.prim_value(T.bool(False)), depth=3)",
                  [inp("i", (4,), I32, "index4")], lambda i: one_hot_ref(i, 3, -1, True, False, BOOL)))
    c.append(Case("one_hot_scalar", f"R.one_hot(i, {oh(2.5, -0.5, 'float32')}, depth=4)",
                  [inp("i", (), I64, "index4")], lambda i: one_hot_ref(i, 4, -1, 2.5, -0.5, F32)))
    c.append(Case("one_hot_sym", f"R.one_hot(i, {oh(1.0, 0.0, 'float32')}, depth=3, axis=1)",
                  [sym("i", (5, 2), ("n", 2), I64, "index3")], lambda i: one_hot_ref(i, 3, 1, 1.0, 0.0, F32),
                  upper=up))
    # float16
    h = lambda name, call, inputs, ref: Case(name, call, inputs, ref, rtol=1e-3, atol=1e-4)
    c.append(h("flip_f16", "R.flip(x, axis=1)", [x_((2, 3), F16)], lambda x: np.flip(x, 1)))
    c.append(h("tile_f16", "R.tile(x, repeats=[2, 2])", [x_((2, 3), F16)], lambda x: np.tile(x, (2, 2))))
    c.append(h("repeat_f16", "R.repeat(x, repeats=2, axis=1)", [x_((2, 3), F16)], lambda x: np.repeat(x, 2, 1)))
    c.append(h("stack_f16", "R.stack((x, y), axis=2)", [x_((2, 3), F16), y_((2, 3), F16)],
               lambda x, y: np.stack([x, y], 2)))
    c.append(h("one_hot_f16", f"R.one_hot(i, {oh(0.1, -1.0, 'float16')}, depth=3)", [inp("i", (2, 2), I64, "index3")],
               lambda i: one_hot_ref(i, 3, -1, np.float16(0.1), np.float16(-1.0), F16)))
    return c


def manip_more_error_cases():
    f = lambda shape, dtype=F32, name="x", sig=None: inp(name, shape, dtype, sig=sig)
    x23, y23 = f((2, 3)), f((2, 3), name="y")
    axis = ["axis"]
    oh = "R.prim_value(T.float32(1.0)), R.prim_value(T.float32(0.0))"
    return [
        ErrorCase("err_flip_axis", "R.flip(x, axis=2)", [x23], axis),
        ErrorCase("err_tile_negative", "R.tile(x, repeats=[-1, 2])", [x23], ["repeats", "negative"]),
        ErrorCase("err_repeat_axis", "R.repeat(x, repeats=2, axis=-3)", [x23], axis),
        ErrorCase("err_repeat_negative", "R.repeat(x, repeats=-1)", [x23], ["repeats", "negative"]),
        ErrorCase("err_repeat_list", "R.repeat(x, repeats=[1, 2])", [x23], ["repeats", "integer"]),
        ErrorCase("err_stack_shape", "R.stack((x, y))", [x23, f((3, 2), name="y")], ["differ", "dimension"]),
        ErrorCase("err_stack_dtype", "R.stack((x, y))", [x23, f((2, 3), I32, "y")], ["dtype"]),
        ErrorCase("err_stack_rank", "R.stack((x, y))", [x23, f((2, 3, 1), name="y")], ["rank", "dimension"]),
        ErrorCase("err_stack_axis", "R.stack((x, y), axis=3)", [x23, y23], axis),
        ErrorCase("err_stack_sym", "R.stack((x, y))", [f((2, 3), sig=("n", 3)), f((2, 4), name="y", sig=("n", 4))],
                  ["differ", "dimension"]),
        ErrorCase("err_one_hot_float_indices", f"R.one_hot(x, {oh}, depth=3)", [x23], ["integer", "dtype"]),
        ErrorCase("err_one_hot_depth", f"R.one_hot(i, {oh}, depth=0)", [f((2,), I64, "i")], ["depth", "positive"]),
        ErrorCase("err_one_hot_axis", f"R.one_hot(i, {oh}, depth=2, axis=2)", [f((2,), I64, "i")], axis),
        ErrorCase("err_one_hot_dtypes", "R.one_hot(i, R.prim_value(T.float32(1.0)), R.prim_value(T.int32(0)), depth=2)",
                  [f((2,), I64, "i")], ["same dtype", "dtype"]),
    ]


def all_cases():
    return (elementwise_cases() + nn_cases() + conv_cases() + pool_cases() + linalg_cases()
            + reduce_cases() + symbolic_cases() + float16_cases() + relation_cases()
            + create_cases() + more_elementwise_cases() + manip_more_cases() + _gathered("CASES"))


def error_cases():
    f = lambda shape, dtype=F32, name="x", sig=None: inp(name, shape, dtype, sig=sig)
    x23, y23 = f((2, 3)), f((2, 3), name="y")
    axis = ["axis"]
    return manip_more_error_cases() + [
        ErrorCase("err_add_dtype", "R.add(x, y)", [x23, f((2, 3), I32, "y")], ["dtype"]),
        ErrorCase("err_add_broadcast", "R.add(x, y)", [x23, f((4, 3), name="y")], ["broadcast"]),
        ErrorCase("err_sym_broadcast", "R.add(x, y)", [f((2, 3), sig=("n", 3)), f((2, 4), name="y", sig=("n", 4))],
                  ["broadcast"], upper={"n": 8}),
        ErrorCase("err_where_cond_dtype", "R.where(x, x, y)", [x23, y23], ["bool", "dtype", "condition"]),
        ErrorCase("err_where_dtype", "R.where(c, x, y)", [f((2, 3), BOOL, "c"), x23, f((2, 3), I32, "y")], ["dtype"]),
        ErrorCase("err_matmul_inner", "R.matmul(x, y)", [x23, f((4, 5), name="y")],
                  ["reduction", "inner", "mismatch", "match", "dimension", "length"]),
        ErrorCase("err_matmul_rank0", "R.matmul(x, y)", [f(()), f((3,), name="y")],
                  ["rank", "ndim", "scalar", "0-d", "dimension"]),
        ErrorCase("err_matmul_batch", "R.matmul(x, y)", [f((2, 3, 4)), f((3, 4, 5), name="y")], ["broadcast", "batch"]),
        ErrorCase("err_leakyrelu_int", "R.nn.leakyrelu(x)", [f((2, 3), I32)], ["float"]),
        ErrorCase("err_leakyrelu_alpha", 'R.nn.leakyrelu(x, alpha="a")', [x23], ["alpha", "number"]),
        ErrorCase("err_softmax_axis", "R.nn.softmax(x, axis=2)", [x23], axis),
        ErrorCase("err_log_softmax_axis", "R.nn.log_softmax(x, axis=-3)", [x23], axis),
        ErrorCase("err_sum_axis", "R.sum(x, axis=[-3])", [x23], axis),
        ErrorCase("err_sum_dup_axis", "R.sum(x, axis=[1, -1])", [x23], ["axis", "duplicate", "repeat", "twice"]),
        ErrorCase("err_argmax_axis", "R.argmax(x, axis=2)", [x23], axis),
        ErrorCase("err_max_empty", "R.max(x, axis=[0])", [f((0, 3))], ["empty", "zero", "size 0", "size-0"]),
        ErrorCase("err_min_empty_all", "R.min(x)", [f((2, 0))], ["empty", "zero", "size 0", "size-0"]),
        ErrorCase("err_argmax_empty", "R.argmax(x, axis=1)", [f((2, 0))], ["empty", "zero", "size 0", "size-0"]),
        ErrorCase("err_reshape_count", "R.reshape(x, (4, 2))", [x23], ["element", "reshape", "size", "count"]),
        ErrorCase("err_reshape_minus1", "R.reshape(x, (4, -1))", [x23],
                  ["element", "reshape", "size", "count", "divisible"]),
        ErrorCase("err_reshape_sym", "R.reshape(x, R.shape([n + 1, 4]))", [f((2, 4), sig=("n", 4))],
                  ["element", "reshape", "size", "count"], upper={"n": 8}),
        ErrorCase("err_conv2d_rank", "R.nn.conv2d(x, w)", [f((3, 5, 5)), f((4, 3, 3, 3), name="w")],
                  ["ndim", "rank", "dimension", "4-d", "4 dims"]),
        ErrorCase("err_conv2d_channels", "R.nn.conv2d(x, w)", [f((1, 3, 5, 5)), f((4, 2, 3, 3), name="w")],
                  ["channel", "group", "mismatch", "input"]),
        ErrorCase("err_conv2d_groups", "R.nn.conv2d(x, w, groups=2)", [f((1, 3, 5, 5)), f((4, 1, 3, 3), name="w")],
                  ["group", "channel", "divis"]),
        ErrorCase("err_pool_rank", "R.nn.max_pool2d(x, pool_size=[2, 2])", [f((2, 6, 6))],
                  ["ndim", "rank", "dimension", "4-d", "4 dims"]),
        ErrorCase("err_layer_norm_gamma", "R.nn.layer_norm(x, g, b, axes=[-1])",
                  [x23, f((2,), name="g"), f((3,), name="b")], ["gamma", "shape", "mismatch", "match"]),
        ErrorCase("err_layer_norm_axis", "R.nn.layer_norm(x, g, b, axes=[2])",
                  [x23, f((3,), name="g"), f((3,), name="b")], axis),
        ErrorCase("err_batch_norm_axis", "R.nn.batch_norm(x, g, b, m, v, axis=4, training=False)",
                  [f((2, 3, 4, 4))] + [f((3,), name=n) for n in "gbmv"], axis),
        ErrorCase("err_permute_len", "R.permute_dims(x, axes=[0])", [x23], ["axes", "ndim", "rank", "length"]),
        ErrorCase("err_permute_dup", "R.permute_dims(x, axes=[0, 0])", [x23],
                  ["axes", "duplicate", "repeat", "permutation", "twice"]),
        ErrorCase("err_expand_dims_axis", "R.expand_dims(x, axis=3)", [x23], axis),
        ErrorCase("err_squeeze_not_one", "R.squeeze(x, axis=[0])", [x23], ["size", "1", "one"]),
        ErrorCase("err_concat_shape", "R.concat((x, y), axis=0)", [x23, f((3, 4), name="y")],
                  ["concat", "dim", "shape", "mismatch", "match"]),
        ErrorCase("err_concat_dtype", "R.concat((x, y), axis=1)", [x23, f((2, 3), I32, "y")], ["dtype"]),
        ErrorCase("err_concat_axis", "R.concat((x, y), axis=2)", [x23, y23], axis),
        ErrorCase("err_split_sections", "R.split(x, indices_or_sections=0, axis=1)", [x23],
                  ["section", "split", "positive"]),
        ErrorCase("err_split_axis", "R.split(x, indices_or_sections=2, axis=-3)", [x23], axis),
        ErrorCase("err_strided_slice_len", "R.strided_slice(x, axes=[0, 1], begin=[0], end=[1, 2])", [x23],
                  ["begin", "axes", "length", "same", "size"]),
        ErrorCase("err_strided_slice_axis", "R.strided_slice(x, axes=[2], begin=[0], end=[1])", [x23], axis),
        ErrorCase("err_take_float_indices", "R.take(x, y, axis=0)", [x23, f((2,), name="y")],
                  ["indices", "int", "dtype"]),
        ErrorCase("err_take_axis", "R.take(x, i, axis=2)", [x23, f((2,), I64, "i")], axis),
        ErrorCase("err_broadcast_to", "R.broadcast_to(x, (4, 4))", [x23], ["broadcast"]),
        ErrorCase("err_broadcast_to_rank", "R.broadcast_to(x, (3,))", [x23], ["broadcast", "rank", "ndim"]),
        ErrorCase("err_astype_unknown", 'R.astype(x, dtype="float7")', [x23], ["dtype", "float7"],
                  names_binding=False),
        ErrorCase("err_annotation_contradicts", "R.add(x, y)", [x23, y23], ["gv", "annot", "shape", "match"],
                  names_binding=False, annot='R.Tensor((2, 4), dtype="float32")'),
    ] + create_error_cases() + more_elementwise_error_cases() + _gathered("ERROR_CASES")


def run_error_cases():
    up = UP_NMK
    bcast = ["cannot broadcast", "broadcast"]
    c = [
        RunErrorCase("run_err_upper_bound", "R.add(x, x)", [inp("x", (4, 3), sig=("n", 3))], {"x": (20, 3)},
                     ["bound", "16", "upper"], upper={"n": 16}),
        RunErrorCase("run_err_static_shape", "R.add(x, x)", [inp("x", (2, 3))], {"x": (3, 2)},
                     ["dimension", "shape", "expected"]),
        RunErrorCase("run_err_sym_conflict", "R.add(x, y)",
                     [inp("x", (2, 3), sig=("n", 3)), inp("y", (2, 3), sig=("n", 3))], {"x": (2, 3), "y": (4, 3)},
                     ["n = 2", "conflict", "dimension", "bound to"], upper={"n": 16}),
        # match_cast: to a static shape, to a dim bound by a parameter, to a
        # new var that a second match_cast (or the same pattern) then checks
        RunErrorCase("run_err_match_cast_static", 'R.match_cast(x, R.Tensor((4,), dtype="float32"))',
                     [sym("x", (4,), ("n",))], {"x": (6,)}, ["does not match", "expected 4"], upper=up),
        RunErrorCase("run_err_match_cast_bound", 'R.match_cast(y, R.Tensor((n,), dtype="float32"))',
                     [sym("x", (3,), ("n",)), sym("y", (3,), ("m",))], {"y": (5,)},
                     ["does not match", "n = 3"], upper=up),
        RunErrorCase("run_err_match_cast_new_var", "R.sum(lv2)", [sym("x", (3,), ("n",)), sym("y", (3,), ("m",))],
                     {"y": (5,)}, ["does not match", "k = 3"], upper=up, pre=MATCH_NEW_VAR, tvars=["k"]),
        RunErrorCase("run_err_match_cast_square", "R.sum(lv)", [sym("x", (3, 3), ("n", "m"))], {"x": (3, 4)},
                     ["does not match", "k = 3"], upper=up,
                     pre=['lv = R.match_cast(x, R.Tensor((k, k), dtype="float32"))'], tvars=["k"]),
        # reshape: the element counts differ
        RunErrorCase("run_err_reshape_count", "R.reshape(x, R.shape([n, 5]))", [sym("x", (3, 4), ("n", 4))], {},
                     ["cannot reshape", "elements"], upper=up),
        RunErrorCase("run_err_reshape_other_dim", "R.reshape(x, R.shape([m, 2]))",
                     [sym("x", (6,), ("n",)), sym("y", (3,), ("m",))], {"x": (5,)},
                     ["cannot reshape", "elements"], upper=up),
        RunErrorCase("run_err_reshape_minus1", "R.reshape(x, (-1, 4))", [sym("x", (6,), ("n",))], {},
                     ["cannot reshape", "elements"], upper=up),
        # matmul: inner dims, batch dims that do not broadcast
        RunErrorCase("run_err_matmul_inner", "R.matmul(x, y)",
                     [sym("x", (3, 4), ("n", "k")), sym("y", (4, 2), ("m", 2))], {"y": (5, 2)}, ["inner dims differ"], upper=up),
        RunErrorCase("run_err_matmul_1d", "R.matmul(x, y)", [sym("x", (3,), ("n",)), sym("y", (3,), ("m",))],
                     {"y": (4,)}, ["inner dims differ"], upper=up),
        RunErrorCase("run_err_matmul_batch", "R.matmul(x, y)",
                     [sym("x", (2, 2, 3), ("n", 2, 3)), sym("y", (3, 3, 4), ("m", 3, 4))], {},
                     ["do not broadcast", "batch dims"], upper=up),
    ]
    # every broadcasting binary op: n and m differ and neither is 1
    for op in BINOPS:
        c.append(RunErrorCase(f"run_err_{op}_bcast", f"R.{op}(x, y)", binop_inputs(op, 3, 4), {}, bcast, upper=up))
    c += [
        RunErrorCase("run_err_add_x0_y2", "R.add(x, y)", binop_inputs("add", 0, 2), {}, bcast, upper=up),
        RunErrorCase("run_err_add_rank", "R.add(x, y)", [sym("x", (2, 3), ("n", "m")), sym("y", (4,), ("k",))], {},
                     bcast, upper=up),
        RunErrorCase("run_err_where_cond", "R.where(c, x, y)",
                     [sym("c", (3,), ("n",), BOOL, "bool"), sym("x", (4,), ("m",)), sym("y", (1,), ("k",))], {},
                     bcast, upper=up),
        RunErrorCase("run_err_where_values", "R.where(c, x, y)",
                     [sym("c", (1,), ("n",), BOOL, "bool"), sym("x", (2,), ("m",)), sym("y", (3,), ("k",))], {},
                     bcast, upper=up),
        RunErrorCase("run_err_concat_other_dim", "R.concat((x, y), axis=0)",
                     [sym("x", (2, 3), (2, "n")), sym("y", (1, 4), (1, "m"))], {}, ["differ in dimension 1"],
                     upper=up),
        RunErrorCase("run_err_conv2d_channels", "R.nn.conv2d(x, w)",
                     [sym("x", (1, 2, 5, 5), (1, "n", 5, 5)), sym("w", (3, 3, 3, 3), (3, "m", 3, 3))], {},
                     ["channels"], upper=up),
        RunErrorCase("run_err_conv2d_groups", "R.nn.conv2d(x, w, groups=2)",
                     [sym("x", (1, 6, 5, 5), (1, "n", 5, 5)), sym("w", (4, 2, 3, 3), (4, "m", 3, 3))], {},
                     ["channels"], upper=up),
        RunErrorCase("run_err_conv2d_window", "R.nn.conv2d(x, w)",
                     [sym("x", (1, 2, 1, 5), (1, 2, "n", 5)), sym("w", (3, 2, 3, 3), (3, 2, 3, 3))], {},
                     ["does not fit"], upper=up),
        RunErrorCase("run_err_max_pool2d_window", "R.nn.max_pool2d(x, pool_size=[3, 3])",
                     [sym("x", (1, 2, 1, 4), (1, 2, "n", 4))], {}, ["does not fit"], upper=up),
        RunErrorCase("run_err_avg_pool2d_window", "R.nn.avg_pool2d(x, pool_size=[3, 3])",
                     [sym("x", (1, 2, 1, 4), (1, 2, "n", 4))], {}, ["does not fit"], upper=up),
        RunErrorCase("run_err_layer_norm_gamma", "R.nn.layer_norm(x, g, b, axes=[-1])",
                     [sym("x", (2, 4), (2, "n")), sym("g", (3,), ("m",)), sym("b", (4,), ("k",))], {},
                     ["gamma"], upper=up),
        RunErrorCase("run_err_layer_norm_beta", "R.nn.layer_norm(x, g, b, axes=[-1])",
                     [sym("x", (2, 4), (2, "n")), sym("g", (4,), ("m",)), sym("b", (5,), ("k",))], {},
                     ["beta"], upper=up),
    ]
    for vec, word in (("g", "gamma"), ("b", "beta"), ("m", "mean"), ("v", "var")):
        c.append(RunErrorCase(f"run_err_batch_norm_{word}",
                              "R.nn.batch_norm(x, g, b, m, v, axis=1, training=False)",
                              bn_inputs(3, vec, 4), {}, [word], upper={"n": 16, "k": 16}, get=0))
    c += [
        RunErrorCase("run_err_broadcast_to", "R.broadcast_to(x, (2, 4))", [sym("x", (3,), ("n",))], {},
                     ["cannot broadcast"], upper=up),
        RunErrorCase("run_err_broadcast_to_sym", "R.broadcast_to(x, R.shape([2, m]))",
                     [sym("x", (3,), ("n",)), sym("y", (4,), ("m",))], {}, ["cannot broadcast"], upper=up),
        RunErrorCase("run_err_squeeze", "R.squeeze(x, axis=[0])", [sym("x", (2, 3), ("n", 3))], {},
                     ["cannot squeeze"], upper=up),
        # reshape's -1 beside a dim that is 0 at run time: no element count
        # gives it (refuse.py seed 301252: the C ran, dividing by 0)
        RunErrorCase("run_err_reshape_minus1_zero", "R.reshape(x, R.shape([m, -1]))",
                     [sym("x", (0, 3), ("n", 3)), sym("y", (0,), ("m",))], {},
                     ["cannot reshape", "times -1"], upper=up),
    ]
    return c + create_run_error_cases() + more_elementwise_run_error_cases() + _gathered("RUN_ERROR_CASES")


# ---- creation ops (ops/create.c) ------------------------------------------


def arange_ref(start, end, step, dtype):
    """numpy's length, ceil((end - start) / step) and 0 when empty, with
    each value start + step * i computed in double (in int64 for integer
    bounds) and converted once, as the kernel does."""
    ints = all(isinstance(v, int) for v in (start, end, step))
    n = max(int(np.ceil((end - start) / step)), 0) if not ints else max(-((start - end) // step), 0)
    i = np.arange(n, dtype=np.int64 if ints else np.float64)
    return (start + step * i).astype(dtype)


def hamming_ref(n, periodic, alpha, beta, dtype):
    """alpha - beta cos(2 pi i / (M - 1)), M = n + 1 when periodic; [1] for
    n = 1 (torch.hamming_window's rule)."""
    if n == 1:
        return np.ones(1, dtype)
    denom = n if periodic else n - 1
    i = np.arange(n, dtype=np.float64)
    return (alpha - beta * np.cos(2 * np.pi * i / denom)).astype(dtype)


def trilu_ref(x, k, upper):
    return np.triu(x, k) if upper else np.tril(x, k)


def create_cases():
    c = []
    f16 = dict(rtol=1e-3, atol=1e-4)
    sym = dict(tvars=["n"], upper={"n": 9})
    s2 = lambda rows=4: inp("x", (rows, 2), sig=("n", 2))
    # full / full_like: the fill value's dtype, or dtype= converting it (a
    # float to an int truncates toward zero)
    c.append(Case("full", 'R.full((2, 3), R.const(1.5, "float32"))', [], lambda: np.full((2, 3), 1.5, np.float32)))
    c.append(Case("full_to_int", 'R.full(R.shape([2, 3]), R.const(2.7, "float32"), dtype="int32")', [],
                  lambda: np.full((2, 3), 2, np.int32)))
    c.append(Case("full_neg_to_int64", 'R.full((3,), R.const(-2.7, "float64"), dtype="int64")', [],
                  lambda: np.full((3,), -2, np.int64)))
    c.append(Case("full_bool", 'R.full((2, 2), R.const(True, "bool"))', [], lambda: np.ones((2, 2), np.bool_)))
    c.append(Case("full_int_to_bool", 'R.full((3,), R.const(2, "int32"), dtype="bool")', [],
                  lambda: np.ones((3,), np.bool_)))
    c.append(Case("full_scalar", 'R.full(R.shape([]), R.const(7, "int64"))', [], lambda: np.array(7, np.int64)))
    c.append(Case("full_empty", 'R.full((0, 3), R.const(1.0, "float32"))', [], lambda: np.zeros((0, 3), np.float32)))
    c.append(Case("full_var", "R.full((3, 4), v)", [inp("v", ())], lambda v: np.full((3, 4), v, np.float32)))
    c.append(Case("full_var_f64", "R.full((2, 3), v)", [inp("v", (), F64)], lambda v: np.full((2, 3), v, np.float64)))
    c.append(Case("full_var_to_f16", 'R.full((2, 5), v, dtype="float16")', [inp("v", (), kind="wide")],
                  lambda v: np.full((2, 5), v.astype(np.float16)), **f16))
    c.append(Case("full_var_to_i32", 'R.full((4,), v, dtype="int32")', [inp("v", (), kind="wide")],
                  lambda v: np.full((4,), np.trunc(v), np.int32)))
    c.append(Case("full_sym", "R.full(R.shape([n, 3]), v)", [s2(), inp("v", ())],
                  lambda x, v: np.full((x.shape[0], 3), v, np.float32), **sym))
    c.append(Case("full_like", "R.full_like(x, v)", [x_((2, 3), I32), inp("v", (), kind="wide")],
                  lambda x, v: np.full(x.shape, np.trunc(v), np.int32)))
    c.append(Case("full_like_dtype", 'R.full_like(x, R.const(0.25, "float32"), dtype="float64")', [x_((3, 2))],
                  lambda x: np.full(x.shape, 0.25, np.float64)))
    c.append(Case("full_like_f16", 'R.full_like(x, R.const(0.1, "float32"))', [x_((2, 3), F16)],
                  lambda x: np.full(x.shape, np.float16(0.1)), **f16))
    c.append(Case("full_like_sym", 'R.full_like(x, R.const(3, "int32"))', [s2()],
                  lambda x: np.full(x.shape, 3.0, np.float32), **sym))
    # ones / zeros and their *_like, over the dtypes
    for dt in (F32, F64, F16, I32, I64, BOOL, "uint8", "int8"):
        c.append(Case(f"ones_{dt}", f'R.ones((2, 3), "{dt}")', [], lambda dt=dt: np.ones((2, 3), dt)))
        c.append(Case(f"zeros_{dt}", f'R.zeros(R.shape([3, 1, 2]), dtype="{dt}")', [],
                      lambda dt=dt: np.zeros((3, 1, 2), dt)))
    c.append(Case("ones_scalar", 'R.ones(R.shape([]), "float32")', [], lambda: np.array(1, np.float32)))
    c.append(Case("zeros_empty", 'R.zeros((2, 0), "int32")', [], lambda: np.zeros((2, 0), np.int32)))
    c.append(Case("ones_sym", 'R.ones(R.shape([2, n]), "int64")', [inp("x", (5,), sig=("n",))],
                  lambda x: np.ones((2, x.shape[0]), np.int64), **sym))
    c.append(Case("zeros_sym", 'R.zeros(R.shape([n, n + 1]), "float32")', [inp("x", (3,), sig=("n",))],
                  lambda x: np.zeros((x.shape[0], x.shape[0] + 1), np.float32), **sym))
    for dt in (F32, F16, I32, BOOL):
        c.append(Case(f"ones_like_{dt}", "R.ones_like(x)", [x_((2, 4), dt)], lambda x: np.ones_like(x)))
        c.append(Case(f"zeros_like_{dt}", "R.zeros_like(x)", [x_((4, 1, 2), dt)], lambda x: np.zeros_like(x)))
    c.append(Case("ones_like_dtype", 'R.ones_like(x, dtype="int32")', [x_((3,))], lambda x: np.ones(3, np.int32)))
    c.append(Case("zeros_like_dtype", 'R.zeros_like(x, "float64")', [x_((2, 2), I64)], lambda x: np.zeros((2, 2))))
    c.append(Case("ones_like_sym", "R.ones_like(x)", [inp("x", (3, 5), sig=("n", "m"))], lambda x: np.ones_like(x),
                  upper={"n": 6, "m": 7}))
    c.append(Case("zeros_like_scalar", "R.zeros_like(x)", [x_(())], lambda x: np.zeros_like(x)))
    # eye / eye_like: k above, below and past the matrix
    eye = lambda n, m, k, dt: np.eye(n, m, k, dtype=dt)
    c.append(Case("eye", "R.eye(3, 3)", [], lambda: eye(3, 3, 0, np.float32)))
    c.append(Case("eye_k", "R.eye(3, 5, 2)", [], lambda: eye(3, 5, 2, np.float32)))
    c.append(Case("eye_neg_k", 'R.eye(5, 3, k=-1, dtype="int32")', [], lambda: eye(5, 3, -1, np.int32)))
    c.append(Case("eye_k_past", 'R.eye(3, 4, k=6, dtype="float64")', [], lambda: eye(3, 4, 6, np.float64)))
    c.append(Case("eye_neg_k_past", "R.eye(3, 4, -3)", [], lambda: eye(3, 4, -3, np.float32)))
    c.append(Case("eye_bool", 'R.eye(R.prim_value(4), R.prim_value(4), R.prim_value(1), dtype="bool")', [],
                  lambda: eye(4, 4, 1, np.bool_)))
    c.append(Case("eye_f16", 'R.eye(2, 3, dtype="float16")', [], lambda: eye(2, 3, 0, np.float16), **f16))
    c.append(Case("eye_empty", "R.eye(0, 3)", [], lambda: eye(0, 3, 0, np.float32)))
    c.append(Case("eye_sym", "R.eye(n, 4, 1)", [inp("x", (5,), sig=("n",))],
                  lambda x: eye(x.shape[0], 4, 1, np.float32), **sym))
    c.append(Case("eye_sym_k", "R.eye(3, 3, n)", [inp("x", (1,), sig=("n",))],
                  lambda x: eye(3, 3, x.shape[0], np.float32), **sym))
    c.append(Case("eye_like", "R.eye_like(x)", [x_((3, 4))], lambda x: eye(3, 4, 0, np.float32)))
    c.append(Case("eye_like_k", 'R.eye_like(x, 1, dtype="int64")', [x_((4, 3))], lambda x: eye(4, 3, 1, np.int64)))
    c.append(Case("eye_like_i32", "R.eye_like(x, k=-2)", [x_((4, 4), I32)], lambda x: eye(4, 4, -2, np.int32)))
    c.append(Case("eye_like_f16", "R.eye_like(x, -5)", [x_((2, 3), F16)], lambda x: eye(2, 3, -5, np.float16), **f16))
    c.append(Case("eye_like_sym", "R.eye_like(x, 1)", [inp("x", (3, 5), sig=("n", "m"))],
                  lambda x: eye(*x.shape, 1, np.float32), upper={"n": 6, "m": 7}))
    # arange: int64 for integer bounds, float32 otherwise; empty ranges
    ar = lambda name, call, s, e, st, dt: Case(name, call, [], lambda: arange_ref(s, e, st, dt))
    c.append(ar("arange", "R.arange(0, 10, 3)", 0, 10, 3, np.int64))
    c.append(ar("arange_prim_values", "R.arange(R.prim_value(2), R.prim_value(7), R.prim_value(1))", 2, 7, 1, np.int64))
    c.append(ar("arange_neg_step", "R.arange(10, 0, -3)", 10, 0, -3, np.int64))
    c.append(ar("arange_neg_step_exact", 'R.arange(6, -6, -2, dtype="int32")', 6, -6, -2, np.int32))
    c.append(ar("arange_empty", "R.arange(5, 0)", 5, 0, 1, np.int64))
    c.append(ar("arange_empty_neg_step", "R.arange(0, 5, -1)", 0, 5, -1, np.int64))
    c.append(ar("arange_float_dtype", 'R.arange(-3, 4, 2, dtype="float32")', -3, 4, 2, np.float32))
    c.append(ar("arange_f16", 'R.arange(0, 6, 1, dtype="float16")', 0, 6, 1, np.float16))
    c.append(ar("arange_float", "R.arange(R.prim_value(T.float64(0.5)), R.prim_value(T.float64(3.0)), "
                "R.prim_value(T.float64(0.25)))", 0.5, 3.0, 0.25, np.float32))
    c.append(ar("arange_float_f64", 'R.arange(R.prim_value(T.float64(1.0)), R.prim_value(T.float64(-1.0)), '
                'R.prim_value(T.float64(-0.3)), dtype="float64")', 1.0, -1.0, -0.3, np.float64))
    c.append(ar("arange_float_to_int", 'R.arange(R.prim_value(T.float64(0.5)), R.prim_value(T.float64(4.0)), '
                'R.prim_value(T.float64(1.5)), dtype="int32")', 0.5, 4.0, 1.5, np.int32))
    c.append(Case("arange_sym", "R.arange(0, n, 2)", [inp("x", (7,), sig=("n",))],
                  lambda x: arange_ref(0, x.shape[0], 2, np.int64), **sym))
    c.append(Case("arange_sym_neg_step", 'R.arange(n, -1, -3, dtype="float32")', [inp("x", (7,), sig=("n",))],
                  lambda x: arange_ref(x.shape[0], -1, -3, np.float32), **sym))
    c.append(Case("arange_sym_step", "R.arange(1, 20, n)", [inp("x", (4,), sig=("n",))],
                  lambda x: arange_ref(1, 20, x.shape[0], np.int64), **sym))
    c.append(Case("arange_sym_empty", "R.arange(n, 4)", [inp("x", (6,), sig=("n",))],
                  lambda x: arange_ref(x.shape[0], 4, 1, np.int64), **sym))
    # hamming_window: periodic or symmetric, size 1
    hw = "R.prim_value(T.float64(0.54)), R.prim_value(T.float64(0.46))"
    c.append(Case("hamming_window", f'R.hamming_window(8, R.prim_value(True), {hw}, dtype="float32")', [],
                  lambda: hamming_ref(8, True, 0.54, 0.46, np.float32)))
    c.append(Case("hamming_window_symmetric", f'R.hamming_window(7, R.prim_value(False), {hw}, dtype="float64")',
                  [], lambda: hamming_ref(7, False, 0.54, 0.46, np.float64)))
    c.append(Case("hamming_window_one", f'R.hamming_window(1, R.prim_value(False), {hw}, dtype="float32")', [],
                  lambda: hamming_ref(1, False, 0.54, 0.46, np.float32)))
    c.append(Case("hamming_window_f16", 'R.hamming_window(5, R.prim_value(True), R.prim_value(T.float64(0.5)), '
                  'R.prim_value(T.float64(0.5)), dtype="float16")', [],
                  lambda: hamming_ref(5, True, 0.5, 0.5, np.float16), **f16))
    c.append(Case("hamming_window_f32_coeffs", 'R.hamming_window(6, R.prim_value(1), 0.54, 0.46, dtype="float32")',
                  [], lambda: hamming_ref(6, True, float(np.float32(0.54)), float(np.float32(0.46)), np.float32)))
    c.append(Case("hamming_window_sym", f'R.hamming_window(n, R.prim_value(False), {hw}, dtype="float32")',
                  [inp("x", (6,), sig=("n",))], lambda x: hamming_ref(x.shape[0], False, 0.54, 0.46, np.float32),
                  **sym))
    # tril / triu: k inside, beyond either corner, batches, symbolic k
    for op, upper in (("tril", False), ("triu", True)):
        for k in (0, 1, -2, 9, -9):
            c.append(Case(f"{op}_k{k}".replace("-", "m"), f"R.{op}(x, {k})", [x_((4, 5))],
                          lambda x, k=k, upper=upper: trilu_ref(x, k, upper)))
        c.append(Case(f"{op}_default", f"R.{op}(x)", [x_((3, 3))], lambda x, upper=upper: trilu_ref(x, 0, upper)))
        c.append(Case(f"{op}_batch", f"R.{op}(x, k=1)", [x_((2, 3, 4, 3))],
                      lambda x, upper=upper: trilu_ref(x, 1, upper)))
        for dt in (I32, BOOL, F64, F16):
            c.append(Case(f"{op}_{dt}", f"R.{op}(x, -1)", [x_((3, 4), dt, "smallint")],
                          lambda x, upper=upper: trilu_ref(x, -1, upper)))
        c.append(Case(f"{op}_sym", f"R.{op}(x, 1)", [inp("x", (2, 5, 4), sig=(2, "n", "m"))],
                      lambda x, upper=upper: trilu_ref(x, 1, upper), upper={"n": 6, "m": 7}))
        c.append(Case(f"{op}_sym_k", f"R.{op}(x, R.prim_value(n))", [inp("x", (4, 5), sig=("n", 5))],
                      lambda x, upper=upper: trilu_ref(x, x.shape[0], upper), **sym))
        c.append(Case(f"{op}_empty", f"R.{op}(x)", [x_((0, 3))], lambda x, upper=upper: trilu_ref(x, 0, upper)))
    return c


def create_error_cases():
    f = lambda shape, dtype=F32, name="x": inp(name, shape, dtype)
    return [
        ErrorCase("err_full_fill_rank", "R.full((2, 3), x)", [f((2,))], ["rank"]),
        ErrorCase("err_full_shape", 'R.full(x, R.const(1.0, "float32"))', [f((2,))], ["shape"]),
        ErrorCase("err_full_like_fill_rank", "R.full_like(x, x)", [f((2,))], ["rank"]),
        ErrorCase("err_ones_dtype", "R.ones((2, 3), dtype=None)", [], ["dtype"]),
        ErrorCase("err_zeros_dtype", 'R.zeros((2, 3), dtype="float7")', [], ["dtype"]),
        ErrorCase("err_eye_negative", "R.eye(-1, 3)", [], ["negative"]),
        ErrorCase("err_eye_float", "R.eye(3, 3, R.prim_value(T.float64(0.5)))", [], ["integer"]),
        ErrorCase("err_eye_like_rank", "R.eye_like(x)", [f((2, 3, 4))], ["rank 2"]),
        ErrorCase("err_arange_step_zero", "R.arange(0, 5, 0)", [], ["step is zero"]),
        ErrorCase("err_arange_shape", "R.arange(0, R.shape([3]))", [], ["prim value"]),
        ErrorCase("err_hamming_window_int", 'R.hamming_window(4, R.prim_value(True), 0.5, 0.5, dtype="int32")', [],
                  ["float"]),
        ErrorCase("err_hamming_window_size", 'R.hamming_window(0, R.prim_value(True), 0.5, 0.5, dtype="float32")',
                  [], ["at least 1"]),
        ErrorCase("err_tril_rank", "R.tril(x)", [f((3,))], ["rank 2"]),
        ErrorCase("err_triu_k_float", "R.triu(x, R.prim_value(T.float64(1.0)))", [f((3, 3))], ["integer"]),
    ]


def create_run_error_cases():
    return [
        # a symbolic step must be positive: TVM's length formula needs it
        RunErrorCase("run_err_arange_sym_step", "R.arange(0, 8, n)", [inp("x", (5,), sig=("n",))], {"x": (0,)},
                     ["step", "n = 0"], upper={"n": 16}, tvars=["n"]),
    ]


# ---- cases of other files ---------------------------------------------------
# A category's cases may live in their own file, tests/ops/cases_<name>.py,
# defining any of CASES(), ERROR_CASES() and RUN_ERROR_CASES() (each a list;
# the file imports what it needs from this one).  They join the lists above
# in file-name order, so adding a file adds its cases and touches nothing else.

def _gathered(kind):
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    for path in sorted(glob.glob(os.path.join(here, "cases_*.py"))):
        mod = importlib.import_module(os.path.basename(path)[:-3])
        if hasattr(mod, kind):
            out += getattr(mod, kind)()
    return out
