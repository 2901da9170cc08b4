# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def negate(A: T.Buffer((T.int64(3),), "float32"), B: T.Buffer((T.int64(3),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i in range(T.int64(3)):
            with T.block("negate"):
                v_i = T.axis.spatial(T.int64(3), i)
                T.reads(A[v_i])
                T.writes(B[v_i])
                B[v_i] = T.float32(0) - A[v_i]

    @R.function(private=True)
    def fused_negate_exp(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        R.func_attr({"Primitive": 1})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.negate, (x,), out_sinfo=R.Tensor((3,), dtype="float32"))
            gv: R.Tensor((3,), dtype="float32") = R.exp(lv)
            R.output(gv)
        return gv

    @R.function(pure=False, private=True)
    def debug_dump(x: R.Tensor((3,), dtype="float32")) -> R.Tuple:
        R.print(x, format="dump: {}")
        return R.tuple()

    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv: R.Tensor((3,), dtype="float32") = cls.fused_negate_exp(x)
            R.output(gv)
        return gv
