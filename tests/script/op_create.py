# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), v: R.Tensor((), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 4), dtype="float32") = R.full(R.shape([n, 4]), v, dtype=None)
            lv1: R.Tensor((2, 3), dtype="int32") = R.full((2, 3), R.const(1, "int32"))
            lv2: R.Tensor((n, 4), dtype="float16") = R.full_like(x, v, dtype="float16")
            lv3: R.Tensor((2, 3), dtype="float32") = R.ones(R.shape([2, 3]), dtype="float32")
            lv4: R.Tensor((n, 4), dtype="int64") = R.ones_like(x, "int64")
            lv5: R.Tensor((3,), dtype="bool") = R.zeros((3,), "bool")
            lv6: R.Tensor((n, 4), dtype="float32") = R.zeros_like(x)
            lv7: R.Tensor((3, 4), dtype="float32") = R.eye(R.prim_value(3), R.prim_value(4), R.prim_value(1), dtype="float32")
            lv8: R.Tensor((n, 4), dtype="int32") = R.eye_like(x, k=-1, dtype="int32")
            lv9: R.Tensor((4,), dtype="int64") = R.arange(R.prim_value(0), R.prim_value(10), R.prim_value(3), dtype="int64")
            lv10: R.Tensor(((n + 1) // 2,), dtype="int64") = R.arange(0, n, 2)
            lv11: R.Tensor((5,), dtype="float32") = R.arange(R.prim_value(T.float64(0.5)), R.prim_value(T.float64(3.0)), R.prim_value(T.float64(0.5)))
            lv12: R.Tensor((20,), dtype="float32") = R.hamming_window(R.prim_value(20), R.prim_value(True), R.prim_value(T.float64(0.54000000000000004)), R.prim_value(T.float64(0.46000000000000002)), dtype="float32")
            lv13: R.Tensor((n, 4), dtype="float32") = R.tril(x, R.prim_value(1))
            gv: R.Tensor((n, 4), dtype="float32") = R.triu(lv13, k=n)
            R.output(gv)
        return gv
