# Every spelling that differs between the output dialects v0.23 and v0.26
# (docs/text-format.md, "Output dialects"), but call_tir's tir_vars
# (dialect_tir_vars.py); tests/unit/test_dialect.c checks the printed lines.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scaled(a: T.handle, out: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        A = T.match_buffer(a, (T.int64(4),), "float32")
        for i in range(T.int64(4)):
            with T.block("scaled"):
                v_i = T.axis.spatial(T.int64(4), i)
                T.reads(A[v_i])
                T.writes(out[v_i])
                T.block_attr({"note": 1})
                tmp = T.alloc_buffer((T.int64(1),), "float32", scope="local")
                half: T.float32 = A[v_i] * T.float32(0.5)
                tmp[T.int64(0)] = half
                out[v_i] = tmp[T.int64(0)] + half

    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32"), o: R.Object, k: R.Prim("int64")) -> R.Tuple(R.Tensor((4,), "float32"), R.Prim("int64")):
        cls = Module
        y = R.call_tir(cls.scaled, (x,), out_sinfo=R.Tensor((4,), "float32"))
        z = R.call_packed("my_func", y, o, sinfo_args=(R.Tensor((4,), "float32"),))
        w = R.call_pure_packed("my_pure", z, sinfo_args=(R.Tensor((4,), "float32"),))
        v = R.call_dps_packed("my_dps", (w,), out_sinfo=R.Tensor((4,), "float32"))
        c: R.Prim("int64") = R.prim_value(3)
        d: R.Prim("int32") = R.prim_value(T.int32(2))
        e = R.prim_value(5)
        return (v, c)
