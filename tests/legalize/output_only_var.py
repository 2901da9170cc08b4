# A symbolic var that no input shape has as a whole dim (only inside
# 2 * n): the prim_func takes it as a scalar, passed by tir_vars.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(s: R.Shape(["n"]), x: R.Tensor(("2 * n",), dtype="float32")) -> R.Tensor(("2 * n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8}})
        with R.dataflow():
            gv: R.Tensor((2 * n,), dtype="float32") = R.add(x, x)
            R.output(gv)
        return gv
