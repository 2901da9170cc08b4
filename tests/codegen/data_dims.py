# R.tensor_to_shape + R.match_cast define k in the body from tensor data:
# the generated entry reads k after t is known, checks 0 <= k <= 8 (its
# tir_var_upper_bound, which the arena is planned at) before writing
# anything that depends on k, and returns NAME_ERR_DIM otherwise.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T

@I.ir_module
class Module:
    @R.function
    def main(t: R.Tensor((1,), "int64"), x: R.Tensor((8,), "float32")) -> R.Tensor((), "float32"):
        R.func_attr({"tir_var_upper_bound": {"k": 8}})
        k = T.int64()
        with R.dataflow():
            s = R.tensor_to_shape(t)
            s1 = R.match_cast(s, R.Shape([k]))
            y = R.ones(s1, "float32")
            z = R.multiply(y, R.const(2.0, "float32"))
            gv = R.sum(z)
            R.output(gv)
        return gv
