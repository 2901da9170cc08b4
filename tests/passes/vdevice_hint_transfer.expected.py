# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0), I.vdevice("cuda", 0)]})

    @R.function
    def helper(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y: R.Tensor((4,), "float32") = R.exp(x)
        return y

    @R.function
    def main(x: R.Tensor((4,), "float32", vdevice="llvm:0")) -> R.Tensor((4,), "float32"):
        y: R.Tensor((4,), "float32", vdevice="llvm:0") = R.exp(x)
        z: R.Tensor((4,), "float32", vdevice="cuda:0") = R.to_vdevice(y, dst_vdevice="cuda:0")
        w: R.Tensor((4,), "float32", vdevice="cuda:0") = R.negative(z)
        return w
