# TVM's printer omits the default "float32" dtype of T.match_buffer and
# T.alloc_buffer; a float32 zero prints as T.float32(0).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def mean_rows(var_A: T.handle, var_B: T.handle):
        T.func_attr({"op_pattern": 4, "tir.noalias": T.bool(True)})
        m = T.int64()
        A = T.match_buffer(var_A, (m, T.int64(5)))
        B = T.match_buffer(var_B, (m,))
        # with T.block("root"):
        A_red = T.alloc_buffer((m,))
        for ax0, k1 in T.grid(m, T.int64(5)):
            with T.block("A_red"):
                v_ax0, v_k1 = T.axis.remap("SR", [ax0, k1])
                T.reads(A[v_ax0, v_k1])
                T.writes(A_red[v_ax0])
                with T.init():
                    A_red[v_ax0] = T.float32(0)
                A_red[v_ax0] = A_red[v_ax0] + A[v_ax0, v_k1]
        for ax0 in range(m):
            with T.block("T_divide"):
                v_ax0 = T.axis.spatial(m, ax0)
                T.reads(A_red[v_ax0])
                T.writes(B[v_ax0])
                B[v_ax0] = A_red[v_ax0] * T.float32(0.20000000000000001)

    @R.function
    def main(x: R.Tensor(("m", 5), dtype="float32")) -> R.Tensor(("m",), dtype="float32"):
        m = T.int64()
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.mean_rows, (x,), out_sinfo=R.Tensor((m,), dtype="float32"))
            R.output(gv)
        return gv
