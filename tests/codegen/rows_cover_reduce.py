# Loops of independent reductions ([codegen] rows, codegen/gen_reduce.c):
# a channel's mean, sum or max is a chain of adds that tcc keeps in
# memory, so several channels run at once, each in its own order: mean
# over 16 channels (8 at a time), max over 12 (4), sum over the channels
# at each of 8 columns (8), and an odd count of 7 means that keeps its
# loops.  Used by tests/agree/rows_cover.py.
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 16, 5, 7), dtype="float32"), y: R.Tensor((1, 12, 3, 5), dtype="float32"), z: R.Tensor((1, 6, 4, 8), dtype="float32"), w: R.Tensor((1, 7, 3, 3), dtype="float32")) -> R.Tuple(R.Tensor((1, 16, 1, 1), dtype="float32"), R.Tensor((1, 12, 1, 1), dtype="float32"), R.Tensor((1, 4, 8), dtype="float32"), R.Tensor((1, 7, 1, 1), dtype="float32")):
        with R.dataflow():
            m: R.Tensor((1, 16, 1, 1), dtype="float32") = R.mean(x, axis=[2, 3], keepdims=True)
            a: R.Tensor((1, 12, 1, 1), dtype="float32") = R.max(y, axis=[2, 3], keepdims=True)
            s: R.Tensor((1, 4, 8), dtype="float32") = R.sum(z, axis=[1])
            o: R.Tensor((1, 7, 1, 1), dtype="float32") = R.mean(w, axis=[2, 3], keepdims=True)
            R.output(m, a, s, o)
        return (m, a, s, o)
