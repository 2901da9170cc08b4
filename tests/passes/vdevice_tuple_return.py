# RealizeVDevice: the return annotation puts the tuple's fields on two
# devices; each reaches back through the tuple to its producer and inputs.
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0), I.vdevice("cuda", 0)]})

    @R.function
    def main(x: R.Tensor((2,), "float32"), y: R.Tensor((2,), "float32")) -> R.Tuple(R.Tensor((2,), "float32", vdevice="llvm:0"), R.Tensor((2,), "float32", vdevice="cuda:0")):
        with R.dataflow():
            a = R.abs(x)
            b = R.sqrt(y)
            t = (a, b)
            t1 = t[1]
            gv = (a, t1)
            R.output(gv)
        return gv
