"""cases_conv_pool.py - the window ops (ops/conv.c, pool.c) over 1, 2 or 3
spatial axes (conv1d, conv3d, the transposed convolutions, grouped
conv2d, the 1-D/3-D pools, the adaptive pools) and pad, pixel_shuffle,
batch_flatten.

The references follow TVM's definitions (python/tvm/relax/op/nn/nn.py,
src/relax/op/nn/convolution.cc, pooling.cc): padding of 1 value for all
sides, one per spatial axis, or [before..., after...]; a transposed
convolution scatters data[i] * weight[k] to o = i * stride - pad_before +
k * dilation.
"""
import itertools

from cases import *  # noqa: F401,F403 (Case, ErrorCase, inp, x_, np, refs, dtypes)

f64, like = refs.f64, refs.like


def axes(v, nsp, fallback):
    """An attribute of 1 or nsp values as nsp values."""
    v = [fallback] if v is None else list(v)
    return v * nsp if len(v) == 1 else v


def pads(padding, nsp):
    """(before, after) per spatial axis from 1, nsp or 2 * nsp values."""
    p = list(padding)
    if len(p) == 1:
        p = p * (2 * nsp)
    elif len(p) == nsp:
        p = p + p
    return p[:nsp], p[nsp:]


def conv_nd(x, w, strides=None, padding=(0,), dilation=None, groups=1):
    """conv over NC + spatial data and OI + spatial weight."""
    nsp = x.ndim - 2
    st, dl = axes(strides, nsp, 1), axes(dilation, nsp, 1)
    before, after = pads(padding, nsp)
    xp = np.pad(f64(x), [(0, 0), (0, 0)] + list(zip(before, after)))
    o, cg = w.shape[:2]
    ks = w.shape[2:]
    out_sp = [(xp.shape[2 + a] - (ks[a] - 1) * dl[a] - 1) // st[a] + 1 for a in range(nsp)]
    out = np.zeros((x.shape[0], o) + tuple(out_sp))
    og = o // groups
    for k in np.ndindex(*ks):
        sl = tuple(slice(k[a] * dl[a], k[a] * dl[a] + (out_sp[a] - 1) * st[a] + 1, st[a])
                   for a in range(nsp))
        patch = xp[(slice(None), slice(None)) + sl]
        for g in range(groups):
            wk = f64(w[(slice(g * og, (g + 1) * og), slice(None)) + k])
            out[:, g * og:(g + 1) * og] += np.einsum("nc...,oc->no...", patch[:, g * cg:(g + 1) * cg], wk)
    return like(out, x)


def conv_t_nd(x, w, strides=None, padding=(0,), output_padding=None, dilation=None, groups=1):
    """transposed conv over NC + spatial data and IO + spatial weight."""
    nsp = x.ndim - 2
    st, dl = axes(strides, nsp, 1), axes(dilation, nsp, 1)
    op = axes(output_padding, nsp, 0)
    before, after = pads(padding, nsp)
    cin, og = w.shape[:2]
    ks, ins = w.shape[2:], x.shape[2:]
    out_sp = [(ins[a] - 1) * st[a] - before[a] - after[a] + dl[a] * (ks[a] - 1) + op[a] + 1
              for a in range(nsp)]
    full = [max((ins[a] - 1) * st[a] + dl[a] * (ks[a] - 1) + 1, before[a] + out_sp[a])
            for a in range(nsp)]
    buf = np.zeros((x.shape[0], og * groups) + tuple(full))
    ig = cin // groups
    for k in np.ndindex(*ks):
        sl = tuple(slice(k[a] * dl[a], k[a] * dl[a] + (ins[a] - 1) * st[a] + 1, st[a])
                   for a in range(nsp))
        for g in range(groups):
            wk = f64(w[(slice(g * ig, (g + 1) * ig), slice(None)) + k])
            part = np.einsum("nc...,co->no...", f64(x[:, g * ig:(g + 1) * ig]), wk)
            buf[(slice(None), slice(g * og, (g + 1) * og)) + sl] += part
    crop = tuple(slice(before[a], before[a] + out_sp[a]) for a in range(nsp))
    return like(buf[(slice(None), slice(None)) + crop], x)


def pool_nd(x, kind, pool_size, strides=None, padding=(0,), dilation=None, ceil_mode=False,
            count_include_pad=False):
    nsp = x.ndim - 2
    ks, st, dl = axes(pool_size, nsp, 1), axes(strides, nsp, 1), axes(dilation, nsp, 1)
    before, after = pads(padding, nsp)
    taps = []
    for a in range(nsp):
        size = x.shape[2 + a]
        span = size + before[a] + after[a] - ((ks[a] - 1) * dl[a] + 1)
        out = (span + (st[a] - 1 if ceil_mode else 0)) // st[a] + 1
        if ceil_mode and (out - 1) * st[a] >= size + before[a]:
            out -= 1
        taps.append([])
        for i in range(out):
            pos = [i * st[a] - before[a] + t * dl[a] for t in range(ks[a])]
            taps[a].append(([p for p in pos if 0 <= p < size],
                            len([p for p in pos if -before[a] <= p < size + after[a]])))
    z = f64(x)
    out = np.empty(x.shape[:2] + tuple(len(t) for t in taps))
    for idx in itertools.product(*[range(len(t)) for t in taps]):
        picks = [taps[a][idx[a]] for a in range(nsp)]
        block = z[np.ix_(range(x.shape[0]), range(x.shape[1]), *[p[0] for p in picks])]
        red = tuple(range(2, 2 + nsp))
        if kind == "max":
            out[(slice(None), slice(None)) + idx] = block.max(axis=red)
        else:
            count = np.prod([p[1] for p in picks]) if count_include_pad else block[0, 0].size
            out[(slice(None), slice(None)) + idx] = block.sum(axis=red) / max(count, 1)
    return like(out, x)


def adaptive_nd(x, output_size=None):
    nsp = x.ndim - 2
    ins = x.shape[2:]
    outs = list(ins) if output_size is None else axes(output_size, nsp, 1)
    out = np.empty(x.shape[:2] + tuple(outs))
    z = f64(x)
    for idx in np.ndindex(*outs):
        sl = tuple(slice(idx[a] * ins[a] // outs[a], -(-(idx[a] + 1) * ins[a] // outs[a]))
                   for a in range(nsp))
        out[(slice(None), slice(None)) + idx] = z[(slice(None), slice(None)) + sl].mean(
            axis=tuple(range(2, 2 + nsp)))
    return like(out, x)


def attr_text(attrs):
    return "".join(f", {k}={v}" for k, v in attrs.items())


def conv_case(op, xs, ws, attrs=None, ref=None, dtype=F32, sig=None, upper=None, atol=1e-5,
              suffix=""):
    attrs = attrs or {}
    kw = {k: v for k, v in attrs.items() if k in ("strides", "padding", "dilation", "groups",
                                                  "output_padding")}
    fn = ref or (conv_t_nd if "transpose" in op else conv_nd)
    tol = {"rtol": 1e-3, "atol": 1e-2} if dtype == F16 else {"atol": atol}
    return Case(f"{op}{suffix}", f"R.nn.{op}(x, w{attr_text(attrs)})",
                [inp("x", xs, dtype, sig=sig), inp("w", ws, dtype)],
                lambda x, w: fn(x, w, **kw), upper=upper, **tol)


def conv_cases():
    c = [
        conv_case("conv1d", (2, 3, 9), (4, 3, 3)),
        conv_case("conv1d", (1, 4, 11), (6, 2, 3), {"strides": [2], "padding": [1, 2], "dilation": [2],
                                                     "groups": 2}, suffix="_s2_pad_dil_groups"),
        conv_case("conv1d", (1, 3, 7), (3, 1, 3), {"padding": [1], "groups": 3}, suffix="_depthwise"),
        conv_case("conv1d", (1, 1, 1), (1, 1, 1), suffix="_ones"),
        conv_case("conv1d", (3, 2, 8), (5, 2, 3), {"padding": [1]}, sig=("n", 2, 8), upper={"n": 4},
                  suffix="_sym"),
        conv_case("conv1d", (1, 2, 6), (3, 2, 2), dtype=F16, suffix="_f16"),
        conv_case("conv1d", (1, 2, 6), (3, 2, 2), dtype=F64, suffix="_f64"),
        conv_case("conv3d", (1, 2, 4, 5, 6), (3, 2, 2, 3, 3)),
        conv_case("conv3d", (2, 4, 5, 5, 6), (4, 2, 3, 3, 3), {"strides": [2, 1, 2], "padding": [1],
                                                               "dilation": [1, 2, 1], "groups": 2},
                  suffix="_s_pad_dil_groups"),
        conv_case("conv3d", (1, 2, 3, 4, 5), (2, 2, 3, 3, 3),
                  {"padding": [0, 1, 2, 1, 0, 1]}, suffix="_pad6"),
        conv_case("conv3d", (2, 1, 3, 3, 4), (2, 1, 1, 2, 2), sig=("n", 1, 3, 3, "d"),
                  upper={"n": 4, "d": 8}, suffix="_sym"),
        conv_case("conv3d", (1, 2, 3, 3, 3), (2, 2, 2, 2, 2), dtype=F16, suffix="_f16"),
        Case("conv1d_nwc", 'R.nn.conv1d(x, w, padding=[1], data_layout="NWC", kernel_layout="WIO")',
             [inp("x", (2, 7, 3)), inp("w", (3, 3, 4))],
             lambda x, w: conv_nd(x.transpose(0, 2, 1), w.transpose(2, 1, 0),
                                  padding=[1]).transpose(0, 2, 1), atol=1e-5),
        Case("conv3d_transpose_ndhwc_out_ncdhw",
             'R.nn.conv3d_transpose(x, w, strides=[2, 2, 2], data_layout="NDHWC", out_layout="NCDHW")',
             [inp("x", (1, 2, 3, 2, 2)), inp("w", (2, 3, 2, 2, 2))],
             lambda x, w: conv_t_nd(x.transpose(0, 4, 1, 2, 3), w, strides=[2, 2, 2]), atol=1e-5),
        Case("max_pool3d_ndhwc", 'R.nn.max_pool3d(x, pool_size=[2, 2, 2], layout="NDHWC")',
             [inp("x", (1, 3, 4, 4, 2))],
             lambda x: pool_nd(x.transpose(0, 4, 1, 2, 3), "max", [2, 2, 2]).transpose(0, 2, 3, 4, 1)),
        Case("adaptive_avg_pool1d_nwc", 'R.nn.adaptive_avg_pool1d(x, output_size=[3], layout="NWC")',
             [inp("x", (2, 7, 3))],
             lambda x: adaptive_nd(x.transpose(0, 2, 1), [3]).transpose(0, 2, 1)),
        conv_case("conv1d_transpose", (1, 3, 5), (3, 2, 3)),
        conv_case("conv1d_transpose", (2, 4, 6), (4, 3, 3), {"strides": [2], "padding": [1, 2],
                                                             "output_padding": [1], "groups": 2},
                  suffix="_s2_pad_outpad_groups"),
        conv_case("conv1d_transpose", (1, 2, 5), (2, 2, 2), {"strides": [3], "dilation": [2]},
                  suffix="_s3_dil"),
        conv_case("conv1d_transpose", (2, 2, 4), (2, 3, 3), {"strides": [2]}, sig=("n", 2, "m"),
                  upper={"n": 4, "m": 8}, suffix="_sym"),
        conv_case("conv1d_transpose", (1, 2, 4), (2, 2, 3), dtype=F16, suffix="_f16"),
        conv_case("conv2d_transpose", (1, 3, 4, 5), (3, 2, 3, 3)),
        conv_case("conv2d_transpose", (2, 4, 3, 4), (4, 1, 3, 2),
                  {"strides": [2, 3], "padding": [1, 0, 0, 1], "output_padding": [1, 2],
                   "dilation": [1, 2], "groups": 4}, suffix="_full"),
        conv_case("conv2d_transpose", (1, 2, 1, 1), (2, 3, 1, 1), suffix="_ones"),
        conv_case("conv2d_transpose", (3, 2, 3, 3), (2, 2, 2, 2), {"strides": [2, 2], "padding": [1]},
                  sig=("n", 2, 3, 3), upper={"n": 4}, suffix="_sym"),
        conv_case("conv2d_transpose", (1, 2, 3, 3), (2, 2, 2, 2), dtype=F16, suffix="_f16"),
        conv_case("conv3d_transpose", (1, 2, 2, 3, 3), (2, 2, 2, 2, 2)),
        conv_case("conv3d_transpose", (1, 4, 2, 3, 2), (4, 1, 3, 2, 2),
                  {"strides": [2, 1, 2], "padding": [1, 0, 0], "output_padding": [1, 0, 1],
                   "groups": 2}, suffix="_full"),
        conv_case("conv3d_transpose", (2, 1, 2, 2, 2), (1, 2, 1, 2, 2), sig=("n", 1, 2, 2, 2),
                  upper={"n": 4}, suffix="_sym"),
        conv_case("conv3d_transpose", (1, 1, 2, 2, 2), (1, 2, 2, 2, 2), dtype=F16, suffix="_f16"),
    ]
    return c


def grouped_conv2d(x, w, strides=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1,
                   out=None):
    """conv2d NCHW/OIHW as one product of matrices a group: the group's
    weight rows [O/G, I/G * KH * KW] times its window columns
    [I/G * KH * KW, OH * OW], gathered from the zero-padded input by
    index; float64 for floats, int64 for integers (then wrapped to out)."""
    ints = np.dtype(x.dtype).kind in "iu"
    acc = np.int64 if ints else np.float64
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    t, l, b, r = padding
    (sh, sw), (dh, dw) = strides, dilation
    oh = (h + t + b - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + l + r - dw * (kw - 1) - 1) // sw + 1
    xp = np.zeros((n, c, h + t + b, wd + l + r), acc)
    xp[:, :, t:t + h, l:l + wd] = x
    iy = np.arange(kh)[:, None] * dh + np.arange(oh)[None, :] * sh  # [ky, y]
    ix = np.arange(kw)[:, None] * dw + np.arange(ow)[None, :] * sw  # [kx, z]
    cols = xp[:, :, iy[:, None, :, None], ix[None, :, None, :]]  # [n, c, ky, kx, y, z]
    og = o // groups
    y = np.zeros((n, o, oh, ow), acc)
    for g in range(groups):
        a = np.asarray(w[g * og:(g + 1) * og], acc).reshape(og, cg * kh * kw)
        bm = cols[:, g * cg:(g + 1) * cg].reshape(n, cg * kh * kw, oh * ow)
        y[:, g * og:(g + 1) * og] = (a @ bm).reshape(n, og, oh, ow)
    return y.astype(out or x.dtype)


def group_case(name, xs, ws, groups, strides=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1),
               dtype=F32, sig=None, upper=None, atol=1e-4, path="gemm", at_edges=True):
    """A grouped conv2d NCHW/OIHW of 4-value padding (integers: int8 x int8
    summed into int32).  path: "gemm" the legalized module must reach
    ops/conv_gemm.c's product (rt/'s gemm kernel, called by default),
    "generic" it must not (a dim the schedule needs is not static, or one
    input channel a group: conv_dw.c's)."""
    ints = dtype != F32
    text = (f"strides={list(strides)}, padding={list(padding)}, dilation={list(dilation)}, "
            f"groups={groups}" + (', out_dtype="int32"' if ints else ""))
    kind = "anyint" if ints else "normal"
    out = "int32" if ints else None
    case = Case(name, f"R.nn.conv2d(x, w, {text})",
                [inp("x", xs, dtype, kind, sig), inp("w", ws, dtype, kind)],
                lambda x, w: grouped_conv2d(x, w, strides, padding, dilation, groups, out),
                upper=upper, atol=0 if ints else atol, rtol=0 if ints else 1e-5, at_edges=at_edges)
    kern = "rxc_k_gemm_i8i8_i32" if ints else "rxc_k_gemm_f32"
    if path == "gemm":
        case.legal_has = (kern,)
    else:
        case.legal_lacks = (kern,)
    return case


def group_cases():
    """conv2d with 1 < groups (ops/conv_gemm.c's group loop): groups 2, 3, 4,
    8 with 3, 8, 13 input and 1, 3, 4, 8, 13 output channels a group, 1x1,
    3x3, 5x5, strides, padding, dilation, batch 2, non-square planes."""
    return [
        group_case("conv2d_g2_3to4_pad", (2, 6, 9, 11), (8, 3, 3, 3), 2, padding=(1, 1, 1, 1)),
        group_case("conv2d_g3_8to13_s2", (1, 24, 10, 7), (39, 8, 3, 3), 3, strides=(2, 2),
                   padding=(1, 0, 2, 1)),
        group_case("conv2d_g4_13to3_1x1", (2, 52, 7, 9), (12, 13, 1, 1), 4),
        group_case("conv2d_g4_13to3_1x1_s2", (1, 52, 7, 9), (12, 13, 1, 1), 4, strides=(2, 2)),
        group_case("conv2d_g8_8to8_s2", (2, 64, 14, 13), (64, 8, 3, 3), 8, strides=(2, 2),
                   padding=(1, 1, 1, 1)),
        group_case("conv2d_g8_8to8", (1, 64, 7, 7), (64, 8, 3, 3), 8, padding=(1, 1, 1, 1)),
        group_case("conv2d_g2_5x5_dilation", (1, 16, 13, 12), (16, 8, 5, 5), 2,
                   padding=(4, 3, 4, 2), dilation=(2, 2)),
        group_case("conv2d_g4_3to1_s12", (2, 12, 8, 9), (4, 3, 3, 3), 4, strides=(1, 2),
                   padding=(0, 1, 1, 0)),
        group_case("conv2d_g3_3to3_5x5_s21", (1, 9, 11, 6), (9, 3, 5, 5), 3, strides=(2, 1),
                   padding=(2, 2, 2, 2), dilation=(1, 2)),
        # a group's input channels summed in two chunks (a group's panel past
        # 512 KiB): float32 sums of 16200 terms against float64
        group_case("conv2d_g2_chunks", (1, 3600, 4, 4), (6, 1800, 3, 3), 2, padding=(1, 1, 1, 1),
                   atol=2e-3),
        # int8 x int8 into int32: rt/'s 8-bit kernel, exact
        group_case("conv2d_g2_i8", (2, 16, 9, 10), (6, 8, 3, 3), 2, padding=(1, 1, 1, 1),
                   dtype="int8"),
        group_case("conv2d_g4_i8_s2", (1, 52, 9, 9), (52, 13, 3, 3), 4, strides=(2, 2),
                   dtype="int8"),
        # a symbolic batch keeps the schedule; symbolic planes or channels
        # take the generic lowering
        group_case("conv2d_g2_sym_batch", (3, 6, 7, 9), (8, 3, 3, 3), 2, padding=(1, 1, 1, 1),
                   sig=("n", 6, 7, 9), upper={"n": 4}),
        group_case("conv2d_g2_sym_plane", (1, 6, 7, 9), (8, 3, 3, 3), 2, padding=(1, 1, 1, 1),
                   sig=(1, 6, "h", 9), upper={"h": 10}, path="generic", at_edges=False),
        group_case("conv2d_g2_sym_channels", (1, 6, 5, 5), (4, 3, 3, 3), 2,
                   sig=(1, "c", 5, 5), upper={"c": 8}, path="generic", at_edges=False),
        # one input channel a group is depthwise: conv_dw.c's rows, not a product
        group_case("conv2d_g4_1to3_dw", (1, 4, 6, 6), (12, 1, 3, 3), 4, padding=(1, 1, 1, 1),
                   path="generic"),
        # a bias and an activation fused after the group loop's store
        Case("conv2d_g2_bias_relu", "R.nn.relu(lv1)",
             [inp("x", (2, 8, 6, 7)), inp("w", (6, 4, 3, 3)), inp("b", (1, 6, 1, 1))],
             lambda x, w, b: np.maximum(
                 grouped_conv2d(x, w, padding=(1, 1, 1, 1), groups=2) + b, 0),
             pre=["lv = R.nn.conv2d(x, w, padding=[1, 1, 1, 1], groups=2)", "lv1 = R.add(lv, b)"],
             atol=1e-4),
        # other ranks and the transposed convs keep the generic lowering
        conv_case("conv1d", (2, 6, 9), (4, 3, 3), {"padding": [1], "groups": 2}, suffix="_g2"),
        conv_case("conv2d_transpose", (1, 6, 4, 5), (6, 2, 3, 3),
                  {"strides": [2, 2], "padding": [1], "groups": 3}, suffix="_g3"),
    ]


def pool_case(op, xs, attrs, dtype=F32, sig=None, upper=None, suffix=""):
    kw = {k: v for k, v in attrs.items() if k in ("pool_size", "strides", "padding", "dilation")}
    for k in ("ceil_mode", "count_include_pad"):
        if k in attrs:
            kw[k] = attrs[k] == "True"
    if op.startswith("avg") and "count_include_pad" not in attrs and not op.endswith("2d"):
        kw["count_include_pad"] = True  # TVM's default for avg_pool1d/3d
    kind = "max" if op.startswith("max") else "avg"
    tol = {"rtol": 1e-3, "atol": 1e-3} if dtype == F16 else {"atol": 1e-6}
    return Case(f"{op}{suffix}", f"R.nn.{op}(x{attr_text(attrs)})", [inp("x", xs, dtype, sig=sig)],
                lambda x: pool_nd(x, kind, **kw), upper=upper, **tol)


def pool_cases():
    c = []
    for op in ("max_pool1d", "avg_pool1d"):
        c += [
            pool_case(op, (2, 3, 8), {"pool_size": [2], "strides": [2]}),
            pool_case(op, (1, 2, 9), {"pool_size": [3], "strides": [2], "padding": [1, 0],
                                      "ceil_mode": "True"}, suffix="_pad_ceil"),
            pool_case(op, (1, 2, 7), {"pool_size": [3], "padding": [1], "dilation": [2],
                                      "count_include_pad": "False"}, suffix="_dil_excl"),
            pool_case(op, (3, 2, 6), {"pool_size": [3], "padding": [1]}, sig=("n", 2, "w"),
                      upper={"n": 4, "w": 8}, suffix="_sym"),
            pool_case(op, (1, 2, 6), {"pool_size": [2]}, dtype=F16, suffix="_f16"),
        ]
    for op in ("max_pool3d", "avg_pool3d"):
        c += [
            pool_case(op, (1, 2, 4, 4, 4), {"pool_size": [2, 2, 2], "strides": [2, 2, 2]}),
            pool_case(op, (2, 1, 5, 4, 6), {"pool_size": [3, 2, 3], "strides": [2, 1, 2],
                                            "padding": [1, 0, 1, 0, 1, 1], "ceil_mode": "True"},
                      suffix="_pad_ceil"),
            pool_case(op, (1, 2, 3, 5, 5), {"pool_size": [1, 2, 2], "padding": [0, 1, 1],
                                            "dilation": [1, 2, 1], "count_include_pad": "False"},
                      suffix="_dil_excl"),
            pool_case(op, (2, 1, 3, 4, 4), {"pool_size": [2, 2, 2]}, sig=("n", 1, 3, 4, 4),
                      upper={"n": 4}, suffix="_sym"),
            pool_case(op, (1, 1, 3, 3, 3), {"pool_size": [2, 2, 2]}, dtype=F16, suffix="_f16"),
        ]
    c.append(pool_case("max_pool1d", (1, 2, 5), {"pool_size": [2]}, dtype=I32, suffix="_i32"))
    c.append(pool_case("max_pool3d", (1, 1, 2, 3, 3), {"pool_size": [2, 2, 2]}, dtype=F64,
                       suffix="_f64"))
    ad = lambda op, xs, attrs, dtype=F32, sig=None, upper=None, suffix="": Case(
        f"{op}{suffix}", f"R.nn.{op}(x{attr_text(attrs)})", [inp("x", xs, dtype, sig=sig)],
        lambda x: adaptive_nd(x, attrs.get("output_size")), upper=upper,
        **({"rtol": 1e-3, "atol": 1e-3} if dtype == F16 else {"atol": 1e-6}))
    c += [
        ad("adaptive_avg_pool1d", (2, 3, 10), {"output_size": [4]}),
        ad("adaptive_avg_pool1d", (1, 2, 5), {}, suffix="_none"),
        ad("adaptive_avg_pool1d", (1, 2, 3), {"output_size": [5]}, suffix="_grow"),
        ad("adaptive_avg_pool1d", (3, 2, 7), {"output_size": [2]}, sig=("n", 2, "w"),
           upper={"n": 4, "w": 8}, suffix="_sym"),
        ad("adaptive_avg_pool1d", (1, 2, 6), {"output_size": [4]}, dtype=F16, suffix="_f16"),
        ad("adaptive_avg_pool3d", (1, 2, 4, 5, 6), {"output_size": [2, 3, 4]}),
        ad("adaptive_avg_pool3d", (2, 1, 3, 3, 3), {"output_size": [1]}, suffix="_one"),
        ad("adaptive_avg_pool3d", (1, 1, 2, 3, 4), {}, suffix="_none"),
        ad("adaptive_avg_pool3d", (2, 1, 4, 4, 5), {"output_size": [2, 2, 3]}, sig=("n", 1, 4, 4, 5),
           upper={"n": 4}, suffix="_sym"),
        ad("adaptive_avg_pool3d", (1, 1, 3, 4, 4), {"output_size": [2, 2, 2]}, dtype=F64, suffix="_f64"),
        ad("adaptive_avg_pool3d", (1, 1, 3, 4, 4), {"output_size": [2, 2, 2]}, dtype=F16, suffix="_f16"),
    ]
    return c


NP_PAD_MODE = {"reflect": "reflect", "replicate": "edge"}


def pad_ref(x, width, mode="constant", value=0.0):
    pairs = [(width[2 * d], width[2 * d + 1]) for d in range(x.ndim)]
    if mode == "constant":
        return np.pad(x, pairs, constant_values=np.array(value).astype(x.dtype))
    if mode == "circular":  # TVM: index mod extent (numpy's "wrap" differs past one period)
        idx = [(np.arange(n + b + a) - b) % n for n, (b, a) in zip(x.shape, pairs)]
        return x[np.ix_(*idx)]
    return np.pad(x, pairs, mode=NP_PAD_MODE[mode])


def pad_case(xs, width, mode=None, value=None, dtype=F32, sig=None, upper=None, suffix=""):
    text = f", pad_width={list(width)}"
    if mode:
        text += f', pad_mode="{mode}"'
    if value is not None:
        text += f", pad_value={value}"
    return Case(f"pad{suffix}", f"R.nn.pad(x{text})", [inp("x", xs, dtype, sig=sig)],
                lambda x: pad_ref(x, width, mode or "constant", 0.0 if value is None else value),
                upper=upper)


def pixel_shuffle_ref(x, r):
    *b, c, h, w = x.shape
    nb = len(b)
    y = x.reshape(*b, c // (r * r), r, r, h, w)
    y = y.transpose(*range(nb), nb, nb + 3, nb + 1, nb + 4, nb + 2)
    return y.reshape(*b, c // (r * r), h * r, w * r)


def layout_cases():
    ps = lambda xs, r, dtype=F32, sig=None, upper=None, suffix="": Case(
        f"pixel_shuffle{suffix}", f"R.nn.pixel_shuffle(x, upscale_factor={r})",
        [inp("x", xs, dtype, sig=sig)], lambda x: pixel_shuffle_ref(x, r), upper=upper)
    bf = lambda xs, dtype=F32, sig=None, upper=None, suffix="": Case(
        f"batch_flatten{suffix}", "R.nn.batch_flatten(x)", [inp("x", xs, dtype, sig=sig)],
        lambda x: x.reshape(x.shape[0], int(np.prod(x.shape[1:]))), upper=upper)
    return [
        pad_case((2, 3), [1, 2, 0, 1]),
        pad_case((2, 3, 2), [0, 1, 1, 0, 2, 2], value=1.5, dtype=F16, suffix="_value_f16"),
        pad_case((3, 2), [1, 1, 2, 0], value=7, dtype=I32, suffix="_i32"),
        pad_case((0, 3), [1, 1, 0, 0], value=-2.0, suffix="_empty"),
        pad_case((3, 4), [2, 1, 3, 3], "reflect", suffix="_reflect"),
        pad_case((2, 3, 1), [1, 0, 2, 2, 1, 3], "replicate", dtype=F64, suffix="_replicate"),
        pad_case((2, 3), [3, 1, 4, 5], "circular", dtype=I64, suffix="_circular"),
        pad_case((4, 3), [1, 2, 1, 0], "replicate", sig=("n", 3), upper={"n": 8}, suffix="_sym_replicate"),
        pad_case((4, 3), [0, 0, 2, 1], "reflect", sig=("n", 3), upper={"n": 8}, suffix="_sym_reflect"),
        pad_case((4, 3), [2, 1, 1, 1], "circular", sig=("n", 3), upper={"n": 8}, suffix="_sym_circular"),
        pad_case((2, 5), [1, 1, 1, 1], value=0.5, sig=(2, "n"), upper={"n": 8}, suffix="_sym"),
        ps((1, 8, 2, 3), 2),
        ps((9, 2, 2), 3, suffix="_3d"),
        ps((2, 1, 4, 2, 2), 2, dtype=I32, suffix="_5d_i32"),
        ps((1, 3, 2, 2), 1, suffix="_r1"),
        ps((1, 4, 2, 3), 2, dtype=F16, suffix="_f16"),
        ps((2, 4, 3, 2), 2, sig=("n", 4, "h", 2), upper={"n": 4, "h": 4}, suffix="_sym"),
        ps((1, 4, 0, 2), 2, suffix="_empty"),
        bf((2, 3, 4)),
        bf((3, 2), suffix="_2d"),
        bf((2, 1, 3, 2), dtype=I64, suffix="_4d_i64"),
        bf((3, 2, 4), sig=("n", 2, 4), upper={"n": 4}, suffix="_sym"),
        bf((2, 3, 2), sig=(2, "m", 2), upper={"m": 4}, suffix="_sym_inner"),
        bf((2, 3, 2), dtype=F16, suffix="_f16"),
        bf((0, 3, 2), suffix="_empty"),
    ]


def pool2d_block_cases():
    """The 2-D pools' blocks (ops/pool.c, pool_blocks): runs of output rows
    and columns whose windows meet the input alike, each block one nest
    with no guard; then the windows that take the row schedule instead
    (pool_rows): more than POOL_MAX_TAPS taps, or more than
    POOL_MAX_SPANS runs along an axis."""
    t = lambda b: "True" if b else "False"
    specs = [  # name, pool, strides, padding, dilation, ceil_mode, count_include_pad, shape
        ("same_s1_ceil", [3, 3], [1, 1], [1], [1, 1], True, False, (1, 3, 9, 9)),  # googlenet's
        ("same_s1_incl", [3, 3], [1, 1], [1], [1, 1], False, True, (1, 2, 7, 8)),
        ("s2_pad1_odd", [3, 3], [2, 2], [1], [1, 1], False, False, (1, 2, 11, 11)),  # resnet's
        ("k2s2_whole", [2, 2], [2, 2], [0], [1, 1], False, False, (2, 3, 8, 6)),  # densenet's
        ("two_deep", [5, 5], [1, 1], [2], [1, 1], False, True, (1, 2, 4, 6)),
        ("uneven_ceil", [3, 2], [2, 1], [0, 1, 2, 0], [1, 1], True, False, (1, 2, 8, 5)),
        ("dil_s1", [3, 3], [1, 1], [2], [2, 2], False, False, (1, 2, 7, 9)),
        ("rows_taps", [9, 9], [1, 1], [4], [1, 1], False, False, (1, 2, 10, 11)),
        ("rows_taps_incl", [9, 9], [2, 2], [4], [1, 1], True, True, (1, 2, 10, 11)),
        ("rows_spans", [1, 15], [1, 1], [0, 7, 0, 7], [1, 1], False, False, (1, 2, 3, 10)),
        ("rows_spans_incl", [1, 15], [1, 1], [0, 7, 0, 7], [1, 1], False, True, (1, 2, 3, 10)),
    ]
    c = []
    for name, ps, st, pad, dil, ceil, incl, shape in specs:
        attrs = (f"pool_size={ps}, strides={st}, padding={pad}, dilation={dil}, "
                 f"ceil_mode={t(ceil)}, count_include_pad={t(incl)}")
        kw = {"pool_size": ps, "strides": st, "padding": pad, "dilation": dil, "ceil_mode": ceil,
              "count_include_pad": incl}
        for op in ("max_pool2d", "avg_pool2d"):
            if (op == "max_pool2d" and incl) or (op == "avg_pool2d" and dil != [1, 1]):
                continue
            kind = "max" if op == "max_pool2d" else "avg"
            c.append(Case(f"{op}_block_{name}", f"R.nn.{op}(x, {attrs})", [x_(shape)],
                          lambda x, kind=kind, kw=kw: refs.pool2d(x, kind, **kw)))
    return c


def CASES():
    return conv_cases() + group_cases() + pool_cases() + pool2d_block_cases() + layout_cases()


def ERROR_CASES():
    f = lambda shape, name="x": inp(name, shape)
    return [
        ErrorCase("conv1d_err_rank", "R.nn.conv1d(x, w)", [f((1, 3, 5, 5)), f((4, 3, 3), "w")],
                  ["rank"]),
        ErrorCase("conv1d_err_channels", "R.nn.conv1d(x, w)", [f((1, 3, 5)), f((4, 2, 3), "w")],
                  ["channels"]),
        ErrorCase("conv1d_err_layout", 'R.nn.conv1d(x, w, data_layout="NCHW")',
                  [f((1, 3, 5)), f((4, 3, 3), "w")], ["not supported"]),
        ErrorCase("conv3d_err_groups", "R.nn.conv3d(x, w, groups=2)",
                  [f((1, 4, 3, 3, 3)), f((3, 2, 1, 1, 1), "w")], ["divisible"]),
        ErrorCase("conv3d_err_padding", "R.nn.conv3d(x, w, padding=[1, 1, 1, 1])",
                  [f((1, 1, 3, 3, 3)), f((1, 1, 1, 1, 1), "w")], ["padding"]),
        ErrorCase("conv2d_transpose_err_channels", "R.nn.conv2d_transpose(x, w)",
                  [f((1, 3, 4, 4)), f((2, 2, 3, 3), "w")], ["channels"]),
        ErrorCase("conv2d_transpose_err_output_padding",
                  "R.nn.conv2d_transpose(x, w, strides=[2, 2], output_padding=[2, 0])",
                  [f((1, 2, 4, 4)), f((2, 2, 3, 3), "w")], ["output_padding"]),
        ErrorCase("conv1d_transpose_err_groups", "R.nn.conv1d_transpose(x, w, groups=2)",
                  [f((1, 3, 4)), f((3, 2, 3), "w")], ["divisible"]),
        ErrorCase("conv3d_transpose_err_rank", "R.nn.conv3d_transpose(x, w)",
                  [f((1, 2, 4, 4)), f((2, 2, 3, 3, 3), "w")], ["rank"]),
        ErrorCase("max_pool1d_err_rank", "R.nn.max_pool1d(x, pool_size=[2])", [f((2, 6, 6, 6))], ["rank"]),
        ErrorCase("avg_pool3d_err_size", "R.nn.avg_pool3d(x, pool_size=[2, 2])", [f((1, 1, 4, 4, 4))],
                  ["pool_size"]),
        ErrorCase("max_pool3d_err_strides", "R.nn.max_pool3d(x, strides=[1, 0, 1])",
                  [f((1, 1, 4, 4, 4))], ["positive"]),
        ErrorCase("avg_pool1d_err_layout", 'R.nn.avg_pool1d(x, layout="NWC1")', [f((1, 1, 4))],
                  ["not supported"]),
        ErrorCase("adaptive_avg_pool1d_err_size", "R.nn.adaptive_avg_pool1d(x, output_size=[0])",
                  [f((1, 1, 4))], ["positive"]),
        ErrorCase("adaptive_avg_pool3d_err_rank", "R.nn.adaptive_avg_pool3d(x)", [f((1, 1, 4, 4))],
                  ["rank"]),
        ErrorCase("pad_err_width", "R.nn.pad(x, pad_width=[1, 1])", [f((2, 3))], ["pad_width"]),
        ErrorCase("pad_err_negative", "R.nn.pad(x, pad_width=[1, -1, 0, 0])", [f((2, 3))],
                  ["negative"]),
        ErrorCase("pad_err_mode", 'R.nn.pad(x, pad_width=[1, 1, 0, 0], pad_mode="edge")', [f((2, 3))],
                  ["pad_mode"]),
        ErrorCase("pad_err_reflect_wide", 'R.nn.pad(x, pad_width=[2, 0, 0, 0], pad_mode="reflect")',
                  [f((2, 3))], ["reflect"]),
        ErrorCase("pad_err_replicate_empty", 'R.nn.pad(x, pad_width=[1, 0], pad_mode="replicate")',
                  [f((0,))], ["empty"]),
        ErrorCase("pixel_shuffle_err_channels", "R.nn.pixel_shuffle(x, upscale_factor=2)",
                  [f((1, 6, 2, 2))], ["multiple"]),
        ErrorCase("pixel_shuffle_err_rank", "R.nn.pixel_shuffle(x, upscale_factor=2)", [f((4, 2))],
                  ["dimensions"]),
        ErrorCase("pixel_shuffle_err_factor", "R.nn.pixel_shuffle(x, upscale_factor=0)",
                  [f((1, 4, 2, 2))], ["upscale_factor"]),
        ErrorCase("batch_flatten_err_rank", "R.nn.batch_flatten(x)", [f((4,))], ["dimensions"]),
    ]


def RUN_ERROR_CASES():
    # pad's reflect on a symbolic axis too short for it: the interpreter
    # refuses, the generated C reads clamped positions (R.take's policy),
    # so there is no refusal to compare
    return []
