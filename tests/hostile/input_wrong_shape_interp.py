# An input whose shape breaks the parameter's annotation, through the interpreter.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32"), w: R.Tensor((4, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            gv: R.Tensor((2, 3), dtype="float32") = R.matmul(x, w, out_dtype="void")
            R.output(gv)
        return gv
