# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), dtype="int32")) -> R.Tensor((2,), dtype="int32"):
        R.func_attr({"relax.force_pure": True})
        pos: R.Tensor((2,), dtype="bool") = R.greater(x, R.const(0, "int32"))
        c: R.Tensor((), dtype="bool") = R.const(True, "bool")
        _ = R.assert_op(c, pos, format="positive: {}")
        _ = R.print(pos, format="{}")
        return x
