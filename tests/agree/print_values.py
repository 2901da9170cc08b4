# R.print of what a model may want to see, for tests/agree/print_check.py:
# tensors of several dtypes (more than 16 elements: the first 16 and
# "..."), a scalar, prim values, a shape with a symbolic dim, a string;
# a format with "{}", quotes and a backslash, values left over.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor(("n", 4), dtype="float32"), k: R.Tensor((20,), dtype="int32"), h: R.Tensor((2,), dtype="float16")):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8}})
        a = R.multiply(x, x)
        _ = R.print(a, R.prim_value(n), format="a = {}, n = {}")
        _1 = R.print(k, h, R.shape([n, 4]), R.str("done"))
        s = R.sum(a)
        pos = R.greater(x, R.const(0.0, "float32"))
        _2 = R.print(s, R.prim_value(T.float32(0.1)), pos, format="sum {}: \"{}\" \\")
        c = R.const(1.5, "float64")
        _3 = R.print(c, R.prim_value(n * 1000000000000), format="scalar {} ?? {} {}")
        gv = R.add(a, x)
        return gv
