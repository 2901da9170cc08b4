# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((5,), dtype="float32"), y: R.Tensor((5,), dtype="float32")) -> R.Tensor((5,), dtype="float32"):
        with R.dataflow():
            lt: R.Tensor((5,), dtype="bool") = R.less(x, y)
            le: R.Tensor((5,), dtype="bool") = R.less_equal(x, y)
            gt: R.Tensor((5,), dtype="bool") = R.greater(x, y)
            ge: R.Tensor((5,), dtype="bool") = R.greater_equal(x, y)
            eq: R.Tensor((5,), dtype="bool") = R.equal(x, y)
            ne: R.Tensor((5,), dtype="bool") = R.not_equal(x, y)
            lv: R.Tensor((5,), dtype="float32") = R.where(lt, x, y)
            lv1: R.Tensor((5,), dtype="float32") = R.where(ge, lv, R.const(0, "float32"))
            gv: R.Tensor((5,), dtype="float32") = R.where(ne, lv1, x)
            R.output(gv)
        return gv
