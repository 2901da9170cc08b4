# DeadCodeElimination: unused pure bindings go (a chain of them, to a fixed
# point); impure calls stay even when unused (R.print, R.call_packed, a call
# of a pure=False function); an unreachable private function goes, a
# reachable one stays.
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(private=True)
    def unused_helper(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((4,), dtype="float32") = R.add(x, x)
        return y

    @R.function(private=True)
    def helper(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((4,), dtype="float32") = R.multiply(x, x)
        return y

    @R.function(pure=False, private=True)
    def side(x: R.Tensor((4,), dtype="float32")) -> R.Tuple:
        R.print(x, format="side {}")
        return R.tuple()

    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        a: R.Tensor((4,), dtype="float32") = R.add(x, x)
        b: R.Tensor((4,), dtype="float32") = R.multiply(a, x)
        R.print(x, format="x={}")
        c: R.Tensor((4,), dtype="float32") = cls.helper(x)
        d: R.Tensor((4,), dtype="float32") = R.call_packed("ext", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
        e: R.Tuple = cls.side(x)
        f: R.Tensor((4,), dtype="float32") = R.call_pure_packed("ext", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
        return c
