# A dead op whose shape relation can fail still refuses: the interpreter
# runs every binding, so the reshape of lv1 (element counts) and the concat
# (non-axis dims) refuse the call though lv3 is never used.  lv1's shape is
# unknown until LegalizeOps decides the concat (m == k at run time), so
# DeadCodeElimination keeps the reshape until its check exists.  Used by
# tests/unit/test_codegen.c (test_relations).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x0: R.Tensor(("n", "m"), dtype="float32"), x1: R.Tensor(("p", "k"), dtype="float32"), g: R.Tensor(("q",), dtype="float32")):
        n = T.int64()
        m = T.int64()
        p = T.int64()
        k = T.int64()
        q = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8, "m": 8, "p": 8, "k": 8, "q": 8}})
        with R.dataflow():
            lv1 = R.concat((x0, x1), axis=0)
            lv3 = R.reshape(lv1, R.shape([q * 2, m]))
            gv = R.exp(lv1)
            R.output(gv)
        return gv
