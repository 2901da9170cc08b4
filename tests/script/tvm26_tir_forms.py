# TVM v0.26's TIR spellings: quoted symbolic dims in buffer parameters with
# `n = T.int64()` in the body (instead of T.handle + T.match_buffer),
# layout=None in T.Buffer, `v: T.let[T.float32] = ...`, a trailing comma
# in T.Cast.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(A: T.Buffer(("n", T.int64(4)), "float32"), B: T.Buffer(("n", T.int64(4)), "float32", layout=None)):
        n = T.int64()
        for i, j in T.grid(n, T.int64(4)):
            v: T.let[T.float32] = T.Cast("float32", A[i, j],)
            B[i, j] = v + T.float32(1)

    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Module
        gv = R.call_tir(cls.add_one, (x,), out_ty=R.Tensor((n, 4), dtype="float32"))
        return gv
