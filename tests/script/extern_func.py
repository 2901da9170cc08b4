# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    ext_gemm = R.ExternFunc("ext_gemm")
    ext_relu = R.ExternFunc("ext.relu.v2")

    @R.function
    def main(a: R.Tensor((4, 4), dtype="float32"), b: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv = R.call_dps_packed(cls.ext_gemm, (a, b), out_sinfo=R.Tensor((4, 4), dtype="float32"))
            gv = R.call_dps_packed(cls.ext_relu, (lv,), out_sinfo=R.Tensor((4, 4), dtype="float32"))
            R.output(gv)
        return gv
