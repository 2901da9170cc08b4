# DS-CNN keyword spotting, the model of the MLPerf Tiny benchmark (after
# Zhang et al., "Hello Edge", 2017): 49 frames x 10 MFCC features, a 10x4
# stride-2 conv of 64 channels ("same" padding, as TensorFlow pads it: 4
# top, 5 bottom, 1 left, 1 right), 4 depthwise-separable blocks (3x3
# depthwise + 1x1 pointwise, 64 channels, ReLU after each), 25x5 average
# pooling, a dense layer to 12 classes, softmax.  Batch norm folded into
# conv weights and biases.  NCHW float32, batch 1.  Seeded weights:
# kws_dscnn.npz from tools/gen_weights.py.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 1, 49, 10), dtype="float32"), conv1_weight: R.Tensor((64, 1, 10, 4), dtype="float32"), conv1_bias: R.Tensor((64,), dtype="float32"), block1_dw_weight: R.Tensor((64, 1, 3, 3), dtype="float32"), block1_dw_bias: R.Tensor((64,), dtype="float32"), block1_pw_weight: R.Tensor((64, 64, 1, 1), dtype="float32"), block1_pw_bias: R.Tensor((64,), dtype="float32"), block2_dw_weight: R.Tensor((64, 1, 3, 3), dtype="float32"), block2_dw_bias: R.Tensor((64,), dtype="float32"), block2_pw_weight: R.Tensor((64, 64, 1, 1), dtype="float32"), block2_pw_bias: R.Tensor((64,), dtype="float32"), block3_dw_weight: R.Tensor((64, 1, 3, 3), dtype="float32"), block3_dw_bias: R.Tensor((64,), dtype="float32"), block3_pw_weight: R.Tensor((64, 64, 1, 1), dtype="float32"), block3_pw_bias: R.Tensor((64,), dtype="float32"), block4_dw_weight: R.Tensor((64, 1, 3, 3), dtype="float32"), block4_dw_bias: R.Tensor((64,), dtype="float32"), block4_pw_weight: R.Tensor((64, 64, 1, 1), dtype="float32"), block4_pw_bias: R.Tensor((64,), dtype="float32"), fc_weight: R.Tensor((12, 64), dtype="float32"), fc_bias: R.Tensor((12,), dtype="float32")) -> R.Tensor((1, 12), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.conv2d(x, conv1_weight, strides=[2, 2], padding=[4, 1, 5, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv1: R.Tensor((1, 64, 1, 1), dtype="float32") = R.reshape(conv1_bias, R.shape([1, 64, 1, 1]))
            lv2: R.Tensor((1, 64, 25, 5), dtype="float32") = R.add(lv, lv1)
            lv3: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.conv2d(lv3, block1_dw_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=64, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv5: R.Tensor((1, 64, 1, 1), dtype="float32") = R.reshape(block1_dw_bias, R.shape([1, 64, 1, 1]))
            lv6: R.Tensor((1, 64, 25, 5), dtype="float32") = R.add(lv4, lv5)
            lv7: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.relu(lv6)
            lv8: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.conv2d(lv7, block1_pw_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv9: R.Tensor((1, 64, 1, 1), dtype="float32") = R.reshape(block1_pw_bias, R.shape([1, 64, 1, 1]))
            lv10: R.Tensor((1, 64, 25, 5), dtype="float32") = R.add(lv8, lv9)
            lv11: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.relu(lv10)
            lv12: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.conv2d(lv11, block2_dw_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=64, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv13: R.Tensor((1, 64, 1, 1), dtype="float32") = R.reshape(block2_dw_bias, R.shape([1, 64, 1, 1]))
            lv14: R.Tensor((1, 64, 25, 5), dtype="float32") = R.add(lv12, lv13)
            lv15: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.relu(lv14)
            lv16: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.conv2d(lv15, block2_pw_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv17: R.Tensor((1, 64, 1, 1), dtype="float32") = R.reshape(block2_pw_bias, R.shape([1, 64, 1, 1]))
            lv18: R.Tensor((1, 64, 25, 5), dtype="float32") = R.add(lv16, lv17)
            lv19: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.relu(lv18)
            lv20: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.conv2d(lv19, block3_dw_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=64, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv21: R.Tensor((1, 64, 1, 1), dtype="float32") = R.reshape(block3_dw_bias, R.shape([1, 64, 1, 1]))
            lv22: R.Tensor((1, 64, 25, 5), dtype="float32") = R.add(lv20, lv21)
            lv23: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.relu(lv22)
            lv24: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.conv2d(lv23, block3_pw_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv25: R.Tensor((1, 64, 1, 1), dtype="float32") = R.reshape(block3_pw_bias, R.shape([1, 64, 1, 1]))
            lv26: R.Tensor((1, 64, 25, 5), dtype="float32") = R.add(lv24, lv25)
            lv27: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.relu(lv26)
            lv28: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.conv2d(lv27, block4_dw_weight, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=64, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv29: R.Tensor((1, 64, 1, 1), dtype="float32") = R.reshape(block4_dw_bias, R.shape([1, 64, 1, 1]))
            lv30: R.Tensor((1, 64, 25, 5), dtype="float32") = R.add(lv28, lv29)
            lv31: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.relu(lv30)
            lv32: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.conv2d(lv31, block4_pw_weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv33: R.Tensor((1, 64, 1, 1), dtype="float32") = R.reshape(block4_pw_bias, R.shape([1, 64, 1, 1]))
            lv34: R.Tensor((1, 64, 25, 5), dtype="float32") = R.add(lv32, lv33)
            lv35: R.Tensor((1, 64, 25, 5), dtype="float32") = R.nn.relu(lv34)
            lv36: R.Tensor((1, 64, 1, 1), dtype="float32") = R.nn.avg_pool2d(lv35, pool_size=[25, 5], strides=[25, 5], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv37: R.Tensor((1, 64), dtype="float32") = R.reshape(lv36, R.shape([1, 64]))
            lv38: R.Tensor((64, 12), dtype="float32") = R.permute_dims(fc_weight, axes=None)
            lv39: R.Tensor((1, 12), dtype="float32") = R.matmul(lv37, lv38, out_dtype="void")
            lv40: R.Tensor((1, 12), dtype="float32") = R.add(lv39, fc_bias)
            gv: R.Tensor((1, 12), dtype="float32") = R.nn.softmax(lv40, axis=-1)
            R.output(gv)
        return gv
