@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    for i in T.thread_binding(4):
        A[i] = T.float32(0)
