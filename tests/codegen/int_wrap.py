# Integer add, subtract, multiply and negative wrap in two's complement, as
# the interpreter computes them (and TVM's LLVM code): the generated C must
# not compute them in signed C arithmetic, whose overflow is undefined
# (tests/gen/samples.py --sanitize runs this under UBSan).  And T.bitwise_not
# of a bool in a hand-written prim_func is logical not, never C's ~ (which
# makes -2, still true, of true).  Run against the interpreter by
# tests/unit/test_codegen.c.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def flip(A: T.Buffer((T.int64(4),), "bool"), B: T.Buffer((T.int64(4),), "bool")):
        for i in range(T.int64(4)):
            B[i] = T.bitwise_not(A[i])

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="int32"), R.Tensor((4,), dtype="int64"), R.Tensor((4,), dtype="bool")):
        cls = Module
        with R.dataflow():
            s = R.multiply(x, R.const(1000.0, "float32"))
            a = R.astype(s, dtype="int32")
            b = R.multiply(a, R.const(1073741824, "int32"))
            c = R.add(b, R.const(2147483647, "int32"))
            t = R.subtract(R.const(-2147483648, "int32"), c)
            d = R.negative(t)
            e = R.astype(a, dtype="int64")
            f = R.multiply(e, R.const(4611686018427387904, "int64"))
            g = R.add(f, R.const(9223372036854775807, "int64"))
            m = R.greater(x, R.const(0.0, "float32"))
            n = R.call_tir(cls.flip, (m,), out_sinfo=R.Tensor((4,), dtype="bool"))
            gv = (d, g, n)
            R.output(gv)
        return gv
