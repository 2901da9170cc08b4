# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def fill(A: T.Buffer((4,), "float32")):
        for i in range(4):
            B = T.alloc_buffer((4,), "float32")
            B[i] = A[i]
        B[0] = T.float32(0.0)
