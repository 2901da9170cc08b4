# Composite calls for MergeCompositeFunctions: in main, c1 -> c2 merge into
# one group although `p` (not offloaded) reads c1 between them and must move
# after the merged call; c3 reads c2 and `q`, and q depends on the group,
# so c3 joining would make a cycle: it forms a group of its own.  `other`
# holds a composite call in a plain block, and an if whose branch holds one.
@I.ir_module
class Module:
    @R.function(private=True)
    def fused_mm_add(a: R.Tensor((2, 2), dtype="float32"), w: R.Tensor((2, 2), dtype="float32"), b: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
        R.func_attr({"Composite": "rxc.matmul_add", "Primitive": True})
        with R.dataflow():
            lv = R.matmul(a, w)
            gv = R.add(lv, b)
            R.output(gv)
        return gv

    @R.function(private=True)
    def fused_mm_relu(a: R.Tensor((2, 2), dtype="float32"), w: R.Tensor((2, 2), dtype="float32"), b: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
        R.func_attr({"Composite": "rxc.matmul_add_relu", "Primitive": True})
        with R.dataflow():
            lv = R.matmul(a, w)
            lv1 = R.add(lv, b)
            gv = R.nn.relu(lv1)
            R.output(gv)
        return gv

    @R.function
    def other(x: R.Tensor((2, 2), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tensor((2, 2), dtype="float32"):
        cls = Module
        y = cls.fused_mm_add(x, x, x)
        if c:
            z = cls.fused_mm_relu(y, x, x)
        else:
            z = R.negative(y)
        return z

    @R.function
    def main(x: R.Tensor((2, 2), dtype="float32"), w: R.Tensor((2, 2), dtype="float32")) -> R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((2, 2), dtype="float32")):
        cls = Module
        with R.dataflow():
            c1 = cls.fused_mm_add(x, w, x)
            p = R.negative(c1)
            c2 = cls.fused_mm_relu(c1, w, x)
            q = R.multiply(c2, p)
            c3 = cls.fused_mm_add(c2, w, q)
            R.output(c3, p)
        return (c3, p)
