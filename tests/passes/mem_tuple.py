# passes: Normalize,CallTIRRewrite,KillAfterLastUse
# A call_tir with two outputs: t is the tuple of their allocations.  The
# element allocations die after the last use of t or of t[i]: alloc (t[0])
# after p's call, alloc1 (t[1], also read through the alias t1) after q's.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def two(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("b"):
                vi = T.axis.spatial(T.int64(4), i)
                B[vi] = A[vi] * T.float32(2)
                C[vi] = A[vi] - T.float32(1)

    @T.prim_func(private=True)
    def addone(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("b"):
                vi = T.axis.spatial(T.int64(4), i)
                B[vi] = A[vi] + T.float32(1)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        t = R.call_tir(Module.two, (x,), out_sinfo=[R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")])
        t0 = t[0]
        p = R.call_tir(Module.addone, (t0,), out_sinfo=R.Tensor((4,), dtype="float32"))
        t1 = t[1]
        s = t1
        q = R.call_tir(Module.addone, (s,), out_sinfo=R.Tensor((4,), dtype="float32"))
        return (p, q)
