# Smaller TVM v0.26 / TVM-test spellings: R.ExternFunc with its
# R.Callable, a bare tuple `a, (b,)` on a binding's right-hand side, a
# Python list as a Relax tuple, R.prim_value(...) where a TIR value is
# expected, and T.exp(x, dtype="float32").
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            B[i] = T.exp(A[i], dtype="float32")

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tuple(R.Tensor((4,), "float32"), R.Tuple(R.Tensor((4,), "float32"), R.Tensor((2,), "float32"))):
        cls = Module
        f = R.ExternFunc("my_ext", R.Callable((R.Tensor((4,), "float32"),), R.Tensor((4,), "float32")))
        y = R.call_tir(cls.exp, [x], out_ty=R.Tensor((4,), "float32"))
        z = R.strided_slice(y, (R.prim_value(0),), (R.prim_value(0),), (R.prim_value(2),))
        gv = y, (x, z)
        return gv
