# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("n * 2", 2), dtype="float32")) -> R.Tensor(("n * 4",), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 256}})
        with R.dataflow():
            lv: R.Tensor((n * 2, 2), dtype="float32") = R.reshape(x, R.shape([n * 2, 2]))
            lv1: R.Tensor((n * 2, 2), dtype="float32") = R.add(lv, y)
            gv: R.Tensor((n * 4,), dtype="float32") = R.reshape(lv1, R.shape([n * 4]))
            R.output(gv)
        return gv
