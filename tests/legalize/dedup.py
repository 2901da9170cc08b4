# Calls alike lower to one prim_func (TVM's BlockBuilder deduplicates):
# three adds of (4,) share `add` whatever their arguments - distinct, the
# same var twice (lv1), or swapped (lv2); an add of (2, 4) gets its own;
# the adds of (n,) and (m,) share one function of a free dim.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32"), z: R.Tensor((2, 4), dtype="float32"), a: R.Tensor(("n",), dtype="float32"), b: R.Tensor(("m",), dtype="float32")) -> R.Tuple(R.Tensor((2, 4), dtype="float32"), R.Tensor(("n",), dtype="float32"), R.Tensor(("m",), dtype="float32")):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8, "m": 8}})
        with R.dataflow():
            lv: R.Tensor((4,), dtype="float32") = R.add(x, y)
            lv1: R.Tensor((4,), dtype="float32") = R.add(lv, lv)
            lv2: R.Tensor((4,), dtype="float32") = R.add(y, lv1)
            lv3: R.Tensor((2, 4), dtype="float32") = R.add(z, z)
            lv4: R.Tensor((2, 4), dtype="float32") = R.multiply(lv3, lv2)
            lv5: R.Tensor((n,), dtype="float32") = R.add(a, a)
            lv6: R.Tensor((m,), dtype="float32") = R.add(b, b)
            gv = (lv4, lv5, lv6)
            R.output(gv)
        return gv
