# A prim parameter: the interpreter takes it, the compiled entry (tensors only)
# refuses it at its declaration (tests/cli/cli_check.py).
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), dtype="float32"), s: R.Prim("float32")) -> R.Tensor((2,), dtype="float32"):
        gv: R.Tensor((2,), dtype="float32") = R.multiply(x, x)
        return gv
