# Hand-written loops for the row kernel ([codegen] rows, codegen/gen_row.c):
# acc_max updates acc in place at its own index from a strided load (x[j, 1]:
# a stride of 2) over a symbolic n; scale multiplies by one element of an
# argument (a scalar of the glue) and divides by a sum with the other;
# guarded runs under a condition j + 3 < n, which the call turns into its
# element count (and, as it calls exp, the plain C of rows = auto too); grid's nest of two loops (of 2 elements a row, too few
# for a row alone) is one call over n rows, x and y loaded per row only.
# cumsum reads the element the previous iteration stored
# and first_plus reads DST at another index: loop-carried dependences that
# must keep their loops.  Used by tests/unit/test_rows.c.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def acc_max(var_acc: T.handle, var_x: T.handle):
        n = T.int64()
        acc = T.match_buffer(var_acc, (n,), "float32")
        x = T.match_buffer(var_x, (n, T.int64(2)), "float32")
        for j in range(n):
            acc[j] = T.max(acc[j], x[j, T.int64(1)])

    @T.prim_func(private=True)
    def scale(var_a: T.handle, var_k: T.handle, var_c: T.handle):
        n = T.int64()
        a = T.match_buffer(var_a, (n,), "float32")
        k = T.match_buffer(var_k, (T.int64(2),), "float32")
        c = T.match_buffer(var_c, (n,), "float32")
        for j in range(n):
            c[j] = a[j] * k[T.int64(1)] - T.fabs(a[j]) / (a[j] + k[T.int64(0)])

    @T.prim_func(private=True)
    def cumsum(var_a: T.handle, var_c: T.handle):
        n = T.int64()
        a = T.match_buffer(var_a, (n,), "float32")
        c = T.match_buffer(var_c, (n,), "float32")
        c[T.int64(0)] = a[T.int64(0)]
        for j in range(n - T.int64(1)):
            c[j + T.int64(1)] = c[j] + a[j + T.int64(1)]

    @T.prim_func(private=True)
    def first_plus(var_a: T.handle, var_c: T.handle):
        n = T.int64()
        a = T.match_buffer(var_a, (n,), "float32")
        c = T.match_buffer(var_c, (n,), "float32")
        for j in range(n):
            c[j] = c[T.int64(0)] + a[j]

    @T.prim_func(private=True)
    def guarded(var_c: T.handle):
        n = T.int64()
        c = T.match_buffer(var_c, (n,), "float32")
        for j in range(T.int64(40)):
            if j + T.int64(3) < n:
                c[j + T.int64(3)] = T.exp(c[j + T.int64(3)]) * T.float32(-2)

    @T.prim_func(private=True)
    def grid(var_x: T.handle, var_y: T.handle, var_k: T.handle, var_g: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(2)), "float32")
        y = T.match_buffer(var_y, (n,), "float32")
        k = T.match_buffer(var_k, (T.int64(2),), "float32")
        g = T.match_buffer(var_g, (n, T.int64(2)), "float32")
        for i in range(n):
            for j in range(T.int64(2)):
                g[i, j] = x[i, T.int64(0)] * y[i] - k[j]

    @R.function
    def main(x: R.Tensor(("n", 2), "float32"), y: R.Tensor(("n",), "float32"), k: R.Tensor((2,), "float32")):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 64}})
        cls = Module
        with R.dataflow():
            s = R.call_tir(cls.scale, (y, k), out_sinfo=R.Tensor((n,), "float32"))
            a = R.call_tir_inplace(cls.acc_max, (s, x), inplace_indices=[0], out_sinfo=R.Tensor((n,), "float32"))
            c = R.call_tir(cls.cumsum, (a,), out_sinfo=R.Tensor((n,), "float32"))
            d = R.call_tir_inplace(cls.first_plus, (a, c), inplace_indices=[1], out_sinfo=R.Tensor((n,), "float32"))
            e = R.call_tir_inplace(cls.guarded, (d,), inplace_indices=[0], out_sinfo=R.Tensor((n,), "float32"))
            h = R.call_tir(cls.grid, (x, y, k), out_sinfo=R.Tensor((n, 2), "float32"))
            R.output(e, h)
        return (e, h)
