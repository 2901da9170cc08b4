# where (three operands broadcast together), clip (prim-value bounds),
# astype, and a prim value as a binary operand, over a symbolic batch.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32"), c: R.Tensor(("n", 1), dtype="bool"), y: R.Tensor((3,), dtype="float32")) -> R.Tensor(("n", 3), dtype="int32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16}})
        with R.dataflow():
            a = R.where(c, x, y)
            b = R.clip(a, R.prim_value(T.float32(-1.5)), R.prim_value(T.float32(1.5)))
            d = R.multiply(b, R.prim_value(T.float32(4.0)))
            gv = R.astype(d, dtype="int32")
            R.output(gv)
        return gv
