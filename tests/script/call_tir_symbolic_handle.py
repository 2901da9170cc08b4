# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scale(var_A: T.handle, var_B: T.handle):
        T.func_attr({"tir.noalias": T.bool(True)})
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(4)), "float32")
        B = T.match_buffer(var_B, (n, T.int64(4)), "float32")
        # with T.block("root"):
        for i, j in T.grid(n, T.int64(4)):
            with T.block("B"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(A[v_i, v_j])
                T.writes(B[v_i, v_j])
                B[v_i, v_j] = A[v_i, v_j] * T.float32(0.5)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 512}})
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.scale, (x,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            R.output(gv)
        return gv
