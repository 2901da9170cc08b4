# FuseOps/FuseTIR test (LegalizeOps output): FuseTIR joins a loop nest into the
# one before it when it reads that nest's result where it is written: add
# and relu join the transpose's nest and their intermediates go; exp's
# result is read transposed, so it stays a buffer.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(A: T.Buffer((T.int64(3), T.int64(2)), "float32"), B: T.Buffer((T.int64(3), T.int64(2)), "float32"), T_add: T.Buffer((T.int64(3), T.int64(2)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(3), T.int64(2)):
            T_add[i0, i1] = A[i0, i1] + B[i0, i1]

    @T.prim_func(private=True)
    def exp(A: T.Buffer((T.int64(2), T.int64(3)), "float32"), T_exp: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            T_exp[i0, i1] = T.exp(A[i0, i1])

    @T.prim_func(private=True)
    def relu(A: T.Buffer((T.int64(3), T.int64(2)), "float32"), T_relu: T.Buffer((T.int64(3), T.int64(2)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(3), T.int64(2)):
            T_relu[i0, i1] = T.max(A[i0, i1], T.float32(0.0))

    @T.prim_func(private=True)
    def transpose(A: T.Buffer((T.int64(2), T.int64(3)), "float32"), T_transpose: T.Buffer((T.int64(3), T.int64(2)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(3), T.int64(2)):
            T_transpose[i0, i1] = A[i1, i0]

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((3, 2), dtype="float32"):
        cls = Module
        with R.dataflow():
            a: R.Tensor((2, 3), dtype="float32") = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
            b: R.Tensor((3, 2), dtype="float32") = R.call_tir(cls.transpose, (a,), out_sinfo=R.Tensor((3, 2), dtype="float32"))
            c: R.Tensor((3, 2), dtype="float32") = R.call_tir(cls.add, (b, y), out_sinfo=R.Tensor((3, 2), dtype="float32"))
            gv: R.Tensor((3, 2), dtype="float32") = R.call_tir(cls.relu, (c,), out_sinfo=R.Tensor((3, 2), dtype="float32"))
            R.output(gv)
        return gv
