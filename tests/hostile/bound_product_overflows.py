# n <= 2^32 bounds each dim, but n * n * 4 bytes at the bounds overflows int64.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "n"), dtype="float32")) -> R.Tensor(("n", "n"), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 4294967296}})
        with R.dataflow():
            a: R.Tensor((n, n), dtype="float32") = R.exp(x)
            gv: R.Tensor((n, n), dtype="float32") = R.nn.relu(a)
            R.output(gv)
        return gv
