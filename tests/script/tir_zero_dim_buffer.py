# A 0-d buffer is indexed with an empty tuple, A[()], as TVM prints it.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scale(A: T.Buffer((T.int64(4),), "float32"), s: T.Buffer((), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        for i in range(T.int64(4)):
            with T.block("B"):
                v_i = T.axis.spatial(T.int64(4), i)
                T.reads(A[v_i], s[()])
                T.writes(B[v_i])
                B[v_i] = A[v_i] * s[()]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), s: R.Tensor((), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.scale, (x, s), out_sinfo=R.Tensor((4,), dtype="float32"))
        return gv
