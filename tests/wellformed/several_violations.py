# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def fill(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = T.float32(0.0)

    @R.function
    def helper(a: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        return a

    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv: R.Tensor((4,), dtype="float32") = R.add(x, x)
            R.print(lv, format="{}")
            gv: R.Tensor((4,), dtype="float32") = cls.helper(lv, lv)
            R.output(gv)
        y: R.Tensor((4,), dtype="int32") = gv
        z: R.Tensor((4,), dtype="float32") = R.add(lv, x)
        w: R.Tensor((2, 2), dtype="float32", ndim=3) = z
        return w
