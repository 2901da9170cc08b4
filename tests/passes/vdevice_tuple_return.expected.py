# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0), I.vdevice("cuda", 0)]})

    @R.function
    def main(x: R.Tensor((2,), "float32", vdevice="llvm:0"), y: R.Tensor((2,), "float32", vdevice="cuda:0")) -> R.Tuple(R.Tensor((2,), "float32", vdevice="llvm:0"), R.Tensor((2,), "float32", vdevice="cuda:0")):
        with R.dataflow():
            a: R.Tensor((2,), "float32", vdevice="llvm:0") = R.abs(x)
            b: R.Tensor((2,), "float32", vdevice="cuda:0") = R.sqrt(y)
            t: R.Tuple(R.Tensor((2,), "float32", vdevice="llvm:0"), R.Tensor((2,), "float32", vdevice="cuda:0")) = (a, b)
            t1: R.Tensor((2,), "float32", vdevice="cuda:0") = t[1]
            gv: R.Tuple(R.Tensor((2,), "float32", vdevice="llvm:0"), R.Tensor((2,), "float32", vdevice="cuda:0")) = (a, t1)
            R.output(gv)
        return gv
