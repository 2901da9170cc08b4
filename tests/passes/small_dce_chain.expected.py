# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor(("n", 3), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv0: R.Tensor((n, 3), dtype="float32") = R.add(x, x)
            lv1: R.Tensor((n, 3), dtype="float32") = R.multiply(lv0, lv0)
            gv: R.Tensor((n, 3), dtype="float32") = R.subtract(lv1, x)
            R.output(gv)
        m: R.Tensor((n, 3), dtype="float32") = R.match_cast(gv, R.Tensor((n, 3), dtype="float32"))
        if c:
            R.print(x, format="then {}")
            r: R.Tensor((n, 3), dtype="float32") = R.negative(gv)
        else:
            r: R.Tensor((n, 3), dtype="float32") = R.exp(gv)
        @R.function
        def local(y: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
            z1: R.Tensor((n, 3), dtype="float32") = R.multiply(y, y)
            return z1
        lr: R.Tensor((n, 3), dtype="float32") = local(m)
        out: R.Tensor((n, 3), dtype="float32") = R.add(r, lr)
        return out
