# passes: Normalize,CallTIRRewrite,KillAfterLastUse
# b is used in the then branch only: its kill goes after the if.  d is
# made and dies inside the then branch.  z, the if's var, takes over the
# branch results and is killed after its last use; w after u's call (the
# bindings after the if keep their kills, which TVM loses).
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def addone(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("b"):
                vi = T.axis.spatial(T.int64(4), i)
                B[vi] = A[vi] + T.float32(1)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        a = R.call_tir(Module.addone, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
        b = R.call_tir(Module.addone, (a,), out_sinfo=R.Tensor((4,), dtype="float32"))
        if c:
            d = R.call_tir(Module.addone, (b,), out_sinfo=R.Tensor((4,), dtype="float32"))
            z = R.call_tir(Module.addone, (d,), out_sinfo=R.Tensor((4,), dtype="float32"))
        else:
            z = R.call_tir(Module.addone, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
        w = R.call_tir(Module.addone, (z,), out_sinfo=R.Tensor((4,), dtype="float32"))
        u = R.call_tir(Module.addone, (w,), out_sinfo=R.Tensor((4,), dtype="float32"))
        return u
