# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
        storage: R.Object = R.vm.alloc_storage(R.shape([64]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        t: R.Tensor((4, 4), dtype="float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([4, 4]), R.dtype("float32"), R.prim_value(0))
        R.vm.kill_object(storage)
        y: R.Tensor((4, 4), dtype="float32") = R.add(x, t)
        R.vm.kill_object(t)
        s2 = R.vm.alloc_storage(R.shape([64]), runtime_device_index=0, dtype="uint8")
        t2 = R.vm.alloc_tensor(s2, 0, R.shape([4, 4]), "float32")
        _ = R.vm.kill_object(s2)
        z: R.Tensor((4, 4), dtype="float32") = R.multiply(y, t2)
        _ = R.vm.kill_object(t2)
        return z
