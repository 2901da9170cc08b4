# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 2), dtype="float32"), y: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor((4, 2), dtype="float32"):
        with R.dataflow():
            a: R.Tensor(dtype="float32", ndim=2) = R.concat((x, y), axis=1)
            b: R.Tensor((4, 2), dtype="float32") = R.add(x, x)
            R.output(b)
        return b
