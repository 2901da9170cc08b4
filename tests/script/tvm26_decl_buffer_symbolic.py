# A T.decl_buffer whose size is a symbolic dim: the first n elements of A.
# The interpreter refuses n > 4 (the declaration would cover more bytes
# than A holds); the C generator cannot prove it fits and refuses to
# compile (tests/agree/tir_forms_check.py).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def head(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer(("n",), "float32")):
        n = T.int64()
        C = T.decl_buffer((n,), "float32", data=A.data)
        for i in range(n):
            B[i] = C[i]

    @R.function
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Module
        gv = R.call_tir(cls.head, (x,), out_ty=R.Tensor((n,), dtype="float32"))
        return gv
