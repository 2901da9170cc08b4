# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Python's true division of numbers in R.const, as TVM's frontends' expected
# modules write it: computed in double, rounded once to the dtype (1/3 in
# float32 is 0.33333334), in a list too, ints and a chain.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        with R.dataflow():
            lv = R.power(x, R.const(1.0 / 3.0, "float32"))
            lv1 = R.multiply(lv, R.const([15 / 14, -1 / 4 / 2], "float32"))
            gv = R.add(lv1, R.const(-3.0 / 2, "float32"))
            R.output(gv)
        return gv
