# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4, 6, 6), dtype="float32"), gamma: R.Tensor((4,), dtype="float32"), beta: R.Tensor((4,), dtype="float32"), mean: R.Tensor((4,), dtype="float32"), var: R.Tensor((4,), dtype="float32")) -> R.Tensor((1, 4, 6, 6), dtype="float32"):
        with R.dataflow():
            lv: R.Tuple(R.Tensor((1, 4, 6, 6), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = R.nn.batch_norm(x, gamma, beta, mean, var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=False)
            lv1: R.Tensor((1, 4, 6, 6), dtype="float32") = lv[0]
            lv2: R.Tensor((4,), dtype="float32") = lv[1]
            lv3: R.Tensor((1, 4, 6, 6), dtype="float32") = R.nn.relu(lv1)
            gv: R.Tensor((1, 4, 6, 6), dtype="float32") = R.add(lv3, R.const(0, "float32"))
            R.output(gv)
        return gv
