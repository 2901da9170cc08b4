# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def double(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(3)), "float32")
        B = T.match_buffer(var_B, (n, T.int64(3)), "float32")
        for i, j in T.grid(n, T.int64(3)):
            with T.block("B"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                B[v_i, v_j] = A[v_i, v_j] * T.float32(2)

    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 6}})
        cls = Module
        gv = R.call_tir(cls.double, (x,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
        return gv
