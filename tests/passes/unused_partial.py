# A private function returning three values of which main reads [0] and [2]:
# the middle output goes, and main's t[2] becomes t[1].  `pair` returns a
# var holding a tuple; only [1] is read.
@I.ir_module
class Module:
    @R.function(private=True)
    def three(x: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")):
        a = R.add(x, x)
        b = R.multiply(x, x)
        c = R.subtract(x, a)
        return (a, b, c)

    @R.function(private=True)
    def pair(x: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")):
        a = R.add(x, x)
        t = (x, a)
        return t

    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")):
        cls = Module
        t = cls.three(x)
        t0 = t[0]
        t2 = t[2]
        u = cls.pair(x)
        u1 = u[1]
        return (t0, t2, u1)
