# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((3, 4), dtype="float32")) -> R.Tensor((3, 4), dtype="float32"):
        y: R.Tensor((3, 4), dtype="float32") = R.call_packed("test.vm.identity", x, sinfo_args=(R.Tensor((3, 4), dtype="float32"),))
        z = R.call_packed("test.vm.scale", y, R.prim_value(2), sinfo_args=(R.Tensor((3, 4), dtype="float32"),))
        R.call_packed("test.vm.log_tensor", z, sinfo_args=(R.Tuple,))
        s: R.Shape([3, 4]) = R.call_packed("vm.builtin.shape_of", z, sinfo_args=(R.Shape([3, 4]),))
        return z
