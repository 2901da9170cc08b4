"""cases_manip_layout.py - the cases of R.layout_transform (ops/manip_layout.c).

The reference scatters: it evaluates the case's own Python lambda on every
input index (numpy broadcasts the lambda over np.indices) and stores the
input element there, in an output of the extents the case gives, filled
first with the pad value (0 when None, TVM's legalization default).
"""
from cases import *  # noqa: F401,F403


def layout_ref(fn, extents, pad=0):
    """fn: the index map as a Python lambda; extents: the output shape
    from the input's."""
    def ref(x):
        out = np.full(extents(*x.shape), pad, dtype=x.dtype)
        idx = np.indices(x.shape)
        out[tuple(np.asarray(i) for i in fn(*idx))] = x
        return out
    return ref


def call(lam, extra="", wrap=True):
    m = f"T.index_map({lam})" if wrap else lam
    return f"R.layout_transform(x, index_map={m}{extra})"


def ceil(n, c):
    return -(-n // c)


def layout_transform_cases():
    c = []
    t = "lambda i, j: (j, i)"
    c.append(Case("layout_transform_transpose", call(t), [x_((3, 5))],
                  layout_ref(lambda i, j: (j, i), lambda n, m: (m, n))))
    pack = "lambda n, c, h, w: (n, c // 4, h, w, c % 4)"
    pack_fn = lambda n, c, h, w: (n, c // 4, h, w, c % 4)  # noqa: E731
    pack_ext = lambda n, c, h, w: (n, ceil(c, 4), h, w, 4)  # noqa: E731
    c.append(Case("layout_transform_nchw4c", call(pack), [x_((2, 8, 3, 2))],
                  layout_ref(pack_fn, pack_ext)))
    c.append(Case("layout_transform_nchw4c_pad", call(pack), [x_((2, 6, 3, 2))],
                  layout_ref(pack_fn, pack_ext)))
    split = "lambda i, j: (i // 4, j, i % 4)"
    split_fn = lambda i, j: (i // 4, j, i % 4)  # noqa: E731
    split_ext = lambda n, m: (ceil(n, 4), m, 4)  # noqa: E731
    c.append(Case("layout_transform_pad_value", call(split, ", pad_value=2.5"), [x_((10, 3))],
                  layout_ref(split_fn, split_ext, 2.5)))
    c.append(Case("layout_transform_f16", call(split, ", pad_value=-1.5"), [x_((7, 2), F16)],
                  layout_ref(split_fn, split_ext, -1.5)))
    c.append(Case("layout_transform_i32", call("lambda i, j: (j, i // 2, i % 2)", ", pad_value=7"),
                  [x_((5, 3), I32, kind="smallint")],
                  layout_ref(lambda i, j: (j, i // 2, i % 2), lambda n, m: (m, ceil(n, 2), 2), 7)))
    # unpacking (the inverse of nchw4c): a fuse, with index_dtype int32
    c.append(Case("layout_transform_unpack",
                  call("lambda n, c, h, c4: (n, c * 4 + c4, h), index_dtype=\"int32\""),
                  [x_((2, 2, 3, 4))],
                  layout_ref(lambda n, c, h, c4: (n, c * 4 + c4, h), lambda n, c, h, c4: (n, 4 * c, h))))
    # the bare lambda TVMScript also takes; size-1 dims
    c.append(Case("layout_transform_bare_lambda", call("lambda i, j: (j // 2, i, j % 2)", wrap=False),
                  [x_((1, 4))], layout_ref(lambda i, j: (j // 2, i, j % 2), lambda n, m: (ceil(m, 2), n, 2))))
    # i % c alone pads a dim up to c (TVM's AlterOpImpl writes this)
    c.append(Case("layout_transform_mod_pad", call("lambda i: (i % 16,)", ", pad_value=-3.0"), [x_((14,))],
                  layout_ref(lambda i: (i % 16,), lambda n: (16,), -3.0)))
    # a symbolic dim split by 4: padding decided at run time
    c.append(Case("layout_transform_symbolic", call(split, ", pad_value=1.0"), [x_((10, 3), sig=("n", 3))],
                  layout_ref(split_fn, split_ext, 1.0), upper={"n": 12}))
    return c


def CASES():
    return layout_transform_cases()


def ERROR_CASES():
    return [
        ErrorCase("layout_transform_ndim", call("lambda i: (i,)"), [x_((3, 4))], ["dimensions"]),
        ErrorCase("layout_transform_unsupported", call("lambda i, j: (i + j, j)"), [x_((3, 4))],
                  ["not supported"]),
        ErrorCase("layout_transform_not_bijective", call("lambda i, j: (i // 2, j)"), [x_((4, 4))],
                  ["bijective"]),
        ErrorCase("layout_transform_split_mismatch", call("lambda i, j: (i // 2, j, i % 4)"),
                  [x_((4, 4))], ["bijective"]),
        ErrorCase("layout_transform_fuse_dim", call("lambda i, j: (i * 4 + j,)"), [x_((2, 3))],
                  ["scales"]),
        ErrorCase("layout_transform_fuse_symbolic", call("lambda i, j: (i * 4 + j,)"),
                  [x_((2, 4), sig=(2, "m"))], ["scales"]),
        ErrorCase("layout_transform_mod_wraps", call("lambda i: (i % 4,)"), [x_((6,))], ["wraps"]),
        ErrorCase("layout_transform_mod_symbolic", call("lambda i: (i % 4,)"), [x_((3,), sig=("n",))],
                  ["wraps"]),
        ErrorCase("layout_transform_pad_int", call("lambda i: (i // 4, i % 4)", ", pad_value=2.5"),
                  [x_((6,), I32)], ["pad_value"]),
    ]


def RUN_ERROR_CASES():
    return []
