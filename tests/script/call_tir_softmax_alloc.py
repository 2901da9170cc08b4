# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def row_softmax(X: T.Buffer((T.int64(3), T.int64(7)), "float32"), Y: T.Buffer((T.int64(3), T.int64(7)), "float32")):
        T.func_attr({"op_pattern": 4, "tir.noalias": T.bool(True)})
        # with T.block("root"):
        row_max = T.alloc_buffer((T.int64(3),), "float32")
        row_sum = T.alloc_buffer((T.int64(3),), "float32")
        for i, k in T.grid(T.int64(3), T.int64(7)):
            with T.block("row_max"):
                v_i, v_k = T.axis.remap("SR", [i, k])
                T.reads(X[v_i, v_k])
                T.writes(row_max[v_i])
                with T.init():
                    row_max[v_i] = T.min_value("float32")
                row_max[v_i] = T.max(row_max[v_i], X[v_i, v_k])
        for i, k in T.grid(T.int64(3), T.int64(7)):
            with T.block("row_sum"):
                v_i, v_k = T.axis.remap("SR", [i, k])
                T.reads(X[v_i, v_k], row_max[v_i])
                T.writes(row_sum[v_i])
                with T.init():
                    row_sum[v_i] = T.float32(0)
                row_sum[v_i] = row_sum[v_i] + T.exp(X[v_i, v_k] - row_max[v_i])
        for i, j in T.grid(T.int64(3), T.int64(7)):
            with T.block("normalize"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(X[v_i, v_j], row_max[v_i], row_sum[v_i])
                T.writes(Y[v_i, v_j])
                T.block_attr({"axis": 1})
                Y[v_i, v_j] = T.exp(X[v_i, v_j] - row_max[v_i]) / row_sum[v_i]

    @R.function
    def main(x: R.Tensor((3, 7), dtype="float32")) -> R.Tensor((3, 7), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.row_softmax, (x,), out_sinfo=R.Tensor((3, 7), dtype="float32"))
            R.output(gv)
        return gv
