# FuseOps/FuseTIR test: a symbolic batch n (LegalizeOps output).  Expected:
# fused_matmul_add_relu and fused_reshape_add1_exp; the reshape gets n by
# tir_vars, and x (moved before y, whose dim n * 8 uses n) binds n in the
# fused function.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(var_A: T.handle, B: T.Buffer((T.int64(4),), "float32"), var_T_add: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(4)), "float32")
        T_add = T.match_buffer(var_T_add, (n, T.int64(4)), "float32")
        for i0, i1 in T.grid(n, T.int64(4)):
            T_add[i0, i1] = A[i0, i1] + B[i1]

    @T.prim_func(private=True)
    def add1(var_A: T.handle, var_B: T.handle, var_T_add: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(8)), "float32")
        B = T.match_buffer(var_B, (n, T.int64(8)), "float32")
        T_add = T.match_buffer(var_T_add, (n, T.int64(8)), "float32")
        for i0, i1 in T.grid(n, T.int64(8)):
            T_add[i0, i1] = A[i0, i1] + B[i0, i1]

    @T.prim_func(private=True)
    def exp(var_A: T.handle, var_T_exp: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(8)), "float32")
        T_exp = T.match_buffer(var_T_exp, (n, T.int64(8)), "float32")
        for i0, i1 in T.grid(n, T.int64(8)):
            T_exp[i0, i1] = T.exp(A[i0, i1])

    @T.prim_func(private=True)
    def matmul(var_A: T.handle, B: T.Buffer((T.int64(8), T.int64(4)), "float32"), var_T_matmul: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(8)), "float32")
        T_matmul = T.match_buffer(var_T_matmul, (n, T.int64(4)), "float32")
        acc = T.alloc_buffer((T.int64(1),), "float64")
        for i0, i1 in T.grid(n, T.int64(4)):
            acc[T.int64(0)] = T.float64(0.0)
            for i2 in range(T.int64(8)):
                acc[T.int64(0)] = acc[T.int64(0)] + T.Cast("float64", A[i0, i2]) * T.Cast("float64", B[i2, i1])
            T_matmul[i0, i1] = T.Cast("float32", acc[T.int64(0)])

    @T.prim_func(private=True)
    def relu(var_A: T.handle, var_T_relu: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(4)), "float32")
        T_relu = T.match_buffer(var_T_relu, (n, T.int64(4)), "float32")
        for i0, i1 in T.grid(n, T.int64(4)):
            T_relu[i0, i1] = T.max(A[i0, i1], T.float32(0.0))

    @T.prim_func(private=True)
    def reshape(var_A: T.handle, var_T_reshape: T.handle, n: T.int64):
        T.func_attr({"tir.noalias": True})
        A = T.match_buffer(var_A, (n * T.int64(8),), "float32")
        T_reshape = T.match_buffer(var_T_reshape, (n, T.int64(8)), "float32")
        for i0, i1 in T.grid(n, T.int64(8)):
            T_reshape[i0, i1] = A[i0 * T.int64(8) + i1]

    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32"), y: R.Tensor(("n * 8",), dtype="float32"), w: R.Tensor((8, 4), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor(("n", 8), dtype="float32")):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16}})
        cls = Module
        with R.dataflow():
            lv: R.Tensor((n, 4), dtype="float32") = R.call_tir(cls.matmul, (x, w), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            lv1: R.Tensor((n, 4), dtype="float32") = R.call_tir(cls.add, (lv, b), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            gv: R.Tensor((n, 4), dtype="float32") = R.call_tir(cls.relu, (lv1,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            r: R.Tensor((n, 8), dtype="float32") = R.call_tir(cls.reshape, (y,), out_sinfo=R.Tensor((n, 8), dtype="float32"), tir_vars=R.shape([n]))
            s: R.Tensor((n, 8), dtype="float32") = R.call_tir(cls.add1, (x, r), out_sinfo=R.Tensor((n, 8), dtype="float32"))
            t: R.Tensor((n, 8), dtype="float32") = R.call_tir(cls.exp, (s,), out_sinfo=R.Tensor((n, 8), dtype="float32"))
            R.output(gv, t)
        return (gv, t)
