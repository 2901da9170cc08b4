# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def pad_to_float(A: T.Buffer((T.int64(6),), "int32"), B: T.Buffer((T.int64(8),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i in range(T.int64(8)):
            with T.block("pad"):
                v_i = T.axis.spatial(T.int64(8), i)
                T.reads(A[v_i - T.int64(1)])
                T.writes(B[v_i])
                B[v_i] = T.if_then_else(T.int64(1) <= v_i and v_i < T.int64(7), T.Cast("float32", A[v_i - T.int64(1)]), T.float32(-1))

    @R.function
    def main(x: R.Tensor((6,), dtype="int32")) -> R.Tensor((8,), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.pad_to_float, (x,), out_sinfo=R.Tensor((8,), dtype="float32"))
            R.output(gv)
        return gv
