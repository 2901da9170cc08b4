# Ops inside if branches, a local function and a closure, beside a
# call_tir that LegalizeOps keeps as it is; a global named like a
# generated one (exp) makes the new prim_func take the next name.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        for i in range(T.int64(4)):
            B[i] = T.exp(A[i])

    @R.function
    def main(cond: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        e = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
        if cond:
            lv: R.Tensor((4,), dtype="float32") = R.add(x, e)
            y: R.Tensor((4,), dtype="float32") = R.exp(lv)
        else:
            lv1: R.Tensor((4,), dtype="float32") = R.multiply(x, x)
            y: R.Tensor((4,), dtype="float32") = R.negative(lv1)

        @R.function
        def shift(t: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
            r: R.Tensor((4,), dtype="float32") = R.subtract(t, y)
            return r

        z: R.Tensor((4,), dtype="float32") = shift(x)
        return z
