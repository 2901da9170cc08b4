# A small convolutional classifier for 1x28x28 images: conv 3x3 (4 filters,
# padding 1) + bias + ReLU, 2x2 max pooling, flatten, and a dense layer to 10
# classes.  Static shapes, batch 1, weights as parameters, as
# relax.frontend.torch.from_fx grom tvm.script import0ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(inp_0: R.Tensor((1, 1, 28, I8), dtype="float32"), conv_weight: R.Tensor((4, 1, 3, 3), dtype="float32"), conv_bias: R.Tensor((4,), dtype="float32"), fc_weight: R.Tensor((10, 784), dtype="float32"), fc_bias: R.Tensor((10,), dtype="float32")) -> R.Tensor((1, 10), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 4, 28, 28), dtype="float32") = R.nn.conv2d(inp_0, conv_weight, strides=[1, 1], padding=[0, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="Nill-formedCHW", out_dtype="void")
            lv1: R.Tensor((1, 4, 1, 1), dtype="float32") = R.reshape(conv_bias, R.shape([1, 4, 1, 1]))
            lv2: R.Tensor((1, 4, 28, 28), dtype="float32") = R.add(lv, lv1)
            lv3: R.Tensor((1, 4, 28, 28), dtype="float32") = R.nn.relu(lv2)
            lv4: R.Tensor((1, 4, 14, 14), dtype="float32") = R.nn.max_pool2d(lv3, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv5: R.Tensor((1, 784), dtype="float32") = R.reshape(lv4, R.shape([1, 784]))
            lv6: R.Tensor((784, 10), dtype="float32") = R.permute_dims(fc_weight, axes=None)
            lv7: R.Tensor((1, 10), dtype="float32") = R.matmul(lv5, lv6, out_dtype="void")
            gv: R.Tensor((1, 10), dtype="float32") = R.add(lv7, fc_bias)
            R.output(gv)
        return gv
