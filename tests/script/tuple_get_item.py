# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# R.TupleGetItem(t, i), TVM's node class, reads as t[i]: of a var, of a
# nested tuple (bound to a fresh var first) and of a tuple literal.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((3,), dtype="int32")) -> R.Tensor((2, 3), dtype="float32"):
        t = (x, (y, x))
        a = R.TupleGetItem(t, 0)
        b = R.TupleGetItem(R.TupleGetItem(t, 1), 1)
        c = R.TupleGetItem(R.tuple(a, b), 1)
        d = R.add(a, c)
        return d
