# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def checked(A: T.Buffer((T.int64(4),), "int64"), B: T.Buffer((T.int64(4),), "int64")):
        for i in range(T.int64(4)):
            assert A[i] != T.int64(0), ("RuntimeError", ["integer division by zero"])
        for i_1 in range(T.int64(4)):
            B[i_1] = A[i_1]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), i: R.Tensor((4,), dtype="int64")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        with R.dataflow():
            a: R.Tensor((4,), dtype="float32") = R.take(x, i, axis=0, mode="fast")
            b: R.Tensor((4,), dtype="int64") = R.floor_divide(i, i)
            d: R.Tensor((4,), dtype="int64") = R.call_tir(cls.checked, (i,), out_sinfo=R.Tensor((4,), dtype="int64"))
            y: R.Tensor((4,), dtype="float32") = R.add(x, x)
            R.output(y)
        return y
