# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def sum_and_diff(A: T.Buffer((T.int64(6),), "float32"), B: T.Buffer((T.int64(6),), "float32"), S: T.Buffer((T.int64(6),), "float32"), D: T.Buffer((T.int64(6),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i in range(T.int64(6)):
            with T.block("sum_and_diff"):
                v_i = T.axis.spatial(T.int64(6), i)
                T.reads(A[v_i], B[v_i])
                T.writes(S[v_i], D[v_i])
                S[v_i] = A[v_i] + B[v_i]
                D[v_i] = A[v_i] - B[v_i]

    @R.function
    def main(a: R.Tensor((6,), dtype="float32"), b: R.Tensor((6,), dtype="float32")) -> R.Tensor((6,), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.sum_and_diff, (a, b), out_sinfo=[R.Tensor((6,), dtype="float32"), R.Tensor((6,), dtype="float32")])
            lv1: R.Tensor((6,), dtype="float32") = lv[0]
            lv2: R.Tensor((6,), dtype="float32") = lv[1]
            gv: R.Tensor((6,), dtype="float32") = R.multiply(lv1, lv2)
            R.output(gv)
        return gv
