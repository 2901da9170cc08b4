# R.image.resize2d / affine_grid with size written as a Python tuple, as
# TVM's tests and importers write it: read as a shape (TVM's wrapper makes
# it a ShapeExpr).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 8, 8), "float32"), theta: R.Tensor((1, 2, 3), "float32")) -> R.Tuple(R.Tensor((1, 3, 20, 10), "float32"), R.Tensor((1, 2, 4, 5), "float32")):
        a = R.image.resize2d(x, (20, 10), layout="NCHW")
        g = R.image.affine_grid(theta, size=(4, 5))
        return (a, g)
