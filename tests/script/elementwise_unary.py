# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((4, 8), dtype="float32") = R.negative(x)
            lv1: R.Tensor((4, 8), dtype="float32") = R.abs(lv)
            lv2: R.Tensor((4, 8), dtype="float32") = R.exp(lv1)
            lv3: R.Tensor((4, 8), dtype="float32") = R.log(lv2)
            lv4: R.Tensor((4, 8), dtype="float32") = R.sqrt(lv3)
            lv5: R.Tensor((4, 8), dtype="float32") = R.rsqrt(lv4)
            lv6: R.Tensor((4, 8), dtype="float32") = R.tanh(lv5)
            lv7: R.Tensor((4, 8), dtype="float32") = R.sigmoid(lv6)
            lv8: R.Tensor((4, 8), dtype="float32") = R.erf(lv7)
            lv9: R.Tensor((4, 8), dtype="float32") = R.nn.gelu(lv8)
            lv10: R.Tensor((4, 8), dtype="float32") = R.nn.silu(lv9)
            gv: R.Tensor((4, 8), dtype="float32") = R.nn.relu(lv10)
            R.output(gv)
        return gv
