# passes: Normalize,CallTIRRewrite,LiftWorkspaces,KillAfterLastUse
# LiftWorkspaces: a kernel's T.alloc_buffer sized by its parameters' dims
# (tmp: (n, 4) of twice; w: (m,) of scaled, m a scalar parameter) becomes
# a trailing parameter and each call allocates it, so the planner places
# it, its shape in the caller's terms (h: m // 2 of halves becomes 8); a
# small constant one (acc: 4 bytes) stays in the kernel.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def twice(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(4)), "float32")
        B = T.match_buffer(var_B, (n, T.int64(4)), "float32")
        tmp = T.alloc_buffer((n, T.int64(4)), "float32")
        acc = T.alloc_buffer((T.int64(1),), "float32")
        for i, j in T.grid(n, T.int64(4)):
            tmp[i, j] = A[i, j] + A[i, j]
        for i, j in T.grid(n, T.int64(4)):
            acc[T.int64(0)] = tmp[i, j]
            B[i, j] = acc[T.int64(0)]

    @T.prim_func(private=True)
    def scaled(var_A: T.handle, var_B: T.handle, m: T.int64):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(4)), "float32")
        B = T.match_buffer(var_B, (n, T.int64(4)), "float32")
        w = T.alloc_buffer((m,), "float32")
        for k in range(m):
            w[k] = T.Cast("float32", k)
        for i, j in T.grid(n, T.int64(4)):
            B[i, j] = A[i, j] * w[m - T.int64(1)]

    @T.prim_func(private=True)
    def halves(var_A: T.handle, var_B: T.handle):
        m = T.int64()
        A = T.match_buffer(var_A, (m,), "float32")
        B = T.match_buffer(var_B, (m,), "float32")
        h = T.alloc_buffer((m // T.int64(2),), "float32")
        for i in range(m // T.int64(2)):
            h[i] = A[i] + A[i + m // T.int64(2)]
        for i in range(m // T.int64(2) * T.int64(2)):
            B[i] = h[i // T.int64(2)]

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((16,), dtype="float32")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor((16,), dtype="float32")):
        n = T.int64()
        R.func_attr({"relax.force_pure": True, "tir_var_upper_bound": {"n": 32}})
        cls = Module
        a = R.call_tir(cls.twice, (x,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
        b = R.call_tir(cls.scaled, (a,), out_sinfo=R.Tensor((n, 4), dtype="float32"), tir_vars=R.shape([3]))
        c = R.call_tir(cls.halves, (y,), out_sinfo=R.Tensor((16,), dtype="float32"))
        return (b, c)
