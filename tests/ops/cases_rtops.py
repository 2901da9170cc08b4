"""cases_rtops.py - the cases of builtin.c's device and effect ops that have
a meaning in the generated C: R.hint_on_device and R.to_vdevice (the
identity on the one device rxc compiles for; LegalizeOps drops them), and
R.assert_op (the entry returns NAME_ERR_ASSERT where the condition is
false).

An impure op (assert_op) cannot sit in a dataflow block: its cases set
`dataflow = False`, and run_ops.py's module_text then writes the bindings
straight into the function body.
"""
from cases import *  # noqa: F401,F403


def same(x):
    return x


def twice(x):
    return refs.like(refs.f64(x) * 2.0, x) if x.dtype.kind == "f" else x + x


HINT = "R.hint_on_device({}, R.device(dev_type=1, index=0))"
TO = 'R.to_vdevice({}, "llvm")'


def device_cases():
    c = []
    for op, text in [("hint_on_device", HINT), ("to_vdevice", TO)]:
        for name, shape, dt in [("f32", (2, 3), F32), ("i32", (4,), I32), ("f16", (3, 2), F16),
                                ("bool", (5,), BOOL), ("scalar", (), F64), ("empty", (0, 3), F32)]:
            c.append(Case(f"{op}_{name}", text.format("x"), [x_(shape, dt)], same))
        # between two ops, so the value flows through the arena
        c.append(Case(f"{op}_between", "R.add(lv1, lv)", [x_((2, 3, 4))], twice,
                      pre=["lv = R.multiply(x, R.const(1.0, \"float32\"))",
                           f"lv1 = {text.format('lv')}"]))
        c.append(Case(f"{op}_symbolic", text.format("x"), [x_((3, 4), sig=("n", 4))], same,
                      upper={"n": 6}))
    return c


def CASES():
    return device_cases()


def ERROR_CASES():
    return [
        ErrorCase("hint_on_device_no_arg", "R.hint_on_device()", [x_((2,))], ["argument", "data"],
                  names_binding=False),
    ]


def RUN_ERROR_CASES():
    return []
