# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), dtype="float32"), i: R.Tensor((3,), dtype="int32")) -> R.Tuple(R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="int32"), R.Tensor((), dtype="bool"), R.Tensor((), dtype="float16"), R.Tensor((), dtype="int64")):
        with R.dataflow():
            lv: R.Tensor((3,), dtype="float32") = R.add(x, R.const(1.5, "float32"))
            lv1: R.Tensor((3,), dtype="float32") = R.multiply(lv, R.const(-0.25, "float32"))
            lv2: R.Tensor((3,), dtype="int32") = R.add(i, R.const(2, "int32"))
            lv3: R.Tensor((3,), dtype="int32") = R.subtract(lv2, R.const(-7, "int32"))
            flag: R.Tensor((), dtype="bool") = R.const(True, "bool")
            half: R.Tensor((), dtype="float16") = R.const(0.5, "float16")
            big: R.Tensor((), dtype="int64") = R.const(9007199254740993, "int64")
            small: R.Tensor((), dtype="int8") = R.const(-128, "int8")
            d: R.Tensor((), dtype="float64") = R.const(0.1, "float64")
            gv = (lv1, lv3, flag, half, big)
            R.output(gv)
        return gv
