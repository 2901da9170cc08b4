# DeadCodeElimination keeps an unused R.concat whose tuple holds a tensor
# of unknown shape: its relations (equal dims but the axis) are decided at
# run time, where the interpreter refuses them (refuse.py seed 625559: a
# dead concat of a batch_norm result was dropped, so the C ran where the
# interpreter refused).
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 2), dtype="float32"), y: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor((4, 2), dtype="float32"):
        with R.dataflow():
            a: R.Tensor(dtype="float32", ndim=2) = R.concat((x, y), axis=1)
            b: R.Tensor((4, 2), dtype="float32") = R.add(x, x)
            c: R.Tensor((4, 4), dtype="float32") = R.concat((x, x), axis=1)
            R.output(b)
        return b
