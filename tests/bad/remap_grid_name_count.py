@T.prim_func
def f(A: T.Buffer((4, 4), "float32")):
    for iters in T.grid(4, 4):
        with T.block("b"):
            vi = T.axis.remap("S", iters)
            A[vi, 0] = T.float32(0)
