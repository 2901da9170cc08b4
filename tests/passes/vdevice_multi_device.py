# RealizeVDevice: a, b meet in R.add, whose result is hinted onto cuda, so
# a, b, lv0 go to cuda (backward); lv2 is moved to llvm by R.to_vdevice and
# meets c (annotated llvm) in R.multiply; lv3 follows (forward).
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("cuda", 0), I.vdevice("llvm", 0)]})

    @R.function
    def main(a: R.Tensor((2, 3), "float32"), b: R.Tensor((2, 3), "float32"), c: R.Tensor((2, 3), "float32", vdevice="llvm")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            lv0 = R.add(a, b)
            lv1 = R.hint_on_device(lv0, R.device(dev_type=2, index=0))
            lv2 = R.to_vdevice(lv1, dst_vdevice="llvm")
            lv3 = R.multiply(lv2, c)
            R.output(lv3)
        return lv3
