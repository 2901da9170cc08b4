# Reader leniency in struct info: positional dtype, list shapes, dtype only,
# ndim=-1, R.Tuple of a list.
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor([2, 3], "float32"), b: R.Tensor("float32"), c: R.Tensor(dtype="float32", ndim=-1), d: R.Tuple([R.Tensor((2, 3), "float32"), R.Shape([2])])) -> R.Tuple([R.Tensor((2, 3), "float32"), R.Tensor("float32")]):
        x: R.Tensor([2, 3], "float32") = R.add(a, a)
        y: R.Tensor("float32") = R.add(b, c)
        z: R.Tensor((2, 3), "float32") = d[0]
        w: R.Tensor((2, 3), "float32") = R.add(x, z)
        return (w, y)
