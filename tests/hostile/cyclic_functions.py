# f and g call each other: C generation has no Relax-to-Relax calls (and no recursion).
@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((4,), dtype="float32") = Module.g(x)
        return y
    @R.function
    def g(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((4,), dtype="float32") = Module.f(x)
        return y
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((4,), dtype="float32") = Module.f(x)
        return y
