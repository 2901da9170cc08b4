# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def window_sum(A: T.Buffer((T.int64(10),), "float32"), B: T.Buffer((T.int64(8),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i, r in T.grid(T.int64(8), T.int64(3)):
            with T.block("window_sum"):
                v_i = T.axis.spatial(T.int64(8), i)
                v_r = T.axis.reduce(T.int64(3), r)
                T.reads(A[v_i + v_r])
                T.writes(B[v_i])
                with T.init():
                    B[v_i] = T.float32(0)
                B[v_i] = B[v_i] + A[v_i + v_r]

    @T.prim_func(private=True)
    def interior(A: T.Buffer((T.int64(8), T.int64(8)), "float32"), B: T.Buffer((T.int64(8), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i, j in T.grid(T.int64(6), T.int64(6)):
            with T.block("interior"):
                v_i = T.axis.spatial((T.int64(1), T.int64(7)), i + T.int64(1))
                v_j = T.axis.spatial((T.int64(1), T.int64(7)), j + T.int64(1))
                T.reads(A[v_i - T.int64(1):v_i + T.int64(2), v_j])
                T.writes(B[v_i, v_j])
                B[v_i, v_j] = A[v_i - T.int64(1), v_j] + A[v_i, v_j] + A[v_i + T.int64(1), v_j]

    @T.prim_func(private=True)
    def flat_copy(A: T.Buffer((T.int64(2), T.int64(6)), "float32"), B: T.Buffer((T.int64(12),), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for k in range(T.int64(12)):
            with T.block("flat_copy"):
                v_a = T.axis.spatial(T.int64(2), k // T.int64(6))
                v_b = T.axis.spatial(T.int64(6), k % T.int64(6))
                T.reads(A[v_a, v_b])
                T.writes(B[v_a * T.int64(6) + v_b])
                B[v_a * T.int64(6) + v_b] = A[v_a, v_b]
