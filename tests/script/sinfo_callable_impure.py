# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def run(f: R.Callable((R.Tensor((2,), dtype="float32"),), R.Tensor((2,), dtype="float32"), False), g: R.PackedFunc, x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        y: R.Tensor((2,), dtype="float32") = f(x)
        return y

    @R.function(pure=False)
    def log_and_pass(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        R.print(x, format="{}")
        return x

    @R.function(pure=False)
    def main(x: R.Tensor((2,), dtype="float32"), g: R.PackedFunc) -> R.Tensor((2,), dtype="float32"):
        cls = Module
        y: R.Tensor((2,), dtype="float32") = cls.run(cls.log_and_pass, g, x)
        return y
