# Chains that must not fuse: an intermediate used outside the chain (lv0 is
# also returned), and conv2d+relu where relu reads the conv twice.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32"), w: R.Tensor((4, 3), dtype="float32"), b: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")):
        with R.dataflow():
            lv0 = R.matmul(x, w)
            lv1 = R.add(lv0, b)
            lv2 = R.matmul(x, w)
            lv3 = R.add(lv2, lv2)
            R.output(lv0, lv1, lv3)
        return (lv0, lv1, lv3)
