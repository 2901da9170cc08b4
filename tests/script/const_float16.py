# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 2), dtype="float16")) -> R.Tensor((2, 2), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 2), dtype="float16") = R.multiply(x, R.const([[1.0, 0.5], [0.25, 65504.0]], "float16"))
            lv1: R.Tensor((2, 2), dtype="float16") = R.add(lv, R.const(0.0999755859375, "float16"))
            gv: R.Tensor((2, 2), dtype="float32") = R.astype(lv1, dtype="float32")
            R.output(gv)
        return gv
