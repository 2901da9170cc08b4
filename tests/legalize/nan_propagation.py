# NaN (the log of the negative half of the random inputs) through the ops
# whose lowering must keep it as the kernels do: maximum, minimum, clip,
# and the max, min and argmax reductions (argmax gives the first NaN).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4), dtype="float32")):
        with R.dataflow():
            l = R.log(x)
            a = R.maximum(l, x)
            b = R.minimum(x, l)
            c = R.clip(l, R.prim_value(T.float32(-0.5)), R.prim_value(T.float32(0.5)))
            d = R.max(l, axis=[1])
            e = R.min(l, axis=[0])
            f = R.argmax(l, axis=1)
            gv = (a, b, c, d, e, f)
            R.output(gv)
        return gv
