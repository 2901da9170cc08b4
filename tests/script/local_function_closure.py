# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 3), dtype="float32")) -> R.Tensor((3, 3), dtype="float32"):
        bias: R.Tensor((3, 3), dtype="float32") = R.exp(x)

        @R.function
        def add_bias(t: R.Tensor((3, 3), dtype="float32")) -> R.Tensor((3, 3), dtype="float32"):
            r: R.Tensor((3, 3), dtype="float32") = R.add(t, bias)
            return r

        @R.function
        def twice(t: R.Tensor((3, 3), dtype="float32")) -> R.Tensor((3, 3), dtype="float32"):
            u: R.Tensor((3, 3), dtype="float32") = add_bias(t)
            v: R.Tensor((3, 3), dtype="float32") = add_bias(u)
            return v

        out: R.Tensor((3, 3), dtype="float32") = twice(x)
        return out
