# Kernel calls (T.call_extern of ir/tir_kernel.c) in the interpreter: one
# that computes, and the calls it must refuse before the kernel runs.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def gemm(A: T.Buffer((T.int64(2), T.int64(3)), "float32"), B: T.Buffer((T.int64(3), T.int64(4)), "float32"), C: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        for r, c in T.grid(T.int64(2), T.int64(4)):
            C[r, c] = T.float32(1)
        T.evaluate(T.call_extern("void", "rxc_k_gemm_f32", T.address_of(C[T.int64(0), T.int64(0)]), T.address_of(A[T.int64(0), T.int64(0)]), T.int64(3), T.int64(1), T.address_of(B[T.int64(0), T.int64(0)]), T.int64(4), T.int64(3), T.int64(2), T.int64(4)))

    @T.prim_func(private=True)
    def reach_past(A: T.Buffer((T.int64(2), T.int64(3)), "float32"), B: T.Buffer((T.int64(3), T.int64(4)), "float32"), C: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.evaluate(T.call_extern("void", "rxc_k_gemm_f32", T.address_of(C[T.int64(0), T.int64(0)]), T.address_of(A[T.int64(0), T.int64(0)]), T.int64(3), T.int64(1), T.address_of(B[T.int64(0), T.int64(0)]), T.int64(4), T.int64(3), T.int64(3), T.int64(4)))

    @T.prim_func(private=True)
    def overlap(A: T.Buffer((T.int64(2), T.int64(3)), "float32"), B: T.Buffer((T.int64(3), T.int64(4)), "float32"), C: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.evaluate(T.call_extern("void", "rxc_k_gemm_f32", T.address_of(C[T.int64(0), T.int64(0)]), T.address_of(C[T.int64(0), T.int64(1)]), T.int64(3), T.int64(1), T.address_of(B[T.int64(0), T.int64(0)]), T.int64(4), T.int64(2), T.int64(2), T.int64(1)))

    @T.prim_func(private=True)
    def unknown(A: T.Buffer((T.int64(2), T.int64(3)), "float32"), B: T.Buffer((T.int64(3), T.int64(4)), "float32"), C: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.evaluate(T.call_extern("void", "rxc_k_nothing", T.address_of(C[T.int64(0), T.int64(0)])))

    @R.function
    def main(a: R.Tensor((2, 3), dtype="float32"), b: R.Tensor((3, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.gemm, (a, b), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            R.output(gv)
        return gv

    @R.function
    def past(a: R.Tensor((2, 3), dtype="float32"), b: R.Tensor((3, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.reach_past, (a, b), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            R.output(gv)
        return gv

    @R.function
    def aliased(a: R.Tensor((2, 3), dtype="float32"), b: R.Tensor((3, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.overlap, (a, b), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            R.output(gv)
        return gv

    @R.function
    def nothing(a: R.Tensor((2, 3), dtype="float32"), b: R.Tensor((3, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.unknown, (a, b), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            R.output(gv)
        return gv
