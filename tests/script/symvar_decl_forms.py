# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("b", "s", 8), dtype="float32"), p: R.Prim(value="s")) -> R.Tensor(("b * s", 8), dtype="float32"):
        b, s = T.int64(), T.int64()
        R.func_attr({"tir_var_lower_bound": {"s": 1}, "tir_var_upper_bound": {"b": 8, "s": 4096}})
        with R.dataflow():
            lv: R.Tensor((b * s, 8), dtype="float32") = R.reshape(x, R.shape([b * s, 8]))
            gv: R.Tensor((b * s, 8), dtype="float32") = R.nn.silu(lv)
            R.output(gv)
        return gv
