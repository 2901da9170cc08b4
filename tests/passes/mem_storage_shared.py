# passes: Normalize,KillAfterLastUse
# One storage, two tensors carved from it at different offsets: the
# storage is killed after the last use of the last of them (b, read by
# the add), not after the last alloc_tensor as TVM does.  The result
# tensor r has its own storage, which is never killed.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def addone(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("b"):
                vi = T.axis.spatial(T.int64(4), i)
                B[vi] = A[vi] + T.float32(1)

    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        storage = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        b = R.memory.alloc_tensor(storage, R.prim_value(16), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        Module.addone(x, a)
        Module.addone(a, b)
        storage1 = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        r = R.memory.alloc_tensor(storage1, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        Module.addone(b, r)
        return r
