# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "tag": ""}, 0, "global")]})

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0"), y: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0")) -> R.Tensor((2, 3), dtype="float32", vdevice="llvm:0"):
        with R.dataflow():
            lv: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0") = R.add(x, y)
            gv: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0") = R.nn.relu(lv)
            R.output(gv)
        return gv
