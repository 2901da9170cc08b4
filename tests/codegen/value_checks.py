# Refusals that depend on tensor values (codegen/README.md): take's
# kernel checks its indices and floor_divide's its divisors in check loops
# before their stores; z and y, outputs computed before the last kernel
# that may refuse, are not written into the caller's buffers before it.
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32"), i: R.Tensor(("k",), dtype="int64"),
             a: R.Tensor((4,), dtype="int32"), b: R.Tensor((4,), dtype="int32")):
        n = T.int64()
        k = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8, "k": 8}})
        with R.dataflow():
            z = R.exp(x)
            y = R.take(z, i, axis=0)
            q = R.floor_divide(a, b)
            gv = (z, y, q)
            R.output(gv)
        return gv
