"""cases_stat.py - cases of the statistical, sorting, search, set and
linear-algebra ops added for issue 20: argmin, prod, variance, std,
cumsum, cumprod, median, sort, argsort, topk, bucketize, einsum, outer,
unique, nonzero.  References compute in float64 (numpy) and round once."""
from cases import *  # noqa: F401,F403


def _red(fn, axis=None, keepdims=False):
    """A reduction in float64 for floats (int64 wrapping for ints), cast to x's dtype."""
    ax = None if axis is None else (tuple(axis) if isinstance(axis, (list, tuple)) else axis)

    def run(x):
        z = refs.f64(x) if x.dtype.kind == "f" else x.astype(np.int64)
        return np.asarray(fn(z, axis=ax, keepdims=keepdims)).astype(x.dtype)
    return run


def _spread(fn, axis=None, keepdims=False):
    """variance / std in float64 for every dtype, truncated for ints."""
    ax = None if axis is None else tuple(axis)
    return lambda x: np.asarray(fn(refs.f64(x), axis=ax, keepdims=keepdims)).astype(x.dtype)


def _argmin(axis=None, keepdims=False):
    def run(x):
        if axis is None:
            r = np.argmin(x)
            return np.asarray(r, dtype=np.int64).reshape((1,) * x.ndim if keepdims else ())
        return np.argmin(x, axis=axis, keepdims=keepdims).astype(np.int64)
    return run


def reduce_cases():
    c = []
    c.append(Case("argmin_axis", "R.argmin(x, axis=1)", [x_((3, 4, 2))], _argmin(1)))
    c.append(Case("argmin_none", "R.argmin(x)", [x_((3, 4))], _argmin()))
    c.append(Case("argmin_ties_keep", "R.argmin(x, axis=-1, keepdims=True)",
                  [x_((4, 6), I32, "smallint")], _argmin(-1, True)))
    c.append(Case("argmin_nan", "R.argmin(x, axis=0)", [x_((4,), kind="nan")], _argmin(0)))
    c.append(Case("argmin_f16", "R.argmin(x, axis=0)", [x_((5, 3), F16)], _argmin(0)))
    c.append(Case("argmin_sym", "R.argmin(x, axis=0)", [inp("x", (5, 3), sig=("n", 3))], _argmin(0),
                  upper={"n": 8}))
    c.append(Case("prod_axis", "R.prod(x, axis=[1])", [x_((3, 4), kind="pos")], _red(np.prod, [1])))
    c.append(Case("prod_none", "R.prod(x)", [x_((2, 3), kind="pos")], _red(np.prod)))
    c.append(Case("prod_keep", "R.prod(x, axis=[0, 2], keepdims=True)", [x_((2, 3, 2))],
                  _red(np.prod, [0, 2], True)))
    c.append(Case("prod_i32", "R.prod(x, axis=[0])", [x_((4, 5), I32, "smallint")], _red(np.prod, [0])))
    c.append(Case("prod_i64_wrap", "R.prod(x, axis=[1])", [x_((2, 6), I64, "bigint")], _red(np.prod, [1])))
    c.append(Case("prod_empty", "R.prod(x, axis=[1])", [x_((3, 0))], _red(np.prod, [1])))
    c.append(Case("prod_f16", "R.prod(x, axis=[1])", [x_((3, 4), F16, "pos")], _red(np.prod, [1]),
                  rtol=1e-3, atol=1e-4))
    c.append(Case("prod_sym", "R.prod(x, axis=[1])", [inp("x", (3, 5), sig=(3, "n"), kind="pos")],
                  _red(np.prod, [1]), upper={"n": 8}))
    for op, fn in (("variance", np.var), ("std", np.std)):
        c.append(Case(f"{op}_axis", f"R.{op}(x, axis=[1])", [x_((3, 7))], _spread(fn, [1])))
        c.append(Case(f"{op}_none", f"R.{op}(x)", [x_((4, 5))], _spread(fn)))
        c.append(Case(f"{op}_keep", f"R.{op}(x, axis=[0, -1], keepdims=True)", [x_((2, 3, 4))],
                      _spread(fn, [0, 2], True)))
        c.append(Case(f"{op}_one", f"R.{op}(x, axis=[0])", [x_((1, 3))], _spread(fn, [0])))
        c.append(Case(f"{op}_f16", f"R.{op}(x, axis=[1])", [x_((3, 6), F16)], _spread(fn, [1]),
                      rtol=1e-3, atol=1e-4))
        c.append(Case(f"{op}_i32", f"R.{op}(x, axis=[1])", [x_((3, 6), I32, "smallint")], _spread(fn, [1])))
        c.append(Case(f"{op}_sym", f"R.{op}(x, axis=[0])", [inp("x", (6, 3), sig=("n", 3))],
                      _spread(fn, [0]), upper={"n": 8}))
    return c


def _scan(prod, axis=None, dtype=None, exclusive=False):
    """cumsum / cumprod in float64 (floats) or int64 (ints), cast to the result dtype."""
    def run(x):
        out = np.dtype(dtype or x.dtype)
        z = refs.f64(x) if x.dtype.kind == "f" or out.kind == "f" else x.astype(np.int64)
        if axis is None:
            z, ax = z.ravel(), 0
        else:
            ax = axis
        with np.errstate(over="ignore"):
            r = np.cumprod(z, axis=ax) if prod else np.cumsum(z, axis=ax)
        if exclusive:
            first = np.ones_like(np.take(r, [0], axis=ax)) if prod else np.zeros_like(np.take(r, [0], axis=ax))
            r = np.concatenate([first, np.delete(r, -1, axis=ax)], axis=ax) if r.shape[ax] else r
        return r.astype(out)
    return run


def scan_cases():
    c = []
    for op, prod in (("cumsum", False), ("cumprod", True)):
        kind = "pos" if prod else "normal"
        c.append(Case(f"{op}_axis", f"R.{op}(x, axis=1)", [x_((3, 5, 2), kind=kind)], _scan(prod, 1)))
        c.append(Case(f"{op}_none", f"R.{op}(x)", [x_((3, 4), kind=kind)], _scan(prod)))
        c.append(Case(f"{op}_neg_excl", f"R.{op}(x, axis=-1, exclusive=True)", [x_((2, 6), kind=kind)],
                      _scan(prod, -1, exclusive=True)))
        c.append(Case(f"{op}_i32", f"R.{op}(x, axis=0)", [x_((5, 3), I32, "smallint")], _scan(prod, 0)))
        c.append(Case(f"{op}_dtype", f'R.{op}(x, axis=0, dtype="float32")', [x_((4, 3), I32, "smallint")],
                      _scan(prod, 0, F32)))
        c.append(Case(f"{op}_f16", f"R.{op}(x, axis=1)", [x_((2, 5), F16, kind)], _scan(prod, 1),
                      rtol=1e-3, atol=1e-4))
        c.append(Case(f"{op}_sym", f"R.{op}(x, axis=0)", [inp("x", (5, 3), sig=("n", 3), kind=kind)],
                      _scan(prod, 0), upper={"n": 8}))
        c.append(Case(f"{op}_sym_none", f"R.{op}(x)", [inp("x", (2, 3), sig=("n", 3), kind=kind)],
                      _scan(prod), upper={"n": 8}))
        c.append(Case(f"{op}_empty", f"R.{op}(x, axis=1)", [x_((3, 0))], _scan(prod, 1)))
    return c


def CASES():
    return reduce_cases() + scan_cases()


def ERROR_CASES():
    f = lambda shape, dtype=F32: inp("x", shape, dtype)
    return [
        ErrorCase("argmin_err_axis", "R.argmin(x, axis=2)", [f((2, 3))], ["axis"]),
        ErrorCase("argmin_err_list", "R.argmin(x, axis=[0, 1])", [f((2, 3))], ["axis"]),
        ErrorCase("argmin_err_empty", "R.argmin(x, axis=1)", [f((2, 0))], ["empty"]),
        ErrorCase("prod_err_axis", "R.prod(x, axis=[0, 0])", [f((2, 3))], ["repeated"]),
        ErrorCase("variance_err_empty", "R.variance(x, axis=[0])", [f((0, 3))], ["empty"]),
        ErrorCase("std_err_axis", "R.std(x, axis=[-3])", [f((2, 3))], ["axis"]),
        ErrorCase("cumsum_err_axis", "R.cumsum(x, axis=2)", [f((2, 3))], ["axis"]),
        ErrorCase("cumprod_err_dtype", 'R.cumprod(x, axis=0, dtype="nope")', [f((2, 3))], ["dtype"]),
    ]


def RUN_ERROR_CASES():
    return []
