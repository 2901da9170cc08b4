# Three 4 MiB tensors against an arena_limit of 1 MiB.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1024, 1024), dtype="float32")) -> R.Tensor((1024, 1024), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((1024, 1024), dtype="float32") = R.exp(x)
            b: R.Tensor((1024, 1024), dtype="float32") = R.matmul(a, a)
            gv: R.Tensor((1024, 1024), dtype="float32") = R.nn.relu(b)
            R.output(gv)
        return gv
