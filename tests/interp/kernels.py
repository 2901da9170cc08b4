# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(A: T.Buffer((T.int64(2), T.int64(3)), "float32"), B: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i, j in T.grid(T.int64(2), T.int64(3)):
            with T.block("B"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(A[v_i, v_j])
                T.writes(B[v_i, v_j])
                B[v_i, v_j] = A[v_i, v_j] + T.float32(1)

    @T.prim_func(private=True)
    def matmul(A: T.Buffer((T.int64(2), T.int64(3)), "float32"), B: T.Buffer((T.int64(3), T.int64(2)), "float32"), C: T.Buffer((T.int64(2), T.int64(2)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i, j, k in T.grid(T.int64(2), T.int64(2), T.int64(3)):
            with T.block("C"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                T.reads(A[v_i, v_k], B[v_k, v_j])
                T.writes(C[v_i, v_j])
                with T.init():
                    C[v_i, v_j] = T.float32(0)
                C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * B[v_k, v_j]

    @T.prim_func(private=True)
    def scale(var_A: T.handle, var_B: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(2)), "float32")
        B = T.match_buffer(var_B, (n * T.int64(2),), "float32")
        for i, j in T.grid(n, T.int64(2)):
            with T.block("B"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                B[v_i * T.int64(2) + v_j] = A[v_i, v_j] * T.float32(2)

    @T.prim_func(private=True)
    def shift_bad(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("B"):
                v_i = T.axis.spatial(T.int64(4), i)
                B[v_i] = A[v_i + T.int64(1)]

    @R.function
    def elementwise(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
            R.output(gv)
        return gv

    @R.function
    def mm(x: R.Tensor((2, 3), dtype="float32"), w: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.matmul, (x, w), out_sinfo=R.Tensor((2, 2), dtype="float32"))
            R.output(gv)
        return gv

    @R.function
    def flat(x: R.Tensor(("n", 2), dtype="float32")) -> R.Tensor(("n * 2",), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8}})
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.scale, (x,), out_sinfo=R.Tensor((n * 2,), dtype="float32"))
            R.output(gv)
        return gv

    @R.function
    def flat_wrong(x: R.Tensor(("n", 2), dtype="float32")) -> R.Tensor(("n * 2 + 1",), dtype="float32"):
        n = T.int64()
        cls = Module
        gv = R.call_tir(cls.scale, (x,), out_sinfo=R.Tensor((n * 2 + 1,), dtype="float32"))
        return gv

    @R.function
    def oob(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.shift_bad, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
        return gv
