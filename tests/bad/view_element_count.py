@T.prim_func
def f(A: T.Buffer((4, 4), "float32")):
    B = A.view(15)
    for i in range(15):
        B[i] = T.float32(0)
