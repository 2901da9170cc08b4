# Binary elementwise ops with numpy broadcasting and a symbolic batch:
# (n, 4) with (1, 4), (n, 1) with (4,), and a bool result of a comparison.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((1, 4), dtype="float32"), z: R.Tensor(("n", 1), dtype="float32"), w: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor(("n", 4), dtype="bool")):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16}})
        with R.dataflow():
            lv: R.Tensor((n, 4), dtype="float32") = R.add(x, y)
            lv1: R.Tensor((n, 4), dtype="float32") = R.multiply(z, w)
            lv2: R.Tensor((n, 4), dtype="float32") = R.subtract(lv, lv1)
            lv3: R.Tensor((n, 4), dtype="float32") = R.divide(lv2, y)
            lv4: R.Tensor((n, 4), dtype="float32") = R.maximum(lv3, z)
            lv5: R.Tensor((n, 4), dtype="float32") = R.minimum(lv4, w)
            lv6: R.Tensor((n, 4), dtype="bool") = R.less(lv5, x)
            gv = (lv5, lv6)
            R.output(gv)
        return gv
