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

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        storage: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.addone(x, alloc)
        a: R.Tensor((4,), dtype="float32") = alloc
        storage_1: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_1: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.addone(a, alloc_1)
        R.memory.kill_tensor(alloc)
        R.memory.kill_storage(storage)
        b: R.Tensor((4,), dtype="float32") = alloc_1
        if c:
            storage_2: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
            alloc_2: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage_2, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
            cls.addone(b, alloc_2)
            d: R.Tensor((4,), dtype="float32") = alloc_2
            storage_3: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
            alloc_3: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage_3, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
            cls.addone(d, alloc_3)
            R.memory.kill_tensor(alloc_2)
            R.memory.kill_storage(storage_2)
            z: R.Tensor((4,), dtype="float32") = alloc_3
        else:
            storage_4: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
            alloc_4: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage_4, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
            cls.addone(x, alloc_4)
            z: R.Tensor((4,), dtype="float32") = alloc_4
        R.memory.kill_tensor(alloc_1)
        R.memory.kill_storage(storage_1)
        storage_5: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_5: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage_5, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.addone(z, alloc_5)
        R.memory.kill_tensor(z)
        w: R.Tensor((4,), dtype="float32") = alloc_5
        storage_6: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_6: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage_6, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.addone(w, alloc_6)
        R.memory.kill_tensor(alloc_5)
        R.memory.kill_storage(storage_5)
        u: R.Tensor((4,), dtype="float32") = alloc_6
        return u
