# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        @R.function
        def scale_add(a: R.Tensor((4,), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
            with R.dataflow():
                lv: R.Tensor((4,), dtype="float32") = R.multiply(a, R.const(2, "float32"))
                gv: R.Tensor((4,), dtype="float32") = R.add(lv, b)
                R.output(gv)
            return gv

        lv1: R.Tensor((4,), dtype="float32") = scale_add(x, y)
        lv2: R.Tensor((4,), dtype="float32") = scale_add(lv1, x)
        return lv2
