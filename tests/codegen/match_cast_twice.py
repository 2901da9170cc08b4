# A var bound twice by one match_cast: m takes dimension 0 of x and must
# equal dimension 1 (3) too, so the call is valid only for n = 3 (the
# arithmetic must not take m's range from its second place, which proved
# the check away).  Used by tests/unit/test_codegen.c (test_relations);
# not run at dims 1 and the upper bounds, where it refuses.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, 4), dtype="float32")):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16}})
        with R.dataflow():
            lv1 = R.match_cast(x, R.Tensor((m, m, 4), dtype="float32"))
            gv = R.exp(lv1)
            R.output(gv)
        return gv
