from __future__ import annotations
# TVM main's generic-function header: def main[n](...) names the symbolic
# vars (no `n = T.int64()` line), and `n = TypeVar("n")` at top level, the
# form older Pythons get.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

n = TypeVar("n")
m = TypeVar("m")

@I.ir_module
class Module:
    @R.function
    def main[n, m](x: R.Tensor((n, n * 2), dtype="float32"), y: R.Tensor((m,), dtype="float32")) -> R.Tensor((n, n * 2), dtype="float32"):
        gv: R.Tensor((n, n * 2), dtype="float32") = R.add(x, x)
        return gv
