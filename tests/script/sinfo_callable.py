# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def apply_twice(f: R.Callable((R.Tensor((4,), dtype="float32"),), R.Tensor((4,), dtype="float32"), True), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((4,), dtype="float32") = f(x)
        z: R.Tensor((4,), dtype="float32") = f(y)
        return z

    @R.function
    def neg(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((4,), dtype="float32") = R.negative(x)
        return y

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        g: R.Callable((R.Tensor((4,), dtype="float32"),), R.Tensor((4,), dtype="float32"), True) = cls.neg
        r: R.Tensor((4,), dtype="float32") = cls.apply_twice(g, x)
        return r
