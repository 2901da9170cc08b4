# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def matmul(A: T.Buffer((T.int64(4), T.int64(6)), "float32"), B: T.Buffer((T.int64(6), T.int64(5)), "float32"), matmul: T.Buffer((T.int64(4), T.int64(5)), "float32")):
        T.func_attr({"op_pattern": 4, "tir.noalias": T.bool(True)})
        # with T.block("root"):
        for i0, i1, k in T.grid(T.int64(4), T.int64(5), T.int64(6)):
            with T.block("matmul"):
                v_i0, v_i1, v_k = T.axis.remap("SSR", [i0, i1, k])
                T.reads(A[v_i0, v_k], B[v_k, v_i1])
                T.writes(matmul[v_i0, v_i1])
                with T.init():
                    matmul[v_i0, v_i1] = T.float32(0)
                matmul[v_i0, v_i1] = matmul[v_i0, v_i1] + A[v_i0, v_k] * B[v_k, v_i1]

    @R.function
    def main(a: R.Tensor((4, 6), dtype="float32"), b: R.Tensor((6, 5), dtype="float32")) -> R.Tensor((4, 5), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.matmul, (a, b), out_sinfo=R.Tensor((4, 5), dtype="float32"))
            R.output(gv)
        return gv
