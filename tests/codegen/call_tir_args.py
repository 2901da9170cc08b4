# Hand-written R.call_tir and R.call_tir_inplace whose prim_funcs state
# shape relations in their buffers (issue 16): addk reads a, b and c at the
# same n, so x and y must agree; inc overwrites its argument, which must
# have the shape of the declared output (m,).  The interpreter refuses a
# call that breaks either; the generated entry returns NAME_ERR_MATCH
# before writing.  Used by tests/unit/test_codegen.c (test_relations).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def addk(var_a: T.handle, var_b: T.handle, var_c: T.handle):
        n = T.int64()
        a = T.match_buffer(var_a, (n,), "float32")
        b = T.match_buffer(var_b, (n,), "float32")
        c = T.match_buffer(var_c, (n,), "float32")
        for i in range(n):
            c[i] = a[i] + b[i]

    @T.prim_func(private=True)
    def inc(var_a: T.handle):
        n = T.int64()
        a = T.match_buffer(var_a, (n,), "float32")
        for i in range(n):
            a[i] = a[i] + T.float32(1)

    @R.function
    def main(x: R.Tensor(("n",), "float32"), y: R.Tensor(("m",), "float32"), q: R.Tensor(("p",), "float32")):
        n = T.int64()
        m = T.int64()
        p = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8, "m": 8, "p": 8}})
        cls = Module
        with R.dataflow():
            z = R.call_tir(cls.addk, (x, y), out_sinfo=R.Tensor((n,), "float32"))
            w = R.call_tir_inplace(cls.inc, (z,), inplace_indices=[0], out_sinfo=R.Tensor((p,), "float32"))
            R.output(w)
        return w
