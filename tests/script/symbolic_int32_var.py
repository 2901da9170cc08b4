# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=1), s: R.Shape(["k"])) -> R.Tensor(("k",), dtype="float32"):
        k = T.int64()
        w = T.int32()
        y: R.Tensor((w,), dtype="float32") = R.match_cast(x, R.Tensor((w,), dtype="float32"))
        z: R.Tensor((k,), dtype="float32") = R.broadcast_to(y, R.shape([k]))
        return z
