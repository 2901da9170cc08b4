# Lifetimes: a kill_storage before the last use of its tensor (the bytes stay
# live), aliases through a tuple and a tuple-get, storages used in and
# allocated in the branches of an if (live over the whole if), and an
# output storage (not in the arena).  Steps, numbered by hand in
# test_mp_plan.c, are in the comments.
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

    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        s0: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a0: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        R.memory.kill_storage(s0)
        cls.exp(x, a0)
        t: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = (a0, x)
        s1: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a1: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        g: R.Tensor((4,), dtype="float32") = t[0]
        cls.exp(g, a1)
        R.memory.kill_tensor(a0)
        if c:
            s2: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
            a2: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s2, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
            cls.exp(a1, a2)
            y: R.Tensor((4,), dtype="float32") = a2
        else:
            s3: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
            a3: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s3, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
            cls.exp(a1, a3)
            y: R.Tensor((4,), dtype="float32") = a3
        s4: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a4: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s4, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.exp(y, a4)
        return a4
