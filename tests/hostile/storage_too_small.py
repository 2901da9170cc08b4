# A tensor of 16 bytes viewing a storage of 8.
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        s: R.Object = R.memory.alloc_storage(R.shape([8]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        t: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([4]), R.dtype("float32"))
        return t
