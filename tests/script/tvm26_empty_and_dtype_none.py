# An empty prim_func body (`pass`, printed back as `pass`: a fixed point)
# and R.Tensor(dtype=None), the unknown dtype.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def nothing():
        pass

    @R.function
    def main(x: R.Tensor(ndim=2, dtype=None)) -> R.Tensor(ndim=2):
        return x
