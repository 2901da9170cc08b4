# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((4,), dtype="float32") = R.add(x, x)
            gv: R.Tensor((4,), dtype="float32") = R.multiply(lv, x)
            R.output(gv)
        y: R.Tensor((4,), dtype="float32") = R.add(lv, gv)
        return y
