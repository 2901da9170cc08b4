# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# x.astype(dtype), TVM's method of Relax expressions, reads as R.astype:
# positional or keyword, on a var, on a call's result, chained.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), t: R.Tensor((2, 3), dtype="int64")) -> R.Tensor((2, 3), dtype="float16"):
        a = t.astype("float32")
        b = R.multiply(x, a).astype(dtype="float16")
        c = -x * t.astype("float32")
        d = c.astype("int32").astype("float16")
        e = R.add(b, d)
        return e
