# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 16), dtype="float32"), y: R.Tensor(("n", 16), dtype="float32"), b: R.Tensor((16,), dtype="float32")) -> R.Tensor(("n", 16), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 128}})
        with R.dataflow():
            lv: R.Tensor((n, 16), dtype="float32") = R.add(x, y)
            lv1: R.Tensor((n, 16), dtype="float32") = R.add(lv, b)
            lv2: R.Tensor((n, 16), dtype="float32") = R.nn.relu(lv1)
            gv: R.Tensor((n, 16), dtype="float32") = R.multiply(lv2, y)
            R.output(gv)
        return gv
