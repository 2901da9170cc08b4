# passes: Normalize,KillAfterLastUse,FoldConstant,KillAfterLastUse
# TVM #17340: KillAfterLastUse then FoldConstant then KillAfterLastUse.
# TVM put kill_tensor(lv) inside the dataflow block, FoldConstant turned it
# into kill_tensor(<constant>), and the second KillAfterLastUse crashed.
# Here: no kill in the dataflow block, the kill of gv (folded) is dropped,
# gv1 keeps its kill, the dataflow vars are never killed.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def addone(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("b"):
                vi = T.axis.spatial(T.int64(4), i)
                B[vi] = A[vi] + T.float32(1)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        with R.dataflow():
            lv = R.call_tir(Module.addone, (R.const([1, 2, 3, 4], "float32"),), out_sinfo=R.Tensor((4,), dtype="float32"))
            gv = R.add(lv, R.const(2, "float32"))
            lv1 = R.add(gv, x)
            gv1 = R.multiply(lv1, x)
            R.output(gv, gv1)
        y = R.add(gv, gv1)
        return y
