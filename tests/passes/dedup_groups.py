# Two alike groups matmul -> relu and a third of another shape: FuseOps
# makes one function for the first two (TVM's BlockBuilder deduplicates),
# called twice, each time with its own inputs, and another for the third.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32"), v: R.Tensor((4, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 4), dtype="float32") = R.matmul(x, w)
            lv1: R.Tensor((2, 4), dtype="float32") = R.nn.relu(lv)
            lv2: R.Tensor((2, 4), dtype="float32") = R.matmul(lv1, w)
            lv3: R.Tensor((2, 4), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((2, 3), dtype="float32") = R.matmul(lv3, v)
            lv5: R.Tensor((2, 3), dtype="float32") = R.nn.relu(lv4)
            R.output(lv5)
        return lv5
