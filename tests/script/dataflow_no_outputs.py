# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((3,), dtype="float32") = R.exp(x)
            lv1: R.Tensor((3,), dtype="float32") = R.add(lv, x)
            R.output()
        y: R.Tensor((3,), dtype="float32") = R.nn.relu(x)
        return y
