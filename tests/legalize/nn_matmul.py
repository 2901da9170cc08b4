# matmul: a symbolic row count, batches broadcasting (size-1 batch dims
# and missing ones), 1-D operands on either side.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 3), dtype="float32"), a: R.Tensor((2, 1, 3, 4), dtype="float32"), b: R.Tensor((5, 4, 2), dtype="float32"), v: R.Tensor((4,), dtype="float32")):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16}})
        with R.dataflow():
            y = R.matmul(x, w)
            z = R.add(y, R.const(1.0, "float32"))
            p = R.matmul(a, b)
            q = R.matmul(v, b)
            r = R.matmul(a, v)
            s = R.matmul(v, v)
            gv = (z, p, q, r, s)
            R.output(gv)
        return gv
