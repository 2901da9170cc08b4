# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor(ndim=2), b: R.Tensor(dtype="float32"), c: R.Tensor, d: R.Tuple(R.Tensor((2,), dtype="float32"), R.Object), e: R.Shape([2, 3]), f: R.Shape(ndim=2), g: R.Prim("int64"), h: R.Object, k: R.Callable, l: R.Tensor((2, 3)), m: R.Tensor(dtype="int8", ndim=3), n: R.Shape, p: R.Prim("float32")) -> R.Tuple(R.Tensor(ndim=2), R.Tensor, R.Object, R.Shape(ndim=2), R.Prim("int64")):
        d0: R.Tensor((2,), dtype="float32") = d[0]
        d1: R.Object = d[1]
        t: R.Tuple(R.Tensor(ndim=2), R.Tensor, R.Object, R.Shape(ndim=2), R.Prim("int64")) = (a, c, d1, f, g)
        return t
