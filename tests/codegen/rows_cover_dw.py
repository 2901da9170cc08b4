# Depthwise convs with 5x5 windows, as mnasnet1_0, mobilenet_v3_small and
# efficientnet_b0 have them (ops/conv_dw.c): each output row is one store
# of 25 taps, a left-deep sum of products with one load and one weight
# each, more loads and weights than 16 and more nodes than 96, which once
# kept the row a scalar loop under libtcc.  d1 has stride 1 and d2 stride
# 2 (the plane split by phase); 3x3 and 7x7 around them.  Used by
# tests/agree/rows_cover.py.
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 8, 23, 37), dtype="float32"), w5: R.Tensor((8, 1, 5, 5), dtype="float32"), w3: R.Tensor((8, 1, 3, 3), dtype="float32"), w7: R.Tensor((8, 1, 7, 7), dtype="float32"), b: R.Tensor((1, 8, 1, 1), dtype="float32")) -> R.Tuple(R.Tensor((1, 8, 23, 37), dtype="float32"), R.Tensor((1, 8, 12, 19), dtype="float32"), R.Tensor((1, 8, 23, 37), dtype="float32"), R.Tensor((1, 8, 23, 37), dtype="float32")):
        with R.dataflow():
            d1: R.Tensor((1, 8, 23, 37), dtype="float32") = R.nn.conv2d(x, w5, strides=[1, 1], padding=[2, 2, 2, 2], groups=8)
            d2: R.Tensor((1, 8, 12, 19), dtype="float32") = R.nn.conv2d(x, w5, strides=[2, 2], padding=[2, 2, 2, 2], groups=8)
            d3: R.Tensor((1, 8, 23, 37), dtype="float32") = R.nn.relu(R.add(R.nn.conv2d(x, w3, strides=[1, 1], padding=[1, 1, 1, 1], groups=8), b))
            d7: R.Tensor((1, 8, 23, 37), dtype="float32") = R.nn.conv2d(x, w7, strides=[1, 1], padding=[3, 3, 3, 3], groups=8)
            R.output(d1, d2, d3, d7)
        return (d1, d2, d3, d7)
