# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((), dtype="bool"), b: R.Prim("bool"), x: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
        if a:
            if b:
                inner: R.Tensor((2, 2), dtype="float32") = R.add(x, x)
            else:
                inner: R.Tensor((2, 2), dtype="float32") = R.subtract(x, x)
            y: R.Tensor((2, 2), dtype="float32") = R.tanh(inner)
        else:
            y: R.Tensor((2, 2), dtype="float32") = x
        with R.dataflow():
            gv: R.Tensor((2, 2), dtype="float32") = R.sigmoid(y)
            R.output(gv)
        return gv
