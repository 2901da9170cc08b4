# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        y = R.call_dps_packed(R.ExternFunc("ext.copy"), (x,), out_sinfo=R.Tensor((2,), dtype="float32"))
        z: R.Tensor((2,), dtype="float32") = R.call_packed("ext.negate", y, sinfo_args=R.Tensor((2,), dtype="float32"))
        return z
