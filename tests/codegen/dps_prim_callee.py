# R.call_dps_packed whose callee is a prim_func of the module (not a packed
# function's name, which only TVM's runtime resolves): CallTIRRewrite
# makes its output explicit and calls the prim_func, as for R.call_tir; a
# tuple of two outputs, and a symbolic dim.  Run against the interpreter by
# tests/unit/test_codegen.c (at n = 1 and at its bound).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def split_sign(var_A: T.handle, var_P: T.handle, var_N: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(3)), "float32")
        P = T.match_buffer(var_P, (n, T.int64(3)), "float32")
        N = T.match_buffer(var_N, (n, T.int64(3)), "float32")
        for i, j in T.grid(n, T.int64(3)):
            P[i, j] = T.max(A[i, j], T.float32(0))
            N[i, j] = T.min(A[i, j], T.float32(0))

    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 4}})
        cls = Module
        with R.dataflow():
            pn = R.call_dps_packed(cls.split_sign, (x,), out_sinfo=[R.Tensor((n, 3), dtype="float32"), R.Tensor((n, 3), dtype="float32")])
            p = pn[0]
            m = pn[1]
            m2 = R.multiply(m, R.const(2.0, "float32"))
            gv = R.subtract(p, m2)
            R.output(gv)
        return gv
