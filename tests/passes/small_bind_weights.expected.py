# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("m", 8), dtype="float32")) -> R.Tensor(("m", 4), dtype="float32"):
        m = T.int64()
        with R.dataflow():
            lv: R.Tensor((m, 4), dtype="float32") = R.matmul(x, R.const([[0.0, 0.1, 0.2, 0.3], [0.4, 0.5, 0.6, 0.7], [0.8, 0.9, 1.0, 1.1], [1.2, 1.3, 1.4, 1.5], [1.6, 1.7, 1.8, 1.9], [2.0, 2.1, 2.2, 2.3], [2.4, 2.5, 2.6, 2.7], [2.8, 2.9, 3.0, 3.1]], "float32"), out_dtype="void")
            lv1: R.Tensor((m, 4), dtype="float32") = R.add(lv, R.const([1.0, 1.0, 1.0, 1.0], "float32"))
            xx: R.Tensor((m, 16), dtype="float32") = R.concat((x, x), axis=1)
            s: R.Tensor((m, 16), dtype="float32") = R.reshape(xx, R.shape([m, 16]))
            gv: R.Tensor((m, 4), dtype="float32") = R.multiply(lv1, lv1)
            R.output(s, gv)
        return gv
