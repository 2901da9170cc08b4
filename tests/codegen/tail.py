# The last n - m elements of x: the output's shape (n - m,) is negative when
# m > n, which the generated entry refuses (error SHAPE) before writing.
# y only brings m.  Used by tests/unit/test_codegen.c.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def tail(var_x: T.handle, var_out: T.handle, m: T.int64):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        x = T.match_buffer(var_x, (n,), "float32")
        out = T.match_buffer(var_out, (n - m,), "float32")
        for i in range(n - m):
            out[i] = x[i + m] * T.float32(2.0)

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("n - m",), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"m": 8, "n": 8}})
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.tail, (x,), out_sinfo=R.Tensor((n - m,), dtype="float32"), tir_vars=R.shape([m]))
            R.output(gv)
        return gv
