# A match_cast inside an if branch whose condition is data (c): the entry
# checks it at the start of the branch, where the interpreter would, not
# in the prologue (gen_check.c).  Run at equal dims by test_codegen.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), "bool"), x: R.Tensor(("n",), "float32"), w: R.Tensor(("m",), "float32")):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8, "m": 8}})
        if c:
            w1 = R.match_cast(w, R.Tensor((n,), "float32"))
            y = R.add(x, w1)
            z = R.multiply(y, y)
        else:
            z = R.exp(x)
        return z
