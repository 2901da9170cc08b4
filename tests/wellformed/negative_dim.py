# A tensor dim written as a negative literal: no tensor has one.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((-3, 4), dtype="float32")) -> R.Tensor((-3, 4), dtype="float32"):
        with R.dataflow():
            gv: R.Tensor((-3, 4), dtype="float32") = R.nn.relu(x)
            R.output(gv)
        return gv
