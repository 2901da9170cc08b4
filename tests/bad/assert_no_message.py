@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    for i in range(4):
        assert A[i] > T.float32(0), 4
        A[i] = T.float32(0)
