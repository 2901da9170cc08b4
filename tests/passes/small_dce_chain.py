# DeadCodeElimination across a dataflow block, an if and a local function:
# dead chains go to a fixed point, a dataflow output nobody uses goes, an
# emptied block goes, a match_cast stays (it checks and defines m), the
# live values and the effect in a branch stay.
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor(("n", 3), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv0: R.Tensor((n, 3), dtype="float32") = R.add(x, x)
            lv1: R.Tensor((n, 3), dtype="float32") = R.multiply(lv0, lv0)
            dead0: R.Tensor((n, 3), dtype="float32") = R.exp(lv1)
            dead1: R.Tensor((n, 3), dtype="float32") = R.negative(dead0)
            gv_dead: R.Tensor((n, 3), dtype="float32") = R.add(dead1, x)
            gv: R.Tensor((n, 3), dtype="float32") = R.subtract(lv1, x)
            R.output(gv_dead, gv)
        with R.dataflow():
            unused: R.Tensor((n, 3), dtype="float32") = R.add(gv, gv)
            R.output()
        m: R.Tensor((n, 3), dtype="float32") = R.match_cast(gv, R.Tensor((n, 3), dtype="float32"))
        if c:
            t0: R.Tensor((n, 3), dtype="float32") = R.add(gv, x)
            t1: R.Tensor((n, 3), dtype="float32") = R.multiply(t0, t0)
            R.print(x, format="then {}")
            r: R.Tensor((n, 3), dtype="float32") = R.negative(gv)
        else:
            r: R.Tensor((n, 3), dtype="float32") = R.exp(gv)
        @R.function
        def local(y: R.Tensor((n, 3), dtype="float32")) -> R.Tensor((n, 3), dtype="float32"):
            z0: R.Tensor((n, 3), dtype="float32") = R.add(y, y)
            z1: R.Tensor((n, 3), dtype="float32") = R.multiply(y, y)
            return z1
        dead_if_pure: R.Tensor((n, 3), dtype="float32") = local(r)
        lr: R.Tensor((n, 3), dtype="float32") = local(m)
        out: R.Tensor((n, 3), dtype="float32") = R.add(r, lr)
        return out
