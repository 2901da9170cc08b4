# Reductions over symbolic shapes: sum over axis 1 of (n, 4) with
# keepdims, mean over the symbolic axis (divides by n), max of every
# element, argmax along n, and a reduction over both of two vars.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), z: R.Tensor(("n", "m"), dtype="float32")):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16, "m": 16}})
        with R.dataflow():
            a: R.Tensor((n, 1), dtype="float32") = R.sum(x, axis=[1], keepdims=True)
            b: R.Tensor((4,), dtype="float32") = R.mean(x, axis=[0])
            c: R.Tensor((), dtype="float32") = R.max(x)
            d: R.Tensor((4,), dtype="int64") = R.argmax(x, axis=0)
            e: R.Tensor((), dtype="float32") = R.mean(z, axis=[0, 1])
            f: R.Tensor((n, 1), dtype="float32") = R.min(z, axis=[-1], keepdims=True)
            gv = (a, b, c, d, e, f)
            R.output(gv)
        return gv
