# An MLP for the 8x8 handwritten digits of scikit-learn (load_digits): the
# 64 pixels (scaled to [0, 1]) -> Linear(64, 32) -> ReLU -> Linear(32, 10)
# -> softmax.  Torch-style (out, in) weights, transposed by R.permute_dims.
# The batch n is symbolic, at most 512.  Trained weights: digits_mlp.npz,
# written by tools/train_digits.py.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 64), dtype="float32"), fc1_weight: R.Tensor((32, 64), dtype="float32"), fc1_bias: R.Tensor((32,), dtype="float32"), fc2_weight: R.Tensor((10, 32), dtype="float32"), fc2_bias: R.Tensor((10,), dtype="float32")) -> R.Tensor(("n", 10), dtype="float32"):
        n = T.int64()
        R.func_attr({"num_input": 1, "tir_var_upper_bound": {"n": 512}})
        with R.dataflow():
            lv: R.Tensor((64, 32), dtype="float32") = R.permute_dims(fc1_weight, axes=None)
            lv1: R.Tensor((n, 32), dtype="float32") = R.matmul(x, lv, out_dtype="void")
            lv2: R.Tensor((n, 32), dtype="float32") = R.add(lv1, fc1_bias)
            lv3: R.Tensor((n, 32), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((32, 10), dtype="float32") = R.permute_dims(fc2_weight, axes=None)
            lv5: R.Tensor((n, 10), dtype="float32") = R.matmul(lv3, lv4, out_dtype="void")
            lv6: R.Tensor((n, 10), dtype="float32") = R.add(lv5, fc2_bias)
            gv: R.Tensor((n, 10), dtype="float32") = R.nn.softmax(lv6, axis=-1)
            R.output(gv)
        return gv
