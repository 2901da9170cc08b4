"""cases_qdq_image_vision.py - cases of the quantization ops (R.quantize,
R.dequantize), the image ops (R.image.*) and the vision ops (R.vision.*),
each with its numpy reference."""
from cases import *  # noqa: F401,F403  (Case, ErrorCase, inp, x_, np, ...)

U8, I8, I16, U16 = "uint8", "int8", "int16", "uint16"

# ---------------------------------------------------------------- qdq

QRANGE = {I8: (-128, 127), U8: (0, 255), I16: (-32768, 32767), U16: (0, 65535)}


def _param(p, axis, ndim):
    """A scale or zero_point broadcast against data along axis."""
    p = np.asarray(p, np.float64)
    if p.size == 1:
        return p.reshape(())
    shape = [1] * ndim
    shape[axis] = p.size
    return p.reshape(shape)


def quantize_ref(axis=-1, out=I8, pre=None):
    def ref(x, s, z):
        v = np.asarray(x, np.float64) if pre is None else pre(np.asarray(x, np.float64))
        ax = axis % max(v.ndim, 1)
        quotient = v / _param(s, ax, v.ndim)
        dt = np.asarray(x).dtype if pre is None else np.dtype(np.float32)
        if dt.kind == "f" and dt.itemsize < 8:  # TVM divides in data's dtype
            quotient = quotient.astype(dt).astype(np.float64)
        q = np.round(quotient) + _param(z, ax, v.ndim)
        lo, hi = QRANGE[out]
        return np.clip(q, lo, hi).astype(out)
    return ref


def dequantize_ref(axis=-1, out=F32):
    def ref(x, s, z):
        v = np.asarray(x, np.float64)
        ax = axis % max(v.ndim, 1)
        y = (v - _param(z, ax, v.ndim)) * _param(s, ax, v.ndim)
        if out == F16:
            y = np.clip(y, -65504.0, 65504.0)
        return y.astype(out)
    return ref


def s_(shape, dtype=F32, sig=None):
    return inp("s", shape, dtype, "pos", sig)


def z_(shape, dtype=I8, sig=None):
    return inp("z", shape, dtype, "smallint", sig)


def qdq_cases():
    Q, D = "R.quantize(x, s, z", "R.dequantize(x, s, z"
    c = [
        Case("quantize_per_tensor", Q + ")", [x_((2, 3, 4), kind="wide"), s_(()), z_(())],
             quantize_ref()),
        Case("quantize_per_axis", Q + ", axis=1)", [x_((2, 3, 4), kind="wide"), s_((3,)), z_((3,))],
             quantize_ref(axis=1)),
        Case("quantize_uint8_singleton", Q + ', axis=0, out_dtype="uint8")',
             [x_((5, 2), kind="wide"), s_((1,)), z_((1, 1), U8)], quantize_ref(0, U8)),
        Case("quantize_int16_saturates", Q + ', out_dtype="int16")',
             [x_((3, 4), kind="huge"), inp("s", (4,), F32, "nonzero"), z_((4,), I32)],
             quantize_ref(-1, I16)),
        Case("quantize_uint16_f16", Q + ', axis=-2, out_dtype="uint16")',
             [x_((3, 2), F16, "wide"), s_((3,), F16), z_((), F16)], quantize_ref(-2, U16)),
        # data on halves: round half to even
        Case("quantize_ties", 'R.quantize(lv, R.const(1.0, "float32"), z)',
             [x_((4, 6), kind="smallint"), z_(())],
             lambda x, z: quantize_ref(pre=lambda v: v * 0.5)(x, np.float32(1.0), z),
             pre=['lv = R.multiply(x, R.const(0.5, "float32"))']),
        # x.x5 / 0.1: the float32 quotient is often k.5 where the double one
        # is just below it (0.35f / 0.1f: 3.5 rounds to 4, 3.4999999 to 3)
        Case("quantize_float32_quotient", 'R.quantize(x, R.const(0.1, "float32"), z)',
             [x_((4, 10), kind="halftenths"), z_(())],
             lambda x, z: quantize_ref()(x, np.float32(0.1), z)),
        Case("quantize_scalar_data", Q + ")", [x_(()), s_(()), z_((1,))], quantize_ref()),
        Case("quantize_sym", Q + ", axis=1)",
             [x_((5, 4), kind="wide", sig=("n", 4)), s_((4,)), z_((4,))], quantize_ref(axis=1),
             upper={"n": 8}),
        Case("dequantize_per_tensor", D + ")", [x_((2, 3, 4), I8, "anyint"), s_(()), z_(())],
             dequantize_ref()),
        Case("dequantize_per_axis", D + ", axis=0)",
             [x_((3, 5), U8, "anyint"), s_((3,)), z_((3,), U8)], dequantize_ref(0)),
        Case("dequantize_int32_f16", D + ', out_dtype="float16")',
             [x_((2, 4), I32, "anyint"), s_((4,), F16),
              z_((4,), I32)], dequantize_ref(-1, F16)),
        Case("dequantize_float_data", D + ", axis=-1)", [x_((3, 2), F16), s_((2,)), z_((), F16)],
             dequantize_ref(), rtol=1e-5),
        Case("dequantize_sym", D + ", axis=0)",
             [x_((6, 2), I16, "anyint", sig=("n", 2)), s_((6,), sig=("n",)), z_((1,), I16)],
             dequantize_ref(0), upper={"n": 8}),
        Case("dequantize_empty", D + ")", [x_((0, 3), I8, "anyint"), s_((3,)), z_((3,))],
             dequantize_ref()),
    ]
    return c


def qdq_errors():
    Q, D = "R.quantize(x, s, z", "R.dequantize(x, s, z"
    return [
        ErrorCase("quantize_bad_out_dtype", Q + ', out_dtype="float32")', [x_((2, 3)), s_(()), z_(())],
                  ["out_dtype"]),
        ErrorCase("quantize_int_data", Q + ")", [x_((2, 3), I32), s_(()), z_(())], ["data dtype"]),
        ErrorCase("quantize_int_scale", Q + ")", [x_((2, 3)), s_((), I32), z_(())], ["scale dtype"]),
        ErrorCase("quantize_f32_zero_point", Q + ")", [x_((2, 3)), s_(()), z_((), F32)],
                  ["zero_point dtype"]),
        ErrorCase("quantize_axis_range", Q + ", axis=2)", [x_((2, 3)), s_(()), z_(())], ["axis"]),
        ErrorCase("quantize_size_mismatch", Q + ", axis=0)", [x_((2, 3)), s_((3,)), z_(())],
                  ["size mismatch"]),
        ErrorCase("quantize_sym_unproved", Q + ", axis=0)",
                  [x_((2, 3), sig=("n", 3)), s_((2,), sig=("m",)), z_(())], ["size mismatch"]),
        ErrorCase("dequantize_bad_out_dtype", D + ', out_dtype="int8")', [x_((2, 3), I8), s_(()), z_(())],
                  ["out_dtype"]),
        ErrorCase("dequantize_int64_data", D + ")", [x_((2, 3), I64), s_(()), z_(())], ["data dtype"]),
        ErrorCase("dequantize_rank0_per_axis", D + ")", [x_((), I8), s_((3,)), z_(())], ["rank 0"]),
        ErrorCase("dequantize_2d_scale", D + ")", [x_((2, 3), I8), s_((2, 3)), z_(())], ["1-d"]),
    ]


# ---------------------------------------------------------------- image

def _coord(mode, o, n, m, a=0.0, b=0.0):
    """The input coordinate of output position o (TOPI's get_inx; an
    align_corners output of extent 1 maps to 0)."""
    scale = n / m
    if mode == "half_pixel":
        return (o + 0.5) * scale - 0.5
    if mode == "align_corners":
        return (n - 1) / (m - 1) * o if m > 1 else 0.0
    if mode == "asymmetric":
        return scale * o
    if mode == "pytorch_half_pixel":
        return (o + 0.5) * scale - 0.5 if m > 1 else 0.0
    if mode == "tf_half_pixel_for_nn":
        return (o + 0.5) * scale
    return a * (n - 1) + o * (b - a) * (n - 1) / (m - 1) if m > 1 else 0.5 * (a + b) * (n - 1)


def _round(rd, c):
    return {"round": lambda: np.round(c), "round_prefer_floor": lambda: np.ceil(c - 0.5),
            "round_prefer_ceil": lambda: np.floor(c + 0.5), "floor": lambda: np.floor(c + 1e-5),
            "ceil": lambda: np.ceil(c - 1e-5)}[rd]()


def _cubic_w(t, a):
    t2, t3 = t * t, t * t * t
    return [a * (t3 - 2 * t2 + t), (a + 2) * t3 - (3 + a) * t2 + 1,
            -(a + 2) * t3 + (3 + 2 * a) * t2 - a * t, -a * t3 + a * t2]


def _taps(method, rd, c, n, alpha, exclude):
    clamp = lambda i: min(max(i, 0), n - 1)
    if method == "nearest_neighbor":
        return [clamp(int(_round(rd, c)))], [1.0]
    f = np.floor(c)
    i0, t = int(f), c - f
    if method == "linear":
        return [clamp(i0), clamp(i0 + 1)], [1.0 - t, t]
    w = _cubic_w(t, alpha)
    if exclude:
        w = [0.0 if (i0 - 1 + k < 0 or i0 - 1 + k >= n) else w[k] for k in range(4)]
        s = sum(w)
        w = [v / s for v in w]
    return [clamp(i0 - 1 + k) for k in range(4)], w


def resize_ref(size, layout=None, method="linear", mode="half_pixel", rounding=None,
               alpha=-0.75, exclude=0, extrapolation=0.0, roi=None, out_dtype=None):
    """TOPI's resize2d/resize3d in double (image.c's file comment)."""
    nsp = len(size)
    if rounding in (None, ""):
        rounding = "round" if mode == "align_corners" else "floor"
    roi = roi or [0.0] * (2 * nsp)
    starts = roi[:nsp] if nsp == 2 else roi[:3][::-1]
    ends = roi[nsp:] if nsp == 2 else roi[3:][::-1]
    letters = "NCHW" if nsp == 2 else "NCDHW"

    def ref(x):
        perm = [(layout or letters).index(ch) for ch in letters]
        xc = np.transpose(np.asarray(x, np.float64), perm)  # canonical N, C, spatial...
        N, C = xc.shape[:2]
        ins = xc.shape[2:]
        out = np.zeros((N, C) + tuple(size))
        for pos in np.ndindex(*size):
            taps, outside = [], False
            for k in range(nsp):
                c = _coord(mode, pos[k], ins[k], size[k], starts[k], ends[k])
                outside = outside or c < 0 or c > ins[k] - 1
                taps.append(_taps(method, rounding, c, ins[k], alpha, exclude))
            if min(ins) == 0:
                v = np.zeros((N, C))
            else:
                v = 0.0
                for combo in np.ndindex(*[len(t[0]) for t in taps]):
                    idx = tuple(taps[k][0][combo[k]] for k in range(nsp))
                    w = np.prod([taps[k][1][combo[k]] for k in range(nsp)])
                    v = v + xc[(slice(None), slice(None)) + idx] * w
            if mode == "tf_crop_and_resize" and outside:
                v = np.full((N, C), extrapolation)
            out[(slice(None), slice(None)) + pos] = v
        inv = np.argsort(perm)
        return np.transpose(out, inv).astype(out_dtype or x.dtype)
    return ref


def resize2d_cases():
    def rc(name, xs, size, text="", dtype=F32, kind="normal", sig=None, upper=None, atol=1e-5, **kw):
        call = f"R.image.resize2d(x, R.shape({list(size)}){', ' + text if text else ''})"
        return Case(name, call, [x_(xs, dtype, kind, sig)], resize_ref(size, **kw), atol=atol,
                    upper=upper)
    return [
        rc("resize2d_linear_up", (1, 2, 3, 4), (5, 7)),
        rc("resize2d_linear_down_align", (2, 1, 6, 5), (3, 4),
           'coordinate_transformation_mode="align_corners"', mode="align_corners"),
        rc("resize2d_nearest_asym", (1, 3, 4, 4), (8, 6),
           'method="nearest_neighbor", coordinate_transformation_mode="asymmetric", '
           'rounding_method="floor"', method="nearest_neighbor", mode="asymmetric", rounding="floor"),
        rc("resize2d_nearest_round_nhwc", (1, 5, 3, 2), (7, 2),
           'layout="NHWC", method="nearest_neighbor", rounding_method="round"',
           layout="NHWC", method="nearest_neighbor", rounding="round"),
        rc("resize2d_nearest_tf", (2, 2, 3, 3), (4, 5),
           'method="nearest_neighbor", coordinate_transformation_mode="tf_half_pixel_for_nn", '
           'rounding_method="round_prefer_ceil"', method="nearest_neighbor",
           mode="tf_half_pixel_for_nn", rounding="round_prefer_ceil"),
        rc("resize2d_cubic", (1, 2, 4, 5), (6, 3), 'method="cubic", cubic_alpha=-0.5',
           method="cubic", alpha=-0.5),
        rc("resize2d_cubic_exclude_pytorch", (1, 1, 5, 4), (3, 1),
           'method="cubic", coordinate_transformation_mode="pytorch_half_pixel", cubic_exclude=1',
           method="cubic", mode="pytorch_half_pixel", exclude=1),
        rc("resize2d_crop", (1, 2, 4, 4), (3, 5),
           'roi=[0.1, -0.2, 0.8, 1.1], coordinate_transformation_mode="tf_crop_and_resize", '
           'extrapolation_value=-1.5', mode="tf_crop_and_resize", roi=[0.1, -0.2, 0.8, 1.1],
           extrapolation=-1.5),
        rc("resize2d_f16", (1, 2, 3, 3), (4, 4), dtype=F16, atol=2e-3),
        rc("resize2d_int8_out_f32", (1, 2, 3, 3), (5, 2), 'out_dtype="float32"', dtype="int8",
           kind="smallint", out_dtype=F32),
        rc("resize2d_sym", (2, 3, 4, 4), (6, 2), sig=("n", 3, 4, 4), upper={"n": 4}),
        rc("resize2d_empty", (1, 2, 0, 3), (2, 2)),
    ]


def resize3d_cases():
    def rc(name, xs, size, text="", **kw):
        call = f"R.image.resize3d(x, R.shape({list(size)}){', ' + text if text else ''})"
        return Case(name, call, [x_(xs)], resize_ref(size, **kw), atol=1e-5)
    return [
        rc("resize3d_linear", (1, 2, 2, 3, 4), (3, 2, 5)),
        rc("resize3d_nearest_ndhwc", (1, 3, 2, 4, 2), (2, 5, 3),
           'layout="NDHWC", method="nearest_neighbor"', layout="NDHWC", method="nearest_neighbor"),
        rc("resize3d_cubic_exclude", (1, 1, 3, 3, 4), (2, 4, 3),
           'method="cubic", cubic_exclude=1, coordinate_transformation_mode="align_corners"',
           method="cubic", exclude=1, mode="align_corners"),
        rc("resize3d_crop", (1, 1, 3, 4, 3), (2, 3, 4),
           'roi=[0.0, 0.1, -0.1, 1.2, 0.9, 0.8], coordinate_transformation_mode="tf_crop_and_resize"',
           mode="tf_crop_and_resize", roi=[0.0, 0.1, -0.1, 1.2, 0.9, 0.8]),
    ]


def resize_errors():
    return [
        ErrorCase("resize2d_bad_method", 'R.image.resize2d(x, R.shape([2, 2]), method="area")',
                  [x_((1, 1, 3, 3))], ["method"]),
        ErrorCase("resize2d_bad_mode",
                  'R.image.resize2d(x, R.shape([2, 2]), coordinate_transformation_mode="bogus")',
                  [x_((1, 1, 3, 3))], ["coordinate_transformation_mode"]),
        ErrorCase("resize2d_bad_layout", 'R.image.resize2d(x, R.shape([2, 2]), layout="NCHW4c")',
                  [x_((1, 1, 3, 3))], ["layout"]),
        ErrorCase("resize2d_rank", "R.image.resize2d(x, R.shape([2, 2]))", [x_((1, 3, 3))], ["dims"]),
        ErrorCase("resize2d_size_len", "R.image.resize2d(x, R.shape([2, 2, 2]))", [x_((1, 1, 3, 3))],
                  ["size"]),
        ErrorCase("resize2d_roi_len", "R.image.resize2d(x, R.shape([2, 2]), roi=[0.0, 1.0])",
                  [x_((1, 1, 3, 3))], ["roi"]),
        ErrorCase("resize3d_bad_rounding",
                  'R.image.resize3d(x, R.shape([2, 2, 2]), method="nearest_neighbor", rounding_method="up")',
                  [x_((1, 1, 3, 3, 3))], ["rounding_method"]),
    ]


def affine_grid_ref(size, align=True):
    def ref(x):
        k = len(size)
        t = np.asarray(x, np.float64)
        out = np.zeros((t.shape[0], k) + tuple(size))
        for pos in np.ndindex(*size):
            v = t[:, :, k].copy()
            for r in range(k):
                s = size[r]
                start, step = (-1.0, (2.0 - 1e-7) / (s - 1)) if align else (-1.0 + 1.0 / s, 2.0 / s)
                v = v + t[:, :, k - 1 - r] * (start + pos[r] * step)
            out[(slice(None), slice(None)) + pos] = v
        return out.astype(x.dtype)
    return ref


def affine_grid_cases():
    def ag(name, xs, size, text="", dtype=F32, atol=1e-5, sig=None, upper=None, align=True):
        call = f"R.image.affine_grid(x, R.shape({list(size)}){', ' + text if text else ''})"
        return Case(name, call, [x_(xs, dtype, sig=sig)], affine_grid_ref(size, align), atol=atol,
                    upper=upper)
    return [
        ag("affine_grid_2d", (2, 2, 3), (4, 5)),
        ag("affine_grid_2d_unaligned", (1, 2, 3), (3, 1), "align_corners=False", align=False),
        ag("affine_grid_3d", (2, 3, 4), (2, 3, 4)),
        ag("affine_grid_f16", (1, 2, 3), (3, 3), dtype=F16, atol=2e-3),
        ag("affine_grid_sym", (3, 2, 3), (2, 4), sig=("n", 2, 3), upper={"n": 4}),
    ]


def affine_grid_errors():
    return [
        ErrorCase("affine_grid_theta_shape", "R.image.affine_grid(x, R.shape([4, 4]))", [x_((1, 3, 4))],
                  ["shape"]),
        ErrorCase("affine_grid_rank", "R.image.affine_grid(x, R.shape([4, 4]))", [x_((2, 3))], ["3-D"]),
        ErrorCase("affine_grid_size", "R.image.affine_grid(x, R.shape([4]))", [x_((1, 2, 3))], ["size"]),
        ErrorCase("affine_grid_align_one", "R.image.affine_grid(x, R.shape([1, 4]))", [x_((1, 2, 3))],
                  ["greater than 1"]),
    ]


def grid_sample_ref(method="bilinear", padding="zeros", align=False):
    """TOPI's grid_sample (image.c's comment), in double."""
    def unnorm(v, size):
        return (v + 1) * (size - 1) / 2 if align else -0.5 + (v + 1) * size / 2

    def clip(v, size):
        return min(max(v, 0.0), size - 1)

    def reflect(v, size):
        span, corner = (size - 1, 0.0) if align else (size, -0.5)
        if corner <= v <= span + corner:
            return v
        if span <= 0:
            return corner
        dist = abs(corner - v)
        times = np.floor(np.floor(dist) / span)
        extra = dist - times * span
        return extra + corner if times % 2 == 0 else span - extra + corner

    def source(v, size):
        if padding == "reflection":
            return clip(reflect(v, size), size)
        return clip(v, size) if padding == "border" else v

    def tap(i, size):
        if padding == "reflection":
            return np.trunc(clip(reflect(i, size), size))
        return np.trunc(clip(i, size)) if padding == "border" else i

    def cubic_w(f):
        A = -0.75
        w1 = lambda t: ((A + 2) * t - (A + 3)) * t * t + 1
        w2 = lambda t: ((A * t - 5 * A) * t + 8 * A) * t - 4 * A
        return [w2(f + 1), w1(f), w1(1 - f), w2(2 - f)]

    def ref(x, g):
        xd, gd = np.asarray(x, np.float64), np.asarray(g, np.float64)
        N, C, H, W = xd.shape
        Ho, Wo = gd.shape[2:]
        out = np.zeros((N, C, Ho, Wo))

        def px(n, y, xx):
            h, w = int(y), int(xx)
            return xd[n, :, h, w] if 0 <= h < H and 0 <= w < W else np.zeros(C)
        for n, i, j in np.ndindex(N, Ho, Wo):
            y, xx = unnorm(gd[n, 1, i, j], H), unnorm(gd[n, 0, i, j], W)
            if method == "nearest":
                v = px(n, np.round(source(y, H)), np.round(source(xx, W)))
            elif method == "bilinear":
                y, xx = source(y, H), source(xx, W)
                y0, x0 = np.floor(y), np.floor(xx)
                dy, dx = y - y0, xx - x0
                v = (px(n, y0, x0) * (1 - dy) * (1 - dx) + px(n, y0, x0 + 1) * (1 - dy) * dx
                     + px(n, y0 + 1, x0) * dy * (1 - dx) + px(n, y0 + 1, x0 + 1) * dy * dx)
            else:
                yf, xf = np.floor(y), np.floor(xx)
                wy, wx = cubic_w(y - yf), cubic_w(xx - xf)
                v = 0.0
                for r in range(4):
                    yi = tap(yf - 1 + r, H)
                    col = sum(px(n, yi, tap(xf - 1 + k, W)) * wx[k] for k in range(4))
                    v = v + col * wy[r]
            out[n, :, i, j] = v
        return out.astype(x.dtype)
    ref.helpers = {"unnorm": unnorm, "source": source}
    return ref


def grid_sample_cases():
    def gs(name, xs, gsz, text="", dtype=F32, atol=1e-5, sig=None, gsig=None, upper=None, **kw):
        call = f"R.image.grid_sample(x, g{', ' + text if text else ''})"
        return Case(name, call, [x_(xs, dtype, sig=sig), inp("g", (xs[0], 2) + gsz, dtype, sig=gsig)],
                    grid_sample_ref(**kw), atol=atol, upper=upper)
    return [
        gs("grid_sample_bilinear_zeros", (2, 3, 4, 5), (3, 4)),
        gs("grid_sample_bilinear_border_align", (1, 2, 5, 4), (4, 4), 'padding_mode="border", align_corners=True',
           padding="border", align=True),
        gs("grid_sample_bilinear_reflection", (1, 2, 4, 4), (5, 3), 'padding_mode="reflection"',
           padding="reflection"),
        gs("grid_sample_nearest_reflection_align", (2, 1, 3, 5), (4, 4),
           'method="nearest", padding_mode="reflection", align_corners=True', method="nearest",
           padding="reflection", align=True),
        gs("grid_sample_bicubic_zeros", (1, 2, 5, 5), (3, 3), 'method="bicubic"', method="bicubic"),
        gs("grid_sample_bicubic_border", (1, 1, 4, 6), (3, 4), 'method="bicubic", padding_mode="border"',
           method="bicubic", padding="border"),
        gs("grid_sample_bicubic_reflection_align", (1, 1, 4, 4), (3, 3),
           'method="bicubic", padding_mode="reflection", align_corners=True', method="bicubic",
           padding="reflection", align=True),
        gs("grid_sample_f16", (1, 2, 3, 3), (2, 3), dtype=F16, atol=3e-3),
        gs("grid_sample_sym", (2, 2, 4, 4), (3, 3), sig=("n", 2, 4, 4), gsig=("n", 2, 3, 3), upper={"n": 4}),
    ]


CORNERS3 = [(0, 0, 0), (0, 0, 1), (1, 1, 0), (1, 1, 1), (0, 1, 0), (1, 0, 1), (1, 0, 0), (0, 1, 1)]


def grid_sample3_ref(method="bilinear", padding="zeros", align=False):
    """TOPI's 3-D grid_sample: nearest, or trilinear in its order of terms."""
    base = grid_sample_ref(method, padding, align)

    def ref(x, g):
        xd, gd = np.asarray(x, np.float64), np.asarray(g, np.float64)
        N, C = xd.shape[:2]
        sizes = xd.shape[2:]
        outs = gd.shape[2:]
        out = np.zeros((N, C) + outs)
        h = base.helpers

        def px(n, pos):
            idx = [int(v) for v in pos]
            if all(0 <= i < s for i, s in zip(idx, sizes)):
                return xd[(n, slice(None)) + tuple(idx)]
            return np.zeros(C)
        for n in range(N):
            for o in np.ndindex(*outs):
                p = [h["source"](h["unnorm"](gd[(n, 2 - a) + o], sizes[a]), sizes[a]) for a in range(3)]
                if method == "nearest":
                    v = px(n, [np.round(c) for c in p])
                else:
                    f = [np.floor(c) for c in p]
                    d = [c - fl for c, fl in zip(p, f)]
                    v = 0.0
                    for k in CORNERS3:
                        w = [d[a] if k[a] else 1 - d[a] for a in range(3)]
                        v = v + px(n, [f[a] + k[a] for a in range(3)]) * w[2] * w[1] * w[0]
                out[(n, slice(None)) + o] = v
        return out.astype(x.dtype)
    return ref


def grid_sample3_cases():
    def gs(name, xs, gsz, text, **kw):
        call = f'R.image.grid_sample(x, g, layout="NCDHW"{", " + text if text else ""})'
        return Case(name, call, [x_(xs), inp("g", (xs[0], 3) + gsz)], grid_sample3_ref(**kw), atol=1e-5)
    return [
        gs("grid_sample_3d_trilinear", (2, 2, 3, 4, 3), (2, 3, 2), ""),
        gs("grid_sample_3d_nearest_border_align", (1, 2, 3, 3, 4), (2, 2, 3),
           'method="nearest", padding_mode="border", align_corners=True', method="nearest",
           padding="border", align=True),
        gs("grid_sample_3d_reflection", (1, 1, 4, 3, 3), (3, 2, 2), 'padding_mode="reflection"',
           padding="reflection"),
    ]


def grid_sample_errors():
    return [
        ErrorCase("grid_sample_method", 'R.image.grid_sample(x, g, method="area")',
                  [x_((1, 1, 3, 3)), inp("g", (1, 2, 2, 2))], ["method"]),
        ErrorCase("grid_sample_padding", 'R.image.grid_sample(x, g, padding_mode="wrap")',
                  [x_((1, 1, 3, 3)), inp("g", (1, 2, 2, 2))], ["padding_mode"]),
        ErrorCase("grid_sample_grid_shape", "R.image.grid_sample(x, g)",
                  [x_((1, 1, 3, 3)), inp("g", (1, 3, 2, 2))], ["grid"]),
        ErrorCase("grid_sample_3d_bicubic", 'R.image.grid_sample(x, g, method="bicubic", layout="NCDHW")',
                  [x_((1, 1, 3, 3, 3)), inp("g", (1, 3, 2, 2, 2))], ["bicubic"]),
        ErrorCase("grid_sample_3d_grid", 'R.image.grid_sample(x, g, layout="NCDHW")',
                  [x_((1, 1, 3, 3, 3)), inp("g", (1, 2, 2, 2, 2))], ["grid"]),
        ErrorCase("grid_sample_batch", "R.image.grid_sample(x, g)",
                  [x_((2, 1, 3, 3)), inp("g", (1, 2, 2, 2))], ["batch"]),
    ]


# ---------------------------------------------------------------- vision

def _bilinear(img, y, x):
    """TOPI's roi_align sample of one channel image (H, W)."""
    H, W = img.shape
    if y < -1.0 or x < -1.0 or y > H or x > W:
        return 0.0
    y, x = min(max(y, 0.0), H - 1), min(max(x, 0.0), W - 1)
    yl, xl = int(np.floor(y)), int(np.floor(x))
    wy, wx = [1.0 - (y - yl), y - yl], [1.0 - (x - xl), x - xl]
    v = 0.0
    for i in range(2):
        for j in range(2):
            yp, xp = yl + j, xl + i
            if 0 <= yp <= H - 1 and 0 <= xp <= W - 1:
                v += wx[i] * wy[j] * img[yp, xp]
    return v


def roi_align_ref(pooled, scale, sample_ratio=-1, aligned=False, layout="NCHW", mode="avg",
                  roi_scale=None):
    def ref(x, r):
        rois = np.asarray(r * roi_scale, np.float32).astype(np.float64) if roi_scale is not None else r.astype(np.float64)
        xc = np.asarray(x, np.float64)
        if layout == "NHWC":
            xc = xc.transpose(0, 3, 1, 2)
        C = xc.shape[1]
        out = np.zeros((rois.shape[0], C) + tuple(pooled))
        lowest = -np.inf
        for n, roi in enumerate(rois):
            b = int(np.trunc(roi[0]))
            geo = []
            for a in range(2):
                lo, hi = roi[2 - a] * scale, roi[4 - a] * scale
                size = hi - lo if aligned else max(hi - lo, 1.0)
                grid = sample_ratio if sample_ratio > 0 else max(int(np.ceil(size / pooled[a])), 0)
                geo.append((lo, size / pooled[a], grid))
            (ly, by, gy), (lx, bx, gx) = geo
            for c in range(C):
                for ph in range(pooled[0]):
                    for pw in range(pooled[1]):
                        y0, x0 = ly + ph * by, lx + pw * bx
                        acc = lowest if mode == "max" else 0.0
                        for i in range(gy):
                            for j in range(gx):
                                v = _bilinear(xc[b, c], y0 + (i + 0.5) * by / gy, x0 + (j + 0.5) * bx / gx)
                                acc = max(acc, v) if mode == "max" else acc + v / (gy * gx)
                        out[n, c, ph, pw] = acc
        if layout == "NHWC":
            out = out.transpose(0, 2, 3, 1)
        return out.astype(x.dtype)
    return ref


def roi_pool_ref(pooled, scale, roi_scale):
    def ref(x, r):
        rois = np.asarray(r * roi_scale, np.float32).astype(np.float64)
        xc = np.asarray(x, np.float64)
        N, C, H, W = xc.shape
        out = np.zeros((rois.shape[0], C) + tuple(pooled))
        for n, roi in enumerate(rois):
            b = int(np.trunc(roi[0]))
            for ph in range(pooled[0]):
                for pw in range(pooled[1]):
                    lo, hi = [], []
                    for a, p in enumerate((ph, pw)):
                        start = int(np.floor(roi[2 - a] * scale + 0.5))
                        end = int(np.floor(roi[4 - a] * scale + 0.5))
                        size = max(end - start + 1, 1)
                        bn = size / pooled[a]
                        ext = (H, W)[a]
                        lo.append(min(max(int(np.floor(p * bn)) + start, 0), ext))
                        hi.append(min(max(int(np.ceil((p + 1) * bn)) + start, 0), ext))
                    if hi[0] <= lo[0] or hi[1] <= lo[1]:
                        continue
                    out[n, :, ph, pw] = xc[b, :, lo[0]:hi[0], lo[1]:hi[1]].max(axis=(1, 2))
        return out.astype(x.dtype)
    return ref


# rois from r in [0.5, 2): batch index trunc(0.99 r) in {0, 1}, corners up to 2 * k
ROI_K = [0.99, 3.0, 3.0, 3.5, 3.5]


def _rois_pre(k=ROI_K):
    return [f'rois = R.multiply(r, R.const({k}, "float32"))']


def r_(n, sig=None):
    return inp("r", (n, 5), F32, "pos", sig)


def roi_cases():
    k = np.array(ROI_K, np.float32)
    far = np.array([0.99, 5.0, 5.0, 6.0, 6.0], np.float32)  # corners past the image

    def ra(name, xs, n, text, pooled, scale, kk=k, dtype=F32, atol=1e-5, sig=None, upper=None, **kw):
        return Case(name, f"R.vision.roi_align(x, rois, {text})", [x_(xs, dtype), r_(n, sig)],
                    roi_align_ref(pooled, scale, roi_scale=kk, **kw), atol=atol,
                    pre=_rois_pre(list(map(float, kk))), upper=upper)

    def rp(name, xs, n, text, pooled, scale, kk=k, dtype=F32, sig=None, upper=None):
        return Case(name, f"R.vision.roi_pool(x, rois, {text})", [x_(xs, dtype), r_(n, sig)],
                    roi_pool_ref(pooled, scale, kk), pre=_rois_pre(list(map(float, kk))), upper=upper)

    return [
        ra("roi_align_avg", (2, 3, 6, 7), 4, "pooled_size=[2, 3], spatial_scale=1.0", (2, 3), 1.0),
        ra("roi_align_max_sample2", (2, 2, 5, 5), 3,
           'pooled_size=[2, 2], spatial_scale=0.5, sample_ratio=2, mode="max"', (2, 2), 0.5,
           sample_ratio=2, mode="max"),
        ra("roi_align_aligned_outside", (2, 2, 4, 5), 3,
           "pooled_size=[3], spatial_scale=1.0, aligned=True", (3, 3), 1.0, kk=far, aligned=True),
        ra("roi_align_nhwc", (2, 5, 6, 3), 2, 'pooled_size=[2, 2], spatial_scale=1.0, layout="NHWC"',
           (2, 2), 1.0, layout="NHWC"),
        ra("roi_align_f16", (2, 2, 5, 5), 2, "pooled_size=[2, 2], spatial_scale=1.0", (2, 2), 1.0,
           dtype=F16, atol=2e-3),
        ra("roi_align_sym", (2, 2, 5, 5), 3, "pooled_size=[1, 2], spatial_scale=1.0", (1, 2), 1.0,
           sig=("n", 5), upper={"n": 6}),
        rp("roi_pool", (2, 3, 6, 7), 4, "pooled_size=[2, 3], spatial_scale=1.0", (2, 3), 1.0),
        rp("roi_pool_scale_outside", (2, 2, 5, 5), 3, "pooled_size=[3, 2], spatial_scale=0.5",
           (3, 2), 0.5, kk=far),
        rp("roi_pool_fine_bins", (2, 1, 4, 4), 2, "pooled_size=[5, 5], spatial_scale=1.0", (5, 5), 1.0),
        rp("roi_pool_sym", (2, 2, 6, 6), 3, "pooled_size=[2, 2], spatial_scale=1.0", (2, 2), 1.0,
           sig=("n", 5), upper={"n": 6}),
    ]


def multibox_ref(get, clip=False, threshold=0.0, var=(1.0, 1.0, 1.0, 1.0), keep=True):
    def ref(c, l, a):
        c, l, a = (np.asarray(v, np.float64) for v in (c, l, a))
        B, C, N = c.shape
        e = l.reshape(B, N, 4)
        anc = a[0]
        ay, ax = (anc[:, 1] + anc[:, 3]) * 0.5, (anc[:, 0] + anc[:, 2]) * 0.5
        ah, aw = anc[:, 3] - anc[:, 1], anc[:, 2] - anc[:, 0]
        yc, xc = e[..., 1] * var[1] * ah + ay, e[..., 0] * var[0] * aw + ax
        hh, hw = 0.5 * np.exp(e[..., 3] * var[3]) * ah, 0.5 * np.exp(e[..., 2] * var[2]) * aw
        boxes = np.stack([yc - hh, xc - hw, yc + hh, xc + hw], axis=-1)
        if clip:
            boxes = np.clip(boxes, 0.0, 1.0)
        ex = np.exp(c - c.max(axis=1, keepdims=True))
        sc = ex / ex.sum(axis=1, keepdims=True)
        sc = np.where(sc >= threshold, sc, 0.0)
        if not keep:
            sc[:, 0, :] = 0.0
        return (boxes if get == 0 else sc).astype(np.float32)
    return ref


def multibox_cases():
    def mb(name, B, C, N, text, get, sig=None, upper=None, **kw):
        call = "R.vision.multibox_transform_loc(c, l, a" + (", " + text if text else "") + ")"
        ins = [inp("c", (B, C, N), sig=sig and (sig, C, N)), inp("l", (B, 4 * N), sig=sig and (sig, 4 * N)),
               inp("a", (1, N, 4), kind="pos")]
        return Case(name, call, ins, multibox_ref(get, **kw), get=get, upper=upper)
    return [
        mb("multibox_transform_loc_boxes", 2, 3, 5, "", 0),
        mb("multibox_transform_loc_scores", 2, 3, 5, "", 1),
        mb("multibox_transform_loc_clip_var", 1, 4, 3, "clip=True, variances=[0.1, 0.1, 0.2, 0.2]", 0,
           clip=True, var=(0.1, 0.1, 0.2, 0.2)),
        mb("multibox_transform_loc_threshold_bg", 1, 4, 6, "threshold=0.3, keep_background=False", 1,
           threshold=0.3, keep=False),
        mb("multibox_transform_loc_sym", 3, 2, 4, "", 1, sig="n", upper={"n": 4}),
    ]


def all_class_nms_errors():
    call = ('R.vision.all_class_non_max_suppression(b, s, R.const(2, "int64"), '
            'R.const(0.5, "float32"), R.const(0.1, "float32")')
    b, sc = inp("b", (2, 5, 4)), inp("s", (2, 3, 5))
    return [
        ErrorCase("all_class_non_max_suppression_format", call + ', output_format="coco")', [b, sc],
                  ["output_format"]),
        ErrorCase("all_class_non_max_suppression_rank", call + ")", [inp("b", (5, 4)), sc], ["3-D"]),
    ]


def multibox_errors():
    c, l, a = inp("c", (1, 3, 4)), inp("l", (1, 16)), inp("a", (1, 4, 4))
    call = "R.vision.multibox_transform_loc(c, l, a)"
    return [
        ErrorCase("multibox_transform_loc_loc_len", call, [c, inp("l", (1, 12)), a], ["4 * N"]),
        ErrorCase("multibox_transform_loc_anchor", call, [c, l, inp("a", (2, 4, 4))], ["anchor"]),
        ErrorCase("multibox_transform_loc_rank", call, [inp("c", (3, 4)), l, a], ["3-D"]),
        ErrorCase("multibox_transform_loc_dtype", call, [c, inp("l", (1, 16), F16), a], ["dtypes differ"]),
        ErrorCase("multibox_transform_loc_variances", "R.vision.multibox_transform_loc(c, l, a, variances=[1.0])",
                  [c, l, a], ["variances"]),
    ]


def valid_counts_ref(get, th=0.0, id_index=0, score_index=1):
    def ref(x):
        B, N, L = x.shape
        count = np.zeros(B, np.int32)
        out = np.full(x.shape, -1.0, np.float64)
        idx = np.full((B, N), -1, np.int32)
        for i in range(B):
            cur = 0
            for j in range(N):
                ok = float(x[i, j, score_index]) > th and (id_index < 0 or x[i, j, id_index] >= 0)
                if ok:
                    out[i, cur] = x[i, j]
                    idx[i, cur] = j
                    cur += 1
            count[i] = cur
        return [count, out.astype(x.dtype), idx][get]
    return ref


def valid_counts_cases():
    def vc(name, shape, text, get, sig=None, upper=None, dtype=F32, **kw):
        call = "R.vision.get_valid_counts(x" + (", " + text if text else "") + ")"
        return Case(name, call, [x_(shape, dtype, sig=sig)], valid_counts_ref(get, **kw), get=get, upper=upper)
    return [
        vc("get_valid_counts_count", (2, 6, 5), "score_threshold=0.2", 0, th=0.2),
        vc("get_valid_counts_out", (2, 6, 5), "score_threshold=0.2", 1, th=0.2),
        vc("get_valid_counts_indices", (2, 6, 5), "score_threshold=0.2", 2, th=0.2),
        vc("get_valid_counts_no_id", (1, 7, 6), "score_threshold=-0.5, id_index=-1, score_index=4", 1,
           th=-0.5, id_index=-1, score_index=4),
        vc("get_valid_counts_f16", (1, 5, 6), "", 1, dtype=F16),
        vc("get_valid_counts_sym", (3, 4, 6), "", 2, sig=("n", 4, 6), upper={"n": 4}),
        vc("get_valid_counts_empty", (2, 0, 6), "", 0),
    ]


def valid_counts_errors():
    return [
        ErrorCase("get_valid_counts_rank", "R.vision.get_valid_counts(x)", [x_((4, 6))], ["3-D"]),
        ErrorCase("get_valid_counts_score_index", "R.vision.get_valid_counts(x, score_index=6)",
                  [x_((1, 4, 6))], ["score_index"]),
        ErrorCase("get_valid_counts_id_index", "R.vision.get_valid_counts(x, id_index=-2)",
                  [x_((1, 4, 6))], ["id_index"]),
    ]


def roi_errors():
    xs, rs = x_((2, 3, 6, 6)), inp("rois", (4, 5))
    return [
        ErrorCase("roi_align_rank", "R.vision.roi_align(x, rois, pooled_size=[2, 2], spatial_scale=1.0)",
                  [x_((3, 6, 6)), rs], ["4-D"]),
        ErrorCase("roi_align_rois_width", "R.vision.roi_align(x, rois, pooled_size=[2, 2], spatial_scale=1.0)",
                  [xs, inp("rois", (4, 4))], ["num_roi, 5"]),
        ErrorCase("roi_align_mode", 'R.vision.roi_align(x, rois, pooled_size=[2, 2], spatial_scale=1.0, mode="min")',
                  [xs, rs], ["mode"]),
        ErrorCase("roi_align_layout", 'R.vision.roi_align(x, rois, pooled_size=[2, 2], spatial_scale=1.0, layout="HWCN")',
                  [xs, rs], ["layout"]),
        ErrorCase("roi_align_int_rois", "R.vision.roi_align(x, rois, pooled_size=[2, 2], spatial_scale=1.0)",
                  [xs, inp("rois", (4, 5), I32)], ["float"]),
        ErrorCase("roi_pool_nhwc", 'R.vision.roi_pool(x, rois, pooled_size=[2, 2], spatial_scale=1.0, layout="NHWC")',
                  [xs, rs], ["layout"]),
        ErrorCase("roi_pool_pooled_size", "R.vision.roi_pool(x, rois, pooled_size=[0, 2], spatial_scale=1.0)",
                  [xs, rs], ["pooled_size"]),
    ]


def CASES():
    return qdq_cases() + resize2d_cases() + resize3d_cases() + affine_grid_cases() + grid_sample_cases() + grid_sample3_cases() + roi_cases() + valid_counts_cases() + multibox_cases()


def ERROR_CASES():
    return qdq_errors() + resize_errors() + affine_grid_errors() + grid_sample_errors() + roi_errors() + valid_counts_errors() + all_class_nms_errors() + multibox_errors()


def RUN_ERROR_CASES():
    # a roi whose batch index (3 r truncated, r in [0.5, 2)) is past the
    # batch of 2: the generated C refuses it too, before it writes
    rois = ['rois = R.multiply(r, R.const([3.0, 1.0, 1.0, 2.0, 2.0], "float32"))']
    return [RunErrorCase(f"{op}_run_err_batch_index", f"R.vision.{op}(x, rois, pooled_size=[2, 2], "
                         "spatial_scale=1.0)", [x_((2, 2, 5, 5)), r_(3)], {}, ["batch index"], pre=rois)
            for op in ("roi_align", "roi_pool")]
