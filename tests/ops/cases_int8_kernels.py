"""cases_int8_kernels.py - the integer kernels of quantized models (issue 23):
conv2d and matmul of int8 operands summed into int32, max_pool2d and pad
of int8, and the requantization chain (int64 multiply, rounding shift,
clip, cast to int8) that follows them.

Every reference here is numpy integer arithmetic (int64, wrapped to the
result's width where the sum overflows it), never float, and the harness
compares ints exactly: the interpreter, the legalized module and the
generated C (whose integer kernels hold no float at all,
tests/codegen/int_kernels.py) must give these values bit for bit.
"""
from cases import *  # noqa: F401,F403  (Case, inp, x_, y_, np, ...)

I8 = "int8"
LOW = "vals:-128"          # every element -128: the largest products, (-128) * (-128)
EXTREME = "vals:-128,127,-128,-128,127,0,-1,127,-128"


def conv_ref(strides=(1, 1), padding=(0, 0, 0, 0), groups=1, out="int32"):
    """conv2d NCHW/OIHW in int64 by shifted windows, wrapped to out."""
    def ref(x, w):
        x, w = np.asarray(x, np.int64), np.asarray(w, np.int64)
        t, l, b, r = padding
        xp = np.pad(x, ((0, 0), (0, 0), (t, b), (l, r)))
        n, c, h, wd = xp.shape
        o, cin, kh, kw = w.shape
        sh, sw = strides
        oh, ow = (h - kh) // sh + 1, (wd - kw) // sw + 1
        y = np.zeros((n, o, oh, ow), np.int64)
        per = o // groups
        for oc in range(o):
            g = oc // per
            for ky in range(kh):
                for kx in range(kw):
                    win = xp[:, g * cin:(g + 1) * cin, ky:ky + sh * oh:sh, kx:kx + sw * ow:sw]
                    y[:, oc] += np.einsum("nchw,c->nhw", win, w[oc, :, ky, kx])
        return y.astype(out)
    return ref


def conv(name, xs, ws, attrs, ref_kw, xkind="anyint", wkind="anyint", xsig=None, upper=None, xdt=I8):
    call = f'R.nn.conv2d(x, w{attrs}, out_dtype="int32")'
    return Case(name, call, [x_(xs, xdt, xkind, xsig), inp("w", ws, I8, wkind)], conv_ref(**ref_kw),
                upper=upper)


def matmul_ref(out="int32"):
    def ref(x, y):
        return np.matmul(np.asarray(x, np.int64), np.asarray(y, np.int64)).astype(out)
    return ref


def mm(name, xs, ys, xkind="anyint", ykind="anyint", xsig=None, upper=None, out="int32", xdt=I8):
    return Case(name, f'R.matmul(x, y, out_dtype="{out}")', [x_(xs, xdt, xkind, xsig), y_(ys, I8, ykind)],
                matmul_ref(out), upper=upper)


def maxpool_ref(size, strides, padding):
    def ref(x):
        x = np.asarray(x, np.int64)
        t, l, b, r = padding
        xp = np.pad(x, ((0, 0), (0, 0), (t, b), (l, r)), constant_values=-128)
        oh = (xp.shape[2] - size[0]) // strides[0] + 1
        ow = (xp.shape[3] - size[1]) // strides[1] + 1
        y = np.full(x.shape[:2] + (oh, ow), -128, np.int64)
        for ky in range(size[0]):
            for kx in range(size[1]):
                y = np.maximum(y, xp[:, :, ky:ky + strides[0] * oh:strides[0],
                                     kx:kx + strides[1] * ow:strides[1]])
        return y.astype(I8)
    return ref


# the requantization after a conv2d: acc + bias in int32, then in int64
# (acc + bias) * M + (1 << (S - 1)) >> S, + zero point, clipped to int8.
# M up to 2^31 - 1 and sums near 2^31 put the int64 product near 2^62.
REQUANT = [
    'lv0 = R.nn.conv2d(x, w, padding=[1, 1, 1, 1], out_dtype="int32")',
    "lv1 = R.add(lv0, b)",
    'lv2 = R.astype(lv1, "int64")',
    "lv3 = R.multiply(lv2, m)",
    "lv4 = R.add(lv3, r)",
    "lv5 = R.right_shift(lv4, s)",
    "lv6 = R.add(lv5, z)",
    "lv7 = R.clip(lv6, R.prim_value(-128), R.prim_value(127))",
]


def requant_ref(x, w, b, m, r, s, z):
    acc = conv_ref(padding=(1, 1, 1, 1))(x, w).astype(np.int64) + np.asarray(b, np.int64)
    t = acc * np.asarray(m, np.int64) + np.asarray(r, np.int64)
    assert np.abs(t).max() < 2**63
    return np.clip((t >> np.asarray(s, np.int64)) + np.asarray(z, np.int64), -128, 127).astype(I8)


def requant_case(name, c, xkind, wkind, mults, shifts, h=6, bias="vals:2138000000,-5,0,-2138000000",
                 rounding=None):
    """An int8 conv2d of c output channels over 64 input channels (sums up
    to 64 * 9 * 2^14 ~ 2^23.2), its int32 bias (up to 2^31 - 2^23.2, so the
    int32 add does not wrap), then the chain with per-channel multipliers
    and shifts (r = 1 << (s - 1), zero point -3)."""
    ch = lambda d: inp(d[0], (1, c, 1, 1), d[1], d[2])  # noqa: E731
    rounding = rounding or ",".join(str(1 << (v - 1)) for v in shifts)
    ins = [x_((1, 64, h, h), I8, xkind), inp("w", (c, 64, 3, 3), I8, wkind),
           ch(("b", "int32", bias)),
           ch(("m", "int64", "vals:" + ",".join(str(v) for v in mults))),
           ch(("r", "int64", "vals:" + rounding)),
           ch(("s", "int64", "vals:" + ",".join(str(v) for v in shifts))),
           ch(("z", "int64", "vals:-3"))]
    return Case(name, 'R.astype(lv7, "int8")', ins, requant_ref, pre=REQUANT)


def ERROR_CASES():
    # without an out_dtype the operands' dtypes must agree (TVM's binary rule)
    return [ErrorCase("qmatmul_mixed_no_out_dtype", "R.matmul(x, y)",
                      [x_((2, 3), "uint8"), y_((3, 2), I8)], ["dtype"]),
            ErrorCase("qconv_mixed_no_out_dtype", "R.nn.conv2d(x, w)",
                      [x_((1, 2, 4, 4), "uint8"), inp("w", (3, 2, 3, 3), I8)], ["dtype"])]


def CASES():
    c = []
    # conv2d: padded, strided, grouped, depthwise (conv_dw.c), symbolic batch
    # (the generic lowering when a dim is not static), the products at -128
    c.append(conv("qconv_pad", (1, 3, 9, 9), (8, 3, 3, 3), ", padding=[1, 1, 1, 1]",
                  dict(padding=(1, 1, 1, 1))))
    c.append(conv("qconv_stride", (2, 5, 11, 10), (7, 5, 3, 2), ", strides=[2, 3], padding=[2, 0, 1, 1]",
                  dict(strides=(2, 3), padding=(2, 0, 1, 1))))
    c.append(conv("qconv_group", (1, 6, 8, 8), (9, 2, 3, 3), ", padding=[1, 1, 1, 1], groups=3",
                  dict(padding=(1, 1, 1, 1), groups=3)))
    c.append(conv("qconv_dw", (1, 8, 10, 10), (8, 1, 3, 3), ", strides=[2, 2], padding=[1, 1, 1, 1], groups=8",
                  dict(strides=(2, 2), padding=(1, 1, 1, 1), groups=8)))
    c.append(conv("qconv_dw_mult", (1, 4, 7, 40), (8, 1, 3, 3), ", groups=4", dict(groups=4)))
    c.append(conv("qconv_pointwise", (1, 24, 5, 7), (10, 24, 1, 1), "", {}))
    c.append(conv("qconv_sym_batch", (2, 3, 8, 8), (4, 3, 3, 3), ", padding=[1, 1, 1, 1]",
                  dict(padding=(1, 1, 1, 1)), xsig=("n", 3, 8, 8), upper={"n": 4}))
    # channels enough for conv_gemm.c to sum in chunks (an int32 part buffer)
    c.append(conv("qconv_chunks", (1, 256, 8, 9), (4, 256, 3, 3), ", padding=[1, 1, 1, 1]",
                  dict(padding=(1, 1, 1, 1))))
    c.append(conv("qconv_extreme", (1, 64, 6, 6), (5, 64, 3, 3), "", {}, LOW, LOW))
    c.append(conv("qconv_extreme_mixed", (1, 40, 5, 5), (3, 40, 3, 3), ", padding=[1, 1, 1, 1]",
                  dict(padding=(1, 1, 1, 1)), EXTREME, LOW))
    # matmul: 2-D, batched (both operands, and x2 2-D), symbolic rows, K not
    # a multiple of anything, columns past a 16-wide tile, -128 * -128 sums
    c.append(mm("qmatmul_2d", (21, 37), (37, 19)))
    c.append(mm("qmatmul_batched", (2, 3, 9, 33), (2, 3, 33, 20)))
    c.append(mm("qmatmul_batched_w2d", (3, 10, 13), (13, 17)))
    c.append(mm("qmatmul_sym_rows", (11, 40), (40, 24), xsig=("m", 40), upper={"m": 32}))
    c.append(mm("qmatmul_extreme", (9, 300), (300, 18), LOW, LOW))
    c.append(mm("qmatmul_extreme_mixed", (8, 257), (257, 33), EXTREME, LOW))
    c.append(mm("qmatmul_vector", (40,), (40, 5)))
    # whole 64-column int8 tiles and what is left of them, in rows of 8 and
    # the last row alone (its tile 128 columns wide)
    c.append(mm("qmatmul_tiles", (17, 70), (70, 150)))
    # sums past int32 wrap (as TVM's int32 sums and numpy's astype do): 2^17
    # products of 2^14 are 2^31
    c.append(mm("qmatmul_wrap", (2, 131080), (131080, 3), LOW, LOW))
    c.append(mm("qmatmul_i64", (5, 33), (33, 7), LOW, LOW, out="int64"))
    # uint8 activations with int8 weights (ONNX's usual QDQ): an out_dtype
    # lets the operands' dtypes differ, as in TVM
    c.append(conv("qconv_u8", (1, 5, 9, 9), (6, 5, 3, 3), ", padding=[1, 1, 1, 1]",
                  dict(padding=(1, 1, 1, 1)), xdt="uint8"))
    c.append(mm("qmatmul_u8", (9, 70), (70, 66), xdt="uint8"))
    # wider integers, whose products double cannot hold: the interpreter's
    # sums are integer too (int64 wrapping, as numpy's)
    c.append(Case("qmatmul_i64_big", "R.matmul(x, y)", [x_((4, 6), I64, "bigint"), y_((6, 3), I64, "bigint")],
                  lambda x, y: np.matmul(x, y)))
    c.append(Case("qconv_i32_big", "R.nn.conv2d(x, w, padding=[1, 1, 1, 1])",
                  [x_((1, 3, 5, 5), I32, "anyint"), inp("w", (2, 3, 3, 3), I32, "anyint")],
                  conv_ref(padding=(1, 1, 1, 1))))
    c.append(Case("qmaxpool_i64", "R.nn.max_pool2d(x, pool_size=[2, 2], padding=[1, 1, 0, 0])",
                  [x_((1, 2, 4, 4), I64, "anyint")],
                  lambda x: np.max(np.lib.stride_tricks.sliding_window_view(
                      np.pad(x, ((0, 0), (0, 0), (1, 0), (1, 0)), constant_values=np.iinfo(np.int64).min),
                      (2, 2), axis=(2, 3)), axis=(4, 5))))
    # max_pool2d of int8 (the padding is below every value: -128 itself)
    c.append(Case("qmaxpool", "R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])",
                  [x_((1, 3, 9, 9), I8, "anyint")], maxpool_ref((3, 3), (2, 2), (1, 1, 1, 1))))
    c.append(Case("qmaxpool_low", "R.nn.max_pool2d(x, pool_size=[2, 2], strides=[2, 2], padding=[0, 0, 1, 1])",
                  [x_((1, 2, 5, 5), I8, LOW)], maxpool_ref((2, 2), (2, 2), (0, 0, 1, 1))))
    c.append(Case("qmaxpool_sym", "R.nn.max_pool2d(x, pool_size=[3, 3], padding=[1, 1, 1, 1])",
                  [x_((2, 2, 7, 7), I8, "anyint", ("n", 2, 7, 7))], maxpool_ref((3, 3), (1, 1), (1, 1, 1, 1)),
                  upper={"n": 3}))
    # pad of int8 with an integer pad value (a quantized input's zero point)
    c.append(Case("qpad", "R.nn.pad(x, pad_width=[0, 0, 0, 0, 1, 2, 2, 1], pad_value=-7)",
                  [x_((1, 3, 4, 5), I8, "anyint")],
                  lambda x: np.pad(x, ((0, 0), (0, 0), (1, 2), (2, 1)), constant_values=-7).astype(I8)))
    # the requantization chain; sums near 2^23 times M near 2^31 (and bias
    # near 2^31) give int64 values near 2^62, not exact in double
    big = [2147483647, 1518500250, 1073741824, 2147483646]
    c.append(requant_case("qrequant_extreme", 4, LOW, LOW, big, [40, 39, 38, 41]))
    c.append(requant_case("qrequant_random", 4, "anyint", "anyint", big, [44, 45, 46, 44]))
    # t = acc * m + r lands on 100 * 2^55 - 1 for the inner pixels (acc =
    # 64 * 9 * 2^14): t >> 55 is 99, where t rounded to double (2^10 apart
    # there) gives 100; the border pixels land on 2/3 and 4/9 of it
    acc, t = 64 * 9 * 2**14, 100 * 2**55 - 1
    c.append(requant_case("qrequant_near_2_62", 2, LOW, LOW, [t // acc], [55], bias="vals:0",
                          rounding=str(t - acc * (t // acc))))
    return c
