# FuseOps/FuseTIR test: hand-written prim_funcs in TVM's block style with no
# "op_pattern" attribute, so FuseOps must classify them from their TIR:
# matmul (reduce iterator, T.init, a product accumulated: out-elementwise
# fusable), add of a broadcast bias (broadcast), relu (elementwise).
# Expected: one group fused_mm_bias_act; the float32 accumulation in the
# block is kept as written.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def mm(A: T.Buffer((T.int64(2), T.int64(3)), "float32"), B: T.Buffer((T.int64(3), T.int64(4)), "float32"), C: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i, j, k in T.grid(T.int64(2), T.int64(4), T.int64(3)):
            with T.block("C"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                T.reads(A[v_i, v_k], B[v_k, v_j])
                T.writes(C[v_i, v_j])
                with T.init():
                    C[v_i, v_j] = T.float32(0.0)
                C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * B[v_k, v_j]

    @T.prim_func(private=True)
    def bias(A: T.Buffer((T.int64(2), T.int64(4)), "float32"), B: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i, j in T.grid(T.int64(2), T.int64(4)):
            with T.block("C"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(A[v_i, v_j], B[v_j])
                T.writes(C[v_i, v_j])
                C[v_i, v_j] = A[v_i, v_j] + B[v_j]

    @T.prim_func(private=True)
    def act(A: T.Buffer((T.int64(2), T.int64(4)), "float32"), C: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i, j in T.grid(T.int64(2), T.int64(4)):
            with T.block("C"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(A[v_i, v_j])
                T.writes(C[v_i, v_j])
                C[v_i, v_j] = T.max(A[v_i, v_j], T.float32(0.0))

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), w: R.Tensor((3, 4), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv: R.Tensor((2, 4), dtype="float32") = R.call_tir(cls.mm, (x, w), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            lv1: R.Tensor((2, 4), dtype="float32") = R.call_tir(cls.bias, (lv, b), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            gv: R.Tensor((2, 4), dtype="float32") = R.call_tir(cls.act, (lv1,), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            R.output(gv)
        return gv
