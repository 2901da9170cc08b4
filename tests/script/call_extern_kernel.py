# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def matmul(A: T.Buffer((T.int64(8), T.int64(6)), "float32"), B: T.Buffer((T.int64(6), T.int64(20)), "float32"), C: T.Buffer((T.int64(8), T.int64(20)), "float32")):
        T.func_attr({"tir.noalias": True})
        for r, c in T.grid(T.int64(8), T.int64(20)):
            C[r, c] = T.float32(0)
        T.evaluate(T.call_extern("void", "rxc_k_gemm_f32", T.address_of(C[T.int64(0), T.int64(0)]), T.address_of(A[T.int64(0), T.int64(0)]), T.int64(6), T.int64(1), T.address_of(B[T.int64(0), T.int64(0)]), T.int64(20), T.int64(6), T.int64(8), T.int64(20)))

    @R.function
    def main(a: R.Tensor((8, 6), dtype="float32"), b: R.Tensor((6, 20), dtype="float32")) -> R.Tensor((8, 20), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.matmul, (a, b), out_sinfo=R.Tensor((8, 20), dtype="float32"))
            R.output(gv)
        return gv
