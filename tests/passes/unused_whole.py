# Tuple results used whole must keep every element (TVM's failure: it took
# these for unused and put NaN in live outputs): returned whole, passed to
# another call, put in a tuple, bound to another var used whole.
@I.ir_module
class Module:
    @R.function(private=True)
    def ret_whole(x: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")):
        a = R.add(x, x)
        b = R.multiply(x, x)
        return (a, b)

    @R.function(private=True)
    def passed_on(x: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")):
        a = R.add(x, x)
        b = R.multiply(x, x)
        return (a, b)

    @R.function(private=True)
    def in_tuple(x: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")):
        a = R.add(x, x)
        b = R.multiply(x, x)
        return (a, b)

    @R.function(private=True)
    def aliased(x: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")):
        a = R.add(x, x)
        b = R.multiply(x, x)
        return (a, b)

    @R.function(private=True)
    def consume(t: R.Tuple(R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32"))) -> R.Tensor((3,), dtype="float32"):
        a = t[0]
        b = t[1]
        c = R.add(a, b)
        return c

    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tuple(R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")), R.Tensor((3,), dtype="float32"), R.Tuple(R.Tuple(R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32"))), R.Tuple(R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32"))):
        cls = Module
        t = cls.ret_whole(x)
        t0 = t[0]
        u = cls.passed_on(x)
        s = cls.consume(u)
        v = cls.in_tuple(x)
        vv = (v,)
        w = cls.aliased(x)
        w2 = w
        return (t, s, vv, w2)
