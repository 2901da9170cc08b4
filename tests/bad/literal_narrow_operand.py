@I.ir_module
class Module:
    @T.prim_func(private=True)
    def f(A: T.Buffer((T.int64(4),), "int8"), B: T.Buffer((T.int64(4),), "int8")):
        for i in range(T.int64(4)):
            B[i] = A[i] // 300
