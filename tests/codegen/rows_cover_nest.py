# Perfect nests of loops for the row kernel ([codegen] rows,
# codegen/gen_row.c), as the ops write them around their rows: loops of
# extent 1 (a batch of 1), loops whose addresses run on contiguously from
# one to the next (then one call runs them all: flat over 2*3*5*7
# elements; inplace updates z at its own index over 3*4*5; sym over n*8
# with a symbolic n), loops that do not (padded reads rows of 12 for 10
# elements: rows; per_b's k[b] splits the nest in three, so the call is
# made per a), and guards whose count is a literal (tile1: the first
# column of a 16-wide tile, as a 1x1 image's gemm epilogue: 8 elements;
# tile5: j < 5 of 8, which then runs on into the rows; tile3: j + 2 < 5,
# whose rows do not).  carried reads what its previous iteration stored
# and keeps its loops.  chunks reads part only where k != 0 (T.if_then_else,
# as a split conv's first chunk: C does not read part when k is 0), a
# condition the nest does not change: a call for each value of it.
# lopsided's sum has 25 weights, too many to keep, but its last term alone
# holds 17: no split fits, so one call (the tries must leave no program of
# theirs behind).  two_pass computes a row into a scratch and then reads
# it (a depthwise conv's row, then its epilogue): one call that computes
# the row where the epilogue loads it; not shifted, which reads the
# scratch at other indices, nor reread, which reads it after the loop.
# Used by tests/agree/rows_cover.py.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def flat(x: T.Buffer((T.int64(2), T.int64(3), T.int64(5), T.int64(7)), "float32"), y: T.Buffer((T.int64(2), T.int64(3), T.int64(5), T.int64(7)), "float32"), o: T.Buffer((T.int64(2), T.int64(3), T.int64(5), T.int64(7)), "float32")):
        for z in range(T.int64(1)):
            for a in range(T.int64(2)):
                for b in range(T.int64(3)):
                    for c in range(T.int64(5)):
                        for d in range(T.int64(7)):
                            o[a + z, b, c, d] = x[a + z, b, c, d] * y[a, b, c, d] - x[a, b, c, d]

    @T.prim_func(private=True)
    def per_b(x: T.Buffer((T.int64(2), T.int64(3), T.int64(5), T.int64(7)), "float32"), k: T.Buffer((T.int64(3),), "float32"), o: T.Buffer((T.int64(2), T.int64(3), T.int64(5), T.int64(7)), "float32")):
        for a in range(T.int64(2)):
            for b in range(T.int64(3)):
                for c in range(T.int64(5)):
                    for d in range(T.int64(7)):
                        o[a, b, c, d] = x[a, b, c, d] / k[b]

    @T.prim_func(private=True)
    def inplace(z: T.Buffer((T.int64(3), T.int64(4), T.int64(5)), "float32"), w: T.Buffer((T.int64(3), T.int64(4), T.int64(5)), "float32")):
        for a in range(T.int64(3)):
            for b in range(T.int64(4)):
                for c in range(T.int64(5)):
                    z[a, b, c] = T.max(z[a, b, c], w[a, b, c])

    @T.prim_func(private=True)
    def padded(x: T.Buffer((T.int64(6), T.int64(12)), "float32"), o: T.Buffer((T.int64(6), T.int64(10)), "float32")):
        for i in range(T.int64(6)):
            for j in range(T.int64(10)):
                o[i, j] = x[i, j + T.int64(1)] + x[i, j]

    @T.prim_func(private=True)
    def tile1(acc: T.Buffer((T.int64(8), T.int64(16)), "float32"), b: T.Buffer((T.int64(8),), "float32"), o: T.Buffer((T.int64(8), T.int64(1)), "float32")):
        for i in range(T.int64(8)):
            for j in range(T.int64(16)):
                if j < T.int64(1):
                    o[i, j] = acc[i, j] + b[i]

    @T.prim_func(private=True)
    def tile5(f: T.Buffer((T.int64(40),), "float32"), o: T.Buffer((T.int64(4), T.int64(5)), "float32")):
        for i in range(T.int64(4)):
            for j in range(T.int64(8)):
                if j < T.int64(5):
                    o[i, j] = f[i * T.int64(5) + j] * f[i * T.int64(5) + j + T.int64(1)]

    @T.prim_func(private=True)
    def tile3(acc: T.Buffer((T.int64(8), T.int64(16)), "float32"), o: T.Buffer((T.int64(4), T.int64(5)), "float32")):
        for i in range(T.int64(4)):
            for j in range(T.int64(16)):
                if j + T.int64(2) < T.int64(5):
                    o[i, j + T.int64(2)] = acc[i, j] - acc[i + T.int64(4), j]

    @T.prim_func(private=True)
    def sym(var_x: T.handle, var_o: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(8)), "float32")
        o = T.match_buffer(var_o, (n, T.int64(8)), "float32")
        for i in range(n):
            for j in range(T.int64(8)):
                o[i, j] = T.min(x[i, j], T.float32(0.5)) * x[i, j]

    @T.prim_func(private=True)
    def carried(x: T.Buffer((T.int64(6), T.int64(12)), "float32"), o: T.Buffer((T.int64(6), T.int64(10)), "float32")):
        for i in range(T.int64(6)):
            for j in range(T.int64(9)):
                o[i, j + T.int64(1)] = o[i, j] + x[i, j]

    @T.prim_func(private=True)
    def chunks(x: T.Buffer((T.int64(3), T.int64(4), T.int64(16)), "float32"), part: T.Buffer((T.int64(4), T.int64(16)), "float32"), acc: T.Buffer((T.int64(4), T.int64(16)), "float32")):
        for k in range(T.int64(3)):
            for i in range(T.int64(4)):
                for j in range(T.int64(16)):
                    acc[i, j] = T.if_then_else(k == T.int64(0), T.float32(0), part[i, j])
            for i in range(T.int64(4)):
                for j in range(T.int64(16)):
                    part[i, j] = T.Select(k < T.int64(2), acc[i, j] + x[k, i, j], x[k, i, j] - acc[i, j])

    @T.prim_func(private=True)
    def lopsided(x: T.Buffer((T.int64(48),), "float32"), w: T.Buffer((T.int64(25),), "float32"), o: T.Buffer((T.int64(32),), "float32")):
        for j in range(T.int64(32)):
            o[j] = (x[j + T.int64(0)] * w[T.int64(0)] + x[j + T.int64(1)] * w[T.int64(1)] + x[j + T.int64(2)] * w[T.int64(2)] + x[j + T.int64(3)] * w[T.int64(3)] + x[j + T.int64(4)] * w[T.int64(4)] + x[j + T.int64(5)] * w[T.int64(5)] + x[j + T.int64(6)] * w[T.int64(6)] + x[j + T.int64(7)] * w[T.int64(7)]) + x[j + T.int64(8)] * w[T.int64(8)] * w[T.int64(9)] * w[T.int64(10)] * w[T.int64(11)] * w[T.int64(12)] * w[T.int64(13)] * w[T.int64(14)] * w[T.int64(15)] * w[T.int64(16)] * w[T.int64(17)] * w[T.int64(18)] * w[T.int64(19)] * w[T.int64(20)] * w[T.int64(21)] * w[T.int64(22)] * w[T.int64(23)] * w[T.int64(24)]

    @T.prim_func(private=True)
    def two_pass(x: T.Buffer((T.int64(6), T.int64(10)), "float32"), o: T.Buffer((T.int64(6), T.int64(10)), "float32")):
        s = T.alloc_buffer((T.int64(12),), "float32")
        for i in range(T.int64(6)):
            for a in range(T.int64(10)):
                s[a + T.int64(1)] = x[i, a] * T.float32(2) + T.float32(1)
            for b in range(T.int64(10)):
                o[i, b] = T.max(s[b + T.int64(1)], T.float32(0)) - s[b + T.int64(1)]

    @T.prim_func(private=True)
    def shifted(x: T.Buffer((T.int64(6), T.int64(10)), "float32"), o: T.Buffer((T.int64(6), T.int64(10)), "float32")):
        s = T.alloc_buffer((T.int64(12),), "float32")
        s[T.int64(10)] = T.float32(0)
        for i in range(T.int64(6)):
            for a in range(T.int64(10)):
                s[a] = x[i, a] * T.float32(2)
            for b in range(T.int64(10)):
                o[i, b] = s[b + T.int64(1)] + s[b]

    @T.prim_func(private=True)
    def reread(x: T.Buffer((T.int64(6), T.int64(10)), "float32"), o: T.Buffer((T.int64(6), T.int64(10)), "float32"), last: T.Buffer((T.int64(10),), "float32")):
        s = T.alloc_buffer((T.int64(10),), "float32")
        for i in range(T.int64(6)):
            for a in range(T.int64(10)):
                s[a] = x[i, a] - T.float32(1)
            for b in range(T.int64(10)):
                o[i, b] = s[b] * s[b]
        for k in range(T.int64(10)):
            last[k] = s[k]

    @R.function
    def main(x: R.Tensor((2, 3, 5, 7), "float32"), y: R.Tensor((2, 3, 5, 7), "float32"), k: R.Tensor((3,), "float32"), z: R.Tensor((3, 4, 5), "float32"), w: R.Tensor((3, 4, 5), "float32"), f: R.Tensor((40,), "float32"), p: R.Tensor((6, 12), "float32"), acc: R.Tensor((8, 16), "float32"), c: R.Tensor((3, 4, 16), "float32"), lx: R.Tensor((48,), "float32"), lw: R.Tensor((25,), "float32"), tx: R.Tensor((6, 10), "float32"), b: R.Tensor((8,), "float32"), s: R.Tensor(("n", 8), "float32")):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 64}})
        cls = Module
        with R.dataflow():
            o1 = R.call_tir(cls.flat, (x, y), out_sinfo=R.Tensor((2, 3, 5, 7), "float32"))
            o2 = R.call_tir(cls.per_b, (x, k), out_sinfo=R.Tensor((2, 3, 5, 7), "float32"))
            o3 = R.call_tir_inplace(cls.inplace, (z, w), inplace_indices=[0], out_sinfo=R.Tensor((3, 4, 5), "float32"))
            o4 = R.call_tir(cls.padded, (p,), out_sinfo=R.Tensor((6, 10), "float32"))
            o5 = R.call_tir(cls.tile1, (acc, b), out_sinfo=R.Tensor((8, 1), "float32"))
            o6 = R.call_tir(cls.tile5, (f,), out_sinfo=R.Tensor((4, 5), "float32"))
            o7 = R.call_tir_inplace(cls.tile3, (acc, o6), inplace_indices=[1], out_sinfo=R.Tensor((4, 5), "float32"))
            o8 = R.call_tir(cls.sym, (s,), out_sinfo=R.Tensor((n, 8), "float32"))
            q = R.call_tir(cls.padded, (p,), out_sinfo=R.Tensor((6, 10), "float32"))
            o9 = R.call_tir_inplace(cls.carried, (p, q), inplace_indices=[1], out_sinfo=R.Tensor((6, 10), "float32"))
            ch = R.call_tir(cls.chunks, (c,), out_sinfo=[R.Tensor((4, 16), "float32"), R.Tensor((4, 16), "float32")])
            o10 = ch[0]
            o11 = R.call_tir(cls.lopsided, (lx, lw), out_sinfo=R.Tensor((32,), "float32"))
            o12 = R.call_tir(cls.two_pass, (tx,), out_sinfo=R.Tensor((6, 10), "float32"))
            o13 = R.call_tir(cls.shifted, (tx,), out_sinfo=R.Tensor((6, 10), "float32"))
            rr = R.call_tir(cls.reread, (tx,), out_sinfo=[R.Tensor((6, 10), "float32"), R.Tensor((10,), "float32")])
            o14 = rr[0]
            o15 = rr[1]
            R.output(o1, o2, o3, o4, o5, o7, o8, o9, o10, o11, o12, o13, o14, o15)
        return (o1, o2, o3, o4, o5, o7, o8, o9, o10, o11, o12, o13, o14, o15)
