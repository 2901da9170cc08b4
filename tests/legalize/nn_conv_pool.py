# conv2d and the pools: NCHW with padding, strides and groups, NHWC with
# HWIO weights, depthwise and dilation; max pooling with ceil_mode on a
# symbolic height, average pooling counting the padding or not, adaptive
# average pooling to an uneven grid.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 4, 6, 5), dtype="float32"), w: R.Tensor((6, 2, 3, 3), dtype="float32"), xh: R.Tensor((1, 5, 5, 4), dtype="float32"), wd: R.Tensor((3, 3, 1, 4), dtype="float32"), y: R.Tensor((1, 2, "h", 7), dtype="float32")):
        h = T.int64()
        R.func_attr({"tir_var_upper_bound": {"h": 9}})
        with R.dataflow():
            c = R.nn.conv2d(x, w, strides=[2, 1], padding=[1, 0, 2, 1], groups=2)
            cb = R.add(c, R.const(0.5, "float32"))
            d = R.nn.conv2d(xh, wd, padding=[1], dilation=[1, 2], groups=4, data_layout="NHWC", kernel_layout="HWIO")
            e = R.nn.max_pool2d(y, pool_size=[2, 3], strides=[2, 2], ceil_mode=True)
            f = R.nn.avg_pool2d(x, pool_size=[3, 3], strides=[2, 2], padding=[1, 0, 0, 1], ceil_mode=True, count_include_pad=True)
            g = R.nn.avg_pool2d(xh, pool_size=[3, 3], padding=[1], layout="NHWC")
            k = R.nn.adaptive_avg_pool2d(x, output_size=[4, 2])
            gv = (cb, d, e, f, g, k)
            R.output(gv)
        return gv
