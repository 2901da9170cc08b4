@T.prim_func
def f(A: T.Buffer((3,), "int16")):
    B = A.view("int32")
    B[0] = 0
