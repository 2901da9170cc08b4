"""cases_data_dims.py - the operators whose result shape is tensor data:
R.tensor_to_shape (user-written, with R.match_cast), R.dynamic_strided_slice,
R.nonzero and R.unique.  LegalizeOps lowers the last three as TVM lowers
dynamic_strided_slice (op_data_dims, ops/tir_build.c): a kernel computes the dims, a
match_cast binds them, a second kernel writes the result.

Cases returning the op's own result go through every half: the generated
entry sizes such an output at the bound of its dims and writes the actual
dims back (result_dims), which rxc run --via tcc/cc cuts the output to.
The `_c` cases return what a fixed shape holds (the result's shape, a sum
of it), so the values are checked with no cut too.  The run-error cases
give a dim that is data a tir_var_upper_bound and data past it (or
negative): the interpreter and the generated C (also under the
sanitizers) must refuse."""
from cases import *  # noqa: F401,F403
from cases_reduce_sort_linalg import _unique


def v_(name, values, dtype=I64):
    """A 1-D int tensor of the given values."""
    return inp(name, (len(values),), dtype, "vals:" + ",".join(str(v) for v in values))


def nz(x):
    return np.asarray(np.nonzero(np.atleast_1d(x))).astype(np.int64).reshape(max(x.ndim, 1), -1)


def dss_ref(x, b, e, s):
    return x[tuple(slice(int(b[d]), int(e[d]), int(s[d])) for d in range(x.ndim))]


def dss(name, x, b, e, s, **kw):
    return Case(name, "R.dynamic_strided_slice(x, b, e, s)", [x, v_("b", b), v_("e", e), v_("s", s)],
                dss_ref, **kw)


SHAPE_OF = ["lv = {}", "lv1 = R.shape_of(lv)"]


def shape_case(name, call, inputs, ref):
    """The shape of call's result as a tensor: through the compiled halves."""
    pre = [SHAPE_OF[0].format(call), SHAPE_OF[1]]
    return Case(name, "R.shape_to_tensor(lv1)", inputs,
                lambda *a: np.array(np.shape(ref(*a)), np.int64), pre=pre)


def sum_case(name, call, inputs, ref, axis=None, **kw):
    """A sum of call's result (of a fixed shape): through the compiled halves."""
    ax = "" if axis is None else f", axis=[{axis}]"
    def r(*a):
        y = np.asarray(ref(*a))
        out = y.astype(np.float64).sum(axis=axis)
        return np.asarray(out).astype(y.dtype)
    return Case(name, f"R.sum(lv{ax})", inputs, r, pre=[f"lv = {call}"], **kw)


def tensor_to_shape_cases():
    pre = ["lv = R.tensor_to_shape(t)", "lv1 = R.match_cast(lv, R.Shape([k]))", "lv2 = R.ones(lv1, \"float32\")"]
    t = lambda v: inp("t", (1,), I64, f"vals:{v}")
    return [
        # a dim bound from data in the body, the arena planned at its bound
        Case("tensor_to_shape_dim_c", "R.sum(lv2)", [t(5)], lambda t: np.float32(t[0]),
             pre=pre, tvars=["k"], upper={"k": 8}),
        Case("tensor_to_shape_dim_c_zero", "R.sum(lv2)", [t(0)], lambda t: np.float32(0),
             pre=pre, tvars=["k"], upper={"k": 8}),
        Case("tensor_to_shape_dim_c_bound", "R.sum(lv2)", [t(8)], lambda t: np.float32(8),
             pre=pre, tvars=["k"], upper={"k": 8}),
        # the dim then checked against another: equal, so it runs
        Case("tensor_to_shape_dim_c_match", "R.add(lv2, x)",
             [t(3), inp("x", (3,), F32, sig=("n",))], lambda t, x: (1.0 + x).astype(np.float32),
             pre=pre + ["lv3 = R.match_cast(x, R.Tensor((k,), \"float32\"))"], tvars=["k"],
             upper={"k": 8, "n": 8}, at_edges=False),
    ]


def dss_cases():
    x65 = x_((6, 5))
    return [
        dss("dynamic_strided_slice", x65, [1, 0], [5, 5], [2, 1]),
        dss("dynamic_strided_slice_neg_strides", x65, [-1, 4], [-7, 0], [-2, -1]),
        dss("dynamic_strided_slice_clamp", x65, [-9, 2], [99, -1], [3, 1]),
        dss("dynamic_strided_slice_empty", x65, [2, 0], [2, 5], [1, 1]),
        dss("dynamic_strided_slice_3d_i32", x_((4, 3, 5), I32, "smallint"), [0, 2, 1], [4, -4, 5], [1, -1, 2]),
        dss("dynamic_strided_slice_f16", x_((7,), F16), [6], [0], [-3]),
        dss("dynamic_strided_slice_sym", x_((6, 5), sig=("n", 5)), [1, 1], [6, 4], [2, 1],
            upper={"n": 8}, at_edges=False),
        shape_case("dynamic_strided_slice_c_shape", "R.dynamic_strided_slice(x, b, e, s)",
                   [x_((6, 5)), v_("b", [-1, 4]), v_("e", [-7, 0]), v_("s", [-2, -1])], dss_ref),
        sum_case("dynamic_strided_slice_c_sum", "R.dynamic_strided_slice(x, b, e, s)",
                 [x_((6, 5), I32, "smallint"), v_("b", [-1, 4]), v_("e", [-7, 0]), v_("s", [-2, -1])],
                 dss_ref),
        sum_case("dynamic_strided_slice_c_empty", "R.dynamic_strided_slice(x, b, e, s)",
                 [x_((6, 5), I32, "smallint"), v_("b", [3, 0]), v_("e", [1, 5]), v_("s", [1, 1])],
                 dss_ref),
    ]


def nonzero_cases():
    return [
        Case("nonzero_dyn_f32", "R.nonzero(x)", [x_((3, 4), F32, "smallint")], nz),
        Case("nonzero_dyn_f16", "R.nonzero(x)", [x_((5,), F16, "index2")], nz),
        Case("nonzero_dyn_zeros", "R.nonzero(x)", [x_((2, 3), I32, "vals:0")], nz),
        Case("nonzero_dyn_sym", "R.nonzero(x)", [x_((3, 4), I64, "index2", sig=("n", 4))], nz,
             upper={"n": 5}),
        shape_case("nonzero_c_shape", "R.nonzero(x)", [x_((2, 3, 2), BOOL, "bool")], nz),
        shape_case("nonzero_c_shape_zeros", "R.nonzero(x)", [x_((4,), F32, "vals:0")], nz),
        sum_case("nonzero_c_sum", "R.nonzero(x)", [x_((3, 4), I32, "index2")], nz, axis=1),
        sum_case("nonzero_c_sum_sym", "R.nonzero(x)", [x_((3, 4), I32, "index2", sig=("n", 4))], nz,
                 axis=1, upper={"n": 5}),
        sum_case("nonzero_c_scalar", "R.nonzero(x)", [x_((), F32, "vals:3")], nz, axis=1),
    ]


def unique_cases():
    c = []
    x = [x_((10,), I32, "smallint")]
    for sorted_ in (True, False):
        for index in (False, True):
            for inverse in (False, True):
                for counts in (False, True):
                    flags = f"{sorted_}, {index}, {inverse}, {counts}"
                    name = "unique_flags_" + "".join("1" if f else "0" for f in (sorted_, index, inverse, counts))
                    c.append(Case(name, f"R.unique(x, {flags})", x, _unique(sorted_, index, inverse, counts),
                                  tuple_out=index or inverse or counts))
    c.append(Case("unique_dyn_axis0", "R.unique(x, True, True, True, True, 0)", [x_((6, 2), I32, "index2")],
                  _unique(True, True, True, True, 0), tuple_out=True))
    c.append(Case("unique_dyn_axis1_unsorted", "R.unique(x, False, True, False, True, 1)",
                  [x_((2, 7), F32, "index2")], _unique(False, True, False, True, 1), tuple_out=True))
    c.append(Case("unique_dyn_sym", "R.unique(x)", [x_((3, 5), F32, "smallint", sig=(3, "n"))], _unique(),
                  upper={"n": 6}))
    c.append(shape_case("unique_c_shape", "R.unique(x)", [x_((12,), I32, "smallint")], _unique()))
    c.append(sum_case("unique_c_sum", "R.unique(x)", [x_((12,), I64, "smallint")], _unique()))
    c.append(Case("unique_c_counts", "R.sum(lv2)", [x_((4, 3), F32, "index2")],
                  lambda x: np.asarray(_unique(False, True, True, True)(x)[3].sum(), np.int64),
                  pre=["lv = R.unique(x, False, True, True, True)", "lv2 = lv[3]"]))
    c.append(Case("unique_c_inverse", "lv[1]", [x_((4, 3), F32, "smallint")],
                  lambda x: _unique(True, False, True, False)(x)[1],
                  pre=["lv = R.unique(x, True, False, True, False)"]))
    return c


def CASES():
    return tensor_to_shape_cases() + dss_cases() + nonzero_cases() + unique_cases()


def ERROR_CASES():
    return []


def RUN_ERROR_CASES():
    pre = ["lv = R.tensor_to_shape(t)", "lv1 = R.match_cast(lv, R.Shape([k]))", "lv2 = R.ones(lv1, \"float32\")"]
    t = lambda v: inp("t", (1,), I64, f"vals:{v}")
    return [
        RunErrorCase("tensor_to_shape_run_err_bound", "R.sum(lv2)", [t(9)], {}, ["upper bound"],
                     pre=pre, tvars=["k"], upper={"k": 8}),
        RunErrorCase("tensor_to_shape_run_err_negative", "R.sum(lv2)", [t(-1)], {}, ["negative"],
                     pre=pre, tvars=["k"], upper={"k": 8}),
        # a count above the bound the function declares for its var
        RunErrorCase("tensor_to_shape_run_err_count", "R.sum(lv3)", [x_((3, 4), F32, "vals:1")], {},
                     ["upper bound"],
                     pre=["lv = R.nonzero(x)", "lv0 = R.shape_of(lv)", "lv1 = R.shape_to_tensor(lv0)",
                          "lv4 = R.take(lv1, R.const(1, \"int64\"), axis=0)",
                          "lv5 = R.reshape(lv4, R.shape([1]))",
                          "lv6 = R.tensor_to_shape(lv5)", "lv7 = R.match_cast(lv6, R.Shape([k]))",
                          "lv3 = R.ones(lv7, \"float32\")"],
                     tvars=["k"], upper={"k": 8}),
    ]
