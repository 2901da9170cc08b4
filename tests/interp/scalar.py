# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def ints(A: T.Buffer((T.int64(2),), "int64"), B: T.Buffer((T.int64(8),), "int64")):
        a = A[T.int64(0)]
        b = A[T.int64(1)]
        B[0] = a // b
        B[1] = a % b
        B[2] = T.truncmod(a, b)
        B[3] = T.truncdiv(a, b)
        B[4] = T.Cast("int64", T.Cast("int8", a * T.int64(40)))
        B[5] = T.max_value("int32")
        B[6] = T.if_then_else(b > T.int64(5), A[b], T.int64(9))
        B[7] = T.Cast("int64", T.Cast("float32", a) * T.float32(2.5))

    @T.prim_func(private=True)
    def floats(A: T.Buffer((T.int64(1),), "float32"), B: T.Buffer((T.int64(8),), "float32")):
        x = A[T.int64(0)]
        B[0] = T.exp(x)
        B[1] = T.sqrt(x)
        B[2] = T.tanh(x)
        B[3] = T.sigmoid(x)
        B[4] = T.floor(x * T.float32(-1))
        B[5] = T.round(x + T.float32(0.5))
        B[6] = T.pow(x, T.float32(3))
        if x > T.float32(1):
            B[7] = T.float32(1)
        else:
            B[7] = T.float32(-1)

    @T.prim_func(private=True)
    def local(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(1),), "float32")):
        for i in range(T.int64(1)):
            with T.block("sum"):
                v_i = T.axis.spatial(T.int64(1), i)
                acc = T.alloc_buffer((T.int64(1),), "float32")
                for k in range(T.int64(4)):
                    acc[0] = acc[0] + A[k]
                B[v_i] = acc[0]

    @T.prim_func(private=True)
    def unknown(A: T.Buffer((T.int64(1),), "float32")):
        A[0] = T.frobnicate(A[0])

    @R.function
    def main(a: R.Tensor((2,), dtype="int64")) -> R.Tensor((8,), dtype="int64"):
        cls = Module
        gv = R.call_tir(cls.ints, (a,), out_sinfo=R.Tensor((8,), dtype="int64"))
        return gv

    @R.function
    def fmain(a: R.Tensor((1,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.floats, (a,), out_sinfo=R.Tensor((8,), dtype="float32"))
        return gv

    @R.function
    def lmain(a: R.Tensor((4,), dtype="float32")) -> R.Tensor((1,), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.local, (a,), out_sinfo=R.Tensor((1,), dtype="float32"))
        return gv

    @R.function(pure=False)
    def umain(a: R.Tensor((1,), dtype="float32")) -> R.Tensor((1,), dtype="float32"):
        cls = Module
        cls.unknown(a)
        return a
