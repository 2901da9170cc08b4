# Hand-written call_tir forms: a single non-tuple argument, positional
# out_sinfo, out_sinfo as a list of one.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def copy(A: T.Buffer((3,), "float32"), B: T.Buffer((3,), "float32")):
        for i in range(3):
            B[i] = A[i]

    @R.function
    def main(x: R.Tensor((3,), "float32")) -> R.Tuple(R.Tensor((3,), "float32"), R.Tensor((3,), "float32")):
        with R.dataflow():
            a = R.call_tir(Module.copy, x, R.Tensor((3,), "float32"))
            b = R.call_tir(Module.copy, (a,), out_sinfo=[R.Tensor((3,), "float32")])
            gv = (a, b)
            R.output(gv)
        return gv
