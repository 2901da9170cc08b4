# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A bare tuple statement (`R.tuple()` after a packed call, as TVM's tests
# write) is bound to '_' like a bare call; it prints as `_ = R.tuple()`.
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tuple:
        R.call_packed("dummy", x, sinfo_args=(R.Tuple,))
        R.tuple()
        (x, x)
        return R.tuple()
