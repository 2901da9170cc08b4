# float16 and bfloat16 through the generated C (half bits in memory,
# float arithmetic, each stored value rounded once to nearest even): inputs,
# outputs and intermediates of both types, a float16 constant with an
# infinity, casts between them and to float32.  Run against the interpreter
# by tests/unit/test_codegen.c.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4), dtype="float16"), b: R.Tensor((4,), dtype="bfloat16"), f: R.Tensor((3, 4), dtype="float32")) -> R.Tuple(R.Tensor((3, 4), dtype="float16"), R.Tensor((3,), dtype="float16"), R.Tensor((3, 4), dtype="bfloat16"), R.Tensor((3, 4), dtype="float32")):
        with R.dataflow():
            e: R.Tensor((3, 4), dtype="float16") = R.exp(x)
            c: R.Tensor((3, 4), dtype="float16") = R.multiply(e, R.const([0.1, -3.0, 65504.0, float("inf")], "float16"))
            s: R.Tensor((3,), dtype="float16") = R.sum(x, axis=[1])
            fb: R.Tensor((3, 4), dtype="bfloat16") = R.astype(f, dtype="bfloat16")
            p: R.Tensor((3, 4), dtype="bfloat16") = R.add(fb, b)
            h: R.Tensor((3, 4), dtype="float16") = R.astype(p, dtype="float16")
            m: R.Tensor((3, 4), dtype="float16") = R.maximum(h, x)
            g: R.Tensor((3, 4), dtype="float32") = R.astype(m, dtype="float32")
            gv: R.Tuple(R.Tensor((3, 4), dtype="float16"), R.Tensor((3,), dtype="float16"), R.Tensor((3, 4), dtype="bfloat16"), R.Tensor((3, 4), dtype="float32")) = (c, s, p, g)
            R.output(gv)
        return gv
