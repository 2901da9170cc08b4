# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((8, 8), dtype="float32"), w: R.Tensor((8, 8), dtype="float32")) -> R.Tuple(R.Tensor((8, 8), dtype="float32"), R.Tensor((8, 8), dtype="float32")):
        with R.dataflow():
            lv: R.Tensor((8, 8), dtype="float32") = R.matmul(x, w, out_dtype="void")
            gv: R.Tensor((8, 8), dtype="float32") = R.nn.relu(lv)
            lv1: R.Tensor((8, 8), dtype="float32") = R.sigmoid(lv)
            gv1: R.Tensor((8, 8), dtype="float32") = R.multiply(lv1, x)
            R.output(gv, gv1)
        lv2: R.Tensor((8, 8), dtype="float32") = R.add(gv, gv1)
        with R.dataflow():
            lv3: R.Tensor((8, 8), dtype="float32") = R.tanh(lv2)
            gv2: R.Tensor((8, 8), dtype="float32") = R.add(lv3, gv)
            R.output(gv2)
        return (gv2, gv1)
