# The generic reduction loop (float64 accumulator): sum over axis 1 of a
# float16 (n, 4) with keepdims.  Float32 sums and means over one axis take
# the lanes of ops/nn_util.c instead (reduce_symbolic.py).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float16")):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16}})
        with R.dataflow():
            a: R.Tensor((n, 1), dtype="float16") = R.sum(x, axis=[1], keepdims=True)
            R.output(a)
        return a
