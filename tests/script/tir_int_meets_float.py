# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# An int expression meeting a float one in TIR arithmetic takes the float's
# dtype, as TVM's operators do: a typed literal becomes a float literal, a
# load or variable a cast.  (It once stayed int32 and printed as a bare 1,
# which read back as a float: printing was not a fixed point.)
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def mix(A: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(4),), "int32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("B"):
                vi = T.axis.spatial(T.int64(4), i)
                B[vi] = T.int32(1) + A[vi] * C[vi] - T.int64(2)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), c: R.Tensor((4,), dtype="int32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.mix, (x, c), out_sinfo=R.Tensor((4,), dtype="float32"))
        return gv
