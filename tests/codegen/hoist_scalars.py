# ONNX Clip's form: maximum and minimum with 0-d bounds read by the kernel.
# codegen reads lo[0] and hi[0] once at the kernel's entry, so no load sits
# in the arms of the NaN-propagating ?: (gcc then vectorizes the loop).
# Used by tests/unit/test_codegen.c (test_hoisted_scalars).
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 32), dtype="float32"), lo: R.Tensor((), dtype="float32"), hi: R.Tensor((), dtype="float32")) -> R.Tensor((4, 32), dtype="float32"):
        with R.dataflow():
            a: R.Tensor((4, 32), dtype="float32") = R.maximum(x, lo)
            b: R.Tensor((4, 32), dtype="float32") = R.minimum(a, hi)
            R.output(b)
        return b
