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
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((2,), dtype="int32"), R.Tensor((2,), dtype="float32")):
        cls = Module
        a: R.Tensor((4,), dtype="float32") = R.const([2.0, 3.0, 4.0, 5.0], "float32")
        b: R.Tensor((4,), dtype="float32") = R.const([4.0, 6.0, 8.0, 10.0], "float32")
        t: R.Tuple(R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="float32")) = (R.const([4.0, 6.0], "float32"), R.const([8.0, 10.0], "float32"))
        t0: R.Tensor((2,), dtype="float32") = R.const([4.0, 6.0], "float32")
        d: R.Tensor((2,), dtype="int32") = R.const([2, 4], "int32")
        s: R.Tensor((4,), dtype="float32") = R.add(x, R.const([4.0, 6.0, 8.0, 10.0], "float32"))
        storage: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        e: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.addone(s, e)
        R.memory.kill_tensor(s)
        return (e, R.const([2, 4], "int32"), R.const([4.0, 6.0], "float32"))
