# A small CNN for the 8x8 handwritten digits of scikit-learn: input
# (n, 1, 8, 8) scaled to [0, 1] -> conv2d 3x3, 8 filters, padding 1 -> ReLU
# -> 2x2 max pooling -> flatten to 128 -> Linear(128, 32) -> ReLU ->
# Linear(32, 10) -> softmax.  The batch n is symbolic, at most 512.  Trained
# weights: digits_cnn.npz, written by tools/train_digits.py.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 1, 8, 8), dtype="float32"), conv1_weight: R.Tensor((8, 1, 3, 3), dtype="float32"), conv1_bias: R.Tensor((8,), dtype="float32"), fc1_weight: R.Tensor((32, 128), dtype="float32"), fc1_bias: R.Tensor((32,), dtype="float32"), fc2_weight: R.Tensor((10, 32), dtype="float32"), fc2_bias: R.Tensor((10,), dtype="float32")) -> R.Tensor(("n", 10), dtype="float32"):
        n = T.int64()
        R.func_attr({"num_input": 1, "tir_var_upper_bound": {"n": 512}})
        with R.dataflow():
            lv: R.Tensor((n, 8, 8, 8), dtype="float32") = R.nn.conv2d(x, conv1_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv1: R.Tensor((1, 8, 1, 1), dtype="float32") = R.reshape(conv1_bias, R.shape([1, 8, 1, 1]))
            lv2: R.Tensor((n, 8, 8, 8), dtype="float32") = R.add(lv, lv1)
            lv3: R.Tensor((n, 8, 8, 8), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((n, 8, 4, 4), dtype="float32") = R.nn.max_pool2d(lv3, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv5: R.Tensor((n, 128), dtype="float32") = R.reshape(lv4, R.shape([n, 128]))
            lv6: R.Tensor((128, 32), dtype="float32") = R.permute_dims(fc1_weight, axes=None)
            lv7: R.Tensor((n, 32), dtype="float32") = R.matmul(lv5, lv6, out_dtype="void")
            lv8: R.Tensor((n, 32), dtype="float32") = R.add(lv7, fc1_bias)
            lv9: R.Tensor((n, 32), dtype="float32") = R.nn.relu(lv8)
            lv10: R.Tensor((32, 10), dtype="float32") = R.permute_dims(fc2_weight, axes=None)
            lv11: R.Tensor((n, 10), dtype="float32") = R.matmul(lv9, lv10, out_dtype="void")
            lv12: R.Tensor((n, 10), dtype="float32") = R.add(lv11, fc2_bias)
            gv: R.Tensor((n, 10), dtype="float32") = R.nn.softmax(lv12, axis=-1)
            R.output(gv)
        return gv
