# R.power on integers (ONNX Pow with an int base): the generated C needs
# integer power by squaring (rxc_pow_i32/_i64), as the interpreter computes
# it: a negative exponent gives 0 but for bases 1 and -1.  Run against the
# interpreter by tests/unit/test_codegen.c.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 3), dtype="int32"), y: R.Tensor((4, 3), dtype="int32"), a: R.Tensor((5,), dtype="int64")) -> R.Tuple(R.Tensor((4, 3), dtype="int32"), R.Tensor((5,), dtype="int64")):
        with R.dataflow():
            p: R.Tensor((4, 3), dtype="int32") = R.power(x, y)
            q: R.Tensor((5,), dtype="int64") = R.power(a, R.const([0, 1, 3, -2, 5], "int64"))
            gv: R.Tuple(R.Tensor((4, 3), dtype="int32"), R.Tensor((5,), dtype="int64")) = (p, q)
            R.output(gv)
        return gv
