# FuseOps/FuseTIR test (LegalizeOps output): SiLU after a bias, x * sigmoid(x)
# with x = a + b.  x has two consumers, the sigmoid and the multiply, so the
# add's nest cannot take the multiply first; the multiply joins the
# sigmoid's nest (its other intermediate), and then the nest of the product,
# which reads only x, joins the add's: one nest, no intermediate left.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(A: T.Buffer((T.int64(2), T.int64(3), T.int64(5)), "float32"), B: T.Buffer((T.int64(1), T.int64(3), T.int64(1)), "float32"), T_add: T.Buffer((T.int64(2), T.int64(3), T.int64(5)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1, i2 in T.grid(T.int64(2), T.int64(3), T.int64(5)):
            T_add[i0, i1, i2] = A[i0, i1, i2] + B[T.int64(0), i1, T.int64(0)]

    @T.prim_func(private=True)
    def sigmoid(A: T.Buffer((T.int64(2), T.int64(3), T.int64(5)), "float32"), compute: T.Buffer((T.int64(2), T.int64(3), T.int64(5)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1, i2 in T.grid(T.int64(2), T.int64(3), T.int64(5)):
            compute[i0, i1, i2] = T.sigmoid(A[i0, i1, i2])

    @T.prim_func(private=True)
    def multiply(A: T.Buffer((T.int64(2), T.int64(3), T.int64(5)), "float32"), B: T.Buffer((T.int64(2), T.int64(3), T.int64(5)), "float32"), T_multiply: T.Buffer((T.int64(2), T.int64(3), T.int64(5)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1, i2 in T.grid(T.int64(2), T.int64(3), T.int64(5)):
            T_multiply[i0, i1, i2] = A[i0, i1, i2] * B[i0, i1, i2]

    @R.function
    def main(x: R.Tensor((2, 3, 5), dtype="float32"), b: R.Tensor((1, 3, 1), dtype="float32")) -> R.Tensor((2, 3, 5), dtype="float32"):
        cls = Module
        with R.dataflow():
            a: R.Tensor((2, 3, 5), dtype="float32") = R.call_tir(cls.add, (x, b), out_sinfo=R.Tensor((2, 3, 5), dtype="float32"))
            s: R.Tensor((2, 3, 5), dtype="float32") = R.call_tir(cls.sigmoid, (a,), out_sinfo=R.Tensor((2, 3, 5), dtype="float32"))
            gv: R.Tensor((2, 3, 5), dtype="float32") = R.call_tir(cls.multiply, (a, s), out_sinfo=R.Tensor((2, 3, 5), dtype="float32"))
            R.output(gv)
        return gv
