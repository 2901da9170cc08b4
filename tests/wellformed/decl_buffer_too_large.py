@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    B = T.decl_buffer((8,), "float32", data=A.data)
    for i in range(8):
        B[i] = T.float32(0)
