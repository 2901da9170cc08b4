# An intermediate (not annotated) of 2^32 x 2^32 x 4 x 4 floats: its storage's byte count overflows int64.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
        with R.dataflow():
            a = R.broadcast_to(x, R.shape([4294967296, 4294967296, 4, 4]))
            gv = R.sum(a, axis=[0, 1])
            R.output(gv)
        return gv
