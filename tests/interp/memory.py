# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def copy(var_A: T.handle, var_B: T.handle):
        m = T.int64()
        A = T.match_buffer(var_A, (m,), "float32")
        B = T.match_buffer(var_B, (m,), "float32")
        for i in range(m):
            with T.block("B"):
                v_i = T.axis.spatial(m, i)
                B[v_i] = A[v_i]

    @R.function(pure=False)
    def main(x: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("m",), dtype="float32"):
        m = T.int64()
        cls = Module
        storage: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((m,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([m]), R.dtype("float32"), R.prim_value(0))
        R.memory.kill_storage(storage)
        cls.copy(x, alloc)
        y: R.Tensor((m,), dtype="float32") = alloc
        R.memory.kill_tensor(alloc)
        return y

    @R.function(pure=False)
    def offset(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        cls = Module
        storage: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((2,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(12), R.shape([2]), R.dtype("float32"), R.prim_value(0))
        cls.copy(x, alloc)
        return alloc

    @R.function(pure=False)
    def after_kill(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        storage: R.Object = R.memory.alloc_storage(R.shape([64]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        R.memory.kill_storage(storage)
        alloc: R.Tensor((2,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2]), R.dtype("float32"), R.prim_value(0))
        return alloc

    @R.function
    def fresh(x: R.Tensor((3,), dtype="int32")) -> R.Tensor((2, 2), dtype="int32"):
        t: R.Tensor((2, 2), dtype="int32") = R.builtin.alloc_tensor(R.shape([2, 2]), R.dtype("int32"), R.prim_value(0))
        return t
