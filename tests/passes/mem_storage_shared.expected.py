# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def addone(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("b"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi] + T.float32(1.0)

    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        storage: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        b: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(16), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.addone(x, a)
        cls.addone(a, b)
        R.memory.kill_tensor(a)
        storage1: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        r: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage1, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.addone(b, r)
        R.memory.kill_tensor(b)
        R.memory.kill_storage(storage)
        return r
