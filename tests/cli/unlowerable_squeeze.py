# R.squeeze with axis=None of a symbolic dim: whether n is squeezed away
# depends on n, so the result's rank is unknown and LegalizeOps has no loop
# nest for it.  `rxc compile` reports it against the binding (not as a
# pass-ordering problem).  Used by tests/unit/test_pipeline.c.
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), "float32")):
        with R.dataflow():
            y = R.squeeze(x)
            R.output(y)
        return y
