# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((4,), dtype="float32") = R.maximum(x, R.const("-inf", "float32"))
            lv1: R.Tensor((4,), dtype="float32") = R.minimum(lv, R.const("inf", "float32"))
            lv2: R.Tensor((4,), dtype="float32") = R.add(lv1, R.const([0.0, "nan", "inf", "-inf"], "float32"))
            nan: R.Tensor((), dtype="float32") = R.const("nan", "float32")
            gv: R.Tensor((4,), dtype="float32") = R.where(R.const([True, True, False, False], "bool"), lv2, nan)
            R.output(gv)
        return gv
