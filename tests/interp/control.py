# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("B"):
                v_i = T.axis.spatial(T.int64(4), i)
                B[v_i] = A[v_i] + T.float32(1)

    @R.function
    def helper(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        y = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
        return y

    @R.function
    def branch(c: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        if c:
            y: R.Tensor((4,), dtype="float32") = cls.helper(x)
        else:
            y: R.Tensor((4,), dtype="float32") = x
        return y

    @R.function
    def tuples(x: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tuple(R.Tensor((4,), dtype="float32"))):
        cls = Module
        t: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = (x, x)
        a: R.Tensor((4,), dtype="float32") = t[1]
        b: R.Tensor((4,), dtype="float32") = cls.helper(a)
        inner: R.Tuple(R.Tensor((4,), dtype="float32")) = (a,)
        r: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tuple(R.Tensor((4,), dtype="float32"))) = (b, inner)
        return r

    @R.function
    def closure(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        base: R.Tensor((4,), dtype="float32") = cls.helper(x)

        @R.function
        def twice(t: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
            u: R.Tensor((4,), dtype="float32") = cls.helper(t)
            v: R.Tensor((4,), dtype="float32") = cls.helper(u)
            w: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = (v, base)
            out: R.Tensor((4,), dtype="float32") = w[0]
            return out

        r: R.Tensor((4,), dtype="float32") = twice(base)
        return r

    @R.function
    def cast(x: R.Tensor(dtype="float32", ndim=1)) -> R.Shape(ndim=1):
        n = T.int64()
        y: R.Tensor((n,), dtype="float32") = R.match_cast(x, R.Tensor((n,), dtype="float32"))
        s: R.Shape([n]) = R.shape([n])
        return s

    @R.function
    def cast4(x: R.Tensor(dtype="float32", ndim=1)) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((4,), dtype="float32") = R.match_cast(x, R.Tensor((4,), dtype="float32"))
        return y

    @R.function(pure=False)
    def effects(x: R.Tensor((4,), dtype="float32"), ok: R.Tensor((), dtype="bool")) -> R.Tensor((4,), dtype="float32"):
        R.print(x, format="x = {}")
        R.assert_op(ok, x, format="bad x = {}")
        R.print(format="done")
        return x

    @R.function
    def recurse(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        y: R.Tensor((4,), dtype="float32") = cls.recurse(x)
        return y

    @R.function
    def checks(x: R.Tensor(("n", 2), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8}})
        return y

