# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(A: T.Buffer((T.int64(2), T.int64(4)), "float32"), B: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i0, i1 in T.grid(T.int64(2), T.int64(4)):
            with T.block("compute"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(A[v_i0, v_i1])
                T.writes(B[v_i0, v_i1])
                B[v_i0, v_i1] = T.exp(A[v_i0, v_i1])

    @R.function(pure=False)
    def main(x: R.Tensor((2, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        cls = Module
        storage: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2, 4]), R.dtype("float32"), R.prim_value(0))
        R.memory.kill_storage(storage)
        cls.exp(x, alloc)
        y: R.Tensor((2, 4), dtype="float32") = alloc
        storage1: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc1: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(storage1, R.prim_value(0), R.shape([2, 4]), R.dtype("float32"), R.prim_value(0))
        R.memory.kill_storage(storage1)
        cls.exp(y, alloc1)
        z: R.Tensor((2, 4), dtype="float32") = alloc1
        R.memory.kill_tensor(alloc)
        return z
