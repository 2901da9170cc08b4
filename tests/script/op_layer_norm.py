# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("seq", 64), dtype="float32"), gamma: R.Tensor((64,), dtype="float32"), beta: R.Tensor((64,), dtype="float32")) -> R.Tensor(("seq", 64), dtype="float32"):
        seq = T.int64()
        R.func_attr({"tir_var_upper_bound": {"seq": 2048}})
        with R.dataflow():
            lv: R.Tensor((seq, 64), dtype="float32") = R.nn.layer_norm(x, gamma, beta, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            lv1: R.Tensor((seq, 64), dtype="float32") = R.nn.gelu(lv)
            gv: R.Tensor((seq, 64), dtype="float32") = R.nn.layer_norm(lv1, gamma, beta, axes=[1], epsilon=9.9999999999999995e-07, center=False, scale=True)
            R.output(gv)
        return gv
