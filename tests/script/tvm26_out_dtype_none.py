# TVM v0.26 prints out_dtype=None where v0.23 printed out_dtype="void":
# both read as the same attribute ("void": the input's dtype).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((3, 4), "float32")) -> R.Tensor((2, 4), "float32"):
        a = R.matmul(x, y, out_dtype=None)
        b = R.matmul(x, y, out_dtype="void")
        gv = R.add(a, b)
        return gv
