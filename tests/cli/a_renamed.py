@I.ir_module
class Renamed:
    @R.function
    def main(a: R.Tensor(("m", 4), dtype="float32"), b: R.Tensor((1, 4), dtype="float32")) -> R.Tensor(("m", 4), dtype="float32"):
        m = T.int64()
        with R.dataflow():
            t0: R.Tensor((m, 4), dtype="float32") = R.add(a, b)
            out: R.Tensor((m, 4), dtype="float32") = R.multiply(t0, t0)
            R.output(out)
        return out
