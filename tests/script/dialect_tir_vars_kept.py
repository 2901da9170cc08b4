# A prim func that call_tir calls with tir_vars and a function calls
# directly: v0.26 cannot move its scalar parameter (the direct call passes
# them in order), so it keeps its order and the call its tir_vars
# (docs/text-format.md, "Output dialects"; tests/unit/test_dialect.c).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fill(b: T.handle, m: T.int64):
        B = T.match_buffer(b, (m,), "float32")
        for i in range(m):
            B[i] = T.float32(1.0)

    @R.function
    def main(s: R.Shape(["m"])) -> R.Tensor(("m",), "float32"):
        m = T.int64()
        cls = Module
        a = R.call_tir(cls.fill, R.tuple(), out_sinfo=R.Tensor((m,), "float32"), tir_vars=R.shape([m]))
        return a

    @R.function(pure=False)
    def other(s: R.Shape(["m"]), out: R.Tensor(("m",), "float32")) -> R.Tensor(("m",), "float32"):
        m = T.int64()
        cls = Module
        cls.fill(out, R.prim_value(m))
        return out
