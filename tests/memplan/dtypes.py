# Reuse across dtypes: s0 (float32, 16 bytes) dies at step 5, before s2
# (int32, 16 bytes) is first viewed at step 7, so a packing planner may put
# both at one offset.  s3 is the output.  No storage is reused in place:
# rev reads A[3 - i] (not elementwise), and to_int's output has a dtype
# other than its input's (in place asks for one dtype and one shape).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0 in range(T.int64(4)):
            B[i0] = T.exp(A[i0])

    @T.prim_func(private=True)
    def rev(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0 in range(T.int64(4)):
            B[i0] = A[T.int64(3) - i0]

    @T.prim_func(private=True)
    def to_int(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "int32")):
        T.func_attr({"tir.noalias": True})
        for i0 in range(T.int64(4)):
            B[i0] = T.Cast("int32", A[i0])

    @T.prim_func(private=True)
    def to_float(A: T.Buffer((T.int64(4),), "int32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0 in range(T.int64(4)):
            B[i0] = T.Cast("float32", A[i0])

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        s0: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a0: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.exp(x, a0)
        s1: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a1: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.rev(a0, a1)
        s2: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("int32"))
        a2: R.Tensor((4,), dtype="int32") = R.memory.alloc_tensor(s2, R.prim_value(0), R.shape([4]), R.dtype("int32"), R.prim_value(0))
        cls.to_int(a1, a2)
        s3: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a3: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s3, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.to_float(a2, a3)
        return a3
