# call_tir and call_tir_inplace with tir_vars, which v0.26 does not have:
# the scalars join the argument tuple and the prim funcs' parameters
# print as inputs, scalars, outputs (tests/unit/test_dialect.c).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def head(a: T.handle, b: T.handle, c: T.handle, m: T.int64):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (m,), "float32")
        C = T.match_buffer(c, (n,), "float32")
        for i in range(m):
            with T.block("copy"):
                v_i = T.axis.spatial(m, i)
                B[v_i] = A[v_i % n]
        for i in range(n):
            with T.block("same"):
                v_i = T.axis.spatial(n, i)
                C[v_i] = A[v_i]

    @T.prim_func(private=True)
    def bump(a: T.handle, k: T.int64):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        for i in range(n):
            with T.block("bump"):
                v_i = T.axis.spatial(n, i)
                A[v_i] = A[v_i] + T.Cast("float32", k)

    @R.function
    def main(x: R.Tensor(("n",), "float32"), s: R.Shape(["m"])) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        m = T.int64()
        cls = Module
        gv = R.call_tir(cls.head, (x,), out_sinfo=[R.Tensor((m,), "float32"), R.Tensor((n,), "float32")], tir_vars=R.shape([m]))
        y = gv[1]
        z = R.call_tir_inplace(cls.bump, (y,), inplace_indices=[0], out_sinfo=R.Tensor((n,), "float32"), tir_vars=R.shape([m]))
        return z
