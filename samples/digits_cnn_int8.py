# rxc: quantized
# digits_cnn quantized post-training to int8 (samples/tools/quantize_digits.py,
# which writes this file and digits_cnn_int8.npz): int8 weights with one
# scale per output channel, int32 biases, int8 activations with one scale
# and zero point per tensor, calibrated on the training images.  QDQ form:
# each quantized tensor is an R.quantize / R.dequantize pair and the ops
# between them compute in float32.  The batch n is symbolic, at most 512.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 1, 8, 8), dtype="float32"), x_scale: R.Tensor((), dtype="float32"), x_zp: R.Tensor((), dtype="int8"), conv1_scale: R.Tensor((), dtype="float32"), conv1_zp: R.Tensor((), dtype="int8"), fc1_scale: R.Tensor((), dtype="float32"), fc1_zp: R.Tensor((), dtype="int8"), fc2_scale: R.Tensor((), dtype="float32"), fc2_zp: R.Tensor((), dtype="int8"), conv1_weight: R.Tensor((8, 1, 3, 3), dtype="int8"), conv1_wscale: R.Tensor((8,), dtype="float32"), conv1_bias: R.Tensor((8,), dtype="int32"), conv1_bscale: R.Tensor((8,), dtype="float32"), fc1_weight: R.Tensor((32, 128), dtype="int8"), fc1_wscale: R.Tensor((32,), dtype="float32"), fc1_bias: R.Tensor((32,), dtype="int32"), fc1_bscale: R.Tensor((32,), dtype="float32"), fc2_weight: R.Tensor((10, 32), dtype="int8"), fc2_wscale: R.Tensor((10,), dtype="float32"), fc2_bias: R.Tensor((10,), dtype="int32"), fc2_bscale: R.Tensor((10,), dtype="float32")) -> R.Tensor(("n", 10), dtype="float32"):
        n = T.int64()
        R.func_attr({"num_input": 1, "tir_var_upper_bound": {"n": 512}})
        with R.dataflow():
            xdq: R.Tensor((n, 1, 8, 8), dtype="int8") = R.quantize(x, x_scale, x_zp, axis=-1, out_dtype="int8")
            xd: R.Tensor((n, 1, 8, 8), dtype="float32") = R.dequantize(xdq, x_scale, x_zp, axis=-1, out_dtype="float32")
            w1: R.Tensor((8, 1, 3, 3), dtype="float32") = R.dequantize(conv1_weight, conv1_wscale, R.const(0, "int8"), axis=0, out_dtype="float32")
            b1: R.Tensor((8,), dtype="float32") = R.dequantize(conv1_bias, conv1_bscale, R.const(0, "int32"), axis=0, out_dtype="float32")
            c1: R.Tensor((n, 8, 8, 8), dtype="float32") = R.nn.conv2d(xd, w1, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            b1r: R.Tensor((1, 8, 1, 1), dtype="float32") = R.reshape(b1, R.shape([1, 8, 1, 1]))
            c1b: R.Tensor((n, 8, 8, 8), dtype="float32") = R.add(c1, b1r)
            r1: R.Tensor((n, 8, 8, 8), dtype="float32") = R.nn.relu(c1b)
            a1q: R.Tensor((n, 8, 8, 8), dtype="int8") = R.quantize(r1, conv1_scale, conv1_zp, axis=-1, out_dtype="int8")
            a1: R.Tensor((n, 8, 8, 8), dtype="float32") = R.dequantize(a1q, conv1_scale, conv1_zp, axis=-1, out_dtype="float32")
            p1: R.Tensor((n, 8, 4, 4), dtype="float32") = R.nn.max_pool2d(a1, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            f1: R.Tensor((n, 128), dtype="float32") = R.reshape(p1, R.shape([n, 128]))
            w_fc1: R.Tensor((32, 128), dtype="float32") = R.dequantize(fc1_weight, fc1_wscale, R.const(0, "int8"), axis=0, out_dtype="float32")
            b_fc1: R.Tensor((32,), dtype="float32") = R.dequantize(fc1_bias, fc1_bscale, R.const(0, "int32"), axis=0, out_dtype="float32")
            wt_fc1: R.Tensor((128, 32), dtype="float32") = R.permute_dims(w_fc1, axes=None)
            m_fc1: R.Tensor((n, 32), dtype="float32") = R.matmul(f1, wt_fc1, out_dtype="void")
            z_fc1: R.Tensor((n, 32), dtype="float32") = R.add(m_fc1, b_fc1)
            h_fc1: R.Tensor((n, 32), dtype="float32") = R.nn.relu(z_fc1)
            a2q: R.Tensor((n, 32), dtype="int8") = R.quantize(h_fc1, fc1_scale, fc1_zp, axis=-1, out_dtype="int8")
            a2: R.Tensor((n, 32), dtype="float32") = R.dequantize(a2q, fc1_scale, fc1_zp, axis=-1, out_dtype="float32")
            w_fc2: R.Tensor((10, 32), dtype="float32") = R.dequantize(fc2_weight, fc2_wscale, R.const(0, "int8"), axis=0, out_dtype="float32")
            b_fc2: R.Tensor((10,), dtype="float32") = R.dequantize(fc2_bias, fc2_bscale, R.const(0, "int32"), axis=0, out_dtype="float32")
            wt_fc2: R.Tensor((32, 10), dtype="float32") = R.permute_dims(w_fc2, axes=None)
            m_fc2: R.Tensor((n, 10), dtype="float32") = R.matmul(a2, wt_fc2, out_dtype="void")
            z_fc2: R.Tensor((n, 10), dtype="float32") = R.add(m_fc2, b_fc2)
            a3q: R.Tensor((n, 10), dtype="int8") = R.quantize(z_fc2, fc2_scale, fc2_zp, axis=-1, out_dtype="int8")
            a3: R.Tensor((n, 10), dtype="float32") = R.dequantize(a3q, fc2_scale, fc2_zp, axis=-1, out_dtype="float32")
            gv: R.Tensor((n, 10), dtype="float32") = R.nn.softmax(a3, axis=-1)
            R.output(gv)
        return gv
