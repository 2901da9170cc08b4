# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 5, 7), dtype="float32")) -> R.Tuple(R.Tensor((2, 1, 7), dtype="float32"), R.Tensor((), dtype="float32"), R.Tensor((2, 7), dtype="int64")):
        with R.dataflow():
            lv: R.Tensor((2, 5, 7), dtype="float32") = R.nn.softmax(x, axis=1)
            lv1: R.Tensor((2, 5, 7), dtype="float32") = R.nn.log_softmax(x, axis=-1)
            lv2: R.Tensor((2, 1, 7), dtype="float32") = R.sum(lv, axis=[1], keepdims=True)
            lv3: R.Tensor((), dtype="float32") = R.mean(lv1, axis=None, keepdims=False)
            lv4: R.Tensor((2, 7), dtype="float32") = R.max(x, axis=[1], keepdims=False)
            lv5: R.Tensor((2,), dtype="float32") = R.min(lv4, axis=[-1], keepdims=False)
            lv6: R.Tensor((2, 7), dtype="int64") = R.argmax(x, axis=1, keepdims=False)
            gv = (lv2, lv3, lv6)
            R.output(gv)
        return gv
