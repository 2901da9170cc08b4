# FuseOps/FuseTIR test: matmul + add + gelu (LegalizeOps output).  Expected:
# one group fused_matmul_add_gelu, whose float64 accumulation stays as it is.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(A: T.Buffer((T.int64(2), T.int64(4)), "float32"), B: T.Buffer((T.int64(4),), "float32"), T_add: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(4)):
            T_add[i0, i1] = A[i0, i1] + B[i1]

    @T.prim_func(private=True)
    def gelu(A: T.Buffer((T.int64(2), T.int64(4)), "float32"), T_gelu: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(4)):
            T_gelu[i0, i1] = T.Cast("float32", T.float64(0.5) * T.Cast("float64", A[i0, i1]) * (T.float64(1.0) + T.erf(T.Cast("float64", A[i0, i1]) / T.float64(1.4142135623730951))))

    @T.prim_func(private=True)
    def matmul(A: T.Buffer((T.int64(2), T.int64(8)), "float32"), B: T.Buffer((T.int64(8), T.int64(4)), "float32"), T_matmul: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": True})
        acc = T.alloc_buffer((T.int64(1),), "float64")
        for i0, i1 in T.grid(T.int64(2), T.int64(4)):
            acc[T.int64(0)] = T.float64(0.0)
            for i2 in range(T.int64(8)):
                acc[T.int64(0)] = acc[T.int64(0)] + T.Cast("float64", A[i0, i2]) * T.Cast("float64", B[i2, i1])
            T_matmul[i0, i1] = T.Cast("float32", acc[T.int64(0)])

    @R.function
    def main(x: R.Tensor((2, 8), dtype="float32"), w: R.Tensor((8, 4), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv: R.Tensor((2, 4), dtype="float32") = R.call_tir(cls.matmul, (x, w), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            lv1: R.Tensor((2, 4), dtype="float32") = R.call_tir(cls.add, (lv, b), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            gv: R.Tensor((2, 4), dtype="float32") = R.call_tir(cls.gelu, (lv1,), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            R.output(gv)
        return gv
