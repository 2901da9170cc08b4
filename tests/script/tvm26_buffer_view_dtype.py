# TVM v0.26's `A.view("dtype")`: A's bytes as another dtype, the last dim
# scaled by the ratio of the element sizes (int32 (4,) as int16 (8,)); rxc
# prints it as T.decl_buffer(..., data=A.data).  The interpreter runs it
# (halves = the low 16 bits of each little-endian int32, test_cli.c); the C
# generator refuses it (C's aliasing rules), test_cli.c checks the message.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def low_halves(A: T.Buffer((T.int64(4),), "int32"), B: T.Buffer((T.int64(4),), "int16")):
        h = A.view("int16")
        for i in range(T.int64(4)):
            B[i] = h[i * T.int64(2)]

    @R.function
    def main(a: R.Tensor((4,), "int32")) -> R.Tensor((4,), dtype="int16"):
        cls = Module
        gv = R.call_tir(cls.low_halves, (a,), out_ty=R.Tensor((4,), dtype="int16"))
        return gv
