# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def dense(x: R.Tensor((4, 8), dtype="float32"), w: R.Tensor((8, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((4, 8), dtype="float32") = R.matmul(x, w, out_dtype="void")
            gv: R.Tensor((4, 8), dtype="float32") = R.nn.relu(lv)
            R.output(gv)
        return gv

    @R.function
    def head(x: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        y: R.Tensor((4, 8), dtype="float32") = R.nn.softmax(x, axis=-1)
        return y

    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), w1: R.Tensor((8, 8), dtype="float32"), w2: R.Tensor((8, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv: R.Tensor((4, 8), dtype="float32") = cls.dense(x, w1)
            lv1: R.Tensor((4, 8), dtype="float32") = cls.dense(lv, w2)
            gv: R.Tensor((4, 8), dtype="float32") = cls.head(lv1)
            R.output(gv)
        return gv
