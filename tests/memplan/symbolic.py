# Two intermediates of m * 4 bytes and an output: without a bound on m the
# plan is symbolic (offsets and the arena size are expressions of m).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(var_A: T.handle, var_T_exp: T.handle):
        T.func_attr({"tir.noalias": True})
        m = T.int64()
        A = T.match_buffer(var_A, (m,), "float32")
        T_exp = T.match_buffer(var_T_exp, (m,), "float32")
        for i0 in range(m):
            T_exp[i0] = T.exp(A[i0])

    @R.function
    def main(x: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("m",), dtype="float32"):
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Module
        s0: R.Object = R.memory.alloc_storage(R.shape([m * 4]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a0: R.Tensor((m,), dtype="float32") = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([m]), R.dtype("float32"), R.prim_value(0))
        cls.exp(x, a0)
        s1: R.Object = R.memory.alloc_storage(R.shape([m * 4]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a1: R.Tensor((m,), dtype="float32") = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([m]), R.dtype("float32"), R.prim_value(0))
        cls.exp(a0, a1)
        s2: R.Object = R.memory.alloc_storage(R.shape([m * 4]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        a2: R.Tensor((m,), dtype="float32") = R.memory.alloc_tensor(s2, R.prim_value(0), R.shape([m]), R.dtype("float32"), R.prim_value(0))
        cls.exp(a1, a2)
        return a2
