"""cases_builtin.py - the cases of builtin.c's device and effect ops that have
a meaning in the generated C: R.hint_on_device and R.to_vdevice (the
identity on the one device rxc compiles for; LegalizeOps drops them),
R.assert_op (the entry returns NAME_ERR_ASSERT where the condition is
false) and R.print.

An impure op (assert_op, print) cannot sit in a dataflow block: its cases set
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


def impure(case):
    """case, outside a dataflow block (module doc)."""
    case.dataflow = False
    return case


# a bool tensor of shape (): sum(|x|) compared with 0 (true for >=, false for <)
SUM_ABS = ["lv = R.abs(x)", "lv1 = R.sum(lv)"]


def assert_cases():
    c = []
    for name, shape, dt in [("f32", (2, 3), F32), ("f64", (4,), F64), ("i32", (3, 2), I32)]:
        zero = f'R.const(0, "{dt}")'
        c.append(impure(Case(f"assert_op_tensor_{name}", "R.add(x, x)", [x_(shape, dt)], twice,
                             pre=SUM_ABS + [f"lv2 = R.greater_equal(lv1, {zero})",
                                            '_ = R.assert_op(lv2, lv1, format="sum {} < 0")'])))
    # the condition before the first allocation, then between kernels
    c.append(impure(Case("assert_op_between", "R.add(lv, lv)", [x_((2, 3))],
                         lambda x: refs.like(refs.f64(x) * 4.0, x),
                         pre=['_ = R.assert_op(R.const(True, "bool"))', "lv = R.add(x, x)",
                              '_1 = R.assert_op(R.const(True, "bool"), lv, format="{}")'])))
    c.append(impure(Case("assert_op_prim", "R.add(x, x)", [x_((3, 4), sig=("n", 4))], twice,
                         upper={"n": 6}, tvars=["n"],
                         pre=['_ = R.assert_op(R.prim_value(n <= 6), format="n > 6")'])))
    return c


def abs_twice(x):
    """lv + lv of lv = |x| (logical_not for bool)."""
    if x.dtype == np.bool_:
        return ~x
    return twice(np.abs(x))


def print_cases():
    """R.print compiles (to nothing without NAME_PRINT: `rxc run --via tcc|cc`
    does not define it) and leaves the result alone; tests/agree/print_check.py
    compares the text the hook receives with the interpreter's."""
    c = []
    for name, shape, dt in [("f32", (2, 3), F32), ("i64", (20,), I64), ("f16", (3,), F16),
                            ("bool", (2, 2), BOOL)]:
        c.append(impure(Case(f"print_{name}", "R.add(lv, lv)", [x_(shape, dt)], abs_twice,
                             pre=["lv = R.abs(x)" if dt != BOOL else "lv = R.logical_not(x)",
                                  '_ = R.print(lv, R.str("!"), format="{}:")'])))
    c.append(impure(Case("print_symbolic", "R.add(x, x)", [x_((3, 4), sig=("n", 4))], twice,
                         upper={"n": 6}, tvars=["n"],
                         pre=['_ = R.print(x, R.prim_value(n), R.shape([n, 4]), format="x {} n={}")'])))
    return c


def CASES():
    return device_cases() + assert_cases() + print_cases()


def ERROR_CASES():
    return [
        ErrorCase("hint_on_device_no_arg", "R.hint_on_device()", [x_((2,))], ["argument", "data"],
                  names_binding=False),
        impure(ErrorCase("assert_op_not_bool", "R.assert_op(x)", [x_((2,))], ["bool scalar"])),
        impure(ErrorCase("assert_op_not_scalar", "R.assert_op(x)", [x_((2,), BOOL)], ["bool scalar"])),
    ]


def RUN_ERROR_CASES():
    false = SUM_ABS + ['lv2 = R.less(lv1, R.const(0, "float32"))',
                       '_ = R.assert_op(lv2, lv1, format="sum {} >= 0")']
    return [
        impure(RunErrorCase("assert_op_tensor_false", "R.add(x, x)", [x_((2, 3))], {},
                            ["assertion failed: sum"], pre=false)),
        # after a kernel has written: the entry still refuses, exit 1
        impure(RunErrorCase("assert_op_after_write", "R.add(lv3, lv3)", [x_((2, 3))], {},
                            ["assertion failed"], pre=["lv3 = R.multiply(x, x)"] + false)),
        # n = 5 breaks n < 4 (within the bound 6: the entry's own checks pass)
        impure(RunErrorCase("assert_op_prim_false", "R.add(x, x)", [x_((3, 4), sig=("n", 4))],
                            {"x": (5, 4)}, ["assertion failed: n >= 4"], upper={"n": 6},
                            tvars=["n"],
                            pre=['_ = R.assert_op(R.prim_value(n < 4), format="n >= 4")'])),
    ]
