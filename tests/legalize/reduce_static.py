# Every reduction on static shapes: axis None, a list with a negative
# axis, keepdims, argmax over an int and over every dim, int sums and the
# truncating int mean.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 4), dtype="float32"), y: R.Tensor((3, 5), dtype="int32")):
        with R.dataflow():
            a = R.sum(x, axis=[1])
            b = R.mean(x, keepdims=True)
            c = R.max(x, axis=[-1, 0], keepdims=True)
            d = R.min(x)
            e = R.argmax(x)
            f = R.argmax(x, axis=-2, keepdims=True)
            g = R.sum(y, axis=[0])
            h = R.mean(y, axis=[-1])
            i = R.argmax(y, axis=1)
            j = R.max(y, axis=[0, 1])
            gv = (a, b, c, d, e, f, g, h, i, j)
            R.output(gv)
        return gv
