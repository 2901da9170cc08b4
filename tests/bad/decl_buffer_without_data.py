@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    B = T.decl_buffer((4,), "float32")
    B[0] = A[0]
