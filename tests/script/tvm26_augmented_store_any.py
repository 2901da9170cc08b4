# TIR augmented stores as TVM's tests write them (C[i] += v is
# C[i] = C[i] + v; also -= and *=) and R.Any() with parentheses.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def acc(A: T.Buffer((4, 4), "float32"), C: T.Buffer((4,), "float32")):
        for i, k in T.grid(4, 4):
            C[i] += A[i, k]
            C[i] -= T.float32(1)
            C[i] *= A[i, k]

    @R.function
    def main(x: R.Tensor((4, 4), "float32"), o: R.Any()) -> R.Tuple(R.Tensor((4,), "float32"), R.Any()):
        cls = Module
        y = R.call_tir(cls.acc, (x,), out_ty=R.Tensor((4,), "float32"))
        return (y, o)
