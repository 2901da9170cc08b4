# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(cond: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        if cond:
            lv: R.Tensor((4,), dtype="float32") = R.add(x, x)
            lv1: R.Tensor((4,), dtype="float32") = R.exp(lv)
            y: R.Tensor((4,), dtype="float32") = R.nn.relu(lv1)
        else:
            lv2: R.Tensor((4,), dtype="float32") = R.multiply(x, x)
            y: R.Tensor((4,), dtype="float32") = R.negative(lv2)
        z: R.Tensor((4,), dtype="float32") = R.add(y, x)
        return z
