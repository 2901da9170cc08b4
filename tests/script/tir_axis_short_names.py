# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# T.axis.S and T.axis.R, TVM's short names of T.axis.spatial and
# T.axis.reduce; they print long.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def row_sum(A: T.Buffer((T.int64(4), T.int64(6)), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i, k in T.grid(T.int64(4), T.int64(6)):
            with T.block("B"):
                vi = T.axis.S(T.int64(4), i)
                vk = T.axis.R(T.int64(6), k)
                T.reads(A[vi, vk])
                T.writes(B[vi])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]

    @R.function
    def main(x: R.Tensor((4, 6), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.row_sum, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
        return gv
