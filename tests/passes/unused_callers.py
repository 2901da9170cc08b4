# Two callers: `first` reads only [1] of `split`, `second` reads nothing, so
# only [1] stays.  `kept` is read [0] by one caller and returned whole by the
# other: everything stays.
@I.ir_module
class Module:
    @R.function(private=True)
    def split(x: R.Tensor((2, 3), dtype="float32")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")):
        a = R.add(x, x)
        b = R.multiply(x, x)
        c = R.negative(x)
        return (a, b, c)

    @R.function(private=True)
    def kept(x: R.Tensor((2, 3), dtype="float32")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")):
        a = R.add(x, x)
        b = R.negative(x)
        return (a, b)

    @R.function
    def first(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Module
        with R.dataflow():
            t = cls.split(x)
            b = t[1]
            k = cls.kept(b)
            k0 = k[0]
            R.output(k0)
        return k0

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"))):
        cls = Module
        t = cls.split(x)
        k = cls.kept(x)
        y = cls.first(x)
        return (y, k)
