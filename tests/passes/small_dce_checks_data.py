# DeadCodeElimination keeps an unused call whose kernel refuses some tensor
# values (OP_CHECKS_DATA: take's indices, an integer division's divisor),
# since the interpreter refuses it, and an unused R.call_tir of a
# prim_func holding an assert (what such an op lowers to); a float
# division and a call_tir without an assert go.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def checked(A: T.Buffer((T.int64(4),), "int64"), B: T.Buffer((T.int64(4),), "int64")):
        for i in range(T.int64(4)):
            assert A[i] != T.int64(0), "integer division by zero"
        for i in range(T.int64(4)):
            B[i] = A[i]

    @T.prim_func(private=True)
    def copy(A: T.Buffer((T.int64(4),), "int64"), B: T.Buffer((T.int64(4),), "int64")):
        for i in range(T.int64(4)):
            B[i] = A[i]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), i: R.Tensor((4,), dtype="int64")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        with R.dataflow():
            a: R.Tensor((4,), dtype="float32") = R.take(x, i, axis=0)
            b: R.Tensor((4,), dtype="int64") = R.floor_divide(i, i)
            c: R.Tensor((4,), dtype="float32") = R.divide(x, x)
            d = R.call_tir(cls.checked, (i,), out_sinfo=R.Tensor((4,), dtype="int64"))
            e = R.call_tir(cls.copy, (i,), out_sinfo=R.Tensor((4,), dtype="int64"))
            y: R.Tensor((4,), dtype="float32") = R.add(x, x)
            R.output(y)
        return y
