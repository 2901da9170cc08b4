@T.prim_func
def f(A: T.Buffer((4, 4), "float32")):
    for i, j in T.grid(4):
        A[i, j] = T.float32(0)
