# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tensor((3,), dtype="float32"):
        lv0: R.Tensor((3,), dtype="float32") = R.add(x, x)
        lv1: R.Tensor((3,), dtype="float32") = R.multiply(lv0, x)
        gv: R.Tensor((3,), dtype="float32") = R.subtract(lv1, lv0)
        @R.function
        def local(y: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
            z: R.Tensor((3,), dtype="float32") = R.exp(y)
            zz: R.Tensor((3,), dtype="float32") = R.add(z, gv)
            return zz
        if c:
            r: R.Tensor((3,), dtype="float32") = local(gv)
        else:
            r: R.Tensor((3,), dtype="float32") = R.negative(gv)
        lv2: R.Tensor((3,), dtype="float32") = R.add(r, gv)
        gv3: R.Tensor((3,), dtype="float32") = R.multiply(lv2, lv2)
        return gv3
