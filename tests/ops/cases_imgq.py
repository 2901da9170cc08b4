"""cases_imgq.py - cases of the quantization ops (R.quantize,
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
        q = np.round(v / _param(s, ax, v.ndim)) + _param(z, ax, v.ndim)
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


def CASES():
    return qdq_cases()


def ERROR_CASES():
    return qdq_errors()


def RUN_ERROR_CASES():
    return []
