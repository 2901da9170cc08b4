# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), k: R.Prim("int64")) -> R.Tuple(R.Shape(["n", "m"]), R.Shape([4, "n * m"]), R.Prim("int64"), R.Prim("int32"), R.Prim("float32"), R.Object, R.Object):
        n = T.int64()
        m = T.int64()
        s: R.Shape([n, m]) = R.shape_of(x)
        s1: R.Shape([4, n * m]) = R.shape([4, n * m])
        p: R.Prim("int64") = R.prim_value(7)
        p1: R.Prim("int32") = R.prim_value(T.int32(-3))
        p2: R.Prim("float32") = R.prim_value(T.float32(0.5))
        st: R.Object = R.str("global")
        dt: R.Object = R.dtype("float16")
        return (s, s1, p, p1, p2, st, dt)
