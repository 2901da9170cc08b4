# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4, 16, 16), dtype="float32"), w: R.Tensor((8, 4, 3, 3), dtype="float32"), dw: R.Tensor((8, 1, 3, 3), dtype="float32")) -> R.Tensor((1, 8, 4, 4), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 8, 8, 8), dtype="float32") = R.nn.conv2d(x, w, strides=[2, 2], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv1: R.Tensor((1, 8, 8, 8), dtype="float32") = R.nn.conv2d(lv, dw, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=8, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float32")
            lv2: R.Tensor((1, 8, 8, 8), dtype="float32") = R.nn.relu(lv1)
            lv3: R.Tensor((1, 8, 4, 4), dtype="float32") = R.nn.max_pool2d(lv2, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv4: R.Tensor((1, 8, 4, 4), dtype="float32") = R.nn.avg_pool2d(lv2, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 0, 0], ceil_mode=True, count_include_pad=True)
            gv: R.Tensor((1, 8, 4, 4), dtype="float32") = R.add(lv3, lv4)
            R.output(gv)
        return gv
