# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# R.ShapeExpr, TVM's node class, reads as R.shape: a list or a tuple of
# dims, symbolic ones too; it prints as R.shape.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")):
        n = T.int64()
        a = R.ShapeExpr([16])
        b = R.ShapeExpr((n, n * 4))
        c = R.reshape(x, R.ShapeExpr([n * 4]))
        return (a, b, c)
