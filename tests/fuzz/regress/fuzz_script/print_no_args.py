# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((3,), dtype="float32"), ok: R.Tensor((), dtype="bool")) -> R.Tensor((3,), dtype="float32"):
        R.print(x, format="x = {}")
        R.assert_op(ok, x, format="check failed for x = {}")
        y: R.Tensor((3,), dtype="float32") = R.exp(x)
        R.print(x, y, format="x = {}, exp(x) = {}")
        R.assert_op(ok)
        R.print(format="done")
        return y
