# An MLP whose batch dim n has no upper bound (issue 32): the arena holds
# the (n, 8) intermediate, so its size is a formula of n.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 8), dtype="float32"), w2: R.Tensor((8, 2), dtype="float32")) -> R.Tensor(("n", 2), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 8), dtype="float32") = R.matmul(x, w, out_dtype="void")
            lv1: R.Tensor((n, 8), dtype="float32") = R.nn.relu(lv)
            gv: R.Tensor((n, 2), dtype="float32") = R.matmul(lv1, w2, out_dtype="void")
            R.output(gv)
        return gv
