# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# An extern whose R.Callable says purity=False, called in a pure function.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32")):
        b = R.ExternFunc("my.view", R.Callable(derive_func="my.derive_view", purity=False))(x)
        return b
