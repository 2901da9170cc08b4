# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("cuda", 0), I.vdevice("llvm", 0)]})

    @R.function
    def main(a: R.Tensor((2, 3), "float32", vdevice="cuda:0"), b: R.Tensor((2, 3), "float32", vdevice="cuda:0"), c: R.Tensor((2, 3), "float32", vdevice="llvm:0")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            lv0: R.Tensor((2, 3), "float32", vdevice="cuda:0") = R.add(a, b)
            lv1: R.Tensor((2, 3), "float32", vdevice="cuda:0") = lv0
            lv2: R.Tensor((2, 3), "float32", vdevice="llvm:0") = R.to_vdevice(lv1, dst_vdevice="llvm")
            lv3: R.Tensor((2, 3), "float32", vdevice="llvm:0") = R.multiply(lv2, c)
            R.output(lv3)
        return lv3
