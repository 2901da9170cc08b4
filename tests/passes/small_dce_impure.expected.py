# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(private=True)
    def helper(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((4,), dtype="float32") = R.multiply(x, x)
        return y

    @R.function(pure=False, private=True)
    def side(x: R.Tensor((4,), dtype="float32")) -> R.Tuple:
        R.print(x, format="side {}")
        return R.tuple()

    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        R.print(x, format="x={}")
        c: R.Tensor((4,), dtype="float32") = cls.helper(x)
        d: R.Tensor((4,), dtype="float32") = R.call_packed("ext", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
        e: R.Tuple = cls.side(x)
        return c
