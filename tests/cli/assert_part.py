# A TIR assert; tests/unit/test_cli.c compares the forms of its message
# (assert_string, assert_tuple, assert_kind, assert_part).
# from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    for i in range(4):
        assert A[i] > T.float32(0), ("RuntimeError", ["n is ", "positive"])
        A[i] = T.float32(0)
