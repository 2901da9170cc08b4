"""cases_reduce_sort_linalg.py - cases of the statistical, sorting, search,
set and linear-algebra ops (ops/reduce.c, sort.c, linalg.c) added for
issue 20: argmin, prod, variance, std, cumsum, cumprod, median, sort,
argsort, topk, bucketize, einsum, outer, unique, nonzero.  References compute in float64 (numpy) and round once."""
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


def _argsort(x, axis=-1, descending=False):
    """Stable: ties keep the lowest index first (descending too)."""
    z = refs.f64(x) if x.dtype.kind == "f" else x.astype(np.int64)
    return np.argsort(-z if descending else z, axis=axis, kind="stable")


def _sort(axis=-1, descending=False):
    return lambda x: np.take_along_axis(x, _argsort(x, axis, descending), axis)


def _argsort_ref(axis=-1, descending=False, dtype=I32):
    return lambda x: _argsort(x, axis, descending).astype(dtype)


def _topk(k, axis=-1, ret="both", largest=True, dtype=I32):
    def run(x):
        idx = _argsort(x, axis, largest)
        n = x.shape[axis]
        idx = np.take(idx, range(k if 0 < k < n else n), axis=axis)
        vals = np.take_along_axis(x, idx, axis)
        both = (vals, idx.astype(dtype))
        return both if ret == "both" else both[0] if ret == "values" else both[1]
    return run


def _median(axis=None, keepdims=False, indices=False):
    """The lower median ((n - 1) // 2 of the stable sort); over one axis
    also its index."""
    def run(x):
        if axis is None or isinstance(axis, list) and len(axis) > 1:
            axes = list(range(x.ndim)) if axis is None else [a % x.ndim for a in axis]
            kept = [d for d in range(x.ndim) if d not in axes]
            z = np.transpose(x, kept + axes).reshape([x.shape[d] for d in kept] + [-1])
            v = _sort(-1)(z)[..., (z.shape[-1] - 1) // 2]
            if keepdims:
                v = v.reshape([1 if d in axes else x.shape[d] for d in range(x.ndim)])
            return np.asarray(v).astype(x.dtype)
        a = axis[0] if isinstance(axis, list) else axis
        idx = _argsort(x, a)
        mid = np.take(idx, [(x.shape[a] - 1) // 2], axis=a)
        v = np.take_along_axis(x, mid, a)
        if not keepdims:
            v, mid = np.squeeze(v, a), np.squeeze(mid, a)
        return (v, mid.astype(np.int64)) if indices else v
    return run


def sort_cases():
    c = []
    c.append(Case("sort_last", "R.sort(x)", [x_((3, 6))], _sort()))
    c.append(Case("sort_axis0_desc", "R.sort(x, axis=0, descending=True)", [x_((5, 3, 2))], _sort(0, True)))
    c.append(Case("sort_i32_ties", "R.sort(x, axis=1)", [x_((3, 8), I32, "smallint")], _sort(1)))
    c.append(Case("sort_nan", "R.sort(x, axis=0)", [x_((4,), kind="nan")], _sort(0)))
    c.append(Case("sort_f16", "R.sort(x, axis=-1, descending=True)", [x_((2, 7), F16)], _sort(-1, True)))
    c.append(Case("sort_sym", "R.sort(x, axis=0)", [inp("x", (6, 3), sig=("n", 3))], _sort(0), upper={"n": 9}))
    c.append(Case("sort_one", "R.sort(x, axis=1)", [x_((3, 1))], _sort(1)))
    c.append(Case("argsort_last", "R.argsort(x)", [x_((3, 6))], _argsort_ref()))
    c.append(Case("argsort_ties", "R.argsort(x, axis=0)", [x_((7, 3), I32, "smallint")], _argsort_ref(0)))
    c.append(Case("argsort_desc_ties", 'R.argsort(x, axis=1, descending=True, dtype="int64")',
                  [x_((3, 9), I64, "smallint")], _argsort_ref(1, True, I64)))
    c.append(Case("argsort_f16", "R.argsort(x, axis=-1)", [x_((4, 5), F16)], _argsort_ref()))
    c.append(Case("argsort_sym", "R.argsort(x, axis=1)", [inp("x", (2, 5), sig=(2, "n"))], _argsort_ref(1),
                  upper={"n": 7}))
    c.append(Case("argsort_empty", "R.argsort(x, axis=0)", [x_((0, 3))], _argsort_ref(0)))
    c.append(Case("topk_both", "R.topk(x, k=2)", [x_((3, 6))], _topk(2), tuple_out=True))
    c.append(Case("topk_values_axis0", 'R.topk(x, k=3, axis=0, ret_type="values")', [x_((5, 4))],
                  _topk(3, 0, "values")))
    c.append(Case("topk_smallest_ties", 'R.topk(x, k=4, axis=1, ret_type="indices", largest=False, dtype="int64")',
                  [x_((3, 8), I32, "smallint")], _topk(4, 1, "indices", False, I64)))
    c.append(Case("topk_largest_ties", 'R.topk(x, k=3, ret_type="indices")',
                  [x_((4, 7), I32, "smallint")], _topk(3, -1, "indices")))
    c.append(Case("topk_all", "R.topk(x, k=0, axis=1)", [x_((2, 5))], _topk(0, 1, "values"), get=0))
    c.append(Case("topk_k_big", "R.topk(x, k=9, axis=1)", [x_((2, 5))], _topk(9, 1, "indices"), get=1))
    c.append(Case("topk_f16", 'R.topk(x, k=2, ret_type="values")', [x_((3, 5), F16)], _topk(2, -1, "values")))
    c.append(Case("topk_sym", 'R.topk(x, k=2, axis=0, ret_type="values")', [inp("x", (6, 3), sig=("n", 3))],
                  _topk(2, 0, "values"), upper={"n": 8}, at_edges=False))
    c.append(Case("median_none", "R.median(x)", [x_((3, 5))], _median()))
    c.append(Case("median_axis", "R.median(x, axis=[1])", [x_((3, 6))], _median([1], indices=True),
                  tuple_out=True))
    c.append(Case("median_axis_keep", "R.median(x, axis=[0], keepdims=True)", [x_((5, 3))],
                  _median([0], True, True), tuple_out=True))
    c.append(Case("median_axes", "R.median(x, axis=[0, 2])", [x_((3, 2, 4))], _median([0, 2])))
    c.append(Case("median_none_keep_i32", "R.median(x, keepdims=True)", [x_((4, 5), I32, "smallint")],
                  _median(None, True)))
    c.append(Case("median_f16", "R.median(x, axis=[1])", [x_((3, 4), F16)], _median([1], indices=True),
                  tuple_out=True))
    c.append(Case("median_sym", "R.median(x, axis=[0])", [inp("x", (7, 3), sig=("n", 3))],
                  _median([0], indices=True), tuple_out=True, upper={"n": 9}))
    return c


def _bucketize(bounds, right=False, dtype=I64):
    def run(x):
        return np.searchsorted(np.asarray(bounds), x, side="right" if right else "left").astype(dtype)
    return run


def _const(bounds, dtype):
    return f'R.const({list(bounds)}, "{dtype}")'


def search_cases():
    """Boundaries are constants (increasing, as TVM requires)."""
    c = []
    bf = [-1.5, -0.25, 0.0, 0.5, 1.25]
    bi = [-2, 0, 1, 3]
    c.append(Case("bucketize", f"R.bucketize(x, {_const(bf, F32)})", [x_((3, 4))], _bucketize(bf)))
    c.append(Case("bucketize_right_i32", f"R.bucketize(x, {_const(bi, I32)}, out_int32=True, right=True)",
                  [x_((4, 5), I32, "smallint")], _bucketize(bi, True, I32)))
    c.append(Case("bucketize_left_ties", f"R.bucketize(x, {_const(bi, I32)})",
                  [x_((4, 5), I32, "smallint")], _bucketize(bi)))
    c.append(Case("bucketize_mixed", f"R.bucketize(x, {_const(bf, F32)}, right=True)",
                  [x_((6,), I64, "smallint")], _bucketize(bf, True)))
    c.append(Case("bucketize_scalar", f"R.bucketize(x, {_const(bf, F32)}, right=True)", [x_(())],
                  _bucketize(bf, True)))
    c.append(Case("bucketize_f16", f"R.bucketize(x, {_const(bf, F16)})", [x_((5,), F16)], _bucketize(bf)))
    c.append(Case("bucketize_sym", f"R.bucketize(x, {_const(bf, F32)})", [inp("x", (4, 2), sig=("n", 2))],
                  _bucketize(bf), upper={"n": 6}))
    return c


def CASES():
    return reduce_cases() + scan_cases() + sort_cases() + search_cases() + linalg_cases() + set_cases()


def ERROR_CASES():
    f = lambda shape, dtype=F32: inp("x", shape, dtype)
    return linalg_error_cases() + [
        ErrorCase("argmin_err_axis", "R.argmin(x, axis=2)", [f((2, 3))], ["axis"]),
        ErrorCase("argmin_err_list", "R.argmin(x, axis=[0, 1])", [f((2, 3))], ["axis"]),
        ErrorCase("argmin_err_empty", "R.argmin(x, axis=1)", [f((2, 0))], ["empty"]),
        ErrorCase("prod_err_axis", "R.prod(x, axis=[0, 0])", [f((2, 3))], ["repeated"]),
        ErrorCase("variance_err_empty", "R.variance(x, axis=[0])", [f((0, 3))], ["empty"]),
        ErrorCase("std_err_axis", "R.std(x, axis=[-3])", [f((2, 3))], ["axis"]),
        ErrorCase("cumsum_err_axis", "R.cumsum(x, axis=2)", [f((2, 3))], ["axis"]),
        ErrorCase("sort_err_axis", "R.sort(x, axis=2)", [f((2, 3))], ["axis"]),
        ErrorCase("argsort_err_dtype", 'R.argsort(x, dtype="float32")', [f((2, 3))], ["dtype"]),
        ErrorCase("topk_err_ret", 'R.topk(x, k=1, ret_type="all")', [f((2, 3))], ["ret_type"]),
        ErrorCase("topk_err_scalar", "R.topk(x, k=1)", [f(())], ["axis"]),
        ErrorCase("median_err_empty", "R.median(x, axis=[1])", [f((2, 0))], ["empty"]),
        ErrorCase("median_err_repeat", "R.median(x, axis=[1, -1])", [f((2, 3))], ["repeated"]),
        ErrorCase("bucketize_err_rank", "R.bucketize(x, y)", [f((2, 3)), inp("y", (2, 2))], ["1-d"]),
        ErrorCase("unique_err_axis", "R.unique(x, True, False, False, False, 2)", [f((2, 3))], ["axis"]),
        ErrorCase("unique_err_flag", "R.unique(x, y)", [f((2, 3)), inp("y", (1,))], ["prim_value", "argument"]),
        ErrorCase("nonzero_err_arg", "R.nonzero(R.shape([2, 3]))", [f((2, 3))], ["tensor"]),
        ErrorCase("cumprod_err_dtype", 'R.cumprod(x, axis=0, dtype="nope")', [f((2, 3))], ["dtype"]),
    ]


def RUN_ERROR_CASES():
    # topk's struct info takes a symbolic axis dim to be at least k (the
    # result's dim is k): a shorter one is refused, by the interpreter as
    # by the generated C, not answered with the whole dim
    return [RunErrorCase("topk_run_err_k_above_dim", 'R.topk(x, k=4, axis=0, ret_type="values")',
                         [inp("x", (6, 3), sig=("n", 3))], {"x": (3, 3)}, ["k", "topk"],
                         upper={"n": 8})]


def _einsum(sub, dtype=None):
    def run(*xs):
        z = [refs.f64(x) if x.dtype.kind == "f" else x.astype(np.int64) for x in xs]
        return np.asarray(np.einsum(sub, *z)).astype(dtype or xs[0].dtype)
    return run


def linalg_cases():
    c = []
    z_ = lambda shape, dtype=F32, kind="normal": inp("z", shape, dtype, kind)
    c.append(Case("einsum_matmul", 'R.einsum((x, y), subscripts="ij,jk->ik")', [x_((3, 4)), y_((4, 5))],
                  _einsum("ij,jk->ik")))
    c.append(Case("einsum_implicit", 'R.einsum((x, y), "ba,ac")', [x_((3, 4)), y_((4, 2))], _einsum("ba,ac")))
    c.append(Case("einsum_trace", 'R.einsum((x,), "ii")', [x_((4, 4))], _einsum("ii")))
    c.append(Case("einsum_diag", 'R.einsum((x,), "ii->i")', [x_((3, 3))], _einsum("ii->i")))
    c.append(Case("einsum_transpose", 'R.einsum((x,), "ijk->kij")', [x_((2, 3, 4))], _einsum("ijk->kij")))
    c.append(Case("einsum_batch_ellipsis", 'R.einsum((x, y), "...ij,...jk->...ik")',
                  [x_((2, 1, 3, 4)), y_((5, 4, 2))], _einsum("...ij,...jk->...ik")))
    c.append(Case("einsum_ellipsis_implicit", 'R.einsum((x,), "...ij")', [x_((2, 3, 4))], _einsum("...ij")))
    c.append(Case("einsum_three", 'R.einsum((x, y, z), "i,ij,j->")', [x_((3,)), y_((3, 4)), z_((4,))],
                  _einsum("i,ij,j->")))
    c.append(Case("einsum_i32", 'R.einsum((x, y), "ij,ij->i")', [x_((3, 5), I32, "smallint"),
                                                                y_((3, 5), I32, "smallint")], _einsum("ij,ij->i")))
    c.append(Case("einsum_f16", 'R.einsum((x, y), "ij,jk")', [x_((2, 3), F16), y_((3, 2), F16)],
                  _einsum("ij,jk"), rtol=1e-3, atol=1e-3))
    c.append(Case("einsum_sym", 'R.einsum((x, y), "nk,km->nm")', [inp("x", (5, 3), sig=("n", 3)), y_((3, 2))],
                  _einsum("nk,km->nm"), upper={"n": 8}))
    c.append(Case("einsum_empty", 'R.einsum((x, y), "ij,jk->ik")', [x_((2, 0)), y_((0, 3))],
                  _einsum("ij,jk->ik")))
    c.append(Case("outer", "R.outer(x, y)", [x_((3,)), y_((4,))], lambda x, y: refs.like(np.outer(refs.f64(x), refs.f64(y)), x)))
    c.append(Case("outer_i64", "R.outer(x, y)", [x_((5,), I64, "bigint"), y_((2,), I64, "smallint")],
                  lambda x, y: np.outer(x, y)))
    c.append(Case("outer_f16", "R.outer(x, y)", [x_((3,), F16), y_((2,), F16)],
                  lambda x, y: refs.like(np.outer(refs.f64(x), refs.f64(y)), x), rtol=1e-3, atol=1e-4))
    c.append(Case("outer_sym", "R.outer(x, y)", [inp("x", (4,), sig=("n",)), y_((3,))],
                  lambda x, y: refs.like(np.outer(refs.f64(x), refs.f64(y)), x), upper={"n": 6}))
    c.append(Case("outer_one", "R.outer(x, y)", [x_((1,)), y_((1,))],
                  lambda x, y: refs.like(np.outer(refs.f64(x), refs.f64(y)), x)))
    return c


def linalg_error_cases():
    f = lambda name, shape, dtype=F32: inp(name, shape, dtype)
    return [
        ErrorCase("einsum_err_rank", 'R.einsum((x, y), "ij,j->i")', [f("x", (2, 3)), f("y", (3, 2))], ["rank"]),
        ErrorCase("einsum_err_terms", 'R.einsum((x, y), "ij->i")', [f("x", (2, 3)), f("y", (3,))], ["terms"]),
        ErrorCase("einsum_err_dim", 'R.einsum((x, y), "ij,jk->ik")', [f("x", (2, 3)), f("y", (4, 2))], ["dim"]),
        ErrorCase("einsum_err_out", 'R.einsum((x,), "ij->k")', [f("x", (2, 3))], ["no input"]),
        ErrorCase("einsum_err_dtype", 'R.einsum((x, y), "i,i->")', [f("x", (2,)), f("y", (2,), I32)], ["dtype"]),
        ErrorCase("outer_err_rank", "R.outer(x, y)", [f("x", (2, 3)), f("y", (3,))], ["1-d"]),
    ]


def _unique(sorted_=True, index=False, inverse=False, counts=False, axis=None):
    """TVM's numpy_unique: numpy's unique, reordered by first occurrence
    when not sorted."""
    def run(x):
        vals, idx, inv, cnt = np.unique(x, return_index=True, return_inverse=True, return_counts=True,
                                        axis=axis)
        inv = inv.reshape(-1)
        if not sorted_:
            order = np.argsort(idx, kind="stable")
            where = np.empty_like(order)
            where[order] = np.arange(len(order))
            vals, idx, cnt, inv = np.take(vals, order, axis=axis or 0), idx[order], cnt[order], where[inv]
        if x.ndim == 0:
            vals = vals.reshape(1)
        out = [vals.astype(x.dtype)]
        out += [idx.astype(np.int64)] if index else []
        out += [inv.astype(np.int64)] if inverse else []
        out += [cnt.astype(np.int64)] if counts else []
        return out[0] if len(out) == 1 else tuple(out)
    return run


def set_cases():
    """unique and nonzero (their hooks: ops/data_dims.c; more cases,
    every flag of unique, in cases_data_dims.py)."""
    c = []
    c.append(Case("unique_sorted", "R.unique(x)", [x_((3, 5), I32, "smallint")], _unique()))
    c.append(Case("unique_float", "R.unique(x)", [x_((8,), F32, "smallint")], _unique()))
    c.append(Case("unique_unsorted_all", "R.unique(x, False, True, True, True)", [x_((12,), I32, "smallint")],
                  _unique(False, True, True, True), tuple_out=True))
    c.append(Case("unique_sorted_all", "R.unique(x, sorted=True, return_index=True, return_inverse=True, "
                  "return_counts=True)", [x_((2, 6), I64, "smallint")], _unique(True, True, True, True),
                  tuple_out=True))
    c.append(Case("unique_axis", "R.unique(x, True, False, True, True, 0)",
                  [x_((6, 2), I32, "index2")], _unique(True, False, True, True, 0), tuple_out=True))
    c.append(Case("unique_axis1_unsorted", "R.unique(x, sorted=False, axis=1)",
                  [x_((2, 7), I32, "index2")], _unique(False, axis=1)))
    c.append(Case("unique_scalar", "R.unique(x)", [x_((), F32)], _unique()))
    c.append(Case("unique_f16", "R.unique(x, return_counts=True)", [x_((9,), F16, "smallint")],
                  _unique(counts=True), tuple_out=True))
    nz = lambda x: np.asarray(np.nonzero(np.atleast_1d(x))).astype(np.int64).reshape(max(x.ndim, 1), -1)
    c.append(Case("nonzero", "R.nonzero(x)", [x_((3, 4), I32, "index2")], nz))
    c.append(Case("nonzero_bool", "R.nonzero(x)", [x_((2, 3, 2), BOOL, "bool")], nz))
    c.append(Case("nonzero_float", "R.nonzero(x)", [x_((7,), F32, "index2")], nz))
    c.append(Case("nonzero_none", "R.nonzero(x)", [x_((2, 3), F32, "index1")], nz))
    c.append(Case("nonzero_scalar", "R.nonzero(x)", [x_((), I32, "index2")], nz))
    return c
