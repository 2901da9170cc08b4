# Loops of independent reductions ([codegen] rows, codegen/gen_reduce.c):
# a channel's mean, sum or max is a chain of adds that tcc keeps in
# memory, so several channels run at once, each in its own order: mean
# over 16 channels (8 at a time), max over 12 (4), sum over the channels
# at each of 8 columns (8).  Keep their loops: an odd count of 7 means;
# chain, whose start reads what the previous reduction left in acc; and
# behind, whose sums read the output the previous channel stored (in
# place on a new tensor: tests/unit/test_codegen.c runs the C, then the
# interpreter on the same inputs).  Used by tests/agree/rows_cover.py.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def chain(x: T.Buffer((T.int64(8), T.int64(5)), "float32"), o: T.Buffer((T.int64(8),), "float32")):
        acc = T.alloc_buffer((T.int64(1),), "float32")
        acc[T.int64(0)] = T.float32(0)
        for c in range(T.int64(8)):
            acc[T.int64(0)] = acc[T.int64(0)] * T.float32(0.5)
            for k in range(T.int64(5)):
                acc[T.int64(0)] = acc[T.int64(0)] + x[c, k]
            o[c] = acc[T.int64(0)]

    @T.prim_func(private=True)
    def behind(x: T.Buffer((T.int64(8), T.int64(5)), "float32"), o: T.Buffer((T.int64(8),), "float32")):
        acc = T.alloc_buffer((T.int64(1),), "float32")
        for c in range(T.int64(8)):
            acc[T.int64(0)] = T.float32(0)
            for k in range(T.int64(5)):
                acc[T.int64(0)] = acc[T.int64(0)] + x[c, k] * o[(c + T.int64(7)) % T.int64(8)]
            o[c] = acc[T.int64(0)]

    @R.function
    def main(x: R.Tensor((1, 16, 5, 7), dtype="float32"), y: R.Tensor((1, 12, 3, 5), dtype="float32"), z: R.Tensor((1, 6, 4, 8), dtype="float32"), w: R.Tensor((1, 7, 3, 3), dtype="float32"), v: R.Tensor((8, 5), dtype="float32"), u: R.Tensor((8,), dtype="float32")):
        cls = Module
        with R.dataflow():
            m: R.Tensor((1, 16, 1, 1), dtype="float32") = R.mean(x, axis=[2, 3], keepdims=True)
            a: R.Tensor((1, 12, 1, 1), dtype="float32") = R.max(y, axis=[2, 3], keepdims=True)
            s: R.Tensor((1, 4, 8), dtype="float32") = R.sum(z, axis=[1])
            o: R.Tensor((1, 7, 1, 1), dtype="float32") = R.mean(w, axis=[2, 3], keepdims=True)
            c = R.call_tir(cls.chain, (v,), out_sinfo=R.Tensor((8,), "float32"))
            uu = R.add(u, u)
            b = R.call_tir_inplace(cls.behind, (v, uu), inplace_indices=[1], out_sinfo=R.Tensor((8,), "float32"))
            R.output(m, a, s, o, c, b)
        return (m, a, s, o, c, b)
