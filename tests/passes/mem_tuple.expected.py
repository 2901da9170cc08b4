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

    @T.prim_func(private=True)
    def two(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("b"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi] * T.float32(2.0)
                C[vi] = A[vi] - T.float32(1.0)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        storage: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        storage_1: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_1: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.two(x, alloc, alloc_1)
        t: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = (alloc, alloc_1)
        t0: R.Tensor((4,), dtype="float32") = t[0]
        storage_2: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_2: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage_2, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.addone(t0, alloc_2)
        R.memory.kill_tensor(alloc)
        R.memory.kill_storage(storage)
        p: R.Tensor((4,), dtype="float32") = alloc_2
        t1: R.Tensor((4,), dtype="float32") = t[1]
        s: R.Tensor((4,), dtype="float32") = t1
        storage_3: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_3: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage_3, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.addone(s, alloc_3)
        R.memory.kill_tensor(alloc_1)
        R.memory.kill_storage(storage_1)
        q: R.Tensor((4,), dtype="float32") = alloc_3
        return (p, q)
