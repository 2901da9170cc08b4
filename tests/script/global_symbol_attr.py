# Hand-written style: explicit global_symbol attributes, one renamed.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def add_one(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        T.func_attr({"global_symbol": "add_one", "tir.noalias": True})
        for i in range(4):
            with T.block("B"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi] + T.float32(1)

    @R.function
    def helper(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"global_symbol": "rxc_helper_v1"})
        y = R.call_tir(Module.add_one, (x,), R.Tensor((4,), "float32"))
        return y

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"global_symbol": "main"})
        y = Module.helper(x)
        return y
