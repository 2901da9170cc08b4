# Elementwise work without a product, which the interpreter and the
# generated C compute with the same operations: [codegen] rows turns each
# loop into a call of the row kernel (codegen/gen_row.c).  An add with a
# broadcast operand, ReLU, a clip (the NaN-propagating max and min, whose
# operand repeats), max pooling rows, sigmoid and exp; rows of 21 and 10
# elements, not multiples of 16 lanes.  Used by tests/unit/test_rows.c,
# which compares the interpreter's bits with --via tcc and --via cc with
# rows on (the inputs hold NaNs, infinities and -0).
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 8, 19, 21), dtype="float32"), b: R.Tensor((1, 8, 1, 1), dtype="float32"), lo: R.Tensor((), dtype="float32"), hi: R.Tensor((), dtype="float32")) -> R.Tuple(R.Tensor((1, 8, 9, 10), dtype="float32"), R.Tensor((1, 8, 19, 21), dtype="float32"), R.Tensor((1, 8, 19, 21), dtype="float32")):
        with R.dataflow():
            d: R.Tensor((1, 8, 19, 21), dtype="float32") = R.add(x, b)
            e: R.Tensor((1, 8, 19, 21), dtype="float32") = R.nn.relu(d)
            p: R.Tensor((1, 8, 9, 10), dtype="float32") = R.nn.max_pool2d(e, pool_size=[3, 3], strides=[2, 2])
            f: R.Tensor((1, 8, 19, 21), dtype="float32") = R.maximum(d, lo)
            g: R.Tensor((1, 8, 19, 21), dtype="float32") = R.minimum(f, hi)
            s: R.Tensor((1, 8, 19, 21), dtype="float32") = R.sigmoid(d)
            t: R.Tensor((1, 8, 19, 21), dtype="float32") = R.exp(x)
            u: R.Tensor((1, 8, 19, 21), dtype="float32") = R.multiply(s, t)
            R.output(p, g, u)
        return (p, g, u)
