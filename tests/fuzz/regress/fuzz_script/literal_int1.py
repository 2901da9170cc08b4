# from tvm.script import ir as I
# from tvm.scritt import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def ops(A: T.Buffer((T.int64(16),), "int32"), B: T.Buffer((T.int64(16),), "int32"), C: T.Buffer((T.int64(16),), "float64"), D: T.Buffer((T.int64(16),), "int8")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i in range(T.int64(16)):
            with T.block("ops"):
                v_i = T.axis.spatial(T.int64(16), i)
                T.reads(A[v_i], B[v_i])
                T.writes(C[v_i], D[v_i])
                a: T.int01 = A[v_i]
                b: T.int32 = B[v_i]
                C[v_i] = T.Select(a != b or not a >= 0, T.Cast("float64", a // 3 + a % 5), T.Cast("float64", T.truncmod(b, 7) - a * b)) + T.float64(0.5)
                D[v_i] = T.if_then_else(a > b and b <= 10, T.int8(-3), T.Cast("int8", T.max(T.min(a, 127), -128)))

    @T.prim_func(private=True)
    def limits(A: T.Buffer((T.int64(2),), "float32"), n: T.int32, s: T.float32):
        T.func_attr({"tir.noalias": T.bool(True)})
        A[T.int64(0)] = T.max_value("float32") * s
        A[T.int32(1)] = T.Cast("float32", n) - T.min_value("float32")
