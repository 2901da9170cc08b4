# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((1, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 4), dtype="float32") = R.add(x, y)
            gv: R.Tensor((n, 4), dtype="float32") = R.multiply(lv, lv)
            R.output(gv)
        return gv
