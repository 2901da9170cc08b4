# RealizeVDevice: y is on llvm (from x), so the hint onto cuda is a
# transfer: it becomes R.to_vdevice; w after it is on cuda.  The helper
# function has no hints and is left as it is.
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0), I.vdevice("cuda", 0)]})

    @R.function
    def helper(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.exp(x)
        return y

    @R.function
    def main(x: R.Tensor((4,), "float32", vdevice="llvm:0")) -> R.Tensor((4,), "float32"):
        y = R.exp(x)
        z = R.hint_on_device(y, R.device(dev_type=2, index=0))
        w = R.negative(z)
        return w
