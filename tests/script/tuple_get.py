# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 2), dtype="float32"), y: R.Tensor((2,), dtype="int32")) -> R.Tuple(R.Tensor((2,), dtype="int32"), R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((2, 2), dtype="float32"))):
        with R.dataflow():
            lv: R.Tensor((2, 2), dtype="float32") = R.add(x, x)
            t: R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((2,), dtype="int32")) = (lv, y)
            nested: R.Tuple(R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((2,), dtype="int32")), R.Tensor((2, 2), dtype="float32")) = (t, x)
            inner: R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((2,), dtype="int32")) = nested[0]
            a: R.Tensor((2, 2), dtype="float32") = inner[0]
            b: R.Tensor((2,), dtype="int32") = inner[1]
            c: R.Tensor((2, 2), dtype="float32") = nested[1]
            pair: R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((2, 2), dtype="float32")) = (a, c)
            gv: R.Tuple(R.Tensor((2,), dtype="int32"), R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((2, 2), dtype="float32"))) = (b, pair)
            R.output(gv)
        return gv
