# Not in place: a matmul (not elementwise: C[i, j] accumulates A[i, k] for
# every k, so writing C over A would clobber rows still to be read).  a0
# (s0, 16 bytes) dies at mm, whose output a1 (s1) has the same 16 bytes.
# test_mp_plan.c adds "op_pattern": 0 to mm's attributes: a claim the
# planner does not trust.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(A: T.Buffer((T.int64(2), T.int64(2)), "float32"), B: T.Buffer((T.int64(2), T.int64(2)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(2)):
            B[i0, i1] = T.exp(A[i0, i1])

    @T.prim_func(private=True)
    def mm(A: T.Buffer((T.int64(2), T.int64(2)), "float32"), W: T.Buffer((T.int64(2), T.int64(2)), "float32"), C: T.Buffer((T.int64(2), T.int64(2)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(2)):
            C[i0, i1] = T.float32(0.0)
            for k in range(T.int64(2)):
                C[i0, i1] = C[i0, i1] + A[i0, k] * W[k, i1]

    @R.function
    def main(x: R.Tensor((2, 2), dtype="float32"), w: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        s0: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a0: R.Tensor((2, 2), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([2, 2]), R.dtype("float32"), R.prim_value(0))
        cls.exp(x, a0)
        s1: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a1: R.Tensor((2, 2), dtype="float32") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([2, 2]), R.dtype("float32"), R.prim_value(0))
        cls.mm(a0, w, a1)
        s2: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a2: R.Tensor((2, 2), dtype="float32") = R.memory.alloc_tensor(s2, R.prim_value(0), R.shape([2, 2]), R.dtype("float32"), R.prim_value(0))
        cls.exp(a1, a2)
        return a2
