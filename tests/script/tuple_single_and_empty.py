# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tuple(R.Tensor((4,), dtype="float32")), R.Tuple):
        single: R.Tuple(R.Tensor((4,), dtype="float32")) = (x,)
        first: R.Tensor((4,), dtype="float32") = single[0]
        again: R.Tuple(R.Tensor((4,), dtype="float32")) = (first,)
        empty: R.Tuple = R.tuple()
        return (again, empty)
