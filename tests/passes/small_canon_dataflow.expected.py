# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), u: R.Tensor(dtype="float32", ndim=1)) -> R.Tensor((2, 3), dtype="float32"):
        m = T.int64()
        with R.dataflow():
            lv0: R.Tensor((2, 3), dtype="float32") = R.add(x, x)
            lv2: R.Tensor((2, 3), dtype="float32") = R.multiply(lv0, lv0)
            t: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = (lv2, x)
            lv4: R.Tensor((2, 3), dtype="float32") = R.add(lv2, lv2)
            gv: R.Tensor((2, 3), dtype="float32") = lv2
            gv2: R.Tensor((2, 3), dtype="float32") = R.add(lv4, lv4)
            R.output(gv, gv2)
        v: R.Tensor((m,), dtype="float32") = R.match_cast(u, R.Tensor((m,), dtype="float32"))
        t2: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((), dtype="float32")) = (gv, R.const(2.0, "float32"))
        k: R.Tensor((), dtype="float32") = R.const(2.0, "float32")
        w: R.Tensor((2, 3), dtype="float32") = R.add(gv, gv2)
        w2: R.Tensor((2, 3), dtype="float32") = R.multiply(w, k)
        return w2
