# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# R.call_packed's keywords other than sinfo_args are attributes of the call
# (TVM's reader takes them so); they print before sinfo_args.
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Object:
        o = R.call_packed("my.stack", x, x, test_attr=True, level=2, ty_args=R.Any())
        return o
