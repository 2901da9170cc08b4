# conv2d on the float32 gemm schedule (ops/conv.c conv2d_fast, ops/gemm.c):
# a pointwise conv over a symbolic batch whose output channels and width
# leave rows and columns past whole 8x16 tiles, then a bias and relu that
# fuse after it; a padded, strided 3x3 conv (the guard on the tiles'
# edges); a depthwise conv and one of symbolic width, which keep the
# generic float64 loops.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 5, 3, 19), dtype="float32"), w: R.Tensor((11, 5, 1, 1), dtype="float32"), bias: R.Tensor((1, 11, 1, 1), dtype="float32"), y: R.Tensor((1, 3, 9, 23), dtype="float32"), k: R.Tensor((17, 3, 3, 3), dtype="float32"), dw: R.Tensor((3, 1, 3, 3), dtype="float32"), z: R.Tensor((1, 2, 4, "m"), dtype="float32"), kz: R.Tensor((4, 2, 1, 1), dtype="float32")):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 4, "m": 20}})
        with R.dataflow():
            a = R.nn.conv2d(x, w)
            b = R.add(a, bias)
            r = R.nn.relu(b)
            c = R.nn.conv2d(y, k, strides=[2, 2], padding=[1, 1, 1, 1])
            d = R.nn.conv2d(y, dw, padding=[1, 1, 1, 1], groups=3)
            e = R.nn.conv2d(z, kz)
            gv = (r, c, d, e)
            R.output(gv)
        return gv
