# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("m", "n"), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("m", "n"), dtype="float32"):
        m = T.int64()
        n = T.int64()
        R.func_attr({"tir_non_negative_var": ["m", "n"], "tir_var_upper_bound": {"m": 32, "n": 1024}})
        with R.dataflow():
            lv: R.Tensor((m, n), dtype="float32") = R.subtract(x, y)
            lv1: R.Tensor((m, n), dtype="float32") = R.exp(lv)
            gv: R.Tensor((m, n), dtype="float32") = R.divide(lv1, y)
            R.output(gv)
        return gv
