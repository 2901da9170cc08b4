# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def mix(A: T.Buffer((T.int64(8),), "float32"), B: T.Buffer((T.int64(8),), "float32"), C: T.Buffer((T.int64(8),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i in range(T.int64(8)):
            with T.block("mix"):
                v_i = T.axis.spatial(T.int64(8), i)
                T.reads(A[v_i], B[v_i])
                T.writes(C[v_i])
                C[v_i] = T.sqrt(T.max(A[v_i], T.float32(0))) + T.min(T.exp(B[v_i]), T.float32(10)) - T.tanh(A[v_i]) * T.sigmoid(B[v_i])

    @T.prim_func(private=True)
    def more(A: T.Buffer((T.int64(8),), "float32"), B: T.Buffer((T.int64(8),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i in range(T.int64(8)):
            with T.block("more"):
                v_i = T.axis.spatial(T.int64(8), i)
                T.reads(A[v_i])
                T.writes(B[v_i])
                B[v_i] = T.log(T.fabs(A[v_i]) + T.float32(1)) + T.pow(A[v_i], T.float32(2)) + T.floor(A[v_i]) + T.round(A[v_i]) + T.rsqrt(T.float32(4)) + T.erf(A[v_i])
