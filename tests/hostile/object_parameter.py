# A parameter C generation cannot pass (an R.Object after a tensor): an
# error, and (found by fuzz_pipeline) no leak on the way out.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((5,), dtype="float32"), obj: R.Object) -> R.Tensor((5,), dtype="float32"):
        with R.dataflow():
            gv: R.Tensor((5,), dtype="float32") = R.exp(x)
            R.output(gv)
        return gv
