# issue 5's module (tests/memplan/issue_fit.py) with m at most 8: the
# storage of 16 bytes holds the m floats only when m <= 4, a runtime check
# of the plan that the generated entry performs before writing anything.
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
        R.func_attr({"relax.force_pure": True, "tir_var_upper_bound": {"m": 8}})
        cls = Module
        storage: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((m,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([m]), R.dtype("float32"), R.prim_value(0))
        cls.exp(x, alloc)
        y: R.Tensor((m,), dtype="float32") = alloc
        storage_1: R.Object = R.memory.alloc_storage(R.shape([m * 4]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_1: R.Tensor((m,), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([m]), R.dtype("float32"), R.prim_value(0))
        cls.exp(y, alloc_1)
        R.memory.kill_tensor(alloc)
        R.memory.kill_storage(storage)
        z: R.Tensor((m,), dtype="float32") = alloc_1
        return z
