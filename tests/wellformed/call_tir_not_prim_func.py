# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def helper(a: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        c: R.Tensor((4,), dtype="float32") = R.add(a, a)
        return c

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        lv = R.call_tir(cls.helper, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
        return lv
