# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def double(A: T.Buffer((T.int64(4), T.int64(16)), "float32"), B: T.Buffer((T.int64(4), T.int64(16)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i0 in T.parallel(T.int64(4)):
            for i1_0 in T.unroll(T.int64(2)):
                for i1_1 in T.serial(T.int64(2)):
                    for i1_2 in T.vectorized(T.int64(4)):
                        with T.block("B"):
                            v0 = T.axis.spatial(T.int64(4), i0)
                            v1 = T.axis.spatial(T.int64(16), i1_0 * T.int64(8) + i1_1 * T.int64(4) + i1_2)
                            T.reads(A[v0, v1])
                            T.writes(B[v0, v1])
                            B[v0, v1] = A[v0, v1] * T.float32(2)

    @R.function
    def main(x: R.Tensor((4, 16), dtype="float32")) -> R.Tensor((4, 16), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.double, (x,), out_sinfo=R.Tensor((4, 16), dtype="float32"))
            R.output(gv)
        return gv
