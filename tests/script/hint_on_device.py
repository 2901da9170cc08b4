# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "tag": ""}, 0, "global")]})

    @R.function
    def main(x: R.Tensor((2, 2), dtype="float32"), y: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32", vdevice="llvm:0"):
        with R.dataflow():
            lv: R.Tensor((2, 2), dtype="float32") = R.hint_on_device(x, R.device(dev_type=1, index=0))
            lv1: R.Tensor((2, 2), dtype="float32") = R.hint_on_device(y, R.device(dev_type=1, index=0), memory_scope="global.texture")
            lv2: R.Tensor((2, 2), dtype="float32") = R.add(lv, lv1)
            gv: R.Tensor((2, 2), dtype="float32", vdevice="llvm:0") = R.to_vdevice(lv2, dst_vdevice="llvm:0")
            R.output(gv)
        return gv
