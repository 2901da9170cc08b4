# A conv's epilogues as [codegen] rows writes them (codegen/gen_row.c): the
# bias add and ReLU, and a clip (the NaN-propagating max and min, whose
# operand repeats); rows of 21, not a multiple of 16 lanes.  The products
# sum in another order in the interpreter, so tests/unit/test_rows.c
# (rows_bits.py) compares the bits of the row calls with the plain loops'.
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 19, 21), dtype="float32"), w: R.Tensor((8, 3, 3, 3), dtype="float32"), b: R.Tensor((1, 8, 1, 1), dtype="float32"), lo: R.Tensor((), dtype="float32"), hi: R.Tensor((), dtype="float32")) -> R.Tuple(R.Tensor((1, 8, 19, 21), dtype="float32"), R.Tensor((1, 8, 19, 21), dtype="float32")):
        with R.dataflow():
            c: R.Tensor((1, 8, 19, 21), dtype="float32") = R.nn.conv2d(x, w, strides=[1, 1], padding=[1, 1, 1, 1])
            r: R.Tensor((1, 8, 19, 21), dtype="float32") = R.nn.relu(R.add(c, b))
            k: R.Tensor((1, 8, 19, 21), dtype="float32") = R.nn.conv2d(x, w, strides=[1, 1], padding=[1, 1, 1, 1])
            m: R.Tensor((1, 8, 19, 21), dtype="float32") = R.minimum(R.maximum(R.add(k, b), lo), hi)
            R.output(r, m)
        return (r, m)
