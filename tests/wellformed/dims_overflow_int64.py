# Literal dims whose byte count (2^32 * 2^32 * 16 * 4) overflows int64:
# the planner and the generated C count bytes in int64.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4294967296, 4294967296, 16), dtype="float32")) -> R.Tensor((4294967296, 4294967296, 16), dtype="float32"):
        with R.dataflow():
            gv: R.Tensor((4294967296, 4294967296, 16), dtype="float32") = R.nn.relu(x)
            R.output(gv)
        return gv
