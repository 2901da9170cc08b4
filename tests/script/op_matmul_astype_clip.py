# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((4, 8), dtype="float16"), b: R.Tensor((8, 2), dtype="float16")) -> R.Tensor((4, 2), dtype="int8"):
        with R.dataflow():
            lv: R.Tensor((4, 2), dtype="float32") = R.matmul(a, b, out_dtype="float32")
            lv1: R.Tensor((4, 2), dtype="float32") = R.clip(lv, R.prim_value(-128), R.prim_value(127))
            lv2: R.Tensor((4, 2), dtype="float32") = R.clip(lv1, min=-100, max=100)
            lv3: R.Tensor((4, 2), dtype="int8") = R.astype(lv2, dtype="int8")
            lv4: R.Tensor((4, 2), dtype="float16") = R.matmul(a, b, out_dtype="void")
            lv5: R.Tensor((4, 2), dtype="int8") = R.astype(lv4, dtype="int8")
            gv: R.Tensor((4, 2), dtype="int8") = R.maximum(lv3, lv5)
            R.output(gv)
        return gv
