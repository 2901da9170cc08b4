@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.block("b"):
            vi = T.axis.remap("S", [j])
            A[vi] = T.float32(0)
