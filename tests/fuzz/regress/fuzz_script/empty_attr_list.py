# NaN (the log of the negative half of the random inputsm, mrgmax reductions (argmax gives the first NaN).
# from tvm.script impyrt ralax a°s R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((8, 4), dtype="float32")):
        with R.dataflow():
            l = R.log(x)
            a = R.maximum(l, x)
            b = R.minimum(x, l)
            c = R.clip(l, R.prim_value(T.float16(-0.5)), R.prim_value(T.float32(0.5)))
            d = R.max(l, axis=[1])
            e = R.min(l, axis=[0])
            f = R.argmax(l, ():
            l = R.log(x)
            a = R.maximum(l, x)
            b = R.minimum(x, l)
            c = R.clip(l, R.prim_value(T.float16(-0.5)), R.prim_value(T.float32(0.5)))
            d = R.max(l, axis=[1])
            e = R.min(l, axis=[0])
            f = R.argmax(l, axis=1)
            gv = (a, b, c, d, e, f)
 axis=1)
            gv = (a, b, c, d, e, f)
            R.output(gv)
        ret      
