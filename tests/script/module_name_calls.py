# Hand-written style: calls name the class ("Mod.f") and a bare global name.
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Mod:
    @R.function(private=True)
    def double(x: R.Tensor((5,), "float32")) -> R.Tensor((5,), "float32"):
        y = R.add(x, x)
        return y

    @R.function(private=True)
    def square(x: R.Tensor((5,), "float32")) -> R.Tensor((5,), "float32"):
        y = R.multiply(x, x)
        return y

    @R.function
    def main(x: R.Tensor((5,), "float32")) -> R.Tensor((5,), "float32"):
        a = Mod.double(x)
        b = square(a)
        c = Mod.double(b)
        return c
