# Shape relations between operands that only run time decides (issue 16):
# the inner dims of a matmul (k == m), broadcasting (p == q, or one is 1),
# a match_cast to a dim another input binds (t == u), the element count
# of a reshape (s * 2 == v * 2) and the batch dims of a matmul (i == j, or
# one is 1: the kernel reads batch 0 of the operand whose dim is 1).  Every relation holds when all dims are
# equal, so the run at dims 1 and at the upper bounds computes; the
# generated entry refuses each broken relation with NAME_ERR_MATCH before
# writing, as the interpreter refuses the call.  Used by
# tests/unit/test_codegen.c (test_relations).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "k"), dtype="float32"), w: R.Tensor(("m", 2), dtype="float32"), a: R.Tensor(("p",), dtype="float32"), b: R.Tensor(("q",), dtype="float32"), e: R.Tensor(("t",), dtype="float32"), f: R.Tensor(("u",), dtype="float32"), r: R.Tensor(("s", 2), dtype="float32"), g: R.Tensor(("v",), dtype="float32"), ba: R.Tensor(("i", 2, 3), dtype="float32"), bb: R.Tensor(("j", 3, 4), dtype="float32")):
        n = T.int64()
        k = T.int64()
        m = T.int64()
        p = T.int64()
        q = T.int64()
        t = T.int64()
        u = T.int64()
        s = T.int64()
        v = T.int64()
        i = T.int64()
        j = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8, "k": 8, "m": 8, "p": 8, "q": 8, "t": 8, "u": 8, "s": 8, "v": 8, "i": 8, "j": 8}})
        with R.dataflow():
            y = R.matmul(x, w)
            c = R.add(a, b)
            e1 = R.match_cast(e, R.Tensor((u,), dtype="float32"))
            e2 = R.multiply(e1, f)
            h = R.reshape(r, R.shape([v, 2]))
            h2 = R.add(h, R.const(1.0, "float32"))
            bm = R.matmul(ba, bb)
            gv = (y, c, e2, h2, bm)
            R.output(gv)
        return gv
