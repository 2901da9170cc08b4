# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# R.memory.view's dtype given by a var (bound to an R.dtype, or a
# parameter): inference leaves the view's dtype unknown, as TVM's does
# when it cannot see the R.dtype; an annotation may state it.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="int32")) -> R.Tensor((4,), dtype="float32"):
        dtype = R.dtype("float32")
        y: R.Tensor((4,), dtype="float32") = R.memory.view(x, dtype=dtype)
        return y

    @R.function(private=True)
    def param_dtype(x: R.Tensor((4,), dtype="int32"), dtype: R.Object) -> R.Tensor:
        y = R.memory.view(x, dtype=dtype)
        return y
