# Kill ops in a function marked pure by relax.force_pure.
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        storage: R.Object = R.memory.alloc_storage(R.shape([64]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        t: R.Tensor((16,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([16]), R.dtype("float32"), R.prim_value(0))
        R.memory.kill_storage(storage)
        y: R.Tensor((16,), dtype="float32") = R.add(x, t)
        R.memory.kill_tensor(t)
        return y
