"""cases_manip_index.py - cases of the index ops (ops/manip_index.c):
gather_elements, gather_nd, scatter_elements, scatter_nd, index_tensor, index_put, slice_scatter;
of ops/manip_extra.c: reverse_sequence, meshgrid, collapse_sum_like, collapse_sum_to,
memory.view, dynamic_strided_slice.  run_ops.py runs every case through the
generated C too, so the calls that have no lowering (a memory.view that
changes the dtype) have only inference cases here; dynamic_strided_slice,
whose shape comes from data, has its run cases in cases_data_dims.py.

The numpy references walk the positions in row-major order, as the
kernels and TVM's topi do, so duplicate indices are checked: the last
update wins, a reduction combines in that order (scatter_elements' "mean"
is TVM's pairwise (old + new) / 2).  A negative index counts from the end.
"""
from cases import *  # noqa: F401,F403


def _resolve(i, n):
    return int(i) + n if i < 0 else int(i)


def gather_elements(x, idx, axis=0):
    axis %= x.ndim
    out = np.empty(idx.shape, x.dtype)
    for o in np.ndindex(*idx.shape):
        xi = list(o)
        xi[axis] = _resolve(idx[o], x.shape[axis])
        out[o] = x[tuple(xi)]
    return out


def gather_nd(x, idx, batch_dims=0):
    b, l = batch_dims, idx.shape[-1]
    shape = idx.shape[:-1] + x.shape[b + l:]
    out = np.empty(shape, x.dtype)
    for o in np.ndindex(*shape):
        lead = o[:idx.ndim - 1]
        xi = list(o[:b]) + [_resolve(idx[lead + (j,)], x.shape[b + j]) for j in range(l)]
        out[o] = x[tuple(xi) + o[idx.ndim - 1:]]
    return out


def _combine(old, new, reduction, dtype):
    if reduction == "update":
        return new
    if np.dtype(dtype).kind == "f" or reduction == "mean":
        a, b = float(old), float(new)
    else:
        a, b = int(old), int(new)
    r = {"add": lambda: a + b, "mul": lambda: a * b, "mean": lambda: (a + b) / 2,
         "max": lambda: max(a, b), "min": lambda: min(a, b)}[reduction]()
    return np.array(r).astype(dtype) if np.dtype(dtype).kind == "f" else np.array(int(r)).astype(dtype)


def scatter_elements(x, idx, upd, axis=0, reduction="update"):
    axis %= x.ndim
    out = x.copy()
    for o in np.ndindex(*idx.shape):
        xi = list(o)
        xi[axis] = _resolve(idx[o], x.shape[axis])
        out[tuple(xi)] = _combine(out[tuple(xi)], upd[o], reduction, x.dtype)
    return out


def scatter_nd(x, idx, upd, reduction="update"):
    k = idx.shape[-1]
    out = x.copy()
    for o in np.ndindex(*upd.shape):
        lead = o[:idx.ndim - 1]
        xi = tuple(_resolve(idx[lead + (j,)], x.shape[j]) for j in range(k)) + o[idx.ndim - 1:]
        out[xi] = _combine(out[xi], upd[o], reduction, x.dtype)
    return out


def index_tensor(x, *idx):
    return x[tuple(np.asarray(i).astype(np.int64) for i in idx)]


def index_put(x, idx, v, accumulate=False):
    idx = [np.asarray(i).astype(np.int64) for i in idx]
    b = np.broadcast_shapes(*[i.shape for i in idx])
    idx = [np.broadcast_to(i, b) for i in idx]
    v = np.broadcast_to(v, b)
    out = x.copy()
    for o in np.ndindex(*b):
        at = tuple(_resolve(i[o], x.shape[d]) for d, i in enumerate(idx))
        out[at] = _combine(out[at], v[o], "add" if accumulate else "update", x.dtype)
    return out


def slice_scatter(x, src, start, end, step, axis):
    out = x.copy()
    sl = [slice(None)] * x.ndim
    sl[axis] = slice(start, end, step)
    out[tuple(sl)] = src
    return out


def reverse_sequence(x, lens, seq_axis=1, batch_axis=0):
    out = x.copy()
    n = x.shape[seq_axis]
    for o in np.ndindex(*x.shape):
        ln, i = int(lens[o[batch_axis]]), o[seq_axis]
        if ln > 1 and i < ln:
            src = list(o)
            src[seq_axis] = (min(ln, n)) - 1 - i
            out[o] = x[tuple(src)]
    return out


def collapse_sum(x, shape):
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape) if d == 1 and x.shape[lead + i] != 1)
    r = np.sum(x.astype(np.float64) if x.dtype.kind == "f" else x.astype(np.int64), axis=axes, keepdims=True)
    return r.reshape(shape).astype(x.dtype)


def view(x, shape, dtype=None, offset=0):
    dt = np.dtype(dtype or x.dtype)
    n = int(np.prod(shape)) * dt.itemsize
    return np.frombuffer(x.tobytes()[offset:offset + n], dt).reshape(shape)


def i_(shape, kind, dtype=I64, sig=None, name="i"):
    return inp(name, shape, dtype, kind, sig)


def u_(shape, dtype=F32, sig=None):
    return inp("u", shape, dtype, "normal", sig)


def gather_cases():
    c = []
    ge = "R.gather_elements"
    c.append(Case("gather_elements_axis0", f"{ge}(x, i)", [x_((4, 3)), i_((2, 3), "index4")],
                  lambda x, i: gather_elements(x, i, 0)))
    c.append(Case("gather_elements_axis1_smaller", f"{ge}(x, i, axis=1)",
                  [x_((3, 5)), i_((2, 4), "index5", I32)], lambda x, i: gather_elements(x, i, 1)))
    c.append(Case("gather_elements_axis_neg_3d", f"{ge}(x, i, axis=-1)",
                  [x_((2, 3, 4), I32, "smallint"), i_((2, 3, 6), "index4")],
                  lambda x, i: gather_elements(x, i, -1)))
    c.append(Case("gather_elements_negative_index", f'{ge}(x, R.const([[-1, 0, -3]], "int64"), axis=0)',
                  [x_((3, 3))], lambda x: gather_elements(x, np.array([[-1, 0, -3]]), 0)))
    c.append(Case("gather_elements_f16", f"{ge}(x, i, axis=1)", [x_((3, 4), F16), i_((3, 2), "index4")],
                  lambda x, i: gather_elements(x, i, 1)))
    c.append(Case("gather_elements_sym", f"{ge}(x, i, axis=1)",
                  [x_((5, 4), sig=("n", 4)), i_((5, 3), "index4", sig=("n", 3))],
                  lambda x, i: gather_elements(x, i, 1), upper={"n": 8}))
    c.append(Case("gather_elements_empty", f"{ge}(x, i, axis=0)", [x_((3, 2)), i_((0, 2), "index3")],
                  lambda x, i: gather_elements(x, i, 0)))
    gn = "R.gather_nd"
    c.append(Case("gather_nd_full", f"{gn}(x, i)", [x_((3, 4)), i_((5, 2), "index3")],
                  lambda x, i: gather_nd(x, i)))
    c.append(Case("gather_nd_slices", f"{gn}(x, i)", [x_((4, 2, 3)), i_((2, 2, 1), "index4")],
                  lambda x, i: gather_nd(x, i)))
    c.append(Case("gather_nd_batch", f"{gn}(x, i, batch_dims=1)", [x_((2, 3, 4)), i_((2, 1), "index3")],
                  lambda x, i: gather_nd(x, i, 1)))
    c.append(Case("gather_nd_batch_full", f"{gn}(x, i, batch_dims=1)",
                  [x_((2, 3, 4), I64, "smallint"), i_((2, 5, 2), "index3")], lambda x, i: gather_nd(x, i, 1)))
    c.append(Case("gather_nd_negative", f'{gn}(x, R.const([[-1, 0], [1, -2]], "int64"))', [x_((2, 3))],
                  lambda x: gather_nd(x, np.array([[-1, 0], [1, -2]]))))
    c.append(Case("gather_nd_f16", f"{gn}(x, i)", [x_((3, 4), F16), i_((2, 1), "index3")],
                  lambda x, i: gather_nd(x, i)))
    c.append(Case("gather_nd_sym", f"{gn}(x, i)", [x_((4, 3), sig=("n", 3)), i_((6, 1), "index4", sig=("m", 1))],
                  lambda x, i: gather_nd(x, i), upper={"n": 8, "m": 8}, at_edges=False))
    return c


def scatter_cases():
    c = []
    se = "R.scatter_elements"
    c.append(Case("scatter_elements_axis0", f"{se}(x, i, u)",
                  [x_((4, 3)), i_((2, 3), "index4"), u_((2, 3))],
                  lambda x, i, u: scatter_elements(x, i, u, 0)))
    # duplicates: row 1 of column 0 is written twice, the second (index
    # order) wins; the reductions combine in the same order
    dup = 'R.const([[1, 0, 2], [1, 2, 2], [0, 2, 1]], "int64")'
    dup_np = np.array([[1, 0, 2], [1, 2, 2], [0, 2, 1]])
    for red in ["update", "add", "mul", "mean", "max", "min"]:
        c.append(Case(f"scatter_elements_dup_{red}", f'{se}(x, {dup}, u, axis=1, reduction="{red}")',
                      [x_((3, 4)), u_((3, 3))],
                      lambda x, u, red=red: scatter_elements(x, dup_np, u, 1, red)))
    c.append(Case("scatter_elements_int_add", f'{se}(x, i, u, axis=-1, reduction="add")',
                  [x_((2, 3, 4), I32, "smallint"), i_((2, 3, 5), "index4", I32),
                   inp("u", (2, 3, 5), I32, "smallint")],
                  lambda x, i, u: scatter_elements(x, i, u, -1, "add")))
    c.append(Case("scatter_elements_negative", f'{se}(x, R.const([[-1], [-3]], "int64"), u)',
                  [x_((3, 2)), u_((2, 1))],
                  lambda x, u: scatter_elements(x, np.array([[-1], [-3]]), u, 0)))
    c.append(Case("scatter_elements_f16_max", f'{se}(x, i, u, axis=0, reduction="max")',
                  [x_((4, 3), F16), i_((5, 3), "index4"), u_((5, 3), F16)],
                  lambda x, i, u: scatter_elements(x, i, u, 0, "max")))
    c.append(Case("scatter_elements_sym", f'{se}(x, i, u, axis=0, reduction="add")',
                  [x_((5, 3), sig=("n", 3)), i_((4, 3), "index5", sig=("m", 3)), u_((4, 3), sig=("m", 3))],
                  lambda x, i, u: scatter_elements(x, i, u, 0, "add"), upper={"n": 8, "m": 8}, at_edges=False))
    sn = "R.scatter_nd"
    c.append(Case("scatter_nd_elements", f"{sn}(x, i, u)", [x_((8,)), i_((4, 1), "index8"), u_((4,))],
                  lambda x, i, u: scatter_nd(x, i, u)))
    c.append(Case("scatter_nd_slices_add", f'{sn}(x, i, u, reduction="add")',
                  [x_((4, 2, 3)), i_((2, 3, 1), "index4"), u_((2, 3, 2, 3))],
                  lambda x, i, u: scatter_nd(x, i, u, "add")))
    sdup = 'R.const([[0, 1], [2, 0], [0, 1], [-1, -1]], "int64")'
    sdup_np = np.array([[0, 1], [2, 0], [0, 1], [-1, -1]])
    for red in ["update", "mul", "min"]:
        c.append(Case(f"scatter_nd_dup_{red}", f'{sn}(x, {sdup}, u, reduction="{red}")',
                      [x_((3, 2)), u_((4,))], lambda x, u, red=red: scatter_nd(x, sdup_np, u, red)))
    c.append(Case("scatter_nd_int_max", f'{sn}(x, i, u, reduction="max")',
                  [x_((3, 4), I64, "smallint"), i_((5, 2), "index3", I32), inp("u", (5,), I64, "smallint")],
                  lambda x, i, u: scatter_nd(x, i, u, "max")))
    c.append(Case("scatter_nd_f16", f"{sn}(x, i, u)", [x_((5, 2), F16), i_((3, 1), "index5"), u_((3, 2), F16)],
                  lambda x, i, u: scatter_nd(x, i, u)))
    c.append(Case("scatter_nd_sym", f"{sn}(x, i, u)",
                  [x_((5, 3), sig=("n", 3)), i_((4, 1), "index5", sig=("m", 1)), u_((4, 3), sig=("m", 3))],
                  lambda x, i, u: scatter_nd(x, i, u), upper={"n": 8, "m": 8}, at_edges=False))
    return c


def put_cases():
    c = []
    it = "R.index_tensor"
    c.append(Case("index_tensor_two", f"{it}(x, (i, j))",
                  [x_((4, 5)), i_((3,), "index4"), i_((3,), "index5", I32, name="j")], index_tensor))
    c.append(Case("index_tensor_bcast_tail", f"{it}(x, (i, j))",
                  [x_((3, 4, 2)), i_((2, 1), "index3"), i_((1, 3), "index4", name="j")], index_tensor))
    c.append(Case("index_tensor_one", f"{it}(x, (i,))", [x_((4, 3), I64, "smallint"), i_((2, 2), "index4")],
                  index_tensor))
    c.append(Case("index_tensor_negative", f'{it}(x, (R.const([-1, 0, -4], "int64"),))', [x_((4, 2))],
                  lambda x: index_tensor(x, np.array([3, 0, 0]))))
    c.append(Case("index_tensor_f16", f"{it}(x, (i,))", [x_((5,), F16), i_((4,), "index5")], index_tensor))
    c.append(Case("index_tensor_sym", f"{it}(x, (i,))", [x_((5, 3), sig=("n", 3)), i_((4,), "index5", sig=("m",))],
                  index_tensor, upper={"n": 8, "m": 8}, at_edges=False))
    ip = "R.index_put"
    dup_i = 'R.const([0, 2, 0, 1, 0], "int64")'
    dup_j = 'R.const([1, 1, 1, 0, -1], "int64")'
    dup_np = [np.array([0, 2, 0, 1, 0]), np.array([1, 1, 1, 0, -1])]
    for acc in [False, True]:
        c.append(Case(f"index_put_dup_acc{int(acc)}", f"{ip}(x, ({dup_i}, {dup_j}), v, accumulate={acc})",
                      [x_((3, 3)), inp("v", (5,))], lambda x, v, acc=acc: index_put(x, dup_np, v, acc)))
    c.append(Case("index_put_scalar_value", f"{ip}(x, (i, j), v)",
                  [x_((3, 4)), i_((2, 1), "index3"), i_((1, 3), "index4", I32, name="j"), inp("v", ())],
                  lambda x, i, j, v: index_put(x, [i, j], v)))
    c.append(Case("index_put_int_acc", f"{ip}(x, (i,), v, accumulate=True)",
                  [x_((5,), I32, "smallint"), i_((7,), "index5"), inp("v", (7,), I32, "smallint")],
                  lambda x, i, v: index_put(x, [i], v, True)))
    c.append(Case("index_put_f16", f"{ip}(x, (i, j), v)",
                  [x_((3, 4), F16), i_((2,), "index3"), i_((2,), "index4", name="j"), inp("v", (2,), F16)],
                  lambda x, i, j, v: index_put(x, [i, j], v)))
    c.append(Case("index_put_sym", f"{ip}(x, (i,), v, accumulate=True)",
                  [x_((6,), sig=("n",)), i_((4,), "index6", sig=("m",)), inp("v", (4,), sig=("m",))],
                  lambda x, i, v: index_put(x, [i], v, True), upper={"n": 8, "m": 8}, at_edges=False))
    ss = "R.slice_scatter"
    c.append(Case("slice_scatter_axis1_step2", f"{ss}(x, y, R.prim_value(1), R.prim_value(6), R.prim_value(2), axis=1)",
                  [x_((2, 7)), y_((2, 3))], lambda x, y: slice_scatter(x, y, 1, 6, 2, 1)))
    c.append(Case("slice_scatter_axis0", f"{ss}(x, y, 0, 2, 1)", [x_((4, 3), I32, "smallint"), y_((2, 3), I32, "smallint")],
                  lambda x, y: slice_scatter(x, y, 0, 2, 1, 0)))
    c.append(Case("slice_scatter_whole", f"{ss}(x, y, 0, 3, 1, axis=-1)", [x_((2, 3)), y_((2, 3))],
                  lambda x, y: slice_scatter(x, y, 0, 3, 1, -1)))
    c.append(Case("slice_scatter_empty", f"{ss}(x, y, 2, 2, 1, axis=0)", [x_((3, 2)), y_((0, 2))],
                  lambda x, y: slice_scatter(x, y, 2, 2, 1, 0)))
    c.append(Case("slice_scatter_f16", f"{ss}(x, y, 1, 4, 3, axis=0)", [x_((5, 2), F16), y_((1, 2), F16)],
                  lambda x, y: slice_scatter(x, y, 1, 4, 3, 0)))
    c.append(Case("slice_scatter_sym", f"{ss}(x, y, 1, 3, 1, axis=1)", [x_((5, 4), sig=("n", 4)), y_((5, 2), sig=("n", 2))],
                  lambda x, y: slice_scatter(x, y, 1, 3, 1, 1), upper={"n": 8}))
    return c


def other_cases():
    c = []
    rs = "R.reverse_sequence"
    c.append(Case("reverse_sequence_default", f"{rs}(x, R.const([0, 1, 3, 4, 9], \"int64\"))", [x_((5, 4))],
                  lambda x: reverse_sequence(x, [0, 1, 3, 4, 9])))
    c.append(Case("reverse_sequence_axes", f"{rs}(x, l, seq_axis=0, batch_axis=1)",
                  [x_((4, 3, 2)), inp("l", (3,), I32, "index6")], lambda x, l: reverse_sequence(x, l, 0, 1)))
    c.append(Case("reverse_sequence_neg_axes", f"{rs}(x, l, seq_axis=-1, batch_axis=-3)",
                  [x_((2, 3, 5), I64, "smallint"), inp("l", (2,), I64, "index7")],
                  lambda x, l: reverse_sequence(x, l, 2, 0)))
    c.append(Case("reverse_sequence_f16", f"{rs}(x, l)", [x_((3, 4), F16), inp("l", (3,), I64, "index5")],
                  lambda x, l: reverse_sequence(x, l)))
    c.append(Case("reverse_sequence_sym", f"{rs}(x, l)",
                  [x_((3, 5), sig=("n", "m")), inp("l", (3,), I64, "index6", sig=("n",))],
                  lambda x, l: reverse_sequence(x, l), upper={"n": 8, "m": 8}))
    mg = "R.meshgrid"
    c.append(Case("meshgrid_ij", f"{mg}((x, y))", [x_((3,)), y_((4,))],
                  lambda x, y: list(np.meshgrid(x, y, indexing="ij")), tuple_out=True))
    c.append(Case("meshgrid_xy", f'{mg}((x, y, z), indexing="xy")', [x_((3,)), y_((2,)), inp("z", (4,))],
                  lambda x, y, z: list(np.meshgrid(x, y, z, indexing="xy")), tuple_out=True))
    c.append(Case("meshgrid_f16_get", f'{mg}((x, y), indexing="xy")', [x_((2,), F16), y_((3,), F16)],
                  lambda x, y: np.meshgrid(x, y, indexing="xy")[1], get=1))
    c.append(Case("meshgrid_sym", f"{mg}((x, y))", [x_((3,), sig=("n",)), y_((2,), sig=("m",))],
                  lambda x, y: list(np.meshgrid(x, y, indexing="ij")), tuple_out=True, upper={"n": 6, "m": 6}))
    c.append(Case("meshgrid_empty", f"{mg}((x, y))", [x_((0,)), y_((2,))],
                  lambda x, y: list(np.meshgrid(x, y, indexing="ij")), tuple_out=True))
    ct, cl = "R.collapse_sum_to", "R.collapse_sum_like"
    c.append(Case("collapse_sum_to_lead", f"{ct}(x, R.shape([3, 1]))", [x_((2, 3, 4))],
                  lambda x: collapse_sum(x, (3, 1)), atol=1e-5))
    c.append(Case("collapse_sum_to_mid", f"{ct}(x, R.shape([2, 1, 4]))", [x_((2, 5, 4), I32, "smallint")],
                  lambda x: collapse_sum(x, (2, 1, 4))))
    c.append(Case("collapse_sum_to_scalar", f"{ct}(x, R.shape([]))", [x_((3, 4))], lambda x: collapse_sum(x, ()),
                  atol=1e-5))
    c.append(Case("collapse_sum_like", f"{cl}(x, y)", [x_((4, 3)), y_((1, 3))], lambda x, y: collapse_sum(x, (1, 3)),
                  atol=1e-5))
    c.append(Case("collapse_sum_like_f16", f"{cl}(x, y)", [x_((6, 5), F16), y_((5,), F16)],
                  lambda x, y: collapse_sum(x, (5,)), rtol=1e-3, atol=1e-3))
    c.append(Case("collapse_sum_to_sym", f"{ct}(x, R.shape([1, m]))", [x_((5, 3), sig=("n", "m"))],
                  lambda x: collapse_sum(x, (1, x.shape[1])), atol=1e-5, upper={"n": 8, "m": 8}))
    c.append(Case("collapse_sum_like_empty", f"{cl}(x, y)", [x_((0, 3)), y_((3,))],
                  lambda x, y: collapse_sum(x, (3,))))
    mv = "R.memory.view"
    c.append(Case("memory_view_reshape", f"{mv}(x, R.shape([3, 2]))", [x_((2, 3))], lambda x: view(x, (3, 2))))
    c.append(Case("memory_view_offset", f"{mv}(x, R.shape([2, 2]), R.tuple(), R.prim_value(8))", [x_((2, 3))],
                  lambda x: view(x, (2, 2), None, 8)))
    c.append(Case("memory_view_same", f"{mv}(x)", [x_((4,), I64, "smallint")], lambda x: view(x, (4,))))
    c.append(Case("memory_view_f16", f"{mv}(x, R.shape([5]), R.dtype(\"float16\"), R.prim_value(2))",
                  [x_((2, 3), F16)], lambda x: view(x, (5,), None, 2)))
    c.append(Case("memory_view_sym", f"{mv}(x, R.shape([n]))", [x_((5, 2), sig=("n", 2))],
                  lambda x: view(x, (x.shape[0],)), upper={"n": 8}))
    return c


def CASES():
    return gather_cases() + scatter_cases() + put_cases() + other_cases()


def ERROR_CASES():
    x23 = x_((2, 3))
    return [
        ErrorCase("gather_elements_err_rank", "R.gather_elements(x, i)", [x23, i_((2,), "index2")], ["rank"]),
        ErrorCase("gather_elements_err_float_indices", "R.gather_elements(x, y)", [x23, y_((2, 3))],
                  ["integer dtype"]),
        ErrorCase("gather_elements_err_axis", "R.gather_elements(x, i, axis=2)", [x23, i_((2, 3), "index2")],
                  ["axis"]),
        ErrorCase("gather_nd_err_int32", "R.gather_nd(x, i)", [x23, i_((2, 1), "index2", I32)], ["int64"]),
        ErrorCase("gather_nd_err_last_dim", "R.gather_nd(x, i)", [x23, i_((2, 3), "index2")], ["exceeds"]),
        ErrorCase("gather_nd_err_batch_dims", "R.gather_nd(x, i, batch_dims=2)", [x23, i_((2, 1), "index2")],
                  ["batch_dims"]),
        ErrorCase("gather_nd_err_batch_mismatch", "R.gather_nd(x, i, batch_dims=1)",
                  [x23, i_((3, 1), "index2")], ["batch dims"]),
        ErrorCase("scatter_elements_err_dtype", "R.scatter_elements(x, i, u)",
                  [x23, i_((2, 3), "index2"), u_((2, 3), F16)], ["dtype"]),
        ErrorCase("scatter_elements_err_shape", "R.scatter_elements(x, i, u)",
                  [x23, i_((2, 3), "index2"), u_((2, 2))], ["indices and updates"]),
        ErrorCase("scatter_elements_err_reduction", 'R.scatter_elements(x, i, u, reduction="sum")',
                  [x23, i_((2, 3), "index2"), u_((2, 3))], ["reduction"]),
        ErrorCase("scatter_nd_err_mean", 'R.scatter_nd(x, i, u, reduction="mean")',
                  [x23, i_((2, 1), "index2"), u_((2, 3))], ["reduction"]),
        ErrorCase("scatter_nd_err_rank", "R.scatter_nd(x, i, u)", [x23, i_((2, 1), "index2"), u_((2,))],
                  ["rank"]),
        ErrorCase("index_tensor_err_float", "R.index_tensor(x, (y,))", [x23, y_((2,))], ["integer dtype"]),
        ErrorCase("index_tensor_err_count", "R.index_tensor(x, (i, i, i))", [x23, i_((2,), "index2")],
                  ["index tensors"]),
        ErrorCase("index_tensor_err_bcast", "R.index_tensor(x, (i, j))",
                  [x23, i_((2,), "index2"), i_((3,), "index2", name="j")], ["broadcast"]),
        ErrorCase("index_put_err_count", "R.index_put(x, (i,), y)", [x23, i_((2,), "index2"), y_((2,))],
                  ["one per dim"]),
        ErrorCase("index_put_err_dtype", "R.index_put(x, (i, i), y)", [x23, i_((2,), "index2"), y_((2,), I32)],
                  ["dtype"]),
        ErrorCase("slice_scatter_err_len", "R.slice_scatter(x, y, 0, 3, 2, axis=1)", [x23, y_((2, 1))],
                  ["slice has"]),
        ErrorCase("slice_scatter_err_step", "R.slice_scatter(x, y, 0, 3, 0, axis=1)", [x23, y_((2, 1))],
                  ["step"]),
        ErrorCase("slice_scatter_err_dim", "R.slice_scatter(x, y, 0, 1, 1, axis=1)", [x23, y_((3, 1))],
                  ["differs"]),
        ErrorCase("reverse_sequence_err_len", "R.reverse_sequence(x, l)", [x23, inp("l", (3,), I64)],
                  ["batch axis"]),
        ErrorCase("reverse_sequence_err_dtype", "R.reverse_sequence(x, l)", [x23, inp("l", (2,))], ["int32"]),
        ErrorCase("reverse_sequence_err_axis", "R.reverse_sequence(x, l, seq_axis=2)", [x23, inp("l", (2,), I64)],
                  ["axis"]),
        ErrorCase("meshgrid_err_rank", "R.meshgrid((x, y))", [x23, y_((2,))], ["1-D"]),
        ErrorCase("meshgrid_err_dtype", "R.meshgrid((x, y))", [x_((2,)), y_((2,), I32)], ["dtype"]),
        ErrorCase("meshgrid_err_indexing", 'R.meshgrid((x,), indexing="ji")', [x_((2,))], ["indexing"]),
        ErrorCase("collapse_sum_to_err_dim", "R.collapse_sum_to(x, R.shape([2, 2]))", [x23], ["collapse"]),
        ErrorCase("collapse_sum_to_err_rank", "R.collapse_sum_to(x, R.shape([1, 2, 3]))", [x23], ["rank"]),
        ErrorCase("collapse_sum_like_err_dim", "R.collapse_sum_like(x, y)", [x23, y_((4,))], ["collapse"]),
        ErrorCase("memory_view_err_bytes", "R.memory.view(x, R.shape([7]))", [x23], ["exceeds"]),
        ErrorCase("memory_view_err_dtype", "R.memory.view(x, R.shape([2]), R.prim_value(1))", [x23], ["dtype"]),
        ErrorCase("dynamic_strided_slice_err_len", "R.dynamic_strided_slice(x, i, i, i)", [x23, i_((3,), "index2")],
                  ["rank"]),
        ErrorCase("dynamic_strided_slice_err_dtype", "R.dynamic_strided_slice(x, i, i, i)",
                  [x23, i_((2,), "index2", I32)], ["int64"]),
        ErrorCase("scatter_nd_err_shape", "R.scatter_nd(x, i, u)", [x23, i_((2, 1), "index2"), u_((2, 4))],
                  ["updates.shape"]),
    ]


def RUN_ERROR_CASES():
    # an index into an empty axis: the interpreter refuses it as out of
    # range; the generated C, which clamps indices, must refuse before
    # clamping into a tensor with no element
    rng = ["out of range"]
    return [
        RunErrorCase("gather_elements_run_err_empty_axis", "R.gather_elements(x, i, axis=0)",
                     [x_((2, 3), sig=("n", 3)), i_((2, 3), "index1")], {"x": (0, 3)}, rng, upper={"n": 4}),
        RunErrorCase("scatter_nd_run_err_empty_axis", "R.scatter_nd(x, i, u)",
                     [x_((3,), sig=("n",)), i_((2, 1), "index1"), u_((2,))], {"x": (0,)}, rng, upper={"n": 4}),
        RunErrorCase("take_run_err_empty_axis", "R.take(x, i, axis=0)",
                     [x_((2, 3), sig=("n", 3)), i_((2,), "index1")], {"x": (0, 3)}, ["axis of size 0"],
                     upper={"n": 4}),
        RunErrorCase("index_put_run_err_empty_axis", "R.index_put(x, (i,), u)",
                     [x_((3,), sig=("n",)), i_((2,), "index1"), u_((2,))], {"x": (0,)}, rng, upper={"n": 4}),
    ] + index_value_run_error_cases()


def index_value_run_error_cases():
    """An index out of range in the data (its last element: a kernel that
    wrote before checking would have written the others): the generated C
    refuses it before it writes anything (rxc run --via checks that the
    outputs are untouched)."""
    rng = ["out of range"]
    return [
        RunErrorCase("take_run_err_index", "R.take(x, i, axis=0)", [x_((5, 3)), i_((4,), "oob5")], {}, rng),
        RunErrorCase("take_run_err_index_neg", "R.take(x, i, axis=1)", [x_((2, 5)), i_((2, 3), "negoob5", I32)],
                     {}, rng),
        RunErrorCase("take_run_err_index_flat", "R.take(x, i)", [x_((2, 3)), i_((4,), "oob6")], {}, rng),
        RunErrorCase("take_run_err_wrap_empty_axis", 'R.take(x, i, axis=0, mode="wrap")',
                     [x_((2, 3), sig=("n", 3)), i_((2,), "index1")], {"x": (0, 3)}, ["axis of size 0"],
                     upper={"n": 4}),
        RunErrorCase("take_run_err_index_sym", "R.take(x, i, axis=0)",
                     [x_((5, 3), sig=("n", 3)), i_((4,), "oob5", sig=("m",))], {}, rng, upper={"n": 8, "m": 8}),
        RunErrorCase("gather_elements_run_err_index", "R.gather_elements(x, i, axis=1)",
                     [x_((3, 5)), i_((2, 4), "oob5", I32)], {}, rng),
        RunErrorCase("gather_nd_run_err_index", "R.gather_nd(x, i)", [x_((4, 3)), i_((2, 1), "negoob4")], {}, rng),
        RunErrorCase("gather_nd_run_err_index_2", "R.gather_nd(x, i)", [x_((4, 3)), i_((2, 2), "oob3")], {}, rng),
        RunErrorCase("scatter_elements_run_err_index", "R.scatter_elements(x, i, u)",
                     [x_((5, 3)), i_((4, 3), "oob5"), u_((4, 3))], {}, rng),
        RunErrorCase("scatter_nd_run_err_index", "R.scatter_nd(x, i, u)",
                     [x_((5, 2)), i_((3, 1), "oob5"), u_((3, 2))], {}, rng),
        RunErrorCase("index_tensor_run_err_index", "R.index_tensor(x, (i,))", [x_((5,)), i_((4,), "oob5")], {}, rng),
        RunErrorCase("index_put_run_err_index", "R.index_put(x, (i,), u)",
                     [x_((5,)), i_((7,), "negoob5"), u_((7,))], {}, rng),
        # a tuple whose first item is computed before the take refuses: that
        # item must not be the caller's output buffer (codegen/gen_outputs.c)
        RunErrorCase("take_run_err_after_output", "(y, z)", [x_((5, 3)), i_((4,), "oob5")], {}, rng,
                     pre=("y = R.exp(x)", "z = R.take(y, i, axis=0)")),
        RunErrorCase("scatter_nd_run_err_after_output", "(y, z)",
                     [x_((5, 2), sig=("n", 2)), i_((3, 1), "oob5"), u_((3, 2))], {}, rng, upper={"n": 8},
                     pre=("y = R.add(x, x)", "z = R.scatter_nd(y, i, u)")),
    ]
