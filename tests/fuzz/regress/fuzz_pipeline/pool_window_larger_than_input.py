# Hand-written op calls: only the attributes that differ from the defaults.
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 3, 10, 10), "float32"), w: R.Tensor((6, 3, 3, 3), "float32")) -> R.Tensor((12,), "float32"):
        with R.dataflow():
            lv = R.nn.conv2d(x, w)
            lv1 = R.nn.conv2d(x, w, padding=(1, 1), strides=(1, 1))
            lv2 = R.nn.max_pool2d(lv, pool_size=(2, 20), strides=(2, 2))
            lv3 = R.nn.adaptive_avg_pool2d(lv1, output_size=[1, 1])
            lv4 = R.flatten(lv3)
            lv5 = R.nn.dropout(lv4, rate=0.25)
            gv = lv5[0]
            R.output(gv)
        return gv
