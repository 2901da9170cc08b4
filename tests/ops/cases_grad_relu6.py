"""cases_grad_relu6.py - R.nn.relu6, which the reader takes as TVM's Python
function does, R.clip(x, 0, 6); the R.grad markers of builtin.c (no_grad,
start_checkpoint, end_checkpoint): the value itself, as TVM lowers them, so
a module TVM's Gradient pass left them in still runs and compiles; and what
inference of the R.grad.*_backward ops refuses (they have struct info
only: `rxc list ops`)."""
from cases import *  # noqa: F401,F403


def same(x):
    return x


def twice(x):
    return refs.like(refs.f64(x) * 2.0, x) if x.dtype.kind == "f" else x + x


MARKERS = ["no_grad", "start_checkpoint", "end_checkpoint"]


def relu6(x):
    return np.clip(x, 0, 6).astype(x.dtype)


def CASES():
    c = []
    for name, shape, dt in [("f32", (2, 3, 4), F32), ("i32", (5,), I32), ("f64", (3, 2), F64),
                            ("f16", (4, 3), F16), ("i8", (6,), "int8")]:
        c.append(Case(f"relu6_{name}", "R.nn.relu6(x)", [x_(shape, dt, kind="wide")], relu6))
    c.append(Case("relu6_keyword", "R.nn.relu6(data=x)", [x_((2, 3), kind="wide")], relu6))
    c.append(Case("relu6_symbolic", "R.nn.relu6(x)", [x_((3, 4), sig=("n", 4), kind="wide")], relu6,
                  upper={"n": 6}))
    for op in MARKERS:
        for name, shape, dt in [("f32", (2, 3), F32), ("i64", (4,), I64), ("f16", (3, 2), F16),
                                ("bool", (5,), BOOL), ("scalar", (), F64)]:
            c.append(Case(f"grad_{op}_{name}", f"R.grad.{op}(x)", [x_(shape, dt)], same))
        # between two kernels: the marker's value flows on through the arena
        c.append(Case(f"grad_{op}_between", "R.add(lv1, lv1)", [x_((2, 3, 4))], twice,
                      pre=["lv = R.multiply(x, R.const(1.0, \"float32\"))",
                           f"lv1 = R.grad.{op}(lv)"]))
        c.append(Case(f"grad_{op}_symbolic", f"R.grad.{op}(x)", [x_((3, 4), sig=("n", 4))], same,
                      upper={"n": 6}))
    return c


def ERROR_CASES():
    shape = 'R.shape([2, 3])'
    return [
        ErrorCase("relu6_two_args", "R.nn.relu6(x, x)", [x_((2,))], ["one argument"],
                  names_binding=False),
        ErrorCase("grad_take_backward_shape", f"R.grad.take_backward(x, {shape}, x)",
                  [x_((2, 3))], ["must be a tensor"]),
        ErrorCase("grad_nll_loss_backward_grad_shape",
                  f"R.grad.nll_loss_backward({shape}, x, x)", [x_((2, 3))], ["output_grad"]),
        ErrorCase("grad_no_grad_no_arg", "R.grad.no_grad()", [x_((2,))], ["argument", "x"],
                  names_binding=False),
    ]
