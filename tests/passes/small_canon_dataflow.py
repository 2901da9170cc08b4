# CanonicalizeBindings across a dataflow boundary.  In the block: lv1 = lv0
# (DataflowVar = DataflowVar) is forwarded; lv3 = t[0] of the tuple literal
# t is lv2, then forwarded; gv = lv3 exports a DataflowVar used after the
# block, so it stays (as gv = lv2); only_inside = lv2 is a Var used only in
# its block, so it is forwarded.  After it: y = gv (Var = Var) and a
# match_cast that adds nothing are forwarded; a match_cast that defines a
# new dim stays; k = t2[1] becomes the constant.
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
            lv1: R.Tensor((2, 3), dtype="float32") = lv0
            lv2: R.Tensor((2, 3), dtype="float32") = R.multiply(lv1, lv1)
            t: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = (lv2, x)
            lv3: R.Tensor((2, 3), dtype="float32") = t[0]
            only_inside: R.Tensor((2, 3), dtype="float32") = lv2
            lv4: R.Tensor((2, 3), dtype="float32") = R.add(only_inside, lv3)
            gv: R.Tensor((2, 3), dtype="float32") = lv3
            gv2: R.Tensor((2, 3), dtype="float32") = R.add(lv4, lv4)
            R.output(only_inside, gv, gv2)
        y: R.Tensor((2, 3), dtype="float32") = gv
        z: R.Tensor((2, 3), dtype="float32") = R.match_cast(y, R.Tensor((2, 3), dtype="float32"))
        v: R.Tensor((m,), dtype="float32") = R.match_cast(u, R.Tensor((m,), dtype="float32"))
        t2: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((), dtype="float32")) = (z, R.const(2.0, "float32"))
        k: R.Tensor((), dtype="float32") = t2[1]
        w: R.Tensor((2, 3), dtype="float32") = R.add(z, gv2)
        w2: R.Tensor((2, 3), dtype="float32") = R.multiply(w, k)
        return w2
