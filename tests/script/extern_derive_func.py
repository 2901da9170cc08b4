# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# An extern called through an opaque R.Callable that names the function TVM
# derives the call's struct info with (rxc knows none: the result is
# R.Object); purity=True makes the call pure, so it may sit in a pure
# function.  Bound first, then called inline.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32")):
        f = R.ExternFunc("my.view", R.Callable(derive_func="my.derive_view", purity=True))
        a = f(x, R.shape([4, 4]))
        b = R.ExternFunc("my.view", R.Callable(derive_func="my.derive_view", purity=True))(x, R.shape([2, 8]))
        return (a, b)
