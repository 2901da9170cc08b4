# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((6, 8), dtype="float32"), idx: R.Tensor((3,), dtype="int64")) -> R.Tensor((3, 4), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((3, 8), dtype="float32") = R.take(x, idx, axis=0, mode="fast")
            lv1: R.Tensor((3, 4), dtype="float32") = R.strided_slice(lv, axes=[1], begin=[0], end=[8], strides=[2], assume_inbound=False)
            lv2: R.Tensor((2, 4), dtype="float32") = R.strided_slice(x, axes=[0, 1], begin=[1, 4], end=[3, 8], strides=None, assume_inbound=True)
            lv3: R.Tensor((4,), dtype="float32") = R.take(lv2, R.const([0, 3, 5, 7], "int64"), axis=None, mode="wrap")
            lv4: R.Tensor((3, 4), dtype="float32") = R.strided_slice(lv1, axes=[0], begin=[-1], end=[-4], strides=[-1])
            gv: R.Tensor((3, 4), dtype="float32") = R.add(lv4, lv3)
            R.output(gv)
        return gv
