# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def shifted_copy(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"tir.noalias": True})
        for i in range(4):
            B[i] = T.float32(0)
        for i in range(4, 16):
            B[i] = A[i - 4]
        for i in T.serial(2, 6):
            B[i] = B[i] + A[i]
        for i in T.parallel(0, 8):
            B[i * 2] = B[i * 2] * T.float32(0.25)
        for i in T.unroll(3):
            B[15 - i] = A[i]
