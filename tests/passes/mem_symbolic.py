# passes: Normalize,CallTIRRewrite,KillAfterLastUse
# Symbolic shapes: the storage of an (n, 4) float32 output holds n * 16
# bytes; the TIR var m of the second call follows its output as
# R.prim_value(m).
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def addone(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(4)), "float32")
        B = T.match_buffer(var_B, (n, T.int64(4)), "float32")
        for i, j in T.grid(n, T.int64(4)):
            with T.block("b"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] + T.float32(1)

    @T.prim_func(private=True)
    def scale(var_A: T.handle, var_B: T.handle, m: T.int64):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(4)), "float32")
        B = T.match_buffer(var_B, (n, T.int64(4)), "float32")
        for i, j in T.grid(n, T.int64(4)):
            with T.block("b"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.Cast("float32", m)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        a = R.call_tir(Module.addone, (x,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
        b = R.call_tir(Module.scale, (a,), out_sinfo=R.Tensor((n, 4), dtype="float32"), tir_vars=R.shape([n + 1]))
        return b
