# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((2, 3), dtype="float32"), b: R.Tensor((2, 5), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 8), dtype="float32") = R.concat((a, b), axis=1)
            lv1: R.Tuple(R.Tensor((2, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32")) = R.split(lv, indices_or_sections=2, axis=1)
            lv2: R.Tensor((2, 4), dtype="float32") = lv1[0]
            lv3: R.Tensor((2, 4), dtype="float32") = lv1[1]
            lv4: R.Tuple(R.Tensor((2, 1), dtype="float32"), R.Tensor((2, 2), dtype="float32"), R.Tensor((2, 1), dtype="float32")) = R.split(lv3, indices_or_sections=[1, 3], axis=1)
            lv5: R.Tensor((2, 1), dtype="float32") = lv4[0]
            lv6: R.Tensor((2, 2), dtype="float32") = lv4[1]
            lv7: R.Tensor((2, 1), dtype="float32") = lv4[2]
            lv8: R.Tensor((2, 4), dtype="float32") = R.concat((lv7, lv6, lv5), axis=-1)
            gv: R.Tensor((2, 4), dtype="float32") = R.add(lv2, lv8)
            R.output(gv)
        return gv
