# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), idx: R.Tensor((2, 2), dtype="int64")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 2), dtype="int64"), R.Tensor((2, 2, 2), dtype="uint8"), R.Tensor((3,), dtype="bool")):
        with R.dataflow():
            w: R.Tensor((2, 3), dtype="float32") = R.const([[0.5, -1.0, 2.25], [3.0, 0.0, -0.125]], "float32")
            lv: R.Tensor((2, 3), dtype="float32") = R.multiply(x, w)
            lv1: R.Tensor((2, 3), dtype="float32") = R.add(lv, R.const([1.0, 2.0, 3.0], "float32"))
            lv2: R.Tensor((2, 2), dtype="int64") = R.add(idx, R.const([[1, 2], [3, 4]], "int64"))
            cube: R.Tensor((2, 2, 2), dtype="uint8") = R.const([[[0, 1], [2, 3]], [[4, 5], [6, 255]]], "uint8")
            mask: R.Tensor((3,), dtype="bool") = R.const([True, False, True], "bool")
            gv = (lv1, lv2, cube, mask)
            R.output(gv)
        return gv
