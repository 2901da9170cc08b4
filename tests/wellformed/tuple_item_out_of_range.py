# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Item 2 of a pair, spelled both ways TVM reads.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), dtype="float32")):
        t = (x, x)
        a = R.TupleGetItem(t, 2)
        b = t[2]
        return (a, b)
