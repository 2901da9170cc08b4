# HEAD (v0.24+) TIR spellings: T.sblock, T.sblock_alloc_buffer, s_tir=True.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.script import relax as R

@I.ir_module(s_tir=True)
class Module:
    @T.prim_func(private=True, s_tir=True)
    def sum_sq(A: T.Buffer((T.int64(4), T.int64(6)), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tirx.noalias": True})
        for i in range(T.int64(4)):
            with T.sblock("row"):
                v_i = T.axis.spatial(T.int64(4), i)
                T.reads(A[v_i, T.int64(0):T.int64(6)])
                T.writes(B[v_i])
                acc = T.sblock_alloc_buffer((T.int64(1),), "float32", scope="local")
                acc[T.int64(0)] = T.float32(0)
                for k in range(T.int64(6)):
                    acc[T.int64(0)] = acc[T.int64(0)] + A[v_i, k] * A[v_i, k]
                B[v_i] = acc[T.int64(0)]

    @R.function
    def main(x: R.Tensor((4, 6), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.sum_sq, (x,), out_ty=R.Tensor((4,), dtype="float32"))
            R.output(gv)
        return gv
