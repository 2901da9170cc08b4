# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        y: R.Tensor((2, 3), dtype="int32") = x
        z: R.Tensor((2, 3, 1), dtype="float32") = x
        w: R.Tensor((2, 4), dtype="float32") = x
        s: R.Shape([2, 3]) = x
        k: R.Shape([2, 3]) = R.shape([2, 4])
        o: R.Object = x
        m: R.Tensor((2, 4), dtype="float32") = R.match_cast(x, R.Tensor((2, 4), dtype="float32"))
        return x
