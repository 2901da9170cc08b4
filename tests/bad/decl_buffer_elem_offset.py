@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    B = T.decl_buffer((2,), "float32", data=A.data, elem_offset=2)
    B[0] = A[0]
