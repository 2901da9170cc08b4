# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tensor((4, 6), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((4, 3, 2), dtype="float32") = R.permute_dims(x, axes=[2, 1, 0])
            lv1: R.Tensor((2, 3, 4), dtype="float32") = R.permute_dims(lv, axes=None)
            lv2: R.Tensor((1, 2, 3, 4), dtype="float32") = R.expand_dims(lv1, axis=[0])
            lv3: R.Tensor((2, 3, 4), dtype="float32") = R.squeeze(lv2, axis=[0])
            lv4: R.Tensor((8, 3), dtype="float32") = R.reshape(lv3, R.shape([8, 3]))
            lv5: R.Tensor((24,), dtype="float32") = R.flatten(lv4)
            gv: R.Tensor((4, 6), dtype="float32") = R.reshape(lv5, R.shape([4, 6]))
            R.output(gv)
        return gv
