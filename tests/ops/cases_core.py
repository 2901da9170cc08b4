"""cases_core.py - the cases of ops/core.c (R.size, R.shape_to_tensor,
R.tensor_to_shape, R.inspect.*, R.multinomial_from_uniform), of the
elementwise R.ewise_fma and R.wrap_param, and of R.shape_of,
R.builtin.stop_lift_params and R.memory.ensure_zero_offset (builtin.c).

An inspect op's result is a prim value; a case makes it a tensor as a
model would use it: it binds the value to a symbolic var by R.match_cast
and gives R.arange(k, k + 1), a vector holding k (a var of the field's own
dtype, declared in the block).  R.tensor_to_shape's dims are data: the
code generator reads them where the match_cast binds them (cases_data_dims.py
has the cases with bounds, and the refusals past them).
"""
from cases import *  # noqa: F401,F403


def z_(shape, dtype=F32, kind="normal", sig=None):
    return inp("z", shape, dtype, kind, sig)


def fma_ref(x, y, z):
    if x.dtype.kind == "f":
        return refs.like(refs.f64(x) * refs.f64(y) + refs.f64(z), x)
    with np.errstate(over="ignore"):
        return x * y + z  # numpy wraps, as the kernel does


def ewise_fma_cases():
    c = []
    for name, shape, dt, kind in [("f32", (2, 3, 4), F32, "normal"), ("f64", (5,), F64, "normal"),
                                  ("f16", (3, 4), F16, "normal"), ("i32", (4, 5), I32, "anyint"),
                                  ("i64", (2, 3), I64, "anyint"), ("scalar", (), F32, "normal"),
                                  ("empty", (0, 3), F32, "normal"), ("size1", (1, 1, 3), F32, "normal")]:
        c.append(Case(f"ewise_fma_{name}", "R.ewise_fma(x, y, z)",
                      [x_(shape, dt, kind), y_(shape, dt, kind), z_(shape, dt, kind)], fma_ref,
                      rtol=1e-3 if dt == F16 else 1e-5))
    c.append(Case("ewise_fma_symbolic", "R.ewise_fma(x, y, z)",
                  [x_((3, 4), sig=("n", 4)), y_((3, 4), sig=("n", 4)), z_((3, 4), sig=("n", 4))],
                  fma_ref, upper={"n": 6}))
    return c


def wrap_param_cases():
    c = []
    for name, src, dst, kind in [("f32_f16", F32, F16, "normal"), ("f16_f32", F16, F32, "normal"),
                                 ("i32_f32", I32, F32, "smallint"), ("f32_i32", F32, I32, "wide"),
                                 ("bool_f32", BOOL, F32, "bool")]:
        c.append(Case(f"wrap_param_{name}", f'R.wrap_param(x, dtype="{dst}")', [x_((3, 4), src, kind)],
                      lambda x, dst=dst: refs.astype(x, dst)))
    c.append(Case("wrap_param_default", "R.wrap_param(x)", [x_((2, 5), F16)], lambda x: refs.astype(x, F32)))
    c.append(Case("wrap_param_symbolic", 'R.wrap_param(x, dtype="float16")', [x_((3, 2), sig=("n", 2))],
                  lambda x: refs.astype(x, F16), upper={"n": 5}))
    return c


def identity_cases(op):
    """R.builtin.stop_lift_params and R.memory.ensure_zero_offset: x itself."""
    c = []
    name = op.split(".")[-1]
    for tag, shape, dt, kind in [("f32", (2, 3), F32, "normal"), ("f16", (4,), F16, "normal"),
                                 ("i32", (2, 2, 2), I32, "smallint"), ("bool", (3,), BOOL, "bool")]:
        c.append(Case(f"{name}_{tag}", f"R.{op}(x)", [x_(shape, dt, kind)], lambda x: x))
    c.append(Case(f"{name}_symbolic", f"R.{op}(x)", [x_((3, 4), sig=("n", 4))], lambda x: x,
                  upper={"n": 8}))
    return c


def size_cases():
    c = []
    for tag, shape, dt, kind in [("f32", (2, 3, 4), F32, "normal"), ("scalar", (), F32, "normal"),
                                 ("empty", (0, 5), F32, "normal"), ("f16", (7,), F16, "normal"),
                                 ("bool", (2, 1), BOOL, "bool")]:
        c.append(Case(f"size_{tag}", "R.size(x)", [x_(shape, dt, kind)],
                      lambda x: np.array(x.size, np.int64)))
    c.append(Case("size_symbolic", "R.size(x)", [x_((3, 5), sig=("n", "m"))],
                  lambda x: np.array(x.size, np.int64), upper={"n": 4, "m": 6}))
    return c


def shape_cases():
    """R.shape_to_tensor, of R.shape_of and of an R.shape; R.shape_of has
    no tensor result of its own."""
    dims = lambda x: np.array(x.shape, np.int64)  # noqa: E731
    of = ["lv = R.shape_of(x)"]
    c = [Case("shape_to_tensor_shape_of", "R.shape_to_tensor(lv)", [x_((2, 3, 4))], dims, pre=of),
         Case("shape_to_tensor_scalar", "R.shape_to_tensor(lv)", [x_((), I32, "smallint")], dims, pre=of),
         Case("shape_to_tensor_symbolic", "R.shape_to_tensor(lv)", [x_((3, 2, 5), sig=("n", 2, "m"))],
              dims, upper={"n": 4, "m": 6}, pre=of),
         Case("shape_to_tensor_literal", "R.shape_to_tensor(R.shape([n, 7, 0]))", [x_((3,), sig=("n",))],
              lambda x: np.array([x.shape[0], 7, 0], np.int64), upper={"n": 5}),
         Case("shape_of_empty", "R.shape_to_tensor(lv)", [x_((0, 3), F16)], dims, pre=of)]
    return c


def tensor_to_shape_cases():
    """Data to dims and back (see the top)."""
    pre = ["lv = R.tensor_to_shape(x)", "lv1 = R.match_cast(lv, R.Shape([a, b, c]))"]
    return [Case("tensor_to_shape", "R.shape_to_tensor(lv1)", [x_((3,), I64, "index6")], lambda x: x,
                 pre=pre, tvars=["a", "b", "c"]),
            Case("tensor_to_shape_i32", "R.shape_to_tensor(lv1)", [x_((3,), I32, "index9")],
                 lambda x: x.astype(np.int64), pre=pre, tvars=["a", "b", "c"])]


# the DLPack codes of TVM's runtime: int 0, uint 1, float 2, bfloat 4, bool 6
DL_CODE = {F32: 2, F16: 2, F64: 2, I32: 0, I64: 0, BOOL: 6, "uint8": 1}
DL_BITS = {F32: 32, F16: 16, F64: 64, I32: 32, I64: 64, BOOL: 8, "uint8": 8}


def inspect_case(name, field, x, value, kdtype, axis=None, upper=None):
    """R.inspect.<field>(x[, axis]) bound to k (of dtype kdtype) and
    returned as [k]; value(x) is what it must be."""
    args = "x" if axis is None else f"x, {axis}"
    pre = [f"k = T.{kdtype}()", f"lv = R.inspect.{field}({args})", "lv1 = R.match_cast(lv, R.Prim(value=k))"]
    return Case(name, "R.arange(T.int64(k), T.int64(k) + T.int64(1))", [x], lambda x: np.array([value(x)]),
                pre=pre, upper=upper)


def inspect_cases():
    c = []
    for dt in (F32, F16, I32, BOOL, "uint8"):
        kind = "bool" if dt == BOOL else "smallint" if dt == I32 else "index9" if dt == "uint8" else "normal"
        c.append(inspect_case(f"tensor_dtype_code_{dt}", "tensor_dtype_code", x_((2, 3), dt, kind),
                              lambda x, dt=dt: DL_CODE[dt], "uint8"))
    for dt in (F32, F16, I64, BOOL):
        kind = "bool" if dt == BOOL else "smallint" if dt == I64 else "normal"
        c.append(inspect_case(f"tensor_dtype_bits_{dt}", "tensor_dtype_bits", x_((4,), dt, kind),
                              lambda x, dt=dt: DL_BITS[dt], "uint8"))
    c.append(inspect_case("tensor_dtype_lanes", "tensor_dtype_lanes", x_((2, 2), F16), lambda x: 1, "uint16"))
    c.append(inspect_case("tensor_dtype_lanes_i32", "tensor_dtype_lanes", x_((3,), I32, "smallint"),
                          lambda x: 1, "uint16"))
    for tag, shape in [("3d", (2, 3, 4)), ("scalar", ()), ("1d", (5,))]:
        c.append(inspect_case(f"tensor_ndim_{tag}", "tensor_ndim", x_(shape), lambda x: x.ndim, "int32"))
    c.append(inspect_case("tensor_shape_i", "tensor_shape_i", x_((2, 3, 4)), lambda x: x.shape[1], "int64",
                          axis=1))
    c.append(inspect_case("tensor_shape_i_symbolic", "tensor_shape_i", x_((3, 4), sig=("n", 4)),
                          lambda x: x.shape[0], "int64", axis=0, upper={"n": 7}))
    c.append(inspect_case("tensor_stride_i", "tensor_stride_i", x_((2, 3, 4)), lambda x: 12, "int64", axis=0))
    c.append(inspect_case("tensor_stride_i_last", "tensor_stride_i", x_((2, 3, 4)), lambda x: 1, "int64",
                          axis=2))
    c.append(inspect_case("tensor_stride_i_symbolic", "tensor_stride_i", x_((2, 3, 5), sig=(2, "n", "m")),
                          lambda x: x.shape[1] * x.shape[2], "int64", axis=0, upper={"n": 4, "m": 6}))
    for field in ("tensor_byte_offset", "tensor_elem_offset"):
        c.append(inspect_case(field, field, x_((2, 3)), lambda x: 0, "uint64"))
        c.append(inspect_case(f"{field}_symbolic", field, x_((3,), I32, "smallint", sig=("n",)), lambda x: 0,
                              "uint64", upper={"n": 4}))
    return c


def multinomial(prob, u, idx):
    """The first j with u < prob[r, 0] + ... + prob[r, j] (sums in
    float64), vocab - 1 when there is none; r = idx[i, 0]."""
    out = np.zeros((u.shape[0], 1), np.int64)
    cum = np.cumsum(refs.f64(prob), axis=1)
    for i in range(u.shape[0]):
        hit = np.nonzero(float(u[i, 0]) < cum[int(idx[i, 0])])[0]
        out[i, 0] = hit[0] if hit.size else prob.shape[1] - 1
    return out


def normalized_multinomial(p, u, s):
    """multinomial of softmax(p) and |u|, both rounded to their dtype first."""
    e = np.exp(refs.f64(p) - refs.f64(p).max(axis=1, keepdims=True))
    return multinomial((e / e.sum(axis=1, keepdims=True)).astype(p.dtype), np.abs(u), s)


def p_(shape, dtype=F32, kind="normal", sig=None):
    return inp("p", shape, dtype, kind, sig)


def u_(shape, dtype=F32, kind="unit", sig=None):
    return inp("u", shape, dtype, kind, sig)


def s_(shape, batch, dtype=I64, sig=None):
    return inp("s", shape, dtype, f"index{batch}", sig)


def multinomial_cases():
    norm = ["lp = R.nn.softmax(p, axis=-1)", "lu = R.abs(u)"]
    c = [Case("multinomial_from_uniform", "R.multinomial_from_uniform(lp, lu, s)",
              [p_((3, 6)), u_((5, 1)), s_((5, 1), 3)], normalized_multinomial, pre=norm),
         Case("multinomial_from_uniform_i32", 'R.multinomial_from_uniform(lp, lu, s, dtype="int32")',
              [p_((2, 4)), u_((4, 1)), s_((4, 1), 2, I32)],
              lambda p, u, s: normalized_multinomial(p, u, s).astype(np.int32), pre=norm),
         Case("multinomial_from_uniform_raw", "R.multinomial_from_uniform(p, u, s)",
              [p_((2, 5), kind="pos"), u_((6, 1), kind="pos"), s_((6, 1), 2)], multinomial),
         Case("multinomial_from_uniform_f64", "R.multinomial_from_uniform(p, u, s)",
              [p_((4, 3), F64, "pos"), u_((2, 1), F64, "pos"), s_((2, 1), 4)], multinomial),
         Case("multinomial_from_uniform_f16", "R.multinomial_from_uniform(p, u, s)",
              [p_((2, 4), F16, "pos"), u_((3, 1), F16, "pos"), s_((3, 1), 2)], multinomial),
         Case("multinomial_from_uniform_vocab1", "R.multinomial_from_uniform(p, u, s)",
              [p_((2, 1), kind="pos"), u_((3, 1), kind="pos"), s_((3, 1), 2)], multinomial),
         Case("multinomial_from_uniform_symbolic", "R.multinomial_from_uniform(lp, lu, s)",
              [p_((2, 5), sig=(2, "v")), u_((3, 1), sig=("n", 1)), s_((3, 1), 2, sig=("n", 1))],
              normalized_multinomial, pre=norm, upper={"v": 8, "n": 6})]
    return c


def wrap(fn):
    """fn on ints as numpy computes them: wrapping at the dtype's width."""
    def ref(*a):
        with np.errstate(over="ignore"):
            return fn(*a).astype(a[0].dtype)
    return ref


def integer_wrap_cases():
    """The whole range of int32 and int64: sums, differences, products and
    negations that overflow wrap in the generated C as in the kernels
    (tests/codegen/int_wrap.py runs the same under UBSan)."""
    c = []
    for dt in (I32, I64, "int16", "uint16"):
        for op, fn in (("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply)):
            c.append(Case(f"{op}_wrap_{dt}", f"R.{op}(x, y)", [x_((3, 4), dt, "anyint"), y_((4,), dt, "anyint")],
                          wrap(fn)))
    for dt in (I32, I64):
        c.append(Case(f"negative_wrap_{dt}", "R.negative(x)", [x_((6,), dt, "anyint")], wrap(np.negative)))
        c.append(Case(f"abs_wrap_{dt}", "R.abs(x)", [x_((6,), dt, "anyint")], wrap(np.abs)))
        c.append(Case(f"square_wrap_{dt}", "R.square(x)", [x_((6,), dt, "anyint")], wrap(np.square)))
    return c


def CASES():
    return (integer_wrap_cases() + ewise_fma_cases() + wrap_param_cases() + identity_cases("builtin.stop_lift_params")
            + identity_cases("memory.ensure_zero_offset") + size_cases() + shape_cases()
            + tensor_to_shape_cases() + inspect_cases() + multinomial_cases())


def ERROR_CASES():
    return [
        ErrorCase("ewise_fma_shape", "R.ewise_fma(x, y, z)", [x_((2, 3)), y_((3, 2)), z_((2, 3))], ["same shape"]),
        ErrorCase("ewise_fma_symbolic_shape", "R.ewise_fma(x, y, z)",
                  [x_((2, 3), sig=("n", 3)), y_((2, 3), sig=("m", 3)), z_((2, 3), sig=("n", 3))], ["same shape"]),
        ErrorCase("ewise_fma_rank", "R.ewise_fma(x, y, z)", [x_((2, 3)), y_((2, 3)), z_((3,))], ["dimensions"]),
        ErrorCase("ewise_fma_dtype", "R.ewise_fma(x, y, z)", [x_((2,)), y_((2,), I32), z_((2,))], ["differ"]),
        ErrorCase("ewise_fma_prim", "R.ewise_fma(x, R.prim_value(1.0), x)", [x_((2,))], ["must be a tensor"]),
        ErrorCase("wrap_param_shape", "R.wrap_param(R.shape([2, 3]))", [x_((2,))], ["tensor"]),
        ErrorCase("size_shape", "R.size(R.shape([2, 3]))", [x_((2,))], ["must be a tensor"]),
        ErrorCase("shape_to_tensor_tensor", "R.shape_to_tensor(x)", [x_((2,))], ["must be a shape"]),
        ErrorCase("shape_of_shape", "R.shape_of(R.shape([2]))", [x_((2,))], ["tensor"]),
        ErrorCase("tensor_to_shape_rank", "R.tensor_to_shape(x)", [x_((2, 3), I64)], ["1-d"]),
        ErrorCase("tensor_to_shape_float", "R.tensor_to_shape(x)", [x_((3,))], ["integers"]),
        ErrorCase("stop_lift_params_shape", "R.builtin.stop_lift_params(R.shape([2]))", [x_((2,))], ["tensor"]),
        ErrorCase("tensor_ndim_shape", "R.inspect.tensor_ndim(R.shape([2]))", [x_((2,))], ["must be a tensor"]),
        ErrorCase("tensor_shape_i_axis", "R.inspect.tensor_shape_i(x, 2)", [x_((2, 3))], ["outside"]),
        ErrorCase("tensor_stride_i_negative", "R.inspect.tensor_stride_i(x, -1)", [x_((2, 3))], ["outside"]),
        ErrorCase("tensor_shape_i_axis_kind", "R.inspect.tensor_shape_i(x, x)", [x_((2, 3))], ["prim value"]),
        ErrorCase("multinomial_from_uniform_int_prob", "R.multinomial_from_uniform(p, u, s)",
                  [p_((2, 3), I32), u_((2, 1)), s_((2, 1), 2)], ["float"]),
        ErrorCase("multinomial_from_uniform_float_indices", "R.multinomial_from_uniform(p, u, s)",
                  [p_((2, 3)), u_((2, 1)), inp("s", (2, 1))], ["int"]),
        ErrorCase("multinomial_from_uniform_rank", "R.multinomial_from_uniform(p, u, s)",
                  [p_((2, 3, 1)), u_((2, 1)), s_((2, 1), 2)], ["2-d"]),
        ErrorCase("multinomial_from_uniform_width", "R.multinomial_from_uniform(p, u, s)",
                  [p_((2, 3)), u_((2, 2)), s_((2, 2), 2)], ["(n, 1)"]),
        ErrorCase("multinomial_from_uniform_batch", "R.multinomial_from_uniform(p, u, s)",
                  [p_((2, 3)), u_((2, 1), sig=("n", 1)), s_((2, 1), 2, sig=("m", 1))], ["same batch size"]),
    ]


def RUN_ERROR_CASES():
    # an out-of-range sample index (the last one), refused by the generated
    # C too, before it writes (its check loop)
    return [RunErrorCase("multinomial_from_uniform_run_err_index", "R.multinomial_from_uniform(p, u, s)",
                         [p_((2, 5), kind="pos"), u_((3, 1), kind="pos"), inp("s", (3, 1), I64, "oob2")], {},
                         ["outside"]),
            RunErrorCase("multinomial_from_uniform_run_err_no_vocab", "R.multinomial_from_uniform(p, u, s)",
                         [p_((2, 2), kind="pos", sig=(2, "v")), u_((3, 1), kind="pos"), s_((3, 1), 2)],
                         {"p": (2, 0)}, ["no columns"], upper={"v": 4})]
