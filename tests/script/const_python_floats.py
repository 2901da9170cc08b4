# Hand-written spellings of special floats: float("nan"), float("inf"), -float("inf").
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float64")) -> R.Tensor((2,), "float64"):
        with R.dataflow():
            lo = R.const(-float("inf"), "float64")
            hi = R.const(float("inf"), "float64")
            lv = R.maximum(x, lo)
            lv1 = R.minimum(lv, hi)
            lv2 = R.add(lv1, R.const([float("nan"), 1e-300], "float64"))
            gv = R.multiply(lv2, R.const(1.0e+300, "float64"))
            R.output(gv)
        return gv
