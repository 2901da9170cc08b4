# In-place reuse: relu(exp(x)).  exp's result (a0 in s0) dies at relu, an
# elementwise prim_func writing a1 (s1, the same 16 bytes), so s1 takes
# s0's place.  exp(x, a0) reads a parameter and exp(lv1, a2) writes the
# result: neither is in place.  test_mp_plan.c makes variants by text
# replacement: a0 used later (add), s1 of another size, a FuseTIR-style
# prim_func with an intermediate buffer (fused), a broadcast second input
# (addb: in place), and a prim_func reading A[0] for every element (shift:
# not in place: B[0] would overwrite A[0] before later iterations read it),
# a reshape to (2, 2) as LegalizeOps writes it (reshape22: a view, in
# place) and a copy that moves elements (swap22: not in place).
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
    def relu(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0 in range(T.int64(4)):
            B[i0] = T.max(A[i0], T.float32(0.0))

    @T.prim_func(private=True)
    def add(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0 in range(T.int64(4)):
            C[i0] = A[i0] + B[i0]

    @T.prim_func(private=True)
    def addb(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(1),), "float32"), C: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0 in range(T.int64(4)):
            C[i0] = A[i0] + B[T.int64(0)]

    @T.prim_func(private=True)
    def shift(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0 in range(T.int64(4)):
            B[i0] = A[i0] - A[T.int64(0)]

    @T.prim_func(private=True)
    def reshape22(A: T.Buffer((T.int64(4),), "float32"), T_reshape: T.Buffer((T.int64(2), T.int64(2)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(2)):
            T_reshape[i0, i1] = A[(i0 * T.int64(2) + i1) % T.int64(4)]

    @T.prim_func(private=True)
    def swap22(A: T.Buffer((T.int64(4),), "float32"), T_reshape: T.Buffer((T.int64(2), T.int64(2)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(2)):
            T_reshape[i0, i1] = A[i1 * T.int64(2) + i0]

    @T.prim_func(private=True)
    def fused(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        T_exp = T.alloc_buffer((T.int64(4),), "float32")
        for i0 in range(T.int64(4)):
            T_exp[i0] = T.exp(A[i0])
        for i0 in range(T.int64(4)):
            B[i0] = T.max(T_exp[i0], T.float32(0.0))

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), b: R.Tensor((1,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        s0: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a0: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.exp(x, a0)
        lv0: R.Tensor((4,), dtype="float32") = a0
        s1: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a1: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.relu(lv0, a1)
        lv1: R.Tensor((4,), dtype="float32") = a1
        R.memory.kill_tensor(a0)
        R.memory.kill_storage(s0)
        s2: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a2: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(s2, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        cls.exp(lv1, a2)
        return a2
