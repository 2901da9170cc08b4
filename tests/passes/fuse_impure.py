# FuseOps/FuseTIR test: impure calls (LegalizeOps output).  main: R.print
# between add and relu, so they are not fused.  no_print: the print comes
# after, so add and relu fuse.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(A: T.Buffer((T.int64(2), T.int64(8)), "float32"), B: T.Buffer((T.int64(2), T.int64(8)), "float32"), T_add: T.Buffer((T.int64(2), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(8)):
            T_add[i0, i1] = A[i0, i1] + B[i0, i1]

    @T.prim_func(private=True)
    def add1(A: T.Buffer((T.int64(2), T.int64(8)), "float32"), B: T.Buffer((T.int64(2), T.int64(8)), "float32"), T_add: T.Buffer((T.int64(2), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(8)):
            T_add[i0, i1] = A[i0, i1] + B[i0, i1]

    @T.prim_func(private=True)
    def relu(A: T.Buffer((T.int64(2), T.int64(8)), "float32"), T_relu: T.Buffer((T.int64(2), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(8)):
            T_relu[i0, i1] = T.max(A[i0, i1], T.float32(0.0))

    @T.prim_func(private=True)
    def relu1(A: T.Buffer((T.int64(2), T.int64(8)), "float32"), T_relu: T.Buffer((T.int64(2), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(8)):
            T_relu[i0, i1] = T.max(A[i0, i1], T.float32(0.0))

    @R.function(pure=False)
    def no_print(x: R.Tensor((2, 8), dtype="float32")) -> R.Tensor((2, 8), dtype="float32"):
        cls = Module
        lv: R.Tensor((2, 8), dtype="float32") = R.call_tir(cls.add1, (x, x), out_sinfo=R.Tensor((2, 8), dtype="float32"))
        gv: R.Tensor((2, 8), dtype="float32") = R.call_tir(cls.relu1, (lv,), out_sinfo=R.Tensor((2, 8), dtype="float32"))
        R.print(gv, format="gv={}")
        return gv

    @R.function(pure=False)
    def main(x: R.Tensor((2, 8), dtype="float32")) -> R.Tensor((2, 8), dtype="float32"):
        cls = Module
        lv: R.Tensor((2, 8), dtype="float32") = R.call_tir(cls.add, (x, x), out_sinfo=R.Tensor((2, 8), dtype="float32"))
        R.print(x, format="x={}")
        gv: R.Tensor((2, 8), dtype="float32") = R.call_tir(cls.relu, (lv,), out_sinfo=R.Tensor((2, 8), dtype="float32"))
        return gv
