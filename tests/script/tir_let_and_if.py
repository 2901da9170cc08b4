# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def leaky(A: T.Buffer((T.int64(10),), "float32"), B: T.Buffer((T.int64(10),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i in range(T.int64(10)):
            with T.block("leaky"):
                v_i = T.axis.spatial(T.int64(10), i)
                T.reads(A[v_i])
                T.writes(B[v_i])
                x: T.float32 = A[v_i]
                slope: T.float32 = T.float32(0.125)
                if x < T.float32(0):
                    B[v_i] = x * slope
                else:
                    B[v_i] = x

    @T.prim_func(private=True)
    def clamp_head(A: T.Buffer((16,), "int32"), B: T.Buffer((16,), "int32")):
        T.func_attr({"tir.noalias": True})
        for i in range(16):
            half = i // 2
            if i % 2 == 0:
                B[i] = A[half]
            if 12 <= i:
                B[i] = T.min(A[i], 100)
            else:
                T.evaluate(0)
