# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2), s: R.Shape(ndim=2)) -> R.Tensor(dtype="float32", ndim=1):
        m = T.int64()
        n = T.int64()
        a = T.int64()
        b = T.int64()
        y: R.Tensor((m, n), dtype="float32") = R.match_cast(x, R.Tensor((m, n), dtype="float32"))
        shp: R.Shape([a, b]) = R.match_cast(s, R.Shape([a, b]))
        with R.dataflow():
            lv: R.Tensor((m, n), dtype="float32") = R.exp(y)
            lv1: R.Tensor((m * n,), dtype="float32") = R.reshape(lv, R.shape([m * n]))
            gv = R.match_cast(lv1, R.Tensor((m * n,), dtype="float32"))
            R.output(gv)
        return gv
