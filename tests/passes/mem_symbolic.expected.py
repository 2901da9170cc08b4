# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def addone(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(4)), "float32")
        B = T.match_buffer(var_B, (n, T.int64(4)), "float32")
        for i, j in T.grid(n, T.int64(4)):
            with T.block("b"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] + T.float32(1.0)

    @T.prim_func(private=True)
    def scale(var_A: T.handle, var_B: T.handle, m: T.int64):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(4)), "float32")
        B = T.match_buffer(var_B, (n, T.int64(4)), "float32")
        for i, j in T.grid(n, T.int64(4)):
            with T.block("b"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.Cast("float32", m)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Module
        storage: R.Object = R.memory.alloc_storage(R.shape([n * 16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"), R.prim_value(0))
        cls.addone(x, alloc)
        a: R.Tensor((n, 4), dtype="float32") = alloc
        storage_1: R.Object = R.memory.alloc_storage(R.shape([n * 16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_1: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"), R.prim_value(0))
        cls.scale(a, alloc_1, R.prim_value(n + 1))
        R.memory.kill_tensor(alloc)
        R.memory.kill_storage(storage)
        b: R.Tensor((n, 4), dtype="float32") = alloc_1
        return b
