# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fill_iota(var_out: T.handle, n: T.int64):
        T.func_attr({"tir.noalias": T.bool(True)})
        out = T.match_buffer(var_out, (n,), "int64")
        for i in range(n):
            with T.block("iota"):
                v_i = T.axis.spatial(n, i)
                T.reads()
                T.writes(out[v_i])
                out[v_i] = v_i

    @R.function
    def main(s: R.Shape(["n"])) -> R.Tensor(("n",), dtype="int64"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.fill_iota, R.tuple(), out_sinfo=R.Tensor((n,), dtype="int64"), tir_vars=R.shape([n]))
            R.output(gv)
        return gv
