# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# `for iters in T.grid(m, n)`: one name for all the grid's loops, which
# T.axis.remap takes whole; the loops print under their own names.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scale(a: T.handle, b: T.handle):
        m = T.int64()
        n = T.int64()
        A = T.match_buffer(a, (m, n))
        B = T.match_buffer(b, (m, n))
        for iters in T.grid(m, n):
            with T.block("compute"):
                i, j = T.axis.remap("SS", iters)
                B[i, j] = A[i, j] * T.float32(2)

    @R.function
    def main(x: R.Tensor(("m", "n"), dtype="float32")) -> R.Tensor(("m", "n"), dtype="float32"):
        m = T.int64()
        n = T.int64()
        cls = Module
        gv = R.call_tir(cls.scale, (x,), out_sinfo=R.Tensor((m, n), dtype="float32"))
        return gv
