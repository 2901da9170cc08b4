# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module(check_well_formed=False)
class Module:
    @R.function
    def main(x: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
        # a comment between statements

        y: R.Tensor((2, 2), dtype="float32") = R.add(
            x,
            x,
        )
        t: R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((2, 2), dtype="float32")) = (y, x,)
        z: R.Tensor((2, 2), dtype="float32") = t[1]  # trailing comment
        return z
