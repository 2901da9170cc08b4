# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 3), dtype="float32") = R.add(x, y)
            lv1: R.Tensor((2, 3), dtype="float32") = R.multiply(lv, x)
            lv2: R.Tensor((2, 3), dtype="float32") = R.subtract(lv1, y)
            lv3: R.Tensor((2, 3), dtype="float32") = R.divide(lv2, y)
            lv4: R.Tensor((2, 3), dtype="float32") = R.maximum(lv3, x)
            lv5: R.Tensor((2, 3), dtype="float32") = R.minimum(lv4, y)
            lv6: R.Tensor((2, 3), dtype="float32") = R.power(lv5, x)
            gv: R.Tensor((2, 3), dtype="float32") = R.floor_divide(lv6, y)
            R.output(gv)
        return gv
